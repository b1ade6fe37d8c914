//! The explicit, dangerous entry points: the insecure toy degrees and the
//! seed-driven key generation of the test vectors.

/// Key generation from the 32-byte seed that drives its SHAKE256 stream
/// (fn-dsa 0.3's `KeyPairGeneratorStandard` consumes exactly these 32
/// bytes from its RNG); the same as
/// [`SigningKey::from_seed`](crate::SigningKey::from_seed).
#[cfg(feature = "alloc")]
pub fn keygen_internal<P: crate::ParameterSet>(seed: &[u8; 32]) -> crate::SigningKey<P> {
    crate::SigningKey::from_seed(seed)
}

#[cfg(feature = "alloc")]
pub mod toy;
