//! The operations every curve25519 field representation provides, and the
//! fixed exponent chains built on them once for all. The group code
//! (`edwards`, `ladder`) is written over this trait, so a backend with a
//! faster representation runs the same algorithms on its own field.

use subtle::{Choice, ConditionallySelectable};

/// `sqrt(-1)`, the even root, in canonical words.
pub(crate) const SQRT_M1: [u64; 4] = [
    0xc4ee_1b27_4a0e_a0b0,
    0x2f43_1806_ad2f_e478,
    0x2b4d_0099_3dfb_d7a7,
    0x2b83_2480_4fc1_df0b,
];

/// A representation of GF(2^255 - 19). Every method is constant-time.
///
/// Bounds contract: the output of every method is a valid input to every
/// method; each representation keeps its own lazy-reduction bounds.
pub(crate) trait Field:
    Copy + Default + ConditionallySelectable + zeroize::DefaultIsZeroes
{
    /// Zero.
    const ZERO: Self;
    /// One.
    const ONE: Self;
    /// Whether the variable-time point loops (verification) call the point
    /// additions out of line. For a field written in plain integer code,
    /// inlining them makes those loops so large that LLVM's SLP vectoriser
    /// spends seconds on each in every user's build; a field whose
    /// products are inline assembly (opaque to the vectoriser) keeps them
    /// inline and saves the calls.
    const OUT_OF_LINE_POINT_OPS: bool = false;

    /// 32 little-endian bytes, bit 255 ignored, non-canonical accepted.
    fn from_bytes(bytes: &[u8; 32]) -> Self;
    /// The canonical encoding (value in `[0, p)`).
    fn to_bytes(&self) -> [u8; 32];
    /// Four little-endian 64-bit words of a canonical value (`< p`), the
    /// form the precomputed tables are stored in.
    fn from_words(w: &[u64; 4]) -> Self;
    /// `self + other`.
    fn add(&self, other: &Self) -> Self;
    /// `self - other`.
    fn sub(&self, other: &Self) -> Self;
    /// `-self`.
    fn neg(&self) -> Self;
    /// `self * other`.
    fn mul(&self, other: &Self) -> Self;
    /// `self^2`.
    fn square(&self) -> Self;
    /// `self * c`, `c < 2^32`.
    fn mul_small(&self, c: u32) -> Self;

    /// `self^(2^k)` (`k` public).
    #[inline]
    fn pow2k(&self, k: u32) -> Self {
        let mut x = *self;
        for _ in 0..k {
            x = x.square();
        }
        x
    }

    /// `2 self^2`.
    #[inline]
    fn square2(&self) -> Self {
        let s = self.square();
        s.add(&s)
    }

    /// `(self^(2^250 - 1), self^11)`, the common prefix of the Fermat
    /// inversion and square-root chains.
    fn pow_2_250_minus_1(&self) -> (Self, Self) {
        let z = self;
        let z2 = z.square();
        let z9 = z2.pow2k(2).mul(z);
        let z11 = z9.mul(&z2);
        let z_5_0 = z11.square().mul(&z9);
        let z_10_0 = z_5_0.pow2k(5).mul(&z_5_0);
        let z_20_0 = z_10_0.pow2k(10).mul(&z_10_0);
        let z_40_0 = z_20_0.pow2k(20).mul(&z_20_0);
        let z_50_0 = z_40_0.pow2k(10).mul(&z_10_0);
        let z_100_0 = z_50_0.pow2k(50).mul(&z_50_0);
        let z_200_0 = z_100_0.pow2k(100).mul(&z_100_0);
        let z_250_0 = z_200_0.pow2k(50).mul(&z_50_0);
        (z_250_0, z11)
    }

    /// `1 / self` (zero maps to zero): Bernstein-Yang divsteps on the
    /// canonical encoding (`inv::invert_canonical`), faster than the
    /// Fermat chain over the portable field. A representation with a much
    /// faster multiplication may override it with
    /// [`Field::invert_fermat`].
    #[inline]
    fn invert(&self) -> Self {
        Self::from_bytes(&super::inv::invert_canonical(&self.to_bytes()))
    }

    /// `self^(p - 2)` by Fermat's little theorem with the fixed chain (zero
    /// maps to zero): the reference the divstep inversion is tested
    /// against, and the inversion for a representation whose
    /// multiplication makes the chain the faster one.
    #[allow(dead_code)] // Used by the tests; no representation needs it yet.
    #[inline]
    fn invert_fermat(&self) -> Self {
        let (z_250_0, z11) = self.pow_2_250_minus_1();
        // (2^250 - 1) 2^5 + 11 = 2^255 - 21 = p - 2.
        z_250_0.pow2k(5).mul(&z11)
    }

    /// `self^((p - 5) / 8)`.
    #[inline]
    fn pow_p58(&self) -> Self {
        let (z_250_0, _) = self.pow_2_250_minus_1();
        z_250_0.pow2k(2).mul(self)
    }

    /// [`Field::pow_p58`] of `N` values at once, one step of the chain
    /// for every value before the next step: the chains are independent,
    /// so the processor overlaps them (one chain alone waits on each
    /// product's latency).
    #[inline]
    fn pow_p58_many<const N: usize>(xs: &[Self; N]) -> [Self; N] {
        fn sq<F: Field, const N: usize>(x: &mut [F; N], k: u32) {
            for _ in 0..k {
                for e in x.iter_mut() {
                    *e = e.square();
                }
            }
        }
        fn mul<F: Field, const N: usize>(x: &[F; N], y: &[F; N]) -> [F; N] {
            let mut out = *x;
            for (o, b) in out.iter_mut().zip(y) {
                *o = o.mul(b);
            }
            out
        }
        let z = *xs;
        let mut z2 = z;
        sq(&mut z2, 1);
        let mut t = z2;
        sq(&mut t, 2);
        let z9 = mul(&t, &z);
        let z11 = mul(&z9, &z2);
        let mut t = z11;
        sq(&mut t, 1);
        let z_5_0 = mul(&t, &z9);
        let mut t = z_5_0;
        sq(&mut t, 5);
        let z_10_0 = mul(&t, &z_5_0);
        let mut t = z_10_0;
        sq(&mut t, 10);
        let z_20_0 = mul(&t, &z_10_0);
        let mut t = z_20_0;
        sq(&mut t, 20);
        let z_40_0 = mul(&t, &z_20_0);
        let mut t = z_40_0;
        sq(&mut t, 10);
        let z_50_0 = mul(&t, &z_10_0);
        let mut t = z_50_0;
        sq(&mut t, 50);
        let z_100_0 = mul(&t, &z_50_0);
        let mut t = z_100_0;
        sq(&mut t, 100);
        let z_200_0 = mul(&t, &z_100_0);
        let mut t = z_200_0;
        sq(&mut t, 50);
        let mut t = mul(&t, &z_50_0);
        sq(&mut t, 2);
        mul(&t, &z)
    }

    /// [`Field::sqrt_ratio_i`] of `N` pairs, the exponentiations
    /// overlapped as in [`Field::pow_p58_many`].
    #[inline]
    fn sqrt_ratio_i_many<const N: usize>(u: &[Self; N], v: &[Self; N]) -> [(Choice, Self); N] {
        let mut v3 = [Self::ZERO; N];
        let mut w = [Self::ZERO; N];
        for i in 0..N {
            v3[i] = v[i].square().mul(&v[i]);
            let v7 = v3[i].square().mul(&v[i]);
            w[i] = u[i].mul(&v7);
        }
        let p = Self::pow_p58_many(&w);
        let sqrt_m1 = Self::from_words(&SQRT_M1);
        core::array::from_fn(|i| {
            let mut r = u[i].mul(&v3[i]).mul(&p[i]);
            let check = v[i].mul(&r.square());
            let neg_u = u[i].neg();
            let correct = check.ct_eq_value(&u[i]);
            let flipped = check.ct_eq_value(&neg_u);
            let flipped_i = check.ct_eq_value(&neg_u.mul(&sqrt_m1));
            let r_i = r.mul(&sqrt_m1);
            r.conditional_assign(&r_i, flipped | flipped_i);
            (correct | flipped, r.abs())
        })
    }

    /// Whether the canonical value is odd.
    #[inline]
    fn is_negative(&self) -> Choice {
        Choice::from(self.to_bytes()[0] & 1)
    }

    /// Whether the value is zero.
    #[inline]
    fn is_zero(&self) -> Choice {
        crate::ct::ct_eq(&self.to_bytes(), &[0; 32])
    }

    /// `|self|`: `self` or `-self`, whichever is even.
    #[inline]
    fn abs(&self) -> Self {
        Self::conditional_select(self, &self.neg(), self.is_negative())
    }

    /// `sqrt(u / v)` (RFC 8032 §5.1.3, RFC 9496 §4.2): `(1, +root)` when
    /// `u/v` is a square (`u = 0` included), `(0, 0)` when `v = 0` and
    /// `u != 0`, `(0, +sqrt(i u / v))` otherwise; the root is the even one.
    fn sqrt_ratio_i(u: &Self, v: &Self) -> (Choice, Self) {
        let sqrt_m1 = Self::from_words(&SQRT_M1);
        let v3 = v.square().mul(v);
        let v7 = v3.square().mul(v);
        let mut r = u.mul(&v3).mul(&u.mul(&v7).pow_p58());
        let check = v.mul(&r.square());
        let neg_u = u.neg();
        let correct = check.ct_eq_value(u);
        let flipped = check.ct_eq_value(&neg_u);
        let flipped_i = check.ct_eq_value(&neg_u.mul(&sqrt_m1));
        let r_i = r.mul(&sqrt_m1);
        r.conditional_assign(&r_i, flipped | flipped_i);
        (correct | flipped, r.abs())
    }

    /// Value equality.
    #[inline]
    fn ct_eq_value(&self, other: &Self) -> Choice {
        crate::ct::ct_eq(&self.to_bytes(), &other.to_bytes())
    }
}
