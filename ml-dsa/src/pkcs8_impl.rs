//! PKCS#8 (RFC 5958 / RFC 9881) and SPKI (RFC 5280) encodings.
//!
//! The private key is the RFC 9881 CHOICE
//! `seed [0] IMPLICIT OCTET STRING (32) | expandedKey OCTET STRING |
//! both SEQUENCE { seed, expandedKey }`. All three are accepted on import
//! (for `both`, the expanded key must equal the one regenerated from the
//! seed); export writes the seed form by default ([`KeyFormat`] selects
//! another). AlgorithmIdentifier parameters must be absent. The plumbing
//! is `pqkit_common::pkix`, shared with the other pqkit crates.

use der::asn1::AnyRef;
use pkcs8::PrivateKeyInfoRef;
pub use pqkit_common::keychoice::KeyFormat;
use pqkit_common::pkix::{self, AlgorithmOid};
use spki::{
    AlgorithmIdentifier, AssociatedAlgorithmIdentifier, SignatureAlgorithmIdentifier,
    SubjectPublicKeyInfoRef,
};

use crate::{
    ContextSigningKey, Error, MlDsa44, MlDsa65, MlDsa87, ParameterSet, Signature, SigningKey,
    VerifyingKey,
};

pqkit_common::impl_algorithm_oids!(
    MlDsa44 => "2.16.840.1.101.3.4.3.17",
    MlDsa65 => "2.16.840.1.101.3.4.3.18",
    MlDsa87 => "2.16.840.1.101.3.4.3.19",
);

/// The parameter sets with their OIDs (a helper bound for the generic
/// PKCS#8/SPKI impls; implemented by all three sets).
pub trait ParameterSetOid: ParameterSet + AlgorithmOid {}
impl<P: ParameterSet + AlgorithmOid> ParameterSetOid for P {}

pqkit_common::impl_choice_key!(SigningKey<P: ParameterSet>, error = Error, seed = seed, public = public_key);

impl<P: ParameterSetOid> TryFrom<PrivateKeyInfoRef<'_>> for SigningKey<P> {
    type Error = pkcs8::Error;
    fn try_from(pki: PrivateKeyInfoRef<'_>) -> pkcs8::Result<Self> {
        pkix::from_pkcs8(&pki, P::OID)
    }
}

impl<P: ParameterSetOid> TryFrom<SubjectPublicKeyInfoRef<'_>> for VerifyingKey<P> {
    type Error = spki::Error;
    fn try_from(spki: SubjectPublicKeyInfoRef<'_>) -> spki::Result<Self> {
        let bytes = pkix::public_key_bytes(&spki, P::OID)?;
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
    use pkcs8::{EncodePrivateKey, SecretDocument};
    use spki::{Document, EncodePublicKey, SignatureBitStringEncoding};

    impl<P: ParameterSetOid> SigningKey<P> {
        /// PKCS#8 DER in the chosen RFC 9881 form. `Seed` and `Both` need a
        /// key made from a seed.
        pub fn to_pkcs8_der_with(&self, format: KeyFormat) -> pkcs8::Result<SecretDocument> {
            pkix::to_pkcs8_der(self, P::OID, Some(format))
        }

        /// PKCS#8 PEM (`PRIVATE KEY`) in the chosen RFC 9881 form.
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

    impl<P: ParameterSetOid> EncodePrivateKey for SigningKey<P> {
        /// The seed form when the key has a seed, else the expanded form.
        fn to_pkcs8_der(&self) -> pkcs8::Result<SecretDocument> {
            pkix::to_pkcs8_der(self, P::OID, None)
        }
    }

    impl<P: ParameterSetOid> EncodePublicKey for VerifyingKey<P> {
        fn to_public_key_der(&self) -> spki::Result<Document> {
            pkix::spki_der(P::OID, self.as_bytes())
        }
    }

    impl<P: ParameterSetOid> SignatureBitStringEncoding for Signature<P> {
        fn to_bitstring(&self) -> der::Result<der::asn1::BitString> {
            pkix::signature_bit_string(self.as_bytes())
        }
    }
}
