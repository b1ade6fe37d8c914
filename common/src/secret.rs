//! The shared secret of the KEM crates' inherent APIs.

use hybrid_array::Array;
use hybrid_array::sizes::U32;
use zeroize::{Zeroize, ZeroizeOnDrop};

/// The 32-byte shared key as the `kem` traits type it (a plain byte array,
/// whose `Debug` prints the bytes: the traits fix this type). The inherent
/// APIs return [`SharedSecret`] instead.
pub type SharedKey = Array<u8, U32>;

/// A 32-byte KEM shared secret: wiped on drop, compared in constant time,
/// and redacted in `Debug`.
#[derive(Clone)]
pub struct SharedSecret([u8; 32]);

impl SharedSecret {
    /// Wrap secret bytes (the caller wipes its copy).
    pub fn new(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }

    /// The secret bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The secret bytes, as a slice.
    pub fn as_slice(&self) -> &[u8] {
        &self.0
    }

    /// As the `kem` traits' [`SharedKey`] (a copy: wipe it when done).
    pub fn to_shared_key(&self) -> SharedKey {
        SharedKey::from(self.0)
    }
}

impl AsRef<[u8]> for SharedSecret {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl core::ops::Deref for SharedSecret {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl PartialEq for SharedSecret {
    /// Constant time.
    fn eq(&self, other: &Self) -> bool {
        bool::from(crate::ct::ct_eq(&self.0, &other.0))
    }
}

impl Eq for SharedSecret {}

impl core::fmt::Debug for SharedSecret {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("SharedSecret(..)")
    }
}

impl Zeroize for SharedSecret {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

impl Drop for SharedSecret {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

impl ZeroizeOnDrop for SharedSecret {}
