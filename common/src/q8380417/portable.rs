//! Portable kernels for q = 8380417: the executable specification.

use super::{D, Eta, Gamma2, INV_NTT_F, N, Poly, Q, ZETAS, caddq, montgomery_reduce, reduce32};

/// FIPS 204 Alg. 41 (with Montgomery twiddles).
pub(super) fn ntt(a: &mut Poly) {
    let a = &mut a.coeffs;
    let mut k = 0usize;
    let mut len = 128;
    while len > 0 {
        let mut start = 0;
        while start < N {
            k += 1;
            let zeta = ZETAS[k] as i64;
            for j in start..start + len {
                let t = montgomery_reduce(zeta * a[j + len] as i64);
                a[j + len] = a[j] - t;
                a[j] += t;
            }
            start += 2 * len;
        }
        len >>= 1;
    }
}

/// FIPS 204 Alg. 42, then multiplication by `2^32` (folded into the final
/// factor `INV_NTT_F = 2^64 / 256 mod q`).
pub(super) fn inv_ntt_tomont(a: &mut Poly) {
    let a = &mut a.coeffs;
    let mut k = N;
    let mut len = 1;
    while len < N {
        let mut start = 0;
        while start < N {
            k -= 1;
            let zeta = -(ZETAS[k] as i64);
            for j in start..start + len {
                let t = a[j];
                a[j] = t + a[j + len];
                a[j + len] = montgomery_reduce(zeta * (t - a[j + len]) as i64);
            }
            start += 2 * len;
        }
        len <<= 1;
    }
    for x in a.iter_mut() {
        *x = montgomery_reduce(INV_NTT_F as i64 * *x as i64);
    }
}

pub(super) fn pointwise_mont(a: &Poly, b: &Poly, r: &mut Poly) {
    for ((r, &x), &y) in r.coeffs.iter_mut().zip(&a.coeffs).zip(&b.coeffs) {
        *r = montgomery_reduce(x as i64 * y as i64);
    }
}

pub(super) fn pointwise_acc_mont(a: &Poly, b: &Poly, r: &mut Poly) {
    for ((r, &x), &y) in r.coeffs.iter_mut().zip(&a.coeffs).zip(&b.coeffs) {
        *r += montgomery_reduce(x as i64 * y as i64);
    }
}

pub(super) fn add(a: &mut Poly, b: &Poly) {
    for (x, &y) in a.coeffs.iter_mut().zip(&b.coeffs) {
        *x += y;
    }
}

pub(super) fn sub(a: &mut Poly, b: &Poly) {
    for (x, &y) in a.coeffs.iter_mut().zip(&b.coeffs) {
        *x -= y;
    }
}

pub(super) fn reduce(a: &mut Poly) {
    for x in a.coeffs.iter_mut() {
        *x = reduce32(*x);
    }
}

pub(super) fn caddq_all(a: &mut Poly) {
    for x in a.coeffs.iter_mut() {
        *x = caddq(*x);
    }
}

pub(super) fn shift_left_d(a: &mut Poly) {
    for x in a.coeffs.iter_mut() {
        *x <<= D;
    }
}

/// FIPS 204 Alg. 35 on one standard representative: `(r1, r0)`.
#[inline(always)]
pub const fn power2round(a: i32) -> (i32, i32) {
    let a1 = (a + (1 << (D - 1)) - 1) >> D;
    (a1, a - (a1 << D))
}

/// FIPS 204 Alg. 36 on one standard representative: `(r1, r0)`.
///
/// `r1 = round(a / (2 gamma2))` is computed as `ceil(a / 128)` followed by a
/// multiply-shift by a fixed-point reciprocal (exact for every `a < q`;
/// checked exhaustively by the field-operation test), never a division.
#[inline(always)]
pub const fn decompose(gamma2: Gamma2, a: i32) -> (i32, i32) {
    let mut a1 = (a + 127) >> 7;
    match gamma2 {
        Gamma2::Q32 => {
            // 1025 / 2^22 ~ 1 / 4092 = 128 / (2 gamma2).
            a1 = (a1 * 1025 + (1 << 21)) >> 22;
            a1 &= 15;
        }
        Gamma2::Q88 => {
            // 11275 / 2^24 ~ 1 / 1488 = 128 / (2 gamma2).
            a1 = (a1 * 11275 + (1 << 23)) >> 24;
            // a1 = 44 (the wrap-around case) becomes 0.
            a1 ^= ((43 - a1) >> 31) & a1;
        }
    }
    let mut a0 = a - a1 * 2 * gamma2.value();
    // Centre: a0 > (q - 1) / 2 means the wrap-around case, subtract q.
    a0 -= (((Q - 1) / 2 - a0) >> 31) & Q;
    (a1, a0)
}

/// MakeHint (reference form, see [`super::Ops::make_hint_q8380417`]): 0 or 1.
#[inline(always)]
pub const fn make_hint(gamma2: Gamma2, a0: i32, a1: i32) -> i32 {
    let g = gamma2.value();
    // a0 > g  or  a0 < -g  or  (a0 == -g and a1 != 0), branch-free.
    let gt = ((g - a0) >> 31) & 1;
    let lt = ((a0 + g) >> 31) & 1;
    let eq = ((((a0 + g) | -(a0 + g)) >> 31) + 1) & 1; // 1 iff a0 == -g
    let nz = (((a1 | -a1) >> 31) & 1) & 1; // 1 iff a1 != 0
    gt | lt | (eq & nz)
}

/// FIPS 204 Alg. 40 UseHint on one standard representative `a`, hint `h`
/// in {0, 1}.
#[inline(always)]
pub const fn use_hint(gamma2: Gamma2, a: i32, h: i32) -> i32 {
    let (a1, a0) = decompose(gamma2, a);
    let m = gamma2.max_high();
    // delta = +1 if a0 > 0, else -1; applied only when h = 1.
    let pos = ((-a0) >> 31) & 1; // 1 iff a0 > 0
    let delta = (2 * pos - 1) * (h & 1);
    let r = a1 + delta;
    // Wrap into 0..=m.
    match gamma2 {
        Gamma2::Q32 => r & 15,
        Gamma2::Q88 => {
            let r = r + ((r >> 31) & (m + 1)); // -1 -> 43
            r - ((((m - r) >> 31) & 1) * (m + 1)) // 44 -> 0
        }
    }
}

pub(super) fn power2round_poly(a: &Poly, a1: &mut Poly, a0: &mut Poly) {
    for ((&x, h), l) in a
        .coeffs
        .iter()
        .zip(a1.coeffs.iter_mut())
        .zip(a0.coeffs.iter_mut())
    {
        (*h, *l) = power2round(x);
    }
}

pub(super) fn decompose_poly(gamma2: Gamma2, a: &Poly, a1: &mut Poly, a0: &mut Poly) {
    for ((&x, h), l) in a
        .coeffs
        .iter()
        .zip(a1.coeffs.iter_mut())
        .zip(a0.coeffs.iter_mut())
    {
        (*h, *l) = decompose(gamma2, x);
    }
}

pub(super) fn make_hint_poly(gamma2: Gamma2, a0: &Poly, a1: &Poly, h: &mut Poly) -> u32 {
    let mut n = 0u32;
    for ((&x, &y), o) in a0.coeffs.iter().zip(&a1.coeffs).zip(h.coeffs.iter_mut()) {
        *o = make_hint(gamma2, x, y);
        n += *o as u32;
    }
    n
}

pub(super) fn use_hint_poly(gamma2: Gamma2, a: &Poly, h: &Poly, out: &mut Poly) {
    for ((&x, &y), o) in a.coeffs.iter().zip(&h.coeffs).zip(out.coeffs.iter_mut()) {
        *o = use_hint(gamma2, x, y);
    }
}

pub(super) fn exceeds_norm(a: &Poly, bound: i32) -> bool {
    let mut acc = 0i32;
    for &x in a.coeffs.iter() {
        // |x| without a branch, then (bound - 1 - |x|) < 0 iff |x| >= bound.
        let m = x >> 31;
        let abs = x - (m & (2 * x));
        acc |= (bound - 1) - abs;
    }
    acc < 0
}

pub(super) fn rej_uniform(a: &mut Poly, mut filled: usize, buf: &[u8; 168]) -> usize {
    for c in buf.chunks_exact(3) {
        if filled >= N {
            break;
        }
        let t = (c[0] as i32) | ((c[1] as i32) << 8) | (((c[2] & 0x7f) as i32) << 16);
        if t < Q {
            a.coeffs[filled] = t;
            filled += 1;
        }
    }
    filled
}

/// Which nibbles are rejected is declassified: FIPS 204 rejection sampling
/// only reveals the rejected values (>= 15 or >= 9), which are independent
/// of the accepted coefficients.
pub(super) fn rej_eta(eta: Eta, a: &mut Poly, mut filled: usize, buf: &[u8; 136]) -> usize {
    use crate::ct::declassify;
    for &b in buf.iter() {
        for t in [(b & 0x0f) as i32, (b >> 4) as i32] {
            if filled >= N {
                return filled;
            }
            match eta {
                Eta::Two => {
                    if declassify(t < 15) {
                        // t mod 5 by multiply-shift: 205 / 1024 ~ 1/5.
                        let r = t - ((205 * t) >> 10) * 5;
                        a.coeffs[filled] = 2 - r;
                        filled += 1;
                    }
                }
                Eta::Four => {
                    if declassify(t < 9) {
                        a.coeffs[filled] = 4 - t;
                        filled += 1;
                    }
                }
            }
        }
    }
    filled
}
