//! Key types, the dispatched operations, and the `kem` 0.3 traits.

use core::borrow::Borrow;
use core::marker::PhantomData;

use hybrid_array::Array;
use kem::{Generate, InvalidKey, Key, KeyExport, KeySizeUser, TryKeyInit};
use pqkit_common::pow2::SecretHat;
use pqkit_common::wipe::{OnDemand, Store, WipedBytes, store_default};
use pqkit_common::{Backend, Kernel, dispatch};
use rand_core::TryCryptoRng;
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

pub use pqkit_common::secret::{SharedKey, SharedSecret};

use crate::Error;
use crate::algo::{self, MatrixStart, POLY_Q_BYTES, PkParts};
use crate::params::{FireSaber, LightSaber, ParameterSet, Saber};

/// A ciphertext of parameter set `P`.
pub type Ciphertext<P> = Array<u8, <P as ParameterSet>::CtSize>;

/// The 96 random bytes of key generation, in the reference's order:
/// `seed_A` (hashed before use), `seed_s`, `z`.
pub type Seed = [u8; 96];

struct KeyGenK<'a, P> {
    coins: &'a Seed,
    pk: &'a mut [u8],
    sk: &'a mut [u8],
    parts: &'a mut PkParts,
    s_hat: &'a mut SecretHat,
    _p: PhantomData<P>,
}
impl<P: ParameterSet> Kernel for KeyGenK<'_, P> {
    type Output = ();
    fn run<B: Backend>(self, b: B) {
        algo::kem_keygen::<B, P>(b, self.coins, self.pk, self.sk, self.parts, self.s_hat);
    }
}

struct ExpandPkK<'a, P> {
    pk: &'a [u8],
    parts: &'a mut PkParts,
    hash: &'a mut [u8; 32],
    _p: PhantomData<P>,
}
impl<P: ParameterSet> Kernel for ExpandPkK<'_, P> {
    type Output = ();
    fn run<B: Backend>(self, b: B) {
        algo::expand_pk::<B, P>(b, self.pk, self.parts, self.hash);
    }
}

struct StartPkK<'a, P> {
    pk: &'a [u8],
    hash: &'a mut [u8; 32],
    start: &'a mut MatrixStart,
    _p: PhantomData<P>,
}
impl<P: ParameterSet> Kernel for StartPkK<'_, P> {
    type Output = ();
    fn run<B: Backend>(self, b: B) {
        algo::start_pk::<B, P>(b, self.pk, self.hash, self.start);
    }
}

struct FinishPkK<'a, P> {
    pk: &'a [u8],
    start: Option<&'a MatrixStart>,
    parts: &'a mut PkParts,
    _p: PhantomData<P>,
}
impl<P: ParameterSet> Kernel for FinishPkK<'_, P> {
    type Output = ();
    fn run<B: Backend>(self, b: B) {
        algo::finish_pk::<B, P, 0>(b, self.pk, self.start, self.parts, None, []);
    }
}

struct SecretHatK<'a, P> {
    sk_s: &'a [u8],
    s_hat: &'a mut SecretHat,
    _p: PhantomData<P>,
}
impl<P: ParameterSet> Kernel for SecretHatK<'_, P> {
    type Output = bool;
    fn run<B: Backend>(self, b: B) -> bool {
        algo::secret_hat_checked::<B, P>(b, self.sk_s, self.s_hat)
    }
}

struct ConsistentK<'a, P> {
    parts: &'a PkParts,
    s_hat: &'a SecretHat,
    pk: &'a [u8],
    _p: PhantomData<P>,
}
impl<P: ParameterSet> Kernel for ConsistentK<'_, P> {
    type Output = bool;
    fn run<B: Backend>(self, b: B) -> bool {
        algo::b_matches_secret::<B, P>(b, self.parts, self.s_hat, self.pk)
    }
}

struct EncapsK<'a, P> {
    coins: &'a [u8; 32],
    parts: &'a PkParts,
    hpk: &'a [u8; 32],
    ct: &'a mut [u8],
    _p: PhantomData<P>,
}
impl<P: ParameterSet> Kernel for EncapsK<'_, P> {
    type Output = Zeroizing<[u8; 32]>;
    fn run<B: Backend>(self, b: B) -> Self::Output {
        algo::kem_encaps::<B, P>(b, self.coins, self.parts, self.hpk, self.ct)
    }
}

struct DecapsK<'a, P> {
    s_hat: &'a SecretHat,
    parts: &'a PkParts,
    sk: &'a [u8],
    ct: &'a [u8],
    buf: &'a mut [u8],
    _p: PhantomData<P>,
}
impl<P: ParameterSet> Kernel for DecapsK<'_, P> {
    type Output = Zeroizing<[u8; 32]>;
    fn run<B: Backend>(self, b: B) -> Self::Output {
        algo::kem_decaps::<B, P>(b, self.s_hat, self.parts, self.sk, self.ct, self.buf)
    }
}

struct DecapsFirstK<'a, P: ParameterSet> {
    s_hat: &'a SecretHat,
    ek: &'a EncapsulationKey<P>,
    fresh: Store<PkParts>,
    sk: &'a [u8],
    ct: &'a [u8],
    buf: &'a mut [u8],
}
impl<P: ParameterSet> Kernel for DecapsFirstK<'_, P> {
    type Output = Zeroizing<[u8; 32]>;
    fn run<B: Backend>(self, b: B) -> Self::Output {
        algo::kem_decaps_first::<B, P>(
            b,
            self.s_hat,
            &self.ek.parts,
            self.fresh,
            self.ek.started_matrix(),
            self.sk,
            self.ct,
            self.buf,
        )
    }
}

struct DecapsBytesK<'a, P> {
    sk: &'a [u8],
    ct: &'a [u8],
    parts: &'a mut PkParts,
    buf: &'a mut [u8],
    _p: PhantomData<P>,
}
impl<P: ParameterSet> Kernel for DecapsBytesK<'_, P> {
    type Output = Result<Zeroizing<[u8; 32]>, Error>;
    fn run<B: Backend>(self, b: B) -> Self::Output {
        algo::kem_decaps_from_bytes::<B, P>(b, self.sk, self.ct, self.parts, self.buf)
    }
}

/// A Saber encapsulation key (public): its encoding (`b` packed modulo p,
/// then `seed_A`), `H(pk)`, and the matrix A and vector b in the NTT
/// domain (computed once: about 20 KB, on the heap with `alloc`;
/// encapsulation then skips GenMatrix). A key made by key generation or
/// decoded by [`from_bytes`](Self::from_bytes) has them at once; the
/// public key of an imported [`DecapsulationKey`] finishes them in its
/// first encapsulation or decapsulation (see
/// [`DecapsulationKey::from_bytes`]). Every byte string of the right
/// length is a key.
#[derive(Clone)]
pub struct EncapsulationKey<P: ParameterSet> {
    bytes: Array<u8, P::PkSize>,
    hash: [u8; 32],
    parts: OnDemand<PkParts>,
    /// GenMatrix's first blocks, when a decapsulation key's import left
    /// the parts to its first use.
    start: Option<Store<MatrixStart>>,
}

impl<P: ParameterSet> PartialEq for EncapsulationKey<P> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes == other.bytes
    }
}
impl<P: ParameterSet> Eq for EncapsulationKey<P> {}

impl<P: ParameterSet> core::fmt::Debug for EncapsulationKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "EncapsulationKey<{}>(H(pk) = ", P::NAME)?;
        for b in &self.hash[..8] {
            write!(f, "{b:02x}")?;
        }
        f.write_str("..)")
    }
}

impl<P: ParameterSet> EncapsulationKey<P> {
    /// Decode (only the length is checked: every encoding is a key).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let bytes = Array::<u8, P::PkSize>::try_from(bytes).map_err(|_| Error::InvalidLength)?;
        Ok(Self::expanded(bytes))
    }

    /// The key of `bytes` with its parts made now (`H(pk)` beside
    /// GenMatrix).
    fn expanded(bytes: Array<u8, P::PkSize>) -> Self {
        let mut hash = [0u8; 32];
        let parts = OnDemand::now(|parts| {
            dispatch(ExpandPkK::<P> {
                pk: &bytes,
                parts,
                hash: &mut hash,
                _p: PhantomData,
            });
        });
        Self {
            bytes,
            hash,
            parts,
            start: None,
        }
    }

    /// The key of `bytes` with `H(pk)` and GenMatrix's first blocks made
    /// (beside each other) and the parts left to the first use; without
    /// `alloc` (parts are made at once), [`expanded`](Self::expanded).
    fn started(bytes: Array<u8, P::PkSize>) -> Self {
        if !OnDemand::<PkParts>::LAZY {
            return Self::expanded(bytes);
        }
        let mut hash = [0u8; 32];
        let mut start = store_default::<MatrixStart>();
        dispatch(StartPkK::<P> {
            pk: &bytes,
            hash: &mut hash,
            start: &mut start,
            _p: PhantomData,
        });
        Self {
            parts: OnDemand::later(|parts| Self::finish(&bytes, None, parts)),
            bytes,
            hash,
            start: Some(start),
        }
    }

    /// Make the parts of `pk` (from GenMatrix's `start` if given).
    fn finish(pk: &[u8], start: Option<&MatrixStart>, parts: &mut PkParts) {
        dispatch(FinishPkK::<P> {
            pk,
            start,
            parts,
            _p: PhantomData,
        });
    }

    /// GenMatrix's first blocks, if an import left the parts to the
    /// first use.
    fn started_matrix(&self) -> Option<&MatrixStart> {
        self.start.as_ref().map(Borrow::borrow)
    }

    /// The parts, made now if this is their first use.
    fn parts(&self) -> &PkParts {
        self.parts.get(|parts| {
            let start = self.started_matrix();
            Self::finish(&self.bytes, start, parts);
        })
    }

    /// The encoded key.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// `H(pk) = SHA3-256(pk)`.
    pub fn hash(&self) -> &[u8; 32] {
        &self.hash
    }

    /// Encapsulation with 32 bytes from `rng`: `(ciphertext, shared key)`.
    pub fn try_encapsulate_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> Result<(Ciphertext<P>, SharedSecret), Error> {
        let mut coins = Zeroizing::new([0u8; 32]);
        rng.try_fill_bytes(&mut coins[..]).map_err(|_| Error::Rng)?;
        Ok(self.encapsulate_deterministic(&coins))
    }

    /// Encapsulation with its 32 random bytes given (the reference hashes
    /// them into the message; see also [`crate::hazmat`]). Reusing them
    /// reuses the shared key.
    pub fn encapsulate_deterministic(&self, coins: &[u8; 32]) -> (Ciphertext<P>, SharedSecret) {
        let mut ct = Ciphertext::<P>::default();
        let key = dispatch(EncapsK::<P> {
            coins,
            parts: self.parts(),
            hpk: &self.hash,
            ct: &mut ct,
            _p: PhantomData,
        });
        (ct, SharedSecret::new(*key))
    }
}

/// A Saber decapsulation key: the reference `sk` encoding (the interchange
/// format of PQClean and rusty-saber: `s` packed modulo q, `pk`, `H(pk)`,
/// `z`), validated on import, its encapsulation key, and `s` in the NTT
/// domain. Wiped on drop.
#[derive(Clone)]
pub struct DecapsulationKey<P: ParameterSet> {
    secret: Store<Secret<P>>,
    ek: EncapsulationKey<P>,
}

/// A decapsulation key's secret half, in one [`Store`]: its encoding (2.3
/// to 3 KB) and `s` in the NTT domain. With `alloc` the key object keeps
/// only a pointer to it, so returning and moving a key copies about 1 KB
/// (the encapsulation key) instead of 3.3 to 4.4 KB, and the two share
/// one allocation.
#[derive(Clone)]
struct Secret<P: ParameterSet> {
    sk: WipedBytes<Array<u8, P::SkSize>>,
    s_hat: SecretHat,
}

impl<P: ParameterSet> Default for Secret<P> {
    fn default() -> Self {
        Self {
            sk: WipedBytes(Array::default()),
            s_hat: SecretHat::default(),
        }
    }
}

impl<P: ParameterSet> Zeroize for DecapsulationKey<P> {
    fn zeroize(&mut self) {
        self.secret.sk.zeroize();
        self.secret.s_hat.zeroize();
    }
}

impl<P: ParameterSet> ZeroizeOnDrop for DecapsulationKey<P> {}

impl<P: ParameterSet> core::fmt::Debug for DecapsulationKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "DecapsulationKey<{}>({:?}, ..)", P::NAME, self.ek)
    }
}

impl<P: ParameterSet> PartialEq for DecapsulationKey<P> {
    /// Constant time.
    fn eq(&self, other: &Self) -> bool {
        bool::from(pqkit_common::ct::ct_eq(
            &self.secret.sk[..],
            &other.secret.sk[..],
        ))
    }
}
impl<P: ParameterSet> Eq for DecapsulationKey<P> {}

impl<P: ParameterSet> DecapsulationKey<P> {
    /// Key generation from its 96 random bytes (`seed_A`, `seed_s`, `z`, in
    /// the reference's order).
    pub fn from_seed(coins: &Seed) -> Self {
        let mut pk = Array::<u8, P::PkSize>::default();
        let mut secret = store_default::<Secret<P>>();
        let mut parts = store_default::<PkParts>();
        let Secret { sk, s_hat }: &mut Secret<P> = &mut secret;
        dispatch(KeyGenK::<P> {
            coins,
            pk: &mut pk,
            sk: &mut sk[..],
            parts: &mut parts,
            s_hat,
            _p: PhantomData,
        });
        // H(pk), as key generation wrote it into sk (not hashed twice).
        let at = P::L * POLY_Q_BYTES + P::PK_LEN;
        let mut hash = [0u8; 32];
        hash.copy_from_slice(&secret.sk[at..at + 32]);
        Self {
            secret,
            ek: EncapsulationKey {
                bytes: pk,
                hash,
                parts: OnDemand::filled(parts),
                start: None,
            },
        }
    }

    /// Import the reference `sk` encoding. Checked: the length, the
    /// embedded `H(pk)` against the embedded `pk`
    /// ([`Error::InconsistentKey`]), and every coefficient of `s` in
    /// `[-mu/2, mu/2]` ([`Error::InvalidPrivateKey`]).
    ///
    /// With `alloc`, the import squeezes only GenMatrix's first blocks (as
    /// many as `H(pk)` takes, in the same 4-way permutations); the key's
    /// first decapsulation or encapsulation (or
    /// [`check_consistency`](Self::check_consistency)) finishes the matrix
    /// with its own hashes beside it and keeps it. The work is the same
    /// fixed amount as making it all here; the first use carries part of
    /// it (about half of GenMatrix), and the import and the first
    /// decapsulation together cost less than an import that made it all
    /// followed by a decapsulation, because the matrix's last blocks share
    /// permutations with the decapsulation's hashes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        if bytes.len() != P::SK_LEN {
            return Err(Error::InvalidLength);
        }
        let s_len = P::L * POLY_Q_BYTES;
        let pk = Array::<u8, P::PkSize>::try_from(&bytes[s_len..s_len + P::PK_LEN])
            .map_err(|_| Error::InvalidLength)?;
        let ek = EncapsulationKey::<P>::started(pk);
        if ek.hash[..] != bytes[s_len + P::PK_LEN..s_len + P::PK_LEN + 32] {
            return Err(Error::InconsistentKey);
        }
        let mut secret = store_default::<Secret<P>>();
        secret.sk.copy_from_slice(bytes);
        let Secret { sk, s_hat }: &mut Secret<P> = &mut secret;
        if !dispatch(SecretHatK::<P> {
            sk_s: &sk[..s_len],
            s_hat,
            _p: PhantomData,
        }) {
            return Err(Error::InvalidPrivateKey);
        }
        Ok(Self { secret, ek })
    }

    /// [`from_bytes`](Self::from_bytes), then
    /// [`check_consistency`](Self::check_consistency): what PKCS#8 import
    /// runs. A key this accepts decapsulates every ciphertext made for its
    /// public key.
    ///
    /// ```
    /// use pqkit_saber::{DecapsulationKey, Error, LightSaber};
    /// let dk = DecapsulationKey::<LightSaber>::from_seed(&[1u8; 96]);
    /// let mut bytes = dk.as_bytes().to_vec();
    /// // Change one coefficient of s (still in range, H(pk) still valid).
    /// bytes[0] ^= 1;
    /// assert!(DecapsulationKey::<LightSaber>::from_bytes(&bytes).is_ok());
    /// assert_eq!(
    ///     DecapsulationKey::<LightSaber>::from_bytes_checked(&bytes).err(),
    ///     Some(Error::InconsistentKey)
    /// );
    /// ```
    pub fn from_bytes_checked(bytes: &[u8]) -> Result<Self, Error> {
        let key = Self::from_bytes(bytes)?;
        key.check_consistency()?;
        Ok(key)
    }

    /// Whether the secret `s` and the embedded public key agree: `b` is
    /// recomputed from `s` and `seed_A` (one matrix-vector product) and
    /// compared with the public key's
    /// ([`Error::InconsistentKey`] if not). [`from_bytes`](Self::from_bytes)
    /// checks only the encoding and `H(pk)`, so that decapsulation from key
    /// bytes stays fast; an `s` altered within its range passes those and
    /// decapsulates to wrong secrets.
    pub fn check_consistency(&self) -> Result<(), Error> {
        let ok = dispatch(ConsistentK::<P> {
            parts: self.ek.parts(),
            s_hat: &self.secret.s_hat,
            pk: &self.ek.bytes,
            _p: PhantomData,
        });
        if ok {
            Ok(())
        } else {
            Err(Error::InconsistentKey)
        }
    }

    /// The reference `sk` encoding.
    pub fn as_bytes(&self) -> &[u8] {
        &self.secret.sk
    }

    /// The matching encapsulation key.
    pub fn encapsulation_key(&self) -> &EncapsulationKey<P> {
        &self.ek
    }

    /// Decapsulation straight from the reference `sk` encoding, for a key
    /// used once: the same checks, errors and shared key as
    /// [`from_bytes`](Self::from_bytes) followed by
    /// [`decapsulate_bytes`](Self::decapsulate_bytes) (a key error before
    /// a ciphertext length error), without keeping the key's NTT-domain
    /// parts. It is faster than the two steps because GenMatrix, `H(pk)`,
    /// `H(c)`, `G` and GenSecret then share one pass of the 4-way Keccak
    /// permutation, where the import and the first decapsulation split
    /// them in two. Keep a [`DecapsulationKey`] instead when one key
    /// decapsulates more than once: decapsulation with a decoded key skips
    /// GenMatrix and `H(pk)`.
    ///
    /// ```
    /// use pqkit_saber::{DecapsulationKey, Error, Saber};
    /// let dk = DecapsulationKey::<Saber>::from_seed(&[7u8; 96]);
    /// let (ct, k) = dk.encapsulation_key().encapsulate_deterministic(&[1u8; 32]);
    /// let sk = dk.as_bytes();
    /// let k2 = DecapsulationKey::<Saber>::decapsulate_from_key_bytes(sk, &ct)?;
    /// assert_eq!(k2.as_bytes(), k.as_bytes());
    /// // A wrong H(pk) in the key is refused, as import refuses it.
    /// let mut bad = sk.to_vec();
    /// bad[sk.len() - 33] ^= 1;
    /// assert_eq!(
    ///     DecapsulationKey::<Saber>::decapsulate_from_key_bytes(&bad, &ct).err(),
    ///     Some(Error::InconsistentKey)
    /// );
    /// # Ok::<(), Error>(())
    /// ```
    pub fn decapsulate_from_key_bytes(sk: &[u8], ct: &[u8]) -> Result<SharedSecret, Error> {
        if sk.len() != P::SK_LEN || ct.len() != P::CT_LEN {
            return Self::wrong_length(sk, ct);
        }
        let mut parts = store_default::<PkParts>();
        let mut buf = Ciphertext::<P>::default();
        let key = dispatch(DecapsBytesK::<P> {
            sk,
            ct,
            parts: &mut parts,
            buf: &mut buf,
            _p: PhantomData,
        });
        buf.zeroize();
        Ok(SharedSecret::new(*key?))
    }

    /// The verdict of [`decapsulate_from_key_bytes`](Self::decapsulate_from_key_bytes)
    /// on a wrong length: the two steps' (the key's error first). Apart
    /// and not inlined: a decoded key on the stack of this rare path would
    /// otherwise sit in the one-shot call's frame and raise its peak stack.
    #[cold]
    #[inline(never)]
    fn wrong_length(sk: &[u8], ct: &[u8]) -> Result<SharedSecret, Error> {
        Self::from_bytes(sk).and_then(|dk| dk.decapsulate_bytes(ct))
    }

    /// Decapsulation with implicit rejection; only a wrong ciphertext
    /// length is an error.
    pub fn decapsulate_bytes(&self, ct: &[u8]) -> Result<SharedSecret, Error> {
        if ct.len() != P::CT_LEN {
            return Err(Error::InvalidLength);
        }
        let mut buf = Ciphertext::<P>::default();
        let key = match self.ek.parts.peek() {
            Some(parts) => dispatch(DecapsK::<P> {
                s_hat: &self.secret.s_hat,
                parts,
                sk: &self.secret.sk,
                ct,
                buf: &mut buf,
                _p: PhantomData,
            }),
            // The first use of an imported key.
            None => dispatch(DecapsFirstK::<P> {
                s_hat: &self.secret.s_hat,
                ek: &self.ek,
                fresh: store_default::<PkParts>(),
                sk: &self.secret.sk,
                ct,
                buf: &mut buf,
            }),
        };
        buf.zeroize();
        Ok(SharedSecret::new(*key))
    }
}

pqkit_common::impl_kem_traits!(set = LightSaber, decapsulators = [DecapsulationKey]);
pqkit_common::impl_kem_traits!(set = Saber, decapsulators = [DecapsulationKey]);
pqkit_common::impl_kem_traits!(set = FireSaber, decapsulators = [DecapsulationKey]);
pqkit_common::impl_kem_traits!(encapsulation_key_size = PkSize);

impl<P: ParameterSet> KeySizeUser for DecapsulationKey<P> {
    type KeySize = P::SkSize;
}

/// The reference `sk` encoding is the key (validated).
impl<P: ParameterSet> TryKeyInit for DecapsulationKey<P> {
    fn new(key: &Key<Self>) -> Result<Self, InvalidKey> {
        Self::from_bytes(key).map_err(|_| InvalidKey)
    }
}

impl<P: ParameterSet> KeyExport for DecapsulationKey<P> {
    fn to_bytes(&self) -> Key<Self> {
        (*self.secret.sk).clone()
    }
}

impl<P: ParameterSet> Generate for DecapsulationKey<P> {
    /// Key generation from 96 bytes of `rng`, in the reference's order (so
    /// the NIST KAT DRBG reproduces the KAT files).
    fn try_generate_from_rng<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self, R::Error> {
        let mut coins = Zeroizing::new([0u8; 96]);
        // The reference draws seed_A, seed_s and z with three calls.
        for part in coins.chunks_mut(32) {
            rng.try_fill_bytes(part)?;
        }
        Ok(Self::from_seed(&coins))
    }
}
