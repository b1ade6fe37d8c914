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

/// One round of Keccak-f\[1600\] on four instances: `a` in, the result in
/// `e`. The output is built one plane at a time (the five lanes of `e`
/// with the same y): each lane of the plane is gathered from `a` through
/// pi, gets theta's `d` and rho's rotation, and chi combines the five.
/// Only `d` and one plane are live at once, so the compiler keeps them in
/// registers and the state in memory (about 45 spill moves a round, 77 in
/// the theta / rho-pi / chi form that builds all 25 lanes of each step).
/// It pays only together with the aligned frame of [`permute`]: either
/// change alone leaves the permutation as slow as before.
#[inline(always)]
fn round(a: &[__m256i; 25], e: &mut [__m256i; 25], rc: u64) {
    // SAFETY: the intrinsics below need AVX2; `round` is only called from
    // `permute`, which is compiled with AVX2 and runs only after AVX2 was
    // detected.
    unsafe {
        // theta: column parities and d[x] = c[x-1] ^ rol(c[x+1], 1).
        macro_rules! col {
            ($x:literal) => {
                _mm256_xor_si256(
                    _mm256_xor_si256(
                        _mm256_xor_si256(a[$x], a[$x + 5]),
                        _mm256_xor_si256(a[$x + 10], a[$x + 15]),
                    ),
                    a[$x + 20],
                )
            };
        }
        let c = [col!(0), col!(1), col!(2), col!(3), col!(4)];
        macro_rules! dx {
            ($x:literal) => {
                _mm256_xor_si256(c[($x + 4) % 5], rol(c[($x + 1) % 5], 1))
            };
        }
        let d = [dx!(0), dx!(1), dx!(2), dx!(3), dx!(4)];
        // pi sends lane (x', y') to (y', 2x' + 3y'): lane x of output
        // plane y comes from x' = (x + 3y) mod 5, y' = x.
        macro_rules! lane {
            ($x:literal, $y:literal) => {
                rol(
                    _mm256_xor_si256(a[($x + 3 * $y) % 5 + 5 * $x], d[($x + 3 * $y) % 5]),
                    RHO[($x + 3 * $y) % 5 + 5 * $x],
                )
            };
        }
        macro_rules! plane {
            ($y:literal) => {
                let b = [
                    lane!(0, $y),
                    lane!(1, $y),
                    lane!(2, $y),
                    lane!(3, $y),
                    lane!(4, $y),
                ];
                for x in 0..5 {
                    e[x + 5 * $y] =
                        _mm256_xor_si256(b[x], _mm256_andnot_si256(b[(x + 1) % 5], b[(x + 2) % 5]));
                }
            };
        }
        plane!(0);
        plane!(1);
        plane!(2);
        plane!(3);
        plane!(4);
        e[0] = _mm256_xor_si256(e[0], _mm256_set1_epi64x(rc as i64));
    }
}

#[target_feature(enable = "avx2")]
fn permute(state: &mut StateX4) {
    let mut a = [_mm256_setzero_si256(); 25];
    for (x, lane) in a.iter_mut().zip(state.lanes.iter()) {
        // SAFETY: `lane` is a readable [u64; 4] (32 bytes); loadu has no
        // alignment requirement.
        *x = unsafe { _mm256_loadu_si256(lane.as_ptr().cast()) };
    }
    let mut e = [_mm256_setzero_si256(); 25];
    // The state does not fit in registers: keep its spill slots aligned.
    crate::backend::align_frame!();
    for rc in RC.chunks_exact(2) {
        round(&a, &mut e, rc[0]);
        round(&e, &mut a, rc[1]);
    }
    for (lane, x) in state.lanes.iter_mut().zip(a.iter()) {
        // SAFETY: `lane` is a writable [u64; 4] (32 bytes); storeu has no
        // alignment requirement.
        unsafe { _mm256_storeu_si256(lane.as_mut_ptr().cast(), *x) };
    }
}

cpufeatures::new!(cpuid_bmi, "bmi1", "bmi2");

/// Keccak-f\[1600\] on one state: the portable permutation compiled with
/// BMI1 and BMI2 where the CPU has them (`andn` for chi's `!b & c`,
/// `rorx` rotating into a fresh register: fewer instructions), else
/// the portable build. Every AVX2 CPU has both, but they are checked
/// (detection is cached: one load and a branch per permutation).
pub(super) fn keccak_f1600_scalar(s: &mut [u64; 25]) {
    if cpuid_bmi::get() {
        // SAFETY: BMI1 and BMI2 were detected on this CPU.
        unsafe { keccak_f1600_bmi(s) }
    } else {
        super::portable::keccak_f1600(s);
    }
}

#[target_feature(enable = "bmi1,bmi2")]
fn keccak_f1600_bmi(s: &mut [u64; 25]) {
    super::portable::keccak_f1600_inline(s);
}

impl X4Ops for Avx2 {
    #[inline]
    fn keccak_f1600_x4(self, state: &mut StateX4) {
        // AVX-512VL, where the level allows it, runs the same permutation
        // faster (rotates and three-input logic in one instruction, no
        // register spills); that function picks the
        // kernel, falling back to this file's AVX2 one.
        super::avx512::keccak_f1600_x4(self, state);
    }

    #[inline]
    fn keccak_f1600_lane(self, state: &mut StateX4, k: usize) {
        if self.has_avx512() {
            // One AVX-512 4-way permutation is cheaper than one scalar
            // permutation.
            super::avx512::keccak_f1600_x4(self, state);
        } else {
            super::keccak_f1600_lane_scalar(state, k);
        }
    }

    #[inline]
    fn keccak_f1600_one(self, s: &mut [u64; 25]) {
        if self.has_avx512() {
            // As above: the 4-way AVX-512 kernel, on instance 0.
            let mut x4 = StateX4::default();
            x4.set_instance(0, s);
            super::avx512::keccak_f1600_x4(self, &mut x4);
            *s = x4.instance(0);
            crate::wipe::wipe(x4.lanes.as_flattened_mut());
        } else {
            super::keccak_f1600_scalar(s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalar_bmi_equals_portable() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200 {
            let a: [u64; 25] = core::array::from_fn(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            });
            let (mut fast, mut plain) = (a, a);
            keccak_f1600_scalar(&mut fast);
            super::super::portable::keccak_f1600(&mut plain);
            assert_eq!(fast, plain);
        }
        if cpuid_bmi::get() {
            let mut s = [0u64; 25];
            // SAFETY: BMI1 and BMI2 were just detected.
            unsafe { keccak_f1600_bmi(&mut s) };
            assert_eq!(s[0], 0xF125_8F79_40E1_DDE7);
        }
    }

    #[test]
    fn equals_portable_on_random_states() {
        let Some(token) = Avx2::detect() else {
            return;
        };
        super::super::assert_x4_kernel_matches_portable(100, |st| keccak_f1600_x4(token, st));
    }
}
