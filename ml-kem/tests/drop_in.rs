//! RustCrypto `ml-kem` names at the crate root (issue 13, first step): the
//! `kem` traits and the `DecapsulationKey768`-style aliases resolve with
//! only the crate name changed, and the keys round-trip through them; and
//! (issue 37) the rest of RustCrypto `ml-kem` 0.3.4's root and key-type
//! surface that its dependants use (`x-wing` 0.1.1: `array`, `AsArrayRef`,
//! `FromSeed`, `ml_kem_768::*`, `EncapsulationKey::new`,
//! `encapsulate_deterministic(&B32)`), checked against RustCrypto's bytes.
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
    // The inherent `new` (RustCrypto's) and the trait's agree.
    let ek3 = <EncapsulationKey768 as TryKeyInit>::new(&ek.to_bytes()).expect("ek bytes");
    assert_eq!(ek, ek3);
    // The other sets' aliases name the generic keys.
    let d512 = DecapsulationKey512::from_seed([1u8; 64].into());
    let d1024 = DecapsulationKey1024::from_seed([1u8; 64].into());
    assert_eq!(d512.expanded_bytes().len(), 1632);
    assert_eq!(d1024.expanded_bytes().len(), 3168);
}

/// What `x-wing` 0.1.1 and everyday RustCrypto code write, with
/// `pqkit_ml_kem` in place of `ml_kem`, giving RustCrypto's bytes.
#[test]
fn rustcrypto_surface_gives_rustcrypto_bytes() {
    use pqkit_ml_kem::array::sizes::{U32, U1088, U1184};
    use pqkit_ml_kem::array::{Array, ArrayN, AsArrayRef};
    use pqkit_ml_kem::ml_kem_768::MlKem768 as Set768;
    use pqkit_ml_kem::{ArraySize, B32, FromSeed, Key, Seed, ml_kem_768};

    let seed_bytes: [u8; 64] = core::array::from_fn(|i| (i as u8).wrapping_mul(37));
    // `From<Seed>`: the same key as `from_seed`, and as RustCrypto's.
    let seed: Seed = seed_bytes.into();
    let dk: ml_kem_768::DecapsulationKey = seed.into();
    assert_eq!(
        dk,
        ml_kem_768::DecapsulationKey::from_seed(seed_bytes.into())
    );
    assert_eq!(dk.as_seed(), &seed_bytes);
    let rdk: ml_kem::DecapsulationKey<ml_kem::MlKem768> = Seed::from(seed_bytes).into();
    let rek_bytes = rdk.encapsulation_key().to_bytes();
    assert_eq!(dk.encapsulation_key().as_bytes(), &rek_bytes[..]);

    // `FromSeed` on the parameter set (x-wing's `MlKem768::from_seed(&seed)`),
    // and the set inside its alias module.
    let (dk2, ek2): (ml_kem_768::DecapsulationKey, ml_kem_768::EncapsulationKey) =
        <Set768 as FromSeed>::from_seed(&seed_bytes.into());
    assert_eq!(dk2, dk);
    assert_eq!(&ek2, dk.encapsulation_key());

    // `Key<EncapsulationKey>` is the encoding; `split_ref` as x-wing uses it.
    let mut xwing_pk: Array<u8, <U1184 as core::ops::Add<U32>>::Output> = Array::default();
    xwing_pk[..1184].copy_from_slice(&rek_bytes);
    let (m_bytes, _x_bytes) = xwing_pk.split_ref::<U1184>();
    let key: &Key<ml_kem_768::EncapsulationKey> = m_bytes;
    let ek = ml_kem_768::EncapsulationKey::new(key).expect("valid");
    assert_eq!(ek, ek2);
    fn len<N: ArraySize>() -> usize {
        Array::<u8, N>::default().len()
    }
    assert_eq!(len::<U1184>(), 1184);

    // `encapsulate_deterministic(&B32)` returns the traits' arrays, with
    // RustCrypto's bytes; `decapsulate` takes an `ArrayN` ciphertext.
    let m: [u8; 32] = core::array::from_fn(|i| 200 - i as u8);
    let rand_m: &B32 = m.as_array_ref();
    let (ct, ss): (ArrayN<u8, 1088>, ArrayN<u8, 32>) = ek.encapsulate_deterministic(rand_m);
    let (rct, rss) = rdk.encapsulation_key().encapsulate_deterministic(&m.into());
    assert_eq!(ct, rct);
    assert_eq!(ss, rss);
    let ct_m: Array<u8, U1088> = ct;
    assert_eq!(dk.decapsulate(&ct_m), ss);

    // The `pkcs8` module has RustCrypto's two extra trait names.
    use pqkit_ml_kem::pkcs8::{AssociatedAlgorithmIdentifier, AssociatedOid};
    assert_eq!(MlKem768::OID.to_string(), "2.16.840.1.101.3.4.4.2");
    assert_eq!(
        ml_kem_768::EncapsulationKey::ALGORITHM_IDENTIFIER.oid,
        MlKem768::OID
    );
    assert_eq!(
        ml_kem_768::DecapsulationKey::ALGORITHM_IDENTIFIER,
        MlKem768::ALGORITHM_IDENTIFIER
    );
}

/// RustCrypto's deprecated `ExpandedKeyEncoding` round-trips RustCrypto's
/// expanded bytes on pqkit's seedless key type.
#[test]
#[allow(deprecated)]
fn expanded_key_encoding_matches_rustcrypto() {
    use ml_kem::ExpandedKeyEncoding as _;
    use pqkit_ml_kem::{ExpandedKeyEncoding, ml_kem_512};
    let rdk = ml_kem::DecapsulationKey::<ml_kem::MlKem512>::from_seed([4u8; 64].into());
    let bytes = rdk.to_expanded_bytes();
    let dk = ml_kem_512::ExpandedDecapsulationKey::from_expanded_bytes(&bytes).expect("valid");
    assert_eq!(ExpandedKeyEncoding::to_expanded_bytes(&dk), bytes);
    let seeded = DecapsulationKey512::from_seed([4u8; 64].into());
    assert_eq!(&dk, seeded.expanded_key());
    let mut bad = bytes;
    bad[768 * 2 + 32] ^= 0x80;
    assert!(ml_kem_512::ExpandedDecapsulationKey::from_expanded_bytes(&bad).is_err());
}
