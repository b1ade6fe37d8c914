//! Signing: the expanded (FFT-domain) key with its ffLDL tree, and the
//! signing loop (Falcon spec Alg. 10, with the FN-DSA hashing).

use crate::Error;
use crate::algo::fft_roots::ROOTS;
use crate::algo::float::Float;
use crate::algo::sampler::{INV_SIGMA, Sampler};
use crate::algo::signing_key::SecretParts;
use crate::algo::{fft, verify::SQBETA};
use crate::encoding::{self, HPK_LEN, Message, NONCE_LEN};
use alloc::vec;
use alloc::vec::Vec;
use rand_core::TryCryptoRng;
use zeroize::{Zeroize, ZeroizeOnDrop};

/// Number of values of the ffLDL tree of degree `2^logn` (`logn >= 1`):
/// `l10` (n values) then the two subtrees; at `logn = 1` the subtrees are
/// the two leaves.
pub(crate) const fn tree_size(logn: u32) -> usize {
    (logn as usize + 1) << logn
}

/// `1/q`, evaluated at compile time.
const INV_Q: f64 = 1.0 / 12289.0;

/// The float type of signing: native `f64` on x86_64 and aarch64 (strict
/// IEEE-754 hardware), the integer-only emulation elsewhere or with the
/// `float-emu` feature. Both give bit-identical signatures.
#[cfg(all(
    any(target_arch = "x86_64", target_arch = "aarch64"),
    not(feature = "float-emu")
))]
pub(crate) type Fp = f64;
/// The float type of signing (integer-only emulation on this target).
#[cfg(not(all(
    any(target_arch = "x86_64", target_arch = "aarch64"),
    not(feature = "float-emu")
)))]
pub(crate) type Fp = crate::algo::float::Emu;

/// Work values per degree unit while signing: the target / sample `t0`,
/// `t1` (`n` each) and the sampler's scratch (`2n`: `ffsamp` needs `n`
/// at the top and half as much per level below), which then holds the
/// products `z B`.
pub(crate) const WORK_PER_N: usize = 4;

/// Signing attempts per degree (index `logn`), derived from the rejection
/// probability `p` of one attempt on a valid key: the bound is the least
/// `N` with `p_max^N < 2^-64`, where `p_max` ([`tests::P_MAX`]) is at
/// least 4 standard errors above the rate measured over 5,000 to 20,000
/// signatures per degree (`measured_rejections` checks both). A valid key
/// therefore fails to sign with probability below `2^-64`, and no key costs
/// more than this many attempts (43 at most, 10 for FN-DSA-512/1024).
///
/// | logn | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 |
/// |---|---|---|---|---|---|---|---|---|---|---|
/// | measured rejection | 0.305 | 0.289 | 0.252 | 0.190 | 0.112 | 0.053 | 0.013 | 0.0004 | 0 | 0.0014 |
/// | `p_max` | 0.35 | 0.35 | 0.30 | 0.23 | 0.15 | 0.08 | 0.03 | 0.01 | 0.01 | 0.01 |
/// | attempts | 43 | 43 | 37 | 31 | 24 | 18 | 13 | 10 | 10 | 10 |
pub(crate) const MAX_SIGN_ATTEMPTS: [usize; 11] = [0, 43, 43, 37, 31, 24, 18, 13, 10, 10, 10];

/// The expanded signing key: the basis `B = [[g, -f], [G, -F]]` and the
/// normalised ffLDL tree of its Gram matrix, all in FFT form
/// (`(logn + 5) * n` doubles: 120 KiB for n = 1024).
#[derive(Clone)]
pub(crate) struct Expanded<F: Float = Fp> {
    logn: u32,
    /// `b00 || b01 || b10 || b11 || tree`.
    data: Vec<F>,
}

// Written out rather than derived: the derive macros would put a proc
// macro (and `syn`) into every user's build.
impl<F: Float> Zeroize for Expanded<F> {
    fn zeroize(&mut self) {
        self.logn.zeroize();
        self.data.zeroize();
    }
}

impl<F: Float> Drop for Expanded<F> {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl<F: Float> ZeroizeOnDrop for Expanded<F> {}

// ffLDL (Falcon spec Alg. 9) in little memory. The Gram matrix of every
// node is `[[g00, g01], [adj(g01), g11]]` with self-adjoint `g00`, `g11`:
// their FFT values are real, so they take `n/2` values each, and `g01`
// (the only complex entry) is written straight into the node's `l10` slot
// of the tree, where the LDL step replaces it with `l10`. The children's
// `g01` go to their own slots the same way, so besides the tree the whole
// recursion needs `2n` values (the real diagonals of every depth).

/// The LDL step of a node of degree `n = 2 hn`: with `g01` in `l10` (FFT
/// form, `n` values) and the real `g00`, `g11` (`hn` values each):
/// `l10 = adj(g01) / g00` (in place), `g11 <- d11 = g11 - |g01|^2 / g00`;
/// `g00` is `d00` as it stands.
#[inline(always)]
fn ldl_step<F: Float>(g00: &[F], g11: &mut [F], l10: &mut [F]) {
    let hn = g00.len();
    let (lr, li) = l10[..2 * hn].split_at_mut(hn);
    let g11 = &mut g11[..hn];
    #[inline(always)]
    fn one<F: Float>(g00: F, g01r: F, g01i: F, g11: F) -> [F; 3] {
        let inv = F::of(1.0).div(g00);
        let (mr, mi) = (g01r.mul(inv), g01i.mul(inv));
        [mr, mi.neg(), g11.sub(mr.mul(g01r).add(mi.mul(g01i)))]
    }
    if hn >= 4 {
        // Four entries at a time on fixed-size chunks (vectorisable).
        for (((a, d), l0), l1) in g00
            .chunks_exact(4)
            .zip(g11.chunks_exact_mut(4))
            .zip(lr.chunks_exact_mut(4))
            .zip(li.chunks_exact_mut(4))
        {
            for k in 0..4 {
                let [x, y, z] = one(a[k], l0[k], l1[k], d[k]);
                l0[k] = x;
                l1[k] = y;
                d[k] = z;
            }
        }
    } else {
        for j in 0..hn {
            let [x, y, z] = one(g00[j], lr[j], li[j], g11[j]);
            lr[j] = x;
            li[j] = y;
            g11[j] = z;
        }
    }
}

/// The children's Gram matrix from a self-adjoint `d` of degree `n` given
/// by its `n/2` real FFT values: the split `d(x) = d0(x^2) + x d1(x^2)`
/// (Falcon spec Alg. 1 with zero imaginary parts), `d0` (real, `n/4`
/// values) into `c00` and `c11`, `d1` (`n/2` values) into `g01`.
#[inline(always)]
fn child_gram<F: Float>(d: &[F], c00: &mut [F], c11: &mut [F], g01: &mut [F]) {
    let qn = c00.len();
    let (f1r, f1i) = g01[..2 * qn].split_at_mut(qn);
    let roots = &ROOTS[qn..2 * qn];
    #[inline(always)]
    fn one<F: Float>(a: F, b: F, (c, s): (f64, f64)) -> [F; 3] {
        let half = F::of(0.5);
        let zero = F::default();
        let (r, i) = fft::cmul(half.mul(a.sub(b)), zero, F::of(c), F::of(s).neg());
        [half.mul(a.add(b)), r, i]
    }
    if qn >= 4 {
        for ((((o0, o1r), o1i), ab), rt) in c00
            .chunks_exact_mut(4)
            .zip(f1r.chunks_exact_mut(4))
            .zip(f1i.chunks_exact_mut(4))
            .zip(d.chunks_exact(8))
            .zip(roots.chunks_exact(4))
        {
            for k in 0..4 {
                let [x, y, z] = one(ab[2 * k], ab[2 * k + 1], rt[k]);
                o0[k] = x;
                o1r[k] = y;
                o1i[k] = z;
            }
        }
    } else {
        for j in 0..qn {
            let [x, y, z] = one(d[2 * j], d[2 * j + 1], roots[j]);
            c00[j] = x;
            f1r[j] = y;
            f1i[j] = z;
        }
    }
    c11.copy_from_slice(c00);
}

/// Nodes of degree at least this run through [`pqkit_common::vectorized`]:
/// compiled for AVX2 where detected (vectorised f64 arithmetic, the same
/// IEEE-754 operations in the same order as the scalar code, so the results
/// are bit-identical). The entry has a fixed cost, which smaller nodes
/// would not repay, so they stay scalar.
const KERNEL_MIN_N: usize = 16;

/// ffLDL of a node of degree `2^logn`: `g01` in `tree[..n]`, the real
/// `g00`, `g11` (`n/2` values each, consumed); writes the subtree with
/// leaves normalised to `sqrt(d) / sigma` (the inverse of the spec's
/// `sigma'`). `tmp` needs `n` values.
fn ffldl<F: Float>(logn: u32, g00: &[F], g11: &mut [F], tree: &mut [F], tmp: &mut [F], isig: F) {
    let n = 1usize << logn;
    let hn = n >> 1;
    let (l10, rest) = tree.split_at_mut(n);
    if logn == 1 {
        ldl_step(&g00[..1], g11, l10);
        rest[0] = g00[0].sqrt().mul(isig);
        rest[1] = g11[0].sqrt().mul(isig);
        return;
    }
    let (left, right) = rest.split_at_mut(tree_size(logn - 1));
    let (c00, rest) = tmp.split_at_mut(hn >> 1);
    let (c11, rest) = rest.split_at_mut(hn >> 1);
    if n >= KERNEL_MIN_N {
        let (g00, g11, left_g01) = (&g00[..hn], &mut g11[..hn], &mut left[..hn]);
        pqkit_common::vectorized(|| {
            ldl_step(g00, g11, l10);
            child_gram(g00, c00, c11, left_g01);
        });
    } else {
        ldl_step(&g00[..hn], g11, l10);
        child_gram(&g00[..hn], c00, c11, &mut left[..hn]);
    }
    ffldl(logn - 1, c00, c11, left, rest, isig);
    if n >= KERNEL_MIN_N {
        let (d, g01) = (&g11[..hn], &mut right[..hn]);
        pqkit_common::vectorized(|| child_gram(d, c00, c11, g01));
    } else {
        child_gram(&g11[..hn], c00, c11, &mut right[..hn]);
    }
    ffldl(logn - 1, c00, c11, right, rest, isig);
}

impl<F: Float> Expanded<F> {
    /// Expand a decoded key (once per key).
    pub(crate) fn new(sk: &SecretParts) -> Self {
        let logn = sk.logn;
        let n = 1usize << logn;
        let mut data = vec![F::default(); 4 * n + tree_size(logn)];
        {
            let (basis, tree) = data.split_at_mut(4 * n);
            let (b00, rest) = basis.split_at_mut(n);
            let (b01, rest) = rest.split_at_mut(n);
            let (b10, b11) = rest.split_at_mut(n);
            for i in 0..n {
                b00[i] = F::from_i64(sk.g[i] as i64);
                b01[i] = F::from_i64(-(sk.f[i] as i64));
                b10[i] = F::from_i64(sk.cap_g[i] as i64);
                b11[i] = F::from_i64(-(sk.cap_f[i] as i64));
            }
            pqkit_common::vectorized(|| {
                for a in [&mut *b00, &mut *b01, &mut *b10, &mut *b11] {
                    fft::fft_inl(a);
                }
            });
            // Gram matrix G = B * adj(B): the real diagonal on the stack,
            // g01 straight into the tree's root slot (see `ffldl`).
            let mut work = [F::default(); 2048];
            {
                let (g00, rest) = work.split_at_mut(n >> 1);
                let (g11, tmp) = rest.split_at_mut(n >> 1);
                fft::add_mul_adj_re(g00, b00, b00);
                fft::add_mul_adj_re(g00, b01, b01);
                fft::add_mul_adj(&mut tree[..n], b00, b10);
                fft::add_mul_adj(&mut tree[..n], b01, b11);
                fft::add_mul_adj_re(g11, b10, b10);
                fft::add_mul_adj_re(g11, b11, b11);
                ffldl(
                    logn,
                    g00,
                    g11,
                    tree,
                    &mut tmp[..n],
                    F::of(INV_SIGMA[logn as usize]),
                );
            }
            work.zeroize();
        }
        Self { logn, data }
    }

    /// Sign `msg` into `out` (the fixed-size layout,
    /// [`encoding::signature_size`] bytes).
    ///
    /// The work area ([`WORK_PER_N`]` n` values: 32 KiB for n = 1024, 16 KiB
    /// for 512) is a stack array of the key's degree, made per call and
    /// wiped before returning: no allocation, and `&self` stays shared, so
    /// one key signs from several threads at once.
    pub(crate) fn sign<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        hpk: &[u8; HPK_LEN],
        msg: &Message<'_>,
        parts: &[&[u8]],
        out: &mut [u8],
    ) -> Result<(), Error> {
        match self.logn {
            10 => self.sign_on_stack::<{ WORK_PER_N << 10 }, R>(rng, hpk, msg, parts, out),
            9 => self.sign_on_stack::<{ WORK_PER_N << 9 }, R>(rng, hpk, msg, parts, out),
            _ => self.sign_on_stack::<{ WORK_PER_N << 8 }, R>(rng, hpk, msg, parts, out),
        }
    }

    /// [`Expanded::sign`] with a `W`-value work array of its own frame
    /// (kept out of line so that only the chosen degree's array is on the
    /// stack).
    #[inline(never)]
    fn sign_on_stack<const W: usize, R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        hpk: &[u8; HPK_LEN],
        msg: &Message<'_>,
        parts: &[&[u8]],
        out: &mut [u8],
    ) -> Result<(), Error> {
        let mut work = [F::default(); W];
        let result = self.sign_with(&mut work, rng, hpk, msg, parts, out);
        work.zeroize();
        result
    }

    /// The signing loop on `work` ([`WORK_PER_N`]` n` values; the caller
    /// wipes it).
    fn sign_with<R: TryCryptoRng + ?Sized>(
        &self,
        work: &mut [F],
        rng: &mut R,
        hpk: &[u8; HPK_LEN],
        msg: &Message<'_>,
        parts: &[&[u8]],
        out: &mut [u8],
    ) -> Result<(), Error> {
        msg.check()?;
        let logn = self.logn;
        let n = 1usize << logn;
        let work = work
            .get_mut(..WORK_PER_N * n)
            .ok_or(Error::UnsupportedDegree)?;
        let (basis, tree) = self.data.split_at(4 * n);
        let (b00, rest) = basis.split_at(n);
        let (b01, rest) = rest.split_at(n);
        let (b10, b11) = rest.split_at(n);
        let original = msg.is_original();

        let mut nonce = [0u8; NONCE_LEN];
        let mut hm = [0u16; 1024];
        let mut seed = [0u8; 56];
        let mut s2 = [0i16; 1024];
        let mut result = Err(Error::RejectionLimit);
        for attempt in 0..MAX_SIGN_ATTEMPTS[logn as usize] {
            #[cfg(test)]
            tests::ATTEMPTS.with(|a| a.set(a.get() + 1));
            // FN-DSA draws a new nonce per attempt; original Falcon keeps it.
            if attempt == 0 || !original {
                rng.try_fill_bytes(&mut nonce).map_err(|_| Error::Rng)?;
                // The nonce is published in the signature.
                nonce = pqkit_common::ct::declassify(nonce);
                encoding::hash_to_point(&nonce, hpk, msg, parts, &mut hm[..n]);
            }
            rng.try_fill_bytes(&mut seed).map_err(|_| Error::Rng)?;
            let mut sampler = Sampler::<F>::new(logn, &seed);

            let (t0, rest) = work.split_at_mut(n);
            let (t1, tmp) = rest.split_at_mut(n);
            // Target t = (hm, 0) * B^-1 = (-hm F / q, hm f / q).
            for i in 0..n {
                t0[i] = F::from_i64(hm[i] as i64);
            }
            fft::fft(t0);
            t1.copy_from_slice(t0);
            fft::mul(t1, b01);
            fft::mul_const(t1, F::of(-INV_Q));
            fft::mul(t0, b11);
            fft::mul_const(t0, F::of(INV_Q));
            sampler.ffsamp(logn, tree, t0, t1, tmp);
            if sampler.exhausted() {
                continue;
            }
            // (s1, s2) = (hm, 0) - z B, in the sampler's scratch.
            let (tx, rest) = tmp.split_at_mut(n);
            let (ty, _) = rest.split_at_mut(n);
            tx.copy_from_slice(t0);
            fft::mul(tx, b00);
            ty.copy_from_slice(t1);
            fft::mul(ty, b10);
            fft::add(tx, ty);
            ty.copy_from_slice(t0);
            fft::mul(ty, b01);
            fft::mul(t1, b11);
            fft::add(ty, t1);
            fft::ifft(tx);
            fft::ifft(ty);
            let mut norm = 0u64;
            // Bits at or above 2^20 in any |value| mark the candidate as too
            // long (it is far above the bound anyway), without branches.
            let mut big = 0u64;
            for i in 0..n {
                let a = hm[i] as i64 - fft::rint(tx[i]);
                let b = -fft::rint(ty[i]);
                big |= (a.wrapping_add(1 << 20) as u64 | b.wrapping_add(1 << 20) as u64) >> 21;
                norm = norm
                    .wrapping_add(a.wrapping_mul(a) as u64)
                    .wrapping_add(b.wrapping_mul(b) as u64);
                s2[i] = b as i16;
            }
            // norm | (all ones if big != 0)
            let norm = norm | 0u64.wrapping_sub((big | big.wrapping_neg()) >> 63);
            // Whether the candidate is short enough is public (it only
            // decides a restart with fresh randomness).
            if !pqkit_common::ct::declassify(norm <= SQBETA[logn as usize]) {
                continue;
            }
            // s2 is the (public) signature from here on.
            s2 = pqkit_common::ct::declassify(s2);
            if encoding::compress(&s2[..n], &mut out[1 + NONCE_LEN..]).is_some() {
                out[0] = 0x30 + logn as u8;
                out[1..1 + NONCE_LEN].copy_from_slice(&nonce);
                result = Ok(());
                break;
            }
        }
        seed.zeroize();
        s2.zeroize();
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    std::thread_local! {
        /// Signing attempts made on this thread (for the bound's measurement).
        pub(super) static ATTEMPTS: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
    }

    /// The rejection probability per attempt that [`MAX_SIGN_ATTEMPTS`] is
    /// derived from, per degree.
    pub(super) const P_MAX: [f64; 11] = [
        1.0, 0.35, 0.35, 0.30, 0.23, 0.15, 0.08, 0.03, 0.01, 0.01, 0.01,
    ];

    /// The attempt bound's derivation, checked: per degree, the rejection
    /// rate measured over many signatures of two keys lies at least 4
    /// standard errors below `P_MAX`, and `MAX_SIGN_ATTEMPTS` is the least `N`
    /// with `P_MAX^N < 2^-64`.
    #[test]
    #[cfg_attr(
        target_family = "wasm",
        ignore = "the algorithm's statistics, measured natively (95 s with wasm's emulated floats)"
    )]
    fn measured_rejections() {
        for logn in 1u32..=10 {
            let count = 10_000usize >> (logn / 4);
            let mut sig = vec![0u8; encoding::signature_size(logn)];
            ATTEMPTS.with(|a| a.set(0));
            for key in 0..2u8 {
                let (sk, vk) =
                    crate::algo::keygen::keygen_from_seed(logn, &[logn as u8 + 9, key, 3]);
                let exp = Expanded::<Fp>::new(&sk);
                let mut rng = TestRng::new(&[logn as u8, key]);
                for i in 0..count {
                    let msg = (i as u32).to_le_bytes();
                    exp.sign(&mut rng, &vk.hpk, &Message::raw(&msg), &[], &mut sig)
                        .expect("sign");
                }
            }
            let attempts = ATTEMPTS.with(|a| a.get()) as f64;
            let rate = 1.0 - (2 * count) as f64 / attempts;
            let p = P_MAX[logn as usize];
            let se = (p * (1.0 - p) / attempts).sqrt();
            std::eprintln!("logn {logn}: rejection rate {rate:.5} over {attempts} attempts");
            assert!(rate + 4.0 * se < p, "logn {logn}: rate {rate} vs {p}");
            let n = MAX_SIGN_ATTEMPTS[logn as usize];
            let bits = |k: usize| -(k as f64) * p.log2();
            assert!(
                bits(n) > 64.0 && bits(n - 1) <= 64.0,
                "logn {logn}: {n} attempts"
            );
        }
    }

    /// A deterministic RNG: SHAKE256 of a seed.
    struct TestRng(
        <pqkit_common::keccak::Shake256 as pqkit_common::keccak::ExtendableOutput>::Reader,
    );
    impl TestRng {
        fn new(seed: &[u8]) -> Self {
            let mut h = <pqkit_common::keccak::Shake256 as Default>::default();
            pqkit_common::keccak::Update::update(&mut h, seed);
            Self(pqkit_common::keccak::ExtendableOutput::finalize_xof(h))
        }
    }
    impl rand_core::TryRng for TestRng {
        type Error = core::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            let mut b = [0u8; 4];
            pqkit_common::keccak::XofReader::read(&mut self.0, &mut b);
            Ok(u32::from_le_bytes(b))
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            let mut b = [0u8; 8];
            pqkit_common::keccak::XofReader::read(&mut self.0, &mut b);
            Ok(u64::from_le_bytes(b))
        }
        fn try_fill_bytes(&mut self, d: &mut [u8]) -> Result<(), Self::Error> {
            pqkit_common::keccak::XofReader::read(&mut self.0, d);
            Ok(())
        }
    }
    impl TryCryptoRng for TestRng {}

    /// The integer-only emulation gives bit-identical expanded keys and
    /// signatures to native f64 (same RNG stream).
    #[test]
    fn emulated_float_signatures_are_identical() {
        use crate::algo::float::Emu;
        for logn in [2u32, 5, 9, 10] {
            let (sk, vk) = crate::algo::keygen::keygen_from_seed(logn, &[logn as u8 + 1; 32]);
            let native = Expanded::<f64>::new(&sk);
            let emu = Expanded::<Emu>::new(&sk);
            for (a, b) in native.data.iter().zip(&emu.data) {
                assert_eq!(a.to_bits(), b.0, "logn {logn}: expanded key");
            }
            let count = if logn >= 9 { 3 } else { 10 };
            for i in 0..count {
                let msg = [i as u8; 5];
                let m = Message::raw(&msg);
                let len = encoding::signature_size(logn);
                let mut s1 = vec![0u8; len];
                let mut s2 = vec![0u8; len];
                native
                    .sign(&mut TestRng::new(&msg), &vk.hpk, &m, &[], &mut s1)
                    .expect("sign");
                emu.sign(&mut TestRng::new(&msg), &vk.hpk, &m, &[], &mut s2)
                    .expect("sign");
                assert_eq!(s1, s2, "logn {logn} message {i}");
                vk.verify(&s2, encoding::SigFormat::Padded, &m, &[])
                    .expect("valid");
            }
        }
    }

    /// The squared norm of signatures averages `2 n sigma^2` (each of the
    /// 2n coordinates of (s1, s2) has variance sigma^2), well below the
    /// bound; a wrong sigma in the tree or the sampler shows up here.
    #[test]
    fn signature_norms() {
        use crate::encoding::{SigFormat, decode_signature, signature_size};
        for logn in [9u32, 10] {
            let n = 1usize << logn;
            let (sk, vk) = crate::algo::keygen::keygen_from_seed(logn, &[logn as u8; 32]);
            let exp = Expanded::<Fp>::new(&sk);
            let mut rng = TestRng::new(b"norms");
            let count = 200;
            let mut total = 0f64;
            let mut sig = vec![0u8; signature_size(logn)];
            for i in 0..count {
                let msg = [i as u8; 8];
                let m = Message::raw(&msg);
                exp.sign(&mut rng, &vk.hpk, &m, &[], &mut sig)
                    .expect("sign");
                let mut s2 = [0i16; 1024];
                let nonce =
                    decode_signature(&sig, logn, SigFormat::Padded, &mut s2).expect("decode");
                let mut c = [0u16; 1024];
                encoding::hash_to_point(nonce, &vk.hpk, &m, &[], &mut c[..n]);
                let norm = vk.squared_norm(&c[..n], &s2[..n]) as f64;
                assert!(norm <= SQBETA[logn as usize] as f64);
                total += norm;
            }
            let mean = total / count as f64;
            let sigma = 1.0 / INV_SIGMA[logn as usize];
            let expected = 2.0 * n as f64 * sigma * sigma;
            std::eprintln!("logn {logn}: mean squared norm {mean:.0}, expected {expected:.0}");
            assert!(
                (mean / expected - 1.0).abs() < 0.02,
                "logn {logn}: mean {mean} expected {expected}"
            );
        }
    }

    /// SHA3-256 of the keys and signatures of [`signatures_are_pinned`].
    const PINNED: &str = "1c69c1b9d29f206b7773df0598ff5f02f7a2c5ed38cd3f6ef0fdb470141a965c";

    /// Signatures from fixed key seeds and a fixed RNG stream are pinned:
    /// any change of the signing arithmetic or of the work-area layout
    /// that alters one bit shows up here. The digest is the same for both
    /// float paths and every backend.
    #[test]
    fn signatures_are_pinned() {
        use sha3::Digest;
        let mut h = sha3::Sha3_256::new();
        for logn in [2u32, 3, 5, 9, 10] {
            let (sk, vk) = crate::algo::keygen::keygen_from_seed(logn, &[0x5A ^ logn as u8; 32]);
            h.update(vk.encoded());
            let exp = Expanded::<Fp>::new(&sk);
            let mut rng = TestRng::new(&[logn as u8, 0xA5]);
            let mut sig = vec![0u8; encoding::signature_size(logn)];
            for i in 0..8u8 {
                let msg = [i; 3];
                exp.sign(&mut rng, &vk.hpk, &Message::raw(&msg), &[], &mut sig)
                    .expect("sign");
                h.update(&sig);
            }
        }
        let digest = hex::encode(h.finalize());
        std::eprintln!("pinned signature digest {digest}");
        assert_eq!(digest, PINNED);
    }

    #[test]
    fn tree_sizes() {
        assert_eq!(tree_size(1), 4);
        assert_eq!(tree_size(2), 4 + 2 * 4);
        assert_eq!(tree_size(10), 1024 + 2 * tree_size(9));
    }
}
