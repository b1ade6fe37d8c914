//! The `kem` 0.3 traits, PKCS#8/SPKI, and bad input: typed errors, never a
//! panic.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqkit_saber::kem::{Decapsulate, Encapsulate, Kem, KeyExport, TryKeyInit};
use pqkit_saber::pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding};
use pqkit_saber::spki::{DecodePublicKey, EncodePublicKey};
use pqkit_saber::{
    DecapsulationKey, EncapsulationKey, Error, FireSaber, Generate, LightSaber, ParameterSet,
    ParameterSetOid, Saber,
};
use pqkit_testkit::rng::TestRng;

fn generic_round_trip<K: Kem>(rng: &mut TestRng)
where
    K::DecapsulationKey: Decapsulate,
{
    let (dk, ek) = K::generate_keypair_from_rng(rng);
    let (ct, k1) = ek.encapsulate_with_rng(rng);
    assert_eq!(dk.decapsulate(&ct), k1);
}

fn for_set<P: ParameterSetOid>(seed: u64) {
    let mut rng = TestRng(seed);
    let dk = DecapsulationKey::<P>::try_generate_from_rng(&mut rng).unwrap();
    let ek = dk.encapsulation_key().clone();

    // KeyExport / TryKeyInit on both keys: the reference encodings.
    let sk = KeyExport::to_bytes(&dk);
    assert_eq!(&sk[..], dk.as_bytes());
    assert_eq!(<DecapsulationKey<P> as TryKeyInit>::new(&sk).unwrap(), dk);
    let pk = KeyExport::to_bytes(&ek);
    assert_eq!(<EncapsulationKey<P> as TryKeyInit>::new(&pk).unwrap(), ek);

    // PKCS#8 and SPKI, DER and PEM.
    let der = dk.to_pkcs8_der().unwrap();
    assert_eq!(
        DecapsulationKey::<P>::from_pkcs8_der(der.as_bytes()).unwrap(),
        dk
    );
    let pem = dk.to_pkcs8_pem(LineEnding::LF).unwrap();
    assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----"));
    assert_eq!(DecapsulationKey::<P>::from_pkcs8_pem(&pem).unwrap(), dk);
    let spki = ek.to_public_key_der().unwrap();
    assert_eq!(
        EncapsulationKey::<P>::from_public_key_der(spki.as_bytes()).unwrap(),
        ek
    );
    for cut in 0..der.as_bytes().len() {
        assert!(DecapsulationKey::<P>::from_pkcs8_der(&der.as_bytes()[..cut]).is_err());
    }
    for cut in 0..spki.as_bytes().len() {
        assert!(EncapsulationKey::<P>::from_public_key_der(&spki.as_bytes()[..cut]).is_err());
    }

    // Wrong lengths.
    assert_eq!(
        DecapsulationKey::<P>::from_bytes(&sk[1..]).err(),
        Some(Error::InvalidLength)
    );
    assert_eq!(
        EncapsulationKey::<P>::from_bytes(&pk[1..]).err(),
        Some(Error::InvalidLength)
    );
    let (ct, ss) = ek.try_encapsulate_with_rng(&mut rng).unwrap();
    assert_eq!(
        dk.decapsulate_bytes(&ct[1..]).err(),
        Some(Error::InvalidLength)
    );
    assert_eq!(dk.decapsulate_bytes(&ct).unwrap(), ss);

    // An s altered within its range, under a valid H(pk): the raw import
    // accepts it (fast path), the checked one and PKCS#8 refuse it.
    let mut bad = sk.to_vec();
    bad[3] ^= 0x04;
    let loose = DecapsulationKey::<P>::from_bytes(&bad).unwrap();
    assert_eq!(loose.check_consistency(), Err(Error::InconsistentKey));
    assert_eq!(
        DecapsulationKey::<P>::from_bytes_checked(&bad).err(),
        Some(Error::InconsistentKey)
    );
    let good = DecapsulationKey::<P>::from_bytes_checked(&sk).unwrap();
    let good_der = good.to_pkcs8_der().unwrap().as_bytes().to_vec();
    let at = good_der
        .windows(sk.len())
        .position(|w| w == &sk[..])
        .unwrap();
    let mut bad_der = good_der.clone();
    bad_der[at + 3] ^= 0x04;
    assert!(DecapsulationKey::<P>::from_pkcs8_der(&bad_der).is_err());
    assert!(DecapsulationKey::<P>::from_pkcs8_der(&good_der).is_ok());

    // A tampered H(pk), a tampered pk (H(pk) no longer matches), and an
    // out-of-range secret coefficient are refused; so are they in PKCS#8.
    let n = sk.len();
    let mut bad = sk.to_vec();
    bad[n - 40] ^= 1;
    assert_eq!(
        DecapsulationKey::<P>::from_bytes(&bad).err(),
        Some(Error::InconsistentKey)
    );
    let mut bad = sk.to_vec();
    bad[n - 64 - 1] ^= 0x80;
    assert_eq!(
        DecapsulationKey::<P>::from_bytes(&bad).err(),
        Some(Error::InconsistentKey)
    );
    let mut bad = sk.to_vec();
    // coefficient 0 of s: its 13 bits set to 6 (out of [-5, 5]).
    bad[0] = 6;
    bad[1] &= 0xe0;
    assert_eq!(
        DecapsulationKey::<P>::from_bytes(&bad).err(),
        Some(Error::InvalidPrivateKey)
    );
    // In PKCS#8 the sk is the last part of the DER: H(pk) tampered is
    // refused; z (the last 32 bytes) is any value, so a changed z is a
    // different, valid key.
    let mut bad_der = der.as_bytes().to_vec();
    let len = bad_der.len();
    bad_der[len - 40] ^= 1;
    assert!(DecapsulationKey::<P>::from_pkcs8_der(&bad_der).is_err());
    let mut other_z = der.as_bytes().to_vec();
    other_z[len - 1] ^= 1;
    let dk2 = DecapsulationKey::<P>::from_pkcs8_der(&other_z).unwrap();
    assert_ne!(dk2, dk);
    assert_eq!(dk2.encapsulation_key(), dk.encapsulation_key());

    // Secrets stay out of Debug.
    assert_eq!(format!("{ss:?}"), "SharedSecret(..)");
    assert!(!format!("{dk:?}").contains(&format!("{:02x}", sk[0])) || sk[0] == 0);
}

#[test]
fn traits_pkcs8_and_bad_input() {
    let mut rng = TestRng(99);
    generic_round_trip::<LightSaber>(&mut rng);
    generic_round_trip::<Saber>(&mut rng);
    generic_round_trip::<FireSaber>(&mut rng);
    for_set::<LightSaber>(1);
    for_set::<Saber>(2);
    for_set::<FireSaber>(3);
}

/// Every ciphertext of the right length decapsulates (implicit rejection):
/// random bytes give a key, never a panic, and not the honest key.
#[test]
fn arbitrary_ciphertexts_give_a_key() {
    let mut rng = TestRng(7);
    let dk = DecapsulationKey::<Saber>::try_generate_from_rng(&mut rng).unwrap();
    let (_, ss) = dk
        .encapsulation_key()
        .try_encapsulate_with_rng(&mut rng)
        .unwrap();
    for i in 0..20u8 {
        let junk: Vec<u8> = (0..1088).map(|j| (j as u8).wrapping_mul(31) ^ i).collect();
        let k = dk.decapsulate_bytes(&junk).unwrap();
        assert_ne!(k, ss);
    }
}

/// `decapsulate_from_key_bytes` is `from_bytes` then `decapsulate_bytes`:
/// the same key for honest, mutated and random ciphertexts, and the same
/// error for every bad key (a wrong `H(pk)`, `s` out of range, both) and
/// every wrong length, in every variant.
fn one_shot_for<P: ParameterSet>(seed: u64) {
    let mut rng = TestRng(seed);
    let two_steps = |sk: &[u8], ct: &[u8]| {
        DecapsulationKey::<P>::from_bytes(sk).and_then(|k| k.decapsulate_bytes(ct))
    };
    let one_shot = DecapsulationKey::<P>::decapsulate_from_key_bytes;
    for round in 0..4u8 {
        let dk = DecapsulationKey::<P>::try_generate_from_rng(&mut rng).unwrap();
        let sk = dk.as_bytes().to_vec();
        let (ct, ss) = dk
            .encapsulation_key()
            .try_encapsulate_with_rng(&mut rng)
            .unwrap();
        assert_eq!(one_shot(&sk, &ct).unwrap(), ss);
        let mut cts = vec![ct.to_vec()];
        for flip in [0usize, ct.len() / 2, ct.len() - 1] {
            let mut bad = ct.to_vec();
            bad[flip] ^= 1 << round;
            cts.push(bad);
        }
        cts.push(
            (0..ct.len())
                .map(|j| (j as u8).wrapping_mul(13) ^ round)
                .collect(),
        );
        let hash_at = sk.len() - 64;
        let mut bad_hash = sk.clone();
        bad_hash[hash_at + usize::from(round)] ^= 0x80;
        // Coefficient 0 of s set to 7, outside [-mu/2, mu/2] for every variant.
        let mut bad_s = sk.clone();
        bad_s[0] = 7;
        bad_s[1] &= 0xe0;
        let mut both = bad_s.clone();
        both[hash_at] ^= 1;
        for key in [
            &sk,
            &bad_hash,
            &bad_s,
            &both,
            &sk[1..].to_vec(),
            &[sk.clone(), vec![0]].concat(),
        ] {
            for c in cts.iter().map(Vec::as_slice).chain([&ct[1..], &[][..]]) {
                assert_eq!(one_shot(key, c), two_steps(key, c), "round {round}");
            }
        }
        assert_eq!(one_shot(&bad_hash, &ct).err(), Some(Error::InconsistentKey));
        assert_eq!(one_shot(&bad_s, &ct).err(), Some(Error::InvalidPrivateKey));
        assert_eq!(one_shot(&both, &ct).err(), Some(Error::InconsistentKey));
        assert_ne!(one_shot(&sk, &cts[1]).unwrap(), ss);
    }
}

#[test]
fn one_shot_decapsulation_equals_import_then_decapsulation() {
    one_shot_for::<LightSaber>(11);
    one_shot_for::<Saber>(12);
    one_shot_for::<FireSaber>(13);
}

/// An imported decapsulation key makes GenMatrix's first blocks at import
/// and the rest at its first use: whatever that first use is (a
/// decapsulation of an honest or a modified ciphertext, an encapsulation,
/// the consistency check, a clone's use, four threads at once), every
/// result equals the generated key's, before and after.
fn first_use_for<P: ParameterSet>(seed: u64) {
    let mut rng = TestRng(seed);
    let dk = DecapsulationKey::<P>::try_generate_from_rng(&mut rng).unwrap();
    let ek = dk.encapsulation_key();
    let (ct, ss) = ek.try_encapsulate_with_rng(&mut rng).unwrap();
    let mut bad = ct.to_vec();
    bad[3] ^= 0x10;
    let want_bad = dk.decapsulate_bytes(&bad).unwrap();
    assert_ne!(want_bad, ss);
    let coins = [0x5au8; 32];
    let want_enc = ek.encapsulate_deterministic(&coins);
    let import = || DecapsulationKey::<P>::from_bytes(dk.as_bytes()).unwrap();
    let check = |k: &DecapsulationKey<P>| {
        assert_eq!(k.decapsulate_bytes(&ct).unwrap(), ss);
        assert_eq!(k.decapsulate_bytes(&bad).unwrap(), want_bad);
        assert_eq!(
            k.encapsulation_key().encapsulate_deterministic(&coins),
            want_enc
        );
        assert_eq!(k.check_consistency(), Ok(()));
    };
    // First use: honest ciphertext, modified one, encapsulation, check.
    let k = import();
    assert_eq!(k.decapsulate_bytes(&ct).unwrap(), ss);
    check(&k);
    let k = import();
    assert_eq!(k.decapsulate_bytes(&bad).unwrap(), want_bad);
    check(&k);
    let k = import();
    assert_eq!(
        k.encapsulation_key().encapsulate_deterministic(&coins),
        want_enc
    );
    check(&k);
    let k = import();
    assert_eq!(k.check_consistency(), Ok(()));
    check(&k);
    // A clone taken before the first use, used after the original.
    let k = import();
    let c = k.clone();
    check(&k);
    check(&c);
    // Four threads decapsulating with one fresh key (where there are
    // threads: not on wasm32-wasip1, whose run covers the rest).
    let k = import();
    #[cfg(not(target_family = "wasm"))]
    std::thread::scope(|s| {
        for t in 0..4 {
            let (k, ct, bad) = (&k, &ct, &bad);
            let (ss, want_bad) = (&ss, &want_bad);
            s.spawn(move || {
                if t % 2 == 0 {
                    assert_eq!(k.decapsulate_bytes(ct).unwrap(), *ss);
                } else {
                    assert_eq!(k.decapsulate_bytes(bad).unwrap(), *want_bad);
                }
            });
        }
    });
    check(&k);
}

#[test]
fn imported_keys_agree_whatever_their_first_use() {
    first_use_for::<LightSaber>(21);
    first_use_for::<Saber>(22);
    first_use_for::<FireSaber>(23);
}

/// The range check of `s` at import: a coefficient of `+-mu/2` loads, one
/// of `+-(mu/2 + 1)` is refused, in every position class of the packing
/// and every variant.
fn secret_range_for<P: ParameterSet>(mu: i16) {
    let dk = DecapsulationKey::<P>::from_seed(&[9u8; 96]);
    let sk = dk.as_bytes().to_vec();
    // Coefficient i of the 13-bit packing: bits 13 i ..
    let with = |i: usize, v: i16| {
        let mut bytes = sk.clone();
        let v = (v as u16 & 0x1fff) as u32;
        let bit = 13 * i;
        for k in 0..13 {
            let at = bit + k;
            let mask = 1u8 << (at % 8);
            if v >> k & 1 == 1 {
                bytes[at / 8] |= mask;
            } else {
                bytes[at / 8] &= !mask;
            }
        }
        bytes
    };
    for i in [0usize, 1, 7, 255, 256, 511] {
        for v in [mu / 2, -mu / 2, 0] {
            assert!(
                DecapsulationKey::<P>::from_bytes(&with(i, v)).is_ok(),
                "{i} {v}"
            );
        }
        for v in [mu / 2 + 1, -mu / 2 - 1, 4095, -4096] {
            assert_eq!(
                DecapsulationKey::<P>::from_bytes(&with(i, v)).err(),
                Some(Error::InvalidPrivateKey),
                "{i} {v}"
            );
        }
    }
}

#[test]
fn secret_coefficients_are_range_checked_at_their_bounds() {
    secret_range_for::<LightSaber>(10);
    secret_range_for::<Saber>(8);
    secret_range_for::<FireSaber>(6);
}
