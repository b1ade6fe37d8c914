//! # pqkit-common
//!
//! The shared body of math under every pqkit algorithm crate:
//!
//! * [`q3329`] (ML-KEM), [`q8380417`] (ML-DSA) and [`q12289`] (FN-DSA): modular
//!   reductions, forward/inverse NTTs, pointwise products and the polynomial
//!   kernels the schemes share; [`pow2`] holds Saber's power-of-two ring.
//! * [`keccak`]: single SHAKE/SHA-3 (through the RustCrypto crates) and a
//!   4-way Keccak-f\[1600\] with 4-way SHAKE128/SHAKE256 for matrix and
//!   vector expansion.
//! * [`mp31`]: Montgomery arithmetic modulo 31-bit primes (the residue
//!   number system of FN-DSA key generation): NTTs, residues, CRT.
//! * `curve25519` (feature `curve25519`): the field GF(2^255 - 19), the
//!   Edwards group, Ed25519's fixed-base table and the X25519 ladder
//!   (RFC 7748).
//! * [`pack`]: bit packing; [`ct`]: constant-time helpers.
//! * [`prehash`]: the one registry of pre-hash functions (name, OID,
//!   output length; digests with the `prehash` feature). The PKCS#8/SPKI
//!   plumbing is the `pqkit-pkix` crate.
//! * [`backend`]: the backend trait, the portable backend (the executable
//!   specification, always compiled), the AVX2 backend on x86_64, and the
//!   run-time dispatch that picks one once and caches the choice.
//!
//! ## How an algorithm crate uses a backend
//!
//! Algorithm code is written once, generic over [`Backend`]. A public
//! operation packages its inputs in a [`Kernel`] and hands it to
//! [`dispatch`], which calls [`Kernel::run`] with the best backend this CPU
//! supports. The backend value is a *capability token*: an AVX2 token can only
//! be obtained after run-time detection succeeded, so the safe kernel methods
//! that take it can never execute an unsupported instruction.
//!
//! ```
//! use pqkit_common::{Backend, Kernel, dispatch};
//!
//! struct Name;
//! impl Kernel for Name {
//!     type Output = &'static str;
//!     fn run<B: Backend>(self, backend: B) -> &'static str {
//!         backend.name()
//!     }
//! }
//! let name = dispatch(Name);
//! assert!(["portable", "avx2", "avx512", "neon", "simd128"].contains(&name));
//! ```
//!
//! Set `PQKIT_BACKEND=portable` (or `avx2`: no AVX-512 kernels) in the
//! environment (read once, `std` feature) or build with
//! `RUSTFLAGS="--cfg pqkit_portable"` to force the portable backend
//! everywhere.
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "alloc")]
#[allow(unused_extern_crates)]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

#[cfg(all(
    target_arch = "x86_64",
    any(feature = "q3329", feature = "q8380417", feature = "q12289")
))]
// Shared by the three rings' AVX2 kernels; each uses a part of it.
#[cfg_attr(
    not(all(feature = "q3329", feature = "q8380417", feature = "q12289")),
    allow(dead_code)
)]
mod avx2_i16;
// The target-independent half of the two 8-lane i16 engines below.
#[cfg(all(
    any(
        all(target_arch = "aarch64", target_feature = "neon"),
        all(target_family = "wasm", target_feature = "simd128")
    ),
    any(feature = "q3329", feature = "q12289")
))]
mod engine16;
// Shared by the 16-bit rings' NEON kernels.
#[cfg(target_arch = "x86_64")]
mod avx2_transpose;
pub mod backend;
pub mod bytes;
pub mod ct;
#[cfg(feature = "ct-check")]
pub mod ctgrind;
// The SIMD samplers' compaction table: ML-KEM's on every SIMD backend,
// ML-DSA's eta sampler on NEON.
#[cfg(all(
    any(feature = "q3329", feature = "q8380417"),
    any(
        target_arch = "x86_64",
        all(target_arch = "aarch64", target_feature = "neon"),
        all(target_family = "wasm", target_feature = "simd128")
    )
))]
#[cfg_attr(
    not(any(
        feature = "q3329",
        all(target_arch = "aarch64", target_feature = "neon")
    )),
    allow(dead_code)
)]
mod compact;
#[cfg(feature = "curve25519")]
pub mod curve25519;
#[cfg(feature = "q12289")]
pub mod float;
#[cfg(feature = "keccak")]
pub mod keccak;
pub mod mont16;
#[cfg(feature = "q12289")]
pub mod mp31;
#[cfg(all(
    target_arch = "aarch64",
    target_feature = "neon",
    any(feature = "q3329", feature = "q12289")
))]
#[cfg_attr(not(all(feature = "q3329", feature = "q12289")), allow(dead_code))]
mod neon_i16;
pub mod pack;
#[cfg(feature = "pow2")]
pub mod pow2;
pub mod prehash;
#[cfg(feature = "q12289")]
pub mod q12289;
#[cfg(feature = "q3329")]
pub mod q3329;
#[cfg(feature = "q8380417")]
pub mod q8380417;
pub mod secret;
pub mod sha2;
// Shared by the 16-bit rings' WebAssembly SIMD kernels.
#[cfg(all(
    target_family = "wasm",
    target_feature = "simd128",
    any(feature = "q3329", feature = "q12289")
))]
#[cfg_attr(not(all(feature = "q3329", feature = "q12289")), allow(dead_code))]
mod simd128_i16;
#[cfg(test)]
mod testutil;
pub mod wipe;

pub use backend::{Backend, BackendKind, Kernel, Portable, dispatch, run_on, vectorized};
pub use bytes::ByteArray;
