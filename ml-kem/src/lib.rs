//! # pqkit-ml-kem
//!
//! ML-KEM (FIPS 203): ML-KEM-512, ML-KEM-768 and ML-KEM-1024 in one build,
//! written once over the [`pqkit_common::Backend`] kernels and dispatched
//! at run time (portable or AVX2). `#![no_std]`, no `unsafe`.
//!
//! It implements the RustCrypto `kem` 0.3 traits, so generic code written
//! against them runs unchanged:
//!
//! ```
//! use pqkit_ml_kem::{MlKem768, kem::{Decapsulate, Encapsulate, Kem, KeyInit}};
//! use pqkit_ml_kem::{DecapsulationKey, Seed};
//!
//! // Key generation from the 64-byte seed d || z (the canonical private key).
//! let dk = DecapsulationKey::<MlKem768>::new(&Seed::from([7u8; 64]));
//! let ek = dk.encapsulation_key().clone();
//!
//! // Encapsulation with the caller's RNG, decapsulation with implicit rejection.
//! # struct Counter(u8);
//! # impl rand_core::TryRng for Counter {
//! #     type Error = core::convert::Infallible;
//! #     fn try_next_u32(&mut self) -> Result<u32, Self::Error> { self.0 += 1; Ok(self.0.into()) }
//! #     fn try_next_u64(&mut self) -> Result<u64, Self::Error> { self.0 += 1; Ok(self.0.into()) }
//! #     fn try_fill_bytes(&mut self, d: &mut [u8]) -> Result<(), Self::Error> { d.fill(self.0); self.0 += 1; Ok(()) }
//! # }
//! # impl rand_core::TryCryptoRng for Counter {}
//! # let mut rng = Counter(1);
//! let (ct, k_sender) = ek.encapsulate_with_rng(&mut rng);
//! let k_receiver = dk.decapsulate(&ct);
//! assert_eq!(k_sender, k_receiver);
//! ```
//!
//! * Keys: [`DecapsulationKey`] keeps the seed (`from_seed`, `KeyInit`,
//!   `KeyExport`, `Generate`, `to_seed`); [`ExpandedDecapsulationKey`] has
//!   none ([`ExpandedDecapsulationKey::from_expanded`]: FIPS 203 `dk`, §7.3
//!   hash check) and holds decapsulation; a [`DecapsulationKey`]
//!   dereferences to its expanded key. [`EncapsulationKey::from_bytes`]
//!   (§7.2 modulus check).
//! * Derandomised `KeyGen_internal` / `Encaps_internal` in [`hazmat`].
//! * Every bad input is an [`Error`], never a panic.
//! * Keys keep `t-hat` and the matrix `A-hat^T` once decoded (computed at
//!   keygen or import: about 10 KB, on the heap with `alloc`), so
//!   encapsulation and decapsulation skip SampleNTT.
//! * Secrets are wiped on drop. The inherent API returns the shared key as
//!   [`SharedSecret`] (constant-time `==`, `Debug` prints no bytes); through
//!   the `kem` traits it is their [`SharedKey`] byte array, whose `Debug`
//!   the trait crates define (it prints the bytes: wipe and do not log it).
//!
//! ```
//! use pqkit_ml_kem::{DecapsulationKey, MlKem512, hazmat};
//! let dk = DecapsulationKey::<MlKem512>::from_seed([1u8; 64].into());
//! let (ct, ss) = hazmat::encaps_internal(dk.encapsulation_key(), &[2u8; 32]);
//! assert_eq!(format!("{ss:?}"), "SharedSecret(..)");
//! assert_eq!(dk.decapsulate_bytes(&ct)?, ss);
//! # Ok::<(), pqkit_ml_kem::Error>(())
//! ```
//!
//! ## Work bounds
//!
//! Every operation does a fixed amount of work for its parameter set, on
//! any input: SampleNTT reads at most 64 SHAKE128 blocks per matrix entry
//! (about 4 are needed; see `MAX_A_BLOCKS` in `algo.rs`), and nothing else
//! loops on the input. Importing an expanded-only PKCS#8 key adds one
//! encapsulation and one decapsulation (the pairwise-consistency test).
//!
//! ## Migrating from RustCrypto `ml-kem` 0.3
//!
//! Code written for RustCrypto `ml-kem` compiles against this crate with
//! only the crate name changed (`ml_kem` → `pqkit_ml_kem`): the same root
//! names (`MlKem512/768/1024`, `DecapsulationKey`, `EncapsulationKey`,
//! `DecapsulationKey768`-style aliases, the `ml_kem_768`-style modules with
//! the set, its keys and `Ciphertext`, `Seed`, `B32`, `SharedKey`,
//! `Ciphertext`, `Key`, the `kem` traits and `kem` itself, `array` (the
//! `hybrid-array` crate) and `ArraySize`, the `pkcs8` module's trait names),
//! `DecapsulationKey::from_seed(Seed)` and `From<Seed>` (`seed.into()`),
//! `to_seed()`, `encapsulation_key()`, `EncapsulationKey::new(&Key)`,
//! `encapsulate_deterministic(&B32) -> (Ciphertext, SharedKey)`,
//! `Kem::generate_keypair()`, `FromSeed`, the
//! `KeyInit`/`KeyExport`/`Generate`/`TryKeyInit` impls, the keys'
//! `AssociatedAlgorithmIdentifier`, and the same bytes (checked against
//! RustCrypto in the tests; the workspace's `pqkit-dropin` crate compiles
//! RustCrypto's documentation example against this crate, and builds the
//! published `x-wing` 0.1.1 on it with only its dependency entry changed
//! and runs its test suite). What remains different:
//!
//! * A [`DecapsulationKey`] always has its seed, so `KeyExport` cannot fail
//!   (RustCrypto's panics for a key imported from the expanded form). A key
//!   imported without a seed is an [`ExpandedDecapsulationKey`]: RustCrypto's
//!   deprecated `DecapsulationKey::from_expanded` is
//!   [`ExpandedDecapsulationKey::from_expanded`] here (validated, typed
//!   [`Error`]), and the expanded bytes, RustCrypto's
//!   `ExpandedDecapsulationKey<P>` array type (and its deprecated
//!   `ml_kem_768::ExpandedDecapsulationKey` alias), are
//!   [`ExpandedDecapsulationKeyBytes<P>`] (`to_expanded_bytes()`); the
//!   names `ExpandedDecapsulationKey` name the seedless key type here. The
//!   deprecated [`ExpandedKeyEncoding`] trait is implemented for
//!   [`ExpandedDecapsulationKey`] only (a [`DecapsulationKey`] cannot be
//!   made without a seed; it reaches `to_expanded_bytes` through `Deref`).
//! * [`Error`] is pqkit's typed error enum for pqkit's own constructors
//!   (`from_bytes`, `from_expanded`, `decapsulate_bytes`); RustCrypto's
//!   names (`EncapsulationKey::new`, `ExpandedKeyEncoding`) and the `kem`
//!   traits return `kem::InvalidKey` as there.
//! * [`ParameterSet`] is sealed and describes a set by constants (`K`,
//!   `ETA1`, `DU`, ...) and sizes; RustCrypto's has typenum associated types
//!   (`K`, `Eta1`, `Du`, ...) and its `KemParams` helper traits are not
//!   offered. Code generic over the sets can bound on `ParameterSet` or on
//!   the `kem` traits.
//! * The inherent API (`hazmat::encaps_internal`, `decapsulate_bytes`,
//!   `try_encapsulate_with_rng`) returns the shared key as a [`SharedSecret`]
//!   (wiped, constant-time `==`); RustCrypto's names return the plain
//!   [`SharedKey`] array as there.
//!
//! pqkit adds: PKCS#8 in all three RFC 9935 forms ([`KeyFormat`]), SPKI,
//! the inherent [`SharedSecret`] API (wiped, constant-time `==`) and
//! [`hazmat`].
//!
//! Features: `std` (default), `alloc`, `getrandom`, `pkcs8`, `pem`,
//! `ct-check` (only `std` is on by default, so that the default build has
//! no encoding crates and no proc macro, as RustCrypto `ml-kem`'s); accepted for RustCrypto compatibility and
//! always on here: `hazmat`, `zeroize`.
#![no_std]
#![forbid(unsafe_code)]

#[cfg(feature = "alloc")]
#[allow(unused_extern_crates)]
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
/// The `hybrid-array` crate, whose `Array` holds every fixed-size value
/// here (`array` in RustCrypto `ml-kem`: `ml_kem::array::Array`).
///
/// ```
/// use pqkit_ml_kem::array::{Array, ArrayN, AsArrayRef, sizes::U1184};
/// use pqkit_ml_kem::{B32, DecapsulationKey, KeyExport, MlKem768};
/// let dk = DecapsulationKey::<MlKem768>::from_seed([1u8; 64].into());
/// let ek: Array<u8, U1184> = dk.encapsulation_key().to_bytes();
/// let m: &B32 = [2u8; 32].as_array_ref();
/// let (ct, _): (ArrayN<u8, 1088>, _) = dk.encapsulation_key().encapsulate_deterministic(m);
/// assert_eq!((ek.len(), ct.len()), (1184, 1088));
/// ```
pub use hybrid_array as array;
/// The trait of `hybrid-array`'s sizes (re-exported as in RustCrypto
/// `ml-kem`).
pub use hybrid_array::ArraySize;
pub use kem;
/// The `kem` traits the keys implement and `kem::Key`, at the crate root
/// as in RustCrypto `ml-kem`.
pub use kem::{
    Decapsulate, Encapsulate, FromSeed, Generate, InvalidKey, Kem, Key, KeyExport, KeyInit,
    KeySizeUser, TryKeyInit,
};
#[allow(deprecated)]
pub use keys::ExpandedKeyEncoding;
pub use keys::{
    B32, Ciphertext, DecapsulationKey, EncapsulationKey, ExpandedDecapsulationKey,
    ExpandedDecapsulationKeyBytes, Seed, SharedKey, SharedSecret,
};
pub use params::{MlKem512, MlKem768, MlKem1024, ParameterSet};
#[cfg(feature = "pkcs8")]
pub use pkcs8_impl::{KeyFormat, ParameterSetOid};
#[cfg(feature = "pkcs8")]
pub use {der, spki};

/// The `pkcs8` crate, with the two traits RustCrypto `ml-kem`'s `pkcs8`
/// module adds at its root (`AssociatedAlgorithmIdentifier`, and
/// `AssociatedOid`, which `pkcs8` has already), so that both
/// `pqkit_ml_kem::pkcs8::DecodePrivateKey` and
/// `pqkit_ml_kem::pkcs8::AssociatedAlgorithmIdentifier` resolve.
///
/// ```
/// use pqkit_ml_kem::pkcs8::{AssociatedAlgorithmIdentifier, AssociatedOid};
/// use pqkit_ml_kem::{EncapsulationKey, MlKem768};
/// assert_eq!(MlKem768::OID.to_string(), "2.16.840.1.101.3.4.4.2");
/// assert_eq!(
///     EncapsulationKey::<MlKem768>::ALGORITHM_IDENTIFIER.oid,
///     MlKem768::OID
/// );
/// ```
#[cfg(feature = "pkcs8")]
pub mod pkcs8 {
    pub use ::pkcs8::spki::AssociatedAlgorithmIdentifier;
    #[doc(no_inline)]
    pub use ::pkcs8::*;
}

macro_rules! aliases {
    ($($m:ident, $t:ident, $doc:literal;)*) => {$(
        #[doc = $doc]
        pub mod $m {
            /// Decapsulation key.
            pub type DecapsulationKey = crate::DecapsulationKey<crate::$t>;
            /// Encapsulation key.
            pub type EncapsulationKey = crate::EncapsulationKey<crate::$t>;
            /// Ciphertext.
            pub type Ciphertext = crate::Ciphertext<crate::$t>;
            /// Decapsulation key without a seed (pqkit's key type; RustCrypto
            /// `ml-kem`'s deprecated alias of the same name is the byte
            /// array, [`ExpandedDecapsulationKeyBytes`](crate::ExpandedDecapsulationKeyBytes) here).
            pub type ExpandedDecapsulationKey = crate::ExpandedDecapsulationKey<crate::$t>;
            /// The parameter set (also at the crate root).
            pub use crate::$t;
        }
    )*};
}
aliases! {
    ml_kem_512, MlKem512, "ML-KEM-512 type aliases.";
    ml_kem_768, MlKem768, "ML-KEM-768 type aliases.";
    ml_kem_1024, MlKem1024, "ML-KEM-1024 type aliases.";
}

/// ML-KEM-512 decapsulation key (the RustCrypto `ml-kem` alias).
pub type DecapsulationKey512 = ml_kem_512::DecapsulationKey;
/// ML-KEM-512 encapsulation key (the RustCrypto `ml-kem` alias).
pub type EncapsulationKey512 = ml_kem_512::EncapsulationKey;
/// ML-KEM-768 decapsulation key (the RustCrypto `ml-kem` alias).
pub type DecapsulationKey768 = ml_kem_768::DecapsulationKey;
/// ML-KEM-768 encapsulation key (the RustCrypto `ml-kem` alias).
pub type EncapsulationKey768 = ml_kem_768::EncapsulationKey;
/// ML-KEM-1024 decapsulation key (the RustCrypto `ml-kem` alias).
pub type DecapsulationKey1024 = ml_kem_1024::DecapsulationKey;
/// ML-KEM-1024 encapsulation key (the RustCrypto `ml-kem` alias).
pub type EncapsulationKey1024 = ml_kem_1024::EncapsulationKey;
