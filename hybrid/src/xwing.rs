//! X-Wing (draft-connolly-cfrg-xwing-kem, unchanged since -06): ML-KEM-768
//! and X25519 with a SHA3-256 combiner, on pqkit's ML-KEM and X25519.
//!
//! A drop-in for the `x-wing` crate (0.1): the same names (`XWingKem`,
//! `EncapsulationKey`, `DecapsulationKey`, `DecapsulationKeyRejectNonContrib`,
//! `DecapsulationError`, `CiphertextMessage`, `Ciphertext`, `SharedKey`, the
//! size constants, the `kem` re-exports) and the same bytes (checked against
//! it and the draft's vectors in the tests); code that uses `x_wing::` runs
//! with `pqkit_hybrid::xwing::` in its place.
//!
//! ```
//! use pqkit_hybrid::xwing::{DecapsulationKey, kem::{Decapsulate, Decapsulator, KeyInit}};
//! // The 32-byte seed is the private key.
//! let dk = DecapsulationKey::new(&[7u8; 32].into());
//! let ek = dk.encapsulation_key();
//! // Derandomised encapsulation (tests only): 64 bytes of randomness.
//! let (ct, k_sender) = ek.encapsulate_deterministic(&[9u8; 64].into());
//! assert_eq!(dk.decapsulate(&ct), k_sender);
//! ```
//!
//! Differences from `x-wing`: a [`DecapsulationKey`] keeps its expanded
//! halves (the ML-KEM-768 key with its decoded matrix, the X25519 secret),
//! so decapsulation does not rerun key generation; [`EncapsulationKey::from_bytes`]
//! and [`DecapsulationKey::from_seed_slice`] take slices with a typed
//! [`Error`]; `Debug` prints no secret.
//!
//! Work bounds: key generation, encapsulation and decapsulation each do a
//! fixed amount of work (ML-KEM-768's, two or three X25519 scalar
//! multiplications, SHAKE256 and SHA3-256 over fixed lengths) on any input.

use core::fmt;

use hybrid_array::Array;
use hybrid_array::sizes::{U32, U64, U1088, U1120, U1216};
pub use kem::{
    self, Decapsulate, Decapsulator, Encapsulate, Generate, InvalidKey, Kem, Key, KeyExport,
    KeyInit, KeySizeUser, TryDecapsulate, TryKeyInit,
};
use pqkit_common::keccak::{Shake256, sha3_256};
use pqkit_ml_kem::MlKem768;
pub use rand_core::{CryptoRng, TryCryptoRng};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

/// The combiner's label, `\.//^\`.
const LABEL: &[u8; 6] = br"\.//^\";

/// Size in bytes of an [`EncapsulationKey`] (ML-KEM-768's 1184 and X25519's
/// 32).
pub const ENCAPSULATION_KEY_SIZE: usize = 1216;
/// Size in bytes of a [`DecapsulationKey`]: the seed.
pub const DECAPSULATION_KEY_SIZE: usize = 32;
/// Size in bytes of a [`Ciphertext`] (ML-KEM-768's 1088 and X25519's 32).
pub const CIPHERTEXT_SIZE: usize = 1120;
/// Bytes of randomness one encapsulation takes (32 for ML-KEM, 32 for
/// X25519).
pub const ENCAPSULATION_RANDOMNESS_SIZE: usize = 64;

/// A serialized ciphertext.
pub type Ciphertext = kem::Ciphertext<XWingKem>;
/// The 32-byte shared key.
pub type SharedKey = Array<u8, U32>;

/// The X-Wing KEM (the `kem` crate's type family).
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq, PartialOrd, Ord)]
pub struct XWingKem;

impl Kem for XWingKem {
    type DecapsulationKey = DecapsulationKey;
    type EncapsulationKey = EncapsulationKey;
    type CiphertextSize = U1120;
    type SharedKeySize = U32;
}

/// A bad input to one of this module's own constructors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The input has the wrong length.
    InvalidLength {
        /// The length the input must have.
        expected: usize,
        /// The length it had.
        got: usize,
    },
    /// The ML-KEM-768 half of an encapsulation key fails FIPS 203's
    /// modulus check.
    InvalidKey,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidLength { expected, got } => {
                write!(f, "X-Wing: expected {expected} bytes, got {got}")
            }
            Error::InvalidKey => f.write_str("X-Wing: invalid ML-KEM-768 encapsulation key"),
        }
    }
}

impl core::error::Error for Error {}

/// Decapsulation refused: the X25519 shared secret is all zeros (the peer
/// sent a low-order point), with [`DecapsulationKeyRejectNonContrib`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecapsulationError;

impl fmt::Display for DecapsulationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("decapsulation error")
    }
}

impl core::error::Error for DecapsulationError {}

/// `SHA3-256(ss_M || ss_X || ct_X || pk_X || label)`.
fn combiner(ss_m: &[u8; 32], ss_x: &[u8; 32], ct_x: &[u8; 32], pk_x: &[u8; 32]) -> SharedKey {
    SharedKey::from(sha3_256(&[ss_m, ss_x, ct_x, pk_x, LABEL]))
}

/// An X-Wing encapsulation (public) key: ML-KEM-768's and X25519's.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct EncapsulationKey {
    pk_m: pqkit_ml_kem::EncapsulationKey<MlKem768>,
    pk_x: [u8; 32],
}

impl EncapsulationKey {
    /// The key from its 1216 bytes: ML-KEM-768's encapsulation key (FIPS
    /// 203 §7.2 modulus check) then X25519's public key (any 32 bytes, as
    /// X25519 takes them).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        if bytes.len() != ENCAPSULATION_KEY_SIZE {
            return Err(Error::InvalidLength {
                expected: ENCAPSULATION_KEY_SIZE,
                got: bytes.len(),
            });
        }
        let (m, x) = bytes.split_at(1184);
        let pk_m = pqkit_ml_kem::EncapsulationKey::from_bytes(m).map_err(|_| Error::InvalidKey)?;
        let mut pk_x = [0u8; 32];
        pk_x.copy_from_slice(x);
        Ok(Self { pk_m, pk_x })
    }

    /// Encapsulation with the given 64 bytes of randomness: the first 32
    /// for ML-KEM-768, the last 32 the ephemeral X25519 secret. For test
    /// vectors: reusing randomness breaks security.
    pub fn encapsulate_deterministic(
        &self,
        randomness: &Array<u8, U64>,
    ) -> (Ciphertext, SharedKey) {
        let mut m = Zeroizing::new([0u8; 32]);
        m.copy_from_slice(&randomness[..32]);
        let mut ek_x = Zeroizing::new([0u8; 32]);
        ek_x.copy_from_slice(&randomness[32..]);
        let (ct_m, ss_m) = pqkit_ml_kem::hazmat::encaps_internal(&self.pk_m, &m);
        let ct_x = pqkit_x25519::x25519(*ek_x, pqkit_x25519::X25519_BASEPOINT_BYTES);
        let ss_x = Zeroizing::new(pqkit_x25519::x25519(*ek_x, self.pk_x));
        let ss = combiner(ss_m.as_bytes(), &ss_x, &ct_x, &self.pk_x);
        let mut ct = Ciphertext::default();
        ct[..1088].copy_from_slice(&ct_m);
        ct[1088..].copy_from_slice(&ct_x);
        (ct, ss)
    }
}

impl Encapsulate for EncapsulationKey {
    type Kem = XWingKem;

    fn encapsulate_with_rng<R: CryptoRng + ?Sized>(&self, rng: &mut R) -> (Ciphertext, SharedKey) {
        let mut randomness = Array::<u8, U64>::default();
        rng.fill_bytes(&mut randomness);
        let out = self.encapsulate_deterministic(&randomness);
        randomness.zeroize();
        out
    }
}

impl KeySizeUser for EncapsulationKey {
    type KeySize = U1216;
}

impl KeyExport for EncapsulationKey {
    fn to_bytes(&self) -> Key<Self> {
        let mut out = Key::<Self>::default();
        out[..1184].copy_from_slice(self.pk_m.as_bytes());
        out[1184..].copy_from_slice(&self.pk_x);
        out
    }
}

impl TryKeyInit for EncapsulationKey {
    fn new(key: &Key<Self>) -> Result<Self, InvalidKey> {
        Self::from_bytes(key).map_err(|_| InvalidKey)
    }
}

impl TryFrom<&[u8]> for EncapsulationKey {
    type Error = InvalidKey;

    fn try_from(bytes: &[u8]) -> Result<Self, InvalidKey> {
        Self::from_bytes(bytes).map_err(|_| InvalidKey)
    }
}

/// An X-Wing decapsulation (private) key: the 32-byte seed, with the
/// ML-KEM-768 and X25519 halves it expands to (`SHAKE256(seed, 96)`: ML-KEM's
/// `d || z`, then the X25519 secret) kept for decapsulation.
///
/// Accepts an X25519 share whose result is all zeros, as the draft and the
/// `x-wing` crate's `DecapsulationKey` do; [`DecapsulationKeyRejectNonContrib`]
/// refuses it. Every secret is wiped on drop.
#[derive(Clone)]
pub struct DecapsulationKey {
    seed: [u8; 32],
    dk_m: pqkit_ml_kem::DecapsulationKey<MlKem768>,
    sk_x: [u8; 32],
    ek: EncapsulationKey,
}

impl DecapsulationKey {
    /// The key from its 32-byte seed.
    pub fn from_seed(seed: [u8; 32]) -> Self {
        let mut expanded = Zeroizing::new([0u8; 96]);
        let mut h = Shake256::default();
        h.update(&seed);
        h.finalize_xof().read(&mut expanded[..]);
        let mut ml_seed = pqkit_ml_kem::Seed::default();
        ml_seed.copy_from_slice(&expanded[..64]);
        // `from_seed` wipes its argument.
        let dk_m = pqkit_ml_kem::DecapsulationKey::<MlKem768>::from_seed(ml_seed);
        let mut sk_x = [0u8; 32];
        sk_x.copy_from_slice(&expanded[64..]);
        let pk_x = pqkit_x25519::x25519(sk_x, pqkit_x25519::X25519_BASEPOINT_BYTES);
        let ek = EncapsulationKey {
            pk_m: dk_m.encapsulation_key().clone(),
            pk_x,
        };
        Self {
            seed,
            dk_m,
            sk_x,
            ek,
        }
    }

    /// The key from a seed given as a slice (exactly 32 bytes).
    pub fn from_seed_slice(seed: &[u8]) -> Result<Self, Error> {
        let seed: [u8; 32] = seed.try_into().map_err(|_| Error::InvalidLength {
            expected: DECAPSULATION_KEY_SIZE,
            got: seed.len(),
        })?;
        Ok(Self::from_seed(seed))
    }

    /// The private key: the seed.
    pub fn as_bytes(&self) -> &[u8; DECAPSULATION_KEY_SIZE] {
        &self.seed
    }

    /// Decapsulation, with the X25519 shared secret returned beside the key
    /// (for the all-zero check of [`DecapsulationKeyRejectNonContrib`]).
    fn decapsulate_inner(&self, ct: &Ciphertext) -> (SharedKey, Zeroizing<[u8; 32]>) {
        let ss_m = self
            .dk_m
            .decapsulate_bytes(&ct[..1088])
            // The type fixes the length (1088 bytes), so this cannot fail;
            // an all-zero key in its place would still be a valid output.
            .map(|s| Zeroizing::new(*s.as_bytes()))
            .unwrap_or_default();
        let mut ct_x = [0u8; 32];
        ct_x.copy_from_slice(&ct[1088..]);
        let ss_x = Zeroizing::new(pqkit_x25519::x25519(self.sk_x, ct_x));
        let ss = combiner(&ss_m, &ss_x, &ct_x, &self.ek.pk_x);
        (ss, ss_x)
    }
}

impl fmt::Debug for DecapsulationKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecapsulationKey")
            .field("ek", &self.ek)
            .finish_non_exhaustive()
    }
}

impl Decapsulator for DecapsulationKey {
    type Kem = XWingKem;

    fn encapsulation_key(&self) -> &EncapsulationKey {
        &self.ek
    }
}

impl Decapsulate for DecapsulationKey {
    fn decapsulate(&self, ct: &Ciphertext) -> SharedKey {
        self.decapsulate_inner(ct).0
    }
}

impl Drop for DecapsulationKey {
    fn drop(&mut self) {
        self.seed.zeroize();
        self.sk_x.zeroize();
    }
}

impl ZeroizeOnDrop for DecapsulationKey {}

impl From<[u8; DECAPSULATION_KEY_SIZE]> for DecapsulationKey {
    fn from(seed: [u8; DECAPSULATION_KEY_SIZE]) -> Self {
        Self::from_seed(seed)
    }
}

impl Generate for DecapsulationKey {
    fn try_generate_from_rng<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self, R::Error> {
        let mut seed = [0u8; 32];
        rng.try_fill_bytes(&mut seed)?;
        Ok(Self::from_seed(seed))
    }
}

impl KeySizeUser for DecapsulationKey {
    type KeySize = U32;
}

impl KeyInit for DecapsulationKey {
    fn new(key: &Key<Self>) -> Self {
        Self::from_seed(key.0)
    }
}

impl KeyExport for DecapsulationKey {
    fn to_bytes(&self) -> Key<Self> {
        self.seed.into()
    }
}

/// An X-Wing decapsulation key that refuses ciphertexts whose X25519 share
/// gives the all-zero secret (RFC 7748 §6.1's optional check), with
/// [`DecapsulationError`]; otherwise as [`DecapsulationKey`].
#[derive(Clone, Debug)]
pub struct DecapsulationKeyRejectNonContrib(DecapsulationKey);

impl TryDecapsulate for DecapsulationKeyRejectNonContrib {
    type Error = DecapsulationError;

    fn try_decapsulate(&self, ct: &Ciphertext) -> Result<SharedKey, DecapsulationError> {
        let (ss, ss_x) = self.0.decapsulate_inner(ct);
        // Constant-time test; the refusal itself is public.
        if bool::from(pqkit_common::ct::ct_eq(&ss_x[..], &[0u8; 32])) {
            return Err(DecapsulationError);
        }
        Ok(ss)
    }
}

impl Decapsulator for DecapsulationKeyRejectNonContrib {
    type Kem = XWingKem;

    fn encapsulation_key(&self) -> &EncapsulationKey {
        self.0.encapsulation_key()
    }
}

impl From<[u8; DECAPSULATION_KEY_SIZE]> for DecapsulationKeyRejectNonContrib {
    fn from(seed: [u8; DECAPSULATION_KEY_SIZE]) -> Self {
        Self(seed.into())
    }
}

impl From<DecapsulationKey> for DecapsulationKeyRejectNonContrib {
    fn from(dk: DecapsulationKey) -> Self {
        Self(dk)
    }
}

impl Generate for DecapsulationKeyRejectNonContrib {
    fn try_generate_from_rng<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self, R::Error> {
        DecapsulationKey::try_generate_from_rng(rng).map(Self)
    }
}

impl KeySizeUser for DecapsulationKeyRejectNonContrib {
    type KeySize = U32;
}

impl KeyInit for DecapsulationKeyRejectNonContrib {
    fn new(key: &Key<Self>) -> Self {
        Self(DecapsulationKey::new(key))
    }
}

impl KeyExport for DecapsulationKeyRejectNonContrib {
    fn to_bytes(&self) -> Key<Self> {
        self.0.to_bytes()
    }
}

/// A ciphertext split into its halves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CiphertextMessage {
    ct_m: Array<u8, U1088>,
    ct_x: [u8; 32],
}

impl CiphertextMessage {
    /// `ML-KEM-768 ciphertext (1088 bytes) || X25519 share (32 bytes)`.
    pub fn to_bytes(&self) -> Ciphertext {
        let mut out = Ciphertext::default();
        out[..1088].copy_from_slice(&self.ct_m);
        out[1088..].copy_from_slice(&self.ct_x);
        out
    }
}

impl From<&Ciphertext> for CiphertextMessage {
    fn from(ct: &Ciphertext) -> Self {
        let mut ct_m = Array::<u8, U1088>::default();
        ct_m.copy_from_slice(&ct[..1088]);
        let mut ct_x = [0u8; 32];
        ct_x.copy_from_slice(&ct[1088..]);
        Self { ct_m, ct_x }
    }
}

impl From<&CiphertextMessage> for Ciphertext {
    fn from(ct: &CiphertextMessage) -> Self {
        ct.to_bytes()
    }
}

impl From<CiphertextMessage> for Ciphertext {
    fn from(ct: CiphertextMessage) -> Self {
        ct.to_bytes()
    }
}
