//! The FIPS 204 algorithms, written once over a [`Backend`]: key
//! generation (`keygen`), signing (`sign`), verification (`verify`), the
//! key and signature encodings (`encoding`) and the matrix and vector
//! expansions they share (`expand`); this file holds the types they share.
//!
//! The matrix A is never needed as a whole: `expand::matrix_mul` generates its
//! entries on demand from rho (four at a time with the 4-way SHAKE128) and
//! accumulates them into the product, so key generation and verification
//! hold only vectors. Signing, which multiplies by A in every attempt,
//! expands A once on the heap when the `alloc` feature is on and streams it
//! otherwise.
//!
//! Loops index vectors by `i`/`j` on purpose, to read like FIPS 204's
//! pseudocode.
#![allow(clippy::needless_range_loop)]

mod encoding;
mod expand;
mod keygen;
pub(crate) mod lowmem;
mod sign;
mod verify;

pub(crate) use encoding::{decode_forms, decode_pk, decode_sk, decode_sk_unchecked};
pub(crate) use keygen::keygen;
pub(crate) use sign::sign_mu;
pub(crate) use verify::{TrIn, verify};

use core::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use pqkit_common::Backend;
use pqkit_common::ct::declassify;
use pqkit_common::keccak::{
    Feed, Rider, SHAKE128_RATE, SHAKE256_RATE, Shake256, Shake256X4, stream_x4,
};
use pqkit_common::q8380417::{N, Poly, pack, sample_in_ball};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::Error;
use crate::params::{MAX_K, MAX_L, ParameterSet, ctilde_len, gamma1};

/// A vector of up to `k` polynomials (only the first `P::K` are used).
pub(crate) type VecK = [Poly; MAX_K];
/// A vector of up to `l` polynomials (only the first `P::L` are used).
pub(crate) type VecL = [Poly; MAX_L];

/// Maximum number of signing attempts. FIPS 204 lets an implementation
/// bound the loop; the expected number of attempts is at most 5.1
/// (ML-DSA-65), so 814 attempts fail with probability below
/// `(1 - 1/5.1)^814 < 2^-256`, and `kappa` (a 16-bit counter advanced by `l`
/// per attempt) never wraps.
pub(crate) const MAX_SIGN_ATTEMPTS: usize = 814;
/// SHAKE128 blocks per RejNTTPoly (about 5 are needed; 32 blocks give
/// 1792 candidates, each accepted with probability > 0.999).
const MAX_A_BLOCKS: usize = 32;
/// SHAKE256 blocks per RejBoundedPoly (2 are needed almost always; each
/// block has 272 candidates accepted with probability >= 9/16).
const MAX_S_BLOCKS: usize = 16;

/// How long ExpandA/ExpandS may squeeze, chosen by the error type of the
/// operation: [`Error`] for everything that reads a key or signature from
/// outside (the bounds above, then [`Error::RejectionLimit`]), and
/// [`Infallible`](core::convert::Infallible) for key generation from a seed,
/// which squeezes until done as FIPS 204 Alg. 30/31 are written (so that
/// `SigningKey::from_seed` cannot fail). Either way the expected work is
/// the same: about 5 and 2 blocks.
pub(crate) trait Bound: Sized {
    /// SHAKE128 blocks per RejNTTPoly.
    const MAX_A: usize;
    /// SHAKE256 blocks per RejBoundedPoly.
    const MAX_S: usize;
    /// What a loop that reached its bound unfilled returns.
    fn exceeded() -> Result<(), Self>;
}
impl Bound for Error {
    const MAX_A: usize = MAX_A_BLOCKS;
    const MAX_S: usize = MAX_S_BLOCKS;
    fn exceeded() -> Result<(), Self> {
        Err(Error::RejectionLimit)
    }
}
impl Bound for core::convert::Infallible {
    const MAX_A: usize = usize::MAX;
    const MAX_S: usize = usize::MAX;
    fn exceeded() -> Result<(), Self> {
        // Reached only after 2^64 blocks: the loops end when filled.
        Ok(())
    }
}

/// The zero polynomial, as a constant so that containers of polynomials
/// are zeroed by one `memset` (see [`zero_vec`]).
const ZERO_POLY: Poly = Poly { coeffs: [0; N] };

/// `M` zero polynomials. Written as one repeat expression (not a loop over
/// `Poly::default()`) so the compiler sees an all-zero aggregate: a key's
/// boxed parts (`Box::default()`) are then zeroed in place on the heap
/// instead of built on the stack and copied.
pub(crate) fn zero_vec<const M: usize>() -> [Poly; M] {
    [ZERO_POLY; M]
}

/// Secret polynomials, wiped on drop (only the entries the parameter set
/// uses).
type Secret<const M: usize> = pqkit_common::wipe::Wiped<Poly, M>;

/// SHAKE256 of the concatenation of `parts` (FIPS 204 `H`).
pub(crate) fn h(parts: &[&[u8]], out: &mut [u8]) {
    let mut x = Shake256::default();
    for p in parts {
        x.update(p);
    }
    x.finalize_xof().read(out);
}

/// The secret key in the form signing needs (NTT domain), less `s2` and
/// `t0` (see [`SignForms`]): what key generation computes anyway.
#[derive(Clone)]
pub(crate) struct SecretParts {
    pub rho: [u8; 32],
    pub key: [u8; 32],
    pub tr: [u8; 64],
    pub s1hat: VecL,
    /// How many polynomials of `s1hat` can hold secrets (l of the
    /// parameter set once filled; the maximum before): zeroization skips
    /// the never-written tail.
    pub l: usize,
}

impl Default for SecretParts {
    fn default() -> Self {
        Self {
            rho: [0; 32],
            key: [0; 32],
            tr: [0; 64],
            s1hat: zero_vec(),
            l: MAX_L,
        }
    }
}

impl Zeroize for SecretParts {
    fn zeroize(&mut self) {
        self.rho.zeroize();
        self.key.zeroize();
        self.tr.zeroize();
        for p in self.s1hat.iter_mut().take(self.l) {
            p.zeroize();
        }
    }
}

impl Drop for SecretParts {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl ZeroizeOnDrop for SecretParts {}

/// `NTT(s2)` and `NTT(t0)`, the rest of the signing form. A generated
/// key makes them from its encoding when it first signs (they are `2k`
/// forward NTTs that a key generated to be stored never needs).
#[derive(Clone)]
pub(crate) struct SignForms {
    pub s2hat: VecK,
    pub t0hat: VecK,
    /// How many polynomials of each can hold secrets (k once filled; the
    /// maximum before).
    pub k: usize,
}

impl Default for SignForms {
    fn default() -> Self {
        Self {
            s2hat: zero_vec(),
            t0hat: zero_vec(),
            k: MAX_K,
        }
    }
}

impl Zeroize for SignForms {
    fn zeroize(&mut self) {
        for p in self.s2hat.iter_mut().take(self.k) {
            p.zeroize();
        }
        for p in self.t0hat.iter_mut().take(self.k) {
            p.zeroize();
        }
    }
}

impl Drop for SignForms {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl ZeroizeOnDrop for SignForms {}

/// The public key in the form verification needs.
#[derive(Clone)]
pub(crate) struct PublicParts {
    pub rho: [u8; 32],
    /// NTT(t1 * 2^d).
    pub t1hat: VecK,
}

impl Default for PublicParts {
    fn default() -> Self {
        Self {
            rho: [0; 32],
            t1hat: zero_vec(),
        }
    }
}

/// A verifying key's `tr = H(pk, 64)`, kept once computed.
///
/// A key decoded from bytes does not hash itself: its first verification
/// computes `tr` on the 4-way Keccak beside ExpandA (instead of 10-20
/// single permutations in the decoder), and later ones read it here. The
/// cache is `Sync` without a lock or `unsafe`: the 16 words are stored
/// first and `ready` is set with release ordering, and a reader that sees
/// `ready` (acquire) sees the words. Two threads that race both compute
/// the same value.
#[derive(Default)]
pub(crate) struct TrCache {
    words: [AtomicU32; 16],
    ready: AtomicBool,
}

impl TrCache {
    /// A cache holding `tr`.
    pub fn known(tr: &[u8; 64]) -> Self {
        let c = Self::default();
        c.set(tr);
        c
    }

    /// `tr`, if computed.
    pub fn get(&self) -> Option<[u8; 64]> {
        if !self.ready.load(Ordering::Acquire) {
            return None;
        }
        let mut tr = [0u8; 64];
        for (chunk, w) in tr.as_chunks_mut::<4>().0.iter_mut().zip(&self.words) {
            *chunk = w.load(Ordering::Relaxed).to_le_bytes();
        }
        Some(tr)
    }

    /// Keep `tr`.
    pub fn set(&self, tr: &[u8; 64]) {
        for (chunk, w) in tr.as_chunks::<4>().0.iter().zip(&self.words) {
            w.store(u32::from_le_bytes(*chunk), Ordering::Relaxed);
        }
        self.ready.store(true, Ordering::Release);
    }
}

impl Clone for TrCache {
    fn clone(&self) -> Self {
        let c = Self::default();
        if let Some(tr) = self.get() {
            c.set(&tr);
        }
        c
    }
}
