//! 32.32 fixed-point arithmetic for key generation (no floating point at
//! run time), bit-compatible with the fn-dsa 0.3 / ntrugen key generator:
//! a value is a two's complement `u64` `x` standing for `x / 2^32`; sums
//! and products wrap at 64 bits, products truncate (`(a b) >> 32`, the
//! floor), halvings round half up, divisions (`pqkit_common::mp31::div_fx32`)
//! round half away from zero.
//! Every key-generation decision that goes through this arithmetic
//! (orthogonalised norm, Babai reduction coefficients) must round exactly
//! as there, so the order of operations below is part of the contract.
//! All operations are constant-time.

use crate::algo::fft_roots::ROOTS;

/// A 32.32 fixed-point value: the two's complement `u64` `x` standing
/// for `x / 2^32`.
pub(crate) type Fixed = u64;

pub(crate) const fn of_i32(j: i32) -> Fixed {
    ((j as u32) as u64) << 32
}

/// Round to the nearest integer (halves up); wraps for huge values.
#[inline(always)]
pub(crate) const fn round(x: Fixed) -> i32 {
    ((x.wrapping_add(1 << 31) as i64) >> 32) as i32
}

pub(crate) use pqkit_common::mp31::fx_mul as mul;
use pqkit_common::{Backend, Portable, mp31::Ops as _};

#[inline(always)]
pub(crate) fn sqr(a: Fixed) -> Fixed {
    mul(a, a)
}

/// The FFT twiddles `ROOTS[j]` of `fft_roots.rs` rounded to 32.32 (half
/// away from zero), converted at compile time.
static ROOTS_FX: [(Fixed, Fixed); 512] = {
    const fn q(x: f64) -> Fixed {
        let y = x * 4294967296.0;
        let r = if y >= 0.0 {
            (y + 0.5) as i64
        } else {
            -((-y + 0.5) as i64)
        };
        r as u64
    }
    let mut t = [(0u64, 0u64); 512];
    let mut i = 0;
    while i < 512 {
        t[i] = (q(ROOTS[i].0), q(ROOTS[i].1));
        i += 1;
    }
    t
};

/// Forward FFT of a real polynomial of degree `n = a.len() >= 2`: the
/// result keeps the `n/2` values at roots with positive imaginary part,
/// real parts in `a[..n/2]`, imaginary parts in `a[n/2..]`.
///
/// Groups of four or more butterflies sharing a root (the layers with
/// half-distance 4 and up) run on the backend's kernel (`fx_fft_group`:
/// four at a time with AVX2), the last two layers' groups of two and one
/// on the portable one; both compute exactly the scalar formulas.
pub(crate) fn fft<B: Backend>(b: B, a: &mut [Fixed]) {
    let hn = a.len() / 2;
    let (re, im) = a.split_at_mut(hn);
    let mut t = hn;
    let mut m = 1;
    while m < hn {
        let ht = t / 2;
        for (i1, (r, i)) in re
            .chunks_exact_mut(t)
            .zip(im.chunks_exact_mut(t))
            .enumerate()
        {
            let (sr, si) = ROOTS_FX[m + i1];
            if ht >= 4 {
                b.fx_fft_group(r, i, sr, si);
            } else {
                Portable.fx_fft_group(r, i, sr, si);
            }
        }
        t = ht;
        m *= 2;
    }
}

/// Inverse of `fft` (halving at every layer, so no final scaling).
/// Groups as in [`fft`].
pub(crate) fn ifft<B: Backend>(b: B, a: &mut [Fixed]) {
    let hn = a.len() / 2;
    let (re, im) = a.split_at_mut(hn);
    let mut t = 1;
    let mut m = hn;
    while m > 1 {
        let hm = m / 2;
        let groups = re.chunks_exact_mut(2 * t).zip(im.chunks_exact_mut(2 * t));
        for (i1, (r, i)) in groups.take(hm).enumerate() {
            let (sr, si) = ROOTS_FX[hm + i1];
            let si = si.wrapping_neg();
            if t >= 4 {
                b.fx_ifft_group(r, i, sr, si);
            } else {
                Portable.fx_ifft_group(r, i, sr, si);
            }
        }
        t *= 2;
        m = hm;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pqkit_common::mp31::div_fx32 as div;

    #[test]
    fn division() {
        let one = of_i32(1);
        assert_eq!(div(of_i32(7), of_i32(2)), of_i32(7) / 2);
        assert_eq!(div(of_i32(-7), of_i32(2)), (of_i32(-7) as i64 / 2) as u64);
        assert_eq!(div(one, of_i32(3)), 1431655765);
        assert_eq!(div(of_i32(-1), of_i32(3)), (-1431655765i64) as u64);
        // Against exact rounding for assorted in-range values.
        let mut s = 0x1234_5678_9abc_def1u64;
        for _ in 0..10000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let x = (s >> 20) as i64 - (1 << 43);
            let y = ((s & 0x00ff_ffff_ffff) as i64 | 1) * if s & 1 == 0 { 1 } else { -1 };
            let n = (x.unsigned_abs() as u128) << 32;
            let d = y.unsigned_abs() as u128;
            let mut q = n / d;
            if 2 * (n % d) >= d {
                q += 1;
            }
            let q = if (x < 0) != (y < 0) {
                (q as u64).wrapping_neg()
            } else {
                q as u64
            };
            assert_eq!(div(x as u64, y as u64), q);
        }
    }

    #[test]
    fn fft_round_trip() {
        for logn in 1..=10 {
            let n = 1usize << logn;
            let v: std::vec::Vec<Fixed> = (0..n)
                .map(|i| of_i32((i * 7919 % 255) as i32 - 127))
                .collect();
            let mut a = v.clone();
            fft(Portable, &mut a);
            ifft(Portable, &mut a);
            for (x, y) in a.iter().zip(&v) {
                assert_eq!(round(*x), round(*y));
            }
        }
    }
}
