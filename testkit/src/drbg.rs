//! The NIST PQC KAT DRBG: AES-256 CTR_DRBG exactly as in the `rng.c` of the
//! round-3 `PQCgenKAT_kem` / `PQCgenKAT_sign` programs.
//!
//! **Test-only.** It is deterministic by design and reproduces the NIST
//! known-answer files; never use it as a real random number generator.
//!
//! Each [`fill_bytes`](rand_core::Rng::fill_bytes) (and so each
//! `next_u32`/`next_u64`) is one `randombytes` call of the C program: the
//! DRBG state is updated after every call, so the way output is requested
//! matters, exactly as in the KAT generators (which draw each record's
//! 48-byte seed with one call).
//!
//! ```
//! use pqkit_testkit::drbg::KatDrbg;
//! use rand_core::Rng;
//!
//! let entropy: [u8; 48] = core::array::from_fn(|i| i as u8);
//! let mut master = KatDrbg::new(&entropy);
//! let mut seed = [0u8; 48];
//! master.fill_bytes(&mut seed); // the `seed = ` of record `count = 0`
//! assert_eq!(seed[..4], [0x06, 0x15, 0x50, 0x23]);
//! ```

use aes::Aes256;
use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};
use core::convert::Infallible;
use zeroize::{Zeroize, ZeroizeOnDrop};

/// The AES-256 CTR_DRBG of the NIST PQC KAT programs (test-only).
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct KatDrbg {
    key: [u8; 32],
    v: [u8; 16],
}

impl core::fmt::Debug for KatDrbg {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("KatDrbg { .. }")
    }
}

impl KatDrbg {
    /// `randombytes_init(entropy_input, NULL, 256)`.
    pub fn new(entropy_input: &[u8; 48]) -> Self {
        let mut d = KatDrbg {
            key: [0; 32],
            v: [0; 16],
        };
        d.update(Some(entropy_input));
        d
    }

    /// `V = V + 1` as a 128-bit big-endian counter.
    fn increment_v(&mut self) {
        let v = u128::from_be_bytes(self.v).wrapping_add(1);
        self.v = v.to_be_bytes();
    }

    fn aes(&self, block: &[u8; 16]) -> [u8; 16] {
        let cipher = Aes256::new(&Array::from(self.key));
        let mut b = Array::from(*block);
        cipher.encrypt_block(&mut b);
        b.into()
    }

    /// `AES256_CTR_DRBG_Update(provided_data, Key, V)`.
    fn update(&mut self, provided: Option<&[u8; 48]>) {
        let mut temp = [0u8; 48];
        for chunk in temp.chunks_exact_mut(16) {
            self.increment_v();
            chunk.copy_from_slice(&self.aes(&self.v));
        }
        if let Some(p) = provided {
            for (t, x) in temp.iter_mut().zip(p) {
                *t ^= x;
            }
        }
        self.key.copy_from_slice(&temp[..32]);
        self.v.copy_from_slice(&temp[32..]);
        temp.zeroize();
    }

    /// `randombytes(out, out.len())`.
    pub fn randombytes(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(16) {
            self.increment_v();
            let block = self.aes(&self.v);
            chunk.copy_from_slice(&block[..chunk.len()]);
        }
        self.update(None);
    }
}

impl rand_core::TryRng for KatDrbg {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let mut b = [0u8; 4];
        self.randombytes(&mut b);
        Ok(u32::from_le_bytes(b))
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let mut b = [0u8; 8];
        self.randombytes(&mut b);
        Ok(u64::from_le_bytes(b))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        self.randombytes(dst);
        Ok(())
    }
}

impl rand_core::TryCryptoRng for KatDrbg {}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::Rng;
    use std::vec::Vec;

    /// The `(seed, msg)` of each record of a NIST `.rsp` file under the
    /// shared vectors (`msg` empty for KEM files).
    fn rsp_records(rel: &str) -> Option<Vec<(Vec<u8>, Vec<u8>)>> {
        let records = crate::rsp::load(rel)?;
        Some(
            records
                .iter()
                .map(|r| {
                    let msg = if r.has("msg") {
                        r.hex("msg")
                    } else {
                        Vec::new()
                    };
                    (r.hex("seed"), msg)
                })
                .collect(),
        )
    }

    #[test]
    fn reproduces_every_seed_of_the_nist_kat_files() {
        let entropy: [u8; 48] = core::array::from_fn(|i| i as u8);
        for file in [
            "saber/LightSaber/PQCkemKAT_1568.rsp",
            "saber/FireSaber/PQCkemKAT_3040.rsp",
            "falcon/falcon512-KAT.rsp",
            "falcon/falcon1024-KAT.rsp",
        ] {
            let Some(records) = rsp_records(file) else {
                continue;
            };
            assert_eq!(records.len(), 100, "{file}");
            // PQCgenKAT draws every record's seed (and, for signatures, its
            // 33 * (count + 1)-byte message) from one master DRBG.
            let mut master = KatDrbg::new(&entropy);
            for (count, (seed, msg)) in records.iter().enumerate() {
                let mut got = [0u8; 48];
                master.fill_bytes(&mut got);
                assert_eq!(&got[..], &seed[..], "{file}: seed of count = {count}");
                if !msg.is_empty() {
                    assert_eq!(msg.len(), 33 * (count + 1));
                    let mut m = std::vec![0u8; msg.len()];
                    master.fill_bytes(&mut m);
                    assert_eq!(&m, msg, "{file}: msg of count = {count}");
                }
            }
        }
    }

    #[test]
    fn output_depends_on_request_boundaries_like_rng_c() {
        let entropy = [7u8; 48];
        let mut a = KatDrbg::new(&entropy);
        let mut b = KatDrbg::new(&entropy);
        let mut one = [0u8; 32];
        a.fill_bytes(&mut one);
        let mut two = [0u8; 32];
        b.fill_bytes(&mut two[..16]);
        b.fill_bytes(&mut two[16..]);
        assert_eq!(one[..16], two[..16]);
        assert_ne!(one[16..], two[16..]);
    }
}
