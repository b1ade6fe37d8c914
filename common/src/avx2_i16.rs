//! AVX2 kernels over 16 x i16 lanes shared by the two 16-bit rings
//! (q = 3329 and q = 12289): vector Montgomery multiplication, Barrett
//! reduction, and a negacyclic NTT engine whose butterflies are exactly the
//! portable ones (so the backends agree bit for bit).
//!
//! Layers whose butterfly distance is at least 16 coefficients pair whole
//! vectors; the distances 8, 4, 2 and 1 are handled on pairs of vectors
//! after a lane shuffle (128-bit halves, 64-bit, 32-bit and 16-bit units),
//! with the zetas laid out to match. Each transform is specialised at
//! compile time: its zetas (with `z qinv`) come from a [`schedule`] in
//! the order they are used, the layers of distance 128 and more run over
//! memory, and each group of 8 vectors (128 coefficients) takes the
//! remaining layers in registers.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use crate::mont16::Mod16;

/// The number of set bits of every byte value, for the AVX2 rejection
/// samplers (the `avx2` target feature does not include `popcnt`, and the
/// portable bit count is a multiply chain on the critical path).
pub(crate) static POPCOUNT8: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut m = 0;
    while m < 256 {
        t[m] = (m as u8).count_ones() as u8;
        m += 1;
    }
    t
};

/// The odd 32-bit lanes copied down to the even ones (`vmovshdup`, a
/// shuffle port; the 64-bit right shift it replaces competes with the
/// multiplies for theirs). `vpmuldq`/`vpmuludq` read only the even lanes,
/// so this feeds them the odd ones: the 32-bit Montgomery products of
/// q = 8380417 and `mp31` use it.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn odd32(a: __m256i) -> __m256i {
    _mm256_castps_si256(_mm256_movehdup_ps(_mm256_castsi256_ps(a)))
}

/// One step of a vectorised rejection sampler: `block` writes the accepted
/// candidates of one input block to the front of a row of `C` and returns
/// how many. The row is the polynomial itself from `filled` on while all
/// `C` fit (lanes past the count are overwritten by later steps), else a
/// scratch row of which what fits is appended. Returns the new count.
#[inline]
pub(crate) fn sample_step<T: Copy + Default, const C: usize>(
    coeffs: &mut [T],
    filled: usize,
    block: impl FnOnce(&mut [T; C]) -> usize,
) -> usize {
    if let Some(dst) = coeffs
        .get_mut(filled..filled + C)
        .and_then(|s| <&mut [T; C]>::try_from(s).ok())
    {
        return filled + block(dst);
    }
    let mut acc = [T::default(); C];
    let n = block(&mut acc);
    let take = n.min(coeffs.len().saturating_sub(filled));
    if let (Some(dst), Some(src)) = (coeffs.get_mut(filled..filled + take), acc.get(..take)) {
        dst.copy_from_slice(src);
    }
    filled + take
}

/// One 16-lane vector of coefficients.
pub(crate) type V = __m256i;

/// Broadcast constants of a modulus.
#[derive(Clone, Copy)]
pub(crate) struct Consts {
    q: V,
    qinv: V,
    v: V,
    r32: V,
}

impl Consts {
    #[target_feature(enable = "avx2")]
    pub(crate) fn new(m: Mod16) -> Self {
        Consts {
            q: _mm256_set1_epi16(m.q),
            qinv: _mm256_set1_epi16(m.qinv),
            v: _mm256_set1_epi16(m.barrett_v as i16),
            r32: _mm256_set1_epi16(32),
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

/// A zeta vector, lane for lane, with its Montgomery companion
/// `z qinv mod 2^16` (so a butterfly needs no multiplication to prepare
/// its zeta).
#[derive(Clone, Copy)]
pub(crate) struct Zv {
    z: [i16; 16],
    zq: [i16; 16],
}

/// Butterfly kinds, as const parameters of the engine.
/// Forward (Cooley-Tukey): `t = z b; b = a - t; a = a + t`.
pub(crate) const CT: u8 = 0;
/// Inverse (Gentleman-Sande): `a' = barrett(a + b); b' = z (b - a)`.
pub(crate) const GS: u8 = 2;
/// Forward, Barrett-reducing both outputs of the layers whose bit is set
/// in the engine's `MASK` (bit `i` for layer `i`, the first layer 0) and
/// of the last layer: the portable `q12289` schedules, for moduli whose
/// values grow past `i16` in a few layers.
pub(crate) const CT_LAZY: u8 = 3;

#[inline]
#[target_feature(enable = "avx2")]
fn butterfly<const KIND: u8>(a: V, b: V, t: &Zv, c: &Consts, reduce: bool) -> (V, V) {
    let (z, zq) = (load(&t.z), load(&t.zq));
    if KIND == GS {
        (
            barrett(_mm256_add_epi16(a, b), c),
            fqmul(_mm256_sub_epi16(b, a), z, zq, c),
        )
    } else {
        let t = fqmul(b, z, zq, c);
        let (x, y) = (_mm256_add_epi16(a, t), _mm256_sub_epi16(a, t));
        if KIND == CT_LAZY && reduce {
            (barrett(x, c), barrett(y, c))
        } else {
            (x, y)
        }
    }
}

/// Split two vectors into (first halves, second halves) of every block of
/// `2 len` coefficients (`len` in 8, 4, 2, 1), and back.
#[inline]
#[target_feature(enable = "avx2")]
fn split<const LEN: usize>(a: V, b: V) -> (V, V) {
    match LEN {
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

/// Number of shuffle layers (butterfly distances 8 down to `last_len`).
pub(crate) const fn shuffle_layers(last_len: usize) -> usize {
    (8 / last_len).trailing_zeros() as usize + 1
}

/// Entries of a group of 8 vectors (128 coefficients): the whole-vector
/// layers of distances 64, 32, 16 (1 + 2 + 4 zetas) and 4 vector pairs per
/// shuffle layer.
pub(crate) const fn group_len(last_len: usize) -> usize {
    7 + 4 * shuffle_layers(last_len)
}

/// Entries of the layers whose distance is at least 128 coefficients (one
/// per block), which run across the groups.
pub(crate) const fn big_len(n: usize) -> usize {
    let mut count = 0;
    let mut len = n / 2;
    while len >= 128 {
        count += n / (2 * len);
        len /= 2;
    }
    count
}

/// Length of the [`schedule`] of a degree-`n` transform.
pub(crate) const fn schedule_len(n: usize, last_len: usize) -> usize {
    big_len(n) + n / 128 * group_len(last_len)
}

/// The zeta of block `i` of a layer with `blocks` blocks: forward layers
/// use `zetas[blocks + i]`, inverse ones `zetas[2 blocks - 1 - i]`, as the
/// portable loops do.
const fn zeta_at(zetas: &[i16], blocks: usize, i: usize, inverse: bool) -> i16 {
    if inverse {
        zetas[2 * blocks - 1 - i]
    } else {
        zetas[blocks + i]
    }
}

const fn entry(lanes: [i16; 16], qinv: i16) -> Zv {
    let mut zq = [0i16; 16];
    let mut p = 0;
    while p < 16 {
        zq[p] = lanes[p].wrapping_mul(qinv);
        p += 1;
    }
    Zv { z: lanes, zq }
}

/// The zetas of a degree-`n` transform (`n` a multiple of 128; shuffle
/// layers down to distance `last_len`) in the order the engine consumes
/// them, computed at compile time:
/// - forward: the big layers (distance `n/2` down to 128, block by block),
///   then per group of 128 coefficients the distances 64, 32, 16 (block by
///   block) and the shuffle layers 8 .. `last_len` (vector pair by pair);
/// - inverse: per group the shuffle layers `last_len` .. 8, then 16, 32,
///   64; then the big layers 128 .. `n/2`.
///
/// `E` must be [`schedule_len`]`(n, last_len)` (checked when the table is
/// evaluated).
pub(crate) const fn schedule<const E: usize>(
    zetas: &[i16],
    n: usize,
    last_len: usize,
    inverse: bool,
    qinv: i16,
) -> [Zv; E] {
    let mut w = Schedule {
        out: [Zv {
            z: [0; 16],
            zq: [0; 16],
        }; E],
        e: 0,
        zetas,
        n,
        inverse,
        qinv,
    };
    if !inverse {
        w.big();
    }
    let mut g = 0;
    while g < n / 128 {
        if inverse {
            w.shuffle(g, last_len);
            w.whole(g);
        } else {
            w.whole(g);
            w.shuffle(g, last_len);
        }
        g += 1;
    }
    if inverse {
        w.big();
    }
    assert!(w.e == E, "schedule length");
    w.out
}

/// [`schedule`]'s table being written: the entries so far (`out[..e]`)
/// and what every entry depends on.
struct Schedule<'a, const E: usize> {
    out: [Zv; E],
    e: usize,
    zetas: &'a [i16],
    n: usize,
    inverse: bool,
    qinv: i16,
}

impl<const E: usize> Schedule<'_, E> {
    /// The next entry: `lanes` with their `z qinv`.
    const fn push(&mut self, lanes: [i16; 16]) {
        self.out[self.e] = entry(lanes, self.qinv);
        self.e += 1;
    }

    /// Zeta `i` of the layer with `blocks` blocks.
    const fn zeta(&self, blocks: usize, i: usize) -> i16 {
        zeta_at(self.zetas, blocks, i, self.inverse)
    }

    /// Blocks `first .. first + count` of the layer of distance `len`,
    /// each zeta broadcast to all lanes.
    const fn blocks(&mut self, len: usize, first: usize, count: usize) {
        let blocks = self.n / (2 * len);
        let mut i = first;
        while i < first + count {
            self.push([self.zeta(blocks, i); 16]);
            i += 1;
        }
    }

    /// The big layers (distance 128 up to `n/2`; forward from the largest).
    const fn big(&mut self) {
        let n = self.n;
        let mut len = if self.inverse { 128 } else { n / 2 };
        while len >= 128 && len <= n / 2 {
            self.blocks(len, 0, n / (2 * len));
            len = if self.inverse { len * 2 } else { len / 2 };
        }
    }

    /// Group `g`'s whole-vector layers (distances 64, 32, 16 forward; 16,
    /// 32, 64 inverse).
    const fn whole(&mut self, g: usize) {
        let mut s = 0;
        while s < 3 {
            let len = if self.inverse { 16 << s } else { 64 >> s };
            let per_group = 64 / len;
            self.blocks(len, g * per_group, per_group);
            s += 1;
        }
    }

    /// Group `g`'s shuffle layers (distances 8 down to `last_len` forward,
    /// up inverse), one entry per vector pair with the zetas laid out per
    /// lane.
    const fn shuffle(&mut self, g: usize, last_len: usize) {
        let layers = shuffle_layers(last_len);
        let mut s = 0;
        while s < layers {
            let len = if self.inverse { last_len << s } else { 8 >> s };
            let blocks = self.n / (2 * len);
            let per_vec = 16 / (2 * len);
            let mut pp = 0;
            while pp < 4 {
                let first = (4 * g + pp) * 2 * per_vec;
                let mut lanes = [0i16; 16];
                let mut p = 0;
                while p < 16 {
                    lanes[p] = self.zeta(blocks, first + lane_block(p, len));
                    p += 1;
                }
                self.push(lanes);
                pp += 1;
            }
            s += 1;
        }
    }
}

/// The butterflies of one whole-vector layer of a group: distance `d`
/// vectors, block `j` using entry `e + j`.
#[inline]
#[target_feature(enable = "avx2")]
fn group_layer<const KIND: u8, const G: usize>(
    v: &mut [V; 8],
    d: usize,
    t: &[Zv; G],
    e: usize,
    c: &Consts,
    reduce: bool,
) {
    let mut start = 0;
    let mut j = 0;
    while start < 8 {
        for i in start..start + d {
            (v[i], v[i + d]) = butterfly::<KIND>(v[i], v[i + d], &t[e + j], c, reduce);
        }
        start += 2 * d;
        j += 1;
    }
}

/// One shuffle layer (distance `len` < 16) of a group: each vector pair
/// split, one butterfly, merged back (split is its own inverse).
#[inline]
#[target_feature(enable = "avx2")]
fn shuffle_layer<const KIND: u8, const G: usize, const LEN: usize>(
    v: &mut [V; 8],
    t: &[Zv; G],
    e: usize,
    c: &Consts,
    reduce: bool,
) {
    for p in 0..4 {
        let (lo, hi) = split::<LEN>(v[2 * p], v[2 * p + 1]);
        let (lo, hi) = butterfly::<KIND>(lo, hi, &t[e + p], c, reduce);
        (v[2 * p], v[2 * p + 1]) = split::<LEN>(lo, hi);
    }
}

/// The butterflies of one big layer (distance `d >= 8` vectors) over the
/// coefficient vectors in memory, the zetas block by block from `zs`; with
/// `f`, both outputs are then multiplied by it (Montgomery).
#[inline]
#[target_feature(enable = "avx2")]
fn big_layer<'t, const KIND: u8>(
    a: &mut [[i16; 16]],
    d: usize,
    zs: &mut impl Iterator<Item = &'t Zv>,
    f: Option<V>,
    c: &Consts,
    reduce: bool,
) {
    for (blk, t) in a.chunks_exact_mut(2 * d).zip(zs) {
        let (x, y) = blk.split_at_mut(d);
        for (p, q) in x.iter_mut().zip(y.iter_mut()) {
            let (mut s, mut u) = butterfly::<KIND>(load(p), load(q), t, c, reduce);
            if let Some(f) = f {
                s = fqmul_vv(s, f, c);
                u = fqmul_vv(u, f, c);
            }
            store(p, s);
            store(q, u);
        }
    }
}

/// Forward NTT of `n = 16 a.len()` coefficients (`n` a multiple of 128)
/// with the [`schedule`] `t` (`LAST` its `last_len`, 1 or 2; `G` =
/// [`group_len`]`(LAST)`): the big layers in memory, then each group of 8
/// vectors in registers; `REDUCE` Barrett-reduces the outputs, and with
/// `CT_LAZY` the layers set in `MASK` and the last reduce theirs.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn forward<
    const KIND: u8,
    const LAST: usize,
    const G: usize,
    const REDUCE: bool,
    const MASK: u32,
>(
    a: &mut [[i16; 16]],
    t: &[Zv],
    c: &Consts,
) {
    let k = a.len();
    let (big, groups) = t.split_at(big_len(16 * k).min(t.len()));
    let mut zs = big.iter();
    let mut d = k / 2;
    // Layer index (for CT_LAZY, the bit of MASK that says whether the
    // layer reduces).
    let mut i = 0;
    while d >= 8 {
        big_layer::<KIND>(a, d, &mut zs, None, c, (MASK >> i) & 1 == 1);
        d /= 2;
        i += 1;
    }
    let (gt, _) = groups.as_chunks::<G>();
    let (chunks, _) = a.as_chunks_mut::<8>();
    // The in-register layers, their reductions fixed at compile time by
    // the index of the first of them (one big layer per doubling from
    // n = 256 on).
    match i {
        0 => in_registers::<KIND, LAST, G, REDUCE, MASK, 0>(chunks, gt, c),
        1 => in_registers::<KIND, LAST, G, REDUCE, MASK, 1>(chunks, gt, c),
        2 => in_registers::<KIND, LAST, G, REDUCE, MASK, 2>(chunks, gt, c),
        _ => in_registers::<KIND, LAST, G, REDUCE, MASK, 3>(chunks, gt, c),
    }
}

/// The layers of [`forward`] that run on each group of 8 vectors in
/// registers; `FIRST` is the index of the first of them (for `MASK`).
#[inline]
#[target_feature(enable = "avx2")]
fn in_registers<
    const KIND: u8,
    const LAST: usize,
    const G: usize,
    const REDUCE: bool,
    const MASK: u32,
    const FIRST: u32,
>(
    chunks: &mut [[[i16; 16]; 8]],
    gt: &[[Zv; G]],
    c: &Consts,
) {
    let r = |j: u32| (MASK >> (FIRST + j)) & 1 == 1;
    for (chunk, t) in chunks.iter_mut().zip(gt) {
        let mut v = [_mm256_setzero_si256(); 8];
        for (x, y) in v.iter_mut().zip(chunk.iter()) {
            *x = load(y);
        }
        group_layer::<KIND, G>(&mut v, 4, t, 0, c, r(0));
        group_layer::<KIND, G>(&mut v, 2, t, 1, c, r(1));
        group_layer::<KIND, G>(&mut v, 1, t, 3, c, r(2));
        shuffle_layer::<KIND, G, 8>(&mut v, t, 7, c, r(3));
        shuffle_layer::<KIND, G, 4>(&mut v, t, 11, c, r(4));
        // The last layer always reduces (with CT_LAZY).
        shuffle_layer::<KIND, G, 2>(&mut v, t, 15, c, r(5) || LAST == 2);
        if LAST == 1 {
            shuffle_layer::<KIND, G, 1>(&mut v, t, 19, c, true);
        }
        for (y, x) in chunk.iter_mut().zip(v) {
            store(y, if REDUCE { barrett(x, c) } else { x });
        }
    }
}

/// Inverse NTT (Gentleman-Sande) of `n = 16 a.len()` coefficients with
/// the inverse [`schedule`] `t` (`LAST`, `G` as for [`forward`]), then the factor `f` (Montgomery): each
/// group in registers, then the big layers in memory (the last one
/// multiplies by `f`).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn inverse<const LAST: usize, const G: usize>(
    a: &mut [[i16; 16]],
    t: &[Zv],
    f: i16,
    c: &Consts,
) {
    let k = a.len();
    let fv = _mm256_set1_epi16(f);
    let (gt, big) = t.split_at(t.len().saturating_sub(big_len(16 * k)));
    let (gt, _) = gt.as_chunks::<G>();
    let (chunks, _) = a.as_chunks_mut::<8>();
    for (chunk, t) in chunks.iter_mut().zip(gt) {
        let mut v = [_mm256_setzero_si256(); 8];
        for (x, y) in v.iter_mut().zip(chunk.iter()) {
            *x = load(y);
        }
        let mut e = 0;
        if LAST == 1 {
            shuffle_layer::<GS, G, 1>(&mut v, t, 0, c, false);
            e = 4;
        }
        shuffle_layer::<GS, G, 2>(&mut v, t, e, c, false);
        shuffle_layer::<GS, G, 4>(&mut v, t, e + 4, c, false);
        shuffle_layer::<GS, G, 8>(&mut v, t, e + 8, c, false);
        e += 12;
        group_layer::<GS, G>(&mut v, 1, t, e, c, false);
        group_layer::<GS, G>(&mut v, 2, t, e + 4, c, false);
        group_layer::<GS, G>(&mut v, 4, t, e + 6, c, false);
        let no_big = k <= 8;
        for (y, x) in chunk.iter_mut().zip(v) {
            store(y, if no_big { fqmul_vv(x, fv, c) } else { x });
        }
    }
    let mut zs = big.iter();
    let mut d = 8;
    while d < k {
        let last = 2 * d == k;
        big_layer::<GS>(a, d, &mut zs, last.then_some(fv), c, false);
        d *= 2;
    }
}
