//! PKCS#8 (RFC 5958 / RFC 9881) and SPKI (RFC 5280) encodings.
//!
//! The private key is the RFC 9881 CHOICE
//! `seed [0] IMPLICIT OCTET STRING (32) | expandedKey OCTET STRING |
//! both SEQUENCE { seed, expandedKey }`. All three are accepted on import
//! (for `both`, the expanded key must equal the one regenerated from the
//! seed); export writes the seed form by default ([`KeyFormat`] selects
//! another). AlgorithmIdentifier parameters must be absent.

use der::asn1::{AnyRef, OctetStringRef};
use der::{Decode, Reader, SliceReader, Tag, TagNumber, Tagged};
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

/// Which RFC 9881 private-key form to export.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KeyFormat {
    /// `seed [0]`: the 32-byte seed (default; needs a key made from a seed).
    #[default]
    Seed,
    /// `expandedKey`: the FIPS 204 `skEncode` bytes.
    Expanded,
    /// `both`: seed and expanded key.
    Both,
}

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
        let any = AnyRef::from_der(pki.private_key.as_bytes())?;
        let sk = match any.tag() {
            Tag::ContextSpecific {
                constructed: false,
                number: TagNumber(0),
            } => SigningKey::from_seed_slice(any.value()).map_err(|_| bad())?,
            Tag::OctetString => SigningKey::from_expanded(any.value()).map_err(|_| bad())?,
            Tag::Sequence => {
                let mut r = SliceReader::new(any.value())?;
                let seed = <&OctetStringRef>::decode(&mut r)?;
                let expanded = <&OctetStringRef>::decode(&mut r)?;
                r.finish()?;
                let sk = SigningKey::<P>::from_seed_slice(seed.as_bytes()).map_err(|_| bad())?;
                // Consistency of the two halves (public data comparison of
                // a re-derivation; constant time anyway).
                let same = subtle::ConstantTimeEq::ct_eq(
                    sk.expanded_bytes().as_ref(),
                    expanded.as_bytes(),
                );
                if !bool::from(same) {
                    return Err(bad());
                }
                sk
            }
            _ => return Err(bad()),
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
    use alloc::vec::Vec;
    use der::asn1::BitStringRef;
    use pkcs8::{EncodePrivateKey, SecretDocument};
    use spki::{Document, EncodePublicKey, SignatureBitStringEncoding, SubjectPublicKeyInfo};
    use zeroize::Zeroizing;

    fn push_len(out: &mut Vec<u8>, len: usize) {
        if len < 0x80 {
            out.push(len as u8);
        } else if len < 0x100 {
            out.extend_from_slice(&[0x81, len as u8]);
        } else {
            out.extend_from_slice(&[0x82, (len >> 8) as u8, len as u8]);
        }
    }

    fn tlv(out: &mut Vec<u8>, tag: u8, value: &[u8]) {
        out.push(tag);
        push_len(out, value.len());
        out.extend_from_slice(value);
    }

    impl<P: ParameterSetOid> SigningKey<P> {
        /// The RFC 9881 `privateKey` CHOICE in the requested form.
        fn private_key_choice(&self, format: KeyFormat) -> pkcs8::Result<Zeroizing<Vec<u8>>> {
            let mut out = Zeroizing::new(Vec::with_capacity(P::SK_LEN + 48));
            let expanded = self.expanded_bytes().as_ref();
            match (format, self.seed()) {
                (KeyFormat::Seed, Some(seed)) => tlv(&mut out, 0x80, seed),
                (KeyFormat::Expanded, _) => tlv(&mut out, 0x04, expanded),
                (KeyFormat::Both, Some(seed)) => {
                    let mut inner = Zeroizing::new(Vec::with_capacity(P::SK_LEN + 40));
                    tlv(&mut inner, 0x04, seed);
                    tlv(&mut inner, 0x04, expanded);
                    tlv(&mut out, 0x30, &inner);
                }
                (_, None) => return Err(pkcs8::Error::KeyMalformed(KeyError::Invalid)),
            }
            Ok(out)
        }

        /// PKCS#8 DER in the chosen RFC 9881 form. `Seed` and `Both` need a
        /// key made from a seed.
        pub fn to_pkcs8_der_with(&self, format: KeyFormat) -> pkcs8::Result<SecretDocument> {
            let choice = self.private_key_choice(format)?;
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
