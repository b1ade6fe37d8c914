//! aarch64 NEON kernels for q = 12289, on the shared 8-lane engine
//! (`neon_i16`); degrees below 16 run the portable kernels.

use super::{
    BadLength, INV_F, MASK_FULL, MASK_SMALL, MOD, Ops, ZETAS, logn_of, portable, same_len,
};
use crate::neon_i16 as v;

/// The forward transform with reduction schedule `mask`.
fn ntt(a: &mut [i16], mask: u32) -> Result<(), BadLength> {
    logn_of(a.len())?;
    if a.len() >= 16 {
        v::forward(a, &ZETAS, MOD, mask, 1);
    } else {
        portable::ntt(a, mask);
    }
    Ok(())
}

impl Ops for crate::backend::Neon {
    fn ntt_q12289(self, a: &mut [i16]) -> Result<(), BadLength> {
        ntt(a, MASK_FULL)
    }

    fn ntt_small_q12289(self, a: &mut [i16]) -> Result<(), BadLength> {
        ntt(a, MASK_SMALL)
    }

    fn inv_ntt_tomont_q12289(self, a: &mut [i16]) -> Result<(), BadLength> {
        let logn = logn_of(a.len())?;
        if a.len() >= 16 {
            v::inverse(a, &ZETAS, MOD, 1, INV_F[logn as usize]);
        } else {
            portable::inv_ntt_tomont(a, logn);
        }
        Ok(())
    }

    fn pointwise_mont_q12289(self, a: &[i16], b: &[i16], r: &mut [i16]) -> Result<(), BadLength> {
        same_len(a, b, r)?;
        if a.len().is_multiple_of(8) {
            v::pointwise_mont(a, b, r, MOD);
        } else {
            portable::pointwise_mont(a, b, r);
        }
        Ok(())
    }

    fn reduce_q12289(self, a: &mut [i16]) {
        v::reduce(a, MOD);
    }
}
