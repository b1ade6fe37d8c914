//! PKCS#8 (RFC 8410, v1 and v2) and SPKI for X25519, OID 1.3.101.110.
//!
//! `privateKey` is `OCTET STRING { OCTET STRING (32) }`, the secret's bytes
//! as stored (unclamped); a v2 key's `[1]` public key must match the
//! private key. Export writes v1, as OpenSSL does;
//! [`StaticSecret::to_pkcs8_der_v2`] adds the public key. Only
//! [`StaticSecret`] has an encoding (x25519-dalek's rule: ephemeral and
//! reusable secrets are never stored). The plumbing is `pqkit_pkix`.

use der::Decode;
use der::asn1::OctetStringRef;
use pkcs8::{ObjectIdentifier, PrivateKeyInfoRef};
use pqkit_pkix as pkix;
use spki::SubjectPublicKeyInfoRef;

use crate::{PublicKey, StaticSecret};

/// id-X25519 (RFC 8410).
pub const ALGORITHM_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.110");

pqkit_pkix::impl_algorithm_oids!(StaticSecret => "1.3.101.110", PublicKey => "1.3.101.110");

impl TryFrom<PrivateKeyInfoRef<'_>> for StaticSecret {
    type Error = pkcs8::Error;
    fn try_from(pki: PrivateKeyInfoRef<'_>) -> pkcs8::Result<Self> {
        let raw = pkix::private_key_bytes(&pki, ALGORITHM_OID)?;
        let inner = <&OctetStringRef>::from_der(raw)?;
        let sk = StaticSecret::from_slice(inner.as_bytes()).map_err(|_| pkix::invalid_key())?;
        pkix::check_public_key(&pki, &PublicKey::from(&sk).to_bytes())?;
        Ok(sk)
    }
}

impl TryFrom<SubjectPublicKeyInfoRef<'_>> for PublicKey {
    type Error = spki::Error;
    fn try_from(spki: SubjectPublicKeyInfoRef<'_>) -> spki::Result<Self> {
        let bytes = pkix::public_key_bytes(&spki, ALGORITHM_OID)?;
        PublicKey::from_slice(bytes).map_err(|_| spki::Error::KeyMalformed)
    }
}

#[cfg(feature = "alloc")]
mod encode {
    use super::*;
    use der::Encode;
    use pkcs8::{EncodePrivateKey, SecretDocument};
    use spki::{Document, EncodePublicKey};
    use zeroize::Zeroizing;

    impl StaticSecret {
        fn pkcs8(&self, v2: bool) -> pkcs8::Result<SecretDocument> {
            let inner = Zeroizing::new(OctetStringRef::new(&self.0[..])?.to_der()?);
            let pk = PublicKey::from(self).to_bytes();
            pkix::pkcs8_der(ALGORITHM_OID, &inner, v2.then_some(&pk[..]))
        }

        /// PKCS#8 v2 (`OneAsymmetricKey` with the `[1]` public key).
        ///
        /// ```
        /// use pqkit_x25519::StaticSecret;
        /// use pqkit_x25519::pkcs8::DecodePrivateKey;
        ///
        /// let secret = StaticSecret::from([5; 32]);
        /// let der = secret.to_pkcs8_der_v2()?;
        /// assert_eq!(StaticSecret::from_pkcs8_der(der.as_bytes())?.to_bytes(), [5; 32]);
        /// # Ok::<(), pqkit_x25519::pkcs8::Error>(())
        /// ```
        pub fn to_pkcs8_der_v2(&self) -> pkcs8::Result<SecretDocument> {
            self.pkcs8(true)
        }
    }

    impl EncodePrivateKey for StaticSecret {
        /// PKCS#8 v1 (RFC 8410 §7, without the public key).
        fn to_pkcs8_der(&self) -> pkcs8::Result<SecretDocument> {
            self.pkcs8(false)
        }
    }

    impl EncodePublicKey for PublicKey {
        fn to_public_key_der(&self) -> spki::Result<Document> {
            pkix::spki_der(ALGORITHM_OID, &self.0)
        }
    }
}
