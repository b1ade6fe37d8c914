//! The error type.

/// What can go wrong with X25519 inputs. The exchange itself cannot fail:
/// every 32-byte string is a public key (a low-order one is reported by
/// [`SharedSecret::was_contributory`](crate::SharedSecret::was_contributory)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// An input has the wrong length.
    InvalidLength,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Error::InvalidLength => "X25519: input has the wrong length",
        })
    }
}

impl core::error::Error for Error {}
