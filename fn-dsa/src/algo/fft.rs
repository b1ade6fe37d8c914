//! The FFT over `R[X]/(X^n + 1)` with native `f64` (strict IEEE-754 on
//! x86_64 and aarch64), and the polynomial operations of signing.
//!
//! Representation: a real polynomial of degree `n` is represented by its
//! values at the `n/2` roots of `X^(n/2) - i` (one root of each conjugate
//! pair of roots of `X^n + 1`), stored as `re[0..n/2] || im[0..n/2]` in a
//! slice of `n` values. The roots are ordered along the splitting tree
//! `X^m - v = (X^(m/2) - sqrt(v)) (X^(m/2) + sqrt(v))` (see
//! `fft_roots.rs`), so that [`split`] and [`merge`] (Falcon spec
//! section 3.6) pair adjacent entries.

use crate::algo::fft_roots::ROOTS;
use crate::algo::float::Float;

#[inline(always)]
fn root<F: Float>(j: usize) -> (F, F) {
    let (c, s) = ROOTS[j];
    (F::of(c), F::of(s))
}

#[inline(always)]
pub(crate) fn cmul<F: Float>(ar: F, ai: F, br: F, bi: F) -> (F, F) {
    (ar.mul(br).sub(ai.mul(bi)), ar.mul(bi).add(ai.mul(br)))
}

/// `(x, y) <- (x + y s, x - y s)` on complex values given as parts.
#[inline(always)]
fn butterfly<F: Float>(xr: &mut F, xi: &mut F, yr: &mut F, yi: &mut F, sr: F, si: F) {
    let (pr, pi) = cmul(*yr, *yi, sr, si);
    let (ar, ai) = (*xr, *xi);
    *xr = ar.add(pr);
    *xi = ai.add(pi);
    *yr = ar.sub(pr);
    *yi = ai.sub(pi);
}

/// In-place FFT of a real polynomial (`a.len() = n >= 2`, power of two).
pub(crate) fn fft<F: Float>(a: &mut [F]) {
    fft_inl(a)
}

/// [`fft`], inlined into its caller (so that a caller compiled for AVX2
/// gets a vectorised FFT).
#[inline(always)]
pub(crate) fn fft_inl<F: Float>(a: &mut [F]) {
    let n = a.len();
    let hn = n >> 1;
    let (re, im) = a.split_at_mut(hn);
    // (re[j] + i im[j]) is the polynomial modulo X^(n/2) - i (tree node 1).
    let mut t = hn;
    let mut m = 1;
    while m < hn {
        let ht = t >> 1;
        for i1 in 0..m {
            let (sr, si) = root::<F>(m + i1);
            let j1 = i1 * t;
            let (rl, rh) = re[j1..j1 + t].split_at_mut(ht);
            let (il, ih) = im[j1..j1 + t].split_at_mut(ht);
            if ht >= 4 {
                // Four butterflies at a time, on disjoint fixed-size chunks
                // (no bounds checks, no aliasing: vectorisable).
                for (((xr, xi), yr), yi) in rl
                    .chunks_exact_mut(4)
                    .zip(il.chunks_exact_mut(4))
                    .zip(rh.chunks_exact_mut(4))
                    .zip(ih.chunks_exact_mut(4))
                {
                    for k in 0..4 {
                        butterfly(&mut xr[k], &mut xi[k], &mut yr[k], &mut yi[k], sr, si);
                    }
                }
            } else {
                for k in 0..ht {
                    butterfly(&mut rl[k], &mut il[k], &mut rh[k], &mut ih[k], sr, si);
                }
            }
        }
        t = ht;
        m <<= 1;
    }
}

/// Inverse of [`fft`].
pub(crate) fn ifft<F: Float>(a: &mut [F]) {
    let n = a.len();
    let hn = n >> 1;
    let (re, im) = a.split_at_mut(hn);
    let mut t = 1;
    let mut m = hn;
    while m > 1 {
        let hm = m >> 1;
        let dt = t << 1;
        for i1 in 0..hm {
            let (sr, si) = root::<F>(hm + i1);
            let j1 = i1 * dt;
            for j in j1..j1 + t {
                let (xr, xi) = (re[j], im[j]);
                let (yr, yi) = (re[j + t], im[j + t]);
                re[j] = xr.add(yr);
                im[j] = xi.add(yi);
                // (x - y) / s = (x - y) * conj(s)
                let (dr, di) = cmul(xr.sub(yr), xi.sub(yi), sr, si.neg());
                re[j + t] = dr;
                im[j + t] = di;
            }
        }
        t = dt;
        m = hm;
    }
    if hn > 1 {
        // Each of the log2(n/2) layers doubled the values: multiply by the
        // exact power of two 2^-log2(n/2).
        let k = hn.trailing_zeros() as u64;
        let scale = F::from_bits((1023 - k) << 52);
        for x in re.iter_mut().chain(im.iter_mut()) {
            *x = x.mul(scale);
        }
    }
}

/// `a <- a + b`.
pub(crate) fn add<F: Float>(a: &mut [F], b: &[F]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x = x.add(*y);
    }
}

/// `a <- a * c` for a real constant `c`.
pub(crate) fn mul_const<F: Float>(a: &mut [F], c: F) {
    for x in a.iter_mut() {
        *x = x.mul(c);
    }
}

/// `a <- a * b` (FFT domain).
pub(crate) fn mul<F: Float>(a: &mut [F], b: &[F]) {
    let hn = a.len() >> 1;
    let (ar, ai) = a.split_at_mut(hn);
    let (br, bi) = b.split_at(hn);
    for j in 0..hn {
        let (r, i) = cmul(ar[j], ai[j], br[j], bi[j]);
        ar[j] = r;
        ai[j] = i;
    }
}

/// `d <- d + a * adj(b)` (FFT domain).
pub(crate) fn add_mul_adj<F: Float>(d: &mut [F], a: &[F], b: &[F]) {
    let hn = d.len() >> 1;
    for j in 0..hn {
        let (r, i) = cmul(a[j], a[j + hn], b[j], b[j + hn].neg());
        d[j] = d[j].add(r);
        d[j + hn] = d[j + hn].add(i);
    }
}

/// `d <- d + re(a * adj(b))` (FFT domain; `d` holds the `n/2` real
/// values of a self-adjoint result, e.g. `a * adj(a)`).
pub(crate) fn add_mul_adj_re<F: Float>(d: &mut [F], a: &[F], b: &[F]) {
    let hn = d.len();
    for j in 0..hn {
        let (r, _) = cmul(a[j], a[j + hn], b[j], b[j + hn].neg());
        d[j] = d[j].add(r);
    }
}

/// Split (Falcon spec Alg. 1, `splitfft`): `f(x) = f0(x^2) + x f1(x^2)`,
/// for `f.len() = n >= 4`; `f0`, `f1` have length `n/2`.
pub(crate) fn split<F: Float>(f0: &mut [F], f1: &mut [F], f: &[F]) {
    let n = f.len();
    let hn = n >> 1;
    let qn = hn >> 1;
    let half = F::of(0.5);
    for j in 0..qn {
        let (ar, ai) = (f[2 * j], f[2 * j + hn]);
        let (br, bi) = (f[2 * j + 1], f[2 * j + 1 + hn]);
        f0[j] = half.mul(ar.add(br));
        f0[j + qn] = half.mul(ai.add(bi));
        let (sr, si) = root::<F>(qn + j);
        let (r, i) = cmul(half.mul(ar.sub(br)), half.mul(ai.sub(bi)), sr, si.neg());
        f1[j] = r;
        f1[j + qn] = i;
    }
}

/// The two outputs of [`merge`] at the complex indices `2j` and `2j + 1`
/// (as `(real, imaginary)`), for `qn = n/4`.
#[inline(always)]
fn merge_at<F: Float>(f0: &[F], f1: &[F], j: usize, qn: usize) -> [(F, F); 2] {
    let (sr, si) = root::<F>(qn + j);
    let (yr, yi) = cmul(f1[j], f1[j + qn], sr, si);
    let (xr, xi) = (f0[j], f0[j + qn]);
    [(xr.add(yr), xi.add(yi)), (xr.sub(yr), xi.sub(yi))]
}

/// Merge (Falcon spec Alg. 2, `mergefft`), the inverse of [`split`].
pub(crate) fn merge<F: Float>(f: &mut [F], f0: &[F], f1: &[F]) {
    let n = f.len();
    let hn = n >> 1;
    let qn = hn >> 1;
    for j in 0..qn {
        let [(ar, ai), (br, bi)] = merge_at(f0, f1, j, qn);
        f[2 * j] = ar;
        f[2 * j + hn] = ai;
        f[2 * j + 1] = br;
        f[2 * j + 1 + hn] = bi;
    }
}

/// The merge-and-update step of fast Fourier sampling: with
/// `z = merge(f0, f1)` ([`merge`]), `t0 <- t0 + (t1 - z) l10` and
/// `t1 <- z`, in one pass and without a buffer for `z`. Each entry goes
/// through the same IEEE-754 operations, in the same order, as [`merge`],
/// the subtraction, [`mul`] and [`add`] run one after the other, so the
/// results are bit-identical to that sequence. `t0.len() = t1.len() =
/// l10.len() = n >= 4`; `f0`, `f1` have length `n/2`.
pub(crate) fn merge_update<F: Float>(t0: &mut [F], t1: &mut [F], l10: &[F], f0: &[F], f1: &[F]) {
    let n = t1.len();
    let hn = n >> 1;
    let qn = hn >> 1;
    for j in 0..qn {
        // z at the complex indices 2j and 2j + 1 (real part at k,
        // imaginary part at k + hn).
        let [z0, z1] = merge_at(f0, f1, j, qn);
        for (k, (zr, zi)) in [(2 * j, z0), (2 * j + 1, z1)] {
            let dr = t1[k].sub(zr);
            let di = t1[k + hn].sub(zi);
            let (r, i) = cmul(dr, di, l10[k], l10[k + hn]);
            t0[k] = t0[k].add(r);
            t0[k + hn] = t0[k + hn].add(i);
            t1[k] = zr;
            t1[k + hn] = zi;
        }
    }
}

/// Round to the nearest integer, ties to even, for `|x| < 2^51`: adding
/// `1.5 * 2^52` leaves the rounded value in the low mantissa bits. No
/// branch, no conditional move, no float-to-integer conversion.
#[inline(always)]
pub(crate) fn rint<F: Float>(x: F) -> i64 {
    const M: f64 = 6755399441055744.0; // 1.5 * 2^52
    (x.add(F::of(M)).to_bits() as i64).wrapping_sub(M.to_bits() as i64)
}

/// `floor(x)` for `|x| < 2^51`, branch-free.
#[inline(always)]
pub(crate) fn floor<F: Float>(x: F) -> i64 {
    let r = rint(x);
    // Subtract 1 when rounding went up (a flag, not a jump).
    r - x.lt(F::from_i64(r)) as i64
}

/// `floor(x * 2^63)` for `0 <= x <= 1`, branch-free (from the bits of
/// `x`; 0 for subnormal `x`).
#[inline(always)]
pub(crate) fn to_fixed63<F: Float>(x: F) -> u64 {
    let bits = x.to_bits();
    let ef = ((bits >> 52) & 0x7FF) as u32;
    // Implicit bit only for normal numbers (ef != 0).
    let implicit = core::hint::black_box(((ef | ef.wrapping_neg()) >> 31) as u64);
    let m = (bits & ((1u64 << 52) - 1)) | (implicit << 52);
    // x = m * 2^(ef - 1075); x * 2^63 = m * 2^(ef - 1012) = (m << 64) >> r
    // with r = 1076 - ef; cap r at 127 (then the result is 0).
    let r = 1076u32.wrapping_sub(ef);
    let over = ((127i32 - r as i32) >> 31) as u32; // all ones if r > 127
    let r = r ^ ((r ^ 127) & over);
    (((m as u128) << 64) >> r) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn negacyclic(a: &[f64], b: &[f64]) -> std::vec::Vec<f64> {
        let n = a.len();
        let mut r = std::vec![0.0; n];
        for i in 0..n {
            for j in 0..n {
                if i + j < n {
                    r[i + j] += a[i] * b[j];
                } else {
                    r[i + j - n] -= a[i] * b[j];
                }
            }
        }
        r
    }

    fn poly(n: usize, seed: u64) -> std::vec::Vec<f64> {
        let mut s = seed;
        (0..n)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((s >> 40) % 201) as f64 - 100.0
            })
            .collect()
    }

    #[test]
    fn fft_product_and_round_trip() {
        for logn in 1..=10 {
            let n = 1usize << logn;
            let a = poly(n, logn as u64);
            let b = poly(n, 100 + logn as u64);
            let want = negacyclic(&a, &b);
            let mut fa = a.clone();
            let mut fb = b.clone();
            fft(&mut fa);
            fft(&mut fb);
            mul(&mut fa, &fb);
            ifft(&mut fa);
            for (x, y) in fa.iter().zip(&want) {
                assert!((x - y).abs() < 1e-6, "logn {logn}: {x} vs {y}");
            }
            let mut c = a.clone();
            fft(&mut c);
            ifft(&mut c);
            for (x, y) in c.iter().zip(&a) {
                assert!((x - y).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn split_merge_match_coefficients() {
        for logn in 2..=10 {
            let n = 1usize << logn;
            let a = poly(n, 7 * logn as u64);
            let mut fa = a.clone();
            fft(&mut fa);
            let mut f0 = std::vec![0.0; n / 2];
            let mut f1 = std::vec![0.0; n / 2];
            split(&mut f0, &mut f1, &fa);
            let mut back = std::vec![0.0; n];
            merge(&mut back, &f0, &f1);
            for (x, y) in back.iter().zip(&fa) {
                assert!((x - y).abs() < 1e-7);
            }
            if logn >= 3 {
                ifft(&mut f0);
                ifft(&mut f1);
            }
            for j in 0..n / 2 {
                assert!((f0[j] - a[2 * j]).abs() < 1e-7, "logn {logn}");
                assert!((f1[j] - a[2 * j + 1]).abs() < 1e-7, "logn {logn}");
            }
        }
    }

    #[test]
    fn rounding_helpers() {
        for (x, r) in [
            (0.5, 0),
            (1.5, 2),
            (2.5, 2),
            (-0.5, 0),
            (-1.5, -2),
            (-2.6, -3),
            (3.49, 3),
            (-0.0, 0),
        ] {
            assert_eq!(rint(x), r, "{x}");
        }
        for (x, r) in [
            (0.5, 0),
            (-0.5, -1),
            (-2.0, -2),
            (7.99, 7),
            (-7.01, -8),
            (1234.5, 1234),
            (-1234.5, -1235),
        ] {
            assert_eq!(floor(x), r, "{x}");
        }
        for x in [
            0.0,
            1e-300,
            0.25,
            0.5,
            core::f64::consts::LN_2,
            0.999999,
            1.0,
        ] {
            let want = (x * 9223372036854775808.0) as u64;
            assert_eq!(to_fixed63(x), want, "{x}");
        }
    }
}
