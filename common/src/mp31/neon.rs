//! aarch64 NEON kernels of the RNS arithmetic: four 32-bit lanes per
//! vector, each result in `[0, p)` exactly as the portable kernel's.
//!
//! The values (below `p < 2^31`) are non-negative `i32`, so the Montgomery
//! product is the signed NEON form of the q8380417 kernels ("Neon NTT",
//! Becker et al., TCHES 2022): `SQDMULH` of `a, b` and of `t, p` with
//! `t = a b p^-1 mod 2^32` (the root's `b p^-1` computed once per root),
//! whose doubled products agree in their low 33 bits, so the halving
//! subtract `SHSUB` is exactly `(a b - t p) / 2^32`, in `(-p, p)`; adding
//! `p` where negative gives the portable `mmul`'s value, the unique one in
//! `[0, p)` congruent to `a b 2^-32` (`SQDMULH` saturates only for
//! `-2^31` times `-2^31`, which no operand here is). Sums and differences
//! wrap as `u32` and are corrected with an unsigned minimum.

#![allow(unsafe_code)]

use super::Mod31;
use core::arch::aarch64::{
    uint32x4_t, vaddq_s32, vaddq_u32, vaddw_high_u32, vaddw_u32, vandq_s32, vandq_u32, vbicq_u32,
    vcombine_u32, vdup_n_u32, vdupq_n_s32, vdupq_n_u32, vget_low_u32, vhsubq_s32, vld1q_u32,
    vminq_u32, vmovn_high_u64, vmovn_u64, vmull_high_n_u32, vmull_n_u32, vmulq_s32, vnegq_s32,
    vorrq_u32, vqdmulhq_s32, vreinterpretq_s32_u32, vreinterpretq_u32_s32, vreinterpretq_u32_u64,
    vreinterpretq_u64_u32, vshlq_u32, vshrn_high_n_u64, vshrn_n_u64, vshrq_n_s32, vshrq_n_u32,
    vst1q_u32, vsubq_u32, vtstq_u32, vuzp1q_u32, vuzp2q_u32, vzip1q_u32, vzip1q_u64, vzip2q_u32,
    vzip2q_u64,
};

/// The modulus in every lane, and `p^-1 mod 2^32`.
#[derive(Clone, Copy)]
struct C {
    p: uint32x4_t,
    pinv: u32,
}

impl C {
    fn new(m: &Mod31) -> Self {
        // SAFETY: register operation only; NEON is in the build's baseline.
        let p = unsafe { vdupq_n_u32(m.p) };
        // p0i is -1/p mod 2^32.
        C {
            p,
            pinv: m.p0i.wrapping_neg(),
        }
    }

    /// `b p^-1 mod 2^32` in every lane of `b`.
    #[inline(always)]
    fn twist(&self, b: uint32x4_t) -> uint32x4_t {
        // SAFETY: register operations only.
        unsafe {
            vreinterpretq_u32_s32(vmulq_s32(
                vreinterpretq_s32_u32(b),
                vdupq_n_s32(self.pinv as i32),
            ))
        }
    }

    /// `a b / 2^32 mod p` in `[0, p)` (`a, b < p`; `bt = twist(b)`).
    #[inline(always)]
    fn mmul(&self, a: uint32x4_t, b: uint32x4_t, bt: uint32x4_t) -> uint32x4_t {
        // SAFETY: register operations only.
        unsafe {
            let (a, b, bt) = (
                vreinterpretq_s32_u32(a),
                vreinterpretq_s32_u32(b),
                vreinterpretq_s32_u32(bt),
            );
            let p = vreinterpretq_s32_u32(self.p);
            let hi = vqdmulhq_s32(a, b);
            let t = vmulq_s32(a, bt);
            let r = vhsubq_s32(hi, vqdmulhq_s32(t, p));
            vreinterpretq_u32_s32(vaddq_s32(r, vandq_s32(vshrq_n_s32::<31>(r), p)))
        }
    }

    /// `a + b mod p` (`a, b < p`).
    #[inline(always)]
    fn add(&self, a: uint32x4_t, b: uint32x4_t) -> uint32x4_t {
        // SAFETY: register operations only.
        unsafe {
            let s = vaddq_u32(a, b);
            vminq_u32(s, vsubq_u32(s, self.p))
        }
    }

    /// `a - b mod p` (`a, b < p`).
    #[inline(always)]
    fn sub(&self, a: uint32x4_t, b: uint32x4_t) -> uint32x4_t {
        // SAFETY: register operations only.
        unsafe {
            let d = vsubq_u32(a, b);
            vminq_u32(d, vaddq_u32(d, self.p))
        }
    }

    /// `w mod p` for `w < 2p` (a 31-bit word, as [`Mod31::set_u`]).
    #[inline(always)]
    fn set_u(&self, w: uint32x4_t) -> uint32x4_t {
        // SAFETY: register operations only.
        unsafe { vminq_u32(w, vsubq_u32(w, self.p)) }
    }

    /// `a / 2 mod p` (`a < p`).
    #[inline(always)]
    fn half(&self, a: uint32x4_t) -> uint32x4_t {
        // SAFETY: register operations only.
        unsafe {
            let odd = vtstq_u32(a, vdupq_n_u32(1));
            vshrq_n_u32::<1>(vaddq_u32(a, vandq_u32(self.p, odd)))
        }
    }
}

#[inline(always)]
fn load(x: &[u32; 4]) -> uint32x4_t {
    // SAFETY: `x` is 16 readable bytes.
    unsafe { vld1q_u32(x.as_ptr()) }
}

#[inline(always)]
fn store(x: &mut [u32; 4], v: uint32x4_t) {
    // SAFETY: `x` is 16 writable bytes.
    unsafe { vst1q_u32(x.as_mut_ptr(), v) }
}

#[inline(always)]
fn splat(x: u32) -> uint32x4_t {
    // SAFETY: register operation only.
    unsafe { vdupq_n_u32(x) }
}

/// Lanes `[x, x, y, y]`.
#[inline(always)]
fn pairs(x: u32, y: u32) -> uint32x4_t {
    // SAFETY: register operations only.
    unsafe { vcombine_u32(vdup_n_u32(x), vdup_n_u32(y)) }
}

/// Lanes 0-1 of `a` and of `b`, and lanes 2-3 of each (64-bit zips; the
/// same pair of operations undoes it).
#[inline(always)]
fn zip64(a: uint32x4_t, b: uint32x4_t) -> (uint32x4_t, uint32x4_t) {
    // SAFETY: register operations only.
    unsafe {
        let (a, b) = (vreinterpretq_u64_u32(a), vreinterpretq_u64_u32(b));
        (
            vreinterpretq_u32_u64(vzip1q_u64(a, b)),
            vreinterpretq_u32_u64(vzip2q_u64(a, b)),
        )
    }
}

/// The even lanes of `a, b` and the odd ones.
#[inline(always)]
fn uzp(a: uint32x4_t, b: uint32x4_t) -> (uint32x4_t, uint32x4_t) {
    // SAFETY: register operations only.
    unsafe { (vuzp1q_u32(a, b), vuzp2q_u32(a, b)) }
}

/// The inverse of [`uzp`]: lanes interleaved back.
#[inline(always)]
fn zip(x: uint32x4_t, y: uint32x4_t) -> (uint32x4_t, uint32x4_t) {
    // SAFETY: register operations only.
    unsafe { (vzip1q_u32(x, y), vzip2q_u32(x, y)) }
}

/// One layer of half-blocks of `hv` vectors (`4 hv` lanes, `hv >= 1`):
/// block `i` of `v` (`2 hv` vectors) with the root `roots[i]`, each pair of
/// lanes through `bf(x, y, s, s p^-1)`.
#[inline(always)]
fn wide_layer(
    c: &C,
    v: &mut [[u32; 4]],
    hv: usize,
    roots: &[u32],
    bf: impl Fn(uint32x4_t, uint32x4_t, uint32x4_t, uint32x4_t) -> (uint32x4_t, uint32x4_t),
) {
    for (blk, &r) in v.chunks_exact_mut(2 * hv).zip(roots) {
        let s = splat(r);
        let st = c.twist(s);
        let (lo, hi) = blk.split_at_mut(hv);
        for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
            let (nx, ny) = bf(load(x), load(y), s, st);
            store(x, nx);
            store(y, ny);
        }
    }
}

/// One layer of half-blocks of two lanes (blocks `[x0 x1 y0 y1]`, two
/// per step regrouped by 64-bit zips) or of one lane (blocks `[x y]`,
/// four per step regrouped by `UZP`/`ZIP`), block `i` with `roots[i]`.
#[inline(always)]
fn narrow_layer(
    c: &C,
    v: &mut [[u32; 4]],
    half: usize,
    roots: &[u32],
    bf: impl Fn(uint32x4_t, uint32x4_t, uint32x4_t, uint32x4_t) -> (uint32x4_t, uint32x4_t),
) {
    for (i, pair) in v.chunks_exact_mut(2).enumerate() {
        let (a0, a1) = (load(&pair[0]), load(&pair[1]));
        let (a0, a1) = if half == 2 {
            let s = pairs(roots[2 * i], roots[2 * i + 1]);
            let (x, y) = zip64(a0, a1);
            let (x, y) = bf(x, y, s, c.twist(s));
            zip64(x, y)
        } else {
            let (s, _) = roots[4 * i..].as_chunks::<4>();
            let s = load(&s[0]);
            let (x, y) = uzp(a0, a1);
            let (x, y) = bf(x, y, s, c.twist(s));
            zip(x, y)
        };
        store(&mut pair[0], a0);
        store(&mut pair[1], a1);
    }
}

/// [`super::portable::ntt`] (`a.len()` a power of two, at least 8): the
/// same butterflies in the same layers; half-blocks of four or more lanes
/// directly, the last two layers regrouped ([`narrow_layer`]).
pub(super) fn ntt(m: &Mod31, a: &mut [u32], gm: &[u32]) {
    let c = C::new(m);
    let n = a.len();
    let (v, _) = a.as_chunks_mut::<4>();
    let bf = |u: uint32x4_t, y: uint32x4_t, s: uint32x4_t, st: uint32x4_t| {
        let w = c.mmul(y, s, st);
        (c.add(u, w), c.sub(u, w))
    };
    // The layer with blocks of t lanes uses the roots from gm[n / t].
    let mut t = n;
    while t > 4 {
        wide_layer(&c, v, t / 8, &gm[n / t..], bf);
        t >>= 1;
    }
    narrow_layer(&c, v, 2, &gm[n / 4..], bf);
    narrow_layer(&c, v, 1, &gm[n / 2..], bf);
}

/// [`super::portable::intt`] (`a.len()` a power of two, at least 8): the
/// first two layers regrouped as in [`ntt`], then whole vectors.
pub(super) fn intt(m: &Mod31, a: &mut [u32], igm: &[u32]) {
    let c = C::new(m);
    let n = a.len();
    let (v, _) = a.as_chunks_mut::<4>();
    let bf = |u: uint32x4_t, w: uint32x4_t, s: uint32x4_t, st: uint32x4_t| {
        (c.half(c.add(u, w)), c.mmul(c.sub(u, w), s, st))
    };
    // The layer with blocks of 2t lanes uses the roots from igm[n / 2t].
    narrow_layer(&c, v, 1, &igm[n / 2..], bf);
    narrow_layer(&c, v, 2, &igm[n / 4..], bf);
    let mut t = 4;
    while t < n {
        wide_layer(&c, v, t / 4, &igm[n / (2 * t)..], bf);
        t <<= 1;
    }
}

/// `a[j] <- a[j] b[j] mod p` (plain values): two Montgomery products, the
/// second by `2^64 mod p`, as [`Mod31::mul`]. A tail of fewer than four
/// values goes through the scalar product.
pub(super) fn mul(m: &Mod31, a: &mut [u32], b: &[u32]) {
    let c = C::new(m);
    let r2 = splat(m.r2);
    let r2t = c.twist(r2);
    let n = a.len().min(b.len());
    let (av, at) = a[..n].as_chunks_mut::<4>();
    let (bv, bt) = b[..n].as_chunks::<4>();
    for (x, y) in av.iter_mut().zip(bv) {
        let y = load(y);
        store(x, c.mmul(c.mmul(load(x), y, c.twist(y)), r2, r2t));
    }
    for (x, &y) in at.iter_mut().zip(bt) {
        *x = m.mul(*x, y);
    }
}

/// `acc[j] <- acc[j] + x[j] y[j] / 2^32 mod p`, as the portable kernel.
pub(super) fn mul_acc_mont(m: &Mod31, acc: &mut [u32], x: &[u32], y: &[u32]) {
    let c = C::new(m);
    let n = acc.len().min(x.len()).min(y.len());
    let (av, at) = acc[..n].as_chunks_mut::<4>();
    let (xv, xt) = x[..n].as_chunks::<4>();
    let (yv, yt) = y[..n].as_chunks::<4>();
    for ((a, u), v) in av.iter_mut().zip(xv).zip(yv) {
        let v = load(v);
        store(a, c.add(load(a), c.mmul(load(u), v, c.twist(v))));
    }
    for ((a, &u), &v) in at.iter_mut().zip(xt).zip(yt) {
        *a = m.add(*a, m.mmul(u, v));
    }
}

/// [`super::portable::horner`] for a multiple of four integers: the same
/// Montgomery products and sums in the same order, four integers per
/// vector. Words are below `2^31`, so they pass as non-negative `i32` to
/// the Montgomery product with a root below `p`, as in the portable
/// `mmul`.
fn horner(m: &Mod31, acc: &mut [u32], d: &[u32], len: usize) {
    let c = C::new(m);
    let n = acc.len();
    let zs = super::portable::word_weights(m).map(|z| {
        let v = splat(z);
        (v, c.twist(v))
    });
    let mut j = len;
    while !j.is_multiple_of(4) {
        j -= 1;
        let plane = &d[j * n..(j + 1) * n];
        let (av, _) = acc.as_chunks_mut::<4>();
        for (a, w) in av.iter_mut().zip(plane.as_chunks::<4>().0) {
            let x = c.mmul(load(a), zs[0].0, zs[0].1);
            store(a, c.add(x, c.set_u(load(w))));
        }
    }
    while j > 0 {
        j -= 4;
        let r = &d[j * n..(j + 4) * n];
        let (av, _) = acc.as_chunks_mut::<4>();
        for (q, a) in av.iter_mut().enumerate() {
            let word = |t: usize| {
                let (w, _) = r[t * n + 4 * q..].as_chunks::<4>();
                load(&w[0])
            };
            let x = c.add(
                c.add(
                    c.mmul(word(3), zs[2].0, zs[2].1),
                    c.mmul(word(2), zs[1].0, zs[1].1),
                ),
                c.add(c.mmul(word(1), zs[0].0, zs[0].1), c.set_u(word(0))),
            );
            store(a, c.add(c.mmul(load(a), zs[3].0, zs[3].1), x));
        }
    }
}

/// [`super::portable::residues`] for a multiple of four integers (else
/// portable) with [`horner`], then the sign fix in
/// vectors: `rx` subtracted where bit 30 of the top word is set.
pub(super) fn residues(m: &Mod31, d: &[u32], len: usize, rx: u32, out: &mut [u32]) {
    let n = out.len();
    if !n.is_multiple_of(4) || len == 0 {
        return super::portable::residues(m, d, len, rx, out);
    }
    out.fill(0);
    horner(m, out, d, len);
    let c = C::new(m);
    let top = &d[(len - 1) * n..len * n];
    let (ov, _) = out.as_chunks_mut::<4>();
    for (o, w) in ov.iter_mut().zip(top.as_chunks::<4>().0) {
        // SAFETY: register operations only.
        let sign = unsafe {
            vreinterpretq_u32_s32(vnegq_s32(vreinterpretq_s32_u32(vshrq_n_u32::<30>(load(w)))))
        };
        // SAFETY: register operation only.
        store(o, c.sub(load(o), unsafe { vandq_u32(splat(rx), sign) }));
    }
}

/// [`super::portable::crt_step`], four integers per vector when their
/// count is a multiple of four (else portable): [`horner`] for the
/// residues of the lower words, then the Garner digit
/// `t = (r_i - carry) s mod p` and `x += t P` word by word: `UMULL` by the
/// broadcast word of `P`, the word and the carry added in 64-bit lanes,
/// the low 31 bits kept and the rest carried (`SHRN`), as the portable
/// carry chains.
pub(super) fn crt_step(
    m: &Mod31,
    s: u32,
    blk: &mut [u32],
    i: usize,
    prod: &[u32],
    carry: &mut [u32],
) {
    let n = carry.len();
    if !n.is_multiple_of(4) {
        return super::portable::crt_step(m, s, blk, i, prod, carry);
    }
    carry.fill(0);
    horner(m, carry, blk, i);
    let c = C::new(m);
    let (sv, svt) = (splat(s), c.twist(splat(s)));
    let mask = splat(0x7FFF_FFFF);
    let (lo, top) = blk.split_at_mut(i * n);
    let (top, _) = top[..n].as_chunks_mut::<4>();
    let (cv, _) = carry.as_chunks::<4>();
    for (q, (tq, cq)) in top.iter_mut().zip(cv).enumerate() {
        let t = c.mmul(c.sub(load(tq), load(cq)), sv, svt);
        // SAFETY: register operations only (memory goes through
        // `load`/`store` on 4-word arrays).
        let cc = unsafe {
            let mut cc = splat(0);
            for (j, &pj) in prod[..i].iter().enumerate() {
                let (wq, _) = lo[j * n + 4 * q..].as_chunks_mut::<4>();
                let w = load(&wq[0]);
                let z0 = vaddw_u32(
                    vaddw_u32(vmull_n_u32(vget_low_u32(t), pj), vget_low_u32(w)),
                    vget_low_u32(cc),
                );
                let z1 = vaddw_high_u32(vaddw_high_u32(vmull_high_n_u32(t, pj), w), cc);
                store(
                    &mut wq[0],
                    vandq_u32(vmovn_high_u64(vmovn_u64(z0), z1), mask),
                );
                cc = vshrn_high_n_u64::<31>(vshrn_n_u64::<31>(z0), z1);
            }
            cc
        };
        store(tq, cc);
    }
}

/// [`super::portable::norm_signed`], four integers per vector when `n` is
/// a multiple of four (else portable): the same top-down comparison with
/// `floor(M / 2)` (masks from the sign of each difference) and the same
/// borrow chain, lane for lane.
pub(super) fn norm_signed(x: &mut [u32], n: usize, m: &[u32]) {
    if !n.is_multiple_of(4) {
        return super::portable::norm_signed(x, n, m);
    }
    let words = m.len();
    for k in (0..n).step_by(4) {
        let at = |i: usize| k + i * n;
        // SAFETY: register operations only (the loads and stores go
        // through `load`/`store` on 4-word arrays).
        unsafe {
            let sign =
                |d: uint32x4_t| vreinterpretq_u32_s32(vshrq_n_s32::<31>(vreinterpretq_s32_u32(d)));
            let (mut gt, mut done) = (splat(0), splat(0));
            for i in (0..words).rev() {
                let (xi, _) = x[at(i)..].as_chunks::<4>();
                let d = vsubq_u32(splat(super::portable::half_word(m, i)), load(&xi[0]));
                gt = vorrq_u32(gt, vbicq_u32(sign(d), done));
                done = vorrq_u32(
                    done,
                    sign(vorrq_u32(
                        d,
                        vreinterpretq_u32_s32(vnegq_s32(vreinterpretq_s32_u32(d))),
                    )),
                );
            }
            let mut cc = splat(0);
            for (i, &mw) in m.iter().enumerate() {
                let (xi, _) = x[at(i)..].as_chunks_mut::<4>();
                let z = vsubq_u32(vsubq_u32(load(&xi[0]), vandq_u32(splat(mw), gt)), cc);
                store(&mut xi[0], vandq_u32(z, splat(0x7FFF_FFFF)));
                cc = vshrq_n_u32::<31>(z);
            }
        }
    }
}

/// [`super::portable::sub_shifted`], four integers per vector when `n` is
/// a multiple of four (else portable): the same word loop (the shifted
/// word of `y`, its carry into the next word, the borrow chain), lane for
/// lane; the word counts and the shift are public.
#[allow(clippy::too_many_arguments)]
pub(super) fn sub_shifted(
    x: &mut [u32],
    n: usize,
    xlen: usize,
    y: &[u32],
    ylen: usize,
    sch: usize,
    scl: u32,
) {
    if !n.is_multiple_of(4) || ylen == 0 || sch >= xlen {
        return super::portable::sub_shifted(x, n, xlen, y, ylen, sch, scl);
    }
    let mask = splat(0x7FFF_FFFF);
    let word = |v: &[u32], at: usize| {
        let (w, _) = v[at..].as_chunks::<4>();
        load(&w[0])
    };
    for k in (0..n).step_by(4) {
        // SAFETY: register operations only (memory goes through
        // `load`/`store` on 4-word arrays).
        unsafe {
            let left = vdupq_n_s32(scl as i32);
            let right = vdupq_n_s32(scl as i32 - 31);
            // All ones below bit 31 where y is negative (bit 30 of its top
            // word), as its sign extension.
            let top = vshrq_n_u32::<30>(word(y, k + (ylen - 1) * n));
            let ysign =
                vshrq_n_u32::<1>(vreinterpretq_u32_s32(vnegq_s32(vreinterpretq_s32_u32(top))));
            let (mut carry_in, mut cc) = (splat(0), splat(0));
            for u in sch..xlen {
                let j = u - sch;
                let wy = if j < ylen { word(y, k + j * n) } else { ysign };
                let ws = vorrq_u32(vandq_u32(vshlq_u32(wy, left), mask), carry_in);
                carry_in = vshlq_u32(wy, right);
                let (xw, _) = x[k + u * n..].as_chunks_mut::<4>();
                let z = vsubq_u32(vsubq_u32(load(&xw[0]), ws), cc);
                store(&mut xw[0], vandq_u32(z, mask));
                cc = vshrq_n_u32::<31>(z);
            }
        }
    }
}
