//! AVX2 4-way Keccak-f\[1600\]: one 256-bit register per lane index.
//!
//! Placeholder: runs the portable permutation until the AVX2 kernel lands.

use super::StateX4;
use crate::backend::Avx2;

#[inline]
pub(super) fn keccak_f1600_x4(_token: Avx2, state: &mut StateX4) {
    super::portable::keccak_f1600_x4(state);
}
