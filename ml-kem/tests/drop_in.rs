//! RustCrypto `ml-kem` names at the crate root (issue 13, first step): the
//! `kem` traits and the `DecapsulationKey768`-style aliases resolve with
//! only the crate name changed, and the keys round-trip through them.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqkit_ml_kem::{
    Decapsulate, DecapsulationKey512, DecapsulationKey768, DecapsulationKey1024, Encapsulate,
    EncapsulationKey768, Kem, KeyExport, MlKem768, TryKeyInit,
};
use pqkit_testkit::rng::TestRng;

#[test]
fn root_names_resolve_and_work() {
    let mut rng = TestRng(0x5eed);
    let (dk, ek): (DecapsulationKey768, EncapsulationKey768) =
        MlKem768::generate_keypair_from_rng(&mut rng);
    let (ct, k) = ek.encapsulate_with_rng(&mut rng);
    assert_eq!(dk.decapsulate(&ct), k);
    let ek2 = EncapsulationKey768::new(&ek.to_bytes()).expect("ek bytes");
    assert_eq!(ek, ek2);
    // The other sets' aliases name the generic keys.
    let d512 = DecapsulationKey512::from_seed([1u8; 64].into());
    let d1024 = DecapsulationKey1024::from_seed([1u8; 64].into());
    assert_eq!(d512.expanded_bytes().len(), 1632);
    assert_eq!(d1024.expanded_bytes().len(), 3168);
}
