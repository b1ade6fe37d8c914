//! The shared secret of the KEM crates' inherent APIs.

#[cfg(feature = "hybrid-array")]
use hybrid_array::Array;
#[cfg(feature = "hybrid-array")]
use hybrid_array::sizes::U32;
use zeroize::{Zeroize, ZeroizeOnDrop};

/// The 32-byte shared key as the `kem` traits type it (a plain byte array,
/// whose `Debug` prints the bytes: the traits fix this type). The inherent
/// APIs return [`SharedSecret`] instead (the `hybrid-array` feature).
#[cfg(feature = "hybrid-array")]
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
    #[cfg(feature = "hybrid-array")]
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

/// The KEM crates' public `SharedSecret` and `SharedKey`, defined in the
/// calling crate (which depends on `hybrid-array` and `zeroize`), so that
/// pqkit-common itself needs no `hybrid-array` and starts compiling before
/// it: `SharedKey` is the `kem` traits' 32-byte array, `SharedSecret`
/// wraps [`SharedSecret`] (wiped on drop, constant-time `==`, redacted
/// `Debug`) and adds `to_shared_key`.
#[macro_export]
macro_rules! kem_shared_secret {
    () => {
        /// The 32-byte shared key as the `kem` traits type it (a plain byte
        /// array, whose `Debug` prints the bytes: the traits fix this type).
        /// The inherent APIs return [`SharedSecret`] instead.
        pub type SharedKey = hybrid_array::Array<u8, hybrid_array::sizes::U32>;

        /// A 32-byte KEM shared secret: wiped on drop, compared in constant
        /// time, and redacted in `Debug`.
        #[derive(Clone, PartialEq, Eq)]
        pub struct SharedSecret($crate::secret::SharedSecret);

        impl SharedSecret {
            /// Wrap secret bytes (the caller wipes its copy).
            pub fn new(bytes: [u8; 32]) -> Self {
                Self($crate::secret::SharedSecret::new(bytes))
            }

            /// The secret bytes.
            pub fn as_bytes(&self) -> &[u8; 32] {
                self.0.as_bytes()
            }

            /// The secret bytes, as a slice.
            pub fn as_slice(&self) -> &[u8] {
                self.0.as_slice()
            }

            /// As the `kem` traits' [`SharedKey`] (a copy: wipe it when done).
            pub fn to_shared_key(&self) -> SharedKey {
                SharedKey::from(*self.0.as_bytes())
            }
        }

        impl AsRef<[u8]> for SharedSecret {
            fn as_ref(&self) -> &[u8] {
                self.0.as_slice()
            }
        }

        impl core::ops::Deref for SharedSecret {
            type Target = [u8];
            fn deref(&self) -> &[u8] {
                self.0.as_slice()
            }
        }

        impl core::fmt::Debug for SharedSecret {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("SharedSecret(..)")
            }
        }

        impl zeroize::Zeroize for SharedSecret {
            fn zeroize(&mut self) {
                self.0.zeroize();
            }
        }

        // The wrapped secret wipes itself on drop.
        impl zeroize::ZeroizeOnDrop for SharedSecret {}
    };
}

/// The `kem` 0.3 trait impls every pqkit KEM writes the same way, for one
/// parameter set `$set` of the calling crate (which depends on `kem`,
/// `hybrid-array`, `rand_core` and `zeroize`, and names
/// `EncapsulationKey`, `Ciphertext`, `SharedKey` and `ParameterSet` with a
/// `CtSize`):
///
/// * `Kem` for `$set`, with `DecapsulationKey<$set>`;
/// * `Encapsulate` for `EncapsulationKey<$set>` from 32 bytes of the RNG
///   through the calling crate's `crate::hazmat::encaps_internal(ek, &[u8;
///   32]) -> (Ciphertext, SharedSecret)`;
/// * `Decapsulator` and `Decapsulate` for each listed decapsulation-key type
///   (field `ek`, method `decapsulate_bytes`);
///
/// and, with `encapsulation_key_size = Size`, the generic `KeySizeUser`
/// (`P::Size`), `TryKeyInit` (`from_bytes`) and `KeyExport` (field `bytes`)
/// of `EncapsulationKey<P>`.
#[macro_export]
// `crate::hazmat` is meant to name the calling crate's module.
#[allow(clippy::crate_in_macro_def)]
macro_rules! impl_kem_traits {
    (set = $t:ty, decapsulators = [$($dk:ident),+ $(,)?] $(,)?) => {
        impl kem::Kem for $t {
            type DecapsulationKey = DecapsulationKey<$t>;
            type EncapsulationKey = EncapsulationKey<$t>;
            type SharedKeySize = hybrid_array::sizes::U32;
            type CiphertextSize = <$t as ParameterSet>::CtSize;
        }
        impl kem::Encapsulate for EncapsulationKey<$t> {
            type Kem = $t;
            fn encapsulate_with_rng<R: rand_core::CryptoRng + ?Sized>(
                &self,
                rng: &mut R,
            ) -> (Ciphertext<$t>, SharedKey) {
                let mut m = zeroize::Zeroizing::new([0u8; 32]);
                rng.fill_bytes(&mut m[..]);
                let (ct, ss) = crate::hazmat::encaps_internal(self, &m);
                (ct, ss.to_shared_key())
            }
        }
        $(
            impl kem::Decapsulator for $dk<$t> {
                type Kem = $t;
                fn encapsulation_key(&self) -> &EncapsulationKey<$t> {
                    &self.ek
                }
            }
            impl kem::Decapsulate for $dk<$t> {
                fn decapsulate(&self, ct: &Ciphertext<$t>) -> SharedKey {
                    // The type fixes the length, so this cannot fail.
                    self.decapsulate_bytes(ct)
                        .map(|ss| ss.to_shared_key())
                        .unwrap_or_default()
                }
            }
        )+
    };
    (encapsulation_key_size = $size:ident $(,)?) => {
        impl<P: ParameterSet> kem::KeySizeUser for EncapsulationKey<P> {
            type KeySize = P::$size;
        }
        impl<P: ParameterSet> kem::TryKeyInit for EncapsulationKey<P> {
            fn new(key: &kem::Key<Self>) -> Result<Self, kem::InvalidKey> {
                Self::from_bytes(key).map_err(|_| kem::InvalidKey)
            }
        }
        impl<P: ParameterSet> kem::KeyExport for EncapsulationKey<P> {
            fn to_bytes(&self) -> kem::Key<Self> {
                self.bytes.clone()
            }
        }
    };
}
