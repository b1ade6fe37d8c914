//! AVX2 kernels for q = 3329, on the shared 16-lane NTT engine.

use super::Ops;
use super::{INV_NTT_F, MOD, N, Poly, Q, ZETAS};
use crate::avx2_i16::{self as v16, Consts, V};

/// Lanes `[z, 0, -z, 0]` of the base multiplication for the four
/// degree-1 pairs groups of each 16-coefficient chunk (`z = ZETAS[64 + i]`
/// for group `i`); the zero lanes are not used.
const fn basemul_zetas() -> [[i16; 16]; 16] {
    let mut out = [[0i16; 16]; 16];
    let mut j = 0;
    while j < 16 {
        let mut g = 0;
        while g < 4 {
            let z = ZETAS[64 + 4 * j + g];
            out[j][4 * g] = z;
            out[j][4 * g + 2] = -z;
            g += 1;
        }
        j += 1;
    }
    out
}

static BASEMUL_Z: [[i16; 16]; 16] = basemul_zetas();

/// Zeta schedules of the transforms (distances 128 .. 2).
const SCHED: usize = v16::schedule_len(N, 2);
const GROUP: usize = v16::group_len(2);
static FWD: [v16::Zv; SCHED] = v16::schedule::<SCHED>(&ZETAS, N, 2, false, MOD.qinv);
static INV: [v16::Zv; SCHED] = v16::schedule::<SCHED>(&ZETAS, N, 2, true, MOD.qinv);

#[target_feature(enable = "avx2")]
pub(super) fn ntt(a: &mut Poly) {
    let c = Consts::new(MOD);
    v16::forward::<{ v16::CT }, 2, GROUP, true, 0>(a.chunks_mut(), &FWD, &c);
}

#[target_feature(enable = "avx2")]
pub(super) fn inv_ntt_tomont(a: &mut Poly) {
    let c = Consts::new(MOD);
    v16::inverse::<2, GROUP>(a.chunks_mut(), &INV, INV_NTT_F, &c);
}

/// Base multiplication (FIPS 203 Alg. 11/12 with Montgomery factors) of
/// one 16-coefficient chunk, lane for lane the portable `basemul_mont`: for
/// each pair, `r0 = fqmul(fqmul(a1, b1), +-z) + fqmul(a0, b0)` and
/// `r1 = fqmul(a0, b1) + fqmul(a1, b0)`; `zv` is the chunk's
/// [`BASEMUL_Z`] row.
#[inline]
#[target_feature(enable = "avx2")]
fn basemul_chunk(av: V, bv: V, zv: V, c: &Consts) -> V {
    use core::arch::x86_64::*;
    // Byte shuffles per 128-bit lane: duplicate the even / odd i16 of each
    // pair, and swap the two i16 of each pair.
    let even = _mm256_setr_epi8(
        0, 1, 0, 1, 4, 5, 4, 5, 8, 9, 8, 9, 12, 13, 12, 13, //
        0, 1, 0, 1, 4, 5, 4, 5, 8, 9, 8, 9, 12, 13, 12, 13,
    );
    let odd = _mm256_setr_epi8(
        2, 3, 2, 3, 6, 7, 6, 7, 10, 11, 10, 11, 14, 15, 14, 15, //
        2, 3, 2, 3, 6, 7, 6, 7, 10, 11, 10, 11, 14, 15, 14, 15,
    );
    let swap = _mm256_setr_epi8(
        2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, //
        2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
    );
    let a0 = _mm256_shuffle_epi8(av, even);
    let a1 = _mm256_shuffle_epi8(av, odd);
    let bs = _mm256_shuffle_epi8(bv, swap);
    // q = [a0 b0, a0 b1], p = [a1 b1, a1 b0] (Montgomery products).
    let q = v16::fqmul_vv(a0, bv, c);
    let p = v16::fqmul_vv(a1, bs, c);
    let pz = v16::fqmul_vv(p, zv, c);
    // Even lanes take fqmul(a1 b1, z), odd lanes a1 b0.
    let sel = _mm256_blend_epi16::<0b1010_1010>(pz, p);
    _mm256_add_epi16(sel, q)
}

#[target_feature(enable = "avx2")]
pub(super) fn basemul_mont(a: &Poly, b: &Poly, r: &mut Poly) {
    let c = Consts::new(MOD);
    let rows = a.chunks().iter().zip(b.chunks()).zip(&BASEMUL_Z);
    for (((ac, bc), zc), rc) in rows.zip(r.chunks_mut().iter_mut()) {
        let x = basemul_chunk(v16::load(ac), v16::load(bc), v16::load(zc), &c);
        v16::store(rc, x);
    }
}

/// The portable `dot_mont`, chunk by chunk: the products of up to four
/// pairs summed in a register, then Barrett-reduced.
#[target_feature(enable = "avx2")]
pub(super) fn dot_mont(a: &[Poly], b: &[Poly], r: &mut Poly) {
    use core::arch::x86_64::*;
    let c = Consts::new(MOD);
    let k = a.len().min(b.len()).min(4);
    let (a, b) = (&a[..k], &b[..k]);
    for (i, (zc, rc)) in BASEMUL_Z.iter().zip(r.chunks_mut().iter_mut()).enumerate() {
        let zv = v16::load(zc);
        let mut acc = _mm256_setzero_si256();
        for (x, y) in a.iter().zip(b) {
            if let (Some(xc), Some(yc)) = (x.chunks().get(i), y.chunks().get(i)) {
                let t = basemul_chunk(v16::load(xc), v16::load(yc), zv, &c);
                acc = _mm256_add_epi16(acc, t);
            }
        }
        v16::store(rc, v16::barrett(acc, &c));
    }
}

/// The portable `fqmul_add`, 16 lanes at a time.
#[target_feature(enable = "avx2")]
pub(super) fn fqmul_add(a: &mut Poly, f: i16, b: &Poly) {
    use core::arch::x86_64::*;
    let c = Consts::new(MOD);
    let fv = _mm256_set1_epi16(f);
    for (x, y) in a.chunks_mut().iter_mut().zip(b.chunks()) {
        let t = _mm256_add_epi16(v16::fqmul_vv(v16::load(x), fv, &c), v16::load(y));
        v16::store(x, v16::barrett(t, &c));
    }
}

#[target_feature(enable = "avx2")]
pub(super) fn reduce(a: &mut Poly) {
    let c = Consts::new(MOD);
    for chunk in a.chunks_mut() {
        let x = v16::barrett(v16::load(chunk), &c);
        v16::store(chunk, x);
    }
}

static COMPACT16: [[u8; 16]; 256] = crate::compact::compact16();

/// Candidates per SampleNTT block: two per three bytes of 168.
const CANDIDATES: usize = 112;

/// The accepted candidates of one block, in order, to the front of `out`
/// (16 candidates, 24 bytes, per step: spread the 12-bit values into
/// 16-bit lanes, compare with q, compact each 128-bit half with a table
/// shuffle and store all 8 lanes, counting from a table); returns how
/// many. Every store starts at most at 104, so it stays inside `out`.
#[inline]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
fn rej_block(out: &mut [i16; CANDIDATES], buf: &[u8; 168]) -> usize {
    use core::arch::x86_64::*;
    let q = _mm256_set1_epi16(Q);
    let m12 = _mm256_set1_epi16(0xfff);
    // Per 128-bit lane (12 bytes each): words (b0 b1), (b1 b2), (b3 b4), ...
    let spread = _mm256_setr_epi8(
        0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11, //
        4, 5, 5, 6, 7, 8, 8, 9, 10, 11, 11, 12, 13, 14, 14, 15,
    );
    let mut kept = [_mm_setzero_si128(); 14];
    let mut counts = [0usize; 14];
    // Seven 24-byte steps; the last one loads the final 32 bytes (136..168)
    // so that no load leaves `buf`, and starts 8 bytes into them.
    for (step, (kept, counts)) in kept
        .as_chunks_mut::<2>()
        .0
        .iter_mut()
        .zip(counts.as_chunks_mut::<2>().0.iter_mut())
        .enumerate()
    {
        let at = (24 * step).min(136);
        let Some(chunk) = buf
            .get(at..at + 32)
            .and_then(|s| <&[u8; 32]>::try_from(s).ok())
        else {
            break;
        };
        // SAFETY: `chunk` is 32 readable bytes; loadu has no alignment need.
        let v = unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) };
        // Bytes 0..16 of the step in the low lane, 8..24 in the high lane
        // (whose shuffle starts at its byte 4, i.e. the step's byte 12).
        let v = if step < 6 {
            _mm256_permute4x64_epi64::<0b1001_0100>(v)
        } else {
            _mm256_permute4x64_epi64::<0b1110_1001>(v)
        };
        let w = _mm256_shuffle_epi8(v, spread);
        // Even words: low 12 bits; odd words: the top 12 bits.
        let vals =
            _mm256_blend_epi16::<0b1010_1010>(_mm256_and_si256(w, m12), _mm256_srli_epi16::<4>(w));
        let good = _mm256_cmpgt_epi16(q, vals);
        // packs keeps 128-bit lanes: mask bits 0..8 are the low half's,
        // 16..24 the high half's.
        let masks = _mm256_movemask_epi8(_mm256_packs_epi16(good, _mm256_setzero_si256())) as u32;
        let halves = [
            (_mm256_castsi256_si128(vals), masks & 0xff),
            (_mm256_extracti128_si256::<1>(vals), (masks >> 16) & 0xff),
        ];
        for ((h, mask), (kept, count)) in halves
            .into_iter()
            .zip(kept.iter_mut().zip(counts.iter_mut()))
        {
            let m = mask as usize;
            let (Some(row), Some(&c)) = (COMPACT16.get(m), v16::POPCOUNT8.get(m)) else {
                break;
            };
            // SAFETY: the table row is 16 readable bytes; loadu has no
            // alignment need.
            let idx = unsafe { _mm_loadu_si128(row.as_ptr().cast()) };
            *kept = _mm_shuffle_epi8(h, idx);
            *count = usize::from(c);
        }
    }
    // The stores after all the loads (see the q = 8380417 `rej_block`: a
    // store's address waits on the counts before it, and a later load may
    // be held until it is known, so interleaved stores stall the loads).
    let mut n = 0usize;
    for (&h, &c) in kept.iter().zip(counts.iter()) {
        let Some(dst) = out
            .get_mut(n..n + 8)
            .and_then(|s| <&mut [i16; 8]>::try_from(s).ok())
        else {
            break;
        };
        // SAFETY: `dst` is 16 writable bytes; storeu has no alignment need.
        unsafe { _mm_storeu_si128(dst.as_mut_ptr().cast(), h) };
        n += c;
    }
    n
}

/// SampleNTT step: [`rej_block`] straight into the polynomial while a whole
/// block's candidates fit after `filled` (lanes past the count are
/// overwritten later), else into a scratch row and append what fits.
/// Equal to the portable step for the first returned-count coefficients.
#[target_feature(enable = "avx2")]
pub(super) fn rej_uniform(a: &mut Poly, filled: usize, buf: &[u8; 168]) -> usize {
    crate::avx2_i16::sample_step::<i16, CANDIDATES>(&mut a.coeffs, filled, |row| {
        rej_block(row, buf)
    })
}

/// 16 bytes of `bytes` from `at` (zeros past its end, through a wiped
/// copy: the message is decoded here too).
#[inline]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
fn window(bytes: &[u8], at: usize) -> core::arch::x86_64::__m128i {
    use core::arch::x86_64::*;
    if let Some(w) = bytes
        .get(at..at + 16)
        .and_then(|s| <&[u8; 16]>::try_from(s).ok())
    {
        // SAFETY: `w` is 16 readable bytes; loadu has no alignment need.
        return unsafe { _mm_loadu_si128(w.as_ptr().cast()) };
    }
    let mut t = [0u8; 16];
    for (d, s) in t.iter_mut().zip(bytes.iter().skip(at)) {
        *d = *s;
    }
    // SAFETY: `t` is 16 readable bytes.
    let v = unsafe { _mm_loadu_si128(t.as_ptr().cast()) };
    crate::wipe::wipe(&mut t);
    v
}

/// ByteDecode_d in 16-bit lanes for `d` in {1, 4, 5, 10} (where every
/// value lies within the two bytes starting at its first byte): per
/// 128-bit lane of 8 values (`d` bytes), the byte pair of value `j` and the
/// multiplier `2^(16 - d - o)` (`o = j d mod 8`) that moves the value to
/// the top of the lane.
const fn unpack16_consts(d: usize) -> ([u8; 16], [i16; 8]) {
    let mut idx = [0u8; 16];
    let mut mul = [0i16; 8];
    let mut j = 0;
    while j < 8 {
        let (b, o) = (j * d / 8, j * d % 8);
        idx[2 * j] = b as u8;
        idx[2 * j + 1] = b as u8 + 1;
        mul[j] = (1u32 << (16 - d - o)) as u16 as i16;
        j += 1;
    }
    (idx, mul)
}

/// ByteDecode_d then Decompress_d for `D` in {1, 4, 5, 10}, 16 values per
/// step: the value moved to the top of its lane by a multiplication,
/// shifted to `y 2^(15 - d)`, and `mulhrs` with q gives
/// `(y q 2^(15 - d) + 2^14) >> 15 = (y q + 2^(d - 1)) >> d` exactly.
#[inline]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
fn decompress16<const D: usize>(bytes: &[u8], a: &mut Poly) {
    use core::arch::x86_64::*;
    let (idx, mul) = const { unpack16_consts(D) };
    // SAFETY: `idx` and `mul` are 16 readable bytes each.
    let (idx, mul) = unsafe {
        (
            _mm256_broadcastsi128_si256(_mm_loadu_si128(idx.as_ptr().cast())),
            _mm256_broadcastsi128_si256(_mm_loadu_si128(mul.as_ptr().cast())),
        )
    };
    let mask = _mm256_set1_epi16((((1u32 << D) - 1) << (15 - D)) as i16);
    let q = _mm256_set1_epi16(Q);
    for (i, chunk) in a.chunks_mut().iter_mut().enumerate() {
        let v = _mm256_set_m128i(window(bytes, 2 * D * i + D), window(bytes, 2 * D * i));
        let w = _mm256_mullo_epi16(_mm256_shuffle_epi8(v, idx), mul);
        let t = _mm256_and_si256(_mm256_srli_epi16::<1>(w), mask);
        v16::store(chunk, _mm256_mulhrs_epi16(t, q));
    }
}

/// ByteDecode_11 then Decompress_11, 16 values (22 bytes) per step: each
/// group of 8 values (11 bytes) in 32-bit lanes (four bytes from the
/// value's first byte, a variable shift, a mask), packed to 16 bits, then
/// `mulhrs` as in [`decompress16`].
#[inline]
#[target_feature(enable = "avx2")]
fn decompress11(bytes: &[u8], a: &mut Poly) {
    use core::arch::x86_64::*;
    // Value j of a group starts at bit 11 j: byte 11 j / 8, shift 11 j mod 8.
    let idx = _mm256_setr_epi8(
        0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 4, 5, 6, 7, //
        5, 6, 7, 8, 6, 7, 8, 9, 8, 9, 10, 11, 9, 10, 11, 12,
    );
    let shifts = _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5);
    let m11 = _mm256_set1_epi32(0x7ff);
    let q = _mm256_set1_epi16(Q);
    let group = |at: usize| {
        let v = _mm256_broadcastsi128_si256(window(bytes, at));
        _mm256_and_si256(_mm256_srlv_epi32(_mm256_shuffle_epi8(v, idx), shifts), m11)
    };
    for (i, chunk) in a.chunks_mut().iter_mut().enumerate() {
        // packus interleaves 64-bit halves: [a0..3, b0..3 | a4..7, b4..7].
        let p = _mm256_packus_epi32(group(22 * i), group(22 * i + 11));
        let p = _mm256_permute4x64_epi64::<0b1101_1000>(p);
        let t = _mm256_slli_epi16::<4>(p);
        v16::store(chunk, _mm256_mulhrs_epi16(t, q));
    }
}

/// ByteDecode_d then Decompress_d (see `Ops::decompress_q3329`): the widths
/// ML-KEM uses in AVX2, others portable.
#[target_feature(enable = "avx2")]
pub(super) fn decompress(d: u32, bytes: &[u8], a: &mut Poly) -> bool {
    if bytes.len() != 32 * d as usize {
        return false;
    }
    match d {
        1 => decompress16::<1>(bytes, a),
        4 => decompress16::<4>(bytes, a),
        5 => decompress16::<5>(bytes, a),
        10 => decompress16::<10>(bytes, a),
        11 => decompress11(bytes, a),
        _ => return super::portable::decompress(d, bytes, a),
    }
    true
}

/// SamplePolyCBD_3 on 24 bytes (32 coefficients) per step: each 32-bit
/// lane takes 3 bytes (4 coefficients of 6 bits), sums the bit triples by
/// masks, moves the upper two 6-bit fields to the upper 16 bits, and the
/// differences of 3-bit sums are taken in 16-bit lanes, then interleaved
/// back into coefficient order.
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
fn cbd3(bytes: &[u8], out: &mut Poly) {
    use core::arch::x86_64::*;
    // Bytes 0..12 of the chunk to lanes 0..3 (low half), bytes 12..24 (at
    // 4..16 of the second load, which starts at byte 8) to lanes 4..7.
    let pick = _mm256_setr_epi8(
        0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, 4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12,
        -1, 13, 14, 15, -1,
    );
    let m249 = _mm256_set1_epi32(0x0024_9249);
    let low12 = _mm256_set1_epi32(0x0000_0FFF);
    let high12 = _mm256_set1_epi32(0x0FFF_0000);
    let m7 = _mm256_set1_epi16(7);
    let (ins, _) = bytes.as_chunks::<24>();
    let (outs, _) = out.coeffs.as_chunks_mut::<32>();
    for (b, o) in ins.iter().zip(outs.iter_mut()) {
        let (lo, hi): (&[u8; 16], &[u8; 16]) = (
            b[..16].try_into().unwrap_or(&[0; 16]),
            b[8..].try_into().unwrap_or(&[0; 16]),
        );
        // SAFETY: `lo`, `hi` are 16 readable bytes each; loadu has no
        // alignment need.
        let v = unsafe {
            _mm256_set_m128i(
                _mm_loadu_si128(hi.as_ptr().cast()),
                _mm_loadu_si128(lo.as_ptr().cast()),
            )
        };
        let t = _mm256_shuffle_epi8(v, pick);
        let d = _mm256_add_epi32(
            _mm256_add_epi32(
                _mm256_and_si256(t, m249),
                _mm256_and_si256(_mm256_srli_epi32::<1>(t), m249),
            ),
            _mm256_and_si256(_mm256_srli_epi32::<2>(t), m249),
        );
        // Fields 0, 1 stay in bits 0..12; fields 2, 3 move to bits 16..28.
        let e = _mm256_or_si256(
            _mm256_and_si256(d, low12),
            _mm256_and_si256(_mm256_slli_epi32::<4>(d), high12),
        );
        let field = |s: __m256i| _mm256_and_si256(s, m7);
        // Coefficients 0 and 2 of each lane, then 1 and 3.
        let ca = _mm256_sub_epi16(field(e), field(_mm256_srli_epi16::<3>(e)));
        let cb = _mm256_sub_epi16(
            field(_mm256_srli_epi16::<6>(e)),
            field(_mm256_srli_epi16::<9>(e)),
        );
        let x = _mm256_unpacklo_epi16(ca, cb); // lanes 0, 1 | 4, 5
        let y = _mm256_unpackhi_epi16(ca, cb); // lanes 2, 3 | 6, 7
        let x0 = _mm256_permute2x128_si256::<0x20>(x, y);
        let x1 = _mm256_permute2x128_si256::<0x31>(x, y);
        let (o0, o1) = o.split_at_mut(16);
        // SAFETY: `o0`, `o1` are 16 writable i16 (32 bytes) each; storeu
        // has no alignment need.
        unsafe {
            _mm256_storeu_si256(o0.as_mut_ptr().cast(), x0);
            _mm256_storeu_si256(o1.as_mut_ptr().cast(), x1);
        }
    }
}

/// Compress_d of 16 canonical representatives (`0 <= x < q`) in 16-bit
/// lanes, exactly the portable `round(2^d x / q) mod 2^d`:
/// - `d` in {1, 4, 5}: `(mulhi_u16(x, C) + 8) >> 4` with `C = 630, 5040,
///   10080` (`~ 2^(d + 20) / q`);
/// - `d` in {10, 11}: `floor((2^(d+1) x + q) / 2q)`, the numerator below
///   `2^24` (exact in f32) times f32 `1/2q`, truncated.
///
/// Both were checked for every `x` below q (the f32 one under every
/// rounding mode; truncation does not depend on it), and the unit test
/// checks the kernel for every `i16` input.
#[inline]
#[target_feature(enable = "avx2")]
fn compress16<const D: u32>(x: V) -> V {
    use core::arch::x86_64::*;
    let mask = _mm256_set1_epi16(((1u32 << D) - 1) as i16);
    if D <= 5 {
        let c: i16 = match D {
            1 => 630,
            4 => 5040,
            _ => 10080,
        };
        let h = _mm256_mulhi_epu16(x, _mm256_set1_epi16(c));
        let y = _mm256_srli_epi16::<4>(_mm256_add_epi16(h, _mm256_set1_epi16(8)));
        return _mm256_and_si256(y, mask);
    }
    let shift = _mm_cvtsi32_si128(D as i32 + 1);
    let q = _mm256_set1_epi32(i32::from(Q));
    let r = _mm256_set1_ps(1.0 / (2.0 * Q as f32));
    let half = |h: __m128i| {
        let z = _mm256_add_epi32(_mm256_sll_epi32(_mm256_cvtepu16_epi32(h), shift), q);
        _mm256_cvttps_epi32(_mm256_mul_ps(_mm256_cvtepi32_ps(z), r))
    };
    let lo = half(_mm256_castsi256_si128(x));
    let hi = half(_mm256_extracti128_si256::<1>(x));
    // packus interleaves 64-bit halves; the permutation restores the order.
    let y = _mm256_permute4x64_epi64::<0b1101_1000>(_mm256_packus_epi32(lo, hi));
    _mm256_and_si256(y, mask)
}

/// ByteEncode_d of 16 `d`-bit values in 16-bit lanes: each 128-bit lane's
/// 8 values end up as its first `d` bytes (pairs joined by `madd`, then
/// 64-bit and 128-bit joins with shifts).
#[inline]
#[target_feature(enable = "avx2")]
fn pack16<const D: u32>(y: V) -> V {
    use core::arch::x86_64::*;
    let d = D as i32;
    // Pairs: 2d bits per 32-bit lane.
    let mul = _mm256_set1_epi32((1 << 16) * (1 << d) + 1);
    let v = _mm256_madd_epi16(y, mul);
    // 32-bit pairs: 4d bits per 64-bit lane.
    let t = _mm256_or_si256(
        _mm256_and_si256(v, _mm256_set1_epi64x((1 << (2 * d)) - 1)),
        _mm256_srl_epi64(
            _mm256_and_si256(v, _mm256_set1_epi64x(-1 << 32)),
            _mm_cvtsi32_si128(32 - 2 * d),
        ),
    );
    // 64-bit pairs: 8d bits from the lane's start.
    let s = _mm256_bsrli_epi128::<8>(t);
    let lo = _mm256_and_si256(t, _mm256_set_epi64x(0, -1, 0, -1));
    let up = _mm256_sll_epi64(s, _mm_cvtsi32_si128(4 * d));
    let carry = _mm256_bslli_epi128::<8>(_mm256_srl_epi64(s, _mm_cvtsi32_si128(64 - 4 * d)));
    _mm256_or_si256(_mm256_or_si256(lo, up), carry)
}

/// Compress_d and ByteEncode_d for `D` in {1, 4, 5, 10, 11}, 16 values
/// (`2 D` bytes) per step into a padded (wiped) row: each step stores its
/// two 128-bit lanes at `2 D i` and `2 D i + D`, the bytes past them being
/// overwritten by the next store.
#[inline]
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
fn compress_encode_d<const D: u32>(a: &Poly, out: &mut [u8]) {
    use core::arch::x86_64::*;
    let c = Consts::new(MOD);
    let q = _mm256_set1_epi16(Q);
    let d = D as usize;
    let mut row = [0u8; 32 * 11 + 16];
    for (i, chunk) in a.chunks().iter().enumerate() {
        // Canonical: Barrett, then + q where negative.
        let r = v16::barrett(v16::load(chunk), &c);
        let x = _mm256_add_epi16(r, _mm256_and_si256(_mm256_srai_epi16::<15>(r), q));
        let p = pack16::<D>(compress16::<D>(x));
        let halves = [
            (2 * d * i, _mm256_castsi256_si128(p)),
            (2 * d * i + d, _mm256_extracti128_si256::<1>(p)),
        ];
        for (at, h) in halves {
            if let Some(dst) = row
                .get_mut(at..at + 16)
                .and_then(|s| <&mut [u8; 16]>::try_from(s).ok())
            {
                // SAFETY: `dst` is 16 writable bytes; storeu has no
                // alignment need.
                unsafe { _mm_storeu_si128(dst.as_mut_ptr().cast(), h) };
            }
        }
    }
    if let Some(src) = row.get(..32 * d) {
        out.copy_from_slice(src);
    }
    crate::wipe::wipe(&mut row);
}

/// Compress_d and ByteEncode_d (see `Ops::compress_encode_q3329`): the
/// widths ML-KEM uses in AVX2, others portable.
#[target_feature(enable = "avx2")]
pub(super) fn compress_encode(a: &Poly, d: u32, out: &mut [u8]) -> bool {
    if out.len() != 32 * d as usize {
        return false;
    }
    match d {
        1 => compress_encode_d::<1>(a, out),
        4 => compress_encode_d::<4>(a, out),
        5 => compress_encode_d::<5>(a, out),
        10 => compress_encode_d::<10>(a, out),
        11 => compress_encode_d::<11>(a, out),
        _ => return super::portable::compress_encode(a, d, out),
    }
    true
}

/// SamplePolyCBD_2 on 16 bytes (32 coefficients) per step: pair sums by
/// masks, the four 2-bit fields of each byte, differences, then the low
/// and high nibbles' results interleaved back into coefficient order and
/// sign-extended. SamplePolyCBD_3: [`cbd3`].
#[target_feature(enable = "avx2")]
#[allow(unsafe_code)]
pub(super) fn cbd(eta: usize, bytes: &[u8], out: &mut Poly) {
    use core::arch::x86_64::*;
    if eta == 3 {
        cbd3(bytes, out);
        return;
    }
    if eta != 2 {
        super::portable::cbd(eta, bytes, out);
        return;
    }
    let m55 = _mm_set1_epi8(0x55);
    let m03 = _mm_set1_epi8(0x03);
    let (ins, _) = bytes.as_chunks::<16>();
    let (outs, _) = out.coeffs.as_chunks_mut::<32>();
    for (b, o) in ins.iter().zip(outs.iter_mut()) {
        // SAFETY: `b` is 16 readable bytes; loadu has no alignment need.
        let v = unsafe { _mm_loadu_si128(b.as_ptr().cast()) };
        let t = _mm_add_epi8(
            _mm_and_si128(v, m55),
            _mm_and_si128(_mm_srli_epi16::<1>(v), m55),
        );
        let a_lo = _mm_and_si128(t, m03);
        let b_lo = _mm_and_si128(_mm_srli_epi16::<2>(t), m03);
        let a_hi = _mm_and_si128(_mm_srli_epi16::<4>(t), m03);
        let b_hi = _mm_and_si128(_mm_srli_epi16::<6>(t), m03);
        let c_lo = _mm_sub_epi8(a_lo, b_lo);
        let c_hi = _mm_sub_epi8(a_hi, b_hi);
        let x0 = _mm256_cvtepi8_epi16(_mm_unpacklo_epi8(c_lo, c_hi));
        let x1 = _mm256_cvtepi8_epi16(_mm_unpackhi_epi8(c_lo, c_hi));
        let (o0, o1) = o.split_at_mut(16);
        // SAFETY: `o0`, `o1` are 16 writable i16 (32 bytes) each; storeu
        // has no alignment need.
        unsafe {
            _mm256_storeu_si256(o0.as_mut_ptr().cast(), x0);
            _mm256_storeu_si256(o1.as_mut_ptr().cast(), x1);
        }
    }
}

/// ByteEncode_12 of canonical representatives, 16 coefficients to 24
/// bytes per step: Barrett and the conditional `+q` (the scalar
/// `canonical`, exactly), pairs joined into 24-bit words by one
/// multiply-add (`x + 4096 y`), three bytes of each word gathered by a
/// byte shuffle and the two halves' 12 bytes joined by a dword permute.
#[target_feature(enable = "avx2")]
pub(super) fn encode12(a: &Poly, out: &mut [u8; 384]) {
    use core::arch::x86_64::*;
    let c = Consts::new(MOD);
    let q = _mm256_set1_epi16(Q);
    let join = _mm256_set1_epi32(1 | (4096 << 16));
    let bytes3 = _mm256_setr_epi8(
        0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1, //
        0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
    );
    let dwords = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
    for (chunk, o) in a.chunks().iter().zip(out.chunks_exact_mut(24)) {
        let r = v16::barrett(v16::load(chunk), &c);
        let r = _mm256_add_epi16(r, _mm256_and_si256(_mm256_srai_epi16::<15>(r), q));
        let w = _mm256_madd_epi16(r, join);
        let p = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(w, bytes3), dwords);
        let (lo, hi) = o.split_at_mut(16);
        // SAFETY: `lo` is 16 writable bytes and `hi` 8; the unaligned
        // stores write exactly that many.
        #[allow(unsafe_code)]
        unsafe {
            _mm_storeu_si128(lo.as_mut_ptr().cast(), _mm256_castsi256_si128(p));
            _mm_storel_epi64(hi.as_mut_ptr().cast(), _mm256_extracti128_si256::<1>(p));
        }
    }
}

/// ByteDecode_12 with the modulus check, 24 bytes to 16 coefficients per
/// step: two 16-byte loads (bytes 0..16 and 8..24, so nothing past the
/// input is read), a byte shuffle placing each coefficient's two bytes in
/// a 16-bit lane (the high half starting at its byte 4, input byte 12),
/// the low 12 bits of even lanes and the top 12 of odd ones; the check
/// ANDs `q > value` over every lane.
#[target_feature(enable = "avx2")]
pub(super) fn decode12(bytes: &[u8; 384], a: &mut Poly) -> subtle::Choice {
    use core::arch::x86_64::*;
    let q = _mm256_set1_epi16(Q);
    let m12 = _mm256_set1_epi16(0xfff);
    let spread = _mm256_setr_epi8(
        0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11, //
        4, 5, 5, 6, 7, 8, 8, 9, 10, 11, 11, 12, 13, 14, 14, 15,
    );
    let mut ok = _mm256_set1_epi16(-1);
    for (chunk, src) in a.chunks_mut().iter_mut().zip(bytes.chunks_exact(24)) {
        let (lo, hi) = (&src[..16], &src[8..24]);
        // SAFETY: `lo` and `hi` are 16 readable bytes each; loadu has no
        // alignment requirement.
        #[allow(unsafe_code)]
        let v = unsafe {
            _mm256_set_m128i(
                _mm_loadu_si128(hi.as_ptr().cast()),
                _mm_loadu_si128(lo.as_ptr().cast()),
            )
        };
        let w = _mm256_shuffle_epi8(v, spread);
        let vals =
            _mm256_blend_epi16::<0b1010_1010>(_mm256_and_si256(w, m12), _mm256_srli_epi16::<4>(w));
        ok = _mm256_and_si256(ok, _mm256_cmpgt_epi16(q, vals));
        v16::store(chunk, vals);
    }
    let all = _mm256_movemask_epi8(ok) as u32;
    subtle::Choice::from(u8::from(all == u32::MAX))
}

impl Ops for crate::backend::Avx2 {
    #[inline]
    fn ntt_q3329(self, a: &mut Poly) {
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            ntt(a)
        }
    }
    #[inline]
    fn inv_ntt_tomont_q3329(self, a: &mut Poly) {
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            inv_ntt_tomont(a)
        }
    }
    #[inline]
    fn basemul_mont_q3329(self, a: &Poly, b: &Poly, r: &mut Poly) {
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            basemul_mont(a, b, r)
        }
    }
    #[inline]
    fn dot_mont_q3329(self, a: &[Poly], b: &[Poly], r: &mut Poly) {
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            dot_mont(a, b, r)
        }
    }
    #[inline]
    fn fqmul_add_q3329(self, a: &mut Poly, f: i16, b: &Poly) {
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            fqmul_add(a, f, b)
        }
    }
    #[inline]
    fn decompress_q3329(self, d: u32, bytes: &[u8], a: &mut Poly) -> bool {
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            decompress(d, bytes, a)
        }
    }
    #[inline]
    fn reduce_q3329(self, a: &mut Poly) {
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            reduce(a)
        }
    }
    #[inline]
    fn rej_uniform_q3329(self, a: &mut Poly, filled: usize, buf: &[u8; 168]) -> usize {
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            rej_uniform(a, filled, buf)
        }
    }
    #[inline]
    fn compress_encode_q3329(self, a: &Poly, d: u32, out: &mut [u8]) -> bool {
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            compress_encode(a, d, out)
        }
    }
    #[inline]
    fn cbd_q3329(self, eta: usize, bytes: &[u8], out: &mut Poly) {
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            cbd(eta, bytes, out)
        }
    }
    #[inline]
    fn encode12_q3329(self, a: &Poly, out: &mut [u8; 384]) {
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            encode12(a, out)
        }
    }
    #[inline]
    fn decode12_q3329(self, bytes: &[u8; 384], a: &mut Poly) -> subtle::Choice {
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            decode12(bytes, a)
        }
    }
}
