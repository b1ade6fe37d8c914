//! PKCS#8 and SPKI for X-Wing, OID 1.3.6.1.4.1.62253.25722
//! (draft-connolly-cfrg-xwing-kem), with no inner ASN.1: the SPKI
//! `subjectPublicKey` is the 1216-byte encapsulation key and the PKCS#8
//! `privateKey` OCTET STRING holds the 32-byte seed itself. A v2 key's
//! `[1]` public key must be the one the seed gives. The plumbing is
//! `pqkit_pkix`.

use pkcs8::{ObjectIdentifier, PrivateKeyInfoRef};
use pqkit_pkix as pkix;
use spki::SubjectPublicKeyInfoRef;

use crate::xwing::{DecapsulationKey, EncapsulationKey, KeyExport};

/// id-XWing.
pub const ALGORITHM_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.6.1.4.1.62253.25722");

pqkit_pkix::impl_algorithm_oids!(
    DecapsulationKey => "1.3.6.1.4.1.62253.25722",
    EncapsulationKey => "1.3.6.1.4.1.62253.25722",
);

impl TryFrom<PrivateKeyInfoRef<'_>> for DecapsulationKey {
    type Error = pkcs8::Error;

    fn try_from(pki: PrivateKeyInfoRef<'_>) -> pkcs8::Result<Self> {
        let seed = pkix::private_key_bytes(&pki, ALGORITHM_OID)?;
        let dk = DecapsulationKey::from_seed_slice(seed).map_err(|_| pkix::invalid_key())?;
        pkix::check_public_key(&pki, &dk.encapsulation_key_bytes())?;
        Ok(dk)
    }
}

impl TryFrom<SubjectPublicKeyInfoRef<'_>> for EncapsulationKey {
    type Error = spki::Error;

    fn try_from(spki: SubjectPublicKeyInfoRef<'_>) -> spki::Result<Self> {
        let bytes = pkix::public_key_bytes(&spki, ALGORITHM_OID)?;
        EncapsulationKey::from_bytes(bytes).map_err(|_| spki::Error::KeyMalformed)
    }
}

impl DecapsulationKey {
    /// The encapsulation key's 1216 bytes.
    fn encapsulation_key_bytes(&self) -> crate::xwing::Key<EncapsulationKey> {
        use crate::xwing::Decapsulator;
        self.encapsulation_key().to_bytes()
    }
}

#[cfg(feature = "alloc")]
mod encode {
    use super::*;
    use pkcs8::{EncodePrivateKey, SecretDocument};
    use spki::{Document, EncodePublicKey};

    impl DecapsulationKey {
        /// PKCS#8 v2 (`OneAsymmetricKey` with the `[1]` public key).
        ///
        /// ```
        /// use pqkit_hybrid::xwing::DecapsulationKey;
        /// use pqkit_hybrid::pkcs8::DecodePrivateKey;
        ///
        /// let dk = DecapsulationKey::from([5; 32]);
        /// let der = dk.to_pkcs8_der_v2()?;
        /// assert_eq!(DecapsulationKey::from_pkcs8_der(der.as_bytes())?.as_bytes(), &[5; 32]);
        /// # Ok::<(), pqkit_hybrid::pkcs8::Error>(())
        /// ```
        pub fn to_pkcs8_der_v2(&self) -> pkcs8::Result<SecretDocument> {
            pkix::pkcs8_der(
                ALGORITHM_OID,
                self.as_bytes(),
                Some(&self.encapsulation_key_bytes()),
            )
        }
    }

    impl EncodePrivateKey for DecapsulationKey {
        /// PKCS#8 v1: the seed alone.
        fn to_pkcs8_der(&self) -> pkcs8::Result<SecretDocument> {
            pkix::pkcs8_der(ALGORITHM_OID, self.as_bytes(), None)
        }
    }

    impl EncodePublicKey for EncapsulationKey {
        fn to_public_key_der(&self) -> spki::Result<Document> {
            pkix::spki_der(ALGORITHM_OID, &self.to_bytes())
        }
    }
}
