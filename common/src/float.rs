//! Hardware binary64 square root without `std` or libm, for the schemes
//! that compute in floating point (FN-DSA's key expansion).
#![allow(unsafe_code)]

/// IEEE-754 binary64 square root, correctly rounded to nearest-even, by the
/// SSE2 instruction `sqrtsd` (every x86_64 CPU has SSE2): no data-dependent
/// branch, and the same value as `f64::sqrt`.
///
/// ```
/// assert_eq!(pqkit_common::float::sqrt_f64(2.25), 1.5);
/// assert_eq!(pqkit_common::float::sqrt_f64(2.0), 2f64.sqrt());
/// ```
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub fn sqrt_f64(x: f64) -> f64 {
    use core::arch::x86_64::{_mm_cvtsd_f64, _mm_set_sd, _mm_sqrt_pd};
    // SAFETY: SSE2 is part of the x86_64 baseline, enabled for every
    // x86_64 target, so these intrinsics are always available; they only
    // move and compute on registers.
    unsafe { _mm_cvtsd_f64(_mm_sqrt_pd(_mm_set_sd(x))) }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    extern crate std;

    #[test]
    fn matches_std_sqrt() {
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..10_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            // Positive normal values over a wide exponent range.
            let x = f64::from_bits((s >> 2) & 0x7FEF_FFFF_FFFF_FFFF | 0x0010_0000_0000_0000);
            assert_eq!(super::sqrt_f64(x).to_bits(), x.sqrt().to_bits(), "{x:e}");
        }
        assert_eq!(super::sqrt_f64(0.0).to_bits(), 0);
    }
}
