//! PKCS#8 and SPKI with the **provisional** OQS OIDs 1.3.9999.3.11
//! (Falcon-512) and 1.3.9999.3.14 (Falcon-1024); FIPS 206 OIDs are not
//! assigned yet. AlgorithmIdentifier parameters must be absent.
//!
//! The PKCS#8 private key is the encoded signing key; decoding also accepts
//! the liboqs/oqs-provider layout (an inner OCTET STRING with the signing
//! key followed by the matching verifying key). The plumbing is
//! `pqkit_pkix`, shared with the other pqkit crates.

use pkcs8::der::AnyRef;
use pkcs8::spki;
use pqkit_pkix::{self as common, AlgorithmId};

use crate::{ParameterSet, Signature, VerifyingKey};

impl<P: ParameterSet> spki::SignatureAlgorithmIdentifier for VerifyingKey<P> {
    type Params = AnyRef<'static>;
    const SIGNATURE_ALGORITHM_IDENTIFIER: AlgorithmId = common::algorithm_id(P::OID);
}

impl<P: ParameterSet> spki::AssociatedAlgorithmIdentifier for Signature<P> {
    type Params = AnyRef<'static>;
    const ALGORITHM_IDENTIFIER: AlgorithmId = common::algorithm_id(P::OID);
}

pqkit_pkix::impl_public_key!(impl<P: ParameterSet> VerifyingKey<P>, oid = P::OID);

#[cfg(feature = "alloc")]
impl<P: ParameterSet> spki::SignatureBitStringEncoding for Signature<P> {
    fn to_bitstring(&self) -> pkcs8::der::Result<pkcs8::der::asn1::BitString> {
        common::signature_bit_string(self.as_bytes())
    }
}

#[cfg(feature = "alloc")]
mod signing {
    use super::*;
    use crate::SigningKey;

    impl<P: ParameterSet> spki::SignatureAlgorithmIdentifier for SigningKey<P> {
        type Params = AnyRef<'static>;
        const SIGNATURE_ALGORITHM_IDENTIFIER: AlgorithmId = common::algorithm_id(P::OID);
    }

    impl<P: ParameterSet> TryFrom<pkcs8::PrivateKeyInfoRef<'_>> for SigningKey<P> {
        type Error = pkcs8::Error;
        fn try_from(info: pkcs8::PrivateKeyInfoRef<'_>) -> pkcs8::Result<Self> {
            let raw = common::private_key_bytes(&info, P::OID)?;
            let sk = if raw.first() == Some(&0x04) {
                // liboqs / oqs-provider layout: an inner OCTET STRING
                // holding the signing key then the verifying key, which
                // must match.
                use pkcs8::der::Decode;
                let inner = <&pkcs8::der::asn1::OctetStringRef>::from_der(raw)?.as_bytes();
                if inner.len() != P::SIGNING_KEY_SIZE + P::VERIFYING_KEY_SIZE {
                    return Err(common::invalid_key());
                }
                let (skb, pkb) = inner.split_at(P::SIGNING_KEY_SIZE);
                let sk = Self::from_bytes(skb).map_err(|_| common::invalid_key())?;
                if pkb != sk.vk.as_bytes() {
                    return Err(common::invalid_key());
                }
                sk
            } else {
                Self::from_bytes(raw).map_err(|_| common::invalid_key())?
            };
            // v2 (OneAsymmetricKey): the public key must match.
            common::check_public_key(&info, sk.vk.as_bytes())?;
            Ok(sk)
        }
    }

    impl<P: ParameterSet> pkcs8::EncodePrivateKey for SigningKey<P> {
        fn to_pkcs8_der(&self) -> pkcs8::Result<pkcs8::SecretDocument> {
            common::pkcs8_der(P::OID, self.to_bytes().as_ref(), None)
        }
    }
}
