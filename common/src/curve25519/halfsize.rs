//! Half-size scalars for signature verification.
//!
//! Verification decides whether `P = [s]B - [k]A - R` is the neutral
//! element, with `k` a 253-bit hash. For integers `c0`, `c1` with
//! `c0 = c1 k (mod 8 l)` and `c1` odd (and `0 < c1 < l`):
//!
//! * `[c1 k]A = [c0]A` for every point `A`, torsion included, because the
//!   order of every point of edwards25519 divides `8 l`;
//! * multiplication by `c1` is a bijection of the group (`c1` is prime to
//!   `8 l`), so `P = 0` exactly when `[c1]P = 0`, and `[8]P = 0` exactly
//!   when `[8][c1]P = 0`;
//!
//! so `P = 0` exactly when `[c1 s mod l]B - [c0]A - [c1]R = 0`. With `c0`
//! and `c1` near `2^128` (the lattice `{(c0, c1) : c0 = c1 k mod 8 l}` has
//! determinant `8 l`, so its short vectors have about 128-bit entries) and
//! the 253-bit `[c1 s mod l]B` split into two 128-bit halves over `B` and
//! `2^128 B`, the shared doubling chain of the double-scalar loop is about
//! 128 doublings long instead of 253. (The idea: Antipa, Brown, Gallant,
//! Lambert, Struik, Vanstone, "Accelerated verification of ECDSA
//! signatures", SAC 2005; for EdDSA, Pornin, "Optimized lattice basis
//! reduction in dimension 2, and fast Schnorr and EdDSA signature
//! verification", 2020, and ElSheikh, Hasan, "Accelerating EdDSA signature
//! verification with faster scalar size halving", TCHES 2025. Working
//! modulo `8 l` rather than `l` keeps the cofactorless equation exact for
//! points with a torsion component.)
//!
//! The pair comes from the extended Euclidean algorithm on `(8 l, k)`,
//! stopped at the first remainder below `2^128`: every remainder `r_i`
//! satisfies `r_i = t_i k (mod 8 l)` and `|t_i| <= 8 l / r_(i-1)`.
//! Quotients are estimated from the top 64 bits and corrected. The
//! function gives up (`None`, and the caller runs the full-length loop)
//! when a quotient would exceed `2^31` or the pair found exceeds 160 bits:
//! both need a `k` with an unusually short lattice vector, which a hash
//! output has with negligible probability. Variable time: `k` is public.

use super::scalar::Scalar;

/// `8 l` in little-endian 64-bit words.
const L8: [u64; 4] = [
    0xc093_18d2_e7ae_9f68,
    0xa6f7_cef5_17bc_e6b2,
    0,
    0x8000_0000_0000_0000,
];

/// The pair of [`half_size`]: `c0` (with its sign) and `c1 > 0`, odd.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HalfSize {
    /// `|c0|`, below `2^160`.
    pub(crate) c0: Scalar,
    /// Whether `c0` is negative.
    pub(crate) c0_neg: bool,
    /// `c1`, odd, below `2^160`.
    pub(crate) c1: Scalar,
}

fn bit_len(a: &[u64; 4]) -> u32 {
    for i in (0..4).rev() {
        if a[i] != 0 {
            return 64 * i as u32 + 64 - a[i].leading_zeros();
        }
    }
    0
}

/// Bits `m .. m + 64` of `a` (`m < 256`).
fn bits_at(a: &[u64; 4], m: u32) -> u64 {
    let (w, b) = ((m / 64) as usize, m % 64);
    let lo = a[w] >> b;
    let hi = if b == 0 || w == 3 {
        0
    } else {
        a[w + 1] << (64 - b)
    };
    lo | hi
}

/// `a - q b`, with the caller guaranteeing `q b <= a`.
fn sub_mul(a: &[u64; 4], b: &[u64; 4], q: u64) -> [u64; 4] {
    let mut out = [0u64; 4];
    let mut carry = 0u64;
    let mut borrow = 0u64;
    for i in 0..4 {
        let p = u128::from(b[i]) * u128::from(q) + u128::from(carry);
        carry = (p >> 64) as u64;
        let (d, b1) = a[i].overflowing_sub(p as u64);
        let (d, b2) = d.overflowing_sub(borrow);
        out[i] = d;
        borrow = u64::from(b1) + u64::from(b2);
    }
    out
}

/// `a - b` for `b <= a`.
fn sub(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    sub_mul(a, b, 1)
}

fn less(a: &[u64; 4], b: &[u64; 4]) -> bool {
    for i in (0..4).rev() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
    }
    false
}

/// `(floor(a / b), a mod b)` for `a >= b >= 2^64`, or `None` when the
/// quotient may exceed `2^31`.
fn div_small(a: &[u64; 4], b: &[u64; 4]) -> Option<(u64, [u64; 4])> {
    // With m = len(a) - 64, a_top = floor(a / 2^m) and b_top =
    // floor(b / 2^m): a_top / (b_top + 1) < a / b, so the estimate never
    // overshoots, and for b_top >= 2^32 it falls short by at most 2.
    let m = bit_len(a) - 64;
    let a_top = bits_at(a, m);
    let b_top = bits_at(b, m);
    if b_top < 1 << 32 {
        return None;
    }
    let mut q = a_top.checked_div(b_top + 1).unwrap_or(0);
    let mut rem = sub_mul(a, b, q);
    while !less(&rem, b) {
        rem = sub(&rem, b);
        q += 1;
    }
    Some((q, rem))
}

/// The Euclidean steps on `(u, v)` that the top bits `a = u / 2^m`,
/// `b = v / 2^m` (truncated, `a < 2^62`) determine: the matrix
/// `(x y; z w)` taking `(u, v)` to the pair of remainders after them
/// (`y = 0`: none). A step is taken only when the quotient is the same for
/// both extremes of the truncation (Knuth's condition), and only while the
/// new remainder stays clearly above `2^129` (`b >= 2^(129 - m) + 2^33`),
/// so that the caller's last steps, near `2^128`, are exact ones.
fn lehmer_steps(mut a: u64, mut b: u64, m: u32) -> (i64, i64, i64, i64) {
    let floor = (1u64 << 129u32.saturating_sub(m).min(62)) + (1 << 33);
    let (mut x, mut y, mut z, mut w) = (1i64, 0i64, 0i64, 1i64);
    while let (Some(d1), Some(d2)) = (
        (b as i64).checked_add(z).filter(|&d| d > 0),
        (b as i64).checked_add(w).filter(|&d| d > 0),
    ) {
        let q = (a as i64 + x) / d1;
        if q != (a as i64 + y) / d2 {
            break;
        }
        let Some(nb) = (q as u64).checked_mul(b).and_then(|p| a.checked_sub(p)) else {
            break;
        };
        let (Some(nz), Some(nw)) = (
            q.checked_mul(z).and_then(|p| x.checked_sub(p)),
            q.checked_mul(w).and_then(|p| y.checked_sub(p)),
        ) else {
            break;
        };
        if nb < floor || nz.unsigned_abs() >= 1 << 40 || nw.unsigned_abs() >= 1 << 40 {
            break;
        }
        (x, y, z, w) = (z, w, nz, nw);
        (a, b) = (b, nb);
    }
    (x, y, z, w)
}

/// `x u + y v` when it is in `[0, 2^256)` (`|x|, |y| < 2^40`).
fn lin(u: &[u64; 4], v: &[u64; 4], x: i64, y: i64) -> Option<[u64; 4]> {
    let mut out = [0u64; 4];
    let mut carry = 0i128;
    for i in 0..4 {
        let acc = carry + i128::from(x) * i128::from(u[i]) + i128::from(y) * i128::from(v[i]);
        out[i] = acc as u64;
        carry = acc >> 64;
    }
    (carry == 0).then_some(out)
}

/// `|v|` as 64-bit words.
fn words_of(v: i128) -> [u64; 4] {
    let m = v.unsigned_abs();
    [m as u64, (m >> 64) as u64, 0, 0]
}

/// A pair `(r, t)` with `r = t k (mod 8 l)`, `t` odd, as [`HalfSize`]
/// when both fit in 160 bits.
fn finish(r: &[u64; 4], t: i128) -> Option<HalfSize> {
    if bit_len(r) > 160 {
        return None;
    }
    // c1 = |t|; when t < 0, (-r, -t) is the same relation.
    Some(HalfSize {
        c0: Scalar::from_small_words(r),
        c0_neg: t < 0 && *r != [0; 4],
        c1: Scalar::from_small_words(&words_of(t)),
    })
}

/// The larger bit length of `r` and `|t|`.
fn size(r: &[u64; 4], t: i128) -> u32 {
    bit_len(r).max(128 - t.unsigned_abs().leading_zeros())
}

/// `(c0, c1)` with `c0 = c1 k (mod 8 l)`, `c1` odd, both near `2^128` (see
/// the module documentation), or `None` when `k` is one of the rare
/// values this fast path leaves to the full-length loop.
pub(crate) fn half_size(k: &Scalar) -> Option<HalfSize> {
    let (mut r0, mut r1) = (L8, k.to_words());
    let (mut t0, mut t1) = (0i128, 1i128);
    while bit_len(&r1) > 128 {
        // Lehmer: run the Euclidean steps whose quotients the top 62 bits
        // already determine (Knuth's Algorithm L, TAOCP 4.5.2), then apply
        // their product matrix to the full values once.
        let m = bit_len(&r0) - 62;
        let (x, y, z, w) = lehmer_steps(bits_at(&r0, m), bits_at(&r1, m), m);
        if y == 0 {
            // No quotient certain from the top bits: one exact step.
            let (q, rem) = div_small(&r0, &r1)?;
            let t2 = t0.checked_sub(t1.checked_mul(i128::from(q))?)?;
            (r0, r1, t0, t1) = (r1, rem, t1, t2);
            continue;
        }
        // Any integer matrix keeps r_i = t_i k (mod 8 l); the checks only
        // guard the sizes.
        let (n0, n1) = (lin(&r0, &r1, x, y)?, lin(&r0, &r1, z, w)?);
        let lt = |a: i64, b: i64| -> Option<i128> {
            i128::from(a)
                .checked_mul(t0)?
                .checked_add(i128::from(b).checked_mul(t1)?)
        };
        (t0, t1) = (lt(x, y)?, lt(z, w)?);
        (r0, r1) = (n0, n1);
    }
    if t1 & 1 == 1 {
        return finish(&r1, t1);
    }
    // t1 is even, so t0 (coprime to it) is odd, and so is t0 - q t1: the
    // shorter of (r0, t0) and the next Euclidean step.
    let next = if r1 == [0; 4] || bit_len(&r1) <= 64 {
        None
    } else {
        div_small(&r0, &r1).and_then(|(q, rem)| {
            let t2 = t0.checked_sub(t1.checked_mul(i128::from(q))?)?;
            Some((rem, t2))
        })
    };
    match next {
        Some((r2, t2)) if size(&r2, t2) < size(&r0, t0) => finish(&r2, t2),
        _ => finish(&r0, t0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;

    /// `a * b` for `a < 2^256`, `b < 2^192`, as 8 words (schoolbook).
    fn mul_wide(a: &[u64; 4], b: &[u64; 4]) -> [u64; 8] {
        let mut out = [0u64; 8];
        for i in 0..4 {
            let mut carry = 0u128;
            for j in 0..4 {
                let cur = u128::from(out[i + j]) + u128::from(a[i]) * u128::from(b[j]) + carry;
                out[i + j] = cur as u64;
                carry = cur >> 64;
            }
            out[i + 4] = carry as u64;
        }
        out
    }

    /// `x mod 8 l` for an 8-word `x`, by shift-and-subtract (slow, plain).
    fn mod_l8(x: &[u64; 8]) -> [u64; 4] {
        let mut rem = [0u64; 5];
        for bit in (0..512).rev() {
            // rem = 2 rem + bit
            let mut carry = (x[bit / 64] >> (bit % 64)) & 1;
            for w in rem.iter_mut() {
                let next = *w >> 63;
                *w = (*w << 1) | carry;
                carry = next;
            }
            let l8 = [L8[0], L8[1], L8[2], L8[3], 0];
            let ge = (0..5)
                .rev()
                .find(|&i| rem[i] != l8[i])
                .is_none_or(|i| rem[i] > l8[i]);
            if ge {
                let mut borrow = 0u64;
                for i in 0..5 {
                    let (d, b1) = rem[i].overflowing_sub(l8[i]);
                    let (d, b2) = d.overflowing_sub(borrow);
                    rem[i] = d;
                    borrow = u64::from(b1) + u64::from(b2);
                }
            }
        }
        [rem[0], rem[1], rem[2], rem[3]]
    }

    fn neg_mod_l8(x: &[u64; 4]) -> [u64; 4] {
        if *x == [0; 4] { [0; 4] } else { sub(&L8, x) }
    }

    /// Asserts `c0 = c1 k (mod 8 l)`, `c1` odd, both below `2^bound`.
    fn check(k: &Scalar, h: &HalfSize, bound: u32) {
        let c1 = h.c1.to_words();
        let c0 = h.c0.to_words();
        assert_eq!(c1[0] & 1, 1, "c1 odd");
        assert!(bit_len(&c0) <= bound && bit_len(&c1) <= bound);
        let lhs = mod_l8(&mul_wide(&k.to_words(), &c1));
        let c0_mod = mod_l8(&[c0[0], c0[1], c0[2], c0[3], 0, 0, 0, 0]);
        let rhs = if h.c0_neg {
            neg_mod_l8(&c0_mod)
        } else {
            c0_mod
        };
        assert_eq!(lhs, rhs, "c0 = c1 k mod 8l");
    }

    #[test]
    fn constant_is_eight_l() {
        let l = Scalar::ZERO - Scalar::ONE; // l - 1
        let mut w = l.to_words();
        w[0] += 1;
        let eight = mul_wide(&w, &[8, 0, 0, 0]);
        assert_eq!(&eight[..4], &L8);
        assert_eq!(&eight[4..], &[0; 4]);
    }

    #[test]
    fn random_scalars_halve() {
        let mut state = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut worst = 0;
        let mut hist = [0u32; 257];
        for _ in 0..20_000 {
            let mut b = [0u8; 64];
            for c in b.chunks_exact_mut(8) {
                c.copy_from_slice(&next().to_le_bytes());
            }
            let k = Scalar::from_bytes_mod_order_wide(&b);
            let h = half_size(&k).expect("random k takes the fast path");
            check(&k, &h, 160);
            let c = h.c0.to_words();
            let d = h.c1.to_words();
            worst = worst.max(bit_len(&c).max(bit_len(&d)));
            hist[bit_len(&c).max(bit_len(&d)) as usize] += 1;
        }
        // Most pairs are 127 to 130 bits; a tail (the odd c1 is on the
        // longer vector of an unbalanced basis) reaches the 140s.
        let short: u32 = hist[..=131].iter().sum();
        assert!(short >= 18_000, "{:?}", &hist[120..161]);
        assert!(worst <= 160);
    }

    #[test]
    fn edge_scalars() {
        let l_minus_1 = Scalar::ZERO - Scalar::ONE;
        let small = |v: u64| Scalar::from_small_words(&[v, 0, 0, 0]);
        let mut cases = vec![
            Scalar::ZERO,
            Scalar::ONE,
            small(2),
            small(u64::MAX),
            Scalar::from_small_words(&[u64::MAX, u64::MAX, 0, 0]),
            Scalar::from_small_words(&[0, 0, 1, 0]),
            l_minus_1,
            l_minus_1 - Scalar::ONE,
        ];
        for shift in [1u32, 7, 64, 100, 127, 128, 129, 200, 251, 252] {
            let mut w = [0u64; 4];
            w[(shift / 64) as usize] = 1 << (shift % 64);
            cases.push(Scalar::from_bytes_mod_order(bytes_of(&w)));
        }
        for k in &cases {
            if let Some(h) = half_size(k) {
                check(k, &h, 160);
            }
        }
        // k below 2^128 is its own pair: (k, 1).
        let h = half_size(&small(12345)).unwrap();
        assert_eq!((h.c0, h.c0_neg, h.c1), (small(12345), false, Scalar::ONE));
        // k = l - 1: for odd c1, c1 k = (c1 mod 8) l - c1 (mod 8 l) is
        // within 2^160 of an odd multiple of l, so no short pair exists and
        // the caller takes the full-length loop.
        assert_eq!(half_size(&l_minus_1), None);
    }

    fn bytes_of(w: &[u64; 4]) -> [u8; 32] {
        let mut b = [0u8; 32];
        for (c, x) in b.chunks_exact_mut(8).zip(w) {
            c.copy_from_slice(&x.to_le_bytes());
        }
        b
    }
}
