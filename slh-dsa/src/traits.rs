//! The RustCrypto `signature` 3 traits.
//!
//! [`Signer`] on [`SigningKey`] signs **deterministically with the empty
//! context** (`opt_rand = PK.seed`, as RustCrypto `slh-dsa`);
//! [`RandomizedSigner`] signs hedged. For a context, use
//! [`SigningKey::with_context`] / [`VerifyingKey::with_context`], whose
//! types implement the same traits with that context.

use rand_core::TryCryptoRng;
use signature::{
    Keypair, KeypairRef, MultipartSigner, MultipartVerifier, RandomizedMultipartSigner,
    RandomizedSigner, SignatureEncoding, Signer, Verifier,
};

use crate::keys::rand_from;
use crate::params::*;
use crate::{
    ContextSigningKey, ContextVerifyingKey, ParameterSet, Signature, SigningKey, VerifyingKey,
};

type SigResult<T> = Result<T, signature::Error>;

/// The key and context of a signer/verifier type.
trait Parts<K> {
    fn parts_key(&self) -> &K;
    fn parts_ctx(&self) -> &[u8];
}
impl<P: ParameterSet> Parts<SigningKey<P>> for SigningKey<P> {
    fn parts_key(&self) -> &SigningKey<P> {
        self
    }
    fn parts_ctx(&self) -> &[u8] {
        &[]
    }
}
impl<P: ParameterSet> Parts<SigningKey<P>> for ContextSigningKey<'_, P> {
    fn parts_key(&self) -> &SigningKey<P> {
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

fn deterministic<P: ParameterSet>(
    k: &SigningKey<P>,
    ctx: &[u8],
    msg: &[&[u8]],
) -> SigResult<Signature<P>> {
    let pk_seed = &k.as_bytes()[2 * P::N..3 * P::N];
    Ok(k.sign_multipart_with_rnd(msg, ctx, pk_seed)?)
}

fn randomized<P: ParameterSet, R: TryCryptoRng + ?Sized>(
    k: &SigningKey<P>,
    ctx: &[u8],
    msg: &[&[u8]],
    rng: &mut R,
) -> SigResult<Signature<P>> {
    let r = rand_from::<P, R>(rng)?;
    Ok(k.sign_multipart_with_rnd(msg, ctx, &r[..P::N])?)
}

macro_rules! signer_impls {
    ($ty:ty) => {
        impl<P: ParameterSet> Signer<Signature<P>> for $ty {
            /// Deterministic signing (`opt_rand = PK.seed`).
            fn try_sign(&self, msg: &[u8]) -> SigResult<Signature<P>> {
                deterministic(self.parts_key(), self.parts_ctx(), &[msg])
            }
        }
        impl<P: ParameterSet> MultipartSigner<Signature<P>> for $ty {
            fn try_multipart_sign(&self, msg: &[&[u8]]) -> SigResult<Signature<P>> {
                deterministic(self.parts_key(), self.parts_ctx(), msg)
            }
        }
        impl<P: ParameterSet> RandomizedSigner<Signature<P>> for $ty {
            /// Hedged signing, `addrnd` from `rng`.
            fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
                &self,
                rng: &mut R,
                msg: &[u8],
            ) -> SigResult<Signature<P>> {
                randomized(self.parts_key(), self.parts_ctx(), &[msg], rng)
            }
        }
        impl<P: ParameterSet> RandomizedMultipartSigner<Signature<P>> for $ty {
            fn try_multipart_sign_with_rng<R: TryCryptoRng + ?Sized>(
                &self,
                rng: &mut R,
                msg: &[&[u8]],
            ) -> SigResult<Signature<P>> {
                randomized(self.parts_key(), self.parts_ctx(), msg, rng)
            }
        }
    };
}

signer_impls!(SigningKey<P>);
signer_impls!(ContextSigningKey<'_, P>);

macro_rules! verifier_impls {
    ($ty:ty) => {
        impl<P: ParameterSet> Verifier<Signature<P>> for $ty {
            fn verify(&self, msg: &[u8], sig: &Signature<P>) -> SigResult<()> {
                Ok(self
                    .parts_key()
                    .verify_bytes(msg, self.parts_ctx(), sig.as_bytes())?)
            }
        }
        impl<P: ParameterSet> MultipartVerifier<Signature<P>> for $ty {
            fn multipart_verify(&self, msg: &[&[u8]], sig: &Signature<P>) -> SigResult<()> {
                Ok(self.parts_key().verify_multipart_bytes(
                    msg,
                    self.parts_ctx(),
                    sig.as_bytes(),
                )?)
            }
        }
    };
}

verifier_impls!(VerifyingKey<P>);
verifier_impls!(ContextVerifyingKey<'_, P>);

impl<P: ParameterSet> AsRef<VerifyingKey<P>> for SigningKey<P> {
    fn as_ref(&self) -> &VerifyingKey<P> {
        self.verifying_key_ref()
    }
}

impl<P: ParameterSet> KeypairRef for SigningKey<P> {
    type VerifyingKey = VerifyingKey<P>;
}

impl<P: ParameterSet> Keypair for ContextSigningKey<'_, P> {
    type VerifyingKey = VerifyingKey<P>;
    fn verifying_key(&self) -> VerifyingKey<P> {
        self.key.verifying_key()
    }
}

impl<P: ParameterSet> crypto_common::Generate for SigningKey<P> {
    /// FIPS 205 Alg. 21 `slh_keygen`: `SK.seed`, `SK.prf` and `PK.seed`
    /// from `rng`.
    fn try_generate_from_rng<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self, R::Error> {
        let mut seeds = zeroize::Zeroizing::new([0u8; 3 * MAX_N]);
        rng.try_fill_bytes(&mut seeds[..3 * P::N])?;
        Ok(SigningKey::from_seed_block(&seeds))
    }
}

impl<P: ParameterSet> TryFrom<&[u8]> for Signature<P> {
    type Error = signature::Error;
    fn try_from(bytes: &[u8]) -> SigResult<Self> {
        Ok(Signature::from_bytes(bytes)?)
    }
}

impl<P: ParameterSet> TryFrom<&[u8]> for SigningKey<P> {
    type Error = signature::Error;
    /// [`SigningKey::from_bytes`] (`PK.root` checked).
    fn try_from(bytes: &[u8]) -> SigResult<Self> {
        Ok(SigningKey::from_bytes(bytes)?)
    }
}

impl<P: ParameterSet> TryFrom<&[u8]> for VerifyingKey<P> {
    type Error = signature::Error;
    fn try_from(bytes: &[u8]) -> SigResult<Self> {
        Ok(VerifyingKey::from_bytes(bytes)?)
    }
}

macro_rules! encoding {
    ($($p:ty => $n:literal, $pk:literal),*) => {$(
        impl From<[u8; $pk]> for VerifyingKey<$p> {
            /// Every `2 n`-byte string is a public key.
            fn from(bytes: [u8; $pk]) -> Self {
                VerifyingKey::from_array(bytes)
            }
        }
        impl From<VerifyingKey<$p>> for [u8; $pk] {
            fn from(vk: VerifyingKey<$p>) -> [u8; $pk] {
                vk.to_bytes()
            }
        }
        impl From<&[u8; $n]> for Signature<$p> {
            fn from(bytes: &[u8; $n]) -> Self {
                Signature::from_array(bytes)
            }
        }
        impl From<Signature<$p>> for [u8; $n] {
            fn from(sig: Signature<$p>) -> [u8; $n] {
                sig.to_bytes()
            }
        }
        impl TryFrom<[u8; $n]> for Signature<$p> {
            type Error = signature::Error;
            fn try_from(bytes: [u8; $n]) -> SigResult<Self> {
                Ok(Signature::from_array(&bytes))
            }
        }
        impl SignatureEncoding for Signature<$p> {
            type Repr = [u8; $n];
        }
    )*};
}
encoding!(
    Sha2_128s => 7856, 32, Shake128s => 7856, 32, Sha2_128f => 17088, 32,
    Shake128f => 17088, 32, Sha2_192s => 16224, 48, Shake192s => 16224, 48,
    Sha2_192f => 35664, 48, Shake192f => 35664, 48, Sha2_256s => 29792, 64,
    Shake256s => 29792, 64, Sha2_256f => 49856, 64, Shake256f => 49856, 64
);
