//! The tweakable hash functions of FIPS 205 §11: `F`, `H`, `T_l`, `PRF`,
//! `PRF_msg` and `H_msg`, for the SHAKE (§11.1) and SHA2 (§11.2) families.
//!
//! A [`Hasher`] is made once per key operation from `PK.seed`. For SHA2 it
//! keeps the SHA-256 state after the first block `PK.seed || 0^(64-n)`
//! (and the SHA-512 state after `PK.seed || 0^(128-n)` where `n > 16`), so
//! that every `F`/`H`/`T`/`PRF` call compresses only its own blocks. SHAKE
//! absorbs directly.
//!
//! The many independent calls go to the multi-way kernels of
//! `pqkit-common` in one call each: [`Hasher::f_many`], [`Hasher::prf_many`]
//! and [`Hasher::h_many`] (tree levels, gathered chains),
//! [`Hasher::fors_leaves`] (PRF then F, in place), [`Hasher::chains`]
//! (the chains of one WOTS+ key, kept in their SHA-256 blocks) and
//! [`Hasher::wots_pks`] (the WOTS+ public keys of eight XMSS leaves, and
//! the signed leaf's WOTS+ signature on the way). SHA2 goes through
//! `sha2::compress256_many` (eight SHA-NI compressions interleaved, or
//! eight AVX2/AVX-512 lanes) and `compress512_many` (eight lanes), SHAKE
//! through the dispatched 4-way Keccak; each is bit for bit its
//! one-at-a-time form, tested at every count.

use pqkit_common::keccak::{SHAKE256_RATE, Shake256, StateX4, keccak_f1600_one};
use pqkit_common::sha2::{
    Sha256, Sha512, compress256, compress256_many, compress256_many_into,
    compress256_many_into_after4, compress512, compress512_many, rounds256_first4,
};
use pqkit_common::wipe::wipe;
use pqkit_common::{Backend, Kernel, dispatch};
use zeroize::Zeroize;

use crate::address::{Adrs, WOTS_HASH, WOTS_PK, WOTS_PRF};
use crate::params::{HashFamily, MAX_LEN, MAX_M, MAX_N, ParameterSet};

/// One n-byte hash value, in a buffer of the largest `n`.
pub(crate) type Node = [u8; MAX_N];

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
            mid256 = Sha256::IV;
            compress256(&mut mid256, &[block]);
            if n > 16 {
                let mut block = [0u8; 128];
                block[..n].copy_from_slice(&seed[..n]);
                mid512 = Sha512::IV;
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
        sha256_pad(adrs, parts, block);
        let mut st = self.mid256;
        compress256(&mut st, core::slice::from_ref(block));
        for (o, w) in out.chunks_exact_mut(4).zip(st) {
            o.copy_from_slice(&w.to_be_bytes());
        }
    }

    /// [`sha256_block`](Self::sha256_block) for SHA-512 (at most 111
    /// bytes of input).
    fn sha512_block(&self, adrs: &Adrs, parts: &[&[u8]], out: &mut [u8], block: &mut [u8; 128]) {
        sha512_pad(adrs, parts, block);
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
        self.shake_pad(adrs, parts, block);
        for (lane, b) in st.iter_mut().zip(block.chunks_exact(8)) {
            *lane = le64(b);
        }
        st[SHAKE256_RATE / 8..].fill(0);
        keccak_f1600_one(st);
        for (o, lane) in out.chunks_exact_mut(8).zip(st.iter()) {
            o.copy_from_slice(&lane.to_le_bytes());
        }
    }

    /// The padded SHAKE256 block of `PK.seed || ADRS || parts` (at most
    /// 135 bytes).
    fn shake_pad(&self, adrs: &Adrs, parts: &[&[u8]], block: &mut [u8; SHAKE256_RATE]) {
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
    }

    /// `out[i] = Th(adrs[i], part(i))` for every `i`: independent
    /// one-block hashes of one short input each (`F` and `PRF`), the
    /// multi-way path. SHA2: the padded blocks go to
    /// `sha2::compress256_many` (eight at a time interleaved on the SHA
    /// extensions, or in AVX2 lanes). SHAKE: four at a time through the
    /// backend's 4-way Keccak (`keccak_f1600_x4`); a last single one
    /// through the one-state permutation. The scratch is wiped (inputs
    /// may be secret).
    fn one_block_many(
        &self,
        adrs: &[Adrs],
        out: &mut [Node],
        part: impl Fn(usize, &Node, &mut [u8; 2 * MAX_N]) -> usize,
    ) {
        let n = self.n;
        let count = adrs.len().min(out.len());
        match self.family {
            HashFamily::Sha2 => {
                let mut states = [[0u32; 8]; CHUNK];
                let mut blocks = [[0u8; 64]; CHUNK];
                let mut first = 0;
                while first < count {
                    let k = (count - first).min(CHUNK);
                    let mut m = [0u8; 2 * MAX_N];
                    for j in 0..k {
                        let l = part(first + j, &out[first + j], &mut m);
                        sha256_pad(&adrs[first + j], &[&m[..l]], &mut blocks[j]);
                        states[j] = self.mid256;
                    }
                    m.zeroize();
                    compress256_many(&mut states[..k], &blocks[..k]);
                    for (o, st) in out[first..first + k].iter_mut().zip(&states) {
                        *o = [0; MAX_N];
                        for (b, w) in o[..n].chunks_exact_mut(4).zip(st) {
                            b.copy_from_slice(&w.to_be_bytes());
                        }
                    }
                    first += k;
                }
                wipe(states[..count.min(CHUNK)].as_flattened_mut());
                wipe(blocks[..count.min(CHUNK)].as_flattened_mut());
            }
            HashFamily::Shake => {
                let mut block = [0u8; SHAKE256_RATE];
                let mut x4 = StateX4::default();
                let mut first = 0;
                while count - first >= 2 {
                    let k = (count - first).min(4);
                    x4.lanes = [[0; 4]; 25];
                    for j in 0..k {
                        let mut m = [0u8; 2 * MAX_N];
                        let l = part(first + j, &out[first + j], &mut m);
                        self.shake_pad(&adrs[first + j], &[&m[..l]], &mut block);
                        m.zeroize();
                        for (lane, b) in x4.lanes.iter_mut().zip(block.chunks_exact(8)) {
                            lane[j] = le64(b);
                        }
                    }
                    dispatch(PermuteX4(&mut x4));
                    for (j, o) in out[first..first + k].iter_mut().enumerate() {
                        *o = [0; MAX_N];
                        for (b, lane) in o[..n].chunks_exact_mut(8).zip(&x4.lanes) {
                            b.copy_from_slice(&lane[j].to_le_bytes());
                        }
                    }
                    first += k;
                }
                if first < count {
                    let mut st = [0u64; 25];
                    let mut m = [0u8; 2 * MAX_N];
                    let l = part(first, &out[first], &mut m);
                    out[first] = [0; MAX_N];
                    self.shake_block(
                        &adrs[first],
                        &[&m[..l]],
                        &mut out[first][..n],
                        &mut block,
                        &mut st,
                    );
                    m.zeroize();
                    st.zeroize();
                }
                block.zeroize();
                // StateX4 wipes itself on drop.
            }
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

    /// `F(PK.seed, ADRS, M1)` one at a time: the reference the multi-way
    /// paths ([`f_many`](Self::f_many)) are tested against.
    #[cfg(test)]
    pub(crate) fn f(&self, adrs: &Adrs, m: &[u8]) -> Node {
        self.thash(adrs, &[&m[..self.n]], false, false)
    }

    /// `inputs[i] = F(PK.seed, adrs[i], inputs[i])` for every `i`: any
    /// number of independent `F` calls, through the multi-way path. `adrs` and `inputs` have the same length. The inputs may
    /// be secret (WOTS+ chain values below the signed position, FORS
    /// secrets): the scratch is wiped once per call.
    pub(crate) fn f_many(&self, adrs: &[Adrs], inputs: &mut [Node]) {
        let n = self.n;
        self.one_block_many(adrs, inputs, |_, x, m| {
            m[..n].copy_from_slice(&x[..n]);
            n
        });
    }

    /// FIPS 205 Alg. 5 `chain` for the chains of one WOTS+ key at once:
    /// chain `i` of `x` advances `steps[i]` times from position
    /// `start[i]` (every chain starts at 0, as in key generation and
    /// signing, or ends at `w - 1 = 15`, as in verification). `adrs` is
    /// the key pair's WOTS+ hash address. Each step's active chains are
    /// one multi-way call.
    ///
    /// SHA2 keeps every chain in its padded block, so that a step only
    /// writes the hash address and the previous output into it: the
    /// chains are ordered so that each step's active ones are adjacent
    /// (by start, then by end, latest first), and each step is one
    /// `compress256_many` over them.
    pub(crate) fn chains(&self, adrs: &Adrs, x: &mut [Node], start: &[u8], steps: &[u8]) {
        let len = x.len();
        if self.family == HashFamily::Shake {
            self.chains_generic(adrs, x, start, steps);
            return;
        }
        let n = self.n;
        // Chain order: start ascending, then end descending (public: the
        // digits of the signed message).
        let mut order = [0u8; MAX_LEN];
        for (i, o) in order.iter_mut().enumerate().take(len) {
            *o = i as u8;
        }
        let key = |i: u8| {
            let i = usize::from(i);
            (start[i], core::cmp::Reverse(start[i] + steps[i]))
        };
        order[..len].sort_unstable_by_key(|&i| key(i));
        let mut blocks = [[0u8; 64]; MAX_LEN];
        for (b, &i) in blocks.iter_mut().zip(&order[..len]) {
            let mut a = *adrs;
            a.set_chain(u32::from(i));
            a.set_hash(0);
            sha256_pad(&a, &[&x[usize::from(i)][..n]], b);
        }
        for t in 0..15u8 {
            // The active chains, adjacent by the order (checked: a chain
            // pattern this function was not written for is an internal
            // error, not an input condition).
            let active = |k: usize| {
                let i = usize::from(order[k]);
                start[i] <= t && t < start[i] + steps[i]
            };
            let Some(lo) = (0..len).find(|&k| active(k)) else {
                continue;
            };
            let hi = (lo..len).find(|&k| !active(k)).unwrap_or(len);
            debug_assert!((hi..len).all(|k| !active(k)), "non-adjacent active chains");
            for b in &mut blocks[lo..hi] {
                b[18..22].copy_from_slice(&u32::from(t).to_be_bytes());
            }
            compress256_many_into(&self.mid256, &mut blocks[lo..hi], 22, n);
        }
        for (b, &i) in blocks.iter().zip(&order[..len]) {
            let v = &mut x[usize::from(i)];
            *v = [0; MAX_N];
            v[..n].copy_from_slice(&b[22..22 + n]);
        }
        wipe(blocks[..len].as_flattened_mut());
    }

    /// The WOTS+ public keys of up to [`WOTS_BATCH`] consecutive XMSS
    /// leaves at once (SHA2 only; `false` and nothing written for
    /// SHAKE, whose 4-way path is already fed by one key's chains):
    /// leaves `first..first + out.len()` of the tree at `adrs` (layer and
    /// tree set), in `scratch`.
    ///
    /// The chains of [`WOTS_CHAINS`] leaves at a time walk together, each
    /// kept in its padded block, so every step is one
    /// `compress256_many_into_after4` over 4 x 35, 4 x 51 or 4 x 67
    /// blocks, resuming after each leaf's four shared rounds. The secrets
    /// are computed in place: a PRF block and the chain's first F block
    /// have the same length, so the PRF output
    /// lands where F reads it and only the address is rewritten. The
    /// chain ends go into the leaves' `T_len` messages, and the up to
    /// [`WOTS_BATCH`] `T_len` run side by side
    /// ([`t_chain_ends`](Self::t_chain_ends)).
    ///
    /// With `sign`, when its leaf is among these, the chain values at its
    /// digits are copied out on the way: the WOTS+ signature of that leaf
    /// (FIPS 205 Alg. 7) without walking its chains a second time. When
    /// the call returns, the blocks hold only chain ends (public).
    pub(crate) fn wots_pks(
        &self,
        sk_seed: &[u8],
        adrs: &Adrs,
        first: u32,
        out: &mut [Node],
        scratch: &mut WotsScratch,
        sign: Option<&mut WotsSign<'_>>,
    ) -> bool {
        if self.family != HashFamily::Sha2 || out.len() > WOTS_BATCH {
            return false;
        }
        let n = self.n;
        let len = 2 * n + 3;
        let WotsScratch { blocks, t_buf } = scratch;
        // The signed leaf, when it is in this batch (public: the leaf
        // index and the digits of a public message).
        let mut sign = sign.and_then(|s| {
            let l = s.leaf.wrapping_sub(first) as usize;
            (l < out.len()).then_some((l, s))
        });
        let mut seed = [0u8; MAX_N];
        seed[..n].copy_from_slice(&sk_seed[..n]);
        for (part, ends) in t_buf[..out.len()].chunks_mut(WOTS_CHAINS).enumerate() {
            let first = first + (part * WOTS_CHAINS) as u32;
            let blocks = &mut blocks[..ends.len() * len];
            // Each leaf's chain blocks share their first sixteen bytes
            // (layer, tree, type, key pair, the chain index's high half),
            // hence their first four rounds (public: address words).
            let mut after4 = [[0u32; 8]; WOTS_CHAINS];
            let after4 = &mut after4[..ends.len()];
            // The secrets: PRF(PK.seed, SK.seed, skADRS) of every chain,
            // written over SK.seed in its block.
            let mut prf_adrs = *adrs;
            prf_adrs.set_type_and_clear(WOTS_PRF);
            for (k, b) in blocks.iter_mut().enumerate() {
                prf_adrs.set_key_pair(first + (k / len) as u32);
                prf_adrs.set_chain((k % len) as u32);
                sha256_pad(&prf_adrs, &[&seed[..n]], b);
            }
            self.leaf_after4(blocks, after4, len);
            compress256_many_into_after4(&self.mid256, after4, len, blocks, 22, n);
            // Each block becomes its chain's first F block (hash address 0).
            let mut hash_adrs = *adrs;
            hash_adrs.set_type_and_clear(WOTS_HASH);
            for (k, b) in blocks.iter_mut().enumerate() {
                hash_adrs.set_key_pair(first + (k / len) as u32);
                hash_adrs.set_chain((k % len) as u32);
                b[..22].copy_from_slice(&hash_adrs.compressed());
            }
            // The hash address changes at each step, the first sixteen
            // bytes do not.
            self.leaf_after4(blocks, after4, len);
            // The signed leaf's chains, when they are in this part.
            let mut target = sign
                .as_mut()
                .map(|(l, s)| (l.wrapping_sub(part * WOTS_CHAINS), s))
                .filter(|(l, _)| *l < ends.len());
            let mut take = |t: u8, blocks: &[[u8; 64]]| {
                if let Some((l, s)) = target.as_mut() {
                    let chains = &blocks[*l * len..(*l + 1) * len];
                    for ((b, &d), v) in chains.iter().zip(s.digits).zip(s.sig.chunks_exact_mut(n)) {
                        if d == t {
                            v.copy_from_slice(&b[22..22 + n]);
                        }
                    }
                }
            };
            for t in 0..15u8 {
                take(t, blocks);
                for b in blocks.iter_mut() {
                    b[18..22].copy_from_slice(&u32::from(t).to_be_bytes());
                }
                compress256_many_into_after4(&self.mid256, after4, len, blocks, 22, n);
            }
            take(15, blocks);
            // The chain ends into the leaves' T_len messages.
            for (e, leaf) in ends.iter_mut().zip(blocks.chunks_exact(len)) {
                for (v, b) in e[22..22 + len * n].chunks_exact_mut(n).zip(leaf) {
                    v.copy_from_slice(&b[22..22 + n]);
                }
            }
        }
        seed.zeroize();
        // T_len of each leaf's chain ends.
        let mut pk_adrs = [*adrs; WOTS_BATCH];
        for (l, a) in pk_adrs.iter_mut().enumerate().take(out.len()) {
            a.set_type_and_clear(WOTS_PK);
            a.set_key_pair(first + l as u32);
        }
        self.t_chain_ends(&pk_adrs[..out.len()], len, t_buf, out);
        true
    }

    /// `after4[l]`: the SHA-256 state after rounds 0..4 of leaf `l`'s
    /// chain blocks (`len` each, from `blocks[l len]`) from the midstate.
    fn leaf_after4(&self, blocks: &[[u8; 64]], after4: &mut [[u32; 8]], len: usize) {
        for (b, a) in blocks.chunks(len).zip(after4.iter_mut()) {
            *a = self.same_head_after4(b);
        }
    }

    /// `out[l] = T_len(PK.seed, adrs[l], chain ends of leaf l)` for the
    /// leaves of [`wots_pks`](Self::wots_pks) (SHA2), whose `len` chain
    /// ends are already at `buf[l][22..]`. The messages have one length,
    /// so their padded blocks are compressed side by side: block `j` of
    /// every leaf in one `compress256_many` (`n = 16`) or
    /// `compress512_many` call.
    fn t_chain_ends(
        &self,
        adrs: &[Adrs],
        len: usize,
        buf: &mut [[u8; T_BUF]; WOTS_BATCH],
        out: &mut [Node],
    ) {
        if self.n == 16 {
            t_lanes::<Sha256>(self.mid256, self.n, len, adrs, buf, out);
        } else {
            t_lanes::<Sha512>(self.mid512, self.n, len, adrs, buf, out);
        }
    }

    /// [`chains`](Self::chains) through [`f_many`](Self::f_many): the
    /// active chains of each step gathered into one call.
    fn chains_generic(&self, adrs: &Adrs, x: &mut [Node], start: &[u8], steps: &[u8]) {
        let mut lane_adrs = [*adrs; MAX_LEN];
        let mut lane_buf = [[0u8; MAX_N]; MAX_LEN];
        let mut lane_of = [0usize; MAX_LEN];
        for t in 0..15u8 {
            let mut used = 0;
            for i in 0..x.len() {
                if start[i] <= t && t < start[i] + steps[i] {
                    let a = &mut lane_adrs[used];
                    a.set_chain(i as u32);
                    a.set_hash(u32::from(t));
                    lane_buf[used] = x[i];
                    lane_of[used] = i;
                    used += 1;
                }
            }
            if used > 0 {
                self.f_many(&lane_adrs[..used], &mut lane_buf[..used]);
                for (j, &i) in lane_of[..used].iter().enumerate() {
                    x[i] = lane_buf[j];
                }
            }
        }
        lane_buf.zeroize();
    }

    /// `H(PK.seed, ADRS, left || right)` (tree nodes: public).
    pub(crate) fn h(&self, adrs: &Adrs, left: &[u8], right: &[u8]) -> Node {
        let n = self.n;
        self.thash(adrs, &[&left[..n], &right[..n]], true, false)
    }

    /// `out[j] = H(PK.seed, adrs[j], children[2j] || children[2j + 1])`
    /// for every `j` (tree nodes, public): the multi-way path where `H`
    /// is one block (SHA-256 at n = 16, SHAKE); SHA-512 (`n > 16`) one
    /// at a time.
    pub(crate) fn h_many(&self, adrs: &[Adrs], children: &[Node], out: &mut [Node]) {
        let n = self.n;
        if self.family == HashFamily::Sha2 && n > 16 {
            // SHA-512, one block each: `compress512_many` (eight
            // AVX-512VL lanes where the CPU has them).
            let count = adrs.len().min(out.len());
            let mut states = [[0u64; 8]; CHUNK512];
            let mut blocks = [[0u8; 128]; CHUNK512];
            let mut first = 0;
            while first < count {
                let k = (count - first).min(CHUNK512);
                for j in 0..k {
                    let c = &children[2 * (first + j)..];
                    sha512_pad(&adrs[first + j], &[&c[0][..n], &c[1][..n]], &mut blocks[j]);
                    states[j] = self.mid512;
                }
                compress512_many(&mut states[..k], &blocks[..k]);
                for (o, st) in out[first..first + k].iter_mut().zip(&states) {
                    *o = [0; MAX_N];
                    for (b, w) in o[..n].chunks_exact_mut(8).zip(st) {
                        b.copy_from_slice(&w.to_be_bytes());
                    }
                }
                first += k;
            }
            return;
        }
        self.one_block_many(adrs, out, |j, _, m| {
            m[..n].copy_from_slice(&children[2 * j][..n]);
            m[n..2 * n].copy_from_slice(&children[2 * j + 1][..n]);
            2 * n
        });
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
                // After the midstate's one block `PK.seed || 0^(b - n)`.
                let parts = values.iter().map(|v| &v[..n]);
                let mut out = [0u8; MAX_N];
                if n > 16 {
                    out[..n].copy_from_slice(
                        &tail::<Sha512>(self.mid512, &adrs.compressed(), parts)[..n],
                    );
                } else {
                    out[..n].copy_from_slice(
                        &tail::<Sha256>(self.mid256, &adrs.compressed(), parts)[..n],
                    );
                }
                out
            }
        }
    }

    /// `PRF(PK.seed, SK.seed, ADRS)` (SHA-256 at every `n` for SHA2).
    pub(crate) fn prf(&self, adrs: &Adrs, sk_seed: &[u8]) -> Node {
        self.thash(adrs, &[&sk_seed[..self.n]], false, true)
    }

    /// `out[i] = PRF(PK.seed, SK.seed, adrs[i])` for every `i` (any
    /// number): the secret values of WOTS+ chains and FORS leaves, the
    /// same seam as [`f_many`](Self::f_many). The scratch is wiped once.
    pub(crate) fn prf_many(&self, adrs: &[Adrs], sk_seed: &[u8], out: &mut [Node]) {
        let mut seed = [0u8; MAX_N];
        seed[..self.n].copy_from_slice(&sk_seed[..self.n]);
        let n = self.n;
        self.one_block_many(adrs, out, |_, _, m| {
            m[..n].copy_from_slice(&seed[..n]);
            n
        });
        seed.zeroize();
    }

    /// FORS leaves: `out[i] = F(PK.seed, f_adrs[i], PRF(PK.seed, SK.seed,
    /// prf_adrs[i]))` for every `i` (at most [`TH_LEAVES`]). SHA2 keeps
    /// each leaf in its padded block, as the WOTS+ chains do: the PRF
    /// output lands where F reads it (the two blocks have one length), so
    /// only the address is rewritten between the two
    /// `compress256_many_into` calls. SHAKE: [`prf_many`](Self::prf_many)
    /// then [`f_many`](Self::f_many).
    pub(crate) fn fors_leaves(
        &self,
        prf_adrs: &[Adrs],
        f_adrs: &[Adrs],
        sk_seed: &[u8],
        out: &mut [Node],
    ) {
        let n = self.n;
        let count = prf_adrs
            .len()
            .min(f_adrs.len())
            .min(out.len())
            .min(TH_LEAVES);
        if self.family != HashFamily::Sha2 {
            self.prf_many(&prf_adrs[..count], sk_seed, &mut out[..count]);
            self.f_many(&f_adrs[..count], &mut out[..count]);
            return;
        }
        let mut seed = [0u8; MAX_N];
        seed[..n].copy_from_slice(&sk_seed[..n]);
        let mut blocks = [[0u8; 64]; TH_LEAVES];
        let blocks = &mut blocks[..count];
        for (b, a) in blocks.iter_mut().zip(prf_adrs) {
            sha256_pad(a, &[&seed[..n]], b);
        }
        seed.zeroize();
        // The first sixteen bytes (layer, tree, type, key pair, tree
        // height 0) are the same for every leaf of a FORS key: four rounds
        // done once per type.
        let mut after4 = [self.same_head_after4(blocks)];
        compress256_many_into_after4(&self.mid256, &after4, count.max(1), blocks, 22, n);
        for (b, a) in blocks.iter_mut().zip(f_adrs) {
            b[..22].copy_from_slice(&a.compressed());
        }
        after4[0] = self.same_head_after4(blocks);
        compress256_many_into_after4(&self.mid256, &after4, count.max(1), blocks, 22, n);
        for (o, b) in out.iter_mut().zip(blocks.iter()) {
            *o = [0; MAX_N];
            o[..n].copy_from_slice(&b[22..22 + n]);
        }
        // What is left is the leaves (public), but the blocks held the
        // secrets between the two calls.
        wipe(blocks.as_flattened_mut());
    }

    /// The SHA-256 state after rounds 0..4 of every block of `blocks`
    /// from the midstate: their first sixteen bytes are the same (a
    /// leaf's WOTS+ chains, the FORS leaves of one key; checked in debug
    /// builds).
    fn same_head_after4(&self, blocks: &[[u8; 64]]) -> [u32; 8] {
        let Some(first) = blocks.first() else {
            return self.mid256;
        };
        debug_assert!(blocks.iter().all(|b| b[..16] == first[..16]));
        rounds256_first4(&self.mid256, first)
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
                let mut d = hmac::<Sha256>(&sk_prf[..n], &opt_rand[..n], msg);
                out[..n].copy_from_slice(&d[..n]);
                d.zeroize();
            }
            HashFamily::Sha2 => {
                let mut d = hmac::<Sha512>(&sk_prf[..n], &opt_rand[..n], msg);
                out[..n].copy_from_slice(&d[..n]);
                d.zeroize();
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
                mgf1_h_msg::<Sha256>(
                    &r[..n],
                    &self.pk_seed[..n],
                    &pk_root[..n],
                    msg,
                    &mut out[..m],
                );
            }
            HashFamily::Sha2 => {
                mgf1_h_msg::<Sha512>(
                    &r[..n],
                    &self.pk_seed[..n],
                    &pk_root[..n],
                    msg,
                    &mut out[..m],
                );
            }
        }
        out
    }
}

/// SHA-256 and SHA-512 behind one interface, for the SLH-DSA functions
/// that are the same over both but for the hash: `T_l`, HMAC and
/// MGF1-based `H_msg`.
trait Sha2: Default {
    /// The block size in bytes.
    const BLOCK: usize;
    /// The state word.
    type Word: Copy;
    /// The digest.
    type Digest: AsRef<[u8]> + Zeroize;
    /// A hash that continues from `state` after `blocks` blocks.
    fn resume(state: [Self::Word; 8], blocks: u64) -> Self;
    /// Absorbs `data`.
    fn absorb(&mut self, data: &[u8]);
    /// The digest.
    fn digest(self) -> Self::Digest;
    /// One block.
    type Block: Copy + AsRef<[u8]> + AsMut<[u8]>;
    /// The zero block.
    const ZERO_BLOCK: Self::Block;
    /// `states[i]` takes `blocks[i]`: the multi-way compression.
    fn compress_many(states: &mut [[Self::Word; 8]], blocks: &[Self::Block]);
    /// The first `out.len()` bytes of `state`, big-endian.
    fn state_bytes(state: &[Self::Word; 8], out: &mut [u8]);
}

macro_rules! sha2_impl {
    ($ty:ty, $block:literal, $word:ty, $out:literal, $many:ident) => {
        impl Sha2 for $ty {
            const BLOCK: usize = $block;
            type Word = $word;
            type Digest = [u8; $out];
            type Block = [u8; $block];
            const ZERO_BLOCK: [u8; $block] = [0; $block];
            fn compress_many(states: &mut [[$word; 8]], blocks: &[[u8; $block]]) {
                $many(states, blocks);
            }
            fn state_bytes(state: &[$word; 8], out: &mut [u8]) {
                const W: usize = core::mem::size_of::<$word>();
                for (b, w) in out.chunks_mut(W).zip(state) {
                    b.copy_from_slice(&w.to_be_bytes()[..b.len()]);
                }
            }
            fn resume(state: [$word; 8], blocks: u64) -> Self {
                <$ty>::from_state(state, blocks)
            }
            fn absorb(&mut self, data: &[u8]) {
                self.update(data);
            }
            fn digest(self) -> [u8; $out] {
                self.finalize()
            }
        }
    };
}

sha2_impl!(Sha256, 64, u32, 32, compress256_many);
sha2_impl!(Sha512, 128, u64, 64, compress512_many);

/// The SHA2 family's `T_l` (and any multi-block tweakable hash): the
/// digest of `PK.seed || 0^(b - n) || ADRS^c || parts`, the first block
/// being in `mid`.
fn tail<'a, H: Sha2>(
    mid: [H::Word; 8],
    adrs_c: &[u8],
    parts: impl Iterator<Item = &'a [u8]>,
) -> H::Digest {
    let mut h = H::resume(mid, 1);
    h.absorb(adrs_c);
    for p in parts {
        h.absorb(p);
    }
    h.digest()
}

/// [`Hasher::t_chain_ends`] on `H`: the `T_len` messages `ADRS^c ||
/// ends` of the leaves (`buf[l]`, ends already at `22..`) padded for
/// `H` after the midstate's one block, then compressed block by block
/// side by side, their digests' first `n` bytes into `out`.
fn t_lanes<H: Sha2>(
    mid: [H::Word; 8],
    n: usize,
    len: usize,
    adrs: &[Adrs],
    buf: &mut [[u8; T_BUF]; WOTS_BATCH],
    out: &mut [Node],
) {
    let lanes = adrs.len().min(out.len());
    let bs = H::BLOCK;
    let msg_len = 22 + len * n;
    // 0x80 and the length field (a sixteenth of the block).
    let size = (msg_len + 1 + bs / 8).div_ceil(bs) * bs;
    for (a, b) in adrs.iter().zip(buf.iter_mut()).take(lanes) {
        b[..22].copy_from_slice(&a.compressed());
        b[msg_len..size].fill(0);
        b[msg_len] = 0x80;
        let bits = ((bs + msg_len) as u64 * 8).to_be_bytes();
        b[size - 8..size].copy_from_slice(&bits);
    }
    let mut states = [mid; WOTS_BATCH];
    let mut group = [H::ZERO_BLOCK; WOTS_BATCH];
    for j in 0..size / bs {
        for (g, b) in group.iter_mut().zip(buf.iter()).take(lanes) {
            g.as_mut().copy_from_slice(&b[bs * j..bs * (j + 1)]);
        }
        H::compress_many(&mut states[..lanes], &group[..lanes]);
    }
    for (o, st) in out.iter_mut().zip(&states).take(lanes) {
        *o = [0; MAX_N];
        H::state_bytes(st, &mut o[..n]);
    }
}

/// HMAC (RFC 2104) over `opt_rand || msg` with `key` (shorter than a
/// block): `PRF_msg` of the SHA2 sets.
fn hmac<H: Sha2>(key: &[u8], opt_rand: &[u8], msg: &[&[u8]]) -> H::Digest {
    let mut pad = [0u8; 128];
    let pad = &mut pad[..H::BLOCK];
    pad[..key.len()].copy_from_slice(key);
    pad.iter_mut().for_each(|p| *p ^= 0x36);
    let mut inner = H::default();
    inner.absorb(pad);
    inner.absorb(opt_rand);
    for p in msg {
        inner.absorb(p);
    }
    let mut ih = inner.digest();
    // The outer pad from the inner one: 0x36 ^ 0x5c on every byte.
    pad.iter_mut().for_each(|p| *p ^= 0x36 ^ 0x5c);
    let mut outer = H::default();
    outer.absorb(pad);
    outer.absorb(ih.as_ref());
    pad.zeroize();
    ih.zeroize();
    outer.digest()
}

/// `H_msg` of the SHA2 sets: `MGF1-H(R || PK.seed || H(R || PK.seed ||
/// PK.root || M), out.len())`.
fn mgf1_h_msg<H: Sha2>(r: &[u8], pk_seed: &[u8], pk_root: &[u8], msg: &[&[u8]], out: &mut [u8]) {
    let mut h = H::default();
    for p in [r, pk_seed, pk_root].into_iter().chain(msg.iter().copied()) {
        h.absorb(p);
    }
    let inner = h.digest();
    let size = inner.as_ref().len();
    for (c, chunk) in out.chunks_mut(size).enumerate() {
        let mut g = H::default();
        g.absorb(r);
        g.absorb(pk_seed);
        g.absorb(inner.as_ref());
        g.absorb(&(c as u32).to_be_bytes());
        chunk.copy_from_slice(&g.digest().as_ref()[..chunk.len()]);
    }
}

/// FORS leaves [`Hasher::fors_leaves`] computes in one call at most.
pub(crate) const TH_LEAVES: usize = 32;

/// XMSS leaves whose WOTS+ public keys [`Hasher::wots_pks`] computes
/// in one call: their `T_len` run side by side (eight SHA-512 lanes).
pub(crate) const WOTS_BATCH: usize = 8;

/// Leaves whose chains [`Hasher::wots_pks`] walks together (4 x 35,
/// 4 x 51 or 4 x 67 blocks: eight at a time, then four). Eight leaves
/// (multiples of eight, but 34 KB of blocks at n = 32) measured no
/// faster.
const WOTS_CHAINS: usize = 4;

/// The padded `T_len` message of one leaf at most: `ADRS^c` and 67
/// 32-byte chain ends, padded for SHA-512 (18 blocks of 128 bytes).
const T_BUF: usize = (22 + MAX_LEN * MAX_N + 1 + 16).div_ceil(128) * 128;

/// The buffers of [`Hasher::wots_pks`], made once per hypertree walk
/// rather than per batch of leaves: the chain blocks (4 x 67 blocks,
/// 17 KB) and the eight padded `T_len` messages (18 KB). Wiped on drop.
pub(crate) struct WotsScratch {
    blocks: [[u8; 64]; WOTS_CHAINS * MAX_LEN],
    t_buf: [[u8; T_BUF]; WOTS_BATCH],
}

impl WotsScratch {
    /// Zeroed buffers.
    pub(crate) fn new() -> Self {
        Self {
            blocks: [[0; 64]; WOTS_CHAINS * MAX_LEN],
            t_buf: [[0; T_BUF]; WOTS_BATCH],
        }
    }
}

impl Drop for WotsScratch {
    fn drop(&mut self) {
        wipe(self.blocks.as_flattened_mut());
        wipe(self.t_buf.as_flattened_mut());
    }
}

/// The WOTS+ signature [`Hasher::wots_pks`] captures on its way: the
/// chain values of leaf `leaf` at its message digits `digits` (FIPS 205
/// Alg. 7's `sig`, `len` n-byte values).
pub(crate) struct WotsSign<'a> {
    /// The signed leaf (the key pair index in its tree).
    pub(crate) leaf: u32,
    /// The base-16 digits of the message and its checksum (`len` used).
    pub(crate) digits: &'a [u8],
    /// `len * n` bytes of signature.
    pub(crate) sig: &'a mut [u8],
}

/// Hashes per round of the SHA-256 multi-way path: one group of eight
/// for `compress256_many` (its scratch is zeroed per call, so no
/// larger).
const CHUNK: usize = 8;

/// Hashes per round of the SHA-512 path of [`Hasher::h_many`]: the eight
/// lanes (two groups of four interleaved) of `compress512_many`.
const CHUNK512: usize = 8;

/// The padded second SHA-256 block of a tweakable hash: `ADRS^c || parts`
/// (at most 55 bytes), `0x80`, zeros and the bit length of the whole
/// input (the first block, `PK.seed || 0^(64-n)`, is in the midstate).
fn sha256_pad(adrs: &Adrs, parts: &[&[u8]], block: &mut [u8; 64]) {
    block[..22].copy_from_slice(&adrs.compressed());
    let mut at = 22;
    for p in parts {
        block[at..at + p.len()].copy_from_slice(p);
        at += p.len();
    }
    block[at] = 0x80;
    block[at + 1..56].fill(0);
    block[56..].copy_from_slice(&(((64 + at) as u64) * 8).to_be_bytes());
}

/// The padded second SHA-512 block of a tweakable hash: `ADRS^c ||
/// parts` (at most 111 bytes), `0x80`, zeros and the bit length of the
/// whole input (the first block, `PK.seed || 0^(128-n)`, is in the
/// midstate).
fn sha512_pad(adrs: &Adrs, parts: &[&[u8]], block: &mut [u8; 128]) {
    block[..22].copy_from_slice(&adrs.compressed());
    let mut at = 22;
    for p in parts {
        block[at..at + p.len()].copy_from_slice(p);
        at += p.len();
    }
    block[at] = 0x80;
    block[at + 1..112].fill(0);
    block[112..].copy_from_slice(&(((128 + at) as u128) * 8).to_be_bytes());
}

/// The little-endian word of 8 bytes.
fn le64(b: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[..8]);
    u64::from_le_bytes(w)
}

/// Keccak-f\[1600\] on four states, on the dispatched backend.
struct PermuteX4<'a>(&'a mut StateX4);

impl Kernel for PermuteX4<'_> {
    type Output = ();
    fn run<B: Backend>(self, backend: B) {
        backend.keccak_f1600_x4(self.0);
    }
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

    /// The hashers of every family and width the multi-way paths take.
    fn hashers() -> [Hasher; 6] {
        use crate::params::{Sha2_128f, Sha2_192f, Sha2_256f, Shake128f, Shake192f, Shake256f};
        [
            Hasher::new::<Sha2_128f>(&[1u8; 32]),
            Hasher::new::<Sha2_192f>(&[2u8; 32]),
            Hasher::new::<Sha2_256f>(&[3u8; 32]),
            Hasher::new::<Shake128f>(&[4u8; 32]),
            Hasher::new::<Shake192f>(&[5u8; 32]),
            Hasher::new::<Shake256f>(&[6u8; 32]),
        ]
    }

    /// `prf_many`, `f_many` and `h_many` equal their one-at-a-time forms
    /// at every count up to 40 (whole groups of eight and four, and every
    /// remainder), for every family and n.
    #[test]
    fn many_paths_equal_single_calls() {
        const MAX: usize = 40;
        for hs in hashers() {
            for count in 0..=MAX {
                let mut adrs = [Adrs::default(); MAX];
                let mut x = [[0u8; MAX_N]; MAX];
                let mut children = [[0u8; MAX_N]; 2 * MAX];
                for (i, (a, v)) in adrs.iter_mut().zip(x.iter_mut()).enumerate() {
                    a.set_layer(count as u32);
                    a.set_chain(i as u32);
                    a.set_hash(7 * i as u32);
                    v.fill(i as u8 ^ 0x5a);
                    v[0] = count as u8;
                }
                for (i, c) in children.iter_mut().enumerate() {
                    c.fill(i as u8);
                    c[MAX_N - 1] = count as u8;
                }
                let (adrs, x) = (&adrs[..count], &mut x[..count]);
                let seed = [0x33u8; 32];
                let want: [Node; MAX] = core::array::from_fn(|i| {
                    if i < count {
                        hs.prf(&adrs[i], &seed)
                    } else {
                        [0; MAX_N]
                    }
                });
                let mut out = [[9u8; MAX_N]; MAX];
                hs.prf_many(adrs, &seed, &mut out[..count]);
                assert_eq!(out[..count], want[..count], "prf n {} count {count}", hs.n);
                let want: [Node; MAX] = core::array::from_fn(|i| {
                    if i < count {
                        hs.f(&adrs[i], &x[i])
                    } else {
                        [0; MAX_N]
                    }
                });
                hs.f_many(adrs, x);
                assert_eq!(x[..], want[..count], "f n {} count {count}", hs.n);
                let want: [Node; MAX] = core::array::from_fn(|i| {
                    if i < count {
                        hs.h(&adrs[i], &children[2 * i], &children[2 * i + 1])
                    } else {
                        [0; MAX_N]
                    }
                });
                let mut out = [[9u8; MAX_N]; MAX];
                hs.h_many(adrs, &children[..2 * count], &mut out[..count]);
                assert_eq!(out[..count], want[..count], "h n {} count {count}", hs.n);
                // FORS leaves: F of PRF, the F addresses another layer's.
                if count <= TH_LEAVES {
                    let mut f_adrs = [Adrs::default(); MAX];
                    for (i, a) in f_adrs.iter_mut().enumerate().take(count) {
                        a.set_layer(99);
                        a.set_tree_index(3 * i as u32 + 1);
                    }
                    let want: [Node; MAX] = core::array::from_fn(|i| {
                        if i < count {
                            hs.f(&f_adrs[i], &hs.prf(&adrs[i], &seed))
                        } else {
                            [0; MAX_N]
                        }
                    });
                    let mut out = [[9u8; MAX_N]; MAX];
                    hs.fors_leaves(adrs, &f_adrs[..count], &seed, &mut out[..count]);
                    assert_eq!(out[..count], want[..count], "fors n {} count {count}", hs.n);
                }
            }
        }
    }
}
