//! Keys and signatures.

use core::marker::PhantomData;

use pqkit_common::{Backend, Kernel, dispatch};
use rand_core::TryCryptoRng;
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::Error;
use crate::algo::{self, PublicParts, SecretParts};
use crate::mu::{Mu, MuBuilder};
use crate::params::{ByteArray, ParameterSet};
use crate::{HashAlg, PreHash};
use pqkit_common::wipe::{Store, store};

// ---------------------------------------------------------------------------
// Kernels: each public operation enters the backend through `dispatch`.

struct KeyGenK<'a, P> {
    xi: &'a [u8; 32],
    pk: &'a mut [u8],
    sk: &'a mut [u8],
    out: &'a mut SecretParts,
    pub_out: &'a mut PublicParts,
    _p: PhantomData<P>,
}
impl<P: ParameterSet> Kernel for KeyGenK<'_, P> {
    type Output = Result<(), Error>;
    fn run<B: Backend>(self, b: B) -> Self::Output {
        algo::keygen::<B, P>(b, self.xi, self.pk, self.sk, self.out, self.pub_out)
    }
}

struct DecodeSkK<'a, P> {
    sk: &'a [u8],
    pk: &'a mut [u8],
    out: &'a mut SecretParts,
    pub_out: &'a mut PublicParts,
    _p: PhantomData<P>,
}
impl<P: ParameterSet> Kernel for DecodeSkK<'_, P> {
    type Output = Result<(), Error>;
    fn run<B: Backend>(self, b: B) -> Self::Output {
        algo::decode_sk::<B, P>(b, self.sk, self.pk, self.out, self.pub_out)
    }
}

struct DecodePkK<'a, P> {
    pk: &'a [u8],
    out: &'a mut PublicParts,
    _p: PhantomData<P>,
}
impl<P: ParameterSet> Kernel for DecodePkK<'_, P> {
    type Output = Result<(), Error>;
    fn run<B: Backend>(self, b: B) -> Self::Output {
        algo::decode_pk::<B, P>(b, self.pk, self.out)
    }
}

struct SignK<'a, P> {
    sk: &'a SecretParts,
    mu: &'a Mu,
    rnd: &'a [u8; 32],
    sig: &'a mut [u8],
    _p: PhantomData<P>,
}
impl<P: ParameterSet> Kernel for SignK<'_, P> {
    type Output = Result<(), Error>;
    fn run<B: Backend>(self, b: B) -> Self::Output {
        algo::sign_mu::<B, P>(b, self.sk, self.mu, self.rnd, self.sig)
    }
}

struct VerifyK<'a, P> {
    pk: &'a PublicParts,
    mu: &'a Mu,
    sig: &'a [u8],
    _p: PhantomData<P>,
}
impl<P: ParameterSet> Kernel for VerifyK<'_, P> {
    type Output = Result<(), Error>;
    fn run<B: Backend>(self, b: B) -> Self::Output {
        algo::verify_mu::<B, P>(b, self.pk, self.mu, self.sig)
    }
}

fn check_ctx(ctx: &[u8]) -> Result<(), Error> {
    if ctx.len() > 255 {
        Err(Error::ContextTooLong)
    } else {
        Ok(())
    }
}

fn rnd_from<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Zeroizing<[u8; 32]>, Error> {
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
    parts: Store<PublicParts>,
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
        let mut vk = Self {
            bytes: arr,
            parts: store(PublicParts::default()),
        };
        dispatch(DecodePkK::<P> {
            pk: bytes,
            out: &mut vk.parts,
            _p: PhantomData,
        })?;
        Ok(vk)
    }

    /// The encoded public key.
    pub fn to_bytes(&self) -> P::PublicKeyBytes {
        self.bytes
    }

    /// The encoded public key, borrowed.
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.as_ref()
    }

    /// `tr = H(pk, 64)`, the input of external mu.
    pub fn tr(&self) -> &[u8; 64] {
        &self.parts.tr
    }

    /// Verify a signature made from an external mu.
    pub fn verify_mu(&self, mu: &Mu, sig: &Signature<P>) -> Result<(), Error> {
        self.verify_mu_bytes(mu, sig.as_bytes())
    }

    /// Verify raw signature bytes against mu (typed errors for wrong
    /// length, malformed hint, out-of-range z).
    pub fn verify_mu_bytes(&self, mu: &Mu, sig: &[u8]) -> Result<(), Error> {
        dispatch(VerifyK::<P> {
            pk: &self.parts,
            mu,
            sig,
            _p: PhantomData,
        })
    }

    /// FIPS 204 Alg. 3 ML-DSA.Verify with a context of at most 255 bytes.
    pub fn verify_with_context(
        &self,
        msg: &[u8],
        ctx: &[u8],
        sig: &Signature<P>,
    ) -> Result<(), Error> {
        self.verify_multipart_with_context(&[msg], ctx, sig.as_bytes())
    }

    /// ML-DSA.Verify over a message given in pieces, with raw signature
    /// bytes.
    pub fn verify_multipart_with_context(
        &self,
        msg: &[&[u8]],
        ctx: &[u8],
        sig: &[u8],
    ) -> Result<(), Error> {
        let mut b = MuBuilder::new(self.tr(), ctx)?;
        for m in msg {
            b.update(m);
        }
        self.verify_mu_bytes(&b.finalize(), sig)
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
        let mu = MuBuilder::prehashed(self.tr(), ctx, ph)?;
        self.verify_mu(&mu, sig)
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
    bytes: P::SignatureBytes,
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
}

/// An ML-DSA private (signing) key: the 32-byte seed xi when known (the
/// canonical form), the expanded FIPS 204 key, its NTT-domain parts, and
/// the public key. Wiped on drop; `Debug` shows no secret.
///
/// Through the `signature` traits, `Signer`/`MultipartSigner` sign
/// **deterministically with the empty context**, `RandomizedSigner` signs
/// hedged, `DigestSigner<Shake256>` streams the message into mu (pure
/// ML-DSA, as in RustCrypto `ml-dsa`; HashML-DSA is `sign_prehash_*`); use
/// [`with_context`](Self::with_context) for a context.
#[derive(Clone)]
pub struct SigningKey<P: ParameterSet> {
    seed: Option<[u8; 32]>,
    expanded: P::ExpandedKeyBytes,
    parts: Store<SecretParts>,
    vk: VerifyingKey<P>,
}

impl<P: ParameterSet> Zeroize for SigningKey<P> {
    fn zeroize(&mut self) {
        self.seed.zeroize();
        self.expanded.zeroize();
        self.parts.zeroize();
    }
}
impl<P: ParameterSet> Drop for SigningKey<P> {
    fn drop(&mut self) {
        // `parts` zeroizes itself when it is dropped.
        self.seed.zeroize();
        self.expanded.zeroize();
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

impl<P: ParameterSet> SigningKey<P> {
    /// FIPS 204 Alg. 6 ML-DSA.KeyGen_internal from the seed xi.
    ///
    /// Fails only if a rejection-sampling bound is hit (probability below
    /// `2^-256`).
    pub fn from_seed(xi: &[u8; 32]) -> Result<Self, Error> {
        let mut key = Self::empty();
        dispatch(KeyGenK::<P> {
            xi,
            pk: key.vk.bytes.as_mut(),
            sk: key.expanded.as_mut(),
            out: &mut key.parts,
            pub_out: &mut key.vk.parts,
            _p: PhantomData,
        })?;
        key.seed = Some(*xi);
        Ok(key)
    }

    fn empty() -> Self {
        Self {
            seed: None,
            expanded: P::ExpandedKeyBytes::zeroed(),
            parts: store(SecretParts::with_dims(P::L, P::K)),
            vk: VerifyingKey {
                bytes: P::PublicKeyBytes::zeroed(),
                parts: store(PublicParts::default()),
            },
        }
    }

    /// [`from_seed`](Self::from_seed) from a slice (must be 32 bytes).
    pub fn from_seed_slice(xi: &[u8]) -> Result<Self, Error> {
        let xi: &[u8; 32] = xi.try_into().map_err(|_| Error::InvalidLength)?;
        Self::from_seed(xi)
    }

    /// FIPS 204 Alg. 1 ML-DSA.KeyGen: a fresh seed from `rng`.
    pub fn generate<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self, Error> {
        let mut xi = Zeroizing::new([0u8; 32]);
        rng.try_fill_bytes(&mut xi[..]).map_err(|_| Error::Rng)?;
        Self::from_seed(&xi)
    }

    /// ML-DSA.KeyGen with a seed from the operating system.
    #[cfg(feature = "getrandom")]
    pub fn generate_os() -> Result<Self, Error> {
        let xi = rnd_os()?;
        Self::from_seed(&xi)
    }

    /// Import the expanded FIPS 204 private key `skEncode(rho, K, tr, s1,
    /// s2, t0)`. The key is validated: s1/s2 in range, and t0 and tr equal
    /// to the values recomputed from rho, s1, s2 (which also yields the
    /// public key). Such a key has no seed.
    pub fn from_expanded(bytes: &[u8]) -> Result<Self, Error> {
        let mut key = Self::empty();
        key.expanded = P::ExpandedKeyBytes::try_from(bytes).map_err(|_| Error::InvalidLength)?;
        dispatch(DecodeSkK::<P> {
            sk: bytes,
            pk: key.vk.bytes.as_mut(),
            out: &mut key.parts,
            pub_out: &mut key.vk.parts,
            _p: PhantomData,
        })?;
        Ok(key)
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

    /// The seed xi, if this key was made from one.
    pub fn seed(&self) -> Option<&[u8; 32]> {
        self.seed.as_ref()
    }

    /// The expanded FIPS 204 private key encoding.
    pub fn expanded_bytes(&self) -> &P::ExpandedKeyBytes {
        &self.expanded
    }

    /// The public key.
    pub fn public_key(&self) -> &VerifyingKey<P> {
        &self.vk
    }

    /// FIPS 204 Alg. 7 from line 7: sign an external mu with the given
    /// 32-byte `rnd` (all zero = deterministic).
    pub fn sign_mu_with_rnd(&self, mu: &Mu, rnd: &[u8; 32]) -> Result<Signature<P>, Error> {
        let mut bytes = P::SignatureBytes::zeroed();
        dispatch(SignK::<P> {
            sk: &self.parts,
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

    /// Hedged signature of an external mu, `rnd` from `rng`.
    pub fn sign_mu_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        mu: &Mu,
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

    /// Hedged ML-DSA.Sign (the FIPS 204 default), `rnd` from `rng`.
    pub fn sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
        ctx: &[u8],
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
    pub fn sign_prehash_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        alg: HashAlg,
        msg: &[u8],
        ctx: &[u8],
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

/// A [`SigningKey`] with a context string: its `Signer` (deterministic),
/// `RandomizedSigner` (hedged), multipart and digest impls use that
/// context.
#[derive(Clone, Copy, Debug)]
pub struct ContextSigningKey<'a, P: ParameterSet> {
    pub(crate) key: &'a SigningKey<P>,
    pub(crate) ctx: &'a [u8],
}
