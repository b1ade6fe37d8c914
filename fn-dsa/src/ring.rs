//! Polynomials modulo (q = 12289, X^n + 1): the one place where this crate
//! multiplies and divides polynomials modulo q.
//!
//! The transforms run on `pqkit_common::q12289` (backend-dispatched, AVX2
//! when available); this module keeps values in `[0, q)` as `u16` around
//! them. Every reduction is a multiply-shift (Barrett) with a final masked
//! subtraction, so the code is constant-time and may process secret
//! polynomials (key decoding and key generation do).

use pqkit_common::{Backend, Kernel, dispatch};
use zeroize::Zeroize;

/// The modulus.
pub(crate) const Q: u32 = 12289;

/// Reduce `x < 2^29` to `[0, q)` without division (Barrett with
/// `m = floor(2^42 / q)`).
#[inline(always)]
pub(crate) fn reduce(x: u32) -> u32 {
    const M: u64 = (1u64 << 42) / Q as u64;
    let t = ((x as u64 * M) >> 42) as u32;
    let r = x - t * Q; // in [0, 2q)
    csub(r)
}

/// `r - q` if `r >= q`, else `r`, for `r < 2q`, branch-free.
#[inline(always)]
fn csub(r: u32) -> u32 {
    let d = r.wrapping_sub(Q);
    d.wrapping_add(Q & 0u32.wrapping_sub(d >> 31))
}

#[inline(always)]
pub(crate) fn mul(a: u32, b: u32) -> u32 {
    reduce(a * b)
}

const fn pow_const(mut b: u32, mut e: u32) -> u32 {
    let mut r = 1u32;
    b %= Q;
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % Q;
        }
        b = b * b % Q;
        e >>= 1;
    }
    r
}

/// `a^(q-2) = 1/a` (0 maps to 0). Fixed exponent: constant-time.
#[inline]
pub(crate) fn inv(a: u32) -> u32 {
    // q - 2 = 12287 = 0b10_1111_1111_1111
    let mut r = 1u32;
    let mut b = a;
    let mut e = Q - 2;
    while e > 0 {
        // The exponent is a public constant.
        if e & 1 == 1 {
            r = mul(r, b);
        }
        b = mul(b, b);
        e >>= 1;
    }
    r
}

/// `2^-16 mod q`: undoes the Montgomery factor `2^16` of
/// `pqkit_common::q12289`'s inverse NTT.
const R_INV: u32 = pow_const(pow_const(2, 16), Q - 2);

/// Forward NTT through `pqkit_common::q12289` (AVX2 when available), on
/// centred coefficients (`|a_i| <= q`).
pub(crate) struct Fwd<'a>(pub(crate) &'a mut [i16]);

impl Kernel for Fwd<'_> {
    type Output = ();
    fn run<B: Backend>(self, b: B) {
        // The length is a power of two in 1..=1024 (checked by callers);
        // the kernel rejects n = 1, handled below.
        let _ = b.ntt_q12289(self.0);
    }
}

/// Inverse NTT (times `2^16`) through `pqkit_common::q12289`.
struct Inv<'a>(&'a mut [i16]);

impl Kernel for Inv<'_> {
    type Output = ();
    fn run<B: Backend>(self, b: B) {
        let _ = b.inv_ntt_tomont_q12289(self.0);
    }
}

/// `[0, q)` to the centred representative, as `i16`.
#[inline(always)]
pub(crate) fn centred(x: u16) -> i16 {
    let x = x as i32;
    (x - (Q as i32 & (((Q as i32 - 1) / 2 - x) >> 31))) as i16
}

/// Forward negacyclic NTT in place, through `pqkit_common::q12289`'s
/// backend-dispatched kernel. `a.len()` must be a power of two between 1
/// and 1024 (degree 1 is the identity). Inputs and outputs in `[0, q)`.
/// The evaluation order is the kernel's; only [`intt`],
/// [`mul_pointwise`] and [`div_pointwise`] interpret it.
pub(crate) fn ntt(a: &mut [u16]) {
    let n = a.len().min(1024);
    if n < 2 {
        return;
    }
    let mut t = [0i16; 1024];
    for (x, &v) in t.iter_mut().zip(a.iter()) {
        *x = centred(v);
    }
    dispatch(Fwd(&mut t[..n]));
    for (d, &v) in a.iter_mut().zip(t.iter()) {
        *d = from_signed(v as i32);
    }
    t.zeroize();
}

/// Inverse of [`ntt`], including the division by n. Inputs and outputs in
/// `[0, q)`.
pub(crate) fn intt(a: &mut [u16]) {
    let n = a.len().min(1024);
    if n < 2 {
        return;
    }
    let mut t = [0i16; 1024];
    for (x, &v) in t.iter_mut().zip(a.iter()) {
        *x = centred(v);
    }
    dispatch(Inv(&mut t[..n]));
    for (d, &v) in a.iter_mut().zip(t.iter()) {
        *d = mul(from_signed(v as i32) as u32, R_INV) as u16;
    }
    t.zeroize();
}

/// `a <- a * b` pointwise (NTT domain).
pub(crate) fn mul_pointwise(a: &mut [u16], b: &[u16]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x = mul(*x as u32, *y as u32) as u16;
    }
}

/// `a <- a / b` pointwise (NTT domain). Returns `false` if some entry of
/// `b` is zero (then `b` is not invertible); the scan is constant-time and
/// only the final verdict is meant to be published.
#[cfg(feature = "alloc")]
pub(crate) fn div_pointwise(a: &mut [u16], b: &[u16]) -> bool {
    // Montgomery's batch inversion: a few exponentiations and 3 (n - 1)
    // products instead of n exponentiations, run as `L` interleaved chains
    // (entries `i = k mod L`) so that the products overlap instead of
    // waiting on each other. A zero entry is replaced by 1 (without a
    // branch) so the chains stay invertible, and reported.
    const L: usize = 8;
    let n = a.len().min(b.len()).min(1024);
    let mut zero = 0u32;
    let mut prefix = [0u32; 1024];
    let mut acc = [1u32; L];
    let nonzero = |y: u16| {
        let y = y as u32;
        let is_zero = y.wrapping_sub(1) >> 31; // 1 iff y == 0
        (y | is_zero, is_zero)
    };
    for (i, (p, &y)) in prefix.iter_mut().zip(b).take(n).enumerate() {
        let (y, is_zero) = nonzero(y);
        zero |= is_zero;
        acc[i % L] = mul(acc[i % L], y);
        *p = acc[i % L];
    }
    // acc[k] = product of chain k; walk back: inv(b_i) = inv(chain prefix
    // up to i) * (chain prefix up to i - L).
    let mut inv_acc = acc.map(inv);
    for i in (0..n).rev() {
        let (y, _) = nonzero(b[i]);
        let before = if i < L { 1 } else { prefix[i - L] };
        let inv_i = mul(inv_acc[i % L], before);
        inv_acc[i % L] = mul(inv_acc[i % L], y);
        a[i] = mul(a[i] as u32, inv_i) as u16;
    }
    prefix.zeroize();
    zero == 0
}

/// Signed small value to `[0, q)`.
#[inline(always)]
pub(crate) fn from_signed(x: i32) -> u16 {
    // |x| < q for every caller.
    let m = (x >> 31) as u32;
    ((x as u32).wrapping_add(Q & m)) as u16
}

/// `[0, q)` to the centred representative in `(-q/2, q/2]`.
#[inline(always)]
pub(crate) fn to_signed(x: u16) -> i32 {
    let x = x as i32;
    // subtract q when x > q/2
    x - (Q as i32 & (((Q as i32 - 1) / 2 - x) >> 31))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schoolbook(a: &[u16], b: &[u16]) -> [u16; 1024] {
        let n = a.len();
        let mut r = [0u32; 1024];
        for i in 0..n {
            for j in 0..n {
                let p = a[i] as u32 * b[j] as u32 % Q;
                if i + j < n {
                    r[i + j] = (r[i + j] + p) % Q;
                } else {
                    r[i + j - n] = (r[i + j - n] + Q - p) % Q;
                }
            }
        }
        core::array::from_fn(|i| r[i] as u16)
    }

    #[test]
    fn constants() {
        assert_eq!(mul(R_INV, 1 << 16), 1);
        for x in [0u32, 1, 12288, 12289, 24577, 151_000_000, (1 << 29) - 1] {
            assert_eq!(reduce(x), x % Q);
        }
        for x in 1..Q {
            assert_eq!(mul(x, inv(x)), 1);
        }
    }

    #[test]
    fn ntt_multiplication_matches_schoolbook() {
        let mut seed = 0x1234_5678u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            ((seed >> 8) % Q) as u16
        };
        for logn in 1..=10 {
            let n = 1usize << logn;
            let a: std::vec::Vec<u16> = (0..n).map(|_| next()).collect();
            let b: std::vec::Vec<u16> = (0..n).map(|_| next()).collect();
            let want = schoolbook(&a, &b);
            let mut x = a.clone();
            let mut y = b.clone();
            ntt(&mut x);
            ntt(&mut y);
            mul_pointwise(&mut x, &y);
            intt(&mut x);
            assert_eq!(&x[..], &want[..n], "logn {logn}");
            let mut z = a.clone();
            ntt(&mut z);
            intt(&mut z);
            assert_eq!(z, a);
        }
    }

    #[test]
    fn signed_conversions() {
        for x in -6144..=6144 {
            assert_eq!(to_signed(from_signed(x)), x);
        }
        assert_eq!(to_signed(6145), -6144);
    }
}
