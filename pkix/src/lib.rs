//! PKCS#8 (RFC 5958) and SPKI (RFC 5280) plumbing shared by every pqkit
//! key type: one place for the AlgorithmIdentifier checks, the public-key
//! and signature BIT STRINGs, the `[1] publicKey` consistency check, and
//! the lattice private-key CHOICE (`seed [0] | expandedKey | both`) of
//! RFC 9881 (ML-DSA) and RFC 9935 (ML-KEM) through [`ChoiceKey`].
//!
//! Every pqkit algorithm identifier has absent parameters; anything else
//! is rejected. The ASN.1 itself is the RustCrypto `der`/`spki`/`pkcs8`
//! crates' work; this module only fixes how pqkit uses them.
//!
//! ```
//! use pqkit_pkix::{self as pkix, ObjectIdentifier};
//! use spki::SubjectPublicKeyInfoRef;
//! use der::Decode;
//!
//! const OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.112");
//! let der = pkix::spki_der(OID, &[7; 32]).unwrap();
//! let info = SubjectPublicKeyInfoRef::from_der(der.as_bytes()).unwrap();
//! assert_eq!(pkix::public_key_bytes(&info, OID).unwrap(), &[7; 32]);
//! let other = ObjectIdentifier::new_unwrap("1.3.101.113");
//! assert!(pkix::public_key_bytes(&info, other).is_err());
//! ```

#![no_std]
#![forbid(unsafe_code)]

#[cfg(feature = "alloc")]
extern crate alloc;

pub mod keychoice;

pub use der::asn1::AnyRef;
use pkcs8::KeyError;
pub use pkcs8::{AssociatedOid, ObjectIdentifier, PrivateKeyInfoRef};
pub use spki::{AlgorithmIdentifier, AssociatedAlgorithmIdentifier, SubjectPublicKeyInfoRef};

pub use crate::keychoice::{KeyChoice, KeyFormat};
#[cfg(feature = "alloc")]
#[doc(hidden)]
pub use alloc::string::String;
#[doc(hidden)]
pub use zeroize::Zeroizing;
pub use {pkcs8, spki};

/// An AlgorithmIdentifier as pqkit writes them.
pub type AlgorithmId = AlgorithmIdentifier<AnyRef<'static>>;

/// The AlgorithmIdentifier of `oid` with absent parameters.
pub const fn algorithm_id(oid: ObjectIdentifier) -> AlgorithmId {
    AlgorithmIdentifier {
        oid,
        parameters: None,
    }
}

/// A type with an algorithm OID and parameter-less AlgorithmIdentifier
/// (parameter sets, via [`impl_algorithm_oids!`](crate::impl_algorithm_oids)).
pub trait AlgorithmOid:
    AssociatedOid + AssociatedAlgorithmIdentifier<Params = AnyRef<'static>>
{
}
impl<T> AlgorithmOid for T where
    T: AssociatedOid + AssociatedAlgorithmIdentifier<Params = AnyRef<'static>>
{
}

/// Implement `AssociatedOid` and `AssociatedAlgorithmIdentifier` (absent
/// parameters) for each `Type => "dotted.oid"`.
///
/// ```
/// struct Ed25519;
/// pqkit_pkix::impl_algorithm_oids!(Ed25519 => "1.3.101.112");
/// use pqkit_pkix::{AssociatedAlgorithmIdentifier, AssociatedOid};
/// assert_eq!(Ed25519::OID.to_string(), "1.3.101.112");
/// assert!(Ed25519::ALGORITHM_IDENTIFIER.parameters.is_none());
/// ```
#[macro_export]
macro_rules! impl_algorithm_oids {
    ($($t:ty => $oid:literal),* $(,)?) => {$(
        impl $crate::AssociatedOid for $t {
            const OID: $crate::ObjectIdentifier =
                $crate::ObjectIdentifier::new_unwrap($oid);
        }
        impl $crate::AssociatedAlgorithmIdentifier for $t {
            type Params = $crate::AnyRef<'static>;
            const ALGORITHM_IDENTIFIER: $crate::AlgorithmId =
                $crate::algorithm_id(<$t as $crate::AssociatedOid>::OID);
        }
    )*};
}

/// Check that `alg` is `oid` with absent parameters.
pub fn check_algorithm(
    alg: &AlgorithmIdentifier<AnyRef<'_>>,
    oid: ObjectIdentifier,
) -> spki::Result<()> {
    alg.assert_algorithm_oid(oid)?;
    if alg.parameters.is_some() {
        return Err(spki::Error::KeyMalformed);
    }
    Ok(())
}

/// The subjectPublicKey bytes of an SPKI for `oid` (algorithm checked,
/// no unused bits).
pub fn public_key_bytes<'a>(
    info: &SubjectPublicKeyInfoRef<'a>,
    oid: ObjectIdentifier,
) -> spki::Result<&'a [u8]> {
    check_algorithm(&info.algorithm, oid)?;
    info.subject_public_key
        .as_bytes()
        .ok_or(spki::Error::KeyMalformed)
}

/// The `privateKey` OCTET STRING contents of a PKCS#8 key for `oid`
/// (algorithm checked).
pub fn private_key_bytes<'a>(
    info: &PrivateKeyInfoRef<'a>,
    oid: ObjectIdentifier,
) -> pkcs8::Result<&'a [u8]> {
    check_algorithm(&info.algorithm, oid)?;
    Ok(info.private_key.as_bytes())
}

/// The error every failed key-consistency check reports.
pub const fn invalid_key() -> pkcs8::Error {
    pkcs8::Error::KeyMalformed(KeyError::Invalid)
}

/// A PKCS#8 v2 key's optional `[1] publicKey` must equal the public key
/// the private key yields.
pub fn check_public_key(info: &PrivateKeyInfoRef<'_>, expected: &[u8]) -> pkcs8::Result<()> {
    match info.public_key {
        Some(pk) if pk.as_bytes() != Some(expected) => Err(invalid_key()),
        _ => Ok(()),
    }
}

/// A private key stored as the lattice CHOICE `seed [0] | expandedKey |
/// both` (RFC 9881, RFC 9935). The scheme supplies the three imports and
/// its encodings; [`from_pkcs8`] and [`to_pkcs8_der`] do the rest.
pub trait ChoiceKey: Sized {
    /// Error of the imports (any failure is reported as an invalid key).
    type Error;
    /// The key from the `seed` arm (length checked by the scheme).
    fn from_seed_arm(seed: &[u8]) -> Result<Self, Self::Error>;
    /// The key from the `expandedKey` arm, validated as the scheme allows.
    fn from_expanded_arm(expanded: &[u8]) -> Result<Self, Self::Error>;
    /// The key from the `both` arm: the seed must regenerate exactly the
    /// expanded key (compared in constant time).
    fn from_both_arms(seed: &[u8], expanded: &[u8]) -> Result<Self, Self::Error>;
    /// Call `f` with the seed (if the key was made from one), the expanded
    /// key and the encoded public key.
    fn with_encodings<R>(&self, f: impl FnOnce(Option<&[u8]>, &[u8], &[u8]) -> R) -> R;
}

/// Implement a lattice private key's PKCS#8 side for `Key<P>`, generic
/// over its parameter set `P: $params`, with OIDs from `P: $oids`
/// (`P::OID`), for a key type that implements [`ChoiceKey`]:
///
/// * `TryFrom<PrivateKeyInfoRef>` (any CHOICE arm the key's [`ChoiceKey`]
///   accepts; an embedded public key must match);
/// * with the calling crate's `alloc` feature, `EncodePrivateKey` (the seed
///   form when the key has a seed, else the expanded form) and inherent
///   `to_pkcs8_der_with(KeyFormat)`, plus `to_pkcs8_pem_with` with its
///   `pem` feature.
#[macro_export]
macro_rules! impl_choice_key {
    ($key:ident<$p:ident>, params = $params:path, oids = $oids:path $(,)?) => {
        impl<$p: $params + $oids> TryFrom<$crate::PrivateKeyInfoRef<'_>> for $key<$p> {
            type Error = $crate::pkcs8::Error;
            fn try_from(info: $crate::PrivateKeyInfoRef<'_>) -> Result<Self, $crate::pkcs8::Error> {
                $crate::from_pkcs8(&info, <$p as $crate::AssociatedOid>::OID)
            }
        }

        #[cfg(feature = "alloc")]
        impl<$p: $params + $oids> $key<$p> {
            /// PKCS#8 DER in the chosen form of the private-key CHOICE;
            /// `Seed` and `Both` need a key made from a seed (an
            /// invalid-key `pkcs8` error otherwise).
            pub fn to_pkcs8_der_with(
                &self,
                format: $crate::KeyFormat,
            ) -> $crate::pkcs8::Result<$crate::pkcs8::SecretDocument> {
                $crate::to_pkcs8_der(self, <$p as $crate::AssociatedOid>::OID, Some(format))
            }

            /// PKCS#8 PEM (`PRIVATE KEY`) in the chosen form.
            #[cfg(feature = "pem")]
            pub fn to_pkcs8_pem_with(
                &self,
                format: $crate::KeyFormat,
                line_ending: $crate::pkcs8::LineEnding,
            ) -> $crate::pkcs8::Result<$crate::Zeroizing<$crate::String>> {
                Ok(self
                    .to_pkcs8_der_with(format)?
                    .to_pem("PRIVATE KEY", line_ending)?)
            }
        }

        #[cfg(feature = "alloc")]
        impl<$p: $params + $oids> $crate::pkcs8::EncodePrivateKey for $key<$p> {
            /// The seed form when the key has a seed, else the expanded form.
            fn to_pkcs8_der(&self) -> $crate::pkcs8::Result<$crate::pkcs8::SecretDocument> {
                $crate::to_pkcs8_der(self, <$p as $crate::AssociatedOid>::OID, None)
            }
        }
    };
}

/// Implement a public key's SPKI side for a type with `from_bytes(&[u8])`
/// and `as_bytes()`, under `oid`: `TryFrom<SubjectPublicKeyInfoRef>`
/// (algorithm checked; a key `from_bytes` rejects is `KeyMalformed`) and,
/// with the calling crate's `alloc` feature, `EncodePublicKey`. Generic
/// types name their parameters: `impl_public_key!(impl<P: Bound> Key<P>,
/// oid = P::OID)`; plain ones `impl_public_key!(impl<> Key, oid = OID)`.
#[macro_export]
macro_rules! impl_public_key {
    (impl<$($g:ident: $b:path),*> $t:ty, oid = $oid:expr $(,)?) => {
        impl<$($g: $b),*> TryFrom<$crate::SubjectPublicKeyInfoRef<'_>> for $t {
            type Error = $crate::spki::Error;
            fn try_from(
                info: $crate::SubjectPublicKeyInfoRef<'_>,
            ) -> Result<Self, $crate::spki::Error> {
                let bytes = $crate::public_key_bytes(&info, $oid)?;
                Self::from_bytes(bytes).map_err(|_| $crate::spki::Error::KeyMalformed)
            }
        }

        #[cfg(feature = "alloc")]
        impl<$($g: $b),*> $crate::spki::EncodePublicKey for $t {
            fn to_public_key_der(
                &self,
            ) -> $crate::spki::Result<$crate::spki::Document> {
                $crate::spki_der($oid, self.as_bytes())
            }
        }
    };
}

/// The [`ChoiceKey`] impls and PKCS#8 sides of a seeded key type and its
/// seedless "expanded" counterpart (ML-KEM's `DecapsulationKey` /
/// `ExpandedDecapsulationKey`, ML-DSA's `SigningKey` /
/// `ExpandedSigningKey`):
///
/// * the seeded type loads from the `seed` and `both` arms (the seed must
///   regenerate exactly the expanded key) and refuses an `expandedKey`-only
///   key with `$no_seed`; it writes the seed form by default;
/// * the expanded type loads from all three arms (from `seed` and `both` it
///   drops the seed) and writes the `expandedKey` form.
///
/// The seeded type has `from_seed_slice`, `from_seed_and_expanded`,
/// `as_seed` and `expanded_key`; the expanded type `expanded_bytes` and the
/// constructor named by `expanded_import` (the checks a PKCS#8
/// `expandedKey` import runs: `from_expanded`, or a stricter one);
/// `public = |k| ...` gives a key's encoded public key.
#[macro_export]
macro_rules! impl_seeded_choice_keys {
    (
        seeded = $seeded:ident, expanded = $expanded:ident, params = $params:path,
        oids = $oids:path, error = $err:ty, no_seed = $no_seed:expr,
        expanded_import = $expanded_import:ident,
        public = |$k:ident| $public:expr $(,)?
    ) => {
        impl<P: $params> $crate::ChoiceKey for $seeded<P> {
            type Error = $err;
            fn from_seed_arm(seed: &[u8]) -> Result<Self, $err> {
                Self::from_seed_slice(seed)
            }
            fn from_expanded_arm(_: &[u8]) -> Result<Self, $err> {
                Err($no_seed)
            }
            fn from_both_arms(seed: &[u8], expanded: &[u8]) -> Result<Self, $err> {
                Self::from_seed_and_expanded(seed, expanded)
            }
            fn with_encodings<R>(&self, f: impl FnOnce(Option<&[u8]>, &[u8], &[u8]) -> R) -> R {
                let $k = self;
                f(
                    Some(&self.as_seed()[..]),
                    self.expanded_bytes().as_ref(),
                    $public,
                )
            }
        }
        $crate::impl_choice_key!($seeded<P>, params = $params, oids = $oids);

        impl<P: $params> $crate::ChoiceKey for $expanded<P> {
            type Error = $err;
            fn from_seed_arm(seed: &[u8]) -> Result<Self, $err> {
                Ok($seeded::<P>::from_seed_slice(seed)?.expanded_key().clone())
            }
            fn from_expanded_arm(expanded: &[u8]) -> Result<Self, $err> {
                Self::$expanded_import(expanded)
            }
            fn from_both_arms(seed: &[u8], expanded: &[u8]) -> Result<Self, $err> {
                Ok($seeded::<P>::from_seed_and_expanded(seed, expanded)?
                    .expanded_key()
                    .clone())
            }
            fn with_encodings<R>(&self, f: impl FnOnce(Option<&[u8]>, &[u8], &[u8]) -> R) -> R {
                let $k = self;
                f(None, self.expanded_bytes().as_ref(), $public)
            }
        }
        $crate::impl_choice_key!($expanded<P>, params = $params, oids = $oids);
    };
}

/// Import a [`ChoiceKey`] from PKCS#8 for `oid`: any arm, and an embedded
/// public key must match.
pub fn from_pkcs8<K: ChoiceKey>(
    info: &PrivateKeyInfoRef<'_>,
    oid: ObjectIdentifier,
) -> pkcs8::Result<K> {
    let bad = |_| invalid_key();
    let key = match keychoice::decode(private_key_bytes(info, oid)?)? {
        KeyChoice::Seed(seed) => K::from_seed_arm(seed).map_err(bad)?,
        KeyChoice::Expanded(expanded) => K::from_expanded_arm(expanded).map_err(bad)?,
        KeyChoice::Both { seed, expanded } => K::from_both_arms(seed, expanded).map_err(bad)?,
    };
    key.with_encodings(|_, _, pk| check_public_key(info, pk))?;
    Ok(key)
}

#[cfg(feature = "alloc")]
mod encode {
    use super::*;
    use der::asn1::{BitString, BitStringRef, OctetStringRef};
    use pkcs8::SecretDocument;
    use spki::{Document, SubjectPublicKeyInfo};

    /// SPKI DER of `public_key` under `oid`.
    pub fn spki_der(oid: ObjectIdentifier, public_key: &[u8]) -> spki::Result<Document> {
        let info = SubjectPublicKeyInfo {
            algorithm: algorithm_id(oid),
            subject_public_key: BitStringRef::new(0, public_key)?,
        };
        Ok(Document::encode_msg(&info)?)
    }

    /// PKCS#8 DER with `private_key` as the `privateKey` contents, v2 with
    /// `[1] publicKey` when `public_key` is given.
    pub fn pkcs8_der(
        oid: ObjectIdentifier,
        private_key: &[u8],
        public_key: Option<&[u8]>,
    ) -> pkcs8::Result<SecretDocument> {
        let mut info = PrivateKeyInfoRef::new(algorithm_id(oid), OctetStringRef::new(private_key)?);
        if let Some(pk) = public_key {
            info.public_key = Some(BitStringRef::new(0, pk)?);
        }
        Ok(SecretDocument::encode_msg(&info)?)
    }

    /// A signature as the BIT STRING of X.509 (no unused bits).
    pub fn signature_bit_string(signature: &[u8]) -> der::Result<BitString> {
        BitString::new(0, signature.to_vec())
    }

    /// PKCS#8 DER of a [`ChoiceKey`] in `format` (`None`: the seed form if
    /// the key has a seed, else the expanded form). `Seed` and `Both` need
    /// a key made from a seed.
    pub fn to_pkcs8_der<K: ChoiceKey>(
        key: &K,
        oid: ObjectIdentifier,
        format: Option<KeyFormat>,
    ) -> pkcs8::Result<SecretDocument> {
        key.with_encodings(|seed, expanded, _| {
            let format = format.unwrap_or(match seed {
                Some(_) => KeyFormat::Seed,
                None => KeyFormat::Expanded,
            });
            let choice = match (format, seed) {
                (KeyFormat::Seed, Some(seed)) => KeyChoice::Seed(seed),
                (KeyFormat::Expanded, _) => KeyChoice::Expanded(expanded),
                (KeyFormat::Both, Some(seed)) => KeyChoice::Both { seed, expanded },
                (_, None) => return Err(invalid_key()),
            };
            pkcs8_der(oid, &keychoice::encode(choice), None)
        })
    }
}
#[cfg(feature = "alloc")]
pub use encode::{pkcs8_der, signature_bit_string, spki_der, to_pkcs8_der};
