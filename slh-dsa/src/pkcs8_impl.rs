//! PKCS#8 (RFC 5958) and SPKI (RFC 5280) encodings with the RFC 9909
//! OIDs `id-slh-dsa-*` (2.16.840.1.101.3.4.3.20 to .31). The PKCS#8
//! `privateKey` OCTET STRING holds the `4 n`-byte private key as it is,
//! the SPKI `subjectPublicKey` the `2 n`-byte public key, both as in
//! RustCrypto `slh-dsa`. AlgorithmIdentifier parameters must be absent.
//! The plumbing is `pqkit_pkix`, shared with the other pqkit crates.

use der::asn1::AnyRef;
use pqkit_pkix::AlgorithmOid;
use spki::{AlgorithmIdentifier, AssociatedAlgorithmIdentifier, SignatureAlgorithmIdentifier};

use crate::params::*;
use crate::{ContextSigningKey, ParameterSet, Signature, SigningKey, VerifyingKey};

pqkit_pkix::impl_algorithm_oids!(
    Sha2_128s => "2.16.840.1.101.3.4.3.20",
    Sha2_128f => "2.16.840.1.101.3.4.3.21",
    Sha2_192s => "2.16.840.1.101.3.4.3.22",
    Sha2_192f => "2.16.840.1.101.3.4.3.23",
    Sha2_256s => "2.16.840.1.101.3.4.3.24",
    Sha2_256f => "2.16.840.1.101.3.4.3.25",
    Shake128s => "2.16.840.1.101.3.4.3.26",
    Shake128f => "2.16.840.1.101.3.4.3.27",
    Shake192s => "2.16.840.1.101.3.4.3.28",
    Shake192f => "2.16.840.1.101.3.4.3.29",
    Shake256s => "2.16.840.1.101.3.4.3.30",
    Shake256f => "2.16.840.1.101.3.4.3.31",
);

/// The parameter sets with their OIDs (a helper bound for the generic
/// PKCS#8/SPKI impls; implemented by all twelve sets).
pub trait ParameterSetOid: ParameterSet + AlgorithmOid {}
impl<P: ParameterSet + AlgorithmOid> ParameterSetOid for P {}

pqkit_pkix::impl_public_key!(impl<P: ParameterSetOid> VerifyingKey<P>, oid = P::OID);

impl<P: ParameterSetOid> TryFrom<pkcs8::PrivateKeyInfoRef<'_>> for SigningKey<P> {
    type Error = pkcs8::Error;
    /// The raw private key; `PK.root` must match the seeds, and a
    /// OneAsymmetricKey's public key must match the key.
    fn try_from(info: pkcs8::PrivateKeyInfoRef<'_>) -> pkcs8::Result<Self> {
        let raw = pqkit_pkix::private_key_bytes(&info, P::OID)?;
        let sk = Self::from_bytes(raw).map_err(|_| pqkit_pkix::invalid_key())?;
        pqkit_pkix::check_public_key(&info, sk.verifying_key().as_bytes())?;
        Ok(sk)
    }
}

#[cfg(feature = "alloc")]
impl<P: ParameterSetOid> pkcs8::EncodePrivateKey for SigningKey<P> {
    fn to_pkcs8_der(&self) -> pkcs8::Result<pkcs8::SecretDocument> {
        pqkit_pkix::pkcs8_der(P::OID, self.as_bytes(), None)
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
impl<P: ParameterSetOid> spki::SignatureBitStringEncoding for Signature<P> {
    fn to_bitstring(&self) -> der::Result<der::asn1::BitString> {
        pqkit_pkix::signature_bit_string(self.as_bytes())
    }
}
