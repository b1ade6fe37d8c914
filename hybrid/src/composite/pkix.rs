//! SPKI, PKCS#8 and X.509 for the composites (the draft's §6): the
//! combination's OID with absent parameters; the `subjectPublicKey` BIT
//! STRING, the PKCS#8 `privateKey` OCTET STRING and the `signatureValue`
//! BIT STRING hold the raw serializations with no further ASN.1. A PKCS#8
//! v2 key's `[1] publicKey` must be the composite public key of its
//! private key. The plumbing is `pqkit_pkix`.

use pkcs8::PrivateKeyInfoRef;
use pqkit_pkix::{self as pkix, AnyRef, AssociatedOid};
use spki::{AlgorithmIdentifier, SignatureAlgorithmIdentifier};

use super::{
    CompositeParams, ContextSigningKey, SignableParams, Signature, SigningKey, VerifyingKey,
};

impl<C: SignableParams> TryFrom<PrivateKeyInfoRef<'_>> for SigningKey<C> {
    type Error = pkcs8::Error;

    fn try_from(info: PrivateKeyInfoRef<'_>) -> pkcs8::Result<Self> {
        let bytes = pkix::private_key_bytes(&info, C::OID)?;
        let sk = SigningKey::from_bytes(bytes).map_err(|_| pkix::invalid_key())?;
        pkix::check_public_key(&info, sk.vk.as_bytes())?;
        Ok(sk)
    }
}

pqkit_pkix::impl_public_key!(impl<C: CompositeParams> VerifyingKey<C>, oid = C::OID);

impl<C: SignableParams> SignatureAlgorithmIdentifier for SigningKey<C> {
    type Params = AnyRef<'static>;
    const SIGNATURE_ALGORITHM_IDENTIFIER: AlgorithmIdentifier<AnyRef<'static>> =
        pkix::algorithm_id(<C as AssociatedOid>::OID);
}

impl<C: SignableParams> SignatureAlgorithmIdentifier for ContextSigningKey<'_, C> {
    type Params = AnyRef<'static>;
    const SIGNATURE_ALGORITHM_IDENTIFIER: AlgorithmIdentifier<AnyRef<'static>> =
        pkix::algorithm_id(<C as AssociatedOid>::OID);
}

impl<C: CompositeParams> SignatureAlgorithmIdentifier for VerifyingKey<C> {
    type Params = AnyRef<'static>;
    const SIGNATURE_ALGORITHM_IDENTIFIER: AlgorithmIdentifier<AnyRef<'static>> =
        pkix::algorithm_id(<C as AssociatedOid>::OID);
}

impl<C: CompositeParams> spki::AssociatedAlgorithmIdentifier for Signature<C> {
    type Params = AnyRef<'static>;
    const ALGORITHM_IDENTIFIER: AlgorithmIdentifier<AnyRef<'static>> =
        pkix::algorithm_id(<C as AssociatedOid>::OID);
}

impl<C: CompositeParams> spki::SignatureBitStringEncoding for Signature<C> {
    fn to_bitstring(&self) -> der::Result<der::asn1::BitString> {
        pkix::signature_bit_string(self.as_bytes())
    }
}

mod encode {
    use super::*;
    use pkcs8::{EncodePrivateKey, SecretDocument};

    impl<C: SignableParams> SigningKey<C> {
        /// PKCS#8 v2 (`OneAsymmetricKey` with the `[1]` composite public
        /// key); `to_pkcs8_der` writes v1, as the draft's vectors are.
        pub fn to_pkcs8_der_v2(&self) -> pkcs8::Result<SecretDocument> {
            pkix::pkcs8_der(C::OID, &self.to_bytes(), Some(self.vk.as_bytes()))
        }
    }

    impl<C: SignableParams> EncodePrivateKey for SigningKey<C> {
        /// PKCS#8 v1: the composite private key in `privateKey`.
        fn to_pkcs8_der(&self) -> pkcs8::Result<SecretDocument> {
            pkix::pkcs8_der(C::OID, &self.to_bytes(), None)
        }
    }
}
