//! Big-integer polynomials for key generation: each coefficient is a
//! signed integer in two's complement over `w` little-endian 32-bit limbs.
//!
//! Key generation is not yet constant-time (see the crate docs): the
//! multiplications below and the binary extended GCD branch on the sizes
//! and signs of secret values.

use alloc::vec;
use alloc::vec::Vec;

/// A polynomial modulo `X^m + 1` with big-integer coefficients.
#[derive(Clone, Debug)]
pub(crate) struct BigPoly {
    pub(crate) m: usize,
    pub(crate) w: usize,
    pub(crate) d: Vec<u32>,
}

impl Drop for BigPoly {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.d);
    }
}

#[inline]
fn is_neg(x: &[u32]) -> bool {
    x.last().is_some_and(|&t| t >> 31 == 1)
}

/// Bit length of `|x|` (of `-x - 1` for negative `x`, one less at exact
/// powers of two; callers add headroom).
fn bits_abs(x: &[u32]) -> u32 {
    let s = if is_neg(x) { u32::MAX } else { 0 };
    for (i, &l) in x.iter().enumerate().rev() {
        let v = l ^ s;
        if v != 0 {
            return 32 * i as u32 + 32 - v.leading_zeros();
        }
    }
    0
}

fn negate(x: &mut [u32]) {
    let mut c = 1u64;
    for l in x.iter_mut() {
        let v = (!*l) as u64 + c;
        *l = v as u32;
        c = v >> 32;
    }
}

/// `acc += x` (x sign-extended to acc's width).
fn add_signed(acc: &mut [u32], x: &[u32]) {
    let ext = if is_neg(x) { u32::MAX } else { 0 };
    let mut c = 0u64;
    for (i, a) in acc.iter_mut().enumerate() {
        let v = *a as u64 + *x.get(i).unwrap_or(&ext) as u64 + c;
        *a = v as u32;
        c = v >> 32;
    }
}

/// `acc -= x` (x sign-extended to acc's width).
fn sub_signed(acc: &mut [u32], x: &[u32]) {
    let ext = if is_neg(x) { u32::MAX } else { 0 };
    let mut b = 0i64;
    for (i, a) in acc.iter_mut().enumerate() {
        let v = *a as i64 - *x.get(i).unwrap_or(&ext) as i64 - b;
        *a = v as u32;
        b = (v >> 63) & 1;
    }
}

/// `acc += mag` or `acc -= mag` for a non-negative magnitude.
fn add_mag(acc: &mut [u32], mag: &[u32], sub: bool) {
    if sub {
        let mut b = 0i64;
        for (i, a) in acc.iter_mut().enumerate() {
            let v = *a as i64 - *mag.get(i).unwrap_or(&0) as i64 - b;
            *a = v as u32;
            b = (v >> 63) & 1;
        }
    } else {
        let mut c = 0u64;
        for (i, a) in acc.iter_mut().enumerate() {
            let v = *a as u64 + *mag.get(i).unwrap_or(&0) as u64 + c;
            *a = v as u32;
            c = v >> 32;
        }
    }
}

fn set_i128(out: &mut [u32], v: i128) {
    let ext = if v < 0 { u32::MAX } else { 0 };
    for (i, l) in out.iter_mut().enumerate() {
        *l = if i < 4 { (v >> (32 * i)) as u32 } else { ext };
    }
}

impl BigPoly {
    pub(crate) fn zero(m: usize, w: usize) -> Self {
        Self {
            m,
            w,
            d: vec![0u32; m * w],
        }
    }

    pub(crate) fn from_i8(v: &[i8]) -> Self {
        let mut p = Self::zero(v.len(), 1);
        for (l, &x) in p.d.iter_mut().zip(v) {
            *l = x as i32 as u32;
        }
        p
    }

    pub(crate) fn from_i64(v: &[i64]) -> Self {
        let mut p = Self::zero(v.len(), 2);
        for (c, &x) in p.d.chunks_mut(2).zip(v) {
            c[0] = x as u32;
            c[1] = (x >> 32) as u32;
        }
        p
    }

    pub(crate) fn coef(&self, i: usize) -> &[u32] {
        &self.d[i * self.w..(i + 1) * self.w]
    }

    fn coef_mut(&mut self, i: usize) -> &mut [u32] {
        &mut self.d[i * self.w..(i + 1) * self.w]
    }

    /// The same values over `w2` limbs (sign-extended or truncated).
    pub(crate) fn resized(&self, w2: usize) -> Self {
        let mut p = Self::zero(self.m, w2);
        for i in 0..self.m {
            let x = self.coef(i);
            let ext = if is_neg(x) { u32::MAX } else { 0 };
            for (j, l) in p.coef_mut(i).iter_mut().enumerate() {
                *l = *x.get(j).unwrap_or(&ext);
            }
        }
        p
    }

    /// Shrink the width to what the largest coefficient needs (+1 limb).
    pub(crate) fn trimmed(&self) -> Self {
        let w = (self.max_bits() as usize / 32) + 2;
        if w < self.w {
            self.resized(w)
        } else {
            self.clone()
        }
    }

    pub(crate) fn max_bits(&self) -> u32 {
        (0..self.m)
            .map(|i| bits_abs(self.coef(i)))
            .max()
            .unwrap_or(0)
    }

    /// `floor(c_i / 2^e)` as an `i64` (the caller ensures it fits).
    pub(crate) fn top_i64(&self, i: usize, e: u32) -> i64 {
        let x = self.coef(i);
        let ext = if is_neg(x) { u32::MAX } else { 0 };
        let li = (e / 32) as usize;
        let sh = e % 32;
        let mut v = 0u128;
        for k in 0..3 {
            v |= (*x.get(li + k).unwrap_or(&ext) as u128) << (32 * k);
        }
        // Sign-extend the 96 bits gathered, then shift.
        let v = ((v << 32) as i128) >> 32;
        (v >> sh) as i64
    }

    /// Values as `i64` when every coefficient has at most 62 bits.
    fn small_values(&self) -> Option<Vec<i64>> {
        if self.max_bits() > 62 {
            return None;
        }
        Some((0..self.m).map(|i| self.top_i64(i, 0)).collect())
    }

    /// Negacyclic product `self * b` (same `m`).
    pub(crate) fn mul(&self, b: &BigPoly) -> BigPoly {
        let m = self.m;
        let logm = usize::BITS - m.leading_zeros();
        let ba = self.max_bits();
        let bb = b.max_bits();
        let out_bits = ba + bb + logm + 2;
        let w = out_bits as usize / 32 + 1;
        let mut out = BigPoly::zero(m, w);
        if out_bits <= 60
            && m >= 32
            && let (Some(x), Some(y)) = (self.small_values(), b.small_values())
        {
            // Large degree, small values: NTTs modulo two 31-bit primes.
            for (k, v) in crate::ntt31::mul(&x, &y).into_iter().enumerate() {
                set_i128(out.coef_mut(k), v);
            }
            return out;
        }
        if out_bits < 126
            && let (Some(x), Some(y)) = (self.small_values(), b.small_values())
        {
            {
                let mut acc = vec![0i128; m];
                for (i, &xi) in x.iter().enumerate() {
                    if xi == 0 {
                        continue;
                    }
                    let xi = xi as i128;
                    for (j, &yj) in y.iter().enumerate() {
                        let p = xi * yj as i128;
                        let k = i + j;
                        if k < m {
                            acc[k] += p;
                        } else {
                            acc[k - m] -= p;
                        }
                    }
                }
                for (k, &v) in acc.iter().enumerate() {
                    set_i128(out.coef_mut(k), v);
                }
                return out;
            }
        }
        // Generic path: sign-magnitude schoolbook.
        let mags = |p: &BigPoly| -> (Vec<bool>, Vec<Vec<u32>>) {
            let mut s = Vec::with_capacity(p.m);
            let mut v = Vec::with_capacity(p.m);
            for i in 0..p.m {
                let mut c = p.coef(i).to_vec();
                let neg = is_neg(&c);
                if neg {
                    negate(&mut c);
                }
                while c.last() == Some(&0) {
                    c.pop();
                }
                s.push(neg);
                v.push(c);
            }
            (s, v)
        };
        let (sa, ma) = mags(self);
        let (sb, mb) = mags(b);
        let mut prod = vec![0u32; w + 1];
        for i in 0..m {
            if ma[i].is_empty() {
                continue;
            }
            for j in 0..m {
                if mb[j].is_empty() {
                    continue;
                }
                let (x, y) = (&ma[i], &mb[j]);
                let len = x.len() + y.len();
                prod[..len].fill(0);
                for (ii, &xi) in x.iter().enumerate() {
                    let mut c = 0u64;
                    for (jj, &yj) in y.iter().enumerate() {
                        let v = prod[ii + jj] as u64 + xi as u64 * yj as u64 + c;
                        prod[ii + jj] = v as u32;
                        c = v >> 32;
                    }
                    prod[ii + y.len()] = c as u32;
                }
                let mut k = i + j;
                let mut neg = sa[i] ^ sb[j];
                if k >= m {
                    k -= m;
                    neg = !neg;
                }
                add_mag(out.coef_mut(k), &prod[..len.min(w)], neg);
            }
        }
        prod.fill(0);
        out
    }

    /// Field norm `N(f)(x^2) = f(x) f(-x)`, a polynomial modulo
    /// `Y^(m/2) + 1`: with `f = fe(x^2) + x fo(x^2)`, `N(f) = fe^2 - Y fo^2`.
    pub(crate) fn field_norm(&self) -> BigPoly {
        let hm = self.m / 2;
        let (fe, fo) = self.even_odd();
        let a = fe.mul(&fe);
        let b = fo.mul(&fo);
        let w = a.w.max(b.w) + 1;
        let mut out = a.resized(w);
        // out -= Y * b
        for i in 0..hm {
            if i == 0 {
                add_signed(out.coef_mut(0), b.coef(hm - 1));
            } else {
                sub_signed(out.coef_mut(i), b.coef(i - 1));
            }
        }
        out
    }

    fn even_odd(&self) -> (BigPoly, BigPoly) {
        let hm = self.m / 2;
        let mut e = BigPoly::zero(hm, self.w);
        let mut o = BigPoly::zero(hm, self.w);
        for i in 0..hm {
            e.coef_mut(i).copy_from_slice(self.coef(2 * i));
            o.coef_mut(i).copy_from_slice(self.coef(2 * i + 1));
        }
        (e, o)
    }

    /// `F'(x^2) * g(-x)` for `self = F'` (m/2 coefficients) and `g`
    /// (m coefficients).
    pub(crate) fn lift(&self, g: &BigPoly) -> BigPoly {
        let (ge, go) = g.even_odd();
        let a = self.mul(&ge);
        let b = self.mul(&go);
        let w = a.w.max(b.w) + 1;
        let mut out = BigPoly::zero(g.m, w);
        let a = a.resized(w);
        let mut b = b.resized(w);
        for i in 0..g.m / 2 {
            out.coef_mut(2 * i).copy_from_slice(a.coef(i));
            negate(b.coef_mut(i));
            out.coef_mut(2 * i + 1).copy_from_slice(b.coef(i));
        }
        out
    }

    /// `self -= p * 2^shift`, widening `self` first if needed.
    pub(crate) fn sub_shifted(&mut self, p: &BigPoly, shift: u32) {
        let need = (p.max_bits() + shift) as usize / 32 + 2;
        if need > self.w {
            *self = self.resized(need);
        }
        let w = self.w;
        let mut t = vec![0u32; w];
        let ls = (shift / 32) as usize;
        let bs = shift % 32;
        for i in 0..self.m {
            let x = p.coef(i);
            let ext = if is_neg(x) { u32::MAX } else { 0 };
            for (j, l) in t.iter_mut().enumerate() {
                // limb j of x << shift
                let src = |k: isize| -> u32 {
                    if k < 0 {
                        0
                    } else {
                        *x.get(k as usize).unwrap_or(&ext)
                    }
                };
                let k = j as isize - ls as isize;
                *l = if bs == 0 {
                    src(k)
                } else {
                    (src(k) << bs) | (src(k - 1) >> (32 - bs))
                };
            }
            sub_signed(self.coef_mut(i), &t);
        }
    }

    /// Multiply every coefficient by a small non-negative constant.
    pub(crate) fn mul_small(&self, c: u32) -> BigPoly {
        let w = self.w + 1;
        let src = self.resized(w);
        let mut out = BigPoly::zero(self.m, w);
        for i in 0..self.m {
            let mut carry = 0u64;
            for (o, &x) in out.coef_mut(i).iter_mut().zip(src.coef(i)) {
                let v = x as u64 * c as u64 + carry;
                *o = v as u32;
                carry = v >> 32;
            }
        }
        out
    }
}

// ---------------------------------------------------------------------------
// Binary extended GCD on non-negative big integers.

fn cmp_ge(a: &[u32], b: &[u32]) -> bool {
    for i in (0..a.len()).rev() {
        if a[i] != b[i] {
            return a[i] > b[i];
        }
    }
    true
}

fn sub_u(a: &mut [u32], b: &[u32]) {
    let mut br = 0i64;
    for (x, &y) in a.iter_mut().zip(b) {
        let v = *x as i64 - y as i64 - br;
        *x = v as u32;
        br = (v >> 63) & 1;
    }
}

fn add_u(a: &mut [u32], b: &[u32]) {
    let mut c = 0u64;
    for (x, &y) in a.iter_mut().zip(b) {
        let v = *x as u64 + y as u64 + c;
        *x = v as u32;
        c = v >> 32;
    }
}

fn half_u(a: &mut [u32]) {
    let mut c = 0u32;
    for x in a.iter_mut().rev() {
        let nc = *x & 1;
        *x = (*x >> 1) | (c << 31);
        c = nc;
    }
}

fn is_odd(a: &[u32]) -> bool {
    a.first().is_some_and(|&x| x & 1 == 1)
}

/// For odd `x, y > 0` (same limb count, with a spare top limb), find
/// `u, v` with `x u - y v = 1`, `0 <= u <= y`, `0 <= v <= x`; `None` if
/// `gcd(x, y) != 1`.
pub(crate) fn bezout(x: &[u32], y: &[u32]) -> Option<(Vec<u32>, Vec<u32>)> {
    let w = x.len();
    if !is_odd(x) || !is_odd(y) {
        return None;
    }
    // Invariants: a = x*u0 - y*v0, b = x*u1 - y*v1, 0 <= u <= y, 0 <= v <= x.
    let mut a = x.to_vec();
    let mut b = y.to_vec();
    let mut u0 = vec![0u32; w];
    u0[0] = 1;
    let mut v0 = vec![0u32; w];
    let mut u1 = y.to_vec();
    let mut v1 = x.to_vec();
    v1[0] -= 1; // x is odd
    let bound = 64 * 32 * w + 64;
    for _ in 0..bound {
        if a == b {
            break;
        }
        if !is_odd(&a) {
            if is_odd(&u0) || is_odd(&v0) {
                add_u(&mut u0, y);
                add_u(&mut v0, x);
            }
            half_u(&mut a);
            half_u(&mut u0);
            half_u(&mut v0);
        } else if !is_odd(&b) {
            if is_odd(&u1) || is_odd(&v1) {
                add_u(&mut u1, y);
                add_u(&mut v1, x);
            }
            half_u(&mut b);
            half_u(&mut u1);
            half_u(&mut v1);
        } else if cmp_ge(&a, &b) {
            sub_u(&mut a, &b);
            if !cmp_ge(&u0, &u1) {
                add_u(&mut u0, y);
                add_u(&mut v0, x);
            }
            sub_u(&mut u0, &u1);
            sub_u(&mut v0, &v1);
        } else {
            sub_u(&mut b, &a);
            if !cmp_ge(&u1, &u0) {
                add_u(&mut u1, y);
                add_u(&mut v1, x);
            }
            sub_u(&mut u1, &u0);
            sub_u(&mut v1, &v0);
        }
    }
    let mut one = vec![0u32; w];
    one[0] = 1;
    if a != one || b != one {
        return None;
    }
    Some((u0, v0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn val(p: &BigPoly, i: usize) -> i128 {
        let x = p.coef(i);
        let mut v = 0i128;
        for k in (0..x.len().min(4)).rev() {
            v = (v << 32) | x[k] as i128;
        }
        if x.len() < 4 && is_neg(x) {
            v -= 1i128 << (32 * x.len());
        }
        v
    }

    #[test]
    fn norm_and_lift_small() {
        let f: Vec<i8> = (0..8).map(|i| (i * 5 % 7) as i8 - 3).collect();
        let p = BigPoly::from_i8(&f);
        let nf = p.field_norm();
        // Reference: f(x) f(-x) by schoolbook mod x^8 + 1; odd coefficients vanish.
        let mut r = [0i128; 8];
        for i in 0..8 {
            for j in 0..8 {
                let s = if j % 2 == 1 { -1 } else { 1 };
                let v = f[i] as i128 * f[j] as i128 * s;
                if i + j < 8 {
                    r[i + j] += v
                } else {
                    r[i + j - 8] -= v
                }
            }
        }
        for i in 0..4 {
            assert_eq!(val(&nf, i), r[2 * i]);
            assert_eq!(r[2 * i + 1], 0);
        }
        let big = BigPoly::from_i64(&[1 << 40, -(3 << 35), 7, -1]);
        let prod = big.mul(&big);
        let x = [1i128 << 40, -(3 << 35), 7, -1];
        for k in 0..4 {
            let mut want = 0i128;
            for i in 0..4 {
                for j in 0..4 {
                    if (i + j) % 4 == k {
                        let s = if i + j >= 4 { -1 } else { 1 };
                        want += s * x[i] * x[j];
                    }
                }
            }
            assert_eq!(val(&prod, k), want);
        }
    }

    #[test]
    fn generic_multiplication_matches_fast_path() {
        // Coefficients above 2^62 force the generic path; compare with a
        // product computed on values scaled down by 2^40.
        let small: Vec<i64> = (0..16).map(|i| ((i * 7919) % 1000) as i64 - 500).collect();
        let a = BigPoly::from_i64(&small);
        let b = BigPoly::from_i64(&small.iter().rev().copied().collect::<Vec<_>>());
        let p = a.mul(&b);
        let mut a_big = a.resized(4);
        for i in 0..16 {
            let t = BigPoly::from_i64(&[small[i]]).resized(4);
            let mut shifted = BigPoly::zero(1, 4);
            shifted.sub_shifted(&t, 80);
            // a_big_i = -small_i * 2^80
            a_big.coef_mut(i).copy_from_slice(shifted.coef(0));
        }
        let q = a_big.mul(&b);
        for i in 0..16 {
            // q_i = -p_i * 2^80
            let mut t = BigPoly::zero(1, q.w);
            let pi = BigPoly::from_i64(&[val(&p, i) as i64]).resized(q.w);
            t.sub_shifted(&pi, 80);
            let w = q.w.max(t.w);
            assert_eq!(q.resized(w).coef(i), t.resized(w).coef(0), "coef {i}");
        }
    }

    #[test]
    fn bezout_small() {
        let (u, v) = bezout(&[35, 0], &[9, 0]).expect("coprime");
        assert_eq!(35 * u[0] as i64 - 9 * v[0] as i64, 1);
        assert!(bezout(&[15, 0], &[9, 0]).is_none());
    }
}
