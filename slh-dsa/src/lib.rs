//! # pqkit-slh-dsa
//!
//! SLH-DSA (FIPS 205), the stateless hash-based signature scheme: all
//! twelve parameter sets (SHA2 and SHAKE, 128/192/256, `s` and `f`) in one
//! build, pure SLH-DSA with a context, HashSLH-DSA over pqkit's pre-hash
//! registry, deterministic and hedged signing, and the internal functions
//! in [`hazmat`]. `#![no_std]`, no `unsafe`, no allocation: a signature is
//! a fixed-size array (up to 49856 bytes).
//!
//! ```
//! use pqkit_slh_dsa::{HashAlg, Sha2_128f, SigningKey, VerifyingKey};
//!
//! // Key generation from the three n-byte seeds (SK.seed, SK.prf, PK.seed).
//! let sk = SigningKey::<Sha2_128f>::from_seed(&[1u8; 16], &[2u8; 16], &[3u8; 16])?;
//! let vk = sk.verifying_key();
//!
//! // Deterministic (opt_rand = PK.seed) and hedged signing with a context.
//! let sig = sk.sign_deterministic(b"message", b"my context")?;
//! vk.verify_with_context(b"message", b"my context", &sig)?;
//! # #[cfg(feature = "getrandom")] {
//! let sig = sk.sign_hedged(b"message", b"")?;
//! vk.verify_with_context(b"message", b"", &sig)?;
//! # }
//!
//! // HashSLH-DSA.
//! let sig = sk.sign_prehash_deterministic(HashAlg::Sha2_256, b"message", b"")?;
//! vk.verify_prehash(HashAlg::Sha2_256, b"message", b"", &sig)?;
//!
//! // Public key and signature bytes.
//! let vk2 = VerifyingKey::<Sha2_128f>::from_bytes(vk.as_bytes())?;
//! assert_eq!(vk, vk2);
//! # Ok::<(), pqkit_slh_dsa::Error>(())
//! ```
//!
//! ## Interfaces
//!
//! * Keys: [`SigningKey::from_seed`] (FIPS 205 Alg. 18 from the three
//!   seeds), [`Generate`] (`generate()` with OS randomness,
//!   `generate_from_rng`), [`SigningKey::new`]/[`SigningKey::try_new`]
//!   (RustCrypto's constructor, from an RNG),
//!   [`SigningKey::from_bytes`] (the `4 n`-byte encoding; `PK.root` is
//!   recomputed and checked), [`VerifyingKey::from_bytes`],
//!   `as_bytes`/`to_bytes` everywhere.
//! * Signing: `sign_deterministic`, `sign_randomized` (RNG given),
//!   `sign_hedged` (OS randomness, feature `getrandom`), `sign_with_rnd`
//!   (explicit `addrnd`), HashSLH-DSA `sign_prehash_*`/`sign_prehashed_*`.
//!   Every API takes a context of at most 255 bytes (longer is
//!   [`Error::ContextTooLong`]).
//! * Verification returns `Result<(), Error>`: [`Error::InvalidLength`] or
//!   [`Error::InvalidSignature`], never a panic, for any bytes.
//! * RustCrypto `signature` traits: `Signer` (deterministic, empty
//!   context), `RandomizedSigner` (hedged), `Verifier`, `Keypair`, their
//!   multipart forms, and `with_context(ctx)` wrappers carrying a context.
//!
//! ```
//! use pqkit_slh_dsa::{Shake128f, Signature, SigningKey};
//! use pqkit_slh_dsa::signature::{Keypair, Signer, Verifier};
//!
//! let sk = SigningKey::<Shake128f>::from_seed(&[7u8; 16], &[8u8; 16], &[9u8; 16])?;
//! let sig: Signature<Shake128f> = sk.sign(b"msg");
//! sk.verifying_key().verify(b"msg", &sig).unwrap();
//! let signer = sk.with_context(b"app-v1")?;
//! let sig = signer.sign(b"msg");
//! sk.verifying_key().with_context(b"app-v1")?.verify(b"msg", &sig).unwrap();
//! # Ok::<(), pqkit_slh_dsa::Error>(())
//! ```
//!
//! ## PKCS#8 and SPKI
//!
//! With the `pkcs8` feature (default), keys encode and decode with the
//! RFC 9909 OIDs (`id-slh-dsa-sha2-128s` = 2.16.840.1.101.3.4.3.20 to
//! `id-slh-dsa-shake-256f` = .31): the PKCS#8 private key is the raw
//! `4 n`-byte key (its `PK.root` is checked against the seeds on import),
//! the SPKI public key the raw `2 n` bytes, as in RustCrypto `slh-dsa`.
//!
//! ```
//! # #[cfg(feature = "pem")] {
//! use pqkit_slh_dsa::pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding};
//! use pqkit_slh_dsa::spki::{DecodePublicKey, EncodePublicKey};
//! use pqkit_slh_dsa::{Sha2_128s, SigningKey, VerifyingKey};
//!
//! let sk = SigningKey::<Sha2_128s>::from_seed(&[1; 16], &[2; 16], &[3; 16]).unwrap();
//! let pem = sk.to_pkcs8_pem(LineEnding::LF).unwrap();
//! assert!(SigningKey::<Sha2_128s>::from_pkcs8_pem(&pem).unwrap() == sk);
//! let spki = sk.verifying_key().to_public_key_der().unwrap();
//! let vk = VerifyingKey::<Sha2_128s>::from_public_key_der(spki.as_bytes()).unwrap();
//! assert_eq!(vk, sk.verifying_key());
//! # }
//! ```
//!
//! ## Hashing
//!
//! SLH-DSA's cost is thousands of independent hash calls, and pqkit
//! computes them several at a time on `pqkit-common`'s multi-way kernels,
//! chosen at run time:
//!
//! * SHA2 sets: the SHA-256 (and SHA-512) state after the first block
//!   `PK.seed || 0^(64-n)` is kept once per operation, so each `F`, `H`
//!   and `PRF` is one compression. The WOTS+ chains of four XMSS leaves
//!   (signing, key generation) or of one key (verification) walk
//!   together, kept in their blocks, eight SHA-256 compressions
//!   interleaved on the SHA extensions, or in the lanes of AVX2/AVX-512
//!   vectors without them; signing takes each layer's WOTS+ signature
//!   from those chains as they pass its digits. FORS leaves and tree
//!   levels (gathered eight pairs at a time) go the same way, and the
//!   SHA-512 `H` and `T_len` (`n > 16`) eight lanes at a time with AVX2
//!   or AVX-512VL. A chain block's first sixteen bytes (address words)
//!   are the same for all of a leaf's chains, so its first four rounds
//!   are computed once per leaf, and each step resumes after them.
//! * A [`SigningKey`] keeps the top XMSS tree's nodes at height 3 (at
//!   most 1.5 KB, made with `PK.root`), so that signing computes eight of
//!   that tree's leaves rather than all of them.
//! * SHAKE sets: four `F`, `H` or `PRF` at a time through the 4-way
//!   Keccak (AVX2, AVX-512, NEON with FEAT_SHA3).
//!
//! `examples/peers.rs` times all twelve sets beside RustCrypto `slh-dsa`
//! and `fips205`.
//!
//! ## Work bounds
//!
//! Signing and verification do a fixed amount of work for each parameter
//! set; there is no rejection loop. [`SigningKey::from_bytes`] costs one
//! key generation (it recomputes `PK.root`).
//!
//! ## Migrating from RustCrypto `slh-dsa`
//!
//! The parameter set names, `SigningKey::new(rng)`, `verifying_key()`,
//! `try_sign_with_context`, `try_verify_with_context`, the `signature`
//! traits (`KeypairRef` and `AsRef<VerifyingKey>` included), `TryFrom<&[u8]>`
//! for the three types, `to_vec`, PKCS#8 and SPKI are the same.
//! Differences so far:
//!
//! * `to_bytes` returns plain arrays rather than `hybrid_array::Array`;
//!   per-set `From<[u8; 2n]>` for `VerifyingKey` and `From<&[u8; SIG_LEN]>`
//!   for `Signature` stand in for RustCrypto's `From<Array>`.
//! * `SigningKey::to_vec`/`to_bytes` are wiped on drop (`Zeroizing`).
//! * RustCrypto's hidden `SigningKey::slh_keygen_internal`,
//!   `slh_sign_internal` and `VerifyingKey::slh_verify_internal` are the
//!   free functions of [`hazmat`], with a typed error where RustCrypto
//!   panics (an `opt_rand` that is not `n` bytes).
//! * Importing a private key (`from_bytes`, `TryFrom<&[u8]>`, PKCS#8)
//!   recomputes `PK.root` and refuses a key whose root does not match.

#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;

mod address;
mod algo;
mod error;
mod hash;
pub mod hazmat;
mod keys;
mod params;
#[cfg(feature = "pkcs8")]
mod pkcs8_impl;
mod traits;

/// `crypto-common`'s key generation trait (`generate`,
/// `generate_from_rng`, `try_generate_from_rng`).
pub use crypto_common::Generate;
pub use error::Error;
pub use keys::{ContextSigningKey, ContextVerifyingKey, Signature, SigningKey, VerifyingKey};
pub use params::{
    ByteArray, HashFamily, ParameterSet, Sha2_128f, Sha2_128s, Sha2_192f, Sha2_192s, Sha2_256f,
    Sha2_256s, Shake128f, Shake128s, Shake192f, Shake192s, Shake256f, Shake256s,
};
#[cfg(feature = "pkcs8")]
pub use pkcs8_impl::ParameterSetOid;
pub use pqkit_common::prehash::{HashAlg, PreHash};
pub use signature;
pub use signature::{Keypair, Signer, Verifier};
#[cfg(feature = "pkcs8")]
pub use {pkcs8, spki};
