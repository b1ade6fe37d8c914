//! Differential test against PQClean (`pqcrypto-saber`: its AVX2 code on
//! this CPU, else the clean C code), for all three variants: pqkit
//! encapsulates and PQClean decapsulates and the other way round, each
//! loads the other's secret key, and both give the same implicit-rejection
//! key for mutated ciphertexts.
// The peer is C (and assembly): native targets only, not wasm.
#![cfg(not(target_family = "wasm"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqcrypto_traits::kem::{Ciphertext as _, PublicKey as _, SecretKey as _, SharedSecret as _};
use pqkit_saber::{DecapsulationKey, EncapsulationKey, FireSaber, Generate, LightSaber, Saber};
use pqkit_testkit::rng::TestRng;

macro_rules! differential {
    ($name:ident, $ours:ty, $pq:ident) => {
        #[test]
        fn $name() {
            use pqcrypto_saber::$pq as pq;
            let mut rng = TestRng(0x5abe_4000 ^ stringify!($pq).len() as u64);
            for round in 0..12u8 {
                // pqkit's keys, PQClean encapsulates and decapsulates with
                // pqkit's secret key bytes.
                let dk = DecapsulationKey::<$ours>::try_generate_from_rng(&mut rng).unwrap();
                let pk = pq::PublicKey::from_bytes(dk.encapsulation_key().as_bytes()).unwrap();
                let (pq_ss, pq_ct) = pq::encapsulate(&pk);
                let ours = dk.decapsulate_bytes(pq_ct.as_bytes()).unwrap();
                assert_eq!(ours.as_slice(), pq_ss.as_bytes(), "round {round}");
                let pq_sk = pq::SecretKey::from_bytes(dk.as_bytes()).unwrap();
                let (ct, ss) = dk
                    .encapsulation_key()
                    .try_encapsulate_with_rng(&mut rng)
                    .unwrap();
                assert_eq!(
                    pq::decapsulate(&pq::Ciphertext::from_bytes(&ct).unwrap(), &pq_sk).as_bytes(),
                    ss.as_slice()
                );

                // PQClean's keys load in pqkit (validated) and work both ways.
                let (pk2, sk2) = pq::keypair();
                let dk2 = DecapsulationKey::<$ours>::from_bytes(sk2.as_bytes()).unwrap();
                let ek2 = EncapsulationKey::<$ours>::from_bytes(pk2.as_bytes()).unwrap();
                assert_eq!(dk2.encapsulation_key(), &ek2);
                let (ct2, ss2) = ek2.try_encapsulate_with_rng(&mut rng).unwrap();
                let back = pq::decapsulate(&pq::Ciphertext::from_bytes(&ct2).unwrap(), &sk2);
                assert_eq!(back.as_bytes(), ss2.as_slice());
                let once =
                    DecapsulationKey::<$ours>::decapsulate_from_key_bytes(sk2.as_bytes(), &ct2);
                assert_eq!(once.unwrap().as_slice(), back.as_bytes());

                // Mutated ciphertexts: the same implicit-rejection key.
                for flip in [0usize, 100, ct2.len() - 1] {
                    let mut bad = ct2.to_vec();
                    bad[flip] ^= 1 << (round % 8);
                    let ours = dk2.decapsulate_bytes(&bad).unwrap();
                    let theirs = pq::decapsulate(&pq::Ciphertext::from_bytes(&bad).unwrap(), &sk2);
                    assert_eq!(ours.as_slice(), theirs.as_bytes());
                    let once =
                        DecapsulationKey::<$ours>::decapsulate_from_key_bytes(sk2.as_bytes(), &bad);
                    assert_eq!(once.unwrap(), ours);
                    assert_ne!(ours, ss2, "a mutated ciphertext must not give the key");
                }
            }
        }
    };
}

differential!(lightsaber_vs_pqclean, LightSaber, lightsaber);
differential!(saber_vs_pqclean, Saber, saber);
differential!(firesaber_vs_pqclean, FireSaber, firesaber);
