//! Big-integer polynomials for key generation: each coefficient is a
//! signed integer in two's complement over `w` little-endian 32-bit limbs.
//!
//! Key generation is not yet constant-time (see the crate docs): the
//! polynomial arithmetic below branches on the sizes and signs of secret
//! values. The extended GCD of the deepest level ([`bezout`]) is
//! constant-time already.

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
        self.trimmed_bits().0
    }

    /// [`trimmed`](Self::trimmed), and the bit size of the largest
    /// coefficient ([`max_bits`](Self::max_bits)).
    pub(crate) fn trimmed_bits(&self) -> (Self, u32) {
        let bits = self.max_bits();
        let w = (bits as usize / 32) + 2;
        if w < self.w {
            (self.resized(w), bits)
        } else {
            (self.clone(), bits)
        }
    }

    /// The largest bit length of `|c|` over the coefficients (of `-c - 1`
    /// for negative `c`, one less at exact powers of two; callers add
    /// headroom).
    pub(crate) fn max_bits(&self) -> u32 {
        // The largest bit length is that of the OR of all magnitudes (in
        // the `bits_abs` sense): scan limb rows from the top, so that the
        // rows below the first non-zero one are never read.
        let w = self.w;
        for l in (0..w).rev() {
            let mut acc = 0u32;
            for x in self.d.chunks_exact(w) {
                let s = ((x[w - 1] as i32) >> 31) as u32;
                acc |= x[l] ^ s;
            }
            if acc != 0 {
                return 32 * l as u32 + 32 - acc.leading_zeros();
            }
        }
        0
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

    /// Values as `i64` when every coefficient has at most 62 bits (`bits`
    /// is [`max_bits`](Self::max_bits)).
    fn small_values(&self, bits: u32) -> Option<Vec<i64>> {
        if bits > 62 {
            return None;
        }
        Some((0..self.m).map(|i| self.top_i64(i, 0)).collect())
    }

    /// Negacyclic product `self * b` (same `m`).
    pub(crate) fn mul(&self, b: &BigPoly) -> BigPoly {
        self.mul_known(b, b.max_bits()).0
    }

    /// [`mul`](Self::mul) with `bb = b.max_bits()` already known; also
    /// returns a bound on the bit size of the product's coefficients.
    pub(crate) fn mul_known(&self, b: &BigPoly, bb: u32) -> (BigPoly, u32) {
        let m = self.m;
        let logm = usize::BITS - m.leading_zeros();
        let ba = self.max_bits();
        let out_bits = ba + bb + logm + 2;
        let w = out_bits as usize / 32 + 1;
        let mut out = BigPoly::zero(m, w);
        if out_bits <= 60
            && m >= 32
            && let (Some(x), Some(y)) = (self.small_values(ba), b.small_values(bb))
        {
            // Large degree, small values: NTTs modulo two 31-bit primes.
            for (k, v) in crate::ntt31::mul(&x, &y).into_iter().enumerate() {
                set_i128(out.coef_mut(k), v);
            }
            return (out, out_bits);
        }
        if out_bits < 126
            && let (Some(x), Some(y)) = (self.small_values(ba), b.small_values(bb))
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
                return (out, out_bits);
            }
        }
        if let Some(x) = self.small_values(ba) {
            // Small times big (the Babai step k * f): accumulate each output
            // coefficient limb-wise in i128 (products below 2^94, at most
            // 1024 terms), carries propagated once per coefficient.
            let wb = b.w;
            let mut acc = vec![0i128; wb];
            for t in 0..m {
                acc.fill(0);
                for (i, &xi) in x.iter().enumerate() {
                    // Negacyclic: x_i b_j lands on t = i + j, or on t = i + j - m
                    // with a minus sign.
                    let (j, c) = if i <= t {
                        (t - i, xi as i128)
                    } else {
                        (t + m - i, -(xi as i128))
                    };
                    let bj = b.coef(j);
                    for (a, &l) in acc[..wb - 1].iter_mut().zip(bj) {
                        *a += c * l as i128;
                    }
                    acc[wb - 1] += c * (bj[wb - 1] as i32) as i128;
                }
                let mut carry = 0i128;
                for (l, o) in out.coef_mut(t).iter_mut().enumerate() {
                    let v = carry + acc.get(l).copied().unwrap_or(0);
                    *o = v as u32;
                    carry = v >> 32;
                }
            }
            zeroize::Zeroize::zeroize(&mut acc);
            return (out, out_bits);
        }
        // Generic path: sign-magnitude schoolbook on 64-bit limbs.
        let mags = |p: &BigPoly| -> (Vec<bool>, Vec<Vec<u64>>) {
            let mut s = Vec::with_capacity(p.m);
            let mut v = Vec::with_capacity(p.m);
            for i in 0..p.m {
                let mut c = p.coef(i).to_vec();
                let neg = is_neg(&c);
                if neg {
                    negate(&mut c);
                }
                let mut c64: Vec<u64> = c
                    .chunks(2)
                    .map(|h| h[0] as u64 | (*h.get(1).unwrap_or(&0) as u64) << 32)
                    .collect();
                while c64.last() == Some(&0) {
                    c64.pop();
                }
                zeroize::Zeroize::zeroize(&mut c);
                s.push(neg);
                v.push(c64);
            }
            (s, v)
        };
        let (sa, mut ma) = mags(self);
        let (sb, mut mb) = mags(b);
        let mut prod = vec![0u64; w / 2 + 2];
        let mut prod32 = vec![0u32; w + 4];
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
                    let mut c = 0u128;
                    for (jj, &yj) in y.iter().enumerate() {
                        let v = prod[ii + jj] as u128 + xi as u128 * yj as u128 + c;
                        prod[ii + jj] = v as u64;
                        c = v >> 64;
                    }
                    prod[ii + y.len()] = c as u64;
                }
                for (h, &l) in prod32.chunks_mut(2).zip(&prod[..len]) {
                    h[0] = l as u32;
                    h[1] = (l >> 32) as u32;
                }
                let mut k = i + j;
                let mut neg = sa[i] ^ sb[j];
                if k >= m {
                    k -= m;
                    neg = !neg;
                }
                add_mag(out.coef_mut(k), &prod32[..(2 * len).min(w)], neg);
            }
        }
        zeroize::Zeroize::zeroize(&mut prod);
        zeroize::Zeroize::zeroize(&mut prod32);
        for v in ma.iter_mut().chain(mb.iter_mut()) {
            zeroize::Zeroize::zeroize(v);
        }
        (out, out_bits)
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

    /// `self -= p * 2^shift`, widening `self` first if needed; `pbits`
    /// bounds the bit size of `p`'s coefficients.
    pub(crate) fn sub_shifted_known(&mut self, p: &BigPoly, shift: u32, pbits: u32) {
        let need = (pbits + shift) as usize / 32 + 2;
        if need > self.w {
            *self = self.resized(need);
        }
        let ls = (shift / 32) as usize;
        let bs = shift % 32;
        for i in 0..self.m {
            let x = p.coef(i);
            let ext = if is_neg(x) { u32::MAX } else { 0 };
            // Limb k of x (sign-extended above, zero below).
            let limb = |k: usize| -> u32 {
                if k < ls {
                    0
                } else {
                    *x.get(k - ls).unwrap_or(&ext)
                }
            };
            // self_i -= x << shift, limb by limb in one pass: limb j of the
            // shifted value takes bits from limbs j - ls and j - ls - 1.
            let mut borrow = 0u64;
            let mut prev = 0u32;
            for (j, a) in self.coef_mut(i).iter_mut().enumerate() {
                let cur = limb(j);
                let t = if bs == 0 {
                    cur
                } else {
                    (cur << bs) | (prev >> (32 - bs))
                };
                prev = cur;
                let v = (*a as u64).wrapping_sub(t as u64).wrapping_sub(borrow);
                *a = v as u32;
                borrow = v >> 63;
            }
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
// Extended GCD on non-negative big integers: the optimized binary GCD
// (T. Pornin, "Optimized Binary GCD for Modular Inversion", ePrint
// 2020/972), extended to a full Bezout relation, constant-time.
//
// Each outer round runs 31 binary-GCD steps on 63-bit approximations of
// (a, b) (the top 32 bits at a common position and the low 31 bits),
// collecting the steps as a 2x2 matrix of small signed factors, then
// applies the matrix to the full integers (the results are exact
// multiples of 2^31) and to the Bezout coefficients (modulo y and x, the
// division by 2^31 done by a Montgomery step). Each round shrinks
// len(a) + len(b) by at least 31 bits.

/// All ones if `c`, else zero.
#[inline(always)]
fn mask32(c: u32) -> u32 {
    0u32.wrapping_sub(c & 1)
}

/// `x` if `m` is all ones, `y` if zero.
#[inline(always)]
fn sel32(m: u32, x: u32, y: u32) -> u32 {
    y ^ (m & (x ^ y))
}

/// 63-bit approximations of `a` and `b` (same length): the exact values
/// when `max(a, b) < 2^63`, else `2^31 floor(v / 2^(L - 32)) + (v mod
/// 2^31)` where `L` is the bit length of `max(a, b)`.
fn approx63(a: &[u32], b: &[u32]) -> (u64, u64) {
    // Top non-zero limb of a | b (index t) and the limb below it.
    let (mut ah, mut al, mut bh, mut bl) = (0u32, 0u32, 0u32, 0u32);
    let mut t = 0u32;
    let (mut pa, mut pb) = (0u32, 0u32);
    for (i, (&x, &y)) in a.iter().zip(b).enumerate() {
        let nz = mask32(((x | y) | (x | y).wrapping_neg()) >> 31);
        ah = sel32(nz, x, ah);
        bh = sel32(nz, y, bh);
        al = sel32(nz, pa, al);
        bl = sel32(nz, pb, bl);
        t = sel32(nz, i as u32, t);
        pa = x;
        pb = y;
    }
    // Bits of the top limb: 1..=32 (0 only if a = b = 0).
    let s = 32 - (ah | bh).leading_zeros();
    let len = 32 * t + s;
    // Long values: the 32 bits below the top of max(a, b) (they straddle
    // limbs t and t - 1), above the low 31 bits.
    let hi = |h: u32, l: u32| ((((h as u64) << 32) | l as u64) >> s) as u32 as u64;
    let ax = (hi(ah, al) << 31) | (a[0] & 0x7FFF_FFFF) as u64;
    let bx = (hi(bh, bl) << 31) | (b[0] & 0x7FFF_FFFF) as u64;
    // Short values (len <= 63, so t <= 1): exact.
    let lo = |v: &[u32]| v[0] as u64 | ((*v.get(1).unwrap_or(&0) as u64) << 32);
    let short = 0u64.wrapping_sub(((len as u64).wrapping_sub(64) >> 63) & 1);
    (
        (lo(a) & short) | (ax & !short),
        (lo(b) & short) | (bx & !short),
    )
}

/// `(a, b) <- ((f0 a + g0 b) / 2^31, (f1 a + g1 b) / 2^31)` in place (exact
/// divisions), made non-negative; returns whether each result was
/// negated (all ones) or not (zero).
fn co_lin_div31_abs(a: &mut [u32], b: &mut [u32], f: [i64; 4]) -> (u32, u32) {
    let [f0, g0, f1, g1] = f;
    let (mut ca, mut cb) = (0i128, 0i128);
    let (mut pa, mut pb) = (0u32, 0u32);
    let w = a.len();
    for i in 0..w {
        let (x, y) = (a[i] as i128, b[i] as i128);
        let za = ca + x * f0 as i128 + y * g0 as i128;
        let zb = cb + x * f1 as i128 + y * g1 as i128;
        let (la, lb) = (za as u32, zb as u32);
        ca = za >> 32;
        cb = zb >> 32;
        if i > 0 {
            a[i - 1] = (pa >> 31) | (la << 1);
            b[i - 1] = (pb >> 31) | (lb << 1);
        }
        pa = la;
        pb = lb;
    }
    a[w - 1] = (pa >> 31) | ((ca as u32) << 1);
    b[w - 1] = (pb >> 31) | ((cb as u32) << 1);
    let na = mask32((ca >> 127) as u32);
    let nb = mask32((cb >> 127) as u32);
    cond_negate(a, na);
    cond_negate(b, nb);
    (na, nb)
}

/// Two's complement negation of `x` when `m` is all ones.
fn cond_negate(x: &mut [u32], m: u32) {
    let mut c = (m & 1) as u64;
    for l in x.iter_mut() {
        let v = (*l ^ m) as u64 + c;
        *l = v as u32;
        c = v >> 32;
    }
}

/// `(u, v) <- ((f0 u + g0 v) / 2^31 mod m, (f1 u + g1 v) / 2^31 mod m)` for
/// `0 <= u, v <= m`, odd `m`, `m0i = -1/m mod 2^32`; results in `[0, m)`.
fn co_lin_mod(u: &mut [u32], v: &mut [u32], m: &[u32], m0i: u32, f: [i64; 4]) {
    let [f0, g0, f1, g1] = f;
    // Montgomery factors making the sums multiples of 2^31.
    let lu = (u[0] as i64)
        .wrapping_mul(f0)
        .wrapping_add((v[0] as i64).wrapping_mul(g0)) as u32;
    let lv = (u[0] as i64)
        .wrapping_mul(f1)
        .wrapping_add((v[0] as i64).wrapping_mul(g1)) as u32;
    let ku = (lu.wrapping_mul(m0i) & 0x7FFF_FFFF) as i128;
    let kv = (lv.wrapping_mul(m0i) & 0x7FFF_FFFF) as i128;
    let (mut cu, mut cv) = (0i128, 0i128);
    let (mut pu, mut pv) = (0u32, 0u32);
    let w = u.len();
    for i in 0..w {
        let (x, y, mm) = (u[i] as i128, v[i] as i128, m[i] as i128);
        let zu = cu + x * f0 as i128 + y * g0 as i128 + mm * ku;
        let zv = cv + x * f1 as i128 + y * g1 as i128 + mm * kv;
        let (lu, lv) = (zu as u32, zv as u32);
        cu = zu >> 32;
        cv = zv >> 32;
        if i > 0 {
            u[i - 1] = (pu >> 31) | (lu << 1);
            v[i - 1] = (pv >> 31) | (lv << 1);
        }
        pu = lu;
        pv = lv;
    }
    u[w - 1] = (pu >> 31) | ((cu as u32) << 1);
    v[w - 1] = (pv >> 31) | ((cv as u32) << 1);
    // Results in (-m, 2m): add m if negative, subtract m if >= m.
    for (x, c) in [(u, cu), (v, cv)] {
        let neg = mask32((c >> 127) as u32);
        add_masked(x, m, neg);
        sub_if_ge(x, m);
    }
}

/// `x += m & mask` (mod 2^(32 w)).
fn add_masked(x: &mut [u32], m: &[u32], mask: u32) {
    let mut c = 0u64;
    for (l, &y) in x.iter_mut().zip(m) {
        let v = *l as u64 + (y & mask) as u64 + c;
        *l = v as u32;
        c = v >> 32;
    }
}

/// `x -= m` when `x >= m` (both non-negative, below 2^(32 w - 1)),
/// branch-free.
fn sub_if_ge(x: &mut [u32], m: &[u32]) {
    // Borrow of x - m: set when x < m.
    let mut br = 0u32;
    for (&l, &y) in x.iter().zip(m) {
        let v = (l as u64).wrapping_sub(y as u64).wrapping_sub(br as u64);
        br = (v >> 63) as u32;
    }
    let ge = mask32(br ^ 1);
    let mut b = 0u64;
    for (l, &y) in x.iter_mut().zip(m) {
        let v = (*l as u64).wrapping_sub((y & ge) as u64).wrapping_sub(b);
        *l = v as u32;
        b = v >> 63;
    }
}

/// `(x u - 1) / y` for `x u = 1 mod y` (odd `y`, `y0i = -1/y mod 2^32`),
/// by Hensel division (one quotient limb per step, no branch); the result
/// has `x.len()` limbs (it is below `x` when `u < y`).
fn exact_div_bezout(x: &[u32], u: &[u32], y: &[u32], y0i: u32) -> Vec<u32> {
    let w = x.len();
    // r = x u - 1 (x u >= 1), over 2 w + 1 limbs.
    let mut r = vec![0u32; 2 * w + 1];
    for (i, &xi) in x.iter().enumerate() {
        add_mul_small_at(&mut r[i..], u, xi);
    }
    let mut borrow = 1u64;
    for l in r.iter_mut() {
        let v = (*l as u64).wrapping_sub(borrow);
        *l = v as u32;
        borrow = v >> 63;
    }
    // Quotient limb q_i = r_i / y mod 2^32 = -r_i * y0i; r -= q_i y 2^(32 i).
    let yinv = y0i.wrapping_neg();
    let mut q = vec![0u32; w];
    for i in 0..w {
        let qi = r[i].wrapping_mul(yinv);
        q[i] = qi;
        sub_mul_small_at(&mut r[i..], y, qi);
    }
    zeroize::Zeroize::zeroize(&mut r);
    q
}

/// `r += a * c` (unsigned limbs; `r` has room for the carry).
fn add_mul_small_at(r: &mut [u32], a: &[u32], c: u32) {
    let mut carry = 0u64;
    let (lo, hi) = r.split_at_mut(a.len());
    for (o, &x) in lo.iter_mut().zip(a) {
        let v = *o as u64 + x as u64 * c as u64 + carry;
        *o = v as u32;
        carry = v >> 32;
    }
    for o in hi.iter_mut() {
        let v = *o as u64 + carry;
        *o = v as u32;
        carry = v >> 32;
    }
}

/// `r -= a * c` (unsigned limbs, no underflow overall).
fn sub_mul_small_at(r: &mut [u32], a: &[u32], c: u32) {
    let mut borrow = 0u64;
    let (lo, hi) = r.split_at_mut(a.len().min(r.len()));
    for (o, &x) in lo.iter_mut().zip(a) {
        let p = x as u64 * c as u64 + borrow;
        let v = (*o as u64).wrapping_sub(p & 0xFFFF_FFFF);
        *o = v as u32;
        borrow = (p >> 32) + (v >> 63);
    }
    for o in hi.iter_mut() {
        let v = (*o as u64).wrapping_sub(borrow);
        *o = v as u32;
        borrow = v >> 63;
    }
}

/// `-1/x mod 2^32` for odd `x` (Newton iteration).
fn ninv32(x: u32) -> u32 {
    // x * x = 1 mod 8: 3 correct bits, doubled by each Newton step.
    let mut y = x;
    for _ in 0..4 {
        y = y.wrapping_mul(2u32.wrapping_sub(x.wrapping_mul(y)));
    }
    y.wrapping_neg()
}

/// For odd `x, y > 1` (same limb count, with a spare top limb), find
/// `u, v` with `x u - y v = 1`, `0 <= u < y`, `0 <= v < x`; `None` if
/// `gcd(x, y) != 1`. Constant-time in the values (the run time depends on
/// the limb count only); only the final success flag is a branch.
pub(crate) fn bezout(x: &[u32], y: &[u32]) -> Option<(Vec<u32>, Vec<u32>)> {
    let w = x.len();
    if w == 0 || y.len() != w {
        return None;
    }
    let odd = x[0] & y[0] & 1;
    // Invariants: a = x u0 - y v0, b = x u1 - y v1, 0 <= a <= x,
    // 0 <= b <= y, 0 <= u0 < y, 0 <= u1 <= y, 0 <= v0, v1 < x. Only u0, u1
    // are kept: at the end v1 = (x u1 - 1) / y, an exact division.
    let mut a = x.to_vec();
    let mut b = y.to_vec();
    let mut u0 = vec![0u32; w];
    u0[0] = 1;
    let mut u1 = y.to_vec();
    let y0i = ninv32(y[0] | 1);
    // 64 w bits in total, at least 31 fewer per round.
    for _ in 0..(64 * w).div_ceil(31) + 1 {
        let (mut xa, mut xb) = approx63(&a, &b);
        // Factors packed two per u64 (offset so that they stay positive):
        // fg0 = f0 + 2^32 g0, fg1 = f1 + 2^32 g1.
        let mut fg0 = 1u64;
        let mut fg1 = 1u64 << 32;
        for _ in 0..31 {
            let a_odd = (xa & 1).wrapping_neg();
            let lt = ((xa.wrapping_sub(xb) as i64) >> 63) as u64;
            let swap = a_odd & lt;
            let t = swap & (xa ^ xb);
            xa ^= t;
            xb ^= t;
            let t = swap & (fg0 ^ fg1);
            fg0 ^= t;
            fg1 ^= t;
            xa = xa.wrapping_sub(a_odd & xb);
            fg0 = fg0.wrapping_sub(a_odd & fg1);
            xa >>= 1;
            fg1 <<= 1;
        }
        // Unpack: each factor is in [-(2^31 - 1), 2^31].
        const OFF: u64 = 0x7FFF_FFFF_7FFF_FFFF;
        let (fg0, fg1) = (fg0.wrapping_add(OFF), fg1.wrapping_add(OFF));
        let unpack = |v: u64| {
            (
                (v & 0xFFFF_FFFF) as i64 - 0x7FFF_FFFF,
                (v >> 32) as i64 - 0x7FFF_FFFF,
            )
        };
        let (f0, g0) = unpack(fg0);
        let (f1, g1) = unpack(fg1);
        let (na, nb) = co_lin_div31_abs(&mut a, &mut b, [f0, g0, f1, g1]);
        // Negated results: negate their factors too.
        let flip = |v: i64, m: u32| {
            let m = m as i32 as i64;
            (v ^ m) - m
        };
        let f = [flip(f0, na), flip(g0, na), flip(f1, nb), flip(g1, nb)];
        co_lin_mod(&mut u0, &mut u1, y, y0i, f);
    }
    let mut v1 = exact_div_bezout(x, &u1, y, y0i);
    // b = gcd(x, y) when both are odd; success iff it is 1.
    let mut r = (b[0] ^ 1) | (odd ^ 1);
    for &l in &b[1..] {
        r |= l;
    }
    for t in [&mut a, &mut b, &mut u0] {
        zeroize::Zeroize::zeroize(t);
    }
    // Whether the resultants are coprime is the (public) rejection decision.
    if r == 0 {
        Some((u1, v1))
    } else {
        zeroize::Zeroize::zeroize(&mut u1);
        zeroize::Zeroize::zeroize(&mut v1);
        None
    }
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
            shifted.sub_shifted_known(&t, 80, t.max_bits());
            // a_big_i = -small_i * 2^80
            a_big.coef_mut(i).copy_from_slice(shifted.coef(0));
        }
        let q = a_big.mul(&b);
        for i in 0..16 {
            // q_i = -p_i * 2^80
            let mut t = BigPoly::zero(1, q.w);
            let pi = BigPoly::from_i64(&[val(&p, i) as i64]).resized(q.w);
            t.sub_shifted_known(&pi, 80, pi.max_bits());
            let w = q.w.max(t.w);
            assert_eq!(q.resized(w).coef(i), t.resized(w).coef(0), "coef {i}");
        }
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

    #[test]
    fn small_times_big_matches_the_generic_product() {
        // small * big takes the limb-accumulator path, big * small the
        // sign-magnitude schoolbook: the products must agree.
        let mut s = 0x0F1E_2D3C_4B5A_6978u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for (m, w) in [(1, 3), (2, 7), (4, 2), (16, 5), (32, 3)] {
            let small: Vec<i64> = (0..m).map(|_| (next() as i64) >> 3).collect();
            let small = BigPoly::from_i64(&small);
            let mut big = BigPoly::zero(m, w);
            for l in big.d.iter_mut() {
                *l = next() as u32;
            }
            let a = small.mul(&big);
            let b = big.mul(&small);
            let w2 = a.w.max(b.w);
            assert_eq!(a.resized(w2).d, b.resized(w2).d, "m {m} w {w}");
        }
    }

    #[test]
    fn max_bits_is_the_largest_coefficient_size() {
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        for round in 0..500 {
            let (m, w) = (1 << (round % 6), 1 + round % 9);
            let mut p = BigPoly::zero(m, w);
            for l in p.d.iter_mut() {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                *l = s as u32;
            }
            // Shrink some coefficients (sign-extended) to vary the sizes.
            for i in 0..m {
                let keep = (s as usize >> (i % 13)) % (w + 1);
                let c = p.coef_mut(i);
                let ext = if c[keep.saturating_sub(1)] >> 31 == 1 {
                    u32::MAX
                } else {
                    0
                };
                for l in c.iter_mut().skip(keep) {
                    *l = ext;
                }
            }
            let want = (0..m).map(|i| bits_abs(p.coef(i))).max().unwrap_or(0);
            assert_eq!(p.max_bits(), want, "round {round}");
        }
    }

    #[test]
    fn bezout_small() {
        let (u, v) = bezout(&[35, 0], &[9, 0]).expect("coprime");
        assert_eq!(35 * u[0] as i64 - 9 * v[0] as i64, 1);
        assert!(bezout(&[15, 0], &[9, 0]).is_none());
        assert!(bezout(&[14, 0], &[9, 0]).is_none(), "even input");
    }

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

    /// Plain binary GCD (variable time), as a reference: is it 1?
    fn gcd_is_one(x: &[u32], y: &[u32]) -> bool {
        let (mut a, mut b) = (x.to_vec(), y.to_vec());
        let zero = |v: &[u32]| v.iter().all(|&l| l == 0);
        let half = |v: &mut [u32]| {
            let mut c = 0u32;
            for l in v.iter_mut().rev() {
                let nc = *l & 1;
                *l = (*l >> 1) | (c << 31);
                c = nc;
            }
        };
        // Both odd here.
        while !zero(&a) {
            while a[0] & 1 == 0 {
                half(&mut a);
            }
            if !cmp_ge(&a, &b) {
                core::mem::swap(&mut a, &mut b);
            }
            sub_u(&mut a, &b);
        }
        b[0] == 1 && b[1..].iter().all(|&l| l == 0)
    }

    /// `x u - y v` as a big integer, compared with 1; and the bounds.
    fn check_bezout(x: &[u32], y: &[u32], u: &[u32], v: &[u32]) {
        let w = x.len();
        let mut acc = vec![0u32; 2 * w + 1];
        let mut sub = vec![0u32; 2 * w + 1];
        for (out, (p, q)) in [(&mut acc, (x, u)), (&mut sub, (y, v))] {
            for i in 0..w {
                let mut c = 0u64;
                for j in 0..w {
                    let t = out[i + j] as u64 + p[i] as u64 * q[j] as u64 + c;
                    out[i + j] = t as u32;
                    c = t >> 32;
                }
                let mut k = i + w;
                while c != 0 {
                    let t = out[k] as u64 + c;
                    out[k] = t as u32;
                    c = t >> 32;
                    k += 1;
                }
            }
        }
        sub_u(&mut acc, &sub);
        let mut one = vec![0u32; 2 * w + 1];
        one[0] = 1;
        assert_eq!(acc, one, "x u - y v = 1");
        assert!(cmp_ge(y, u), "u <= y");
        assert!(!cmp_ge(v, x), "v < x");
    }

    #[test]
    fn bezout_random_against_the_relation() {
        let mut s = 0x0123_4567_89AB_CDEFu64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let mut coprime = 0;
        for round in 0..300 {
            let w = 2 + round % 12;
            let mut x: Vec<u32> = (0..w).map(|_| next() as u32).collect();
            let mut y: Vec<u32> = (0..w).map(|_| next() as u32).collect();
            // Odd, with a spare top limb; various sizes, some tiny.
            x[0] |= 1;
            y[0] |= 1;
            x[w - 1] = 0;
            y[w - 1] >>= 1 + (round as u32 % 31);
            if round % 7 == 0 {
                y.iter_mut().skip(1).for_each(|l| *l = 0);
                y[0] |= 3; // odd and above 1
            }
            match bezout(&x, &y) {
                Some((u, v)) => {
                    check_bezout(&x, &y, &u, &v);
                    coprime += 1;
                }
                None => assert!(!gcd_is_one(&x, &y), "refused a coprime pair"),
            }
        }
        assert!(coprime > 150, "{coprime} coprime pairs solved");
        // A shared factor is always refused.
        for k in [3u32, 5, 7, 12289] {
            let mut x: Vec<u32> = (0..6).map(|_| next() as u32 | 1).collect();
            x[5] = 0;
            let mut y = x.clone();
            // x * k and y * k + ... : make both multiples of k.
            let mulk = |v: &mut Vec<u32>| {
                let mut c = 0u64;
                for l in v.iter_mut() {
                    let t = *l as u64 * k as u64 + c;
                    *l = t as u32;
                    c = t >> 32;
                }
            };
            y[0] = y[0].wrapping_add(2);
            mulk(&mut x);
            mulk(&mut y);
            assert!(bezout(&x, &y).is_none(), "common factor {k}");
        }
    }
}
