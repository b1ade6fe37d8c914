//! Decoded signing key (integer part): `f, g, F, G` and the verifying key.

use crate::vrfy::VkCore;
use crate::{Error, encoding, ring};
use zeroize::{Zeroize, ZeroizeOnDrop};

/// The secret polynomials of a signing key, with small coefficients.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct SkCore {
    pub(crate) logn: u32,
    pub(crate) f: [i8; 1024],
    pub(crate) g: [i8; 1024],
    pub(crate) cap_f: [i8; 1024],
    pub(crate) cap_g: [i8; 1024],
}

impl SkCore {
    /// Decode an encoded signing key, recompute `G = g*F/f mod q` and
    /// `h = g/f mod q`. Fails if `f` is not invertible modulo q or `G` has
    /// a coefficient outside `[-127, 127]`.
    pub(crate) fn decode(
        src: &[u8],
        logn_min: u32,
        logn_max: u32,
    ) -> Result<(Self, VkCore), Error> {
        let mut sk = SkCore {
            logn: 0,
            f: [0; 1024],
            g: [0; 1024],
            cap_f: [0; 1024],
            cap_g: [0; 1024],
        };
        sk.logn = encoding::decode_signing_key(
            src,
            logn_min,
            logn_max,
            &mut sk.f,
            &mut sk.g,
            &mut sk.cap_f,
        )?;
        let vk = sk.complete()?;
        Ok((sk, vk))
    }

    /// Given `f, g, F`, compute `G` and the verifying key.
    pub(crate) fn complete(&mut self) -> Result<VkCore, Error> {
        let n = 1usize << self.logn;
        let mut wf = [0u16; 1024];
        let mut wh = [0u16; 1024];
        let mut wg = [0u16; 1024];
        for i in 0..n {
            wf[i] = ring::from_signed(self.f[i] as i32);
            wh[i] = ring::from_signed(self.g[i] as i32);
            wg[i] = ring::from_signed(self.cap_f[i] as i32);
        }
        ring::ntt(&mut wf[..n]);
        ring::ntt(&mut wh[..n]);
        ring::ntt(&mut wg[..n]);
        let invertible = ring::div_pointwise(&mut wh[..n], &wf[..n]);
        // Whether the key decodes is public.
        if !pqkit_common::ct::declassify(invertible) {
            wf.zeroize();
            wh.zeroize();
            wg.zeroize();
            return Err(Error::InvalidKey);
        }
        // G = h * F (NTT domain).
        ring::mul_pointwise(&mut wg[..n], &wh[..n]);
        ring::intt(&mut wg[..n]);
        ring::intt(&mut wh[..n]);
        let mut bad = 0u32;
        for i in 0..n {
            let v = ring::to_signed(wg[i]);
            // |v| <= 127 <=> v + 127 in [0, 254]
            bad |= ((v + 127) as u32 | (254 - (v + 127)) as u32) >> 31;
            self.cap_g[i] = v as i8;
        }
        wf.zeroize();
        wg.zeroize();
        if pqkit_common::ct::declassify(bad) != 0 {
            return Err(Error::InvalidKey);
        }
        // h is the public key.
        let wh = pqkit_common::ct::declassify(wh);
        Ok(VkCore::from_h(self.logn, &wh[..n]))
    }

    /// Encode `f, g, F`.
    pub(crate) fn encode(&self, out: &mut [u8]) {
        let n = 1usize << self.logn;
        encoding::encode_signing_key(self.logn, &self.f[..n], &self.g[..n], &self.cap_f[..n], out);
    }
}
