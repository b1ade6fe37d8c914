//! FIPS 204 Alg. 7 ML-DSA.Sign_internal (from mu on) with the ExpandMask
//! stream.
#![allow(clippy::needless_range_loop)]

use super::*;
use pqkit_common::wipe::WipedBytes;

use super::encoding::encode_sig;
#[cfg(not(feature = "alloc"))]
use super::expand::matrix_mul;
#[cfg(feature = "alloc")]
use super::expand::{expand_a, expanded_mul};

/// FIPS 204 Alg. 34 ExpandMask as a stream: `y[r] = BitUnpack(H(rho'' ||
/// IntegerToBytes(kappa + r, 2)))`. Attempt n uses indices `n l .. n l + l -
/// 1`, so over the signing loop the indices run 0, 1, 2, ...: they are
/// generated four at a time with the 4-way SHAKE256 and handed out in order,
/// so no lane is wasted when `l` is not a multiple of 4 (at most three
/// polynomials are computed ahead and unused). Wiped on drop (it holds y).
pub(super) struct MaskStream {
    buf: [Poly; 4],
    /// Index of `buf[0]`.
    base: u32,
    /// First index not generated yet (`base + 4` once started).
    next: u32,
}

impl Drop for MaskStream {
    fn drop(&mut self) {
        self.buf.zeroize();
    }
}

impl MaskStream {
    fn new() -> Self {
        Self {
            buf: zero_vec(),
            base: 0,
            next: 0,
        }
    }

    /// Write `y` for `index` to `out`.
    fn take<B: Backend, P: ParameterSet>(
        &mut self,
        b: B,
        rho_pp: &[u8; 64],
        index: u32,
        out: &mut Poly,
    ) {
        if index < self.base || index >= self.next {
            self.fill::<B, P>(b, rho_pp, index);
        }
        let k = (index - self.base) as usize;
        if let Some(p) = self.buf.get(k) {
            out.coeffs = p.coeffs;
        }
    }

    fn fill<B: Backend, P: ParameterSet>(&mut self, b: B, rho_pp: &[u8; 64], base: u32) {
        let zb = pack::z_bytes(P::GAMMA1_BITS);
        let mut seeds: [[u8; 66]; 4] = core::array::from_fn(|k| {
            let mut s = [0u8; 66];
            s[..64].copy_from_slice(rho_pp);
            s[64..].copy_from_slice(&((base + k as u32) as u16).to_le_bytes());
            s
        });
        let mut x = Shake256X4::absorb(b, &seeds);
        pqkit_common::wipe::wipe(seeds.as_flattened_mut());
        // 5 blocks = 680 bytes >= 640.
        let mut buf = WipedBytes([[0u8; 5 * SHAKE256_RATE]; 4]);
        let mut blocks = WipedBytes([[0u8; SHAKE256_RATE]; 4]);
        for n in 0..5 {
            x.squeeze_block(&mut blocks);
            for (o, blk) in buf.iter_mut().zip(blocks.iter()) {
                o[n * SHAKE256_RATE..(n + 1) * SHAKE256_RATE].copy_from_slice(blk);
            }
        }
        for (bytes, p) in buf.iter().zip(self.buf.iter_mut()) {
            pack::unpack_z(P::GAMMA1_BITS, &bytes[..zb], p);
        }
        self.base = base;
        self.next = base + 4;
    }
}

/// FIPS 204 Alg. 7 ML-DSA.Sign_internal from line 7 on (mu given).
#[inline(never)] // one frame per operation: keeps the stack peak down
pub(crate) fn sign_mu<B: Backend, P: ParameterSet>(
    b: B,
    sk: &SecretParts,
    forms: &SignForms,
    mu: &[u8; 64],
    rnd: &[u8; 32],
    sig: &mut [u8],
) -> Result<(), Error> {
    if sig.len() != P::SIG_LEN {
        return Err(Error::InvalidLength);
    }
    // Line 7: rho'' = H(K || rnd || mu, 64).
    let mut rho_pp = Zeroizing::new([0u8; 64]);
    h(&[&sk.key, rnd, mu], &mut rho_pp[..]);
    #[cfg(feature = "alloc")]
    let a = expand_a::<B, P>(b, &sk.rho)?;

    let g1 = gamma1::<P>();
    let g2 = P::GAMMA2.value();
    let ct_len = ctilde_len::<P>();
    let mut kappa: u32 = 0;
    let mut mask = MaskStream::new();
    // Buffers are reused to keep the stack small: `z` first holds NTT(y),
    // and `w` holds the hint once w1 and w0 are extracted.
    let mut y = Secret::<MAX_L>::new(P::L);
    let mut z = Secret::<MAX_L>::new(P::L);
    let mut w = Secret::<MAX_K>::new(P::K);
    let mut w1 = Secret::<MAX_K>::new(P::K);
    let mut w0 = Secret::<MAX_K>::new(P::K);
    let mut tmp = Zeroizing::new(Poly::default());
    let mut w1buf = [0u8; 192];
    let w1b = pack::w1_bytes(P::GAMMA2);
    let mut ctilde = [0u8; 64];
    for _ in 0..MAX_SIGN_ATTEMPTS {
        // Lines 11..13: y = ExpandMask(rho'', kappa), w = NTT^-1(A NTT(y)).
        for (r, yr) in y.iter_mut().enumerate().take(P::L) {
            mask.take::<B, P>(b, &rho_pp, kappa + r as u32, yr);
        }
        kappa += P::L as u32;
        for j in 0..P::L {
            z[j].coeffs = y[j].coeffs;
            b.ntt_q8380417(&mut z[j]);
        }
        #[cfg(feature = "alloc")]
        expanded_mul::<B, P>(b, &a, &z, &mut w);
        #[cfg(not(feature = "alloc"))]
        matrix_mul::<B, P, Error>(b, &sk.rho, &z, &mut w)?;
        // Line 14: w1 = HighBits(w) (w0 kept for line 21).
        let mut hasher = Shake256::default();
        hasher.update(mu);
        for i in 0..P::K {
            b.reduce32_q8380417(&mut w[i]);
            b.inv_ntt_tomont_q8380417(&mut w[i]);
            b.caddq_q8380417(&mut w[i]);
            b.decompose_q8380417(P::GAMMA2, &w[i], &mut w1[i], &mut w0[i]);
            pack::pack_w1(P::GAMMA2, &w1[i], &mut w1buf[..w1b]);
            hasher.update(&w1buf[..w1b]);
        }
        // Line 15: c~ = H(mu || w1Encode(w1)). The commitment hash is part
        // of the signature and w1 is recomputed by verifiers: public.
        hasher.finalize_xof().read(&mut ctilde[..ct_len]);
        let ctilde = declassify(ctilde);
        // Lines 16..18: c = SampleInBall(c~), c hat = NTT(c).
        let mut chat = sample_in_ball(&ctilde[..ct_len], P::TAU).ok_or(Error::RejectionLimit)?;
        b.ntt_q8380417(&mut chat);
        // Line 20: z = y + <<c s1>>.
        let mut reject = false;
        for j in 0..P::L {
            b.pointwise_mont_q8380417(&chat, &sk.s1hat[j], &mut z[j]);
            b.inv_ntt_tomont_q8380417(&mut z[j]);
            b.add_q8380417(&mut z[j], &y[j]);
            b.reduce32_q8380417(&mut z[j]);
            reject |= b.exceeds_norm_q8380417(&z[j], g1 - P::BETA);
        }
        // Line 23: the rejection decision is public (FIPS 204 §3.6.3: only
        // the accepted signature's distribution is protected).
        if declassify(reject) {
            continue;
        }
        // Line 21: r0 = LowBits(w - <<c s2>>) = w0 - c s2.
        for i in 0..P::K {
            b.pointwise_mont_q8380417(&chat, &forms.s2hat[i], &mut tmp);
            b.inv_ntt_tomont_q8380417(&mut tmp);
            b.sub_q8380417(&mut w0[i], &tmp);
            b.reduce32_q8380417(&mut w0[i]);
            reject |= b.exceeds_norm_q8380417(&w0[i], g2 - P::BETA);
        }
        if declassify(reject) {
            continue;
        }
        // Lines 25..28: <<c t0>>, hint, checks.
        let mut ones = 0u32;
        for i in 0..P::K {
            b.pointwise_mont_q8380417(&chat, &forms.t0hat[i], &mut tmp);
            b.inv_ntt_tomont_q8380417(&mut tmp);
            b.reduce32_q8380417(&mut tmp);
            reject |= b.exceeds_norm_q8380417(&tmp, g2);
            b.add_q8380417(&mut w0[i], &tmp);
            ones += b.make_hint_q8380417(P::GAMMA2, &w0[i], &w1[i], &mut w[i]);
        }
        if declassify(reject || ones as usize > P::OMEGA) {
            continue;
        }
        // Line 33: sigEncode(c~, z mod+- q, h) (Alg. 26 + Alg. 20).
        encode_sig::<P>(&ctilde[..ct_len], &z, &w, sig);
        return Ok(());
    }
    Err(Error::RejectionLimit)
}
