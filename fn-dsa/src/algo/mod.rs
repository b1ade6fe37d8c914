//! The FN-DSA algorithms and the math under them, crate-internal: key
//! generation (`keygen`, with the NTRU solver `ntru_solver` and its
//! big integers `big_int` modulo the small primes of `primes`, in the
//! 32.32 `fixed_point` arithmetic), signing (`sign`: the `fft` over the
//! `fft_roots` table in the `float` type, the Gaussian `sampler`),
//! verification (`verify`), the decoded signing key (`signing_key`) and
//! the polynomial arithmetic modulo q (`ring`).
//!
//! Verification and signing-key decoding need no allocation; everything
//! else is built with the `alloc` feature.

#[cfg(feature = "alloc")]
pub(crate) mod big_int;
#[cfg(feature = "alloc")]
pub(crate) mod fft;
#[cfg(feature = "alloc")]
#[allow(clippy::approx_constant, clippy::unreadable_literal)]
pub(crate) mod fft_roots;
#[cfg(feature = "alloc")]
pub(crate) mod fixed_point;
#[cfg(feature = "alloc")]
pub(crate) mod float;
#[cfg(feature = "alloc")]
pub(crate) mod keygen;
#[cfg(feature = "alloc")]
pub(crate) mod ntru_solver;
#[cfg(feature = "alloc")]
pub(crate) mod primes;
// Without `alloc` only verification is built (no signing-key completion).
#[cfg_attr(not(feature = "alloc"), allow(dead_code))]
pub(crate) mod ring;
#[cfg(feature = "alloc")]
pub(crate) mod sampler;
#[cfg(feature = "alloc")]
pub(crate) mod sign;
#[cfg(feature = "alloc")]
pub(crate) mod signing_key;
pub(crate) mod verify;
