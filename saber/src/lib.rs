//! # pqkit-saber
//!
//! Saber (round 3 of the NIST process): LightSaber, Saber and FireSaber in
//! one build, byte-exact with the submission's KATs. Module-LWR over the
//! power-of-two rings `Z_{2^13}[X]/(X^256 + 1)` and `Z_{2^10}[X]/(X^256 +
//! 1)`; the round-3 Fujisaki-Okamoto transform with implicit rejection by
//! `z`. `#![no_std]`, no `unsafe`; the ring products are
//! `pqkit_common::pow2`'s (exact: the 16-bit NTTs of 3329 and 12289 and
//! the Chinese remainder theorem, on the backend's kernels, portable or
//! AVX2, chosen at run time), and the SHAKE128 streams of an operation
//! share the 4-way Keccak permutation.
//!
//! ```
//! use pqkit_saber::{DecapsulationKey, Saber, hazmat};
//!
//! // Key generation from its 96 random bytes (seed_A, seed_s, z).
//! let dk = DecapsulationKey::<Saber>::from_seed(&[7u8; 96]);
//! let ek = dk.encapsulation_key();
//! let (ct, k_sender) = hazmat::encaps_internal(ek, &[9u8; 32]);
//! let k_receiver = dk.decapsulate_bytes(&ct)?;
//! assert_eq!(k_sender, k_receiver);
//! // The reference `sk` encoding round-trips, validated.
//! let again = DecapsulationKey::<Saber>::from_bytes(dk.as_bytes())?;
//! assert_eq!(again, dk);
//! # Ok::<(), pqkit_saber::Error>(())
//! ```
//!
//! Generic code over the RustCrypto `kem` 0.3 traits works as with
//! `pqkit-ml-kem` (`Kem::generate_keypair`, `Encapsulate`, `Decapsulate`,
//! `TryKeyInit`/`KeyExport` on both keys, `Generate`).
//!
//! Sizes (pk / sk / ct bytes): LightSaber 672 / 1568 / 736, Saber 992 /
//! 2304 / 1088, FireSaber 1312 / 3040 / 1472; the shared key is 32 bytes.
//!
//! Keys in PKCS#8 / SPKI (DER and PEM) use **provisional** OIDs: there are
//! no standard ones, and Saber has left standardisation. They are Bouncy
//! Castle's arc, `1.3.6.1.4.1.22554.5.3.7` (LightSaber), `.8` (Saber) and
//! `.9` (FireSaber), whose round-3 variants have the 256-bit shared key;
//! the PKCS#8 `privateKey` holds the reference `sk` encoding.
//!
//! Keys keep their NTT-domain parts once made (A and b in the
//! encapsulation key, s in the decapsulation key: about 20 KB, on the heap
//! with `alloc`), so encapsulation and decapsulation after the first skip
//! GenMatrix. An imported decapsulation key runs GenMatrix's first blocks
//! beside the `H(pk)` it checks, and its first use finishes the matrix
//! beside that call's own hashes (with `alloc`; without, the import makes
//! all of it). A key used once is best not decoded:
//! [`DecapsulationKey::decapsulate_from_key_bytes`] decapsulates straight
//! from the `sk` bytes, with the same checks and result, running
//! GenMatrix, `H(pk)`, `H(c)`, `G` and GenSecret in one pass of the 4-way
//! Keccak permutation.
//!
//! Work bounds: every operation does a fixed amount of work for its
//! parameter set, on any input (Saber has no rejection sampling).
//! Decoding a decapsulation key hashes its embedded `pk` and compares the
//! result with the embedded `H(pk)` ([`Error::InconsistentKey`]).
//!
//! Features: `std` (default), `alloc`, `getrandom`, `pkcs8`, `pem`,
//! `ct-check` (only `std` is on by default).
#![no_std]
#![forbid(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod algo;
mod error;
pub mod hazmat;
mod keys;
mod params;
#[cfg(feature = "pkcs8")]
mod pkcs8_impl;

pub use error::Error;
pub use kem;
/// The `kem` traits at the crate root, as in `pqkit-ml-kem`.
pub use kem::{
    Decapsulate, Decapsulator, Encapsulate, Generate, InvalidKey, Kem, KeyExport, KeyInit,
    KeySizeUser, TryKeyInit,
};
pub use keys::{Ciphertext, DecapsulationKey, EncapsulationKey, Seed, SharedKey, SharedSecret};
pub use params::{FireSaber, LightSaber, ParameterSet, Saber};
#[cfg(feature = "pkcs8")]
pub use pkcs8_impl::ParameterSetOid;
#[cfg(feature = "pkcs8")]
pub use {der, pkcs8, spki};
