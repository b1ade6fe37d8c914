//! The Montgomery ladder of RFC 7748 §5, over any [`Field`].

use super::fieldops::Field;
use subtle::Choice;
use zeroize::Zeroize;

/// RFC 7748's `a24 = (A - 2) / 4` for curve25519 (`A = 486662`).
const A24: u32 = 121665;

/// RFC 7748 §5 `decodeScalar25519`: clear bits 0, 1, 2 and 255, set bit 254.
#[inline]
pub(crate) fn clamp(scalar: &[u8; 32]) -> [u8; 32] {
    let mut k = *scalar;
    k[0] &= 248;
    k[31] &= 127;
    k[31] |= 64;
    k
}

/// X25519(k, u) per RFC 7748 §5: the clamped scalar times the point with
/// u-coordinate `u` (bit 255 ignored), on the x-line. 255 ladder steps, each
/// with a conditional swap by mask; the final swap, one inversion, and the
/// canonical encoding. The scalar bits steer no branch and no address.
pub(crate) fn x25519<F: Field>(scalar: &[u8; 32], u: &[u8; 32]) -> [u8; 32] {
    let mut k = clamp(scalar);
    let x1 = F::from_bytes(u);
    // (x2 : z2) = 1 * P = (1 : 0) at infinity, (x3 : z3) = P.
    let mut st = [F::ONE, F::ZERO, x1, F::ONE];
    let mut swap = 0u8;
    for t in (0..255).rev() {
        let bit = (k[t >> 3] >> (t & 7)) & 1;
        swap ^= bit;
        let [x2, z2, x3, z3] = &mut st;
        F::conditional_swap(x2, x3, Choice::from(swap));
        F::conditional_swap(z2, z3, Choice::from(swap));
        swap = bit;
        step(&mut st, &x1);
    }
    let [x2, z2, x3, z3] = &mut st;
    F::conditional_swap(x2, x3, Choice::from(swap));
    F::conditional_swap(z2, z3, Choice::from(swap));
    let out = x2.mul(&z2.invert()).to_bytes();
    k.zeroize();
    st.zeroize();
    swap.zeroize();
    out
}

/// One ladder step (RFC 7748 §5): `(x2 : z2) <- 2 (x2 : z2)` and
/// `(x3 : z3) <- (x2 : z2) + (x3 : z3)` given their difference `x1`.
#[inline(always)]
fn step<F: Field>(st: &mut [F; 4], x1: &F) {
    let [x2, z2, x3, z3] = *st;
    let a = x2.add(&z2);
    let aa = a.square();
    let b = x2.sub(&z2);
    let bb = b.square();
    let e = aa.sub(&bb);
    let c = x3.add(&z3);
    let d = x3.sub(&z3);
    let da = d.mul(&a);
    let cb = c.mul(&b);
    st[2] = da.add(&cb).square();
    st[3] = x1.mul(&da.sub(&cb).square());
    st[0] = aa.mul(&bb);
    st[1] = e.mul(&aa.add(&e.mul_small(A24)));
}
