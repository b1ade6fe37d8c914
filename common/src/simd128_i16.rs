//! The WebAssembly SIMD (128-bit) engine of the 16-bit rings (q = 3329 and
//! q = 12289): eight `i16` lanes per vector, Montgomery products with
//! `R = 2^16` and Barrett reduction computed lane for lane as
//! [`crate::mont16::Mod16`] computes them, and the Cooley-Tukey /
//! Gentleman-Sande transforms of the portable kernels with the same
//! operations in the same order, so the results are equal bit for bit.
//!
//! WebAssembly has no 16-bit high multiply: the high half of each product
//! comes from the two widening multiplies (`i32x4.extmul_{low,high}_i16x8_s`)
//! and one shuffle of their high halves. Layers whose butterfly distance is
//! below eight lanes work on two vectors at a time, shuffled so that each
//! butterfly's two inputs sit in the same lane of two vectors.

use crate::mont16::Mod16;
use core::arch::wasm32::{
    i16x8_add, i16x8_mul, i16x8_shr, i16x8_shuffle, i16x8_splat, i16x8_sub,
    i32x4_extmul_high_i16x8, i32x4_extmul_low_i16x8, v128, v128_load, v128_load32_zero,
    v128_load64_zero, v128_store,
};

/// Eight lanes of `x`.
#[inline(always)]
pub(crate) fn load(x: &[i16; 8]) -> v128 {
    // SAFETY: `x` is 16 readable bytes; `v128_load` has no alignment
    // requirement.
    #[allow(unsafe_code)]
    unsafe {
        v128_load(x.as_ptr().cast())
    }
}

/// Store eight lanes to `x`.
#[inline(always)]
pub(crate) fn store(x: &mut [i16; 8], v: v128) {
    // SAFETY: `x` is 16 writable bytes; `v128_store` has no alignment
    // requirement.
    #[allow(unsafe_code)]
    unsafe {
        v128_store(x.as_mut_ptr().cast(), v)
    }
}

/// `s[at..at + 4]` in the low four lanes (the others zero).
#[inline(always)]
fn load4(s: &[i16], at: usize) -> v128 {
    let w = &s[at..at + 4];
    // SAFETY: `w` is 8 readable bytes (the slice above is bounds-checked);
    // no alignment requirement.
    #[allow(unsafe_code)]
    unsafe {
        v128_load64_zero(w.as_ptr().cast())
    }
}

/// `s[at..at + 2]` in the low two lanes (the others zero).
#[inline(always)]
fn load2(s: &[i16], at: usize) -> v128 {
    let w = &s[at..at + 2];
    // SAFETY: `w` is 4 readable bytes (the slice above is bounds-checked);
    // no alignment requirement.
    #[allow(unsafe_code)]
    unsafe {
        v128_load32_zero(w.as_ptr().cast())
    }
}

/// `s[at..at + 8]`.
#[inline(always)]
fn load8(s: &[i16], at: usize) -> v128 {
    let w: &[i16] = &s[at..at + 8];
    // SAFETY: `w` is 16 readable bytes (the slice above is bounds-checked);
    // no alignment requirement.
    #[allow(unsafe_code)]
    unsafe {
        v128_load(w.as_ptr().cast())
    }
}

/// Every lane `x`.
#[inline(always)]
fn splat(x: i16) -> v128 {
    i16x8_splat(x)
}

/// Lane-wise `a + b` (wrapping).
#[inline(always)]
fn add(a: v128, b: v128) -> v128 {
    i16x8_add(a, b)
}

/// Lane-wise `a - b` (wrapping).
#[inline(always)]
fn sub(a: v128, b: v128) -> v128 {
    i16x8_sub(a, b)
}

/// A modulus's constants, splatted.
#[derive(Clone, Copy)]
pub(crate) struct Consts {
    q: v128,
    qinv: v128,
    barrett_v: v128,
    round: v128,
}

impl Consts {
    /// The constants of `m`.
    #[inline(always)]
    pub(crate) fn new(m: Mod16) -> Self {
        Consts {
            q: i16x8_splat(m.q),
            qinv: i16x8_splat(m.qinv),
            barrett_v: i16x8_splat(m.barrett_v as i16),
            round: i16x8_splat(1 << 9),
        }
    }

    /// `b qinv mod 2^16`, lane by lane (for [`fqmul_pre`]).
    #[inline(always)]
    fn twist(&self, b: v128) -> v128 {
        i16x8_mul(b, self.qinv)
    }
}

/// The high 16 bits of the 32-bit products, lane by lane.
#[inline(always)]
fn mulhi(a: v128, b: v128) -> v128 {
    let lo = i32x4_extmul_low_i16x8(a, b);
    let hi = i32x4_extmul_high_i16x8(a, b);
    i16x8_shuffle::<1, 3, 5, 7, 9, 11, 13, 15>(lo, hi)
}

/// `montgomery_reduce(a b)` given `bqinv = b qinv mod 2^16`: the low 16 bits
/// of `a b` and of `t q` (with `t = a b qinv`) are equal, so
/// `(a b - t q) >> 16` is the difference of the high halves.
#[inline(always)]
pub(crate) fn fqmul_pre(a: v128, b: v128, bqinv: v128, c: &Consts) -> v128 {
    let t = i16x8_mul(a, bqinv);
    i16x8_sub(mulhi(a, b), mulhi(t, c.q))
}

/// `montgomery_reduce(a b)` lane by lane ([`Mod16::fqmul`]).
#[inline(always)]
pub(crate) fn fqmul(a: v128, b: v128, c: &Consts) -> v128 {
    fqmul_pre(a, b, i16x8_mul(b, c.qinv), c)
}

/// [`Mod16::barrett_reduce`] lane by lane: `(v a + 2^25) >> 26` is
/// `((v a >> 16) + 2^9) >> 10` (nested floors of exact powers of two).
#[inline(always)]
pub(crate) fn barrett(a: v128, c: &Consts) -> v128 {
    let t = i16x8_shr(i16x8_add(mulhi(a, c.barrett_v), c.round), 10);
    i16x8_sub(a, i16x8_mul(t, c.q))
}

/// Interleave/de-interleave pattern of a layer of distance 4, 2 or 1 on
/// 16 coefficients `x || y`: `pick` gathers the butterflies' first inputs
/// (`lo`) and second inputs (`hi`), `back` undoes it.
macro_rules! small_layer_shuffles {
    (4) => {
        (
            |x, y| i16x8_shuffle::<0, 1, 2, 3, 8, 9, 10, 11>(x, y),
            |x, y| i16x8_shuffle::<4, 5, 6, 7, 12, 13, 14, 15>(x, y),
            |l, h| i16x8_shuffle::<0, 1, 2, 3, 8, 9, 10, 11>(l, h),
            |l, h| i16x8_shuffle::<4, 5, 6, 7, 12, 13, 14, 15>(l, h),
        )
    };
    (2) => {
        (
            |x, y| i16x8_shuffle::<0, 1, 4, 5, 8, 9, 12, 13>(x, y),
            |x, y| i16x8_shuffle::<2, 3, 6, 7, 10, 11, 14, 15>(x, y),
            |l, h| i16x8_shuffle::<0, 1, 8, 9, 2, 3, 10, 11>(l, h),
            |l, h| i16x8_shuffle::<4, 5, 12, 13, 6, 7, 14, 15>(l, h),
        )
    };
    (1) => {
        (
            |x, y| i16x8_shuffle::<0, 2, 4, 6, 8, 10, 12, 14>(x, y),
            |x, y| i16x8_shuffle::<1, 3, 5, 7, 9, 11, 13, 15>(x, y),
            |l, h| i16x8_shuffle::<0, 8, 1, 9, 2, 10, 3, 11>(l, h),
            |l, h| i16x8_shuffle::<4, 12, 5, 13, 6, 14, 7, 15>(l, h),
        )
    };
}

/// The zetas of the eight butterflies of a 16-coefficient chunk in a layer
/// of distance `len` (4, 2 or 1) whose blocks use `zetas[first..]` in
/// increasing order (forward) or `zetas[..=first]` in decreasing order
/// (inverse), one per block, each repeated `len` times.
#[inline(always)]
fn small_zetas(zetas: &[i16], len: usize, first: usize, inverse: bool) -> v128 {
    match (len, inverse) {
        (4, false) => {
            i16x8_shuffle::<0, 0, 0, 0, 1, 1, 1, 1>(load2(zetas, first), load2(zetas, first))
        }
        (4, true) => i16x8_shuffle::<1, 1, 1, 1, 0, 0, 0, 0>(
            load2(zetas, first - 1),
            load2(zetas, first - 1),
        ),
        (2, false) => {
            i16x8_shuffle::<0, 0, 1, 1, 2, 2, 3, 3>(load4(zetas, first), load4(zetas, first))
        }
        (2, true) => i16x8_shuffle::<3, 3, 2, 2, 1, 1, 0, 0>(
            load4(zetas, first - 3),
            load4(zetas, first - 3),
        ),
        (_, false) => load8(zetas, first),
        (_, true) => {
            let z = load8(zetas, first - 7);
            i16x8_shuffle::<7, 6, 5, 4, 3, 2, 1, 0>(z, z)
        }
    }
}

crate::engine16::i16_engine_drivers!(v128);

/// One layer of distance `len` (4, 2 or 1) on a 16-coefficient chunk:
/// gather each butterfly's two inputs into two vectors, apply `bf`, and put
/// the outputs back.
#[inline(always)]
fn small_layer(chunk: &mut [i16; 16], len: usize, bf: impl Fn(v128, v128) -> (v128, v128)) {
    let (halves, _) = chunk.as_chunks_mut::<8>();
    let [x, y] = halves else { return };
    let (xv, yv) = (load(x), load(y));
    let (ov, pv) = match len {
        4 => {
            let (lo, hi, bx, by) = small_layer_shuffles!(4);
            let (l, h) = bf(lo(xv, yv), hi(xv, yv));
            (bx(l, h), by(l, h))
        }
        2 => {
            let (lo, hi, bx, by) = small_layer_shuffles!(2);
            let (l, h) = bf(lo(xv, yv), hi(xv, yv));
            (bx(l, h), by(l, h))
        }
        _ => {
            let (lo, hi, bx, by) = small_layer_shuffles!(1);
            let (l, h) = bf(lo(xv, yv), hi(xv, yv));
            (bx(l, h), by(l, h))
        }
    };
    store(x, ov);
    store(y, pv);
}
