//! PKCS#8 (RFC 5958 / RFC 9881) and SPKI (RFC 5280) encodings.
//!
//! The private key is the RFC 9881 CHOICE
//! `seed [0] IMPLICIT OCTET STRING (32) | expandedKey OCTET STRING |
//! both SEQUENCE { seed, expandedKey }`. All three are accepted on import
//! (for `both`, the expanded key must equal the one regenerated from the
//! seed); export writes the seed form by default ([`KeyFormat`] selects
//! another). AlgorithmIdentifier parameters must be absent.

use der::asn1::{AnyRef, OctetStringRef};
use pkcs8::{AssociatedOid, KeyError, ObjectIdentifier, PrivateKeyInfoRef};
use spki::{
    AlgorithmIdentifier, AssociatedAlgorithmIdentifier, SignatureAlgorithmIdentifier,
    SubjectPublicKeyInfoRef,
};

use crate::{
    ContextSigningKey, MlDsa44, MlDsa65, MlDsa87, ParameterSet, Signature, SigningKey, VerifyingKey,
};

macro_rules! oids {
    ($($t:ty => $oid:literal),*) => {$(
        impl AssociatedOid for $t {
            const OID: ObjectIdentifier = ObjectIdentifier::new_unwrap($oid);
        }
        impl AssociatedAlgorithmIdentifier for $t {
            type Params = AnyRef<'static>;
            const ALGORITHM_IDENTIFIER: AlgorithmIdentifier<AnyRef<'static>> =
                AlgorithmIdentifier { oid: <$t as AssociatedOid>::OID, parameters: None };
        }
    )*};
}
oids!(
    MlDsa44 => "2.16.840.1.101.3.4.3.17",
    MlDsa65 => "2.16.840.1.101.3.4.3.18",
    MlDsa87 => "2.16.840.1.101.3.4.3.19"
);

/// The parameter sets with their OIDs (a helper bound for the generic
/// PKCS#8/SPKI impls; implemented by all three sets).
pub trait ParameterSetOid:
    ParameterSet + AssociatedOid + AssociatedAlgorithmIdentifier<Params = AnyRef<'static>>
{
}
impl<P> ParameterSetOid for P where
    P: ParameterSet + AssociatedOid + AssociatedAlgorithmIdentifier<Params = AnyRef<'static>>
{
}

pub use pqkit_common::keychoice::KeyFormat;
use pqkit_common::keychoice::{self, KeyChoice};

fn check_alg<P: ParameterSetOid>(alg: &AlgorithmIdentifier<AnyRef<'_>>) -> spki::Result<()> {
    alg.assert_algorithm_oid(P::OID)?;
    if alg.parameters.is_some() {
        return Err(spki::Error::KeyMalformed);
    }
    Ok(())
}

impl<P: ParameterSetOid> TryFrom<PrivateKeyInfoRef<'_>> for SigningKey<P> {
    type Error = pkcs8::Error;
    fn try_from(pki: PrivateKeyInfoRef<'_>) -> pkcs8::Result<Self> {
        check_alg::<P>(&pki.algorithm)?;
        let bad = || pkcs8::Error::KeyMalformed(KeyError::Invalid);
        let sk = match keychoice::decode(pki.private_key.as_bytes())? {
            KeyChoice::Seed(seed) => SigningKey::from_seed_slice(seed).map_err(|_| bad())?,
            KeyChoice::Expanded(expanded) => {
                SigningKey::from_expanded(expanded).map_err(|_| bad())?
            }
            KeyChoice::Both { seed, expanded } => {
                let sk = SigningKey::<P>::from_seed_slice(seed).map_err(|_| bad())?;
                // Consistency of the two halves (constant time anyway).
                let same = subtle::ConstantTimeEq::ct_eq(sk.expanded_bytes().as_ref(), expanded);
                if !bool::from(same) {
                    return Err(bad());
                }
                sk
            }
        };
        if let Some(pk) = pki.public_key
            && pk.as_bytes() != Some(sk.public_key().as_bytes())
        {
            return Err(pkcs8::Error::KeyMalformed(KeyError::Invalid));
        }
        Ok(sk)
    }
}

impl<P: ParameterSetOid> TryFrom<SubjectPublicKeyInfoRef<'_>> for VerifyingKey<P> {
    type Error = spki::Error;
    fn try_from(spki: SubjectPublicKeyInfoRef<'_>) -> spki::Result<Self> {
        check_alg::<P>(&spki.algorithm)?;
        let bytes = spki
            .subject_public_key
            .as_bytes()
            .ok_or(spki::Error::KeyMalformed)?;
        VerifyingKey::from_bytes(bytes).map_err(|_| spki::Error::KeyMalformed)
    }
}

impl<P: ParameterSetOid> SignatureAlgorithmIdentifier for SigningKey<P> {
    type Params = AnyRef<'static>;
    const SIGNATURE_ALGORITHM_IDENTIFIER: AlgorithmIdentifier<AnyRef<'static>> =
        P::ALGORITHM_IDENTIFIER;
}
impl<P: ParameterSetOid> SignatureAlgorithmIdentifier for ContextSigningKey<'_, P> {
    type Params = AnyRef<'static>;
    const SIGNATURE_ALGORITHM_IDENTIFIER: AlgorithmIdentifier<AnyRef<'static>> =
        P::ALGORITHM_IDENTIFIER;
}
impl<P: ParameterSetOid> SignatureAlgorithmIdentifier for VerifyingKey<P> {
    type Params = AnyRef<'static>;
    const SIGNATURE_ALGORITHM_IDENTIFIER: AlgorithmIdentifier<AnyRef<'static>> =
        P::ALGORITHM_IDENTIFIER;
}
impl<P: ParameterSetOid> AssociatedAlgorithmIdentifier for Signature<P> {
    type Params = AnyRef<'static>;
    const ALGORITHM_IDENTIFIER: AlgorithmIdentifier<AnyRef<'static>> = P::ALGORITHM_IDENTIFIER;
}

#[cfg(feature = "alloc")]
mod encode {
    use super::*;
    use der::asn1::BitStringRef;
    use pkcs8::{EncodePrivateKey, SecretDocument};
    use spki::{Document, EncodePublicKey, SignatureBitStringEncoding, SubjectPublicKeyInfo};
    use zeroize::Zeroizing;

    impl<P: ParameterSetOid> SigningKey<P> {
        /// PKCS#8 DER in the chosen RFC 9881 form. `Seed` and `Both` need a
        /// key made from a seed.
        pub fn to_pkcs8_der_with(&self, format: KeyFormat) -> pkcs8::Result<SecretDocument> {
            let expanded = self.expanded_bytes().as_ref();
            let choice = match (format, self.seed()) {
                (KeyFormat::Seed, Some(seed)) => KeyChoice::Seed(seed),
                (KeyFormat::Expanded, _) => KeyChoice::Expanded(expanded),
                (KeyFormat::Both, Some(seed)) => KeyChoice::Both { seed, expanded },
                (_, None) => return Err(pkcs8::Error::KeyMalformed(KeyError::Invalid)),
            };
            let choice = keychoice::encode(choice);
            let pki =
                PrivateKeyInfoRef::new(P::ALGORITHM_IDENTIFIER, OctetStringRef::new(&choice)?);
            Ok(SecretDocument::encode_msg(&pki)?)
        }

        /// PKCS#8 PEM (`PRIVATE KEY`) in the chosen RFC 9881 form.
        #[cfg(feature = "pem")]
        pub fn to_pkcs8_pem_with(
            &self,
            format: KeyFormat,
            line_ending: pkcs8::LineEnding,
        ) -> pkcs8::Result<Zeroizing<alloc::string::String>> {
            Ok(self
                .to_pkcs8_der_with(format)?
                .to_pem("PRIVATE KEY", line_ending)?)
        }
    }

    impl<P: ParameterSetOid> EncodePrivateKey for SigningKey<P> {
        /// The seed form when the key has a seed, else the expanded form.
        fn to_pkcs8_der(&self) -> pkcs8::Result<SecretDocument> {
            let format = if self.seed().is_some() {
                KeyFormat::Seed
            } else {
                KeyFormat::Expanded
            };
            self.to_pkcs8_der_with(format)
        }
    }

    impl<P: ParameterSetOid> EncodePublicKey for VerifyingKey<P> {
        fn to_public_key_der(&self) -> spki::Result<Document> {
            let spki = SubjectPublicKeyInfo {
                algorithm: P::ALGORITHM_IDENTIFIER,
                subject_public_key: BitStringRef::new(0, self.as_bytes())?,
            };
            Ok(Document::encode_msg(&spki)?)
        }
    }

    impl<P: ParameterSetOid> SignatureBitStringEncoding for Signature<P> {
        fn to_bitstring(&self) -> der::Result<der::asn1::BitString> {
            der::asn1::BitString::new(0, self.as_bytes().to_vec())
        }
    }
}
