//! Batch verification (feature `alloc`).
//!
//! A random linear combination of the verification equations, checked with
//! one multiscalar multiplication and the cofactor, like ed25519-dalek's
//! batch verifier:
//!
//! `[8] ( -(sum z_i S_i) B + sum z_i R_i + sum (z_i k_i) A_i ) = 0`.
//!
//! The coefficients `z_i` are derived deterministically from the whole
//! batch: `T = SHA-512("pqkit-ed25519-batch-v1" || n || (R_i || A_i || S_i
//! || k_i) for every i)` and `z_i` = the first 128 bits of `SHA-512(T || i)`
//! (little-endian `u64` index). Every signature is fixed before any `z_i` is
//! known, so a forger cannot adapt one to the coefficients; no RNG is needed
//! and the result is reproducible.
//!
//! A batch of valid signatures always verifies. An invalid batch is reported
//! as [`Error::InvalidSignature`] (find the culprit with single
//! verification). Because the check is cofactored, a batch can accept a
//! signature that the cofactorless [`VerifyingKey::verify_bytes`] rejects
//! (small-order components), as with ed25519-dalek's batch verifier.

use alloc::vec::Vec;

use pqkit_common::curve25519::{EdwardsPoint, Scalar};
use pqkit_common::sha2::Sha512;

use crate::keys::{Dom, hash_scalar};
use crate::{Error, Signature, SignatureError, VerifyingKey};

/// Verify plain Ed25519 signatures together: `signatures[i]` on
/// `messages[i]` under `verifying_keys[i]` (ed25519-dalek's signature). The
/// three slices must have the same length ([`Error::InvalidLength`]
/// otherwise). Returns ed25519-dalek's `SignatureError`, whose source is
/// the typed [`Error`] ([`Error::from_signature_error`]).
///
/// ```
/// use pqkit_ed25519::{Signer, SigningKey, verify_batch};
/// let keys: Vec<_> = (0u8..4).map(|i| SigningKey::from_bytes(&[i; 32])).collect();
/// let messages: Vec<&[u8]> = vec![b"a", b"b", b"c", b"d"];
/// let signatures: Vec<_> = keys.iter().zip(&messages).map(|(k, m)| k.sign(m)).collect();
/// let vks: Vec<_> = keys.iter().map(|k| k.verifying_key()).collect();
/// verify_batch(&messages, &signatures, &vks)?;
/// assert!(verify_batch(&messages[1..], &signatures[..3], &vks[..3]).is_err());
/// # Ok::<(), pqkit_ed25519::SignatureError>(())
/// ```
pub fn verify_batch(
    messages: &[&[u8]],
    signatures: &[Signature],
    verifying_keys: &[VerifyingKey],
) -> Result<(), SignatureError> {
    Ok(batch(messages, signatures, verifying_keys)?)
}

fn batch(
    messages: &[&[u8]],
    signatures: &[Signature],
    verifying_keys: &[VerifyingKey],
) -> Result<(), Error> {
    let n = messages.len();
    if signatures.len() != n || verifying_keys.len() != n {
        return Err(Error::InvalidLength);
    }
    let mut transcript = Sha512::new();
    transcript.update(b"pqkit-ed25519-batch-v1");
    transcript.update(&(n as u64).to_le_bytes());
    let mut parsed = Vec::with_capacity(n);
    let r_bytes: Vec<[u8; 32]> = signatures.iter().map(|s| *s.r_bytes()).collect();
    let rs = EdwardsPoint::decompress_batch(&r_bytes);
    for (((msg, sig), vk), r) in messages.iter().zip(signatures).zip(verifying_keys).zip(rs) {
        let s = Option::<Scalar>::from(Scalar::from_canonical_bytes(*sig.s_bytes()))
            .ok_or(Error::NonCanonicalS)?;
        let r = r.ok_or(Error::InvalidSignature)?;
        let k = hash_scalar(Dom::Plain, &[sig.r_bytes(), vk.as_bytes()], &[msg]);
        transcript.update(sig.r_bytes());
        transcript.update(vk.as_bytes());
        transcript.update(sig.s_bytes());
        transcript.update(&k.to_bytes());
        parsed.push((s, r, k, vk.point()));
    }
    let t = transcript.finalize();
    let mut scalars = Vec::with_capacity(2 * n);
    let mut points = Vec::with_capacity(2 * n);
    let mut b_coeff = Scalar::ZERO;
    for (i, (s, r, k, a)) in parsed.into_iter().enumerate() {
        let mut zh = Sha512::new();
        zh.update(&t);
        zh.update(&(i as u64).to_le_bytes());
        let zh = zh.finalize();
        let mut z16 = [0u8; 32];
        z16[..16].copy_from_slice(&zh[..16]);
        let z = Scalar::from_bytes_mod_order(z16);
        b_coeff -= z * s;
        scalars.push(z);
        points.push(r);
        scalars.push(z * k);
        points.push(a);
    }
    let sum = EdwardsPoint::vartime_multiscalar_mul_basepoint(&scalars, &points, &b_coeff);
    if sum.mul_by_cofactor().is_identity() {
        Ok(())
    } else {
        Err(Error::InvalidSignature)
    }
}
