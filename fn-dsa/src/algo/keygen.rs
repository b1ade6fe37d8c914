//! Key generation (integer and fixed-point arithmetic only): sample
//! `f, g`, check them, and solve the NTRU equation `f G - g F = q` with
//! the recursive field-norm method (Falcon spec section 3.8.2; the
//! sampling and acceptance rules follow the `fn-dsa` 0.3 / ntrugen design
//! so that the same RNG stream gives the same keys).

use crate::algo::ntru_solver;
use crate::algo::ring;
use crate::algo::sampler::Prng;
use crate::algo::signing_key::SecretParts;
use crate::algo::verify::PublicParts;
use alloc::vec;
use alloc::vec::Vec;
use pqkit_common::ct::declassify;
use rand_core::TryCryptoRng;
use zeroize::Zeroize;

/// Cumulative 16-bit tables for sampling `f` and `g` (discrete Gaussian of
/// `sigma = 1.17 sqrt(q / 2n)`), re-derived by `tools/constants.py`; the
/// logn 9 and 10 tables carry the two corrections of the fn-dsa 0.3 /
/// ntrugen design listed there. Degrees below 256 sum `2^(8 - logn)`
/// samples of the logn 8 table.
const GTAB_8: [u16; 48] = [
    1, 3, 6, 11, 22, 40, 73, 129, 222, 371, 602, 950, 1460, 2183, 3179, 4509, 6231, 8395, 11032,
    14150, 17726, 21703, 25995, 30487, 35048, 39540, 43832, 47809, 51385, 54503, 57140, 59304,
    61026, 62356, 63352, 64075, 64585, 64933, 65164, 65313, 65406, 65462, 65495, 65513, 65524,
    65529, 65532, 65534,
];
const GTAB_9: [u16; 34] = [
    1, 4, 11, 28, 65, 146, 308, 615, 1164, 2083, 3535, 5692, 8706, 12669, 17574, 23285, 29542,
    35993, 42250, 47961, 52866, 56829, 59843, 62000, 63452, 64371, 64920, 65227, 65389, 65470,
    65507, 65524, 65531, 65534,
];
const GTAB_10: [u16; 24] = [
    2, 8, 28, 94, 280, 742, 1761, 3753, 7197, 12472, 19623, 28206, 37329, 45912, 53063, 58338,
    61782, 63774, 64793, 65255, 65441, 65507, 65527, 65533,
];

/// Draws per batch of `sample_f` (degrees 256 and up).
const BATCH: usize = 32;

/// Sample `f` with odd parity (sum of coefficients odd), coefficients in
/// `[-127, 127]`.
fn sample_f(logn: u32, rng: &mut Prng, f: &mut [i8]) {
    let n = 1usize << logn;
    let (tab, zz): (&[u16], usize) = match logn {
        9 => (&GTAB_9, 1),
        10 => (&GTAB_10, 1),
        _ => (&GTAB_8, 1 << (8 - logn)),
    };
    let kmax = (tab.len() / 2) as i32;
    loop {
        let mut parity = 0u32;
        let mut i = 0;
        while i < n {
            // One draw per value (zz = 1): a batch of draws, no more than
            // the one-by-one loop would consume (every draw fills a slot
            // unless it is redrawn), with the table scan running across
            // the batch so that it vectorizes. Toy degrees sum zz draws
            // per value, one value at a time.
            let b = if zz == 1 { (n - i).min(BATCH) } else { 1 };
            let mut vs = [-kmax * zz as i32; BATCH];
            let mut ys = [0u32; BATCH];
            for _ in 0..zz {
                rng.fill_u16_le(&mut ys[..b]);
                // Eight lanes at a time (the unused lanes of a short
                // batch compute garbage that is never read).
                for (vc, yc) in vs.chunks_exact_mut(8).zip(ys.chunks_exact(8)) {
                    let mut acc = [0i32; 8];
                    for &t in tab {
                        for (a, &y) in acc.iter_mut().zip(yc) {
                            *a += ((t as u32).wrapping_sub(y) >> 31) as i32;
                        }
                    }
                    for (v, a) in vc.iter_mut().zip(acc) {
                        *v += a;
                    }
                }
            }
            for &v in &vs[..b] {
                // Out-of-range values are redrawn (practically never);
                // only this accept/reject bit of a sample is made public.
                if !declassify((-127..=127).contains(&v)) {
                    continue;
                }
                f[i] = v as i8;
                i += 1;
                parity ^= v as u32;
            }
            vs.zeroize();
            ys.zeroize();
        }
        // Public accept/reject decision of the candidate (parity).
        if declassify(parity & 1 == 1) {
            return;
        }
    }
}

/// `||(g, -f)||^2 < (1.17^2) q`, i.e. `< 16823` (integer squared norm).
fn check_norm(f: &[i8], g: &[i8]) -> bool {
    let sn: i32 = f.iter().chain(g).map(|&x| x as i32 * x as i32).sum();
    sn < 16823
}

/// Whether `f` is invertible modulo (q, X^n + 1): no NTT value is zero.
fn is_invertible(f: &[i8]) -> bool {
    let n = f.len().min(1024);
    let mut t = [0i16; 1024];
    for (x, &v) in t.iter_mut().zip(f) {
        *x = v as i16;
    }
    ring::ntt(&mut t[..n]);
    // Every value is scanned (no early exit).
    let zero = pqkit_common::q12289::scalar::has_zero(&t[..n]);
    t.zeroize();
    zero.unwrap_u8() == 0
}

/// Element-wise 32.32 division as a backend kernel.
struct DivFx<'a>(&'a mut [u64], &'a [u64]);

impl pqkit_common::Kernel for DivFx<'_> {
    type Output = ();
    fn run<B: pqkit_common::Backend>(self, b: B) {
        b.div_fx32_mp31(self.0, self.1);
    }
}

/// The 32.32 FFT (or, if `.1`, its inverse) on the backend's kernels.
struct FxFft<'a>(&'a mut [crate::algo::fixed_point::Fixed], bool);
impl pqkit_common::Kernel for FxFft<'_> {
    type Output = ();
    fn run<B: pqkit_common::Backend>(self, b: B) {
        if self.1 {
            crate::algo::fixed_point::ifft(b, self.0);
        } else {
            crate::algo::fixed_point::fft(b, self.0);
        }
    }
}

/// The orthogonalised norm check: the squared norm of
/// `(q adj(f), q adj(g)) / (f adj(f) + g adj(g))` must stay below
/// `1.17^2 q = 16822.4121`, computed in the 32.32 fixed-point arithmetic
/// of the fn-dsa 0.3 design (bit-exact, so that borderline candidates get
/// the same decision).
fn check_ortho_norm(f: &[i8], g: &[i8]) -> bool {
    use crate::algo::fixed_point::*;
    let n = f.len();
    let hn = n / 2;
    let mut fx: Vec<Fixed> = f.iter().map(|&x| of_i32(x as i32)).collect();
    let mut gx: Vec<Fixed> = g.iter().map(|&x| of_i32(x as i32)).collect();
    pqkit_common::dispatch(FxFft(&mut fx, false));
    pqkit_common::dispatch(FxFft(&mut gx, false));
    let mut inv = vec![of_i32(1); hn];
    let mut den = vec![0u64; hn];
    for (j, d) in den.iter_mut().enumerate() {
        let z1 = mul(fx[j], fx[j]).wrapping_add(mul(fx[j + hn], fx[j + hn]));
        let z2 = mul(gx[j], gx[j]).wrapping_add(mul(gx[j + hn], gx[j + hn]));
        *d = z1.wrapping_add(z2);
    }
    // inv = 1 / den, four divisions per step on the backend's kernel.
    pqkit_common::dispatch(DivFx(&mut inv, &den));
    den.zeroize();
    let q = of_i32(ring::Q as i32);
    for v in [&mut fx, &mut gx] {
        for x in v[hn..].iter_mut() {
            *x = x.wrapping_neg();
        }
        for x in v.iter_mut() {
            *x = mul(*x, q);
        }
        for j in 0..hn {
            v[j] = mul(v[j], inv[j]);
            v[j + hn] = mul(v[j + hn], inv[j]);
        }
        pqkit_common::dispatch(FxFft(v, true));
    }
    let mut sn = 0u64;
    for i in 0..n {
        sn = sn.wrapping_add(mul(fx[i], fx[i]).wrapping_add(mul(gx[i], gx[i])));
    }
    fx.zeroize();
    gx.zeroize();
    inv.zeroize();
    // Constant-time signed comparison `(sn as i64) < BOUND`: the sign of
    // the difference, corrected when the subtraction overflows.
    const BOUND: u64 = 72251709809335;
    let d = sn.wrapping_sub(BOUND);
    let lt = d ^ ((sn ^ BOUND) & (d ^ sn));
    (lt >> 63) == 1
}

/// Generate a key pair of degree `2^logn`: 32 bytes from `rng` seed a
/// SHAKE256 stream that drives everything else (as in fn-dsa 0.3).
pub(crate) fn keygen<R: TryCryptoRng + ?Sized>(
    logn: u32,
    rng: &mut R,
) -> Result<(SecretParts, PublicParts), R::Error> {
    let mut seed = [0u8; 32];
    if let Err(e) = rng.try_fill_bytes(&mut seed) {
        seed.zeroize();
        return Err(e);
    }
    let r = keygen_from_seed(logn, &seed);
    seed.zeroize();
    Ok(r)
}

/// Deterministic key generation from a 32-byte seed. Candidates are drawn
/// until one passes every check and completes to a key (as Falcon's key
/// generation is written: it cannot fail; a handful of candidates is the
/// expected cost, and a seed needing many more is as hard to find as a
/// SHAKE256 preimage).
pub(crate) fn keygen_from_seed(logn: u32, seed: &[u8]) -> (SecretParts, PublicParts) {
    let n = 1usize << logn;
    let mut prng = Prng::new(seed);
    let mut sk = SecretParts {
        logn,
        f: [0; 1024],
        g: [0; 1024],
        cap_f: [0; 1024],
        cap_g: [0; 1024],
    };
    loop {
        sample_f(logn, &mut prng, &mut sk.f[..n]);
        sample_f(logn, &mut prng, &mut sk.g[..n]);
        // Rejections only reveal that a discarded candidate was rejected:
        // each check's accept/reject bit is declassified, nothing else.
        if !declassify(check_norm(&sk.f[..n], &sk.g[..n])) {
            continue;
        }
        if !declassify(is_invertible(&sk.f[..n])) {
            continue;
        }
        if !declassify(check_ortho_norm(&sk.f[..n], &sk.g[..n])) {
            continue;
        }
        let (f, g) = (&sk.f[..n], &sk.g[..n]);
        if !ntru_solver::solve(logn, f, g, &mut sk.cap_f[..n], &mut sk.cap_g[..n]) {
            continue;
        }
        // G in range and the public key (a candidate whose G does not fit
        // is rejected like the others).
        if let Ok(vk) = sk.complete() {
            return (sk, vk);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The orthogonalised norm with f64, as a reference for the
    /// fixed-point check.
    fn ortho_value(f: &[i8], g: &[i8]) -> f64 {
        let n = f.len();
        let mut fx: Vec<f64> = f.iter().map(|&x| x as f64).collect();
        let mut gx: Vec<f64> = g.iter().map(|&x| x as f64).collect();
        crate::algo::fft::fft(&mut fx);
        crate::algo::fft::fft(&mut gx);
        let hn = n / 2;
        let mut s = 0.0;
        for j in 0..hn {
            let d =
                fx[j] * fx[j] + fx[j + hn] * fx[j + hn] + gx[j] * gx[j] + gx[j + hn] * gx[j + hn];
            s += 12289.0 * 12289.0 / d;
        }
        2.0 * s / n as f64
    }

    #[test]
    fn candidates_checks_and_solutions() {
        for logn in [2u32, 4, 6, 8, 9, 10] {
            let n = 1usize << logn;
            let mut prng = Prng::new(&[logn as u8; 32]);
            let mut f = vec![0i8; n];
            let mut g = vec![0i8; n];
            let mut solved = 0;
            for _ in 0..400 {
                sample_f(logn, &mut prng, &mut f);
                sample_f(logn, &mut prng, &mut g);
                // Odd parity.
                assert_eq!(f.iter().map(|&x| x as i32).sum::<i32>() & 1, 1);
                let ov = ortho_value(&f, &g);
                // The fixed-point check agrees with f64 away from the bound.
                if (ov - 16822.4121).abs() > 0.02 * 16822.4121 {
                    assert_eq!(
                        check_ortho_norm(&f, &g),
                        ov < 16822.4121,
                        "logn {logn}: {ov}"
                    );
                }
                if !check_norm(&f, &g) || !is_invertible(&f) || !check_ortho_norm(&f, &g) {
                    continue;
                }
                let (mut cf, mut cg) = (vec![0i8; n], vec![0i8; n]);
                if ntru_solver::solve(logn, &f, &g, &mut cf, &mut cg) {
                    // Exact check of f G - g F = q.
                    for k in 0..n {
                        let mut s = 0i64;
                        for i in 0..n {
                            let j = (k + n - i) % n;
                            let sign = if i + j >= n { -1 } else { 1 };
                            s += sign * (f[i] as i64 * cg[j] as i64 - g[i] as i64 * cf[j] as i64);
                        }
                        assert_eq!(s, if k == 0 { 12289 } else { 0 });
                    }
                    solved += 1;
                    if solved == 2 {
                        break;
                    }
                }
            }
            assert_eq!(solved, 2, "logn {logn}");
        }
    }
}
