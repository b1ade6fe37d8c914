//! Composite ML-DSA (draft-ietf-lamps-pq-composite-sigs, the -19 era:
//! OIDs 1.3.6.1.5.5.7.6.37 to .54, prefix `CompositeAlgorithmSignatures2025`)
//! through `pqkit_hybrid::composite`: ML-DSA and a traditional signature
//! over the same message representative, both of which must verify.
//!
//! Names are the draft's algorithm names in lower case, without `id-` and
//! without the pre-hash (which each combination fixes):
//! `mldsa65-ed25519` is id-MLDSA65-Ed25519-SHA512.
//!
//! * The Ed25519 and ECDSA combinations sign and verify. Private keys
//!   have one form, the draft's (the 32-byte ML-DSA seed, then the
//!   traditional private key), in PKCS#8 v1, so `--key-format` is `seed`
//!   only. `keygen --seed` takes 64 bytes for the Ed25519 combinations
//!   (the ML-DSA seed, then the Ed25519 private key, itself a seed: the
//!   draft's private key); an ECDSA private key is a random scalar with no
//!   seed form, so the ECDSA combinations refuse `--seed`.
//! * The RSA and Ed448 combinations verify only (see [`VerifyOnly`]):
//!   `keygen`, `sign` and loading their private keys are errors that say
//!   why.
//!
//! Every combination pre-hashes the message (SHA-256, SHA-512 or
//! SHAKE256), so `sign` and `verify` stream it, in constant memory.
//! `--context` is the draft's application context (at most 255 bytes);
//! `--prehash` does not apply (the pre-hash is part of the combination),
//! nor do the ML-DSA, FN-DSA or Ed25519 flags. Signing is hedged (ML-DSA's
//! `rnd`, ECDSA's RFC 6979 nonce with added randomness); `--deterministic`
//! signs with `rnd = 0` and plain RFC 6979 nonces.

use std::marker::PhantomData;

use der::oid::AssociatedOid;
use pkcs8::{DecodePrivateKey, EncodePrivateKey};
use pqkit_hybrid::composite::{
    CompositeParams, Error, Generate, MessageRepresentative, SignableParams, Signature, SigningKey,
    VerifyingKey,
};
use spki::{DecodePublicKey, EncodePublicKey};
use zeroize::Zeroizing;

use super::{Scheme, SignatureScheme};
use crate::args::{KeyFormat, Prehash, SignOptions, VerifyOptions};
use crate::demo::os_rng;
use crate::io::{KeyFile, KeyKind, Message};
use crate::{CliError, Result};

use pqkit_hybrid::composite as c;
use pqkit_rustls::rustls::pki_types as rustls_pki_types;

fn err(e: Error) -> CliError {
    CliError::new(e.to_string())
}

/// The message representative `M'` of a streamed message.
fn representative<C: CompositeParams>(
    name: &str,
    msg: &Message<'_>,
    context: Option<&[u8]>,
    prehash: Option<Prehash>,
) -> Result<MessageRepresentative> {
    if prehash.is_some() {
        return Err(CliError::new(format!(
            "{name}: --prehash does not apply: a composite signature always pre-hashes the \
             message with {} (part of the combination)",
            C::PREHASH.name()
        )));
    }
    let ctx = context.unwrap_or_default();
    if ctx.len() > 255 {
        return Err(err(Error::ContextTooLong));
    }
    let digest = msg.prehash(C::PREHASH)?;
    MessageRepresentative::from_prehash::<C>(digest.as_bytes(), ctx).map_err(err)
}

/// A composite public key from an SPKI file.
fn public_key<C: CompositeParams>(name: &str, key: &KeyFile) -> Result<VerifyingKey<C>> {
    VerifyingKey::<C>::from_public_key_der(&key.der)
        .map_err(|e| CliError::new(format!("{name}: bad public key: {e}")))
}

/// `verify` for every combination: `Ok(false)` for a signature that is
/// malformed or does not verify.
fn verify_with<C: CompositeParams>(
    name: &str,
    vk: &VerifyingKey<C>,
    msg: &Message<'_>,
    sig: &[u8],
    opts: &VerifyOptions,
) -> Result<bool> {
    let m = representative::<C>(name, msg, opts.context.as_deref(), opts.prehash)?;
    // Every failure from here on is a property of the signature.
    let Ok(sig) = Signature::<C>::from_bytes(sig) else {
        return Ok(false);
    };
    Ok(vk.verify_representative(&m, &sig).is_ok())
}

/// A combination that signs and verifies (Ed25519, ECDSA).
pub struct Signable<C: SignableParams> {
    name: &'static str,
    /// What `--seed` is, or `None` when the combination has no seed form.
    seed: Option<&'static str>,
    _c: PhantomData<C>,
}

/// The Ed25519 combinations' `--seed`.
const ED25519_SEED: Option<&str> = Some("the ML-DSA seed, then the Ed25519 private key");

impl<C: SignableParams> Signable<C> {
    const fn new(name: &'static str, seed: Option<&'static str>) -> Self {
        Self {
            name,
            seed,
            _c: PhantomData,
        }
    }

    fn signing_key(&self, key: &KeyFile) -> Result<SigningKey<C>> {
        super::require_private(key, "this operation")?;
        SigningKey::<C>::from_pkcs8_der(&key.der)
            .map_err(|e| CliError::new(format!("{}: bad private key: {e}", self.name)))
    }

    fn verifying_key(&self, key: &KeyFile) -> Result<VerifyingKey<C>> {
        match key.kind {
            KeyKind::Public => public_key(self.name, key),
            KeyKind::Private => Ok(self.signing_key(key)?.verifying_key()),
        }
    }

    fn one_form(&self, format: KeyFormat) -> Result<()> {
        if format == KeyFormat::Seed {
            Ok(())
        } else {
            Err(CliError::new(format!(
                "{}: --key-format must be seed (composite private keys have one form: the \
                 ML-DSA seed and the traditional private key)",
                self.name
            )))
        }
    }
}

impl<C: SignableParams> Scheme for Signable<C> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn oid(&self) -> der::asn1::ObjectIdentifier {
        C::OID
    }

    fn keygen(&self, seed: Option<&[u8]>, format: KeyFormat) -> Result<Zeroizing<Vec<u8>>> {
        self.one_form(format)?;
        let sk = match (seed, self.seed) {
            (Some(s), Some(what)) => {
                let want = SigningKey::<C>::PRIVATE_KEY_SIZE;
                if s.len() != want {
                    return Err(CliError::new(format!(
                        "{}: --seed must be {want} bytes ({what}), not {}",
                        self.name,
                        s.len()
                    )));
                }
                SigningKey::<C>::from_bytes(s)
                    .map_err(|e| CliError::new(format!("{}: --seed: {e}", self.name)))?
            }
            (Some(_), None) => {
                return Err(CliError::new(format!(
                    "{}: --seed is not available: an ECDSA private key is a random scalar with \
                     no seed form, so keys come from the OS RNG only",
                    self.name
                )));
            }
            (None, _) => SigningKey::<C>::try_generate()
                .map_err(|e| CliError::new(format!("{}: OS randomness: {e}", self.name)))?,
        };
        Ok(Zeroizing::new(sk.to_pkcs8_der()?.as_bytes().to_vec()))
    }

    fn public_key_der(&self, key: &KeyFile) -> Result<Vec<u8>> {
        Ok(self.verifying_key(key)?.to_public_key_der()?.into_vec())
    }

    /// The one form, re-encoded (PKCS#8 v1, as keygen writes it).
    fn convert(&self, key: &KeyFile, format: KeyFormat) -> Result<Zeroizing<Vec<u8>>> {
        super::require_private(key, "pkey")?;
        let sk = self.signing_key(key)?;
        self.one_form(format)?;
        Ok(Zeroizing::new(sk.to_pkcs8_der()?.as_bytes().to_vec()))
    }

    fn private_key_form(&self, key: &KeyFile) -> Option<String> {
        let info = pkcs8::PrivateKeyInfoRef::try_from(key.der.as_slice()).ok()?;
        Some(format!(
            "composite ({} bytes: ML-DSA seed {}, {} private key {})",
            info.private_key.as_bytes().len(),
            c::SEED_SIZE,
            <C::Traditional as c::Traditional>::NAME,
            info.private_key
                .as_bytes()
                .len()
                .saturating_sub(c::SEED_SIZE)
        ))
    }

    fn as_signature(&self) -> Option<&dyn SignatureScheme> {
        Some(self)
    }
}

impl<C: SignableParams> SignatureScheme for Signable<C> {
    fn sign(&self, key: &KeyFile, msg: &Message<'_>, opts: &SignOptions) -> Result<Vec<u8>> {
        let sk = self.signing_key(key)?;
        let m = representative::<C>(self.name, msg, opts.context.as_deref(), opts.prehash)?;
        let sig = if opts.deterministic {
            sk.sign_representative_deterministic(&m)
        } else {
            sk.sign_representative_randomized(&m, &mut os_rng())
        };
        Ok(sig.map_err(err)?.to_bytes())
    }

    fn verify(
        &self,
        key: &KeyFile,
        msg: &Message<'_>,
        sig: &[u8],
        opts: &VerifyOptions,
    ) -> Result<bool> {
        let vk = self.verifying_key(key)?;
        verify_with(self.name, &vk, msg, sig, opts)
    }
}

/// A combination pqkit verifies but does not sign with: its traditional
/// half's private keys are not entrusted to the crate that implements it
/// (`why` says which and why), so keys are never generated or loaded.
pub struct VerifyOnly<C: CompositeParams> {
    name: &'static str,
    why: &'static str,
    _c: PhantomData<C>,
}

/// Why the RSA combinations are verify-only.
const RSA: &str = "pqkit does not hold RSA private keys, as the RustCrypto rsa crate's \
                   private-key operations are not constant time (the Marvin attack, \
                   RUSTSEC-2023-0071)";

/// Why the Ed448 combination is verify-only.
const ED448: &str = "pqkit does not entrust Ed448 private keys to ed448-goldilocks, whose \
                     only release for this RustCrypto generation is a pre-release \
                     (0.14.0-pre.15)";

impl<C: CompositeParams> VerifyOnly<C> {
    const fn new(name: &'static str, why: &'static str) -> Self {
        Self {
            name,
            why,
            _c: PhantomData,
        }
    }

    fn refuse(&self, what: &str) -> CliError {
        CliError::new(format!(
            "{}: {what}: this combination is verify-only: {}",
            self.name, self.why
        ))
    }

    fn verifying_key(&self, key: &KeyFile) -> Result<VerifyingKey<C>> {
        match key.kind {
            KeyKind::Public => public_key(self.name, key),
            KeyKind::Private => {
                Err(self.refuse("its private keys are not loaded (give the public key, SPKI)"))
            }
        }
    }
}

impl<C: CompositeParams> Scheme for VerifyOnly<C> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn oid(&self) -> der::asn1::ObjectIdentifier {
        C::OID
    }

    fn keygen(&self, _seed: Option<&[u8]>, _format: KeyFormat) -> Result<Zeroizing<Vec<u8>>> {
        Err(self.refuse("no key generation"))
    }

    fn public_key_der(&self, key: &KeyFile) -> Result<Vec<u8>> {
        Ok(self.verifying_key(key)?.to_public_key_der()?.into_vec())
    }

    fn convert(&self, key: &KeyFile, _format: KeyFormat) -> Result<Zeroizing<Vec<u8>>> {
        super::require_private(key, "pkey")?;
        Err(self.refuse("its private keys are not loaded"))
    }

    fn private_key_form(&self, key: &KeyFile) -> Option<String> {
        let info = pkcs8::PrivateKeyInfoRef::try_from(key.der.as_slice()).ok()?;
        Some(format!(
            "composite ({} bytes; not loaded: verify-only)",
            info.private_key.as_bytes().len()
        ))
    }

    fn loads_private_keys(&self) -> bool {
        false
    }

    fn as_signature(&self) -> Option<&dyn SignatureScheme> {
        Some(self)
    }
}

impl<C: CompositeParams> SignatureScheme for VerifyOnly<C> {
    fn sign(&self, _key: &KeyFile, _msg: &Message<'_>, _opts: &SignOptions) -> Result<Vec<u8>> {
        Err(self.refuse("no signing"))
    }

    fn verify(
        &self,
        key: &KeyFile,
        msg: &Message<'_>,
        sig: &[u8],
        opts: &VerifyOptions,
    ) -> Result<bool> {
        let vk = self.verifying_key(key)?;
        verify_with(self.name, &vk, msg, sig, opts)
    }
}

/// id-MLDSA44-Ed25519-SHA512.
pub static MLDSA44_ED25519: Signable<c::MlDsa44Ed25519Sha512> =
    Signable::new("mldsa44-ed25519", ED25519_SEED);
/// id-MLDSA65-Ed25519-SHA512.
pub static MLDSA65_ED25519: Signable<c::MlDsa65Ed25519Sha512> =
    Signable::new("mldsa65-ed25519", ED25519_SEED);
/// id-MLDSA44-ECDSA-P256-SHA256.
pub static MLDSA44_ECDSA_P256: Signable<c::MlDsa44EcdsaP256Sha256> =
    Signable::new("mldsa44-ecdsa-p256", None);
/// id-MLDSA65-ECDSA-P256-SHA512.
pub static MLDSA65_ECDSA_P256: Signable<c::MlDsa65EcdsaP256Sha512> =
    Signable::new("mldsa65-ecdsa-p256", None);
/// id-MLDSA65-ECDSA-P384-SHA512.
pub static MLDSA65_ECDSA_P384: Signable<c::MlDsa65EcdsaP384Sha512> =
    Signable::new("mldsa65-ecdsa-p384", None);
/// id-MLDSA87-ECDSA-P384-SHA512.
pub static MLDSA87_ECDSA_P384: Signable<c::MlDsa87EcdsaP384Sha512> =
    Signable::new("mldsa87-ecdsa-p384", None);
/// id-MLDSA87-ECDSA-P521-SHA512.
pub static MLDSA87_ECDSA_P521: Signable<c::MlDsa87EcdsaP521Sha512> =
    Signable::new("mldsa87-ecdsa-p521", None);
/// id-MLDSA65-ECDSA-brainpoolP256r1-SHA512.
pub static MLDSA65_ECDSA_BP256: Signable<c::MlDsa65EcdsaBrainpoolP256r1Sha512> =
    Signable::new("mldsa65-ecdsa-brainpoolp256r1", None);
/// id-MLDSA87-ECDSA-brainpoolP384r1-SHA512.
pub static MLDSA87_ECDSA_BP384: Signable<c::MlDsa87EcdsaBrainpoolP384r1Sha512> =
    Signable::new("mldsa87-ecdsa-brainpoolp384r1", None);

/// id-MLDSA44-RSA2048-PSS-SHA256.
pub static MLDSA44_RSA2048_PSS: VerifyOnly<c::MlDsa44Rsa2048PssSha256> =
    VerifyOnly::new("mldsa44-rsa2048-pss", RSA);
/// id-MLDSA44-RSA2048-PKCS15-SHA256.
pub static MLDSA44_RSA2048_PKCS15: VerifyOnly<c::MlDsa44Rsa2048Pkcs15Sha256> =
    VerifyOnly::new("mldsa44-rsa2048-pkcs15", RSA);
/// id-MLDSA65-RSA3072-PSS-SHA512.
pub static MLDSA65_RSA3072_PSS: VerifyOnly<c::MlDsa65Rsa3072PssSha512> =
    VerifyOnly::new("mldsa65-rsa3072-pss", RSA);
/// id-MLDSA65-RSA3072-PKCS15-SHA512.
pub static MLDSA65_RSA3072_PKCS15: VerifyOnly<c::MlDsa65Rsa3072Pkcs15Sha512> =
    VerifyOnly::new("mldsa65-rsa3072-pkcs15", RSA);
/// id-MLDSA65-RSA4096-PSS-SHA512.
pub static MLDSA65_RSA4096_PSS: VerifyOnly<c::MlDsa65Rsa4096PssSha512> =
    VerifyOnly::new("mldsa65-rsa4096-pss", RSA);
/// id-MLDSA65-RSA4096-PKCS15-SHA512.
pub static MLDSA65_RSA4096_PKCS15: VerifyOnly<c::MlDsa65Rsa4096Pkcs15Sha512> =
    VerifyOnly::new("mldsa65-rsa4096-pkcs15", RSA);
/// id-MLDSA87-RSA3072-PSS-SHA512.
pub static MLDSA87_RSA3072_PSS: VerifyOnly<c::MlDsa87Rsa3072PssSha512> =
    VerifyOnly::new("mldsa87-rsa3072-pss", RSA);
/// id-MLDSA87-RSA4096-PSS-SHA512.
pub static MLDSA87_RSA4096_PSS: VerifyOnly<c::MlDsa87Rsa4096PssSha512> =
    VerifyOnly::new("mldsa87-rsa4096-pss", RSA);
/// id-MLDSA87-Ed448-SHAKE256.
pub static MLDSA87_ED448: VerifyOnly<c::MlDsa87Ed448Shake256> =
    VerifyOnly::new("mldsa87-ed448", ED448);

/// A composite signature algorithm for certificate chains (rustls-webpki
/// and `verify-cert --purpose any`): the combination's OID with absent
/// parameters for both the key and the signature, pure composite
/// signing with the empty context (the draft's X.509 use).
#[derive(Debug)]
pub struct ChainVerify<C: CompositeParams>(rustls_pki_types::AlgorithmIdentifier, PhantomData<C>);

impl<C: CompositeParams> rustls_pki_types::SignatureVerificationAlgorithm for ChainVerify<C> {
    fn verify_signature(
        &self,
        public_key: &[u8],
        message: &[u8],
        signature: &[u8],
    ) -> std::result::Result<(), rustls_pki_types::InvalidSignature> {
        let bad = |_| rustls_pki_types::InvalidSignature;
        let vk = VerifyingKey::<C>::from_bytes(public_key).map_err(bad)?;
        let sig = Signature::<C>::from_bytes(signature).map_err(bad)?;
        vk.verify_with_context(message, b"", &sig).map_err(bad)
    }

    fn public_key_alg_id(&self) -> rustls_pki_types::AlgorithmIdentifier {
        self.0
    }

    fn signature_alg_id(&self) -> rustls_pki_types::AlgorithmIdentifier {
        self.0
    }
}

/// The contents of the AlgorithmIdentifier of `C` (the DER OID, no
/// SEQUENCE header, parameters absent) as rustls-pki-types wants it; every
/// composite OID has eight bytes of arcs.
const fn alg_id<C: AssociatedOid>() -> [u8; 10] {
    let oid = C::OID;
    let arcs = oid.as_bytes();
    assert!(arcs.len() == 8, "a composite OID has 8 bytes of arcs");
    let mut out = [0u8; 10];
    out[0] = 0x06;
    out[1] = 0x08;
    let mut i = 0;
    while i < 8 {
        out[2 + i] = arcs[i];
        i += 1;
    }
    out
}

macro_rules! chain_verify {
    ($($name:ident: $ty:ty;)*) => {
        $(
            static $name: ChainVerify<$ty> = {
                const ID: [u8; 10] = alg_id::<$ty>();
                ChainVerify(rustls_pki_types::AlgorithmIdentifier::from_slice(&ID), PhantomData)
            };
        )*

        /// The chain-validation algorithms of every combination.
        pub fn chain_algorithms() -> Vec<&'static dyn rustls_pki_types::SignatureVerificationAlgorithm> {
            vec![$(&$name),*]
        }
    };
}

chain_verify! {
    V37: c::MlDsa44Rsa2048PssSha256;
    V38: c::MlDsa44Rsa2048Pkcs15Sha256;
    V39: c::MlDsa44Ed25519Sha512;
    V40: c::MlDsa44EcdsaP256Sha256;
    V41: c::MlDsa65Rsa3072PssSha512;
    V42: c::MlDsa65Rsa3072Pkcs15Sha512;
    V43: c::MlDsa65Rsa4096PssSha512;
    V44: c::MlDsa65Rsa4096Pkcs15Sha512;
    V45: c::MlDsa65EcdsaP256Sha512;
    V46: c::MlDsa65EcdsaP384Sha512;
    V47: c::MlDsa65EcdsaBrainpoolP256r1Sha512;
    V48: c::MlDsa65Ed25519Sha512;
    V49: c::MlDsa87EcdsaP384Sha512;
    V50: c::MlDsa87EcdsaBrainpoolP384r1Sha512;
    V51: c::MlDsa87Ed448Shake256;
    V52: c::MlDsa87Rsa3072PssSha512;
    V53: c::MlDsa87Rsa4096PssSha512;
    V54: c::MlDsa87EcdsaP521Sha512;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every chain algorithm's identifier is the DER of its combination's
    /// OID, and every composite scheme has exactly one.
    #[test]
    fn chain_algorithm_ids_are_the_oids() {
        let algs = chain_algorithms();
        let composites: Vec<&dyn Scheme> = crate::schemes::all()
            .iter()
            .copied()
            .filter(|s| s.oid().to_string().starts_with("1.3.6.1.5.5.7.6."))
            .collect();
        assert_eq!(composites.len(), 18);
        assert_eq!(algs.len(), 18);
        for s in composites {
            let der = der::Encode::to_der(&s.oid()).expect("OID DER");
            let found: Vec<_> = algs
                .iter()
                .filter(|a| a.signature_alg_id().as_ref() == der.as_slice())
                .collect();
            assert_eq!(found.len(), 1, "{}", s.name());
            assert_eq!(
                found[0].public_key_alg_id().as_ref(),
                der.as_slice(),
                "{}",
                s.name()
            );
        }
    }
}
