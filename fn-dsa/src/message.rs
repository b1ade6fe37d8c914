//! What is signed ([`Message`]: raw with a context, pre-hashed with any
//! hash of pqkit's registry, or original Falcon) and how it is hashed to
//! the point `c` (the key-bound `hpk`, Falcon spec Alg. 3 HashToPoint).

use crate::Error;
use crate::encoding::HPK_LEN;
use pqkit_common::keccak::Shake256;
use pqkit_common::prehash::HashAlg;

/// What is signed: the message, how it is presented, and the context.
#[derive(Clone, Copy, Debug)]
pub enum Message<'a> {
    /// A raw message with a domain-separation context (at most 255 bytes).
    Raw {
        /// Context string.
        ctx: &'a [u8],
        /// The message itself.
        msg: &'a [u8],
    },
    /// A message pre-hashed by the caller with `hash`.
    PreHashed {
        /// Context string.
        ctx: &'a [u8],
        /// The hash function used (any of pqkit's pre-hash registry; its
        /// OID enters the hash to the point).
        hash: HashAlg,
        /// Its output (length must be `hash.digest_len()`).
        digest: &'a [u8],
    },
    /// Original round-3 Falcon hashing, `SHAKE256(nonce || msg)`: no
    /// context, no key binding, and the nonce is kept when signing
    /// restarts. Obsolescent; for compatibility with round-3 signatures.
    OriginalFalcon {
        /// The message itself.
        msg: &'a [u8],
    },
}

impl<'a> Message<'a> {
    /// A raw message with the empty context.
    pub fn raw(msg: &'a [u8]) -> Self {
        Message::Raw { ctx: &[], msg }
    }

    /// Check the context length and the digest length.
    pub fn check(&self) -> Result<(), Error> {
        match *self {
            Message::Raw { ctx, .. } if ctx.len() > 255 => Err(Error::ContextTooLong),
            Message::PreHashed { ctx, .. } if ctx.len() > 255 => Err(Error::ContextTooLong),
            Message::PreHashed { hash, digest, .. } if digest.len() != hash.digest_len() => {
                Err(Error::InvalidPrehash)
            }
            _ => Ok(()),
        }
    }

    /// Whether this is the original Falcon mode.
    #[cfg(feature = "alloc")]
    pub(crate) fn is_original(&self) -> bool {
        matches!(self, Message::OriginalFalcon { .. })
    }
}

/// `hpk = SHAKE256(encoded verifying key)`, 64 bytes.
pub(crate) fn hash_verifying_key(vk: &[u8]) -> [u8; HPK_LEN] {
    let mut h = Shake256::default();
    h.update(vk);
    let mut out = [0u8; HPK_LEN];
    h.finalize_xof().read(&mut out);
    out
}

/// Hash to the point `c` (values in `[0, q)`, `c.len()` a power of two).
/// The message must have passed [`Message::check`]. `parts` are appended
/// after the message bytes (multipart signing of raw messages).
pub(crate) fn hash_to_point(
    nonce: &[u8],
    hpk: &[u8; HPK_LEN],
    msg: &Message<'_>,
    parts: &[&[u8]],
    c: &mut [u16],
) {
    let mut h = Shake256::default();
    h.update(nonce);
    match *msg {
        Message::Raw { ctx, msg } => {
            h.update(hpk);
            h.update(&[0x00, ctx.len() as u8]);
            h.update(ctx);
            h.update(msg);
        }
        Message::PreHashed { ctx, hash, digest } => {
            h.update(hpk);
            h.update(&[0x01, ctx.len() as u8]);
            h.update(ctx);
            h.update(&hash.oid_der());
            h.update(digest);
        }
        Message::OriginalFalcon { msg } => h.update(msg),
    }
    for p in parts {
        h.update(p);
    }
    let mut rd = h.finalize_xof();
    // Falcon spec Alg. 3 (HashToPoint): 16-bit big-endian samples, keep
    // those below 5q = 61445, reduce modulo q. The message is public, so
    // the rejection could branch; it does not, because the outcome is a
    // coin flip the predictor loses once in 16 samples: every sample is
    // written at `i`, and `i` moves on only if it is kept.
    let n = c.len();
    let mut buf = [0u8; 136];
    let mut i = 0;
    while i < n {
        rd.read(&mut buf);
        for pair in buf.as_chunks::<2>().0 {
            let Some(slot) = c.get_mut(i) else {
                break;
            };
            let w = u32::from(u16::from_be_bytes(*pair));
            *slot = (w % crate::algo::ring::Q as u32) as u16;
            i += usize::from(w < 61445);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_and_prehash_checks() {
        let long = [0u8; 256];
        assert_eq!(
            Message::Raw {
                ctx: &long,
                msg: b""
            }
            .check(),
            Err(Error::ContextTooLong)
        );
        assert_eq!(
            Message::Raw {
                ctx: &long[..255],
                msg: b""
            }
            .check(),
            Ok(())
        );
        let d = HashAlg::Sha2_384.digest(b"abc");
        assert_eq!(d.as_ref().len(), 48);
        let m = Message::PreHashed {
            ctx: b"",
            hash: HashAlg::Sha2_256,
            digest: d.as_ref(),
        };
        assert_eq!(m.check(), Err(Error::InvalidPrehash));
    }
}
