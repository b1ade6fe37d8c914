//! Streaming FIPS 204 for small memory: key generation, signing and
//! verification with a fixed handful of polynomials, whatever the
//! parameter set (`[Poly; K]`-sized vectors never exist here).
//!
//! - Matrix entries `A[i][j]` are sampled one at a time from rho
//!   (single-lane SHAKE128) when a product needs them, and dropped.
//! - `s1`, `s2` are re-sampled from rho' one polynomial at a time.
//! - Signing keeps the mask `y` in the signature's own `z` field (the
//!   ExpandMask output bytes *are* `y`'s `z`-encoding), hashes `w1` into
//!   c~ row by row, overwrites `y` with `z` in place, and only for
//!   attempts whose `z` passes recomputes each row of `w = A y` (as
//!   `A z - c A s1`) together with `t = A s1 + s2` for `t0`; the hint
//!   bits wait in a `k * 256`-bit map until the attempt is accepted.
//!
//! Every decision and every output equals the fast path's (`sign.rs`,
//! `keygen.rs`, `verify.rs`): the same rejections in the same order, the
//! same bytes.
#![allow(clippy::needless_range_loop)]

use super::*;

use pqkit_common::keccak::Shake128;
use pqkit_common::q8380417::{D, Q, montgomery_reduce, sample_in_ball_into};

use super::encoding::{check_hint, pack_hint};
use super::keygen::MONT_SQ;

/// Multiplying by it in Montgomery form multiplies by `2^32`.
static MONT_SQ_POLY: Poly = Poly {
    coeffs: [MONT_SQ; N],
};

/// `acc[c] += A[i][j][c] * x[c] * 2^-32` for every pair `(x, acc)` in
/// `pairs`, the entry `A[i][j]` sampled coefficient by coefficient from its
/// SHAKE128 stream (RejNTTPoly, FIPS 204 Alg. 30) and never stored. The
/// samples are public; the products are plain arithmetic on `x`.
#[inline(never)]
fn a_mul_acc<E: Bound, const M: usize>(
    rho: &[u8; 32],
    i: usize,
    j: usize,
    pairs: [(&Poly, &mut Poly); M],
) -> Result<(), E> {
    let mut pairs = pairs;
    let mut x = Shake128::default();
    x.update(rho);
    x.update(&[j as u8, i as u8]);
    let mut reader = x.finalize_xof();
    let mut block = [0u8; SHAKE128_RATE];
    let mut c = 0;
    let mut blocks = 0;
    while c < N {
        if blocks == E::MAX_A {
            return E::exceeded();
        }
        reader.read(&mut block);
        blocks += 1;
        for t in block.chunks_exact(3) {
            let a = (u32::from(t[0]) | u32::from(t[1]) << 8 | u32::from(t[2]) << 16) & 0x7f_ffff;
            if c < N && a < Q as u32 {
                for (v, acc) in pairs.iter_mut() {
                    acc.coeffs[c] += montgomery_reduce(i64::from(a) * i64::from(v.coeffs[c]));
                }
                c += 1;
            }
        }
    }
    Ok(())
}

/// `x = c * x * 2^-32` coefficient-wise, in place.
fn mul_mont_in_place(c: &Poly, x: &mut Poly) {
    for (v, &w) in x.coeffs.iter_mut().zip(c.coeffs.iter()) {
        *v = montgomery_reduce(i64::from(w) * i64::from(*v));
    }
}

/// Power2Round's high part in place: `t1 = (t + 2^(d-1) - 1) >> d`
/// (FIPS 204 Alg. 35, as the kernels compute it).
fn t1_in_place(t: &mut Poly) {
    for v in t.coeffs.iter_mut() {
        *v = (*v + (1 << (D - 1)) - 1) >> D;
    }
}

/// Power2Round's low part in place: `t0 = t - t1 2^d`.
fn t0_in_place(t: &mut Poly) {
    for v in t.coeffs.iter_mut() {
        *v -= ((*v + (1 << (D - 1)) - 1) >> D) << D;
    }
}

/// RejBoundedPoly for index `r` of ExpandS (FIPS 204 Alg. 31/33: `s1[r]`
/// for `r < l`, `s2[r - l]` after), on a single SHAKE256 stream.
#[inline(never)] // its SHAKE state lives only while it runs
fn s_entry<B: Backend, P: ParameterSet, E: Bound>(
    b: B,
    rho_prime: &[u8; 64],
    r: usize,
    out: &mut Poly,
) -> Result<(), E> {
    let mut x = Shake256::default();
    x.update(rho_prime);
    x.update(&(r as u16).to_le_bytes());
    let mut reader = x.finalize_xof();
    let mut block = Zeroizing::new([0u8; SHAKE256_RATE]);
    let mut filled = 0;
    let mut blocks = 0;
    // As in `expand_s_x4`: how many blocks are read is public (the
    // rejected nibbles are independent of the accepted ones).
    while declassify(filled < N) {
        if blocks == E::MAX_S {
            return E::exceeded();
        }
        reader.read(&mut block[..]);
        filled = declassify(b.rej_eta_q8380417(P::ETA, out, filled, &block));
        blocks += 1;
    }
    Ok(())
}

/// `(rho, rho', K) = H(xi || k || l, 128)` (FIPS 204 Alg. 6 line 1); rho
/// is public (the start of the public key).
#[inline(never)] // its hash state lives only while it runs
pub(crate) fn expand_seed<P: ParameterSet>(
    xi: &[u8; 32],
) -> ([u8; 32], Zeroizing<[u8; 64]>, Zeroizing<[u8; 32]>) {
    let mut seed = Zeroizing::new([0u8; 128]);
    h(&[xi, &[P::K as u8, P::L as u8]], &mut seed[..]);
    let mut rho = [0u8; 32];
    rho.copy_from_slice(&seed[..32]);
    let mut rho_prime = Zeroizing::new([0u8; 64]);
    rho_prime.copy_from_slice(&seed[32..96]);
    let mut key = Zeroizing::new([0u8; 32]);
    key.copy_from_slice(&seed[96..]);
    (declassify(rho), rho_prime, key)
}

/// Key generation's public half, streamed: `pkEncode(rho, t1)` handed to
/// `sink` in pieces (`rho`, then each packed `t1[i]`), each row of
/// `t = A s1 + s2` computed alone. Three polynomials of working memory.
pub(crate) fn public_key<B: Backend, P: ParameterSet, E: Bound>(
    b: B,
    rho: &[u8; 32],
    rho_prime: &[u8; 64],
    mut sink: impl FnMut(&[u8]),
) -> Result<(), E> {
    sink(rho);
    let mut acc = Zeroizing::new(Poly::default());
    let mut s = Zeroizing::new(Poly::default());
    let mut row = [0u8; pack::T1_BYTES];
    for i in 0..P::K {
        acc.coeffs.fill(0);
        for j in 0..P::L {
            s_entry::<B, P, E>(b, rho_prime, j, &mut s)?;
            b.ntt_q8380417(&mut s);
            a_mul_acc::<E, 1>(rho, i, j, [(&s, &mut acc)])?;
        }
        b.reduce32_q8380417(&mut acc);
        b.inv_ntt_tomont_q8380417(&mut acc);
        s_entry::<B, P, E>(b, rho_prime, P::L + i, &mut s)?;
        b.add_q8380417(&mut acc, &s);
        b.caddq_q8380417(&mut acc);
        t1_in_place(&mut acc);
        pack::pack_t1(&acc, &mut row);
        sink(&row);
    }
    Ok(())
}

/// Where signing gets its secrets, one polynomial at a time.
pub(crate) trait Secrets {
    /// rho (public).
    fn rho(&self) -> &[u8; 32];
    /// K.
    fn key(&self) -> &[u8; 32];
    /// `s1[j]`, plain domain.
    fn s1<B: Backend, P: ParameterSet>(&self, b: B, j: usize, out: &mut Poly) -> Result<(), Error>;
    /// `s2[i]`, plain domain.
    fn s2<B: Backend, P: ParameterSet>(&self, b: B, i: usize, out: &mut Poly) -> Result<(), Error>;
    /// Replace row `i` of `t = A s1 + s2` (plain domain, in `[0, q)`) by
    /// `t0[i]`.
    fn t0<P: ParameterSet>(&self, i: usize, t: &mut Poly);
}

/// Secrets re-derived from the seed: `s1`, `s2` from rho' (ExpandS, one
/// polynomial at a time), `t0` by Power2Round of the recomputed `t`.
pub(crate) struct FromSeed<'a> {
    pub rho: &'a [u8; 32],
    pub rho_prime: &'a [u8; 64],
    pub key: &'a [u8; 32],
}

impl Secrets for FromSeed<'_> {
    fn rho(&self) -> &[u8; 32] {
        self.rho
    }
    fn key(&self) -> &[u8; 32] {
        self.key
    }
    fn s1<B: Backend, P: ParameterSet>(&self, b: B, j: usize, out: &mut Poly) -> Result<(), Error> {
        s_entry::<B, P, Error>(b, self.rho_prime, j, out)
    }
    fn s2<B: Backend, P: ParameterSet>(&self, b: B, i: usize, out: &mut Poly) -> Result<(), Error> {
        s_entry::<B, P, Error>(b, self.rho_prime, P::L + i, out)
    }
    fn t0<P: ParameterSet>(&self, _i: usize, t: &mut Poly) {
        t0_in_place(t);
    }
}

/// Secrets read from an encoded expanded key `skEncode(rho, K, tr, s1, s2,
/// t0)`, unpacked one polynomial at a time (the encoding's `s1`/`s2`
/// ranges checked first by [`check_expanded`]).
pub(crate) struct FromExpanded<'a> {
    pub sk: &'a [u8],
    pub rho: [u8; 32],
    pub key: Zeroizing<[u8; 32]>,
}

impl FromExpanded<'_> {
    fn eta_chunk<P: ParameterSet>(&self, r: usize) -> &[u8] {
        let eb = pack::eta_bytes(P::ETA);
        &self.sk[128 + r * eb..128 + (r + 1) * eb]
    }
}

impl Secrets for FromExpanded<'_> {
    fn rho(&self) -> &[u8; 32] {
        &self.rho
    }
    fn key(&self) -> &[u8; 32] {
        &self.key
    }
    fn s1<B: Backend, P: ParameterSet>(
        &self,
        _b: B,
        j: usize,
        out: &mut Poly,
    ) -> Result<(), Error> {
        pack::unpack_eta(P::ETA, self.eta_chunk::<P>(j), out);
        Ok(())
    }
    fn s2<B: Backend, P: ParameterSet>(
        &self,
        _b: B,
        i: usize,
        out: &mut Poly,
    ) -> Result<(), Error> {
        pack::unpack_eta(P::ETA, self.eta_chunk::<P>(P::L + i), out);
        Ok(())
    }
    fn t0<P: ParameterSet>(&self, i: usize, t: &mut Poly) {
        let at = 128 + (P::K + P::L) * pack::eta_bytes(P::ETA) + i * pack::T0_BYTES;
        pack::unpack_t0(&self.sk[at..at + pack::T0_BYTES], t);
    }
}

/// The length and the `s1`/`s2` ranges of an encoded expanded key (what
/// the fast path's unchecked decoding checks), with one polynomial of
/// scratch; `(rho, K)` from it.
pub(crate) fn check_expanded<P: ParameterSet>(
    sk: &[u8],
) -> Result<([u8; 32], Zeroizing<[u8; 32]>), Error> {
    if sk.len() != P::SK_LEN {
        return Err(Error::InvalidLength);
    }
    let eb = pack::eta_bytes(P::ETA);
    let mut p = Zeroizing::new(Poly::default());
    let mut ok = subtle::Choice::from(1u8);
    for chunk in sk[128..128 + (P::K + P::L) * eb].chunks(eb) {
        ok &= subtle::Choice::from(pack::unpack_eta(P::ETA, chunk, &mut p) as u8);
    }
    // Whether the encoding is in range is a public property of the input.
    if !declassify(bool::from(ok)) {
        return Err(Error::InvalidPrivateKey);
    }
    let mut rho = [0u8; 32];
    rho.copy_from_slice(&sk[..32]);
    let mut key = Zeroizing::new([0u8; 32]);
    key.copy_from_slice(&sk[32..64]);
    Ok((declassify(rho), key))
}

/// FIPS 204 Alg. 7 ML-DSA.Sign_internal from line 7 (mu given), streamed
/// into `sig` (`SIG_LEN` bytes). Six polynomials of working memory plus
/// the `k * 256`-bit hint map.
#[inline(never)]
pub(crate) fn sign_mu<B: Backend, P: ParameterSet, S: Secrets>(
    b: B,
    sk: &S,
    mu: &[u8; 64],
    rnd: &[u8; 32],
    sig: &mut [u8],
) -> Result<(), Error> {
    if sig.len() != P::SIG_LEN {
        return Err(Error::InvalidLength);
    }
    let mut rho_pp = Zeroizing::new([0u8; 64]);
    h(&[sk.key(), rnd, mu], &mut rho_pp[..]);
    let g1 = gamma1::<P>();
    let g2 = P::GAMMA2.value();
    let ct_len = ctilde_len::<P>();
    let zb = pack::z_bytes(P::GAMMA1_BITS);
    let (ct_part, rest) = sig.split_at_mut(ct_len);
    let (z_part, h_part) = rest.split_at_mut(P::L * zb);

    let mut u = Zeroizing::new(Poly::default());
    let mut t = Zeroizing::new(Poly::default());
    let mut a = Zeroizing::new(Poly::default());
    let mut s = Zeroizing::new(Poly::default());
    let mut chat = Poly::default();
    // Hint bits of the current attempt, row-major.
    let mut hints = Zeroizing::new([0u8; MAX_K * N / 8]);
    let mut kappa: u32 = 0;
    for _ in 0..MAX_SIGN_ATTEMPTS {
        // Line 11: y = ExpandMask(rho'', kappa), its bytes straight into
        // the signature's z field.
        for (r, chunk) in z_part.chunks_mut(zb).enumerate() {
            mask_into(&rho_pp, (kappa + r as u32) as u16, chunk);
        }
        kappa += P::L as u32;
        // Lines 12..15: each row of w = A y, its HighBits hashed into c~.
        let mut hasher = Shake256::default();
        hasher.update(mu);
        for i in 0..P::K {
            u.coeffs.fill(0);
            for j in 0..P::L {
                pack::unpack_z(P::GAMMA1_BITS, &z_part[j * zb..(j + 1) * zb], &mut s);
                b.ntt_q8380417(&mut s);
                a_mul_acc::<Error, 1>(sk.rho(), i, j, [(&s, &mut u)])?;
            }
            b.reduce32_q8380417(&mut u);
            b.inv_ntt_tomont_q8380417(&mut u);
            b.caddq_q8380417(&mut u);
            b.decompose_q8380417(P::GAMMA2, &u, &mut a, &mut t);
            absorb_w1::<P>(&mut hasher, &a);
        }
        // c~ is part of the signature (public).
        let mut ctilde = [0u8; 64];
        squeeze(&hasher, &mut ctilde[..ct_len]);
        let ctilde = declassify(ctilde);
        ct_part.copy_from_slice(&ctilde[..ct_len]);
        if !sample_in_ball_into(&ctilde[..ct_len], P::TAU, &mut chat) {
            return Err(Error::RejectionLimit);
        }
        b.ntt_q8380417(&mut chat);

        // Line 20: z = y + c s1, over y in place.
        let mut reject = false;
        for j in 0..P::L {
            sk.s1::<B, P>(b, j, &mut s)?;
            b.ntt_q8380417(&mut s);
            b.pointwise_mont_q8380417(&chat, &s, &mut a);
            b.inv_ntt_tomont_q8380417(&mut a);
            let chunk = &mut z_part[j * zb..(j + 1) * zb];
            pack::unpack_z(P::GAMMA1_BITS, chunk, &mut s);
            b.add_q8380417(&mut a, &s);
            b.reduce32_q8380417(&mut a);
            reject |= b.exceeds_norm_q8380417(&a, g1 - P::BETA);
            pack::pack_z(P::GAMMA1_BITS, &a, chunk);
        }
        if declassify(reject) {
            continue;
        }

        // Lines 21..28, a row at a time: w = A z - c A s1 (= A y) and
        // t = A s1 + s2 share each matrix entry.
        let mut ones = 0u32;
        for i in 0..P::K {
            u.coeffs.fill(0);
            t.coeffs.fill(0);
            for j in 0..P::L {
                sk.s1::<B, P>(b, j, &mut s)?;
                b.ntt_q8380417(&mut s);
                pack::unpack_z(P::GAMMA1_BITS, &z_part[j * zb..(j + 1) * zb], &mut a);
                b.ntt_q8380417(&mut a);
                a_mul_acc::<Error, 2>(sk.rho(), i, j, [(&s, &mut t), (&a, &mut u)])?;
            }
            // u - c t (both carry 2^-32): w_i in the NTT domain, then w.
            b.reduce32_q8380417(&mut t);
            b.pointwise_mont_q8380417(&t, &MONT_SQ_POLY, &mut a);
            b.pointwise_mont_q8380417(&chat, &a, &mut s);
            b.sub_q8380417(&mut u, &s);
            b.reduce32_q8380417(&mut u);
            b.inv_ntt_tomont_q8380417(&mut u);
            b.caddq_q8380417(&mut u);
            // Line 14: w1 into a, w0 into s.
            b.decompose_q8380417(P::GAMMA2, &u, &mut a, &mut s);
            // t_i = A s1 + s2, then t0 (s2 kept in u for c s2).
            b.inv_ntt_tomont_q8380417(&mut t);
            sk.s2::<B, P>(b, i, &mut u)?;
            b.add_q8380417(&mut t, &u);
            b.caddq_q8380417(&mut t);
            sk.t0::<P>(i, &mut t);
            // Line 21: r0 = w0 - c s2.
            b.ntt_q8380417(&mut u);
            mul_mont_in_place(&chat, &mut u);
            b.inv_ntt_tomont_q8380417(&mut u);
            b.sub_q8380417(&mut s, &u);
            b.reduce32_q8380417(&mut s);
            reject |= b.exceeds_norm_q8380417(&s, g2 - P::BETA);
            // Line 25: c t0.
            b.ntt_q8380417(&mut t);
            b.pointwise_mont_q8380417(&chat, &t, &mut u);
            b.inv_ntt_tomont_q8380417(&mut u);
            b.reduce32_q8380417(&mut u);
            reject |= b.exceeds_norm_q8380417(&u, g2);
            // Line 26: h = MakeHint(-c t0, w - c s2 + c t0).
            b.add_q8380417(&mut s, &u);
            ones += b.make_hint_q8380417(P::GAMMA2, &s, &a, &mut t);
            for (k, byte) in hints[i * N / 8..(i + 1) * N / 8].iter_mut().enumerate() {
                *byte = (0..8).fold(0u8, |acc, bit| {
                    acc | (((t.coeffs[8 * k + bit] & 1) as u8) << bit)
                });
            }
        }
        if declassify(reject || ones as usize > P::OMEGA) {
            continue;
        }
        // Line 33: HintBitPack (Alg. 20); the accepted hint is public.
        pack_hint::<P>(h_part, |i, j| {
            declassify(hints[i * N / 8 + j / 8] >> (j % 8)) & 1 != 0
        });
        return Ok(());
    }
    Err(Error::RejectionLimit)
}

/// `hasher.update(w1Encode(w1))` (FIPS 204 Alg. 28), the packing buffer in
/// a frame of its own.
#[inline(never)]
fn absorb_w1<P: ParameterSet>(hasher: &mut Shake256, w1: &Poly) {
    let mut buf = [0u8; 192];
    let len = pack::w1_bytes(P::GAMMA2);
    pack::pack_w1(P::GAMMA2, w1, &mut buf[..len]);
    hasher.update(&buf[..len]);
}

/// Finish `hasher` into `out`, its reader in a frame of its own.
#[inline(never)]
fn squeeze(hasher: &Shake256, out: &mut [u8]) {
    hasher.clone().finalize_xof().read(out);
}

/// ExpandMask's bytes for one index (`y`'s z-encoding): SHAKE256(rho'' ||
/// index) into `out`.
#[inline(never)]
fn mask_into(rho_pp: &[u8; 64], index: u16, out: &mut [u8]) {
    let mut x = Shake256::default();
    x.update(rho_pp);
    x.update(&index.to_le_bytes());
    x.finalize_xof().read(out);
}

/// FIPS 204 Alg. 8 ML-DSA.Verify_internal from line 7 (mu given), from the
/// encoded public key, one row at a time. Four polynomials of working
/// memory.
#[inline(never)]
pub(crate) fn verify_mu<B: Backend, P: ParameterSet>(
    b: B,
    pk: &[u8],
    mu: &[u8; 64],
    sig: &[u8],
) -> Result<(), Error> {
    if sig.len() != P::SIG_LEN || pk.len() != P::PK_LEN {
        return Err(Error::InvalidLength);
    }
    let ct_len = ctilde_len::<P>();
    let zb = pack::z_bytes(P::GAMMA1_BITS);
    let (ctilde, rest) = sig.split_at(ct_len);
    let (z_part, h_part) = rest.split_at(P::L * zb);
    let mut s = Poly::default();
    for chunk in z_part.chunks(zb) {
        pack::unpack_z(P::GAMMA1_BITS, chunk, &mut s);
        if b.exceeds_norm_q8380417(&s, gamma1::<P>() - P::BETA) {
            return Err(Error::ZOutOfRange);
        }
    }
    check_hint::<P>(h_part)?;
    let mut chat = Poly::default();
    if !sample_in_ball_into(ctilde, P::TAU, &mut chat) {
        return Err(Error::RejectionLimit);
    }
    b.ntt_q8380417(&mut chat);
    let mut rho = [0u8; 32];
    rho.copy_from_slice(&pk[..32]);
    let mut a = Poly::default();
    let mut u = Poly::default();
    let mut hasher = Shake256::default();
    hasher.update(mu);
    let mut index = 0usize;
    for i in 0..P::K {
        // Line 9: A z - c t1 2^d for row i.
        u.coeffs.fill(0);
        for j in 0..P::L {
            pack::unpack_z(P::GAMMA1_BITS, &z_part[j * zb..(j + 1) * zb], &mut s);
            b.ntt_q8380417(&mut s);
            a_mul_acc::<Error, 1>(&rho, i, j, [(&s, &mut u)])?;
        }
        let t1 = &pk[32 + i * pack::T1_BYTES..32 + (i + 1) * pack::T1_BYTES];
        pack::unpack_t1(t1, &mut s);
        b.shift_left_d_q8380417(&mut s);
        b.ntt_q8380417(&mut s);
        b.pointwise_mont_q8380417(&chat, &s, &mut a);
        b.sub_q8380417(&mut u, &a);
        b.reduce32_q8380417(&mut u);
        b.inv_ntt_tomont_q8380417(&mut u);
        b.caddq_q8380417(&mut u);
        // Line 10: w1' = UseHint(h_i, w'approx_i).
        s.coeffs.fill(0);
        let end = h_part[P::OMEGA + i] as usize;
        while index < end {
            s.coeffs[h_part[index] as usize] = 1;
            index += 1;
        }
        b.use_hint_q8380417(P::GAMMA2, &u, &s, &mut a);
        absorb_w1::<P>(&mut hasher, &a);
    }
    let mut ctilde2 = [0u8; 64];
    squeeze(&hasher, &mut ctilde2[..ct_len]);
    if bool::from(subtle::ConstantTimeEq::ct_eq(ctilde, &ctilde2[..ct_len])) {
        Ok(())
    } else {
        Err(Error::InvalidSignature)
    }
}
