//! The FIPS 204 algorithms, written once over a [`Backend`].
//!
//! The matrix A is never needed as a whole: [`matrix_mul`] generates its
//! entries on demand from rho (four at a time with the 4-way SHAKE128) and
//! accumulates them into the product, so key generation and verification
//! hold only vectors. Signing, which multiplies by A in every attempt,
//! expands A once on the heap when the `alloc` feature is on and streams it
//! otherwise.
//!
//! Loops index vectors by `i`/`j` on purpose, to read like FIPS 204's
//! pseudocode.
#![allow(clippy::needless_range_loop)]

use pqkit_common::Backend;
use pqkit_common::ct::declassify;
use pqkit_common::keccak::{
    ExtendableOutput, SHAKE128_RATE, SHAKE256_RATE, Shake128X4, Shake256, Shake256X4, Update,
    XofReader,
};
use pqkit_common::q8380417::{N, Poly, pack, sample_in_ball};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::Error;
use crate::params::{K_MAX, L_MAX, ParameterSet, ctilde_len, gamma1};

/// A vector of up to `k` polynomials (only the first `P::K` are used).
pub(crate) type VecK = [Poly; K_MAX];
/// A vector of up to `l` polynomials (only the first `P::L` are used).
pub(crate) type VecL = [Poly; L_MAX];

/// Maximum number of signing attempts. FIPS 204 lets an implementation
/// bound the loop; the expected number of attempts is at most 5.1
/// (ML-DSA-65), so 814 attempts fail with probability below
/// `(1 - 1/5.1)^814 < 2^-256`, and `kappa` (a 16-bit counter advanced by `l`
/// per attempt) never wraps.
pub(crate) const MAX_SIGN_ATTEMPTS: usize = 814;
/// SHAKE128 blocks per RejNTTPoly (about 5 are needed; 32 blocks give
/// 1792 candidates, each accepted with probability > 0.999).
const MAX_A_BLOCKS: usize = 32;
/// SHAKE256 blocks per RejBoundedPoly (2 are needed almost always; each
/// block has 272 candidates accepted with probability >= 9/16).
const MAX_S_BLOCKS: usize = 16;

pub(crate) fn zero_vec<const M: usize>() -> [Poly; M] {
    core::array::from_fn(|_| Poly::default())
}

/// Secret polynomials, wiped on drop (only the entries the parameter set
/// uses).
type Secret<const M: usize> = pqkit_common::wipe::Wiped<Poly, M>;

/// SHAKE256 of the concatenation of `parts` (FIPS 204 `H`).
pub(crate) fn h(parts: &[&[u8]], out: &mut [u8]) {
    let mut x = Shake256::default();
    for p in parts {
        x.update(p);
    }
    x.finalize_xof().read(out);
}

/// The secret key in the form signing needs (NTT domain).
#[derive(Clone)]
pub(crate) struct SecretParts {
    pub rho: [u8; 32],
    pub key: [u8; 32],
    pub tr: [u8; 64],
    pub s1hat: VecL,
    pub s2hat: VecK,
    pub t0hat: VecK,
    /// How many polynomials of `s1hat` and of `s2hat`/`t0hat` can hold
    /// secrets (l, k of the parameter set once filled; the maxima before):
    /// zeroization skips the never-written tail.
    pub dims: (usize, usize),
}

impl Default for SecretParts {
    fn default() -> Self {
        Self {
            rho: [0; 32],
            key: [0; 32],
            tr: [0; 64],
            s1hat: zero_vec(),
            s2hat: zero_vec(),
            t0hat: zero_vec(),
            dims: (L_MAX, K_MAX),
        }
    }
}

impl SecretParts {
    /// Empty parts for a parameter set with the given l and k.
    pub(crate) fn with_dims(l: usize, k: usize) -> Self {
        let mut parts = Self::default();
        parts.dims = (l.min(L_MAX), k.min(K_MAX));
        parts
    }
}

impl Zeroize for SecretParts {
    fn zeroize(&mut self) {
        let (l, k) = self.dims;
        self.rho.zeroize();
        self.key.zeroize();
        self.tr.zeroize();
        for p in self.s1hat.iter_mut().take(l) {
            p.zeroize();
        }
        for p in self.s2hat.iter_mut().take(k) {
            p.zeroize();
        }
        for p in self.t0hat.iter_mut().take(k) {
            p.zeroize();
        }
    }
}

impl Drop for SecretParts {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl ZeroizeOnDrop for SecretParts {}

/// The public key in the form verification needs.
#[derive(Clone)]
pub(crate) struct PublicParts {
    pub rho: [u8; 32],
    /// NTT(t1 * 2^d).
    pub t1hat: VecK,
    pub tr: [u8; 64],
}

impl Default for PublicParts {
    fn default() -> Self {
        Self {
            rho: [0; 32],
            t1hat: zero_vec(),
            tr: [0; 64],
        }
    }
}

/// RejNTTPoly for four matrix entries `(row, column)` at once
/// (FIPS 204 Alg. 30 via Alg. 32 ExpandA: seed `rho || col || row`),
/// written to `out[0..4]` (lanes beyond `out.len()` are computed and
/// dropped).
fn expand_a_x4<B: Backend>(
    b: B,
    rho: &[u8; 32],
    idx: [(usize, usize); 4],
    out: &mut [Poly],
) -> Result<(), Error> {
    let seeds: [[u8; 34]; 4] = core::array::from_fn(|k| {
        let mut s = [0u8; 34];
        s[..32].copy_from_slice(rho);
        s[32] = idx[k].1 as u8;
        s[33] = idx[k].0 as u8;
        s
    });
    let mut x = Shake128X4::absorb(b, &seeds);
    let lanes = out.len().min(4);
    let mut filled = [N; 4];
    filled[..lanes].fill(0);
    let mut blocks = [[0u8; SHAKE128_RATE]; 4];
    for _ in 0..MAX_A_BLOCKS {
        if filled.iter().all(|&f| f >= N) {
            break;
        }
        x.squeeze_block(&mut blocks);
        for ((p, f), blk) in out.iter_mut().zip(filled.iter_mut()).zip(&blocks) {
            if *f < N {
                *f = b.rej_uniform_q8380417(p, *f, blk);
            }
        }
    }
    if filled.iter().all(|&f| f >= N) {
        Ok(())
    } else {
        Err(Error::RejectionLimit)
    }
}

/// `out = A * vhat` (NTT domain, Montgomery factor removed), A generated on
/// demand from rho. Output coefficients below `l q` in magnitude.
pub(crate) fn matrix_mul<B: Backend, P: ParameterSet>(
    b: B,
    rho: &[u8; 32],
    vhat: &VecL,
    out: &mut VecK,
) -> Result<(), Error> {
    for p in out.iter_mut().take(P::K) {
        *p = Poly::default();
    }
    let total = P::K * P::L;
    let mut entries: [Poly; 4] = zero_vec();
    let mut start = 0;
    while start < total {
        let n = (total - start).min(4);
        let idx: [(usize, usize); 4] = core::array::from_fn(|k| {
            let e = (start + k).min(total - 1);
            (e / P::L, e % P::L)
        });
        expand_a_x4(b, rho, idx, &mut entries[..n])?;
        for (k, e) in entries.iter().enumerate().take(n) {
            let (i, j) = idx[k];
            b.pointwise_acc_mont_q8380417(e, &vhat[j], &mut out[i]);
        }
        start += 4;
    }
    Ok(())
}

/// The whole matrix A (row-major, `k * l` entries) on the heap.
#[cfg(feature = "alloc")]
pub(crate) fn expand_a<B: Backend, P: ParameterSet>(
    b: B,
    rho: &[u8; 32],
) -> Result<alloc::vec::Vec<Poly>, Error> {
    let total = P::K * P::L;
    let mut a = alloc::vec![Poly::default(); total];
    for (c, chunk) in a.chunks_mut(4).enumerate() {
        let idx: [(usize, usize); 4] = core::array::from_fn(|k| {
            let e = (4 * c + k).min(total - 1);
            (e / P::L, e % P::L)
        });
        expand_a_x4(b, rho, idx, chunk)?;
    }
    Ok(a)
}

#[cfg(feature = "alloc")]
fn expanded_mul<B: Backend, P: ParameterSet>(b: B, a: &[Poly], vhat: &VecL, out: &mut VecK) {
    for (i, o) in out.iter_mut().enumerate().take(P::K) {
        *o = Poly::default();
        for (e, v) in a.iter().skip(i * P::L).take(P::L).zip(vhat.iter()) {
            b.pointwise_acc_mont_q8380417(e, v, o);
        }
    }
}

/// RejBoundedPoly for four indices (FIPS 204 Alg. 31 via Alg. 33 ExpandS:
/// seed `rho' || IntegerToBytes(r, 2)`).
fn expand_s_x4<B: Backend, P: ParameterSet>(
    b: B,
    rho_prime: &[u8; 64],
    idx: [usize; 4],
    out: &mut [Poly; 4],
) -> Result<(), Error> {
    let mut seeds: [[u8; 66]; 4] = core::array::from_fn(|k| {
        let mut s = [0u8; 66];
        s[..64].copy_from_slice(rho_prime);
        s[64..].copy_from_slice(&(idx[k] as u16).to_le_bytes());
        s
    });
    let mut x = Shake256X4::absorb(b, &seeds);
    seeds.zeroize();
    let mut filled = [0usize; 4];
    let mut blocks = Zeroizing::new([[0u8; SHAKE256_RATE]; 4]);
    for _ in 0..MAX_S_BLOCKS {
        // The number of blocks depends on how many nibbles were rejected;
        // FIPS 204 treats this as public (the rejected values are
        // independent of the accepted ones).
        if declassify(filled.iter().all(|&f| f >= N)) {
            break;
        }
        x.squeeze_block(&mut blocks);
        for ((p, f), blk) in out.iter_mut().zip(filled.iter_mut()).zip(blocks.iter()) {
            if *f < N {
                *f = declassify(b.rej_eta_q8380417(P::ETA, p, *f, blk));
            }
        }
    }
    if filled.iter().all(|&f| f >= N) {
        Ok(())
    } else {
        Err(Error::RejectionLimit)
    }
}

/// FIPS 204 Alg. 33 ExpandS: `(s1, s2)`.
fn expand_s<B: Backend, P: ParameterSet>(
    b: B,
    rho_prime: &[u8; 64],
    s1: &mut VecL,
    s2: &mut VecK,
) -> Result<(), Error> {
    let total = P::L + P::K;
    let mut start = 0;
    let mut polys = Secret::<4>::new(4);
    while start < total {
        let idx: [usize; 4] = core::array::from_fn(|k| (start + k).min(total - 1));
        expand_s_x4::<B, P>(b, rho_prime, idx, &mut polys)?;
        for (k, p) in polys.iter().enumerate().take(total - start) {
            let r = idx[k];
            if r < P::L {
                s1[r].coeffs = p.coeffs;
            } else {
                s2[r - P::L].coeffs = p.coeffs;
            }
        }
        start += 4;
    }
    Ok(())
}

/// FIPS 204 Alg. 34 ExpandMask as a stream: `y[r] = BitUnpack(H(rho'' ||
/// IntegerToBytes(kappa + r, 2)))`. Attempt n uses indices `n l .. n l + l -
/// 1`, so over the signing loop the indices run 0, 1, 2, ...: they are
/// generated four at a time with the 4-way SHAKE256 and handed out in order,
/// so no lane is wasted when `l` is not a multiple of 4 (at most three
/// polynomials are computed ahead and unused). Wiped on drop (it holds y).
struct MaskStream {
    buf: [Poly; 4],
    /// Index of `buf[0]`.
    base: u32,
    /// First index not generated yet (`base + 4` once started).
    next: u32,
}

impl Drop for MaskStream {
    fn drop(&mut self) {
        self.buf.zeroize();
    }
}

impl MaskStream {
    fn new() -> Self {
        Self {
            buf: zero_vec(),
            base: 0,
            next: 0,
        }
    }

    /// Write `y` for `index` to `out`.
    fn take<B: Backend, P: ParameterSet>(
        &mut self,
        b: B,
        rho_pp: &[u8; 64],
        index: u32,
        out: &mut Poly,
    ) {
        if index < self.base || index >= self.next {
            self.fill::<B, P>(b, rho_pp, index);
        }
        let k = (index - self.base) as usize;
        if let Some(p) = self.buf.get(k) {
            out.coeffs = p.coeffs;
        }
    }

    fn fill<B: Backend, P: ParameterSet>(&mut self, b: B, rho_pp: &[u8; 64], base: u32) {
        let zb = pack::z_bytes(P::GAMMA1_BITS);
        let mut seeds: [[u8; 66]; 4] = core::array::from_fn(|k| {
            let mut s = [0u8; 66];
            s[..64].copy_from_slice(rho_pp);
            s[64..].copy_from_slice(&((base + k as u32) as u16).to_le_bytes());
            s
        });
        let mut x = Shake256X4::absorb(b, &seeds);
        seeds.zeroize();
        // 5 blocks = 680 bytes >= 640.
        let mut buf = Zeroizing::new([[0u8; 5 * SHAKE256_RATE]; 4]);
        let mut blocks = Zeroizing::new([[0u8; SHAKE256_RATE]; 4]);
        for n in 0..5 {
            x.squeeze_block(&mut blocks);
            for (o, blk) in buf.iter_mut().zip(blocks.iter()) {
                o[n * SHAKE256_RATE..(n + 1) * SHAKE256_RATE].copy_from_slice(blk);
            }
        }
        for (bytes, p) in buf.iter().zip(self.buf.iter_mut()) {
            pack::unpack_z(P::GAMMA1_BITS, &bytes[..zb], p);
        }
        self.base = base;
        self.next = base + 4;
    }
}

/// FIPS 204 Alg. 6 ML-DSA.KeyGen_internal. Writes `pkEncode(rho, t1)` to
/// `pk`, `skEncode(...)` to `sk`, and the signing and verification forms
/// to `out` and `pub_out` (in place: these are large).
#[inline(never)] // one frame per operation: keeps the stack peak down
pub(crate) fn keygen<B: Backend, P: ParameterSet>(
    b: B,
    xi: &[u8; 32],
    pk: &mut [u8],
    sk: &mut [u8],
    out: &mut SecretParts,
    pub_out: &mut PublicParts,
) -> Result<(), Error> {
    if pk.len() != P::PK_LEN || sk.len() != P::SK_LEN {
        return Err(Error::InvalidLength);
    }
    // Line 1: (rho, rho', K) = H(xi || k || l, 128).
    let mut seed = Zeroizing::new([0u8; 128]);
    h(&[xi, &[P::K as u8, P::L as u8]], &mut seed[..]);
    out.rho.copy_from_slice(&seed[..32]);
    // Declassified: rho is published as the first 32 bytes of the public key
    // (FIPS 204 Alg. 22), so ExpandA may branch on it (rejection sampling).
    out.rho = declassify(out.rho);
    let mut rho_prime = Zeroizing::new([0u8; 64]);
    rho_prime.copy_from_slice(&seed[32..96]);
    out.key.copy_from_slice(&seed[96..]);

    // Line 4: (s1, s2) = ExpandS(rho') (plain domain for now).
    expand_s::<B, P>(b, &rho_prime, &mut out.s1hat, &mut out.s2hat)?;
    encode_s::<P>(&out.s1hat, &out.s2hat, sk);
    let t0_at = 128 + (P::K + P::L) * pack::eta_bytes(P::ETA);
    finish_secret::<B, P>(b, out, pk, pub_out, |t0| {
        for (chunk, p) in sk[t0_at..]
            .chunks_mut(pack::T0_BYTES)
            .zip(t0.iter().take(P::K))
        {
            pack::pack_t0(p, chunk);
        }
    })?;
    sk[..32].copy_from_slice(&out.rho);
    sk[32..64].copy_from_slice(&out.key);
    sk[64..128].copy_from_slice(&out.tr);
    Ok(())
}

/// `2^64 mod q`: a Montgomery product with it multiplies by `2^32`.
const MONT_SQ: i32 = 2_365_951;

/// Lines 5..9 of Alg. 6 from `rho` and plain `s1`, `s2` in `out`:
/// `t = A s1 + s2`, Power2Round, pkEncode, `tr`. Calls `with_t0` with t0
/// (plain domain), then leaves `out` in the NTT domain and fills `pub_out`.
///
/// The signing key's `NTT(t0)` is not transformed from t0: NTT is linear,
/// so it is `NTT(t) - NTT(t1 * 2^d)`, where `NTT(t) = A-hat s1-hat +
/// NTT(s2)` is at hand before the inverse transform and `NTT(t1 * 2^d)` and
/// `NTT(s2)` are needed for the key anyway. That saves `k` forward NTTs.
fn finish_secret<B: Backend, P: ParameterSet>(
    b: B,
    out: &mut SecretParts,
    pk: &mut [u8],
    pub_out: &mut PublicParts,
    with_t0: impl FnOnce(&VecK),
) -> Result<(), Error> {
    for p in out.s1hat.iter_mut().take(P::L) {
        b.ntt_q8380417(p);
    }
    let mut t = Secret::<K_MAX>::new(P::K);
    matrix_mul::<B, P>(b, &out.rho, &out.s1hat, &mut t)?;
    let mont_sq = Poly {
        coeffs: [MONT_SQ; N],
    };
    let t1 = &mut pub_out.t1hat;
    let mut t0 = Zeroizing::new(Poly::default());
    for i in 0..P::K {
        b.reduce32_q8380417(&mut t[i]);
        // (A-hat s1-hat) * 2^-32 times 2^32: the NTT-domain A s1, kept in
        // t0hat until NTT(s2) is added and NTT(t1 * 2^d) subtracted below.
        b.pointwise_mont_q8380417(&t[i], &mont_sq, &mut out.t0hat[i]);
        b.inv_ntt_tomont_q8380417(&mut t[i]);
        b.add_q8380417(&mut t[i], &out.s2hat[i]);
        b.caddq_q8380417(&mut t[i]);
        b.power2round_q8380417(&t[i], &mut t1[i], &mut t0);
        t[i] = (*t0).clone();
    }
    with_t0(&t);
    // pkEncode.
    pk[..32].copy_from_slice(&out.rho);
    for (chunk, p) in pk[32..]
        .chunks_mut(pack::T1_BYTES)
        .zip(t1.iter())
        .take(P::K)
    {
        pack::pack_t1(p, chunk);
    }
    h(&[pk], &mut out.tr);
    pub_out.rho = out.rho;
    pub_out.tr = out.tr;
    for i in 0..P::K {
        b.shift_left_d_q8380417(&mut t1[i]);
        b.ntt_q8380417(&mut t1[i]);
        b.ntt_q8380417(&mut out.s2hat[i]);
        // |A s1| < q, |NTT(s2)|, |NTT(t1 2^d)| < 9q: the sum stays far
        // inside reduce32's range.
        b.add_q8380417(&mut out.t0hat[i], &out.s2hat[i]);
        b.sub_q8380417(&mut out.t0hat[i], &t1[i]);
        b.reduce32_q8380417(&mut out.t0hat[i]);
    }
    Ok(())
}

fn encode_s<P: ParameterSet>(s1: &VecL, s2: &VecK, sk: &mut [u8]) {
    let eb = pack::eta_bytes(P::ETA);
    let tail = sk.get_mut(128..).unwrap_or_default();
    let polys = s1.iter().take(P::L).chain(s2.iter().take(P::K));
    for (chunk, p) in tail.chunks_mut(eb).zip(polys) {
        pack::pack_eta(P::ETA, p, chunk);
    }
}

/// skDecode (FIPS 204 Alg. 25) into `out`, plain domain: rho, K, tr, s1,
/// s2 and t0 as encoded. Returns whether every s1/s2 coefficient lies in
/// `[-eta, eta]`. `sk` has the parameter set's length (callers check).
fn parse_sk<P: ParameterSet>(sk: &[u8], out: &mut SecretParts) -> subtle::Choice {
    out.rho.copy_from_slice(&sk[..32]);
    // rho is part of the public key.
    out.rho = declassify(out.rho);
    out.key.copy_from_slice(&sk[32..64]);
    out.tr.copy_from_slice(&sk[64..128]);
    let eb = pack::eta_bytes(P::ETA);
    let mut ok = subtle::Choice::from(1u8);
    let s_part = &sk[128..128 + (P::K + P::L) * eb];
    let polys = out
        .s1hat
        .iter_mut()
        .take(P::L)
        .chain(out.s2hat.iter_mut().take(P::K));
    for (chunk, p) in s_part.chunks(eb).zip(polys) {
        ok &= subtle::Choice::from(pack::unpack_eta(P::ETA, chunk, p) as u8);
    }
    let t_part = &sk[128 + (P::K + P::L) * eb..];
    for (chunk, p) in t_part.chunks(pack::T0_BYTES).zip(out.t0hat.iter_mut()) {
        pack::unpack_t0(chunk, p);
    }
    ok
}

/// skDecode (FIPS 204 Alg. 25) with validation: s1/s2 coefficients in
/// `[-eta, eta]`, and `t0`, `tr` consistent with `rho, s1, s2` (the public
/// key is recomputed and written to `pk`).
#[inline(never)] // one frame per operation: keeps the stack peak down
pub(crate) fn decode_sk<B: Backend, P: ParameterSet>(
    b: B,
    sk: &[u8],
    pk: &mut [u8],
    out: &mut SecretParts,
    pub_out: &mut PublicParts,
) -> Result<(), Error> {
    if sk.len() != P::SK_LEN || pk.len() != P::PK_LEN {
        return Err(Error::InvalidLength);
    }
    let ok = parse_sk::<P>(sk, out);
    // The given tr and t0, to compare with the recomputed ones.
    let tr_given = Zeroizing::new(out.tr);
    let mut t0_given = Secret::<K_MAX>::new(P::K);
    for (x, y) in t0_given.iter_mut().zip(out.t0hat.iter()).take(P::K) {
        x.coeffs = y.coeffs;
    }
    let mut t0_same = subtle::Choice::from(1u8);
    finish_secret::<B, P>(b, out, pk, pub_out, |t0| {
        for (x, y) in t0.iter().zip(t0_given.iter()).take(P::K) {
            t0_same &= subtle::ConstantTimeEq::ct_eq(&x.coeffs[..], &y.coeffs[..]);
        }
    })?;
    let tr_same = subtle::ConstantTimeEq::ct_eq(&out.tr[..], &tr_given[..]);
    // Whether the key is well formed is a public property of the input.
    if !declassify(bool::from(ok & t0_same & tr_same)) {
        return Err(Error::InvalidPrivateKey);
    }
    Ok(())
}

/// skDecode (FIPS 204 Alg. 25) for signing only: s1/s2 coefficients are
/// checked to lie in `[-eta, eta]`, but t0 and tr are taken as given (not
/// recomputed from rho, s1, s2) and no public key is derived. `out` ends in
/// the NTT domain, ready for [`sign_mu`].
#[inline(never)] // one frame per operation: keeps the stack peak down
pub(crate) fn decode_sk_unchecked<B: Backend, P: ParameterSet>(
    b: B,
    sk: &[u8],
    out: &mut SecretParts,
) -> Result<(), Error> {
    if sk.len() != P::SK_LEN {
        return Err(Error::InvalidLength);
    }
    let ok = parse_sk::<P>(sk, out);
    // Whether the encoding is in range is a public property of the input.
    if !declassify(bool::from(ok)) {
        return Err(Error::InvalidPrivateKey);
    }
    for p in out.s1hat.iter_mut().take(P::L) {
        b.ntt_q8380417(p);
    }
    for i in 0..P::K {
        b.ntt_q8380417(&mut out.s2hat[i]);
        b.ntt_q8380417(&mut out.t0hat[i]);
    }
    Ok(())
}

/// pkDecode (FIPS 204 Alg. 23) and `tr = H(pk)`, into `out`.
#[inline(never)] // one frame per operation: keeps the stack peak down
pub(crate) fn decode_pk<B: Backend, P: ParameterSet>(
    b: B,
    pk: &[u8],
    out: &mut PublicParts,
) -> Result<(), Error> {
    if pk.len() != P::PK_LEN {
        return Err(Error::InvalidLength);
    }
    out.rho.copy_from_slice(&pk[..32]);
    for (chunk, p) in pk[32..].chunks(pack::T1_BYTES).zip(out.t1hat.iter_mut()) {
        pack::unpack_t1(chunk, p);
        b.shift_left_d_q8380417(p);
        b.ntt_q8380417(p);
    }
    h(&[pk], &mut out.tr);
    Ok(())
}

/// HintBitUnpack (FIPS 204 Alg. 21) with all its malformation checks.
fn decode_hint<P: ParameterSet>(y: &[u8], hint: &mut VecK) -> Result<(), Error> {
    if y.len() != P::OMEGA + P::K {
        return Err(Error::InvalidLength);
    }
    let mut index = 0usize;
    for i in 0..P::K {
        let end = y[P::OMEGA + i] as usize;
        if end < index || end > P::OMEGA {
            return Err(Error::MalformedHint);
        }
        let first = index;
        while index < end {
            if index > first && y[index - 1] >= y[index] {
                return Err(Error::MalformedHint);
            }
            hint[i].coeffs[y[index] as usize] = 1;
            index += 1;
        }
    }
    if y[index..P::OMEGA].iter().any(|&x| x != 0) {
        return Err(Error::MalformedHint);
    }
    Ok(())
}

/// FIPS 204 Alg. 7 ML-DSA.Sign_internal from line 7 on (mu given).
#[inline(never)] // one frame per operation: keeps the stack peak down
pub(crate) fn sign_mu<B: Backend, P: ParameterSet>(
    b: B,
    sk: &SecretParts,
    mu: &[u8; 64],
    rnd: &[u8; 32],
    sig: &mut [u8],
) -> Result<(), Error> {
    if sig.len() != P::SIG_LEN {
        return Err(Error::InvalidLength);
    }
    // Line 7: rho'' = H(K || rnd || mu, 64).
    let mut rho_pp = Zeroizing::new([0u8; 64]);
    h(&[&sk.key, rnd, mu], &mut rho_pp[..]);
    #[cfg(feature = "alloc")]
    let a = expand_a::<B, P>(b, &sk.rho)?;

    let g1 = gamma1::<P>();
    let g2 = P::GAMMA2.value();
    let ct_len = ctilde_len::<P>();
    let mut kappa: u32 = 0;
    let mut mask = MaskStream::new();
    // Buffers are reused to keep the stack small: `z` first holds NTT(y),
    // and `w` holds the hint once w1 and w0 are extracted.
    let mut y = Secret::<L_MAX>::new(P::L);
    let mut z = Secret::<L_MAX>::new(P::L);
    let mut w = Secret::<K_MAX>::new(P::K);
    let mut w1 = Secret::<K_MAX>::new(P::K);
    let mut w0 = Secret::<K_MAX>::new(P::K);
    let mut tmp = Zeroizing::new(Poly::default());
    let mut w1buf = [0u8; 192];
    let w1b = pack::w1_bytes(P::GAMMA2);
    let mut ctilde = [0u8; 64];
    for _ in 0..MAX_SIGN_ATTEMPTS {
        // Lines 11..13: y = ExpandMask(rho'', kappa), w = NTT^-1(A NTT(y)).
        for (r, yr) in y.iter_mut().enumerate().take(P::L) {
            mask.take::<B, P>(b, &rho_pp, kappa + r as u32, yr);
        }
        kappa += P::L as u32;
        for j in 0..P::L {
            z[j].coeffs = y[j].coeffs;
            b.ntt_q8380417(&mut z[j]);
        }
        #[cfg(feature = "alloc")]
        expanded_mul::<B, P>(b, &a, &z, &mut w);
        #[cfg(not(feature = "alloc"))]
        matrix_mul::<B, P>(b, &sk.rho, &z, &mut w)?;
        // Line 14: w1 = HighBits(w) (w0 kept for line 21).
        let mut hasher = Shake256::default();
        hasher.update(mu);
        for i in 0..P::K {
            b.reduce32_q8380417(&mut w[i]);
            b.inv_ntt_tomont_q8380417(&mut w[i]);
            b.caddq_q8380417(&mut w[i]);
            b.decompose_q8380417(P::GAMMA2, &w[i], &mut w1[i], &mut w0[i]);
            pack::pack_w1(P::GAMMA2, &w1[i], &mut w1buf[..w1b]);
            hasher.update(&w1buf[..w1b]);
        }
        // Line 15: c~ = H(mu || w1Encode(w1)). The commitment hash is part
        // of the signature and w1 is recomputed by verifiers: public.
        hasher.finalize_xof().read(&mut ctilde[..ct_len]);
        let ctilde = declassify(ctilde);
        // Lines 16..18: c = SampleInBall(c~), c hat = NTT(c).
        let mut chat = sample_in_ball(&ctilde[..ct_len], P::TAU).ok_or(Error::RejectionLimit)?;
        b.ntt_q8380417(&mut chat);
        // Line 20: z = y + <<c s1>>.
        let mut reject = false;
        for j in 0..P::L {
            b.pointwise_mont_q8380417(&chat, &sk.s1hat[j], &mut z[j]);
            b.inv_ntt_tomont_q8380417(&mut z[j]);
            b.add_q8380417(&mut z[j], &y[j]);
            b.reduce32_q8380417(&mut z[j]);
            reject |= b.exceeds_norm_q8380417(&z[j], g1 - P::BETA);
        }
        // Line 23: the rejection decision is public (FIPS 204 §3.6.3: only
        // the accepted signature's distribution is protected).
        if declassify(reject) {
            continue;
        }
        // Line 21: r0 = LowBits(w - <<c s2>>) = w0 - c s2.
        for i in 0..P::K {
            b.pointwise_mont_q8380417(&chat, &sk.s2hat[i], &mut tmp);
            b.inv_ntt_tomont_q8380417(&mut tmp);
            b.sub_q8380417(&mut w0[i], &tmp);
            b.reduce32_q8380417(&mut w0[i]);
            reject |= b.exceeds_norm_q8380417(&w0[i], g2 - P::BETA);
        }
        if declassify(reject) {
            continue;
        }
        // Lines 25..28: <<c t0>>, hint, checks.
        let mut ones = 0u32;
        for i in 0..P::K {
            b.pointwise_mont_q8380417(&chat, &sk.t0hat[i], &mut tmp);
            b.inv_ntt_tomont_q8380417(&mut tmp);
            b.reduce32_q8380417(&mut tmp);
            reject |= b.exceeds_norm_q8380417(&tmp, g2);
            b.add_q8380417(&mut w0[i], &tmp);
            ones += b.make_hint_q8380417(P::GAMMA2, &w0[i], &w1[i], &mut w[i]);
        }
        if declassify(reject || ones as usize > P::OMEGA) {
            continue;
        }
        // Line 33: sigEncode(c~, z mod+- q, h) (Alg. 26 + Alg. 20).
        encode_sig::<P>(&ctilde[..ct_len], &z, &w, sig);
        return Ok(());
    }
    Err(Error::RejectionLimit)
}

fn encode_sig<P: ParameterSet>(ctilde: &[u8], z: &VecL, hint: &VecK, sig: &mut [u8]) {
    let ct_len = ctilde.len();
    let zb = pack::z_bytes(P::GAMMA1_BITS);
    let (c_part, rest) = sig.split_at_mut(ct_len.min(sig.len()));
    c_part.copy_from_slice(&ctilde[..c_part.len()]);
    let (z_part, h_part) = rest.split_at_mut((P::L * zb).min(rest.len()));
    for (chunk, p) in z_part.chunks_mut(zb).zip(z.iter().take(P::L)) {
        pack::pack_z(P::GAMMA1_BITS, p, chunk);
    }
    // HintBitPack (Alg. 20). The hint is part of the output signature.
    h_part.fill(0);
    let mut index = 0usize;
    for i in 0..P::K {
        for j in 0..N {
            if declassify(hint[i].coeffs[j]) != 0 {
                if let Some(x) = h_part.get_mut(index) {
                    *x = j as u8;
                }
                index += 1;
            }
        }
        if let Some(x) = h_part.get_mut(P::OMEGA + i) {
            *x = index as u8;
        }
    }
}

/// FIPS 204 Alg. 8 ML-DSA.Verify_internal from line 7 on (mu given).
#[inline(never)] // one frame per operation: keeps the stack peak down
pub(crate) fn verify_mu<B: Backend, P: ParameterSet>(
    b: B,
    pk: &PublicParts,
    mu: &[u8; 64],
    sig: &[u8],
) -> Result<(), Error> {
    if sig.len() != P::SIG_LEN {
        return Err(Error::InvalidLength);
    }
    let ct_len = ctilde_len::<P>();
    let zb = pack::z_bytes(P::GAMMA1_BITS);
    let (ctilde, rest) = sig.split_at(ct_len);
    let (z_part, h_part) = rest.split_at(P::L * zb);
    // sigDecode (Alg. 27), line 13's norm check first.
    let mut z: VecL = zero_vec();
    for (chunk, p) in z_part.chunks(zb).zip(z.iter_mut()) {
        pack::unpack_z(P::GAMMA1_BITS, chunk, p);
        if b.exceeds_norm_q8380417(p, gamma1::<P>() - P::BETA) {
            return Err(Error::ZOutOfRange);
        }
    }
    let mut hint: VecK = zero_vec();
    decode_hint::<P>(h_part, &mut hint)?;

    // Line 8: c = SampleInBall(c~).
    let mut chat = sample_in_ball(ctilde, P::TAU).ok_or(Error::RejectionLimit)?;
    b.ntt_q8380417(&mut chat);
    // Line 9: w'approx = NTT^-1(A NTT(z) - NTT(c) NTT(t1 2^d)).
    for p in z.iter_mut().take(P::L) {
        b.ntt_q8380417(p);
    }
    let mut w: VecK = zero_vec();
    matrix_mul::<B, P>(b, &pk.rho, &z, &mut w)?;
    let mut tmp = Poly::default();
    let mut w1 = Poly::default();
    let mut w1buf = [0u8; 192];
    let w1b = pack::w1_bytes(P::GAMMA2);
    let mut hasher = Shake256::default();
    hasher.update(mu);
    for i in 0..P::K {
        b.pointwise_mont_q8380417(&chat, &pk.t1hat[i], &mut tmp);
        b.sub_q8380417(&mut w[i], &tmp);
        b.reduce32_q8380417(&mut w[i]);
        b.inv_ntt_tomont_q8380417(&mut w[i]);
        b.caddq_q8380417(&mut w[i]);
        // Line 10: w1' = UseHint(h, w'approx).
        b.use_hint_q8380417(P::GAMMA2, &w[i], &hint[i], &mut w1);
        pack::pack_w1(P::GAMMA2, &w1, &mut w1buf[..w1b]);
        hasher.update(&w1buf[..w1b]);
    }
    // Line 12: c~' = H(mu || w1Encode(w1')), compare.
    let mut ctilde2 = [0u8; 64];
    hasher.finalize_xof().read(&mut ctilde2[..ct_len]);
    if bool::from(subtle::ConstantTimeEq::ct_eq(ctilde, &ctilde2[..ct_len])) {
        Ok(())
    } else {
        Err(Error::InvalidSignature)
    }
}
