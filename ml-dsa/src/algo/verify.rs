//! FIPS 204 Alg. 8 ML-DSA.Verify_internal (from mu on).
#![allow(clippy::needless_range_loop)]

use super::*;

use super::encoding::{check_hint, hint_row};
use super::expand::matrix_mul_rows;

/// What verification knows of `tr = H(pk)`.
pub(crate) enum TrIn<'a> {
    /// mu is given: `tr` is not needed.
    Unneeded,
    /// `tr` was computed before.
    Known([u8; 64]),
    /// Not computed yet: hash these public-key bytes beside ExpandA.
    Hash(&'a [u8]),
}

/// FIPS 204 Alg. 8 ML-DSA.Verify_internal. mu is `mu_of(tr)`, asked for
/// once the matrix product is done, so that a `tr` not known yet is hashed
/// on the 4-way Keccak beside ExpandA (a rider on its stream) rather than
/// alone; a `tr` computed that way is also written to `fresh` for the key
/// to keep. Signatures rejected before the product (length, z, hint) do
/// not compute mu.
#[inline(never)] // one frame per operation: keeps the stack peak down
pub(crate) fn verify<B: Backend, P: ParameterSet>(
    b: B,
    pk: &PublicParts,
    tr: TrIn<'_>,
    mu_of: impl FnOnce(&[u8; 64]) -> Result<[u8; 64], Error>,
    sig: &[u8],
    fresh: &mut Option<[u8; 64]>,
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
    // The hint's encoding is checked now; its rows are decoded as line 10
    // uses them.
    check_hint::<P>(h_part)?;

    // Line 8: c = SampleInBall(c~).
    let mut chat = sample_in_ball(ctilde, P::TAU).ok_or(Error::RejectionLimit)?;
    b.ntt_q8380417(&mut chat);
    // Line 9: w'approx = NTT^-1(A NTT(z) - NTT(c) NTT(t1 2^d)).
    for p in z.iter_mut().take(P::L) {
        b.ntt_q8380417(p);
    }
    let mut w: VecK = zero_vec();
    let mut tr_bytes = [0u8; 64];
    let hash = match tr {
        TrIn::Hash(pk_bytes) => Some(pk_bytes),
        TrIn::Known(known) => {
            tr_bytes = known;
            None
        }
        TrIn::Unneeded => None,
    };
    // One call site for both cases, with or without the rider.
    let rider = hash
        .as_ref()
        .map(|pk_bytes| Rider::shake256(core::slice::from_ref(pk_bytes), &mut tr_bytes));
    matrix_mul_rows::<B, P, Error>(b, &pk.rho, &z, &mut w, rider, |_, _, _| {})?;
    if hash.is_some() {
        *fresh = Some(tr_bytes);
    }
    let mu = mu_of(&tr_bytes)?;
    let mut tmp = Poly::default();
    let mut w1 = Poly::default();
    let mut w1buf = [0u8; 192];
    let w1b = pack::w1_bytes(P::GAMMA2);
    let mut hasher = Shake256::default();
    hasher.update(&mu);
    for i in 0..P::K {
        b.pointwise_mont_q8380417(&chat, &pk.t1hat[i], &mut tmp);
        b.sub_q8380417(&mut w[i], &tmp);
        b.reduce32_q8380417(&mut w[i]);
        b.inv_ntt_tomont_q8380417(&mut w[i]);
        b.caddq_q8380417(&mut w[i]);
        // Line 10: w1' = UseHint(h, w'approx).
        hint_row::<P>(h_part, i, &mut tmp);
        b.use_hint_q8380417(P::GAMMA2, &w[i], &tmp, &mut w1);
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
