//! # pqkit-fn-dsa
//!
//! FN-DSA (Falcon) signatures for degrees 512 and 1024: verification,
//! signing and the encodings of the pre-standard design of the `fn-dsa`
//! 0.3 crate, plus the original round-3 Falcon hashing for compatibility.
//!
//! ## Warning: pre-standard
//!
//! **FIPS 206 (FN-DSA) is not published yet.** This crate implements the
//! pre-standard variant described by the `fn-dsa` 0.3.0 crate. The final
//! standard may change the key and signature encodings, the hashing of
//! messages (pre-hashing, domain separation) and the OIDs, so **keys and
//! signatures made with this version may not be valid under FIPS 206**. All
//! encodings and the hashing live in one module ([`encoding`]) so that the
//! standard can be adopted there. The PKCS#8/SPKI OIDs are provisional.
//!
//! ## Layout
//!
//! * [`FnDsa512`] and [`FnDsa1024`]: the parameter sets (`logn` 9 and 10)
//!   as zero-sized types; [`SigningKey<P>`], [`VerifyingKey<P>`] and
//!   [`Signature<P>`] are generic over them, like the ML-KEM and ML-DSA
//!   crates' types, with fixed-size encodings (signing key / verifying key /
//!   signature: 1281 / 897 / 666 and 2305 / 1793 / 1280 bytes).
//!   [`fn_dsa_512`] and [`fn_dsa_1024`] hold type aliases and the sizes.
//! * [`hazmat`]: the explicit opt-ins: the insecure toy degrees
//!   ([`hazmat::toy`], `logn` 2..=8, for tests and research; the standard
//!   types reject them) and the seed-driven key generation of the vectors.
//! * [`Message`]: what is signed: a raw message with a context of at most
//!   255 bytes, a pre-hashed message (any [`HashAlg`] of pqkit's pre-hash
//!   registry: SHA-2, SHA-3, SHAKE), or the original Falcon hashing.
//!
//! The API follows the workspace's vocabulary (`CONTRIBUTING.md`): message,
//! then context, then the RNG (`sign_randomized(msg, ctx, rng)`,
//! `verify_with_context(msg, ctx, sig)`), `Generate` for key generation,
//! `verifying_key()` owned. Where the RustCrypto traits have no word for an
//! FN-DSA notion, fn-dsa 0.3's design is kept: the always-randomized
//! signature, the message kinds of [`Message`], the compact signing key.
//!
//! ## Example
//!
//! ```
//! use pqkit_fn_dsa::{FnDsa512, Generate, HashAlg, Message, Signature, SigningKey, VerifyingKey};
//! use pqkit_fn_dsa::{Keypair, Signer, Verifier};
//!
//! # fn main() -> Result<(), pqkit_fn_dsa::Error> {
//! // Key generation and signing draw from the OS RNG (`getrandom` feature);
//! // `try_generate_from_rng(&mut rng)` and `sign_randomized(msg, ctx, &mut
//! // rng)` take any rand_core 0.10 `TryCryptoRng`.
//! let sk = SigningKey::<FnDsa512>::generate();
//! let vk: VerifyingKey<FnDsa512> = sk.verifying_key();
//!
//! // RustCrypto traits: raw message, empty context.
//! let sig: Signature<FnDsa512> = sk.try_sign(b"hello").expect("signing");
//! assert!(vk.verify(b"hello", &sig).is_ok());
//!
//! // A context, and a pre-hashed message.
//! let sig = sk.sign_hedged(b"hello", b"ctx")?;
//! vk.verify_with_context(b"hello", b"ctx", &sig)?;
//! let digest = HashAlg::Sha2_256.digest(b"hello");
//! let m = Message::PreHashed { ctx: b"", hash: HashAlg::Sha2_256, digest: digest.as_bytes() };
//! let sig = sk.sign_message_hedged(&m)?;
//! vk.verify_message(&m, &sig)?;
//!
//! // Encodings round-trip (strict decoding).
//! let vk2 = VerifyingKey::<FnDsa512>::from_bytes(&vk.to_bytes())?;
//! let sig2 = Signature::<FnDsa512>::from_bytes(sig.as_bytes())?;
//! vk2.verify_message(&m, &sig2)?;
//! # Ok(())
//! # }
//! ```
//!
//! ## Coming from fn-dsa 0.3
//!
//! fn-dsa 0.3 (Thomas Pornin's crate, whose design this one follows) has
//! its own API style, so this is a mapping rather than a drop-in; keys and
//! signatures are byte-compatible (tested both ways):
//!
//! | fn-dsa 0.3 | pqkit-fn-dsa |
//! |---|---|
//! | `KeyPairGeneratorStandard::keygen(logn, rng, sk, vk)` | `SigningKey::<FnDsa512>::try_generate_from_rng(rng)` (same keys for the same RNG), `to_bytes()` |
//! | `SigningKeyStandard::decode(b)` (`Option`) | `SigningKey::<P>::from_bytes(b)` ([`Error`] says why) |
//! | `sk.sign(rng, &DOMAIN_NONE, &HASH_ID_RAW, msg, &mut sig)` | `sk.sign_randomized(msg, b"", rng)`, or [`Message`] for pre-hashed and original Falcon |
//! | `DomainContext(ctx)` | the `ctx` argument (at most 255 bytes) |
//! | `HASH_ID_SHA256`, ... | [`Message::PreHashed`] with a [`HashAlg`] |
//! | `vk.verify(sig, ctx, id, msg) -> bool` | `verify_with_context(msg, ctx, &sig)` / `verify_message` -> `Result` |
//! | `sign_key_size(logn)`, ... | `P::SIGNING_KEY_SIZE`, [`fn_dsa_512::SIGNING_KEY_SIZE`], ... |
//!
//! Not offered: toy degrees through the standard types (they are in
//! [`hazmat::toy`]), and fn-dsa 0.3's single-SHAKE256 sampler stream (this
//! crate's sampler uses four SHAKE256 lanes, so signatures for the same RNG
//! differ, while each verifies under the other).
//!
//! ## Features
//!
//! Only `std` is on by default; the rest are opt-in, so that the default
//! build has no encoding crates and no proc macro.
//!
//! * `std` (default, implies `alloc`), `alloc`: signing and key generation
//!   need `alloc` (the expanded key lives on the heap); verification and
//!   all decoders work without it.
//! * `getrandom`: [`signature::Signer`], `sign_hedged` and
//!   `Generate::generate()` with the OS RNG.
//! * `float-emu`: sign with the integer-only float emulation on every
//!   target (the default on targets other than x86_64 and aarch64).
//! * `pkcs8`: PKCS#8 / SPKI with the provisional OQS OIDs
//!   1.3.9999.3.11 (Falcon-512) and 1.3.9999.3.14 (Falcon-1024), whose
//!   private key is the encoded signing key; `pem` adds PEM.
//!
//! ## Work bounds
//!
//! The most work any operation does on any input it accepts:
//!
//! * Decoding a signing key: the encoding checks, `f` invertible, and the
//!   NTRU equation `f G - g F = q` (two NTT products modulo 31-bit
//!   primes); a key that fails gets [`Error::InconsistentKey`].
//! * Signing: at most 10 attempts for FN-DSA-512/1024 (43 for the smallest
//!   toy degree), each one ordinary signing attempt whose sampler draws
//!   `2n` values of at most 128 SamplerZ iterations each; then
//!   [`Error::RejectionLimit`]. The bounds are derived from the measured
//!   rejection rates so that a valid key fails with probability below
//!   `2^-64` (table in `algo/sign.rs`, checked by its tests).
//! * Verification: decoding, hash-to-point (SHAKE256 read until `n`
//!   16-bit samples below `5q` are accepted: `n / 0.94` expected; the
//!   output is public and not under anyone's control, so it is not capped)
//!   and one NTT product. No other loop depends on the input.
//! * Key generation draws candidates until one completes (as Falcon's key
//!   generation is written; a handful is the norm); it reads no input but
//!   its seed.
//!
//! ## Implementation notes
//!
//! * Arithmetic modulo q = 12289 (verification, signing-key decoding, the
//!   invertibility test of key generation) is `pqkit_common::q12289`'s:
//!   its backend NTT and Montgomery products and its constant-time scalar
//!   helpers (`q12289::scalar`: canonical/centred representatives, batch
//!   division), on `i16` polynomials; `algo/ring.rs` holds this crate's kernels
//!   built from them, and no arithmetic of its own. Verification is
//!   integer-only.
//! * Signing: FFT, ffLDL tree kept in the signing key (or rebuilt per
//!   signature for a compact key, [`SigningKey::into_compact`]),
//!   and a constant-time discrete Gaussian sampler (RCDT base sampler +
//!   BerExp over a PRNG seeded per attempt: four SHAKE256 instances run on
//!   the 4-way Keccak-f with fn-dsa's `SHAKE256x4` word interleaving, so
//!   signatures are not byte-identical to fn-dsa's default single-SHAKE256
//!   sampler for the same RNG, but each verifies with the other).
//!   Floating point is
//!   native `f64` on x86_64 and aarch64 (strict IEEE-754 hardware) and an
//!   integer-only, branch-free emulation of the needed IEEE-754 binary64
//!   operations elsewhere, or on any target with the `float-emu` feature;
//!   both give bit-identical signatures (tested).
//! * Constant time: signing and signing-key decoding run clean under the
//!   valgrind (TIMECOP) check with the key and the RNG output marked
//!   secret, for both float paths. Values made public on purpose
//!   (`pqkit_common::ct::declassify`): the nonce and the accepted `s2`
//!   (they are the signature), `h` (the public key), the BerExp
//!   acceptance and the norm-check decisions (restarts, independent of
//!   the key by design), and whether a key decodes.
//! * Key generation is integer and fixed-point only, deterministic from
//!   the RNG stream (32 bytes seed a SHAKE256 stream), samples and checks
//!   `(f, g)` exactly as fn-dsa 0.3 does, and solves the NTRU equation with
//!   its design (residues modulo 31-bit primes with NTTs, the same fixed
//!   word budgets per depth and the same 32.32 fixed-point Babai
//!   reduction), so it accepts and rejects the same candidates: keys are
//!   byte-identical to fn-dsa 0.3's `KeyPairGeneratorStandard` (tested on
//!   300 / 150 seeds at degree 512 / 1024 and on the toy degrees). It is
//!   constant-time (valgrind cases `fn-dsa-512-keygen`,
//!   `fn-dsa-1024-keygen`): only each candidate's accept/reject decision
//!   is made public. The solver's residue, NTT, CRT, GCD and fixed-point
//!   division loops run on `pqkit_common::mp31`'s backend kernels (AVX2
//!   when available), entered once per solve through the dispatch.
//! * Secrets (`f, g, F, G`, their FFT forms and ffLDL tree, the sampler
//!   and key-generation PRNG states, the encoded signing key) are wiped on
//!   drop.
#![no_std]
#![forbid(unsafe_code)]
// Index loops follow the specification's notation.
#![allow(clippy::needless_range_loop)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "alloc")]
#[allow(unused_extern_crates)]
extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

mod algo;
pub mod encoding;
mod error;
pub mod hazmat;
mod keys;
mod message;
mod params;
#[cfg(feature = "pkcs8")]
mod pkcs8_impl;

pub use encoding::SigFormat;
pub use error::Error;
pub use message::Message;
pub use pqkit_common::prehash::{
    Error as PreHashError, HashAlg, PreHash, PreHashDigest, PreHasher,
};
/// pqkit's SHA-2 hashers, which work with `DigestSigner`/`DigestVerifier`
/// without RustCrypto `sha2` (for its types, the `sha2` feature).
pub use pqkit_common::sha2;

/// `crypto-common`'s `Generate` (key generation from an RNG or the OS).
pub use crypto_common::Generate;
#[cfg(feature = "alloc")]
pub use keys::SigningKey;
pub use keys::{Signature, VerifyingKey};
pub use params::{ByteArray, FnDsa512, FnDsa1024, ParameterSet};
pub use signature;
/// The RustCrypto traits the keys implement, at the crate root.
pub use signature::{
    DigestSigner, DigestVerifier, Keypair, MultipartSigner, MultipartVerifier, RandomizedSigner,
    SignatureEncoding, Signer, Verifier,
};

macro_rules! set_module {
    ($name:ident, $set:ident, $title:literal) => {
        #[doc = concat!($title, ": type aliases and sizes.")]
        pub mod $name {
            use crate::ParameterSet;
            /// log2 of the degree.
            pub const LOGN: u32 = <crate::$set as ParameterSet>::LOGN;
            /// Size of an encoded signing key.
            pub const SIGNING_KEY_SIZE: usize = <crate::$set as ParameterSet>::SIGNING_KEY_SIZE;
            /// Size of an encoded verifying key.
            pub const VERIFYING_KEY_SIZE: usize = <crate::$set as ParameterSet>::VERIFYING_KEY_SIZE;
            /// Size of a signature.
            pub const SIGNATURE_SIZE: usize = <crate::$set as ParameterSet>::SIGNATURE_SIZE;
            /// Signing key.
            #[cfg(feature = "alloc")]
            pub type SigningKey = crate::SigningKey<crate::$set>;
            /// Verifying key.
            pub type VerifyingKey = crate::VerifyingKey<crate::$set>;
            /// Signature.
            pub type Signature = crate::Signature<crate::$set>;
            /// The provisional OID.
            #[cfg(feature = "pkcs8")]
            pub const OID: pkcs8::ObjectIdentifier = <crate::$set as ParameterSet>::OID;
            /// Its AlgorithmIdentifier (no parameters).
            #[cfg(feature = "pkcs8")]
            pub const ALGORITHM_ID: pqkit_pkix::AlgorithmId = pqkit_pkix::algorithm_id(OID);
        }
    };
}
set_module!(fn_dsa_512, FnDsa512, "FN-DSA-512 (Falcon-512)");
set_module!(fn_dsa_1024, FnDsa1024, "FN-DSA-1024 (Falcon-1024)");
