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
//! `DecapsulationKey768`-style aliases, `Seed`, `SharedKey`, `Ciphertext`,
//! the `kem` traits and `kem` itself), `DecapsulationKey::from_seed(Seed)`,
//! `to_seed()`, `encapsulation_key()`, `Kem::generate_keypair()`, the
//! `KeyInit`/`KeyExport`/`Generate`/`TryKeyInit` impls, and the same bytes
//! (checked against RustCrypto in the tests, and by compiling its
//! documentation example in the workspace's `pqkit-dropin` crate). What
//! remains different:
//!
//! * A [`DecapsulationKey`] always has its seed, so `KeyExport` cannot fail
//!   (RustCrypto's panics for a key imported from the expanded form). A key
//!   imported without a seed is an [`ExpandedDecapsulationKey`]: RustCrypto's
//!   deprecated `DecapsulationKey::from_expanded` is
//!   [`ExpandedDecapsulationKey::from_expanded`] here (validated, typed
//!   [`Error`]), and the expanded bytes, RustCrypto's
//!   `ExpandedDecapsulationKey<P>` array type, are
//!   [`ExpandedDecapsulationKeyBytes<P>`] (`to_expanded_bytes()`).
//! * [`Error`] is pqkit's typed error enum (RustCrypto returns
//!   `kem::InvalidKey`; the `kem` traits still do here).
//! * Not offered: the `ExpandedKeyEncoding` trait (the inherent
//!   `from_expanded`/`to_expanded_bytes` do its job).
//!
//! pqkit adds: PKCS#8 in all three RFC 9935 forms ([`KeyFormat`]), SPKI,
//! the inherent [`SharedSecret`] API (wiped, constant-time `==`) and
//! [`hazmat`].
//!
//! Features: `std` (default), `alloc`, `getrandom` (default), `pkcs8`,
//! `pem` (default), `ct-check`; accepted for RustCrypto compatibility and
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
pub use kem;
/// The `kem` traits the keys implement, at the crate root as in RustCrypto
/// `ml-kem`.
pub use kem::{
    Decapsulate, Encapsulate, FromSeed, Generate, InvalidKey, Kem, KeyExport, KeyInit, KeySizeUser,
    TryKeyInit,
};
pub use keys::{
    B32, Ciphertext, DecapsulationKey, EncapsulationKey, ExpandedDecapsulationKey,
    ExpandedDecapsulationKeyBytes, Seed, SharedKey, SharedSecret,
};
pub use params::{MlKem512, MlKem768, MlKem1024, ParameterSet};
#[cfg(feature = "pkcs8")]
pub use pkcs8_impl::{KeyFormat, ParameterSetOid};
#[cfg(feature = "pkcs8")]
pub use {der, pkcs8, spki};

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
