//! WebAssembly SIMD kernels for q = 8380417: four `i32` lanes per vector,
//! Montgomery products with `R = 2^32` from the widening multiplies
//! (`i64x2.extmul_{low,high}_i32x4_s`), lane for lane the portable
//! kernels.

use super::{INV_NTT_F, N, Ops, Poly, Q, QINV, ZETAS};
use core::arch::wasm32::{
    i32x4_add, i32x4_mul, i32x4_neg, i32x4_shuffle, i32x4_splat, i32x4_sub,
    i64x2_extmul_high_i32x4, i64x2_extmul_low_i32x4, v128, v128_load, v128_load64_zero, v128_store,
};

/// Four lanes of `x`.
#[inline(always)]
fn load(x: &[i32; 4]) -> v128 {
    // SAFETY: `x` is 16 readable bytes; no alignment requirement.
    #[allow(unsafe_code)]
    unsafe {
        v128_load(x.as_ptr().cast())
    }
}

/// Store four lanes to `x`.
#[inline(always)]
fn store(x: &mut [i32; 4], v: v128) {
    // SAFETY: `x` is 16 writable bytes; no alignment requirement.
    #[allow(unsafe_code)]
    unsafe {
        v128_store(x.as_mut_ptr().cast(), v)
    }
}

/// `ZETAS[at..at + 2]` in the low two lanes.
#[inline(always)]
fn load2(at: usize) -> v128 {
    let w = &ZETAS[at..at + 2];
    // SAFETY: `w` is 8 readable bytes (the slice is bounds-checked); no
    // alignment requirement.
    #[allow(unsafe_code)]
    unsafe {
        v128_load64_zero(w.as_ptr().cast())
    }
}

/// `ZETAS[at..at + 4]`.
#[inline(always)]
fn load4(at: usize) -> v128 {
    let w: &[i32] = &ZETAS[at..at + 4];
    // SAFETY: `w` is 16 readable bytes (the slice is bounds-checked); no
    // alignment requirement.
    #[allow(unsafe_code)]
    unsafe {
        v128_load(w.as_ptr().cast())
    }
}

/// `montgomery_reduce(a b)` lane by lane given `bqinv = b QINV mod 2^32`:
/// the low 32 bits of `a b` and of `t q` (`t = a b QINV`) are equal, so
/// `(a b - t q) >> 32` is the difference of the high halves.
#[inline(always)]
fn mont_pre(a: v128, b: v128, bqinv: v128) -> v128 {
    let q = i32x4_splat(Q);
    let t = i32x4_mul(a, bqinv);
    let high = |lo, hi| i32x4_shuffle::<1, 3, 5, 7>(lo, hi);
    let ab = high(i64x2_extmul_low_i32x4(a, b), i64x2_extmul_high_i32x4(a, b));
    let tq = high(i64x2_extmul_low_i32x4(t, q), i64x2_extmul_high_i32x4(t, q));
    i32x4_sub(ab, tq)
}

/// `montgomery_reduce(a b)` lane by lane.
#[inline(always)]
fn mont(a: v128, b: v128) -> v128 {
    mont_pre(a, b, i32x4_mul(b, i32x4_splat(QINV)))
}

/// One layer of distance 2 or 1 on eight coefficients `x || y`: gather the
/// butterflies' inputs into two vectors, apply `bf`, put them back.
#[inline(always)]
fn small_layer(chunk: &mut [i32; 8], len: usize, bf: impl Fn(v128, v128) -> (v128, v128)) {
    let (halves, _) = chunk.as_chunks_mut::<4>();
    let [x, y] = halves else { return };
    let (xv, yv) = (load(x), load(y));
    let (ov, pv) = if len == 2 {
        let (l, h) = bf(
            i32x4_shuffle::<0, 1, 4, 5>(xv, yv),
            i32x4_shuffle::<2, 3, 6, 7>(xv, yv),
        );
        (
            i32x4_shuffle::<0, 1, 4, 5>(l, h),
            i32x4_shuffle::<2, 3, 6, 7>(l, h),
        )
    } else {
        let (l, h) = bf(
            i32x4_shuffle::<0, 2, 4, 6>(xv, yv),
            i32x4_shuffle::<1, 3, 5, 7>(xv, yv),
        );
        (
            i32x4_shuffle::<0, 4, 1, 5>(l, h),
            i32x4_shuffle::<2, 6, 3, 7>(l, h),
        )
    };
    store(x, ov);
    store(y, pv);
}

/// The zetas of the four butterflies of an 8-coefficient chunk in a layer
/// of distance 2 or 1 whose blocks use `ZETAS[first..]` upwards (forward)
/// or `-ZETAS[..=first]` downwards (inverse).
#[inline(always)]
fn small_zetas(len: usize, first: usize, inverse: bool) -> v128 {
    match (len, inverse) {
        (2, false) => {
            let z = load2(first);
            i32x4_shuffle::<0, 0, 1, 1>(z, z)
        }
        (2, true) => {
            let z = load2(first - 1);
            i32x4_neg(i32x4_shuffle::<1, 1, 0, 0>(z, z))
        }
        (_, false) => load4(first),
        (_, true) => {
            let z = load4(first - 3);
            i32x4_neg(i32x4_shuffle::<3, 2, 1, 0>(z, z))
        }
    }
}

/// Every lane `x`.
#[inline(always)]
fn splat(x: i32) -> v128 {
    i32x4_splat(x)
}

/// Lane-wise wrapping `a + b`, `a - b`, low half of `a b`.
#[inline(always)]
fn add(a: v128, b: v128) -> v128 {
    i32x4_add(a, b)
}

#[inline(always)]
fn sub(a: v128, b: v128) -> v128 {
    i32x4_sub(a, b)
}

#[inline(always)]
fn mullo(a: v128, b: v128) -> v128 {
    i32x4_mul(a, b)
}

i32_engine_drivers!(v128);

impl Ops for crate::backend::Simd128 {
    fn ntt_q8380417(self, a: &mut Poly) {
        ntt(a);
    }

    fn inv_ntt_tomont_q8380417(self, a: &mut Poly) {
        inv_ntt_tomont(a);
    }

    fn pointwise_mont_q8380417(self, a: &Poly, b: &Poly, r: &mut Poly) {
        pointwise(a, b, r);
    }

    fn pointwise_acc_mont_q8380417(self, a: &Poly, b: &Poly, r: &mut Poly) {
        pointwise_acc(a, b, r);
    }
}
