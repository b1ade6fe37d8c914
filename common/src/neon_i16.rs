//! The aarch64 NEON engine of the 16-bit rings (q = 3329 and q = 12289):
//! eight `i16` lanes per vector, Montgomery products with `R = 2^16` and
//! Barrett reduction computed lane for lane as [`crate::mont16::Mod16`]
//! computes them, and the Cooley-Tukey / Gentleman-Sande transforms of the
//! portable kernels with the same operations in the same order, so the
//! results are equal bit for bit.
//!
//! The Montgomery product is the NEON form of Nguyen-Gaj and Becker et al.
//! ("Neon NTT", TCHES 2022): `SQDMULH` gives the doubled high halves of
//! `a b` and of `t q` (`t = a b qinv mod 2^16`), whose low halves are
//! equal, and a halving subtract (`SHSUB`) of the two is exactly
//! `(a b - t q) >> 16`: four instructions, three with `b qinv`
//! precomputed. Layers whose butterfly distance is below eight lanes work
//! on two vectors at a time, regrouped with `ZIP`/`UZP` on 16-, 32- or
//! 64-bit elements so that each butterfly's two inputs sit in the same
//! lane of two vectors.

#![allow(unsafe_code)]

use crate::mont16::Mod16;
use core::arch::aarch64::{
    int16x8_t, vaddq_s16, vcombine_s16, vdup_n_s16, vdupq_n_s16, vextq_s16, vget_low_s16,
    vhsubq_s16, vld1_s16, vld1q_s16, vmlsq_s16, vmull_high_s16, vmull_s16, vmulq_s16, vqdmulhq_s16,
    vreinterpretq_s16_s32, vreinterpretq_s16_s64, vreinterpretq_s32_s16, vreinterpretq_s64_s16,
    vrev64_s16, vrev64q_s16, vrshrq_n_s16, vshrq_n_s16, vst1q_s16, vsubq_s16, vuzp1q_s16,
    vuzp1q_s32, vuzp2q_s16, vuzp2q_s32, vzip1q_s16, vzip1q_s32, vzip1q_s64, vzip2q_s16, vzip2q_s32,
    vzip2q_s64,
};

/// Eight `D`-bit values (`D <= 13`) from the first `D` bytes of `window`,
/// in [`crate::pack::unpack_bits`]'s order, as `u16` lanes: a `TBL`
/// gathers each value's four bytes into a 32-bit lane
/// ([`crate::pack::gather8`]), `USHL` by the negated offset and a mask
/// extract it, and `UZP1` narrows. Fixed indices only: secret data may
/// pass.
#[inline(always)]
pub(crate) fn unpack8<const D: usize>(window: &[u8; 16]) -> core::arch::aarch64::uint16x8_t {
    use core::arch::aarch64::*;
    let (idx, shift) = const { crate::pack::gather8(D) };
    // SAFETY: loads of 16- and 32-byte arrays (`window`, the tables) and
    // register operations; NEON is in the build's baseline.
    unsafe {
        let w = vld1q_u8(window.as_ptr());
        let mask = vdupq_n_u32((1 << D) - 1);
        let lane = |i: usize| {
            let t = vqtbl1q_u8(w, vld1q_u8(idx.as_ptr().add(16 * i)));
            let s = vnegq_s32(vreinterpretq_s32_u32(vld1q_u32(shift.as_ptr().add(4 * i))));
            vreinterpretq_u16_u32(vandq_u32(vshlq_u32(vreinterpretq_u32_u8(t), s), mask))
        };
        vuzp1q_u16(lane(0), lane(1))
    }
}

/// Eight lanes of `x`.
#[inline(always)]
pub(crate) fn load(x: &[i16; 8]) -> int16x8_t {
    // SAFETY: `x` is 16 readable bytes; `vld1q_s16` needs 2-byte
    // alignment, which `i16` has; NEON is in the build's baseline.
    unsafe { vld1q_s16(x.as_ptr()) }
}

/// Store eight lanes to `x`.
#[inline(always)]
pub(crate) fn store(x: &mut [i16; 8], v: int16x8_t) {
    // SAFETY: `x` is 16 writable bytes with `i16` alignment.
    unsafe { vst1q_s16(x.as_mut_ptr(), v) }
}

/// `s[at..at + 4]`, twice (both halves).
#[inline(always)]
fn load4x2(s: &[i16], at: usize) -> int16x8_t {
    let w: &[i16; 4] = s[at..at + 4].try_into().unwrap_or(&[0; 4]);
    // SAFETY: `w` is 8 readable bytes with `i16` alignment.
    let h = unsafe { vld1_s16(w.as_ptr()) };
    // SAFETY: register operations only; NEON is in the baseline.
    unsafe { vcombine_s16(h, h) }
}

/// `s[at..at + 8]`.
#[inline(always)]
fn load8(s: &[i16], at: usize) -> int16x8_t {
    let w: &[i16; 8] = s[at..at + 8].try_into().unwrap_or(&[0; 8]);
    load(w)
}

/// Every lane `x`.
#[inline(always)]
pub(crate) fn splat(x: i16) -> int16x8_t {
    // SAFETY: register operation only; NEON is in the baseline.
    unsafe { vdupq_n_s16(x) }
}

/// Lane-wise `a + b` (wrapping).
#[inline(always)]
pub(crate) fn add(a: int16x8_t, b: int16x8_t) -> int16x8_t {
    // SAFETY: register operation only; NEON is in the baseline.
    unsafe { vaddq_s16(a, b) }
}

/// Lane-wise `a - b` (wrapping).
#[inline(always)]
pub(crate) fn sub(a: int16x8_t, b: int16x8_t) -> int16x8_t {
    // SAFETY: register operation only; NEON is in the baseline.
    unsafe { vsubq_s16(a, b) }
}

/// Lane-wise low half of `a b`.
#[inline(always)]
pub(crate) fn mullo(a: int16x8_t, b: int16x8_t) -> int16x8_t {
    // SAFETY: register operation only; NEON is in the baseline.
    unsafe { vmulq_s16(a, b) }
}

/// A modulus's constants, splatted.
#[derive(Clone, Copy)]
pub(crate) struct Consts {
    q: int16x8_t,
    qinv: int16x8_t,
    barrett_v: int16x8_t,
}

impl Consts {
    /// The constants of `m`.
    #[inline(always)]
    pub(crate) fn new(m: Mod16) -> Self {
        Consts {
            q: splat(m.q),
            qinv: splat(m.qinv),
            barrett_v: splat(m.barrett_v as i16),
        }
    }

    /// `b qinv mod 2^16`, lane by lane (for [`fqmul_pre`]).
    #[inline(always)]
    pub(crate) fn twist(&self, b: int16x8_t) -> int16x8_t {
        mullo(b, self.qinv)
    }
}

/// `montgomery_reduce(a b)` given `bqinv = b qinv mod 2^16`, for a
/// constant `b` (a zeta or a final factor, never `-2^15`). `SQDMULH`
/// computes `(2 x y) >> 16`, saturating only for `x = y = -2^15`, which
/// neither `b` nor `q` is; `2 a b` and `2 t q` agree in their low 17
/// bits, so halving the difference of their high halves is exact.
#[inline(always)]
pub(crate) fn fqmul_pre(a: int16x8_t, b: int16x8_t, bqinv: int16x8_t, c: &Consts) -> int16x8_t {
    // SAFETY: register operations only; NEON is in the baseline.
    unsafe {
        let t = vmulq_s16(a, bqinv);
        vhsubq_s16(vqdmulhq_s16(a, b), vqdmulhq_s16(t, c.q))
    }
}

/// The high 16 bits of the 32-bit products, lane by lane (two widening
/// multiplies, then the odd 16-bit halves).
#[inline(always)]
fn mulhi(a: int16x8_t, b: int16x8_t) -> int16x8_t {
    // SAFETY: register operations only; NEON is in the baseline.
    unsafe {
        let lo = vmull_s16(vget_low_s16(a), vget_low_s16(b));
        let hi = vmull_high_s16(a, b);
        vuzp2q_s16(vreinterpretq_s16_s32(lo), vreinterpretq_s16_s32(hi))
    }
}

/// `montgomery_reduce(a b)` lane by lane ([`Mod16::fqmul`]) for any two
/// operands (also `-2^15` times `-2^15`): exact high halves from widening
/// multiplies.
#[inline(always)]
pub(crate) fn fqmul(a: int16x8_t, b: int16x8_t, c: &Consts) -> int16x8_t {
    let t = mullo(a, c.twist(b));
    sub(mulhi(a, b), mulhi(t, c.q))
}

/// [`Mod16::barrett_reduce`] lane by lane: `(v a + 2^25) >> 26` is
/// `((v a >> 16) + 2^9) >> 10` (nested floors of exact powers of two);
/// `SQDMULH` then a shift by one gives `v a >> 16` (`v` is positive, so it
/// never saturates), and a rounding shift (`SRSHR`) the rest.
#[inline(always)]
pub(crate) fn barrett(a: int16x8_t, c: &Consts) -> int16x8_t {
    // SAFETY: register operations only; NEON is in the baseline.
    unsafe {
        let hi = vshrq_n_s16::<1>(vqdmulhq_s16(a, c.barrett_v));
        vmlsq_s16(a, vrshrq_n_s16::<10>(hi), c.q)
    }
}

/// The even lanes of `x || y` (lanes 0, 2, ..., 14).
#[inline(always)]
pub(crate) fn even(x: int16x8_t, y: int16x8_t) -> int16x8_t {
    // SAFETY: register operation only; NEON is in the baseline.
    unsafe { vuzp1q_s16(x, y) }
}

/// The odd lanes of `x || y`.
#[inline(always)]
pub(crate) fn odd(x: int16x8_t, y: int16x8_t) -> int16x8_t {
    // SAFETY: register operation only; NEON is in the baseline.
    unsafe { vuzp2q_s16(x, y) }
}

/// Lanes `l0, h0, l1, h1, l2, h2, l3, h3`.
#[inline(always)]
pub(crate) fn interleave_low(l: int16x8_t, h: int16x8_t) -> int16x8_t {
    // SAFETY: register operation only; NEON is in the baseline.
    unsafe { vzip1q_s16(l, h) }
}

/// Lanes `l4, h4, ..., l7, h7`.
#[inline(always)]
pub(crate) fn interleave_high(l: int16x8_t, h: int16x8_t) -> int16x8_t {
    // SAFETY: register operation only; NEON is in the baseline.
    unsafe { vzip2q_s16(l, h) }
}

/// Gather the butterflies' first inputs (`lo`) and second inputs (`hi`)
/// of a layer of distance `len` (4, 2 or 1) on 16 coefficients `x || y`,
/// or (`back`) put outputs `l`, `h` back in coefficient order.
#[inline(always)]
fn regroup(len: usize, x: int16x8_t, y: int16x8_t, back: bool) -> (int16x8_t, int16x8_t) {
    // SAFETY: register operations only; NEON is in the baseline.
    unsafe {
        match (len, back) {
            // Distance 4: the 64-bit halves.
            (4, _) => {
                let (a, b) = (vreinterpretq_s64_s16(x), vreinterpretq_s64_s16(y));
                (
                    vreinterpretq_s16_s64(vzip1q_s64(a, b)),
                    vreinterpretq_s16_s64(vzip2q_s64(a, b)),
                )
            }
            // Distance 2: pairs of lanes as 32-bit elements.
            (2, false) => {
                let (a, b) = (vreinterpretq_s32_s16(x), vreinterpretq_s32_s16(y));
                (
                    vreinterpretq_s16_s32(vuzp1q_s32(a, b)),
                    vreinterpretq_s16_s32(vuzp2q_s32(a, b)),
                )
            }
            (2, true) => {
                let (a, b) = (vreinterpretq_s32_s16(x), vreinterpretq_s32_s16(y));
                (
                    vreinterpretq_s16_s32(vzip1q_s32(a, b)),
                    vreinterpretq_s16_s32(vzip2q_s32(a, b)),
                )
            }
            // Distance 1: single lanes.
            (_, false) => (vuzp1q_s16(x, y), vuzp2q_s16(x, y)),
            (_, true) => (vzip1q_s16(x, y), vzip2q_s16(x, y)),
        }
    }
}

/// The zetas of the eight butterflies of a 16-coefficient chunk in a layer
/// of distance `len` (4, 2 or 1) whose blocks use `zetas[first..]` in
/// increasing order (forward) or `zetas[..=first]` in decreasing order
/// (inverse), one per block, each repeated `len` times.
#[inline(always)]
fn small_zetas(zetas: &[i16], len: usize, first: usize, inverse: bool) -> int16x8_t {
    let at = |i: usize| zetas.get(i).copied().unwrap_or(0);
    // SAFETY: register operations only; NEON is in the baseline.
    unsafe {
        match (len, inverse) {
            (4, false) => vcombine_s16(vdup_n_s16(at(first)), vdup_n_s16(at(first + 1))),
            (4, true) => vcombine_s16(vdup_n_s16(at(first)), vdup_n_s16(at(first - 1))),
            (2, false) => {
                let z = load4x2(zetas, first);
                vzip1q_s16(z, z)
            }
            (2, true) => {
                let z = load4x2(zetas, first - 3);
                let r = vrev64_s16(vget_low_s16(z));
                let r = vcombine_s16(r, r);
                vzip1q_s16(r, r)
            }
            (_, false) => load8(zetas, first),
            (_, true) => {
                let z = vrev64q_s16(load8(zetas, first - 7));
                vextq_s16::<4>(z, z)
            }
        }
    }
}

crate::engine16::i16_engine_drivers!(int16x8_t);

/// One layer of distance `len` (4, 2 or 1) on a 16-coefficient chunk:
/// gather each butterfly's two inputs into two vectors, apply `bf`, and put
/// the outputs back.
#[inline(always)]
fn small_layer(
    chunk: &mut [i16; 16],
    len: usize,
    bf: impl Fn(int16x8_t, int16x8_t) -> (int16x8_t, int16x8_t),
) {
    let (halves, _) = chunk.as_chunks_mut::<8>();
    let [x, y] = halves else { return };
    let (lo, hi) = regroup(len, load(x), load(y), false);
    let (l, h) = bf(lo, hi);
    let (ov, pv) = regroup(len, l, h, true);
    store(x, ov);
    store(y, pv);
}
