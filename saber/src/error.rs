//! The error type.

/// What can go wrong with Saber inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// An input has the wrong length.
    InvalidLength,
    /// A decapsulation key whose embedded `H(pk)` does not match its
    /// embedded `pk`.
    InconsistentKey,
    /// A decapsulation key whose secret `s` has a coefficient outside
    /// `[-mu/2, mu/2]` (no key generation makes it).
    InvalidPrivateKey,
    /// The random number generator failed.
    Rng,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Error::InvalidLength => "Saber: input has the wrong length",
            Error::InconsistentKey => "Saber: H(pk) in the secret key does not match its pk",
            Error::InvalidPrivateKey => "Saber: secret key coefficient out of range",
            Error::Rng => "Saber: random number generator failed",
        })
    }
}

impl core::error::Error for Error {}
