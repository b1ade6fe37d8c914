//! Arithmetic modulo q = 12289, the ring of FN-DSA (Falcon) verification and
//! key generation: `Z_q[X]/(X^n + 1)` for `n = 2^logn`, `logn` in 1..=10,
//! with the complete negacyclic NTT (evaluation at the odd powers of a
//! primitive `2n`-th root of unity).
//!
//! Polynomials are `i16` slices of length `n`; products are Montgomery
//! products with `R = 2^16` ([`crate::mont16`]). One zeta table serves every
//! degree: `ZETAS[k] = psi^BitRev10(k) 2^16 mod q` with `psi = 1945 = 11^6`
//! of order 2048, since for `k < n` that equals `psi_2n^BitRev_logn(k)`.
//! A slice whose length is not a supported power of two gives
//! [`BadLength`] and is left untouched.

#[cfg(target_arch = "x86_64")]
mod avx2;
mod portable;
pub mod scalar;
#[cfg(test)]
mod tests;

use crate::mont16::{Mod16, zeta_table};

/// The modulus.
pub const Q: i16 = 12289;
/// The modulus with its Montgomery/Barrett constants.
pub const MOD: Mod16 = Mod16::new(Q);
/// The largest supported degree.
pub const MAX_N: usize = 1024;
/// A primitive 2048-th root of unity modulo q (`11^6`, 11 generating Z_q*).
pub const PSI: i64 = 1945;
/// `ZETAS[k] = PSI^BitRev10(k) 2^16 mod q`, centred.
pub const ZETAS: [i16; MAX_N] = zeta_table::<MAX_N>(MOD, PSI, 10);
/// `INV_F[logn] = 2^32 / n mod q`: the inverse NTT's final Montgomery factor
/// (output multiplied by `2^16`).
pub const INV_F: [i16; 11] = {
    let mut t = [0i16; 11];
    let mut logn = 1;
    while logn <= 10 {
        let inv_n = MOD.pow(1 << logn, (Q as u64) - 2);
        t[logn] = (MOD.pow(2, 32) * inv_n % (Q as i64)) as i16;
        logn += 1;
    }
    t
};

/// The layers of a forward NTT that Barrett-reduce their outputs besides
/// the last (which always does): bit `i` for layer `i` (the first layer
/// 0), set where `i mod period == offset`. See [`Ops::ntt_q12289`] and
/// [`Ops::ntt_small_q12289`] for the bounds that make each schedule safe.
pub(crate) const fn reduce_mask(period: u32, offset: u32) -> u32 {
    let mut m = 0u32;
    let mut i = 0;
    while i < 32 {
        if i % period == offset {
            m |= 1 << i;
        }
        i += 1;
    }
    m
}

/// The schedule of inputs up to `q` in magnitude: every other layer.
pub(crate) const MASK_FULL: u32 = reduce_mask(2, 0);

/// The schedule of inputs up to `2^12` in magnitude: every third layer.
pub(crate) const MASK_SMALL: u32 = reduce_mask(3, 2);

/// A slice length that is not `2^logn` with `logn` in 1..=10, or two
/// operands of different lengths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadLength;

impl core::fmt::Display for BadLength {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("polynomial length must be 2^logn with logn in 1..=10")
    }
}

impl core::error::Error for BadLength {}

/// `log2(n)` for a supported degree.
pub fn logn_of(n: usize) -> Result<u32, BadLength> {
    if n.is_power_of_two() && (2..=MAX_N).contains(&n) {
        Ok(n.trailing_zeros())
    } else {
        Err(BadLength)
    }
}

/// The kernels a backend provides for this ring (method names carry the
/// ring's suffix: every ring's trait is a supertrait of [`crate::Backend`]).
pub trait Ops: Copy {
    /// Forward NTT in place. Input any `|a_i| <= q`; output
    /// `|a_i| <= q/2 + 1`, bit-reversed order. The layers of even index
    /// and the last Barrett-reduce their outputs: a Montgomery product by a
    /// zeta (at most `q/2`) of a value `b` is below `0.094 |b| + q/2`, so
    /// from `q` a layer reaches 19,586 (then reduced to `q/2 + 1`), from
    /// `q/2 + 1` an unreduced layer reaches 12,866 and the next 20,217
    /// before its reduction: every value fits an `i16`.
    #[inline]
    fn ntt_q12289(self, a: &mut [i16]) -> Result<(), BadLength> {
        logn_of(a.len())?;
        portable::ntt(a, MASK_FULL);
        Ok(())
    }
    /// [`Ops::ntt_q12289`] for inputs `|a_i| <= 2^12` (Saber's 13-bit
    /// values, centred, and smaller), with fewer reductions: only layers
    /// 2, 5, 8 and the last reduce (from `2^12` three unreduced layers
    /// reach 10,625, 17,766 and 25,576; from `q/2 + 1` they reach 12,866,
    /// 20,217 and 28,258). Output `|a_i| <= q/2 + 1`.
    #[inline]
    fn ntt_small_q12289(self, a: &mut [i16]) -> Result<(), BadLength> {
        logn_of(a.len())?;
        portable::ntt(a, MASK_SMALL);
        Ok(())
    }
    /// Inverse NTT in place, times `2^16`. Input `|a_i| < q`; output
    /// `|a_i| < q`.
    #[inline]
    fn inv_ntt_tomont_q12289(self, a: &mut [i16]) -> Result<(), BadLength> {
        let logn = logn_of(a.len())?;
        portable::inv_ntt_tomont(a, logn);
        Ok(())
    }
    /// `r = a * b * 2^-16` coefficient-wise. Inputs `|a_i|, |b_i| < q`;
    /// output `|r_i| < q`. Lengths must be equal.
    #[inline]
    fn pointwise_mont_q12289(self, a: &[i16], b: &[i16], r: &mut [i16]) -> Result<(), BadLength> {
        same_len(a, b, r)?;
        portable::pointwise_mont(a, b, r);
        Ok(())
    }
    /// Barrett reduction of every coefficient to `|a_i| <= q/2 + 1`.
    #[inline]
    fn reduce_q12289(self, a: &mut [i16]) {
        portable::reduce(a);
    }
}

fn same_len(a: &[i16], b: &[i16], r: &[i16]) -> Result<(), BadLength> {
    if a.len() == b.len() && b.len() == r.len() {
        Ok(())
    } else {
        Err(BadLength)
    }
}

impl Ops for crate::Portable {}

/// The kernels of a backend with an 8-lane i16 engine (`simd128_i16`,
/// `neon_i16`: the same functions on each target's vectors); degrees below
/// 16 run the portable kernels.
#[cfg(any(
    all(target_arch = "aarch64", target_feature = "neon"),
    all(target_family = "wasm", target_feature = "simd128")
))]
macro_rules! i16_engine_ops {
    ($backend:ty, $engine:ident) => {
        impl Ops for $backend {
            fn ntt_q12289(self, a: &mut [i16]) -> Result<(), BadLength> {
                engine_ntt!($engine, a, MASK_FULL)
            }

            fn ntt_small_q12289(self, a: &mut [i16]) -> Result<(), BadLength> {
                engine_ntt!($engine, a, MASK_SMALL)
            }

            fn inv_ntt_tomont_q12289(self, a: &mut [i16]) -> Result<(), BadLength> {
                let logn = logn_of(a.len())?;
                if a.len() >= 16 {
                    crate::$engine::inverse(a, &ZETAS, MOD, 1, INV_F[logn as usize]);
                } else {
                    portable::inv_ntt_tomont(a, logn);
                }
                Ok(())
            }

            fn pointwise_mont_q12289(
                self,
                a: &[i16],
                b: &[i16],
                r: &mut [i16],
            ) -> Result<(), BadLength> {
                same_len(a, b, r)?;
                if a.len().is_multiple_of(8) {
                    crate::$engine::pointwise_mont(a, b, r, MOD);
                } else {
                    portable::pointwise_mont(a, b, r);
                }
                Ok(())
            }

            fn reduce_q12289(self, a: &mut [i16]) {
                crate::$engine::reduce(a, MOD);
            }
        }
    };
}

/// The forward transform on an i16 engine with reduction schedule `mask`.
#[cfg(any(
    all(target_arch = "aarch64", target_feature = "neon"),
    all(target_family = "wasm", target_feature = "simd128")
))]
macro_rules! engine_ntt {
    ($engine:ident, $a:expr, $mask:expr) => {{
        let a: &mut [i16] = $a;
        logn_of(a.len())?;
        if a.len() >= 16 {
            crate::$engine::forward(a, &ZETAS, MOD, $mask, 1);
        } else {
            portable::ntt(a, $mask);
        }
        Ok(())
    }};
}

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
i16_engine_ops!(crate::backend::Neon, neon_i16);
#[cfg(all(target_family = "wasm", target_feature = "simd128"))]
i16_engine_ops!(crate::backend::Simd128, simd128_i16);
