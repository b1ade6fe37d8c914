//! Big integers for the NTRU solver, as little-endian 31-bit words held
//! in `u32` (bit 31 always clear). A signed integer of `len` words is in
//! two's complement over `31 len` bits (bit 30 of the top word is the
//! sign). The words of one integer may be spread with a stride (the
//! polynomials store word `j` of coefficient `i` at `i + j n`, so that
//! each word plane is contiguous). All functions are constant-time in
//! the word values; lengths, strides and shift counts are public.

use crate::algo::primes::PRIMES;
use pqkit_common::Backend;
use pqkit_common::mp31::tbmask;

/// Number of leading zeros of a non-zero `x`, without a data-dependent
/// branch or table (a binary search with masks).
pub(crate) fn lzcnt(x: u32) -> u32 {
    let mut x = x;
    let mut n = 0;
    for sh in [16u32, 8, 4, 2, 1] {
        // All-ones when the top `sh` bits of x are zero.
        let z = tbmask((x >> (32 - sh)).wrapping_sub(1));
        n |= z & sh;
        x = (x & !z) | ((x << sh) & z);
    }
    n
}

/// Bit length of `x` (0 for 0), constant-time.
pub(crate) fn bitlength(x: u32) -> u32 {
    let nz = tbmask(x | x.wrapping_neg());
    (32 - lzcnt(x | 1)) & nz
}

/// `m *= x` (unsigned, `x < 2^31`); returns the carry out of the top word.
pub(crate) fn mul_small(m: &mut [u32], x: u32) -> u32 {
    let mut cc = 0u32;
    for w in m.iter_mut() {
        let z = *w as u64 * x as u64 + cc as u64;
        *w = z as u32 & 0x7FFF_FFFF;
        cc = (z >> 31) as u32;
    }
    cc
}

/// Chinese remaindering (Garner) of `num_sets` blocks of `n` integers:
/// block `s` holds, for coefficient `k`, the residue modulo `PRIMES[i]` at
/// `xx[s n xlen + k + i n]`; on output the same slots hold the words of
/// the integer modulo `p_0 ... p_{xlen-1}`, in `[0, M)` or centred when
/// `signed`. `tmp` needs `xlen` words.
pub(crate) fn rebuild_crt<B: Backend>(
    b: B,
    xx: &mut [u32],
    xlen: usize,
    n: usize,
    num_sets: usize,
    signed: bool,
    tmp: &mut [u32],
) {
    // Scratch of the backend's Garner step (one word per coefficient).
    let mut carry = zeroize::Zeroizing::new(alloc::vec![0u32; n]);
    // tmp holds the running product p_0 ... p_{i-1} (i words).
    tmp[0] = PRIMES[0].p;
    for i in 1..xlen {
        let sp = &PRIMES[i];
        for set in 0..num_sets {
            let blk = &mut xx[set * n * xlen..][..(i + 1) * n];
            b.crt_step_mp31(sp, sp.s, blk, i, &tmp[..i], &mut carry);
        }
        tmp[i] = mul_small(&mut tmp[..i], sp.p);
    }
    if signed {
        for set in 0..num_sets {
            b.norm_signed_mp31(&mut xx[set * n * xlen..][..n * xlen], n, &tmp[..xlen]);
        }
    }
}

/// Conditional negation of `a` (31-bit words) when `neg` is all-ones; no
/// change when it is zero.
///
/// Compatibility note: the fn-dsa 0.3 key generator propagates the carry
/// of the "+1" with the wrong sign (it subtracts it from the next word), so
/// a negative value whose low word is zero is not negated exactly. That
/// can only happen about once in 2^31 calls; it is reproduced here on
/// purpose so that the GCD below takes the same path (and gives the same
/// accept/reject decision) as the reference for every input.
fn cond_negate(a: &mut [u32], neg: u32) {
    let m = neg >> 1;
    let mut cc = neg;
    for w in a.iter_mut() {
        let z = (*w ^ m).wrapping_sub(cc);
        cc = z >> 31;
        *w = z & 0x7FFF_FFFF;
    }
}

/// `(a, b) <- ((fa a + ga b) / 2^31, (fb a + gb b) / 2^31)` for
/// non-negative `a, b` where the divisions are exact, then make both
/// non-negative; returns the two negation masks.
fn lin_div31_abs(a: &mut [u32], b: &mut [u32], fa: i64, ga: i64, fb: i64, gb: i64) -> (u32, u32) {
    let len = a.len();
    let (mut ca, mut cb) = (0i64, 0i64);
    for i in 0..len {
        let (aw, bw) = (a[i] as i64, b[i] as i64);
        // |coefficients| <= 2^31 and words < 2^31: no overflow.
        let za = aw * fa + bw * ga + ca;
        let zb = aw * fb + bw * gb + cb;
        if i > 0 {
            a[i - 1] = za as u32 & 0x7FFF_FFFF;
            b[i - 1] = zb as u32 & 0x7FFF_FFFF;
        }
        ca = za >> 31;
        cb = zb >> 31;
    }
    a[len - 1] = ca as u32 & 0x7FFF_FFFF;
    b[len - 1] = cb as u32 & 0x7FFF_FFFF;
    let na = (ca >> 63) as u32;
    let nb = (cb >> 63) as u32;
    cond_negate(a, na);
    cond_negate(b, nb);
    (na, nb)
}

/// `finish_mod` for the four interleaved integers of `bezout` (word `i`
/// of integer `l` at `w[4 i + l]`), integers 0, 1 modulo the first of the
/// interleaved moduli `m` and 2, 3 modulo the second: bring each from
/// `(-m, 2m)` into `[0, m)`; `neg[l]` is all-ones when integer `l` is
/// negative (its top carry was negative). The four carry chains run side
/// by side.
fn finish_mod4(w: &mut [u32], m: &[u32], neg: [u32; 4]) {
    // lt[l]: all-ones if w_l < m (only meaningful for non-negative w_l).
    let mut cc = [0u32; 4];
    for (wi, mi) in w.chunks_exact(4).zip(m.chunks_exact(2)) {
        for l in 0..4 {
            cc[l] = wi[l].wrapping_sub(mi[l / 2]).wrapping_sub(cc[l]) >> 31;
        }
    }
    // Negative: add m (subtract -m: xor mask + carry); w >= m: subtract m.
    let xm = neg.map(|n| n >> 1);
    let mut ym = [0u32; 4];
    let mut c = [0u32; 4];
    for l in 0..4 {
        ym[l] = neg[l] | !cc[l].wrapping_neg();
        c[l] = neg[l] & 1;
    }
    for (wi, mi) in w.chunks_exact_mut(4).zip(m.chunks_exact(2)) {
        for l in 0..4 {
            let z = wi[l]
                .wrapping_sub((mi[l / 2] ^ xm[l]) & ym[l])
                .wrapping_sub(c[l]);
            wi[l] = z & 0x7FFF_FFFF;
            c[l] = z >> 31;
        }
    }
}

/// `-1 / x mod 2^31` for odd `x`.
fn ninv31(x: u32) -> u32 {
    pqkit_common::mp31::ninv32(x) & 0x7FFF_FFFF
}

/// Extended binary GCD (the 31-steps-at-a-time variant of Pornin,
/// ePrint 2020/972): for `x, y` of `len` words, find `u, v` with
/// `x u - y v = 1`, `0 <= u < y`, `0 <= v < x`. Returns all-ones on
/// success, zero when `x` or `y` is even or `gcd(x, y) != 1` (then `u, v`
/// are meaningless). Constant-time; `tmp` needs `8 len` words.
///
/// The Bezout coefficients `(u0, u)` (modulo `y`) and `(v0, v)` (modulo
/// `x`) are kept interleaved word by word, so that each round updates all
/// four in one pass of the backend's `bezout_step_mp31`.
pub(crate) fn bezout<B: Backend>(
    be: B,
    u: &mut [u32],
    v: &mut [u32],
    x: &[u32],
    y: &[u32],
    tmp: &mut [u32],
) -> u32 {
    let len = x.len();
    let (a, tmp) = tmp.split_at_mut(len);
    let (b, tmp) = tmp.split_at_mut(len);
    let (w, tmp) = tmp.split_at_mut(4 * len);
    let ym = &mut tmp[..2 * len];
    // Invariants: a = x u0 - y v0 and b = x u1 - y v1, with u0, u1 mod y
    // and v0, v1 mod x (u1 = u, v1 = v); w holds (u0, u1, v0, v1) and ym
    // the moduli (y, x), interleaved.
    a.copy_from_slice(x);
    b.copy_from_slice(y);
    for i in 0..len {
        w[4 * i] = (i == 0) as u32;
        w[4 * i + 1] = y[i];
        w[4 * i + 2] = 0;
        w[4 * i + 3] = x[i];
        ym[2 * i] = y[i];
        ym[2 * i + 1] = x[i];
    }
    w[3] = x[0].wrapping_sub(1) & 0x7FFF_FFFF;
    let x0i = ninv31(x[0]);
    let y0i = ninv31(y[0]);

    // Each round shrinks len(a) + len(b) by at least 31 bits.
    for _ in 0..(2 * len + 1) {
        // Approximations of a and b on 63 bits: the top 32 bits (aligned
        // on the larger of the two) and the exact low 31 bits. When both
        // fit in two words the values are exact.
        let (mut a_hi, mut a_lo, mut b_hi, mut b_lo) = (0u32, 0u32, 0u32, 0u32);
        // `above1`: no non-zero word seen yet at or above the current
        // index (all-ones), `above0` the same one index higher.
        let mut above1 = u32::MAX;
        let mut above0 = u32::MAX;
        let mut above_m = u32::MAX;
        for i in (0..len).rev() {
            let (aw, bw) = (a[i], b[i]);
            a_hi ^= above1 & (a_hi ^ aw);
            b_hi ^= above1 & (b_hi ^ bw);
            a_lo ^= above0 & (a_lo ^ aw);
            b_lo ^= above0 & (b_lo ^ bw);
            above_m = above0;
            above0 = above1;
            above1 &= (((aw | bw) + 0x7FFF_FFFF) >> 31).wrapping_sub(1);
        }
        // above0: top non-zero word index is 0 (or none); above_m: it is
        // at most 1.
        let s = lzcnt(a_hi | b_hi | ((above_m & above0) >> 1));
        let ha = (a_hi << s) | (a_lo >> (31 - s));
        let hb = (b_hi << s) | (b_lo >> (31 - s));
        let ha = (ha ^ (above_m & (ha ^ a_hi))) & !above0;
        let hb = (hb ^ (above_m & (hb ^ b_hi))) & !above0;
        let mut xa = ((ha as u64) << 31) | a[0] as u64;
        let mut xb = ((hb as u64) << 31) | b[0] as u64;

        // 31 binary GCD steps on the approximations, tracking the matrix:
        // after t steps, xa = (f0 a + g0 b) / 2^t, xb = (f1 a + g1 b) / 2^t.
        let (mut f0, mut g0, mut f1, mut g1) = (1i64, 0i64, 0i64, 1i64);
        for _ in 0..31 {
            let odd = (xa & 1).wrapping_neg();
            let swap = odd & (((xa.wrapping_sub(xb)) as i64 >> 63) as u64);
            let t = swap & (xa ^ xb);
            xa ^= t;
            xb ^= t;
            let sw = swap as i64;
            let t = sw & (f0 ^ f1);
            f0 ^= t;
            f1 ^= t;
            let t = sw & (g0 ^ g1);
            g0 ^= t;
            g1 ^= t;
            let od = odd as i64;
            xa = xa.wrapping_sub(odd & xb);
            f0 -= od & f1;
            g0 -= od & g1;
            xa >>= 1;
            f1 <<= 1;
            g1 <<= 1;
        }

        let (na, nb) = lin_div31_abs(a, b, f0, g0, f1, g1);
        let (na, nb) = (na as i32 as i64, nb as i32 as i64);
        let (f0, g0) = ((f0 ^ na) - na, (g0 ^ na) - na);
        let (f1, g1) = ((f1 ^ nb) - nb, (g1 ^ nb) - nb);

        // (u0, u1) <- ((f0 u0 + g0 u1) / 2^31, (f1 u0 + g1 u1) / 2^31) mod y
        // and the same for (v0, v1) mod x: adding t y (t x) first makes
        // the low 31 bits vanish.
        let t_of = |p: u32, q: u32, f: i64, g: i64, m0i: u32| {
            p.wrapping_mul(f as u32)
                .wrapping_add(q.wrapping_mul(g as u32))
                .wrapping_mul(m0i)
                & 0x7FFF_FFFF
        };
        let t = [
            t_of(w[0], w[1], f0, g0, y0i),
            t_of(w[0], w[1], f1, g1, y0i),
            t_of(w[2], w[3], f0, g0, x0i),
            t_of(w[2], w[3], f1, g1, x0i),
        ];
        let c = be.bezout_step_mp31(w, ym, [f0, f1, f0, f1], [g0, g1, g0, g1], t);
        // The top words take the carries; then each value goes from
        // (-m, 2m) to [0, m).
        for (l, &cl) in c.iter().enumerate() {
            w[4 * (len - 1) + l] = cl as u32;
        }
        finish_mod4(w, ym, c.map(|cl| (cl >> 63) as u32));
    }
    for i in 0..len {
        u[i] = w[4 * i + 1];
        v[i] = w[4 * i + 3];
    }

    // Success iff b = 1 and both inputs were odd.
    let mut r = b[0] ^ 1;
    for &wd in &b[1..] {
        r |= wd;
    }
    r |= (x[0] & y[0] & 1) ^ 1;
    ((r | r.wrapping_neg()) >> 31).wrapping_sub(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pqkit_common::Portable;

    fn to_u128(x: &[u32]) -> u128 {
        x.iter().rev().fold(0u128, |a, &w| (a << 31) | w as u128)
    }

    fn from_u128(mut v: u128, len: usize) -> std::vec::Vec<u32> {
        (0..len)
            .map(|_| {
                let w = v as u32 & 0x7FFF_FFFF;
                v >>= 31;
                w
            })
            .collect()
    }

    #[test]
    fn bezout_small() {
        let cases: [(u128, u128); 5] = [
            (3, 5),
            (1, 7),
            (0x1234_5678_9abc_def1, 0x0fed_cba9_8765_4323),
            ((1 << 91) + 12345, (1 << 89) - 1),
            (0x1_0000_0000_0000_0001, 3),
        ];
        for (x, y) in cases {
            let len = 4;
            let (xv, yv) = (from_u128(x, len), from_u128(y, len));
            let mut u = std::vec![0; len];
            let mut v = std::vec![0; len];
            let mut tmp = std::vec![0; 8 * len];
            let ok = bezout(Portable, &mut u, &mut v, &xv, &yv, &mut tmp);
            let g = {
                let (mut a, mut b) = (x, y);
                while b != 0 {
                    (a, b) = (b, a % b);
                }
                a
            };
            assert_eq!(ok == u32::MAX, g == 1, "{x} {y}");
            if g == 1 {
                let (uu, vv) = (to_u128(&u), to_u128(&v));
                assert!(uu < y && vv < x);
                // x u - y v = 1, checked mod 2^128.
                assert_eq!(x.wrapping_mul(uu).wrapping_sub(y.wrapping_mul(vv)), 1);
            }
        }
        let (xv, yv) = (from_u128(15, 2), from_u128(21, 2));
        let (mut u, mut v, mut tmp) = (std::vec![0; 2], std::vec![0; 2], std::vec![0; 16]);
        assert_eq!(bezout(Portable, &mut u, &mut v, &xv, &yv, &mut tmp), 0);
    }

    #[test]
    fn crt_round_trip() {
        let n = 3;
        let xlen = 4;
        let vals: [i128; 3] = [-(1 << 100) + 7, 12345, (1 << 110) - 3];
        let mut xx = std::vec![0u32; n * xlen];
        for (k, &v) in vals.iter().enumerate() {
            for i in 0..xlen {
                xx[k + i * n] = v.rem_euclid(PRIMES[i].p as i128) as u32;
            }
        }
        let mut tmp = std::vec![0u32; xlen];
        rebuild_crt(Portable, &mut xx, xlen, n, 1, true, &mut tmp);
        for (k, &v) in vals.iter().enumerate() {
            let mut got: i128 = 0;
            for i in (0..xlen).rev() {
                got = (got << 31) | xx[k + i * n] as i128;
            }
            // Sign-extend from 124 bits.
            let got = (got << 4) >> 4;
            assert_eq!(got, v);
        }
    }
}
