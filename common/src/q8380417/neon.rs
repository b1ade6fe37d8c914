//! aarch64 NEON kernels for q = 8380417: four `i32` lanes per vector,
//! lane for lane the portable kernels. A Montgomery product by a constant
//! (a zeta, the final factor) is `SQDMULH`, `SQDMULH`, `SHSUB` with
//! `b QINV` precomputed ("Neon NTT", Becker et al., TCHES 2022): `2 a b`
//! and `2 t q` agree in their low 33 bits, so halving the difference of
//! their doubled high halves is exactly `(a b - t q) >> 32`; `SQDMULH`
//! saturates only for `-2^31` times `-2^31`, which neither a zeta nor `q`
//! is. Products of two unknowns (the pointwise kernels) take their high
//! halves from the widening multiplies, exact for every pair.

#![allow(unsafe_code)]

use super::{Eta, INV_NTT_F, N, Ops, Poly, Q, QINV, ZETAS};
use core::arch::aarch64::{
    int32x4_t, vaddq_s32, vaddvq_u32, vandq_u32, vcltq_u32, vcombine_s32, vdupq_n_s32, vdupq_n_u32,
    vextq_s32, vget_low_s32, vhsubq_s32, vld1_s32, vld1q_s32, vld1q_u8, vld1q_u32, vmull_high_s32,
    vmull_s32, vmulq_s32, vnegq_s32, vqdmulhq_s32, vqtbl1q_u8, vreinterpretq_s32_s64,
    vreinterpretq_s32_u8, vreinterpretq_s64_s32, vreinterpretq_u8_u32, vreinterpretq_u32_u8,
    vrev64_s32, vrev64q_s32, vst1q_s32, vsubq_s32, vuzp1q_s32, vuzp2q_s32, vzip1q_s32, vzip1q_s64,
    vzip2q_s32, vzip2q_s64,
};

/// Four lanes of `x`.
#[inline(always)]
fn load(x: &[i32; 4]) -> int32x4_t {
    // SAFETY: `x` is 16 readable bytes with `i32` alignment; NEON is in
    // the build's baseline.
    unsafe { vld1q_s32(x.as_ptr()) }
}

/// Store four lanes to `x`.
#[inline(always)]
fn store(x: &mut [i32; 4], v: int32x4_t) {
    // SAFETY: `x` is 16 writable bytes with `i32` alignment.
    unsafe { vst1q_s32(x.as_mut_ptr(), v) }
}

/// `ZETAS[at..at + 2]`, twice.
#[inline(always)]
fn load2x2(at: usize) -> int32x4_t {
    let w: &[i32; 2] = ZETAS[at..at + 2].try_into().unwrap_or(&[0; 2]);
    // SAFETY: `w` is 8 readable bytes with `i32` alignment; the rest are
    // register operations.
    unsafe {
        let h = vld1_s32(w.as_ptr());
        vcombine_s32(h, h)
    }
}

/// `ZETAS[at..at + 4]`.
#[inline(always)]
fn load4(at: usize) -> int32x4_t {
    let w: &[i32; 4] = ZETAS[at..at + 4].try_into().unwrap_or(&[0; 4]);
    load(w)
}

/// Every lane `x`.
#[inline(always)]
fn splat(x: i32) -> int32x4_t {
    // SAFETY: register operation only.
    unsafe { vdupq_n_s32(x) }
}

/// Lane-wise wrapping `a + b`, `a - b`, low half of `a b`.
#[inline(always)]
fn add(a: int32x4_t, b: int32x4_t) -> int32x4_t {
    // SAFETY: register operation only.
    unsafe { vaddq_s32(a, b) }
}

#[inline(always)]
fn sub(a: int32x4_t, b: int32x4_t) -> int32x4_t {
    // SAFETY: register operation only.
    unsafe { vsubq_s32(a, b) }
}

#[inline(always)]
fn mullo(a: int32x4_t, b: int32x4_t) -> int32x4_t {
    // SAFETY: register operation only.
    unsafe { vmulq_s32(a, b) }
}

/// `montgomery_reduce(a b)` lane by lane for a constant `b` (not `-2^31`)
/// given `bqinv = b QINV mod 2^32` (see the module docs).
#[inline(always)]
fn mont_pre(a: int32x4_t, b: int32x4_t, bqinv: int32x4_t) -> int32x4_t {
    // SAFETY: register operations only.
    unsafe {
        let t = vmulq_s32(a, bqinv);
        vhsubq_s32(vqdmulhq_s32(a, b), vqdmulhq_s32(t, vdupq_n_s32(Q)))
    }
}

/// The high 32 bits of the 64-bit products, lane by lane.
#[inline(always)]
fn mulhi(a: int32x4_t, b: int32x4_t) -> int32x4_t {
    // SAFETY: register operations only.
    unsafe {
        let lo = vmull_s32(vget_low_s32(a), vget_low_s32(b));
        let hi = vmull_high_s32(a, b);
        vuzp2q_s32(vreinterpretq_s32_s64(lo), vreinterpretq_s32_s64(hi))
    }
}

/// `montgomery_reduce(a b)` lane by lane, for any two operands.
#[inline(always)]
fn mont(a: int32x4_t, b: int32x4_t) -> int32x4_t {
    let t = mullo(a, mullo(b, splat(QINV)));
    sub(mulhi(a, b), mulhi(t, splat(Q)))
}

/// Gather the butterflies' first and second inputs of a layer of distance
/// 2 or 1 on eight coefficients `x || y`, or (`back`) put outputs `l`, `h`
/// back in coefficient order.
#[inline(always)]
fn regroup(len: usize, x: int32x4_t, y: int32x4_t, back: bool) -> (int32x4_t, int32x4_t) {
    // SAFETY: register operations only.
    unsafe {
        match (len, back) {
            (2, _) => {
                let (a, b) = (vreinterpretq_s64_s32(x), vreinterpretq_s64_s32(y));
                (
                    vreinterpretq_s32_s64(vzip1q_s64(a, b)),
                    vreinterpretq_s32_s64(vzip2q_s64(a, b)),
                )
            }
            (_, false) => (vuzp1q_s32(x, y), vuzp2q_s32(x, y)),
            (_, true) => (vzip1q_s32(x, y), vzip2q_s32(x, y)),
        }
    }
}

/// One layer of distance 2 or 1 on eight coefficients `x || y`: gather the
/// butterflies' inputs into two vectors, apply `bf`, put them back.
#[inline(always)]
fn small_layer(
    chunk: &mut [i32; 8],
    len: usize,
    bf: impl Fn(int32x4_t, int32x4_t) -> (int32x4_t, int32x4_t),
) {
    let (halves, _) = chunk.as_chunks_mut::<4>();
    let [x, y] = halves else { return };
    let (lo, hi) = regroup(len, load(x), load(y), false);
    let (l, h) = bf(lo, hi);
    let (ov, pv) = regroup(len, l, h, true);
    store(x, ov);
    store(y, pv);
}

/// The zetas of the four butterflies of an 8-coefficient chunk in a layer
/// of distance 2 or 1 whose blocks use `ZETAS[first..]` upwards (forward)
/// or `-ZETAS[..=first]` downwards (inverse).
#[inline(always)]
fn small_zetas(len: usize, first: usize, inverse: bool) -> int32x4_t {
    // SAFETY: register operations only.
    unsafe {
        match (len, inverse) {
            (2, false) => {
                let z = load2x2(first);
                vzip1q_s32(z, z)
            }
            (2, true) => {
                let r = vrev64_s32(vget_low_s32(load2x2(first - 1)));
                let r = vcombine_s32(r, r);
                vnegq_s32(vzip1q_s32(r, r))
            }
            (_, false) => load4(first),
            (_, true) => {
                let r = vrev64q_s32(load4(first - 3));
                vnegq_s32(vextq_s32::<2>(r, r))
            }
        }
    }
}

i32_engine_drivers!(int32x4_t);

/// For each 4-bit acceptance mask, the byte shuffle that moves the
/// accepted 32-bit lanes of 16 bytes to the front, in order (0xff, which
/// `TBL` turns into zero bytes, elsewhere); computed at compile time.
const fn compact4() -> [[u8; 16]; 16] {
    let mut t = [[0xffu8; 16]; 16];
    let mut m = 0;
    while m < 16 {
        let mut out = 0;
        let mut lane = 0;
        while lane < 4 {
            if (m >> lane) & 1 == 1 {
                let mut b = 0;
                while b < 4 {
                    t[m][4 * out + b] = (4 * lane + b) as u8;
                    b += 1;
                }
                out += 1;
            }
            lane += 1;
        }
        m += 1;
    }
    t
}

static COMPACT4: [[u8; 16]; 16] = compact4();

/// FIPS 204 Alg. 30's accepted values of `buf` appended to `a` from
/// `filled`, as the portable `rej_uniform`: four 3-byte candidates per
/// 12 bytes gathered into 32-bit lanes by `TBL`, masked to 23 bits,
/// compared with q, and the accepted ones moved to the front through
/// [`COMPACT4`] (the stream is public: the matrix seed's).
fn rej_uniform(a: &mut Poly, filled: usize, buf: &[u8; 168]) -> usize {
    const GROUPS: [u8; 16] = [0, 1, 2, 0x80, 3, 4, 5, 0x80, 6, 7, 8, 0x80, 9, 10, 11, 0x80];
    const BITS: [u32; 4] = [1, 2, 4, 8];
    let mut acc = [0i32; 56];
    let mut n = 0;
    let mut last = [0u8; 16];
    last[..12].copy_from_slice(&buf[156..]);
    for k in 0..14 {
        // The last 12 bytes have no 16-byte window in `buf`.
        let window = buf[12 * k..].first_chunk::<16>().unwrap_or(&last);
        // SAFETY: loads of 16-byte arrays and register operations.
        let (m, packed) = unsafe {
            let t = vreinterpretq_u32_u8(vqtbl1q_u8(
                vld1q_u8(window.as_ptr()),
                vld1q_u8(GROUPS.as_ptr()),
            ));
            let t = vandq_u32(t, vdupq_n_u32(0x007f_ffff));
            let ok = vcltq_u32(t, vdupq_n_u32(Q as u32));
            let m = vaddvq_u32(vandq_u32(ok, vld1q_u32(BITS.as_ptr())));
            let idx = vld1q_u8(COMPACT4[(m & 15) as usize].as_ptr());
            (
                m,
                vreinterpretq_s32_u8(vqtbl1q_u8(vreinterpretq_u8_u32(t), idx)),
            )
        };
        // n <= 4 k, so the four lanes from n fit in `acc`.
        if let Some(dst) = acc[n..].first_chunk_mut::<4>() {
            store(dst, packed);
        }
        n += m.count_ones() as usize;
    }
    let take = n.min(N.saturating_sub(filled));
    for (dst, &v) in a.coeffs.iter_mut().skip(filled).zip(&acc[..take]) {
        *dst = v;
    }
    filled + take
}

static COMPACT16: [[u8; 16]; 256] = crate::compact::compact16();

/// FIPS 204 Alg. 31's accepted values of `buf` appended to `a` from
/// `filled`, as the portable `rej_eta`: sixteen nibbles (eight bytes) per
/// step as two groups of eight 16-bit lanes (`ZIP` of the low and high
/// nibbles: each byte's low nibble first), compared with the bound,
/// mapped to `eta - t mod 5` (`t mod 5` by `205 t >> 10`, as portable) or
/// `eta - t`, and the accepted lanes moved to the front through
/// [`COMPACT16`]. The values are secret; the acceptance pattern is not
/// (it concerns only the rejected nibbles, independent of the kept ones,
/// and is declassified as in portable), so it may index the table.
/// Every step runs; the values past the first `N - filled` are dropped,
/// which is what portable's early return keeps. The buffer is wiped.
fn rej_eta(eta: Eta, a: &mut Poly, filled: usize, buf: &[u8; 136]) -> usize {
    use core::arch::aarch64::*;
    const BITS: [u16; 8] = [1, 2, 4, 8, 16, 32, 64, 128];
    let (bound, e) = match eta {
        Eta::Two => (15u16, 2i16),
        Eta::Four => (9, 4),
    };
    // 272 nibbles, and room for a whole group's store after the last.
    let mut acc = [0i16; 2 * 136 + 8];
    let mut n = 0;
    for bytes in buf.as_chunks::<8>().0 {
        // SAFETY: a load of 8 bytes and register operations.
        let groups = unsafe {
            let b = vld1_u8(bytes.as_ptr());
            let lo = vand_u8(b, vdup_n_u8(15));
            let hi = vshr_n_u8::<4>(b);
            [vmovl_u8(vzip1_u8(lo, hi)), vmovl_u8(vzip2_u8(lo, hi))]
        };
        for t in groups {
            // SAFETY: loads of the 16-byte constants and register
            // operations.
            let (m, packed) = unsafe {
                let ok = vcltq_u16(t, vdupq_n_u16(bound));
                let r = match eta {
                    Eta::Two => {
                        let q5 = vshrq_n_u16::<10>(vmulq_u16(t, vdupq_n_u16(205)));
                        vmlsq_u16(t, q5, vdupq_n_u16(5))
                    }
                    Eta::Four => t,
                };
                let v = vsubq_s16(vdupq_n_s16(e), vreinterpretq_s16_u16(r));
                let m = vaddvq_u16(vandq_u16(ok, vld1q_u16(BITS.as_ptr())));
                let m = usize::from(crate::ct::declassify(m)) & 0xff;
                let idx = vld1q_u8(COMPACT16[m].as_ptr());
                (m, vqtbl1q_u8(vreinterpretq_u8_s16(v), idx))
            };
            // n <= 8 per group before this one, so the eight lanes fit.
            if let Some(dst) = acc[n..].first_chunk_mut::<8>() {
                // SAFETY: `dst` is 16 writable bytes.
                unsafe { vst1q_s16(dst.as_mut_ptr(), vreinterpretq_s16_u8(packed)) };
            }
            n += m.count_ones() as usize;
        }
    }
    let take = n.min(N.saturating_sub(filled));
    for (dst, &v) in a.coeffs.iter_mut().skip(filled).zip(&acc[..take]) {
        *dst = i32::from(v);
    }
    crate::wipe::wipe(&mut acc);
    filled + take
}

impl Ops for crate::backend::Neon {
    fn rej_uniform_q8380417(self, a: &mut Poly, filled: usize, buf: &[u8; 168]) -> usize {
        rej_uniform(a, filled, buf)
    }

    fn rej_eta_q8380417(self, eta: Eta, a: &mut Poly, filled: usize, buf: &[u8; 136]) -> usize {
        rej_eta(eta, a, filled, buf)
    }

    fn ntt_q8380417(self, a: &mut Poly) {
        ntt(a);
    }

    fn inv_ntt_tomont_q8380417(self, a: &mut Poly) {
        inv_ntt_tomont(a);
    }

    fn pointwise_mont_q8380417(self, a: &Poly, b: &Poly, r: &mut Poly) {
        pointwise(a, b, r);
    }

    fn pointwise_acc_mont_q8380417(self, a: &Poly, b: &Poly, r: &mut Poly) {
        pointwise_acc(a, b, r);
    }
}
