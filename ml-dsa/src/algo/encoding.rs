//! Key and signature encodings (FIPS 204 §7.2): skEncode/skDecode with
//! validation, pkDecode, the hint packing and sigEncode.
#![allow(clippy::needless_range_loop)]

use super::*;

use super::keygen::finish_secret;

pub(super) fn encode_s<P: ParameterSet>(s1: &VecL, s2: &VecK, sk: &mut [u8]) {
    let eb = pack::eta_bytes(P::ETA);
    let tail = sk.get_mut(128..).unwrap_or_default();
    let polys = s1.iter().take(P::L).chain(s2.iter().take(P::K));
    for (chunk, p) in tail.chunks_mut(eb).zip(polys) {
        pack::pack_eta(P::ETA, p, chunk);
    }
}

/// skDecode (FIPS 204 Alg. 25) into `out` and `forms`, plain domain: rho,
/// K, tr, s1, s2 and t0 as encoded. Returns whether every s1/s2
/// coefficient lies in `[-eta, eta]`. `sk` has the parameter set's length
/// (callers check).
pub(super) fn parse_sk<P: ParameterSet>(
    sk: &[u8],
    out: &mut SecretParts,
    forms: &mut SignForms,
) -> subtle::Choice {
    out.rho.copy_from_slice(&sk[..32]);
    // rho is part of the public key.
    out.rho = declassify(out.rho);
    out.key.copy_from_slice(&sk[32..64]);
    out.tr.copy_from_slice(&sk[64..128]);
    out.l = P::L;
    let ok = unpack_etas::<P>(&sk[128..], out.s1hat.iter_mut().take(P::L));
    ok & parse_forms::<P>(sk, forms)
}

/// Unpack consecutive eta-encoded polynomials from `bytes` into `polys`;
/// whether every coefficient lies in `[-eta, eta]`.
fn unpack_etas<'a, P: ParameterSet>(
    bytes: &[u8],
    polys: impl Iterator<Item = &'a mut Poly>,
) -> subtle::Choice {
    let mut ok = subtle::Choice::from(1u8);
    for (chunk, p) in bytes.chunks(pack::eta_bytes(P::ETA)).zip(polys) {
        ok &= subtle::Choice::from(pack::unpack_eta(P::ETA, chunk, p) as u8);
    }
    ok
}

/// The s2 and t0 of skDecode, plain domain, into `forms`; whether every s2
/// coefficient lies in `[-eta, eta]`.
fn parse_forms<P: ParameterSet>(sk: &[u8], forms: &mut SignForms) -> subtle::Choice {
    forms.k = P::K;
    let eb = pack::eta_bytes(P::ETA);
    let s2_at = 128 + P::L * eb;
    let t0_at = s2_at + P::K * eb;
    let ok = unpack_etas::<P>(&sk[s2_at..t0_at], forms.s2hat.iter_mut().take(P::K));
    for (chunk, p) in sk[t0_at..]
        .chunks(pack::T0_BYTES)
        .zip(forms.t0hat.iter_mut().take(P::K))
    {
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
    forms: &mut SignForms,
    pub_out: &mut PublicParts,
) -> Result<(), Error> {
    if sk.len() != P::SK_LEN || pk.len() != P::PK_LEN {
        return Err(Error::InvalidLength);
    }
    let ok = parse_sk::<P>(sk, out, forms);
    // The given tr and t0, to compare with the recomputed ones.
    let tr_given = Zeroizing::new(out.tr);
    let mut t0_given = Secret::<MAX_K>::new(P::K);
    for (x, y) in t0_given.iter_mut().zip(forms.t0hat.iter()).take(P::K) {
        x.coeffs = y.coeffs;
    }
    let mut t0_same = subtle::Choice::from(1u8);
    finish_secret::<B, P, Error>(b, out, forms, pk, Some(pub_out), |t0| {
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
/// recomputed from rho, s1, s2) and no public key is derived. `out` and
/// `forms` end in the NTT domain, ready for [`sign_mu`].
#[inline(never)] // one frame per operation: keeps the stack peak down
pub(crate) fn decode_sk_unchecked<B: Backend, P: ParameterSet>(
    b: B,
    sk: &[u8],
    out: &mut SecretParts,
    forms: &mut SignForms,
) -> Result<(), Error> {
    if sk.len() != P::SK_LEN {
        return Err(Error::InvalidLength);
    }
    let ok = parse_sk::<P>(sk, out, forms);
    // Whether the encoding is in range is a public property of the input.
    if !declassify(bool::from(ok)) {
        return Err(Error::InvalidPrivateKey);
    }
    for p in out.s1hat.iter_mut().take(P::L) {
        b.ntt_q8380417(p);
    }
    forms_to_ntt::<B, P>(b, forms);
    Ok(())
}

/// `NTT(s2)` and `NTT(t0)` from the expanded key `sk` of a key this crate
/// generated (or validated): no checks. For the forms a generated key
/// makes when it first signs (see [`pqkit_common::wipe::OnDemand`]). `sk`
/// has the parameter set's length (the callers' arrays).
#[inline(never)] // one frame per operation: keeps the stack peak down
pub(crate) fn decode_forms<B: Backend, P: ParameterSet>(b: B, sk: &[u8], forms: &mut SignForms) {
    debug_assert_eq!(sk.len(), P::SK_LEN, "the callers pass P::ExpandedKeyBytes");
    // In range: the key was generated or validated here.
    let _ = parse_forms::<P>(sk, forms);
    forms_to_ntt::<B, P>(b, forms);
}

/// The NTT of s2 and t0 in `forms`.
fn forms_to_ntt<B: Backend, P: ParameterSet>(b: B, forms: &mut SignForms) {
    for i in 0..P::K {
        b.ntt_q8380417(&mut forms.s2hat[i]);
        b.ntt_q8380417(&mut forms.t0hat[i]);
    }
}

/// pkDecode (FIPS 204 Alg. 23) into `out` (`tr` is left to the first
/// verification; see [`TrCache`]).
#[inline(never)] // one frame per operation: keeps the stack peak down
pub(crate) fn decode_pk<B: Backend, P: ParameterSet>(b: B, pk: &[u8], out: &mut PublicParts) {
    debug_assert_eq!(pk.len(), P::PK_LEN, "the callers pass P::PublicKeyBytes");
    out.rho.copy_from_slice(&pk[..32]);
    for (chunk, p) in pk[32..].chunks(pack::T1_BYTES).zip(out.t1hat.iter_mut()) {
        pack::unpack_t1(chunk, p);
        b.shift_left_d_q8380417(p);
        b.ntt_q8380417(p);
    }
}

/// HintBitUnpack's malformation checks (FIPS 204 Alg. 21): cumulative
/// counts non-decreasing and at most omega, positions strictly increasing
/// within a row, unused position bytes zero.
pub(super) fn check_hint<P: ParameterSet>(y: &[u8]) -> Result<(), Error> {
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
            index += 1;
        }
    }
    if y[index..P::OMEGA].iter().any(|&x| x != 0) {
        return Err(Error::MalformedHint);
    }
    Ok(())
}

/// HintBitUnpack (FIPS 204 Alg. 21), one row: the bits of row `i` of a
/// hint [`check_hint`] accepted, into `row` (every other coefficient
/// zero). Verification decodes the rows as it uses them, so that the
/// whole `k x 256` hint is never held.
pub(super) fn hint_row<P: ParameterSet>(y: &[u8], i: usize, row: &mut Poly) {
    row.coeffs.fill(0);
    let start = match i.checked_sub(1) {
        Some(prev) => y.get(P::OMEGA + prev).map_or(0, |&c| usize::from(c)),
        None => 0,
    };
    let end = y.get(P::OMEGA + i).map_or(0, |&c| usize::from(c));
    for &j in y.get(start..end).unwrap_or_default() {
        row.coeffs[usize::from(j)] = 1;
    }
}

pub(super) fn encode_sig<P: ParameterSet>(ctilde: &[u8], z: &VecL, hint: &VecK, sig: &mut [u8]) {
    let ct_len = ctilde.len();
    let zb = pack::z_bytes(P::GAMMA1_BITS);
    let (c_part, rest) = sig.split_at_mut(ct_len.min(sig.len()));
    c_part.copy_from_slice(&ctilde[..c_part.len()]);
    let (z_part, h_part) = rest.split_at_mut((P::L * zb).min(rest.len()));
    for (chunk, p) in z_part.chunks_mut(zb).zip(z.iter().take(P::L)) {
        pack::pack_z(P::GAMMA1_BITS, p, chunk);
    }
    // The hint is part of the output signature.
    pack_hint::<P>(h_part, |i, j| declassify(hint[i].coeffs[j]) != 0);
}

/// HintBitPack (FIPS 204 Alg. 20) into `h_part` (`omega + k` bytes), bit
/// `(i, j)` of the hint given by `bit` (called once per bit, in order;
/// the callers declassify: the hint of an accepted signature is public).
pub(super) fn pack_hint<P: ParameterSet>(h_part: &mut [u8], bit: impl Fn(usize, usize) -> bool) {
    h_part.fill(0);
    let mut index = 0usize;
    for i in 0..P::K {
        for j in 0..N {
            if bit(i, j) {
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
