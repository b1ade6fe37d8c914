//! Curve25519: the field GF(2^255 - 19) and X25519 (RFC 7748).
//!
//! * [`FieldElement`]: the field in five 51-bit limbs with `u128` products,
//!   the portable executable specification. Its operations are the small
//!   set a faster field implements: `from_bytes`/`to_bytes`, `add`, `sub`,
//!   `neg`, `mul`, `square`, `pow2k`, `mul_small`, conditional
//!   select/swap (`subtle`), and the fixed chains built on them
//!   (`invert`, `pow_p58`, `sqrt_ratio_i`).
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

mod field;
mod ladder;
#[cfg(test)]
mod tests;

pub use field::FieldElement;

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
        ladder::x25519(scalar, u)
    }
}

impl Ops for crate::Portable {}
#[cfg(target_arch = "x86_64")]
impl Ops for crate::backend::Avx2 {}

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

/// X25519(scalar, 9): the public key of `scalar`. For now the ladder on
/// the base point; a fixed-base method will replace it with the same
/// output.
///
/// ```
/// use pqkit_common::curve25519::{BASEPOINT_U, x25519, x25519_base};
///
/// assert_eq!(x25519_base(&[3; 32]), x25519(&[3; 32], &BASEPOINT_U));
/// ```
pub fn x25519_base(scalar: &[u8; 32]) -> [u8; 32] {
    x25519(scalar, &BASEPOINT_U)
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
