//! PKCS#8 (RFC 8410: v1 and v2) and SPKI for Ed25519, OID 1.3.101.112.
//!
//! `privateKey` is `OCTET STRING { OCTET STRING (32) }`; a v2 key's `[1]`
//! public key must match the private key. Export writes v2 (with the public
//! key) by default, like ed25519-dalek; [`SigningKey::to_pkcs8_der_v1`]
//! writes v1. The plumbing is `pqkit_pkix`, shared with the other
//! pqkit crates.

use der::Decode;
use der::asn1::{AnyRef, OctetStringRef};
use pkcs8::{ObjectIdentifier, PrivateKeyInfoRef};
use pqkit_pkix::{self as pkix, AlgorithmId};
use spki::{SignatureAlgorithmIdentifier, SubjectPublicKeyInfoRef};

use crate::{SigningKey, VerifyingKey};

/// id-Ed25519 (RFC 8410).
pub const ALGORITHM_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.112");
const ALGORITHM_ID: AlgorithmId = pkix::algorithm_id(ALGORITHM_OID);

impl TryFrom<PrivateKeyInfoRef<'_>> for SigningKey {
    type Error = pkcs8::Error;
    fn try_from(pki: PrivateKeyInfoRef<'_>) -> pkcs8::Result<Self> {
        let raw = pkix::private_key_bytes(&pki, ALGORITHM_OID)?;
        let inner = <&OctetStringRef>::from_der(raw)?;
        let sk = SigningKey::from_slice(inner.as_bytes()).map_err(|_| pkix::invalid_key())?;
        pkix::check_public_key(&pki, &sk.verifying_key().to_bytes())?;
        Ok(sk)
    }
}

impl TryFrom<SubjectPublicKeyInfoRef<'_>> for VerifyingKey {
    type Error = spki::Error;
    fn try_from(spki: SubjectPublicKeyInfoRef<'_>) -> spki::Result<Self> {
        let bytes = pkix::public_key_bytes(&spki, ALGORITHM_OID)?;
        let bytes = <&[u8; 32]>::try_from(bytes).map_err(|_| spki::Error::KeyMalformed)?;
        VerifyingKey::from_bytes(bytes).map_err(|_| spki::Error::KeyMalformed)
    }
}

impl SignatureAlgorithmIdentifier for SigningKey {
    type Params = AnyRef<'static>;
    const SIGNATURE_ALGORITHM_IDENTIFIER: AlgorithmId = ALGORITHM_ID;
}

impl SignatureAlgorithmIdentifier for VerifyingKey {
    type Params = AnyRef<'static>;
    const SIGNATURE_ALGORITHM_IDENTIFIER: AlgorithmId = ALGORITHM_ID;
}

#[cfg(feature = "alloc")]
mod encode {
    use super::*;
    use der::Encode;
    use pkcs8::{EncodePrivateKey, SecretDocument};
    use spki::{Document, EncodePublicKey};
    use zeroize::Zeroizing;

    impl SigningKey {
        fn pkcs8(&self, v2: bool) -> pkcs8::Result<SecretDocument> {
            let secret = Zeroizing::new(self.to_bytes());
            let inner = Zeroizing::new(OctetStringRef::new(&secret[..])?.to_der()?);
            let pk = self.verifying_key().to_bytes();
            pkix::pkcs8_der(ALGORITHM_OID, &inner, v2.then_some(&pk[..]))
        }

        /// PKCS#8 v1 (`OneAsymmetricKey` without the public key).
        pub fn to_pkcs8_der_v1(&self) -> pkcs8::Result<SecretDocument> {
            self.pkcs8(false)
        }
    }

    impl EncodePrivateKey for SigningKey {
        /// PKCS#8 v2, with the public key (RFC 8410 §7).
        fn to_pkcs8_der(&self) -> pkcs8::Result<SecretDocument> {
            self.pkcs8(true)
        }
    }

    impl EncodePublicKey for VerifyingKey {
        fn to_public_key_der(&self) -> spki::Result<Document> {
            pkix::spki_der(ALGORITHM_OID, &self.to_bytes())
        }
    }
}

// The `ed25519` crate's raw PKCS#8 containers, as ed25519-dalek converts
// them (its `pkcs8::KeypairBytes` and `pkcs8::PublicKeyBytes`, reached here
// as `pqkit_ed25519::ed25519::pkcs8`).

impl TryFrom<&ed25519::pkcs8::KeypairBytes> for SigningKey {
    type Error = crate::SignatureError;
    /// The secret key; an included public key must be the one it yields
    /// ([`Error::InconsistentKey`](crate::Error::InconsistentKey)).
    fn try_from(kp: &ed25519::pkcs8::KeypairBytes) -> Result<Self, crate::SignatureError> {
        let sk = SigningKey::from_bytes(&kp.secret_key);
        match &kp.public_key {
            Some(pk) if pk.0 != sk.verifying_key().to_bytes() => {
                Err(crate::Error::InconsistentKey.into())
            }
            _ => Ok(sk),
        }
    }
}

impl TryFrom<ed25519::pkcs8::KeypairBytes> for SigningKey {
    type Error = crate::SignatureError;
    fn try_from(kp: ed25519::pkcs8::KeypairBytes) -> Result<Self, crate::SignatureError> {
        SigningKey::try_from(&kp)
    }
}

impl From<&SigningKey> for ed25519::pkcs8::KeypairBytes {
    fn from(sk: &SigningKey) -> Self {
        ed25519::pkcs8::KeypairBytes {
            secret_key: sk.to_bytes(),
            public_key: Some(ed25519::pkcs8::PublicKeyBytes(
                sk.verifying_key().to_bytes(),
            )),
        }
    }
}

impl TryFrom<&ed25519::pkcs8::PublicKeyBytes> for VerifyingKey {
    type Error = crate::SignatureError;
    fn try_from(pk: &ed25519::pkcs8::PublicKeyBytes) -> Result<Self, crate::SignatureError> {
        VerifyingKey::from_bytes(&pk.0)
    }
}

impl TryFrom<ed25519::pkcs8::PublicKeyBytes> for VerifyingKey {
    type Error = crate::SignatureError;
    fn try_from(pk: ed25519::pkcs8::PublicKeyBytes) -> Result<Self, crate::SignatureError> {
        VerifyingKey::from_bytes(&pk.0)
    }
}

impl From<&VerifyingKey> for ed25519::pkcs8::PublicKeyBytes {
    fn from(vk: &VerifyingKey) -> Self {
        ed25519::pkcs8::PublicKeyBytes(vk.to_bytes())
    }
}
