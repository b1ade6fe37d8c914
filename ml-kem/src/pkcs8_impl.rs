//! PKCS#8 (RFC 5958, private key CHOICE of RFC 9935) and SPKI (RFC 5280)
//! for ML-KEM; OIDs 2.16.840.1.101.3.4.4.1/2/3, parameters absent.
//!
//! Import accepts all three CHOICE arms (`seed`, `expandedKey` — validated
//! by the FIPS 203 §7.3 hash check — and `both`, whose seed must regenerate
//! exactly the expanded key) and checks an embedded public key; export
//! writes the seed form by default ([`KeyFormat`] selects another). The
//! plumbing is `pqkit_common::pkix`, shared with the other pqkit crates.

pub use pqkit_common::keychoice::KeyFormat;
use pqkit_common::pkix::{AlgorithmOid, ChoiceKey};

use crate::{
    DecapsulationKey, EncapsulationKey, Error, ExpandedDecapsulationKey, MlKem512, MlKem768,
    MlKem1024, ParameterSet,
};

pqkit_common::impl_algorithm_oids!(
    MlKem512 => "2.16.840.1.101.3.4.4.1",
    MlKem768 => "2.16.840.1.101.3.4.4.2",
    MlKem1024 => "2.16.840.1.101.3.4.4.3",
);

/// The parameter sets with their OIDs (a bound for the generic impls).
pub trait ParameterSetOid: ParameterSet + AlgorithmOid {}
impl<P: ParameterSet + AlgorithmOid> ParameterSetOid for P {}

/// A [`DecapsulationKey`] keeps its seed: it loads from the `seed` and
/// `both` forms; an `expandedKey`-only key is [`Error::NoSeed`] (load it as
/// an [`ExpandedDecapsulationKey`]).
impl<P: ParameterSet> ChoiceKey for DecapsulationKey<P> {
    type Error = Error;
    fn from_seed_arm(seed: &[u8]) -> Result<Self, Error> {
        Self::from_seed_slice(seed)
    }
    fn from_expanded_arm(_: &[u8]) -> Result<Self, Error> {
        Err(Error::NoSeed)
    }
    fn from_both_arms(seed: &[u8], expanded: &[u8]) -> Result<Self, Error> {
        Self::from_seed_and_expanded(seed, expanded)
    }
    fn with_encodings<R>(&self, f: impl FnOnce(Option<&[u8]>, &[u8], &[u8]) -> R) -> R {
        f(
            Some(&self.as_seed()[..]),
            self.expanded_bytes(),
            self.encapsulation_key().as_bytes(),
        )
    }
}
pqkit_common::impl_choice_key!(
    DecapsulationKey<P>,
    params = ParameterSet,
    oids = AlgorithmOid
);

/// An [`ExpandedDecapsulationKey`] loads from all three forms (from `seed`
/// and `both` it drops the seed) and is written in the `expandedKey` form.
impl<P: ParameterSet> ChoiceKey for ExpandedDecapsulationKey<P> {
    type Error = Error;
    fn from_seed_arm(seed: &[u8]) -> Result<Self, Error> {
        Ok(DecapsulationKey::from_seed_slice(seed)?
            .expanded_key()
            .clone())
    }
    fn from_expanded_arm(expanded: &[u8]) -> Result<Self, Error> {
        Self::from_expanded(expanded)
    }
    fn from_both_arms(seed: &[u8], expanded: &[u8]) -> Result<Self, Error> {
        Ok(DecapsulationKey::from_seed_and_expanded(seed, expanded)?
            .expanded_key()
            .clone())
    }
    fn with_encodings<R>(&self, f: impl FnOnce(Option<&[u8]>, &[u8], &[u8]) -> R) -> R {
        f(
            None,
            self.expanded_bytes(),
            self.encapsulation_key().as_bytes(),
        )
    }
}
pqkit_common::impl_choice_key!(
    ExpandedDecapsulationKey<P>,
    params = ParameterSet,
    oids = AlgorithmOid
);
pqkit_common::impl_public_key!(impl<P: ParameterSetOid> EncapsulationKey<P>, oid = P::OID);
