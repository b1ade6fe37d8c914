//! Signed 16-bit Montgomery and Barrett arithmetic shared by the two 16-bit
//! rings (q = 3329 and q = 12289), with `R = 2^16`.
//!
//! Everything here is branch-free and division-free on its inputs; the
//! `const fn` table builders run at compile time only.

/// A 16-bit odd modulus with its Montgomery and Barrett constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mod16 {
    /// The modulus `q < 2^14`.
    pub q: i16,
    /// `q^-1 mod 2^16` as a signed 16-bit value.
    pub qinv: i16,
    /// `round(2^26 / q)` for Barrett reduction.
    pub barrett_v: i32,
}

impl Mod16 {
    /// Build the constants for an odd `q < 2^14` (compile time).
    pub const fn new(q: i16) -> Self {
        // q^-1 mod 2^16 by Newton iteration (q odd).
        let mut inv: u32 = 1;
        let mut i = 0;
        while i < 5 {
            inv = inv.wrapping_mul(2u32.wrapping_sub((q as u32).wrapping_mul(inv)));
            i += 1;
        }
        Mod16 {
            q,
            qinv: (inv & 0xffff) as u16 as i16,
            barrett_v: ((1i32 << 26) + (q as i32) / 2) / (q as i32),
        }
    }

    /// Montgomery reduction: for `|a| < q 2^15`, returns `r = a 2^-16 mod q`
    /// with `|r| < q`.
    #[inline(always)]
    pub const fn montgomery_reduce(self, a: i32) -> i16 {
        let t = (a as i16).wrapping_mul(self.qinv);
        ((a - (t as i32) * (self.q as i32)) >> 16) as i16
    }

    /// `a b 2^-16 mod q`, `|result| < q` (for `|a b| < q 2^15`).
    #[inline(always)]
    pub const fn fqmul(self, a: i16, b: i16) -> i16 {
        self.montgomery_reduce(a as i32 * b as i32)
    }

    /// Barrett reduction: the representative of `a` in `[-(q-1)/2, (q-1)/2]`
    /// (approximately centred; `|r| <= q/2 + 1`) for any `i16` input.
    #[inline(always)]
    pub const fn barrett_reduce(self, a: i16) -> i16 {
        let t = ((self.barrett_v * a as i32 + (1 << 25)) >> 26) as i16;
        a.wrapping_sub(t.wrapping_mul(self.q))
    }

    /// The canonical representative in `[0, q)` of any `i16`.
    #[inline(always)]
    pub const fn canonical(self, a: i16) -> i16 {
        let r = self.barrett_reduce(a);
        r + ((r >> 15) & self.q)
    }

    /// `x^e mod q` (compile-time table building; public exponents only).
    pub const fn pow(self, x: i64, e: u64) -> i64 {
        pow_mod(x, e, self.q as i64)
    }

    /// `x 2^16 mod q`, centred in `(-q/2, q/2]` (compile time).
    pub const fn to_mont_centred(self, x: i64) -> i16 {
        let q = self.q as i64;
        let mut r = (x.rem_euclid(q) << 16) % q;
        if r > q / 2 {
            r -= q;
        }
        r as i16
    }
}

/// `x^e mod q` for `q < 2^31` (compile-time table building for every ring;
/// square-and-multiply over public exponents only).
pub const fn pow_mod(x: i64, mut e: u64, q: i64) -> i64 {
    let mut base = x.rem_euclid(q);
    let mut acc = 1i64;
    while e > 0 {
        if e & 1 == 1 {
            acc = acc * base % q;
        }
        base = base * base % q;
        e >>= 1;
    }
    acc
}

/// Reverse the low `bits` bits of `k`.
pub const fn bitrev(k: usize, bits: u32) -> usize {
    let mut r = 0;
    let mut i = 0;
    while i < bits {
        r |= ((k >> i) & 1) << (bits - 1 - i);
        i += 1;
    }
    r
}

/// `table[k] = root^bitrev(k, bits) 2^16 mod q` (centred), for `k < M`.
pub const fn zeta_table<const M: usize>(m: Mod16, root: i64, bits: u32) -> [i16; M] {
    let mut t = [0i16; M];
    let mut k = 0;
    while k < M {
        t[k] = m.to_mont_centred(m.pow(root, bitrev(k, bits) as u64));
        k += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants() {
        let m = Mod16::new(3329);
        assert_eq!(m.qinv, -3327);
        assert_eq!(m.barrett_v, 20159);
        let m = Mod16::new(12289);
        assert_eq!(m.qinv, -12287);
        assert_eq!(m.barrett_v, 5461);
    }

    #[test]
    fn reductions_exhaustive() {
        for m in [Mod16::new(3329), Mod16::new(12289)] {
            let q = m.q as i32;
            for a in i16::MIN..=i16::MAX {
                let r = m.barrett_reduce(a) as i32;
                assert_eq!((r - a as i32).rem_euclid(q), 0);
                assert!(r.abs() <= q / 2 + 1, "barrett {a} -> {r}");
                let c = m.canonical(a) as i32;
                assert!((0..q).contains(&c) && (c - a as i32).rem_euclid(q) == 0);
            }
            // Montgomery: r 2^16 == a mod q, |r| < q, over a sample grid.
            let mut a: i32 = -(q << 15) + 1;
            while a < (q << 15) {
                let r = m.montgomery_reduce(a) as i64;
                assert!(r.abs() < q as i64);
                assert_eq!(((r << 16) - a as i64).rem_euclid(q as i64), 0);
                a += 9973;
            }
        }
    }
}
