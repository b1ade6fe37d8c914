//! A key that loads is a key that works: an expanded key whose `s` was
//! altered under a valid `H(ek)` passes the FIPS 203 §7.3 checks (and
//! decapsulates to wrong secrets), but its PKCS#8 import runs a
//! pairwise-consistency test and refuses it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use pqkit_ml_kem::pkcs8::{DecodePrivateKey, EncodePrivateKey};
use pqkit_ml_kem::{
    DecapsulationKey, Error, ExpandedDecapsulationKey, KeyFormat, MlKem512, MlKem768, MlKem1024,
    ParameterSetOid,
};

fn altered_s<P: ParameterSetOid>() {
    let dk = DecapsulationKey::<P>::from_seed([9u8; 64].into());
    let good = dk.expanded_bytes().to_vec();
    // The first coefficient bytes of s (ByteEncode_12): change one value.
    let mut bad = good.clone();
    bad[0] ^= 0x01;
    // The raw FIPS 203 import keeps only its §7.2/§7.3 checks...
    let raw = ExpandedDecapsulationKey::<P>::from_expanded(&bad).expect("passes §7.3");
    assert_eq!(raw.check_consistency(), Err(Error::InconsistentKey));
    assert_eq!(
        ExpandedDecapsulationKey::<P>::from_expanded_checked(&bad).err(),
        Some(Error::InconsistentKey)
    );
    // ... and the PKCS#8 import of the expandedKey form refuses it.
    let good_key = ExpandedDecapsulationKey::<P>::from_expanded(&good).unwrap();
    good_key.check_consistency().unwrap();
    let der = good_key.to_pkcs8_der().unwrap().as_bytes().to_vec();
    let pos = der
        .windows(good.len())
        .position(|w| w == good.as_slice())
        .expect("expanded key in the DER");
    let mut bad_der = der.clone();
    bad_der[pos] ^= 0x01;
    assert!(ExpandedDecapsulationKey::<P>::from_pkcs8_der(&bad_der).is_err());
    assert!(ExpandedDecapsulationKey::<P>::from_pkcs8_der(&der).is_ok());
    // The seeded forms are unaffected.
    let seed_der = dk.to_pkcs8_der_with(KeyFormat::Seed).unwrap();
    assert!(ExpandedDecapsulationKey::<P>::from_pkcs8_der(seed_der.as_bytes()).is_ok());
}

#[test]
fn altered_s_under_a_valid_hash_is_refused_at_pkcs8_import() {
    altered_s::<MlKem512>();
    altered_s::<MlKem768>();
    altered_s::<MlKem1024>();
}
