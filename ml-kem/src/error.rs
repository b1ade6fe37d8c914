//! The error type.

/// What can go wrong with ML-KEM inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// An input has the wrong length.
    InvalidLength,
    /// The encapsulation key fails the FIPS 203 §7.2 modulus check (a
    /// coefficient is not below q).
    InvalidEncapsulationKey,
    /// The expanded decapsulation key fails the FIPS 203 §7.3 hash check
    /// (or its embedded encapsulation key fails §7.2).
    InvalidDecapsulationKey,
    /// A seed and an expanded key given together do not match.
    InconsistentKey,
    /// The key was made from an expanded key and has no seed to export.
    NoSeed,
    /// The random number generator failed.
    Rng,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Error::InvalidLength => "ML-KEM: input has the wrong length",
            Error::InvalidEncapsulationKey => {
                "ML-KEM: encapsulation key fails the modulus check (FIPS 203 §7.2)"
            }
            Error::InvalidDecapsulationKey => {
                "ML-KEM: decapsulation key fails the hash check (FIPS 203 §7.3)"
            }
            Error::InconsistentKey => "ML-KEM: seed and expanded decapsulation key disagree",
            Error::NoSeed => "ML-KEM: key has no seed (made from an expanded key)",
            Error::Rng => "ML-KEM: random number generator failed",
        })
    }
}

impl core::error::Error for Error {}
