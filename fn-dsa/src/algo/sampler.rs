//! The discrete Gaussian sampler (Falcon spec section 3.9.3,
//! Alg. 12-14) and fast Fourier sampling over the ffLDL tree
//! (Alg. 11), driven by a SHAKE256 PRNG seeded per signing attempt.

use crate::algo::fft;
use crate::algo::float::Float;
use pqkit_common::keccak::{Shake256, SpongeReader, StateX4};
use pqkit_common::{Backend, Kernel, dispatch};
use zeroize::Zeroize;

/// `RCDT` of Falcon spec section 3.9.3 (Table 3.1): 72-bit thresholds of
/// the reverse cumulative distribution of the half-Gaussian of
/// `sigma_max = 1.8205` (re-derived limbs: `tools/constants.py`).
const RCDT: [u128; 18] = [
    3024686241123004913666,
    1564742784480091954050,
    636254429462080897535,
    199560484645026482916,
    47667343854657281903,
    8595902006365044063,
    1163297957344668388,
    117656387352093658,
    8867391802663976,
    496969357462633,
    20680885154299,
    638331848991,
    14602316184,
    247426747,
    3104126,
    28824,
    198,
    1,
];

/// Coefficients of the polynomial approximation of `exp(-x)` scaled by
/// 2^63 (Falcon spec Alg. 14, `ApproxExp`, from FACCT).
const EXP_C: [u64; 13] = [
    0x00000004741183A3,
    0x00000036548CFC06,
    0x0000024FDCBF140A,
    0x0000171D939DE045,
    0x0000D00CF58F6F84,
    0x000680681CF796E3,
    0x002D82D8305B0FEA,
    0x011111110E066FD0,
    0x0555555555070F00,
    0x155555555581FF00,
    0x400000000002B400,
    0x7FFFFFFFFFFF4800,
    0x8000000000000000,
];

/// `1/sigma` per logn (Falcon spec section 3.8.3 formulas with
/// `117/100 * sqrt(q)`; `tools/constants.py`).
pub(crate) const INV_SIGMA: [f64; 11] = [
    0.0,
    0.006905479329594088,
    0.006810226776717797,
    0.00671881019107227,
    0.006588335437007366,
    0.006465178120760289,
    0.006348678882807899,
    0.0062382586529084365,
    0.006133406502093025,
    0.006033669668157723,
    0.0059386453095331155,
];

/// `sigma_min` per logn (same source).
pub(crate) const SIGMA_MIN: [f64; 11] = [
    0.0,
    1.1165085072329102,
    1.1321247692325271,
    1.1475285353733669,
    1.170254078853483,
    1.1925466358390344,
    1.214430050776614,
    1.235926056771981,
    1.2570545284063215,
    1.2778336969128337,
    1.298280334344292,
];

/// `1 / (2 sigma_max^2)`, `sigma_max = 1.8205`.
const INV_2SIGMA_MAX_SQ: f64 = 0.15086504887537272;
const LN2: f64 = core::f64::consts::LN_2;
const INV_LN2: f64 = core::f64::consts::LOG2_E;

/// Where a [`ByteStream`] gets its bytes: `refill` overwrites the whole
/// buffer with the next output.
pub(crate) trait Refill {
    fn refill(&mut self, buf: &mut [u8]);
}

/// Bytes from a refillable source, with the little-endian reads the
/// generators need. The buffer is wiped on drop.
pub(crate) struct ByteStream<S: Refill, const L: usize> {
    src: S,
    buf: [u8; L],
    pos: usize,
}

impl<S: Refill, const L: usize> ByteStream<S, L> {
    fn with_source(src: S) -> Self {
        Self {
            src,
            buf: [0; L],
            pos: L,
        }
    }

    #[inline(always)]
    pub(crate) fn next_u8(&mut self) -> u8 {
        if self.pos >= L {
            self.src.refill(&mut self.buf);
            self.pos = 0;
        }
        let b = self.buf[self.pos];
        self.pos += 1;
        b
    }

    /// Two bytes, little-endian.
    #[inline(always)]
    pub(crate) fn next_u16_le(&mut self) -> u16 {
        let lo = self.next_u8() as u16;
        lo | ((self.next_u8() as u16) << 8)
    }

    /// `out.len()` 16-bit little-endian values, as `next_u16_le` would
    /// return them one by one, copied from the buffer in runs.
    pub(crate) fn fill_u16_le(&mut self, out: &mut [u32]) {
        let mut k = 0;
        while k < out.len() {
            if self.pos + 2 > L {
                // A value straddles the refill (or the buffer is used up).
                out[k] = self.next_u16_le() as u32;
                k += 1;
                continue;
            }
            let run = ((L - self.pos) / 2).min(out.len() - k);
            for (o, b) in out[k..k + run]
                .iter_mut()
                .zip(self.buf[self.pos..self.pos + 2 * run].chunks_exact(2))
            {
                *o = u16::from_le_bytes([b[0], b[1]]) as u32;
            }
            self.pos += 2 * run;
            k += run;
        }
    }

    /// Eight bytes, little-endian.
    #[inline(always)]
    pub(crate) fn next_u64_le(&mut self) -> u64 {
        if self.pos + 8 <= L {
            let mut w = [0u8; 8];
            w.copy_from_slice(&self.buf[self.pos..self.pos + 8]);
            self.pos += 8;
            return u64::from_le_bytes(w);
        }
        let mut x = 0u64;
        for i in 0..8 {
            x |= (self.next_u8() as u64) << (8 * i);
        }
        x
    }
}

impl<S: Refill, const L: usize> Drop for ByteStream<S, L> {
    fn drop(&mut self) {
        self.buf.zeroize();
    }
}

/// One SHAKE256 instance.
pub(crate) struct Shake256Source(SpongeReader<136>);

impl Refill for Shake256Source {
    fn refill(&mut self, buf: &mut [u8]) {
        self.0.read(buf);
    }
}

/// SHAKE256 byte stream over a seed (key generation draws `f`, `g` from it,
/// exactly as fn-dsa 0.3 does).
pub(crate) type Prng = ByteStream<Shake256Source, 136>;

impl Prng {
    pub(crate) fn new(seed: &[u8]) -> Self {
        let mut h = Shake256::default();
        h.update(seed);
        Self::with_source(Shake256Source(h.finalize_xof()))
    }
}

/// Four SHAKE256 instances over `seed || i` (`i` = 0..3) in lock step on
/// the 4-way Keccak-f (AVX2 when available); each 544-byte block
/// interleaves their output words (word `w` of instance `i` at bytes
/// `32 w + 8 i`), the layout of fn-dsa's `SHAKE256x4`. Wiped on drop.
pub(crate) struct X4Source {
    state: StateX4,
}

struct PermuteX4<'a>(&'a mut StateX4);

impl Kernel for PermuteX4<'_> {
    type Output = ();
    fn run<B: Backend>(self, b: B) {
        b.keccak_f1600_x4(self.0);
    }
}

impl Refill for X4Source {
    fn refill(&mut self, buf: &mut [u8]) {
        dispatch(PermuteX4(&mut self.state));
        for (w, row) in self.state.lanes.iter().take(17).enumerate() {
            for (i, lane) in row.iter().enumerate() {
                if let Some(dst) = buf.get_mut(32 * w + 8 * i..32 * w + 8 * i + 8) {
                    dst.copy_from_slice(&lane.to_le_bytes());
                }
            }
        }
    }
}

impl Drop for X4Source {
    fn drop(&mut self) {
        self.state.zeroize();
    }
}

/// The per-attempt sampler PRNG (see [`X4Source`]): with four Keccak-f
/// per refill run as one 4-way permutation, it costs about a third of a
/// single SHAKE256 stream.
pub(crate) type SamplerPrng = ByteStream<X4Source, 544>;

impl SamplerPrng {
    pub(crate) fn new(seed: &[u8; 56]) -> Self {
        let mut state = StateX4::default();
        for i in 0..4 {
            // seed || i, then SHAKE padding, in one 136-byte block.
            let mut block = [0u8; 136];
            block[..56].copy_from_slice(seed);
            block[56] = i as u8;
            block[57] ^= 0x1f;
            block[135] ^= 0x80;
            for (lane, w) in state.lanes.iter_mut().zip(block.as_chunks::<8>().0) {
                lane[i] ^= u64::from_le_bytes(*w);
            }
            block.zeroize();
        }
        Self::with_source(X4Source { state })
    }
}

/// The sampler: a PRNG and the scheme's `sigma_min`, over the float type
/// `F` (native or emulated).
pub(crate) struct Sampler<F: Float> {
    prng: SamplerPrng,
    sigma_min: F,
    /// Set when a SamplerZ call ran out of iterations: the caller throws
    /// the attempt away.
    exhausted: bool,
    /// SamplerZ iterations so far (measured by the tests).
    #[cfg(test)]
    iterations: usize,
}

/// SamplerZ iterations per sample. Each iteration accepts with
/// probability above 0.45 for every degree and deviation (0.50 to 0.59
/// measured by `acceptance_rate`), so a sample runs out with probability
/// below `0.55^128 < 2^-110`; over the `2n <= 2^11` samples of an attempt
/// and the `<= 43` attempts of a signature that stays below `2^-93`.
pub(crate) const MAX_Z_ITERATIONS: usize = 128;

impl<F: Float> Sampler<F> {
    pub(crate) fn new(logn: u32, seed: &[u8; 56]) -> Self {
        Self {
            prng: SamplerPrng::new(seed),
            sigma_min: F::of(SIGMA_MIN[logn as usize]),
            exhausted: false,
            #[cfg(test)]
            iterations: 0,
        }
    }

    /// Whether a sample ran out of iterations (the attempt must restart).
    pub(crate) fn exhausted(&self) -> bool {
        self.exhausted
    }

    /// BaseSampler: a half-Gaussian sample from 72 uniform bits, comparing
    /// against every RCDT entry (constant-time).
    #[inline(always)]
    fn base(&mut self) -> i32 {
        let lo = self.prng.next_u64_le() as u128;
        let hi = self.prng.next_u8() as u128;
        let u = lo | (hi << 64);
        let mut z = 0i32;
        for &t in &RCDT {
            z += (u < t) as i32;
        }
        z
    }

    /// ApproxExp: `2^63 * ccs * exp(-x)` for `0 <= x < ln 2`, `0 < ccs <= 1`.
    #[inline(always)]
    fn approx_exp(x: F, ccs: F) -> u64 {
        let z = fft::to_fixed63(x); // floor(2^63 x)
        let mut y = EXP_C[0];
        for &c in &EXP_C[1..] {
            y = c.wrapping_sub(((z as u128 * y as u128) >> 63) as u64);
        }
        let z = fft::to_fixed63(ccs);
        ((z as u128 * y as u128) >> 63) as u64
    }

    /// BerExp: a bit that is 1 with probability `ccs * exp(-x)`, `x >= 0`.
    /// The comparison reads all 64 bits (no early exit on the secret z).
    #[inline(always)]
    fn ber_exp(&mut self, x: F, ccs: F) -> bool {
        let s = fft::floor(x.mul(F::of(INV_LN2))); // x >= 0
        let r = x.sub(F::from_i64(s).mul(F::of(LN2)));
        // min(s, 63) without a conditional move.
        let s = s as u64;
        let over = 0u64.wrapping_sub(63u64.wrapping_sub(s) >> 63); // all ones if s > 63
        let s = (s ^ ((s ^ 63) & over)) as u32;
        // ccs * exp(-r) >= 1/4 here, so 2*y >= 1 and the subtraction is exact.
        let z = (Self::approx_exp(r, ccs) << 1).wrapping_sub(1) >> s;
        let w = self.prng.next_u64_le();
        w < z
    }

    /// SamplerZ: an integer from the discrete Gaussian of centre `mu` and
    /// standard deviation `1/isigma` (`sigma_min <= 1/isigma <= sigma_max`).
    pub(crate) fn sample(&mut self, mu: F, isigma: F) -> i32 {
        let s = fft::floor(mu);
        let r = mu.sub(F::from_i64(s));
        let dss = F::of(0.5).mul(isigma).mul(isigma);
        let ccs = isigma.mul(self.sigma_min);
        for _ in 0..MAX_Z_ITERATIONS {
            #[cfg(test)]
            {
                self.iterations += 1;
            }
            let z0 = self.base();
            let b = (self.prng.next_u8() & 1) as i32;
            let z = b + ((b << 1) - 1) * z0;
            let d = F::from_i64(z as i64).sub(r);
            let x = d
                .mul(d)
                .mul(dss)
                .sub(F::from_i64((z0 * z0) as i64).mul(F::of(INV_2SIGMA_MAX_SQ)));
            // The rejection decision is independent of the secrets by
            // design of the sampler (the acceptance rate does not depend on
            // mu or sigma): it may steer the loop.
            if pqkit_common::ct::declassify(self.ber_exp(x.max0(), ccs)) {
                return s as i32 + z;
            }
        }
        // Out of iterations (public: it depends on the PRNG only): the
        // value is discarded with the attempt.
        self.exhausted = true;
        s as i32
    }

    /// Fast Fourier sampling (Falcon spec Alg. 11) over the tree of
    /// `sign::ffldl`: on return `(t0, t1)` hold `z` (FFT domain).
    /// `tmp` must have room for `2n` values (`n` per level: the split
    /// halves of the current target; `z1` is merged straight into `t1`).
    /// It holds secret-dependent values afterwards: its owner wipes it.
    pub(crate) fn ffsamp(
        &mut self,
        logn: u32,
        tree: &[F],
        t0: &mut [F],
        t1: &mut [F],
        tmp: &mut [F],
    ) {
        let n = 1usize << logn;
        let hn = n >> 1;
        if logn == 1 {
            let (lr, li) = (tree[0], tree[1]);
            let (leaf0, leaf1) = (tree[2], tree[3]);
            let z1r = F::from_i64(self.sample(t1[0], leaf1) as i64);
            let z1i = F::from_i64(self.sample(t1[1], leaf1) as i64);
            let (ar, ai) = (t1[0].sub(z1r), t1[1].sub(z1i));
            let br = t0[0].add(ar.mul(lr)).sub(ai.mul(li));
            let bi = t0[1].add(ar.mul(li)).add(ai.mul(lr));
            t1[0] = z1r;
            t1[1] = z1i;
            t0[0] = F::from_i64(self.sample(br, leaf0) as i64);
            t0[1] = F::from_i64(self.sample(bi, leaf0) as i64);
            return;
        }
        let child = crate::algo::sign::tree_size(logn - 1);
        let (l10, rest) = tree.split_at(n);
        let (left, right) = rest.split_at(child);
        let (w, rest) = tmp.split_at_mut(n);
        let (w0, w1) = w.split_at_mut(hn);
        fft::split(w0, w1, t1);
        self.ffsamp(logn - 1, right, w0, w1, rest);
        // z1 = merge(w0, w1): tb0 = t0 + (t1 - z1) * l10; t1 <- z1.
        fft::merge_update(t0, t1, l10, w0, w1);
        fft::split(w0, w1, t0);
        self.ffsamp(logn - 1, left, w0, w1, rest);
        fft::merge(t0, w0, w1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn approx_exp_is_accurate() {
        for i in 0..100 {
            let x = LN2 * i as f64 / 100.0;
            for ccs in [0.6, 0.8, 1.0] {
                let want = ccs * libm_exp(-x) * 9223372036854775808.0;
                let got = Sampler::<f64>::approx_exp(x, ccs) as f64;
                assert!(((got - want) / want).abs() < 1e-12, "x {x} ccs {ccs}");
            }
        }
    }

    fn libm_exp(x: f64) -> f64 {
        // Taylor series, enough terms for |x| < 1.
        let mut term = 1.0;
        let mut sum = 1.0;
        for k in 1..30 {
            term *= x / k as f64;
            sum += term;
        }
        sum
    }

    /// Mean and variance of SamplerZ over many samples, for several
    /// centres and deviations, within 5 standard errors of the targets.
    #[test]
    fn sampler_statistics() {
        let mut s = Sampler::<f64>::new(9, &[0x5a; 56]);
        for &(mu, sigma) in &[(0.0, 1.3), (-17.25, 1.5), (3.7, 1.8), (1234.5, 1.28)] {
            let count = 200_000;
            let mut sum = 0.0;
            let mut sq = 0.0;
            for _ in 0..count {
                let z = s.sample(mu, 1.0 / sigma) as f64 - mu;
                sum += z;
                sq += z * z;
            }
            let mean = sum / count as f64;
            let var = sq / count as f64 - mean * mean;
            let se_mean = sigma / (count as f64).sqrt();
            assert!(mean.abs() < 5.0 * se_mean, "mu {mu}: mean offset {mean}");
            // Var of the sample variance ~ 2 sigma^4 / count.
            let se_var = sigma * sigma * (2.0 / count as f64).sqrt();
            // A discrete Gaussian's variance equals sigma^2 up to a tiny
            // smoothing error for sigma >= sigma_min.
            assert!(
                (var - sigma * sigma).abs() < 5.0 * se_var + 1e-3,
                "mu {mu} sigma {sigma}: var {var}"
            );
        }
    }

    /// SamplerZ's acceptance rate per iteration, for every degree's
    /// `sigma_min` and deviations across `[sigma_min, sigma_max]`: above
    /// 0.45 (what `MAX_Z_ITERATIONS` assumes) by 5 standard errors; no
    /// sample runs out.
    #[test]
    fn acceptance_rate() {
        for logn in 1u32..=10 {
            let mut s = Sampler::<f64>::new(logn, &[logn as u8; 56]);
            let smin = SIGMA_MIN[logn as usize];
            for sigma in [smin, (smin + 1.8205) / 2.0, 1.8205] {
                let count = 20_000;
                let before = s.iterations;
                for i in 0..count {
                    s.sample(0.37 * i as f64, 1.0 / sigma);
                }
                let iterations = (s.iterations - before) as f64;
                let rate = count as f64 / iterations;
                let se = (rate * (1.0 - rate) / iterations).sqrt();
                std::eprintln!("logn {logn} sigma {sigma:.4}: acceptance {rate:.4}");
                assert!(
                    rate - 5.0 * se > 0.45,
                    "logn {logn} sigma {sigma}: acceptance {rate}"
                );
                assert!(!s.exhausted());
            }
        }
    }

    #[test]
    fn base_sampler_distribution() {
        // P(z0 = 0) for the half-Gaussian of sigma_max: 1 - RCDT[0]/2^72.
        let mut s = Sampler::<f64>::new(9, &[0xba; 56]);
        let count = 200_000;
        let zeros = (0..count).filter(|_| s.base() == 0).count() as f64 / count as f64;
        let p0 = 1.0 - RCDT[0] as f64 / 2f64.powi(72);
        assert!(
            (zeros - p0).abs() < 5.0 * (p0 * (1.0 - p0) / count as f64).sqrt(),
            "{zeros} vs {p0}"
        );
    }
}
