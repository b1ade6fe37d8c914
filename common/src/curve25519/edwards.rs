//! The twisted Edwards curve `-x^2 + y^2 = 1 + d x^2 y^2` (edwards25519,
//! RFC 8032 §5.1), over any [`Field`].
//!
//! Points in extended coordinates `(X : Y : Z : T)`, `x = X/Z`, `y = Y/Z`,
//! `x y = T/Z` (Hisil, Wong, Carter, Dawson, "Twisted Edwards curves
//! revisited", 2008), with the intermediate forms of ref10: completed
//! `((X : Z), (Y : T))`, projective `(X : Y : Z)`, and the cached "Niels"
//! forms `(y + x, y - x, 2 d x y)` (affine) and `(Y + X, Y - X, Z, 2 d T)`
//! (projective) that make an addition 4 multiplications plus the
//! conversion back.
//!
//! * [`mul_base`]: `[s]B` in constant time, signed radix-32 digits and a
//!   precomputed table of `j 32^i B` (`j = 1..16`, `i = 0..51`, 78 KB): 51
//!   mixed additions and no doubling; each table entry is selected by a
//!   masked scan of its row.
//! * [`double_base_vartime`]: `[a]A + [b]B` for verification (public
//!   inputs): width-5 NAF over `A`'s odd multiples, width-8 NAF over the
//!   precomputed odd multiples of `B`, one shared doubling chain.
//! * [`multiscalar_vartime`]: the same, Straus-style, for many points
//!   (batch verification).

use subtle::{Choice, ConditionallySelectable};

use super::fieldops::Field;
use super::halfsize::{HalfSize, half_size};
use super::scalar::Scalar;
use super::table::{BASE_ODD, BASE_RADIX32, BASE128_ODD};

/// `d = -121665 / 121666`, canonical words.
pub(crate) const D: [u64; 4] = [
    0x75eb_4dca_1359_78a3,
    0x0070_0a4d_4141_d8ab,
    0x8cc7_4079_7779_e898,
    0x5203_6cee_2b6f_fe73,
];
/// `2 d`.
pub(crate) const D2: [u64; 4] = [
    0xebd6_9b94_26b2_f159,
    0x00e0_149a_8283_b156,
    0x198e_80f2_eef3_d130,
    0x2406_d9dc_56df_fce7,
];
/// The base point's `x` (the even root).
pub(crate) const BASE_X: [u64; 4] = [
    0xc956_2d60_8f25_d51a,
    0x692c_c760_9525_a7b2,
    0xc0a4_e231_fdd6_dc5c,
    0x2169_36d3_cd6e_53fe,
];
/// The base point's `y = 4/5`.
pub(crate) const BASE_Y: [u64; 4] = [
    0x6666_6666_6666_6658,
    0x6666_6666_6666_6666,
    0x6666_6666_6666_6666,
    0x6666_6666_6666_6666,
];

/// A table row: eight affine Niels points `(y + x, y - x, 2 d x y)` as
/// canonical words.
pub(crate) type NielsWords = [[u64; 4]; 3];

/// A point in extended coordinates.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Ext<F> {
    pub(crate) x: F,
    pub(crate) y: F,
    pub(crate) z: F,
    pub(crate) t: F,
}

/// A completed point `((X : Z), (Y : T))`: the output of an addition or a
/// doubling before the conversion back.
#[derive(Clone, Copy)]
pub(crate) struct Completed<F> {
    x: F,
    y: F,
    z: F,
    t: F,
}

/// A projective point `(X : Y : Z)`: enough to double.
#[derive(Clone, Copy)]
pub(crate) struct Proj<F> {
    x: F,
    y: F,
    z: F,
}

/// An affine point cached for addition: `(y + x, y - x, 2 d x y)`.
#[derive(Clone, Copy)]
pub(crate) struct AffineNiels<F> {
    ypx: F,
    ymx: F,
    xy2d: F,
}

/// A point cached for addition: `(Y + X, Y - X, Z, 2 d T)`.
#[derive(Clone, Copy)]
pub(crate) struct ProjNiels<F> {
    ypx: F,
    ymx: F,
    z: F,
    t2d: F,
}

impl<F: Field> ConditionallySelectable for Ext<F> {
    fn conditional_select(a: &Self, b: &Self, c: Choice) -> Self {
        Ext {
            x: F::conditional_select(&a.x, &b.x, c),
            y: F::conditional_select(&a.y, &b.y, c),
            z: F::conditional_select(&a.z, &b.z, c),
            t: F::conditional_select(&a.t, &b.t, c),
        }
    }
}

impl<F: Field> Completed<F> {
    #[inline(always)]
    pub(crate) fn to_ext(self) -> Ext<F> {
        Ext {
            x: self.x.mul(&self.t),
            y: self.y.mul(&self.z),
            z: self.z.mul(&self.t),
            t: self.x.mul(&self.y),
        }
    }

    #[inline(always)]
    fn to_proj(self) -> Proj<F> {
        Proj {
            x: self.x.mul(&self.t),
            y: self.y.mul(&self.z),
            z: self.z.mul(&self.t),
        }
    }
}

impl<F: Field> Proj<F> {
    fn identity() -> Self {
        Proj {
            x: F::ZERO,
            y: F::ONE,
            z: F::ONE,
        }
    }

    /// `2 P` (a = -1 doubling, 4 squarings).
    #[inline(always)]
    fn double(&self) -> Completed<F> {
        let xx = self.x.square();
        let yy = self.y.square();
        let zz2 = self.z.square2();
        let xpy2 = self.x.add(&self.y).square();
        let y3 = yy.add(&xx);
        let z3 = yy.sub(&xx);
        Completed {
            x: xpy2.sub(&y3),
            y: y3,
            z: z3,
            t: zz2.sub(&z3),
        }
    }
}

impl<F: Field> AffineNiels<F> {
    fn from_words(w: &NielsWords) -> Self {
        AffineNiels {
            ypx: F::from_words(&w[0]),
            ymx: F::from_words(&w[1]),
            xy2d: F::from_words(&w[2]),
        }
    }
}

impl<F: Field> Ext<F> {
    /// The neutral element `(0, 1)`.
    pub(crate) fn identity() -> Self {
        Ext {
            x: F::ZERO,
            y: F::ONE,
            z: F::ONE,
            t: F::ZERO,
        }
    }

    /// The base point `B` of RFC 8032.
    pub(crate) fn basepoint() -> Self {
        let x = F::from_words(&BASE_X);
        let y = F::from_words(&BASE_Y);
        Ext {
            x,
            y,
            z: F::ONE,
            t: x.mul(&y),
        }
    }

    #[inline(always)]
    fn as_proj(&self) -> Proj<F> {
        Proj {
            x: self.x,
            y: self.y,
            z: self.z,
        }
    }

    /// `2 P`.
    #[inline]
    pub(crate) fn double(&self) -> Ext<F> {
        self.as_proj().double().to_ext()
    }

    /// `2^k P` (`k >= 1`, public).
    pub(crate) fn mul_by_pow2(&self, k: u32) -> Ext<F> {
        let mut r = self.as_proj();
        for _ in 1..k {
            r = r.double().to_proj();
        }
        r.double().to_ext()
    }

    pub(crate) fn to_proj_niels(self) -> ProjNiels<F> {
        ProjNiels {
            ypx: self.y.add(&self.x),
            ymx: self.y.sub(&self.x),
            z: self.z,
            t2d: self.t.mul(&F::from_words(&D2)),
        }
    }

    /// `self + q`.
    #[inline(always)]
    fn add_pn(&self, q: &ProjNiels<F>) -> Completed<F> {
        let pp = self.y.add(&self.x).mul(&q.ypx);
        let mm = self.y.sub(&self.x).mul(&q.ymx);
        let tt2d = self.t.mul(&q.t2d);
        let zz = self.z.mul(&q.z);
        let zz2 = zz.add(&zz);
        Completed {
            x: pp.sub(&mm),
            y: pp.add(&mm),
            z: zz2.add(&tt2d),
            t: zz2.sub(&tt2d),
        }
    }

    /// `self - q`.
    #[inline(always)]
    fn sub_pn(&self, q: &ProjNiels<F>) -> Completed<F> {
        let pm = self.y.add(&self.x).mul(&q.ymx);
        let mp = self.y.sub(&self.x).mul(&q.ypx);
        let tt2d = self.t.mul(&q.t2d);
        let zz = self.z.mul(&q.z);
        let zz2 = zz.add(&zz);
        Completed {
            x: pm.sub(&mp),
            y: pm.add(&mp),
            z: zz2.sub(&tt2d),
            t: zz2.add(&tt2d),
        }
    }

    /// `self + q`, `q` affine.
    #[inline(always)]
    fn add_an(&self, q: &AffineNiels<F>) -> Completed<F> {
        let pp = self.y.add(&self.x).mul(&q.ypx);
        let mm = self.y.sub(&self.x).mul(&q.ymx);
        let txy2d = self.t.mul(&q.xy2d);
        let z2 = self.z.add(&self.z);
        Completed {
            x: pp.sub(&mm),
            y: pp.add(&mm),
            z: z2.add(&txy2d),
            t: z2.sub(&txy2d),
        }
    }

    /// `self - q`, `q` affine.
    #[inline(always)]
    fn sub_an(&self, q: &AffineNiels<F>) -> Completed<F> {
        let pm = self.y.add(&self.x).mul(&q.ymx);
        let mp = self.y.sub(&self.x).mul(&q.ypx);
        let txy2d = self.t.mul(&q.xy2d);
        let z2 = self.z.add(&self.z);
        Completed {
            x: pm.sub(&mp),
            y: pm.add(&mp),
            z: z2.sub(&txy2d),
            t: z2.add(&txy2d),
        }
    }

    /// `self + other`.
    pub(crate) fn add(&self, other: &Ext<F>) -> Ext<F> {
        self.add_pn(&other.to_proj_niels()).to_ext()
    }

    /// `-self`.
    pub(crate) fn neg(&self) -> Ext<F> {
        Ext {
            x: self.x.neg(),
            y: self.y,
            z: self.z,
            t: self.t.neg(),
        }
    }

    /// Whether this is the neutral element (`X = 0`, `Y = Z`).
    pub(crate) fn is_identity(&self) -> Choice {
        self.x.is_zero() & self.y.ct_eq_value(&self.z)
    }

    /// Whether `P` and `Q` are the same point (`X1 Z2 = X2 Z1`,
    /// `Y1 Z2 = Y2 Z1`).
    pub(crate) fn ct_eq_point(&self, other: &Ext<F>) -> Choice {
        self.x.mul(&other.z).ct_eq_value(&other.x.mul(&self.z))
            & self.y.mul(&other.z).ct_eq_value(&other.y.mul(&self.z))
    }

    /// The affine coordinates `(x, y)`.
    pub(crate) fn affine(&self) -> (F, F) {
        let zinv = self.z.invert();
        (self.x.mul(&zinv), self.y.mul(&zinv))
    }

    /// The RFC 8032 §5.1.2 encoding: `y` with the sign of `x` in bit 255.
    pub(crate) fn compress(&self) -> [u8; 32] {
        let (x, y) = self.affine();
        let mut out = y.to_bytes();
        out[31] ^= x.is_negative().unwrap_u8() << 7;
        out
    }

    /// The RFC 7748 §4.1 Montgomery `u = (1 + y) / (1 - y)`, encoded (the
    /// identity, and only it, maps to 0).
    pub(crate) fn to_montgomery_u(self) -> [u8; 32] {
        let num = self.z.add(&self.y);
        let den = self.z.sub(&self.y);
        num.mul(&den.invert()).to_bytes()
    }

    /// Decoding with curve25519-dalek's rules (RFC 8032 §5.1.3 with two
    /// relaxations): `y` is taken modulo `p` (a non-canonical `y` is
    /// accepted) and `x = 0` with the sign bit set is accepted as `x = 0`.
    /// `None` when `(y^2 - 1) / (d y^2 + 1)` is not a square. The decision
    /// is computed in constant time.
    pub(crate) fn decompress(bytes: &[u8; 32]) -> Option<Ext<F>> {
        let y = F::from_bytes(bytes);
        let yy = y.square();
        let u = yy.sub(&F::ONE);
        let v = yy.mul(&F::from_words(&D)).add(&F::ONE);
        let (ok, x) = F::sqrt_ratio_i(&u, &v);
        let sign = Choice::from(bytes[31] >> 7);
        let x = F::conditional_select(&x, &x.neg(), sign);
        let p = Ext {
            x,
            y,
            z: F::ONE,
            t: x.mul(&y),
        };
        if bool::from(ok) { Some(p) } else { None }
    }

    /// [`Ext::decompress`] of `N` encodings, the square roots overlapped
    /// ([`Field::sqrt_ratio_i_many`]). Variable time only in which
    /// encodings are refused.
    pub(crate) fn decompress_many<const N: usize>(bytes: &[[u8; 32]; N]) -> [Option<Ext<F>>; N] {
        let y: [F; N] = core::array::from_fn(|i| F::from_bytes(&bytes[i]));
        let d = F::from_words(&D);
        let mut u = [F::ZERO; N];
        let mut v = [F::ZERO; N];
        for i in 0..N {
            let yy = y[i].square();
            u[i] = yy.sub(&F::ONE);
            v[i] = yy.mul(&d).add(&F::ONE);
        }
        let roots = F::sqrt_ratio_i_many(&u, &v);
        core::array::from_fn(|i| {
            let (ok, x) = roots[i];
            let sign = Choice::from(bytes[i][31] >> 7);
            let x = F::conditional_select(&x, &x.neg(), sign);
            let p = Ext {
                x,
                y: y[i],
                z: F::ONE,
                t: x.mul(&y[i]),
            };
            if bool::from(ok) { Some(p) } else { None }
        })
    }
}

/// The same point in another field representation (through the canonical
/// encodings of the coordinates). x86-64 and aarch64 have a second field.
#[cfg_attr(
    not(any(test, target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
pub(crate) fn convert<F: Field, G: Field>(p: &Ext<F>) -> Ext<G> {
    Ext {
        x: G::from_bytes(&p.x.to_bytes()),
        y: G::from_bytes(&p.y.to_bytes()),
        z: G::from_bytes(&p.z.to_bytes()),
        t: G::from_bytes(&p.t.to_bytes()),
    }
}

/// The affine Niels words of an extended point (one inversion).
#[cfg(test)]
pub(crate) fn niels_words<F: Field>(p: &Ext<F>) -> NielsWords {
    let (x, y) = p.affine();
    let w = |f: F| -> [u64; 4] {
        let b = f.to_bytes();
        core::array::from_fn(|i| {
            let mut c = [0u8; 8];
            c.copy_from_slice(&b[8 * i..8 * i + 8]);
            u64::from_le_bytes(c)
        })
    };
    [
        w(y.add(&x)),
        w(y.sub(&x)),
        w(x.mul(&y).mul(&F::from_words(&D2))),
    ]
}

/// Entry `abs - 1` of a row holding `P, 2P, .., NP`, or the identity
/// `(1, 1, 0)` for `abs = 0` (`abs` in `[0, N]`): every entry is read, the
/// wanted one kept by mask. A backend may scan the row its own way (in
/// constant time in `abs`): [`mul_base`] takes the scan as a parameter.
#[inline(always)]
pub(crate) fn select_words<const N: usize>(row: &[NielsWords; N], abs: u64) -> NielsWords {
    // mask(0): all ones iff abs = 0 (the identity); mask(j): all ones iff
    // abs = j (entry j - 1). `(d - 1) >> 63` is 1 exactly for d = 0 here.
    let mask = |j: usize| 0u64.wrapping_sub((abs ^ j as u64).wrapping_sub(1) >> 63);
    // Opaque to the optimiser: seeing through the masks, LLVM rewrites the
    // scan as a jump table or as branches on the secret digit.
    let none = core::hint::black_box(mask(0));
    let masks: [u64; N] = core::hint::black_box(core::array::from_fn(|j| mask(j + 1)));
    // The identity (1, 1, 0), then every entry OR-ed in under its mask
    // (at most one is set).
    let mut w: NielsWords = [[1 & none, 0, 0, 0], [1 & none, 0, 0, 0], [0; 4]];
    for (entry, mask) in row.iter().zip(&masks) {
        for (wc, ec) in w.iter_mut().zip(entry) {
            for (a, b) in wc.iter_mut().zip(ec) {
                *a |= b & mask;
            }
        }
    }
    w
}

/// `|e| P` from a row holding `P, 2P, .., NP` (`e` in `[-N, N]`), negated
/// for negative `e`, the entry read by `words`.
#[inline(always)]
fn select<F: Field, const N: usize>(
    row: &[NielsWords; N],
    e: i8,
    words: impl Fn(&[NielsWords; N], u64) -> NielsWords,
) -> AffineNiels<F> {
    let neg = (e as u8) >> 7;
    let abs = u64::from(((e as u8) ^ 0u8.wrapping_sub(neg)).wrapping_add(neg));
    let p = AffineNiels::<F>::from_words(&words(row, abs));
    let negc = Choice::from(neg);
    AffineNiels {
        ypx: F::conditional_select(&p.ypx, &p.ymx, negc),
        ymx: F::conditional_select(&p.ymx, &p.ypx, negc),
        xy2d: F::conditional_select(&p.xy2d, &p.xy2d.neg(), negc),
    }
}

/// The entries per row of the fixed-base table.
pub(crate) const ROW: usize = 16;

/// `[s]B` in constant time: `s = sum e_i 32^i` with `e_i` in `[-16, 16]`,
/// `[e_i] 32^i B` read from row `i` of the table (which holds `j 32^i B`)
/// and added: 51 mixed additions, no doubling. Table entries are read by
/// `words` (see [`select_words`]).
#[inline(always)]
pub(crate) fn mul_base<F: Field>(
    s: &Scalar,
    words: impl Fn(&[NielsWords; ROW], u64) -> NielsWords + Copy,
) -> Ext<F> {
    let mut e = s.signed_radix32();
    let mut h = Ext::<F>::identity();
    for (row, &d) in BASE_RADIX32.iter().zip(e.iter()) {
        h = h.add_an(&select(row, d, words)).to_ext();
    }
    zeroize::Zeroize::zeroize(&mut e);
    h
}

/// `P, 3P, 5P, .., 15P` cached for addition.
fn odd_multiples<F: Field>(p: &Ext<F>) -> [ProjNiels<F>; 8] {
    let p2 = p.double();
    let mut out = [p.to_proj_niels(); 8];
    let mut acc = *p;
    for o in out.iter_mut().skip(1) {
        acc = acc.add_pn(&p2.to_proj_niels()).to_ext();
        *o = acc.to_proj_niels();
    }
    out
}

/// `f()`, as a call that is never inlined: the point additions of the
/// variable-time loops go through it where [`Field::OUT_OF_LINE_POINT_OPS`]
/// asks for that.
#[inline(never)]
fn out_of_line<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// `t + [d]P` for a NAF digit `d` (odd, or zero: `t` unchanged) from the
/// odd multiples `P, 3P, .., 15P`. Variable time: public digits only.
#[inline(always)]
fn add_digit<F: Field>(t: Completed<F>, d: i8, table: &[ProjNiels<F>; 8]) -> Completed<F> {
    let add = || {
        if d > 0 {
            t.to_ext().add_pn(&table[(d / 2) as usize])
        } else {
            t.to_ext().sub_pn(&table[(-d / 2) as usize])
        }
    };
    if d == 0 {
        t
    } else if F::OUT_OF_LINE_POINT_OPS {
        out_of_line(add)
    } else {
        add()
    }
}

/// `t + [d]Q` for a width-8 NAF digit `d` (odd, or zero) from a table of
/// the odd multiples `Q, 3Q, .., 127Q` (`BASE_ODD`, `BASE128_ODD`).
/// Variable time: public digits only.
#[inline(always)]
fn add_table_digit<F: Field>(t: Completed<F>, d: i8, table: &[NielsWords; 64]) -> Completed<F> {
    let add = || {
        if d > 0 {
            t.to_ext()
                .add_an(&AffineNiels::from_words(&table[(d / 2) as usize]))
        } else {
            t.to_ext()
                .sub_an(&AffineNiels::from_words(&table[(-d / 2) as usize]))
        }
    };
    if d == 0 {
        t
    } else if F::OUT_OF_LINE_POINT_OPS {
        out_of_line(add)
    } else {
        add()
    }
}

/// `[a]A + [b]B`, variable time (public inputs only).
pub(crate) fn double_base_vartime<F: Field>(a: &Scalar, pa: &Ext<F>, b: &Scalar) -> Ext<F> {
    let a_naf = a.non_adjacent_form(5);
    let b_naf = b.non_adjacent_form(8);
    let table_a = odd_multiples(pa);
    let top = (0..256).rev().find(|&i| a_naf[i] != 0 || b_naf[i] != 0);
    let Some(top) = top else {
        return Ext::identity();
    };
    let mut r = Proj::<F>::identity();
    let mut out = Ext::identity();
    for i in (0..=top).rev() {
        let t = add_digit(r.double(), a_naf[i], &table_a);
        let t = add_table_digit(t, b_naf[i], &BASE_ODD);
        if i == 0 {
            out = t.to_ext();
        } else {
            r = t.to_proj();
        }
    }
    out
}

/// Whether `[s]B - [k]A - R` is the neutral element or, `cofactored`,
/// whether `[8]([s]B - [k]A - R)` is: the verification equations of
/// Ed25519, decided exactly (torsion components included) with about 128
/// doublings through the half-size scalars of [`half_size`]:
/// `[c1 s]B - [c0]A - [c1]R` with `[c1 s mod l]B` as `[d_lo]B +
/// [d_hi](2^128 B)`, width-5 NAF over the odd multiples of `A` and `R`,
/// width-8 NAF over the precomputed ones of `B` and `2^128 B`. The rare
/// `k` without short pair takes the full-length [`double_base_vartime`].
/// Variable time (public inputs only).
pub(crate) fn verify_equation_vartime<F: Field>(
    s: &Scalar,
    k: &Scalar,
    a: &Ext<F>,
    r: &Ext<F>,
    cofactored: bool,
) -> bool {
    let Some(HalfSize { c0, c0_neg, c1 }) = half_size(k) else {
        let p = double_base_vartime(k, &a.neg(), s).add(&r.neg());
        let p = if cofactored { p.mul_by_pow2(3) } else { p };
        return p.is_identity().into();
    };
    let (d_lo, d_hi) = (c1 * *s).split_at_128();
    // -[c0]A = [|c0|](-A) for c0 >= 0, [|c0|]A for c0 < 0.
    let pa = if c0_neg { *a } else { a.neg() };
    let table_a = odd_multiples(&pa);
    let table_r = odd_multiples(&r.neg());
    let naf_a = c0.non_adjacent_form(5);
    let naf_r = c1.non_adjacent_form(5);
    let naf_lo = d_lo.non_adjacent_form(8);
    let naf_hi = d_hi.non_adjacent_form(8);
    let top = (0..256)
        .rev()
        .find(|&i| naf_a[i] != 0 || naf_r[i] != 0 || naf_lo[i] != 0 || naf_hi[i] != 0);
    let Some(top) = top else {
        return true;
    };
    let mut acc = Proj::<F>::identity();
    for i in (0..=top).rev() {
        let t = add_digit(acc.double(), naf_a[i], &table_a);
        let t = add_digit(t, naf_r[i], &table_r);
        let t = add_table_digit(t, naf_lo[i], &BASE_ODD);
        let t = add_table_digit(t, naf_hi[i], &BASE128_ODD);
        acc = t.to_proj();
    }
    if cofactored {
        for _ in 0..3 {
            acc = acc.double().to_proj();
        }
    }
    bool::from(acc.x.is_zero() & acc.y.ct_eq_value(&acc.z))
}

/// `sum [s_i] P_i + [b]B`, variable time (public inputs only): Straus'
/// method, width-5 NAF per point, one shared doubling chain.
#[cfg(feature = "alloc")]
pub(crate) fn multiscalar_vartime<F: Field>(
    scalars: &[Scalar],
    points: &[Ext<F>],
    b: &Scalar,
) -> Ext<F> {
    use alloc::vec::Vec;
    let nafs: Vec<[i8; 256]> = scalars.iter().map(|s| s.non_adjacent_form(5)).collect();
    let tables: Vec<[ProjNiels<F>; 8]> = points.iter().map(odd_multiples).collect();
    let b_naf = b.non_adjacent_form(8);
    let mut r = Proj::<F>::identity();
    let mut out = Ext::identity();
    for i in (0..256).rev() {
        let mut t = r.double();
        for (naf, table) in nafs.iter().zip(&tables) {
            t = add_digit(t, naf[i], table);
        }
        let t = add_table_digit(t, b_naf[i], &BASE_ODD);
        if i == 0 {
            out = t.to_ext();
        } else {
            r = t.to_proj();
        }
    }
    out
}

/// The tables of [`mul_base`], [`double_base_vartime`] and
/// [`verify_equation_vartime`], computed: the
/// generator of `table.rs` and the test that keeps it current.
#[cfg(test)]
#[allow(clippy::type_complexity)]
pub(crate) fn compute_tables<F: Field>()
-> ([[NielsWords; ROW]; 51], [NielsWords; 64], [NielsWords; 64]) {
    let mut radix = [[[[0u64; 4]; 3]; ROW]; 51];
    let mut row_base = Ext::<F>::basepoint();
    for row in radix.iter_mut() {
        let mut acc = row_base;
        for entry in row.iter_mut() {
            *entry = niels_words(&acc);
            acc = acc.add(&row_base);
        }
        row_base = row_base.mul_by_pow2(5);
    }
    let odd_of = |b: Ext<F>| {
        let mut odd = [[[0u64; 4]; 3]; 64];
        let b2 = b.double();
        let mut acc = b;
        for entry in odd.iter_mut() {
            *entry = niels_words(&acc);
            acc = acc.add(&b2);
        }
        odd
    };
    let b = Ext::<F>::basepoint();
    (radix, odd_of(b), odd_of(b.mul_by_pow2(128)))
}
