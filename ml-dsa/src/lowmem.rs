//! Low-memory ML-DSA for firmware and small devices: the same keys,
//! signatures and decisions as the rest of the crate, computed in a few
//! kilobytes.
//!
//! [`SigningKey`] holds the 32-byte seed xi and what is derived from it in
//! one hash (rho, K) plus `tr` (160 bytes; nothing of size n);
//! [`VerifyingKey`] holds the encoded public key. Every operation streams:
//! matrix entries are sampled from rho one at a time and dropped, `s1`/`s2`
//! are re-sampled one polynomial at a time, signing keeps the mask `y` in
//! the output signature's own `z` field and hashes `w1` into c~ as each row
//! is produced, and verification works from the encoded public key one
//! row at a time. No heap, no `alloc`; the working memory does not depend
//! on `k` and `l` (six polynomials to sign, four to verify, three for the
//! public key).
//!
//! The price is time: the matrix is re-sampled in each signing attempt
//! (twice for attempts whose `z` passes) instead of once. See BENCHMARKS.md
//! for the measured peaks and speeds.
//!
//! ```
//! use pqkit_ml_dsa::{MlDsa65, SigningKey as FastKey, lowmem};
//! use pqkit_ml_dsa::signature::{Signer, Verifier};
//!
//! let seed = [42u8; 32].into();
//! let sk = lowmem::SigningKey::<MlDsa65>::from_seed(&seed);
//! let vk = sk.verifying_key();
//! let sig = sk.try_sign(b"firmware image digest")?;
//! vk.verify(b"firmware image digest", &sig)?;
//!
//! // The same signature and public key as the fast path.
//! let fast = FastKey::<MlDsa65>::from_seed(&seed);
//! assert_eq!(fast.sign_deterministic(b"firmware image digest", b"")?, sig);
//! assert_eq!(vk.as_bytes(), fast.verifying_key().as_bytes());
//!
//! // Sign straight from the seed, without a key object.
//! let sig2 = lowmem::sign_from_seed::<MlDsa65>(&seed, b"firmware image digest", b"", &[0; 32])?;
//! assert_eq!(sig2, sig);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::marker::PhantomData;

use pqkit_common::{Backend, Kernel, dispatch};
use rand_core::TryCryptoRng;
use signature::{Keypair, RandomizedSigner, Signer, Verifier};
use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::algo::lowmem as stream;
use crate::keys::{EncodedSignature, EncodedVerifyingKey, Seed, Signature, check_ctx, rnd_from};
use crate::mu::{Mu, MuBuilder};
use crate::params::{ByteArray, ParameterSet};
use crate::{Error, PreHash};

type SigResult<T> = Result<T, signature::Error>;

struct PublicKeyK<'a, P, F> {
    rho: &'a [u8; 32],
    rho_prime: &'a [u8; 64],
    sink: F,
    _p: PhantomData<P>,
}
impl<P: ParameterSet, F: FnMut(&[u8])> Kernel for PublicKeyK<'_, P, F> {
    type Output = ();
    fn run<B: Backend>(self, b: B) {
        let Ok(()) = stream::public_key::<B, P, core::convert::Infallible>(
            b,
            self.rho,
            self.rho_prime,
            self.sink,
        );
    }
}

struct SignK<'a, P, S> {
    sk: &'a S,
    mu: &'a Mu,
    rnd: &'a [u8; 32],
    sig: &'a mut [u8],
    _p: PhantomData<P>,
}
impl<P: ParameterSet, S: stream::Secrets> Kernel for SignK<'_, P, S> {
    type Output = Result<(), Error>;
    fn run<B: Backend>(self, b: B) -> Self::Output {
        stream::sign_mu::<B, P, S>(b, self.sk, self.mu, self.rnd, self.sig)
    }
}

fn sign_with<P: ParameterSet, S: stream::Secrets>(
    sk: &S,
    mu: &Mu,
    rnd: &[u8; 32],
    sig: &mut EncodedSignature<P>,
) -> Result<(), Error> {
    dispatch(SignK::<P, S> {
        sk,
        mu,
        rnd,
        sig: sig.as_mut(),
        _p: PhantomData,
    })
}

/// Run `f` on a zeroed signature buffer and wrap it.
fn new_signature<P: ParameterSet>(
    f: impl FnOnce(&mut EncodedSignature<P>) -> Result<(), Error>,
) -> Result<Signature<P>, Error> {
    let mut bytes = P::SignatureBytes::zeroed();
    f(&mut bytes)?;
    Ok(Signature { bytes })
}

struct VerifyK<'a, P> {
    pk: &'a [u8],
    mu: &'a Mu,
    sig: &'a [u8],
    _p: PhantomData<P>,
}
impl<P: ParameterSet> Kernel for VerifyK<'_, P> {
    type Output = Result<(), Error>;
    fn run<B: Backend>(self, b: B) -> Self::Output {
        stream::verify_mu::<B, P>(b, self.pk, self.mu, self.sig)
    }
}

/// `tr = H(pkEncode(rho, t1), 64)` with the public key streamed into the
/// hash (never held whole).
fn tr_of<P: ParameterSet>(rho: &[u8; 32], rho_prime: &[u8; 64]) -> [u8; 64] {
    use pqkit_common::keccak::Shake256;
    let mut h = Shake256::default();
    dispatch(PublicKeyK::<P, _> {
        rho,
        rho_prime,
        sink: |piece: &[u8]| h.update(piece),
        _p: PhantomData,
    });
    let mut tr = [0u8; 64];
    h.finalize_xof().read(&mut tr);
    tr
}

fn sign_mu_into<P: ParameterSet>(
    xi: &[u8; 32],
    rho: &[u8; 32],
    key: &[u8; 32],
    mu: &Mu,
    rnd: &[u8; 32],
    sig: &mut EncodedSignature<P>,
) -> Result<(), Error> {
    let (_, rho_prime, _) = stream::expand_seed::<P>(xi);
    let sk = stream::FromSeed {
        rho,
        rho_prime: &rho_prime,
        key,
    };
    sign_with::<P, _>(&sk, mu, rnd, sig)
}

/// `mu = H(tr || 0 || |ctx| || ctx || msg)` in a frame of its own (its
/// hash state is not kept beside the signing buffers).
#[inline(never)]
fn mu_of(tr: &[u8; 64], ctx: &[u8], msg: &[u8]) -> Result<Mu, Error> {
    let mut b = MuBuilder::new(tr, ctx)?;
    b.update(msg);
    Ok(b.finalize())
}

/// `tr = H(pk, 64)` in a frame of its own.
#[inline(never)]
fn tr_of_bytes(pk: &[u8]) -> [u8; 64] {
    let mut tr = [0u8; 64];
    crate::algo::h(&[pk], &mut tr);
    tr
}

/// Merged key generation and signing: ML-DSA.Sign (pure, with a context of
/// at most 255 bytes) straight from the seed xi with the 32-byte `rnd`
/// (all zero: deterministic), without a key object. Computes `tr` by
/// streaming the public key into its hash, then signs.
pub fn sign_from_seed<P: ParameterSet>(
    xi: &Seed,
    msg: &[u8],
    ctx: &[u8],
    rnd: &[u8; 32],
) -> Result<Signature<P>, Error> {
    new_signature(|sig| sign_from_seed_into::<P>(xi, msg, ctx, rnd, sig))
}

/// [`sign_from_seed`] into the caller's signature buffer (no copy of the
/// signature: what a device with little memory wants).
pub fn sign_from_seed_into<P: ParameterSet>(
    xi: &Seed,
    msg: &[u8],
    ctx: &[u8],
    rnd: &[u8; 32],
    sig: &mut EncodedSignature<P>,
) -> Result<(), Error> {
    let xi: &[u8; 32] = xi.as_ref();
    let (rho, rho_prime, key) = stream::expand_seed::<P>(xi);
    let tr = tr_of::<P>(&rho, &rho_prime);
    drop(rho_prime);
    let mu = mu_of(&tr, ctx, msg)?;
    sign_mu_into::<P>(xi, &rho, &key, &mu, rnd, sig)
}

/// Key generation from the seed xi (FIPS 204 Alg. 6), streamed: the
/// compact signing key and the public key, the public key computed once
/// (three polynomials of working memory) and hashed into `tr`.
pub fn keygen<P: ParameterSet>(xi: &Seed) -> (SigningKey<P>, VerifyingKey<P>) {
    let mut pk = P::PublicKeyBytes::zeroed();
    let sk = keygen_into::<P>(xi, &mut pk);
    (sk, VerifyingKey::from_encoded(pk))
}

/// [`keygen`] with the public key written into the caller's buffer.
pub fn keygen_into<P: ParameterSet>(xi: &Seed, pk: &mut EncodedVerifyingKey<P>) -> SigningKey<P> {
    let (rho, rho_prime, key) = stream::expand_seed::<P>(xi.as_ref());
    public_key_into::<P>(&rho, &rho_prime, pk);
    let tr = tr_of_bytes(pk.as_ref());
    SigningKey {
        xi: *xi,
        rho,
        key: *key,
        tr,
        _p: PhantomData,
    }
}

/// `pkEncode(rho, t1)`, streamed row by row into `pk`.
fn public_key_into<P: ParameterSet>(
    rho: &[u8; 32],
    rho_prime: &[u8; 64],
    pk: &mut EncodedVerifyingKey<P>,
) {
    let mut at = 0;
    let out = pk.as_mut();
    dispatch(PublicKeyK::<P, _> {
        rho,
        rho_prime,
        sink: |piece: &[u8]| {
            out[at..at + piece.len()].copy_from_slice(piece);
            at += piece.len();
        },
        _p: PhantomData,
    });
}

/// ML-DSA.Sign_internal from line 7 (external mu) with an encoded expanded
/// key `skEncode(rho, K, tr, s1, s2, t0)` (e.g. an OpenSSL `expandedKey`),
/// read in place one polynomial at a time: nothing of the key is copied
/// but rho and K. As the fast path's [`hazmat::sign_expanded`], the
/// encoding's `s1`/`s2` ranges are checked and `t0`, `tr` taken as given.
///
/// [`hazmat::sign_expanded`]: crate::hazmat::sign_expanded
pub fn sign_expanded_mu<P: ParameterSet>(
    sk: &[u8],
    mu: &Mu,
    rnd: &[u8; 32],
) -> Result<Signature<P>, Error> {
    new_signature(|sig| sign_expanded_mu_into::<P>(sk, mu, rnd, sig))
}

/// [`sign_expanded_mu`] into the caller's signature buffer.
pub fn sign_expanded_mu_into<P: ParameterSet>(
    sk: &[u8],
    mu: &Mu,
    rnd: &[u8; 32],
    sig: &mut EncodedSignature<P>,
) -> Result<(), Error> {
    let (rho, key) = stream::check_expanded::<P>(sk)?;
    let secrets = stream::FromExpanded { sk, rho, key };
    sign_with::<P, _>(&secrets, mu, rnd, sig)
}

/// ML-DSA.Sign (pure, context of at most 255 bytes) with an encoded
/// expanded key read in place (see [`sign_expanded_mu`]); `tr` is the
/// key's own.
pub fn sign_expanded<P: ParameterSet>(
    sk: &[u8],
    msg: &[u8],
    ctx: &[u8],
    rnd: &[u8; 32],
) -> Result<Signature<P>, Error> {
    if sk.len() != P::SK_LEN {
        return Err(Error::InvalidLength);
    }
    let mut tr = [0u8; 64];
    tr.copy_from_slice(&sk[64..128]);
    let mut b = MuBuilder::new(&tr, ctx)?;
    b.update(msg);
    sign_expanded_mu::<P>(sk, &b.finalize(), rnd)
}

/// A low-memory ML-DSA signing key: the seed xi, rho, K and `tr` (160
/// bytes), wiped on drop. Signing re-derives everything else.
///
/// Through the `signature` traits `Signer` signs deterministically with
/// the empty context and `RandomizedSigner` hedged, as the regular
/// [`SigningKey`](crate::SigningKey) does; the inherent methods take a
/// context.
#[derive(Clone)]
pub struct SigningKey<P: ParameterSet> {
    xi: Seed,
    rho: [u8; 32],
    key: [u8; 32],
    tr: [u8; 64],
    _p: PhantomData<P>,
}

impl<P: ParameterSet> Zeroize for SigningKey<P> {
    fn zeroize(&mut self) {
        self.xi.zeroize();
        self.key.zeroize();
        self.rho.zeroize();
        self.tr.zeroize();
    }
}

impl<P: ParameterSet> Drop for SigningKey<P> {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl<P: ParameterSet> ZeroizeOnDrop for SigningKey<P> {}

impl<P: ParameterSet> core::fmt::Debug for SigningKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("lowmem::SigningKey")
            .field("set", &P::NAME)
            .finish_non_exhaustive()
    }
}

impl<P: ParameterSet> SigningKey<P> {
    /// Key generation from the seed xi (FIPS 204 Alg. 6; the public key is
    /// streamed into `tr` and not kept). Cannot fail.
    pub fn from_seed(xi: &Seed) -> Self {
        let (rho, rho_prime, key) = stream::expand_seed::<P>(xi.as_ref());
        let tr = tr_of::<P>(&rho, &rho_prime);
        Self {
            xi: *xi,
            rho,
            key: *key,
            tr,
            _p: PhantomData,
        }
    }

    /// The seed (the canonical private key: PKCS#8 `seed` form).
    pub fn as_seed(&self) -> &Seed {
        &self.xi
    }

    /// The regular key of the same seed (what PKCS#8 encoding and the
    /// expanded encoding go through).
    pub fn to_signing_key(&self) -> crate::SigningKey<P> {
        crate::SigningKey::from_seed(&self.xi)
    }

    /// `tr = H(pk, 64)`.
    pub fn tr(&self) -> &[u8; 64] {
        &self.tr
    }

    /// The public key, recomputed (streamed: three polynomials of working
    /// memory).
    pub fn verifying_key(&self) -> VerifyingKey<P> {
        let (rho, rho_prime, _) = stream::expand_seed::<P>(self.xi.as_ref());
        let mut pk = P::PublicKeyBytes::zeroed();
        public_key_into::<P>(&rho, &rho_prime, &mut pk);
        VerifyingKey {
            pk,
            tr: self.tr,
            _p: PhantomData,
        }
    }

    /// FIPS 204 Alg. 7 from line 7: sign an external mu with the given
    /// `rnd` (all zero: deterministic).
    pub fn sign_mu_with_rnd(&self, mu: &Mu, rnd: &[u8; 32]) -> Result<Signature<P>, Error> {
        new_signature(|sig| self.sign_mu_into(mu, rnd, sig))
    }

    /// [`sign_mu_with_rnd`](Self::sign_mu_with_rnd) into the caller's
    /// signature buffer.
    pub fn sign_mu_into(
        &self,
        mu: &Mu,
        rnd: &[u8; 32],
        sig: &mut EncodedSignature<P>,
    ) -> Result<(), Error> {
        sign_mu_into::<P>(self.xi.as_ref(), &self.rho, &self.key, mu, rnd, sig)
    }

    /// ML-DSA.Sign with a context and `rnd` into the caller's signature
    /// buffer (no copy of the signature).
    pub fn sign_into(
        &self,
        msg: &[u8],
        ctx: &[u8],
        rnd: &[u8; 32],
        sig: &mut EncodedSignature<P>,
    ) -> Result<(), Error> {
        let mu = mu_of(&self.tr, ctx, msg)?;
        self.sign_mu_into(&mu, rnd, sig)
    }

    /// ML-DSA.Sign with a context (at most 255 bytes) and an explicit
    /// `rnd` (fresh randomness, or all zero for the deterministic variant).
    pub fn sign_with_rnd(
        &self,
        msg: &[u8],
        ctx: &[u8],
        rnd: &[u8; 32],
    ) -> Result<Signature<P>, Error> {
        let mut b = MuBuilder::new(&self.tr, ctx)?;
        b.update(msg);
        self.sign_mu_with_rnd(&b.finalize(), rnd)
    }

    /// Deterministic ML-DSA.Sign.
    pub fn sign_deterministic(&self, msg: &[u8], ctx: &[u8]) -> Result<Signature<P>, Error> {
        self.sign_with_rnd(msg, ctx, &[0u8; 32])
    }

    /// Hedged ML-DSA.Sign, `rnd` from `rng`.
    pub fn sign_randomized<R: TryCryptoRng + ?Sized>(
        &self,
        msg: &[u8],
        ctx: &[u8],
        rng: &mut R,
    ) -> Result<Signature<P>, Error> {
        check_ctx(ctx)?;
        self.sign_with_rnd(msg, ctx, &*rnd_from(rng)?)
    }

    /// HashML-DSA.Sign (FIPS 204 Alg. 4) given `PH(M)`, with explicit `rnd`.
    pub fn sign_prehashed_with_rnd(
        &self,
        ph: &PreHash,
        ctx: &[u8],
        rnd: &[u8; 32],
    ) -> Result<Signature<P>, Error> {
        let mu = MuBuilder::prehashed(&self.tr, ctx, ph)?;
        self.sign_mu_with_rnd(&mu, rnd)
    }
}

impl<P: ParameterSet> From<&crate::SigningKey<P>> for SigningKey<P> {
    /// The compact form of a seeded key (re-derives rho, K and tr: one
    /// streamed public-key computation).
    fn from(k: &crate::SigningKey<P>) -> Self {
        Self::from_seed(k.as_seed())
    }
}

impl<P: ParameterSet> From<&SigningKey<P>> for crate::SigningKey<P> {
    fn from(k: &SigningKey<P>) -> Self {
        k.to_signing_key()
    }
}

impl<P: ParameterSet> Keypair for SigningKey<P> {
    type VerifyingKey = VerifyingKey<P>;
    fn verifying_key(&self) -> VerifyingKey<P> {
        SigningKey::verifying_key(self)
    }
}

impl<P: ParameterSet> Signer<Signature<P>> for SigningKey<P> {
    /// Deterministic signing with the empty context.
    fn try_sign(&self, msg: &[u8]) -> SigResult<Signature<P>> {
        Ok(self.sign_deterministic(msg, &[])?)
    }
}

impl<P: ParameterSet> RandomizedSigner<Signature<P>> for SigningKey<P> {
    /// Hedged signing with the empty context.
    fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> SigResult<Signature<P>> {
        Ok(self.sign_with_rnd(msg, &[], &*rnd_from(rng)?)?)
    }
}

/// ML-DSA.Verify (pure, with a context) straight from the encoded public
/// key and signature, borrowed (e.g. from flash): nothing is copied, `tr`
/// is hashed from `pk`.
pub fn verify<P: ParameterSet>(pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<(), Error> {
    if pk.len() != P::PK_LEN {
        return Err(Error::InvalidLength);
    }
    let mu = mu_of(&tr_of_bytes(pk), ctx, msg)?;
    dispatch(VerifyK::<P> {
        pk,
        mu: &mu,
        sig,
        _p: PhantomData,
    })
}

/// A low-memory ML-DSA verifying key: the encoded public key and `tr`.
/// Verification works from the encoding one row at a time.
#[derive(Clone, PartialEq, Eq)]
pub struct VerifyingKey<P: ParameterSet> {
    pk: EncodedVerifyingKey<P>,
    tr: [u8; 64],
    _p: PhantomData<P>,
}

impl<P: ParameterSet> core::fmt::Debug for VerifyingKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("lowmem::VerifyingKey")
            .field("set", &P::NAME)
            .finish_non_exhaustive()
    }
}

impl<P: ParameterSet> VerifyingKey<P> {
    /// The encoded public key `pkEncode(rho, t1)` (every byte string of the
    /// right length is a key).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let pk = EncodedVerifyingKey::<P>::try_from(bytes).map_err(|_| Error::InvalidLength)?;
        Ok(Self::from_encoded(pk))
    }

    /// From the encoding (and `tr = H(pk)`).
    pub fn from_encoded(pk: EncodedVerifyingKey<P>) -> Self {
        let mut tr = [0u8; 64];
        crate::algo::h(&[pk.as_ref()], &mut tr);
        Self {
            pk,
            tr,
            _p: PhantomData,
        }
    }

    /// The encoded public key.
    pub fn as_bytes(&self) -> &[u8] {
        self.pk.as_ref()
    }

    /// `tr = H(pk, 64)`.
    pub fn tr(&self) -> &[u8; 64] {
        &self.tr
    }

    /// Verify raw signature bytes against an external mu (typed errors:
    /// wrong length, malformed hint, out-of-range z, invalid signature).
    pub fn verify_mu_bytes(&self, mu: &Mu, sig: &[u8]) -> Result<(), Error> {
        dispatch(VerifyK::<P> {
            pk: self.pk.as_ref(),
            mu,
            sig,
            _p: PhantomData,
        })
    }

    /// ML-DSA.Verify with a context: `true` if the signature is valid.
    pub fn verify_with_context(&self, msg: &[u8], ctx: &[u8], sig: &Signature<P>) -> bool {
        self.verify_bytes(msg, ctx, sig.as_bytes()).is_ok()
    }

    /// ML-DSA.Verify with a context over raw signature bytes, saying why a
    /// signature is rejected.
    pub fn verify_bytes(&self, msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<(), Error> {
        let mut b = MuBuilder::new(&self.tr, ctx)?;
        b.update(msg);
        self.verify_mu_bytes(&b.finalize(), sig)
    }

    /// HashML-DSA.Verify given `PH(M)`.
    pub fn verify_prehashed(&self, ph: &PreHash, ctx: &[u8], sig: &[u8]) -> Result<(), Error> {
        let mu = MuBuilder::prehashed(&self.tr, ctx, ph)?;
        self.verify_mu_bytes(&mu, sig)
    }
}

impl<P: ParameterSet> From<&crate::VerifyingKey<P>> for VerifyingKey<P> {
    fn from(k: &crate::VerifyingKey<P>) -> Self {
        Self {
            pk: k.to_bytes(),
            tr: k.tr(),
            _p: PhantomData,
        }
    }
}

impl<P: ParameterSet> TryFrom<&VerifyingKey<P>> for crate::VerifyingKey<P> {
    type Error = Error;
    fn try_from(k: &VerifyingKey<P>) -> Result<Self, Error> {
        crate::VerifyingKey::from_bytes(k.as_bytes())
    }
}

impl<P: ParameterSet> Verifier<Signature<P>> for VerifyingKey<P> {
    /// Verification with the empty context.
    fn verify(&self, msg: &[u8], sig: &Signature<P>) -> SigResult<()> {
        Ok(self.verify_bytes(msg, &[], sig.as_bytes())?)
    }
}
