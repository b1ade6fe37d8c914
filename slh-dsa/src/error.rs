//! The crate's error type.

/// Everything that can go wrong in SLH-DSA. Never carries secret data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// An input (key, signature, seed, randomness, digest) has the wrong
    /// length.
    InvalidLength,
    /// The context string is longer than 255 bytes.
    ContextTooLong,
    /// An imported private key whose `PK.root` is not the root its seeds
    /// generate.
    InvalidPrivateKey,
    /// The signature does not verify.
    InvalidSignature,
    /// The random number generator failed.
    Rng,
    /// Unknown pre-hash algorithm name or OID.
    UnknownHash,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Error::InvalidLength => "SLH-DSA: input has the wrong length",
            Error::ContextTooLong => "SLH-DSA: context string longer than 255 bytes",
            Error::InvalidPrivateKey => "SLH-DSA: private key's PK.root does not match its seeds",
            Error::InvalidSignature => "SLH-DSA: invalid signature",
            Error::Rng => "SLH-DSA: random number generator failed",
            Error::UnknownHash => "SLH-DSA: unknown pre-hash algorithm",
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
