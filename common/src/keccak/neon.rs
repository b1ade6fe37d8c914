//! aarch64 NEON two-way Keccak-f\[1600\]: one 128-bit vector per lane index
//! holding two instances' lanes, run through the portable permutation's
//! code (generic over the lane type), compiled with FEAT_SHA3 so that the
//! compiler forms its three-way XOR (`EOR3`), rotate-XOR (`XAR`,
//! `RAX1`) and bit-clear-XOR (`BCAX`) instructions. The 4-way kernel is two
//! such permutations. Without FEAT_SHA3 the portable scalar permutation
//! runs instead: on cores without it (Cortex-A72, ...) NEON needs two
//! shifts and an OR per rotation where the scalar code folds the rotation
//! into its `EOR` operand, and the scalar permutation is the faster one
//! there (Becker and Kannwischer, "Hybrid scalar/vector implementations of
//! Keccak and SPHINCS+ on AArch64", 2022).

#![allow(unsafe_code)]

use super::portable::{Lane, permute};
use super::{StateX4, X4Ops};
use core::arch::aarch64::{
    uint64x2_t, vandq_u64, vdupq_n_s64, vdupq_n_u64, veorq_u64, vld1q_u64, vmvnq_u32, vorrq_u64,
    vreinterpretq_u32_u64, vreinterpretq_u64_u32, vshlq_u64, vst1q_u64,
};

/// Two instances' copies of one lane.
#[derive(Clone, Copy)]
struct X2(uint64x2_t);

impl core::ops::BitXor for X2 {
    type Output = X2;
    #[inline(always)]
    fn bitxor(self, o: X2) -> X2 {
        // SAFETY: register operation only; NEON is in the baseline.
        X2(unsafe { veorq_u64(self.0, o.0) })
    }
}

impl core::ops::BitAnd for X2 {
    type Output = X2;
    #[inline(always)]
    fn bitand(self, o: X2) -> X2 {
        // SAFETY: register operation only; NEON is in the baseline.
        X2(unsafe { vandq_u64(self.0, o.0) })
    }
}

impl core::ops::Not for X2 {
    type Output = X2;
    #[inline(always)]
    fn not(self) -> X2 {
        // SAFETY: register operations only; NEON is in the baseline.
        X2(unsafe { vreinterpretq_u64_u32(vmvnq_u32(vreinterpretq_u32_u64(self.0))) })
    }
}

impl Lane for X2 {
    #[inline(always)]
    fn rotate_left(self, n: u32) -> X2 {
        let n = i64::from(n);
        // SAFETY: register operations only; NEON is in the baseline.
        // `USHL` by a negative count shifts right.
        X2(unsafe {
            vorrq_u64(
                vshlq_u64(self.0, vdupq_n_s64(n)),
                vshlq_u64(self.0, vdupq_n_s64(n - 64)),
            )
        })
    }
    #[inline(always)]
    fn splat(c: u64) -> X2 {
        // SAFETY: register operation only; NEON is in the baseline.
        X2(unsafe { vdupq_n_u64(c) })
    }
}

/// Keccak-f\[1600\] on instances `2 half` and `2 half + 1` of `state`,
/// compiled with FEAT_SHA3.
#[target_feature(enable = "sha3")]
fn permute_pair_sha3(state: &mut StateX4, half: usize) {
    let mut lanes: [X2; 25] = core::array::from_fn(|i| {
        let pair: &[u64; 2] = state.lanes[i][2 * half..2 * half + 2]
            .try_into()
            .unwrap_or(&[0; 2]);
        // SAFETY: `pair` is two `u64`, 16 readable bytes with `u64`
        // alignment.
        X2(unsafe { vld1q_u64(pair.as_ptr()) })
    });
    permute(&mut lanes);
    for (row, x) in state.lanes.iter_mut().zip(&lanes) {
        if let Some(pair) = row.get_mut(2 * half..2 * half + 2) {
            // SAFETY: `pair` is two `u64`, 16 writable bytes with `u64`
            // alignment.
            unsafe { vst1q_u64(pair.as_mut_ptr(), x.0) };
        }
    }
}

/// Keccak-f\[1600\] on one state, in the first half of each vector
/// (the second half computes a copy that is dropped), compiled with
/// FEAT_SHA3: `EOR3`, `XAR`, `RAX1` and `BCAX` make this fewer
/// instructions than the scalar permutation even with half the lanes
/// idle (counted under qemu: BENCHMARKS.md's aarch64 table).
#[target_feature(enable = "sha3")]
fn permute_one_sha3(s: &mut [u64; 25]) {
    let mut lanes: [X2; 25] = core::array::from_fn(|i| X2::splat(s[i]));
    permute(&mut lanes);
    for (w, x) in s.iter_mut().zip(&lanes) {
        let mut pair = [0u64; 2];
        // SAFETY: `pair` is two `u64`, 16 writable bytes with `u64`
        // alignment.
        unsafe { vst1q_u64(pair.as_mut_ptr(), x.0) };
        *w = pair[0];
    }
}

/// Keccak-f\[1600\] on one state with FEAT_SHA3, if this CPU has it and
/// `PQKIT_BACKEND=portable` is not set; `false` (state untouched) if not.
#[inline]
pub(super) fn keccak_f1600_sha3(s: &mut [u64; 25]) -> bool {
    if crate::backend::has_neon_sha3() {
        // SAFETY: the CPU has FEAT_SHA3 (detected just above).
        unsafe { permute_one_sha3(s) };
        true
    } else {
        false
    }
}

impl X4Ops for crate::backend::Neon {
    fn keccak_f1600_x4(self, state: &mut StateX4) {
        if self.has_sha3() {
            // SAFETY: the CPU has FEAT_SHA3 (detected just above).
            unsafe {
                permute_pair_sha3(state, 0);
                permute_pair_sha3(state, 1);
            }
        } else {
            super::portable::keccak_f1600_x4(state);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-state FEAT_SHA3 permutation equals the portable one on
    /// random states, all-zero and all-one ones (when the CPU has it);
    /// the sponge's permutation takes it.
    #[test]
    fn one_state_sha3_equals_portable() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut states: std::vec::Vec<[u64; 25]> =
            (0..200).map(|_| core::array::from_fn(|_| next())).collect();
        states.push([0; 25]);
        states.push([!0; 25]);
        if !crate::backend::has_neon_sha3() {
            std::eprintln!("no FEAT_SHA3 on this CPU (or PQKIT_BACKEND=portable)");
        }
        for s in &states {
            let mut want = *s;
            super::super::keccak_f1600(&mut want);
            let mut got = *s;
            if keccak_f1600_sha3(&mut got) {
                assert_eq!(got, want);
            } else {
                assert_eq!(got, *s, "untouched");
            }
            let mut sponge = *s;
            super::super::keccak_f1600_one(&mut sponge);
            assert_eq!(sponge, want);
        }
    }
}
