//! Scalar helpers modulo q = 12289 on this module's representation: signed
//! `i16` values (any representative unless a function says otherwise) and
//! Montgomery products with `R = 2^16` ([`MOD`]`.fqmul(a, b) = a b R^-1`).
//!
//! The backend kernels ([`Ops`](super::Ops)) transform and multiply whole
//! polynomials; these helpers cover what lies around them: conversions to
//! and from the canonical range `[0, q)` and the exact centred range,
//! the Montgomery form, the constant-time inverse, a zero test and
//! Montgomery's batch inversion (pointwise division in the NTT domain).
//!
//! Everything here is constant-time in the values: only multiplications,
//! shifts and masks (no branch, index, division or early exit that depends
//! on a value), so secret polynomials (FN-DSA key generation and signing-key
//! decoding) may go through it. Slice lengths are public.

use super::{MAX_N, MOD, Q};
use subtle::Choice;

/// `(q - 1) / 2`: the centred range is `[-HALF_Q, HALF_Q]`.
pub const HALF_Q: i16 = (Q - 1) / 2;

/// `R mod q = 2^16 mod q` (centred): the Montgomery form of 1.
pub const MONT_ONE: i16 = MOD.to_mont_centred(1);

/// `R^2 mod q = 2^32 mod q` (centred): [`MOD`]`.fqmul(a, R2)` is the
/// Montgomery form `a R` of `a`.
pub const R2: i16 = MOD.to_mont_centred(1 << 16);

/// The canonical representative in `[0, q)` of any `i16`.
#[inline(always)]
pub const fn canonical(a: i16) -> i16 {
    MOD.canonical(a)
}

/// The centred representative in `[-(q-1)/2, (q-1)/2]` of any `i16`
/// (exact, unlike the Barrett reduction's `|r| <= q/2 + 1`).
#[inline(always)]
pub const fn centre(a: i16) -> i16 {
    let r = MOD.canonical(a);
    // Subtract q when r > (q-1)/2: `HALF_Q - r` is then negative.
    r - (Q & ((HALF_Q - r) >> 15))
}

/// The Montgomery form `a R mod q` of any `i16` `a`; `|result| < q`.
#[inline(always)]
pub const fn to_mont(a: i16) -> i16 {
    MOD.fqmul(a, R2)
}

/// `a R^-1 mod q` (out of the Montgomery form) for any `i16` `a`;
/// `|result| < q`.
#[inline(always)]
pub const fn from_mont(a: i16) -> i16 {
    MOD.montgomery_reduce(a as i32)
}

/// 1 if `a` is a multiple of q (0, q or -q, ...), else 0, without a branch.
#[inline(always)]
pub const fn is_zero(a: i16) -> u16 {
    // Barrett keeps the residue class and maps it into |r| <= q/2 + 1, where
    // 0 is the only multiple of q; `r - 1` wraps (bit 31 set) only for r = 0.
    let r = MOD.barrett_reduce(a);
    ((r as u16 as u32).wrapping_sub(1) >> 31) as u16
}

/// The inverse in Montgomery form: for `a = x R` (any `i16`), returns
/// `x^-1 R mod q` with `|result| < q`; 0 (any multiple of q) maps to 0.
///
/// `x^(q-2)` by a fixed square-and-multiply chain over the public
/// exponent: 13 squarings and 12 products for every input.
#[inline]
pub const fn inv_mont(a: i16) -> i16 {
    // q - 2 = 12287 = 0b10_1111_1111_1111: the top bit starts the chain.
    const E: u32 = (Q as u32) - 2;
    let x = MOD.barrett_reduce(a);
    let mut r = x;
    let mut bit = 12;
    loop {
        r = MOD.fqmul(r, r);
        if (E >> bit) & 1 == 1 {
            r = MOD.fqmul(r, x);
        }
        if bit == 0 {
            return r;
        }
        bit -= 1;
    }
}

/// `1 / x mod q` in the plain (non-Montgomery) representation: for any
/// `i16` `a`, returns `r` with `r a = 1 mod q` and `|r| < q`; 0 (any
/// multiple of q) maps to 0.
#[inline]
pub const fn inv(a: i16) -> i16 {
    // a R^2 R^-1 = a R; its Montgomery inverse is a^-1 R; drop the R.
    from_mont(inv_mont(to_mont(a)))
}

/// 1 if some entry of `a` is a multiple of q, else 0; every entry is
/// scanned (no early exit) and only the final bit is a [`Choice`].
pub fn has_zero(a: &[i16]) -> Choice {
    let z = a.iter().fold(0u16, |z, &x| z | is_zero(x));
    Choice::from(z as u8)
}

/// Interleaved chains of [`div_pointwise`]: independent products overlap
/// instead of waiting on each other.
const CHAINS: usize = 8;

/// `a_i <- a_i / b_i mod q` for every `i` (any `i16` inputs; outputs
/// `|a_i| < q`), with Montgomery's batch inversion: one inverse per chain
/// and three products per entry instead of one inverse per entry.
///
/// Returns 1 iff every `b_i` is invertible (not a multiple of q). A
/// non-invertible `b_i` is replaced by 1 without a branch (so the other
/// quotients stay right and `a_i` keeps its value mod q), and reported
/// only through the returned [`Choice`]. Lengths must be equal (a longer
/// `a` or `b` is processed up to the shorter length); any length is
/// accepted, in blocks of [`MAX_N`] entries.
///
/// The representation of `a` and `b` does not matter as long as it is
/// the same for both: in the NTT domain this divides polynomials.
pub fn div_pointwise(a: &mut [i16], b: &[i16]) -> Choice {
    let n = a.len().min(b.len());
    let mut zero = 0u16;
    for (ac, bc) in a[..n].chunks_mut(MAX_N).zip(b[..n].chunks(MAX_N)) {
        zero |= div_block(ac, bc);
    }
    Choice::from(1 ^ zero as u8)
}

/// One block of [`div_pointwise`] (`a.len() == b.len() <= MAX_N`);
/// returns 1 if some `b_i` was a multiple of q.
fn div_block(a: &mut [i16], b: &[i16]) -> u16 {
    // b_i in Montgomery form, a zero replaced by 1 (its form MONT_ONE).
    #[inline(always)]
    fn mont_nonzero(y: i16) -> (i16, u16) {
        let z = is_zero(y);
        (to_mont(MOD.barrett_reduce(y) | z as i16), z)
    }
    let n = a.len().min(b.len()).min(MAX_N);
    let mut zero = 0u16;
    // prefix[i] = product of the entries i, i - CHAINS, i - 2 CHAINS, ...
    // (Montgomery form; the products of Montgomery forms stay in it).
    let mut prefix = [0i16; MAX_N];
    let mut acc = [MONT_ONE; CHAINS];
    for (i, (p, &y)) in prefix[..n].iter_mut().zip(&b[..n]).enumerate() {
        let (y, z) = mont_nonzero(y);
        zero |= z;
        acc[i % CHAINS] = MOD.fqmul(acc[i % CHAINS], y);
        *p = acc[i % CHAINS];
    }
    // Walk back: with inv = (chain prefix up to i)^-1, b_i^-1 = inv times
    // (chain prefix up to i - CHAINS), and the next inv is inv times b_i.
    let mut inv = acc.map(inv_mont);
    for i in (0..n).rev() {
        let (y, _) = mont_nonzero(b[i]);
        let before = if i < CHAINS {
            MONT_ONE
        } else {
            prefix[i - CHAINS]
        };
        let k = i % CHAINS;
        // b_i^-1 R (Montgomery form); a_i b_i^-1 R R^-1 = a_i / b_i.
        let inv_i = MOD.fqmul(inv[k], before);
        inv[k] = MOD.fqmul(inv[k], y);
        a[i] = MOD.fqmul(a[i], inv_i);
    }
    // Secret-derived scratch.
    zeroize::Zeroize::zeroize(&mut prefix);
    zeroize::Zeroize::zeroize(&mut inv);
    zero
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::rng;
    use std::vec::Vec;

    fn canon(x: i64) -> i64 {
        x.rem_euclid(Q as i64)
    }

    #[test]
    fn constants() {
        assert_eq!(canon(MONT_ONE as i64), (1i64 << 16) % Q as i64);
        assert_eq!(canon(R2 as i64), (1i64 << 32) % Q as i64);
        assert!(MONT_ONE.abs() <= HALF_Q && R2.abs() <= HALF_Q);
        assert_eq!(HALF_Q, 6144);
    }

    #[test]
    fn conversions_exhaustive() {
        for a in i16::MIN..=i16::MAX {
            let c = canonical(a) as i64;
            assert!(
                (0..Q as i64).contains(&c) && canon(a as i64) == c,
                "canonical {a}"
            );
            let r = centre(a) as i64;
            assert!(r.abs() <= HALF_Q as i64, "centre {a} -> {r}");
            assert_eq!(canon(r), canon(a as i64), "centre {a}");
            let m = to_mont(a) as i64;
            assert!(m.abs() < Q as i64);
            assert_eq!(canon(m), canon((a as i64) << 16), "to_mont {a}");
            let p = from_mont(a) as i64;
            assert!(p.abs() < Q as i64);
            assert_eq!(canon(p << 16), canon(a as i64), "from_mont {a}");
            assert_eq!(
                canon(from_mont(to_mont(a)) as i64),
                canon(a as i64),
                "round trip {a}"
            );
            assert_eq!(is_zero(a), u16::from(canon(a as i64) == 0), "is_zero {a}");
        }
        // [0, q) and the centred range map to themselves.
        for a in 0..Q {
            assert_eq!(canonical(a), a);
        }
        for a in -HALF_Q..=HALF_Q {
            assert_eq!(centre(a), a);
        }
    }

    #[test]
    fn inverses_exhaustive() {
        for a in i16::MIN..=i16::MAX {
            let x = canon(a as i64);
            let r = inv(a) as i64;
            assert!(r.abs() < Q as i64);
            let m = inv_mont(a) as i64;
            assert!(m.abs() < Q as i64);
            if x == 0 {
                assert_eq!(r, 0);
                assert_eq!(m, 0);
            } else {
                assert_eq!(canon(r * x), 1, "inv {a}");
                // a = x R: x^-1 R = R^2 / a.
                let r2 = canon(1i64 << 32);
                assert_eq!(canon(m * x), r2, "inv_mont {a}");
            }
        }
    }

    #[test]
    fn batch_division() {
        let mut next = rng(7);
        for n in [0usize, 1, 2, 7, 8, 9, 31, 512, 1024, 1500, 2048] {
            let a: Vec<i16> = (0..n).map(|_| next() as i16).collect();
            let b: Vec<i16> = (0..n).map(|_| next() as i16).collect();
            let mut q = a.clone();
            let ok = div_pointwise(&mut q, &b);
            let all_invertible = b.iter().all(|&y| canon(y as i64) != 0);
            assert_eq!(bool::from(ok), all_invertible);
            assert_eq!(bool::from(has_zero(&b)), !all_invertible);
            for i in 0..n {
                assert!((q[i] as i64).abs() < Q as i64);
                // Random i16 values hit some multiples of q: those count
                // as 1.
                let y = if canon(b[i] as i64) == 0 {
                    1
                } else {
                    b[i] as i64
                };
                assert_eq!(canon(q[i] as i64 * y), canon(a[i] as i64), "n {n} i {i}");
            }
        }
        // Zeros (and multiples of q) anywhere: reported, the other
        // quotients unchanged, a zero's a_i kept mod q.
        for n in [1usize, 8, 9, 64, 1024, 1100] {
            for zpos in [0, n / 2, n - 1] {
                let a: Vec<i16> = (0..n).map(|_| next() as i16).collect();
                let mut b: Vec<i16> = (0..n).map(|_| (1 + next() % 12288) as i16).collect();
                b[zpos] = [0, Q, -Q, 2 * Q][zpos % 4];
                let mut q = a.clone();
                assert!(!bool::from(div_pointwise(&mut q, &b)));
                assert!(bool::from(has_zero(&b)));
                for i in 0..n {
                    let want = if i == zpos { 1 } else { b[i] as i64 };
                    assert_eq!(
                        canon(q[i] as i64 * want),
                        canon(a[i] as i64),
                        "n {n} zero {zpos} i {i}"
                    );
                }
            }
        }
        // Unequal lengths: the common prefix.
        let mut a = [3i16; 5];
        assert!(bool::from(div_pointwise(&mut a, &[3, 3])));
        assert_eq!(a.map(|x| canon(x as i64)), [1, 1, 3, 3, 3]);
    }
}
