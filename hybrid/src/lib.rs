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
//! `#![no_std]`, no `unsafe`; secrets are wiped on drop and every
//! operation on a secret is constant-time (the halves' own guarantees, and
//! SHAKE256/SHA3-256 over fixed lengths).
#![no_std]
#![forbid(unsafe_code)]

pub mod xwing;
