//! Fixed-point (integer-only) FFT for key generation: values are `i64`
//! scaled by a caller-chosen power of two, twiddle factors are `i64` with 62
//! fractional bits (converted at compile time from the root table), and
//! products go through `i128`. No floating-point operation runs.

use crate::fft_table::ROOTS;

const fn to_q62(x: f64) -> i64 {
    // Compile-time conversion of the table (|x| <= 1).
    let y = x * 4611686018427387904.0; // 2^62
    if y >= 0.0 {
        (y + 0.5) as i64
    } else {
        (y - 0.5) as i64
    }
}

static ROOTS_Q62: [(i64, i64); 512] = {
    let mut t = [(0i64, 0i64); 512];
    let mut i = 0;
    while i < 512 {
        t[i] = (to_q62(ROOTS[i].0), to_q62(ROOTS[i].1));
        i += 1;
    }
    t
};

#[inline(always)]
fn mul_q62(a: i64, b: i64) -> i128 {
    a as i128 * b as i128
}

#[inline(always)]
fn round_shr(x: i128, s: u32) -> i64 {
    ((x + (1i128 << (s - 1))) >> s) as i64
}

#[inline(always)]
fn cmul(ar: i64, ai: i64, br: i64, bi: i64) -> (i64, i64) {
    (
        round_shr(mul_q62(ar, br) - mul_q62(ai, bi), 62),
        round_shr(mul_q62(ar, bi) + mul_q62(ai, br), 62),
    )
}

/// Forward FFT (same ordering as `fft::fft`), `a.len() = m >= 2`.
pub(crate) fn fft(a: &mut [i64]) {
    let n = a.len();
    let hn = n >> 1;
    let (re, im) = a.split_at_mut(hn);
    let mut t = hn;
    let mut m = 1;
    while m < hn {
        let ht = t >> 1;
        for i1 in 0..m {
            let (sr, si) = ROOTS_Q62[m + i1];
            let j1 = i1 * t;
            for j in j1..j1 + ht {
                let (xr, xi) = (re[j], im[j]);
                let (yr, yi) = cmul(re[j + ht], im[j + ht], sr, si);
                re[j] = xr.wrapping_add(yr);
                im[j] = xi.wrapping_add(yi);
                re[j + ht] = xr.wrapping_sub(yr);
                im[j + ht] = xi.wrapping_sub(yi);
            }
        }
        t = ht;
        m <<= 1;
    }
}

/// Inverse FFT, halving at each layer (no growth, no final scaling).
pub(crate) fn ifft(a: &mut [i64]) {
    let n = a.len();
    let hn = n >> 1;
    let (re, im) = a.split_at_mut(hn);
    let mut t = 1;
    let mut m = hn;
    while m > 1 {
        let hm = m >> 1;
        let dt = t << 1;
        for i1 in 0..hm {
            let (sr, si) = ROOTS_Q62[hm + i1];
            let j1 = i1 * dt;
            for j in j1..j1 + t {
                let (xr, xi) = (re[j], im[j]);
                let (yr, yi) = (re[j + t], im[j + t]);
                re[j] = (xr >> 1).wrapping_add(yr >> 1);
                im[j] = (xi >> 1).wrapping_add(yi >> 1);
                let (dr, di) = (
                    (xr >> 1).wrapping_sub(yr >> 1),
                    (xi >> 1).wrapping_sub(yi >> 1),
                );
                let (zr, zi) = cmul(dr, di, sr, -si);
                re[j + t] = zr;
                im[j + t] = zi;
            }
        }
        t = dt;
        m = hm;
    }
}

/// `floor(a * 2^63 / d)` for `a < 2^126 <= d < 2^127` (so below 2^63):
/// one step of schoolbook division in base 2^64 (Knuth's algorithm D): the
/// quotient estimated from the divisor's top digit is at most 2 too large
/// and corrected exactly.
fn quot63(a: u128, d: u128) -> u64 {
    // Normalise the divisor to a top bit at 127; the dividend becomes
    // a * 2^64 (two digits a_hi:a_lo and a zero digit).
    let dn = d << 1;
    let d1 = (dn >> 64) as u64;
    let d0 = dn as u64;
    let mut q = (a / d1 as u128) as u64; // a < 2^126, d1 >= 2^63: q < 2^63
    // q * dn as (hi, lo) with hi = q d1 + carry of q d0.
    let t0 = q as u128 * d0 as u128;
    let mut hi = q as u128 * d1 as u128 + (t0 >> 64);
    let mut lo = t0 as u64;
    // While q * dn > a * 2^64: q -= 1 (at most twice).
    for _ in 0..3 {
        if hi > a || (hi == a && lo > 0) {
            q -= 1;
            let (l, borrow) = lo.overflowing_sub(d0);
            lo = l;
            hi -= d1 as u128 + borrow as u128;
        }
    }
    q
}

/// `trunc(num * 2^fb / den)` for `den > 0` (`fb` may be negative),
/// saturated to `+-2^62`, with a normalised one-digit division in base
/// 2^64 ([`quot63`]). Returns 0 when `den <= 0`. (Key generation is not
/// constant-time yet; this is one of the places that need the fixed-point
/// redesign.)
pub(crate) fn div_fixed(num: i128, den: i128, fb: i32) -> i64 {
    if den <= 0 || num == 0 {
        return 0;
    }
    let neg = num < 0;
    let a = num.unsigned_abs();
    let d = den as u128;
    // a' = a * 2^sa with top bit at 125, d' = d * 2^sd with top bit at 126.
    let sa = a.leading_zeros() as i32 - 2;
    let sd = d.leading_zeros() as i32 - 1;
    let a2 = if sa >= 0 { a << sa } else { a >> (-sa) };
    let d2 = d << sd;
    // q = floor(a2 * 2^63 / d2) < 2^63.
    let q = quot63(a2, d2);
    // a * 2^fb / d = q * 2^(fb + sd - sa - 63)
    let e = fb + sd - sa - 63;
    const SAT: u64 = 1 << 62;
    let r = if e >= 0 {
        if e >= 63 || q > (SAT >> e) {
            SAT
        } else {
            q << e
        }
    } else if -e >= 64 {
        0
    } else {
        q >> (-e)
    };
    let r = r.min(SAT) as i64;
    if neg { -r } else { r }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bit-by-bit restoring division: the definition of [`quot63`].
    fn quot63_restoring(a: u128, d: u128) -> u64 {
        let mut rem = a;
        let mut q = 0u64;
        for _ in 0..63 {
            rem <<= 1;
            let bit = rem >= d;
            if bit {
                rem -= d;
            }
            q = (q << 1) | bit as u64;
        }
        q
    }

    #[test]
    fn quot63_matches_restoring_division() {
        let mut s = 0x0123_4567_89AB_CDEFu64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for i in 0..100_000 {
            let d = (1u128 << 126) | (((next() as u128) << 64 | next() as u128) >> 2);
            let a = (((next() as u128) << 64) | next() as u128) >> (2 + (i % 70));
            // Near-equal operands and exact multiples too.
            let a = match i % 5 {
                0 => d - 1 - (a >> 100),
                1 => (d >> (1 + i % 40)) & !((1u128 << (i % 60)) - 1),
                _ => a,
            } & ((1u128 << 126) - 1);
            assert_eq!(quot63(a, d), quot63_restoring(a, d), "{a:x} / {d:x}");
        }
    }

    #[test]
    fn division() {
        assert_eq!(div_fixed(7, 2, 0), 3);
        assert_eq!(div_fixed(-7, 2, 0), -3);
        assert_eq!(div_fixed(1, 3, 10), 341);
        assert_eq!(div_fixed(1 << 100, 1 << 90, 4), 1 << 14);
        assert_eq!(
            div_fixed(12345678901234567890123, 987654321, 8),
            (12345678901234567890123i128 * 256 / 987654321) as i64
        );
        assert_eq!(div_fixed(1 << 120, 1, 0), 1 << 62);
    }

    #[test]
    fn fixed_fft_matches_float() {
        for logn in 1..=10 {
            let n = 1usize << logn;
            let v: std::vec::Vec<i64> = (0..n)
                .map(|i| ((i * 7919 % 255) as i64 - 127) << 10)
                .collect();
            let mut a = v.clone();
            fft(&mut a);
            let mut b: std::vec::Vec<f64> = v.iter().map(|&x| x as f64).collect();
            crate::fft::fft(&mut b);
            for (x, y) in a.iter().zip(&b) {
                assert!((*x as f64 - y).abs() < 64.0, "logn {logn}");
            }
            ifft(&mut a);
            // ifft halves per layer: total scale 2^-(logn-1) is already applied.
            for (x, y) in a.iter().zip(&v) {
                assert!((x - y).abs() < 64, "logn {logn}: {x} vs {y}");
            }
        }
    }
}
