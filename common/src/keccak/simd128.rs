//! WebAssembly SIMD two-way Keccak-f\[1600\]: one 128-bit vector per lane
//! index holding two instances' lanes, run through the portable
//! permutation's code (generic over the lane type). The 4-way kernel is
//! two such permutations; a rotation is two shifts and an or, where the
//! scalar code has one `i64.rotl`.

use super::portable::{Lane, permute};
use super::{StateX4, X4Ops};
use core::arch::wasm32::{
    i64x2_shl, i64x2_splat, u64x2_shr, v128, v128_and, v128_load, v128_not, v128_or, v128_store,
    v128_xor,
};

/// Two instances' copies of one lane.
#[derive(Clone, Copy)]
struct X2(v128);

impl core::ops::BitXor for X2 {
    type Output = X2;
    #[inline(always)]
    fn bitxor(self, o: X2) -> X2 {
        X2(v128_xor(self.0, o.0))
    }
}

impl core::ops::BitAnd for X2 {
    type Output = X2;
    #[inline(always)]
    fn bitand(self, o: X2) -> X2 {
        X2(v128_and(self.0, o.0))
    }
}

impl core::ops::Not for X2 {
    type Output = X2;
    #[inline(always)]
    fn not(self) -> X2 {
        X2(v128_not(self.0))
    }
}

impl Lane for X2 {
    #[inline(always)]
    fn rotate_left(self, n: u32) -> X2 {
        X2(v128_or(i64x2_shl(self.0, n), u64x2_shr(self.0, 64 - n)))
    }
    #[inline(always)]
    fn splat(c: u64) -> X2 {
        X2(i64x2_splat(c as i64))
    }
}

/// Keccak-f\[1600\] on instances `2 half` and `2 half + 1` of `state`.
#[inline(always)]
fn permute_pair(state: &mut StateX4, half: usize) {
    let mut lanes: [X2; 25] = core::array::from_fn(|i| {
        let pair = &state.lanes[i][2 * half..2 * half + 2];
        // SAFETY: `pair` is two `u64`, 16 readable bytes; no alignment
        // requirement.
        #[allow(unsafe_code)]
        X2(unsafe { v128_load(pair.as_ptr().cast()) })
    });
    permute(&mut lanes);
    for (row, x) in state.lanes.iter_mut().zip(&lanes) {
        let pair = &mut row[2 * half..2 * half + 2];
        // SAFETY: `pair` is two `u64`, 16 writable bytes; no alignment
        // requirement.
        #[allow(unsafe_code)]
        unsafe {
            v128_store(pair.as_mut_ptr().cast(), x.0)
        };
    }
}

impl X4Ops for crate::backend::Simd128 {
    fn keccak_f1600_x4(self, state: &mut StateX4) {
        permute_pair(state, 0);
        permute_pair(state, 1);
    }
}
