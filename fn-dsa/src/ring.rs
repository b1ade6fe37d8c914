//! Polynomials modulo (q = 12289, X^n + 1): the one place where this crate
//! multiplies and divides polynomials modulo q.
//!
//! **Temporary home.** This is a plain portable negacyclic NTT. When
//! `pqkit_common::q12289` lands (the shared, backend-dispatched NTT modulo
//! 12289), the bodies of [`ntt`], [`intt`] and the pointwise helpers switch
//! to it; nothing outside this file needs to change.
//!
//! Values are kept in `[0, q)` as `u16`. Every reduction is a
//! multiply-shift (Barrett) with a final masked subtraction, so the code is
//! constant-time and may process secret polynomials (key decoding and key
//! generation do).

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

/// 11 generates the multiplicative group modulo 12289 (it is neither a
/// square nor a cube), so
/// `11^((q-1)/2048)` is a primitive 2048-th root of unity, i.e. a root of
/// `X^1024 + 1`.
const PSI: u32 = pow_const(11, (Q - 1) / 2048);

const fn bitrev10(k: usize) -> usize {
    let mut r = 0;
    let mut i = 0;
    while i < 10 {
        r |= ((k >> i) & 1) << (9 - i);
        i += 1;
    }
    r
}

/// `ZETAS[k] = PSI^bitrev10(k)`. For degree `n = 2^logn`, the entries
/// `1..n` are exactly the twiddles of the size-n negacyclic NTT
/// (`PSI^bitrev10(k) = (PSI^(1024/n))^bitrev_logn(k)`).
static ZETAS: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut k = 0;
    while k < 1024 {
        t[k] = pow_const(PSI, bitrev10(k) as u32) as u16;
        k += 1;
    }
    t
};

/// `ZETAS_INV[k] = 1 / ZETAS[k]`.
static ZETAS_INV: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut k = 0;
    while k < 1024 {
        t[k] = pow_const(PSI, (2048 - bitrev10(k)) as u32 % 2048) as u16;
        k += 1;
    }
    t
};

/// Shoup companions `floor(w * 2^32 / q)` of a twiddle table.
const fn shoup(t: &[u16; 1024]) -> [u32; 1024] {
    let mut s = [0u32; 1024];
    let mut k = 0;
    while k < 1024 {
        s[k] = (((t[k] as u64) << 32) / Q as u64) as u32;
        k += 1;
    }
    s
}

static ZETAS_SHOUP: [u32; 1024] = shoup(&ZETAS);
static ZETAS_INV_SHOUP: [u32; 1024] = shoup(&ZETAS_INV);

/// `a * w mod q`, up to one extra `q` (result in `[0, 2q)`), for any
/// `a < 2^32`, with the Shoup companion `ws` of `w` (Harvey's lazy
/// butterflies): two multiplications and no reduction branch.
#[inline(always)]
fn mul_shoup(a: u32, w: u32, ws: u32) -> u32 {
    let qhat = ((a as u64 * ws as u64) >> 32) as u32;
    a.wrapping_mul(w).wrapping_sub(qhat.wrapping_mul(Q))
}

/// Forward negacyclic NTT in place (Cooley-Tukey, output in bit-reversed
/// order). `a.len()` must be a power of two between 1 and 1024. Inputs in
/// `[0, q)`; outputs in `[0, q)`. Intermediate values are reduced lazily
/// (they stay below `21q < 2^32`).
pub(crate) fn ntt(a: &mut [u16]) {
    let n = a.len();
    let mut w = [0u32; 1024];
    for (x, &v) in w.iter_mut().zip(a.iter()) {
        *x = v as u32;
    }
    let w = &mut w[..n];
    let mut k = 0;
    let mut len = n >> 1;
    while len >= 1 {
        for start in (0..n).step_by(2 * len) {
            k += 1;
            let (z, zs) = (ZETAS[k] as u32, ZETAS_SHOUP[k]);
            let (lo, hi) = w[start..start + 2 * len].split_at_mut(len);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let t = mul_shoup(*y, z, zs);
                let u = *x;
                *y = u + 2 * Q - t;
                *x = u + t;
            }
        }
        len >>= 1;
    }
    for (d, &v) in a.iter_mut().zip(w.iter()) {
        *d = reduce(v) as u16;
    }
}

/// Inverse of [`ntt`] (Gentleman-Sande), including the division by n.
/// Inputs in `[0, q)`, outputs in `[0, q)`; the sums grow at most to
/// `2^10 q < 2^24` before the final reduction.
pub(crate) fn intt(a: &mut [u16]) {
    let n = a.len();
    let mut w = [0u32; 1024];
    for (x, &v) in w.iter_mut().zip(a.iter()) {
        *x = v as u32;
    }
    let w = &mut w[..n];
    let mut len = 1;
    let mut k = n;
    // Every value of the current layer is below `bound` (a multiple of q).
    let mut bound = Q;
    while len < n {
        // Blocks of this layer, in reverse order of the forward pass.
        let blocks = n / (2 * len);
        k -= blocks;
        for (b, start) in (0..n).step_by(2 * len).enumerate() {
            let (zi, zs) = (ZETAS_INV[k + b] as u32, ZETAS_INV_SHOUP[k + b]);
            let (lo, hi) = w[start..start + 2 * len].split_at_mut(len);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let (u, v) = (*x, *y);
                *x = u + v;
                *y = mul_shoup(u + bound - v, zi, zs);
            }
        }
        bound = 2 * bound.max(2 * Q);
        len <<= 1;
    }
    let ninv = inv(n as u32);
    for (d, &v) in a.iter_mut().zip(w.iter()) {
        *d = mul(reduce(v), ninv) as u16;
    }
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
    let mut zero = 0u32;
    for (x, y) in a.iter_mut().zip(b) {
        let yy = *y as u32;
        zero |= yy.wrapping_sub(1) >> 31; // 1 iff yy == 0
        *x = mul(*x as u32, inv(yy)) as u16;
    }
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
        assert_eq!(pow_const(PSI, 1024), Q - 1);
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
