//! AVX2 kernels for q = 8380417: eight `i32` lanes per 256-bit register.
//!
//! Every kernel computes exactly what its portable twin computes (the tests
//! compare them on random inputs). Functions here are
//! `#[target_feature(enable = "avx2")]`; the `impl Ops for Avx2` methods call
//! them inside `unsafe` blocks justified by the `Avx2` token, which only
//! exists after run-time detection confirmed AVX2.
//!
//! The NTT keeps the polynomial in 32 registers. The five outer layers pair
//! whole registers with a broadcast twiddle; for the three inner layers each
//! group of 8 registers is transposed (8x8 of `i32`) so that the pairs again
//! sit in different registers, with per-lane twiddles from precomputed
//! tables, and transposed back.

use crate::avx2_transpose::transpose8x32;
use core::arch::x86_64::*;

use super::{Eta, Gamma2, INV_NTT_F, N, Ops, Poly, Q, QINV, zetas};
use crate::avx2_i16::{POPCOUNT8, odd32};
use crate::backend::Avx2;

// ---------------------------------------------------------------------------
// Twiddle tables for the three in-register layers (see module docs).

#[repr(C, align(32))]
struct Lanes<const M: usize>([[[i32; 8]; M]; 4]);

const Z: [i32; N] = zetas();

/// Build a `[[[i32; 8]; M]; 4]` table from an expression in `g, m, r`.
macro_rules! table {
    ($m:literal, |$g:ident, $h:ident, $r:ident| $e:expr) => {{
        let mut t = [[[0i32; 8]; $m]; 4];
        let mut $g = 0;
        while $g < 4 {
            let mut $h = 0;
            while $h < $m {
                let mut $r = 0;
                while $r < 8 {
                    t[$g][$h][$r] = $e;
                    $r += 1;
                }
                $h += 1;
            }
            $g += 1;
        }
        Lanes(t)
    }};
}

/// Forward len = 4: lane r of group g: zeta[32 + 8g + r].
static FWD4: Lanes<1> = table!(1, |g, _m, r| Z[32 + 8 * g + r]);
/// Forward len = 2: half h: zeta[64 + 2(8g + r) + h].
static FWD2: Lanes<2> = table!(2, |g, h, r| Z[64 + 2 * (8 * g + r) + h]);
/// Forward len = 1: quarter m: zeta[128 + 4(8g + r) + m].
static FWD1: Lanes<4> = table!(4, |g, m, r| Z[128 + 4 * (8 * g + r) + m]);
/// Inverse len = 1: -zeta[255 - (4(8g + r) + m)].
static INV1: Lanes<4> = table!(4, |g, m, r| -Z[255 - (4 * (8 * g + r) + m)]);
/// Inverse len = 2: -zeta[127 - (2(8g + r) + h)].
static INV2: Lanes<2> = table!(2, |g, h, r| -Z[127 - (2 * (8 * g + r) + h)]);
/// Inverse len = 4: -zeta[63 - (8g + r)].
static INV4: Lanes<1> = table!(1, |g, _m, r| -Z[63 - (8 * g + r)]);

/// Compaction table for rejection sampling: for an 8-bit acceptance mask,
/// the indices of the set bits in order (padded with 0), packed in a u64.
static COMPACT: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut m = 0;
    while m < 256 {
        let mut v = 0u64;
        let mut n = 0;
        let mut i = 0;
        while i < 8 {
            if (m >> i) & 1 == 1 {
                v |= (i as u64) << (8 * n);
                n += 1;
            }
            i += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
};

// ---------------------------------------------------------------------------
// Loads and stores (the only raw-pointer code), on array references.

#[inline]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
fn load(a: &[i32; 8]) -> __m256i {
    // SAFETY: `a` is a valid, readable 32-byte array; unaligned load.
    unsafe { _mm256_loadu_si256(a.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
fn store(a: &mut [i32; 8], v: __m256i) {
    // SAFETY: `a` is a valid, writable 32-byte array; unaligned store.
    unsafe { _mm256_storeu_si256(a.as_mut_ptr().cast(), v) }
}

#[inline]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
fn load_bytes(a: &[u8; 32]) -> __m256i {
    // SAFETY: `a` is a valid, readable 32-byte array; unaligned load.
    unsafe { _mm256_loadu_si256(a.as_ptr().cast()) }
}

/// The polynomial's 256 coefficients as 32 vectors, in place: the
/// transforms work on the caller's memory (no 1 KB copy on the stack).
#[inline]
#[allow(unsafe_code)]
fn vectors_mut(a: &mut Poly) -> &mut [__m256i; 32] {
    const _: () = assert!(
        size_of::<Poly>() == size_of::<[__m256i; 32]>()
            && align_of::<Poly>() >= align_of::<[__m256i; 32]>()
    );
    // SAFETY: `Poly` is `repr(C, align(32))` with the one field
    // `[i32; 256]`: 1024 bytes at 32-byte alignment, the size and alignment
    // of `[__m256i; 32]` (checked at compile time above). Every bit pattern
    // is a valid value of both types, and the result reborrows `a`
    // exclusively for its lifetime, so nothing else aliases it.
    unsafe { &mut *core::ptr::from_mut(a).cast::<[__m256i; 32]>() }
}

// ---------------------------------------------------------------------------
// Arithmetic.

/// `_mm256_mul_epi32` (`vpmuldq`: the signed 64-bit products of the even
/// 32-bit lanes) as an instruction the optimiser cannot rewrite. Built with
/// AVX-512DQ enabled (`-C target-cpu=native` on a Xeon), LLVM turns the
/// intrinsic chains of [`montmul`] into sign extensions and `vpmullq`
/// (three micro-ops, latency 15), which slows the ML-DSA NTT markedly;
/// this keeps the one-micro-op multiply in every build.
#[inline]
#[target_feature(enable = "avx2")]
fn muldq(a: __m256i, b: __m256i) -> __m256i {
    let r: __m256i;
    // SAFETY: `vpmuldq` only reads its two vector registers and writes the
    // third (no memory, no stack, no flags); AVX2, which it needs, is
    // enabled for this function and guaranteed by its callers' token.
    #[allow(unsafe_code)]
    unsafe {
        core::arch::asm!(
            "vpmuldq {r}, {a}, {b}",
            r = lateout(ymm_reg) r,
            a = in(ymm_reg) a,
            b = in(ymm_reg) b,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    r
}

/// Montgomery product of each lane, bit-identical to
/// `montgomery_reduce(a * b)`.
#[inline]
#[target_feature(enable = "avx2")]
fn montmul(a: __m256i, b: __m256i) -> __m256i {
    let qinv = _mm256_set1_epi32(QINV);
    let q = _mm256_set1_epi32(Q);
    let a_odd = odd32(a);
    let b_odd = odd32(b);
    let p_even = muldq(a, b);
    let p_odd = muldq(a_odd, b_odd);
    let t_even = muldq(p_even, qinv);
    let t_odd = muldq(p_odd, qinv);
    let r_even = _mm256_sub_epi64(p_even, muldq(t_even, q));
    let r_odd = _mm256_sub_epi64(p_odd, muldq(t_odd, q));
    _mm256_blend_epi32::<0b1010_1010>(odd32(r_even), r_odd)
}

#[inline]
#[target_feature(enable = "avx2")]
fn reduce32_v(a: __m256i) -> __m256i {
    let t = _mm256_srai_epi32::<23>(_mm256_add_epi32(a, _mm256_set1_epi32(1 << 22)));
    _mm256_sub_epi32(a, _mm256_mullo_epi32(t, _mm256_set1_epi32(Q)))
}

#[inline]
#[target_feature(enable = "avx2")]
fn caddq_v(a: __m256i) -> __m256i {
    _mm256_add_epi32(
        a,
        _mm256_and_si256(_mm256_srai_epi32::<31>(a), _mm256_set1_epi32(Q)),
    )
}

/// Forward (Cooley-Tukey) butterfly: `(a + z b, a - z b)`.
#[inline]
#[target_feature(enable = "avx2")]
fn ct(a: &mut __m256i, b: &mut __m256i, z: __m256i) {
    let t = montmul(z, *b);
    *b = _mm256_sub_epi32(*a, t);
    *a = _mm256_add_epi32(*a, t);
}

/// Inverse (Gentleman-Sande) butterfly: `(a + b, z (a - b))`.
#[inline]
#[target_feature(enable = "avx2")]
fn gs(a: &mut __m256i, b: &mut __m256i, z: __m256i) {
    let t = *a;
    *a = _mm256_add_epi32(t, *b);
    *b = montmul(z, _mm256_sub_epi32(t, *b));
}

/// Pair up two registers of a slice (i < j) mutably.
#[inline(always)]
fn pair(v: &mut [__m256i], i: usize, j: usize) -> Option<(&mut __m256i, &mut __m256i)> {
    let (lo, hi) = v.split_at_mut(j);
    Some((lo.get_mut(i)?, hi.first_mut()?))
}

/// Forward layers len = 32, 16, 8 (registers) and 4, 2, 1 (transposed) on
/// one group of 8 registers (coefficients 64g .. 64g + 63), kept in
/// registers throughout.
#[inline]
#[target_feature(enable = "avx2")]
fn ntt_group(w: &mut [__m256i; 8], g: usize) {
    let z = |k: usize| _mm256_set1_epi32(Z[k]);
    let [
        mut a0,
        mut a1,
        mut a2,
        mut a3,
        mut a4,
        mut a5,
        mut a6,
        mut a7,
    ] = *w;
    let z4 = z(4 + g);
    ct(&mut a0, &mut a4, z4);
    ct(&mut a1, &mut a5, z4);
    ct(&mut a2, &mut a6, z4);
    ct(&mut a3, &mut a7, z4);
    let (z20, z21) = (z(8 + 2 * g), z(9 + 2 * g));
    ct(&mut a0, &mut a2, z20);
    ct(&mut a1, &mut a3, z20);
    ct(&mut a4, &mut a6, z21);
    ct(&mut a5, &mut a7, z21);
    ct(&mut a0, &mut a1, z(16 + 4 * g));
    ct(&mut a2, &mut a3, z(17 + 4 * g));
    ct(&mut a4, &mut a5, z(18 + 4 * g));
    ct(&mut a6, &mut a7, z(19 + 4 * g));
    let mut t = [a0, a1, a2, a3, a4, a5, a6, a7];
    t = transpose8x32(t);
    let [
        mut a0,
        mut a1,
        mut a2,
        mut a3,
        mut a4,
        mut a5,
        mut a6,
        mut a7,
    ] = t;
    let z4 = load(&FWD4.0[g][0]);
    ct(&mut a0, &mut a4, z4);
    ct(&mut a1, &mut a5, z4);
    ct(&mut a2, &mut a6, z4);
    ct(&mut a3, &mut a7, z4);
    let (z20, z21) = (load(&FWD2.0[g][0]), load(&FWD2.0[g][1]));
    ct(&mut a0, &mut a2, z20);
    ct(&mut a1, &mut a3, z20);
    ct(&mut a4, &mut a6, z21);
    ct(&mut a5, &mut a7, z21);
    ct(&mut a0, &mut a1, load(&FWD1.0[g][0]));
    ct(&mut a2, &mut a3, load(&FWD1.0[g][1]));
    ct(&mut a4, &mut a5, load(&FWD1.0[g][2]));
    ct(&mut a6, &mut a7, load(&FWD1.0[g][3]));
    let mut t = [a0, a1, a2, a3, a4, a5, a6, a7];
    t = transpose8x32(t);
    *w = t;
}

/// Inverse of [`ntt_group`]'s layers (len = 1, 2, 4 transposed, then 8,
/// 16, 32) on one group of 8 registers.
#[inline]
#[target_feature(enable = "avx2")]
fn inv_ntt_group(w: &mut [__m256i; 8], g: usize) {
    let z = |k: usize| _mm256_set1_epi32(-Z[k]);
    let mut t = *w;
    t = transpose8x32(t);
    let [
        mut a0,
        mut a1,
        mut a2,
        mut a3,
        mut a4,
        mut a5,
        mut a6,
        mut a7,
    ] = t;
    gs(&mut a0, &mut a1, load(&INV1.0[g][0]));
    gs(&mut a2, &mut a3, load(&INV1.0[g][1]));
    gs(&mut a4, &mut a5, load(&INV1.0[g][2]));
    gs(&mut a6, &mut a7, load(&INV1.0[g][3]));
    let (z20, z21) = (load(&INV2.0[g][0]), load(&INV2.0[g][1]));
    gs(&mut a0, &mut a2, z20);
    gs(&mut a1, &mut a3, z20);
    gs(&mut a4, &mut a6, z21);
    gs(&mut a5, &mut a7, z21);
    let z4 = load(&INV4.0[g][0]);
    gs(&mut a0, &mut a4, z4);
    gs(&mut a1, &mut a5, z4);
    gs(&mut a2, &mut a6, z4);
    gs(&mut a3, &mut a7, z4);
    let mut t = [a0, a1, a2, a3, a4, a5, a6, a7];
    t = transpose8x32(t);
    let [
        mut a0,
        mut a1,
        mut a2,
        mut a3,
        mut a4,
        mut a5,
        mut a6,
        mut a7,
    ] = t;
    gs(&mut a0, &mut a1, z(31 - 4 * g));
    gs(&mut a2, &mut a3, z(30 - 4 * g));
    gs(&mut a4, &mut a5, z(29 - 4 * g));
    gs(&mut a6, &mut a7, z(28 - 4 * g));
    let (z20, z21) = (z(15 - 2 * g), z(14 - 2 * g));
    gs(&mut a0, &mut a2, z20);
    gs(&mut a1, &mut a3, z20);
    gs(&mut a4, &mut a6, z21);
    gs(&mut a5, &mut a7, z21);
    let z4 = z(7 - g);
    gs(&mut a0, &mut a4, z4);
    gs(&mut a1, &mut a5, z4);
    gs(&mut a2, &mut a6, z4);
    gs(&mut a3, &mut a7, z4);
    *w = [a0, a1, a2, a3, a4, a5, a6, a7];
}

#[target_feature(enable = "avx2")]
pub(super) fn ntt(a: &mut Poly) {
    let v = vectors_mut(a);
    // Layers len = 128 and 64: register distance 16 and 8.
    let z = _mm256_set1_epi32(Z[1]);
    for j in 0..16 {
        if let Some((x, y)) = pair(v, j, j + 16) {
            ct(x, y, z);
        }
    }
    for (h, start) in [0usize, 16].into_iter().enumerate() {
        let z = _mm256_set1_epi32(Z[2 + h]);
        for j in start..start + 8 {
            if let Some((x, y)) = pair(v, j, j + 8) {
                ct(x, y, z);
            }
        }
    }
    // The remaining six layers stay inside groups of 8 registers.
    for (g, w) in v.as_chunks_mut::<8>().0.iter_mut().enumerate() {
        ntt_group(w, g);
    }
}

#[target_feature(enable = "avx2")]
pub(super) fn inv_ntt_tomont(a: &mut Poly) {
    let v = vectors_mut(a);
    for (g, w) in v.as_chunks_mut::<8>().0.iter_mut().enumerate() {
        inv_ntt_group(w, g);
    }
    for (h, start) in [0usize, 16].into_iter().enumerate() {
        let z = _mm256_set1_epi32(-Z[3 - h]);
        for j in start..start + 8 {
            if let Some((x, y)) = pair(v, j, j + 8) {
                gs(x, y, z);
            }
        }
    }
    let z = _mm256_set1_epi32(-Z[1]);
    let f = _mm256_set1_epi32(INV_NTT_F);
    for j in 0..16 {
        if let Some((x, y)) = pair(v, j, j + 16) {
            gs(x, y, z);
            *x = montmul(f, *x);
            *y = montmul(f, *y);
        }
    }
}

/// Apply `f` to every register pair of `a`, `b`, storing into `r`.
#[inline]
#[target_feature(enable = "avx2")]
fn map2(a: &Poly, b: &Poly, r: &mut Poly, f: impl Fn(__m256i, __m256i, __m256i) -> __m256i) {
    let (ra, _) = a.coeffs.as_chunks::<8>();
    let (rb, _) = b.coeffs.as_chunks::<8>();
    let (rr, _) = r.coeffs.as_chunks_mut::<8>();
    for ((x, y), o) in ra.iter().zip(rb).zip(rr) {
        let old = load(o);
        store(o, f(load(x), load(y), old));
    }
}

/// Apply `f` to every register of `a` in place.
#[inline]
#[target_feature(enable = "avx2")]
fn map1(a: &mut Poly, f: impl Fn(__m256i) -> __m256i) {
    for c in a.coeffs.as_chunks_mut::<8>().0 {
        store(c, f(load(c)));
    }
}

#[target_feature(enable = "avx2")]
pub(super) fn pointwise_mont(a: &Poly, b: &Poly, r: &mut Poly) {
    map2(a, b, r, |x, y, _| montmul(x, y));
}

#[target_feature(enable = "avx2")]
pub(super) fn pointwise_acc_mont(a: &Poly, b: &Poly, r: &mut Poly) {
    map2(a, b, r, |x, y, o| _mm256_add_epi32(o, montmul(x, y)));
}

#[target_feature(enable = "avx2")]
pub(super) fn add(a: &mut Poly, b: &Poly) {
    for (x, y) in a
        .coeffs
        .as_chunks_mut::<8>()
        .0
        .iter_mut()
        .zip(b.coeffs.as_chunks::<8>().0)
    {
        store(x, _mm256_add_epi32(load(x), load(y)));
    }
}

#[target_feature(enable = "avx2")]
pub(super) fn sub(a: &mut Poly, b: &Poly) {
    for (x, y) in a
        .coeffs
        .as_chunks_mut::<8>()
        .0
        .iter_mut()
        .zip(b.coeffs.as_chunks::<8>().0)
    {
        store(x, _mm256_sub_epi32(load(x), load(y)));
    }
}

#[target_feature(enable = "avx2")]
pub(super) fn reduce(a: &mut Poly) {
    map1(a, |x| reduce32_v(x));
}

#[target_feature(enable = "avx2")]
pub(super) fn caddq_all(a: &mut Poly) {
    map1(a, |x| caddq_v(x));
}

#[target_feature(enable = "avx2")]
pub(super) fn shift_left_d(a: &mut Poly) {
    map1(a, |x| _mm256_slli_epi32::<13>(x));
}

#[target_feature(enable = "avx2")]
pub(super) fn power2round(a: &Poly, a1: &mut Poly, a0: &mut Poly) {
    let rnd = _mm256_set1_epi32((1 << 12) - 1);
    let it = a.coeffs.as_chunks::<8>().0.iter();
    let it = it
        .zip(a1.coeffs.as_chunks_mut::<8>().0)
        .zip(a0.coeffs.as_chunks_mut::<8>().0);
    for ((x, h), l) in it {
        let x = load(x);
        let hi = _mm256_srai_epi32::<13>(_mm256_add_epi32(x, rnd));
        store(h, hi);
        store(l, _mm256_sub_epi32(x, _mm256_slli_epi32::<13>(hi)));
    }
}

/// Decompose on one register (multiply-shift, as the portable version).
#[inline]
#[target_feature(enable = "avx2")]
fn decompose_v(gamma2: Gamma2, a: __m256i) -> (__m256i, __m256i) {
    let mut a1 = _mm256_srai_epi32::<7>(_mm256_add_epi32(a, _mm256_set1_epi32(127)));
    match gamma2 {
        Gamma2::Q32 => {
            a1 = _mm256_mullo_epi32(a1, _mm256_set1_epi32(1025));
            a1 = _mm256_srai_epi32::<22>(_mm256_add_epi32(a1, _mm256_set1_epi32(1 << 21)));
            a1 = _mm256_and_si256(a1, _mm256_set1_epi32(15));
        }
        Gamma2::Q88 => {
            a1 = _mm256_mullo_epi32(a1, _mm256_set1_epi32(11275));
            a1 = _mm256_srai_epi32::<24>(_mm256_add_epi32(a1, _mm256_set1_epi32(1 << 23)));
            let wrap = _mm256_srai_epi32::<31>(_mm256_sub_epi32(_mm256_set1_epi32(43), a1));
            a1 = _mm256_xor_si256(a1, _mm256_and_si256(wrap, a1));
        }
    }
    let mut a0 = _mm256_sub_epi32(
        a,
        _mm256_mullo_epi32(a1, _mm256_set1_epi32(2 * gamma2.value())),
    );
    let over = _mm256_srai_epi32::<31>(_mm256_sub_epi32(_mm256_set1_epi32((Q - 1) / 2), a0));
    a0 = _mm256_sub_epi32(a0, _mm256_and_si256(over, _mm256_set1_epi32(Q)));
    (a1, a0)
}

#[target_feature(enable = "avx2")]
pub(super) fn decompose(gamma2: Gamma2, a: &Poly, a1: &mut Poly, a0: &mut Poly) {
    let it = a.coeffs.as_chunks::<8>().0.iter();
    let it = it
        .zip(a1.coeffs.as_chunks_mut::<8>().0)
        .zip(a0.coeffs.as_chunks_mut::<8>().0);
    for ((x, h), l) in it {
        let (hi, lo) = decompose_v(gamma2, load(x));
        store(h, hi);
        store(l, lo);
    }
}

#[target_feature(enable = "avx2")]
pub(super) fn make_hint(gamma2: Gamma2, a0: &Poly, a1: &Poly, h: &mut Poly) -> u32 {
    let g = _mm256_set1_epi32(gamma2.value());
    let neg_g = _mm256_set1_epi32(-gamma2.value());
    let one = _mm256_set1_epi32(1);
    let mut count = _mm256_setzero_si256();
    let it = a0.coeffs.as_chunks::<8>().0.iter();
    let it = it
        .zip(a1.coeffs.as_chunks::<8>().0)
        .zip(h.coeffs.as_chunks_mut::<8>().0);
    for ((x, y), o) in it {
        let x = load(x);
        let y = load(y);
        let gt = _mm256_cmpgt_epi32(x, g);
        let lt = _mm256_cmpgt_epi32(neg_g, x);
        let eq = _mm256_cmpeq_epi32(x, neg_g);
        let nz = _mm256_andnot_si256(_mm256_cmpeq_epi32(y, _mm256_setzero_si256()), eq);
        let hint = _mm256_and_si256(_mm256_or_si256(_mm256_or_si256(gt, lt), nz), one);
        count = _mm256_add_epi32(count, hint);
        store(o, hint);
    }
    let mut lanes = [0i32; 8];
    store(&mut lanes, count);
    lanes.iter().sum::<i32>() as u32
}

#[target_feature(enable = "avx2")]
pub(super) fn use_hint(gamma2: Gamma2, a: &Poly, h: &Poly, out: &mut Poly) {
    let one = _mm256_set1_epi32(1);
    let m1 = _mm256_set1_epi32(gamma2.max_high() + 1);
    let m = _mm256_set1_epi32(gamma2.max_high());
    let it = a.coeffs.as_chunks::<8>().0.iter();
    let it = it
        .zip(h.coeffs.as_chunks::<8>().0)
        .zip(out.coeffs.as_chunks_mut::<8>().0);
    for ((x, y), o) in it {
        let (a1, a0) = decompose_v(gamma2, load(x));
        let hint = _mm256_and_si256(load(y), one);
        // delta = +1 if a0 > 0 else -1, only where the hint is set.
        let pos = _mm256_cmpgt_epi32(a0, _mm256_setzero_si256());
        let delta = _mm256_or_si256(
            _mm256_and_si256(pos, one),
            _mm256_andnot_si256(pos, _mm256_set1_epi32(-1)),
        );
        let delta = _mm256_sign_epi32(delta, hint);
        let r = _mm256_add_epi32(a1, delta);
        let r = match gamma2 {
            Gamma2::Q32 => _mm256_and_si256(r, _mm256_set1_epi32(15)),
            Gamma2::Q88 => {
                let r = _mm256_add_epi32(r, _mm256_and_si256(_mm256_srai_epi32::<31>(r), m1));
                let over = _mm256_cmpgt_epi32(r, m);
                _mm256_sub_epi32(r, _mm256_and_si256(over, m1))
            }
        };
        store(o, r);
    }
}

#[target_feature(enable = "avx2")]
pub(super) fn exceeds_norm(a: &Poly, bound: i32) -> bool {
    let b = _mm256_set1_epi32(bound - 1);
    let mut acc = _mm256_setzero_si256();
    for c in a.coeffs.as_chunks::<8>().0 {
        let x = load(c);
        // |x| as the portable version computes it (x - 2x for negative x).
        let neg = _mm256_srai_epi32::<31>(x);
        let abs = _mm256_sub_epi32(x, _mm256_and_si256(neg, _mm256_add_epi32(x, x)));
        acc = _mm256_or_si256(acc, _mm256_cmpgt_epi32(abs, b));
    }
    _mm256_testz_si256(acc, acc) == 0
}

/// Append the first `n <= 8` lanes of `v` at `a.coeffs[filled..]`
/// (`filled + n <= N`): one 8-lane store when it fits (the lanes past `n`
/// are overwritten by the next appends, as sampling continues until the
/// polynomial is full), lane by lane at the very end.
#[inline]
#[target_feature(enable = "avx2")]
fn append(a: &mut Poly, filled: usize, n: usize, v: __m256i) {
    if let Some(dst) = a
        .coeffs
        .get_mut(filled..filled + 8)
        .and_then(|s| <&mut [i32; 8]>::try_from(s).ok())
    {
        store(dst, v);
    } else {
        let mut tmp = [0i32; 8];
        store(&mut tmp, v);
        for (d, x) in a.coeffs.iter_mut().skip(filled).zip(tmp.iter()).take(n) {
            *d = *x;
        }
        zeroize::Zeroize::zeroize(&mut tmp);
    }
}

/// Candidates per RejNTTPoly block: one per three bytes of 168.
const CANDIDATES: usize = 56;

/// The accepted candidates of one block, in order, to the front of `out`
/// (8 candidates, 24 bytes, per step: 23-bit values in 32-bit lanes,
/// compared with q, compacted with a lane permutation and stored whole,
/// counted from a table); returns how many. Every store starts at most at
/// 48, so it stays inside `out`.
///
/// All seven steps are computed before the first store. A store's address
/// depends on the counts before it, and a CPU may hold a later load (the
/// next step's bytes, its table entries) until an older store's address
/// is known: interleaved, the steps would run one after another instead
/// of overlapping.
#[inline]
#[target_feature(enable = "avx2")]
fn rej_block(out: &mut [i32; CANDIDATES], buf: &[u8; 168]) -> usize {
    let q = _mm256_set1_epi32(Q);
    let mask23 = _mm256_set1_epi32(0x7f_ffff);
    let shuf = _mm256_setr_epi8(
        0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, //
        4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15, -1,
    );
    let mut kept = [_mm256_setzero_si256(); 7];
    let mut counts = [0usize; 7];
    // Seven 24-byte steps; the last one loads the final 32 bytes (136..168)
    // so that no load leaves `buf`, and starts 8 bytes into them.
    for (step, (kept, count)) in kept.iter_mut().zip(counts.iter_mut()).enumerate() {
        let at = (24 * step).min(136);
        let Some(chunk) = buf
            .get(at..at + 32)
            .and_then(|s| <&[u8; 32]>::try_from(s).ok())
        else {
            break;
        };
        let v = load_bytes(chunk);
        // Bytes 0..16 of the step in the low lane, 8..24 in the high lane.
        let v = if step < 6 {
            _mm256_permute4x64_epi64::<0b1001_0100>(v)
        } else {
            _mm256_permute4x64_epi64::<0b1110_1001>(v)
        };
        let v = _mm256_and_si256(_mm256_shuffle_epi8(v, shuf), mask23);
        let good = _mm256_cmpgt_epi32(q, v);
        let bits = _mm256_movemask_ps(_mm256_castsi256_ps(good)) as u32 as usize & 0xff;
        let (Some(&perm), Some(&c)) = (COMPACT.get(bits), POPCOUNT8.get(bits)) else {
            break;
        };
        let idx = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(perm as i64));
        *kept = _mm256_permutevar8x32_epi32(v, idx);
        *count = usize::from(c);
    }
    let mut n = 0usize;
    for (&v, &c) in kept.iter().zip(counts.iter()) {
        let Some(dst) = out
            .get_mut(n..n + 8)
            .and_then(|s| <&mut [i32; 8]>::try_from(s).ok())
        else {
            break;
        };
        store(dst, v);
        n += c;
    }
    n
}

/// RejNTTPoly step: [`rej_block`] straight into the polynomial while a
/// whole block's candidates fit after `filled` (lanes past the count are
/// overwritten later), else into a scratch row and append what fits.
#[target_feature(enable = "avx2")]
pub(super) fn rej_uniform(a: &mut Poly, filled: usize, buf: &[u8; 168]) -> usize {
    crate::avx2_i16::sample_step::<i32, CANDIDATES>(&mut a.coeffs, filled, |row| {
        rej_block(row, buf)
    })
}

#[target_feature(enable = "avx2")]
pub(super) fn rej_eta(eta: Eta, a: &mut Poly, mut filled: usize, buf: &[u8; 136]) -> usize {
    let shifts = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
    let nib = _mm256_set1_epi32(15);
    let (bound, e) = match eta {
        Eta::Two => (15, 2),
        Eta::Four => (9, 4),
    };
    let bound = _mm256_set1_epi32(bound);
    let e = _mm256_set1_epi32(e);
    // Eight words at a time, their stores after all their loads (see
    // `rej_block`).
    for group in buf.as_chunks::<4>().0.chunks(8) {
        if filled >= N {
            break;
        }
        let mut kept = [_mm256_setzero_si256(); 8];
        let mut counts = [0usize; 8];
        for ((word, kept), count) in group.iter().zip(kept.iter_mut()).zip(counts.iter_mut()) {
            // Eight nibbles, low nibble of each byte first.
            let w = _mm256_set1_epi32(i32::from_le_bytes(*word));
            let t = _mm256_and_si256(_mm256_srlv_epi32(w, shifts), nib);
            let good = _mm256_cmpgt_epi32(bound, t);
            let r = match eta {
                // t mod 5 = t - ((205 t) >> 10) * 5
                Eta::Two => {
                    let q5 = _mm256_srli_epi32::<10>(_mm256_mullo_epi32(t, _mm256_set1_epi32(205)));
                    _mm256_sub_epi32(t, _mm256_mullo_epi32(q5, _mm256_set1_epi32(5)))
                }
                Eta::Four => t,
            };
            let v = _mm256_sub_epi32(e, r);
            // The acceptance pattern only concerns rejected values, which
            // are independent of the accepted ones: public (as in portable).
            let bits = crate::ct::declassify(
                _mm256_movemask_ps(_mm256_castsi256_ps(good)) as u32 as usize
            );
            let idx = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(COMPACT[bits & 0xff] as i64));
            *kept = _mm256_permutevar8x32_epi32(v, idx);
            *count = usize::from(POPCOUNT8[bits & 0xff]);
        }
        for (&v, &c) in kept.iter().zip(counts.iter()).take(group.len()) {
            if filled >= N {
                break;
            }
            let n = c.min(N - filled);
            append(a, filled, n, v);
            filled += n;
        }
        // The kept values are secret coefficients (as `append`'s copy).
        kept.fill(_mm256_setzero_si256());
        core::hint::black_box(&mut kept);
    }
    filled
}

impl Ops for Avx2 {
    #[inline]
    #[allow(unsafe_code)]
    fn ntt_q8380417(self, a: &mut Poly) {
        // SAFETY: `self` is an `Avx2` token,
        // created only after run-time detection confirmed AVX2.
        unsafe { ntt(a) }
    }
    #[inline]
    #[allow(unsafe_code)]
    fn inv_ntt_tomont_q8380417(self, a: &mut Poly) {
        // SAFETY: AVX2 token (see `ntt`).
        unsafe { inv_ntt_tomont(a) }
    }
    #[inline]
    #[allow(unsafe_code)]
    fn pointwise_mont_q8380417(self, a: &Poly, b: &Poly, r: &mut Poly) {
        // SAFETY: AVX2 token (see `ntt`).
        unsafe { pointwise_mont(a, b, r) }
    }
    #[inline]
    #[allow(unsafe_code)]
    fn pointwise_acc_mont_q8380417(self, a: &Poly, b: &Poly, r: &mut Poly) {
        // SAFETY: AVX2 token (see `ntt`).
        unsafe { pointwise_acc_mont(a, b, r) }
    }
    #[inline]
    #[allow(unsafe_code)]
    fn add_q8380417(self, a: &mut Poly, b: &Poly) {
        // SAFETY: AVX2 token (see `ntt`).
        unsafe { add(a, b) }
    }
    #[inline]
    #[allow(unsafe_code)]
    fn sub_q8380417(self, a: &mut Poly, b: &Poly) {
        // SAFETY: AVX2 token (see `ntt`).
        unsafe { sub(a, b) }
    }
    #[inline]
    #[allow(unsafe_code)]
    fn reduce32_q8380417(self, a: &mut Poly) {
        // SAFETY: AVX2 token (see `ntt`).
        unsafe { reduce(a) }
    }
    #[inline]
    #[allow(unsafe_code)]
    fn caddq_q8380417(self, a: &mut Poly) {
        // SAFETY: AVX2 token (see `ntt`).
        unsafe { caddq_all(a) }
    }
    #[inline]
    #[allow(unsafe_code)]
    fn shift_left_d_q8380417(self, a: &mut Poly) {
        // SAFETY: AVX2 token (see `ntt`).
        unsafe { shift_left_d(a) }
    }
    #[inline]
    #[allow(unsafe_code)]
    fn power2round_q8380417(self, a: &Poly, a1: &mut Poly, a0: &mut Poly) {
        // SAFETY: AVX2 token (see `ntt`).
        unsafe { power2round(a, a1, a0) }
    }
    #[inline]
    #[allow(unsafe_code)]
    fn decompose_q8380417(self, gamma2: Gamma2, a: &Poly, a1: &mut Poly, a0: &mut Poly) {
        // SAFETY: AVX2 token (see `ntt`).
        unsafe { decompose(gamma2, a, a1, a0) }
    }
    #[inline]
    #[allow(unsafe_code)]
    fn make_hint_q8380417(self, gamma2: Gamma2, a0: &Poly, a1: &Poly, h: &mut Poly) -> u32 {
        // SAFETY: AVX2 token (see `ntt`).
        unsafe { make_hint(gamma2, a0, a1, h) }
    }
    #[inline]
    #[allow(unsafe_code)]
    fn use_hint_q8380417(self, gamma2: Gamma2, a: &Poly, h: &Poly, out: &mut Poly) {
        // SAFETY: AVX2 token (see `ntt`).
        unsafe { use_hint(gamma2, a, h, out) }
    }
    #[inline]
    #[allow(unsafe_code)]
    fn exceeds_norm_q8380417(self, a: &Poly, bound: i32) -> bool {
        // SAFETY: AVX2 token (see `ntt`).
        unsafe { exceeds_norm(a, bound) }
    }
    #[inline]
    #[allow(unsafe_code)]
    fn rej_uniform_q8380417(self, a: &mut Poly, filled: usize, buf: &[u8; 168]) -> usize {
        // SAFETY: AVX2 token (see `ntt`).
        unsafe { rej_uniform(a, filled, buf) }
    }
    #[inline]
    #[allow(unsafe_code)]
    fn rej_eta_q8380417(self, eta: Eta, a: &mut Poly, filled: usize, buf: &[u8; 136]) -> usize {
        // SAFETY: AVX2 token (see `ntt`).
        unsafe { rej_eta(eta, a, filled, buf) }
    }
}
