//! Toy degrees `logn` 2..=8 (n = 4..256): **insecure**, for tests and
//! research only. This module is the only entry point that accepts them;
//! the standard types reject them. Keys and signatures are variable-size
//! byte vectors with the same layouts as the standard degrees.

use crate::Error;
use crate::algo::{signing_key::SecretParts, verify::PublicParts};
use crate::encoding::{self, Message, SigFormat};
use alloc::vec;
use alloc::vec::Vec;

const LOGN_MIN: u32 = 2;
const LOGN_MAX: u32 = 8;

fn check_logn(logn: u32) -> Result<(), Error> {
    if (LOGN_MIN..=LOGN_MAX).contains(&logn) {
        Ok(())
    } else {
        Err(Error::UnsupportedDegree)
    }
}

/// A toy-degree verifying key.
#[derive(Clone, Debug)]
pub struct VerifyingKey(PublicParts);

impl core::fmt::Debug for PublicParts {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PublicParts")
            .field("logn", &self.logn)
            .finish_non_exhaustive()
    }
}

impl VerifyingKey {
    /// Decode an encoded verifying key of degree `logn` 2..=8.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        PublicParts::decode(bytes, LOGN_MIN, LOGN_MAX).map(Self)
    }

    /// The encoded key.
    pub fn as_bytes(&self) -> &[u8] {
        self.0.encoded()
    }

    /// log2 of the degree.
    pub fn logn(&self) -> u32 {
        self.0.logn
    }

    /// Verify a (fixed-size) signature.
    pub fn verify_message(&self, msg: &Message<'_>, sig: &[u8]) -> Result<(), Error> {
        self.0.verify(sig, SigFormat::Padded, msg, &[])
    }
}

/// A toy-degree signing key (with its expanded form).
#[derive(Clone)]
pub struct SigningKey {
    core: SecretParts,
    vk: VerifyingKey,
    exp: crate::algo::sign::Expanded,
}

impl zeroize::ZeroizeOnDrop for SigningKey {}

impl core::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SigningKey")
            .field("logn", &self.core.logn)
            .finish_non_exhaustive()
    }
}

impl SigningKey {
    /// A toy key pair of degree `2^logn`, `logn` in 2..=8, from the
    /// 32-byte seed of the key-generation stream.
    pub fn from_seed(logn: u32, seed: &[u8; 32]) -> Result<Self, Error> {
        check_logn(logn)?;
        let (core, vk) = crate::algo::keygen::keygen_from_seed(logn, seed);
        Ok(Self::from_parts(core, vk))
    }

    /// A toy key pair of degree `2^logn`, `logn` in 2..=8, the seed drawn
    /// from `rng`.
    pub fn generate_with_logn<R: rand_core::TryCryptoRng + ?Sized>(
        logn: u32,
        rng: &mut R,
    ) -> Result<Self, Error> {
        check_logn(logn)?;
        let (core, vk) = crate::algo::keygen::keygen(logn, rng).map_err(|_| Error::Rng)?;
        Ok(Self::from_parts(core, vk))
    }

    /// Decode an encoded toy signing key.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let (core, vk) = SecretParts::decode(bytes, LOGN_MIN, LOGN_MAX)?;
        let exp = crate::algo::sign::Expanded::new(&core);
        Ok(Self {
            core,
            vk: VerifyingKey(vk),
            exp,
        })
    }

    fn from_parts(core: SecretParts, vk: PublicParts) -> Self {
        let exp = crate::algo::sign::Expanded::new(&core);
        Self {
            core,
            vk: VerifyingKey(vk),
            exp,
        }
    }

    /// The encoded signing key (secret: wiped when dropped).
    pub fn to_bytes(&self) -> zeroize::Zeroizing<Vec<u8>> {
        let mut out =
            zeroize::Zeroizing::new(vec![0u8; encoding::signing_key_size(self.core.logn)]);
        self.core.encode(&mut out);
        out
    }

    /// The verifying key.
    pub fn verifying_key(&self) -> VerifyingKey {
        self.vk.clone()
    }

    /// Sign (fixed-size layout), randomness from `rng`.
    pub fn sign_message_randomized<R: rand_core::TryCryptoRng + ?Sized>(
        &self,
        msg: &Message<'_>,
        rng: &mut R,
    ) -> Result<Vec<u8>, Error> {
        let mut out = vec![0u8; encoding::signature_size(self.core.logn)];
        self.exp.sign(rng, &self.vk.0.hpk, msg, &[], &mut out)?;
        Ok(out)
    }
}
