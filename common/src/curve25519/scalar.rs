//! Integers modulo the order of the Ed25519 base point,
//! `l = 2^252 + 27742317777372353535851937790883648493`.
//!
//! Four 64-bit limbs and Montgomery multiplication (`R = 2^256`, word-wise
//! CIOS with one final conditional subtraction). Reductions of 32- and
//! 64-byte strings are Montgomery products with `R mod l` and
//! `R^2 mod l`; every operation is constant-time.

use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, CtOption};

/// `l` in little-endian 64-bit words.
const L: [u64; 4] = [
    0x5812_631a_5cf5_d3ed,
    0x14de_f9de_a2f7_9cd6,
    0,
    0x1000_0000_0000_0000,
];
/// `-l^-1 mod 2^64`.
const N0: u64 = 0xd2b5_1da3_1254_7e1b;
/// `2^256 mod l`.
const R1: [u64; 4] = [
    0xd6ec_3174_8d98_951d,
    0xc6ef_5bf4_737d_cf70,
    0xffff_ffff_ffff_fffe,
    0x0fff_ffff_ffff_ffff,
];
/// `2^512 mod l`.
const R2: [u64; 4] = [
    0xa406_11e3_449c_0f01,
    0xd00e_1ba7_6885_9347,
    0xceec_73d2_17f5_be65,
    0x0399_411b_7c30_9a3d,
];

/// An integer modulo `l`, the order of the Ed25519 base point, held in
/// canonical form (below `l`). Arithmetic through `+`, `-`, `*` and unary
/// `-`; [`Zeroize`](zeroize::Zeroize) wipes it.
///
/// ```
/// use pqkit_common::curve25519::Scalar;
///
/// let a = Scalar::from_bytes_mod_order([7; 32]);
/// let b = Scalar::from_bytes_mod_order_wide(&[9; 64]);
/// assert_eq!((a + b) - b, a);
/// assert_eq!(a * Scalar::ONE, a);
/// assert_eq!(-a + a, Scalar::ZERO);
/// ```
#[derive(Clone, Copy, Default)]
pub struct Scalar([u64; 4]);

impl core::fmt::Debug for Scalar {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Scalar(..)")
    }
}

impl zeroize::DefaultIsZeroes for Scalar {}

#[inline(always)]
fn mac(acc: u64, a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = (acc as u128) + (a as u128) * (b as u128) + (carry as u128);
    (t as u64, (t >> 64) as u64)
}

#[inline(always)]
fn adc(a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = (a as u128) + (b as u128) + (carry as u128);
    (t as u64, (t >> 64) as u64)
}

/// `a - b` and the borrow (0 or 1).
#[inline(always)]
fn sub4(a: &[u64; 4], b: &[u64; 4]) -> ([u64; 4], u64) {
    let mut out = [0u64; 4];
    let mut borrow = 0u64;
    for i in 0..4 {
        let t = (a[i] as u128)
            .wrapping_sub(b[i] as u128)
            .wrapping_sub(borrow as u128);
        out[i] = t as u64;
        borrow = ((t >> 64) as u64) & 1;
    }
    (out, borrow)
}

/// `a - l` if `a >= l`, else `a` (for `a < 2 l`).
#[inline(always)]
fn reduce_once(a: &[u64; 4]) -> [u64; 4] {
    let (d, borrow) = sub4(a, &L);
    let keep = 0u64.wrapping_sub(borrow);
    core::array::from_fn(|i| (a[i] & keep) | (d[i] & !keep))
}

/// `a b / 2^256 mod l` for `a < 2^256`, `b < l`: the result is below `l`.
#[inline]
fn mont_mul(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let mut t = [0u64; 6];
    for &ai in a {
        let mut c = 0;
        for j in 0..4 {
            (t[j], c) = mac(t[j], ai, b[j], c);
        }
        (t[4], c) = adc(t[4], c, 0);
        t[5] = c;
        let m = t[0].wrapping_mul(N0);
        let (_, mut c) = mac(t[0], m, L[0], 0);
        for j in 1..4 {
            (t[j - 1], c) = mac(t[j], m, L[j], c);
        }
        (t[3], c) = adc(t[4], c, 0);
        t[4] = t[5] + c;
    }
    // t < 2 l < 2^254: t[4] is zero, one conditional subtraction is enough.
    reduce_once(&[t[0], t[1], t[2], t[3]])
}

fn words(bytes: &[u8; 32]) -> [u64; 4] {
    core::array::from_fn(|i| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[8 * i..8 * i + 8]);
        u64::from_le_bytes(w)
    })
}

impl Scalar {
    /// Zero.
    pub const ZERO: Scalar = Scalar([0; 4]);
    /// One.
    pub const ONE: Scalar = Scalar([1, 0, 0, 0]);

    /// The integer of 32 little-endian bytes, reduced modulo `l`.
    pub fn from_bytes_mod_order(bytes: [u8; 32]) -> Scalar {
        Scalar(mont_mul(&words(&bytes), &R1))
    }

    /// The integer of 64 little-endian bytes (a SHA-512 output), reduced
    /// modulo `l`.
    pub fn from_bytes_mod_order_wide(bytes: &[u8; 64]) -> Scalar {
        let mut lo = [0u8; 32];
        let mut hi = [0u8; 32];
        lo.copy_from_slice(&bytes[..32]);
        hi.copy_from_slice(&bytes[32..]);
        let a = mont_mul(&words(&lo), &R1);
        let b = mont_mul(&words(&hi), &R2);
        zeroize::Zeroize::zeroize(&mut lo);
        zeroize::Zeroize::zeroize(&mut hi);
        Scalar(a) + Scalar(b)
    }

    /// The scalar of a canonical encoding (the integer below `l`), or none.
    pub fn from_canonical_bytes(bytes: [u8; 32]) -> CtOption<Scalar> {
        let w = words(&bytes);
        let (_, borrow) = sub4(&w, &L);
        CtOption::new(Scalar(w), Choice::from(borrow as u8))
    }

    /// The canonical value in little-endian 64-bit words.
    pub(crate) fn to_words(self) -> [u64; 4] {
        self.0
    }

    /// The integer `w` (below `2^252 < l`, the caller's guarantee) as a
    /// scalar.
    pub(crate) fn from_small_words(w: &[u64; 4]) -> Scalar {
        debug_assert!(w[3] >> 60 == 0);
        Scalar(*w)
    }

    /// `(self mod 2^128, self >> 128)`.
    pub(crate) fn split_at_128(&self) -> (Scalar, Scalar) {
        (
            Scalar([self.0[0], self.0[1], 0, 0]),
            Scalar([self.0[2], self.0[3], 0, 0]),
        )
    }

    /// The canonical 32-byte little-endian encoding.
    pub fn to_bytes(&self) -> [u8; 32] {
        let mut out = [0u8; 32];
        for (o, w) in out.chunks_exact_mut(8).zip(self.0) {
            o.copy_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// The radix-32 digits in `[-16, 16)` of the value (51 of them; the
    /// value is below `l < 2^253`, so the top digit, which absorbs the last
    /// carry, is at most 8): `self = sum e_i 32^i`. Constant time.
    pub(crate) fn signed_radix32(&self) -> [i8; 51] {
        let w = self.to_bytes();
        let mut words = [0u64; 5];
        for (o, c) in words.iter_mut().zip(w.chunks_exact(8)) {
            let mut b = [0u8; 8];
            b.copy_from_slice(c);
            *o = u64::from_le_bytes(b);
        }
        let mut e = [0i8; 51];
        for (i, d) in e.iter_mut().enumerate() {
            // Bits 5i .. 5i + 4 (a window may straddle two words).
            let (q, r) = (5 * i / 64, 5 * i % 64);
            let lo = words[q] >> r;
            let hi = if r > 59 { words[q + 1] << (64 - r) } else { 0 };
            *d = ((lo | hi) & 31) as i8;
        }
        let mut carry = 0i8;
        for d in e.iter_mut().take(50) {
            *d += carry;
            carry = (*d + 16) >> 5;
            *d -= carry << 5;
        }
        e[50] += carry;
        e
    }

    /// The width-`w` non-adjacent form (`2 <= w <= 8`): 256 digits, each
    /// zero or odd with `|d| < 2^(w-1)`, non-zero digits at least `w`
    /// apart. Variable-time: only for public scalars (verification).
    pub(crate) fn non_adjacent_form(&self, w: u32) -> [i8; 256] {
        let mut naf = [0i8; 256];
        let x = [self.0[0], self.0[1], self.0[2], self.0[3], 0];
        let width = 1u64 << w;
        let mask = width - 1;
        let mut pos = 0usize;
        let mut carry = 0u64;
        while pos < 256 {
            let idx = pos / 64;
            let bit = pos % 64;
            let bits = if bit < 64 - w as usize {
                x[idx] >> bit
            } else {
                (x[idx] >> bit) | (x[idx + 1] << (64 - bit))
            };
            let window = carry + (bits & mask);
            if window & 1 == 0 {
                pos += 1;
                continue;
            }
            if window < width / 2 {
                carry = 0;
                naf[pos] = window as i8;
            } else {
                carry = 1;
                naf[pos] = (window as i64 - width as i64) as i8;
            }
            pos += w as usize;
        }
        naf
    }
}

impl ConstantTimeEq for Scalar {
    fn ct_eq(&self, other: &Self) -> Choice {
        self.0.ct_eq(&other.0)
    }
}

impl PartialEq for Scalar {
    fn eq(&self, other: &Self) -> bool {
        self.ct_eq(other).into()
    }
}

impl Eq for Scalar {}

impl ConditionallySelectable for Scalar {
    fn conditional_select(a: &Self, b: &Self, choice: Choice) -> Self {
        Scalar(core::array::from_fn(|i| {
            u64::conditional_select(&a.0[i], &b.0[i], choice)
        }))
    }
}

impl core::ops::Add for Scalar {
    type Output = Scalar;
    fn add(self, rhs: Scalar) -> Scalar {
        let mut s = [0u64; 4];
        let mut c = 0;
        for (i, si) in s.iter_mut().enumerate() {
            (*si, c) = adc(self.0[i], rhs.0[i], c);
        }
        // Both below l < 2^253: the sum fits and is below 2 l.
        Scalar(reduce_once(&s))
    }
}

impl core::ops::Sub for Scalar {
    type Output = Scalar;
    // `&` masks `l`: it is added back exactly when the subtraction borrowed.
    #[allow(clippy::suspicious_arithmetic_impl)]
    fn sub(self, rhs: Scalar) -> Scalar {
        let (d, borrow) = sub4(&self.0, &rhs.0);
        let add_l = 0u64.wrapping_sub(borrow);
        let mut out = [0u64; 4];
        let mut c = 0;
        for (i, o) in out.iter_mut().enumerate() {
            (*o, c) = adc(d[i], L[i] & add_l, c);
        }
        Scalar(out)
    }
}

impl core::ops::Neg for Scalar {
    type Output = Scalar;
    fn neg(self) -> Scalar {
        Scalar::ZERO - self
    }
}

impl core::ops::Mul for Scalar {
    type Output = Scalar;
    fn mul(self, rhs: Scalar) -> Scalar {
        Scalar(mont_mul(&mont_mul(&self.0, &rhs.0), &R2))
    }
}

impl core::ops::AddAssign for Scalar {
    fn add_assign(&mut self, rhs: Scalar) {
        *self = *self + rhs;
    }
}

impl core::ops::SubAssign for Scalar {
    fn sub_assign(&mut self, rhs: Scalar) {
        *self = *self - rhs;
    }
}

impl core::ops::MulAssign for Scalar {
    fn mul_assign(&mut self, rhs: Scalar) {
        *self = *self * rhs;
    }
}
