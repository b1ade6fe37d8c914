//! GF(2^255 - 19) in five 51-bit limbs, products in `u128`: the portable
//! field, the executable specification the backends are checked against.
//!
//! A [`FieldElement`] holds `l0 + l1 2^51 + l2 2^102 + l3 2^153 + l4 2^204`.
//! The representation is redundant: every operation returns limbs below
//! `2^52` ("reduced"), and [`FieldElement::mul`], [`FieldElement::square`],
//! [`FieldElement::sub`] and [`FieldElement::mul_small`] accept limbs
//! below `2^54`. Only [`FieldElement::to_bytes`] computes the canonical
//! value in `[0, p)`.
//!
//! Everything here runs in constant time: no branch, index or division
//! depends on a value, only on public counts (the exponent chains are fixed).

use super::fieldops::Field;
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};

const MASK51: u64 = (1 << 51) - 1;

/// An element of GF(2^255 - 19), five 51-bit limbs (see the module docs
/// for the bounds). `Copy`, and [`Zeroize`](zeroize::Zeroize) through
/// `DefaultIsZeroes`: code holding secrets wipes its elements itself.
///
/// ```
/// use pqkit_common::curve25519::FieldElement;
///
/// let mut bytes = [0u8; 32];
/// bytes[0] = 2;
/// let two = FieldElement::from_bytes(&bytes);
/// let half = two.invert();
/// assert_eq!(half.add(&half), FieldElement::ONE);
/// assert_eq!(two.mul(&half), FieldElement::ONE);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct FieldElement(pub [u64; 5]);

impl zeroize::DefaultIsZeroes for FieldElement {}

impl ConditionallySelectable for FieldElement {
    #[inline]
    fn conditional_select(a: &Self, b: &Self, choice: Choice) -> Self {
        let mask = 0u64.wrapping_sub(choice.unwrap_u8() as u64);
        FieldElement(core::array::from_fn(|i| {
            a.0[i] ^ (mask & (a.0[i] ^ b.0[i]))
        }))
    }

    #[inline]
    fn conditional_swap(a: &mut Self, b: &mut Self, choice: Choice) {
        let mask = 0u64.wrapping_sub(choice.unwrap_u8() as u64);
        for (x, y) in a.0.iter_mut().zip(b.0.iter_mut()) {
            let t = mask & (*x ^ *y);
            *x ^= t;
            *y ^= t;
        }
    }
}

impl ConstantTimeEq for FieldElement {
    /// Equality of the values (canonical encodings), not of the limbs.
    fn ct_eq(&self, other: &Self) -> Choice {
        crate::ct::ct_eq(&self.to_bytes(), &other.to_bytes())
    }
}

impl PartialEq for FieldElement {
    /// Equality of the values, in constant time.
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}

impl Eq for FieldElement {}

/// Carry every limb into the next (the top one into limb 0, times 19),
/// all carries taken from the input at once: limbs below `2^64` come out
/// below `2^51 + 19 * 2^13`.
#[inline(always)]
fn weak_reduce(l: [u64; 5]) -> [u64; 5] {
    let c = l.map(|x| x >> 51);
    [
        (l[0] & MASK51) + c[4] * 19,
        (l[1] & MASK51) + c[0],
        (l[2] & MASK51) + c[1],
        (l[3] & MASK51) + c[2],
        (l[4] & MASK51) + c[3],
    ]
}

/// Reduce five column sums (each below `2^115`) to a reduced element: a
/// carry chain from column 0 to column 4, the top carry folded back into
/// limb 0 times 19, and one more carry from limb 0 to limb 1.
#[inline(always)]
fn reduce_wide(mut c: [u128; 5]) -> FieldElement {
    c[1] += c[0] >> 51;
    c[2] += c[1] >> 51;
    c[3] += c[2] >> 51;
    c[4] += c[3] >> 51;
    let top = c[4] >> 51;
    let t0 = (c[0] as u64 & MASK51) as u128 + top * 19;
    let l1 = (c[1] as u64 & MASK51) + (t0 >> 51) as u64;
    FieldElement([
        t0 as u64 & MASK51,
        l1,
        c[2] as u64 & MASK51,
        c[3] as u64 & MASK51,
        c[4] as u64 & MASK51,
    ])
}

#[inline(always)]
fn m(a: u64, b: u64) -> u128 {
    (a as u128) * (b as u128)
}

/// `16 p` in limbs: added before a subtraction so that no limb goes
/// negative (any subtrahend limb below `2^55 - 304`).
const SIXTEEN_P: [u64; 5] = [
    16 * ((1 << 51) - 19),
    16 * MASK51,
    16 * MASK51,
    16 * MASK51,
    16 * MASK51,
];

impl FieldElement {
    /// Zero.
    pub const ZERO: FieldElement = FieldElement([0; 5]);
    /// One.
    pub const ONE: FieldElement = FieldElement([1, 0, 0, 0, 0]);
    /// `sqrt(-1) = 2^((p - 1) / 4)`, the even one of the two roots.
    pub const SQRT_M1: FieldElement = FieldElement([
        1718705420411056,
        234908883556509,
        2233514472574048,
        2117202627021982,
        765476049583133,
    ]);

    /// Decode 32 little-endian bytes, ignoring the top bit (bit 255), as
    /// RFC 7748 §5 requires of u-coordinates. Non-canonical values
    /// (`p..2^255`) are accepted and reduced by the arithmetic.
    #[inline]
    pub fn from_bytes(bytes: &[u8; 32]) -> FieldElement {
        let w = |i: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&bytes[8 * i..8 * i + 8]);
            u64::from_le_bytes(b)
        };
        let (w0, w1, w2, w3) = (w(0), w(1), w(2), w(3));
        FieldElement([
            w0 & MASK51,
            ((w0 >> 51) | (w1 << 13)) & MASK51,
            ((w1 >> 38) | (w2 << 26)) & MASK51,
            ((w2 >> 25) | (w3 << 39)) & MASK51,
            (w3 >> 12) & MASK51,
        ])
    }

    /// The canonical encoding: the value in `[0, p)`, 32 bytes little-endian
    /// (bit 255 clear).
    #[inline]
    pub fn to_bytes(&self) -> [u8; 32] {
        // Two weak reductions leave h < 2^255 + 2^222 < 2p, so
        // q = floor((h + 19) / 2^255) is 1 exactly when h >= p.
        let mut l = weak_reduce(weak_reduce(self.0));
        let mut q = (l[0] + 19) >> 51;
        q = (l[1] + q) >> 51;
        q = (l[2] + q) >> 51;
        q = (l[3] + q) >> 51;
        q = (l[4] + q) >> 51;
        // h - q p = h + 19 q - q 2^255: add 19q, carry, drop bit 255.
        l[0] += 19 * q;
        l[1] += l[0] >> 51;
        l[0] &= MASK51;
        l[2] += l[1] >> 51;
        l[1] &= MASK51;
        l[3] += l[2] >> 51;
        l[2] &= MASK51;
        l[4] += l[3] >> 51;
        l[3] &= MASK51;
        l[4] &= MASK51;
        let words = [
            l[0] | (l[1] << 51),
            (l[1] >> 13) | (l[2] << 38),
            (l[2] >> 26) | (l[3] << 25),
            (l[3] >> 39) | (l[4] << 12),
        ];
        let mut out = [0u8; 32];
        for (o, w) in out.chunks_exact_mut(8).zip(words) {
            o.copy_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// `self + other`, carried (inputs below `2^63` per limb).
    #[inline]
    pub fn add(&self, other: &FieldElement) -> FieldElement {
        FieldElement(weak_reduce(core::array::from_fn(|i| {
            self.0[i] + other.0[i]
        })))
    }

    /// `self - other`, computed as `self + 16p - other` and carried (limbs
    /// below `2^54`).
    #[inline]
    pub fn sub(&self, other: &FieldElement) -> FieldElement {
        FieldElement(weak_reduce(core::array::from_fn(|i| {
            (self.0[i] + SIXTEEN_P[i]) - other.0[i]
        })))
    }

    /// `-self` (limbs below `2^54`).
    #[inline]
    pub fn neg(&self) -> FieldElement {
        FieldElement::ZERO.sub(self)
    }

    /// `self * other` (limbs below `2^54`).
    #[inline]
    pub fn mul(&self, other: &FieldElement) -> FieldElement {
        let [a0, a1, a2, a3, a4] = self.0;
        let [b0, b1, b2, b3, b4] = other.0;
        // 2^255 = 19 (mod p): a column past limb 4 wraps times 19.
        let (b1_19, b2_19, b3_19, b4_19) = (19 * b1, 19 * b2, 19 * b3, 19 * b4);
        reduce_wide([
            m(a0, b0) + m(a1, b4_19) + m(a2, b3_19) + m(a3, b2_19) + m(a4, b1_19),
            m(a0, b1) + m(a1, b0) + m(a2, b4_19) + m(a3, b3_19) + m(a4, b2_19),
            m(a0, b2) + m(a1, b1) + m(a2, b0) + m(a3, b4_19) + m(a4, b3_19),
            m(a0, b3) + m(a1, b2) + m(a2, b1) + m(a3, b0) + m(a4, b4_19),
            m(a0, b4) + m(a1, b3) + m(a2, b2) + m(a3, b1) + m(a4, b0),
        ])
    }

    /// `self^2` (limbs below `2^54`): [`FieldElement::mul`] with the equal
    /// cross products counted once.
    #[inline]
    pub fn square(&self) -> FieldElement {
        let [a0, a1, a2, a3, a4] = self.0;
        let (d0, d1) = (2 * a0, 2 * a1);
        let (a3_19, a4_19) = (19 * a3, 19 * a4);
        let (a3_38, a4_38) = (2 * a3_19, 2 * a4_19);
        reduce_wide([
            m(a0, a0) + m(a1, a4_38) + m(a2, a3_38),
            m(d0, a1) + m(a2, a4_38) + m(a3, a3_19),
            m(d0, a2) + m(a1, a1) + m(a3, a4_38),
            m(d0, a3) + m(d1, a2) + m(a4, a4_19),
            m(d0, a4) + m(d1, a3) + m(a2, a2),
        ])
    }

    /// `self^(2^k)`: `k` squarings (`k` is public; `k = 0` returns `self`).
    #[inline]
    pub fn pow2k(&self, k: u32) -> FieldElement {
        let mut x = *self;
        for _ in 0..k {
            x = x.square();
        }
        x
    }

    /// `self * c` for a small constant `c < 2^32` (limbs below `2^54`):
    /// `121665`, RFC 7748's `a24` for the ladder, and the like.
    #[inline]
    pub fn mul_small(&self, c: u32) -> FieldElement {
        let p = self.0.map(|x| m(x, c as u64));
        // Each product is below 2^86: one carry per column, the top one
        // times 19 (below 2^40) back into limb 0.
        let lo = p.map(|x| x as u64 & MASK51);
        let hi = p.map(|x| (x >> 51) as u64);
        FieldElement([
            lo[0] + 19 * hi[4],
            lo[1] + hi[0],
            lo[2] + hi[1],
            lo[3] + hi[2],
            lo[4] + hi[3],
        ])
        .carry()
    }

    /// One more weak reduction (limbs below `2^52` afterwards).
    #[inline]
    fn carry(&self) -> FieldElement {
        FieldElement(weak_reduce(self.0))
    }

    /// `1 / self = self^(p - 2)` (zero maps to zero), in constant time.
    ///
    /// Computed by Bernstein-Yang divsteps on the canonical encoding (a
    /// fixed 600 steps), about twice as fast as Fermat's little theorem
    /// with the addition chain, which gives the same value.
    pub fn invert(&self) -> FieldElement {
        FieldElement::from_bytes(&super::inv::invert_canonical(&self.to_bytes()))
    }

    /// `self^((p - 5) / 8) = self^(2^252 - 3)`, the exponent of the square
    /// root.
    pub fn pow_p58(&self) -> FieldElement {
        Field::pow_p58(self)
    }

    /// Whether the canonical value is odd (RFC 8032's "negative").
    pub fn is_negative(&self) -> Choice {
        Field::is_negative(self)
    }

    /// Whether the value is zero (any representation of 0 or p).
    pub fn is_zero(&self) -> Choice {
        Field::is_zero(self)
    }

    /// `|self|`: `self` or `-self`, whichever is even (non-negative).
    pub fn abs(&self) -> FieldElement {
        Field::abs(self)
    }

    /// `sqrt(u / v)` in constant time (RFC 8032 §5.1.3, RFC 9496 §4.2):
    ///
    /// * `(1, +sqrt(u/v))` when `u/v` is a non-zero square;
    /// * `(1, 0)` when `u = 0`;
    /// * `(0, 0)` when `v = 0` and `u != 0`;
    /// * `(0, +sqrt(i u / v))` otherwise (`i = sqrt(-1)`).
    ///
    /// The root returned is the non-negative (even) one.
    ///
    /// ```
    /// use pqkit_common::curve25519::FieldElement;
    /// use subtle::ConditionallySelectable;
    ///
    /// let mut four = [0u8; 32];
    /// four[0] = 4;
    /// let (ok, r) = FieldElement::sqrt_ratio_i(&FieldElement::from_bytes(&four), &FieldElement::ONE);
    /// assert!(bool::from(ok));
    /// assert_eq!(r.to_bytes()[0], 2);
    /// ```
    pub fn sqrt_ratio_i(u: &FieldElement, v: &FieldElement) -> (Choice, FieldElement) {
        <FieldElement as Field>::sqrt_ratio_i(u, v)
    }

    /// `sqrt(self)`: `(1, r)` with `r` the non-negative root when `self` is a
    /// square (including 0), else `(0, _)` with an unspecified second part.
    pub fn sqrt(&self) -> (Choice, FieldElement) {
        FieldElement::sqrt_ratio_i(self, &FieldElement::ONE)
    }
}

impl Field for FieldElement {
    const ZERO: Self = FieldElement::ZERO;
    const ONE: Self = FieldElement::ONE;
    const OUT_OF_LINE_POINT_OPS: bool = true;

    #[inline(always)]
    fn from_bytes(bytes: &[u8; 32]) -> Self {
        FieldElement::from_bytes(bytes)
    }
    #[inline(always)]
    fn to_bytes(&self) -> [u8; 32] {
        FieldElement::to_bytes(self)
    }
    #[inline(always)]
    fn from_words(w: &[u64; 4]) -> Self {
        FieldElement([
            w[0] & MASK51,
            ((w[0] >> 51) | (w[1] << 13)) & MASK51,
            ((w[1] >> 38) | (w[2] << 26)) & MASK51,
            ((w[2] >> 25) | (w[3] << 39)) & MASK51,
            (w[3] >> 12) & MASK51,
        ])
    }
    #[inline(always)]
    fn add(&self, other: &Self) -> Self {
        FieldElement::add(self, other)
    }
    #[inline(always)]
    fn sub(&self, other: &Self) -> Self {
        FieldElement::sub(self, other)
    }
    #[inline(always)]
    fn neg(&self) -> Self {
        FieldElement::neg(self)
    }
    #[inline(always)]
    fn mul(&self, other: &Self) -> Self {
        FieldElement::mul(self, other)
    }
    #[inline(always)]
    fn square(&self) -> Self {
        FieldElement::square(self)
    }
    #[inline(always)]
    fn mul_small(&self, c: u32) -> Self {
        FieldElement::mul_small(self, c)
    }
}
