//! Verification's point arithmetic four coordinates at a time on AVX-512
//! IFMA (`vpmadd52luq`/`vpmadd52huq` on 256-bit vectors).
//!
//! A point is one [`F4`]: lane 0..3 hold `X, Y, Z, T` of extended
//! coordinates, each in radix `2^51` (five limbs, the portable field's
//! layout), limb `i` of the four lanes in one vector. The parallel forms
//! of the formulas of Hisil, Wong, Carter and Dawson ("Twisted Edwards
//! curves revisited", 2008, §3.1 and §4.2; the same layout as
//! curve25519-dalek's vector backends) make a doubling one 4-way squaring
//! and one 4-way product, and an addition of a cached point two 4-way
//! products:
//!
//! * doubling: `(A, B, Z^2, (X + Y)^2) = (X, Y, Z, X + Y)^2`, then
//!   `E = (X + Y)^2 - A - B`, `G = B - A`, `F = G - 2 Z^2`, `H = -A - B`;
//! * addition of `(Y2 - X2, Y2 + X2, 2 Z2, 2 d T2)`: the lane-wise product
//!   with `(Y - X, Y + X, Z, T)` is `(A, B, D, C)`, then `E = B - A`,
//!   `F = D - C`, `G = D + C`, `H = B + A`;
//! * both end with `(E, G, F, E) * (F, H, G, H) = (X3, Y3, Z3, T3)`.
//!
//! Products: the 25 limb products through the 52-bit multiply-add
//! instructions (`a_i b_j = lo + 2^52 hi`, so `hi` counts twice at the
//! next radix-`2^51` position), limbs 5..9 folded back times 19, one
//! parallel carry. The multiplier reads only the low 52 bits of its
//! inputs, so every product input is carried first (limbs below `2^52`).
//! Everything here is variable time only through the digits of public
//! scalars: verification.

// The kernels are `#[target_feature]` functions, entered once after
// detection; the block that enters states its safety.
#![allow(unsafe_code)]
// Limb loops index several arrays at once.
#![allow(clippy::needless_range_loop)]

use core::arch::x86_64::*;

use super::edwards::{D2, Ext, NielsWords};
use super::field::FieldElement;
use super::fieldops::Field;
use super::halfsize::{HalfSize, half_size};
use super::scalar::Scalar;
use super::table::{BASE_ODD, BASE128_ODD};

cpufeatures::new!(cpuid_ifma, "avx2", "avx512f", "avx512vl", "avx512ifma");

/// Whether this CPU has AVX-512 IFMA with 256-bit vectors (detection
/// cached).
pub(crate) fn ifma_available() -> bool {
    cpuid_ifma::get()
}

const MASK51: u64 = (1 << 51) - 1;

/// Four field elements, radix `2^51`, limb `i` of lanes 0..3 in `.0[i]`.
#[derive(Clone, Copy)]
pub(crate) struct F4([__m256i; 5]);

/// The limbs of `2 p`, added before subtracting a carried value (limbs
/// below `2^51 + 2^18`).
const TWO_P: [u64; 5] = [
    (MASK51 - 18) * 2,
    MASK51 * 2,
    MASK51 * 2,
    MASK51 * 2,
    MASK51 * 2,
];
/// The limbs of `2^10 p`, added before subtracting an uncarried product
/// (limbs below `2^59.4`) or a sum of up to three of them.
const BIG_P: [u64; 5] = [
    (MASK51 - 18) << 10,
    MASK51 << 10,
    MASK51 << 10,
    MASK51 << 10,
    MASK51 << 10,
];

/// Radix-`2^51` limbs of four 64-bit words (`< 2^255`).
const fn limbs(w: &[u64; 4]) -> [u64; 5] {
    [
        w[0] & MASK51,
        ((w[0] >> 51) | (w[1] << 13)) & MASK51,
        ((w[1] >> 38) | (w[2] << 26)) & MASK51,
        ((w[2] >> 25) | (w[3] << 39)) & MASK51,
        (w[3] >> 12) & MASK51,
    ]
}

#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
#[inline]
fn splat(c: u64) -> __m256i {
    _mm256_set1_epi64x(c as i64)
}

// The heavy point and field operations are macros so that they expand
// inside the one `#[target_feature]` loop that uses them: as functions
// the compiler keeps them out of line, and every call stores and
// reloads five vectors per argument.
/// The ten positions of a product (weights `2^(51 k)`, each below
/// `2^55`) folded to five with `2^255 = 19`: position `k + 5` adds into
/// `k` times 19, limbs below `20 * 2^55 < 2^59.4` (not carried).
macro_rules! f4_fold {
    ($pos:expr) => {{
        let pos: [__m256i; 10] = $pos;
        let sh = shifts();
        let mut r = [_mm256_setzero_si256(); 5];
        for k in 0..5 {
            let t19 = times19(pos[k + 5], &sh);
            r[k] = _mm256_add_epi64(pos[k], t19);
        }
        F4(r)
    }};
}

/// `F4::mul`'s body: lane-wise `$s * $o`, not carried: limbs below
/// `20 * 2^55 < 2^59.4` (inputs: limbs below `2^51 + 2^18`). Every use
/// adds or subtracts with [`BIG_P`] and carries before the next product.
macro_rules! f4_mul {
    ($s:expr, $o:expr) => {{
        let s: &F4 = $s;
        let o: &F4 = $o;
        let zero = _mm256_setzero_si256();
        let mut lo = [zero; 9];
        let mut hi = [zero; 9];
        for i in 0..5 {
            for j in 0..5 {
                lo[i + j] = _mm256_madd52lo_epu64(lo[i + j], s.0[i], o.0[j]);
                hi[i + j] = _mm256_madd52hi_epu64(hi[i + j], s.0[i], o.0[j]);
            }
        }
        // Position k (weight 2^(51 k)): lo[k] + 2 hi[k - 1], below 2^56.
        let mut pos = [zero; 10];
        for k in 0..10 {
            let l = if k < 9 { lo[k] } else { zero };
            let h = if k > 0 {
                _mm256_slli_epi64::<1>(hi[k - 1])
            } else {
                zero
            };
            pos[k] = _mm256_add_epi64(l, h);
        }
        f4_fold!(pos)
    }};
}

/// `F4::square`'s body: lane-wise `$s^2`, not carried (as [`f4_mul`]): the 10 cross products
/// once (their sum doubled by a shift) and the 5 squares, 30
/// multiply-adds instead of 50.
macro_rules! f4_square {
    ($s:expr) => {{
        let s: &F4 = $s;
        let zero = _mm256_setzero_si256();
        let a = &s.0;
        let mut clo = [zero; 9];
        let mut chi = [zero; 9];
        let mut slo = [zero; 9];
        let mut shi = [zero; 9];
        for i in 0..5 {
            slo[2 * i] = _mm256_madd52lo_epu64(slo[2 * i], a[i], a[i]);
            shi[2 * i] = _mm256_madd52hi_epu64(shi[2 * i], a[i], a[i]);
            for j in i + 1..5 {
                clo[i + j] = _mm256_madd52lo_epu64(clo[i + j], a[i], a[j]);
                chi[i + j] = _mm256_madd52hi_epu64(chi[i + j], a[i], a[j]);
            }
        }
        // Position k: squares lo[k] + 2 hi[k-1]; cross terms twice that.
        let mut pos = [zero; 10];
        for (k, out) in pos.iter_mut().enumerate() {
            let (sl, cl) = if k < 9 {
                (slo[k], clo[k])
            } else {
                (zero, zero)
            };
            let (sh, ch) = if k > 0 {
                (shi[k - 1], chi[k - 1])
            } else {
                (zero, zero)
            };
            // sl + 2 sh + 2 cl + 4 ch
            let twice = _mm256_add_epi64(sh, cl);
            let t = _mm256_add_epi64(sl, _mm256_slli_epi64::<1>(twice));
            *out = _mm256_add_epi64(t, _mm256_slli_epi64::<2>(ch));
        }
        f4_fold!(pos)
    }};
}

/// `(X3, Y3, Z3, T3) = (E, G, F, E) * (F, H, G, H)` from all-lane
/// broadcasts of `E, F, G, H` (limbs below `2^63`; carried here before
/// the product).
macro_rules! f4_finish {
    ($e:expr, $f:expr, $g:expr, $h:expr) => {{
        let (e, f, g, h): (&F4, &F4, &F4, &F4) = ($e, $f, $g, $h);
        let u = e.blend::<LANE1>(g).blend::<LANE2>(f).carry();
        let v = h.blend::<LANE0>(f).blend::<LANE2>(g).carry();
        f4_mul!(&u, &v)
    }};
}

/// `2 P` for `P = (X, Y, Z, T)` (carried).
macro_rules! f4_double {
    ($p:expr) => {{
        let p: &F4 = $p;
        // (X, Y, Z, X + Y)
        let x_in_3 = p.permute::<0x00>();
        let y_in_3 = p.permute::<0x55>();
        let t = p.blend::<LANE3>(&x_in_3.add(&y_in_3)).carry();
        let s = f4_square!(&t);
        let (s0, s1, s2, s3) = (
            s.permute::<ALL0>(),
            s.permute::<ALL1>(),
            s.permute::<ALL2>(),
            s.permute::<ALL3>(),
        );
        let a_plus_b = s0.add(&s1);
        let e = s3.sub_biased(&a_plus_b, &BIG_P);
        let g = s1.sub_biased(&s0, &BIG_P);
        let f = s1.sub_biased(&s0.add(&s2.add(&s2)), &BIG_P);
        let zero = F4([_mm256_setzero_si256(); 5]);
        let h = zero.sub_biased(&a_plus_b, &BIG_P);
        f4_finish!(&e, &f, &g, &h)
    }};
}

/// `P + Q` for `P = (X, Y, Z, T)` and a cached `Q = (Y2 - X2, Y2 + X2,
/// 2 Z2, 2 d T2)` (both carried).
macro_rules! f4_add_cached {
    ($p:expr, $q:expr) => {{
        let (p, q): (&F4, &F4) = ($p, $q);
        // (Y - X, Y + X, Z, T)
        let yy = p.permute::<0xf5>(); // (Y, Y, T, T)
        let xx = p.permute::<0xa0>(); // (X, X, Z, Z)
        let pm = yy
            .sub_biased(&xx, &BIG_P)
            .blend::<LANE1>(&yy.add(&xx))
            .blend::<{ LANE2 | LANE3 }>(p)
            .carry();
        let m = f4_mul!(&pm, q); // (A, B, D, C)
        let (a, b, d, c) = (
            m.permute::<ALL0>(),
            m.permute::<ALL1>(),
            m.permute::<ALL2>(),
            m.permute::<ALL3>(),
        );
        let e = b.sub_biased(&a, &BIG_P);
        let f = d.sub_biased(&c, &BIG_P);
        let g = d.add(&c);
        let h = b.add(&a);
        f4_finish!(&e, &f, &g, &h)
    }};
}

/// Shift counts 4 and 1 that the compiler cannot see: with constant
/// shifts it turns `16 t + 2 t + t` into a slow 64-bit multiplication.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
#[inline]
fn shifts() -> (__m256i, __m256i) {
    core::hint::black_box((splat(4), splat(1)))
}

/// `19 t` lane-wise with the shift counts of [`shifts`].
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
#[inline]
fn times19(t: __m256i, sh: &(__m256i, __m256i)) -> __m256i {
    _mm256_add_epi64(
        _mm256_add_epi64(_mm256_sllv_epi64(t, sh.0), _mm256_sllv_epi64(t, sh.1)),
        t,
    )
}

impl F4 {
    /// Lanes `(a, b, c, d)` from radix-`2^51` limbs.
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
    #[inline]
    fn from_limbs(a: &[u64; 5], b: &[u64; 5], c: &[u64; 5], d: &[u64; 5]) -> F4 {
        let mut r = [_mm256_setzero_si256(); 5];
        for i in 0..5 {
            r[i] = _mm256_set_epi64x(d[i] as i64, c[i] as i64, b[i] as i64, a[i] as i64);
        }
        F4(r)
    }

    /// The four lanes as portable field elements.
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
    #[inline]
    fn lanes(&self) -> [FieldElement; 4] {
        let mut l = [[0u64; 4]; 5];
        for (out, v) in l.iter_mut().zip(&self.0) {
            let mut w = [0u64; 4];
            // SAFETY: `w` is 32 writable bytes; the store is unaligned.
            unsafe { _mm256_storeu_si256(w.as_mut_ptr().cast(), *v) };
            *out = w;
        }
        core::array::from_fn(|j| FieldElement([l[0][j], l[1][j], l[2][j], l[3][j], l[4][j]]))
    }

    /// A point `(X, Y, Z, T)` of the portable field, carried.
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
    #[inline]
    fn from_ext(p: &Ext<FieldElement>) -> F4 {
        let l = |f: &FieldElement| FieldElement::from_bytes(&f.to_bytes()).0;
        F4::from_limbs(&l(&p.x), &l(&p.y), &l(&p.z), &l(&p.t))
    }

    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
    #[inline]
    fn add(&self, o: &F4) -> F4 {
        let mut r = self.0;
        for i in 0..5 {
            r[i] = _mm256_add_epi64(r[i], o.0[i]);
        }
        F4(r)
    }

    /// `self + bias - o` (`bias` limbs above `o`'s).
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
    #[inline]
    fn sub_biased(&self, o: &F4, bias: &[u64; 5]) -> F4 {
        let mut r = self.0;
        for i in 0..5 {
            r[i] = _mm256_sub_epi64(_mm256_add_epi64(r[i], splat(bias[i])), o.0[i]);
        }
        F4(r)
    }

    /// Every lane's limbs below `2^51 + 2^17` (inputs below `2^63`), the
    /// same values modulo p: one parallel carry, the top one folded times
    /// 19.
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
    #[inline]
    fn carry(&self) -> F4 {
        let m = splat(MASK51);
        let mut c = self.0;
        let mut low = self.0;
        for i in 0..5 {
            c[i] = _mm256_srli_epi64::<51>(self.0[i]);
            low[i] = _mm256_and_si256(self.0[i], m);
        }
        let c4x19 = _mm256_add_epi64(
            _mm256_add_epi64(_mm256_slli_epi64::<4>(c[4]), _mm256_slli_epi64::<1>(c[4])),
            c[4],
        );
        F4([
            _mm256_add_epi64(low[0], c4x19),
            _mm256_add_epi64(low[1], c[0]),
            _mm256_add_epi64(low[2], c[1]),
            _mm256_add_epi64(low[3], c[2]),
            _mm256_add_epi64(low[4], c[3]),
        ])
    }

    /// Lane-wise `self * o`, carried. Inputs: limbs below `2^52`.
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
    #[inline]
    fn mul(&self, o: &F4) -> F4 {
        f4_mul!(self, o).carry()
    }

    /// Lane-wise `self^2`, carried: the 10 cross products once (their sum
    /// doubled by a shift) and the 5 squares, 30 multiply-adds instead of
    /// 50. Input limbs below `2^52`.
    #[cfg(test)]
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
    #[inline]
    fn square(&self) -> F4 {
        f4_square!(self).carry()
    }

    /// Each limb vector's lanes permuted by `IMM` (`vpermq`).
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
    #[inline]
    fn permute<const IMM: i32>(&self) -> F4 {
        let mut r = self.0;
        for v in r.iter_mut() {
            *v = _mm256_permute4x64_epi64::<IMM>(*v);
        }
        F4(r)
    }

    /// Lanes of `o` where `IMM` (two bits per 64-bit lane) is set, else of
    /// `self`.
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
    #[inline]
    fn blend<const IMM: i32>(&self, o: &F4) -> F4 {
        let mut r = self.0;
        for i in 0..5 {
            r[i] = _mm256_blend_epi32::<IMM>(r[i], o.0[i]);
        }
        F4(r)
    }
}

/// Lane masks for [`F4::blend`] and broadcasts for [`F4::permute`].
const LANE0: i32 = 0x03;
const LANE1: i32 = 0x0c;
const LANE2: i32 = 0x30;
const LANE3: i32 = 0xc0;
const ALL0: i32 = 0x00;
const ALL1: i32 = 0x55;
const ALL2: i32 = 0xaa;
const ALL3: i32 = 0xff;

/// `2 P` for `P = (X, Y, Z, T)` (carried).
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
#[inline]
fn double(p: &F4) -> F4 {
    f4_double!(p)
}

/// `P + Q` for `P = (X, Y, Z, T)` and a cached `Q = (Y2 - X2, Y2 + X2,
/// 2 Z2, 2 d T2)` (both carried).
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
#[inline]
fn add_cached(p: &F4, q: &F4) -> F4 {
    f4_add_cached!(p, q)
}

/// `-Q` cached: `(Y2 + X2, Y2 - X2, 2 Z2, -2 d T2)`.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
#[inline]
fn neg_cached(q: &F4) -> F4 {
    let swapped = q.permute::<0xe1>(); // lanes (1, 0, 2, 3)
    let zero = F4([_mm256_setzero_si256(); 5]);
    swapped.blend::<LANE3>(&zero.sub_biased(&swapped, &TWO_P))
}

/// `P` cached for addition: `(Y - X, Y + X, Z, T) * (1, 1, 2, 2 d)`.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
#[inline]
fn to_cached(p: &F4) -> F4 {
    let yy = p.permute::<0xf5>();
    let xx = p.permute::<0xa0>();
    let pm = yy
        .sub_biased(&xx, &BIG_P)
        .blend::<LANE1>(&yy.add(&xx))
        .blend::<{ LANE2 | LANE3 }>(p)
        .carry();
    let one = limbs(&[1, 0, 0, 0]);
    let two = limbs(&[2, 0, 0, 0]);
    let k = F4::from_limbs(&one, &one, &two, &limbs(&D2));
    pm.mul(&k)
}

/// A table entry `(y + x, y - x, 2 d x y)` cached: `(y - x, y + x, 2, 2 d x y)`.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
#[inline]
fn cached_words(w: &NielsWords) -> F4 {
    F4::from_limbs(
        &limbs(&w[1]),
        &limbs(&w[0]),
        &limbs(&[2, 0, 0, 0]),
        &limbs(&w[2]),
    )
}

/// `P, 3P, .., 15P` cached.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
#[inline]
fn odd_multiples(p: &F4) -> [F4; 8] {
    let p2 = to_cached(&double(p));
    let mut out = [to_cached(p); 8];
    let mut acc = *p;
    for o in out.iter_mut().skip(1) {
        acc = add_cached(&acc, &p2);
        *o = to_cached(&acc);
    }
    out
}

/// `[d]Q` cached for a nonzero NAF digit, from cached odd multiples.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
#[inline]
fn digit_point(d: i8, table: &[F4; 8]) -> F4 {
    if d > 0 {
        table[(d / 2) as usize]
    } else {
        neg_cached(&table[(-d / 2) as usize])
    }
}

/// `[d]Q` cached for a nonzero width-8 NAF digit, from a table of words.
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
#[inline]
fn table_digit_point(d: i8, table: &[NielsWords; 64]) -> F4 {
    if d > 0 {
        cached_words(&table[(d / 2) as usize])
    } else {
        neg_cached(&cached_words(&table[(-d / 2) as usize]))
    }
}

/// `edwards::verify_equation_vartime` with the point arithmetic on IFMA:
/// whether `[s]B - [k]A - R` (times 8 when `cofactored`) is the neutral
/// element, or `None` for the rare `k` without half-size pair (the caller
/// runs the full-length loop).
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
fn verify_equation(
    s: &Scalar,
    k: &Scalar,
    a: &Ext<FieldElement>,
    r: &Ext<FieldElement>,
    cofactored: bool,
) -> Option<bool> {
    let HalfSize { c0, c0_neg, c1 } = half_size(k)?;
    let (d_lo, d_hi) = (c1 * *s).split_at_128();
    let pa = if c0_neg { *a } else { a.neg() };
    let table_a = odd_multiples(&F4::from_ext(&pa));
    let table_r = odd_multiples(&F4::from_ext(&r.neg()));
    let naf_a = c0.non_adjacent_form(5);
    let naf_r = c1.non_adjacent_form(5);
    let naf_lo = d_lo.non_adjacent_form(8);
    let naf_hi = d_hi.non_adjacent_form(8);
    let top = (0..256)
        .rev()
        .find(|&i| naf_a[i] != 0 || naf_r[i] != 0 || naf_lo[i] != 0 || naf_hi[i] != 0);
    let Some(top) = top else {
        return Some(true);
    };
    let zero = [0u64; 5];
    let one = limbs(&[1, 0, 0, 0]);
    let mut acc = F4::from_limbs(&zero, &one, &one, &zero);
    for i in (0..=top).rev() {
        acc = f4_double!(&acc);
        for (d, table) in [(naf_a[i], &table_a), (naf_r[i], &table_r)] {
            if d != 0 {
                let q = digit_point(d, table);
                acc = f4_add_cached!(&acc, &q);
            }
        }
        for (d, table) in [(naf_lo[i], &BASE_ODD), (naf_hi[i], &BASE128_ODD)] {
            if d != 0 {
                let q = table_digit_point(d, table);
                acc = f4_add_cached!(&acc, &q);
            }
        }
    }
    if cofactored {
        for _ in 0..3 {
            acc = f4_double!(&acc);
        }
    }
    let [x, y, z, _] = acc.carry().lanes();
    Some(bool::from(x.is_zero() & y.ct_eq_value(&z)))
}

/// [`verify_equation`] where the CPU has IFMA; `None` where it has not
/// (or for the rare `k` it leaves to the full-length loop).
pub(crate) fn verify_equation_checked(
    s: &Scalar,
    k: &Scalar,
    a: &Ext<FieldElement>,
    r: &Ext<FieldElement>,
    cofactored: bool,
) -> Option<bool> {
    if !ifma_available() {
        return None;
    }
    // SAFETY: `ifma_available()` detected AVX2, AVX-512F/VL and AVX-512
    // IFMA, the features `verify_equation` is compiled for.
    unsafe { verify_equation(s, k, a, r, cofactored) }
}

/// `edwards::multiscalar_vartime` with the point arithmetic on IFMA:
/// `sum [s_i] P_i + [b]B` by Straus' method (width-5 NAF per point, one
/// shared doubling chain), variable time (public inputs only).
#[cfg(feature = "alloc")]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
fn multiscalar(scalars: &[Scalar], points: &[Ext<FieldElement>], b: &Scalar) -> Ext<FieldElement> {
    use alloc::vec::Vec;
    let nafs: Vec<[i8; 256]> = scalars.iter().map(|s| s.non_adjacent_form(5)).collect();
    let tables: Vec<[F4; 8]> = points
        .iter()
        .map(|p| odd_multiples(&F4::from_ext(p)))
        .collect();
    let b_naf = b.non_adjacent_form(8);
    let zero = [0u64; 5];
    let one = limbs(&[1, 0, 0, 0]);
    let mut acc = F4::from_limbs(&zero, &one, &one, &zero);
    let top = (0..256)
        .rev()
        .find(|&i| b_naf[i] != 0 || nafs.iter().any(|n| n[i] != 0));
    for i in (0..=top.unwrap_or(0)).rev() {
        acc = f4_double!(&acc);
        for (naf, table) in nafs.iter().zip(&tables) {
            let d = naf[i];
            if d != 0 {
                let q = digit_point(d, table);
                acc = f4_add_cached!(&acc, &q);
            }
        }
        if b_naf[i] != 0 {
            let q = table_digit_point(b_naf[i], &BASE_ODD);
            acc = f4_add_cached!(&acc, &q);
        }
    }
    let [x, y, z, t] = acc.carry().lanes();
    Ext { x, y, z, t }
}

/// [`multiscalar`] where the CPU has IFMA; `None` where it has not.
#[cfg(feature = "alloc")]
pub(crate) fn multiscalar_checked(
    scalars: &[Scalar],
    points: &[Ext<FieldElement>],
    b: &Scalar,
) -> Option<Ext<FieldElement>> {
    if !ifma_available() || scalars.len() != points.len() {
        return None;
    }
    // SAFETY: `ifma_available()` detected AVX2, AVX-512F/VL and AVX-512
    // IFMA, the features `multiscalar` is compiled for.
    Some(unsafe { multiscalar(scalars, points, b) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::rng;

    fn fe(next: &mut impl FnMut() -> u64) -> FieldElement {
        let mut b = [0u8; 32];
        for c in b.chunks_exact_mut(8) {
            c.copy_from_slice(&next().to_le_bytes());
        }
        FieldElement::from_bytes(&b)
    }

    /// Products and carries equal the portable field's, lane by lane, on
    /// random values and on limbs at the largest input bound
    /// (`2^52 - 1`, which is what the multiplier reads).
    #[test]
    fn products_match_portable() {
        if !ifma_available() {
            std::println!("skipping: no AVX-512 IFMA");
            return;
        }
        let mut next = rng(0x1f3a);
        let big = [(1u64 << 52) - 1; 5];
        for round in 0..20_000 {
            let mut a: [FieldElement; 4] = core::array::from_fn(|_| fe(&mut next));
            let b: [FieldElement; 4] = core::array::from_fn(|_| fe(&mut next));
            if round % 7 == 0 {
                a[round % 4] = FieldElement(big);
            }
            // SAFETY: IFMA was detected above.
            let got = unsafe {
                let fa = F4::from_limbs(&a[0].0, &a[1].0, &a[2].0, &a[3].0);
                let fb = F4::from_limbs(&b[0].0, &b[1].0, &b[2].0, &b[3].0);
                (
                    fa.mul(&fb).lanes(),
                    fa.add(&fb).add(&fb).carry().lanes(),
                    fa.square().lanes(),
                )
            };
            for j in 0..4 {
                assert_eq!(got.2[j].to_bytes(), a[j].square().to_bytes());
                assert_eq!(got.0[j].to_bytes(), a[j].mul(&b[j]).to_bytes());
                assert_eq!(got.1[j].to_bytes(), a[j].add(&b[j]).add(&b[j]).to_bytes());
                assert!(got.0[j].0.iter().all(|&l| l < (1 << 51) + (1 << 17)));
            }
        }
    }
}

#[cfg(test)]
mod timing {
    use super::*;
    use std::println;
    use std::time::Instant;

    /// `cargo test --release -p pqkit-common --lib ifma_timing -- --ignored --nocapture`
    #[test]
    #[ignore = "timing, by hand"]
    fn ifma_timing() {
        if !ifma_available() {
            return;
        }
        let b = Ext::<FieldElement>::basepoint();
        let n = 200_000;
        let mut best = [f64::MAX; 4];
        for _ in 0..5 {
            // SAFETY: IFMA detected above.
            let (t_dbl, t_add, t_mul) = unsafe { bench(&b, n) };
            best[0] = best[0].min(t_dbl);
            best[1] = best[1].min(t_add);
            best[2] = best[2].min(t_mul);
            let p = super::super::edwards::convert::<_, super::super::fe64::Fe64>(&b);
            let t = Instant::now();
            let mut q = p;
            for _ in 0..n {
                q = core::hint::black_box(q.double());
            }
            best[3] = best[3].min(t.elapsed().as_nanos() as f64 / n as f64);
        }
        println!(
            "ns: ifma double {:.1}, ifma add {:.1}, ifma mul {:.1}, fe64 double(ext) {:.1}",
            best[0], best[1], best[2], best[3]
        );
    }

    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512ifma")]
    fn bench(b: &Ext<FieldElement>, n: usize) -> (f64, f64, f64) {
        let p = F4::from_ext(b);
        let t = Instant::now();
        let mut q = p;
        for _ in 0..n {
            q = f4_double!(&q);
        }
        core::hint::black_box(q);
        let d = t.elapsed().as_nanos() as f64 / n as f64;
        let c = to_cached(&p);
        let t = Instant::now();
        let mut q = p;
        for _ in 0..n {
            q = f4_add_cached!(&q, &c);
        }
        core::hint::black_box(q);
        let a = t.elapsed().as_nanos() as f64 / n as f64;
        let t = Instant::now();
        let mut q = p;
        for _ in 0..n {
            q = core::hint::black_box(q.mul(&p));
        }
        let m = t.elapsed().as_nanos() as f64 / n as f64;
        (d, a, m)
    }
}
