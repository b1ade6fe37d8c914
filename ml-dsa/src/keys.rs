//! Keys and signatures.

use core::marker::PhantomData;

use pqkit_common::{Backend, Kernel, dispatch};
use rand_core::TryCryptoRng;
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::Error;
use crate::algo::{self, PublicParts, SecretParts, SignForms, TrCache, TrIn};
use crate::mu::{Mu, MuBuilder};
use crate::params::{ByteArray, ParameterSet};
use crate::{HashAlg, PreHash};
use pqkit_common::wipe::{OnDemand, Store, WipedBytes, store_default};

// ---------------------------------------------------------------------------
// Kernels: each public operation enters the backend through `dispatch`.

struct KeyGenK<'a, P> {
    xi: &'a [u8; 32],
    pk: &'a mut [u8],
    sk: &'a mut [u8],
    out: &'a mut SecretParts,
    /// Working memory.
    work: &'a mut SignForms,
    _p: PhantomData<P>,
}
impl<P: ParameterSet> Kernel for KeyGenK<'_, P> {
    type Output = ();
    fn run<B: Backend>(self, b: B) {
        algo::keygen::<B, P>(b, self.xi, self.pk, self.sk, self.out, self.work);
    }
}

/// KeyGen_internal (see [`algo::keygen`]): `pkEncode` into `pk`,
/// `skEncode` into `sk`, rho, K, tr and `NTT(s1)` into `out`, with its
/// working memory in the key objects' store (wiped when dropped).
pub(crate) fn keygen_into<P: ParameterSet>(
    xi: &[u8; 32],
    pk: &mut [u8],
    sk: &mut [u8],
    out: &mut SecretParts,
) {
    let mut work: Store<SignForms> = store_default();
    dispatch(KeyGenK::<P> {
        xi,
        pk,
        sk,
        out,
        work: &mut work,
        _p: PhantomData,
    });
}

struct DecodeSkK<'a, P> {
    sk: &'a [u8],
    pk: &'a mut [u8],
    out: &'a mut SecretParts,
    forms: &'a mut SignForms,
    pub_out: &'a mut PublicParts,
    _p: PhantomData<P>,
}
impl<P: ParameterSet> Kernel for DecodeSkK<'_, P> {
    type Output = Result<(), Error>;
    fn run<B: Backend>(self, b: B) -> Self::Output {
        algo::decode_sk::<B, P>(b, self.sk, self.pk, self.out, self.forms, self.pub_out)
    }
}

/// A key form made from the key's encoding on the backend: the
/// verification form from `pk`, `NTT(s2)` and `NTT(t0)` from the expanded
/// key (one this crate generated or validated: no checks).
trait FromEncoding: Default {
    fn decode<B: Backend, P: ParameterSet>(b: B, bytes: &[u8], out: &mut Self);
}

impl FromEncoding for PublicParts {
    fn decode<B: Backend, P: ParameterSet>(b: B, bytes: &[u8], out: &mut Self) {
        algo::decode_pk::<B, P>(b, bytes, out);
    }
}

impl FromEncoding for SignForms {
    fn decode<B: Backend, P: ParameterSet>(b: B, bytes: &[u8], out: &mut Self) {
        algo::decode_forms::<B, P>(b, bytes, out);
    }
}

struct FormK<'a, P, T> {
    bytes: &'a [u8],
    out: &'a mut T,
    _p: PhantomData<P>,
}
impl<P: ParameterSet, T: FromEncoding> Kernel for FormK<'_, P, T> {
    type Output = ();
    fn run<B: Backend>(self, b: B) {
        T::decode::<B, P>(b, self.bytes, self.out);
    }
}

/// Make `out` from `bytes` (see [`FromEncoding`]).
fn make_form<P: ParameterSet, T: FromEncoding>(bytes: &[u8], out: &mut T) {
    dispatch(FormK::<P, T> {
        bytes,
        out,
        _p: PhantomData,
    });
}

/// A form made from `bytes` on first use (see [`OnDemand`]).
fn form_later<P: ParameterSet, T: FromEncoding>(bytes: &[u8]) -> OnDemand<T> {
    OnDemand::later(|out| make_form::<P, T>(bytes, out))
}

/// The form in `cell`, made from `bytes` now if this is its first use.
fn form<'a, P: ParameterSet, T: FromEncoding>(cell: &'a OnDemand<T>, bytes: &[u8]) -> &'a T {
    cell.get(|out| make_form::<P, T>(bytes, out))
}

struct SignK<'a, P> {
    sk: &'a SecretParts,
    forms: &'a SignForms,
    mu: &'a Mu,
    rnd: &'a [u8; 32],
    sig: &'a mut [u8],
    _p: PhantomData<P>,
}
impl<P: ParameterSet> Kernel for SignK<'_, P> {
    type Output = Result<(), Error>;
    fn run<B: Backend>(self, b: B) -> Self::Output {
        algo::sign_mu::<B, P>(b, self.sk, self.forms, self.mu, self.rnd, self.sig)
    }
}

struct VerifyK<'a, P, F> {
    pk: &'a PublicParts,
    tr: TrIn<'a>,
    mu_of: F,
    sig: &'a [u8],
    fresh: &'a mut Option<[u8; 64]>,
    _p: PhantomData<P>,
}
impl<P: ParameterSet, F: FnOnce(&[u8; 64]) -> Result<Mu, Error>> Kernel for VerifyK<'_, P, F> {
    type Output = Result<(), Error>;
    fn run<B: Backend>(self, b: B) -> Self::Output {
        algo::verify::<B, P>(b, self.pk, self.tr, self.mu_of, self.sig, self.fresh)
    }
}

/// A context string of at most 255 bytes (FIPS 204), else
/// [`Error::ContextTooLong`].
pub(crate) fn check_ctx(ctx: &[u8]) -> Result<(), Error> {
    if ctx.len() > 255 {
        Err(Error::ContextTooLong)
    } else {
        Ok(())
    }
}

/// 32 bytes of `rng` for hedged signing (wiped on drop), else
/// [`Error::Rng`].
pub(crate) fn rnd_from<R: TryCryptoRng + ?Sized>(
    rng: &mut R,
) -> Result<Zeroizing<[u8; 32]>, Error> {
    let mut rnd = Zeroizing::new([0u8; 32]);
    rng.try_fill_bytes(&mut rnd[..]).map_err(|_| Error::Rng)?;
    Ok(rnd)
}

#[cfg(feature = "getrandom")]
fn rnd_os() -> Result<Zeroizing<[u8; 32]>, Error> {
    let mut rnd = Zeroizing::new([0u8; 32]);
    getrandom::fill(&mut rnd[..]).map_err(|_| Error::Rng)?;
    Ok(rnd)
}

// ---------------------------------------------------------------------------

/// An ML-DSA public (verifying) key.
#[derive(Clone)]
pub struct VerifyingKey<P: ParameterSet> {
    bytes: P::PublicKeyBytes,
    /// NTT(t1 * 2^d), made from `bytes` on the first verification.
    parts: OnDemand<PublicParts>,
    /// `tr = H(pk)`, once computed.
    tr: TrCache,
}

impl<P: ParameterSet> core::fmt::Debug for VerifyingKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("VerifyingKey")
            .field("set", &P::NAME)
            .finish_non_exhaustive()
    }
}

impl<P: ParameterSet> PartialEq for VerifyingKey<P> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes == other.bytes
    }
}
impl<P: ParameterSet> Eq for VerifyingKey<P> {}

impl<P: ParameterSet> core::hash::Hash for VerifyingKey<P> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.bytes.hash(state);
    }
}

impl<P: ParameterSet> VerifyingKey<P> {
    /// Decode `pkEncode(rho, t1)` (FIPS 204 Alg. 22/23). Every byte string of
    /// the right length is a valid key.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let arr = P::PublicKeyBytes::try_from(bytes).map_err(|_| Error::InvalidLength)?;
        Ok(Self::decode(&arr))
    }

    /// The encoded public key.
    pub fn to_bytes(&self) -> P::PublicKeyBytes {
        self.bytes
    }

    /// The encoded public key (RustCrypto `ml-dsa`'s name for
    /// [`to_bytes`](Self::to_bytes)).
    pub fn encode(&self) -> EncodedVerifyingKey<P> {
        self.bytes
    }

    /// Decode an encoded public key (RustCrypto `ml-dsa`'s name; every byte
    /// string of the right length is a valid key, so this cannot fail).
    pub fn decode(enc: &EncodedVerifyingKey<P>) -> Self {
        Self {
            bytes: *enc,
            parts: form_later::<P, _>(enc.as_ref()),
            tr: TrCache::default(),
        }
    }

    /// The verification form, made now if this is its first use.
    fn parts(&self) -> &PublicParts {
        form::<P, _>(&self.parts, self.bytes.as_ref())
    }

    /// The encoded public key, borrowed.
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.as_ref()
    }

    /// `tr = H(pk, 64)`, the input of external mu.
    ///
    /// A key decoded from bytes computes `tr` when first needed (its first
    /// verification computes it beside the matrix expansion) and keeps it,
    /// so this returns it by value.
    ///
    /// ```
    /// use pqkit_ml_dsa::{MlDsa44, MuBuilder, SigningKey, VerifyingKey};
    /// let sk = SigningKey::<MlDsa44>::from_seed(&[5u8; 32].into());
    /// let vk = VerifyingKey::<MlDsa44>::from_bytes(sk.verifying_key().as_bytes())?;
    /// // External mu from tr: sign it, and verify the signature as usual.
    /// let mu = MuBuilder::new(&vk.tr(), b"ctx")?.update(b"message").clone().finalize();
    /// let sig = sk.sign_mu_deterministic(&mu)?;
    /// assert!(vk.verify_with_context(b"message", b"ctx", &sig));
    /// assert_eq!(vk.tr(), sk.verifying_key().tr());
    /// # Ok::<(), pqkit_ml_dsa::Error>(())
    /// ```
    pub fn tr(&self) -> [u8; 64] {
        if let Some(tr) = self.tr.get() {
            return tr;
        }
        let mut tr = [0u8; 64];
        algo::h(&[self.bytes.as_ref()], &mut tr);
        self.tr.set(&tr);
        tr
    }

    /// Verify `sig` with mu computed as `mu_of(tr)` once `tr` is at hand
    /// (hashed beside ExpandA if this key has not computed it yet), or
    /// without `tr` when `need_tr` is false.
    fn verify_with(
        &self,
        sig: &[u8],
        need_tr: bool,
        mu_of: impl FnOnce(&[u8; 64]) -> Result<Mu, Error>,
    ) -> Result<(), Error> {
        let tr = match (need_tr, self.tr.get()) {
            (false, _) => TrIn::Unneeded,
            (true, Some(tr)) => TrIn::Known(tr),
            (true, None) => TrIn::Hash(self.bytes.as_ref()),
        };
        let mut fresh = None;
        let r = dispatch(VerifyK::<P, _> {
            pk: self.parts(),
            tr,
            mu_of,
            sig,
            fresh: &mut fresh,
            _p: PhantomData,
        });
        if let Some(tr) = fresh {
            self.tr.set(&tr);
        }
        r
    }

    /// Verify a signature made from an external mu: `true` if valid
    /// (RustCrypto `ml-dsa`'s shape; [`verify_mu_bytes`](Self::verify_mu_bytes)
    /// says why a signature is rejected).
    pub fn verify_mu(&self, mu: &Mu, sig: &Signature<P>) -> bool {
        self.verify_mu_bytes(mu, sig.as_bytes()).is_ok()
    }

    /// Verify raw signature bytes against mu (typed errors for wrong
    /// length, malformed hint, out-of-range z).
    pub fn verify_mu_bytes(&self, mu: &Mu, sig: &[u8]) -> Result<(), Error> {
        self.verify_with(sig, false, |_| Ok(*mu))
    }

    /// FIPS 204 Alg. 3 ML-DSA.Verify with a context: `true` if the
    /// signature is valid (RustCrypto `ml-dsa`'s shape; a context longer
    /// than 255 bytes verifies nothing).
    /// [`verify_multipart_with_context`](Self::verify_multipart_with_context)
    /// and the `Verifier` trait say why a signature is rejected.
    pub fn verify_with_context(&self, msg: &[u8], ctx: &[u8], sig: &Signature<P>) -> bool {
        self.verify_multipart_with_context(&[msg], ctx, sig.as_bytes())
            .is_ok()
    }

    /// ML-DSA.Verify over a message given in pieces, with raw signature
    /// bytes.
    pub fn verify_multipart_with_context(
        &self,
        msg: &[&[u8]],
        ctx: &[u8],
        sig: &[u8],
    ) -> Result<(), Error> {
        check_ctx(ctx)?;
        self.verify_with(sig, true, |tr| {
            let mut b = MuBuilder::new(tr, ctx)?;
            for m in msg {
                b.update(m);
            }
            Ok(b.finalize())
        })
    }

    /// FIPS 204 Alg. 5 HashML-DSA.Verify: hashes `msg` with `alg`.
    pub fn verify_prehash(
        &self,
        alg: HashAlg,
        msg: &[u8],
        ctx: &[u8],
        sig: &Signature<P>,
    ) -> Result<(), Error> {
        self.verify_prehashed(&alg.digest(msg), ctx, sig)
    }

    /// HashML-DSA.Verify given the pre-hash digest `PH(M)`.
    pub fn verify_prehashed(
        &self,
        ph: &PreHash,
        ctx: &[u8],
        sig: &Signature<P>,
    ) -> Result<(), Error> {
        check_ctx(ctx)?;
        self.verify_with(sig.as_bytes(), true, |tr| MuBuilder::prehashed(tr, ctx, ph))
    }

    /// A verifier carrying a context string (at most 255 bytes), for the
    /// `signature` traits.
    pub fn with_context<'a>(&'a self, ctx: &'a [u8]) -> Result<ContextVerifyingKey<'a, P>, Error> {
        check_ctx(ctx)?;
        Ok(ContextVerifyingKey { key: self, ctx })
    }
}

/// A [`VerifyingKey`] with a context string: its `Verifier`,
/// `MultipartVerifier` and `DigestVerifier` impls use that context.
#[derive(Clone, Copy, Debug)]
pub struct ContextVerifyingKey<'a, P: ParameterSet> {
    pub(crate) key: &'a VerifyingKey<P>,
    pub(crate) ctx: &'a [u8],
}

/// An ML-DSA signature (encoded bytes; parsed and checked by verification).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Signature<P: ParameterSet> {
    pub(crate) bytes: P::SignatureBytes,
}

impl<P: ParameterSet> core::fmt::Debug for Signature<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Signature")
            .field("set", &P::NAME)
            .finish_non_exhaustive()
    }
}

impl<P: ParameterSet> Signature<P> {
    /// Wrap signature bytes (length checked; contents checked on verify).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Ok(Self {
            bytes: P::SignatureBytes::try_from(bytes).map_err(|_| Error::InvalidLength)?,
        })
    }
    /// The encoded signature.
    pub fn to_bytes(&self) -> P::SignatureBytes {
        self.bytes
    }
    /// The encoded signature, borrowed.
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.as_ref()
    }
    /// The encoded signature (RustCrypto `ml-dsa`'s name).
    pub fn encode(&self) -> EncodedSignature<P> {
        self.bytes
    }
    /// Wrap an encoded signature (RustCrypto `ml-dsa`'s name). Always
    /// `Some`: pqkit checks the hint and the range of z when verifying
    /// (with typed errors), where RustCrypto checks them here.
    pub fn decode(enc: &EncodedSignature<P>) -> Option<Self> {
        Some(Self { bytes: *enc })
    }
}

/// The 32-byte ML-DSA seed xi (FIPS 204 Alg. 1), the canonical private
/// key (RustCrypto `ml-dsa`'s type: a `hybrid-array` array, which converts
/// from and to `[u8; 32]` with `into()`).
pub type Seed = B32;
/// A 32-byte array.
pub type B32 = hybrid_array::Array<u8, hybrid_array::sizes::U32>;
/// The encoded public key `pkEncode(rho, t1)`.
pub type EncodedVerifyingKey<P> = <P as ParameterSet>::PublicKeyBytes;
/// The encoded expanded private key `skEncode(rho, K, tr, s1, s2, t0)`.
pub type ExpandedSigningKeyBytes<P> = <P as ParameterSet>::ExpandedKeyBytes;
/// The encoded signature.
pub type EncodedSignature<P> = <P as ParameterSet>::SignatureBytes;

/// An ML-DSA private key without its seed: the expanded FIPS 204 key, its
/// NTT-domain parts and the public key. Made by [`from_expanded`]
/// (a validated import of the expanded encoding, e.g. from OpenSSL's
/// `expandedKey` PKCS#8 form, which loads in every form here) or from a
/// seed. Every signing operation is here; [`SigningKey`] (which keeps the
/// seed) dereferences to it. Wiped on drop; `Debug` shows no secret.
///
/// Through the `signature` traits, `Signer`/`MultipartSigner` sign
/// **deterministically with the empty context**, `RandomizedSigner` signs
/// hedged, `DigestSigner<Shake256>` streams the message into mu (pure
/// ML-DSA, as in RustCrypto `ml-dsa`; HashML-DSA is `sign_prehash_*`); use
/// [`with_context`](Self::with_context) for a context.
///
/// [`from_expanded`]: Self::from_expanded
#[derive(Clone)]
pub struct ExpandedSigningKey<P: ParameterSet> {
    expanded: P::ExpandedKeyBytes,
    /// rho, K, tr and `NTT(s1)`.
    parts: Store<SecretParts>,
    /// `NTT(s2)` and `NTT(t0)`. A generated key makes them from `expanded`
    /// when it first signs; an imported one has them from the import's
    /// checks.
    forms: OnDemand<SignForms>,
    vk: VerifyingKey<P>,
}

impl<P: ParameterSet> Zeroize for ExpandedSigningKey<P> {
    fn zeroize(&mut self) {
        // Vector stores (`zeroize` on a byte array writes one volatile
        // byte at a time: 2.5-4.9 KB here).
        pqkit_common::wipe::wipe(self.expanded.as_mut());
        self.parts.zeroize();
        self.forms.zeroize();
    }
}
impl<P: ParameterSet> Drop for ExpandedSigningKey<P> {
    fn drop(&mut self) {
        // `parts` and `forms` zeroize themselves when they are dropped.
        pqkit_common::wipe::wipe(self.expanded.as_mut());
    }
}
impl<P: ParameterSet> ZeroizeOnDrop for ExpandedSigningKey<P> {}

impl<P: ParameterSet> core::fmt::Debug for ExpandedSigningKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ExpandedSigningKey")
            .field("set", &P::NAME)
            .finish_non_exhaustive()
    }
}

impl<P: ParameterSet> ExpandedSigningKey<P> {
    /// FIPS 204 Alg. 6 ML-DSA.KeyGen_internal from the seed xi, keeping
    /// only the expanded key (use [`SigningKey::from_seed`] to keep the
    /// seed). Cannot fail: ExpandA and ExpandS squeeze until done, as FIPS
    /// 204 Alg. 30/31 are written.
    ///
    /// Key generation keeps what it computes anyway (rho, K, tr,
    /// `NTT(s1)`) and stops at the encodings: the rest of the NTT-domain
    /// forms, `NTT(s2)` and `NTT(t0)` for signing and `NTT(t1 * 2^d)` for
    /// verifying, are made from the encodings when the key first signs or
    /// its public key first verifies, so a key that is only stored or sent
    /// never pays for them (`2k` forward NTTs, `3k` polynomials of memory).
    /// Without `alloc` they are made here.
    pub fn from_seed(xi: &Seed) -> Self {
        // The encodings are written in place (not returned and copied,
        // which would put a second copy on the stack).
        let mut key = Self {
            expanded: P::ExpandedKeyBytes::zeroed(),
            parts: store_default(),
            // Placeholders, replaced once the encodings are written.
            forms: OnDemand::later(|_| {}),
            vk: VerifyingKey {
                bytes: P::PublicKeyBytes::zeroed(),
                parts: OnDemand::later(|_| {}),
                tr: TrCache::default(),
            },
        };
        keygen_into::<P>(
            &xi.0,
            key.vk.bytes.as_mut(),
            key.expanded.as_mut(),
            &mut key.parts,
        );
        key.forms = form_later::<P, _>(key.expanded.as_ref());
        key.vk.parts = form_later::<P, _>(key.vk.bytes.as_ref());
        key.vk.tr = TrCache::known(&key.parts.tr);
        key
    }

    /// `NTT(s2)` and `NTT(t0)`, made now if this is their first use.
    fn forms(&self) -> &SignForms {
        form::<P, _>(&self.forms, self.expanded.as_ref())
    }

    /// Import the expanded FIPS 204 private key `skEncode(rho, K, tr, s1,
    /// s2, t0)`. The key is validated: s1/s2 in range, and t0 and tr equal
    /// to the values recomputed from rho, s1, s2 (which also yields the
    /// public key); else [`Error::InvalidPrivateKey`] or
    /// [`Error::InvalidLength`]. (RustCrypto `ml-dsa` does not validate, so
    /// its `from_expanded` cannot fail.)
    pub fn from_expanded(bytes: &[u8]) -> Result<Self, Error> {
        let expanded =
            WipedBytes(P::ExpandedKeyBytes::try_from(bytes).map_err(|_| Error::InvalidLength)?);
        let mut parts: Store<SecretParts> = store_default();
        let mut forms: Store<SignForms> = store_default();
        let mut pub_parts: Store<PublicParts> = store_default();
        let mut pk = P::PublicKeyBytes::zeroed();
        dispatch(DecodeSkK::<P> {
            sk: bytes,
            pk: pk.as_mut(),
            out: &mut parts,
            forms: &mut forms,
            pub_out: &mut pub_parts,
            _p: PhantomData,
        })?;
        Ok(Self {
            expanded: *expanded,
            forms: OnDemand::filled(forms),
            vk: VerifyingKey {
                bytes: pk,
                parts: OnDemand::filled(pub_parts),
                tr: TrCache::known(&parts.tr),
            },
            parts,
        })
    }

    /// The expanded FIPS 204 private key encoding, borrowed.
    pub fn expanded_bytes(&self) -> &P::ExpandedKeyBytes {
        &self.expanded
    }

    /// The expanded FIPS 204 private key encoding (RustCrypto's name).
    pub fn to_expanded(&self) -> ExpandedSigningKeyBytes<P> {
        self.expanded
    }

    /// The public key (a copy; `as_ref()` borrows it).
    pub fn verifying_key(&self) -> VerifyingKey<P> {
        self.vk.clone()
    }

    /// FIPS 204 Alg. 7 from line 7: sign an external mu with the given
    /// 32-byte `rnd` (all zero = deterministic).
    pub fn sign_mu_with_rnd(&self, mu: &Mu, rnd: &[u8; 32]) -> Result<Signature<P>, Error> {
        let mut bytes = P::SignatureBytes::zeroed();
        dispatch(SignK::<P> {
            sk: &self.parts,
            forms: self.forms(),
            mu,
            rnd,
            sig: bytes.as_mut(),
            _p: PhantomData,
        })?;
        Ok(Signature { bytes })
    }

    /// Deterministic signature of an external mu.
    pub fn sign_mu_deterministic(&self, mu: &Mu) -> Result<Signature<P>, Error> {
        self.sign_mu_with_rnd(mu, &[0u8; 32])
    }

    /// Hedged signature of an external mu, `rnd` from `rng` (RustCrypto
    /// `ml-dsa`'s name and argument order).
    pub fn sign_mu_randomized<R: TryCryptoRng + ?Sized>(
        &self,
        mu: &Mu,
        rng: &mut R,
    ) -> Result<Signature<P>, Error> {
        self.sign_mu_with_rnd(mu, &*rnd_from(rng)?)
    }

    /// FIPS 204 Alg. 2 ML-DSA.Sign with an explicit `rnd` (must be fresh
    /// randomness, or all zero for the deterministic variant).
    pub fn sign_with_rnd(
        &self,
        msg: &[u8],
        ctx: &[u8],
        rnd: &[u8; 32],
    ) -> Result<Signature<P>, Error> {
        self.sign_multipart_with_rnd(&[msg], ctx, rnd)
    }

    /// ML-DSA.Sign over a message given in pieces.
    pub fn sign_multipart_with_rnd(
        &self,
        msg: &[&[u8]],
        ctx: &[u8],
        rnd: &[u8; 32],
    ) -> Result<Signature<P>, Error> {
        let mut b = MuBuilder::new(&self.parts.tr, ctx)?;
        for m in msg {
            b.update(m);
        }
        self.sign_mu_with_rnd(&b.finalize(), rnd)
    }

    /// Hedged ML-DSA.Sign (the FIPS 204 default), `rnd` from `rng`
    /// (RustCrypto `ml-dsa`'s name and argument order).
    pub fn sign_randomized<R: TryCryptoRng + ?Sized>(
        &self,
        msg: &[u8],
        ctx: &[u8],
        rng: &mut R,
    ) -> Result<Signature<P>, Error> {
        check_ctx(ctx)?;
        self.sign_with_rnd(msg, ctx, &*rnd_from(rng)?)
    }

    /// Hedged ML-DSA.Sign with `rnd` from the operating system.
    #[cfg(feature = "getrandom")]
    pub fn sign_hedged(&self, msg: &[u8], ctx: &[u8]) -> Result<Signature<P>, Error> {
        check_ctx(ctx)?;
        self.sign_with_rnd(msg, ctx, &*rnd_os()?)
    }

    /// Deterministic ML-DSA.Sign (`rnd` = 0).
    pub fn sign_deterministic(&self, msg: &[u8], ctx: &[u8]) -> Result<Signature<P>, Error> {
        self.sign_with_rnd(msg, ctx, &[0u8; 32])
    }

    /// FIPS 204 Alg. 4 HashML-DSA.Sign given `PH(M)`, with explicit `rnd`.
    pub fn sign_prehashed_with_rnd(
        &self,
        ph: &PreHash,
        ctx: &[u8],
        rnd: &[u8; 32],
    ) -> Result<Signature<P>, Error> {
        let mu = MuBuilder::prehashed(&self.parts.tr, ctx, ph)?;
        self.sign_mu_with_rnd(&mu, rnd)
    }

    /// Hedged HashML-DSA.Sign: hashes `msg` with `alg`, `rnd` from `rng`.
    pub fn sign_prehash_randomized<R: TryCryptoRng + ?Sized>(
        &self,
        alg: HashAlg,
        msg: &[u8],
        ctx: &[u8],
        rng: &mut R,
    ) -> Result<Signature<P>, Error> {
        check_ctx(ctx)?;
        self.sign_prehashed_with_rnd(&alg.digest(msg), ctx, &*rnd_from(rng)?)
    }

    /// Deterministic HashML-DSA.Sign: hashes `msg` with `alg`.
    pub fn sign_prehash_deterministic(
        &self,
        alg: HashAlg,
        msg: &[u8],
        ctx: &[u8],
    ) -> Result<Signature<P>, Error> {
        self.sign_prehashed_with_rnd(&alg.digest(msg), ctx, &[0u8; 32])
    }

    /// A signer carrying a context string (at most 255 bytes), for the
    /// `signature` traits.
    pub fn with_context<'a>(&'a self, ctx: &'a [u8]) -> Result<ContextSigningKey<'a, P>, Error> {
        check_ctx(ctx)?;
        Ok(ContextSigningKey { key: self, ctx })
    }

    pub(crate) fn tr(&self) -> &[u8; 64] {
        &self.parts.tr
    }
}

impl<P: ParameterSet> AsRef<VerifyingKey<P>> for ExpandedSigningKey<P> {
    fn as_ref(&self) -> &VerifyingKey<P> {
        &self.vk
    }
}

/// An ML-DSA private (signing) key made from its 32-byte seed xi, which it
/// keeps (the canonical, smallest form: `KeyInit`/`KeyExport` and the
/// PKCS#8 `seed` form), with the expanded key it generates. Dereferences
/// to [`ExpandedSigningKey`], where every signing method is; implements the
/// same `signature` traits. A private key imported without a seed (the
/// PKCS#8 `expandedKey` form) is an [`ExpandedSigningKey`]. Wiped on drop;
/// `Debug` shows no secret.
#[derive(Clone)]
pub struct SigningKey<P: ParameterSet> {
    seed: Seed,
    key: ExpandedSigningKey<P>,
}

impl<P: ParameterSet> Drop for SigningKey<P> {
    fn drop(&mut self) {
        // `key` wipes itself when it is dropped.
        self.seed.zeroize();
    }
}
impl<P: ParameterSet> ZeroizeOnDrop for SigningKey<P> {}

impl<P: ParameterSet> core::fmt::Debug for SigningKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SigningKey")
            .field("set", &P::NAME)
            .finish_non_exhaustive()
    }
}

impl<P: ParameterSet> core::ops::Deref for SigningKey<P> {
    type Target = ExpandedSigningKey<P>;
    fn deref(&self) -> &ExpandedSigningKey<P> {
        &self.key
    }
}

impl<P: ParameterSet> SigningKey<P> {
    /// FIPS 204 Alg. 6 ML-DSA.KeyGen_internal from the seed xi. Cannot
    /// fail (see [`ExpandedSigningKey::from_seed`]).
    pub fn from_seed(xi: &Seed) -> Self {
        Self {
            seed: *xi,
            key: ExpandedSigningKey::from_seed(xi),
        }
    }

    /// [`from_seed`](Self::from_seed) from a slice (must be 32 bytes, else
    /// [`Error::InvalidLength`]).
    pub fn from_seed_slice(xi: &[u8]) -> Result<Self, Error> {
        let xi = Seed::try_from(xi).map_err(|_| Error::InvalidLength)?;
        Ok(Self::from_seed(&xi))
    }

    /// Import seed and expanded key together (the PKCS#8 `both` form): the
    /// seed must regenerate exactly that expanded key (compared in constant
    /// time), else [`Error::InconsistentKey`].
    pub fn from_seed_and_expanded(xi: &[u8], expanded: &[u8]) -> Result<Self, Error> {
        let sk = Self::from_seed_slice(xi)?;
        if !bool::from(pqkit_common::ct::ct_eq(sk.expanded.as_ref(), expanded)) {
            return Err(Error::InconsistentKey);
        }
        Ok(sk)
    }

    /// The seed xi.
    pub fn as_seed(&self) -> &Seed {
        &self.seed
    }

    /// The seed xi, copied.
    pub fn to_seed(&self) -> Seed {
        self.seed
    }

    /// The expanded key (also reachable through `Deref`).
    pub fn expanded_key(&self) -> &ExpandedSigningKey<P> {
        &self.key
    }
}

/// A signing key ([`SigningKey`] or [`ExpandedSigningKey`]) with a context string: its `Signer` (deterministic),
/// `RandomizedSigner` (hedged), multipart and digest impls use that
/// context.
#[derive(Clone, Copy, Debug)]
pub struct ContextSigningKey<'a, P: ParameterSet> {
    pub(crate) key: &'a ExpandedSigningKey<P>,
    pub(crate) ctx: &'a [u8],
}
