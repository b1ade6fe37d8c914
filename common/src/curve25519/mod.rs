//! Curve25519: the field GF(2^255 - 19) and X25519 (RFC 7748).
//!
//! * [`FieldElement`]: the field in five 51-bit limbs with `u128` products,
//!   the portable executable specification. Its operations are the small
//!   set a faster field implements: `from_bytes`/`to_bytes`, `add`, `sub`,
//!   `neg`, `mul`, `square`, `pow2k`, `mul_small`, conditional
//!   select/swap (`subtle`), the fixed chains built on them (`pow_p58`,
//!   `sqrt_ratio_i`), and `invert`, by constant-time Bernstein-Yang
//!   divsteps on the canonical encoding (`inv`).
//! * [`x25519`] and [`x25519_base`]: the Montgomery ladder of RFC 7748 §5,
//!   run as the [`Ops::ladder_curve25519`] kernel of the dispatched backend
//!   (every backend runs the portable ladder today; a backend with a faster
//!   field overrides the kernel as a whole).
//!
//! Everything is constant-time: the scalar and the field values steer no
//! branch, no index and no division.
//!
//! ```
//! use pqkit_common::curve25519::{x25519, x25519_base};
//!
//! let (a, b) = ([1u8; 32], [2u8; 32]);
//! let (pa, pb) = (x25519_base(&a), x25519_base(&b));
//! assert_eq!(x25519(&a, &pb), x25519(&b, &pa));
//! ```

mod edwards;
#[cfg(test)]
mod edwards_tests;
#[cfg(any(test, all(target_arch = "aarch64", target_feature = "neon")))]
mod fe4;
#[cfg(target_arch = "x86_64")]
mod fe64;
mod field;
mod fieldops;
mod halfsize;
#[cfg(target_arch = "x86_64")]
mod ifma;
mod inv;
mod ladder;
#[cfg(target_arch = "x86_64")]
mod ladder64;
mod scalar;
#[cfg(target_arch = "x86_64")]
mod select_avx2;
mod table;
#[cfg(test)]
mod tests;

pub use field::FieldElement;
pub use scalar::Scalar;

/// The u-coordinate of the curve25519 base point, 9 (RFC 7748 §4.1).
pub const BASEPOINT_U: [u8; 32] = {
    let mut b = [0u8; 32];
    b[0] = 9;
    b
};

/// The kernels a backend provides for curve25519. The default bodies are
/// the portable ones.
pub trait Ops: Copy {
    /// X25519(scalar, u) (RFC 7748 §5): clamp the scalar, ignore bit 255
    /// of `u` (non-canonical u accepted), run the ladder, return the
    /// canonical u-coordinate. Constant-time in both inputs.
    #[inline]
    fn ladder_curve25519(self, scalar: &[u8; 32], u: &[u8; 32]) -> [u8; 32] {
        ladder::x25519::<FieldElement>(scalar, u)
    }

    /// X25519(scalar, 9) through the Edwards fixed-base method: the clamped
    /// scalar reduced modulo `l` times `B`, mapped to `u = (1 + y)/(1 - y)`.
    #[inline]
    fn x25519_base(self, scalar: &[u8; 32]) -> [u8; 32] {
        let mut k = ladder::clamp(scalar);
        let s = Scalar::from_bytes_mod_order(k);
        zeroize::Zeroize::zeroize(&mut k);
        edwards::mul_base::<FieldElement>(&s, edwards::select_words).to_montgomery_u()
    }

    /// `[s]B` and its encoding, in constant time.
    #[inline]
    fn ed25519_mul_base(self, s: &Scalar) -> (EdwardsPoint, [u8; 32]) {
        let p = edwards::mul_base::<FieldElement>(s, edwards::select_words);
        (EdwardsPoint(p), p.compress())
    }

    /// `[a]A + [b]B`, variable time.
    #[inline]
    fn ed25519_double_base(self, a: &Scalar, pa: &EdwardsPoint, b: &Scalar) -> EdwardsPoint {
        EdwardsPoint(edwards::double_base_vartime(a, &pa.0, b))
    }

    /// Whether `[s]B - [k]A - R` (`cofactored`: its multiple by 8) is the
    /// neutral element, variable time.
    #[inline]
    fn ed25519_verify_equation(
        self,
        s: &Scalar,
        k: &Scalar,
        a: &EdwardsPoint,
        r: &EdwardsPoint,
        cofactored: bool,
    ) -> bool {
        edwards::verify_equation_vartime(s, k, &a.0, &r.0, cofactored)
    }

    /// Decoding with dalek's rules.
    #[inline]
    fn ed25519_decompress(self, bytes: &[u8; 32]) -> Option<EdwardsPoint> {
        edwards::Ext::<FieldElement>::decompress(bytes).map(EdwardsPoint)
    }

    /// The encoding of a point (one inversion).
    #[inline]
    fn ed25519_compress(self, p: &EdwardsPoint) -> [u8; 32] {
        p.0.compress()
    }

    /// [`Ops::ed25519_decompress`] of eight encodings, the square roots
    /// overlapped.
    #[inline]
    fn ed25519_decompress8(self, bytes: &[[u8; 32]; 8]) -> [Option<EdwardsPoint>; 8] {
        edwards::Ext::<FieldElement>::decompress_many(bytes).map(|p| p.map(EdwardsPoint))
    }

    /// `sum [s_i] P_i + [b]B`, variable time.
    #[cfg(feature = "alloc")]
    fn ed25519_multiscalar(
        self,
        scalars: &[Scalar],
        points: &[EdwardsPoint],
        b: &Scalar,
    ) -> EdwardsPoint {
        multiscalar_on::<FieldElement>(scalars, points, b)
    }
}

impl Ops for crate::Portable {}
/// The NEON backend runs the curve on `fe4`'s 4 x 64-bit field (`MUL`/
/// `UMULH` products, `ADDS`/`ADCS` carries), the aarch64 counterpart of
/// the AVX2 backend's `fe64`; the table selection is the portable one.
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
impl Ops for crate::backend::Neon {
    #[inline]
    fn ladder_curve25519(self, scalar: &[u8; 32], u: &[u8; 32]) -> [u8; 32] {
        ladder::x25519::<fe4::Fe4>(scalar, u)
    }

    #[inline]
    fn x25519_base(self, scalar: &[u8; 32]) -> [u8; 32] {
        let mut k = ladder::clamp(scalar);
        let s = Scalar::from_bytes_mod_order(k);
        zeroize::Zeroize::zeroize(&mut k);
        edwards::mul_base::<fe4::Fe4>(&s, edwards::select_words).to_montgomery_u()
    }

    #[inline]
    fn ed25519_mul_base(self, s: &Scalar) -> (EdwardsPoint, [u8; 32]) {
        let p = edwards::mul_base::<fe4::Fe4>(s, edwards::select_words);
        (EdwardsPoint(edwards::convert(&p)), p.compress())
    }

    #[inline]
    fn ed25519_double_base(self, a: &Scalar, pa: &EdwardsPoint, b: &Scalar) -> EdwardsPoint {
        let pa = edwards::convert::<_, fe4::Fe4>(&pa.0);
        EdwardsPoint(edwards::convert(&edwards::double_base_vartime(a, &pa, b)))
    }

    #[inline]
    fn ed25519_verify_equation(
        self,
        s: &Scalar,
        k: &Scalar,
        a: &EdwardsPoint,
        r: &EdwardsPoint,
        cofactored: bool,
    ) -> bool {
        let a = edwards::convert::<_, fe4::Fe4>(&a.0);
        let r = edwards::convert::<_, fe4::Fe4>(&r.0);
        edwards::verify_equation_vartime(s, k, &a, &r, cofactored)
    }

    #[inline]
    fn ed25519_decompress(self, bytes: &[u8; 32]) -> Option<EdwardsPoint> {
        edwards::Ext::<fe4::Fe4>::decompress(bytes).map(|p| EdwardsPoint(edwards::convert(&p)))
    }

    #[inline]
    fn ed25519_compress(self, p: &EdwardsPoint) -> [u8; 32] {
        edwards::convert::<_, fe4::Fe4>(&p.0).compress()
    }

    #[inline]
    fn ed25519_decompress8(self, bytes: &[[u8; 32]; 8]) -> [Option<EdwardsPoint>; 8] {
        edwards::Ext::<fe4::Fe4>::decompress_many(bytes)
            .map(|p| p.map(|p| EdwardsPoint(edwards::convert(&p))))
    }

    #[cfg(feature = "alloc")]
    fn ed25519_multiscalar(
        self,
        scalars: &[Scalar],
        points: &[EdwardsPoint],
        b: &Scalar,
    ) -> EdwardsPoint {
        multiscalar_on::<fe4::Fe4>(scalars, points, b)
    }
}
#[cfg(all(target_family = "wasm", target_feature = "simd128"))]
impl Ops for crate::backend::Simd128 {}

/// The AVX2 backend runs the curve on `fe64`'s 4 x 64-bit field (MULX,
/// ADCX/ADOX) when the CPU has BMI2 and ADX (every AVX2 CPU since 2014
/// but Haswell), else on the portable field.
#[cfg(target_arch = "x86_64")]
impl Ops for crate::backend::Avx2 {
    #[inline]
    fn ladder_curve25519(self, scalar: &[u8; 32], u: &[u8; 32]) -> [u8; 32] {
        ladder64::x25519_checked(scalar, u)
            .unwrap_or_else(|| ladder::x25519::<FieldElement>(scalar, u))
    }

    #[inline]
    fn x25519_base(self, scalar: &[u8; 32]) -> [u8; 32] {
        if !fe64::fe64_available() {
            return crate::Portable.x25519_base(scalar);
        }
        let mut k = ladder::clamp(scalar);
        let s = Scalar::from_bytes_mod_order(k);
        zeroize::Zeroize::zeroize(&mut k);
        edwards::mul_base::<fe64::Fe64>(&s, |row, abs| select_avx2::select_words(self, row, abs))
            .to_montgomery_u()
    }

    #[inline]
    fn ed25519_mul_base(self, s: &Scalar) -> (EdwardsPoint, [u8; 32]) {
        if !fe64::fe64_available() {
            return crate::Portable.ed25519_mul_base(s);
        }
        let p = edwards::mul_base::<fe64::Fe64>(s, |row, abs| {
            select_avx2::select_words(self, row, abs)
        });
        (EdwardsPoint(edwards::convert(&p)), p.compress())
    }

    #[inline]
    fn ed25519_double_base(self, a: &Scalar, pa: &EdwardsPoint, b: &Scalar) -> EdwardsPoint {
        if !fe64::fe64_available() {
            return crate::Portable.ed25519_double_base(a, pa, b);
        }
        let pa = edwards::convert::<_, fe64::Fe64>(&pa.0);
        EdwardsPoint(edwards::convert(&edwards::double_base_vartime(a, &pa, b)))
    }

    #[inline]
    fn ed25519_verify_equation(
        self,
        s: &Scalar,
        k: &Scalar,
        a: &EdwardsPoint,
        r: &EdwardsPoint,
        cofactored: bool,
    ) -> bool {
        if self.has_avx512()
            && let Some(ok) = ifma::verify_equation_checked(s, k, &a.0, &r.0, cofactored)
        {
            return ok;
        }
        if !fe64::fe64_available() {
            return crate::Portable.ed25519_verify_equation(s, k, a, r, cofactored);
        }
        let a = edwards::convert::<_, fe64::Fe64>(&a.0);
        let r = edwards::convert::<_, fe64::Fe64>(&r.0);
        edwards::verify_equation_vartime(s, k, &a, &r, cofactored)
    }

    #[inline]
    fn ed25519_decompress(self, bytes: &[u8; 32]) -> Option<EdwardsPoint> {
        if !fe64::fe64_available() {
            return crate::Portable.ed25519_decompress(bytes);
        }
        edwards::Ext::<fe64::Fe64>::decompress(bytes).map(|p| EdwardsPoint(edwards::convert(&p)))
    }

    #[inline]
    fn ed25519_compress(self, p: &EdwardsPoint) -> [u8; 32] {
        if !fe64::fe64_available() {
            return crate::Portable.ed25519_compress(p);
        }
        edwards::convert::<_, fe64::Fe64>(&p.0).compress()
    }

    #[inline]
    fn ed25519_decompress8(self, bytes: &[[u8; 32]; 8]) -> [Option<EdwardsPoint>; 8] {
        if !fe64::fe64_available() {
            return crate::Portable.ed25519_decompress8(bytes);
        }
        edwards::Ext::<fe64::Fe64>::decompress_many(bytes)
            .map(|p| p.map(|p| EdwardsPoint(edwards::convert(&p))))
    }

    #[cfg(feature = "alloc")]
    fn ed25519_multiscalar(
        self,
        scalars: &[Scalar],
        points: &[EdwardsPoint],
        b: &Scalar,
    ) -> EdwardsPoint {
        if self.has_avx512() {
            let pts: alloc::vec::Vec<_> = points.iter().map(|p| p.0).collect();
            if let Some(sum) = ifma::multiscalar_checked(scalars, &pts, b) {
                return EdwardsPoint(sum);
            }
        }
        if !fe64::fe64_available() {
            return crate::Portable.ed25519_multiscalar(scalars, points, b);
        }
        multiscalar_on::<fe64::Fe64>(scalars, points, b)
    }
}

/// `sum [s_i] P_i + [b]B` (variable time) on the field `F`.
#[cfg(feature = "alloc")]
fn multiscalar_on<F: fieldops::Field>(
    scalars: &[Scalar],
    points: &[EdwardsPoint],
    b: &Scalar,
) -> EdwardsPoint {
    let pts: alloc::vec::Vec<edwards::Ext<F>> =
        points.iter().map(|p| edwards::convert(&p.0)).collect();
    EdwardsPoint(edwards::convert(&edwards::multiscalar_vartime(
        scalars, &pts, b,
    )))
}

/// A kernel computing one curve25519 operation on the dispatched backend.
enum Op<'a> {
    MulBase(&'a Scalar),
    DoubleBase(&'a Scalar, &'a EdwardsPoint, &'a Scalar),
    Equation {
        s: &'a Scalar,
        k: &'a Scalar,
        a: &'a EdwardsPoint,
        r: &'a EdwardsPoint,
        cofactored: bool,
    },
    Decompress(&'a [u8; 32]),
    #[cfg(feature = "alloc")]
    Decompress8(&'a [[u8; 32]; 8]),
    Compress(&'a EdwardsPoint),
    #[cfg(feature = "alloc")]
    Multi(&'a [Scalar], &'a [EdwardsPoint], &'a Scalar),
}

// One value, returned once from the dispatch: its size does not matter.
#[allow(clippy::large_enum_variant)]
enum Out {
    Bytes([u8; 32]),
    Point(EdwardsPoint, [u8; 32]),
    Maybe(Option<EdwardsPoint>),
    Bool(bool),
    #[cfg(feature = "alloc")]
    Maybe8([Option<EdwardsPoint>; 8]),
}

impl crate::Kernel for Op<'_> {
    type Output = Out;
    fn run<B: crate::Backend>(self, backend: B) -> Out {
        match self {
            Op::MulBase(s) => {
                let (p, b) = backend.ed25519_mul_base(s);
                Out::Point(p, b)
            }
            Op::DoubleBase(a, p, b) => Out::Maybe(Some(backend.ed25519_double_base(a, p, b))),
            Op::Equation {
                s,
                k,
                a,
                r,
                cofactored,
            } => Out::Bool(backend.ed25519_verify_equation(s, k, a, r, cofactored)),
            Op::Decompress(b) => Out::Maybe(backend.ed25519_decompress(b)),
            #[cfg(feature = "alloc")]
            Op::Decompress8(b) => Out::Maybe8(backend.ed25519_decompress8(b)),
            Op::Compress(p) => Out::Bytes(backend.ed25519_compress(p)),
            #[cfg(feature = "alloc")]
            Op::Multi(s, p, b) => Out::Maybe(Some(backend.ed25519_multiscalar(s, p, b))),
        }
    }
}

/// A point of edwards25519, the curve of Ed25519 (RFC 8032 §5.1), in
/// extended coordinates on the portable field. Built by
/// [`EdwardsPoint::decompress`] or the multiplications below; compared by
/// value.
///
/// ```
/// use pqkit_common::curve25519::{EdwardsPoint, Scalar};
///
/// let two = Scalar::ONE + Scalar::ONE;
/// let (p, enc) = EdwardsPoint::mul_base(&two);
/// assert_eq!(EdwardsPoint::decompress(&enc), Some(p));
/// assert_eq!(p, EdwardsPoint::basepoint().add(&EdwardsPoint::basepoint()));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct EdwardsPoint(edwards::Ext<FieldElement>);

impl PartialEq for EdwardsPoint {
    fn eq(&self, other: &Self) -> bool {
        self.0.ct_eq_point(&other.0).into()
    }
}

impl Eq for EdwardsPoint {}

// Without the `ed25519` feature these methods are `#[inline]`, so that
// they (and the Edwards operations behind `Op`) are compiled only in a
// crate that calls them: a build with X25519 alone skips them. With it
// (pqkit-ed25519 turns it on) they are compiled here, in parallel with
// the crates that do not wait for common's code generation.
impl EdwardsPoint {
    /// The neutral element (0, 1).
    #[cfg_attr(not(feature = "ed25519"), inline)]
    pub fn identity() -> EdwardsPoint {
        EdwardsPoint(edwards::Ext::identity())
    }

    /// The base point `B` of RFC 8032.
    #[cfg_attr(not(feature = "ed25519"), inline)]
    pub fn basepoint() -> EdwardsPoint {
        EdwardsPoint(edwards::Ext::basepoint())
    }

    /// Decode with curve25519-dalek's rules: RFC 8032 §5.1.3, except that
    /// `y` is taken modulo `p` (non-canonical encodings accepted) and
    /// `x = 0` with the sign bit set decodes as `x = 0`. `None` when no
    /// point has that `y`.
    #[cfg_attr(not(feature = "ed25519"), inline)]
    pub fn decompress(bytes: &[u8; 32]) -> Option<EdwardsPoint> {
        match crate::dispatch(Op::Decompress(bytes)) {
            Out::Maybe(p) => p,
            _ => None,
        }
    }

    /// [`EdwardsPoint::decompress`] of many encodings, in order, faster
    /// per point than one at a time: the square roots of eight encodings
    /// are computed together so that the processor overlaps them.
    ///
    /// ```
    /// use pqkit_common::curve25519::{EdwardsPoint, Scalar};
    ///
    /// let mut encodings = vec![[0xffu8; 32]];
    /// let mut s = Scalar::ONE;
    /// for _ in 0..10 {
    ///     encodings.push(EdwardsPoint::mul_base(&s).1);
    ///     s += Scalar::ONE;
    /// }
    /// let points = EdwardsPoint::decompress_batch(&encodings);
    /// for (e, p) in encodings.iter().zip(&points) {
    ///     assert_eq!(*p, EdwardsPoint::decompress(e));
    /// }
    /// ```
    #[cfg(feature = "alloc")]
    #[cfg_attr(not(feature = "ed25519"), inline)]
    pub fn decompress_batch(encodings: &[[u8; 32]]) -> alloc::vec::Vec<Option<EdwardsPoint>> {
        let mut out = alloc::vec::Vec::with_capacity(encodings.len());
        for chunk in encodings.chunks(8) {
            let mut group = [[0u8; 32]; 8];
            group[..chunk.len()].copy_from_slice(chunk);
            match crate::dispatch(Op::Decompress8(&group)) {
                Out::Maybe8(points) => out.extend_from_slice(&points[..chunk.len()]),
                _ => out.extend(chunk.iter().map(EdwardsPoint::decompress)),
            }
        }
        out
    }

    /// The RFC 8032 §5.1.2 encoding (canonical), on the dispatched
    /// backend (it costs one inversion).
    #[cfg_attr(not(feature = "ed25519"), inline)]
    pub fn compress(&self) -> [u8; 32] {
        match crate::dispatch(Op::Compress(self)) {
            Out::Bytes(b) => b,
            _ => self.0.compress(),
        }
    }

    /// `[s]B` and its encoding, in constant time (the encoding costs the
    /// one inversion, done on the dispatched backend).
    #[cfg_attr(not(feature = "ed25519"), inline)]
    pub fn mul_base(s: &Scalar) -> (EdwardsPoint, [u8; 32]) {
        match crate::dispatch(Op::MulBase(s)) {
            Out::Point(p, b) => (p, b),
            _ => (EdwardsPoint::identity(), [0; 32]),
        }
    }

    /// `[a]A + [b]B` in variable time: for verification, where every input
    /// is public.
    #[cfg_attr(not(feature = "ed25519"), inline)]
    pub fn vartime_double_scalar_mul_basepoint(
        a: &Scalar,
        pa: &EdwardsPoint,
        b: &Scalar,
    ) -> EdwardsPoint {
        match crate::dispatch(Op::DoubleBase(a, pa, b)) {
            Out::Maybe(Some(p)) => p,
            _ => EdwardsPoint::identity(),
        }
    }

    /// Whether `[s]B - [k]A - R` is the neutral element (the Ed25519
    /// equation, `R` compared as a point) or, with `cofactored`, whether
    /// `[8]([s]B - [k]A - R)` is (the cofactored equation of ZIP 215).
    /// Exactly the decision of computing the combination, torsion
    /// components of `A` and `R` included, at about half its cost: the
    /// double-scalar loop runs on half-size scalars (`c0 = c1 k mod 8l`,
    /// see the design notes), about 128 doublings instead of 253.
    /// Variable time: for verification, where every input is public.
    ///
    /// ```
    /// use pqkit_common::curve25519::{EdwardsPoint, Scalar};
    ///
    /// let scalar = |b: u8| Scalar::from_bytes_mod_order([b; 32]);
    /// let (a, k, r) = (scalar(5), scalar(9), scalar(7));
    /// let (pa, _) = EdwardsPoint::mul_base(&a);
    /// let (pr, _) = EdwardsPoint::mul_base(&r);
    /// let s = r + k * a; // a Schnorr response: [s]B = R + [k]A
    /// assert!(EdwardsPoint::vartime_check_equation(&s, &k, &pa, &pr, false));
    /// let wrong = s + Scalar::ONE;
    /// assert!(!EdwardsPoint::vartime_check_equation(&wrong, &k, &pa, &pr, false));
    /// ```
    #[cfg_attr(not(feature = "ed25519"), inline)]
    pub fn vartime_check_equation(
        s: &Scalar,
        k: &Scalar,
        a: &EdwardsPoint,
        r: &EdwardsPoint,
        cofactored: bool,
    ) -> bool {
        matches!(
            crate::dispatch(Op::Equation {
                s,
                k,
                a,
                r,
                cofactored
            }),
            Out::Bool(true)
        )
    }

    /// Whether `bytes` is the canonical encoding of the point it decodes
    /// to (RFC 8032 §5.1.2): `y` below `p`, and no sign bit on `x = 0`
    /// (`y = 1` or `y = p - 1`). [`EdwardsPoint::decompress`] accepts both
    /// forms; a decoded point re-encodes to `bytes` exactly when this
    /// holds. Constant time.
    ///
    /// ```
    /// use pqkit_common::curve25519::EdwardsPoint;
    ///
    /// let mut one = [0u8; 32];
    /// one[0] = 1; // the neutral element
    /// assert!(EdwardsPoint::is_canonical_encoding(&one));
    /// one[31] |= 0x80; // "x = -0"
    /// assert!(!EdwardsPoint::is_canonical_encoding(&one));
    /// assert!(!EdwardsPoint::is_canonical_encoding(&[0xff; 32]));
    /// ```
    #[cfg_attr(not(feature = "ed25519"), inline)]
    pub fn is_canonical_encoding(bytes: &[u8; 32]) -> bool {
        use subtle::ConstantTimeEq;
        let mut y = *bytes;
        y[31] &= 0x7f;
        let sign = subtle::Choice::from(bytes[31] >> 7);
        let canonical_y = FieldElement::from_bytes(&y).to_bytes().ct_eq(&y);
        let mut one = [0u8; 32];
        one[0] = 1;
        let minus_one = FieldElement::ZERO.sub(&FieldElement::ONE).to_bytes();
        let x_zero = y.ct_eq(&one) | y.ct_eq(&minus_one);
        (canonical_y & !(sign & x_zero)).into()
    }

    /// `sum [s_i] P_i + [b]B` in variable time (Straus' method; public
    /// inputs only). `scalars` and `points` are zipped (the shorter one
    /// decides).
    #[cfg(feature = "alloc")]
    #[cfg_attr(not(feature = "ed25519"), inline)]
    pub fn vartime_multiscalar_mul_basepoint(
        scalars: &[Scalar],
        points: &[EdwardsPoint],
        b: &Scalar,
    ) -> EdwardsPoint {
        let n = points.len().min(scalars.len());
        match crate::dispatch(Op::Multi(&scalars[..n], &points[..n], b)) {
            Out::Maybe(Some(p)) => p,
            _ => EdwardsPoint::identity(),
        }
    }

    /// `self + other`.
    #[cfg_attr(not(feature = "ed25519"), inline)]
    pub fn add(&self, other: &EdwardsPoint) -> EdwardsPoint {
        EdwardsPoint(self.0.add(&other.0))
    }

    /// `self - other`.
    #[cfg_attr(not(feature = "ed25519"), inline)]
    pub fn sub(&self, other: &EdwardsPoint) -> EdwardsPoint {
        EdwardsPoint(self.0.add(&other.0.neg()))
    }

    /// `-self`.
    #[cfg_attr(not(feature = "ed25519"), inline)]
    pub fn neg(&self) -> EdwardsPoint {
        EdwardsPoint(self.0.neg())
    }

    /// `[8] self`.
    #[cfg_attr(not(feature = "ed25519"), inline)]
    pub fn mul_by_cofactor(&self) -> EdwardsPoint {
        EdwardsPoint(self.0.mul_by_pow2(3))
    }

    /// Whether this is the neutral element.
    #[cfg_attr(not(feature = "ed25519"), inline)]
    pub fn is_identity(&self) -> bool {
        self.0.is_identity().into()
    }

    /// Whether the point has small order (1, 2, 4 or 8): `[8] P` is the
    /// neutral element.
    #[cfg_attr(not(feature = "ed25519"), inline)]
    pub fn is_small_order(&self) -> bool {
        self.mul_by_cofactor().is_identity()
    }
}

struct Ladder<'a> {
    scalar: &'a [u8; 32],
    u: &'a [u8; 32],
}

impl crate::Kernel for Ladder<'_> {
    type Output = [u8; 32];
    fn run<B: crate::Backend>(self, backend: B) -> [u8; 32] {
        backend.ladder_curve25519(self.scalar, self.u)
    }
}

/// X25519(scalar, u) per RFC 7748 §5, on the best backend: the clamped
/// scalar times the point with u-coordinate `u`. The top bit of `u` is
/// ignored and non-canonical values are accepted, as the RFC requires; the
/// output is canonical. A low-order `u` gives all zeros (the caller checks
/// for it where the protocol needs to).
///
/// ```
/// use pqkit_common::curve25519::x25519;
///
/// let out = x25519(&[0x42; 32], &[0; 32]);
/// assert_eq!(out, [0; 32]);
/// ```
pub fn x25519(scalar: &[u8; 32], u: &[u8; 32]) -> [u8; 32] {
    crate::dispatch(Ladder { scalar, u })
}

/// X25519(scalar, 9): the public key of `scalar`, in constant time. The
/// same value as the ladder on `u = 9`, computed on the birationally
/// equivalent Edwards curve with the fixed-base table.
///
/// ```
/// use pqkit_common::curve25519::{BASEPOINT_U, x25519, x25519_base};
///
/// assert_eq!(x25519_base(&[3; 32]), x25519(&[3; 32], &BASEPOINT_U));
/// ```
pub fn x25519_base(scalar: &[u8; 32]) -> [u8; 32] {
    /// The fixed-base X25519 kernel (apart from [`Op`], so that a crate
    /// using only X25519 compiles none of the Edwards operations).
    struct Base<'a>(&'a [u8; 32]);
    impl crate::Kernel for Base<'_> {
        type Output = [u8; 32];
        fn run<B: crate::Backend>(self, backend: B) -> [u8; 32] {
            backend.x25519_base(self.0)
        }
    }
    crate::dispatch(Base(scalar))
}

/// RFC 7748 §5 `decodeScalar25519` on the bytes: bits 0, 1, 2 and 255
/// cleared, bit 254 set.
///
/// ```
/// let k = pqkit_common::curve25519::clamp(&[0xff; 32]);
/// assert_eq!((k[0], k[31]), (0xf8, 0x7f));
/// ```
pub fn clamp(scalar: &[u8; 32]) -> [u8; 32] {
    ladder::clamp(scalar)
}
