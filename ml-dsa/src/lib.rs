//! # pqkit-ml-dsa
//!
//! ML-DSA (FIPS 204): ML-DSA-44, ML-DSA-65 and ML-DSA-87 in one build, with
//! HashML-DSA (all twelve pre-hashes ACVP tests), external mu, and the
//! internal functions in [`hazmat`]. Written once over the
//! [`pqkit_common::Backend`] kernels and dispatched at run time (portable or
//! AVX2); `#![no_std]`, no `unsafe`.
//!
//! ```
//! use pqkit_ml_dsa::{MlDsa65, SigningKey, HashAlg};
//!
//! // Key generation from the 32-byte seed xi (the canonical private key).
//! let sk = SigningKey::<MlDsa65>::from_seed(&[42u8; 32])?;
//! let vk = sk.public_key().clone();
//!
//! // Deterministic and hedged signing with a context string.
//! let sig = sk.sign_deterministic(b"message", b"my context")?;
//! vk.verify_with_context(b"message", b"my context", &sig)?;
//! # #[cfg(feature = "getrandom")] {
//! let sig = sk.sign_hedged(b"message", b"")?;
//! vk.verify_with_context(b"message", b"", &sig)?;
//! # }
//!
//! // HashML-DSA.
//! let sig = sk.sign_prehash_deterministic(HashAlg::Sha2_512, b"message", b"")?;
//! vk.verify_prehash(HashAlg::Sha2_512, b"message", b"", &sig)?;
//!
//! // Public key and signature bytes.
//! let vk2 = pqkit_ml_dsa::VerifyingKey::<MlDsa65>::from_bytes(vk.as_bytes())?;
//! assert_eq!(vk, vk2);
//! # Ok::<(), pqkit_ml_dsa::Error>(())
//! ```
//!
//! ## Interfaces
//!
//! * Keys: [`SigningKey::from_seed`] (KeyGen), [`SigningKey::generate`],
//!   [`SigningKey::from_expanded`] / [`SigningKey::expanded_bytes`] (FIPS 204
//!   `skEncode`, validated on import), [`VerifyingKey::from_bytes`] /
//!   [`VerifyingKey::to_bytes`].
//! * Signing: `sign_with_rng` (hedged), `sign_deterministic`,
//!   `sign_with_rnd`, `sign_hedged` (OS randomness, feature `getrandom`),
//!   HashML-DSA `sign_prehash_*`, external mu via [`MuBuilder`] and
//!   `sign_mu_*`. Every API takes a context of at most 255 bytes (longer is
//!   [`Error::ContextTooLong`]).
//! * Verification: `verify_with_context`, `verify_prehash`, `verify_mu`.
//!   Malformed signatures give typed errors ([`Error::MalformedHint`],
//!   [`Error::ZOutOfRange`], [`Error::InvalidLength`]), never a panic.
//! * The bounded signing loop tries at most 814 times (failure probability
//!   below `2^-256`) and then returns [`Error::RejectionLimit`].
//!
//! ## RustCrypto traits, PKCS#8 and SPKI
//!
//! ```
//! # #[cfg(feature = "pem")] {
//! use pqkit_ml_dsa::{MlDsa65, SigningKey, VerifyingKey, KeyFormat, Signature};
//! use pqkit_ml_dsa::signature::{Keypair, RandomizedSigner, Signer, Verifier};
//! use pqkit_ml_dsa::pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding};
//! use pqkit_ml_dsa::spki::{DecodePublicKey, EncodePublicKey};
//!
//! let sk = SigningKey::<MlDsa65>::from_seed(&[1u8; 32]).unwrap();
//! // `Signer` is deterministic with the empty context; `RandomizedSigner`
//! // is hedged; `with_context` carries a context through the same traits.
//! let sig: Signature<MlDsa65> = sk.sign(b"msg");
//! sk.verifying_key().verify(b"msg", &sig).unwrap();
//! let ctx_signer = sk.with_context(b"app-v1").unwrap();
//! # struct Rng;
//! # impl rand_core::TryRng for Rng { type Error = core::convert::Infallible;
//! #   fn try_next_u32(&mut self) -> Result<u32, Self::Error> { Ok(7) }
//! #   fn try_next_u64(&mut self) -> Result<u64, Self::Error> { Ok(7) }
//! #   fn try_fill_bytes(&mut self, d: &mut [u8]) -> Result<(), Self::Error> { d.fill(7); Ok(()) } }
//! # impl rand_core::TryCryptoRng for Rng {}
//! let sig = ctx_signer.sign_with_rng(&mut Rng, b"msg");
//! sk.public_key().with_context(b"app-v1").unwrap().verify(b"msg", &sig).unwrap();
//!
//! // PKCS#8: seed form by default; expanded and both on request; all three
//! // forms import.
//! let pem = sk.to_pkcs8_pem(LineEnding::LF).unwrap();
//! let both = sk.to_pkcs8_der_with(KeyFormat::Both).unwrap();
//! assert_eq!(SigningKey::<MlDsa65>::from_pkcs8_pem(&pem).unwrap().public_key(), sk.public_key());
//! assert!(SigningKey::<MlDsa65>::from_pkcs8_der(both.as_bytes()).is_ok());
//! // SPKI.
//! let spki = sk.public_key().to_public_key_pem(LineEnding::LF).unwrap();
//! let vk = VerifyingKey::<MlDsa65>::from_public_key_pem(&spki).unwrap();
//! assert_eq!(&vk, sk.public_key());
//! # }
//! ```
//!
//! ## Implementation notes
//!
//! * The matrix A is generated on demand from rho (four entries at a time
//!   with the 4-way SHAKE128); only signing keeps it, on the heap, when
//!   `alloc` is on. With `alloc`, the large NTT-domain key parts are boxed,
//!   so key objects are small. Peak stack of one operation, measured with
//!   valgrind massif (x86_64, AVX2 backend, release, above an idle `main`):
//!   sign about 59 KB for every set (ML-DSA-65: 58.7 KB; key decoded
//!   beforehand), keygen about 49 KB, verify about 35 KB.
//! * Constant time: no secret-dependent branch, index or division.
//!   `Decompose` uses a multiply-shift. Declassified (see
//!   `pqkit_common::ct::declassify`) only what FIPS 204 makes public: each
//!   rejection decision of the signing loop, the commitment hash c~ and the
//!   final hint (both part of the signature), which nibbles RejBoundedPoly
//!   rejected (independent of the accepted values), and whether an imported
//!   expanded key is well formed.
//! * Expanded-key import validates the key: s1/s2 in range, and t0 and tr
//!   recomputed from rho, s1, s2 (which also yields the public key).
//!
//! ## Features
//!
//! `std` (default), `alloc` (A expanded once on the heap while signing;
//! boxed key parts; PKCS#8/SPKI encoders), `getrandom` (default: OS
//! randomness for `generate_os`/`sign_hedged`), `pkcs8` (default: DER import
//! and the algorithm identifiers), `pem` (default).
#![no_std]
#![forbid(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod algo;
mod error;
pub mod hazmat;
mod keys;
mod mu;
mod params;
#[cfg(feature = "pkcs8")]
mod pkcs8_impl;
mod traits;

pub use error::Error;
pub use keys::{ContextSigningKey, ContextVerifyingKey, Signature, SigningKey, VerifyingKey};
pub use mu::{Mu, MuBuilder};
pub use params::{ByteArray, MlDsa44, MlDsa65, MlDsa87, ParameterSet};
#[cfg(feature = "pkcs8")]
pub use pkcs8_impl::{KeyFormat, ParameterSetOid};
pub use pqkit_common::prehash::{
    Error as PreHashError, HashAlg, PreHash, PreHashDigest, PreHasher,
};
pub use signature;
/// The RustCrypto traits the keys implement, at the crate root as in
/// RustCrypto `ml-dsa`.
pub use signature::{
    DigestSigner, DigestVerifier, Keypair, MultipartSigner, MultipartVerifier, RandomizedSigner,
    SignatureEncoding, Signer, Verifier,
};
#[cfg(feature = "pkcs8")]
pub use {der, pkcs8, spki};

/// ML-DSA-44 type aliases.
pub mod ml_dsa_44 {
    /// Signing key.
    pub type SigningKey = crate::SigningKey<crate::MlDsa44>;
    /// Verifying key.
    pub type VerifyingKey = crate::VerifyingKey<crate::MlDsa44>;
    /// Signature.
    pub type Signature = crate::Signature<crate::MlDsa44>;
}
/// ML-DSA-65 type aliases.
pub mod ml_dsa_65 {
    /// Signing key.
    pub type SigningKey = crate::SigningKey<crate::MlDsa65>;
    /// Verifying key.
    pub type VerifyingKey = crate::VerifyingKey<crate::MlDsa65>;
    /// Signature.
    pub type Signature = crate::Signature<crate::MlDsa65>;
}
/// ML-DSA-87 type aliases.
pub mod ml_dsa_87 {
    /// Signing key.
    pub type SigningKey = crate::SigningKey<crate::MlDsa87>;
    /// Verifying key.
    pub type VerifyingKey = crate::VerifyingKey<crate::MlDsa87>;
    /// Signature.
    pub type Signature = crate::Signature<crate::MlDsa87>;
}
