//! # pqkit-x25519
//!
//! X25519 Diffie-Hellman (RFC 7748) on pqkit's own curve25519 arithmetic
//! (`pqkit_common::curve25519`: a 5 x 51-bit field and the Montgomery
//! ladder, constant-time), with the API of `x25519-dalek`.
//! `#![no_std]`, no `unsafe`.
//!
//! ```
//! use pqkit_x25519::{EphemeralSecret, PublicKey, StaticSecret};
//!
//! let mut rng = getrandom::rand_core::UnwrapErr(getrandom::SysRng);
//! // An ephemeral secret is used once, a static one may be stored.
//! let alice = EphemeralSecret::random_from_rng(&mut rng);
//! let alice_public = PublicKey::from(&alice);
//! let bob = StaticSecret::from([0x5d; 32]);
//! let bob_public = PublicKey::from(&bob);
//!
//! let alice_shared = alice.diffie_hellman(&bob_public);
//! let bob_shared = bob.diffie_hellman(&alice_public);
//! assert_eq!(alice_shared.as_bytes(), bob_shared.as_bytes());
//! // A low-order public key gives a non-contributory (all-zero) secret.
//! assert!(alice_shared.was_contributory());
//! ```
//!
//! ## Work bounds
//!
//! Every operation does a fixed amount of work on any input: one ladder
//! of 255 steps and one inversion per exchange or public key. No input is
//! rejected: every 32 bytes are a public key and every 32 bytes a secret.
//!
//! ## Migrating from x25519-dalek 3
//!
//! Code written for x25519-dalek 3 compiles against this crate with only
//! the crate name changed (`x25519_dalek` → `pqkit_x25519`): the same names
//! (`EphemeralSecret`, `ReusableSecret`, `StaticSecret`, `PublicKey`,
//! `SharedSecret`, `x25519`, `X25519_BASEPOINT_BYTES`, `rand_core`), the
//! same methods with the same signatures (`random_from_rng(&mut csprng)`
//! over rand_core 0.10's `CryptoRng`, `random()` with `getrandom`,
//! `diffie_hellman`, `to_bytes`, `as_bytes`, `was_contributory`), the
//! same trait impls (`From<[u8; 32]>`, `From<&secret>` for `PublicKey`,
//! `AsRef<[u8]>`, `Zeroize`/`ZeroizeOnDrop`, serde in dalek's format), the
//! same feature names, and the same bytes (`tests/differential.rs`). What
//! differs:
//!
//! * The features `static_secrets`, `reusable_secrets`, `zeroize` and
//!   `precomputed-tables` are accepted but switch nothing: both secret types
//!   and the wiping are always on, and there are no tables.
//! * pqkit adds: `crypto-common`'s `Generate` on the secrets
//!   (`try_generate_from_rng` returns an RNG failure instead of panicking),
//!   `from_slice` with a typed [`Error`], PKCS#8/SPKI (RFC 8410) for
//!   `StaticSecret` and `PublicKey` (features `pkcs8`, `pem`), constant-time
//!   `==` and a redacted `Debug` on `SharedSecret` and the secrets.
#![no_std]
#![forbid(unsafe_code)]

#[cfg(feature = "std")]
extern crate std;

mod error;
mod keys;
#[cfg(feature = "pkcs8")]
mod pkcs8_impl;
#[cfg(feature = "serde")]
mod serde_impl;

/// `crypto-common`'s key generation trait, which the secrets implement.
pub use crypto_common::Generate;
pub use error::Error;
pub use keys::{
    EphemeralSecret, PublicKey, ReusableSecret, SharedSecret, StaticSecret, X25519_BASEPOINT_BYTES,
    x25519,
};
#[cfg(feature = "pkcs8")]
pub use pkcs8_impl::ALGORITHM_OID;
pub use rand_core;
#[cfg(feature = "pkcs8")]
pub use {der, pkcs8, spki};
