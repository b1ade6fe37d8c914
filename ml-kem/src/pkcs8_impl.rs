//! PKCS#8 (RFC 5958, private key CHOICE of RFC 9935) and SPKI (RFC 5280)
//! for ML-KEM; OIDs 2.16.840.1.101.3.4.4.1/2/3, parameters absent.
//!
//! Import accepts all three CHOICE arms (`seed`, `expandedKey` — validated
//! by the FIPS 203 §7.2/§7.3 checks and a pairwise-consistency test, see
//! [`ExpandedDecapsulationKey::from_expanded_checked`] — and `both`, whose
//! seed must regenerate exactly the expanded key) and checks an embedded
//! public key; export
//! writes the seed form by default ([`KeyFormat`] selects another). The
//! plumbing is `pqkit_pkix`, shared with the other pqkit crates.

use pqkit_pkix::AlgorithmOid;
pub use pqkit_pkix::keychoice::KeyFormat;

use crate::{
    DecapsulationKey, EncapsulationKey, Error, ExpandedDecapsulationKey, MlKem512, MlKem768,
    MlKem1024, ParameterSet,
};

pqkit_pkix::impl_algorithm_oids!(
    MlKem512 => "2.16.840.1.101.3.4.4.1",
    MlKem768 => "2.16.840.1.101.3.4.4.2",
    MlKem1024 => "2.16.840.1.101.3.4.4.3",
);

/// The parameter sets with their OIDs (a bound for the generic impls).
pub trait ParameterSetOid: ParameterSet + AlgorithmOid {}
impl<P: ParameterSet + AlgorithmOid> ParameterSetOid for P {}

// DecapsulationKey keeps its seed: it loads from the `seed` and `both`
// forms (an `expandedKey`-only key is Error::NoSeed: load it as an
// ExpandedDecapsulationKey, which loads all three forms and writes the
// `expandedKey` form).
pqkit_pkix::impl_seeded_choice_keys!(
    seeded = DecapsulationKey,
    expanded = ExpandedDecapsulationKey,
    params = ParameterSet,
    oids = AlgorithmOid,
    error = Error,
    no_seed = Error::NoSeed,
    expanded_import = from_expanded_checked,
    public = |k| k.encapsulation_key().as_bytes(),
);
pqkit_pkix::impl_public_key!(impl<P: ParameterSetOid> EncapsulationKey<P>, oid = P::OID);

// The keys name their algorithm as the parameter set does (RustCrypto
// `ml-kem` implements the same for its two key types).
macro_rules! key_algorithm {
    ($($key:ident),*) => {$(
        impl<P: ParameterSetOid> pqkit_pkix::AssociatedAlgorithmIdentifier for $key<P> {
            type Params = pqkit_pkix::AnyRef<'static>;
            const ALGORITHM_IDENTIFIER: pqkit_pkix::AlgorithmId = P::ALGORITHM_IDENTIFIER;
        }
    )*};
}
key_algorithm!(EncapsulationKey, DecapsulationKey, ExpandedDecapsulationKey);
