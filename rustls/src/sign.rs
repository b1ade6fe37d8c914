//! Private keys for server and client authentication: ML-DSA in every
//! PKCS#8 form RFC 9881 defines (seed, expandedKey, both; the seed form is
//! what OpenSSL writes) and Ed25519 (RFC 8410, v1 and v2) on pqkit, every
//! other key type on ring.

use std::sync::Arc;

use pkcs8::{DecodePrivateKey, ObjectIdentifier, PrivateKeyInfoRef};
use pqkit_ml_dsa::{ExpandedSigningKey, MlDsa44, MlDsa65, MlDsa87, ParameterSet};
use rustls::crypto::KeyProvider;
use rustls::pki_types::{AlgorithmIdentifier, PrivateKeyDer, SubjectPublicKeyInfoDer, alg_id};
use rustls::sign::{Signer, SigningKey};
use rustls::{Error, SignatureAlgorithm, SignatureScheme};

const OID_ML_DSA_44: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.3.17");
const OID_ML_DSA_65: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.3.18");
const OID_ML_DSA_87: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.3.19");
const OID_ED25519: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.112");

/// Loads ML-DSA and Ed25519 keys with pqkit and hands every other key to
/// ring's provider (`rustls::crypto::ring::sign::any_supported_type`).
#[derive(Debug, Clone, Copy, Default)]
pub struct PqkitKeyProvider;

/// The provider's instance.
pub static KEY_PROVIDER: &dyn KeyProvider = &PqkitKeyProvider;

impl KeyProvider for PqkitKeyProvider {
    /// A PKCS#8 key whose algorithm is ML-DSA or Ed25519 is decoded (and
    /// checked: seeds regenerate the key, `both` must agree, an expanded
    /// key's `t0` and `tr` must match) by pqkit; a malformed one is an
    /// error, not handed on. Anything else goes to ring.
    fn load_private_key(
        &self,
        key_der: PrivateKeyDer<'static>,
    ) -> Result<Arc<dyn SigningKey>, Error> {
        if let PrivateKeyDer::Pkcs8(der) = &key_der {
            let bytes = der.secret_pkcs8_der();
            if let Ok(info) = PrivateKeyInfoRef::try_from(bytes) {
                match info.algorithm.oid {
                    OID_ML_DSA_44 => {
                        return ml_dsa::<MlDsa44>(
                            bytes,
                            alg_id::ML_DSA_44,
                            SignatureScheme::ML_DSA_44,
                        );
                    }
                    OID_ML_DSA_65 => {
                        return ml_dsa::<MlDsa65>(
                            bytes,
                            alg_id::ML_DSA_65,
                            SignatureScheme::ML_DSA_65,
                        );
                    }
                    OID_ML_DSA_87 => {
                        return ml_dsa::<MlDsa87>(
                            bytes,
                            alg_id::ML_DSA_87,
                            SignatureScheme::ML_DSA_87,
                        );
                    }
                    OID_ED25519 => {
                        let key =
                            pqkit_ed25519::SigningKey::from_pkcs8_der(bytes).map_err(|e| {
                                Error::General(format!("invalid Ed25519 private key: {e}"))
                            })?;
                        return Ok(Arc::new(Ed25519Key(Arc::new(key))));
                    }
                    _ => {}
                }
            }
        }
        rustls::crypto::ring::sign::any_supported_type(&key_der)
    }
}

fn ml_dsa<P: ParameterSet>(
    der: &[u8],
    alg_id: AlgorithmIdentifier,
    scheme: SignatureScheme,
) -> Result<Arc<dyn SigningKey>, Error>
where
    ExpandedSigningKey<P>: DecodePrivateKey,
{
    let key = ExpandedSigningKey::<P>::from_pkcs8_der(der)
        .map_err(|e| Error::General(format!("invalid {} private key: {e}", P::NAME)))?;
    Ok(Arc::new(MlDsaKey {
        key: Arc::new(key),
        alg_id,
        scheme,
    }))
}

/// An ML-DSA signing key for rustls (pure ML-DSA, empty context, hedged:
/// fresh randomness for every signature).
pub struct MlDsaKey<P: ParameterSet> {
    key: Arc<ExpandedSigningKey<P>>,
    alg_id: AlgorithmIdentifier,
    scheme: SignatureScheme,
}

impl<P: ParameterSet> core::fmt::Debug for MlDsaKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "MlDsaKey({:?})", self.scheme)
    }
}

impl<P: ParameterSet> SigningKey for MlDsaKey<P> {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        if !offered.contains(&self.scheme) {
            return None;
        }
        Some(Box::new(MlDsaSigner {
            key: Arc::clone(&self.key),
            scheme: self.scheme,
        }))
    }

    fn public_key(&self) -> Option<SubjectPublicKeyInfoDer<'_>> {
        Some(rustls::sign::public_key_to_spki(
            &self.alg_id,
            self.key.verifying_key().as_bytes(),
        ))
    }

    /// rustls 0.23 has no ML-DSA `SignatureAlgorithm` (a TLS 1.2 notion);
    /// `Unknown(0)`, as the aws-lc-rs provider answers.
    fn algorithm(&self) -> SignatureAlgorithm {
        SignatureAlgorithm::Unknown(0)
    }
}

struct MlDsaSigner<P: ParameterSet> {
    key: Arc<ExpandedSigningKey<P>>,
    scheme: SignatureScheme,
}

impl<P: ParameterSet> core::fmt::Debug for MlDsaSigner<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "MlDsaSigner({:?})", self.scheme)
    }
}

impl<P: ParameterSet> Signer for MlDsaSigner<P> {
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, Error> {
        let rnd = crate::random::<32>()?;
        self.key
            .sign_with_rnd(message, &[], &rnd)
            .map(|sig| sig.as_bytes().to_vec())
            .map_err(|e| Error::General(format!("ML-DSA signing failed: {e}")))
    }

    fn scheme(&self) -> SignatureScheme {
        self.scheme
    }
}

/// An Ed25519 signing key for rustls (RFC 8032, deterministic).
#[derive(Debug)]
pub struct Ed25519Key(Arc<pqkit_ed25519::SigningKey>);

impl SigningKey for Ed25519Key {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        if !offered.contains(&SignatureScheme::ED25519) {
            return None;
        }
        Some(Box::new(Ed25519Signer(Arc::clone(&self.0))))
    }

    fn public_key(&self) -> Option<SubjectPublicKeyInfoDer<'_>> {
        Some(rustls::sign::public_key_to_spki(
            &alg_id::ED25519,
            self.0.verifying_key().as_bytes(),
        ))
    }

    fn algorithm(&self) -> SignatureAlgorithm {
        SignatureAlgorithm::ED25519
    }
}

#[derive(Debug)]
struct Ed25519Signer(Arc<pqkit_ed25519::SigningKey>);

impl Signer for Ed25519Signer {
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, Error> {
        use pqkit_ed25519::signature::Signer as _;
        Ok(self.0.sign(message).to_bytes().to_vec())
    }

    fn scheme(&self) -> SignatureScheme {
        SignatureScheme::ED25519
    }
}
