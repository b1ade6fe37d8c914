//! Decoded signing key (integer part): `f, g, F, G` and the verifying key.

use crate::algo::ring;
use crate::algo::verify::PublicParts;
use crate::{Error, encoding};
use pqkit_common::q12289::scalar;
use zeroize::{Zeroize, ZeroizeOnDrop};

/// The secret polynomials of a signing key, with small coefficients.
#[derive(Clone)]
pub(crate) struct SecretParts {
    pub(crate) logn: u32,
    pub(crate) f: [i8; 1024],
    pub(crate) g: [i8; 1024],
    pub(crate) cap_f: [i8; 1024],
    pub(crate) cap_g: [i8; 1024],
}

// Written out rather than derived: the derive macros would put a proc
// macro (and `syn`) into every user's build.
impl Zeroize for SecretParts {
    fn zeroize(&mut self) {
        self.logn.zeroize();
        self.f.zeroize();
        self.g.zeroize();
        self.cap_f.zeroize();
        self.cap_g.zeroize();
    }
}

impl Drop for SecretParts {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl ZeroizeOnDrop for SecretParts {}

impl SecretParts {
    /// Decode an encoded signing key, recompute `G = g*F/f mod q` and
    /// `h = g/f mod q`. Fails if `f` is not invertible modulo q or `G` has
    /// a coefficient outside `[-127, 127]`.
    pub(crate) fn decode(
        src: &[u8],
        logn_min: u32,
        logn_max: u32,
    ) -> Result<(Self, PublicParts), Error> {
        let mut sk = SecretParts {
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
    pub(crate) fn complete(&mut self) -> Result<PublicParts, Error> {
        let n = 1usize << self.logn;
        let mut w_fg = [0i16; 1024];
        let mut w_gh = [0i16; 1024];
        let mut w_cap_fh = [0i16; 1024];
        for i in 0..n {
            w_fg[i] = self.f[i] as i16;
            w_gh[i] = self.g[i] as i16;
            w_cap_fh[i] = self.cap_f[i] as i16;
        }
        // w_fg <- G, w_gh <- h (NTT domain), w_cap_fh <- h (canonical).
        let invertible = pqkit_common::dispatch(ring::RecoverG {
            fg: &mut w_fg[..n],
            gh: &mut w_gh[..n],
            cap_fh: &mut w_cap_fh[..n],
        });
        let mut bad = 0u32;
        for i in 0..n {
            let v = scalar::centre(w_fg[i]) as i32;
            // |v| <= 127 <=> v + 127 in [0, 254]
            bad |= ((v + 127) as u32 | (254 - (v + 127)) as u32) >> 31;
            self.cap_g[i] = v as i8;
        }
        w_fg.zeroize();
        // Whether the key decodes is public.
        let invertible = pqkit_common::ct::declassify(invertible.unwrap_u8()) == 1;
        if !invertible || pqkit_common::ct::declassify(bad) != 0 {
            w_gh.zeroize();
            w_cap_fh.zeroize();
            return Err(Error::InvalidPrivateKey);
        }
        // G = g F / f mod q makes f G - g F = 0 mod q for any F; the key
        // works only if it is exactly q (an all-zero F, say, decodes but
        // would make signing loop on a degenerate basis).
        let holds = pqkit_common::dispatch(crate::algo::ntru_solver::NtruHolds {
            logn: self.logn,
            f: &self.f[..n],
            g: &self.g[..n],
            cap_f: &self.cap_f[..n],
            cap_g: &self.cap_g[..n],
        });
        // Whether the key is consistent is public.
        if pqkit_common::ct::declassify(holds) != u32::MAX {
            w_gh.zeroize();
            w_cap_fh.zeroize();
            return Err(Error::InconsistentKey);
        }
        // h is the public key.
        let h = pqkit_common::ct::declassify(w_cap_fh);
        let h_ntt = pqkit_common::ct::declassify(w_gh);
        Ok(PublicParts::from_h(self.logn, &h[..n], &h_ntt[..n]))
    }

    /// Encode `f, g, F`.
    pub(crate) fn encode(&self, out: &mut [u8]) {
        let n = 1usize << self.logn;
        encoding::encode_signing_key(self.logn, &self.f[..n], &self.g[..n], &self.cap_f[..n], out);
    }
}
