//! Key generation (integer and fixed-point arithmetic only): sample
//! `f, g`, check them, and solve the NTRU equation `f G - g F = q` with
//! the recursive field-norm method (Falcon spec section 3.8.2; the
//! sampling and acceptance rules follow the `fn-dsa` 0.3 / ntrugen design
//! so that the same RNG stream gives the same keys).

use crate::fxp;
use crate::sampler::Prng;
use crate::skey::SkCore;
use crate::zint::{self, BigPoly};
use crate::{Error, ring};
use alloc::vec;
use alloc::vec::Vec;
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
            let mut v = 0i32;
            for _ in 0..zz {
                let y = rng.next_u16_le() as u32;
                v -= kmax;
                for &t in tab {
                    v += ((t as u32).wrapping_sub(y) >> 31) as i32;
                }
            }
            // Out-of-range values are redrawn (practically never).
            if !(-127..=127).contains(&v) {
                continue;
            }
            f[i] = v as i8;
            i += 1;
            parity ^= v as u32;
        }
        if parity & 1 == 1 {
            return;
        }
    }
}

/// `||(g, -f)||^2 < (1.17^2) q`, i.e. `< 16823` (integer squared norm).
fn check_norm(f: &[i8], g: &[i8]) -> bool {
    let sn: i32 = f.iter().chain(g).map(|&x| x as i32 * x as i32).sum();
    sn < 16823
}

fn is_invertible(f: &[i8]) -> bool {
    let n = f.len();
    let mut t = vec![0u16; n];
    for (x, &v) in t.iter_mut().zip(f) {
        *x = ring::from_signed(v as i32);
    }
    ring::ntt(&mut t);
    // Scan every value (no early exit): 1 in `zero` iff some value is 0.
    let zero = t
        .iter()
        .fold(0u32, |z, &x| z | ((x as u32).wrapping_sub(1) >> 31));
    t.zeroize();
    zero == 0
}

/// 32.32 fixed-point arithmetic of the fn-dsa 0.3 / ntrugen design (values
/// are two's complement `u64` with 32 fractional bits), used for the
/// orthogonalised-norm check so that borderline candidates are accepted or
/// rejected exactly as there.
mod fxr {
    use crate::fft_table::ROOTS;

    pub(super) type Fxr = u64;

    pub(super) const fn of_i32(j: i32) -> Fxr {
        ((j as u32) as u64) << 32
    }

    #[inline(always)]
    pub(super) fn mul(a: Fxr, b: Fxr) -> Fxr {
        (((a as i64 as i128) * (b as i64 as i128)) >> 32) as u64
    }

    #[inline(always)]
    pub(super) fn half(a: Fxr) -> Fxr {
        ((a.wrapping_add(1) as i64) >> 1) as u64
    }

    /// `round(x * 2^32 / y)` (halves rounded up in magnitude), signed.
    pub(super) fn div(x: Fxr, y: Fxr) -> Fxr {
        let sx = ((x as i64) >> 63) as u64;
        let sy = ((y as i64) >> 63) as u64;
        let ax = (x ^ sx).wrapping_sub(sx);
        let ay = (y ^ sy).wrapping_sub(sy);
        if ay == 0 {
            return u64::MAX;
        }
        let n = (ax as u128) << 32;
        let q = n / ay as u128;
        let r = n % ay as u128;
        let q = (q as u64).wrapping_add((2 * r >= ay as u128) as u64);
        let s = sx ^ sy;
        (q ^ s).wrapping_sub(s)
    }

    /// `s * y` with three multiplications, in this order.
    #[inline(always)]
    fn cmul(sr: Fxr, si: Fxr, yr: Fxr, yi: Fxr) -> (Fxr, Fxr) {
        let z0 = mul(sr, yr);
        let z1 = mul(si, yi);
        let z2 = mul(sr.wrapping_add(si), yr.wrapping_add(yi));
        (z0.wrapping_sub(z1), z2.wrapping_sub(z0.wrapping_add(z1)))
    }

    /// Twiddle `j` of the FFT tree (see `fft_table.rs`) rounded to 32.32.
    fn root(j: usize) -> (Fxr, Fxr) {
        let q = |x: f64| -> Fxr {
            let y = x * 4294967296.0;
            let r = if y >= 0.0 {
                (y + 0.5) as i64
            } else {
                -((-y + 0.5) as i64)
            };
            r as u64
        };
        (q(ROOTS[j].0), q(ROOTS[j].1))
    }

    pub(super) fn fft(a: &mut [Fxr]) {
        let hn = a.len() / 2;
        let (re, im) = a.split_at_mut(hn);
        let mut t = hn;
        let mut m = 1;
        while m < hn {
            let ht = t / 2;
            for i1 in 0..m {
                let (sr, si) = root(m + i1);
                let j1 = i1 * t;
                for j in j1..j1 + ht {
                    let (zr, zi) = cmul(sr, si, re[j + ht], im[j + ht]);
                    let (xr, xi) = (re[j], im[j]);
                    re[j] = xr.wrapping_add(zr);
                    im[j] = xi.wrapping_add(zi);
                    re[j + ht] = xr.wrapping_sub(zr);
                    im[j + ht] = xi.wrapping_sub(zi);
                }
            }
            t = ht;
            m *= 2;
        }
    }

    pub(super) fn ifft(a: &mut [Fxr]) {
        let hn = a.len() / 2;
        let (re, im) = a.split_at_mut(hn);
        let mut t = 1;
        let mut m = hn;
        while m > 1 {
            let hm = m / 2;
            for i1 in 0..hm {
                let (sr, si) = root(hm + i1);
                let si = si.wrapping_neg();
                let j1 = i1 * 2 * t;
                for j in j1..j1 + t {
                    let (xr, xi) = (re[j], im[j]);
                    let (yr, yi) = (re[j + t], im[j + t]);
                    re[j] = half(xr.wrapping_add(yr));
                    im[j] = half(xi.wrapping_add(yi));
                    let (dr, di) = (half(xr.wrapping_sub(yr)), half(xi.wrapping_sub(yi)));
                    let (zr, zi) = cmul(sr, si, dr, di);
                    re[j + t] = zr;
                    im[j + t] = zi;
                }
            }
            t *= 2;
            m = hm;
        }
    }
}

/// The orthogonalised norm check: the squared norm of
/// `(q adj(f), q adj(g)) / (f adj(f) + g adj(g))` must stay below
/// `1.17^2 q = 16822.4121`, computed in the 32.32 fixed-point arithmetic
/// of the fn-dsa 0.3 design (bit-exact, so that borderline candidates get
/// the same decision).
fn check_ortho_norm(f: &[i8], g: &[i8]) -> bool {
    use fxr::*;
    let n = f.len();
    let hn = n / 2;
    let mut fx: Vec<Fxr> = f.iter().map(|&x| of_i32(x as i32)).collect();
    let mut gx: Vec<Fxr> = g.iter().map(|&x| of_i32(x as i32)).collect();
    fft(&mut fx);
    fft(&mut gx);
    let mut inv = vec![0u64; hn];
    for j in 0..hn {
        let z1 = mul(fx[j], fx[j]).wrapping_add(mul(fx[j + hn], fx[j + hn]));
        let z2 = mul(gx[j], gx[j]).wrapping_add(mul(gx[j + hn], gx[j + hn]));
        inv[j] = div(of_i32(1), z1.wrapping_add(z2));
    }
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
        ifft(v);
    }
    let mut sn = 0u64;
    for i in 0..n {
        sn = sn.wrapping_add(mul(fx[i], fx[i]).wrapping_add(mul(gx[i], gx[i])));
    }
    fx.zeroize();
    gx.zeroize();
    inv.zeroize();
    (sn as i64) < 72251709809335
}

/// Top bits of every coefficient of `p` (shifted right by `e`), scaled
/// left so that the FFT (growth below `2^logm`) stays below 2^62. Returns
/// the values and the scale (fractional bits).
fn to_fixed(p: &BigPoly, e: u32, logm: u32) -> (Vec<i64>, i32) {
    let v: Vec<i64> = (0..p.m).map(|i| p.top_i64(i, e)).collect();
    let bits = v
        .iter()
        .map(|&x| 64 - x.unsigned_abs().leading_zeros())
        .max()
        .unwrap_or(0);
    let fb = 61i32 - logm as i32 - bits as i32;
    let fb = fb.max(0);
    (v.iter().map(|&x| x << fb).collect(), fb)
}

/// Babai-reduce `(F, G)` against `(f, g)`: repeatedly subtract
/// `k (f, g)` with `k ~ round((F adj f + G adj g) / (f adj f + g adj g))`
/// computed on the top bits with the fixed-point FFT.
fn reduce(cf: &mut BigPoly, cg: &mut BigPoly, f: &BigPoly, g: &BigPoly) -> bool {
    let m = f.m;
    let hm = m / 2;
    let logm = m.trailing_zeros();
    // Keep at most TOP significant bits of each side: values below
    // 2^(TOP + 1), times 2^fb >= 1, and the FFT's growth of at most
    // 2^logm (logm <= 10) stay below 2^61 when TOP <= 50. More bits give
    // better quotients, hence fewer reduction rounds.
    const TOP: u32 = 48;
    let (fbits, gbits) = (f.max_bits(), g.max_bits());
    let bf = fbits.max(gbits);
    let ef = bf.saturating_sub(TOP);
    let (mut fa, fbf) = to_fixed(f, ef, logm);
    let (mut ga, fbg) = to_fixed(g, ef, logm);
    // Same scale for f and g.
    let fbf2 = fbf.min(fbg);
    for x in fa.iter_mut() {
        *x >>= fbf - fbf2;
    }
    for x in ga.iter_mut() {
        *x >>= fbg - fbf2;
    }
    let fbf = fbf2;
    fxp::fft(&mut fa);
    fxp::fft(&mut ga);
    let den: Vec<i128> = (0..hm)
        .map(|j| {
            fa[j] as i128 * fa[j] as i128
                + fa[j + hm] as i128 * fa[j + hm] as i128
                + ga[j] as i128 * ga[j] as i128
                + ga[j + hm] as i128 * ga[j + hm] as i128
        })
        .collect();
    let mut k = vec![0i64; m];
    let mut num = vec![(0i128, 0i128); hm];
    let mut ok = false;
    let mut bc = cf.max_bits().max(cg.max_bits());
    for _ in 0..4096 {
        let ec = bc.saturating_sub(TOP);
        let (mut fc, fb1) = to_fixed(cf, ec, logm);
        let (mut gc, fb2) = to_fixed(cg, ec, logm);
        let fbc = fb1.min(fb2);
        for x in fc.iter_mut() {
            *x >>= fb1 - fbc;
        }
        for x in gc.iter_mut() {
            *x >>= fb2 - fbc;
        }
        fxp::fft(&mut fc);
        fxp::fft(&mut gc);
        // num_j = F_j adj(f_j) + G_j adj(g_j); each term is below 2^124.
        let mut qbits = i32::MIN;
        for j in 0..hm {
            let (fr, fi, gr, gi) = (
                fa[j] as i128,
                fa[j + hm] as i128,
                ga[j] as i128,
                ga[j + hm] as i128,
            );
            let (cr, ci, dr, di) = (
                fc[j] as i128,
                fc[j + hm] as i128,
                gc[j] as i128,
                gc[j + hm] as i128,
            );
            let nr = (cr * fr + ci * fi).wrapping_add(dr * gr + di * gi);
            let ni = (ci * fr - cr * fi).wrapping_add(di * gr - dr * gi);
            num[j] = (nr, ni);
            let nb = 128 - (nr.unsigned_abs() | ni.unsigned_abs()).leading_zeros() as i32;
            let db = 128 - den[j].unsigned_abs().leading_zeros() as i32;
            qbits = qbits.max(nb - db + 1);
        }
        // k_fix = k * 2^kb with k in units of 2^(ec - ef); num / den
        // carries the scale 2^(fbc - fbf). Keep |k_fix| below 2^61.
        let qbits = qbits - (fbc - fbf);
        let kb = (61 - qbits).min(60);
        for j in 0..hm {
            let (nr, ni) = num[j];
            k[j] = fxp::div_fixed(nr, den[j], kb - (fbc - fbf));
            k[j + hm] = fxp::div_fixed(ni, den[j], kb - (fbc - fbf));
        }
        fc.zeroize();
        gc.zeroize();
        fxp::ifft(&mut k);
        // True k = k_fix * 2^(ec - ef - kb).
        let s = ec as i64 - ef as i64 - kb as i64;
        let (shift, kk): (u32, Vec<i64>) = if s >= 0 {
            (s as u32, k.clone())
        } else {
            let r = (-s).min(63) as u32;
            (
                0,
                k.iter()
                    .map(|&x| ((x as i128 + (1i128 << (r - 1))) >> r) as i64)
                    .collect(),
            )
        };
        if kk.iter().all(|&x| x == 0) {
            ok = true;
            break;
        }
        let kp = BigPoly::from_i64(&kk);
        let (save_f, save_g) = (cf.clone(), cg.clone());
        let (kf, kfbits) = kp.mul_known(f, fbits);
        let (kg, kgbits) = kp.mul_known(g, gbits);
        cf.sub_shifted_known(&kf, shift, kfbits);
        cg.sub_shifted_known(&kg, shift, kgbits);
        let (tf, bfc) = cf.trimmed_bits();
        let (tg, bgc) = cg.trimmed_bits();
        *cf = tf;
        *cg = tg;
        let new_bc = bfc.max(bgc);
        if new_bc > bc {
            // The approximate step no longer shrinks (F, G) (the last
            // steps on an ill-conditioned (f, g)): keep the previous,
            // already reduced, values.
            *cf = save_f;
            *cg = save_g;
            ok = true;
            break;
        }
        bc = new_bc;
    }
    fa.zeroize();
    ga.zeroize();
    k.zeroize();
    for x in num.iter_mut() {
        *x = (0, 0);
    }
    ok
}

/// Solve `f G - g F = q` with `F, G` in `[-127, 127]`.
fn solve_ntru(logn: u32, f: &[i8], g: &[i8]) -> Option<(Vec<i8>, Vec<i8>)> {
    let n = 1usize << logn;
    // Field norms down to degree 1.
    let mut fs = vec![BigPoly::from_i8(f)];
    let mut gs = vec![BigPoly::from_i8(g)];
    for d in 0..logn as usize {
        let nf = fs[d].field_norm().trimmed();
        let ng = gs[d].field_norm().trimmed();
        fs.push(nf);
        gs.push(ng);
    }
    // Deepest level: integers Rf, Rg > 0; Rf u - Rg v = 1 gives
    // (F, G) = (q v, q u).
    let rf = &fs[logn as usize];
    let rg = &gs[logn as usize];
    let w = rf.w.max(rg.w) + 1;
    let (u, v) = zint::bezout(&rf.resized(w).d, &rg.resized(w).d)?;
    // u <= Rg and v <= Rf leave the top limb's sign bit clear: read as
    // signed they are the same non-negative values.
    let mut cap_f = BigPoly { m: 1, w, d: v }.mul_small(ring::Q);
    let mut cap_g = BigPoly { m: 1, w, d: u }.mul_small(ring::Q);
    for d in (0..logn as usize).rev() {
        let mut nf = cap_f.lift(&gs[d]);
        let mut ng = cap_g.lift(&fs[d]);
        if !reduce(&mut nf, &mut ng, &fs[d], &gs[d]) {
            return None;
        }

        cap_f = nf.trimmed();
        cap_g = ng.trimmed();
    }
    // The coefficients must fit in i64 to be read, then in [-127, 127].
    if cap_f.max_bits() > 62 || cap_g.max_bits() > 62 {
        return None;
    }
    let mut out_f = vec![0i8; n];
    let mut out_g = vec![0i8; n];
    for i in 0..n {
        let a = cap_f.top_i64(i, 0);
        let b = cap_g.top_i64(i, 0);
        if !(-127..=127).contains(&a) || !(-127..=127).contains(&b) {
            return None;
        }
        out_f[i] = a as i8;
        out_g[i] = b as i8;
    }
    // Exact check of f G - g F = q: the coefficients are below 2^26 in
    // absolute value, so the two-prime NTT product is exact.
    let wide = |v: &[i8]| v.iter().map(|&x| x as i64).collect::<Vec<i64>>();
    let fcg = crate::ntt31::mul(&wide(f), &wide(&out_g));
    let gcf = crate::ntt31::mul(&wide(g), &wide(&out_f));
    for (k, (a, b)) in fcg.iter().zip(&gcf).enumerate() {
        if a - b != if k == 0 { ring::Q as i128 } else { 0 } {
            return None;
        }
    }
    Some((out_f, out_g))
}

/// Generate a key pair of degree `2^logn`: 32 bytes from `rng` seed a
/// SHAKE256 stream that drives everything else (as in fn-dsa 0.3).
pub(crate) fn keygen<R: TryCryptoRng + ?Sized>(logn: u32, rng: &mut R) -> Result<SkCore, Error> {
    let mut seed = [0u8; 32];
    rng.try_fill_bytes(&mut seed).map_err(|_| Error::Rng)?;
    let r = keygen_from_seed(logn, &seed);
    seed.zeroize();
    r
}

/// Deterministic key generation from a 32-byte seed.
pub(crate) fn keygen_from_seed(logn: u32, seed: &[u8]) -> Result<SkCore, Error> {
    let n = 1usize << logn;
    let mut prng = Prng::new(seed);
    let mut sk = SkCore {
        logn,
        f: [0; 1024],
        g: [0; 1024],
        cap_f: [0; 1024],
        cap_g: [0; 1024],
    };
    for _ in 0..10_000 {
        sample_f(logn, &mut prng, &mut sk.f[..n]);
        sample_f(logn, &mut prng, &mut sk.g[..n]);
        // Rejections only reveal that a discarded candidate was rejected.
        if !check_norm(&sk.f[..n], &sk.g[..n]) {
            continue;
        }
        if !is_invertible(&sk.f[..n]) {
            continue;
        }
        if !check_ortho_norm(&sk.f[..n], &sk.g[..n]) {
            continue;
        }
        if let Some((mut cf, mut cg)) = solve_ntru(logn, &sk.f[..n], &sk.g[..n]) {
            sk.cap_f[..n].copy_from_slice(&cf);
            sk.cap_g[..n].copy_from_slice(&cg);
            cf.zeroize();
            cg.zeroize();
            return Ok(sk);
        }
    }
    Err(Error::IterationLimit)
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
        crate::fft::fft(&mut fx);
        crate::fft::fft(&mut gx);
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
                // solve_ntru checks f G - g F = q exactly before returning.
                if solve_ntru(logn, &f, &g).is_some() {
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
