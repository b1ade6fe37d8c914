//! Negacyclic products of polynomials with small integer coefficients
//! (key generation), through NTTs modulo two 31-bit primes and the CRT.
//! Exact whenever every coefficient of the product is below 2^60 in
//! absolute value (the caller checks the bound).

use alloc::vec;
use alloc::vec::Vec;

/// A prime `p = 1 mod 2048` below 2^31 with its NTT tables.
pub(crate) struct Prime {
    p: u32,
    zetas: [u32; 1024],
    zetas_s: [u32; 1024],
    izetas: [u32; 1024],
    izetas_s: [u32; 1024],
}

const fn pow_mod(b: u64, mut e: u64, p: u64) -> u64 {
    let mut r = 1u64;
    let mut b = b % p;
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % p;
        }
        b = b * b % p;
        e >>= 1;
    }
    r
}

const fn bitrev10(k: usize) -> usize {
    let mut r = 0;
    let mut i = 0;
    while i < 10 {
        r |= ((k >> i) & 1) << (9 - i);
        i += 1;
    }
    r
}

/// Tables for `p` with generator `g` of the multiplicative group:
/// `zetas[k] = psi^bitrev10(k)` for the primitive 2048-th root
/// `psi = g^((p-1)/2048)`, the inverses, and their Shoup companions.
const fn build(p: u32, g: u32) -> Prime {
    let pp = p as u64;
    let psi = pow_mod(g as u64, (pp - 1) / 2048, pp);
    let mut t = Prime {
        p,
        zetas: [0; 1024],
        zetas_s: [0; 1024],
        izetas: [0; 1024],
        izetas_s: [0; 1024],
    };
    let mut k = 0;
    while k < 1024 {
        let e = bitrev10(k) as u64;
        let z = pow_mod(psi, e, pp);
        let zi = pow_mod(psi, (2048 - e) % 2048, pp);
        t.zetas[k] = z as u32;
        t.zetas_s[k] = ((z << 32) / pp) as u32;
        t.izetas[k] = zi as u32;
        t.izetas_s[k] = ((zi << 32) / pp) as u32;
        k += 1;
    }
    t
}

/// The two largest primes `= 1 mod 2048` below 2^31, with generators 3 and 11.
static P1: Prime = build(2147473409, 3);
static P2: Prime = build(2147389441, 11);

#[inline(always)]
fn csub(r: u32, p: u32) -> u32 {
    let d = r.wrapping_sub(p);
    d.wrapping_add(p & 0u32.wrapping_sub(d >> 31))
}

/// `a * w mod p` for `a < 2^32`, `w < p`, with `ws = floor(w 2^32 / p)`.
#[inline(always)]
fn mul_shoup(a: u32, w: u32, ws: u32, p: u32) -> u32 {
    let qhat = ((a as u64 * ws as u64) >> 32) as u32;
    csub(a.wrapping_mul(w).wrapping_sub(qhat.wrapping_mul(p)), p)
}

fn ntt(t: &Prime, a: &mut [u32]) {
    let n = a.len();
    let p = t.p;
    let mut k = 0;
    let mut len = n >> 1;
    while len >= 1 {
        for start in (0..n).step_by(2 * len) {
            k += 1;
            let (z, zs) = (t.zetas[k], t.zetas_s[k]);
            let (lo, hi) = a[start..start + 2 * len].split_at_mut(len);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let v = mul_shoup(*y, z, zs, p);
                let u = *x;
                *x = csub(u + v, p);
                *y = csub(u + p - v, p);
            }
        }
        len >>= 1;
    }
}

fn intt(t: &Prime, a: &mut [u32]) {
    let n = a.len();
    let p = t.p;
    let mut len = 1;
    let mut k = n;
    while len < n {
        let blocks = n / (2 * len);
        k -= blocks;
        for (b, start) in (0..n).step_by(2 * len).enumerate() {
            let (z, zs) = (t.izetas[k + b], t.izetas_s[k + b]);
            let (lo, hi) = a[start..start + 2 * len].split_at_mut(len);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let (u, v) = (*x, *y);
                *x = csub(u + v, p);
                *y = mul_shoup(u + p - v, z, zs, p);
            }
        }
        len <<= 1;
    }
    let ninv = pow_mod(n as u64, p as u64 - 2, p as u64) as u32;
    let ninv_s = (((ninv as u64) << 32) / p as u64) as u32;
    for x in a.iter_mut() {
        *x = mul_shoup(*x, ninv, ninv_s, p);
    }
}

fn residues(t: &Prime, v: &[i64]) -> Vec<u32> {
    v.iter().map(|&x| x.rem_euclid(t.p as i64) as u32).collect()
}

/// Negacyclic product of `a` and `b` (same power-of-two length, at least
/// 2), exact when every output coefficient is below 2^60 in absolute value.
pub(crate) fn mul(a: &[i64], b: &[i64]) -> Vec<i128> {
    let mut out = [vec![], vec![]];
    for (o, t) in out.iter_mut().zip([&P1, &P2]) {
        let mut x = residues(t, a);
        let mut y = residues(t, b);
        ntt(t, &mut x);
        ntt(t, &mut y);
        for (u, &v) in x.iter_mut().zip(&y) {
            *u = ((*u as u64 * v as u64) % t.p as u64) as u32;
        }
        intt(t, &mut x);
        *o = x;
    }
    // CRT: x = r1 + p1 * ((r2 - r1) / p1 mod p2), then centre.
    let (p1, p2) = (P1.p as u64, P2.p as u64);
    let inv_p1 = pow_mod(p1 % p2, p2 - 2, p2);
    let m = p1 as u128 * p2 as u128;
    out[0]
        .iter()
        .zip(&out[1])
        .map(|(&r1, &r2)| {
            let d = (r2 as u64 + p2 - (r1 as u64 % p2)) % p2;
            let h = d * inv_p1 % p2;
            let x = r1 as u128 + p1 as u128 * h as u128;
            if x > m / 2 {
                x as i128 - m as i128
            } else {
                x as i128
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_schoolbook() {
        for logn in 1..=10 {
            let n = 1usize << logn;
            let a: Vec<i64> = (0..n)
                .map(|i| ((i as i64 * 7919) % 2001 - 1000) << 20)
                .collect();
            let b: Vec<i64> = (0..n).map(|i| ((i as i64 * 104729) % 255) - 127).collect();
            let got = mul(&a, &b);
            for k in 0..n {
                let mut want = 0i128;
                for i in 0..n {
                    let j = (k + n - i) % n;
                    let s = if i + j >= n { -1 } else { 1 };
                    want += s * a[i] as i128 * b[j] as i128;
                }
                assert_eq!(got[k], want, "logn {logn} k {k}");
            }
        }
    }
}
