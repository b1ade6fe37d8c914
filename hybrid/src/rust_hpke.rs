//! pqkit's post-quantum KEMs for rust-hpke (the `hpke` crate, 0.15): the
//! types here implement its `Kem` trait, so code written over rust-hpke
//! gets pqkit's ML-KEM and X-Wing by changing one type. Keys, encapsulated
//! keys and shared secrets are those of draft-ietf-hpke-pq (the same
//! bytes as [`crate::hpke`] and as rust-hpke's own KEMs: the differential
//! test checks it).
//!
//! | type | KEM | id |
//! |---|---|---|
//! | [`MlKem512`] | ML-KEM-512 (rust-hpke has none) | `0x0040` |
//! | [`MlKem768`] | ML-KEM-768 | `0x0041` |
//! | [`MlKem1024`] | ML-KEM-1024 | `0x0042` |
//! | [`XWing`] | MLKEM768-X25519 (X-Wing) | `0x647a` |
//!
//! ```
//! # use rust_hpke as hpke;
//! use hpke::{Deserializable, Kem as _, OpModeR, OpModeS, Serializable};
//! use hpke::{aead::ChaCha20Poly1305, kdf::HkdfSha256};
//! use pqkit_hybrid::rust_hpke::XWing;
//! # struct DemoRng(u64);
//! # impl rand_core::TryRng for DemoRng {
//! #     type Error = core::convert::Infallible;
//! #     fn try_next_u32(&mut self) -> Result<u32, Self::Error> { Ok(self.try_next_u64()? as u32) }
//! #     fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
//! #         self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
//! #         Ok(self.0 >> 11)
//! #     }
//! #     fn try_fill_bytes(&mut self, d: &mut [u8]) -> Result<(), Self::Error> {
//! #         for b in d { *b = self.try_next_u64()? as u8; } Ok(())
//! #     }
//! # }
//! # impl rand_core::TryCryptoRng for DemoRng {}
//! # let mut rng = DemoRng(7);
//!
//! let (sk, pk) = XWing::derive_keypair(&[7; 32]);
//! let (enc, mut sender) = hpke::setup_sender_with_rng::<ChaCha20Poly1305, HkdfSha256, XWing>(
//!     &OpModeS::Base, &pk, b"info", &mut rng,
//! )?;
//! let ct = sender.seal(b"hello", b"aad")?;
//! let enc = <XWing as hpke::Kem>::EncappedKey::from_bytes(&enc.to_bytes())?;
//! let mut receiver = hpke::setup_receiver::<ChaCha20Poly1305, HkdfSha256, XWing>(
//!     &OpModeR::Base, &sk, &enc, b"info",
//! )?;
//! assert_eq!(receiver.open(&ct, b"aad")?, b"hello");
//! # Ok::<(), hpke::HpkeError>(())
//! ```
//!
//! These KEMs have no authenticated mode: rust-hpke's `Auth` and `AuthPsk`
//! modes fail with `HpkeError::EncapError` / `DecapError` (rust-hpke's own
//! ML-KEM panics there instead).

use alloc::vec::Vec;
use core::marker::PhantomData;

use hybrid_array::sizes::{U32, U64, U768, U800, U1088, U1120, U1184, U1216, U1568};
use hybrid_array::typenum::Unsigned;
use hybrid_array::{Array, ArraySize};
use rand_core::CryptoRng;
use rust_hpke::kem::SharedSecret;
use rust_hpke::{Deserializable, HpkeError, Serializable};
use subtle::{Choice, ConstantTimeEq};
use zeroize::Zeroizing;

use crate::hpke::{self as ours, Aead, Kdf};

/// A KEM of this module: its [`ours::Kem`] and sizes.
pub trait AdaptedKem: sealed::Sealed {
    /// The KEM in [`crate::hpke`].
    const KEM: ours::Kem;
    /// `Npk`.
    type PublicKeySize: ArraySize;
    /// `Nsk`.
    type PrivateKeySize: ArraySize;
    /// `Nenc`.
    type EncSize: ArraySize;
}

mod sealed {
    pub trait Sealed {}
}

/// A public key of the KEM `K`.
pub struct PublicKey<K>(ours::PublicKey, PhantomData<K>);

/// A private key of the KEM `K` (its seed; wiped on drop).
pub struct PrivateKey<K>(ours::PrivateKey, PhantomData<K>);

/// An encapsulated key of the KEM `K`.
pub struct EncappedKey<K: AdaptedKem>(Array<u8, K::EncSize>);

impl<K> Clone for PublicKey<K> {
    fn clone(&self) -> Self {
        PublicKey(self.0.clone(), PhantomData)
    }
}

impl<K> Clone for PrivateKey<K> {
    fn clone(&self) -> Self {
        PrivateKey(self.0.clone(), PhantomData)
    }
}

impl<K: AdaptedKem> Clone for EncappedKey<K> {
    fn clone(&self) -> Self {
        EncappedKey(self.0.clone())
    }
}

impl<K> core::fmt::Debug for PublicKey<K> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.0.fmt(f)
    }
}

impl<K> PartialEq for PublicKey<K> {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bytes() == other.0.to_bytes()
    }
}

impl<K> Eq for PublicKey<K> {}

impl<K> ConstantTimeEq for PrivateKey<K> {
    fn ct_eq(&self, other: &Self) -> Choice {
        self.0.to_bytes()[..].ct_eq(&other.0.to_bytes()[..])
    }
}

impl<K: AdaptedKem> Serializable for PublicKey<K> {
    type OutputSize = K::PublicKeySize;
    /// Panics (as the trait says) if `buf` is not `Npk` bytes.
    fn write_exact(&self, buf: &mut [u8]) {
        buf.copy_from_slice(&self.0.to_bytes());
    }
}

impl<K: AdaptedKem> Deserializable for PublicKey<K> {
    fn from_bytes(encoded: &[u8]) -> Result<Self, HpkeError> {
        check_len(K::PublicKeySize::USIZE, encoded)?;
        let pk =
            ours::PublicKey::from_bytes(K::KEM, encoded).map_err(|_| HpkeError::ValidationError)?;
        Ok(PublicKey(pk, PhantomData))
    }
}

impl<K: AdaptedKem> Serializable for PrivateKey<K> {
    type OutputSize = K::PrivateKeySize;
    /// Panics (as the trait says) if `buf` is not `Nsk` bytes.
    fn write_exact(&self, buf: &mut [u8]) {
        buf.copy_from_slice(&self.0.to_bytes());
    }
}

impl<K: AdaptedKem> Deserializable for PrivateKey<K> {
    fn from_bytes(encoded: &[u8]) -> Result<Self, HpkeError> {
        check_len(K::PrivateKeySize::USIZE, encoded)?;
        let sk = ours::PrivateKey::from_bytes(K::KEM, encoded)
            .map_err(|_| HpkeError::ValidationError)?;
        Ok(PrivateKey(sk, PhantomData))
    }
}

impl<K: AdaptedKem> Serializable for EncappedKey<K> {
    type OutputSize = K::EncSize;
    /// Panics (as the trait says) if `buf` is not `Nenc` bytes.
    fn write_exact(&self, buf: &mut [u8]) {
        buf.copy_from_slice(&self.0);
    }
}

impl<K: AdaptedKem> Deserializable for EncappedKey<K> {
    fn from_bytes(encoded: &[u8]) -> Result<Self, HpkeError> {
        check_len(K::EncSize::USIZE, encoded)?;
        let mut a = Array::<u8, K::EncSize>::default();
        a.copy_from_slice(encoded);
        Ok(EncappedKey(a))
    }
}

fn check_len(expected: usize, b: &[u8]) -> Result<(), HpkeError> {
    if b.len() == expected {
        Ok(())
    } else {
        Err(HpkeError::IncorrectInputLength(expected, b.len()))
    }
}

/// The 32-byte shared secret as rust-hpke's type (every KEM here has
/// `Nsecret = 32`).
fn shared_secret<T: rust_hpke::Kem<NSecret = U32>>(
    ss: &[u8],
) -> Result<SharedSecret<T>, HpkeError> {
    let mut out = SharedSecret::<T>::default();
    if ss.len() != out.0.len() {
        return Err(HpkeError::DecapError);
    }
    out.0.copy_from_slice(ss);
    Ok(out)
}

/// `DeriveKeyPair(ikm)` through [`crate::hpke`] (infallible for these
/// KEMs: the post-quantum derivation is one SHAKE256 call).
fn derive<K: AdaptedKem>(ikm: &[u8]) -> (PrivateKey<K>, PublicKey<K>) {
    let suite = ours::Suite::new(K::KEM, Kdf::HkdfSha256, Aead::ExportOnly);
    let (sk, pk) = match suite.derive_key_pair(ikm) {
        Ok(pair) => pair,
        // Unreachable for ML-KEM and X-Wing: derivation cannot fail.
        Err(_) => unreachable_derivation(),
    };
    (PrivateKey(sk, PhantomData), PublicKey(pk, PhantomData))
}

#[cold]
fn unreachable_derivation() -> ! {
    // The ML-KEM and X-Wing derivations have no failure case; this keeps
    // the trait's infallible signature without a silent wrong key.
    #[allow(clippy::panic)]
    {
        panic!("ML-KEM / X-Wing key derivation cannot fail")
    }
}

fn encap<K: AdaptedKem>(
    pk: &PublicKey<K>,
    rng: &mut impl CryptoRng,
) -> Result<(Zeroizing<Vec<u8>>, EncappedKey<K>), HpkeError> {
    let mut r = Zeroizing::new([0u8; 64]);
    let n = K::KEM.encap_randomness_len();
    rng.fill_bytes(&mut r[..n]);
    let (ss, enc) = pk.0.encap(&r[..n]).map_err(|_| HpkeError::EncapError)?;
    Ok((ss, EncappedKey::from_bytes(&enc)?))
}

macro_rules! adapted {
    ($(#[$doc:meta])* $name:ident, $kem:expr, $npk:ty, $nsk:ty, $nenc:ty) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name;

        impl sealed::Sealed for $name {}

        impl AdaptedKem for $name {
            const KEM: ours::Kem = $kem;
            type PublicKeySize = $npk;
            type PrivateKeySize = $nsk;
            type EncSize = $nenc;
        }

        impl rust_hpke::Kem for $name {
            type PublicKey = PublicKey<$name>;
            type PrivateKey = PrivateKey<$name>;
            type EncappedKey = EncappedKey<$name>;
            type NSecret = U32;
            const KEM_ID: u16 = $kem.id();

            fn sk_to_pk(sk: &Self::PrivateKey) -> Self::PublicKey {
                PublicKey(sk.0.public_key(), PhantomData)
            }

            fn derive_keypair(ikm: &[u8]) -> (Self::PrivateKey, Self::PublicKey) {
                derive::<$name>(ikm)
            }

            fn decap(
                sk: &Self::PrivateKey,
                pk_sender_id: Option<&Self::PublicKey>,
                enc: &Self::EncappedKey,
            ) -> Result<SharedSecret<Self>, HpkeError> {
                if pk_sender_id.is_some() {
                    return Err(HpkeError::DecapError);
                }
                let ss = sk.0.decap(&enc.0).map_err(|_| HpkeError::DecapError)?;
                shared_secret::<Self>(&ss)
            }

            fn encap_with_rng(
                pk: &Self::PublicKey,
                sender_id_keypair: Option<(&Self::PrivateKey, &Self::PublicKey)>,
                csprng: &mut impl CryptoRng,
            ) -> Result<(SharedSecret<Self>, Self::EncappedKey), HpkeError> {
                if sender_id_keypair.is_some() {
                    return Err(HpkeError::EncapError);
                }
                let (ss, enc) = encap(pk, csprng)?;
                Ok((shared_secret::<Self>(&ss)?, enc))
            }
        }
    };
}

adapted!(
    /// ML-KEM-512 (`0x0040`) on pqkit-ml-kem.
    MlKem512, ours::Kem::MlKem512, U800, U64, U768
);
adapted!(
    /// ML-KEM-768 (`0x0041`) on pqkit-ml-kem.
    MlKem768, ours::Kem::MlKem768, U1184, U64, U1088
);
adapted!(
    /// ML-KEM-1024 (`0x0042`) on pqkit-ml-kem.
    MlKem1024, ours::Kem::MlKem1024, U1568, U64, U1568
);
adapted!(
    /// X-Wing, MLKEM768-X25519 (`0x647a`), on pqkit's ML-KEM and X25519.
    XWing, ours::Kem::MlKem768X25519, U1216, U32, U1120
);
