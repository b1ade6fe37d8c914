//! Montgomery arithmetic modulo 31-bit primes (`2^30 < p < 2^31`), the
//! residue number system (RNS) of the FN-DSA key generator's NTRU solver:
//! big integers are reduced modulo many such primes, multiplied there with
//! negacyclic NTTs of any degree up to 1024, and rebuilt by Chinese
//! remaindering.
//!
//! Values are kept in `[0, p)`. Products are Montgomery products with
//! `R = 2^32` ([`Mod31::mmul`]: `a b / R mod p`); "Montgomery form" of `x`
//! is `x R mod p`. Big integers are little-endian 31-bit words (bit 31
//! clear), two's complement over `31 len` bits when signed, and a batch of
//! `n` integers is stored as *word planes*: word `j` of integer `k` at
//! `k + j n`, so that one word of every integer is contiguous.
//!
//! [`Ops::addmul_small_mp31`] is the one kernel here that is not modular:
//! the product of a polynomial of small coefficients by one of big
//! coefficients, on word planes, for the low degrees where the solver
//! multiplies directly.
//!
//! [`div_fx32`] (and its four-lane kernel) is the solver's 32.32
//! fixed-point division.
//!
//! Everything here is constant-time in the values: no branch or index
//! depends on them (lengths and the modulus are public). The kernels of
//! [`Ops`] have a portable and an AVX2 implementation which compute exactly
//! the same outputs (every output is the canonical residue in `[0, p)`).
//!
//! ```
//! use pqkit_common::mp31::{Mod31, Ops, roots};
//! use pqkit_common::{Backend, Kernel, dispatch};
//!
//! // The largest prime below 2^31 that is 1 mod 2048; 3 is a quadratic
//! // non-residue, so 3^((p - 1) / 8) has order exactly 8.
//! let m = Mod31::new(2_147_473_409).unwrap();
//! assert_eq!(m.mul(3, 5), 15);
//!
//! // Multiply x + 1 by x - 1 in Z_p[x]/(x^4 + 1) with NTTs.
//! struct Square<'a>(&'a Mod31);
//! impl Kernel for Square<'_> {
//!     type Output = [u32; 4];
//!     fn run<B: Backend>(self, b: B) -> [u32; 4] {
//!         let m = self.0;
//!         // A primitive 8th root of unity and its inverse (Montgomery form).
//!         let pow = |mut e: u64| {
//!             let (mut r, mut x) = (1u64, 3u64);
//!             while e > 0 {
//!                 if e & 1 == 1 {
//!                     r = r * x % m.p as u64;
//!                 }
//!                 x = x * x % m.p as u64;
//!                 e >>= 1;
//!             }
//!             m.mmul(r as u32, m.r2)
//!         };
//!         let w = pow((m.p as u64 - 1) / 8);
//!         let iw = pow((m.p as u64 - 1) / 8 * 7);
//!         let (mut gm, mut igm) = ([0u32; 4], [0u32; 4]);
//!         roots(m, 2, w, iw, &mut gm, &mut igm);
//!         let mut a = [1, 1, 0, 0];
//!         let mut c = [m.p - 1, 1, 0, 0];
//!         b.ntt_mp31(m, &mut a, &gm);
//!         b.ntt_mp31(m, &mut c, &gm);
//!         b.mul_mp31(m, &mut a, &c);
//!         b.intt_mp31(m, &mut a, &igm);
//!         a
//!     }
//! }
//! // (x + 1)(x - 1) = x^2 - 1.
//! assert_eq!(dispatch(Square(&m)), [m.p - 1, 0, 1, 0]);
//! ```

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
mod neon;
mod portable;
#[cfg(test)]
mod tests;

/// A modulus `p` with `2^30 < p < 2^31`, `p` odd, and its Montgomery
/// constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mod31 {
    /// The modulus.
    pub p: u32,
    /// `-1 / p mod 2^32`.
    pub p0i: u32,
    /// `2^64 mod p` (Montgomery form of `R`): `mmul(x, r2) = x R mod p`.
    pub r2: u32,
}

/// `-1 / x mod 2^32` for odd `x`, by Newton iteration (`x` itself is an
/// inverse mod 8; each step doubles the correct bits).
pub const fn ninv32(x: u32) -> u32 {
    let mut y = x;
    let mut i = 0;
    while i < 4 {
        y = y.wrapping_mul(2u32.wrapping_sub(x.wrapping_mul(y)));
        i += 1;
    }
    y.wrapping_neg()
}

/// All-ones if the top bit of `x` is set, else zero.
#[inline(always)]
pub const fn tbmask(x: u32) -> u32 {
    ((x as i32) >> 31) as u32
}

impl Mod31 {
    /// The constants of `p`; `None` unless `p` is odd and
    /// `2^30 < p < 2^31` (primality is the caller's business).
    pub const fn new(p: u32) -> Option<Self> {
        if p & 1 == 0 || p <= 1 << 30 || p >= 1 << 31 {
            return None;
        }
        let r = (1u64 << 32) % p as u64;
        Some(Mod31 {
            p,
            p0i: ninv32(p),
            r2: (r * r % p as u64) as u32,
        })
    }

    /// Signed `v` (with `|v| < p`) to `[0, p)`.
    #[inline(always)]
    pub fn set(&self, v: i32) -> u32 {
        let w = v as u32;
        w.wrapping_add(self.p & tbmask(w))
    }

    /// Unsigned `v < 2p` to `[0, p)`.
    #[inline(always)]
    pub fn set_u(&self, v: u32) -> u32 {
        let w = v.wrapping_sub(self.p);
        w.wrapping_add(self.p & tbmask(w))
    }

    /// `[0, p)` to the centred representative in `(-p/2, p/2]` (`x > p/2`
    /// maps to `x - p`).
    #[inline(always)]
    pub fn norm(&self, x: u32) -> i32 {
        let c = tbmask(x.wrapping_sub((self.p + 1) >> 1));
        x.wrapping_sub(self.p & !c) as i32
    }

    /// `a + b mod p`.
    #[inline(always)]
    pub fn add(&self, a: u32, b: u32) -> u32 {
        self.set_u(a.wrapping_add(b))
    }

    /// `a - b mod p`.
    #[inline(always)]
    pub fn sub(&self, a: u32, b: u32) -> u32 {
        let d = a.wrapping_sub(b);
        d.wrapping_add(self.p & tbmask(d))
    }

    /// `a / 2 mod p`.
    #[inline(always)]
    pub fn half(&self, a: u32) -> u32 {
        a.wrapping_add(self.p & (a & 1).wrapping_neg()) >> 1
    }

    /// Montgomery product `a b / 2^32 mod p` (`a, b < p`, or one of them
    /// up to `2^32` with the other below `p`).
    #[inline(always)]
    pub fn mmul(&self, a: u32, b: u32) -> u32 {
        let z = a as u64 * b as u64;
        let w = (z as u32).wrapping_mul(self.p0i);
        let d = ((z + w as u64 * self.p as u64) >> 32) as u32;
        self.set_u(d)
    }

    /// Plain product `a b mod p` of plain values (two Montgomery products,
    /// the second by `2^64 mod p`).
    #[inline(always)]
    pub fn mul(&self, a: u32, b: u32) -> u32 {
        self.mmul(self.mmul(a, b), self.r2)
    }

    /// Montgomery form of 1 (`2^32 mod p`).
    #[inline(always)]
    pub fn one_m(&self) -> u32 {
        self.p.wrapping_neg() << 1
    }

    /// `2^(31 e) mod p` (plain form): the weight of word `e` of a big
    /// integer with 31-bit words. `e` is public.
    pub fn pow2_31(&self, mut e: u32) -> u32 {
        // 2^31 in Montgomery form is 2^63 = (2^64 mod p) / 2.
        let mut x = self.half(self.r2);
        let mut d = 1;
        while e > 0 {
            if e & 1 == 1 {
                d = self.mmul(d, x);
            }
            x = self.mmul(x, x);
            e >>= 1;
        }
        d
    }
}

/// The RNS kernels a backend provides (method names carry the `_mp31`
/// suffix: this trait is a supertrait of [`crate::Backend`]).
///
/// Degrees are `n = a.len()`, a power of two up to 1024; root tables are
/// those of [`roots`]-style layout: `gm[rev(i)] = w^i` (Montgomery form)
/// for a primitive `2n`-th root `w`, with at least `n` entries (a table of
/// a larger degree serves, its first `n` entries being the same).
///
/// # Panics
///
/// These are internal building blocks: slices shorter than the stated
/// sizes panic (a caller bug, never an input-dependent condition).
pub trait Ops: Copy {
    /// In-place negacyclic NTT of `a` (values in `[0, p)`), output in
    /// bit-reversed order: slots `2j` and `2j + 1` hold the values at two
    /// opposite roots `w, -w`.
    fn ntt_mp31(self, m: &Mod31, a: &mut [u32], gm: &[u32]) {
        portable::ntt(m, a, gm);
    }
    /// Inverse of [`Ops::ntt_mp31`] including the `1/n` scaling, with
    /// `igm[rev(i)] = w^-i / 2` (Montgomery form).
    fn intt_mp31(self, m: &Mod31, a: &mut [u32], igm: &[u32]) {
        portable::intt(m, a, igm);
    }
    /// Residues modulo `p` of the `n = out.len()` signed integers of `len`
    /// words stored as word planes in `d` (word `j` of integer `k` at
    /// `d[k + j n]`); `rx` is `2^(31 len) mod p`, subtracted for the
    /// negative ones. `len = 0` gives zeros.
    fn residues_mp31(self, m: &Mod31, d: &[u32], len: usize, rx: u32, out: &mut [u32]) {
        portable::residues(m, d, len, rx, out);
    }
    /// One Garner step of Chinese remaindering for `n` integers in word
    /// planes: planes `0..i` of `blk` hold `x mod P` with
    /// `P = prod = p_0 ... p_{i-1}` (`i` words), plane `i` the residues
    /// modulo `p = p_i`; `s` is `1 / P mod p` in Montgomery form. On output
    /// planes `0..=i` hold `x mod P p` in `[0, P p)`. `carry` is scratch of
    /// `n` words.
    fn crt_step_mp31(
        self,
        m: &Mod31,
        s: u32,
        blk: &mut [u32],
        i: usize,
        prod: &[u32],
        carry: &mut [u32],
    ) {
        portable::crt_step(m, s, blk, i, prod, carry);
    }
    /// Small-matrix multiply-accumulate on big integers (not modular):
    /// for the `n` integers `x_d` in the word planes of `x` (`wl` words
    /// each, `wl = ys.len() / n`) and the `n` integers `y_j` in the word
    /// planes of `ys` (unsigned, `wl` words),
    /// `x_d <- x_d + sum_j mt[j n + d] y_j mod 2^(31 wl)`, with the
    /// `i32` coefficients `mt` (`n * n` entries). Used for the products of
    /// a small polynomial by one of big coefficients at low degrees.
    fn addmul_small_mp31(self, x: &mut [u32], n: usize, ys: &[u32], mt: &[i32]) {
        portable::addmul_small(x, n, ys, mt);
    }
    /// `x[i] <- div_fx32(x[i], y[i])` for every `i < x.len()` (32.32
    /// fixed-point division, [`div_fx32`]).
    fn div_fx32_mp31(self, x: &mut [u64], y: &[u64]) {
        for (a, &b) in x.iter_mut().zip(y) {
            *a = div_fx32(*a, b);
        }
    }
    /// The forward 32.32 FFT butterflies of one group sharing the root
    /// `(sr, si)`: with `h = re.len() / 2` (`im` as long), for `j < h`,
    /// `z = fx_cmul(sr, si, re[j + h], im[j + h])`, then `x[j] += z` and
    /// `x[j + h] = x[j] - z` (old `x[j]`), wrapping.
    fn fx_fft_group(self, re: &mut [u64], im: &mut [u64], sr: u64, si: u64) {
        fx_fft_group_from(re, im, 0, sr, si);
    }
    /// The inverse 32.32 FFT butterflies of one group sharing the root
    /// `(sr, si)` (the caller negates `si`): with `h = re.len() / 2`, for
    /// `j < h`, `x[j] = fx_half(x[j] + x[j + h])` and `x[j + h] =
    /// fx_cmul(sr, si, fx_half(x[j] - x[j + h]))` (old values, re and im
    /// alike).
    fn fx_ifft_group(self, re: &mut [u64], im: &mut [u64], sr: u64, si: u64) {
        fx_ifft_group_from(re, im, 0, sr, si);
    }
    /// `a[j] <- fx_cmul(a[j], b[j])` for complex 32.32 values (real and
    /// imaginary parts in separate slices), `j < a_re.len()`.
    fn fx_cmul_mp31(self, a_re: &mut [u64], a_im: &mut [u64], b_re: &[u64], b_im: &[u64]) {
        fx_cmul_from(a_re, a_im, b_re, b_im, 0);
    }
    /// `a[j] <- a[j] b[j] mod p` (plain, not Montgomery, values in
    /// `[0, p)`), for `j < a.len()`.
    fn mul_mp31(self, m: &Mod31, a: &mut [u32], b: &[u32]) {
        for (x, &y) in a.iter_mut().zip(b) {
            *x = m.mul(*x, y);
        }
    }
    /// `acc[j] <- acc[j] + x[j] y[j] / 2^32 mod p` (a Montgomery product
    /// accumulated; values in `[0, p)`), for `j < acc.len()`: with `y` in
    /// Montgomery form this accumulates the plain product.
    fn mul_acc_mont_mp31(self, m: &Mod31, acc: &mut [u32], x: &[u32], y: &[u32]) {
        for ((a, &u), &v) in acc.iter_mut().zip(x).zip(y) {
            *a = m.add(*a, m.mmul(u, v));
        }
    }
    /// Shifted subtraction on word planes (not modular): for the `n`
    /// integers `x_k` (`xlen` words, `x[k + j n]`) and the signed `y_k`
    /// (`ylen` words, sign-extended as needed),
    /// `x_k <- x_k - y_k 2^(31 sch + scl) mod 2^(31 xlen)`, `scl < 31`.
    #[allow(clippy::too_many_arguments)]
    fn sub_shifted_mp31(
        self,
        x: &mut [u32],
        n: usize,
        xlen: usize,
        y: &[u32],
        ylen: usize,
        sch: usize,
        scl: u32,
    ) {
        portable::sub_shifted(x, n, xlen, y, ylen, sch, scl);
    }
    /// Centring after Chinese remaindering: the `n` integers of the word
    /// planes of `x` (`len = m.len()` words each, `x[k + j n]`), all in
    /// `[0, M)` for the odd modulus `M` (`m`, 31-bit words), become
    /// `x - M` (two's complement over `31 len` bits) where `x > M / 2`.
    fn norm_signed_mp31(self, x: &mut [u32], n: usize, m: &[u32]) {
        portable::norm_signed(x, n, m);
    }
    /// The word loop of the extended binary GCD's update of its Bezout
    /// coefficients, for two pairs at once. `w` holds four integers of
    /// `len = w.len() / 4` words interleaved (word `i` of integer `l` at
    /// `w[4 i + l]`), `m` two moduli interleaved (`m[2 i + h]`). Lane `l`
    /// computes `z_l = A f_l + B g_l + M t_l` with `(A, B)` the integers
    /// `2 h, 2 h + 1` and `M` modulus `h` (`h = l / 2`), in 64-bit
    /// wrapping arithmetic word by word, and writes `z_l / 2^31` back:
    /// words `0..len - 1` in place, the top word's carry returned (signed,
    /// for the caller to store and reduce). `|f_l|, |g_l| <= 2^31`,
    /// `t_l < 2^31`.
    fn bezout_step_mp31(
        self,
        w: &mut [u32],
        m: &[u32],
        f: [i64; 4],
        g: [i64; 4],
        t: [u32; 4],
    ) -> [i64; 4] {
        portable::bezout_step(w, m, f, g, t)
    }
}

impl Ops for crate::Portable {}

// The NTTs and products on NEON; the other kernels portable for now.
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
impl Ops for crate::backend::Neon {
    fn ntt_mp31(self, m: &Mod31, a: &mut [u32], gm: &[u32]) {
        if a.len() >= 8 {
            neon::ntt(m, a, gm);
        } else {
            portable::ntt(m, a, gm);
        }
    }
    fn intt_mp31(self, m: &Mod31, a: &mut [u32], igm: &[u32]) {
        if a.len() >= 8 {
            neon::intt(m, a, igm);
        } else {
            portable::intt(m, a, igm);
        }
    }
    fn residues_mp31(self, m: &Mod31, d: &[u32], len: usize, rx: u32, out: &mut [u32]) {
        neon::residues(m, d, len, rx, out);
    }
    fn crt_step_mp31(
        self,
        m: &Mod31,
        s: u32,
        blk: &mut [u32],
        i: usize,
        prod: &[u32],
        carry: &mut [u32],
    ) {
        neon::crt_step(m, s, blk, i, prod, carry);
    }
    fn mul_mp31(self, m: &Mod31, a: &mut [u32], b: &[u32]) {
        neon::mul(m, a, b);
    }
    fn norm_signed_mp31(self, x: &mut [u32], n: usize, m: &[u32]) {
        neon::norm_signed(x, n, m);
    }
    fn sub_shifted_mp31(
        self,
        x: &mut [u32],
        n: usize,
        xlen: usize,
        y: &[u32],
        ylen: usize,
        sch: usize,
        scl: u32,
    ) {
        neon::sub_shifted(x, n, xlen, y, ylen, sch, scl);
    }
    fn mul_acc_mont_mp31(self, m: &Mod31, acc: &mut [u32], x: &[u32], y: &[u32]) {
        neon::mul_acc_mont(m, acc, x, y);
    }
}
#[cfg(all(target_family = "wasm", target_feature = "simd128"))]
impl Ops for crate::backend::Simd128 {}

/// The 32.32 fixed-point product of FN-DSA's key generation (fn-dsa 0.3,
/// ntrugen): `a` and `b` are two's-complement values standing for
/// `x / 2^32`; the product is `floor(a b / 2^32)`, wrapped to 64 bits.
#[inline(always)]
pub fn fx_mul(a: u64, b: u64) -> u64 {
    (((a as i64 as i128) * (b as i64 as i128)) >> 32) as u64
}

/// `a / 2` in 32.32, rounded half up.
#[inline(always)]
pub fn fx_half(a: u64) -> u64 {
    ((a.wrapping_add(1) as i64) >> 1) as u64
}

/// Complex 32.32 product `(ar + i ai)(br + i bi)` with three real
/// products, in this order (the rounding of the imaginary part depends on
/// it).
///
/// ```
/// use pqkit_common::mp31::{fx_cmul, fx_half, fx_mul};
/// let one = 1u64 << 32;
/// let half = one / 2;
/// assert_eq!(fx_mul(3 * one, half), 3 * half); // 3 * 0.5
/// assert_eq!(fx_half(one), half);
/// // (1 + 0.5 i)(0.5 - i) = 1 - 0.75 i
/// let (re, im) = fx_cmul(one, half, half, one.wrapping_neg());
/// assert_eq!((re, im), (one, (3 * one / 4).wrapping_neg()));
/// ```
#[inline(always)]
pub fn fx_cmul(ar: u64, ai: u64, br: u64, bi: u64) -> (u64, u64) {
    let z0 = fx_mul(ar, br);
    let z1 = fx_mul(ai, bi);
    let z2 = fx_mul(ar.wrapping_add(ai), br.wrapping_add(bi));
    (z0.wrapping_sub(z1), z2.wrapping_sub(z0.wrapping_add(z1)))
}

/// [`Ops::fx_fft_group`], one butterfly at a time, from butterfly `from`
/// on (a vector kernel passes how many it did).
#[inline]
fn fx_fft_group_from(re: &mut [u64], im: &mut [u64], from: usize, sr: u64, si: u64) {
    let h = re.len() / 2;
    let (rt, rb) = re.split_at_mut(h);
    let (it, ib) = im[..2 * h].split_at_mut(h);
    let top = rt.iter_mut().zip(it).skip(from);
    for ((xr, xi), (yr, yi)) in top.zip(rb.iter_mut().zip(ib).skip(from)) {
        let (zr, zi) = fx_cmul(sr, si, *yr, *yi);
        (*yr, *yi) = (xr.wrapping_sub(zr), xi.wrapping_sub(zi));
        (*xr, *xi) = (xr.wrapping_add(zr), xi.wrapping_add(zi));
    }
}

/// [`Ops::fx_ifft_group`], one butterfly at a time, from butterfly `from`
/// on.
#[inline]
fn fx_ifft_group_from(re: &mut [u64], im: &mut [u64], from: usize, sr: u64, si: u64) {
    let h = re.len() / 2;
    let (rt, rb) = re.split_at_mut(h);
    let (it, ib) = im[..2 * h].split_at_mut(h);
    let top = rt.iter_mut().zip(it).skip(from);
    for ((xr, xi), (yr, yi)) in top.zip(rb.iter_mut().zip(ib).skip(from)) {
        let (dr, di) = (fx_half(xr.wrapping_sub(*yr)), fx_half(xi.wrapping_sub(*yi)));
        (*xr, *xi) = (fx_half(xr.wrapping_add(*yr)), fx_half(xi.wrapping_add(*yi)));
        (*yr, *yi) = fx_cmul(sr, si, dr, di);
    }
}

/// [`Ops::fx_cmul_mp31`], one product at a time, from index `from` on.
#[inline]
fn fx_cmul_from(a_re: &mut [u64], a_im: &mut [u64], b_re: &[u64], b_im: &[u64], from: usize) {
    let a = a_re.iter_mut().zip(a_im.iter_mut()).skip(from);
    for ((ar, ai), (&br, &bi)) in a.zip(b_re.iter().zip(b_im).skip(from)) {
        (*ar, *ai) = fx_cmul(*ar, *ai, br, bi);
    }
}

/// `round(x / y)` for two's-complement 32.32 fixed-point values (halves
/// away from zero), by a constant-time restoring division (the NTRU
/// solver's Babai reduction and norm check). The numerator is `|x| 2^32`; its top 33 bits are
/// taken as the first partial remainder (the quotient is assumed to fit
/// in 64 bits, as it always does for the values key generation divides;
/// the steps are fixed so that even out-of-range inputs give the same
/// value as the reference design).
pub fn div_fx32(x: u64, y: u64) -> u64 {
    let sx = ((x as i64) >> 63) as u64;
    let sy = ((y as i64) >> 63) as u64;
    let ax = (x ^ sx).wrapping_sub(sx);
    let ay = (y ^ sy).wrapping_sub(sy);
    // `ge(r)`: 1 if r >= ay (signed view of the difference), else 0.
    let ge = |r: u64| ((((r.wrapping_sub(ay)) as i64) >> 63) + 1) as u64;
    let mut q = 0u64;
    let mut r = ax >> 31;
    // Quotient bits 63..33 bring down the 31 low bits of |x|, then bits
    // 32..0 bring down zeros (the 2^32 scaling).
    for bit in (0..64).rev() {
        let b = ge(r);
        q |= b << bit;
        r = r.wrapping_sub(ay & b.wrapping_neg()) << 1;
        if bit >= 33 {
            r |= (ax >> (bit - 33)) & 1;
        }
    }
    // r is now twice the remainder: round up when it reaches y.
    q = q.wrapping_add(ge(r));
    let s = sx ^ sy;
    (q ^ s).wrapping_sub(s)
}

/// Root tables for degree `2^logn` from a primitive `2^(logn+1)`-th root
/// `w` and its inverse `iw` (both Montgomery form): `gm[rev(i)] = w^i` and
/// `igm[rev(i)] = w^-i / 2` (Montgomery form), `rev` the bit reversal over
/// `logn` bits. The halving in `igm` makes [`Ops::intt_mp31`] scale by
/// `1/n` on its own. Either table may be empty (then it is skipped).
pub fn roots(m: &Mod31, logn: u32, w: u32, iw: u32, gm: &mut [u32], igm: &mut [u32]) {
    let n = 1usize << logn;
    let mut x = m.one_m();
    let mut y = m.half(m.one_m());
    for i in 0..n {
        let v = rev(i, logn);
        if let Some(g) = gm.get_mut(v) {
            *g = x;
            x = m.mmul(x, w);
        }
        if let Some(g) = igm.get_mut(v) {
            *g = y;
            y = m.mmul(y, iw);
        }
    }
}

/// Bit reversal of `i` over `logn` bits.
#[inline(always)]
pub fn rev(i: usize, logn: u32) -> usize {
    if logn == 0 {
        0
    } else {
        i.reverse_bits() >> (usize::BITS - logn)
    }
}
