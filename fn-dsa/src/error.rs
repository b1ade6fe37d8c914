//! The crate's error type.

use core::fmt;

/// Everything that can go wrong in this crate. Caller input never panics:
/// it gets one of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// An encoded key or signature has the wrong length.
    InvalidLength,
    /// The header byte of an encoded key or signature is not the expected one
    /// (wrong object type or wrong degree).
    InvalidHeader,
    /// The degree (`logn`) is not supported by the entry point used
    /// (toy degrees 2..=8 need the explicit toy API).
    UnsupportedDegree,
    /// An encoding is not the unique canonical encoding of its value
    /// (value out of range, forbidden code, non-zero padding bits or bytes).
    NonCanonical,
    /// A decoded signing key is inconsistent: `f` is not invertible modulo
    /// q, or the recomputed `G` is out of range.
    InvalidPrivateKey,
    /// A decoded signing key's `f, g, F` and recomputed `G` do not satisfy
    /// the NTRU equation `f G - g F = q` (the key cannot sign: its
    /// sampler basis is degenerate).
    InconsistentKey,
    /// The context string is longer than 255 bytes.
    ContextTooLong,
    /// A pre-hashed message has the wrong length for its hash function.
    InvalidPrehash,
    /// The signature is not valid for this key and message.
    InvalidSignature,
    /// The random number generator failed.
    Rng,
    /// Signing did not succeed within its bounded number of attempts
    /// (practically impossible with a working RNG and a valid key).
    RejectionLimit,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Error::InvalidLength => "invalid length",
            Error::InvalidHeader => "invalid header byte",
            Error::UnsupportedDegree => "unsupported degree",
            Error::NonCanonical => "non-canonical encoding",
            Error::InvalidPrivateKey => "invalid signing key (f not invertible or G out of range)",
            Error::InconsistentKey => "inconsistent signing key (f G - g F != q)",
            Error::ContextTooLong => "context longer than 255 bytes",
            Error::InvalidPrehash => "pre-hashed message has the wrong length",
            Error::InvalidSignature => "invalid signature",
            Error::Rng => "random number generator failure",
            Error::RejectionLimit => "rejection sampling bound reached",
        })
    }
}

impl core::error::Error for Error {}

impl From<Error> for signature::Error {
    fn from(_: Error) -> Self {
        signature::Error::new()
    }
}
