//! Solving the NTRU equation `f G - g F = q mod X^n + 1` (key generation),
//! decision-compatible with the fn-dsa 0.3 / ntrugen key generator.
//!
//! # Method (Falcon spec section 3.8.2, Pornin's ntrugen schedule)
//!
//! Field-norm recursion: `f_{d+1}(x^2) = f_d(x) f_d(-x)` halves the degree
//! at each depth `d`; at depth `logn` the norms are the resultants
//! `Res(f), Res(g)`, plain integers, and a binary extended GCD gives
//! `Res(f) G - Res(g) F = 1`, scaled by `q`. Going back up, a solution
//! `(F', G')` at depth `d + 1` lifts to `F = F'(x^2) g(-x)`,
//! `G = G'(x^2) f(-x)` at depth `d`, which is then Babai-reduced against
//! `(f, g)`: `k = round((F adj f + G adj g) / (f adj f + g adj g))`,
//! `(F, G) -= k (f, g)`.
//!
//! # Fixed budgets (what makes the decisions reproducible)
//!
//! Every integer at depth `d` lives in a fixed number of 31-bit words,
//! independent of the actual values (so the solver is constant-time):
//! `SMALL_BL[d]` words for `(f, g)` and for the reduced `(F, G)`,
//! `LARGE_BL[d]` for the unreduced `(F, G)`. Products are computed in the
//! residue number system (RNS) modulo that many 31-bit primes
//! (`primes::PRIMES`) with NTTs, then rebuilt by CRT; a value that does not
//! fit its budget silently wraps, and the candidate is then caught by
//! the modular check `f G - g F = q mod p_0` done after each depth >= 2
//! and at depth 0, or by the final range check `|F|, |G| <= 127`.
//!
//! The reduction at depth `d >= 1` does not use exact division: `f, g`
//! are approximated in 32.32 fixed point from their top `WORD_WIN[d]`
//! words (`fixed_point`), `(F, G)` from a sliding window, and each round assumes
//! that `(F, G)` shrank by `REDUCE_BITS[logn]` bits, with the word length
//! of `(F, G)` shrinking on a fixed schedule. Depth 0 does one exact-range
//! reduction modulo `p_0` with the fixed-point FFT division. Matching the
//! reference for every seed requires the same budgets, the same windows
//! and scales, and the same fixed-point rounding, all reproduced here
//! (the constants are parameters of that design). Candidates rejected by
//! the reference (its budgets or approximations fail) are rejected here.
//!
//! # Constant time
//!
//! Nothing branches on or indexes with secret data; the data-dependent
//! scales (`scale_x`) are applied with masks and shifts. The outcome is
//! accumulated in an all-ones/zero mask and only the final accept/reject
//! decision of the candidate is made public (`solve`).

use crate::algo::big_int::{self, bitlength};
use crate::algo::fixed_point::{self, Fixed};
use crate::algo::primes::{PRIMES, SmallPrime};
use alloc::vec;
use alloc::vec::Vec;
use pqkit_common::mp31::tbmask;
use pqkit_common::{Backend, Kernel};
use zeroize::Zeroizing;

mod reduce;
use reduce::*;

const Q: u32 = pqkit_common::q12289::Q as u32;

/// Words per coefficient of `(f, g)` (and of the reduced `(F, G)`) at
/// each depth.
const SMALL_BL: [usize; 11] = [1, 1, 2, 3, 4, 8, 14, 27, 53, 104, 207];
/// Words per coefficient of the unreduced `(F, G)` at each depth.
const LARGE_BL: [usize; 10] = [1, 2, 3, 6, 11, 21, 40, 78, 155, 308];
/// Top words of `(f, g)` used for their fixed-point approximation.
const WORD_WIN: [usize; 10] = [1, 1, 2, 2, 2, 3, 3, 4, 5, 7];
/// Bits assumed gained per reduction round, by `logn` of the key.
const REDUCE_BITS: [u32; 11] = [16, 16, 16, 16, 16, 16, 16, 16, 16, 13, 11];
/// From this degree on, `k (f, g)` is computed with NTTs, below it by
/// schoolbook products (except at depth 1, which has its own path).
const MIN_LOGN_FGNTT: u32 = 4;

type Words = Zeroizing<Vec<u32>>;
type FixedVec = Zeroizing<Vec<Fixed>>;

fn words(len: usize) -> Words {
    Zeroizing::new(vec![0u32; len])
}

fn fixed(len: usize) -> FixedVec {
    Zeroizing::new(vec![0u64; len])
}

/// `(x / 31, x % 31)` for `x <= 63487` without a division instruction
/// (the operand may be secret): `67651 / 2^21` is just above `1 / 31`.
#[inline(always)]
const fn divrem31(x: u32) -> (u32, u32) {
    let q = x.wrapping_mul(67651) >> 21;
    (q, x - 31 * q)
}

/// Constant-time maximum / minimum of values below 2^31.
#[inline(always)]
fn ct_max(a: u32, b: u32) -> u32 {
    a ^ ((a ^ b) & tbmask(a.wrapping_sub(b)))
}

#[inline(always)]
fn ct_min(a: u32, b: u32) -> u32 {
    a ^ ((a ^ b) & tbmask(b.wrapping_sub(a)))
}

/// All-ones when `x == y`. The 0/1 difference flag goes through an
/// optimisation barrier so that the mask is built arithmetically (the
/// compiler would otherwise use a conditional move on secret data).
#[inline(always)]
fn eq_mask(x: u32, y: u32) -> u32 {
    let d = x ^ y;
    let nz = (d | d.wrapping_neg()) >> 31;
    core::hint::black_box(nz).wrapping_sub(1)
}

/// Root tables of one prime for one degree (forward and inverse).
struct Roots {
    gm: Vec<u32>,
    igm: Vec<u32>,
}

impl Roots {
    fn new(sp: &SmallPrime, logn: u32) -> Self {
        let n = 1usize << logn;
        let mut r = Roots {
            gm: vec![0; n],
            igm: vec![0; n],
        };
        sp.roots(logn, &mut r.gm, &mut r.igm);
        r
    }
}

/// The bit length of the largest `|x|` (of `-x - 1` for negative `x`)
/// over the `n` signed integers of `xlen` words (planes of stride `n`).
fn max_bitlength(x: &[u32], n: usize, xlen: usize) -> u32 {
    // Track (word index, word) of the largest value, compared
    // lexicographically: the index of the top non-zero word, then it.
    let (mut tk, mut t) = (0u32, 0u32);
    for i in 0..n {
        let sign = (x[i + (xlen - 1) * n] >> 30).wrapping_neg() & 0x7FFF_FFFF;
        let (mut ck, mut c) = (0u32, 0u32);
        for j in 0..xlen {
            let w = x[i + j * n] ^ sign;
            let nz = !eq_mask(w, 0);
            c ^= nz & (c ^ w);
            ck ^= nz & (ck ^ j as u32);
        }
        // (ck, c) > (tk, t)?
        let gt = tbmask(tk.wrapping_sub(ck)) | (eq_mask(tk, ck) & tbmask(t.wrapping_sub(c)));
        t ^= gt & (t ^ c);
        tk ^= gt & (tk ^ ck);
    }
    31 * tk + bitlength(t)
}

/// Fixed-point approximations `x / 2^sc` of `n` signed integers of `xlen`
/// words (planes of stride `n`), truncated toward minus infinity to the
/// 32.32 grid, assuming `|x| < 2^(30 + sc)`. Only the three words around
/// bit `sc` are read; `sc` may be secret (selection by masks).
fn to_fixed(x: &[u32], n: usize, xlen: usize, sc: u32, out: &mut [Fixed]) {
    if xlen == 0 {
        out[..n].fill(0);
        return;
    }
    // sc = 31 sch + scl with scl in 1..=31 (borrow one word if scl = 0);
    // sch may become -1 (all words below it read as zero).
    let (sch, scl) = divrem31(sc);
    let z = tbmask(scl.wrapping_sub(1));
    let sch = sch.wrapping_sub(z & 1);
    let scl = scl | (z & 31);
    // Word indices w0 = sch - 1, w1 = sch, w2 = sch + 1 (mod 2^32).
    let (i0, i1, i2) = (sch.wrapping_sub(1), sch, sch.wrapping_add(1));
    // Words at or above xlen are sign extension: flags for that case
    // (signed comparisons; the indices are at most a few hundred).
    let above = |k: u32| !tbmask(k.wrapping_sub(xlen as u32)) & !tbmask(k);
    let (e0, e1, e2) = (above(i0), above(i1), above(i2));
    // Selection masks per word index, computed once and passed through
    // an optimisation barrier so that the compiler cannot turn the
    // masked selection below into a secret-dependent branch.
    let mut masks = Zeroizing::new(vec![[0u32; 3]; xlen]);
    for (j, m) in masks.iter_mut().enumerate() {
        let jj = j as u32;
        *m = core::hint::black_box([eq_mask(jj, i0), eq_mask(jj, i1), eq_mask(jj, i2)]);
    }
    for (i, o) in out[..n].iter_mut().enumerate() {
        let (mut w0, mut w1, mut w2) = (0u32, 0u32, 0u32);
        for (j, m) in masks.iter().enumerate() {
            let w = x[i + j * n];
            w0 |= w & m[0];
            w1 |= w & m[1];
            w2 |= w & m[2];
        }
        let ws = (x[i + (xlen - 1) * n] >> 30).wrapping_neg() >> 1;
        w0 |= ws & e0;
        w1 |= ws & e1;
        w2 |= ws & e2;
        // Sign-extend the top word to 32 bits, then shift the 93-bit
        // window right by scl - 1 and keep 64 bits.
        w2 |= (w2 & 0x4000_0000) << 1;
        let lo = (w0 >> (scl - 1)) | (w1 << (32 - scl));
        let hi = (w1 >> scl) | (w2 << (31 - scl));
        *o = lo as u64 | ((hi as u64) << 32);
    }
}

/// The field norms of `f` and `g` at every depth, as plain integers:
/// level `d` holds `f_d` then `g_d`, `SMALL_BL[d]` words per coefficient
/// in planes of stride `n >> d` (signed, except the two resultants at
/// depth `logn`, which are non-negative). Also returns all-ones if `f` is
/// invertible modulo `X^n + 1` and `p_0` (the reference rejects it
/// otherwise).
fn field_norms<B: Backend>(b: B, logn: u32, f: &[i8], g: &[i8]) -> (Vec<Words>, u32) {
    let n = 1usize << logn;
    let mut levels = Vec::with_capacity(logn as usize + 1);
    let mut top = words(2 * n);
    for (i, (&a, &b)) in f.iter().zip(g).enumerate() {
        top[i] = a as i32 as u32 & 0x7FFF_FFFF;
        top[n + i] = b as i32 as u32 & 0x7FFF_FFFF;
    }
    levels.push(top);
    let mut inv_ok = u32::MAX;
    let mut t = words(n);
    for d in 0..logn as usize {
        let ld = logn - d as u32;
        let nd = n >> d;
        let hn = nd / 2;
        let slen = SMALL_BL[d];
        let tlen = SMALL_BL[d + 1];
        let mut out = words(2 * tlen * hn);
        let src = &levels[d];
        for i in 0..tlen {
            let sp = &PRIMES[i];
            let r = Roots::new(sp, ld);
            let rx = sp.pow2_31(slen as u32);
            for side in 0..2 {
                let s = &src[side * slen * nd..];
                b.residues_mp31(sp, s, slen, rx, &mut t[..nd]);
                b.ntt_mp31(sp, &mut t[..nd], &r.gm);
                if d == 0 && i == 0 && side == 0 {
                    // f invertible mod p_0 iff no NTT value is zero.
                    let mut z = 0u32;
                    for &v in &t[..nd] {
                        z |= v.wrapping_sub(1);
                    }
                    inv_ok = !tbmask(z);
                }
                // N(f)(w^2) = f(w) f(-w): slots 2j and 2j + 1.
                let o = &mut out[side * tlen * hn + i * hn..][..hn];
                for (j, oj) in o.iter_mut().enumerate() {
                    *oj = sp.mul(t[2 * j], t[2 * j + 1]);
                }
                b.intt_mp31(sp, o, &r.igm);
            }
        }
        let signed = d + 1 < logn as usize;
        let mut tmp = words(tlen);
        big_int::rebuild_crt(b, &mut out, tlen, hn, 2, signed, &mut tmp);
        levels.push(out);
    }
    (levels, inv_ok)
}

/// Deepest level: `Res(f) G - Res(g) F = q`. Returns `F` then `G`
/// (`SMALL_BL[logn]` words each) and the success mask.
fn solve_deepest<B: Backend>(b: B, logn: u32, fg: &[u32]) -> (Words, u32) {
    let slen = SMALL_BL[logn as usize];
    let (rf, rg) = fg.split_at(slen);
    let mut out = words(2 * slen);
    let mut tmp = words(8 * slen);
    let (cf, cg) = out.split_at_mut(slen);
    let mut ok = big_int::bezout(b, cg, cf, rf, &rg[..slen], &mut tmp);
    // Scale by q; an overflow of the budget rejects the candidate.
    let c1 = big_int::mul_small(cf, Q);
    let c2 = big_int::mul_small(cg, Q);
    ok &= eq_mask(c1 | c2, 0);
    (out, ok)
}

/// Per-depth context of the reduction.
struct Level<'a> {
    logn_top: u32,
    depth: usize,
    logn: u32,
    n: usize,
    slen: usize,
    /// Plain `f`, `g` at this depth (`slen` words, planes of stride n).
    f: &'a [u32],
    g: &'a [u32],
}

/// One intermediate depth: lift `(F', G')` (`up`, `SMALL_BL[depth + 1]`
/// words, `n / 2` coefficients), reduce, and return `(F, G)` in
/// `SMALL_BL[depth]` words; `ok` is cleared on a failed check.
fn solve_intermediate<B: Backend>(b: B, lv: &Level<'_>, up: &[u32], ok: &mut u32) -> Words {
    let (logn, n, slen) = (lv.logn, lv.n, lv.slen);
    let hn = n / 2;
    let llen = LARGE_BL[lv.depth];
    let tlen = SMALL_BL[lv.depth + 1];
    let (fd, gd) = up.split_at(tlen * hn);

    // Unreduced F = F'(x^2) g(-x), G = G'(x^2) f(-x), modulo llen primes.
    let mut big = words(2 * llen * n);
    {
        let (bf, bg) = big.split_at_mut(llen * n);
        let mut ft = words(n);
        let mut gt = words(n);
        let mut uf = words(hn);
        let mut ug = words(hn);
        for i in 0..llen {
            let sp = &PRIMES[i];
            let r = Roots::new(sp, logn);
            let rxs = sp.pow2_31(slen as u32);
            let rxt = sp.pow2_31(tlen as u32);
            b.residues_mp31(sp, lv.f, slen, rxs, &mut ft);
            b.residues_mp31(sp, lv.g, slen, rxs, &mut gt);
            b.ntt_mp31(sp, &mut ft, &r.gm);
            b.ntt_mp31(sp, &mut gt, &r.gm);
            b.residues_mp31(sp, fd, tlen, rxt, &mut uf);
            b.residues_mp31(sp, gd, tlen, rxt, &mut ug);
            // The first n/2 roots of degree n are those of degree n/2.
            b.ntt_mp31(sp, &mut uf, &r.gm);
            b.ntt_mp31(sp, &mut ug, &r.gm);
            let of = &mut bf[i * n..(i + 1) * n];
            let og = &mut bg[i * n..(i + 1) * n];
            lift_ntt(sp, &uf[..hn], &ug[..hn], &ft, &gt, of, og);
            b.intt_mp31(sp, of, &r.igm);
            b.intt_mp31(sp, og, &r.igm);
        }
        let mut tmp = words(llen);
        big_int::rebuild_crt(b, &mut big, llen, n, 2, true, &mut tmp);
    }

    reduce(b, lv, &mut big, llen);

    let mut out = words(2 * slen * n);
    out[..slen * n].copy_from_slice(&big[..slen * n]);
    out[slen * n..].copy_from_slice(&big[llen * n..(llen + slen) * n]);

    // Check f G - g F = q modulo p_0 (the reference skips depth 1, which
    // depth 0 covers).
    if lv.depth >= 2 {
        let sp = &PRIMES[0];
        let mut gm = vec![0u32; n];
        sp.roots(logn, &mut gm, &mut []);
        let rx = sp.pow2_31(slen as u32);
        let mut t = [words(n), words(n), words(n), words(n)];
        let (of, og) = out.split_at(slen * n);
        for (tt, src) in t.iter_mut().zip([lv.f, lv.g, of, og]) {
            b.residues_mp31(sp, src, slen, rx, tt);
            b.ntt_mp31(sp, tt, &gm);
        }
        let rv = sp.mmul(Q, 1);
        let mut bad = 0u32;
        for j in 0..n {
            let x = sp.mmul(t[0][j], t[3][j]);
            let y = sp.mmul(t[1][j], t[2][j]);
            bad |= sp.sub(x, y) ^ rv;
        }
        *ok &= eq_mask(bad, 0);
    }
    out
}

/// Montgomery form of `2^sc mod p`, as the reference builds it.
fn sc_factor(sp: &SmallPrime, sc: u32) -> u32 {
    let mut x = sp.mmul(1 << (sc & 31), sp.r2);
    for _ in 0..(sc >> 5) {
        x = sp.mmul(x, sp.r2);
    }
    x
}

/// Depth 0: lift, one reduction modulo `p_0` with the fixed-point FFT
/// division, check `f G - g F = q mod p_0` and the range. Writes `(F, G)`.
fn solve_depth0<B: Backend>(
    b: B,
    logn: u32,
    f: &[i8],
    g: &[i8],
    up: &[u32],
    cf: &mut [i32],
    cg: &mut [i32],
) -> u32 {
    let n = 1usize << logn;
    let hn = n / 2;
    let sp = &PRIMES[0];
    let r = Roots::new(sp, logn);
    let mut ft = words(n);
    let mut gt = words(n);
    for j in 0..n {
        ft[j] = sp.set(f[j] as i32);
        gt[j] = sp.set(g[j] as i32);
    }
    b.ntt_mp31(sp, &mut ft, &r.gm);
    b.ntt_mp31(sp, &mut gt, &r.gm);
    // (F', G') are one word each: sign-extend from 31 bits.
    let mut ud = words(n);
    for (o, &x) in ud.iter_mut().zip(up) {
        *o = sp.set((x | ((x & 0x4000_0000) << 1)) as i32);
    }
    let (ufd, ugd) = ud.split_at_mut(hn);
    b.ntt_mp31(sp, ufd, &r.gm);
    b.ntt_mp31(sp, ugd, &r.gm);
    let mut fu = words(n);
    let mut gu = words(n);
    lift_ntt(sp, ufd, ugd, &ft, &gt, &mut fu, &mut gu);

    // num = F adj f + G adj g, den = f adj f + g adj g (mod p_0, NTT;
    // adj moves the value at w to the conjugate root, slot n - 1 - j).
    let mut num = words(n);
    let mut den = words(n);
    for j in 0..n {
        let wf = sp.mmul(ft[n - 1 - j], sp.r2);
        let wg = sp.mmul(gt[n - 1 - j], sp.r2);
        num[j] = sp.add(sp.mmul(wf, fu[j]), sp.mmul(wg, gu[j]));
        den[j] = sp.add(sp.mmul(wf, ft[j]), sp.mmul(wg, gt[j]));
    }
    b.intt_mp31(sp, &mut num, &r.igm);
    b.intt_mp31(sp, &mut den, &r.igm);

    // k = round(num / den) in 32.32 fixed point, inputs scaled by 2^-10.
    let mut rd = fixed(n);
    let mut rnum = fixed(n);
    for j in 0..n {
        rd[j] = ((sp.norm(den[j]) as i64) << 22) as u64;
        rnum[j] = ((sp.norm(num[j]) as i64) << 22) as u64;
    }
    fixed_point::fft(b, &mut rd);
    fixed_point::fft(b, &mut rnum);
    let (lo, hi) = rnum.split_at_mut(hn);
    b.div_fx32_mp31(lo, &rd[..hn]);
    b.div_fx32_mp31(hi, &rd[..hn]);
    fixed_point::ifft(b, &mut rnum);
    let mut kt = words(n);
    for (o, &x) in kt.iter_mut().zip(rnum.iter()) {
        *o = sp.set(fixed_point::round(x));
    }
    b.ntt_mp31(sp, &mut kt, &r.gm);

    // (F, G) -= k (f, g), and check f G - g F = q.
    let rv = sp.mmul(Q, 1);
    let mut bad = 0u32;
    for j in 0..n {
        let kv = sp.mmul(kt[j], sp.r2);
        fu[j] = sp.sub(fu[j], sp.mmul(kv, ft[j]));
        gu[j] = sp.sub(gu[j], sp.mmul(kv, gt[j]));
        bad |= sp.sub(sp.mmul(ft[j], gu[j]), sp.mmul(gt[j], fu[j])) ^ rv;
    }
    b.intt_mp31(sp, &mut fu, &r.igm);
    b.intt_mp31(sp, &mut gu, &r.igm);
    for j in 0..n {
        cf[j] = sp.norm(fu[j]);
        cg[j] = sp.norm(gu[j]);
        // Out of [-127, 127]: x + 127 outside [0, 254].
        for v in [cf[j], cg[j]] {
            let x = (v + 127) as u32;
            bad |= tbmask(254u32.wrapping_sub(x)) | tbmask(x);
        }
    }
    eq_mask(bad, 0)
}

/// Solve `f G - g F = q` with `F, G` in `[-127, 127]` for `n = 2^logn`
/// (`2 <= logn <= 10`), making exactly the decisions of fn-dsa 0.3. On
/// success writes `F` and `G` and returns true; on failure they are left
/// with unspecified values and the candidate must be discarded.
/// Whether `f G - g F = q` holds exactly in `Z[X]/(X^n + 1)`, as an
/// all-ones (holds) or zero mask, in constant time. Checked modulo the
/// first 31-bit prime with NTTs: with 8-bit coefficients every coefficient
/// of `f G - g F` is below `2 n 128^2 <= 2^25` in magnitude, far inside
/// `(-p_0/2, p_0/2)`, so equality modulo `p_0` is equality over the
/// integers. Keys that decode but fail it have a degenerate sampler basis.
pub(crate) fn ntru_holds<B: Backend>(
    b: B,
    logn: u32,
    f: &[i8],
    g: &[i8],
    cap_f: &[i8],
    cap_g: &[i8],
) -> u32 {
    let n = 1usize << logn;
    let sp = &PRIMES[0];
    let gm = &crate::algo::primes::P0_GM[..n];
    // f, g, F, G side by side, transformed in place.
    let mut t = words(4 * n);
    for (chunk, src) in t.chunks_mut(n).zip([f, g, cap_f, cap_g]) {
        for (o, &v) in chunk.iter_mut().zip(&src[..n]) {
            *o = sp.set(i32::from(v));
        }
        b.ntt_mp31(sp, chunk, gm);
    }
    // The NTT of the constant q is q in every slot (times 2^-32 from the
    // Montgomery products).
    let rv = sp.mmul(Q, 1);
    let (fg, cap) = t.split_at(2 * n);
    let mut bad = 0u32;
    for j in 0..n {
        bad |= sp.sub(sp.mmul(fg[j], cap[n + j]), sp.mmul(fg[n + j], cap[j])) ^ rv;
    }
    // The transforms are `Zeroizing`: wiped on drop.
    drop(t);
    eq_mask(bad, 0)
}

/// [`ntru_holds`] on the backend.
pub(crate) struct NtruHolds<'a> {
    pub logn: u32,
    pub f: &'a [i8],
    pub g: &'a [i8],
    pub cap_f: &'a [i8],
    pub cap_g: &'a [i8],
}

impl Kernel for NtruHolds<'_> {
    type Output = u32;
    fn run<B: Backend>(self, b: B) -> u32 {
        ntru_holds(b, self.logn, self.f, self.g, self.cap_f, self.cap_g)
    }
}

pub(crate) fn solve(logn: u32, f: &[i8], g: &[i8], cap_f: &mut [i8], cap_g: &mut [i8]) -> bool {
    pqkit_common::dispatch(Solve {
        logn,
        f,
        g,
        cap_f,
        cap_g,
    })
}

/// `solve` as one backend kernel: the RNS loops run on the backend's
/// `mp31` kernels, and the rest is compiled for that backend too.
struct Solve<'a> {
    logn: u32,
    f: &'a [i8],
    g: &'a [i8],
    cap_f: &'a mut [i8],
    cap_g: &'a mut [i8],
}

impl Kernel for Solve<'_> {
    type Output = bool;
    fn run<B: Backend>(self, b: B) -> bool {
        solve_with(b, self.logn, self.f, self.g, self.cap_f, self.cap_g)
    }
}

fn solve_with<B: Backend>(
    b: B,
    logn: u32,
    f: &[i8],
    g: &[i8],
    cap_f: &mut [i8],
    cap_g: &mut [i8],
) -> bool {
    let n = 1usize << logn;
    let (levels, mut ok) = field_norms(b, logn, f, g);
    let (mut up, ok_deep) = solve_deepest(b, logn, &levels[logn as usize]);
    ok &= ok_deep;
    for depth in (1..logn as usize).rev() {
        let slen = SMALL_BL[depth];
        let nd = n >> depth;
        let (fp, gp) = levels[depth].split_at(slen * nd);
        let lv = Level {
            logn_top: logn,
            depth,
            logn: logn - depth as u32,
            n: nd,
            slen,
            f: fp,
            g: gp,
        };
        up = solve_intermediate(b, &lv, &up, &mut ok);
    }
    let mut cf = Zeroizing::new(vec![0i32; n]);
    let mut cg = Zeroizing::new(vec![0i32; n]);
    ok &= solve_depth0(b, logn, f, g, &up, &mut cf, &mut cg);
    for j in 0..n {
        cap_f[j] = cf[j] as i8;
        cap_g[j] = cg[j] as i8;
    }
    // The accept/reject decision of this candidate is public (a rejected
    // candidate is discarded and a fresh one sampled); nothing else is.
    pqkit_common::ct::declassify(ok) != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divrem31_exhaustive() {
        for x in 0..=63487u32 {
            assert_eq!(divrem31(x), (x / 31, x % 31));
        }
    }

    #[test]
    fn bitlength_and_lzcnt() {
        for x in [0u32, 1, 2, 3, 0x7FFF_FFFF, 0x4000_0000, 12345] {
            assert_eq!(bitlength(x), 32 - x.leading_zeros());
        }
    }
}
