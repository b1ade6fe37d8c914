//! Key types, the dispatched operations, and the `kem` 0.3 traits.

use core::marker::PhantomData;

use hybrid_array::Array;
use hybrid_array::typenum::{U32, U64};
use kem::{Generate, InvalidKey, Key, KeyExport, KeyInit, KeySizeUser};
use pqkit_common::{Backend, Kernel, dispatch};
use rand_core::TryCryptoRng;
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::Error;
use crate::algo::{self, EkParts, MAX_K};
use pqkit_common::wipe::{Store, store_default};

use crate::params::{MlKem512, MlKem768, MlKem1024, ParameterSet};

pqkit_common::kem_shared_secret!();
/// The 64-byte seed `d || z`: the canonical decapsulation key.
pub type Seed = Array<u8, U64>;
/// A 32-byte array (RustCrypto `ml-kem`'s name).
pub type B32 = Array<u8, U32>;
/// A ciphertext of parameter set `P`.
pub type Ciphertext<P> = Array<u8, <P as ParameterSet>::CtSize>;

struct KeyGenK<'a, P> {
    d: &'a [u8; 32],
    z: &'a [u8; 32],
    ek: &'a mut [u8],
    dk: &'a mut [u8],
    parts: &'a mut EkParts,
    _p: PhantomData<P>,
}
impl<P: ParameterSet> Kernel for KeyGenK<'_, P> {
    type Output = Result<(), Error>;
    fn run<B: Backend>(self, b: B) -> Self::Output {
        algo::keygen::<B, P>(b, self.d, self.z, self.ek, self.dk, self.parts)
    }
}

struct ExpandEkK<'a, P> {
    ek: &'a [u8],
    parts: &'a mut EkParts,
    hash: &'a mut [u8; 32],
    _p: PhantomData<P>,
}
impl<P: ParameterSet> Kernel for ExpandEkK<'_, P> {
    type Output = subtle::Choice;
    fn run<B: Backend>(self, b: B) -> Self::Output {
        algo::expand_ek::<B, P>(b, self.ek, self.parts, self.hash)
    }
}

struct EncapsK<'a, P> {
    ek: &'a EkParts,
    hash: &'a [u8; 32],
    m: &'a [u8; 32],
    ct: &'a mut [u8],
    _p: PhantomData<P>,
}
impl<P: ParameterSet> Kernel for EncapsK<'_, P> {
    type Output = Result<Zeroizing<[u8; 32]>, Error>;
    fn run<B: Backend>(self, b: B) -> Self::Output {
        algo::encaps::<B, P>(b, self.ek, self.hash, self.m, self.ct)
    }
}

struct DecapsK<'a, P> {
    dk: &'a [u8],
    ek: &'a EkParts,
    ct: &'a [u8],
    _p: PhantomData<P>,
}
impl<P: ParameterSet> Kernel for DecapsK<'_, P> {
    type Output = Result<Zeroizing<[u8; 32]>, Error>;
    fn run<B: Backend>(self, b: B) -> Self::Output {
        algo::decaps::<B, P>(b, self.dk, self.ek, self.ct)
    }
}

/// An encapsulation key (public): its encoding, `H(ek)`, and the decoded
/// `t-hat` with the matrix `A-hat^T` (computed once, when the key is made
/// or imported, so that encapsulation and decapsulation skip SampleNTT).
#[derive(Clone)]
pub struct EncapsulationKey<P: ParameterSet> {
    bytes: Array<u8, P::EkSize>,
    hash: [u8; 32],
    parts: Store<EkParts>,
}

impl<P: ParameterSet> PartialEq for EncapsulationKey<P> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes == other.bytes
    }
}
impl<P: ParameterSet> Eq for EncapsulationKey<P> {}

impl<P: ParameterSet> core::fmt::Debug for EncapsulationKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "EncapsulationKey<{}>(H(ek) = ", P::NAME)?;
        for b in &self.hash[..8] {
            write!(f, "{b:02x}")?;
        }
        f.write_str("..)")
    }
}

impl<P: ParameterSet> EncapsulationKey<P> {
    /// Decode and validate (length, FIPS 203 §7.2 modulus check).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let bytes = Array::<u8, P::EkSize>::try_from(bytes).map_err(|_| Error::InvalidLength)?;
        let mut parts: Store<EkParts> = store_default();
        let mut hash = [0u8; 32];
        let ok = dispatch(ExpandEkK::<P> {
            ek: &bytes,
            parts: &mut parts,
            hash: &mut hash,
            _p: PhantomData,
        });
        if !bool::from(ok) {
            return Err(Error::InvalidEncapsulationKey);
        }
        Ok(EncapsulationKey { bytes, hash, parts })
    }

    /// Decode and validate a key of the exact length (RustCrypto `ml-kem`'s
    /// constructor, the same as `TryKeyInit::new`): [`from_bytes`] with the
    /// `kem` traits' error.
    ///
    /// ```
    /// use pqkit_ml_kem::{DecapsulationKey, EncapsulationKey, KeyExport, MlKem768};
    /// let dk = DecapsulationKey::<MlKem768>::from_seed([1u8; 64].into());
    /// let bytes = dk.encapsulation_key().to_bytes();
    /// let ek = EncapsulationKey::<MlKem768>::new(&bytes)?;
    /// assert_eq!(&ek, dk.encapsulation_key());
    ///
    /// // A coefficient of t-hat at q = 3329 fails the FIPS 203 §7.2 check.
    /// let mut bad = bytes.clone();
    /// bad[0] = 0x01;
    /// bad[1] = 0x0d;
    /// assert!(EncapsulationKey::<MlKem768>::new(&bad).is_err());
    /// # Ok::<(), pqkit_ml_kem::InvalidKey>(())
    /// ```
    ///
    /// [`from_bytes`]: Self::from_bytes
    pub fn new(bytes: &Key<Self>) -> Result<Self, InvalidKey> {
        Self::from_bytes(bytes).map_err(|_| InvalidKey)
    }

    /// The encoded key.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// `H(ek)`.
    pub fn hash(&self) -> &[u8; 32] {
        &self.hash
    }

    /// ML-KEM.Encaps with randomness from `rng`: `(ciphertext, shared key)`.
    pub fn try_encapsulate_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> Result<(Ciphertext<P>, SharedSecret), Error> {
        let mut m = Zeroizing::new([0u8; 32]);
        rng.try_fill_bytes(&mut m[..]).map_err(|_| Error::Rng)?;
        Ok(self.encaps_internal(&m))
    }

    /// ML-KEM.Encaps_internal(ek, m) with RustCrypto `ml-kem`'s signature:
    /// the message `m` as a [`B32`], the shared key as the `kem` traits'
    /// [`SharedKey`] array (a plain copy: wipe it when done).
    /// [`hazmat::encaps_internal`](crate::hazmat::encaps_internal) is the
    /// same operation returning a [`SharedSecret`] (wiped, constant-time
    /// `==`). Reusing `m` breaks security: `m` must be fresh uniform bytes.
    ///
    /// ```
    /// use pqkit_ml_kem::{B32, DecapsulationKey, MlKem768, kem::Decapsulate};
    /// let dk = DecapsulationKey::<MlKem768>::from_seed([1u8; 64].into());
    /// let m: B32 = [2u8; 32].into();
    /// let (ct, k_sender) = dk.encapsulation_key().encapsulate_deterministic(&m);
    /// assert_eq!(dk.decapsulate(&ct), k_sender);
    /// // The same as the hazmat form, byte for byte.
    /// let (ct2, ss) = pqkit_ml_kem::hazmat::encaps_internal(dk.encapsulation_key(), &[2u8; 32]);
    /// assert_eq!((ct2, ss.to_shared_key()), (ct, k_sender));
    /// ```
    pub fn encapsulate_deterministic(&self, m: &B32) -> (Ciphertext<P>, SharedKey) {
        let (ct, ss) = self.encaps_internal(m.as_ref());
        (ct, ss.to_shared_key())
    }

    /// ML-KEM.Encaps_internal(ek, m), the shared key as a [`SharedSecret`].
    pub(crate) fn encaps_internal(&self, m: &[u8; 32]) -> (Ciphertext<P>, SharedSecret) {
        let mut ct = Ciphertext::<P>::default();
        let key = dispatch(EncapsK::<P> {
            ek: &self.parts,
            hash: &self.hash,
            m,
            ct: &mut ct,
            _p: PhantomData,
        });
        // Lengths are fixed by the types, so the length check cannot fail.
        let key = SharedSecret::new(key.map(|k| *k).unwrap_or_default());
        (ct, key)
    }
}

/// The expanded FIPS 203 decapsulation key `dk_pke || ek || H(ek) || z`.
pub type ExpandedDecapsulationKeyBytes<P> = Array<u8, <P as ParameterSet>::DkSize>;

/// The expanded decapsulation key's bytes, wiped on drop in one pass
/// (`pqkit_common::wipe::wipe`, no volatile store per byte).
struct WipedDk<P: ParameterSet>(ExpandedDecapsulationKeyBytes<P>);

impl<P: ParameterSet> Clone for WipedDk<P> {
    fn clone(&self) -> Self {
        Self(self.0.clone())
    }
}

impl<P: ParameterSet> core::ops::Deref for WipedDk<P> {
    type Target = ExpandedDecapsulationKeyBytes<P>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl<P: ParameterSet> core::ops::DerefMut for WipedDk<P> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl<P: ParameterSet> Zeroize for WipedDk<P> {
    fn zeroize(&mut self) {
        pqkit_common::wipe::wipe(self.0.as_mut_slice());
    }
}

impl<P: ParameterSet> Drop for WipedDk<P> {
    fn drop(&mut self) {
        self.zeroize();
    }
}

/// An ML-KEM decapsulation key without its seed: the expanded FIPS 203 key
/// and the encapsulation key. Made by [`from_expanded`] (a validated import
/// of the expanded encoding; the PKCS#8 `expandedKey` form, and every other
/// form, loads as this type) or from a seed. Decapsulation is here;
/// [`DecapsulationKey`] (which keeps the seed) dereferences to it. Wiped on
/// drop.
///
/// [`from_expanded`]: Self::from_expanded
#[derive(Clone)]
pub struct ExpandedDecapsulationKey<P: ParameterSet> {
    dk: WipedDk<P>,
    ek: EncapsulationKey<P>,
}

impl<P: ParameterSet> Zeroize for ExpandedDecapsulationKey<P> {
    fn zeroize(&mut self) {
        self.dk.zeroize();
    }
}

impl<P: ParameterSet> ZeroizeOnDrop for ExpandedDecapsulationKey<P> {}

impl<P: ParameterSet> core::fmt::Debug for ExpandedDecapsulationKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "ExpandedDecapsulationKey<{}>({:?}, ..)",
            P::NAME,
            self.ek
        )
    }
}

impl<P: ParameterSet> PartialEq for ExpandedDecapsulationKey<P> {
    fn eq(&self, other: &Self) -> bool {
        bool::from(pqkit_common::ct::ct_eq(
            self.dk.as_slice(),
            other.dk.as_slice(),
        ))
    }
}
impl<P: ParameterSet> Eq for ExpandedDecapsulationKey<P> {}

impl<P: ParameterSet> ExpandedDecapsulationKey<P> {
    /// ML-KEM.KeyGen_internal from the 64-byte seed `d || z`, keeping only
    /// the expanded key (use [`DecapsulationKey::from_seed`] to keep the
    /// seed).
    pub fn from_seed(seed: &[u8; 64]) -> Self {
        let mut d = Zeroizing::new([0u8; 32]);
        let mut z = Zeroizing::new([0u8; 32]);
        d.copy_from_slice(&seed[..32]);
        z.copy_from_slice(&seed[32..]);
        let mut ek = Array::<u8, P::EkSize>::default();
        let mut dk = WipedDk::<P>(Array::default());
        let mut parts: Store<EkParts> = store_default();
        // Lengths are fixed by the types, so the length check cannot fail.
        let _ = dispatch(KeyGenK::<P> {
            d: &d,
            z: &z,
            ek: &mut ek,
            dk: &mut dk,
            parts: &mut parts,
            _p: PhantomData,
        });
        // KeyGen wrote H(ek) into dk (dk_pke || ek || H(ek) || z).
        let k = P::K;
        let mut hash = [0u8; 32];
        hash.copy_from_slice(&dk[768 * k + 32..768 * k + 64]);
        Self {
            dk,
            ek: EncapsulationKey {
                bytes: ek,
                hash,
                parts,
            },
        }
    }

    /// Import the expanded FIPS 203 key, validated: length, the §7.3 hash
    /// check, and the §7.2 modulus check of the embedded encapsulation key.
    pub fn from_expanded(bytes: &[u8]) -> Result<Self, Error> {
        let dk = WipedDk::<P>(Array::try_from(bytes).map_err(|_| Error::InvalidLength)?);
        let k = P::K;
        let ek = &dk[384 * k..768 * k + 32];
        let ek =
            EncapsulationKey::<P>::from_bytes(ek).map_err(|_| Error::InvalidDecapsulationKey)?;
        if ek.hash[..] != dk[768 * k + 32..768 * k + 64] {
            return Err(Error::InvalidDecapsulationKey);
        }
        Ok(Self { dk, ek })
    }

    /// [`from_expanded`](Self::from_expanded) plus a pairwise-consistency
    /// test: encapsulate to the embedded `ek` (with `m` derived from the
    /// key), decapsulate, and compare (FIPS 140-3's test for generated
    /// keys). It catches what the FIPS 203 §7.3 checks cannot: a secret
    /// `s` that does not belong to `ek` under a valid `H(ek)` (the LAMPS
    /// example `bad-ML-KEM-512-2.priv`), which would decapsulate to wrong
    /// secrets. PKCS#8 import of an `expandedKey`-only key runs it; the raw
    /// import stays at the §7.3 checks. Costs one encapsulation and one
    /// decapsulation. [`Error::InconsistentKey`] if it fails.
    pub fn from_expanded_checked(bytes: &[u8]) -> Result<Self, Error> {
        let key = Self::from_expanded(bytes)?;
        key.check_consistency()?;
        Ok(key)
    }

    /// The pairwise-consistency test of
    /// [`from_expanded_checked`](Self::from_expanded_checked) on a loaded
    /// key.
    pub fn check_consistency(&self) -> Result<(), Error> {
        let m = Zeroizing::new(pqkit_common::keccak::sha3_256(&[
            b"pqkit ML-KEM pairwise test",
            self.dk.as_slice(),
        ]));
        let (ct, k1) = self.ek.encaps_internal(&m);
        let k2 = self.decapsulate_bytes(&ct)?;
        let same = pqkit_common::ct::ct_eq(k1.as_bytes(), k2.as_bytes());
        // Whether the key is consistent is public.
        if pqkit_common::ct::declassify(same.unwrap_u8()) == 1 {
            Ok(())
        } else {
            Err(Error::InconsistentKey)
        }
    }

    /// The expanded FIPS 203 decapsulation key, borrowed.
    pub fn expanded_bytes(&self) -> &[u8] {
        &self.dk
    }

    /// The expanded FIPS 203 decapsulation key (RustCrypto `ml-kem`'s
    /// `ExpandedKeyEncoding` name).
    pub fn to_expanded_bytes(&self) -> ExpandedDecapsulationKeyBytes<P> {
        (*self.dk).clone()
    }

    /// The matching encapsulation key.
    pub fn encapsulation_key(&self) -> &EncapsulationKey<P> {
        &self.ek
    }

    /// ML-KEM.Decaps with implicit rejection; only a wrong ciphertext length
    /// is an error.
    pub fn decapsulate_bytes(&self, ct: &[u8]) -> Result<SharedSecret, Error> {
        if ct.len() != P::CT_LEN {
            return Err(Error::InvalidLength);
        }
        let key = dispatch(DecapsK::<P> {
            dk: &self.dk,
            ek: &self.ek.parts,
            ct,
            _p: PhantomData,
        })?;
        Ok(SharedSecret::new(*key))
    }
}

/// An ML-KEM decapsulation key made from its 64-byte seed `d || z`, which
/// it keeps (the canonical form: `KeyInit`/`KeyExport`, the PKCS#8 `seed`
/// form), with the expanded key it generates. Dereferences to
/// [`ExpandedDecapsulationKey`], where decapsulation is; implements the same
/// `kem` traits. A key imported without a seed (the PKCS#8 `expandedKey`
/// form) is an [`ExpandedDecapsulationKey`]. Wiped on drop.
#[derive(Clone)]
pub struct DecapsulationKey<P: ParameterSet> {
    seed: Zeroizing<[u8; 64]>,
    key: ExpandedDecapsulationKey<P>,
}

impl<P: ParameterSet> Zeroize for DecapsulationKey<P> {
    fn zeroize(&mut self) {
        self.seed.zeroize();
        self.key.zeroize();
    }
}

impl<P: ParameterSet> ZeroizeOnDrop for DecapsulationKey<P> {}

impl<P: ParameterSet> core::fmt::Debug for DecapsulationKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "DecapsulationKey<{}>({:?}, ..)", P::NAME, self.key.ek)
    }
}

impl<P: ParameterSet> PartialEq for DecapsulationKey<P> {
    fn eq(&self, other: &Self) -> bool {
        // The seed determines the expanded key.
        self.key == other.key
    }
}
impl<P: ParameterSet> Eq for DecapsulationKey<P> {}

impl<P: ParameterSet> core::ops::Deref for DecapsulationKey<P> {
    type Target = ExpandedDecapsulationKey<P>;
    fn deref(&self) -> &ExpandedDecapsulationKey<P> {
        &self.key
    }
}

impl<P: ParameterSet> DecapsulationKey<P> {
    /// ML-KEM.KeyGen_internal from the 64-byte seed `d || z` (by value, as
    /// in RustCrypto `ml-kem`).
    pub fn from_seed(mut seed: Seed) -> Self {
        let kept = Zeroizing::new(seed.0);
        seed.zeroize();
        let seed = kept;
        Self {
            key: ExpandedDecapsulationKey::from_seed(&seed),
            seed,
        }
    }

    /// [`DecapsulationKey::from_seed`] from a slice (must be 64 bytes).
    pub fn from_seed_slice(seed: &[u8]) -> Result<Self, Error> {
        // `from_seed` wipes its argument.
        Ok(Self::from_seed(
            Seed::try_from(seed).map_err(|_| Error::InvalidLength)?,
        ))
    }

    /// Import seed and expanded key together (the PKCS#8 `both` form): the
    /// seed must regenerate exactly that expanded key.
    pub fn from_seed_and_expanded(seed: &[u8], expanded: &[u8]) -> Result<Self, Error> {
        let key = Self::from_seed_slice(seed)?;
        if expanded.len() != P::DK_LEN {
            return Err(Error::InvalidLength);
        }
        if !bool::from(pqkit_common::ct::ct_eq(key.dk.as_slice(), expanded)) {
            return Err(Error::InconsistentKey);
        }
        Ok(key)
    }

    /// The seed `d || z` (`Option` as in RustCrypto `ml-kem`, where keys
    /// may lack one; here it is always `Some`).
    pub fn to_seed(&self) -> Option<Seed> {
        Some(Seed::from(*self.seed))
    }

    /// The seed `d || z`, borrowed.
    pub fn as_seed(&self) -> &[u8; 64] {
        &self.seed
    }

    /// The expanded key (also reachable through `Deref`).
    pub fn expanded_key(&self) -> &ExpandedDecapsulationKey<P> {
        &self.key
    }
}

/// The same as [`DecapsulationKey::from_seed`] (RustCrypto `ml-kem`'s
/// conversion): `let dk: DecapsulationKey<MlKem768> = seed.into();`.
///
/// ```
/// use pqkit_ml_kem::{DecapsulationKey, MlKem768, Seed};
/// let seed = Seed::from([9u8; 64]);
/// let dk: DecapsulationKey<MlKem768> = seed.into();
/// assert_eq!(dk, DecapsulationKey::from_seed([9u8; 64].into()));
/// assert_eq!(dk.as_seed(), &[9u8; 64]);
/// ```
impl<P: ParameterSet> From<Seed> for DecapsulationKey<P> {
    fn from(seed: Seed) -> Self {
        // `from_seed` wipes its argument.
        Self::from_seed(seed)
    }
}

pqkit_common::impl_kem_traits!(
    set = MlKem512,
    decapsulators = [DecapsulationKey, ExpandedDecapsulationKey]
);
pqkit_common::impl_kem_traits!(
    set = MlKem768,
    decapsulators = [DecapsulationKey, ExpandedDecapsulationKey]
);
pqkit_common::impl_kem_traits!(
    set = MlKem1024,
    decapsulators = [DecapsulationKey, ExpandedDecapsulationKey]
);

pqkit_common::impl_kem_traits!(encapsulation_key_size = EkSize);

impl<P: ParameterSet> KeySizeUser for DecapsulationKey<P> {
    type KeySize = U64;
}

/// The seed is the key: `KeyInit` runs KeyGen (and so `kem::FromSeed` works).
impl<P: ParameterSet> KeyInit for DecapsulationKey<P> {
    fn new(seed: &Key<Self>) -> Self {
        Self::from_seed(*seed)
    }
}

/// The seed `d || z`, from which `KeyInit` rebuilds the key.
impl<P: ParameterSet> KeyExport for DecapsulationKey<P> {
    fn to_bytes(&self) -> Key<Self> {
        Seed::from(*self.seed)
    }
}

impl<P: ParameterSet> Generate for DecapsulationKey<P> {
    fn try_generate_from_rng<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self, R::Error> {
        let mut seed = Seed::default();
        // On failure the partly filled seed is wiped before returning.
        if let Err(e) = rng.try_fill_bytes(&mut seed[..]) {
            seed.zeroize();
            return Err(e);
        }
        // `from_seed` wipes its argument.
        Ok(Self::from_seed(seed))
    }
}

// `MAX_K` bounds the rank of every set.
const _: () = assert!(MlKem1024::K <= MAX_K);

/// RustCrypto `ml-kem`'s trait for the expanded FIPS 203 encoding
/// `dk_pke || ek || H(ek) || z`, deprecated there in favour of seeds and
/// kept here so that code naming it compiles. pqkit implements it for
/// [`ExpandedDecapsulationKey`], the key type without a seed (a
/// [`DecapsulationKey`] keeps its seed, so it cannot be made from expanded
/// bytes; it reaches `to_expanded_bytes` by dereferencing). The inherent
/// [`ExpandedDecapsulationKey::from_expanded`] and
/// [`ExpandedDecapsulationKey::to_expanded_bytes`] do the same with pqkit's
/// [`Error`].
///
/// ```
/// #![allow(deprecated)]
/// use pqkit_ml_kem::{DecapsulationKey, ExpandedDecapsulationKey, ExpandedKeyEncoding, MlKem512};
/// let dk = DecapsulationKey::<MlKem512>::from_seed([3u8; 64].into());
/// let bytes = dk.to_expanded_bytes();
/// let loaded = ExpandedDecapsulationKey::<MlKem512>::from_expanded_bytes(&bytes)?;
/// assert_eq!(&loaded, dk.expanded_key());
///
/// // A flipped bit in the stored H(ek) fails the FIPS 203 §7.3 check.
/// let mut bad = bytes.clone();
/// bad[768 * 2 + 32] ^= 1;
/// assert!(ExpandedDecapsulationKey::<MlKem512>::from_expanded_bytes(&bad).is_err());
/// # Ok::<(), pqkit_ml_kem::InvalidKey>(())
/// ```
#[deprecated(
    since = "0.1.0",
    note = "use `DecapsulationKey::from_seed`, or the inherent `ExpandedDecapsulationKey::from_expanded`"
)]
pub trait ExpandedKeyEncoding: Sized {
    /// The size of an expanded decapsulation key.
    type EncodedSize: hybrid_array::ArraySize;

    /// Import the expanded key, validated as
    /// [`ExpandedDecapsulationKey::from_expanded`].
    fn from_expanded_bytes(enc: &Array<u8, Self::EncodedSize>) -> Result<Self, InvalidKey>;

    /// The expanded key.
    fn to_expanded_bytes(&self) -> Array<u8, Self::EncodedSize>;
}

#[allow(deprecated)]
impl<P: ParameterSet> ExpandedKeyEncoding for ExpandedDecapsulationKey<P> {
    type EncodedSize = P::DkSize;

    fn from_expanded_bytes(enc: &ExpandedDecapsulationKeyBytes<P>) -> Result<Self, InvalidKey> {
        Self::from_expanded(enc).map_err(|_| InvalidKey)
    }

    fn to_expanded_bytes(&self) -> ExpandedDecapsulationKeyBytes<P> {
        ExpandedDecapsulationKey::to_expanded_bytes(self)
    }
}
