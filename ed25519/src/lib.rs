//! # pqkit-ed25519
//!
//! Ed25519, Ed25519ctx and Ed25519ph (RFC 8032) on `pqkit-common`'s
//! curve25519 arithmetic (the edwards25519 group, a fixed-base table for
//! key generation and signing, double-base NAF products for verification,
//! on the best backend the CPU has). `#![no_std]`, no `unsafe`.
//!
//! ```
//! use pqkit_ed25519::{SigningKey, signature::Signer};
//!
//! let sk = SigningKey::from_bytes(&[7u8; 32]);
//! let vk = sk.verifying_key();
//! let sig = sk.sign(b"message");
//! vk.verify_bytes(b"message", &sig)?;
//! // Ed25519ctx and Ed25519ph:
//! let sig = sk.sign_with_context(b"message", b"context")?;
//! vk.verify_with_context(b"message", b"context", &sig)?;
//! let sig = sk.sign_prehash(b"message", b"")?;
//! vk.verify_prehash(b"message", b"", &sig)?;
//! # Ok::<(), pqkit_ed25519::Error>(())
//! ```
//!
//! ## Verification rules
//!
//! Every mode rejects a non-canonical `S` (`S >= L`) and computes the
//! challenge over the signature's `R` and the key's bytes as given.
//!
//! * [`VerifyingKey::verify_bytes`] (and the `Verifier` trait): the same acceptance
//!   rules as ed25519-dalek's `verify`: the cofactorless equation, checked by
//!   recomputing `R' = [S]B - [k]A` and comparing its canonical encoding with
//!   the signature's `R` bytes (so a non-canonical `R` never verifies).
//! * [`VerifyingKey::verify_strict`]: as ed25519-dalek's `verify_strict`:
//!   additionally rejects a small-order `A` or `R` (and an `R` that does not
//!   decode).
//! * [`VerifyingKey::verify_zip215`]: the ZIP 215 consensus rules: `A` and
//!   `R` may be non-canonical encodings, small order is allowed, and the
//!   cofactored equation `[8][S]B = [8]R + [8][k]A` decides.
//!
//! ## Work bounds
//!
//! Every operation does a fixed amount of work on any input: one scalar
//! multiplication to sign or to derive a key, one double-scalar
//! multiplication and at most two point decompressions to verify (batch
//! verification: one multi-scalar multiplication over its inputs). A
//! 64-byte keypair import re-derives the public half and compares it
//! ([`Error::InconsistentKey`] when it differs).
//!
//! ## Migrating from ed25519-dalek 3
//!
//! Code written for ed25519-dalek compiles against this crate with only the
//! crate name changed (`ed25519_dalek` → `pqkit_ed25519`): the same root
//! names (`SigningKey`, `VerifyingKey`, `Signature` (the RustCrypto `ed25519`
//! crate's type, shared with dalek), `SecretKey`, `Context`,
//! `SignatureError`, `verify_batch`, the length constants, `Digest`,
//! `Sha512`, the `signature` traits, `ed25519`, `rand_core`, `pkcs8`), the
//! same methods with the same signatures (`from_bytes`, `to_bytes`,
//! `as_bytes`, `to_keypair_bytes`/`from_keypair_bytes`, `generate(&mut
//! csprng)`, `verifying_key`, `with_context`, `sign_prehashed(digest,
//! Option<ctx>)`, `verify_prehashed`, `verify_strict`,
//! `verify_prehashed_strict`, `is_weak`), the same trait impls (`Signer`,
//! `Verifier`, `DigestSigner<D>`/`DigestVerifier<D>` as Ed25519ph for any
//! 64-byte digest, on the keys and on `Context`, `KeypairRef`,
//! `Generate`/`KeyInit`/`TryFrom`/`From`, PKCS#8/SPKI, serde with
//! dalek's byte format), the same feature names (as in dalek, `Digest`,
//! `Sha512`, `Context`, the `Digest*` traits and the `*_prehashed` and
//! `with_context` methods need the `digest` feature), and the same bytes
//! (`tests/differential.rs`; the workspace's `pqkit-dropin` crate compiles
//! and runs dalek's own documentation examples, including its serde ones).
//! What remains different:
//!
//! * The dalek-named methods return `SignatureError` as dalek's do; its
//!   source is this crate's typed [`Error`] (with `alloc`; read it with
//!   [`Error::from_signature_error`]). The pqkit-only methods
//!   (`verify_bytes`, `verify_zip215`, `sign_with_context`,
//!   `verify_with_context`, `sign_prehash`, `verify_prehash`, their
//!   `_strict` forms, `from_slice`) return [`Error`] directly.
//! * Batch verification uses coefficients derived by hashing the batch
//!   (see [`verify_batch`]) rather than a transcript RNG: same acceptance,
//!   reproducible.
//! * Not offered: dalek's `hazmat` module types (`ExpandedSecretKey`,
//!   `raw_sign`, ...; [`hazmat::sign_with_expanded_key`] covers signing with
//!   an expanded key), `verify_stream`/`StreamVerifier`,
//!   `to_montgomery`/`to_edwards`/`to_scalar`; the `legacy_compatibility`
//!   feature is accepted but changes nothing (pqkit never builds unreduced
//!   scalars and never accepts a non-canonical `S`). `pkcs8::KeypairBytes` is reached as
//!   `pqkit_ed25519::ed25519::pkcs8::KeypairBytes`.
//!
//! pqkit adds: Ed25519ctx, Ed25519ph over a message, ZIP 215 verification,
//! typed errors.
#![no_std]
#![forbid(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

#[cfg(feature = "alloc")]
mod batch;
mod error;
pub mod hazmat;
mod keys;
#[cfg(feature = "pkcs8")]
mod pkcs8_impl;
#[cfg(feature = "serde")]
mod serde_impl;

#[cfg(feature = "alloc")]
pub use batch::verify_batch;
/// `crypto-common`'s key traits (`KeyInit`, `KeyExport`, `Generate`), which
/// the signing key implements.
pub use crypto_common::{Generate, KeyExport, KeyInit, KeySizeUser};
/// The RustCrypto `ed25519` crate, whose [`Signature`] type this crate uses
/// (as ed25519-dalek does).
pub use ed25519;
pub use error::Error;
#[cfg(feature = "digest")]
pub use keys::Context;
pub use keys::{PREHASH, SecretKey, Signature, SigningKey, VerifyingKey};
#[cfg(feature = "pkcs8")]
pub use pkcs8_impl::ALGORITHM_OID;
pub use rand_core;

/// The error type of the `ed25519-dalek` API names (`signature::Error`).
pub type SignatureError = signature::Error;
/// Length of a signature in bytes.
pub const SIGNATURE_LENGTH: usize = 64;
/// Length of a secret key in bytes.
pub const SECRET_KEY_LENGTH: usize = 32;
/// Length of a public key in bytes.
pub const PUBLIC_KEY_LENGTH: usize = 32;
/// Length of a secret key followed by its public key, in bytes.
pub const KEYPAIR_LENGTH: usize = SECRET_KEY_LENGTH + PUBLIC_KEY_LENGTH;
/// Length of an expanded secret key (scalar and nonce prefix), in bytes.
pub const EXPANDED_SECRET_KEY_LENGTH: usize = 64;
/// The digest trait and the hash at the crate root, as in `ed25519-dalek`
/// (with the `digest` feature, as there).
#[cfg(feature = "digest")]
pub use sha2::{Digest, Sha512};
pub use signature;
#[cfg(feature = "digest")]
pub use signature::{DigestSigner, DigestVerifier};
pub use signature::{Keypair, MultipartSigner, MultipartVerifier, Signer, Verifier};
#[cfg(feature = "pkcs8")]
pub use {der, pkcs8, spki};
