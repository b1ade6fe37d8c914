//! # pqkit-ml-dsa
//!
//! ML-DSA (FIPS 204): ML-DSA-44, ML-DSA-65 and ML-DSA-87 in one build, with
//! HashML-DSA (all twelve pre-hashes ACVP tests), external mu, and the
//! internal functions in [`hazmat`]. Written once over the
//! [`pqkit_common::Backend`] kernels and dispatched at run time (portable or
//! AVX2); `#![no_std]`, no `unsafe`.
//!
//! ```
//! use pqkit_ml_dsa::{HashAlg, Keypair, MlDsa65, SigningKey, VerifyingKey};
//!
//! // Key generation from the 32-byte seed xi (the canonical private key).
//! let sk = SigningKey::<MlDsa65>::from_seed(&[42u8; 32].into());
//! let vk = sk.verifying_key();
//!
//! // Deterministic and hedged signing with a context string.
//! let sig = sk.sign_deterministic(b"message", b"my context")?;
//! assert!(vk.verify_with_context(b"message", b"my context", &sig));
//! # #[cfg(feature = "getrandom")] {
//! let sig = sk.sign_hedged(b"message", b"")?;
//! assert!(vk.verify_with_context(b"message", b"", &sig));
//! # }
//!
//! // HashML-DSA.
//! let sig = sk.sign_prehash_deterministic(HashAlg::Sha2_512, b"message", b"")?;
//! vk.verify_prehash(HashAlg::Sha2_512, b"message", b"", &sig)?;
//!
//! // Public key and signature bytes.
//! let vk2 = VerifyingKey::<MlDsa65>::from_bytes(vk.as_bytes())?;
//! assert_eq!(vk, vk2);
//! # Ok::<(), pqkit_ml_dsa::Error>(())
//! ```
//!
//! ## Interfaces
//!
//! * Keys: [`SigningKey`] keeps the seed (`from_seed`, `KeyInit`,
//!   `KeyExport`, `Generate`, `as_seed`/`to_seed`); [`ExpandedSigningKey`]
//!   has no seed ([`ExpandedSigningKey::from_expanded`], FIPS 204 `skEncode`,
//!   validated on import) and holds every signing method; a
//!   [`SigningKey`] dereferences to its expanded key.
//!   [`VerifyingKey::from_bytes`] / [`VerifyingKey::encode`] /
//!   [`VerifyingKey::decode`].
//! * Signing: `sign_randomized` (hedged, RNG given), `sign_hedged` (OS
//!   randomness, feature `getrandom`), `sign_deterministic`,
//!   `sign_with_rnd`, HashML-DSA `sign_prehash_*`, external mu via
//!   [`MuBuilder`] and `sign_mu_*`. Every API takes a context of at most 255
//!   bytes (longer is [`Error::ContextTooLong`]).
//! * Verification: `verify_with_context` and `verify_mu` answer `bool` (as in
//!   RustCrypto `ml-dsa`); `verify_multipart_with_context`, `verify_mu_bytes`,
//!   `verify_prehash` and the `Verifier` trait say why a signature is
//!   rejected ([`Error::MalformedHint`], [`Error::ZOutOfRange`],
//!   [`Error::InvalidLength`], [`Error::InvalidSignature`]), never a panic.
//! * The bounded signing loop tries at most 814 times (failure probability
//!   below `2^-256`) and then returns [`Error::RejectionLimit`].
//!
//! ## RustCrypto traits, PKCS#8 and SPKI
//!
//! ```
//! # #[cfg(feature = "pem")] {
//! use pqkit_ml_dsa::{ExpandedSigningKey, KeyFormat, MlDsa65, Signature, SigningKey, VerifyingKey};
//! use pqkit_ml_dsa::signature::{Keypair, RandomizedSigner, Signer, Verifier};
//! use pqkit_ml_dsa::pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding};
//! use pqkit_ml_dsa::spki::{DecodePublicKey, EncodePublicKey};
//!
//! let sk = SigningKey::<MlDsa65>::from_seed(&[1u8; 32].into());
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
//! sk.verifying_key().with_context(b"app-v1").unwrap().verify(b"msg", &sig).unwrap();
//!
//! // PKCS#8: seed form by default; expanded and both on request.
//! // `SigningKey` loads the forms with a seed, `ExpandedSigningKey` all
//! // three (OpenSSL writes `both` by default, some tools `expandedKey`).
//! let pem = sk.to_pkcs8_pem(LineEnding::LF).unwrap();
//! let expanded = sk.to_pkcs8_der_with(KeyFormat::Expanded).unwrap();
//! let back = SigningKey::<MlDsa65>::from_pkcs8_pem(&pem).unwrap();
//! assert_eq!(back.as_seed(), sk.as_seed());
//! assert!(SigningKey::<MlDsa65>::from_pkcs8_der(expanded.as_bytes()).is_err());
//! let esk = ExpandedSigningKey::<MlDsa65>::from_pkcs8_der(expanded.as_bytes()).unwrap();
//! assert_eq!(esk.verifying_key(), sk.verifying_key());
//! // SPKI.
//! let spki = sk.verifying_key().to_public_key_pem(LineEnding::LF).unwrap();
//! let vk = VerifyingKey::<MlDsa65>::from_public_key_pem(&spki).unwrap();
//! assert_eq!(vk, sk.verifying_key());
//! # }
//! ```
//!
//! ## Migrating from RustCrypto `ml-dsa` 0.1
//!
//! Code written for RustCrypto `ml-dsa` compiles against this crate with
//! only the crate name changed (`ml_dsa` → `pqkit_ml_dsa`): the same root
//! names (`SigningKey`, `ExpandedSigningKey`, `VerifyingKey`, `Signature`,
//! `MlDsa44/65/87`, `MlDsaParams`, `Seed`, `B32`, `EncodedVerifyingKey`,
//! `EncodedSignature`, `ExpandedSigningKeyBytes`, `MuBuilder`, the
//! `signature` traits, `common`, `KeyInit`, `KeyExport`, `KeySizeUser`,
//! `Generate`), the same constructors (`from_seed(&Seed) -> Self`,
//! `generate()`), the same trait impls with the same bytes (`Signer`,
//! `MultipartSigner`, `RandomizedSigner` and `DigestSigner<Shake256>` as
//! pure ML-DSA with the empty context; checked against RustCrypto in
//! `tests/differential.rs` and by compiling its documentation examples in
//! the workspace's `pqkit-dropin` crate). What remains different:
//!
//! * [`Error`] is pqkit's typed error enum, where RustCrypto's `Error` is
//!   `signature::Error`; the `signature` traits still return
//!   `signature::Error` (with pqkit's error as its source), and `?` converts
//!   pqkit's `Error` into it.
//! * [`ExpandedSigningKey::from_expanded`] takes a byte slice and validates
//!   the key (s1/s2 in range, t0 and tr recomputed), so it returns a
//!   `Result`; RustCrypto's cannot fail and accepts inconsistent keys.
//! * The inherent signing methods return `Result<_, Error>` where
//!   RustCrypto's cannot fail (`sign_mu_deterministic`): pqkit bounds the
//!   signing loop ([`Error::RejectionLimit`], probability below `2^-256`).
//! * [`Signature::decode`] always succeeds: the hint and the range of z are
//!   checked when verifying (with typed errors), not when decoding;
//!   `Signature::try_from(&[u8])` checks only the length.
//! * [`Mu`] is `[u8; 64]` where RustCrypto uses a `hybrid-array` `B64`;
//!   `MuBuilder::new` takes `tr` and the context, and
//!   [`MuBuilder::from_verifying_key`] starts from a key.
//! * Not offered: `ExpandedSigningKey::sign_internal` and
//!   `VerifyingKey::verify_internal` (see [`hazmat`]), `compute_mu`
//!   (use [`MuBuilder`]), `Signature::c_tilde`.
//!
//! pqkit adds: HashML-DSA (`sign_prehash_*`, `verify_prehash`), context
//! signers (`with_context`), PKCS#8 in all three RFC 9881 forms
//! ([`KeyFormat`]) and typed verification errors.
//!
//! ## Work bounds
//!
//! The most work any operation does on any input it accepts:
//!
//! * Signing: at most 814 attempts (FIPS 204 Appendix C's minimum; a valid
//!   key reaches it with probability below `2^-256`), then
//!   [`Error::RejectionLimit`]. Each attempt is one ExpandMask, one `A y`,
//!   the norm checks and at most one hint computation.
//! * Decoding a key or a signature and verifying: ExpandA reads at most 32
//!   SHAKE128 blocks per entry, ExpandS at most 16 SHAKE256 blocks per
//!   polynomial, SampleInBall at most 64 SHAKE256 blocks (about 5, 2 and 1
//!   are needed); beyond them [`Error::RejectionLimit`]. Importing an
//!   expanded key recomputes `t` and `tr` once (about one key generation).
//! * Key generation from a seed squeezes until done, as FIPS 204 writes it
//!   (the same expected work; it never fails).
//!
//! ## Implementation notes
//!
//! * The matrix A is generated on demand from rho (four entries at a time
//!   with the 4-way SHAKE128); only signing keeps it, on the heap, when
//!   `alloc` is on. With `alloc`, the large NTT-domain key parts are boxed,
//!   so key objects are small, and a generated key makes the parts key
//!   generation does not compute anyway (`NTT(s2)`, `NTT(t0)`, and its
//!   public key's `NTT(t1 * 2^d)`: `2k` forward NTTs) from its encodings
//!   when it first signs or verifies (lock-free; see
//!   `pqkit_common::wipe::OnDemand`): a key generated to be stored never
//!   pays for them. The peak stack of each operation (valgrind massif)
//!   is published in the README, beside the speeds.
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
//! The defaults are RustCrypto `ml-dsa`'s (plus `std`): `std` (default),
//! `alloc` (A expanded once on the heap while signing; boxed key parts;
//! PKCS#8/SPKI encoders), `getrandom` (default: OS randomness for
//! `Generate::generate()`/`sign_hedged`), `pkcs8` (default: DER import and
//! the algorithm identifiers), `pem` (opt-in). Accepted for
//! RustCrypto `ml-dsa` compatibility, always on here: `rand_core`,
//! `zeroize`.
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
pub mod lowmem;
mod mu;
mod params;
#[cfg(feature = "pkcs8")]
mod pkcs8_impl;
mod traits;

/// `crypto-common` (RustCrypto's key traits), as RustCrypto `ml-dsa`
/// re-exports it.
pub use crypto_common as common;
/// The key traits at the crate root, as in RustCrypto `ml-dsa`: the seed
/// is the signing key's `Key`, the encoded public key the verifying key's.
pub use crypto_common::{Generate, KeyExport, KeyInit, KeySizeUser};
pub use error::Error;
pub use keys::{
    B32, ContextSigningKey, ContextVerifyingKey, EncodedSignature, EncodedVerifyingKey,
    ExpandedSigningKey, ExpandedSigningKeyBytes, Seed, Signature, SigningKey, VerifyingKey,
};
pub use mu::{Mu, MuBuilder};
/// RustCrypto `ml-dsa`'s name for the parameter-set trait.
pub use params::ParameterSet as MlDsaParams;
pub use params::{ByteArray, MlDsa44, MlDsa65, MlDsa87, ParameterSet};
#[cfg(feature = "pkcs8")]
pub use pkcs8_impl::{KeyFormat, ParameterSetOid};
pub use pqkit_common::prehash::{
    Error as PreHashError, HashAlg, PreHash, PreHashDigest, PreHasher,
};
/// pqkit's SHA-2 hashers, which work with `DigestSigner`/`DigestVerifier`
/// without RustCrypto `sha2` (for its types, the `sha2` feature).
pub use pqkit_common::sha2;
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
