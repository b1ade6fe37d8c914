//! The secrets, the public key and the shared secret, with x25519-dalek's
//! names and signatures.

use crypto_common::Generate;
use pqkit_common::curve25519;
use rand_core::{CryptoRng, TryCryptoRng};
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::Error;

/// An X25519 public key: a u-coordinate, 32 bytes little-endian.
///
/// Any 32 bytes are a public key (RFC 7748 accepts every input and
/// ignores bit 255); a low-order one makes the shared secret all zeros,
/// which [`SharedSecret::was_contributory`] reports. `Zeroize` is
/// implemented but not run on drop: the key is public.
#[derive(PartialEq, Eq, Hash, Copy, Clone, Debug)]
pub struct PublicKey(pub(crate) [u8; 32]);

impl From<[u8; 32]> for PublicKey {
    /// The public key with these bytes (no check: every value is usable).
    fn from(bytes: [u8; 32]) -> PublicKey {
        PublicKey(bytes)
    }
}

impl PublicKey {
    /// The key's bytes.
    #[inline]
    pub fn to_bytes(&self) -> [u8; 32] {
        self.0
    }

    /// The key's bytes, borrowed.
    #[inline]
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The public key of a 32-byte slice ([`Error::InvalidLength`] for
    /// another length).
    ///
    /// ```
    /// use pqkit_x25519::{Error, PublicKey};
    /// assert_eq!(PublicKey::from_slice(&[9; 32])?.to_bytes(), [9; 32]);
    /// assert_eq!(PublicKey::from_slice(&[9; 31]), Err(Error::InvalidLength));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn from_slice(bytes: &[u8]) -> Result<PublicKey, Error> {
        let bytes = <[u8; 32]>::try_from(bytes).map_err(|_| Error::InvalidLength)?;
        Ok(PublicKey(bytes))
    }
}

impl AsRef<[u8]> for PublicKey {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl Zeroize for PublicKey {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

/// 32 random bytes from `rng`, the secret as x25519-dalek makes it
/// (clamping happens in every use).
fn random_bytes<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<[u8; 32], R::Error> {
    let mut bytes = [0u8; 32];
    rng.try_fill_bytes(&mut bytes)?;
    Ok(bytes)
}

macro_rules! secret_common {
    ($t:ident) => {
        impl $t {
            /// A new secret: 32 bytes from `csprng`.
            pub fn random_from_rng<R: CryptoRng + ?Sized>(csprng: &mut R) -> Self {
                let Ok(bytes) = random_bytes(csprng);
                $t(bytes)
            }

            /// A new secret from the operating system's random number
            /// generator. Panics if it fails, as x25519-dalek does;
            /// `Generate::try_generate` returns the error instead.
            #[cfg(feature = "getrandom")]
            pub fn random() -> Self {
                <Self as Generate>::generate()
            }
        }

        impl Generate for $t {
            fn try_generate_from_rng<R: TryCryptoRng + ?Sized>(
                rng: &mut R,
            ) -> Result<Self, R::Error> {
                Ok($t(random_bytes(rng)?))
            }
        }

        impl<'a> From<&'a $t> for PublicKey {
            /// The public key: X25519(secret, 9).
            fn from(secret: &'a $t) -> PublicKey {
                PublicKey(curve25519::x25519_base(&secret.0))
            }
        }

        impl Zeroize for $t {
            fn zeroize(&mut self) {
                self.0.zeroize();
            }
        }

        impl Drop for $t {
            fn drop(&mut self) {
                self.0.zeroize();
            }
        }

        impl ZeroizeOnDrop for $t {}

        impl core::fmt::Debug for $t {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(concat!(stringify!($t), "(..)"))
            }
        }
    };
}

/// A secret for one Diffie-Hellman exchange: [`EphemeralSecret::diffie_hellman`]
/// consumes it, and it has no encoding, so it is used at most once. Wiped
/// on drop.
///
/// ```
/// use pqkit_x25519::{EphemeralSecret, PublicKey};
///
/// let mut rng = getrandom::rand_core::UnwrapErr(getrandom::SysRng);
/// let alice = EphemeralSecret::random_from_rng(&mut rng);
/// let alice_public = PublicKey::from(&alice);
/// let bob = EphemeralSecret::random_from_rng(&mut rng);
/// let bob_public = PublicKey::from(&bob);
/// let a = alice.diffie_hellman(&bob_public);
/// let b = bob.diffie_hellman(&alice_public);
/// assert_eq!(a.as_bytes(), b.as_bytes());
/// assert!(a.was_contributory());
/// ```
pub struct EphemeralSecret(pub(crate) [u8; 32]);

impl EphemeralSecret {
    /// The shared secret with `their_public`, consuming (and wiping) this
    /// secret.
    pub fn diffie_hellman(self, their_public: &PublicKey) -> SharedSecret {
        SharedSecret::exchange(&self.0, &their_public.0)
    }
}

secret_common!(EphemeralSecret);

/// A secret usable for several exchanges within one protocol run (Noise,
/// X3DH), with no encoding to discourage storing it. Wiped on drop.
///
/// ```
/// use pqkit_x25519::{PublicKey, ReusableSecret};
///
/// let mut rng = getrandom::rand_core::UnwrapErr(getrandom::SysRng);
/// let ours = ReusableSecret::random_from_rng(&mut rng);
/// let theirs = PublicKey::from(&ReusableSecret::random_from_rng(&mut rng));
/// let first = ours.diffie_hellman(&theirs);
/// assert_eq!(first.to_bytes(), ours.diffie_hellman(&theirs).to_bytes());
/// ```
#[derive(Clone)]
pub struct ReusableSecret(pub(crate) [u8; 32]);

impl ReusableSecret {
    /// The shared secret with `their_public`.
    pub fn diffie_hellman(&self, their_public: &PublicKey) -> SharedSecret {
        SharedSecret::exchange(&self.0, &their_public.0)
    }
}

secret_common!(ReusableSecret);

/// A long-term secret: reusable, with its 32 bytes as its encoding (and
/// PKCS#8 with the `pkcs8` feature). Wiped on drop.
///
/// ```
/// use pqkit_x25519::{PublicKey, StaticSecret};
///
/// let secret = StaticSecret::from([0x42; 32]);
/// let public = PublicKey::from(&secret);
/// let restored = StaticSecret::from(secret.to_bytes());
/// assert_eq!(PublicKey::from(&restored), public);
/// ```
#[derive(Clone)]
pub struct StaticSecret(pub(crate) [u8; 32]);

impl StaticSecret {
    /// The shared secret with `their_public`.
    pub fn diffie_hellman(&self, their_public: &PublicKey) -> SharedSecret {
        SharedSecret::exchange(&self.0, &their_public.0)
    }

    /// The secret's bytes (as given, unclamped).
    #[inline]
    pub fn to_bytes(&self) -> [u8; 32] {
        self.0
    }

    /// The secret's bytes, borrowed.
    #[inline]
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The secret of a 32-byte slice ([`Error::InvalidLength`] for another
    /// length).
    ///
    /// ```
    /// use pqkit_x25519::{Error, StaticSecret};
    /// assert_eq!(StaticSecret::from_slice(&[1; 32])?.to_bytes(), [1; 32]);
    /// assert!(matches!(StaticSecret::from_slice(&[1; 33]), Err(Error::InvalidLength)));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn from_slice(bytes: &[u8]) -> Result<StaticSecret, Error> {
        let bytes = <[u8; 32]>::try_from(bytes).map_err(|_| Error::InvalidLength)?;
        Ok(StaticSecret(bytes))
    }
}

impl From<[u8; 32]> for StaticSecret {
    /// The secret with these bytes (any 32 bytes; clamped in every use).
    fn from(bytes: [u8; 32]) -> StaticSecret {
        StaticSecret(bytes)
    }
}

impl AsRef<[u8]> for StaticSecret {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

secret_common!(StaticSecret);

/// The result of an exchange: 32 bytes, wiped on drop. Compare it with
/// [`ConstantTimeEq`] (its `==` is constant-time too); `Debug` prints no
/// bytes. It is the KEM crates' [`pqkit_common::secret::SharedSecret`] (wiped on
/// drop, constant-time `==`) with x25519-dalek's API.
#[derive(PartialEq, Eq)]
pub struct SharedSecret(pqkit_common::secret::SharedSecret);

impl SharedSecret {
    /// X25519 of our secret scalar and their public u-coordinate.
    fn exchange(scalar: &[u8; 32], their_u: &[u8; 32]) -> Self {
        Self(pqkit_common::secret::SharedSecret::new(curve25519::x25519(
            scalar, their_u,
        )))
    }

    /// The shared secret's bytes.
    #[inline]
    pub fn to_bytes(&self) -> [u8; 32] {
        *self.0.as_bytes()
    }

    /// The shared secret's bytes, borrowed.
    #[inline]
    pub fn as_bytes(&self) -> &[u8; 32] {
        self.0.as_bytes()
    }

    /// Whether the exchange was contributory: `false` exactly when the
    /// shared secret is all zeros, which happens when the peer's public key
    /// is a low-order point (RFC 7748 §6.1's check). Computed in constant
    /// time.
    ///
    /// ```
    /// use pqkit_x25519::{PublicKey, StaticSecret};
    /// let secret = StaticSecret::from([7; 32]);
    /// assert!(!secret.diffie_hellman(&PublicKey::from([0; 32])).was_contributory());
    /// assert!(secret.diffie_hellman(&PublicKey::from(&secret)).was_contributory());
    /// ```
    #[must_use]
    pub fn was_contributory(&self) -> bool {
        !bool::from(pqkit_common::ct::ct_eq(self.as_bytes(), &[0; 32]))
    }
}

impl AsRef<[u8]> for SharedSecret {
    fn as_ref(&self) -> &[u8] {
        self.0.as_slice()
    }
}

impl ConstantTimeEq for SharedSecret {
    fn ct_eq(&self, other: &Self) -> subtle::Choice {
        pqkit_common::ct::ct_eq(self.as_bytes(), other.as_bytes())
    }
}

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

/// The inner secret wipes itself on drop.
impl ZeroizeOnDrop for SharedSecret {}

/// X25519(k, u), the bare function of RFC 7748 §5: `k` clamped, bit 255 of
/// `u` ignored, the canonical u-coordinate out. With
/// [`X25519_BASEPOINT_BYTES`] it gives the public key of `k`.
///
/// ```
/// use pqkit_x25519::{X25519_BASEPOINT_BYTES, x25519};
///
/// let (a, b) = ([1u8; 32], [2u8; 32]);
/// let a_public = x25519(a, X25519_BASEPOINT_BYTES);
/// let b_public = x25519(b, X25519_BASEPOINT_BYTES);
/// assert_eq!(x25519(a, b_public), x25519(b, a_public));
/// ```
pub fn x25519(mut k: [u8; 32], u: [u8; 32]) -> [u8; 32] {
    let out = curve25519::x25519(&k, &u);
    k.zeroize();
    out
}

/// The base point's u-coordinate, 9, for [`x25519`].
pub const X25519_BASEPOINT_BYTES: [u8; 32] = curve25519::BASEPOINT_U;
