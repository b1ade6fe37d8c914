//! AVX2 4-way Keccak-f\[1600\]: one 256-bit register per lane index, the
//! four instances side by side (FIPS 202 §3.2, same step order as the
//! portable permutation).
#![allow(unsafe_code)]

use super::X4Ops;
use core::arch::x86_64::*;

use super::StateX4;
use super::portable::{RC, RHO};
use crate::backend::Avx2;

#[inline]
pub(super) fn keccak_f1600_x4(_token: Avx2, state: &mut StateX4) {
    // SAFETY: the `Avx2` token exists only after AVX2 was detected.
    unsafe { permute(state) }
}

#[inline]
#[target_feature(enable = "avx2")]
fn rol(v: __m256i, n: u32) -> __m256i {
    // Shift counts of 64 give zero, so n = 0 is the identity.
    let l = _mm_cvtsi32_si128(n as i32);
    let r = _mm_cvtsi32_si128(64 - n as i32);
    _mm256_or_si256(_mm256_sll_epi64(v, l), _mm256_srl_epi64(v, r))
}

#[target_feature(enable = "avx2")]
fn permute(state: &mut StateX4) {
    let mut a = [_mm256_setzero_si256(); 25];
    for (x, lane) in a.iter_mut().zip(state.lanes.iter()) {
        // SAFETY: `lane` is a readable [u64; 4] (32 bytes); loadu has no
        // alignment requirement.
        *x = unsafe { _mm256_loadu_si256(lane.as_ptr().cast()) };
    }
    for rc in RC {
        // theta
        let mut c = [_mm256_setzero_si256(); 5];
        for (x, cx) in c.iter_mut().enumerate() {
            *cx = _mm256_xor_si256(
                _mm256_xor_si256(
                    _mm256_xor_si256(a[x], a[x + 5]),
                    _mm256_xor_si256(a[x + 10], a[x + 15]),
                ),
                a[x + 20],
            );
        }
        for x in 0..5 {
            let d = _mm256_xor_si256(c[(x + 4) % 5], rol(c[(x + 1) % 5], 1));
            for y in 0..5 {
                a[x + 5 * y] = _mm256_xor_si256(a[x + 5 * y], d);
            }
        }
        // rho and pi
        let mut b = [_mm256_setzero_si256(); 25];
        for x in 0..5 {
            for y in 0..5 {
                b[y + 5 * ((2 * x + 3 * y) % 5)] = rol(a[x + 5 * y], RHO[x + 5 * y]);
            }
        }
        // chi
        for y in 0..5 {
            for x in 0..5 {
                a[x + 5 * y] = _mm256_xor_si256(
                    b[x + 5 * y],
                    _mm256_andnot_si256(b[(x + 1) % 5 + 5 * y], b[(x + 2) % 5 + 5 * y]),
                );
            }
        }
        // iota
        a[0] = _mm256_xor_si256(a[0], _mm256_set1_epi64x(rc as i64));
    }
    for (lane, x) in state.lanes.iter_mut().zip(a.iter()) {
        // SAFETY: `lane` is a writable [u64; 4] (32 bytes); storeu has no
        // alignment requirement.
        unsafe { _mm256_storeu_si256(lane.as_mut_ptr().cast(), *x) };
    }
}

impl X4Ops for Avx2 {
    #[inline]
    fn keccak_f1600_x4(self, state: &mut StateX4) {
        // AVX-512VL, where the level allows it, runs the same permutation
        // about twice as fast (rotates and three-input logic in one
        // instruction, no register spills); that function picks the
        // kernel, falling back to this file's AVX2 one.
        super::avx512::keccak_f1600_x4(self, state);
    }

    #[inline]
    fn keccak_f1600_lane(self, state: &mut StateX4, k: usize) {
        if self.has_avx512() {
            // One AVX-512 4-way permutation (about 230 ns here) is cheaper
            // than one scalar permutation (about 265 ns).
            super::avx512::keccak_f1600_x4(self, state);
        } else {
            super::keccak_f1600_lane_scalar(state, k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equals_portable_on_random_states() {
        let Some(token) = Avx2::detect() else {
            return;
        };
        super::super::assert_x4_kernel_matches_portable(100, |st| keccak_f1600_x4(token, st));
    }
}
