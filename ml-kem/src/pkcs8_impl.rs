//! PKCS#8 (RFC 5958, private key CHOICE of RFC 9935) and SPKI (RFC 5280)
//! for ML-KEM; OIDs 2.16.840.1.101.3.4.4.1/2/3, parameters absent.
//!
//! Import accepts all three CHOICE arms (`seed`, `expandedKey` — validated
//! by the FIPS 203 §7.3 hash check — and `both`, whose seed must regenerate
//! exactly the expanded key) and checks an embedded public key; export
//! writes the seed form by default ([`KeyFormat`] selects another). The
//! plumbing is `pqkit_common::pkix`, shared with the other pqkit crates.

use pkcs8::PrivateKeyInfoRef;
pub use pqkit_common::keychoice::KeyFormat;
use pqkit_common::pkix::{self, AlgorithmOid};
use spki::SubjectPublicKeyInfoRef;

use crate::{
    DecapsulationKey, EncapsulationKey, Error, MlKem512, MlKem768, MlKem1024, ParameterSet,
};

pqkit_common::impl_algorithm_oids!(
    MlKem512 => "2.16.840.1.101.3.4.4.1",
    MlKem768 => "2.16.840.1.101.3.4.4.2",
    MlKem1024 => "2.16.840.1.101.3.4.4.3",
);

/// The parameter sets with their OIDs (a bound for the generic impls).
pub trait ParameterSetOid: ParameterSet + AlgorithmOid {}
impl<P: ParameterSet + AlgorithmOid> ParameterSetOid for P {}

pqkit_common::impl_choice_key!(DecapsulationKey<P: ParameterSet>, error = Error, seed = seed_ref, public = encapsulation_key);

impl<P: ParameterSetOid> TryFrom<PrivateKeyInfoRef<'_>> for DecapsulationKey<P> {
    type Error = pkcs8::Error;
    fn try_from(pki: PrivateKeyInfoRef<'_>) -> pkcs8::Result<Self> {
        pkix::from_pkcs8(&pki, P::OID)
    }
}

impl<P: ParameterSetOid> TryFrom<SubjectPublicKeyInfoRef<'_>> for EncapsulationKey<P> {
    type Error = spki::Error;
    fn try_from(spki: SubjectPublicKeyInfoRef<'_>) -> spki::Result<Self> {
        let bytes = pkix::public_key_bytes(&spki, P::OID)?;
        EncapsulationKey::from_bytes(bytes).map_err(|_| spki::Error::KeyMalformed)
    }
}

#[cfg(feature = "alloc")]
mod encode {
    use super::*;
    use pkcs8::{EncodePrivateKey, SecretDocument};
    use spki::{Document, EncodePublicKey};

    impl<P: ParameterSetOid> DecapsulationKey<P> {
        /// PKCS#8 DER in the chosen form; `Seed` and `Both` need a key made
        /// from a seed (an invalid-key `pkcs8` error otherwise).
        pub fn to_pkcs8_der_with(&self, format: KeyFormat) -> pkcs8::Result<SecretDocument> {
            pkix::to_pkcs8_der(self, P::OID, Some(format))
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
            pkix::to_pkcs8_der(self, P::OID, None)
        }
    }

    impl<P: ParameterSetOid> EncodePublicKey for EncapsulationKey<P> {
        fn to_public_key_der(&self) -> spki::Result<Document> {
            pkix::spki_der(P::OID, self.as_bytes())
        }
    }
}
