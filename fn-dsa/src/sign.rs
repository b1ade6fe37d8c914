//! Signing: the expanded (FFT-domain) key with its ffLDL tree, and the
//! signing loop (Falcon spec Alg. 10, with the FN-DSA hashing).

use crate::encoding::{self, HPK_LEN, Message, NONCE_LEN};
use crate::flr::Flr;
use crate::sampler::{INV_SIGMA, Sampler};
use crate::skey::SkCore;
use crate::{Error, fft, vrfy::SQBETA};
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
pub(crate) type Fp = crate::flr::Emu;

/// Upper bound on signing attempts (each fails with tiny probability for
/// the standard degrees; toy degrees restart more often).
const MAX_ATTEMPTS: usize = 100_000;

/// The expanded signing key: the basis `B = [[g, -f], [G, -F]]` and the
/// normalised ffLDL tree of its Gram matrix, all in FFT form
/// (`(logn + 5) * n` doubles: 120 KiB for n = 1024).
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct Expanded<F: Flr = Fp> {
    logn: u32,
    /// `b00 || b01 || b10 || b11 || tree`.
    data: Vec<F>,
}

/// ffLDL (Falcon spec Alg. 9) on the Gram matrix `[[g00, g01],
/// [adj(g01), g11]]` (FFT form, consumed), writing the tree with leaves
/// normalised to `sqrt(d) / sigma` (the inverse of the spec's `sigma'`).
/// `tmp` needs `3n` values.
fn ffldl<F: Flr>(
    logn: u32,
    g00: &mut [F],
    g01: &[F],
    g11: &mut [F],
    tree: &mut [F],
    tmp: &mut [F],
    isig: F,
) {
    let n = 1usize << logn;
    let hn = n >> 1;
    for j in 0..hn {
        let inv = F::of(1.0).div(g00[j]);
        let (mr, mi) = (g01[j].mul(inv), g01[j + hn].mul(inv));
        // l10 = adj(g01) / g00; d11 = g11 - |g01|^2 / g00 (self-adjoint).
        tree[j] = mr;
        tree[j + hn] = mi.neg();
        g11[j] = g11[j].sub(mr.mul(g01[j]).add(mi.mul(g01[j + hn])));
        g11[j + hn] = F::default();
        g00[j + hn] = F::default();
    }
    if logn == 1 {
        tree[2] = fft::sqrt(g00[0]).mul(isig);
        tree[3] = fft::sqrt(g11[0]).mul(isig);
        return;
    }
    let child = tree_size(logn - 1);
    let (_, rest) = tree.split_at_mut(n);
    let (left, right) = rest.split_at_mut(child);
    let (a0, rest) = tmp.split_at_mut(hn);
    let (a1, rest) = rest.split_at_mut(hn);
    let (a2, rest) = rest.split_at_mut(hn);
    // Children: the Gram matrices [[d0, d1], [adj(d1), d0]] of the splits
    // d(x) = d0(x^2) + x d1(x^2) of d00 and d11.
    fft::split(a0, a1, g00);
    a2.copy_from_slice(a0);
    ffldl(logn - 1, a0, a1, a2, left, rest, isig);
    fft::split(a0, a1, g11);
    a2.copy_from_slice(a0);
    ffldl(logn - 1, a0, a1, a2, right, rest, isig);
    // a0, a1, a2 live in the caller's work area, wiped once at the end of
    // `Expanded::new`.
}

impl<F: Flr> Expanded<F> {
    /// Expand a decoded key (once per key).
    pub(crate) fn new(sk: &SkCore) -> Self {
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
            fft::fft(b00);
            fft::fft(b01);
            fft::fft(b10);
            fft::fft(b11);
            // Gram matrix G = B * adj(B).
            let mut work = vec![F::default(); 6 * n];
            {
                let (g00, rest) = work.split_at_mut(n);
                let (g01, rest) = rest.split_at_mut(n);
                let (g11, tmp) = rest.split_at_mut(n);
                fft::add_mul_adj(g00, b00, b00);
                fft::add_mul_adj(g00, b01, b01);
                fft::add_mul_adj(g01, b00, b10);
                fft::add_mul_adj(g01, b01, b11);
                fft::add_mul_adj(g11, b10, b10);
                fft::add_mul_adj(g11, b11, b11);
                ffldl(
                    logn,
                    g00,
                    g01,
                    g11,
                    tree,
                    tmp,
                    F::of(INV_SIGMA[logn as usize]),
                );
            }
            work.zeroize();
        }
        Self { logn, data }
    }

    /// Sign `msg` into `out` (the fixed-size layout,
    /// [`encoding::signature_size`] bytes).
    pub(crate) fn sign<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        hpk: &[u8; HPK_LEN],
        msg: &Message<'_>,
        parts: &[&[u8]],
        out: &mut [u8],
    ) -> Result<(), Error> {
        msg.check()?;
        let logn = self.logn;
        let n = 1usize << logn;
        let (basis, tree) = self.data.split_at(4 * n);
        let (b00, rest) = basis.split_at(n);
        let (b01, rest) = rest.split_at(n);
        let (b10, b11) = rest.split_at(n);
        let original = msg.is_original();

        let mut nonce = [0u8; NONCE_LEN];
        let mut hm = [0u16; 1024];
        let mut seed = [0u8; 56];
        let mut s2 = [0i16; 1024];
        let mut work = vec![F::default(); 8 * n];
        let mut result = Err(Error::IterationLimit);
        for attempt in 0..MAX_ATTEMPTS {
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
            let (t1, rest) = rest.split_at_mut(n);
            let (tx, rest) = rest.split_at_mut(n);
            let (ty, tmp) = rest.split_at_mut(n);
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
            // (s1, s2) = (hm, 0) - z B.
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
        work.zeroize();
        seed.zeroize();
        s2.zeroize();
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        use crate::flr::Emu;
        for logn in [2u32, 5, 9, 10] {
            let mut sk =
                crate::kgen::keygen_from_seed(logn, &[logn as u8 + 1; 32]).expect("keygen");
            let vk = sk.complete().expect("key");
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
            let mut sk = crate::kgen::keygen_from_seed(logn, &[logn as u8; 32]).expect("keygen");
            let vk = sk.complete().expect("key");
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

    #[test]
    fn tree_sizes() {
        assert_eq!(tree_size(1), 4);
        assert_eq!(tree_size(2), 4 + 2 * 4);
        assert_eq!(tree_size(10), 1024 + 2 * tree_size(9));
    }
}
