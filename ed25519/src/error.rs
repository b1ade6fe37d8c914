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
    /// The context is longer than 255 bytes.
    ContextTooLong,
    /// Ed25519ctx with an empty context (RFC 8032 §5.1: 1 to 255 bytes;
    /// plain Ed25519 is the empty-context scheme).
    EmptyContext,
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
            Error::ContextTooLong => "Ed25519: context longer than 255 bytes",
            Error::EmptyContext => "Ed25519: Ed25519ctx needs a context of 1 to 255 bytes",
            Error::InvalidSignature => "Ed25519: invalid signature",
            Error::InconsistentKey => "Ed25519: public key does not match the private key",
            Error::Rng => "Ed25519: random number generator failed",
        })
    }
}

impl core::error::Error for Error {}

impl Error {
    /// The typed reason inside a `SignatureError` this crate returned (the
    /// ed25519-dalek-named methods and the `signature` traits return
    /// `SignatureError`, with this crate's `Error` as its source when the
    /// `alloc` feature is on; without `alloc` there is no source).
    pub fn from_signature_error(e: &signature::Error) -> Option<Error> {
        core::error::Error::source(e)?
            .downcast_ref::<Error>()
            .copied()
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
