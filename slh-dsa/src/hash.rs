//! The tweakable hash functions of FIPS 205 §11: `F`, `H`, `T_l`, `PRF`,
//! `PRF_msg` and `H_msg`, for the SHAKE (§11.1) and SHA2 (§11.2) families.
//!
//! A [`Hasher`] is made once per key operation from `PK.seed`. For SHA2 it
//! keeps the SHA-256 state after the first block `PK.seed || 0^(64-n)`
//! (and the SHA-512 state after `PK.seed || 0^(128-n)` where `n > 16`), so
//! that every `F`/`H`/`T`/`PRF` call compresses only its own blocks. SHAKE
//! absorbs directly.
//!
//! WOTS+ chains and FORS leaves go through [`Hasher::f_many`] and their
//! secrets through [`Hasher::prf_many`], several independent calls at
//! once (up to [`LANES`]): the seam for the multi-way SIMD kernels (8-way
//! SHA-256, 4-way SHAKE). Their portable form is a loop over one-block
//! hashes. XMSS leaves are WOTS+ public keys, so they go through it too.

use pqkit_common::keccak::{SHAKE256_RATE, Shake256, keccak_f1600_one};
use pqkit_common::sha2::{Sha256, Sha512, compress256, compress512};
use zeroize::Zeroize;

use crate::address::Adrs;
use crate::params::{HashFamily, MAX_M, MAX_N, ParameterSet};

/// How many `F` calls [`Hasher::f_many`] is given at most: the lane count
/// of the widest kernel planned (8-way SHA-256 on AVX2).
pub(crate) const LANES: usize = 8;

/// One n-byte hash value, in a buffer of the largest `n`.
pub(crate) type Node = [u8; MAX_N];

const IV256: [u32; 8] = [
    0x6a09_e667,
    0xbb67_ae85,
    0x3c6e_f372,
    0xa54f_f53a,
    0x510e_527f,
    0x9b05_688c,
    0x1f83_d9ab,
    0x5be0_cd19,
];
const IV512: [u64; 8] = [
    0x6a09_e667_f3bc_c908,
    0xbb67_ae85_84ca_a73b,
    0x3c6e_f372_fe94_f82b,
    0xa54f_f53a_5f1d_36f1,
    0x510e_527f_ade6_82d1,
    0x9b05_688c_2b3e_6c1f,
    0x1f83_d9ab_fb41_bd6b,
    0x5be0_cd19_137e_2179,
];

/// SHA-256 continued from a midstate after one 64-byte block.
struct Tail256 {
    state: [u32; 8],
    buf: [u8; 64],
    len: usize,
    total: u64,
}

impl Tail256 {
    fn new(mid: &[u32; 8]) -> Self {
        Self {
            state: *mid,
            buf: [0; 64],
            len: 0,
            total: 64,
        }
    }
    fn update(&mut self, mut data: &[u8]) {
        self.total += data.len() as u64;
        while !data.is_empty() {
            let take = (64 - self.len).min(data.len());
            self.buf[self.len..self.len + take].copy_from_slice(&data[..take]);
            self.len += take;
            data = &data[take..];
            if self.len == 64 {
                compress256(&mut self.state, &[self.buf]);
                self.len = 0;
            }
        }
    }
    /// The first `out.len()` (at most 32) bytes of the digest.
    fn finalize(mut self, out: &mut [u8]) {
        let bits = self.total * 8;
        self.buf[self.len] = 0x80;
        self.buf[self.len + 1..].fill(0);
        if self.len + 1 > 56 {
            compress256(&mut self.state, &[self.buf]);
            self.buf.fill(0);
        }
        self.buf[56..].copy_from_slice(&bits.to_be_bytes());
        compress256(&mut self.state, &[self.buf]);
        let mut full = [0u8; 32];
        for (o, w) in full.chunks_exact_mut(4).zip(self.state) {
            o.copy_from_slice(&w.to_be_bytes());
        }
        out.copy_from_slice(&full[..out.len()]);
        full.zeroize();
    }
}

impl Drop for Tail256 {
    fn drop(&mut self) {
        self.state.zeroize();
        self.buf.zeroize();
    }
}

/// SHA-512 continued from a midstate after one 128-byte block.
struct Tail512 {
    state: [u64; 8],
    buf: [u8; 128],
    len: usize,
    total: u64,
}

impl Tail512 {
    fn new(mid: &[u64; 8]) -> Self {
        Self {
            state: *mid,
            buf: [0; 128],
            len: 0,
            total: 128,
        }
    }
    fn update(&mut self, mut data: &[u8]) {
        self.total += data.len() as u64;
        while !data.is_empty() {
            let take = (128 - self.len).min(data.len());
            self.buf[self.len..self.len + take].copy_from_slice(&data[..take]);
            self.len += take;
            data = &data[take..];
            if self.len == 128 {
                compress512(&mut self.state, &[self.buf]);
                self.len = 0;
            }
        }
    }
    fn finalize(mut self, out: &mut [u8]) {
        let bits = u128::from(self.total) * 8;
        self.buf[self.len] = 0x80;
        self.buf[self.len + 1..].fill(0);
        if self.len + 1 > 112 {
            compress512(&mut self.state, &[self.buf]);
            self.buf.fill(0);
        }
        self.buf[112..].copy_from_slice(&bits.to_be_bytes());
        compress512(&mut self.state, &[self.buf]);
        let mut full = [0u8; 64];
        for (o, w) in full.chunks_exact_mut(8).zip(self.state) {
            o.copy_from_slice(&w.to_be_bytes());
        }
        out.copy_from_slice(&full[..out.len()]);
        full.zeroize();
    }
}

impl Drop for Tail512 {
    fn drop(&mut self) {
        self.state.zeroize();
        self.buf.zeroize();
    }
}

/// The hash functions of one parameter set, bound to one `PK.seed`.
pub(crate) struct Hasher {
    n: usize,
    family: HashFamily,
    pk_seed: Node,
    /// SHA-256 state after `PK.seed || 0^(64-n)` (SHA2 family).
    mid256: [u32; 8],
    /// SHA-512 state after `PK.seed || 0^(128-n)` (SHA2 family, n > 16).
    mid512: [u64; 8],
}

impl Hasher {
    /// The hashes of `P` for `PK.seed` (its first `P::N` bytes are used).
    pub(crate) fn new<P: ParameterSet>(pk_seed: &[u8]) -> Self {
        let n = P::N;
        let mut seed = [0u8; MAX_N];
        seed[..n].copy_from_slice(&pk_seed[..n]);
        let mut mid256 = [0u32; 8];
        let mut mid512 = [0u64; 8];
        if P::FAMILY == HashFamily::Sha2 {
            let mut block = [0u8; 64];
            block[..n].copy_from_slice(&seed[..n]);
            mid256 = IV256;
            compress256(&mut mid256, &[block]);
            if n > 16 {
                let mut block = [0u8; 128];
                block[..n].copy_from_slice(&seed[..n]);
                mid512 = IV512;
                compress512(&mut mid512, &[block]);
            }
        }
        Self {
            n,
            family: P::FAMILY,
            pk_seed: seed,
            mid256,
            mid512,
        }
    }

    /// `n`.
    pub(crate) fn n(&self) -> usize {
        self.n
    }

    /// One SHA-256 compression after the midstate: `ADRS^c || parts`
    /// (at most 55 bytes, so it pads into the same block), the first
    /// `out.len()` bytes of the digest into `out`. `block` is the caller's
    /// scratch, left holding the input (the caller wipes it if secret).
    fn sha256_block(&self, adrs: &Adrs, parts: &[&[u8]], out: &mut [u8], block: &mut [u8; 64]) {
        block[..22].copy_from_slice(&adrs.compressed());
        let mut at = 22;
        for p in parts {
            block[at..at + p.len()].copy_from_slice(p);
            at += p.len();
        }
        block[at] = 0x80;
        block[at + 1..56].fill(0);
        block[56..].copy_from_slice(&(((64 + at) as u64) * 8).to_be_bytes());
        let mut st = self.mid256;
        compress256(&mut st, core::slice::from_ref(block));
        for (o, w) in out.chunks_exact_mut(4).zip(st) {
            o.copy_from_slice(&w.to_be_bytes());
        }
    }

    /// [`sha256_block`](Self::sha256_block) for SHA-512 (at most 111
    /// bytes of input).
    fn sha512_block(&self, adrs: &Adrs, parts: &[&[u8]], out: &mut [u8], block: &mut [u8; 128]) {
        block[..22].copy_from_slice(&adrs.compressed());
        let mut at = 22;
        for p in parts {
            block[at..at + p.len()].copy_from_slice(p);
            at += p.len();
        }
        block[at] = 0x80;
        block[at + 1..112].fill(0);
        block[112..].copy_from_slice(&(((128 + at) as u128) * 8).to_be_bytes());
        let mut st = self.mid512;
        compress512(&mut st, core::slice::from_ref(block));
        for (o, w) in out.chunks_exact_mut(8).zip(st) {
            o.copy_from_slice(&w.to_be_bytes());
        }
    }

    /// SHAKE256 of `PK.seed || ADRS || parts` (at most 135 bytes: one
    /// Keccak-f permutation), `out.len()` bytes. `block` and `st` are the
    /// caller's scratch, left holding the input and the permuted state
    /// (from which the input can be recomputed: the caller wipes both if
    /// the input is secret).
    fn shake_block(
        &self,
        adrs: &Adrs,
        parts: &[&[u8]],
        out: &mut [u8],
        block: &mut [u8; SHAKE256_RATE],
        st: &mut [u64; 25],
    ) {
        let n = self.n;
        block[..n].copy_from_slice(&self.pk_seed[..n]);
        block[n..n + 32].copy_from_slice(&adrs.0);
        let mut at = n + 32;
        for p in parts {
            block[at..at + p.len()].copy_from_slice(p);
            at += p.len();
        }
        block[at..].fill(0);
        block[at] = 0x1f;
        block[SHAKE256_RATE - 1] |= 0x80;
        for (lane, b) in st.iter_mut().zip(block.chunks_exact(8)) {
            let mut w = [0u8; 8];
            w.copy_from_slice(b);
            *lane = u64::from_le_bytes(w);
        }
        st[SHAKE256_RATE / 8..].fill(0);
        keccak_f1600_one(st);
        for (o, lane) in out.chunks_exact_mut(8).zip(st.iter()) {
            o.copy_from_slice(&lane.to_le_bytes());
        }
    }

    /// A tweakable hash with one short input (`F`, `PRF`, and `H` on its
    /// two halves), each family's single-block path. `wide`: SHA-512 for
    /// `H` at `n > 16` (FIPS 205 §11.2.2). `secret`: wipe the scratch.
    fn thash(&self, adrs: &Adrs, parts: &[&[u8]], wide: bool, secret: bool) -> Node {
        let n = self.n;
        let mut out = [0u8; MAX_N];
        match self.family {
            HashFamily::Shake => {
                let mut block = [0u8; SHAKE256_RATE];
                let mut st = [0u64; 25];
                self.shake_block(adrs, parts, &mut out[..n], &mut block, &mut st);
                if secret {
                    block.zeroize();
                    st.zeroize();
                }
            }
            HashFamily::Sha2 if wide && n > 16 => {
                let mut block = [0u8; 128];
                self.sha512_block(adrs, parts, &mut out[..n], &mut block);
                if secret {
                    block.zeroize();
                }
            }
            HashFamily::Sha2 => {
                let mut block = [0u8; 64];
                self.sha256_block(adrs, parts, &mut out[..n], &mut block);
                if secret {
                    block.zeroize();
                }
            }
        }
        out
    }

    /// `F(PK.seed, ADRS, M1)` on public data (verification); signing's
    /// chains go through [`f_many`](Self::f_many).
    pub(crate) fn f(&self, adrs: &Adrs, m: &[u8]) -> Node {
        self.thash(adrs, &[&m[..self.n]], false, false)
    }

    /// `inputs[i] = F(PK.seed, adrs[i], inputs[i])` for every `i`: several
    /// independent `F` calls (at most [`LANES`]), the seam for multi-way
    /// kernels. `adrs` and `inputs` have the same length. The inputs may
    /// be secret (WOTS+ chain values below the signed position, FORS
    /// secrets): the scratch is wiped once per call.
    pub(crate) fn f_many(&self, adrs: &[Adrs], inputs: &mut [Node]) {
        let n = self.n;
        match self.family {
            HashFamily::Shake => {
                let mut block = [0u8; SHAKE256_RATE];
                let mut st = [0u64; 25];
                for (a, x) in adrs.iter().zip(inputs.iter_mut()) {
                    let m = *x;
                    // The output with zeros after byte n, as `f` gives it.
                    *x = [0; MAX_N];
                    self.shake_block(a, &[&m[..n]], &mut x[..n], &mut block, &mut st);
                }
                block.zeroize();
                st.zeroize();
            }
            HashFamily::Sha2 => {
                let mut block = [0u8; 64];
                for (a, x) in adrs.iter().zip(inputs.iter_mut()) {
                    let m = *x;
                    *x = [0; MAX_N];
                    self.sha256_block(a, &[&m[..n]], &mut x[..n], &mut block);
                }
                block.zeroize();
            }
        }
    }

    /// `H(PK.seed, ADRS, left || right)` (tree nodes: public).
    pub(crate) fn h(&self, adrs: &Adrs, left: &[u8], right: &[u8]) -> Node {
        let n = self.n;
        self.thash(adrs, &[&left[..n], &right[..n]], true, false)
    }

    /// `T_l(PK.seed, ADRS, M)` for the `l` n-byte values of `values`.
    pub(crate) fn t(&self, adrs: &Adrs, values: &[Node]) -> Node {
        let n = self.n;
        match self.family {
            HashFamily::Shake => {
                let mut s = Shake256::default();
                s.update(&self.pk_seed[..n]);
                s.update(&adrs.0);
                for v in values {
                    s.update(&v[..n]);
                }
                let mut out = [0u8; MAX_N];
                s.finalize_xof().read(&mut out[..n]);
                out
            }
            HashFamily::Sha2 => {
                let c = adrs.compressed();
                let mut out = [0u8; MAX_N];
                if n > 16 {
                    let mut t = Tail512::new(&self.mid512);
                    t.update(&c);
                    for v in values {
                        t.update(&v[..n]);
                    }
                    t.finalize(&mut out[..n]);
                } else {
                    let mut t = Tail256::new(&self.mid256);
                    t.update(&c);
                    for v in values {
                        t.update(&v[..n]);
                    }
                    t.finalize(&mut out[..n]);
                }
                out
            }
        }
    }

    /// `PRF(PK.seed, SK.seed, ADRS)` (SHA-256 at every `n` for SHA2).
    pub(crate) fn prf(&self, adrs: &Adrs, sk_seed: &[u8]) -> Node {
        self.thash(adrs, &[&sk_seed[..self.n]], false, true)
    }

    /// `out[i] = PRF(PK.seed, SK.seed, adrs[i])` for every `i` (at most
    /// [`LANES`]): the secret values of WOTS+ chains and FORS leaves, the
    /// same seam as [`f_many`](Self::f_many). The scratch is wiped once.
    pub(crate) fn prf_many(&self, adrs: &[Adrs], sk_seed: &[u8], out: &mut [Node]) {
        let n = self.n;
        let seed = &sk_seed[..n];
        match self.family {
            HashFamily::Shake => {
                let mut block = [0u8; SHAKE256_RATE];
                let mut st = [0u64; 25];
                for (a, o) in adrs.iter().zip(out.iter_mut()) {
                    *o = [0; MAX_N];
                    self.shake_block(a, &[seed], &mut o[..n], &mut block, &mut st);
                }
                block.zeroize();
                st.zeroize();
            }
            HashFamily::Sha2 => {
                let mut block = [0u8; 64];
                for (a, o) in adrs.iter().zip(out.iter_mut()) {
                    *o = [0; MAX_N];
                    self.sha256_block(a, &[seed], &mut o[..n], &mut block);
                }
                block.zeroize();
            }
        }
    }

    /// `PRF_msg(SK.prf, opt_rand, M)`, `M` given in parts.
    pub(crate) fn prf_msg(&self, sk_prf: &[u8], opt_rand: &[u8], msg: &[&[u8]]) -> Node {
        let n = self.n;
        let mut out = [0u8; MAX_N];
        match self.family {
            HashFamily::Shake => {
                let mut s = Shake256::default();
                s.update(&sk_prf[..n]);
                s.update(&opt_rand[..n]);
                for p in msg {
                    s.update(p);
                }
                s.finalize_xof().read(&mut out[..n]);
            }
            HashFamily::Sha2 if n == 16 => {
                let mut key = [0u8; 64];
                key[..n].copy_from_slice(&sk_prf[..n]);
                let mut d = hmac256(&key, opt_rand, n, msg);
                out[..n].copy_from_slice(&d[..n]);
                d.zeroize();
                key.zeroize();
            }
            HashFamily::Sha2 => {
                let mut key = [0u8; 128];
                key[..n].copy_from_slice(&sk_prf[..n]);
                let mut d = hmac512(&key, opt_rand, n, msg);
                out[..n].copy_from_slice(&d[..n]);
                d.zeroize();
                key.zeroize();
            }
        }
        out
    }

    /// `H_msg(R, PK.seed, PK.root, M)`: `m` bytes in a buffer of
    /// [`MAX_M`].
    pub(crate) fn h_msg(&self, m: usize, r: &[u8], pk_root: &[u8], msg: &[&[u8]]) -> [u8; MAX_M] {
        let n = self.n;
        let mut out = [0u8; MAX_M];
        match self.family {
            HashFamily::Shake => {
                let mut s = Shake256::default();
                s.update(&r[..n]);
                s.update(&self.pk_seed[..n]);
                s.update(&pk_root[..n]);
                for p in msg {
                    s.update(p);
                }
                s.finalize_xof().read(&mut out[..m]);
            }
            HashFamily::Sha2 if n == 16 => {
                let mut h = Sha256::new();
                h.update(&r[..n]);
                h.update(&self.pk_seed[..n]);
                h.update(&pk_root[..n]);
                for p in msg {
                    h.update(p);
                }
                let inner = h.finalize();
                // MGF1-SHA-256(R || PK.seed || inner, m)
                for (c, chunk) in out[..m].chunks_mut(32).enumerate() {
                    let mut g = Sha256::new();
                    g.update(&r[..n]);
                    g.update(&self.pk_seed[..n]);
                    g.update(&inner);
                    g.update(&(c as u32).to_be_bytes());
                    let d = g.finalize();
                    chunk.copy_from_slice(&d[..chunk.len()]);
                }
            }
            HashFamily::Sha2 => {
                let mut h = Sha512::new();
                h.update(&r[..n]);
                h.update(&self.pk_seed[..n]);
                h.update(&pk_root[..n]);
                for p in msg {
                    h.update(p);
                }
                let inner = h.finalize();
                for (c, chunk) in out[..m].chunks_mut(64).enumerate() {
                    let mut g = Sha512::new();
                    g.update(&r[..n]);
                    g.update(&self.pk_seed[..n]);
                    g.update(&inner);
                    g.update(&(c as u32).to_be_bytes());
                    let d = g.finalize();
                    chunk.copy_from_slice(&d[..chunk.len()]);
                }
            }
        }
        out
    }
}

/// HMAC-SHA-256 (RFC 2104) with a key already zero-padded to the block,
/// over `opt_rand[..n] || msg`.
fn hmac256(key: &[u8; 64], opt_rand: &[u8], n: usize, msg: &[&[u8]]) -> [u8; 32] {
    let mut pad = [0u8; 64];
    for (p, k) in pad.iter_mut().zip(key) {
        *p = k ^ 0x36;
    }
    let mut inner = Sha256::new();
    inner.update(&pad);
    inner.update(&opt_rand[..n]);
    for p in msg {
        inner.update(p);
    }
    let mut ih = inner.finalize();
    for (p, k) in pad.iter_mut().zip(key) {
        *p = k ^ 0x5c;
    }
    let mut outer = Sha256::new();
    outer.update(&pad);
    outer.update(&ih);
    pad.zeroize();
    ih.zeroize();
    outer.finalize()
}

/// HMAC-SHA-512 as [`hmac256`].
fn hmac512(key: &[u8; 128], opt_rand: &[u8], n: usize, msg: &[&[u8]]) -> [u8; 64] {
    let mut pad = [0u8; 128];
    for (p, k) in pad.iter_mut().zip(key) {
        *p = k ^ 0x36;
    }
    let mut inner = Sha512::new();
    inner.update(&pad);
    inner.update(&opt_rand[..n]);
    for p in msg {
        inner.update(p);
    }
    let mut ih = inner.finalize();
    for (p, k) in pad.iter_mut().zip(key) {
        *p = k ^ 0x5c;
    }
    let mut outer = Sha512::new();
    outer.update(&pad);
    outer.update(&ih);
    pad.zeroize();
    ih.zeroize();
    outer.finalize()
}

impl Drop for Hasher {
    fn drop(&mut self) {
        // The midstates are public (PK.seed), but cheap to clear.
        self.mid256.zeroize();
        self.mid512.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{Sha2_128s, Sha2_256f};

    /// The midstate path equals SHA-256/512 over the whole padded input.
    #[test]
    fn midstate_matches_full_hash() {
        let seed = [7u8; 32];
        let mut adrs = Adrs::default();
        adrs.set_layer(3);
        adrs.set_tree(99);
        adrs.set_key_pair(5);
        let m1 = [0xa5u8; 32];
        let m2 = [0x5au8; 32];

        let hs = Hasher::new::<Sha2_128s>(&seed);
        let mut full = Sha256::new();
        full.update(&seed[..16]);
        full.update(&[0u8; 48]);
        full.update(&adrs.compressed());
        full.update(&m1[..16]);
        full.update(&m2[..16]);
        assert_eq!(&hs.h(&adrs, &m1, &m2)[..16], &full.finalize()[..16]);

        let hs = Hasher::new::<Sha2_256f>(&seed);
        let mut full = Sha512::new();
        full.update(&seed);
        full.update(&[0u8; 96]);
        full.update(&adrs.compressed());
        full.update(&m1);
        full.update(&m2);
        assert_eq!(&hs.h(&adrs, &m1, &m2)[..], &full.finalize()[..32]);
        // F stays SHA-256 at n = 32.
        let mut full = Sha256::new();
        full.update(&seed);
        full.update(&[0u8; 32]);
        full.update(&adrs.compressed());
        full.update(&m1);
        assert_eq!(&hs.f(&adrs, &m1)[..], &full.finalize()[..]);
        // T over many values crosses several blocks.
        let vals = [[3u8; 32]; 9];
        let mut full = Sha512::new();
        full.update(&seed);
        full.update(&[0u8; 96]);
        full.update(&adrs.compressed());
        for v in &vals {
            full.update(v);
        }
        assert_eq!(&hs.t(&adrs, &vals)[..], &full.finalize()[..32]);
    }

    #[test]
    fn prf_many_is_prf() {
        for hs in [
            Hasher::new::<Sha2_128s>(&[1u8; 16]),
            Hasher::new::<crate::params::Shake256f>(&[1u8; 32]),
        ] {
            let mut adrs = [Adrs::default(); LANES];
            for (i, a) in adrs.iter_mut().enumerate() {
                a.set_chain(i as u32);
            }
            let seed = [5u8; 32];
            let want: [Node; LANES] = core::array::from_fn(|i| hs.prf(&adrs[i], &seed));
            let mut out = [[9u8; MAX_N]; LANES];
            hs.prf_many(&adrs, &seed, &mut out);
            assert_eq!(out, want);
        }
    }

    #[test]
    fn f_many_is_f() {
        let hs = Hasher::new::<Sha2_128s>(&[1u8; 16]);
        let mut adrs = [Adrs::default(); LANES];
        let mut x = [[0u8; MAX_N]; LANES];
        for (i, (a, v)) in adrs.iter_mut().zip(x.iter_mut()).enumerate() {
            a.set_chain(i as u32);
            v.fill(i as u8);
        }
        let want: [Node; LANES] = core::array::from_fn(|i| hs.f(&adrs[i], &x[i]));
        hs.f_many(&adrs, &mut x);
        assert_eq!(x, want);
    }
}
