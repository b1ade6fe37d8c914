//! Verification (integer-only), for any degree 2..=10.

use pqkit_common::{Backend, Kernel, dispatch};

use crate::encoding::{self, HPK_LEN, Message, SigFormat};
use crate::{Error, ring};

/// `t <- s2 * h mod q` (coefficient form, `|t_i| < q`), with the AVX2 NTT
/// when available: NTT, Montgomery pointwise product (`2^-16`), inverse NTT
/// (`2^16`).
struct MulH<'a> {
    t: &'a mut [i16],
    h_ntt: &'a [i16],
}

impl Kernel for MulH<'_> {
    type Output = ();
    fn run<B: Backend>(self, b: B) {
        let n = self.t.len();
        let mut r = [0i16; 1024];
        let _ = b.ntt_q12289(self.t);
        let _ = b.pointwise_mont_q12289(self.t, self.h_ntt, &mut r[..n]);
        self.t.copy_from_slice(&r[..n]);
        let _ = b.inv_ntt_tomont_q12289(self.t);
    }
}

/// Centre `x` (any `i32` of small magnitude) modulo q into `(-q/2, q/2]`.
fn centred_mod_q(x: i32) -> i32 {
    let q = ring::Q as i32;
    let r = x.rem_euclid(q);
    if r > q / 2 { r - q } else { r }
}

/// `floor(beta^2)`, the bound on the squared norm of `(s1, s2)`, indexed by
/// logn: `beta^2 = 1.21 * sigma^2 * 2n` with `sigma` of Falcon spec
/// section 3.8.3 (re-derived by `tools/constants.py`; 34034726 and
/// 70265242 are the specification's values for n = 512 and 1024).
pub(crate) const SQBETA: [u64; 11] = [
    0, 101498, 208714, 428865, 892039, 1852696, 3842630, 7959734, 16468416, 34034726, 70265242,
];

/// A decoded verifying key of any degree: `h` in NTT form, `hpk`, and the
/// encoding.
#[derive(Clone)]
pub(crate) struct VkCore {
    pub(crate) logn: u32,
    /// `h` in the NTT domain of `pqkit_common::q12289`.
    pub(crate) h_ntt: [i16; 1024],
    pub(crate) hpk: [u8; HPK_LEN],
    pub(crate) enc: [u8; 1793],
}

impl VkCore {
    pub(crate) fn decode(src: &[u8], logn_min: u32, logn_max: u32) -> Result<Self, Error> {
        let mut h = [0u16; 1024];
        let logn = encoding::decode_verifying_key(src, logn_min, logn_max, &mut h)?;
        let n = 1usize << logn;
        let h_ntt = h_to_ntt(&h[..n]);
        let mut enc = [0u8; 1793];
        enc[..src.len()].copy_from_slice(src);
        Ok(Self {
            logn,
            h_ntt,
            hpk: encoding::hash_verifying_key(src),
            enc,
        })
    }

    /// Build from `h` in coefficient form (values in `[0, q)`).
    #[cfg(feature = "alloc")]
    pub(crate) fn from_h(logn: u32, h: &[u16]) -> Self {
        let n = 1usize << logn;
        let mut enc = [0u8; 1793];
        let len = encoding::verifying_key_size(logn);
        encoding::encode_verifying_key(logn, &h[..n], &mut enc[..len]);
        let h_ntt = h_to_ntt(&h[..n]);
        Self {
            logn,
            h_ntt,
            hpk: encoding::hash_verifying_key(&enc[..len]),
            enc,
        }
    }

    /// `||(c - s2 h mod q, s2)||^2` (`c` from HashToPoint, canonical).
    pub(crate) fn squared_norm(&self, c: &[u16], s2: &[i16]) -> u64 {
        let n = 1usize << self.logn;
        let mut t = [0i16; 1024];
        t[..n].copy_from_slice(&s2[..n]);
        dispatch(MulH {
            t: &mut t[..n],
            h_ntt: &self.h_ntt[..n],
        });
        let mut norm = 0u64;
        for i in 0..n {
            let s1 = i64::from(centred_mod_q(i32::from(c[i]) - i32::from(t[i])));
            let z = i64::from(s2[i]);
            norm += (s1 * s1 + z * z) as u64;
        }
        norm
    }

    pub(crate) fn encoded(&self) -> &[u8] {
        &self.enc[..encoding::verifying_key_size(self.logn)]
    }

    /// Falcon spec Alg. 16 (Verify): decode, hash to the point, recompute
    /// `s1 = c - s2 * h mod q`, accept iff `||(s1, s2)||^2 <= beta^2`.
    pub(crate) fn verify(
        &self,
        sig: &[u8],
        format: SigFormat,
        msg: &Message<'_>,
        parts: &[&[u8]],
    ) -> Result<(), Error> {
        msg.check()?;
        let logn = self.logn;
        let n = 1usize << logn;
        let mut s2 = [0i16; 1024];
        let nonce = encoding::decode_signature(sig, logn, format, &mut s2)?;
        let mut c = [0u16; 1024];
        encoding::hash_to_point(nonce, &self.hpk, msg, parts, &mut c[..n]);
        let norm = self.squared_norm(&c[..n], &s2[..n]);
        if norm <= SQBETA[logn as usize] {
            Ok(())
        } else {
            Err(Error::InvalidSignature)
        }
    }
}

/// `h` (canonical coefficients) in the NTT domain of `pqkit_common::q12289`.
fn h_to_ntt(h: &[u16]) -> [i16; 1024] {
    let n = h.len();
    let mut out = [0i16; 1024];
    // Centred first: the kernel expects `|h_i| <= q`.
    for (o, &x) in out.iter_mut().zip(h) {
        *o = ring::centred(x);
    }
    dispatch(ring::Fwd(&mut out[..n]));
    out
}

/// Open a NIST round-3 `sm` (`crypto_sign` output): 2-byte big-endian
/// length of the signature body, 40-byte nonce, message, then the body
/// (header `0x20 + logn`, compressed `s2`). Returns the message on success.
pub(crate) fn open_round3_sm<'a>(vk: &VkCore, sm: &'a [u8]) -> Result<&'a [u8], Error> {
    if sm.len() < 2 + encoding::NONCE_LEN {
        return Err(Error::InvalidLength);
    }
    let body_len = u16::from_be_bytes([sm[0], sm[1]]) as usize;
    let msg_len = sm
        .len()
        .checked_sub(2 + encoding::NONCE_LEN + body_len)
        .ok_or(Error::InvalidLength)?;
    if body_len < 2 {
        return Err(Error::InvalidLength);
    }
    let nonce = &sm[2..2 + encoding::NONCE_LEN];
    let msg = &sm[2 + encoding::NONCE_LEN..2 + encoding::NONCE_LEN + msg_len];
    let body = &sm[2 + encoding::NONCE_LEN + msg_len..];
    if body[0] != 0x20 + vk.logn as u8 {
        return Err(Error::InvalidHeader);
    }
    // Re-assemble the detached round-3 signature: header 0x30 + logn,
    // nonce, compressed s2.
    let max = encoding::signature_max_size_round3(10);
    let mut sig = [0u8; encoding::signature_max_size_round3(10)];
    let len = 1 + encoding::NONCE_LEN + body.len() - 1;
    if len > max {
        return Err(Error::InvalidLength);
    }
    sig[0] = 0x30 + vk.logn as u8;
    sig[1..1 + encoding::NONCE_LEN].copy_from_slice(nonce);
    sig[1 + encoding::NONCE_LEN..len].copy_from_slice(&body[1..]);
    vk.verify(
        &sig[..len],
        SigFormat::Round3,
        &Message::OriginalFalcon { msg },
        &[],
    )?;
    Ok(msg)
}
