//! The key and signature types, generic over the parameter set.

use core::marker::PhantomData;

use pqkit_common::ByteArray;
use pqkit_common::prehash::PreHashDigest;

use crate::Error;
use crate::algo::verify::PublicParts;
use crate::encoding::{self, Message, SigFormat};
use crate::params::ParameterSet;

/// A decoded verifying key (`h` kept in NTT form, and its hash), reusable
/// for many verifications.
#[derive(Clone)]
pub struct VerifyingKey<P: ParameterSet> {
    pub(crate) core: PublicParts,
    _p: PhantomData<P>,
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
        self.core.encoded() == other.core.encoded()
    }
}
impl<P: ParameterSet> Eq for VerifyingKey<P> {}

impl<P: ParameterSet> core::hash::Hash for VerifyingKey<P> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.core.encoded().hash(state);
    }
}

impl<P: ParameterSet> VerifyingKey<P> {
    pub(crate) fn from_core(core: PublicParts) -> Self {
        Self {
            core,
            _p: PhantomData,
        }
    }

    /// Decode (strictly) an encoded verifying key.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        PublicParts::decode(bytes, P::LOGN, P::LOGN).map(Self::from_core)
    }

    /// The encoded verifying key.
    pub fn to_bytes(&self) -> P::VerifyingKeyBytes {
        let mut out = P::VerifyingKeyBytes::zeroed();
        out.as_mut().copy_from_slice(self.core.encoded());
        out
    }

    /// The encoded verifying key, borrowed.
    pub fn as_bytes(&self) -> &[u8] {
        self.core.encoded()
    }

    /// Verify a signature on `msg` (raw, pre-hashed or original Falcon
    /// hashing) in the fixed-size FN-DSA layout.
    pub fn verify_message(&self, msg: &Message<'_>, sig: &Signature<P>) -> Result<(), Error> {
        self.core
            .verify(sig.bytes.as_ref(), SigFormat::Padded, msg, &[])
    }

    /// Verify an encoded signature given as bytes, in the layout `format`
    /// (the variable-length round-3 layout is only meaningful with
    /// [`Message::OriginalFalcon`]).
    pub fn verify_bytes(
        &self,
        msg: &Message<'_>,
        sig: &[u8],
        format: SigFormat,
    ) -> Result<(), Error> {
        self.core.verify(sig, format, msg, &[])
    }

    /// Verify a raw message with a context (at most 255 bytes).
    pub fn verify_with_context(
        &self,
        msg: &[u8],
        ctx: &[u8],
        sig: &Signature<P>,
    ) -> Result<(), Error> {
        self.verify_message(&Message::Raw { ctx, msg }, sig)
    }

    /// Verify an original round-3 Falcon signature (detached: header `0x30 +
    /// logn`, nonce, compressed `s2`; variable-length or padded) over
    /// `SHAKE256(nonce || msg)`.
    pub fn verify_original_falcon(&self, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
        self.core.verify(
            sig,
            SigFormat::Round3,
            &Message::OriginalFalcon { msg },
            &[],
        )
    }

    /// Open a NIST round-3 `crypto_sign` output `sm` (2-byte big-endian body
    /// length, nonce, message, body with header `0x20 + logn`); returns the
    /// message if the signature is valid.
    pub fn open_round3_sm<'a>(&self, sm: &'a [u8]) -> Result<&'a [u8], Error> {
        crate::algo::verify::open_round3_sm(&self.core, sm)
    }
}

impl<P: ParameterSet> signature::Verifier<Signature<P>> for VerifyingKey<P> {
    /// Raw message, empty context.
    fn verify(&self, msg: &[u8], sig: &Signature<P>) -> Result<(), signature::Error> {
        Ok(self.verify_message(&Message::raw(msg), sig)?)
    }
}

impl<P: ParameterSet> signature::MultipartVerifier<Signature<P>> for VerifyingKey<P> {
    /// Raw message given in parts, empty context.
    fn multipart_verify(&self, msg: &[&[u8]], sig: &Signature<P>) -> Result<(), signature::Error> {
        Ok(self.core.verify(
            sig.bytes.as_ref(),
            SigFormat::Padded,
            &Message::raw(&[]),
            msg,
        )?)
    }
}

/// Pre-hashed verification (empty context), for every digest of pqkit's
/// pre-hash registry.
impl<P: ParameterSet, D: PreHashDigest + signature::digest::Update>
    signature::DigestVerifier<D, Signature<P>> for VerifyingKey<P>
{
    fn verify_digest<F: Fn(&mut D) -> Result<(), signature::Error>>(
        &self,
        f: F,
        sig: &Signature<P>,
    ) -> Result<(), signature::Error> {
        let mut d = D::default();
        f(&mut d)?;
        let ph = d.finish();
        let msg = Message::PreHashed {
            ctx: &[],
            hash: ph.alg(),
            digest: ph.as_bytes(),
        };
        Ok(self.verify_message(&msg, sig)?)
    }
}

impl<P: ParameterSet> TryFrom<&[u8]> for VerifyingKey<P> {
    type Error = Error;
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_bytes(bytes)
    }
}

/// A signature in the fixed-size FN-DSA layout.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Signature<P: ParameterSet> {
    pub(crate) bytes: P::SignatureBytes,
}

impl<P: ParameterSet> core::fmt::Debug for Signature<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("Signature")
            .field(&&self.bytes.as_ref()[..8])
            .finish_non_exhaustive()
    }
}

impl<P: ParameterSet> Signature<P> {
    /// Decode a signature (header, length and canonical encoding of `s2`
    /// are checked).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let mut s2 = [0i16; 1024];
        encoding::decode_signature(bytes, P::LOGN, SigFormat::Padded, &mut s2)?;
        let mut out = P::SignatureBytes::zeroed();
        out.as_mut().copy_from_slice(bytes);
        Ok(Self { bytes: out })
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

impl<P: ParameterSet> AsRef<[u8]> for Signature<P> {
    fn as_ref(&self) -> &[u8] {
        self.bytes.as_ref()
    }
}

impl<P: ParameterSet> TryFrom<&[u8]> for Signature<P> {
    type Error = Error;
    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_bytes(bytes)
    }
}

macro_rules! signature_encoding {
    ($($p:ty => $n:literal),*) => {$(
        impl From<Signature<$p>> for [u8; $n] {
            fn from(sig: Signature<$p>) -> [u8; $n] {
                sig.bytes
            }
        }
        impl signature::SignatureEncoding for Signature<$p> {
            type Repr = [u8; $n];
        }
    )*};
}
signature_encoding!(crate::FnDsa512 => 666, crate::FnDsa1024 => 1280);

#[cfg(feature = "alloc")]
pub use signing::SigningKey;

#[cfg(feature = "alloc")]
mod signing {
    use super::*;
    use rand_core::TryCryptoRng;

    /// A signing key: the secret polynomials, the verifying key and (by
    /// default) the expanded FFT-domain key with its ffLDL tree, so that
    /// repeated signatures skip the expansion. A compact key
    /// ([`SigningKey::into_compact`]) drops the expanded form and rebuilds it
    /// (on the heap, wiped afterwards) for each signature: smaller at rest,
    /// slower to sign. Wiped on drop.
    ///
    /// Signing takes `&self` and keeps its work area (`4n` floats: 16 KiB for
    /// FN-DSA-512, 32 KiB for FN-DSA-1024) on the stack of each call, wiped
    /// before it returns: no allocation per signature, and one key may sign
    /// from several threads at once.
    #[derive(Clone)]
    pub struct SigningKey<P: ParameterSet> {
        core: crate::algo::signing_key::SecretParts,
        pub(crate) vk: VerifyingKey<P>,
        exp: Option<crate::algo::sign::Expanded>,
    }

    impl<P: ParameterSet> zeroize::ZeroizeOnDrop for SigningKey<P> {}

    impl<P: ParameterSet> core::fmt::Debug for SigningKey<P> {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.debug_struct("SigningKey")
                .field("set", &P::NAME)
                .finish_non_exhaustive()
        }
    }

    impl<P: ParameterSet> SigningKey<P> {
        /// Decode (strictly) an encoded signing key; `G` and the verifying
        /// key are recomputed and checked, and the key is expanded for
        /// signing.
        pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
            let (core, vk) =
                crate::algo::signing_key::SecretParts::decode(bytes, P::LOGN, P::LOGN)?;
            Ok(Self::from_parts(core, vk))
        }

        fn from_parts(core: crate::algo::signing_key::SecretParts, vk: PublicParts) -> Self {
            let exp = Some(crate::algo::sign::Expanded::new(&core));
            Self {
                core,
                vk: VerifyingKey::from_core(vk),
                exp,
            }
        }

        /// Drop the expanded key: the key object becomes small (the secret
        /// polynomials and the verifying key) and each signature rebuilds
        /// the expansion.
        pub fn into_compact(mut self) -> Self {
            self.exp = None;
            self
        }

        /// Whether this key keeps its expanded form.
        pub fn is_expanded(&self) -> bool {
            self.exp.is_some()
        }

        /// Deterministic key generation from a 32-byte seed, which drives a
        /// SHAKE256 stream (as fn-dsa 0.3's `KeyPairGeneratorStandard`
        /// does; `Generate` draws the seed from an RNG). Cannot fail:
        /// candidates are drawn until one passes.
        pub fn from_seed(seed: &[u8; 32]) -> Self {
            let (core, vk) = crate::algo::keygen::keygen_from_seed(P::LOGN, seed);
            Self::from_parts(core, vk)
        }

        /// Sign `msg` (raw with context, pre-hashed, or original Falcon
        /// hashing) with randomness from `rng`, which comes last. FN-DSA
        /// signing is always randomized (40-byte nonce and sampler seed).
        pub fn sign_message_randomized<R: TryCryptoRng + ?Sized>(
            &self,
            msg: &Message<'_>,
            rng: &mut R,
        ) -> Result<Signature<P>, Error> {
            self.sign_parts(rng, msg, &[])
        }

        /// [`sign_message_randomized`](Self::sign_message_randomized) with
        /// randomness from the operating system.
        #[cfg(feature = "getrandom")]
        pub fn sign_message_hedged(&self, msg: &Message<'_>) -> Result<Signature<P>, Error> {
            self.sign_parts(&mut getrandom::SysRng, msg, &[])
        }

        fn sign_parts<R: TryCryptoRng + ?Sized>(
            &self,
            rng: &mut R,
            msg: &Message<'_>,
            parts: &[&[u8]],
        ) -> Result<Signature<P>, Error> {
            let mut out = P::SignatureBytes::zeroed();
            match &self.exp {
                Some(exp) => exp.sign(rng, &self.vk.core.hpk, msg, parts, out.as_mut())?,
                None => crate::algo::sign::Expanded::<crate::algo::sign::Fp>::new(&self.core)
                    .sign(rng, &self.vk.core.hpk, msg, parts, out.as_mut())?,
            }
            Ok(Signature { bytes: out })
        }

        /// Sign a raw message with a context (at most 255 bytes), randomness
        /// from `rng`.
        pub fn sign_randomized<R: TryCryptoRng + ?Sized>(
            &self,
            msg: &[u8],
            ctx: &[u8],
            rng: &mut R,
        ) -> Result<Signature<P>, Error> {
            self.sign_message_randomized(&Message::Raw { ctx, msg }, rng)
        }

        /// Sign a raw message with a context (at most 255 bytes), randomness
        /// from the operating system.
        #[cfg(feature = "getrandom")]
        pub fn sign_hedged(&self, msg: &[u8], ctx: &[u8]) -> Result<Signature<P>, Error> {
            self.sign_message_hedged(&Message::Raw { ctx, msg })
        }

        /// The encoded signing key (secret: wiped when dropped).
        pub fn to_bytes(&self) -> zeroize::Zeroizing<P::SigningKeyBytes> {
            let mut out = zeroize::Zeroizing::new(P::SigningKeyBytes::zeroed());
            self.core.encode(out.as_mut());
            out
        }

        /// The verifying key of this signing key.
        pub fn verifying_key(&self) -> VerifyingKey<P> {
            self.vk.clone()
        }
    }

    impl<P: ParameterSet> AsRef<VerifyingKey<P>> for SigningKey<P> {
        fn as_ref(&self) -> &VerifyingKey<P> {
            &self.vk
        }
    }

    impl<P: ParameterSet> signature::KeypairRef for SigningKey<P> {
        type VerifyingKey = VerifyingKey<P>;
    }

    impl<P: ParameterSet> crypto_common::Generate for SigningKey<P> {
        /// Key generation from a 32-byte seed drawn from `rng`.
        fn try_generate_from_rng<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self, R::Error> {
            let (core, vk) = crate::algo::keygen::keygen(P::LOGN, rng)?;
            Ok(Self::from_parts(core, vk))
        }
    }

    impl<P: ParameterSet> signature::RandomizedSigner<Signature<P>> for SigningKey<P> {
        /// Raw message, empty context.
        fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
            &self,
            rng: &mut R,
            msg: &[u8],
        ) -> Result<Signature<P>, signature::Error> {
            Ok(self.sign_message_randomized(&Message::raw(msg), rng)?)
        }
    }

    impl<P: ParameterSet> signature::RandomizedMultipartSigner<Signature<P>> for SigningKey<P> {
        /// Raw message given in parts, empty context.
        fn try_multipart_sign_with_rng<R: TryCryptoRng + ?Sized>(
            &self,
            rng: &mut R,
            msg: &[&[u8]],
        ) -> Result<Signature<P>, signature::Error> {
            Ok(self.sign_parts(rng, &Message::raw(&[]), msg)?)
        }
    }

    #[cfg(feature = "getrandom")]
    impl<P: ParameterSet> signature::Signer<Signature<P>> for SigningKey<P> {
        /// Raw message, empty context, randomness from the OS.
        fn try_sign(&self, msg: &[u8]) -> Result<Signature<P>, signature::Error> {
            Ok(self.sign_message_hedged(&Message::raw(msg))?)
        }
    }

    #[cfg(feature = "getrandom")]
    impl<P: ParameterSet> signature::MultipartSigner<Signature<P>> for SigningKey<P> {
        /// Raw message given in parts, empty context, randomness from the OS.
        fn try_multipart_sign(&self, msg: &[&[u8]]) -> Result<Signature<P>, signature::Error> {
            Ok(self.sign_parts(&mut getrandom::SysRng, &Message::raw(&[]), msg)?)
        }
    }

    /// Pre-hashed signing (empty context) through the RustCrypto digest
    /// traits, for every digest of pqkit's pre-hash registry: the closure
    /// fills the hash, its output is signed with the hash's OID.
    impl<P: ParameterSet, D: PreHashDigest + signature::digest::Update>
        signature::RandomizedDigestSigner<D, Signature<P>> for SigningKey<P>
    {
        fn try_sign_digest_with_rng<
            R: TryCryptoRng + ?Sized,
            F: Fn(&mut D) -> Result<(), signature::Error>,
        >(
            &self,
            rng: &mut R,
            f: F,
        ) -> Result<Signature<P>, signature::Error> {
            let mut d = D::default();
            f(&mut d)?;
            let ph = d.finish();
            let msg = Message::PreHashed {
                ctx: &[],
                hash: ph.alg(),
                digest: ph.as_bytes(),
            };
            Ok(self.sign_message_randomized(&msg, rng)?)
        }
    }

    /// Pre-hashed signing (empty context) with the OS RNG.
    #[cfg(feature = "getrandom")]
    impl<P: ParameterSet, D: PreHashDigest + signature::digest::Update>
        signature::DigestSigner<D, Signature<P>> for SigningKey<P>
    {
        fn try_sign_digest<F: Fn(&mut D) -> Result<(), signature::Error>>(
            &self,
            f: F,
        ) -> Result<Signature<P>, signature::Error> {
            signature::RandomizedDigestSigner::try_sign_digest_with_rng(
                self,
                &mut getrandom::SysRng,
                f,
            )
        }
    }

    impl<P: ParameterSet> TryFrom<&[u8]> for SigningKey<P> {
        type Error = Error;
        fn try_from(bytes: &[u8]) -> Result<Self, Error> {
            Self::from_bytes(bytes)
        }
    }
}
