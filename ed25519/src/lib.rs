//! # pqkit-ed25519
//!
//! Ed25519, Ed25519ctx and Ed25519ph (RFC 8032) on `curve25519-dalek`'s
//! group arithmetic; the scheme, its validation rules and its encodings are
//! ours. `#![no_std]`, no `unsafe`.
//!
//! ```
//! use pqkit_ed25519::{SigningKey, signature::Signer};
//!
//! let sk = SigningKey::from_bytes(&[7u8; 32]);
//! let vk = sk.verifying_key();
//! let sig = sk.sign(b"message");
//! vk.verify_bytes(b"message", &sig)?;
//! // Ed25519ctx and Ed25519ph:
//! let sig = sk.sign_ctx(b"message", b"context")?;
//! vk.verify_ctx(b"message", b"context", &sig)?;
//! let sig = sk.sign_ph(b"message", b"")?;
//! vk.verify_ph(b"message", b"", &sig)?;
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

#[cfg(feature = "alloc")]
pub use batch::verify_batch;
pub use error::Error;
pub use keys::{PREHASH, Signature, SigningKey, VerifyingKey};
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
/// The traits and the hash at the crate root, as in `ed25519-dalek`.
pub use sha2::{Digest, Sha512};
pub use signature;
pub use signature::{DigestSigner, DigestVerifier, Signer, Verifier};
#[cfg(feature = "pkcs8")]
pub use {der, pkcs8, spki};
