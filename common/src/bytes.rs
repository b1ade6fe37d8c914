//! Fixed-size byte arrays as associated types of parameter sets.

mod sealed {
    pub trait Sealed {}
}

/// A fixed-size byte array (`[u8; N]`), the storage of encoded keys and
/// signatures in the parameter-set traits of the algorithm crates. Sealed;
/// implemented for every `[u8; N]`.
pub trait ByteArray:
    AsRef<[u8]>
    + AsMut<[u8]>
    + Clone
    + Copy
    + PartialEq
    + Eq
    + core::hash::Hash
    + core::fmt::Debug
    + Send
    + Sync
    + 'static
    + zeroize::Zeroize
    + crate::wipe::ByteBuffer
    + for<'a> TryFrom<&'a [u8]>
    + sealed::Sealed
{
    /// All zeros.
    fn zeroed() -> Self;
}

impl<const N: usize> sealed::Sealed for [u8; N] {}
impl<const N: usize> ByteArray for [u8; N] {
    fn zeroed() -> Self {
        [0u8; N]
    }
}
