//! The RustCrypto `signature` 3 traits.
//!
//! * [`Signer`]/[`MultipartSigner`] on [`SigningKey`] sign
//!   **deterministically with the empty context** (like RustCrypto
//!   `ml-dsa`); [`RandomizedSigner`]/[`RandomizedMultipartSigner`] sign
//!   hedged (FIPS 204's default). For a context, use
//!   [`SigningKey::with_context`] / [`VerifyingKey::with_context`], whose
//!   types implement the same traits with that context.
//! * [`DigestSigner`]/[`RandomizedDigestSigner`]/[`DigestVerifier`] over
//!   [`Shake256`] are **pure** ML-DSA with the message streamed into the mu
//!   hasher (`mu = SHAKE256(tr || 0 || |ctx| || ctx || M)`: the closure
//!   feeds `M`), exactly as in RustCrypto `ml-dsa`, so the same closure
//!   gives the same signature bytes there and here (`DigestSigner`
//!   deterministic, `RandomizedDigestSigner` hedged). HashML-DSA has its
//!   own explicit API: [`SigningKey::sign_prehash_with_rng`],
//!   [`SigningKey::sign_prehash_deterministic`],
//!   [`VerifyingKey::verify_prehash`] and the `*_prehashed` forms.

use rand_core::TryCryptoRng;
use signature::{
    DigestSigner, DigestVerifier, Keypair, KeypairRef, MultipartSigner, MultipartVerifier,
    RandomizedDigestSigner, RandomizedMultipartSigner, RandomizedSigner, SignatureEncoding, Signer,
    Verifier,
};

use pqkit_common::keccak::Shake256;

use crypto_common::{Generate, Key, KeyExport, KeyInit, KeySizeUser};

use crate::keys::rnd_from;
use crate::params::ByteArray;

use crate::{
    ContextSigningKey, ContextVerifyingKey, ExpandedSigningKey, MlDsa44, MlDsa65, MlDsa87, Mu,
    MuBuilder, ParameterSet, Seed, Signature, SigningKey, VerifyingKey,
};

type SigResult<T> = Result<T, signature::Error>;

/// mu of the pure interface, the message streamed by `f` into the mu
/// hasher (RustCrypto `ml-dsa`'s `DigestSigner<Shake256>` semantics).
fn mu_from<F: Fn(&mut Shake256) -> SigResult<()>>(
    vk: &VerifyingKey<impl ParameterSet>,
    ctx: &[u8],
    f: F,
) -> SigResult<Mu> {
    let mut b = MuBuilder::from_verifying_key(vk, ctx)?;
    f(b.hasher_mut())?;
    Ok(b.finalize())
}

/// The signing operations with a context, shared by [`SigningKey`] (empty
/// context) and [`ContextSigningKey`].
fn sign_parts<P: ParameterSet>(
    k: &ExpandedSigningKey<P>,
    ctx: &[u8],
    msg: &[&[u8]],
    rnd: &[u8; 32],
) -> SigResult<Signature<P>> {
    Ok(k.sign_multipart_with_rnd(msg, ctx, rnd)?)
}

macro_rules! signer_impls {
    ($ty:ty) => {
        impl<P: ParameterSet> Signer<Signature<P>> for $ty {
            /// Deterministic signing (rnd = 0).
            fn try_sign(&self, msg: &[u8]) -> SigResult<Signature<P>> {
                sign_parts(self.parts_key(), self.parts_ctx(), &[msg], &[0u8; 32])
            }
        }
        impl<P: ParameterSet> MultipartSigner<Signature<P>> for $ty {
            fn try_multipart_sign(&self, msg: &[&[u8]]) -> SigResult<Signature<P>> {
                sign_parts(self.parts_key(), self.parts_ctx(), msg, &[0u8; 32])
            }
        }
        impl<P: ParameterSet> RandomizedSigner<Signature<P>> for $ty {
            fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
                &self,
                rng: &mut R,
                msg: &[u8],
            ) -> SigResult<Signature<P>> {
                sign_parts(self.parts_key(), self.parts_ctx(), &[msg], &*rnd_from(rng)?)
            }
        }
        impl<P: ParameterSet> RandomizedMultipartSigner<Signature<P>> for $ty {
            fn try_multipart_sign_with_rng<R: TryCryptoRng + ?Sized>(
                &self,
                rng: &mut R,
                msg: &[&[u8]],
            ) -> SigResult<Signature<P>> {
                sign_parts(self.parts_key(), self.parts_ctx(), msg, &*rnd_from(rng)?)
            }
        }
        impl<P: ParameterSet> DigestSigner<Shake256, Signature<P>> for $ty {
            /// Deterministic pure ML-DSA, the message streamed into mu.
            fn try_sign_digest<F: Fn(&mut Shake256) -> SigResult<()>>(
                &self,
                f: F,
            ) -> SigResult<Signature<P>> {
                let k = self.parts_key();
                let mu = mu_from(k.as_ref(), self.parts_ctx(), f)?;
                Ok(k.sign_mu_with_rnd(&mu, &[0u8; 32])?)
            }
        }
        impl<P: ParameterSet> RandomizedDigestSigner<Shake256, Signature<P>> for $ty {
            /// Hedged pure ML-DSA, the message streamed into mu.
            fn try_sign_digest_with_rng<
                R: TryCryptoRng + ?Sized,
                F: Fn(&mut Shake256) -> SigResult<()>,
            >(
                &self,
                rng: &mut R,
                f: F,
            ) -> SigResult<Signature<P>> {
                let k = self.parts_key();
                let mu = mu_from(k.as_ref(), self.parts_ctx(), f)?;
                Ok(k.sign_mu_with_rnd(&mu, &*rnd_from(rng)?)?)
            }
        }
    };
}

/// Access to the key and context of a signer/verifier type.
trait Parts<K: ?Sized> {
    fn parts_key(&self) -> &K;
    fn parts_ctx(&self) -> &[u8];
}
impl<P: ParameterSet> Parts<ExpandedSigningKey<P>> for ExpandedSigningKey<P> {
    fn parts_key(&self) -> &ExpandedSigningKey<P> {
        self
    }
    fn parts_ctx(&self) -> &[u8] {
        &[]
    }
}
impl<P: ParameterSet> Parts<ExpandedSigningKey<P>> for SigningKey<P> {
    fn parts_key(&self) -> &ExpandedSigningKey<P> {
        self.expanded_key()
    }
    fn parts_ctx(&self) -> &[u8] {
        &[]
    }
}
impl<P: ParameterSet> Parts<ExpandedSigningKey<P>> for ContextSigningKey<'_, P> {
    fn parts_key(&self) -> &ExpandedSigningKey<P> {
        self.key
    }
    fn parts_ctx(&self) -> &[u8] {
        self.ctx
    }
}
impl<P: ParameterSet> Parts<VerifyingKey<P>> for VerifyingKey<P> {
    fn parts_key(&self) -> &VerifyingKey<P> {
        self
    }
    fn parts_ctx(&self) -> &[u8] {
        &[]
    }
}
impl<P: ParameterSet> Parts<VerifyingKey<P>> for ContextVerifyingKey<'_, P> {
    fn parts_key(&self) -> &VerifyingKey<P> {
        self.key
    }
    fn parts_ctx(&self) -> &[u8] {
        self.ctx
    }
}

signer_impls!(SigningKey<P>);
signer_impls!(ExpandedSigningKey<P>);
signer_impls!(ContextSigningKey<'_, P>);

macro_rules! verifier_impls {
    ($ty:ty) => {
        impl<P: ParameterSet> Verifier<Signature<P>> for $ty {
            fn verify(&self, msg: &[u8], sig: &Signature<P>) -> SigResult<()> {
                Ok(self.parts_key().verify_multipart_with_context(
                    &[msg],
                    self.parts_ctx(),
                    sig.as_bytes(),
                )?)
            }
        }
        impl<P: ParameterSet> MultipartVerifier<Signature<P>> for $ty {
            fn multipart_verify(&self, msg: &[&[u8]], sig: &Signature<P>) -> SigResult<()> {
                Ok(self.parts_key().verify_multipart_with_context(
                    msg,
                    self.parts_ctx(),
                    sig.as_bytes(),
                )?)
            }
        }
        impl<P: ParameterSet> DigestVerifier<Shake256, Signature<P>> for $ty {
            /// Pure ML-DSA verification, the message streamed into mu.
            fn verify_digest<F: Fn(&mut Shake256) -> SigResult<()>>(
                &self,
                f: F,
                sig: &Signature<P>,
            ) -> SigResult<()> {
                let k = self.parts_key();
                let mu = mu_from(k, self.parts_ctx(), f)?;
                Ok(k.verify_mu_bytes(&mu, sig.as_bytes())?)
            }
        }
    };
}

verifier_impls!(VerifyingKey<P>);
verifier_impls!(ContextVerifyingKey<'_, P>);

impl<P: ParameterSet> AsRef<VerifyingKey<P>> for SigningKey<P> {
    fn as_ref(&self) -> &VerifyingKey<P> {
        self.expanded_key().as_ref()
    }
}

impl<P: ParameterSet> KeypairRef for SigningKey<P> {
    type VerifyingKey = VerifyingKey<P>;
}

impl<P: ParameterSet> KeypairRef for ExpandedSigningKey<P> {
    type VerifyingKey = VerifyingKey<P>;
}

impl<P: ParameterSet> Keypair for ContextSigningKey<'_, P> {
    type VerifyingKey = VerifyingKey<P>;
    fn verifying_key(&self) -> VerifyingKey<P> {
        self.key.verifying_key()
    }
}

// crypto-common: the seed is the signing key's `Key`, the encoded public
// key the verifying key's (as in RustCrypto `ml-dsa`).

impl<P: ParameterSet> KeySizeUser for SigningKey<P> {
    type KeySize = hybrid_array::sizes::U32;
}
impl<P: ParameterSet> KeyInit for SigningKey<P> {
    /// [`SigningKey::from_seed`].
    fn new(seed: &Seed) -> Self {
        Self::from_seed(seed)
    }
}
impl<P: ParameterSet> KeyExport for SigningKey<P> {
    /// The seed.
    fn to_bytes(&self) -> Seed {
        self.to_seed()
    }
}
impl<P: ParameterSet> Generate for SigningKey<P> {
    /// FIPS 204 Alg. 1 ML-DSA.KeyGen: a fresh 32-byte seed from `rng`.
    fn try_generate_from_rng<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self, R::Error> {
        let mut seed = zeroize::Zeroizing::new(Seed::default());
        rng.try_fill_bytes(&mut seed[..])?;
        Ok(Self::from_seed(&seed))
    }
}

impl<P: ParameterSet> KeySizeUser for VerifyingKey<P> {
    type KeySize = P::VerifyingKeySize;
}
impl<P: ParameterSet> KeyInit for VerifyingKey<P> {
    /// [`VerifyingKey::decode`] (every encoding is a valid key).
    fn new(enc: &Key<Self>) -> Self {
        let mut bytes = P::PublicKeyBytes::zeroed();
        bytes.as_mut().copy_from_slice(enc);
        Self::decode(&bytes)
    }
}
impl<P: ParameterSet> KeyExport for VerifyingKey<P> {
    /// The encoded public key.
    fn to_bytes(&self) -> Key<Self> {
        let mut out = Key::<Self>::default();
        out.copy_from_slice(self.as_bytes());
        out
    }
}

impl<P: ParameterSet> TryFrom<&[u8]> for Signature<P> {
    type Error = signature::Error;
    fn try_from(bytes: &[u8]) -> SigResult<Self> {
        Ok(Signature::from_bytes(bytes)?)
    }
}

macro_rules! encoding {
    ($($p:ty => $n:literal),*) => {$(
        impl From<Signature<$p>> for [u8; $n] {
            fn from(sig: Signature<$p>) -> [u8; $n] {
                sig.to_bytes()
            }
        }
        impl SignatureEncoding for Signature<$p> {
            type Repr = [u8; $n];
        }
    )*};
}
encoding!(MlDsa44 => 2420, MlDsa65 => 3309, MlDsa87 => 4627);
