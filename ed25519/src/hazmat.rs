//! Signing with an expanded secret key `(s, prefix)` (RFC 8032 §5.1.5 step
//! 2-3 output), for protocols that derive keys that way. Misuse (a `prefix`
//! shared between keys) breaks security.

use pqkit_common::curve25519::{EdwardsPoint, Scalar};

use crate::keys::{Dom, hash_scalar as challenge_scalar};
use crate::{Signature, VerifyingKey};

/// RFC 8032 §5.1.6 with an expanded key: `r = H(dom || prefix || M)`,
/// `R = [r]B`, `k = H(dom || R || A || M)`, `S = r + k s mod L`.
pub(crate) fn sign_expanded(
    s: &Scalar,
    prefix: &[u8; 32],
    vk: &VerifyingKey,
    dom: Dom<'_>,
    msg: &[&[u8]],
) -> Signature {
    let mut r = challenge_scalar(dom, &[prefix], msg);
    let (_, big_r) = EdwardsPoint::mul_base(&r);
    let k = challenge_scalar(dom, &[&big_r, vk.as_bytes()], msg);
    let mut s_out = r + k * *s;
    zeroize::Zeroize::zeroize(&mut r);
    let mut bytes = [0u8; 64];
    bytes[..32].copy_from_slice(&big_r);
    bytes[32..].copy_from_slice(&s_out.to_bytes());
    zeroize::Zeroize::zeroize(&mut s_out);
    Signature::from_bytes(&bytes)
}

/// Plain Ed25519 signature of `msg` with the expanded secret `(s, prefix)`
/// whose public key is `vk`.
pub fn sign_with_expanded_key(
    s: &Scalar,
    prefix: &[u8; 32],
    vk: &VerifyingKey,
    msg: &[u8],
) -> Signature {
    sign_expanded(s, prefix, vk, Dom::Plain, &[msg])
}

/// The scalar of an expanded key: an integer modulo the group order `l`
/// (`pqkit_common::curve25519::Scalar`; in ed25519-dalek,
/// curve25519-dalek's `Scalar`, with the same constructors).
pub use pqkit_common::curve25519::Scalar as ExpandedScalar;
