//! Constant-time inversion modulo `p = 2^255 - 19` by Bernstein-Yang
//! divsteps ("safegcd"), in the form of libsecp256k1's constant-time
//! `modinv64` (see its `doc/safegcd_implementation.md`).
//!
//! The algorithm keeps four numbers `f, g, d, e` with
//!
//! * `f` odd, `f = p` and `g = x` at the start;
//! * `d x = f` and `e x = g` modulo `p` throughout (`d = 0`, `e = 1` at
//!   the start).
//!
//! A *divstep* (in the "half-delta" variant, `delta` starting at `1/2`)
//! transforms `(delta, f, g)` into
//!
//! * `(1 - delta, g, (g - f) / 2)` when `delta > 0` and `g` is odd,
//! * `(1 + delta, f, (g + f) / 2)` when `delta <= 0` and `g` is odd,
//! * `(1 + delta, f, g / 2)` when `g` is even,
//!
//! which keeps `gcd(f, g)` (up to powers of two, and `f` is odd) and
//! drives `g` to 0, so that `f` ends as `+-gcd(p, x) = +-1` for `x != 0`.
//! Bernstein and Yang ("Fast constant-time gcd computation and modular
//! inversion", 2019) bound the number of steps; for the half-delta variant
//! Wuille's convex-hull analysis (`safegcd-bounds`) shows that 590 steps
//! reach `g = 0` for any modulus below `2^256` and any `0 <= x < modulus`;
//! further steps keep `g = 0` and `f`. We run exactly 600: 10 batches of
//! 60.
//!
//! Each step only looks at the parity of `g` and the sign of `delta`, so a
//! batch of 60 steps is decided by the low bits of `f` and `g` alone: the
//! batch is computed on one 64-bit word (in three packed runs of 20 steps,
//! see [`divsteps_20`]) into a 2x2 transition matrix
//! `t = [u v; q r]`, then applied once to the full-size `(f, g)` and, modulo
//! `p`, to `(d, e)`. The same operations applied to `d, e` (with halving
//! done modulo `p`) keep `d x = f`, `e x = g`; at the end `d x = f = +-1`,
//! so `+-d` is the inverse, and no exponentiation or final correction
//! factor is needed.
//!
//! Numbers are held in five signed 62-bit limbs, `v0 + v1 2^62 + ... +
//! v4 2^248`, the low four limbs in `[0, 2^62)` after every update and the
//! top one signed (two's complement); `p` itself is `-19 + 2^7 2^248`.
//!
//! Constant time: the iteration counts are fixed, every conditional is a
//! mask (`x >> 63` of a signed value, `-(g & 1)`), there is no branch,
//! no table index and no early exit that depends on the value. Pure safe
//! integer arithmetic: intended wrap-around is spelled with `wrapping_*`
//! so that builds with overflow checks agree with release builds.

/// The low 62 bits.
const M62: u64 = u64::MAX >> 2;

/// `p = 2^255 - 19` in signed 62-bit limbs: `-19 + 128 * 2^248`. Only
/// limbs 0 and 4 are non-zero, which the compiler folds in [`update_de`].
const P: [i64; 5] = [-19, 0, 0, 0, 128];

/// `p^-1 mod 2^62`, for the low-bit cancellation in [`update_de`].
const P_INV62: u64 = inverse_mod_2_64(P[0] as u64) & M62;

/// The inverse of an odd `a` modulo `2^64`, by Newton's iteration
/// `y <- y (2 - a y)`, which doubles the number of correct low bits: `y = a`
/// is right modulo 8 (every odd square is 1 mod 8), so five rounds give
/// `3 * 2^5 = 96 >= 64` bits.
const fn inverse_mod_2_64(a: u64) -> u64 {
    let mut y = a;
    let mut i = 0;
    while i < 5 {
        y = y.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(y)));
        i += 1;
    }
    y
}

/// A transition matrix `[u v; q r]` for 60 divsteps, scaled by `2^62`:
/// `u f + v g = 2^62 f'` and `q f + r g = 2^62 g'`, where `(f', g')` are
/// `(f, g)` after the 60 steps. The entries satisfy `|u| + |v| <= 2^62`
/// and `|q| + |r| <= 2^62`.
#[derive(Clone, Copy)]
struct Trans {
    u: i64,
    v: i64,
    q: i64,
    r: i64,
}

/// 20 divsteps on the low 20 bits of `f` and `g` (the only ones the
/// steps look at), from `zeta`, each step one update of two packed words.
/// Returns the new `zeta` and `[u, v, q, r]` with `2^20 f' = u f + v g`,
/// `2^20 g' = q f + r g`, where `(f', g')` are `(f, g)` after the steps;
/// `|u| + |v| <= 2^20` and `|q| + |r| <= 2^20`.
///
/// Each row `(f; its coefficients of f0 and g0)` is one `i64`,
/// `value - a 2^41 - b 2^62`, starting from `f0 - 2^41` and `g0 - 2^62`
/// (the coefficients are stored negated). A divstep is linear in the rows
/// (add or subtract one row to the other, swap, halve `g`'s row), so the
/// packed words follow it exactly, with dyadic coefficients that stay
/// integers in their fields: after step `i` the `g0` coefficient is a
/// multiple of `2^-i`, at `2^(62 - i)` in the word and up. Bit 0 of a row
/// is the parity of its value (the coefficient terms are multiples of
/// `2^22`), and its value part stays below `2^20` in magnitude. After 20
/// steps the word is `value + (-u) 2^21 + (-v) 2^42`: three fields, read
/// with a bias. The stored negation keeps every field in range: `u` (and
/// `v`) is `2^20` only when the row never took a halved value, never
/// `-2^20`, and `-2^20` fits a 21-bit field where `2^20` would not.
///
/// The words stay below `2^62 + 2^61 + 2^21` in magnitude (a row's `b` is
/// at most 1, and 1/2 once halved), so the arithmetic shift halves
/// exactly.
#[inline(always)]
fn divsteps_20(mut zeta: i64, f0: u64, g0: u64) -> (i64, [i64; 4]) {
    const LOW20: u64 = (1 << 20) - 1;
    let mut f = ((f0 & LOW20) as i64).wrapping_sub(1 << 41);
    let mut g = ((g0 & LOW20) as i64).wrapping_sub(1 << 62);
    for _ in 0..20 {
        // c1: all ones when zeta < 0 (delta > 0); c2: all ones when g is odd.
        let c1 = zeta >> 63;
        let c2 = (g & 1).wrapping_neg();
        // g - f when delta > 0, else g + f, where g is odd.
        g = g.wrapping_add(((f ^ c1).wrapping_sub(c1)) & c2);
        // The swap case: f takes the old g, which is f + (g - f).
        let c3 = c1 & c2;
        zeta = (zeta ^ c3) - 1;
        f = f.wrapping_add(g & c3);
        g >>= 1;
    }
    // value + 2^20 in [0, 2^21), -u + 2^20 in [0, 2^21), then -v.
    let split = |w: i64| {
        let t = w.wrapping_add((1 << 20) + (1 << 41));
        let a = ((t >> 21) & ((1 << 21) - 1)) - (1 << 20);
        let b = t >> 42;
        (-a, -b)
    };
    let (u, v) = split(f);
    let (q, r) = split(g);
    (zeta, [u, v, q, r])
}

/// The low word of `(a f + b g) / 2^20` from the low words of `f` and `g`
/// (its bits below `k - 20` are exact when those of `f`, `g` below `k` are).
#[inline(always)]
fn next_low(a: i64, b: i64, f: u64, g: u64) -> u64 {
    (a as u64)
        .wrapping_mul(f)
        .wrapping_add((b as u64).wrapping_mul(g))
        >> 20
}

/// `x y` for 2 x 2 matrices `[a b; c d]` as `[a, b, c, d]` (entries of the
/// products here stay below `2^60`).
#[inline(always)]
fn mat_mul(x: [i64; 4], y: [i64; 4]) -> [i64; 4] {
    [
        x[0] * y[0] + x[1] * y[2],
        x[0] * y[1] + x[1] * y[3],
        x[2] * y[0] + x[3] * y[2],
        x[2] * y[1] + x[3] * y[3],
    ]
}

/// 60 divsteps on the low limbs `f0`, `g0` of `f` and `g` (only their low
/// 62 bits matter, and only 60 are used), from `zeta = -(delta + 1/2)`:
/// three batches of [`divsteps_20`], the low bits for the next batch from
/// the matrix so far. Returns the new `zeta` and the transition matrix
/// scaled by `2^62` (see [`Trans`]; the product of the three matrices is
/// scaled by `2^60`, times 4).
///
/// In terms of `zeta`: `delta > 0` is `zeta < 0`; `delta -> 1 + delta` is
/// `zeta -> zeta - 1`; `delta -> 1 - delta` is `zeta -> -zeta - 2`, that is
/// `!zeta - 1`. Over 600 steps `|zeta| <= 601`.
#[inline(always)]
fn divsteps_60(zeta: i64, f0: u64, g0: u64) -> (i64, Trans) {
    let (zeta, m1) = divsteps_20(zeta, f0, g0);
    // f, g after 20 steps: 42 exact low bits.
    let (f1, g1) = (
        next_low(m1[0], m1[1], f0, g0),
        next_low(m1[2], m1[3], f0, g0),
    );
    let (zeta, m2) = divsteps_20(zeta, f1, g1);
    // After 40 steps: 22 exact low bits, 20 used.
    let (f2, g2) = (
        next_low(m2[0], m2[1], f1, g1),
        next_low(m2[2], m2[3], f1, g1),
    );
    let (zeta, m3) = divsteps_20(zeta, f2, g2);
    let m = mat_mul(m3, mat_mul(m2, m1));
    (
        zeta,
        Trans {
            u: m[0] << 2,
            v: m[1] << 2,
            q: m[2] << 2,
            r: m[3] << 2,
        },
    )
}

#[inline(always)]
fn mul(a: i64, b: i64) -> i128 {
    a as i128 * b as i128
}

/// The low 62 bits of an accumulator, as a limb in `[0, 2^62)`.
#[inline(always)]
fn low62(c: i128) -> i64 {
    (c as u64 & M62) as i64
}

/// `(f, g) <- t (f, g) / 2^62`, exactly (no reduction): the numbers after
/// the batch of divsteps. `f` and `g` stay in `(-p, p]` (divsteps never
/// grow `max(|f|, |g|)`), so the results fit the five limbs.
///
/// The division is a shift by one limb: the bottom 62 bits of
/// `u f + v g` and `q f + r g` are zero by [`divsteps_60`]'s construction, so
/// limb 0 of the product is dropped and every further limb moves down.
/// Accumulators: `|u| + |v| <= 2^62` times limbs below `2^62` is below
/// `2^124` per column, plus a carry below `2^63`: well inside `i128`.
#[inline(always)]
fn update_fg(f: &mut [i64; 5], g: &mut [i64; 5], t: Trans) {
    let Trans { u, v, q, r } = t;
    let mut cf = mul(u, f[0]) + mul(v, g[0]);
    let mut cg = mul(q, f[0]) + mul(r, g[0]);
    cf >>= 62;
    cg >>= 62;
    for i in 1..5 {
        cf += mul(u, f[i]) + mul(v, g[i]);
        cg += mul(q, f[i]) + mul(r, g[i]);
        f[i - 1] = low62(cf);
        g[i - 1] = low62(cg);
        cf >>= 62;
        cg >>= 62;
    }
    f[4] = cf as i64;
    g[4] = cg as i64;
}

/// `(d, e) <- t (d, e) / 2^62 mod p`, keeping `d, e` in `(-2p, p)`.
///
/// * First a sign correction: `d < 0` is replaced by `d + p`, `e < 0` by
///   `e + p` (as `md`, `me`: multiples of `p` added to the products), so
///   both are in `(-p, p)` and `|u d + v e| < (|u| + |v|) p <= 2^62 p`.
/// * Then a multiple `k p`, `k` in `[0, 2^62)`, is subtracted from each
///   product so that its bottom 62 bits vanish: `k = (p^-1 c + m) mod 2^62`
///   for the low word `c` of the product, since `c + p m - p k = c - p p^-1
///   c = 0 (mod 2^62)`. The division by `2^62` is then exact, and the
///   result lies in `(-2^62 p - 2^62 p, 2^62 p) / 2^62 = (-2p, p)`.
///
/// `md` ends in `(-2^63, 2^62]`, an `i64`; the accumulators are as in
/// [`update_fg`] plus `|p_i md| < 2^71`.
#[inline(always)]
fn update_de(d: &mut [i64; 5], e: &mut [i64; 5], t: Trans) {
    let Trans { u, v, q, r } = t;
    // All ones when d (e) is negative: the top limb carries the sign.
    let sd = d[4] >> 63;
    let se = e[4] >> 63;
    let mut md = (u & sd) + (v & se);
    let mut me = (q & sd) + (r & se);
    let mut cd = mul(u, d[0]) + mul(v, e[0]);
    let mut ce = mul(q, d[0]) + mul(r, e[0]);
    md -= (P_INV62.wrapping_mul(cd as u64).wrapping_add(md as u64) & M62) as i64;
    me -= (P_INV62.wrapping_mul(ce as u64).wrapping_add(me as u64) & M62) as i64;
    cd += mul(P[0], md);
    ce += mul(P[0], me);
    // The bottom 62 bits of cd and ce are now zero: drop them.
    cd >>= 62;
    ce >>= 62;
    for i in 1..5 {
        cd += mul(u, d[i]) + mul(v, e[i]) + mul(P[i], md);
        ce += mul(q, d[i]) + mul(r, e[i]) + mul(P[i], me);
        d[i - 1] = low62(cd);
        e[i - 1] = low62(ce);
        cd >>= 62;
        ce >>= 62;
    }
    d[4] = cd as i64;
    e[4] = ce as i64;
}

/// Carry limbs 0..3 into the next one, leaving them in `[0, 2^62)` (the
/// value is unchanged; limb 4 keeps the sign).
#[inline(always)]
fn carry(r: &mut [i64; 5]) {
    for i in 0..4 {
        r[i + 1] += r[i] >> 62;
        r[i] &= M62 as i64;
    }
}

/// `d` in `(-2p, p)` (limbs in `(-2^62, 2^62)`), negated when `sign < 0`,
/// brought to `[0, p)` with limbs in `[0, 2^62)`: add `p` if negative,
/// negate on request (now in `(-p, p)`), add `p` again if negative.
#[inline(always)]
fn normalize(mut d: [i64; 5], sign: i64) -> [i64; 5] {
    let neg = d[4] >> 63;
    for i in 0..5 {
        d[i] += P[i] & neg;
    }
    let flip = sign >> 63;
    for x in d.iter_mut() {
        *x = (*x ^ flip) - flip;
    }
    carry(&mut d);
    let neg = d[4] >> 63;
    for i in 0..5 {
        d[i] += P[i] & neg;
    }
    carry(&mut d);
    d
}

/// `1/x mod p` of a field element's encoding, in constant time: 32
/// little-endian bytes in, the canonical encoding of the inverse out
/// (0 maps to 0).
///
/// The input is meant to be canonical (`x < p`); bit 255 is ignored and a
/// value in `[p, 2^255)` is reduced first (one masked subtraction), so any
/// 32 bytes give the inverse of their value modulo `p`, as for
/// `FieldElement::from_bytes`.
pub(crate) fn invert_canonical(x: &[u8; 32]) -> [u8; 32] {
    let w = |i: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&x[8 * i..8 * i + 8]);
        u64::from_le_bytes(b)
    };
    let mut w = [w(0), w(1), w(2), w(3) & (u64::MAX >> 1)];
    // x >= p exactly when x + 19 >= 2^255: q is that bit of x + 19, and
    // x + 19 q - 2^255 q = x - q p is then reduced. Arithmetic on q rather
    // than a select between x and x + 19: LLVM turns such a select into a
    // branch.
    let (_, c0) = w[0].overflowing_add(19);
    let (_, c1) = w[1].overflowing_add(c0 as u64);
    let (_, c2) = w[2].overflowing_add(c1 as u64);
    let q = w[3].wrapping_add(c2 as u64) >> 63;
    let mut c = 19 * q;
    for wi in w.iter_mut() {
        let (s, o) = wi.overflowing_add(c);
        *wi = s;
        c = o as u64;
    }
    w[3] &= u64::MAX >> 1;

    let mut f = P;
    let mut g = [
        (w[0] & M62) as i64,
        (((w[0] >> 62) | (w[1] << 2)) & M62) as i64,
        (((w[1] >> 60) | (w[2] << 4)) & M62) as i64,
        (((w[2] >> 58) | (w[3] << 6)) & M62) as i64,
        (w[3] >> 56) as i64,
    ];
    let mut d = [0i64; 5];
    let mut e = [1i64, 0, 0, 0, 0];
    // zeta = -(delta + 1/2) with delta = 1/2.
    let mut zeta = -1i64;
    for _ in 0..10 {
        let (z, t) = divsteps_60(zeta, f[0] as u64, g[0] as u64);
        zeta = z;
        update_de(&mut d, &mut e, t);
        update_fg(&mut f, &mut g, t);
    }
    // Now g = 0 and f = +-1 (x != 0), so d x = f gives 1/x = f d; for x = 0,
    // f = p (positive) and d = 0. The sign of f is the sign of its top limb.
    let d = normalize(d, f[4]);
    let out = [
        d[0] as u64 | (d[1] as u64) << 62,
        (d[1] as u64) >> 2 | (d[2] as u64) << 60,
        (d[2] as u64) >> 4 | (d[3] as u64) << 58,
        (d[3] as u64) >> 6 | (d[4] as u64) << 56,
    ];
    let mut bytes = [0u8; 32];
    for (o, w) in bytes.chunks_exact_mut(8).zip(out) {
        o.copy_from_slice(&w.to_le_bytes());
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve25519::FieldElement;
    use crate::curve25519::fieldops::Field;
    use crate::testutil::rng;
    use core::cmp::Ordering;
    use std::vec::Vec;

    /// The reference for [`divsteps_60`]: the same 60 divsteps one variable
    /// at a time, rows scaled by doubling `f`'s rather than halving `g`'s:
    /// the matrix starts as `4 I` so that it ends scaled by `2^62`, and
    /// `u f0 + v g0 = f 2^i`, `q f0 + r g0 = g 2^i` (mod `2^64`) hold after
    /// `i - 2` steps.
    fn divsteps_plain(mut zeta: i64, f0: u64, g0: u64) -> (i64, Trans) {
        let (mut u, mut v, mut q, mut r) = (4u64, 0u64, 0u64, 4u64);
        let (mut f, mut g) = (f0, g0);
        for _ in 0..60 {
            let c1 = (zeta >> 63) as u64;
            let c2 = (g & 1).wrapping_neg();
            g = g.wrapping_add(((f ^ c1).wrapping_sub(c1)) & c2);
            q = q.wrapping_add(((u ^ c1).wrapping_sub(c1)) & c2);
            r = r.wrapping_add(((v ^ c1).wrapping_sub(c1)) & c2);
            let c3 = c1 & c2;
            zeta = (zeta ^ c3 as i64) - 1;
            f = f.wrapping_add(g & c3);
            u = u.wrapping_add(q & c3);
            v = v.wrapping_add(r & c3);
            g >>= 1;
            u <<= 1;
            v <<= 1;
        }
        let t = Trans {
            u: u as i64,
            v: v as i64,
            q: q as i64,
            r: r as i64,
        };
        (zeta, t)
    }

    /// Random inputs: a million in release builds, fewer in debug.
    const N: usize = if cfg!(debug_assertions) {
        2_000
    } else {
        1_000_000
    };

    /// `p` in bytes.
    const P_BYTES: [u8; 32] = {
        let mut b = [0xff; 32];
        b[0] = 0xed;
        b[31] = 0x7f;
        b
    };

    fn bytes32(next: &mut impl FnMut() -> u64) -> [u8; 32] {
        let mut b = [0u8; 32];
        for c in b.chunks_exact_mut(8) {
            c.copy_from_slice(&next().to_le_bytes());
        }
        b
    }

    /// Little-endian 256-bit addition of a small value, wrapping.
    fn add_small(a: &[u8; 32], k: u8) -> [u8; 32] {
        let mut out = *a;
        let mut c = k as u16;
        for o in out.iter_mut() {
            let s = *o as u16 + c;
            *o = s as u8;
            c = s >> 8;
        }
        out
    }

    /// Little-endian 256-bit subtraction of a small value, wrapping.
    fn sub_small(a: &[u8; 32], k: u8) -> [u8; 32] {
        let mut out = *a;
        let mut b = k as i16;
        for o in out.iter_mut() {
            let s = *o as i16 - b;
            *o = s as u8;
            b = if s < 0 { 1 } else { 0 };
        }
        out
    }

    /// `2^k`.
    fn pow2(k: usize) -> [u8; 32] {
        let mut b = [0u8; 32];
        b[k / 8] = 1 << (k % 8);
        b
    }

    /// Half of an even 256-bit value (a right shift).
    fn half(a: &[u8; 32]) -> [u8; 32] {
        let mut out = [0u8; 32];
        for i in 0..32 {
            let hi = if i + 1 < 32 { a[i + 1] & 1 } else { 0 };
            out[i] = (a[i] >> 1) | (hi << 7);
        }
        out
    }

    /// `x^(p-2)` by plain square-and-multiply over the portable field: an
    /// independent reference (not the addition chain).
    fn fermat_plain(x: &FieldElement) -> FieldElement {
        let e = sub_small(&P_BYTES, 2);
        let mut r = FieldElement::ONE;
        for i in (0..255).rev() {
            r = r.square();
            if (e[i / 8] >> (i % 8)) & 1 == 1 {
                r = r.mul(x);
            }
        }
        r
    }

    /// Check one input (any 32 bytes) against both Fermat references and
    /// against `x * (1/x) = 1`.
    fn check(x: &[u8; 32], plain: bool) {
        let fe = FieldElement::from_bytes(x);
        let got = invert_canonical(x);
        let want = fe.invert_fermat().to_bytes();
        assert_eq!(got, want, "x = {x:02x?}");
        if plain {
            assert_eq!(got, fermat_plain(&fe).to_bytes(), "x = {x:02x?}");
        }
        // The output is canonical: decoding and re-encoding is the identity.
        assert_eq!(FieldElement::from_bytes(&got).to_bytes(), got);
        let prod = fe.mul(&FieldElement::from_bytes(&got));
        if bool::from(fe.is_zero()) {
            assert_eq!(got, [0; 32]);
        } else {
            assert_eq!(prod, FieldElement::ONE, "x = {x:02x?}");
        }
    }

    #[test]
    fn p_inv62() {
        assert_eq!(P_INV62.wrapping_mul(P[0] as u64) & M62, 1);
        assert_eq!(P_INV62 >> 62, 0);
        // The limbs are p: -19 + 2^7 * 2^248 = 2^255 - 19.
        assert_eq!(cmp(&P, &limbs_of(&P_BYTES)), Ordering::Equal);
    }

    #[test]
    fn matches_fermat_random() {
        let mut next = rng(0x1a7e_5afe_9cd0);
        for _ in 0..N {
            let mut x = bytes32(&mut next);
            x[31] &= 0x7f;
            let x = FieldElement::from_bytes(&x).to_bytes();
            check(&x, false);
        }
    }

    #[test]
    fn edge_values() {
        let p = P_BYTES;
        let mut edges: Vec<[u8; 32]> = std::vec![
            [0; 32],
            pow2(0),
            pow2(1),
            sub_small(&p, 1),
            sub_small(&p, 2),
            half(&sub_small(&p, 1)),
            half(&add_small(&p, 1)),
            pow2(254),
            sub_small(&pow2(255), 20),
            sub_small(&pow2(255), 21),
        ];
        // Around the 62-bit limb boundaries: 2^(62k) - 1, 2^(62k), 2^(62k) + 1.
        for k in 1..=4 {
            let b = pow2(62 * k);
            edges.push(sub_small(&b, 1));
            edges.push(b);
            edges.push(add_small(&b, 1));
        }
        // Every 62-bit limb at 2^62 - 1, the top one at its largest (126,
        // 127 would exceed p) and at smaller values.
        for top in [0u8, 1, 63, 64, 126] {
            let mut b = [0xffu8; 32];
            b[31] = top >> 2;
            b[30] = (top << 6) | 0x3f;
            edges.push(b);
        }
        // Alternating limbs 0 / 2^62 - 1 and 1 / 2^62 - 2.
        for pattern in [0x5555_5555_5555_5555u64, 0xaaaa_aaaa_aaaa_aaaa, 1 << 62] {
            let mut b = [0u8; 32];
            for (c, w) in b.chunks_exact_mut(8).zip([pattern; 4]) {
                c.copy_from_slice(&w.to_le_bytes());
            }
            b[31] &= 0x7f;
            edges.push(b);
        }
        // Small values, and their negatives.
        for k in 1..=1000u32 {
            let mut b = [0u8; 32];
            b[..4].copy_from_slice(&k.to_le_bytes());
            edges.push(b);
            edges.push(FieldElement::from_bytes(&b).neg().to_bytes());
        }
        // Powers of two.
        for k in 0..255 {
            edges.push(pow2(k));
        }
        for x in &edges {
            check(x, true);
        }
    }

    #[test]
    fn noncanonical_inputs_are_reduced() {
        let p = P_BYTES;
        // p, p + 1, ..., 2^255 - 1, and with bit 255 set: values of 0..19.
        for k in 0..19 {
            let x = add_small(&p, k);
            let mut x_hi = x;
            x_hi[31] |= 0x80;
            let canonical = FieldElement::from_bytes(&x).to_bytes();
            assert_eq!(invert_canonical(&x), invert_canonical(&canonical));
            assert_eq!(invert_canonical(&x_hi), invert_canonical(&canonical));
        }
        let mut next = rng(0x0dd_b175);
        for _ in 0..N / 100 {
            let x = bytes32(&mut next);
            let canonical = FieldElement::from_bytes(&x).to_bytes();
            assert_eq!(invert_canonical(&x), invert_canonical(&canonical));
        }
    }

    #[test]
    fn field_trait_invert() {
        let mut next = rng(77);
        for _ in 0..100 {
            let x = FieldElement::from_bytes(&bytes32(&mut next));
            assert_eq!(Field::invert(&x), Field::invert_fermat(&x));
            assert_eq!(FieldElement::invert(&x), x.invert_fermat());
        }
        assert_eq!(Field::invert(&FieldElement::ZERO), FieldElement::ZERO);
    }

    /// Signed limbs to limbs 0..3 in `[0, 2^62)` and a signed top limb
    /// (same value).
    fn normalized(a: &[i128; 5]) -> [i128; 5] {
        let mut r = *a;
        for i in 0..4 {
            r[i + 1] += r[i] >> 62;
            r[i] &= M62 as i128;
        }
        r
    }

    /// `a` compared with `b` (signed limbs, any normalization).
    fn cmp(a: &[i64; 5], b: &[i64; 5]) -> Ordering {
        let diff: [i128; 5] = core::array::from_fn(|i| a[i] as i128 - b[i] as i128);
        let r = normalized(&diff);
        if r[4] < 0 {
            Ordering::Less
        } else if r.iter().any(|&x| x != 0) {
            Ordering::Greater
        } else {
            Ordering::Equal
        }
    }

    /// `k p` in limbs.
    fn kp(k: i64) -> [i64; 5] {
        P.map(|x| x * k)
    }

    fn limbs_of(x: &[u8; 32]) -> [i64; 5] {
        let w: [u64; 4] =
            core::array::from_fn(|i| u64::from_le_bytes(x[8 * i..8 * i + 8].try_into().unwrap()));
        [
            (w[0] & M62) as i64,
            (((w[0] >> 62) | (w[1] << 2)) & M62) as i64,
            (((w[1] >> 60) | (w[2] << 4)) & M62) as i64,
            (((w[2] >> 58) | (w[3] << 6)) & M62) as i64,
            (w[3] >> 56) as i64,
        ]
    }

    /// The loop of [`invert_canonical`] with the invariants checked after
    /// every batch: the matrix is scaled by `2^62` (determinant `2^64`,
    /// row sums at most `2^62`, low 62 bits of the products zero), `d, e`
    /// in `(-2p, p)`, `f, g` in `(-p, p]`, limbs 0..3 in `[0, 2^62)`, and at
    /// the end `g = 0`, `f = +-1` (or `f = p`, `d = 0` for `x = 0`).
    fn check_invariants(x: &[u8; 32]) {
        let mut f = P;
        let mut g = limbs_of(x);
        let (mut d, mut e) = ([0i64; 5], [1i64, 0, 0, 0, 0]);
        let mut zeta = -1i64;
        for _ in 0..10 {
            let (z, t) = divsteps_60(zeta, f[0] as u64, g[0] as u64);
            let (z_plain, t_plain) = divsteps_plain(zeta, f[0] as u64, g[0] as u64);
            assert_eq!(
                (z, t.u, t.v, t.q, t.r),
                (z_plain, t_plain.u, t_plain.v, t_plain.q, t_plain.r)
            );
            zeta = z;
            assert!(zeta.abs() <= 601);
            let det = t.u as i128 * t.r as i128 - t.v as i128 * t.q as i128;
            assert_eq!(det, 1 << 64);
            assert!(t.u.unsigned_abs() + t.v.unsigned_abs() <= 1 << 62);
            assert!(t.q.unsigned_abs() + t.r.unsigned_abs() <= 1 << 62);
            let low = |a: i64, b: i64| {
                (a as u64)
                    .wrapping_mul(f[0] as u64)
                    .wrapping_add((b as u64).wrapping_mul(g[0] as u64))
                    & M62
            };
            assert_eq!(low(t.u, t.v), 0);
            assert_eq!(low(t.q, t.r), 0);
            update_de(&mut d, &mut e, t);
            update_fg(&mut f, &mut g, t);
            for y in [&d, &e] {
                assert_eq!(cmp(y, &kp(-2)), Ordering::Greater);
                assert_eq!(cmp(y, &P), Ordering::Less);
            }
            for y in [&f, &g] {
                assert_eq!(cmp(y, &kp(-1)), Ordering::Greater);
                assert_ne!(cmp(y, &P), Ordering::Greater);
            }
            for y in [&d, &e, &f, &g] {
                assert!(y[..4].iter().all(|&l| (0..1 << 62).contains(&l)));
            }
        }
        assert_eq!(cmp(&g, &[0; 5]), Ordering::Equal);
        let one = [1, 0, 0, 0, 0];
        let minus_one = [-1, 0, 0, 0, 0];
        if limbs_of(x) == [0; 5] {
            assert_eq!(cmp(&f, &P), Ordering::Equal);
            assert_eq!(cmp(&d, &[0; 5]), Ordering::Equal);
        } else {
            assert!(cmp(&f, &one) == Ordering::Equal || cmp(&f, &minus_one) == Ordering::Equal);
        }
    }

    /// The packed batches against the plain reference on random and
    /// extreme low words and `zeta` values (`f` odd, as in the algorithm):
    /// `g` all zeros (no step adds, `u = 2^20` in every batch), all ones,
    /// alternating, and `zeta` at both ends of its range.
    #[test]
    fn packed_divsteps_match_plain() {
        let mut next = rng(0xd1f5);
        let mut words = std::vec![
            0u64,
            1,
            u64::MAX,
            M62,
            0x5555_5555_5555_5555,
            0xaaaa_aaaa_aaaa_aaaa
        ];
        for _ in 0..N / 10 {
            words.push(next() & M62);
        }
        let zetas = [-601i64, -2, -1, 0, 1, 599];
        for (i, &g0) in words.iter().enumerate() {
            let f0 = (words[(i * 7 + 3) % words.len()] | 1) & M62;
            let g0 = g0 & M62;
            for zeta in zetas.into_iter().chain([(next() % 1203) as i64 - 601]) {
                let (z, t) = divsteps_60(zeta, f0, g0);
                let (zp, tp) = divsteps_plain(zeta, f0, g0);
                assert_eq!(
                    (z, t.u, t.v, t.q, t.r),
                    (zp, tp.u, tp.v, tp.q, tp.r),
                    "{zeta} {f0:x} {g0:x}"
                );
            }
        }
    }

    #[test]
    fn invariants() {
        let mut next = rng(0x05af_e6cd);
        let mut inputs = std::vec![[0u8; 32], pow2(0), sub_small(&P_BYTES, 1), pow2(254)];
        for _ in 0..N / 100 {
            let mut x = bytes32(&mut next);
            x[31] &= 0x7f;
            inputs.push(FieldElement::from_bytes(&x).to_bytes());
        }
        for x in &inputs {
            check_invariants(x);
        }
    }

    /// Nanoseconds per inversion, Fermat (the addition chain on the
    /// portable field) against safegcd (through the byte encodings, as
    /// `invert` uses it). Run with
    /// `cargo test --release -p pqkit-common --lib inv_timing -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn inv_timing() {
        use core::hint::black_box;
        use std::time::Instant;
        const K: usize = 4096;
        const ROUNDS: usize = 50;
        let mut next = rng(0x7153);
        let xs: Vec<FieldElement> = (0..K)
            .map(|_| FieldElement::from_bytes(&bytes32(&mut next)))
            .collect();
        let bs: Vec<[u8; 32]> = xs.iter().map(|x| x.to_bytes()).collect();
        let mut best = [f64::MAX; 3];
        for _ in 0..5 {
            let t = Instant::now();
            let mut acc = 0u64;
            for _ in 0..ROUNDS {
                for x in &xs {
                    acc ^= black_box(black_box(x).invert_fermat()).0[0];
                }
            }
            black_box(acc);
            best[0] = best[0].min(t.elapsed().as_nanos() as f64 / (K * ROUNDS) as f64);

            let t = Instant::now();
            let mut acc = 0u8;
            for _ in 0..ROUNDS {
                for b in &bs {
                    acc ^= black_box(invert_canonical(black_box(b)))[0];
                }
            }
            black_box(acc);
            best[1] = best[1].min(t.elapsed().as_nanos() as f64 / (K * ROUNDS) as f64);

            let t = Instant::now();
            let mut acc = 0u64;
            for _ in 0..ROUNDS {
                for x in &xs {
                    let y = FieldElement::from_bytes(&invert_canonical(&black_box(x).to_bytes()));
                    acc ^= black_box(y).0[0];
                }
            }
            black_box(acc);
            best[2] = best[2].min(t.elapsed().as_nanos() as f64 / (K * ROUNDS) as f64);
        }
        std::println!(
            "fermat (x^(p-2) chain):            {:8.1} ns/inversion",
            best[0]
        );
        std::println!(
            "safegcd (invert_canonical):        {:8.1} ns/inversion",
            best[1]
        );
        std::println!(
            "safegcd with to_bytes/from_bytes:  {:8.1} ns/inversion",
            best[2]
        );
    }
}
