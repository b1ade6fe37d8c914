//! PKCS#8 (RFC 8410: v1 and v2) and SPKI for Ed25519, OID 1.3.101.112.
//!
//! `privateKey` is `OCTET STRING { OCTET STRING (32) }`; a v2 key's `[1]`
//! public key must match the private key. Export writes v2 (with the public
//! key) by default, like ed25519-dalek; [`SigningKey::to_pkcs8_der_v1`]
//! writes v1.

use der::Decode;
use der::asn1::{AnyRef, OctetStringRef};
use pkcs8::{KeyError, ObjectIdentifier, PrivateKeyInfoRef};
use spki::{AlgorithmIdentifier, SignatureAlgorithmIdentifier, SubjectPublicKeyInfoRef};

use crate::{SigningKey, VerifyingKey};

/// id-Ed25519 (RFC 8410).
pub const ALGORITHM_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.112");
const ALGORITHM_ID: AlgorithmIdentifier<AnyRef<'static>> = AlgorithmIdentifier {
    oid: ALGORITHM_OID,
    parameters: None,
};

fn check_alg(alg: &AlgorithmIdentifier<AnyRef<'_>>) -> spki::Result<()> {
    alg.assert_algorithm_oid(ALGORITHM_OID)?;
    if alg.parameters.is_some() {
        return Err(spki::Error::KeyMalformed);
    }
    Ok(())
}

impl TryFrom<PrivateKeyInfoRef<'_>> for SigningKey {
    type Error = pkcs8::Error;
    fn try_from(pki: PrivateKeyInfoRef<'_>) -> pkcs8::Result<Self> {
        check_alg(&pki.algorithm)?;
        let inner = <&OctetStringRef>::from_der(pki.private_key.as_bytes())?;
        let sk = SigningKey::from_slice(inner.as_bytes())
            .map_err(|_| pkcs8::Error::KeyMalformed(KeyError::Invalid))?;
        if let Some(pk) = pki.public_key
            && pk.as_bytes() != Some(&sk.verifying_key().to_bytes()[..])
        {
            return Err(pkcs8::Error::KeyMalformed(KeyError::Invalid));
        }
        Ok(sk)
    }
}

impl TryFrom<SubjectPublicKeyInfoRef<'_>> for VerifyingKey {
    type Error = spki::Error;
    fn try_from(spki: SubjectPublicKeyInfoRef<'_>) -> spki::Result<Self> {
        check_alg(&spki.algorithm)?;
        let bytes = spki
            .subject_public_key
            .as_bytes()
            .ok_or(spki::Error::KeyMalformed)?;
        let bytes = <&[u8; 32]>::try_from(bytes).map_err(|_| spki::Error::KeyMalformed)?;
        VerifyingKey::from_bytes(bytes).map_err(|_| spki::Error::KeyMalformed)
    }
}

impl SignatureAlgorithmIdentifier for SigningKey {
    type Params = AnyRef<'static>;
    const SIGNATURE_ALGORITHM_IDENTIFIER: AlgorithmIdentifier<AnyRef<'static>> = ALGORITHM_ID;
}

impl SignatureAlgorithmIdentifier for VerifyingKey {
    type Params = AnyRef<'static>;
    const SIGNATURE_ALGORITHM_IDENTIFIER: AlgorithmIdentifier<AnyRef<'static>> = ALGORITHM_ID;
}

#[cfg(feature = "alloc")]
mod encode {
    use super::*;
    use der::Encode;
    use der::asn1::BitStringRef;
    use pkcs8::{EncodePrivateKey, SecretDocument};
    use spki::{Document, EncodePublicKey, SignatureBitStringEncoding, SubjectPublicKeyInfo};
    use zeroize::Zeroizing;

    impl SigningKey {
        fn pkcs8(&self, v2: bool) -> pkcs8::Result<SecretDocument> {
            let secret = Zeroizing::new(self.to_bytes());
            let inner = Zeroizing::new(OctetStringRef::new(&secret[..])?.to_der()?);
            let mut pki = PrivateKeyInfoRef::new(ALGORITHM_ID, OctetStringRef::new(&inner)?);
            let pk = self.verifying_key().to_bytes();
            if v2 {
                pki.public_key = Some(BitStringRef::new(0, &pk)?);
            }
            Ok(SecretDocument::encode_msg(&pki)?)
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
            let bytes = self.to_bytes();
            let spki = SubjectPublicKeyInfo {
                algorithm: ALGORITHM_ID,
                subject_public_key: BitStringRef::new(0, &bytes)?,
            };
            Ok(Document::encode_msg(&spki)?)
        }
    }

    impl SignatureBitStringEncoding for crate::Signature {
        fn to_bitstring(&self) -> der::Result<der::asn1::BitString> {
            der::asn1::BitString::new(0, self.to_bytes().to_vec())
        }
    }
}
