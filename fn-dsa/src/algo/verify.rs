//! Verification (integer-only), for any degree 2..=10.

use pqkit_common::dispatch;
use pqkit_common::q12289::scalar;

use crate::Error;
use crate::algo::ring;
use crate::encoding::{self, HPK_LEN, Message, SigFormat};

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
pub(crate) struct PublicParts {
    pub(crate) logn: u32,
    /// `h` in the NTT domain of `pqkit_common::q12289`.
    pub(crate) h_ntt: [i16; 1024],
    pub(crate) hpk: [u8; HPK_LEN],
    pub(crate) enc: [u8; 1793],
}

impl PublicParts {
    pub(crate) fn decode(src: &[u8], logn_min: u32, logn_max: u32) -> Result<Self, Error> {
        // Canonical coefficients, which the forward NTT takes as they are.
        let mut h_ntt = [0i16; 1024];
        let logn = encoding::decode_verifying_key(src, logn_min, logn_max, &mut h_ntt)?;
        let n = 1usize << logn;
        ring::ntt(&mut h_ntt[..n]);
        let mut enc = [0u8; 1793];
        enc[..src.len()].copy_from_slice(src);
        Ok(Self {
            logn,
            h_ntt,
            hpk: encoding::hash_verifying_key(src),
            enc,
        })
    }

    /// Build from `h` in coefficient form (canonical, `[0, q)`) and in the
    /// NTT domain (`|h_i| < q`, as [`ring::RecoverG`] gives both).
    #[cfg(feature = "alloc")]
    pub(crate) fn from_h(logn: u32, h: &[i16], h_ntt_in: &[i16]) -> Self {
        let n = 1usize << logn;
        let mut enc = [0u8; 1793];
        let len = encoding::verifying_key_size(logn);
        encoding::encode_verifying_key(logn, &h[..n], &mut enc[..len]);
        let mut h_ntt = [0i16; 1024];
        h_ntt[..n].copy_from_slice(&h_ntt_in[..n]);
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
        let mut s = [0i16; 1024];
        s[..n].copy_from_slice(&s2[..n]);
        let mut t = [0i16; 1024];
        dispatch(ring::MulH {
            s2: &mut s[..n],
            h_ntt: &self.h_ntt[..n],
            out: &mut t[..n],
        });
        let mut norm = 0u64;
        for ((&c, &t), &z) in c[..n].iter().zip(&t[..n]).zip(&s2[..n]) {
            // c in [0, q), |t| < q: c - t fits in i16; centred exactly.
            let s1 = i32::from(scalar::centre(c as i16 - t));
            let z = i32::from(z);
            // s1^2 <= 6144^2 and z^2 <= 2^30: the sum fits in u32.
            norm += u64::from((s1 * s1) as u32 + (z * z) as u32);
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

/// Open a NIST round-3 `sm` (`crypto_sign` output): 2-byte big-endian
/// length of the signature body, 40-byte nonce, message, then the body
/// (header `0x20 + logn`, compressed `s2`). Returns the message on success.
pub(crate) fn open_round3_sm<'a>(vk: &PublicParts, sm: &'a [u8]) -> Result<&'a [u8], Error> {
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
