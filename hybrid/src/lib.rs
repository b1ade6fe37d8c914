//! # pqkit-hybrid
//!
//! Hybrid post-quantum KEMs on pqkit's ML-KEM and X25519: [`xwing`], X-Wing
//! (draft-connolly-cfrg-xwing-kem: ML-KEM-768 + X25519 with a SHA3-256
//! combiner), a drop-in for the `x-wing` crate with the RustCrypto `kem`
//! 0.3 traits.
//!
//! ```
//! use pqkit_hybrid::xwing::{XWingKem, kem::{Decapsulate, Encapsulate, Kem}};
//! # #[cfg(feature = "getrandom")] {
//! let (dk, ek) = XWingKem::generate_keypair();
//! let (ct, k_sender) = ek.encapsulate();
//! assert_eq!(dk.decapsulate(&ct), k_sender);
//! # }
//! ```
//!
//! [`hpke`] (feature `hpke`, default): HPKE (RFC 9180, base and PSK
//! modes) with the post-quantum KEMs of draft-ietf-hpke-pq on pqkit's
//! ML-KEM and X-Wing, the ML-KEM + P-256/P-384 hybrids, and the DHKEMs
//! (X25519, P-256, P-384).
//!
//! `rust_hpke` (feature `rust-hpke`): pqkit's ML-KEM and X-Wing as KEMs
//! of rust-hpke (the `hpke` crate), for code written over that crate.
//!
//! [`composite`] (feature `composite`): composite ML-DSA
//! signatures (draft-ietf-lamps-pq-composite-sigs) on pqkit's ML-DSA and
//! Ed25519 and RustCrypto's ECDSA curves (signing and verifying), RSA and
//! Ed448 (verifying only), with the RustCrypto `signature`, SPKI and
//! PKCS#8 traits for `x509-cert`.
//!
//! With the `pkcs8` feature, X-Wing keys are PKCS#8 and SPKI
//! documents under id-XWing (1.3.6.1.4.1.62253.25722): the private key is
//! the 32-byte seed, the public key its 1216 bytes (`pem` adds PEM).
//!
//! `#![no_std]`, no `unsafe`; secrets are wiped on drop and every
//! operation on a secret is constant-time (the halves' own guarantees, and
//! SHAKE256/SHA3-256 over fixed lengths).
#![no_std]
#![forbid(unsafe_code)]

#[cfg(any(feature = "hpke", feature = "composite"))]
extern crate alloc;

#[cfg(feature = "composite")]
pub mod composite;
#[cfg(feature = "hpke")]
pub mod hpke;
#[cfg(feature = "rust-hpke")]
pub mod rust_hpke;

pub mod xwing;
#[cfg(feature = "pkcs8")]
mod xwing_pkix;

/// id-XWing, the OID of X-Wing keys in PKCS#8 and SPKI.
#[cfg(feature = "pkcs8")]
pub use xwing_pkix::ALGORITHM_OID as XWING_OID;
#[cfg(feature = "pkcs8")]
pub use {der, pkcs8, spki};
