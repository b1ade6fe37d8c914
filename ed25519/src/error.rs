//! The error type.

/// What can go wrong with Ed25519 inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// An input has the wrong length.
    InvalidLength,
    /// A public key (or `R`) is not a valid point encoding.
    InvalidPoint,
    /// The signature's `S` is not canonical (`S >= L`).
    NonCanonicalS,
    /// Small-order `A` or `R` (strict verification).
    SmallOrder,
    /// The context is longer than 255 bytes, or empty for Ed25519ctx.
    InvalidContext,
    /// The signature does not verify.
    InvalidSignature,
    /// A PKCS#8 public key does not match the private key.
    InconsistentKey,
    /// The random number generator failed.
    Rng,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Error::InvalidLength => "Ed25519: input has the wrong length",
            Error::InvalidPoint => "Ed25519: invalid point encoding",
            Error::NonCanonicalS => "Ed25519: non-canonical S",
            Error::SmallOrder => "Ed25519: small-order point (strict verification)",
            Error::InvalidContext => {
                "Ed25519: context must be 1..=255 bytes (Ed25519ctx) or at most 255 (Ed25519ph)"
            }
            Error::InvalidSignature => "Ed25519: invalid signature",
            Error::InconsistentKey => "Ed25519: public key does not match the private key",
            Error::Rng => "Ed25519: random number generator failed",
        })
    }
}

impl core::error::Error for Error {}

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
