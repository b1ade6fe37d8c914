//! Composite ML-DSA signatures (draft-ietf-lamps-pq-composite-sigs, the
//! -19 era of its repository): ML-DSA and a traditional signature over
//! the same message representative, both of which must verify.
//!
//! ```text
//! M'        = Prefix || Label || len(ctx) || ctx || PH(M)
//! signature = ML-DSA.Sign(mldsaSK, M', ctx = Label) || Trad.Sign(tradSK, M')
//! public key  = ML-DSA public key || traditional public key
//! private key = ML-DSA seed (32 bytes) || traditional private key
//! ```
//!
//! `Prefix` is the ASCII string `CompositeAlgorithmSignatures2025`
//! ([`PREFIX`]), `Label` names the combination (`COMPSIG-...`), `ctx` is
//! the application's context (at most 255 bytes, empty by default) and
//! `PH` the combination's pre-hash ([`MessageRepresentative`] builds
//! `M'`). Keys and signatures are the plain concatenations; in SPKI,
//! PKCS#8 and X.509 they sit in the BIT STRING or OCTET STRING as they
//! are, under the combination's OID (1.3.6.1.5.5.7.6.37 to .54) with
//! absent parameters.
//!
//! ```
//! use pqkit_hybrid::composite::{
//!     Generate, MlDsa65EcdsaP256Sha512, Signature, SigningKey, VerifyingKey,
//!     signature::{Keypair, Signer, Verifier},
//! };
//! # struct DemoRng(u64);
//! # impl rand_core::TryRng for DemoRng {
//! #     type Error = core::convert::Infallible;
//! #     fn try_next_u32(&mut self) -> Result<u32, Self::Error> { Ok(self.try_next_u64()? as u32) }
//! #     fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
//! #         self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
//! #         Ok(self.0 >> 11)
//! #     }
//! #     fn try_fill_bytes(&mut self, d: &mut [u8]) -> Result<(), Self::Error> {
//! #         for b in d { *b = self.try_next_u64()? as u8; } Ok(())
//! #     }
//! # }
//! # impl rand_core::TryCryptoRng for DemoRng {}
//! # let mut rng = DemoRng(7);
//! type Alg = MlDsa65EcdsaP256Sha512;
//!
//! // Key generation from an RNG (`generate()` uses the OS, feature
//! // `getrandom`).
//! let sk = SigningKey::<Alg>::generate_from_rng(&mut rng);
//! let vk: VerifyingKey<Alg> = sk.verifying_key();
//!
//! // Sign and verify with a context string.
//! let sig = sk.sign_randomized(b"message", b"my app", &mut rng)?;
//! vk.verify_with_context(b"message", b"my app", &sig)?;
//! assert!(vk.verify_with_context(b"message", b"other app", &sig).is_err());
//!
//! // The `signature` traits: deterministic, empty context.
//! let sig: Signature<Alg> = sk.sign(b"message");
//! vk.verify(b"message", &sig)?;
//!
//! // Keys and signatures as the draft's bytes.
//! let sk2 = SigningKey::<Alg>::from_bytes(&sk.to_bytes())?;
//! let vk2 = VerifyingKey::<Alg>::from_bytes(vk.as_bytes())?;
//! vk2.verify(b"message", &Signature::from_bytes(sig.as_bytes())?)?;
//! assert_eq!(sk2.verifying_key(), vk);
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```
//!
//! ## Combinations
//!
//! Signing and verifying ([`SigningKey`] exists for these):
//!
//! | type | OID | ML-DSA | traditional | PH |
//! |---|---|---|---|---|
//! | [`MlDsa44Ed25519Sha512`] | 1.3.6.1.5.5.7.6.39 | ML-DSA-44 | Ed25519 | SHA-512 |
//! | [`MlDsa65Ed25519Sha512`] | .48 | ML-DSA-65 | Ed25519 | SHA-512 |
//! | [`MlDsa44EcdsaP256Sha256`] | .40 | ML-DSA-44 | ECDSA P-256, SHA-256 | SHA-256 |
//! | [`MlDsa65EcdsaP256Sha512`] | .45 | ML-DSA-65 | ECDSA P-256, SHA-256 | SHA-512 |
//! | [`MlDsa65EcdsaP384Sha512`] | .46 | ML-DSA-65 | ECDSA P-384, SHA-384 | SHA-512 |
//! | [`MlDsa87EcdsaP384Sha512`] | .49 | ML-DSA-87 | ECDSA P-384, SHA-384 | SHA-512 |
//! | [`MlDsa87EcdsaP521Sha512`] | .54 | ML-DSA-87 | ECDSA P-521, SHA-512 | SHA-512 |
//! | [`MlDsa65EcdsaBrainpoolP256r1Sha512`] | .47 | ML-DSA-65 | ECDSA brainpoolP256r1, SHA-256 | SHA-512 |
//! | [`MlDsa87EcdsaBrainpoolP384r1Sha512`] | .50 | ML-DSA-87 | ECDSA brainpoolP384r1, SHA-384 | SHA-512 |
//!
//! Verifying only ([`VerifyingKey`] and [`Signature`]):
//!
//! | type | OID | ML-DSA | traditional | PH |
//! |---|---|---|---|---|
//! | [`MlDsa44Rsa2048PssSha256`] | .37 | ML-DSA-44 | RSA-2048 PSS, SHA-256 | SHA-256 |
//! | [`MlDsa44Rsa2048Pkcs15Sha256`] | .38 | ML-DSA-44 | RSA-2048 PKCS#1 v1.5, SHA-256 | SHA-256 |
//! | [`MlDsa65Rsa3072PssSha512`] | .41 | ML-DSA-65 | RSA-3072 PSS, SHA-256 | SHA-512 |
//! | [`MlDsa65Rsa3072Pkcs15Sha512`] | .42 | ML-DSA-65 | RSA-3072 PKCS#1 v1.5, SHA-256 | SHA-512 |
//! | [`MlDsa65Rsa4096PssSha512`] | .43 | ML-DSA-65 | RSA-4096 PSS, SHA-384 | SHA-512 |
//! | [`MlDsa65Rsa4096Pkcs15Sha512`] | .44 | ML-DSA-65 | RSA-4096 PKCS#1 v1.5, SHA-384 | SHA-512 |
//! | [`MlDsa87Rsa3072PssSha512`] | .52 | ML-DSA-87 | RSA-3072 PSS, SHA-256 | SHA-512 |
//! | [`MlDsa87Rsa4096PssSha512`] | .53 | ML-DSA-87 | RSA-4096 PSS, SHA-384 | SHA-512 |
//! | [`MlDsa87Ed448Shake256`] | .51 | ML-DSA-87 | Ed448 | SHAKE256 (64 bytes) |
//!
//! Why verify only:
//!
//! * **RSA**: the RustCrypto `rsa` crate's private-key operations are not
//!   constant time (the Marvin attack, RUSTSEC-2023-0071, has no fix in
//!   it), so pqkit does not hold RSA private keys or sign with them.
//!   Verifying uses only public data.
//! * **Ed448**: the only `ed448-goldilocks` release for this generation of
//!   RustCrypto (elliptic-curve 0.14, signature 3) is the pre-release
//!   0.14.0-pre.15; pqkit does not entrust private keys to it. Verifying
//!   uses only public data.
//!
//! The pure ML-DSA sets of the draft's vectors are pqkit-ml-dsa's.
//!
//! ## API
//!
//! * [`SigningKey::from_bytes`] / [`SigningKey::to_bytes`]: the draft's
//!   private key (`seed || traditional private key`); `Generate`
//!   (`generate_from_rng`, `generate` with `getrandom`).
//! * Signing: [`sign_deterministic`](SigningKey::sign_deterministic)
//!   (ML-DSA with `rnd = 0`, ECDSA with RFC 6979 nonces, Ed25519) and
//!   [`sign_randomized`](SigningKey::sign_randomized) (hedged ML-DSA,
//!   ECDSA with added randomness), both with a context; the `signature`
//!   traits (`Signer`, `MultipartSigner` deterministic, `RandomizedSigner`,
//!   `RandomizedMultipartSigner` hedged) with the empty context, or with
//!   a context through [`SigningKey::with_context`].
//! * On a [`MessageRepresentative`] (for a message hashed elsewhere, e.g.
//!   streamed from a file: [`MessageRepresentative::from_prehash`]):
//!   [`SigningKey::sign_representative_deterministic`],
//!   [`SigningKey::sign_representative_randomized`] and
//!   [`VerifyingKey::verify_representative`].
//! * Verifying: [`VerifyingKey::verify_with_context`] and
//!   [`VerifyingKey::verify_multipart_with_context`] return the reason a
//!   signature is refused; `Verifier`/`MultipartVerifier` (empty context,
//!   or [`VerifyingKey::with_context`]).
//! * SPKI and PKCS#8 (`EncodePublicKey`/`DecodePublicKey`,
//!   `EncodePrivateKey`/`DecodePrivateKey`, DER and PEM), and the
//!   `SignatureAlgorithmIdentifier`, `SignatureBitStringEncoding` and
//!   `Keypair` the `x509-cert` builder needs to issue composite
//!   certificates.
//!
//! Decoding never panics: wrong lengths, a bad traditional key, a
//! malformed DER signature, bad DER or a wrong OID in SPKI/PKCS#8 are
//! errors ([`Error`], or `spki`/`pkcs8` errors from their traits). Every
//! decoded key and signature re-encodes to the same bytes (non-canonical
//! encodings are refused). An ECDSA private key must be the draft's exact
//! `ECPrivateKey` (curve OID present, no `publicKey`).
//!
//! Secrets: the halves wipe their own keys on drop (pqkit's ML-DSA and
//! Ed25519, RustCrypto's ECDSA); [`SigningKey::to_bytes`] returns a
//! wiped buffer. The two halves sign independently and are as
//! constant-time as their crates; verification works on public data and
//! stops at the first half that fails (the draft allows it).
//!
//! ## Notes on the draft
//!
//! The labels follow the draft's algorithm list and its reference code
//! (e.g. `COMPSIG-MLDSA65-ECDSA-P256-SHA512`); the draft's separate label
//! table (`src/labelsTable.md`) still shortens some of them
//! (`COMPSIG-MLDSA65-P256-SHA512`), which the vectors do not use.

use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

use pqkit_common::prehash::PreHasher;
use pqkit_ml_dsa::ParameterSet;
use rand_core::TryCryptoRng;
use zeroize::{ZeroizeOnDrop, Zeroizing};

mod pkix;
pub mod trad;

pub use crypto_common::Generate;
pub use pqkit_common::prehash::HashAlg;
pub use pqkit_ml_dsa::{MlDsa44, MlDsa65, MlDsa87};
pub use signature;
pub use trad::{
    EcdsaBrainpoolP256r1, EcdsaBrainpoolP384r1, EcdsaP256, EcdsaP384, EcdsaP521, Ed448, Ed25519,
    Rsa2048Pkcs15, Rsa2048Pss, Rsa3072Pkcs15, Rsa3072Pss, Rsa4096Pkcs15, Rsa4096Pss, Traditional,
    TraditionalSigner,
};

/// `Prefix`: the ASCII string `CompositeAlgorithmSignatures2025`, the
/// start of every message representative.
pub const PREFIX: &[u8; 32] = b"CompositeAlgorithmSignatures2025";

/// Length of the ML-DSA private key in a composite private key (the seed).
pub const SEED_SIZE: usize = 32;

/// Longest label any combination has room for.
const MAX_LABEL_LEN: usize = 48;
/// Longest pre-hash output (SHA-512, SHAKE256/64).
const MAX_PREHASH_LEN: usize = 64;
/// Longest message representative.
const MAX_M_PRIME_LEN: usize = PREFIX.len() + MAX_LABEL_LEN + 1 + 255 + MAX_PREHASH_LEN;

/// Everything that can go wrong in composite ML-DSA. Never carries secret
/// data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// A key or signature (or one of its halves) has the wrong length.
    InvalidLength,
    /// The context string is longer than 255 bytes.
    ContextTooLong,
    /// A public key's traditional half is not a valid key in the draft's
    /// encoding (not on the curve, a compressed or non-canonical point,
    /// bad DER, an RSA modulus of the wrong size).
    InvalidPublicKey,
    /// A private key's traditional half is not a valid key in the draft's
    /// encoding (an ECDSA scalar of 0 or beyond the order, an
    /// `ECPrivateKey` other than the draft's form).
    InvalidPrivateKey,
    /// The traditional half of a signature is not well formed (an ECDSA
    /// signature that is not DER `Ecdsa-Sig-Value`).
    MalformedSignature,
    /// The signature does not verify (either half).
    InvalidSignature,
    /// ML-DSA's bounded signing loop ran out (probability below `2^-256`).
    RejectionLimit,
    /// The random number generator failed.
    Rng,
    /// The traditional half failed to sign.
    SigningFailed,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Error::InvalidLength => "composite ML-DSA: input has the wrong length",
            Error::ContextTooLong => "composite ML-DSA: context string longer than 255 bytes",
            Error::InvalidPublicKey => "composite ML-DSA: invalid traditional public key",
            Error::InvalidPrivateKey => "composite ML-DSA: invalid traditional private key",
            Error::MalformedSignature => "composite ML-DSA: malformed traditional signature",
            Error::InvalidSignature => "composite ML-DSA: invalid signature",
            Error::RejectionLimit => "composite ML-DSA: ML-DSA rejection sampling bound reached",
            Error::Rng => "composite ML-DSA: random number generator failed",
            Error::SigningFailed => "composite ML-DSA: traditional signing failed",
        })
    }
}

impl core::error::Error for Error {}

impl From<Error> for signature::Error {
    fn from(e: Error) -> Self {
        signature::Error::from_source(e)
    }
}

/// The ML-DSA errors of signing, as this module's.
fn from_ml_dsa(e: pqkit_ml_dsa::Error) -> Error {
    match e {
        pqkit_ml_dsa::Error::RejectionLimit => Error::RejectionLimit,
        pqkit_ml_dsa::Error::Rng => Error::Rng,
        _ => Error::SigningFailed,
    }
}

mod sealed {
    pub trait Sealed {}
}

/// A composite ML-DSA algorithm: its ML-DSA parameter set, traditional
/// half, label, pre-hash and OID (`AssociatedOid`). Implemented by the
/// zero-sized combination types of this module; sealed.
pub trait CompositeParams:
    sealed::Sealed
    + pqkit_pkix::AlgorithmOid
    + Copy
    + Clone
    + Default
    + fmt::Debug
    + Eq
    + Send
    + Sync
    + 'static
{
    /// The ML-DSA parameter set.
    type MlDsa: ParameterSet;
    /// The traditional half.
    type Traditional: Traditional;
    /// The draft's name, e.g. `"id-MLDSA65-ECDSA-P256-SHA512"`.
    const NAME: &'static str;
    /// The signature label (ASCII), e.g. `b"COMPSIG-MLDSA65-ECDSA-P256-SHA512"`;
    /// also ML-DSA's context.
    const LABEL: &'static [u8];
    /// The pre-hash `PH` of the message.
    const PREHASH: HashAlg;
}

/// A [`CompositeParams`] whose traditional half pqkit signs with (the
/// Ed25519 and ECDSA combinations).
pub trait SignableParams: CompositeParams<Traditional: TraditionalSigner> {}

impl<C> SignableParams for C
where
    C: CompositeParams,
    C::Traditional: TraditionalSigner,
{
}

macro_rules! composite {
    ($(#[$m:meta])* $name:ident, mldsa = $ml:ty, trad = $trad:ty, prehash = $ph:ident,
     id = $id:literal, label = $label:literal, oid = $oid:literal $(,)?) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name;

        impl sealed::Sealed for $name {}

        pqkit_pkix::impl_algorithm_oids!($name => $oid);

        impl CompositeParams for $name {
            type MlDsa = $ml;
            type Traditional = $trad;
            const NAME: &'static str = $id;
            const LABEL: &'static [u8] = $label;
            const PREHASH: HashAlg = HashAlg::$ph;
        }

        const _: () = assert!($label.len() <= MAX_LABEL_LEN);
    };
}

composite!(
    /// id-MLDSA44-RSA2048-PSS-SHA256 (verification only).
    MlDsa44Rsa2048PssSha256, mldsa = MlDsa44, trad = Rsa2048Pss, prehash = Sha2_256,
    id = "id-MLDSA44-RSA2048-PSS-SHA256", label = b"COMPSIG-MLDSA44-RSA2048-PSS-SHA256",
    oid = "1.3.6.1.5.5.7.6.37",
);
composite!(
    /// id-MLDSA44-RSA2048-PKCS15-SHA256 (verification only).
    MlDsa44Rsa2048Pkcs15Sha256, mldsa = MlDsa44, trad = Rsa2048Pkcs15, prehash = Sha2_256,
    id = "id-MLDSA44-RSA2048-PKCS15-SHA256", label = b"COMPSIG-MLDSA44-RSA2048-PKCS15-SHA256",
    oid = "1.3.6.1.5.5.7.6.38",
);
composite!(
    /// id-MLDSA44-Ed25519-SHA512.
    MlDsa44Ed25519Sha512, mldsa = MlDsa44, trad = Ed25519, prehash = Sha2_512,
    id = "id-MLDSA44-Ed25519-SHA512", label = b"COMPSIG-MLDSA44-Ed25519-SHA512",
    oid = "1.3.6.1.5.5.7.6.39",
);
composite!(
    /// id-MLDSA44-ECDSA-P256-SHA256.
    MlDsa44EcdsaP256Sha256, mldsa = MlDsa44, trad = EcdsaP256, prehash = Sha2_256,
    id = "id-MLDSA44-ECDSA-P256-SHA256", label = b"COMPSIG-MLDSA44-ECDSA-P256-SHA256",
    oid = "1.3.6.1.5.5.7.6.40",
);
composite!(
    /// id-MLDSA65-RSA3072-PSS-SHA512 (verification only).
    MlDsa65Rsa3072PssSha512, mldsa = MlDsa65, trad = Rsa3072Pss, prehash = Sha2_512,
    id = "id-MLDSA65-RSA3072-PSS-SHA512", label = b"COMPSIG-MLDSA65-RSA3072-PSS-SHA512",
    oid = "1.3.6.1.5.5.7.6.41",
);
composite!(
    /// id-MLDSA65-RSA3072-PKCS15-SHA512 (verification only).
    MlDsa65Rsa3072Pkcs15Sha512, mldsa = MlDsa65, trad = Rsa3072Pkcs15, prehash = Sha2_512,
    id = "id-MLDSA65-RSA3072-PKCS15-SHA512", label = b"COMPSIG-MLDSA65-RSA3072-PKCS15-SHA512",
    oid = "1.3.6.1.5.5.7.6.42",
);
composite!(
    /// id-MLDSA65-RSA4096-PSS-SHA512 (verification only).
    MlDsa65Rsa4096PssSha512, mldsa = MlDsa65, trad = Rsa4096Pss, prehash = Sha2_512,
    id = "id-MLDSA65-RSA4096-PSS-SHA512", label = b"COMPSIG-MLDSA65-RSA4096-PSS-SHA512",
    oid = "1.3.6.1.5.5.7.6.43",
);
composite!(
    /// id-MLDSA65-RSA4096-PKCS15-SHA512 (verification only).
    MlDsa65Rsa4096Pkcs15Sha512, mldsa = MlDsa65, trad = Rsa4096Pkcs15, prehash = Sha2_512,
    id = "id-MLDSA65-RSA4096-PKCS15-SHA512", label = b"COMPSIG-MLDSA65-RSA4096-PKCS15-SHA512",
    oid = "1.3.6.1.5.5.7.6.44",
);
composite!(
    /// id-MLDSA65-ECDSA-P256-SHA512.
    MlDsa65EcdsaP256Sha512, mldsa = MlDsa65, trad = EcdsaP256, prehash = Sha2_512,
    id = "id-MLDSA65-ECDSA-P256-SHA512", label = b"COMPSIG-MLDSA65-ECDSA-P256-SHA512",
    oid = "1.3.6.1.5.5.7.6.45",
);
composite!(
    /// id-MLDSA65-ECDSA-P384-SHA512.
    MlDsa65EcdsaP384Sha512, mldsa = MlDsa65, trad = EcdsaP384, prehash = Sha2_512,
    id = "id-MLDSA65-ECDSA-P384-SHA512", label = b"COMPSIG-MLDSA65-ECDSA-P384-SHA512",
    oid = "1.3.6.1.5.5.7.6.46",
);
composite!(
    /// id-MLDSA65-ECDSA-brainpoolP256r1-SHA512.
    MlDsa65EcdsaBrainpoolP256r1Sha512, mldsa = MlDsa65, trad = EcdsaBrainpoolP256r1,
    prehash = Sha2_512, id = "id-MLDSA65-ECDSA-brainpoolP256r1-SHA512",
    label = b"COMPSIG-MLDSA65-ECDSA-BP256-SHA512", oid = "1.3.6.1.5.5.7.6.47",
);
composite!(
    /// id-MLDSA65-Ed25519-SHA512.
    MlDsa65Ed25519Sha512, mldsa = MlDsa65, trad = Ed25519, prehash = Sha2_512,
    id = "id-MLDSA65-Ed25519-SHA512", label = b"COMPSIG-MLDSA65-Ed25519-SHA512",
    oid = "1.3.6.1.5.5.7.6.48",
);
composite!(
    /// id-MLDSA87-ECDSA-P384-SHA512.
    MlDsa87EcdsaP384Sha512, mldsa = MlDsa87, trad = EcdsaP384, prehash = Sha2_512,
    id = "id-MLDSA87-ECDSA-P384-SHA512", label = b"COMPSIG-MLDSA87-ECDSA-P384-SHA512",
    oid = "1.3.6.1.5.5.7.6.49",
);
composite!(
    /// id-MLDSA87-ECDSA-brainpoolP384r1-SHA512.
    MlDsa87EcdsaBrainpoolP384r1Sha512, mldsa = MlDsa87, trad = EcdsaBrainpoolP384r1,
    prehash = Sha2_512, id = "id-MLDSA87-ECDSA-brainpoolP384r1-SHA512",
    label = b"COMPSIG-MLDSA87-ECDSA-BP384-SHA512", oid = "1.3.6.1.5.5.7.6.50",
);
composite!(
    /// id-MLDSA87-Ed448-SHAKE256 (verification only).
    MlDsa87Ed448Shake256, mldsa = MlDsa87, trad = Ed448, prehash = Shake256,
    id = "id-MLDSA87-Ed448-SHAKE256", label = b"COMPSIG-MLDSA87-Ed448-SHAKE256",
    oid = "1.3.6.1.5.5.7.6.51",
);
composite!(
    /// id-MLDSA87-RSA3072-PSS-SHA512 (verification only).
    MlDsa87Rsa3072PssSha512, mldsa = MlDsa87, trad = Rsa3072Pss, prehash = Sha2_512,
    id = "id-MLDSA87-RSA3072-PSS-SHA512", label = b"COMPSIG-MLDSA87-RSA3072-PSS-SHA512",
    oid = "1.3.6.1.5.5.7.6.52",
);
composite!(
    /// id-MLDSA87-RSA4096-PSS-SHA512 (verification only).
    MlDsa87Rsa4096PssSha512, mldsa = MlDsa87, trad = Rsa4096Pss, prehash = Sha2_512,
    id = "id-MLDSA87-RSA4096-PSS-SHA512", label = b"COMPSIG-MLDSA87-RSA4096-PSS-SHA512",
    oid = "1.3.6.1.5.5.7.6.53",
);
composite!(
    /// id-MLDSA87-ECDSA-P521-SHA512.
    MlDsa87EcdsaP521Sha512, mldsa = MlDsa87, trad = EcdsaP521, prehash = Sha2_512,
    id = "id-MLDSA87-ECDSA-P521-SHA512", label = b"COMPSIG-MLDSA87-ECDSA-P521-SHA512",
    oid = "1.3.6.1.5.5.7.6.54",
);

// ---------------------------------------------------------------------------
// The message representative

/// The message representative `M' = Prefix || Label || len(ctx) || ctx ||
/// PH(M)` of a combination, which both halves sign (the draft's §2.2;
/// useful for debugging against the draft's examples and for signing
/// with component keys held elsewhere).
///
/// ```
/// use pqkit_hybrid::composite::{MessageRepresentative, MlDsa44Ed25519Sha512, PREFIX};
/// let m = MessageRepresentative::new::<MlDsa44Ed25519Sha512>(b"message", b"ctx")?;
/// let label = b"COMPSIG-MLDSA44-Ed25519-SHA512";
/// assert_eq!(&m.as_bytes()[..32], PREFIX);
/// assert_eq!(&m.as_bytes()[32..32 + label.len()], label);
/// assert_eq!(&m.as_bytes()[32 + label.len()..][..4], b"\x03ctx");
/// assert_eq!(m.as_bytes().len(), 32 + label.len() + 4 + 64);
/// # Ok::<(), pqkit_hybrid::composite::Error>(())
/// ```
#[derive(Clone)]
pub struct MessageRepresentative {
    buf: [u8; MAX_M_PRIME_LEN],
    len: usize,
}

impl MessageRepresentative {
    /// `M'` for `msg` and a context of at most 255 bytes
    /// ([`Error::ContextTooLong`] otherwise).
    pub fn new<C: CompositeParams>(msg: &[u8], ctx: &[u8]) -> Result<Self, Error> {
        Self::new_multipart::<C>(&[msg], ctx)
    }

    /// `M'` for a message given in pieces (hashed as their concatenation).
    pub fn new_multipart<C: CompositeParams>(msg: &[&[u8]], ctx: &[u8]) -> Result<Self, Error> {
        let mut h = PreHasher::new(C::PREHASH);
        for piece in msg {
            h.update(piece);
        }
        Self::from_prehash::<C>(h.finalize().as_bytes(), ctx)
    }

    /// `M'` given `PH(M)`, the message's digest with the combination's
    /// pre-hash ([`CompositeParams::PREHASH`]; a digest of another length
    /// is [`Error::InvalidLength`]).
    pub fn from_prehash<C: CompositeParams>(digest: &[u8], ctx: &[u8]) -> Result<Self, Error> {
        let ctx_len = u8::try_from(ctx.len()).map_err(|_| Error::ContextTooLong)?;
        if digest.len() != C::PREHASH.digest_len() {
            return Err(Error::InvalidLength);
        }
        let mut m = Self {
            buf: [0u8; MAX_M_PRIME_LEN],
            len: 0,
        };
        for part in [PREFIX.as_slice(), C::LABEL, &[ctx_len], ctx, digest] {
            m.buf[m.len..m.len + part.len()].copy_from_slice(part);
            m.len += part.len();
        }
        Ok(m)
    }

    /// The bytes of `M'`.
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl fmt::Debug for MessageRepresentative {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("MessageRepresentative")
            .field(&self.as_bytes())
            .finish()
    }
}

// ---------------------------------------------------------------------------
// Signatures

/// A composite signature: `ML-DSA signature || traditional signature`,
/// the lengths checked (and an ECDSA half's DER) when made from bytes.
pub struct Signature<C: CompositeParams> {
    bytes: Vec<u8>,
    _c: PhantomData<C>,
}

impl<C: CompositeParams> Signature<C> {
    /// Length of the ML-DSA half.
    const ML_LEN: usize = <C::MlDsa as ParameterSet>::SIG_LEN;

    /// A signature from its bytes: the ML-DSA half has its fixed length
    /// and the traditional half a length (and form) it can have, else
    /// [`Error::InvalidLength`] or [`Error::MalformedSignature`]. The
    /// contents are checked by verification.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let trad_len = bytes
            .len()
            .checked_sub(Self::ML_LEN)
            .ok_or(Error::InvalidLength)?;
        if !(C::Traditional::MIN_SIGNATURE_LEN..=C::Traditional::MAX_SIGNATURE_LEN)
            .contains(&trad_len)
        {
            return Err(Error::InvalidLength);
        }
        C::Traditional::check_signature(&bytes[Self::ML_LEN..])?;
        Ok(Self {
            bytes: bytes.to_vec(),
            _c: PhantomData,
        })
    }

    /// The halves, already encoded.
    fn from_halves(ml: &[u8], trad: &[u8]) -> Self {
        let mut bytes = Vec::with_capacity(ml.len() + trad.len());
        bytes.extend_from_slice(ml);
        bytes.extend_from_slice(trad);
        Self {
            bytes,
            _c: PhantomData,
        }
    }

    /// The encoded signature.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The encoded signature, copied.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.bytes.clone()
    }

    /// The ML-DSA half.
    pub fn ml_dsa_signature(&self) -> &[u8] {
        &self.bytes[..Self::ML_LEN]
    }

    /// The traditional half.
    pub fn traditional_signature(&self) -> &[u8] {
        &self.bytes[Self::ML_LEN..]
    }
}

impl<C: CompositeParams> Clone for Signature<C> {
    fn clone(&self) -> Self {
        Self {
            bytes: self.bytes.clone(),
            _c: PhantomData,
        }
    }
}

impl<C: CompositeParams> PartialEq for Signature<C> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes == other.bytes
    }
}

impl<C: CompositeParams> Eq for Signature<C> {}

impl<C: CompositeParams> core::hash::Hash for Signature<C> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.bytes.hash(state);
    }
}

impl<C: CompositeParams> fmt::Debug for Signature<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Signature")
            .field("alg", &C::NAME)
            .field("len", &self.bytes.len())
            .finish_non_exhaustive()
    }
}

impl<C: CompositeParams> TryFrom<&[u8]> for Signature<C> {
    type Error = signature::Error;

    fn try_from(bytes: &[u8]) -> Result<Self, signature::Error> {
        Ok(Self::from_bytes(bytes)?)
    }
}

impl<C: CompositeParams> From<Signature<C>> for Vec<u8> {
    fn from(sig: Signature<C>) -> Vec<u8> {
        sig.bytes
    }
}

impl<C: CompositeParams> signature::SignatureEncoding for Signature<C> {
    type Repr = Vec<u8>;

    fn encoded_len(&self) -> usize {
        self.bytes.len()
    }
}

// ---------------------------------------------------------------------------
// Verifying keys

/// A composite public key: ML-DSA's and the traditional one, with the
/// encoding `ML-DSA public key || traditional public key`.
pub struct VerifyingKey<C: CompositeParams> {
    bytes: Vec<u8>,
    ml: pqkit_ml_dsa::VerifyingKey<C::MlDsa>,
    trad: <C::Traditional as Traditional>::PublicKey,
}

impl<C: CompositeParams> VerifyingKey<C> {
    /// Length of the ML-DSA half.
    const ML_LEN: usize = <C::MlDsa as ParameterSet>::PK_LEN;

    /// A public key from its bytes. The ML-DSA half has its fixed length
    /// (else [`Error::InvalidLength`]); the traditional half must be a
    /// valid key in the draft's canonical encoding (else
    /// [`Error::InvalidPublicKey`], or [`Error::InvalidLength`] for a
    /// fixed-size key of another length).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        if bytes.len() <= Self::ML_LEN {
            return Err(Error::InvalidLength);
        }
        let (ml, trad) = bytes.split_at(Self::ML_LEN);
        let ml = pqkit_ml_dsa::VerifyingKey::from_bytes(ml).map_err(|_| Error::InvalidLength)?;
        let trad = C::Traditional::decode_public_key(trad)?;
        let key = Self::from_parts(ml, trad);
        if key.bytes != bytes {
            return Err(Error::InvalidPublicKey);
        }
        Ok(key)
    }

    /// The key from its decoded halves.
    fn from_parts(
        ml: pqkit_ml_dsa::VerifyingKey<C::MlDsa>,
        trad: <C::Traditional as Traditional>::PublicKey,
    ) -> Self {
        let mut bytes = Vec::with_capacity(Self::ML_LEN + 600);
        bytes.extend_from_slice(ml.as_bytes());
        C::Traditional::encode_public_key(&trad, &mut bytes);
        Self { bytes, ml, trad }
    }

    /// The encoded public key.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The encoded public key, copied.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.bytes.clone()
    }

    /// The ML-DSA half.
    pub fn ml_dsa_key(&self) -> &pqkit_ml_dsa::VerifyingKey<C::MlDsa> {
        &self.ml
    }

    /// The encoded traditional half.
    pub fn traditional_key_bytes(&self) -> &[u8] {
        &self.bytes[Self::ML_LEN..]
    }

    /// Verify `sig` over `msg` with the context `ctx` (at most 255 bytes):
    /// `Ok` if both halves verify, else the reason.
    pub fn verify_with_context(
        &self,
        msg: &[u8],
        ctx: &[u8],
        sig: &Signature<C>,
    ) -> Result<(), Error> {
        self.verify_multipart_with_context(&[msg], ctx, sig)
    }

    /// [`verify_with_context`](Self::verify_with_context) for a message
    /// given in pieces.
    pub fn verify_multipart_with_context(
        &self,
        msg: &[&[u8]],
        ctx: &[u8],
        sig: &Signature<C>,
    ) -> Result<(), Error> {
        let m = MessageRepresentative::new_multipart::<C>(msg, ctx)?;
        self.verify_representative(&m, sig)
    }

    /// Verify `sig` over a message representative (made for `C`).
    pub fn verify_representative(
        &self,
        m: &MessageRepresentative,
        sig: &Signature<C>,
    ) -> Result<(), Error> {
        // The draft's Verify, step 4: ML-DSA with the label as its
        // context, then the traditional half, both over M'.
        self.ml
            .verify_multipart_with_context(&[m.as_bytes()], C::LABEL, sig.ml_dsa_signature())
            .map_err(|_| Error::InvalidSignature)?;
        C::Traditional::verify(&self.trad, m.as_bytes(), sig.traditional_signature())
    }

    /// A verifier carrying a context string (at most 255 bytes), for the
    /// `signature` traits.
    pub fn with_context<'a>(&'a self, ctx: &'a [u8]) -> Result<ContextVerifyingKey<'a, C>, Error> {
        if ctx.len() > 255 {
            return Err(Error::ContextTooLong);
        }
        Ok(ContextVerifyingKey { key: self, ctx })
    }
}

impl<C: CompositeParams> Clone for VerifyingKey<C> {
    fn clone(&self) -> Self {
        Self {
            bytes: self.bytes.clone(),
            ml: self.ml.clone(),
            trad: self.trad.clone(),
        }
    }
}

impl<C: CompositeParams> PartialEq for VerifyingKey<C> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes == other.bytes
    }
}

impl<C: CompositeParams> Eq for VerifyingKey<C> {}

impl<C: CompositeParams> core::hash::Hash for VerifyingKey<C> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.bytes.hash(state);
    }
}

impl<C: CompositeParams> fmt::Debug for VerifyingKey<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VerifyingKey")
            .field("alg", &C::NAME)
            .finish_non_exhaustive()
    }
}

impl<C: CompositeParams> TryFrom<&[u8]> for VerifyingKey<C> {
    type Error = Error;

    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_bytes(bytes)
    }
}

impl<C: CompositeParams> signature::Verifier<Signature<C>> for VerifyingKey<C> {
    fn verify(&self, msg: &[u8], sig: &Signature<C>) -> Result<(), signature::Error> {
        Ok(self.verify_with_context(msg, b"", sig)?)
    }
}

impl<C: CompositeParams> signature::MultipartVerifier<Signature<C>> for VerifyingKey<C> {
    fn multipart_verify(&self, msg: &[&[u8]], sig: &Signature<C>) -> Result<(), signature::Error> {
        Ok(self.verify_multipart_with_context(msg, b"", sig)?)
    }
}

/// A [`VerifyingKey`] with a context string: its `Verifier` and
/// `MultipartVerifier` impls use that context.
#[derive(Clone, Copy, Debug)]
pub struct ContextVerifyingKey<'a, C: CompositeParams> {
    key: &'a VerifyingKey<C>,
    ctx: &'a [u8],
}

impl<C: CompositeParams> signature::Verifier<Signature<C>> for ContextVerifyingKey<'_, C> {
    fn verify(&self, msg: &[u8], sig: &Signature<C>) -> Result<(), signature::Error> {
        Ok(self.key.verify_with_context(msg, self.ctx, sig)?)
    }
}

impl<C: CompositeParams> signature::MultipartVerifier<Signature<C>> for ContextVerifyingKey<'_, C> {
    fn multipart_verify(&self, msg: &[&[u8]], sig: &Signature<C>) -> Result<(), signature::Error> {
        Ok(self.key.verify_multipart_with_context(msg, self.ctx, sig)?)
    }
}

// ---------------------------------------------------------------------------
// Signing keys

/// A composite private key: the ML-DSA seed (with the key it expands to)
/// and the traditional private key, and their public key. For the
/// combinations whose traditional half pqkit signs with
/// ([`SignableParams`]). Every secret is wiped on drop; `Debug` shows
/// none.
pub struct SigningKey<C: SignableParams> {
    ml: pqkit_ml_dsa::SigningKey<C::MlDsa>,
    trad: <C::Traditional as TraditionalSigner>::SecretKey,
    vk: VerifyingKey<C>,
}

impl<C: SignableParams> SigningKey<C> {
    /// Length of the encoded private key: the 32-byte seed and the
    /// traditional private key.
    pub const PRIVATE_KEY_SIZE: usize = SEED_SIZE + C::Traditional::SECRET_KEY_LEN;

    /// The key from its halves.
    fn from_parts(
        ml: pqkit_ml_dsa::SigningKey<C::MlDsa>,
        trad: <C::Traditional as TraditionalSigner>::SecretKey,
    ) -> Self {
        let vk = VerifyingKey::from_parts(ml.verifying_key(), C::Traditional::public_key(&trad));
        Self { ml, trad, vk }
    }

    /// A private key from the draft's encoding `ML-DSA seed (32 bytes) ||
    /// traditional private key`: [`Error::InvalidLength`] for another
    /// length, [`Error::InvalidPrivateKey`] for a traditional key that is
    /// invalid or not in the draft's exact encoding.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        if bytes.len() != Self::PRIVATE_KEY_SIZE {
            return Err(Error::InvalidLength);
        }
        let (seed, trad) = bytes.split_at(SEED_SIZE);
        let trad = C::Traditional::decode_secret_key(trad)?;
        let ml =
            pqkit_ml_dsa::SigningKey::from_seed_slice(seed).map_err(|_| Error::InvalidLength)?;
        Ok(Self::from_parts(ml, trad))
    }

    /// The draft's encoding of the private key (wiped when dropped).
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        let mut out = Zeroizing::new(alloc::vec![0u8; Self::PRIVATE_KEY_SIZE]);
        out[..SEED_SIZE].copy_from_slice(self.ml.as_seed());
        C::Traditional::encode_secret_key(&self.trad, &mut out[SEED_SIZE..]);
        out
    }

    /// The ML-DSA half.
    pub fn ml_dsa_key(&self) -> &pqkit_ml_dsa::SigningKey<C::MlDsa> {
        &self.ml
    }

    /// The public key (a copy; `as_ref()` borrows it).
    pub fn verifying_key(&self) -> VerifyingKey<C> {
        self.vk.clone()
    }

    /// Sign `msg` with the context `ctx` (at most 255 bytes),
    /// deterministically: ML-DSA with `rnd = 0`, ECDSA with RFC 6979
    /// nonces, Ed25519 as always. The same inputs give the same bytes.
    #[doc(alias = "sign_with_context")]
    pub fn sign_deterministic(&self, msg: &[u8], ctx: &[u8]) -> Result<Signature<C>, Error> {
        self.sign_multipart_deterministic(&[msg], ctx)
    }

    /// [`sign_deterministic`](Self::sign_deterministic) for a message
    /// given in pieces.
    pub fn sign_multipart_deterministic(
        &self,
        msg: &[&[u8]],
        ctx: &[u8],
    ) -> Result<Signature<C>, Error> {
        let m = MessageRepresentative::new_multipart::<C>(msg, ctx)?;
        self.sign_representative_with_rnd(&m, &[0u8; 32], |m| C::Traditional::sign(&self.trad, m))
    }

    /// Sign `msg` with the context `ctx` (at most 255 bytes), hedged with
    /// randomness from `rng`: ML-DSA's 32 bytes of `rnd`, and ECDSA's
    /// RFC 6979 nonce with added entropy (Ed25519 needs none).
    #[doc(alias = "sign_with_context")]
    pub fn sign_randomized<R: TryCryptoRng + ?Sized>(
        &self,
        msg: &[u8],
        ctx: &[u8],
        rng: &mut R,
    ) -> Result<Signature<C>, Error> {
        self.sign_multipart_randomized(&[msg], ctx, rng)
    }

    /// [`sign_randomized`](Self::sign_randomized) for a message given in
    /// pieces.
    pub fn sign_multipart_randomized<R: TryCryptoRng + ?Sized>(
        &self,
        msg: &[&[u8]],
        ctx: &[u8],
        rng: &mut R,
    ) -> Result<Signature<C>, Error> {
        let m = MessageRepresentative::new_multipart::<C>(msg, ctx)?;
        self.sign_representative_randomized(&m, rng)
    }

    /// Sign a message representative (made for `C`) deterministically.
    pub fn sign_representative_deterministic(
        &self,
        m: &MessageRepresentative,
    ) -> Result<Signature<C>, Error> {
        self.sign_representative_with_rnd(m, &[0u8; 32], |m| C::Traditional::sign(&self.trad, m))
    }

    /// Sign a message representative (made for `C`), hedged with
    /// randomness from `rng` as [`sign_randomized`](Self::sign_randomized)
    /// is. With [`MessageRepresentative::from_prehash`], a message is
    /// signed from its digest, e.g. streamed from a file.
    pub fn sign_representative_randomized<R: TryCryptoRng + ?Sized>(
        &self,
        m: &MessageRepresentative,
        rng: &mut R,
    ) -> Result<Signature<C>, Error> {
        let mut rnd = Zeroizing::new([0u8; 32]);
        rng.try_fill_bytes(&mut rnd[..]).map_err(|_| Error::Rng)?;
        self.sign_representative_with_rnd(m, &rnd, |m| {
            C::Traditional::sign_randomized(&self.trad, m, rng)
        })
    }

    /// The draft's Sign, steps 4 to 6: ML-DSA over `M'` with the label as
    /// its context (with `rnd`), the traditional half over `M'`.
    fn sign_representative_with_rnd(
        &self,
        m: &MessageRepresentative,
        rnd: &[u8; 32],
        trad_sign: impl FnOnce(&[u8]) -> Result<Vec<u8>, Error>,
    ) -> Result<Signature<C>, Error> {
        let ml = self
            .ml
            .sign_with_rnd(m.as_bytes(), C::LABEL, rnd)
            .map_err(from_ml_dsa)?;
        let trad = trad_sign(m.as_bytes())?;
        Ok(Signature::from_halves(ml.as_bytes(), &trad))
    }

    /// A signer carrying a context string (at most 255 bytes), for the
    /// `signature` traits.
    pub fn with_context<'a>(&'a self, ctx: &'a [u8]) -> Result<ContextSigningKey<'a, C>, Error> {
        if ctx.len() > 255 {
            return Err(Error::ContextTooLong);
        }
        Ok(ContextSigningKey { key: self, ctx })
    }
}

impl<C: SignableParams> Clone for SigningKey<C> {
    fn clone(&self) -> Self {
        Self {
            ml: self.ml.clone(),
            trad: self.trad.clone(),
            vk: self.vk.clone(),
        }
    }
}

// Each half wipes itself on drop: pqkit-ml-dsa's `SigningKey`, and the
// traditional `SecretKey` (bound `ZeroizeOnDrop`).
impl<C: SignableParams> ZeroizeOnDrop for SigningKey<C> {}

impl<C: SignableParams> fmt::Debug for SigningKey<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SigningKey")
            .field("alg", &C::NAME)
            .field("vk", &self.vk)
            .finish_non_exhaustive()
    }
}

impl<C: SignableParams> TryFrom<&[u8]> for SigningKey<C> {
    type Error = Error;

    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_bytes(bytes)
    }
}

impl<C: SignableParams> Generate for SigningKey<C> {
    /// The draft's KeyGen: a fresh 32-byte ML-DSA seed, then a fresh
    /// traditional key, both from `rng`.
    fn try_generate_from_rng<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self, R::Error> {
        let mut seed = Zeroizing::new(pqkit_ml_dsa::Seed::default());
        rng.try_fill_bytes(&mut seed[..])?;
        let ml = pqkit_ml_dsa::SigningKey::from_seed(&seed);
        let trad = C::Traditional::try_generate(rng)?;
        Ok(Self::from_parts(ml, trad))
    }
}

impl<C: SignableParams> AsRef<VerifyingKey<C>> for SigningKey<C> {
    fn as_ref(&self) -> &VerifyingKey<C> {
        &self.vk
    }
}

impl<C: SignableParams> signature::KeypairRef for SigningKey<C> {
    type VerifyingKey = VerifyingKey<C>;
}

impl<C: SignableParams> signature::Signer<Signature<C>> for SigningKey<C> {
    /// Deterministic, with the empty context.
    fn try_sign(&self, msg: &[u8]) -> Result<Signature<C>, signature::Error> {
        Ok(self.sign_deterministic(msg, b"")?)
    }
}

impl<C: SignableParams> signature::MultipartSigner<Signature<C>> for SigningKey<C> {
    /// Deterministic, with the empty context.
    fn try_multipart_sign(&self, msg: &[&[u8]]) -> Result<Signature<C>, signature::Error> {
        Ok(self.sign_multipart_deterministic(msg, b"")?)
    }
}

impl<C: SignableParams> signature::RandomizedSigner<Signature<C>> for SigningKey<C> {
    /// Hedged, with the empty context.
    fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Signature<C>, signature::Error> {
        Ok(self.sign_randomized(msg, b"", rng)?)
    }
}

impl<C: SignableParams> signature::RandomizedMultipartSigner<Signature<C>> for SigningKey<C> {
    /// Hedged, with the empty context.
    fn try_multipart_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[&[u8]],
    ) -> Result<Signature<C>, signature::Error> {
        Ok(self.sign_multipart_randomized(msg, b"", rng)?)
    }
}

/// A [`SigningKey`] with a context string: its `Signer` (deterministic),
/// `RandomizedSigner` (hedged) and multipart impls use that context.
#[derive(Clone, Copy, Debug)]
pub struct ContextSigningKey<'a, C: SignableParams> {
    key: &'a SigningKey<C>,
    ctx: &'a [u8],
}

impl<C: SignableParams> signature::Keypair for ContextSigningKey<'_, C> {
    type VerifyingKey = VerifyingKey<C>;

    fn verifying_key(&self) -> VerifyingKey<C> {
        self.key.verifying_key()
    }
}

impl<C: SignableParams> signature::Signer<Signature<C>> for ContextSigningKey<'_, C> {
    fn try_sign(&self, msg: &[u8]) -> Result<Signature<C>, signature::Error> {
        Ok(self.key.sign_deterministic(msg, self.ctx)?)
    }
}

impl<C: SignableParams> signature::MultipartSigner<Signature<C>> for ContextSigningKey<'_, C> {
    fn try_multipart_sign(&self, msg: &[&[u8]]) -> Result<Signature<C>, signature::Error> {
        Ok(self.key.sign_multipart_deterministic(msg, self.ctx)?)
    }
}

impl<C: SignableParams> signature::RandomizedSigner<Signature<C>> for ContextSigningKey<'_, C> {
    fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Signature<C>, signature::Error> {
        Ok(self.key.sign_randomized(msg, self.ctx, rng)?)
    }
}

impl<C: SignableParams> signature::RandomizedMultipartSigner<Signature<C>>
    for ContextSigningKey<'_, C>
{
    fn try_multipart_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[&[u8]],
    ) -> Result<Signature<C>, signature::Error> {
        Ok(self.key.sign_multipart_randomized(msg, self.ctx, rng)?)
    }
}
