//! The crate's error type.

/// Everything that can go wrong in ML-DSA. Never carries secret data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// An input (key, signature, seed, digest, mu) has the wrong length.
    InvalidLength,
    /// The context string is longer than 255 bytes.
    ContextTooLong,
    /// An expanded private key is malformed: a coefficient of s1/s2 is out
    /// of `[-eta, eta]`, or `t0`/`tr` do not match the rest of the key.
    InvalidPrivateKey,
    /// A PKCS#8 key holding both seed and expanded key whose parts disagree.
    InconsistentKey,
    /// A [`SigningKey`](crate::SigningKey) keeps its seed, and the private
    /// key has none (the PKCS#8 `expandedKey` form): load it as an
    /// [`ExpandedSigningKey`](crate::ExpandedSigningKey).
    NoSeed,
    /// The hint part of a signature is malformed (indices not strictly
    /// increasing, too many ones, non-zero padding).
    MalformedHint,
    /// The response `z` of a signature is out of range.
    ZOutOfRange,
    /// The signature does not verify.
    InvalidSignature,
    /// The bounded rejection-sampling loop of signing (814 attempts) or of
    /// matrix/vector sampling ran out; probability below `2^-256` per call.
    RejectionLimit,
    /// The random number generator failed.
    Rng,
    /// Unknown pre-hash algorithm name or OID.
    UnknownHash,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Error::InvalidLength => "ML-DSA: input has the wrong length",
            Error::ContextTooLong => "ML-DSA: context string longer than 255 bytes",
            Error::InvalidPrivateKey => "ML-DSA: malformed expanded private key",
            Error::InconsistentKey => "ML-DSA: seed and expanded private key disagree",
            Error::NoSeed => {
                "ML-DSA: the private key has no seed (load it as an ExpandedSigningKey)"
            }
            Error::MalformedHint => "ML-DSA: malformed signature hint",
            Error::ZOutOfRange => "ML-DSA: signature response z out of range",
            Error::InvalidSignature => "ML-DSA: invalid signature",
            Error::RejectionLimit => "ML-DSA: rejection sampling bound reached",
            Error::Rng => "ML-DSA: random number generator failed",
            Error::UnknownHash => "ML-DSA: unknown pre-hash algorithm",
        })
    }
}

impl core::error::Error for Error {}

impl From<pqkit_common::prehash::Error> for Error {
    fn from(e: pqkit_common::prehash::Error) -> Self {
        match e {
            pqkit_common::prehash::Error::UnknownHash => Error::UnknownHash,
            _ => Error::InvalidLength,
        }
    }
}

impl From<Error> for signature::Error {
    fn from(e: Error) -> Self {
        #[cfg(feature = "alloc")]
        {
            signature::Error::from_source(e)
        }
        #[cfg(not(feature = "alloc"))]
        {
            let _ = e;
            signature::Error::new()
        }
    }
}
