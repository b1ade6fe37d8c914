//! AVX2 RNS kernels: eight `u32` lanes per register. Montgomery products
//! split the lanes into even and odd halves for the 32x32 -> 64-bit
//! multiplier; conditional subtractions of `p` are unsigned minima (`d`
//! versus `d - p` wrapped), so nothing branches on the values.
//!
//! This file holds the vector helpers, the NTTs and the plain products;
//! `words` the kernels on big integers in word planes (residues, CRT,
//! small-matrix products, fixed-point division, the GCD's Bezout step,
//! centring, shifted subtraction).
//!
//! Every kernel computes exactly what its portable twin computes (the
//! tests compare them on random inputs at every degree). Sizes the vector
//! code does not cover (NTTs below 16 points, batches that are not a
//! multiple of 8 integers) run the portable kernels.

use super::Ops;
use core::arch::x86_64::*;

use super::{Mod31, div_fx32 as div_scalar, portable};
use crate::avx2_i16::odd32;

type V = __m256i;

mod words;
use words::*;

#[inline]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
fn load(a: &[u32; 8]) -> V {
    // SAFETY: `a` is a valid, readable 32-byte array; unaligned load.
    unsafe { _mm256_loadu_si256(a.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
fn store(a: &mut [u32; 8], x: V) {
    // SAFETY: `a` is a valid, writable 32-byte array; unaligned store.
    unsafe { _mm256_storeu_si256(a.as_mut_ptr().cast(), x) }
}

#[inline]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
fn load_u64(a: &[u64; 4]) -> V {
    // SAFETY: `a` is a valid, readable 32-byte array; unaligned load.
    unsafe { _mm256_loadu_si256(a.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
fn store_u64(a: &mut [u64; 4], x: V) {
    // SAFETY: `a` is a valid, writable 32-byte array; unaligned store.
    unsafe { _mm256_storeu_si256(a.as_mut_ptr().cast(), x) }
}

#[inline]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
fn load4(a: &[u32; 4]) -> __m128i {
    // SAFETY: `a` is a valid, readable 16-byte array; unaligned load.
    unsafe { _mm_loadu_si128(a.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
fn store4(a: &mut [u32; 4], x: __m128i) {
    // SAFETY: `a` is a valid, writable 16-byte array; unaligned store.
    unsafe { _mm_storeu_si128(a.as_mut_ptr().cast(), x) }
}

/// The eight words at `d[at..at + 8]`.
#[inline(always)]
fn lanes(d: &[u32], at: usize) -> &[u32; 8] {
    &d[at..].as_chunks::<8>().0[0]
}

/// The eight words at `d[at..at + 8]`, writable.
#[inline(always)]
fn lanes_mut(d: &mut [u32], at: usize) -> &mut [u32; 8] {
    &mut d[at..].as_chunks_mut::<8>().0[0]
}

/// The broadcast modulus and Montgomery constant.
#[derive(Clone, Copy)]
struct C {
    p: V,
    p0i: V,
}

#[target_feature(enable = "avx2")]
#[inline]
fn consts(m: &Mod31) -> C {
    C {
        p: _mm256_set1_epi32(m.p as i32),
        p0i: _mm256_set1_epi32(m.p0i as i32),
    }
}

/// Lane-wise `min(d, d - p)`: `d mod p` for `d < 2p`.
#[target_feature(enable = "avx2")]
#[inline]
fn reduce_once(c: &C, d: V) -> V {
    _mm256_min_epu32(d, _mm256_sub_epi32(d, c.p))
}

#[target_feature(enable = "avx2")]
#[inline]
fn add(c: &C, a: V, b: V) -> V {
    reduce_once(c, _mm256_add_epi32(a, b))
}

#[target_feature(enable = "avx2")]
#[inline]
fn sub(c: &C, a: V, b: V) -> V {
    let d = _mm256_sub_epi32(a, b);
    _mm256_min_epu32(d, _mm256_add_epi32(d, c.p))
}

#[target_feature(enable = "avx2")]
#[inline]
fn half(c: &C, a: V) -> V {
    let odd = _mm256_sub_epi32(
        _mm256_setzero_si256(),
        _mm256_and_si256(a, _mm256_set1_epi32(1)),
    );
    _mm256_srli_epi32::<1>(_mm256_add_epi32(a, _mm256_and_si256(c.p, odd)))
}

/// Montgomery product `a b / 2^32 mod p`, lane-wise.
#[target_feature(enable = "avx2")]
#[inline]
fn mmul(c: &C, a: V, b: V) -> V {
    let ze = _mm256_mul_epu32(a, b);
    let zo = _mm256_mul_epu32(odd32(a), odd32(b));
    let we = _mm256_mul_epu32(ze, c.p0i);
    let wo = _mm256_mul_epu32(zo, c.p0i);
    let te = _mm256_add_epi64(ze, _mm256_mul_epu32(we, c.p));
    let to = _mm256_add_epi64(zo, _mm256_mul_epu32(wo, c.p));
    let d = _mm256_blend_epi32::<0xAA>(odd32(te), to);
    reduce_once(c, d)
}

/// One butterfly: forward (Cooley-Tukey) `(x + y s, x - y s)` or inverse
/// (Gentleman-Sande) `((x + y) / 2, (x - y) s)`.
#[target_feature(enable = "avx2")]
#[inline]
fn butterfly<const INV: bool>(c: &C, x: V, y: V, s: V) -> (V, V) {
    if INV {
        (half(c, add(c, x, y)), mmul(c, sub(c, x, y), s))
    } else {
        let v = mmul(c, y, s);
        (add(c, x, v), sub(c, x, v))
    }
}

/// A layer whose half-blocks span whole registers (`ht >= 8`): blocks of
/// `2 ht` values, root `roots[i]` for block `i`.
#[target_feature(enable = "avx2")]
#[inline]
fn wide_layer<const INV: bool>(c: &C, v: &mut [[u32; 8]], ht: usize, roots: &[u32]) {
    let hv = ht / 8;
    for (blk, &r) in v.chunks_exact_mut(2 * hv).zip(roots) {
        let s = _mm256_set1_epi32(r as i32);
        let (lo, hi) = blk.split_at_mut(hv);
        for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
            let (x, y) = butterfly::<INV>(c, load(a), load(b), s);
            store(a, x);
            store(b, y);
        }
    }
}

/// The three in-register layers (`ht` = 4, 2, 1) on register pairs:
/// the two halves of each butterfly are gathered into two registers,
/// processed, and scattered back. `roots` holds the roots of the blocks
/// the pairs cover, in order (`16 / (2 ht)` per pair).
#[target_feature(enable = "avx2")]
#[inline]
fn narrow_layer<const INV: bool>(c: &C, v: &mut [[u32; 8]], ht: usize, roots: &[u32]) {
    let per = 8 / ht;
    for (pair, r) in v.chunks_exact_mut(2).zip(roots.chunks_exact(per)) {
        let (x, y) = (load(&pair[0]), load(&pair[1]));
        let (x, y) = match ht {
            4 => {
                let s = _mm256_setr_epi32(
                    r[0] as i32,
                    r[0] as i32,
                    r[0] as i32,
                    r[0] as i32,
                    r[1] as i32,
                    r[1] as i32,
                    r[1] as i32,
                    r[1] as i32,
                );
                let lo = _mm256_permute2x128_si256::<0x20>(x, y);
                let hi = _mm256_permute2x128_si256::<0x31>(x, y);
                let (lo, hi) = butterfly::<INV>(c, lo, hi, s);
                (
                    _mm256_permute2x128_si256::<0x20>(lo, hi),
                    _mm256_permute2x128_si256::<0x31>(lo, hi),
                )
            }
            2 => {
                let s = _mm256_setr_epi32(
                    r[0] as i32,
                    r[0] as i32,
                    r[2] as i32,
                    r[2] as i32,
                    r[1] as i32,
                    r[1] as i32,
                    r[3] as i32,
                    r[3] as i32,
                );
                let lo = _mm256_unpacklo_epi64(x, y);
                let hi = _mm256_unpackhi_epi64(x, y);
                let (lo, hi) = butterfly::<INV>(c, lo, hi, s);
                (_mm256_unpacklo_epi64(lo, hi), _mm256_unpackhi_epi64(lo, hi))
            }
            _ => {
                let s = _mm256_setr_epi32(
                    r[0] as i32,
                    r[1] as i32,
                    r[4] as i32,
                    r[5] as i32,
                    r[2] as i32,
                    r[3] as i32,
                    r[6] as i32,
                    r[7] as i32,
                );
                // Lanes (0, 2, 1, 3) of each half: the pairs' first
                // elements in the low 64 bits, the second in the high.
                let xs = _mm256_shuffle_epi32::<0xD8>(x);
                let ys = _mm256_shuffle_epi32::<0xD8>(y);
                let lo = _mm256_unpacklo_epi64(xs, ys);
                let hi = _mm256_unpackhi_epi64(xs, ys);
                let (lo, hi) = butterfly::<INV>(c, lo, hi, s);
                (
                    _mm256_shuffle_epi32::<0xD8>(_mm256_unpacklo_epi64(lo, hi)),
                    _mm256_shuffle_epi32::<0xD8>(_mm256_unpackhi_epi64(lo, hi)),
                )
            }
        };
        store(&mut pair[0], x);
        store(&mut pair[1], y);
    }
}

#[target_feature(enable = "avx2")]
pub(super) fn ntt(m: &Mod31, a: &mut [u32], gm: &[u32]) {
    let n = a.len();
    if n < 16 {
        portable::ntt(m, a, gm);
        return;
    }
    let c = consts(m);
    let (v, _) = a.as_chunks_mut::<8>();
    let mut k = 1;
    let mut ht = n / 2;
    while ht >= 8 {
        wide_layer::<false>(&c, v, ht, &gm[k..2 * k]);
        k <<= 1;
        ht >>= 1;
    }
    while ht >= 1 {
        narrow_layer::<false>(&c, v, ht, &gm[k..2 * k]);
        k <<= 1;
        ht >>= 1;
    }
}

#[target_feature(enable = "avx2")]
pub(super) fn intt(m: &Mod31, a: &mut [u32], igm: &[u32]) {
    let n = a.len();
    if n < 16 {
        portable::intt(m, a, igm);
        return;
    }
    let c = consts(m);
    let (v, _) = a.as_chunks_mut::<8>();
    let mut k = n / 2;
    let mut ht = 1;
    while ht < 8 {
        narrow_layer::<true>(&c, v, ht, &igm[k..2 * k]);
        k >>= 1;
        ht <<= 1;
    }
    while k >= 1 {
        wide_layer::<true>(&c, v, ht, &igm[k..2 * k]);
        k >>= 1;
        ht <<= 1;
    }
}

#[target_feature(enable = "avx2")]
pub(super) fn mul(m: &Mod31, a: &mut [u32], b: &[u32]) {
    let b = &b[..a.len()];
    let c = consts(m);
    let r2 = _mm256_set1_epi32(m.r2 as i32);
    let (ac, ar) = a.as_chunks_mut::<8>();
    let (bc, br) = b.as_chunks::<8>();
    for (x, y) in ac.iter_mut().zip(bc) {
        store(x, mmul(&c, mmul(&c, load(x), load(y)), r2));
    }
    for (x, &y) in ar.iter_mut().zip(br) {
        *x = m.mul(*x, y);
    }
}

#[target_feature(enable = "avx2")]
pub(super) fn mul_acc_mont(m: &Mod31, acc: &mut [u32], x: &[u32], y: &[u32]) {
    let n = acc.len().min(x.len()).min(y.len());
    let c = consts(m);
    let (ac, ar) = acc[..n].as_chunks_mut::<8>();
    let (xc, xr) = x[..n].as_chunks::<8>();
    let (yc, yr) = y[..n].as_chunks::<8>();
    for ((a, u), v) in ac.iter_mut().zip(xc).zip(yc) {
        store(a, add(&c, load(a), mmul(&c, load(u), load(v))));
    }
    for ((a, &u), &v) in ar.iter_mut().zip(xr).zip(yr) {
        *a = m.add(*a, m.mmul(u, v));
    }
}

impl Ops for crate::backend::Avx2 {
    fn mul_acc_mont_mp31(self, m: &Mod31, acc: &mut [u32], x: &[u32], y: &[u32]) {
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            mul_acc_mont(m, acc, x, y)
        }
    }
    fn ntt_mp31(self, m: &Mod31, a: &mut [u32], gm: &[u32]) {
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            ntt(m, a, gm)
        }
    }
    fn intt_mp31(self, m: &Mod31, a: &mut [u32], igm: &[u32]) {
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            intt(m, a, igm)
        }
    }
    fn residues_mp31(self, m: &Mod31, d: &[u32], len: usize, rx: u32, out: &mut [u32]) {
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            residues(m, d, len, rx, out)
        }
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
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            crt_step(m, s, blk, i, prod, carry)
        }
    }
    fn addmul_small_mp31(self, x: &mut [u32], n: usize, ys: &[u32], mt: &[i32]) {
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            addmul_small(x, n, ys, mt)
        }
    }
    fn fx_fft_group(self, re: &mut [u64], im: &mut [u64], sr: u64, si: u64) {
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        let done = unsafe { fx_fft_group4(re, im, sr, si) };
        super::fx_fft_group_from(re, im, done, sr, si);
    }
    fn fx_ifft_group(self, re: &mut [u64], im: &mut [u64], sr: u64, si: u64) {
        // SAFETY: as above.
        #[allow(unsafe_code)]
        let done = unsafe { fx_ifft_group4(re, im, sr, si) };
        super::fx_ifft_group_from(re, im, done, sr, si);
    }
    fn fx_cmul_mp31(self, a_re: &mut [u64], a_im: &mut [u64], b_re: &[u64], b_im: &[u64]) {
        // SAFETY: as above.
        #[allow(unsafe_code)]
        let done = unsafe { fx_cmul_pointwise(a_re, a_im, b_re, b_im) };
        super::fx_cmul_from(a_re, a_im, b_re, b_im, done);
    }
    fn div_fx32_mp31(self, x: &mut [u64], y: &[u64]) {
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            div_fx32(x, y)
        }
    }
    fn bezout_step_mp31(
        self,
        w: &mut [u32],
        m: &[u32],
        f: [i64; 4],
        g: [i64; 4],
        t: [u32; 4],
    ) -> [i64; 4] {
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            bezout_step(w, m, f, g, t)
        }
    }
    fn norm_signed_mp31(self, x: &mut [u32], n: usize, m: &[u32]) {
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            norm_signed(x, n, m)
        }
    }
    fn mul_mp31(self, m: &Mod31, a: &mut [u32], b: &[u32]) {
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            mul(m, a, b)
        }
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
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            sub_shifted(x, n, xlen, y, ylen, sch, scl)
        }
    }
}
