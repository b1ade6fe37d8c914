//! GF(2^255 - 19) in four 64-bit limbs, in plain Rust: the aarch64 form
//! of the field. `u64 x u64 -> u128` products compile to `MUL`/`UMULH`
//! pairs and the carry chains to `ADDS`/`ADCS`, so a product is 16 such
//! pairs against the portable 5 x 51-bit field's 25. This is the scalar
//! 64-bit layout that the AVX2 backend's `fe64` runs in assembly on
//! x86-64; NEON has no 64 x 64-bit lane product to do better with.
//!
//! An [`Fe4`] holds `l0 + l1 2^64 + l2 2^128 + l3 2^192`, any value in
//! `[0, 2^256)`, congruent to the element modulo `p`: every operation
//! accepts any four limbs and returns four limbs; only
//! [`Field::to_bytes`] computes the canonical value. Reductions use
//! `2^256 = 38 (mod p)`.
//!
//! Everything is straight-line code over the limbs: carries are
//! arithmetic, selections are masks, nothing branches or indexes on a
//! value. The module has no `unsafe`.

// Limb loops index several arrays at `i`, `i + j` and `i + 4`.
#![allow(clippy::needless_range_loop)]

use super::fieldops::Field;
use subtle::{Choice, ConditionallySelectable};

/// An element of GF(2^255 - 19) in four 64-bit limbs, little-endian,
/// partially reduced (any value below `2^256`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Fe4(pub(crate) [u64; 4]);

impl zeroize::DefaultIsZeroes for Fe4 {}

impl ConditionallySelectable for Fe4 {
    #[inline(always)]
    fn conditional_select(a: &Self, b: &Self, c: Choice) -> Self {
        Fe4(core::array::from_fn(|i| {
            u64::conditional_select(&a.0[i], &b.0[i], c)
        }))
    }
}

/// `a b + c + d` as (low, high) words; it cannot overflow 128 bits.
#[inline(always)]
fn mac(a: u64, b: u64, c: u64, d: u64) -> (u64, u64) {
    let t = u128::from(a) * u128::from(b) + u128::from(c) + u128::from(d);
    (t as u64, (t >> 64) as u64)
}

/// `x + 38 c` for `c < 2^58`, where `x + 38 c` may exceed `2^256`: the
/// carry out of the top word is folded once more (after it, the low word
/// is below `38 * 2^58`, so the second fold cannot carry).
#[inline(always)]
fn fold(x: [u64; 4], c: u64) -> [u64; 4] {
    let mut r = [0u64; 4];
    let mut carry = c * 38;
    for (r, &x) in r.iter_mut().zip(&x) {
        let t = u128::from(x) + u128::from(carry);
        *r = t as u64;
        carry = (t >> 64) as u64;
    }
    r[0] += carry * 38;
    r
}

/// `lo + 38 hi` for the eight words of a product.
#[inline(always)]
fn reduce(t: [u64; 8]) -> [u64; 4] {
    let mut r = [0u64; 4];
    let mut c = 0;
    for i in 0..4 {
        (r[i], c) = mac(t[i + 4], 38, t[i], c);
    }
    // c < 38: the sum is below 39 * 2^256.
    fold(r, c)
}

impl Fe4 {
    /// The value in `[0, p)`, as words.
    #[inline]
    fn canonical(&self) -> [u64; 4] {
        // Bit 255 times 19 back into the low bits: below 2^255 + 19.
        let top = self.0[3] >> 63;
        let mut v = self.0;
        v[3] &= (1 << 63) - 1;
        let mut c = top * 19;
        for w in &mut v {
            let t = u128::from(*w) + u128::from(c);
            *w = t as u64;
            c = (t >> 64) as u64;
        }
        // v + 19 reaches 2^255 exactly when v >= p; then v - p is
        // v + 19 without bit 255 (below 38, one subtraction suffices).
        let mut s = [0u64; 4];
        let mut c = 19u64;
        for (s, &w) in s.iter_mut().zip(&v) {
            let t = u128::from(w) + u128::from(c);
            *s = t as u64;
            c = (t >> 64) as u64;
        }
        let ge = Choice::from((s[3] >> 63) as u8);
        s[3] &= (1 << 63) - 1;
        core::array::from_fn(|i| u64::conditional_select(&v[i], &s[i], ge))
    }
}

impl Field for Fe4 {
    const ZERO: Self = Fe4([0; 4]);
    const ONE: Self = Fe4([1, 0, 0, 0]);
    // Plain integer code, as the portable field: see the trait.
    const OUT_OF_LINE_POINT_OPS: bool = true;

    #[inline]
    fn from_bytes(bytes: &[u8; 32]) -> Self {
        let mut w = [0u64; 4];
        for (w, c) in w.iter_mut().zip(bytes.chunks_exact(8)) {
            let mut b = [0u8; 8];
            b.copy_from_slice(c);
            *w = u64::from_le_bytes(b);
        }
        w[3] &= (1 << 63) - 1;
        Fe4(w)
    }

    #[inline]
    fn to_bytes(&self) -> [u8; 32] {
        let mut out = [0u8; 32];
        for (c, w) in out.chunks_exact_mut(8).zip(self.canonical()) {
            c.copy_from_slice(&w.to_le_bytes());
        }
        out
    }

    #[inline(always)]
    fn from_words(w: &[u64; 4]) -> Self {
        Fe4(*w)
    }

    #[inline(always)]
    fn add(&self, other: &Self) -> Self {
        let mut r = [0u64; 4];
        let mut c = 0u64;
        for i in 0..4 {
            let t = u128::from(self.0[i]) + u128::from(other.0[i]) + u128::from(c);
            r[i] = t as u64;
            c = (t >> 64) as u64;
        }
        Fe4(fold(r, c))
    }

    #[inline(always)]
    fn sub(&self, other: &Self) -> Self {
        // a - b + 2^256 borrow, then 38 subtracted per borrow; a second
        // borrow leaves a value of at least 2^256 - 38, whose low word
        // takes the last 38 without borrowing.
        let mut r = [0u64; 4];
        let mut borrow = false;
        for i in 0..4 {
            let (d, b1) = self.0[i].overflowing_sub(other.0[i]);
            let (d, b2) = d.overflowing_sub(u64::from(borrow));
            r[i] = d;
            borrow = b1 | b2;
        }
        let mut k = u64::from(borrow) * 38;
        for w in &mut r {
            let (d, b) = w.overflowing_sub(k);
            *w = d;
            k = u64::from(b);
        }
        r[0] = r[0].wrapping_sub(k * 38);
        Fe4(r)
    }

    #[inline(always)]
    fn neg(&self) -> Self {
        Fe4::ZERO.sub(self)
    }

    #[inline(always)]
    fn mul(&self, other: &Self) -> Self {
        let (a, b) = (&self.0, &other.0);
        let mut t = [0u64; 8];
        for i in 0..4 {
            let mut c = 0;
            for j in 0..4 {
                (t[i + j], c) = mac(a[j], b[i], t[i + j], c);
            }
            t[i + 4] = c;
        }
        Fe4(reduce(t))
    }

    #[inline(always)]
    fn square(&self) -> Self {
        let a = &self.0;
        // The six cross products once ...
        let mut t = [0u64; 8];
        for i in 0..3 {
            let mut c = 0;
            for j in i + 1..4 {
                (t[i + j], c) = mac(a[i], a[j], t[i + j], c);
            }
            t[i + 4] = c;
        }
        // ... doubled (t < 2^511, the shift loses nothing) ...
        let mut hi = 0;
        for w in &mut t {
            let next = *w >> 63;
            *w = (*w << 1) | hi;
            hi = next;
        }
        // ... plus the four squares on the diagonal.
        let mut c = 0u64;
        for i in 0..4 {
            let s = u128::from(a[i]) * u128::from(a[i]);
            let lo = u128::from(t[2 * i]) + (s as u64 as u128) + u128::from(c);
            let hi = u128::from(t[2 * i + 1]) + (s >> 64) + (lo >> 64);
            t[2 * i] = lo as u64;
            t[2 * i + 1] = hi as u64;
            c = (hi >> 64) as u64;
        }
        Fe4(reduce(t))
    }

    #[inline(always)]
    fn mul_small(&self, c: u32) -> Self {
        let mut r = [0u64; 4];
        let mut carry = 0;
        for i in 0..4 {
            (r[i], carry) = mac(self.0[i], u64::from(c), 0, carry);
        }
        // carry < 2^32.
        Fe4(fold(r, carry))
    }
}

#[cfg(test)]
mod tests {
    use super::super::FieldElement;
    use super::*;
    use crate::testutil::rng;
    use alloc::vec;
    use alloc::vec::Vec;

    const P: [u64; 4] = [!0 - 18, !0, !0, (1 << 63) - 1];

    /// `x + k` (or `- k`) on four words, wrapping.
    fn offset(x: [u64; 4], k: i64) -> [u64; 4] {
        let mut r = [0u64; 4];
        let mut c = k as i128;
        for (r, &x) in r.iter_mut().zip(&x) {
            let t = i128::from(x) + c;
            *r = t as u64;
            c = t >> 64;
        }
        r
    }

    /// Limbs at the edges: zero, one, around p, 2p and 2^255, all ones,
    /// single words at their maximum.
    fn edges() -> Vec<Fe4> {
        let mut v = vec![[0; 4], [1, 0, 0, 0], [!0; 4], [0, 0, 0, 1 << 63]];
        let two_p = offset([0; 4], -38);
        for k in -40..40 {
            v.push(offset(P, k));
            v.push(offset(two_p, k.min(37)));
            v.push(offset([0, 0, 0, 1 << 63], k));
        }
        for i in 0..4 {
            let mut w = [0; 4];
            w[i] = !0;
            v.push(w);
        }
        v.into_iter().map(Fe4).collect()
    }

    fn random(next: &mut impl FnMut() -> u64) -> Fe4 {
        let mut w = [next(), next(), next(), next()];
        // Sometimes small or just below 2^256.
        match next() % 8 {
            0 => w[3] = !0,
            1 => w[1..].fill(0),
            _ => {}
        }
        Fe4(w)
    }

    /// The portable element of the same value (`to_bytes` canonicalises
    /// the limbs first, so this tests that too against portable's own).
    fn portable(a: &Fe4) -> FieldElement {
        let mut b = [0u8; 32];
        for (c, w) in b.chunks_exact_mut(8).zip(a.0) {
            c.copy_from_slice(&w.to_le_bytes());
        }
        // Bit 255 is ignored by from_bytes: add it back as 19.
        let top = FieldElement::from_bytes(&{
            let mut t = [0u8; 32];
            t[0] = 19 * (b[31] >> 7);
            t
        });
        FieldElement::from_bytes(&b).add(&top)
    }

    fn check(a: &Fe4, b: &Fe4, c: u32) {
        let (pa, pb) = (portable(a), portable(b));
        let same = |x: Fe4, y: FieldElement, what: &str| {
            assert_eq!(
                x.to_bytes(),
                y.to_bytes(),
                "{what} of {:x?} {:x?}",
                a.0,
                b.0
            );
        };
        same(*a, pa, "value");
        same(a.add(b), pa.add(&pb), "add");
        same(a.sub(b), pa.sub(&pb), "sub");
        same(a.neg(), pa.neg(), "neg");
        same(a.mul(b), pa.mul(&pb), "mul");
        same(a.square(), pa.square(), "square");
        same(a.mul_small(c), pa.mul_small(c), "mul_small");
    }

    #[test]
    fn fe4_matches_portable_on_edge_values() {
        let e = edges();
        for a in &e {
            for b in &e {
                check(a, b, u32::MAX);
                check(a, b, 121_666);
            }
        }
        assert_eq!(Fe4(P).to_bytes(), [0; 32]);
        assert_eq!(Fe4([!0; 4]).to_bytes(), Fe4([37, 0, 0, 0]).to_bytes());
        assert_eq!(Fe4(offset(P, 18)).to_bytes()[0], 18, "2^255 - 1");
    }

    #[test]
    fn fe4_matches_portable_on_random_values() {
        let mut next = rng(4);
        let e = edges();
        for i in 0..200_000 {
            let a = random(&mut next);
            let b = if i % 8 == 0 {
                e[(next() % e.len() as u64) as usize]
            } else {
                random(&mut next)
            };
            check(&a, &b, next() as u32);
        }
    }

    /// Long chains never reduced in between stay in step with portable.
    #[test]
    fn fe4_chained_operations_match_portable() {
        let mut next = rng(44);
        for _ in 0..200 {
            let mut x: [Fe4; 3] = core::array::from_fn(|_| random(&mut next));
            let mut p = x.map(|v| portable(&v));
            for _ in 0..500 {
                x = [
                    x[0].mul(&x[1]).sub(&x[2]),
                    x[1].square().add(&x[0]).neg(),
                    x[2].mul_small(121_666).add(&x[2]).sub(&x[1]).mul(&x[0]),
                ];
                p = [
                    p[0].mul(&p[1]).sub(&p[2]),
                    p[1].square().add(&p[0]).neg(),
                    p[2].mul_small(121_666).add(&p[2]).sub(&p[1]).mul(&p[0]),
                ];
            }
            for (a, b) in x.iter().zip(&p) {
                assert_eq!(a.to_bytes(), b.to_bytes());
            }
        }
    }

    #[test]
    fn fe4_bytes_words_and_select() {
        let mut next = rng(64);
        for _ in 0..100_000 {
            let mut b = [0u8; 32];
            for c in b.chunks_exact_mut(8) {
                c.copy_from_slice(&next().to_le_bytes());
            }
            let x = Fe4::from_bytes(&b);
            assert_eq!(x.to_bytes(), FieldElement::from_bytes(&b).to_bytes());
            let canon = x.to_bytes();
            let w = Fe4::from_bytes(&canon).0;
            assert_eq!(Fe4::from_words(&w).to_bytes(), canon);
        }
        let (a, b) = (Fe4([1, 2, 3, 4]), Fe4([!0, 6, 1 << 63, 8]));
        assert_eq!(Fe4::conditional_select(&a, &b, 0.into()).0, a.0);
        assert_eq!(Fe4::conditional_select(&a, &b, 1.into()).0, b.0);
    }

    #[test]
    fn fe4_inversion_and_ladder() {
        let mut next = rng(3);
        for a in edges()
            .iter()
            .chain(&(0..500).map(|_| random(&mut next)).collect::<Vec<_>>())
        {
            let pa = portable(a);
            assert_eq!(a.invert().to_bytes(), pa.invert().to_bytes());
            assert_eq!(a.pow_p58().to_bytes(), pa.pow_p58().to_bytes());
        }
        for _ in 0..50 {
            let k: [u8; 32] = core::array::from_fn(|_| next() as u8);
            let u: [u8; 32] = core::array::from_fn(|_| next() as u8);
            assert_eq!(
                super::super::ladder::x25519::<Fe4>(&k, &u),
                super::super::ladder::x25519::<FieldElement>(&k, &u)
            );
        }
    }
}
