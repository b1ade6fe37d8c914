//! Arithmetic modulo the 31-bit primes `p = 1 mod 2048` used by the NTRU
//! solver (residue number system, RNS), with NTTs of any degree up to 1024.
//!
//! Values are kept in `[0, p)`. Products use Montgomery reduction with
//! `R = 2^32`: `mmul(a, b) = a b / R mod p`. A value "in Montgomery form"
//! is `x R mod p`. Everything here is branch-free on the data.
//!
//! The prime table is computed at compile time (`build_primes`): the
//! largest primes below 2^31 that are `1 mod 2048`, in decreasing order,
//! each with its Montgomery constants, a primitive 2048-th root of unity
//! and the CRT constant `1 / (p_0 ... p_{j-1}) mod p_j`. The arithmetic,
//! NTTs, residues and CRT steps are `pqkit_common::mp31` (backend kernels).

use pqkit_common::mp31::{self, Mod31};

/// One modulus and its constants (all residues in `[0, p)`); the
/// Montgomery arithmetic itself is `pqkit_common::mp31::Mod31`, reached
/// through `Deref`.
#[derive(Clone, Copy)]
pub(crate) struct SmallPrime {
    /// `p` with `-1/p mod 2^32` and `2^64 mod p`.
    pub(crate) m: Mod31,
    /// A primitive 2048-th root of 1 (so `g^1024 = -1`), Montgomery form.
    pub(crate) g: u32,
    /// `1 / g`, Montgomery form.
    pub(crate) ig: u32,
    /// `1 / (p_0 p_1 ... p_{j-1}) mod p_j`, Montgomery form (1 for `j = 0`).
    pub(crate) s: u32,
}

impl core::ops::Deref for SmallPrime {
    type Target = Mod31;
    #[inline(always)]
    fn deref(&self) -> &Mod31 {
        &self.m
    }
}

/// How many primes the deepest budgets of degree 1024 need.
pub(crate) const NUM_PRIMES: usize = 308;

const fn pow_mod(b: u64, mut e: u64, m: u64) -> u64 {
    let mut r = 1 % m;
    let mut b = b % m;
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % m;
        }
        b = b * b % m;
        e >>= 1;
    }
    r
}

/// Deterministic Miller-Rabin: bases 2, 7, 61 decide every `n < 2^32`.
const fn is_prime(n: u64) -> bool {
    let mut d = n - 1;
    let mut s = 0;
    while d & 1 == 0 {
        d >>= 1;
        s += 1;
    }
    let bases = [2u64, 7, 61];
    let mut i = 0;
    while i < bases.len() {
        let mut x = pow_mod(bases[i], d, n);
        if x != 1 && x != n - 1 {
            let mut r = 1;
            let mut witness = true;
            while r < s {
                x = x * x % n;
                if x == n - 1 {
                    witness = false;
                    break;
                }
                r += 1;
            }
            if witness {
                return false;
            }
        }
        i += 1;
    }
    true
}

/// Constants of one prime; `prod` is `p_0 ... p_{j-1} mod p`.
const fn make_prime(p: u64, prod: u64) -> SmallPrime {
    let r = (1u64 << 32) % p;
    // The smallest quadratic non-residue x; x^((p-1)/2048) then has
    // order exactly 2048.
    let mut x = 2;
    while pow_mod(x, (p - 1) / 2, p) != p - 1 {
        x += 1;
    }
    let g = pow_mod(x, (p - 1) / 2048, p);
    let ig = pow_mod(g, 2047, p);
    let s = pow_mod(prod, p - 2, p);
    SmallPrime {
        m: Mod31 {
            p: p as u32,
            p0i: mp31::ninv32(p as u32),
            r2: (r * r % p) as u32,
        },
        g: (g * r % p) as u32,
        ig: (ig * r % p) as u32,
        s: (s * r % p) as u32,
    }
}

const fn build_primes() -> [SmallPrime; NUM_PRIMES] {
    let mut t = [SmallPrime {
        m: Mod31 {
            p: 0,
            p0i: 0,
            r2: 0,
        },
        g: 0,
        ig: 0,
        s: 0,
    }; NUM_PRIMES];
    // Largest multiple of 2048, plus one, below 2^31.
    let mut c = (1u64 << 31) - 2047;
    let mut j = 0;
    while j < NUM_PRIMES {
        if is_prime(c) {
            let mut prod = 1u64;
            let mut i = 0;
            while i < j {
                prod = prod * (t[i].m.p as u64) % c;
                i += 1;
            }
            t[j] = make_prime(c, prod);
            j += 1;
        }
        c -= 2048;
    }
    t
}

pub(crate) static PRIMES: [SmallPrime; NUM_PRIMES] = build_primes();

/// The forward root table of `PRIMES[0]` for degree 1024, computed at
/// compile time (`gm[rev(i)] = g^i`, Montgomery form, as
/// [`SmallPrime::roots`] lays it out). In this bit-reversed layout the
/// table of degree `2^logn` is its first `2^logn` entries, so one table
/// serves every degree.
pub(crate) static P0_GM: [u32; 1024] = p0_gm();

const fn p0_gm() -> [u32; 1024] {
    let p = PRIMES[0].m.p as u64;
    let r = (1u64 << 32) % p;
    // g in plain form: (g R) R^-1, with R^-1 = R^(p - 2).
    let g = PRIMES[0].g as u64 * pow_mod(r, p - 2, p) % p;
    let mut gm = [0u32; 1024];
    let mut x = 1u64;
    let mut i = 0;
    while i < 1024 {
        let v = (i as u16).reverse_bits() as usize >> 6;
        gm[v] = (x * r % p) as u32;
        x = x * g % p;
        i += 1;
    }
    gm
}

impl SmallPrime {
    /// Root tables for degree `2^logn` (see `pqkit_common::mp31::roots`):
    /// `gm[rev(i)] = w^i`, `igm[rev(i)] = w^-i / 2` with `w` a primitive
    /// `2^(logn+1)`-th root. Either may be empty.
    pub(crate) fn roots(&self, logn: u32, gm: &mut [u32], igm: &mut [u32]) {
        let (mut w, mut iw) = (self.g, self.ig);
        for _ in logn..10 {
            w = self.mmul(w, w);
            iw = self.mmul(iw, iw);
        }
        mp31::roots(&self.m, logn, w, iw, gm, igm);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The compile-time table's first `2^logn` entries are the table of
    /// every degree.
    #[test]
    fn p0_table_prefixes_are_every_degree() {
        for logn in 1..=10 {
            let n = 1usize << logn;
            let mut gm = std::vec![0u32; n];
            PRIMES[0].roots(logn, &mut gm, &mut []);
            assert_eq!(gm[..], P0_GM[..n], "logn {logn}");
        }
    }
    use pqkit_common::Portable;
    use pqkit_common::mp31::Ops as _;

    #[test]
    fn table() {
        // Independent slow check of the first entries and of the invariants.
        assert_eq!(PRIMES[0].p, 2147473409);
        assert_eq!(PRIMES[1].p, 2147389441);
        for (j, sp) in PRIMES.iter().enumerate() {
            let p = sp.p as u64;
            assert_eq!(p % 2048, 1);
            assert!(j == 0 || p < PRIMES[j - 1].p as u64);
            assert_eq!(sp.p.wrapping_mul(sp.p0i), u32::MAX);
            let r = (1u64 << 32) % p;
            assert_eq!(sp.r2 as u64, r * r % p);
            let g = sp.mmul(sp.g, 1) as u64;
            assert_eq!(pow_mod(g, 1024, p), p - 1);
            assert_eq!(sp.mmul(sp.mmul(sp.g, sp.ig), 1), 1);
            let prod = PRIMES[..j].iter().fold(1u64, |a, q| a * q.p as u64 % p);
            assert_eq!(prod * sp.mmul(sp.s, 1) as u64 % p, 1);
        }
    }

    #[test]
    fn ntt_product() {
        let sp = &PRIMES[3];
        for logn in 1..=10u32 {
            let n = 1usize << logn;
            let a: std::vec::Vec<u32> = (0..n).map(|i| (i as u32 * 7919 + 3) % sp.p).collect();
            let b: std::vec::Vec<u32> = (0..n).map(|i| (i as u32 * 104729 + 11) % sp.p).collect();
            let mut want = std::vec![0u64; n];
            for i in 0..n {
                for j in 0..n {
                    let z = a[i] as u64 * b[j] as u64 % sp.p as u64;
                    let k = (i + j) % n;
                    if i + j < n {
                        want[k] = (want[k] + z) % sp.p as u64;
                    } else {
                        want[k] = (want[k] + sp.p as u64 - z) % sp.p as u64;
                    }
                }
            }
            let mut gm = std::vec![0u32; n];
            let mut igm = std::vec![0u32; n];
            sp.roots(logn, &mut gm, &mut igm);
            let (mut x, mut y) = (a.clone(), b.clone());
            Portable.ntt_mp31(sp, &mut x, &gm);
            Portable.ntt_mp31(sp, &mut y, &gm);
            for (u, v) in x.iter_mut().zip(&y) {
                *u = sp.mul(*u, *v);
            }
            Portable.intt_mp31(sp, &mut x, &igm);
            for i in 0..n {
                assert_eq!(x[i] as u64, want[i], "logn {logn}");
            }
        }
    }
}
