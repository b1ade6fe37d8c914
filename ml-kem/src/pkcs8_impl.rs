//! PKCS#8 (RFC 5958, private key CHOICE of RFC 9935) and SPKI (RFC 5280)
//! for ML-KEM; OIDs 2.16.840.1.101.3.4.4.1/2/3, parameters absent.
//!
//! Import accepts all three CHOICE arms (`seed`, `expandedKey` — validated
//! by the FIPS 203 §7.3 hash check — and `both`, whose seed must regenerate
//! exactly the expanded key) and checks an embedded public key; export
//! writes the seed form by default ([`KeyFormat`] selects another).

use der::asn1::{AnyRef, OctetStringRef};
use pkcs8::{AssociatedOid, KeyError, ObjectIdentifier, PrivateKeyInfoRef};
pub use pqkit_common::keychoice::KeyFormat;
use pqkit_common::keychoice::{self, KeyChoice};
use spki::{AlgorithmIdentifier, AssociatedAlgorithmIdentifier, SubjectPublicKeyInfoRef};

use crate::{DecapsulationKey, EncapsulationKey, MlKem512, MlKem768, MlKem1024, ParameterSet};

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
    MlKem512 => "2.16.840.1.101.3.4.4.1",
    MlKem768 => "2.16.840.1.101.3.4.4.2",
    MlKem1024 => "2.16.840.1.101.3.4.4.3"
);

/// The parameter sets with their OIDs (a bound for the generic impls).
pub trait ParameterSetOid:
    ParameterSet + AssociatedOid + AssociatedAlgorithmIdentifier<Params = AnyRef<'static>>
{
}
impl<P> ParameterSetOid for P where
    P: ParameterSet + AssociatedOid + AssociatedAlgorithmIdentifier<Params = AnyRef<'static>>
{
}

fn check_alg<P: ParameterSetOid>(alg: &AlgorithmIdentifier<AnyRef<'_>>) -> spki::Result<()> {
    alg.assert_algorithm_oid(P::OID)?;
    if alg.parameters.is_some() {
        return Err(spki::Error::KeyMalformed);
    }
    Ok(())
}

impl<P: ParameterSetOid> TryFrom<PrivateKeyInfoRef<'_>> for DecapsulationKey<P> {
    type Error = pkcs8::Error;
    fn try_from(pki: PrivateKeyInfoRef<'_>) -> pkcs8::Result<Self> {
        check_alg::<P>(&pki.algorithm)?;
        let bad = |_| pkcs8::Error::KeyMalformed(KeyError::Invalid);
        let dk = match keychoice::decode(pki.private_key.as_bytes())? {
            KeyChoice::Seed(seed) => Self::from_seed_slice(seed).map_err(bad)?,
            KeyChoice::Expanded(expanded) => Self::from_expanded(expanded).map_err(bad)?,
            KeyChoice::Both { seed, expanded } => {
                Self::from_seed_and_expanded(seed, expanded).map_err(bad)?
            }
        };
        if let Some(pk) = pki.public_key
            && pk.as_bytes() != Some(dk.encapsulation_key().as_bytes())
        {
            return Err(pkcs8::Error::KeyMalformed(KeyError::Invalid));
        }
        Ok(dk)
    }
}

impl<P: ParameterSetOid> TryFrom<SubjectPublicKeyInfoRef<'_>> for EncapsulationKey<P> {
    type Error = spki::Error;
    fn try_from(spki: SubjectPublicKeyInfoRef<'_>) -> spki::Result<Self> {
        check_alg::<P>(&spki.algorithm)?;
        let bytes = spki
            .subject_public_key
            .as_bytes()
            .ok_or(spki::Error::KeyMalformed)?;
        EncapsulationKey::from_bytes(bytes).map_err(|_| spki::Error::KeyMalformed)
    }
}

#[cfg(feature = "alloc")]
mod encode {
    use super::*;
    use der::asn1::BitStringRef;
    use pkcs8::{EncodePrivateKey, SecretDocument};
    use spki::{Document, EncodePublicKey, SubjectPublicKeyInfo};

    impl<P: ParameterSetOid> DecapsulationKey<P> {
        /// PKCS#8 DER in the chosen form; `Seed` and `Both` need a key made
        /// from a seed ([`crate::Error::NoSeed`] as a `pkcs8` error otherwise).
        pub fn to_pkcs8_der_with(&self, format: KeyFormat) -> pkcs8::Result<SecretDocument> {
            let seed = self.to_seed();
            let expanded = self.expanded_bytes();
            let choice = match (format, seed.as_ref()) {
                (KeyFormat::Seed, Some(s)) => KeyChoice::Seed(s),
                (KeyFormat::Expanded, _) => KeyChoice::Expanded(expanded),
                (KeyFormat::Both, Some(s)) => KeyChoice::Both { seed: s, expanded },
                (_, None) => return Err(pkcs8::Error::KeyMalformed(KeyError::Invalid)),
            };
            let der = keychoice::encode(choice);
            let pki = PrivateKeyInfoRef::new(P::ALGORITHM_IDENTIFIER, OctetStringRef::new(&der)?);
            Ok(SecretDocument::encode_msg(&pki)?)
        }

        /// PKCS#8 PEM (`PRIVATE KEY`) in the chosen form.
        #[cfg(feature = "pem")]
        pub fn to_pkcs8_pem_with(
            &self,
            format: KeyFormat,
            line_ending: pkcs8::LineEnding,
        ) -> pkcs8::Result<zeroize::Zeroizing<alloc::string::String>> {
            Ok(self
                .to_pkcs8_der_with(format)?
                .to_pem("PRIVATE KEY", line_ending)?)
        }
    }

    impl<P: ParameterSetOid> EncodePrivateKey for DecapsulationKey<P> {
        /// The seed form when the key has a seed, else the expanded form.
        fn to_pkcs8_der(&self) -> pkcs8::Result<SecretDocument> {
            let format = if self.to_seed().is_some() {
                KeyFormat::Seed
            } else {
                KeyFormat::Expanded
            };
            self.to_pkcs8_der_with(format)
        }
    }

    impl<P: ParameterSetOid> EncodePublicKey for EncapsulationKey<P> {
        fn to_public_key_der(&self) -> spki::Result<Document> {
            let spki = SubjectPublicKeyInfo {
                algorithm: P::ALGORITHM_IDENTIFIER,
                subject_public_key: BitStringRef::new(0, self.as_bytes())?,
            };
            Ok(Document::encode_msg(&spki)?)
        }
    }
}
