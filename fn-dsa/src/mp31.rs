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
//! and the CRT constant `1 / (p_0 ... p_{j-1}) mod p_j`.

/// One modulus and its constants (all residues in `[0, p)`).
#[derive(Clone, Copy)]
pub(crate) struct SmallPrime {
    pub(crate) p: u32,
    /// `-1 / p mod 2^32`.
    pub(crate) p0i: u32,
    /// `2^64 mod p` (Montgomery form of `R`): `mmul(x, r2) = x R`.
    pub(crate) r2: u32,
    /// A primitive 2048-th root of 1 (so `g^1024 = -1`), Montgomery form.
    pub(crate) g: u32,
    /// `1 / g`, Montgomery form.
    pub(crate) ig: u32,
    /// `1 / (p_0 p_1 ... p_{j-1}) mod p_j`, Montgomery form (1 for `j = 0`).
    pub(crate) s: u32,
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

/// `-1 / x mod 2^32` for odd `x`, by Newton iteration (`x` itself is an
/// inverse mod 8; each step doubles the correct bits).
pub(crate) const fn ninv32(x: u32) -> u32 {
    let mut y = x;
    let mut i = 0;
    while i < 4 {
        y = y.wrapping_mul(2u32.wrapping_sub(x.wrapping_mul(y)));
        i += 1;
    }
    y.wrapping_neg()
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
        p: p as u32,
        p0i: ninv32(p as u32),
        r2: (r * r % p) as u32,
        g: (g * r % p) as u32,
        ig: (ig * r % p) as u32,
        s: (s * r % p) as u32,
    }
}

const fn build_primes() -> [SmallPrime; NUM_PRIMES] {
    let mut t = [SmallPrime {
        p: 0,
        p0i: 0,
        r2: 0,
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
                prod = prod * (t[i].p as u64) % c;
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

/// All-ones if the top bit of `x` is set, else zero.
#[inline(always)]
pub(crate) const fn tbmask(x: u32) -> u32 {
    ((x as i32) >> 31) as u32
}

impl SmallPrime {
    /// Signed `v` (with `|v| < p`) to `[0, p)`.
    #[inline(always)]
    pub(crate) fn set(&self, v: i32) -> u32 {
        let w = v as u32;
        w.wrapping_add(self.p & tbmask(w))
    }

    /// Unsigned `v < 2p` to `[0, p)`.
    #[inline(always)]
    pub(crate) fn set_u(&self, v: u32) -> u32 {
        let w = v.wrapping_sub(self.p);
        w.wrapping_add(self.p & tbmask(w))
    }

    /// `[0, p)` to the centred representative in `(-p/2, p/2]`... as `i32`
    /// (`x > p/2` maps to `x - p`).
    #[inline(always)]
    pub(crate) fn norm(&self, x: u32) -> i32 {
        let c = tbmask(x.wrapping_sub((self.p + 1) >> 1));
        x.wrapping_sub(self.p & !c) as i32
    }

    #[inline(always)]
    pub(crate) fn add(&self, a: u32, b: u32) -> u32 {
        self.set_u(a.wrapping_add(b))
    }

    #[inline(always)]
    pub(crate) fn sub(&self, a: u32, b: u32) -> u32 {
        let d = a.wrapping_sub(b);
        d.wrapping_add(self.p & tbmask(d))
    }

    /// `a / 2 mod p`.
    #[inline(always)]
    pub(crate) fn half(&self, a: u32) -> u32 {
        a.wrapping_add(self.p & (a & 1).wrapping_neg()) >> 1
    }

    /// Montgomery product `a b / 2^32 mod p` (`a, b < p`, or one of them
    /// up to `2^32` with the other below `p`).
    #[inline(always)]
    pub(crate) fn mmul(&self, a: u32, b: u32) -> u32 {
        let z = a as u64 * b as u64;
        let w = (z as u32).wrapping_mul(self.p0i);
        let d = ((z + w as u64 * self.p as u64) >> 32) as u32;
        self.set_u(d)
    }

    /// Montgomery form of 1 (`2^32 mod p`).
    #[inline(always)]
    pub(crate) fn one_m(&self) -> u32 {
        self.p.wrapping_neg() << 1
    }

    /// `2^(31 e) mod p` (plain form): the weight of word `e` of a big
    /// integer with 31-bit words. `e` is public.
    pub(crate) fn pow2_31(&self, mut e: u32) -> u32 {
        // 2^31 in Montgomery form is 2^63 = (2^64 mod p) / 2.
        let mut x = self.half(self.r2);
        let mut d = 1;
        while e > 0 {
            if e & 1 == 1 {
                d = self.mmul(d, x);
            }
            x = self.mmul(x, x);
            e >>= 1;
        }
        d
    }

    /// Root tables for degree `2^logn`: `gm[rev(i)] = w^i` and
    /// `igm[rev(i)] = w^-i / 2` (Montgomery form), with `w` a primitive
    /// `2^(logn+1)`-th root and `rev` the bit reversal over `logn` bits.
    /// The halving in `igm` makes the inverse NTT scale by `1/n` on its own.
    pub(crate) fn roots(&self, logn: u32, gm: &mut [u32], igm: &mut [u32]) {
        let (w, iw) = self.primitive_root(logn);
        let n = 1usize << logn;
        let mut x = self.one_m();
        let mut y = self.half(self.one_m());
        for i in 0..n {
            let v = rev(i, logn);
            gm[v] = x;
            igm[v] = y;
            x = self.mmul(x, w);
            y = self.mmul(y, iw);
        }
    }

    /// Forward roots only (see `roots`).
    pub(crate) fn roots_fwd(&self, logn: u32, gm: &mut [u32]) {
        let (w, _) = self.primitive_root(logn);
        let mut x = self.one_m();
        for i in 0..(1usize << logn) {
            gm[rev(i, logn)] = x;
            x = self.mmul(x, w);
        }
    }

    fn primitive_root(&self, logn: u32) -> (u32, u32) {
        let (mut w, mut iw) = (self.g, self.ig);
        for _ in logn..10 {
            w = self.mmul(w, w);
            iw = self.mmul(iw, iw);
        }
        (w, iw)
    }

    /// In-place NTT of degree `2^logn` (negacyclic): `a` in `[0, p)`,
    /// output in bit-reversed order, so that slots `2j` and `2j + 1` hold
    /// the values at two opposite roots `w, -w`. `gm` may come from a
    /// larger degree (its first `2^logn` entries are the same).
    pub(crate) fn ntt(&self, logn: u32, a: &mut [u32], gm: &[u32]) {
        let n = 1usize << logn;
        let mut t = n;
        let mut m = 1;
        while m < n {
            let ht = t >> 1;
            for (i, blk) in a[..n].chunks_exact_mut(t).enumerate() {
                let s = gm[m + i];
                let (lo, hi) = blk.split_at_mut(ht);
                for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                    let u = *x;
                    let v = self.mmul(*y, s);
                    *x = self.add(u, v);
                    *y = self.sub(u, v);
                }
            }
            t = ht;
            m <<= 1;
        }
    }

    /// Inverse of `ntt` (with the `1/n` scaling), `igm` from `roots`.
    pub(crate) fn intt(&self, logn: u32, a: &mut [u32], igm: &[u32]) {
        let n = 1usize << logn;
        let mut t = 1;
        let mut m = n;
        while m > 1 {
            let hm = m >> 1;
            let dt = t << 1;
            for (i, blk) in a[..n].chunks_exact_mut(dt).enumerate() {
                let s = igm[hm + i];
                let (lo, hi) = blk.split_at_mut(t);
                for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                    let (u, v) = (*x, *y);
                    *x = self.half(self.add(u, v));
                    *y = self.mmul(self.sub(u, v), s);
                }
            }
            t = dt;
            m = hm;
        }
    }
}

/// Bit reversal of `i` over `logn` bits.
#[inline(always)]
pub(crate) fn rev(i: usize, logn: u32) -> usize {
    if logn == 0 {
        0
    } else {
        i.reverse_bits() >> (usize::BITS - logn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            sp.ntt(logn, &mut x, &gm);
            sp.ntt(logn, &mut y, &gm);
            for (u, v) in x.iter_mut().zip(&y) {
                *u = sp.mmul(sp.mmul(*u, *v), sp.r2);
            }
            sp.intt(logn, &mut x, &igm);
            for i in 0..n {
                assert_eq!(x[i] as u64, want[i], "logn {logn}");
            }
        }
    }
}
