//! PKCS#8 (RFC 5958 / RFC 9881) and SPKI (RFC 5280) encodings.
//!
//! The private key is the RFC 9881 CHOICE
//! `seed [0] IMPLICIT OCTET STRING (32) | expandedKey OCTET STRING |
//! both SEQUENCE { seed, expandedKey }`. All three are accepted on import
//! by [`ExpandedSigningKey`] (for `both`, the expanded key must equal the
//! one regenerated from the seed), `seed` and `both` by [`SigningKey`],
//! which keeps the seed; export writes the seed form by default
//! ([`KeyFormat`] selects another). AlgorithmIdentifier parameters must be absent. The plumbing
//! is `pqkit_pkix`, shared with the other pqkit crates.

use der::asn1::AnyRef;
use pqkit_pkix::AlgorithmOid;
pub use pqkit_pkix::keychoice::KeyFormat;
use spki::{AlgorithmIdentifier, AssociatedAlgorithmIdentifier, SignatureAlgorithmIdentifier};

use crate::{
    ContextSigningKey, Error, ExpandedSigningKey, MlDsa44, MlDsa65, MlDsa87, ParameterSet,
    Signature, SigningKey, VerifyingKey,
};

pqkit_pkix::impl_algorithm_oids!(
    MlDsa44 => "2.16.840.1.101.3.4.3.17",
    MlDsa65 => "2.16.840.1.101.3.4.3.18",
    MlDsa87 => "2.16.840.1.101.3.4.3.19",
);

/// The parameter sets with their OIDs (a helper bound for the generic
/// PKCS#8/SPKI impls; implemented by all three sets).
pub trait ParameterSetOid: ParameterSet + AlgorithmOid {}
impl<P: ParameterSet + AlgorithmOid> ParameterSetOid for P {}

// SigningKey keeps its seed: it loads from the `seed` and `both` forms (an
// `expandedKey`-only key is Error::NoSeed: load it as an ExpandedSigningKey,
// which loads all three forms and writes the `expandedKey` form).
pqkit_pkix::impl_seeded_choice_keys!(
    seeded = SigningKey,
    expanded = ExpandedSigningKey,
    params = ParameterSet,
    oids = AlgorithmOid,
    error = Error,
    no_seed = Error::NoSeed,
    expanded_import = from_expanded,
    public = |k| AsRef::<VerifyingKey<P>>::as_ref(k).as_bytes(),
);
pqkit_pkix::impl_public_key!(impl<P: ParameterSetOid> VerifyingKey<P>, oid = P::OID);

impl<P: ParameterSetOid> SignatureAlgorithmIdentifier for SigningKey<P> {
    type Params = AnyRef<'static>;
    const SIGNATURE_ALGORITHM_IDENTIFIER: AlgorithmIdentifier<AnyRef<'static>> =
        P::ALGORITHM_IDENTIFIER;
}
impl<P: ParameterSetOid> SignatureAlgorithmIdentifier for ExpandedSigningKey<P> {
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
