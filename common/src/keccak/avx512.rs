//! 4-way Keccak-f\[1600\] with AVX-512VL on 256-bit registers: the same
//! layout as the AVX2 kernel (one register per lane index, the four
//! instances side by side), but with the AVX-512 single-instruction rotate
//! (`vprolq`), three-input logic (`vpternlogq`: theta's column parities and
//! the whole of chi) and 32 vector registers, so the 25-lane state no
//! longer spills. It is picked inside the AVX2 backend when the CPU and
//! the OS support AVX-512F and AVX-512VL; results are bit-identical to the
//! portable permutation (tested below and through every SHAKE x4 user).
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::StateX4;
use super::portable::RC;
use crate::backend::Avx2;

/// Keccak-f\[1600\] on four interleaved states with the AVX-512F/VL
/// kernel; `token` must have [`Avx2::has_avx512`] (else the AVX2 kernel
/// runs).
#[inline]
pub(super) fn keccak_f1600_x4(token: Avx2, state: &mut StateX4) {
    if token.has_avx512() {
        // SAFETY: the token carries AVX-512 only after `Avx2::detect`
        // found AVX-512F and AVX-512VL (cpufeatures checks both the CPUID
        // bits and that the OS saves the AVX-512 state).
        unsafe { permute(state) };
    } else {
        super::avx2::keccak_f1600_x4(token, state);
    }
}

/// `a ^ b ^ c`.
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
fn xor3(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
    _mm256_ternarylogic_epi64::<0x96>(a, b, c)
}

/// `a ^ (!b & c)` (chi).
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
fn chi(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
    _mm256_ternarylogic_epi64::<0xD2>(a, b, c)
}

/// Rotate each 64-bit lane left by `R`.
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
fn rol<const R: i32>(a: __m256i) -> __m256i {
    _mm256_rol_epi64::<R>(a)
}

#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn permute(state: &mut StateX4) {
    let mut a = [_mm256_setzero_si256(); 25];
    for (x, lane) in a.iter_mut().zip(state.lanes.iter()) {
        // SAFETY: `lane` is a readable [u64; 4] (32 bytes); loadu has no
        // alignment requirement.
        *x = unsafe { _mm256_loadu_si256(lane.as_ptr().cast()) };
    }
    for rc in RC {
        // theta: column parities, then a[x][y] ^= c[x-1] ^ rol(c[x+1], 1).
        let c: [__m256i; 5] =
            core::array::from_fn(|x| xor3(xor3(a[x], a[x + 5], a[x + 10]), a[x + 15], a[x + 20]));
        let d: [__m256i; 5] = core::array::from_fn(|x| rol::<1>(c[(x + 1) % 5]));
        for x in 0..5 {
            for y in 0..5 {
                a[x + 5 * y] = xor3(a[x + 5 * y], c[(x + 4) % 5], d[x]);
            }
        }
        // rho and pi: b[y][2x+3y] = rol(a[x][y], RHO[x][y]), the rotation
        // amounts written out (they are immediates of `vprolq`).
        let mut b = [_mm256_setzero_si256(); 25];
        macro_rules! rho_pi {
            ($($x:literal $y:literal $r:literal),* $(,)?) => {
                $( b[$y + 5 * ((2 * $x + 3 * $y) % 5)] = rol::<$r>(a[$x + 5 * $y]); )*
            };
        }
        b[0] = a[0];
        rho_pi!(
            1 0 1, 2 0 62, 3 0 28, 4 0 27,
            0 1 36, 1 1 44, 2 1 6, 3 1 55, 4 1 20,
            0 2 3, 1 2 10, 2 2 43, 3 2 25, 4 2 39,
            0 3 41, 1 3 45, 2 3 15, 3 3 21, 4 3 8,
            0 4 18, 1 4 2, 2 4 61, 3 4 56, 4 4 14,
        );
        // chi
        for y in 0..5 {
            for x in 0..5 {
                a[x + 5 * y] = chi(b[x + 5 * y], b[(x + 1) % 5 + 5 * y], b[(x + 2) % 5 + 5 * y]);
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

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;

    #[test]
    fn equals_portable_on_random_states() {
        let Some(token) = Avx2::detect().filter(|t| t.has_avx512()) else {
            std::eprintln!("AVX-512VL not available: kernel not exercised");
            return;
        };
        super::super::assert_x4_kernel_matches_portable(200, |st| keccak_f1600_x4(token, st));
    }
}
