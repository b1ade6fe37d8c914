//! aarch64 NEON kernels for q = 3329, on the shared 8-lane engine
//! (`neon_i16`): the transforms and products, lane for lane the portable
//! kernels.

#![allow(unsafe_code)]

use super::{INV_NTT_F, MOD, N, Ops, Poly, Q, ZETAS};
use crate::neon_i16::{self as v, Consts};
use core::arch::aarch64::{
    int16x8_t, uint8x16x2_t, vaddq_s16, vaddq_u8, vaddq_u32, vaddvq_u16, vandq_s16, vandq_u8,
    vandq_u16, vandq_u32, vbslq_u16, vcltq_u16, vcombine_s16, vdupq_n_s16, vdupq_n_s32, vdupq_n_u8,
    vdupq_n_u16, vdupq_n_u32, vget_low_s8, vld1q_u8, vld1q_u16, vminvq_u16, vmovl_high_s8,
    vmovl_s8, vmovn_s32, vorrq_u32, vqtbl1q_u8, vqtbl2q_u8, vreinterpretq_s8_u8,
    vreinterpretq_s16_u8, vreinterpretq_s16_u16, vreinterpretq_s32_u32, vreinterpretq_u8_s16,
    vreinterpretq_u8_u16, vreinterpretq_u8_u32, vreinterpretq_u16_u8, vreinterpretq_u32_s16,
    vshlq_u32, vshrq_n_s16, vshrq_n_u8, vshrq_n_u16, vshrq_n_u32, vst1q_u8, vsubq_s32, vsubq_u8,
    vzip1q_s8, vzip2q_s8,
};

static COMPACT: [[u8; 16]; 256] = crate::compact::compact16();

/// Every u16 lane `x`.
#[inline(always)]
fn v_u16(x: u16) -> core::arch::aarch64::uint16x8_t {
    // SAFETY: register operation only; NEON is in the build's baseline.
    unsafe { vdupq_n_u16(x) }
}

/// Sixteen bytes.
#[inline(always)]
fn load_bytes(b: &[u8; 16]) -> core::arch::aarch64::uint8x16_t {
    // SAFETY: `b` is 16 readable bytes; NEON is in the build's baseline.
    unsafe { vld1q_u8(b.as_ptr()) }
}

/// The eight 12-bit candidates of 12 bytes (the first 12 of `b`), in the
/// order of FIPS 203 Alg. 7: lane `2p` is `b[3p] | (b[3p+1] & 15) << 8`,
/// lane `2p+1` is `b[3p+1] >> 4 | b[3p+2] << 4`.
#[inline(always)]
fn candidates(b: &[u8; 16]) -> core::arch::aarch64::uint16x8_t {
    const PAIRS: [u8; 16] = [0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11];
    const EVEN: [u16; 8] = [0xffff, 0, 0xffff, 0, 0xffff, 0, 0xffff, 0];
    // SAFETY: register operations and loads of the 16-byte constants.
    unsafe {
        let pairs = vreinterpretq_u16_u8(vqtbl1q_u8(load_bytes(b), vld1q_u8(PAIRS.as_ptr())));
        let even = vandq_u16(pairs, vdupq_n_u16(0x0fff));
        let odd = vshrq_n_u16::<4>(pairs);
        vbslq_u16(vld1q_u16(EVEN.as_ptr()), even, odd)
    }
}

/// FIPS 203 Alg. 7's candidates of `buf` below q, in order, packed into
/// `acc`; returns their number. Eight candidates (12 bytes) at a time: the
/// accepted lanes are moved to the front by a table lookup (`TBL`) from
/// [`COMPACT`] and stored whole at the current end (the lanes after it
/// are overwritten by the next store). The data is public (the matrix
/// seed's stream), so the table index may depend on it.
fn rej_block(acc: &mut [i16; 120], buf: &[u8; 168]) -> usize {
    const BITS: [u16; 8] = [1, 2, 4, 8, 16, 32, 64, 128];
    let mut n = 0;
    let mut last = [0u8; 16];
    last[..12].copy_from_slice(&buf[156..]);
    for k in 0..14 {
        // The last 12 bytes have no 16-byte window in `buf`.
        let window = buf[12 * k..].first_chunk::<16>().unwrap_or(&last);
        let c = candidates(window);
        // SAFETY: register operations and loads of 16-byte tables.
        let (m, packed) = unsafe {
            let ok = vcltq_u16(c, vdupq_n_u16(Q as u16));
            let m = vaddvq_u16(vandq_u16(ok, vld1q_u16(BITS.as_ptr())));
            let idx = vld1q_u8(COMPACT[usize::from(m & 0xff)].as_ptr());
            let packed = vqtbl1q_u8(vreinterpretq_u8_u16(c), idx);
            (m, vreinterpretq_s16_u8(packed))
        };
        // n <= 8 k, so the eight lanes from n fit in `acc`.
        if let Some(dst) = acc[n..].first_chunk_mut::<8>() {
            v::store(dst, packed);
        }
        n += m.count_ones() as usize;
    }
    n
}

/// FIPS 203 Alg. 8 with eta = 2 on 16 bytes (32 coefficients): each byte
/// of `d = (t & 0x55) + ((t >> 1) & 0x55)` holds two coefficients' bit
/// counts `a` (bits 0-1, 4-5) and `b` (bits 2-3, 6-7). Secret data: only
/// lane arithmetic and fixed permutations.
#[inline(always)]
fn cbd2_block(bytes: &[u8; 16], out: &mut [[i16; 8]]) {
    // SAFETY: register operations only; NEON is in the baseline.
    let (first, second) = unsafe {
        let t = load_bytes(bytes);
        let (m55, m03) = (vdupq_n_u8(0x55), vdupq_n_u8(0x03));
        let d = vaddq_u8(vandq_u8(t, m55), vandq_u8(vshrq_n_u8::<1>(t), m55));
        let lo = vsubq_u8(vandq_u8(d, m03), vandq_u8(vshrq_n_u8::<2>(d), m03));
        let hi = vsubq_u8(vandq_u8(vshrq_n_u8::<4>(d), m03), vshrq_n_u8::<6>(d));
        let (lo, hi) = (vreinterpretq_s8_u8(lo), vreinterpretq_s8_u8(hi));
        (vzip1q_s8(lo, hi), vzip2q_s8(lo, hi))
    };
    let [o0, o1, o2, o3] = out else { return };
    // SAFETY: register operations only.
    unsafe {
        v::store(o0, vmovl_s8(vget_low_s8(first)));
        v::store(o1, vmovl_high_s8(first));
        v::store(o2, vmovl_s8(vget_low_s8(second)));
        v::store(o3, vmovl_high_s8(second));
    }
}

/// FIPS 203 Alg. 8 with eta = 3 on 12 bytes (16 coefficients, the first 12
/// of `bytes`): each 3-byte group in a 32-bit lane, its bit counts
/// `d = t & 0x249249 + ...`, coefficient `i` of the group is
/// `(d >> 6i & 7) - (d >> 6i+3 & 7)`, gathered back into order. Secret
/// data: only lane arithmetic and fixed permutations.
#[inline(always)]
fn cbd3_block(bytes: &[u8; 16], out: &mut [[i16; 8]]) {
    // Bytes 3g..3g+3 into 32-bit lane g (index 0x80 gives a zero byte).
    const GROUPS: [u8; 16] = [0, 1, 2, 0x80, 3, 4, 5, 0x80, 6, 7, 8, 0x80, 9, 10, 11, 0x80];
    // 16-bit lanes 0, 4, 8, 12, 1, 5, 9, 13 and 2, 6, 10, 14, 3, 7, 11, 15
    // of `n01 || n23`, as byte indices.
    const LOW: [u8; 16] = [0, 1, 8, 9, 16, 17, 24, 25, 2, 3, 10, 11, 18, 19, 26, 27];
    const HIGH: [u8; 16] = [4, 5, 12, 13, 20, 21, 28, 29, 6, 7, 14, 15, 22, 23, 30, 31];
    // SAFETY: register operations and loads of the 16-byte constants.
    let (o0v, o1v) = unsafe {
        let t = vqtbl1q_u8(load_bytes(bytes), vld1q_u8(GROUPS.as_ptr()));
        let t = core::arch::aarch64::vreinterpretq_u32_u8(t);
        let m = vdupq_n_u32(0x0024_9249);
        let d = vaddq_u32(
            vaddq_u32(vandq_u32(t, m), vandq_u32(vshrq_n_u32::<1>(t), m)),
            vandq_u32(vshrq_n_u32::<2>(t), m),
        );
        let seven = vdupq_n_u32(7);
        let coeff = |s: i32| {
            let a = vandq_u32(vshlq_u32(d, vdupq_n_s32(-s)), seven);
            let b = vandq_u32(vshlq_u32(d, vdupq_n_s32(-s - 3)), seven);
            vsubq_s32(vreinterpretq_s32_u32(a), vreinterpretq_s32_u32(b))
        };
        let n01 = vcombine_s16(vmovn_s32(coeff(0)), vmovn_s32(coeff(6)));
        let n23 = vcombine_s16(vmovn_s32(coeff(12)), vmovn_s32(coeff(18)));
        let both = uint8x16x2_t(vreinterpretq_u8_s16(n01), vreinterpretq_u8_s16(n23));
        (
            vreinterpretq_s16_u8(vqtbl2q_u8(both, vld1q_u8(LOW.as_ptr()))),
            vreinterpretq_s16_u8(vqtbl2q_u8(both, vld1q_u8(HIGH.as_ptr()))),
        )
    };
    let [o0, o1] = out else { return };
    v::store(o0, o0v);
    v::store(o1, o1v);
}

static BASEMUL_Z: [[i16; 8]; N / 16] = super::basemul_zetas8();

/// The base multiplication of one 16-coefficient chunk (`x || y` of each
/// operand), returned as its two halves: the pairs are split into their
/// even and odd coefficients, multiplied as the portable `basemul_mont`
/// does, and interleaved again.
#[inline(always)]
fn basemul_chunk(
    a: &[[i16; 8]],
    b: &[[i16; 8]],
    z: &[i16; 8],
    c: &Consts,
) -> (int16x8_t, int16x8_t) {
    let (ax, ay) = (v::load(&a[0]), v::load(&a[1]));
    let (bx, by) = (v::load(&b[0]), v::load(&b[1]));
    let (a0, a1) = (v::even(ax, ay), v::odd(ax, ay));
    let (b0, b1) = (v::even(bx, by), v::odd(bx, by));
    let r0 = v::add(
        v::fqmul(v::fqmul(a1, b1, c), v::load(z), c),
        v::fqmul(a0, b0, c),
    );
    let r1 = v::add(v::fqmul(a0, b1, c), v::fqmul(a1, b0, c));
    (v::interleave_low(r0, r1), v::interleave_high(r0, r1))
}

/// ByteDecode_d then Decompress_d for `D` in {1, 4, 5, 10, 11}, eight
/// values (`D` bytes) per step: [`v::unpack8`], then with
/// `t = y 2^(15 - D)` (below `2^15`), `SQRDMULH` by q gives
/// `(2 t q + 2^15) >> 16 = (y q + 2^(D - 1)) >> D`, exactly the portable
/// value. The input (the message, for `D = 1`) is copied into a padded
/// buffer so that every 16-byte window is in bounds, and wiped.
fn decompress_d<const D: usize>(bytes: &[u8], a: &mut Poly) {
    use core::arch::aarch64::*;
    let mut buf = [0u8; 32 * 11 + 16];
    let n = bytes.len().min(32 * D);
    buf[..n].copy_from_slice(&bytes[..n]);
    for (k, out) in a.coeffs.as_chunks_mut::<8>().0.iter_mut().enumerate() {
        let window = buf[D * k..].first_chunk::<16>().unwrap_or(&[0; 16]);
        let y = v::unpack8::<D>(window);
        // SAFETY: register operations only.
        let r = unsafe {
            let t = vshlq_s16(vreinterpretq_s16_u16(y), vdupq_n_s16(15 - D as i16));
            vqrdmulhq_s16(t, vdupq_n_s16(Q))
        };
        v::store(out, r);
    }
    crate::wipe::wipe(&mut buf);
}

/// Compress_d of eight canonical values (`0 <= x < q`), exactly the
/// portable `round(2^d x / q) mod 2^d`, by the AVX2 kernel's two exact
/// methods:
/// - `D` in {1, 4, 5}: `((x C) >> 16 + 8) >> 4` with `C = 630, 5040,
///   10080` (`SQDMULH` by `C / 2`: `C` is even, and `2 x C/2 < 2^31`);
/// - `D` in {10, 11}: `floor((2^(D+1) x + q) / 2q)`, the numerator below
///   `2^24` (exact in f32) times f32 `1/2q`, truncated (`FCVTZU`).
#[inline(always)]
fn compress8<const D: usize>(x: int16x8_t) -> core::arch::aarch64::uint16x8_t {
    use core::arch::aarch64::*;
    // SAFETY: register operations only.
    unsafe {
        let mask = vdupq_n_u16(((1u32 << D) - 1) as u16);
        if D <= 5 {
            let c: i16 = match D {
                1 => 630,
                4 => 5040,
                _ => 10080,
            };
            let h = vreinterpretq_u16_s16(vqdmulhq_s16(x, vdupq_n_s16(c / 2)));
            return vandq_u16(vshrq_n_u16::<4>(vaddq_u16(h, vdupq_n_u16(8))), mask);
        }
        let x = vreinterpretq_u16_s16(x);
        let r = vdupq_n_f32(1.0 / (2.0 * Q as f32));
        let half = |h: uint32x4_t| {
            let z = vaddq_u32(
                vshlq_u32(h, vdupq_n_s32(D as i32 + 1)),
                vdupq_n_u32(Q as u32),
            );
            vreinterpretq_u16_u32(vcvtq_u32_f32(vmulq_f32(vcvtq_f32_u32(z), r)))
        };
        let lo = half(vmovl_u16(vget_low_u16(x)));
        let hi = half(vmovl_high_u16(x));
        vandq_u16(vuzp1q_u16(lo, hi), mask)
    }
}

/// ByteEncode_d of eight `D`-bit values (`D2 = 2 D`): pairs joined in
/// 32-bit lanes and those in 64-bit lanes by shift-and-insert (`SLI`),
/// then the two 64-bit halves in a scalar word; its `D` low bytes.
#[inline(always)]
fn pack8<const D: i32, const D2: i32>(y: core::arch::aarch64::uint16x8_t) -> u128 {
    use core::arch::aarch64::*;
    // SAFETY: register operations only.
    let (lo, hi) = unsafe {
        let w = vreinterpretq_u32_u16(y);
        let w = vsliq_n_u32::<D>(w, vshrq_n_u32::<16>(w));
        let w = vreinterpretq_u64_u32(w);
        let w = vsliq_n_u64::<D2>(w, vshrq_n_u64::<32>(w));
        (vgetq_lane_u64::<0>(w), vgetq_lane_u64::<1>(w))
    };
    u128::from(lo) | (u128::from(hi) << (4 * D))
}

/// Compress_d and ByteEncode_d for `D` in {1, 4, 5, 10, 11}: canonical
/// values (Barrett, then + q where negative), [`compress8`], [`pack8`],
/// `D` bytes per eight values written from the word (no buffer to wipe).
fn compress_encode_d<const D: usize, const DI: i32, const D2: i32>(a: &Poly, out: &mut [u8]) {
    let c = Consts::new(MOD);
    for (x, o) in a
        .coeffs
        .as_chunks::<8>()
        .0
        .iter()
        .zip(out.chunks_exact_mut(D))
    {
        let r = v::barrett(v::load(x), &c);
        // SAFETY: register operations only.
        let x = unsafe { vaddq_s16(r, vandq_s16(vshrq_n_s16::<15>(r), vdupq_n_s16(Q))) };
        let w = pack8::<DI, D2>(compress8::<D>(x));
        for (i, b) in o.iter_mut().enumerate() {
            *b = (w >> (8 * i)) as u8;
        }
    }
}

impl Ops for crate::backend::Neon {
    fn ntt_q3329(self, a: &mut Poly) {
        v::forward(&mut a.coeffs, &ZETAS, MOD, 0, 2);
    }

    fn inv_ntt_tomont_q3329(self, a: &mut Poly) {
        v::inverse(&mut a.coeffs, &ZETAS, MOD, 2, INV_NTT_F);
    }

    fn basemul_mont_q3329(self, a: &Poly, b: &Poly, r: &mut Poly) {
        let c = Consts::new(MOD);
        let (a, _) = a.coeffs.as_chunks::<8>();
        let (b, _) = b.coeffs.as_chunks::<8>();
        let (r, _) = r.coeffs.as_chunks_mut::<8>();
        for (((r, a), b), z) in r
            .chunks_exact_mut(2)
            .zip(a.chunks_exact(2))
            .zip(b.chunks_exact(2))
            .zip(&BASEMUL_Z)
        {
            let (x, y) = basemul_chunk(a, b, z, &c);
            v::store(&mut r[0], x);
            v::store(&mut r[1], y);
        }
    }

    fn dot_mont_q3329(self, a: &[Poly], b: &[Poly], r: &mut Poly) {
        let c = Consts::new(MOD);
        let (out, _) = r.coeffs.as_chunks_mut::<8>();
        for (k, (o, z)) in out.chunks_exact_mut(2).zip(&BASEMUL_Z).enumerate() {
            let (mut x, mut y) = (v::splat(0), v::splat(0));
            for (p, q) in a.iter().zip(b).take(4) {
                let pa = &p.coeffs.as_chunks::<8>().0[2 * k..2 * k + 2];
                let pb = &q.coeffs.as_chunks::<8>().0[2 * k..2 * k + 2];
                let (s, t) = basemul_chunk(pa, pb, z, &c);
                x = v::add(x, s);
                y = v::add(y, t);
            }
            v::store(&mut o[0], v::barrett(x, &c));
            v::store(&mut o[1], v::barrett(y, &c));
        }
    }

    fn fqmul_add_q3329(self, a: &mut Poly, f: i16, b: &Poly) {
        let c = Consts::new(MOD);
        let fv = v::splat(f);
        for (x, y) in a
            .coeffs
            .as_chunks_mut::<8>()
            .0
            .iter_mut()
            .zip(b.coeffs.as_chunks::<8>().0)
        {
            v::store(
                x,
                v::barrett(v::add(v::fqmul(v::load(x), fv, &c), v::load(y)), &c),
            );
        }
    }

    fn reduce_q3329(self, a: &mut Poly) {
        v::reduce(&mut a.coeffs, MOD);
    }

    fn rej_uniform_q3329(self, a: &mut Poly, filled: usize, buf: &[u8; 168]) -> usize {
        super::rej_uniform_by_block(a, filled, buf, rej_block)
    }

    fn encode12_q3329(self, a: &Poly, out: &mut [u8; 384]) {
        // Canonical values (Barrett, then + q where negative), each pair
        // `x, y` as one 32-bit lane `x | y << 16` turned into
        // `x | y << 12`, whose three low bytes are the pair's encoding;
        // a TBL gathers the twelve bytes of eight values.
        const BYTES: [u8; 16] = [
            0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0x80, 0x80, 0x80, 0x80,
        ];
        let c = Consts::new(MOD);
        let (groups, _) = out.as_chunks_mut::<12>();
        for (x, o) in a.coeffs.as_chunks::<8>().0.iter().zip(groups) {
            let r = v::barrett(v::load(x), &c);
            // SAFETY: register operations and a load of the 16-byte
            // constant; secret data only in lane arithmetic and a TBL with
            // fixed indices.
            let packed = unsafe {
                let r = vaddq_s16(r, vandq_s16(vshrq_n_s16::<15>(r), vdupq_n_s16(Q)));
                let w = vreinterpretq_u32_s16(r);
                let w = vorrq_u32(
                    vandq_u32(w, vdupq_n_u32(0x0fff)),
                    vandq_u32(vshrq_n_u32::<4>(w), vdupq_n_u32(0x00ff_f000)),
                );
                vqtbl1q_u8(vreinterpretq_u8_u32(w), vld1q_u8(BYTES.as_ptr()))
            };
            let mut b = [0u8; 16];
            // SAFETY: `b` is 16 writable bytes.
            unsafe { vst1q_u8(b.as_mut_ptr(), packed) };
            o.copy_from_slice(&b[..12]);
            crate::wipe::wipe(&mut b);
        }
    }

    fn decode12_q3329(self, bytes: &[u8; 384], a: &mut Poly) -> subtle::Choice {
        // Eight 12-bit values per 12 bytes, as the sampler's candidates;
        // all ones in `below` while every value is below q.
        let q = v_u16(Q as u16);
        let mut below = v_u16(u16::MAX);
        let mut last = [0u8; 16];
        last[..12].copy_from_slice(&bytes[372..]);
        for (k, out) in a.coeffs.as_chunks_mut::<8>().0.iter_mut().enumerate() {
            let window = bytes[12 * k..].first_chunk::<16>().unwrap_or(&last);
            let c = candidates(window);
            // SAFETY: register operations only.
            unsafe {
                below = vandq_u16(below, vcltq_u16(c, q));
                v::store(out, vreinterpretq_s16_u16(c));
            }
        }
        // SAFETY: register operation only; the minimum is data-independent
        // work (no early exit).
        let all = unsafe { vminvq_u16(below) };
        subtle::Choice::from((all & 1) as u8)
    }

    fn cbd_q3329(self, eta: usize, bytes: &[u8], out: &mut Poly) {
        super::cbd_by_blocks(eta, bytes, out, cbd2_block, cbd3_block);
    }

    fn compress_encode_q3329(self, a: &Poly, d: u32, out: &mut [u8]) -> bool {
        if out.len() != 32 * d as usize {
            return false;
        }
        match d {
            1 => compress_encode_d::<1, 1, 2>(a, out),
            4 => compress_encode_d::<4, 4, 8>(a, out),
            5 => compress_encode_d::<5, 5, 10>(a, out),
            10 => compress_encode_d::<10, 10, 20>(a, out),
            11 => compress_encode_d::<11, 11, 22>(a, out),
            _ => return super::portable::compress_encode(a, d, out),
        }
        true
    }

    fn decompress_q3329(self, d: u32, bytes: &[u8], a: &mut Poly) -> bool {
        if bytes.len() != 32 * d as usize {
            return false;
        }
        match d {
            1 => decompress_d::<1>(bytes, a),
            4 => decompress_d::<4>(bytes, a),
            5 => decompress_d::<5>(bytes, a),
            10 => decompress_d::<10>(bytes, a),
            11 => decompress_d::<11>(bytes, a),
            _ => return super::portable::decompress(d, bytes, a),
        }
        true
    }
}
