//! The fixed-base table scan of `[s]B` in AVX2: an entry of the table
//! (three field elements, 96 bytes) is three 256-bit vectors, and the
//! wanted one is kept under a lane mask made by `vpcmpeqq` of the
//! broadcast index, so a row of `N` entries costs `3N` loads, `and`s and
//! `or`s with no scalar mask in sight of the optimiser.
//!
//! Constant time: every entry is loaded, the index only enters compares
//! and masks; no branch or address depends on it.

// Intrinsics; every block states its safety.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::edwards::NielsWords;
use crate::backend::Avx2;

/// `edwards::select_words` (entry `abs - 1` of `row`, the identity
/// `(1, 1, 0)` for `abs = 0`) on AVX2; the token proves the CPU has it.
#[inline]
pub(crate) fn select_words<const N: usize>(_: Avx2, row: &[NielsWords; N], abs: u64) -> NielsWords {
    // SAFETY: the `Avx2` token exists only after AVX2 was detected on
    // this CPU, the target feature of `scan`.
    unsafe { scan(row, abs) }
}

#[target_feature(enable = "avx2")]
fn scan<const N: usize>(row: &[NielsWords; N], abs: u64) -> NielsWords {
    let a = _mm256_set1_epi64x(abs as i64);
    // The identity's 1 in limb 0 of y + x and y - x when abs = 0.
    let id = _mm256_and_si256(
        _mm256_cmpeq_epi64(a, _mm256_setzero_si256()),
        _mm256_set_epi64x(0, 0, 0, 1),
    );
    let (mut r0, mut r1, mut r2) = (id, id, _mm256_setzero_si256());
    for (j, entry) in row.iter().enumerate() {
        let m = _mm256_cmpeq_epi64(a, _mm256_set1_epi64x(j as i64 + 1));
        // SAFETY: each of the three field elements of `entry` is 32
        // readable bytes (`[u64; 4]`); loadu has no alignment need.
        let (e0, e1, e2) = unsafe {
            (
                _mm256_loadu_si256(entry[0].as_ptr().cast()),
                _mm256_loadu_si256(entry[1].as_ptr().cast()),
                _mm256_loadu_si256(entry[2].as_ptr().cast()),
            )
        };
        r0 = _mm256_or_si256(r0, _mm256_and_si256(e0, m));
        r1 = _mm256_or_si256(r1, _mm256_and_si256(e1, m));
        r2 = _mm256_or_si256(r2, _mm256_and_si256(e2, m));
    }
    let mut out: NielsWords = [[0; 4]; 3];
    // SAFETY: each element of `out` is 32 writable bytes; storeu has no
    // alignment need.
    unsafe {
        _mm256_storeu_si256(out[0].as_mut_ptr().cast(), r0);
        _mm256_storeu_si256(out[1].as_mut_ptr().cast(), r1);
        _mm256_storeu_si256(out[2].as_mut_ptr().cast(), r2);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve25519::edwards;
    use crate::testutil::rng;

    /// Equal to the portable scan for every index on random rows.
    #[test]
    fn scan_matches_portable() {
        let Some(t) = Avx2::detect() else { return };
        let mut next = rng(0x5e1ec7);
        for _ in 0..200 {
            let row: [NielsWords; 8] = core::array::from_fn(|_| {
                core::array::from_fn(|_| core::array::from_fn(|_| next()))
            });
            for abs in 0..=8 {
                assert_eq!(
                    select_words(t, &row, abs),
                    edwards::select_words(&row, abs),
                    "{abs}"
                );
            }
        }
    }

    /// Microseconds per `[s]B` on the 4 x 64 field with the portable and
    /// the AVX2 scan, best of five: `cargo test --release -p pqkit-common
    /// --lib scan_timing -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn scan_timing() {
        use crate::curve25519::Scalar;
        use crate::curve25519::fe64::{Fe64, fe64_available};
        let Some(t) = Avx2::detect() else { return };
        if !fe64_available() {
            return;
        }
        let time = |avx2: bool| {
            let mut s = Scalar::from_bytes_mod_order([0x42; 32]);
            (0..5)
                .map(|_| {
                    let start = std::time::Instant::now();
                    for _ in 0..5000 {
                        let p = if avx2 {
                            edwards::mul_base::<Fe64>(&s, |r, a| select_words(t, r, a))
                        } else {
                            edwards::mul_base::<Fe64>(&s, edwards::select_words)
                        };
                        let mut b = [0u8; 32];
                        for (c, w) in b.chunks_exact_mut(8).zip(p.x.0) {
                            c.copy_from_slice(&w.to_le_bytes());
                        }
                        s = Scalar::from_bytes_mod_order(core::hint::black_box(b));
                    }
                    start.elapsed().as_nanos() as f64 / 5000.0 / 1e3
                })
                .fold(f64::INFINITY, f64::min)
        };
        let (p, v) = (time(false), time(true));
        std::println!("mul_base on Fe64: portable scan {p:.2} us, AVX2 scan {v:.2} us");
    }
}
