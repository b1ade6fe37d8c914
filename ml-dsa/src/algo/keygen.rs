//! FIPS 204 Alg. 6 ML-DSA.KeyGen_internal and the secret-key finishing
//! it shares with validated key import.
#![allow(clippy::needless_range_loop)]

use super::*;
use pqkit_common::wipe::WipedBytes;

use core::convert::Infallible;

use super::encoding::encode_s;
use super::expand::{expand_s, matrix_mul_rows};

/// FIPS 204 Alg. 6 ML-DSA.KeyGen_internal. Writes `pkEncode(rho, t1)` to
/// `pk` and `skEncode(...)` to `sk`, and rho, K, tr and `NTT(s1)` to
/// `out`; `work` is working memory. The key objects make the rest of
/// their NTT-domain forms from the encodings when first used (see
/// [`crate::ExpandedSigningKey::from_seed`]). `pk` and `sk` have the
/// parameter set's lengths (`PK_LEN`, `SK_LEN`; the callers' arrays).
/// Cannot fail: ExpandA and ExpandS squeeze until done (see [`Bound`]).
#[inline(never)] // one frame per operation: keeps the stack peak down
pub(crate) fn keygen<B: Backend, P: ParameterSet>(
    b: B,
    xi: &[u8; 32],
    pk: &mut [u8],
    sk: &mut [u8],
    out: &mut SecretParts,
    work: &mut SignForms,
) {
    debug_assert!(pk.len() == P::PK_LEN && sk.len() == P::SK_LEN);
    (out.l, work.k) = (P::L, P::K);
    // Line 1: (rho, rho', K) = H(xi || k || l, 128).
    let mut seed = WipedBytes([0u8; 128]);
    h(&[xi, &[P::K as u8, P::L as u8]], &mut seed[..]);
    out.rho.copy_from_slice(&seed[..32]);
    // Declassified: rho is published as the first 32 bytes of the public key
    // (FIPS 204 Alg. 22), so ExpandA may branch on it (rejection sampling).
    out.rho = declassify(out.rho);
    let mut rho_prime = Zeroizing::new([0u8; 64]);
    rho_prime.copy_from_slice(&seed[32..96]);
    out.key.copy_from_slice(&seed[96..]);

    // Line 4: (s1, s2) = ExpandS(rho') (plain domain for now).
    let Ok(()) = expand_s::<B, P, Infallible>(b, &rho_prime, &mut out.s1hat, &mut work.s2hat);
    encode_s::<P>(&out.s1hat, &work.s2hat, sk);
    let t0_at = 128 + (P::K + P::L) * pack::eta_bytes(P::ETA);
    let Ok(()) = finish_secret::<B, P, Infallible>(b, out, work, pk, None, |t0| {
        for (chunk, p) in sk[t0_at..]
            .chunks_mut(pack::T0_BYTES)
            .zip(t0.iter().take(P::K))
        {
            pack::pack_t0(p, chunk);
        }
    });
    sk[..32].copy_from_slice(&out.rho);
    sk[32..64].copy_from_slice(&out.key);
    sk[64..128].copy_from_slice(&out.tr);
}

/// `2^64 mod q`: a Montgomery product with it multiplies by `2^32`.
pub(super) const MONT_SQ: i32 = 2_365_951;

/// Lines 5..9 of Alg. 6 from `rho` and plain `s1` in `out`, `s2` in
/// `forms`:
/// `t = A s1 + s2`, Power2Round, pkEncode, `tr`. Calls `with_t0` with t0
/// (plain domain). Leaves `out` in the NTT domain. With `pub_out` (the
/// validated import), then also `forms`, and fills `pub_out`; without it
/// (key generation), `forms` is working memory.
///
/// The imported key's `NTT(t0)` is not transformed from t0: NTT is linear,
/// so it is `NTT(t) - NTT(t1 * 2^d)`, where `NTT(t) = A-hat s1-hat +
/// NTT(s2)` is at hand before the inverse transform and `NTT(t1 * 2^d)` and
/// `NTT(s2)` are needed for the key anyway. That saves `k` forward NTTs.
pub(super) fn finish_secret<B: Backend, P: ParameterSet, E: Bound>(
    b: B,
    out: &mut SecretParts,
    forms: &mut SignForms,
    pk: &mut [u8],
    mut pub_out: Option<&mut PublicParts>,
    with_t0: impl FnOnce(&VecK),
) -> Result<(), E> {
    for p in out.s1hat.iter_mut().take(P::L) {
        b.ntt_q8380417(p);
    }
    let mut t = Secret::<MAX_K>::new(P::K);
    let mont_sq = Poly {
        coeffs: [MONT_SQ; N],
    };
    // Row i of t1 goes to the verification form, or (encodings only) to
    // one polynomial reused for every row.
    let mut t1_row = Poly::default();
    let mut t0 = Zeroizing::new(Poly::default());
    // pkEncode: rho, then t1 row by row as the rows of A s1 are complete,
    // each handed to the `tr = H(pk)` hash riding beside the matrix.
    let rho = out.rho;
    pk[..32].copy_from_slice(&rho);
    let with_forms = pub_out.is_some();
    let (t0hat, s2hat) = (&mut forms.t0hat, &forms.s2hat);
    let tr_input: [&[u8]; 1] = [&rho];
    let rider = Rider {
        feed: Some(Feed::new(&mut pk[32..])),
        ..Rider::shake256(&tr_input, &mut out.tr)
    };
    matrix_mul_rows::<B, P, E>(b, &rho, &out.s1hat, &mut t, Some(rider), |i, ti, feed| {
        b.reduce32_q8380417(ti);
        // (A-hat s1-hat) * 2^-32 times 2^32: the NTT-domain A s1, kept in
        // t0hat until NTT(s2) is added and NTT(t1 * 2^d) subtracted below.
        if with_forms {
            b.pointwise_mont_q8380417(ti, &mont_sq, &mut t0hat[i]);
        }
        b.inv_ntt_tomont_q8380417(ti);
        b.add_q8380417(ti, &s2hat[i]);
        b.caddq_q8380417(ti);
        let t1 = match pub_out.as_deref_mut() {
            Some(p) => &mut p.t1hat[i],
            None => &mut t1_row,
        };
        b.power2round_q8380417(ti, t1, &mut t0);
        *ti = (*t0).clone();
        let Some(feed) = feed else {
            debug_assert!(false, "the tr rider has a feed");
            return;
        };
        pack::pack_t1(t1, &mut feed.unread()[..pack::T1_BYTES]);
        feed.release(pack::T1_BYTES);
        if i + 1 == P::K {
            feed.close();
        }
    })?;
    with_t0(&t);
    let Some(pub_out) = pub_out else {
        return Ok(());
    };
    let t1 = &mut pub_out.t1hat;
    pub_out.rho = out.rho;
    for i in 0..P::K {
        b.shift_left_d_q8380417(&mut t1[i]);
        b.ntt_q8380417(&mut t1[i]);
        b.ntt_q8380417(&mut forms.s2hat[i]);
        // |A s1| < q, |NTT(s2)|, |NTT(t1 2^d)| < 9q: the sum stays far
        // inside reduce32's range.
        b.add_q8380417(&mut forms.t0hat[i], &forms.s2hat[i]);
        b.sub_q8380417(&mut forms.t0hat[i], &t1[i]);
        b.reduce32_q8380417(&mut forms.t0hat[i]);
    }
    Ok(())
}
