//! AVX2 kernels over 16 x i16 lanes shared by the two 16-bit rings
//! (q = 3329 and q = 12289): vector Montgomery multiplication, Barrett
//! reduction, and a negacyclic NTT engine whose butterflies are exactly the
//! portable ones (so the backends agree bit for bit).
//!
//! Layers whose butterfly distance is at least 16 coefficients pair whole
//! vectors; the distances 8, 4, 2 and 1 are handled on pairs of vectors
//! after a lane shuffle (128-bit halves, 64-bit, 32-bit and 16-bit units),
//! with the zetas laid out to match.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use crate::mont16::Mod16;

/// One 16-lane vector of coefficients.
pub(crate) type V = __m256i;

/// Broadcast constants of a modulus.
#[derive(Clone, Copy)]
pub(crate) struct Consts {
    q: V,
    qinv: V,
    v: V,
    r32: V,
    m: Mod16,
}

impl Consts {
    #[target_feature(enable = "avx2")]
    pub(crate) fn new(m: Mod16) -> Self {
        Consts {
            q: _mm256_set1_epi16(m.q),
            qinv: _mm256_set1_epi16(m.qinv),
            v: _mm256_set1_epi16(m.barrett_v as i16),
            r32: _mm256_set1_epi16(32),
            m,
        }
    }
}

/// Load 16 coefficients.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn load(a: &[i16; 16]) -> V {
    // SAFETY: `a` is a valid, readable 32-byte region; loadu has no
    // alignment requirement.
    unsafe { _mm256_loadu_si256(a.as_ptr().cast()) }
}

/// Store 16 coefficients.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn store(a: &mut [i16; 16], x: V) {
    // SAFETY: `a` is a valid, writable 32-byte region; storeu has no
    // alignment requirement.
    unsafe { _mm256_storeu_si256(a.as_mut_ptr().cast(), x) }
}

/// Lane-wise Montgomery product `b z 2^-16`, with `zq = z qinv mod 2^16`
/// precomputed (the scalar `Mod16::fqmul`, exactly).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn fqmul(b: V, z: V, zq: V, c: &Consts) -> V {
    let lo = _mm256_mullo_epi16(b, zq);
    let hi = _mm256_mulhi_epi16(b, z);
    let t = _mm256_mulhi_epi16(lo, c.q);
    _mm256_sub_epi16(hi, t)
}

/// Lane-wise product of two variable vectors (scalar `fqmul`, exactly).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn fqmul_vv(a: V, b: V, c: &Consts) -> V {
    let zq = _mm256_mullo_epi16(b, c.qinv);
    fqmul(a, b, zq, c)
}

/// Lane-wise Barrett reduction (scalar `Mod16::barrett_reduce`, exactly:
/// `round(a v / 2^26)` as `round(floor(a v / 2^16) / 2^10)`).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn barrett(a: V, c: &Consts) -> V {
    let h = _mm256_mulhi_epi16(a, c.v);
    let t = _mm256_mulhrs_epi16(h, c.r32);
    _mm256_sub_epi16(a, _mm256_mullo_epi16(t, c.q))
}

/// Zeta vectors for 16 lanes from per-lane zetas.
#[inline]
#[target_feature(enable = "avx2")]
fn zeta_vec(z: &[i16; 16], c: &Consts) -> (V, V) {
    let zv = load(z);
    (zv, _mm256_mullo_epi16(zv, c.qinv))
}

/// Which butterfly a layer uses.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Butterfly {
    /// Forward (Cooley-Tukey): `t = z b; b = a - t; a = a + t`.
    Ct,
    /// Forward with Barrett reduction of both outputs.
    CtReduce,
    /// Inverse (Gentleman-Sande): `a' = barrett(a + b); b' = z (b - a)`.
    Gs,
}

#[inline]
#[target_feature(enable = "avx2")]
fn butterfly(a: &mut V, b: &mut V, z: V, zq: V, kind: Butterfly, c: &Consts) {
    match kind {
        Butterfly::Ct | Butterfly::CtReduce => {
            let t = fqmul(*b, z, zq, c);
            let (x, y) = (_mm256_add_epi16(*a, t), _mm256_sub_epi16(*a, t));
            if kind == Butterfly::CtReduce {
                *a = barrett(x, c);
                *b = barrett(y, c);
            } else {
                *a = x;
                *b = y;
            }
        }
        Butterfly::Gs => {
            let t = *a;
            *a = barrett(_mm256_add_epi16(t, *b), c);
            *b = fqmul(_mm256_sub_epi16(*b, t), z, zq, c);
        }
    }
}

/// Split two vectors into (first halves, second halves) of every block of
/// `2 len` coefficients (`len` in 8, 4, 2, 1), and back.
#[inline]
#[target_feature(enable = "avx2")]
fn split(a: V, b: V, len: usize) -> (V, V) {
    match len {
        8 => (
            _mm256_permute2x128_si256(a, b, 0x20),
            _mm256_permute2x128_si256(a, b, 0x31),
        ),
        4 => (_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b)),
        2 => (
            _mm256_blend_epi32(a, _mm256_slli_epi64(b, 32), 0b1010_1010),
            _mm256_blend_epi32(_mm256_srli_epi64(a, 32), b, 0b1010_1010),
        ),
        _ => (
            _mm256_blend_epi16(a, _mm256_slli_epi32(b, 16), 0b1010_1010),
            _mm256_blend_epi16(_mm256_srli_epi32(a, 16), b, 0b1010_1010),
        ),
    }
}

/// Inverse of [`split`] (it is its own inverse up to argument order).
#[inline]
#[target_feature(enable = "avx2")]
fn merge(lo: V, hi: V, len: usize) -> (V, V) {
    split(lo, hi, len)
}

/// For a lane `p` of the split "first halves" vector of the pair
/// `(vector 2i, vector 2i + 1)`, the index of its block (of `2 len`
/// coefficients) relative to the first block of vector `2i`.
const fn lane_block(p: usize, len: usize) -> usize {
    let per_vec = 16 / (2 * len); // blocks per vector
    match len {
        // [A.lo | B.lo]: lanes 0..8 block 0 of A, 8..16 block 0 of B.
        8 => (p / 8) * per_vec,
        // 64-bit units [A0, B0 | A2, B2]: unit u -> (vector u % 2, block u / 2)
        4 => {
            let u = p / 4;
            (u % 2) * per_vec + u / 2
        }
        2 => {
            let u = p / 2;
            (u % 2) * per_vec + u / 2
        }
        _ => (p % 2) * per_vec + p / 2,
    }
}

/// The per-lane zetas [`ntt_layers`] takes as `lane_tab`, computed at
/// compile time: for the shuffle layers of a degree-`n` transform (`len` 8
/// down to `last_len` forward, `last_len` up to 8 inverse), entry
/// `s * pairs + pair` holds the zetas of the `s`-th such layer for vector
/// pair `pair` (`pairs = n / 32`, `E` = layers times pairs). `zetas` is the
/// ring's table: forward layers use `zetas[blocks + i]`, inverse ones
/// `zetas[2 blocks - 1 - i]`, as the portable loops do.
pub(crate) const fn lane_zetas<const E: usize>(
    zetas: &[i16],
    n: usize,
    last_len: usize,
    inverse: bool,
) -> [[i16; 16]; E] {
    let mut out = [[0i16; 16]; E];
    let pairs = n / 32;
    let layers = (8 / last_len).trailing_zeros() as usize + 1;
    let mut s = 0;
    while s < layers {
        let len = if inverse { last_len << s } else { 8 >> s };
        let blocks = n / (2 * len);
        let per_vec = 16 / (2 * len);
        let mut pair = 0;
        while pair < pairs {
            let first = pair * 2 * per_vec;
            let mut p = 0;
            while p < 16 {
                let i = first + lane_block(p, len);
                out[s * pairs + pair][p] = if inverse {
                    zetas[2 * blocks - 1 - i]
                } else {
                    zetas[blocks + i]
                };
                p += 1;
            }
            pair += 1;
        }
        s += 1;
    }
    out
}

/// Run the NTT layers from butterfly distance `first_len` down to
/// `last_len` (forward, `len` halving) or up (inverse, `len` doubling) on
/// the coefficient vectors `v` (n = 16 v.len() >= 32 coefficients).
/// `zeta(blocks, i)` gives the scalar zeta of block `i` of a layer with
/// `blocks` blocks; lanes are laid out to match the portable loop.
/// `lane_tab`, if not empty, holds the per-lane zetas of the shuffle layers
/// (`len < 16`) precomputed: entry `s * pairs + pair` for the `s`-th such
/// layer in `lens` order and vector pair `pair` (what the loop below would
/// otherwise assemble lane by lane through `zeta`).
#[inline]
// into each transform, where the layers, the butterfly kind and
// the zeta function are constants the compiler can unroll and fold
#[target_feature(enable = "avx2")]
pub(crate) fn ntt_layers(
    v: &mut [V],
    lens: &[usize],
    kind: Butterfly,
    zeta: &dyn Fn(usize, usize) -> i16,
    lane_tab: &[[i16; 16]],
    c: &Consts,
) {
    let n = v.len() * 16;
    let pairs = v.len() / 2;
    let mut small = 0usize;
    for &len in lens {
        let blocks = n / (2 * len);
        if len >= 16 {
            let d = len / 16;
            for (blk, start) in (0..v.len()).step_by(2 * d).enumerate() {
                let z = zeta(blocks, blk);
                let zv = _mm256_set1_epi16(z);
                let zq = _mm256_set1_epi16(z.wrapping_mul(c.m.qinv));
                for i in start..start + d {
                    let (mut a, mut b) = (v[i], v[i + d]);
                    butterfly(&mut a, &mut b, zv, zq, kind, c);
                    v[i] = a;
                    v[i + d] = b;
                }
            }
        } else {
            let per_vec = 16 / (2 * len);
            for pair in 0..pairs {
                let first = pair * 2 * per_vec;
                let (zv, zq) = match lane_tab.get(small * pairs + pair) {
                    Some(zl) => zeta_vec(zl, c),
                    None => {
                        let mut zl = [0i16; 16];
                        for (p, z) in zl.iter_mut().enumerate() {
                            *z = zeta(blocks, first + lane_block(p, len));
                        }
                        zeta_vec(&zl, c)
                    }
                };
                let (mut lo, mut hi) = split(v[2 * pair], v[2 * pair + 1], len);
                butterfly(&mut lo, &mut hi, zv, zq, kind, c);
                let (a, b) = merge(lo, hi, len);
                v[2 * pair] = a;
                v[2 * pair + 1] = b;
            }
            small += 1;
        }
    }
}

/// Load `n = 16 k` coefficients into vectors.
#[target_feature(enable = "avx2")]
pub(crate) fn load_all<const K: usize>(a: &[[i16; 16]]) -> [V; K] {
    let mut v = [_mm256_setzero_si256(); K];
    for (x, chunk) in v.iter_mut().zip(a) {
        *x = load(chunk);
    }
    v
}

/// Store vectors back.
#[target_feature(enable = "avx2")]
pub(crate) fn store_all(a: &mut [[i16; 16]], v: &[V]) {
    for (chunk, x) in a.iter_mut().zip(v) {
        store(chunk, *x);
    }
}
