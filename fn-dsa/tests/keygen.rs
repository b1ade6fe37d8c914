//! Key generation against fn-dsa 0.3.0's `KeyPairGeneratorStandard` fed
//! with the same RNG stream.
//!
//! Both draw the same 32-byte seed, sample the same `(f, g)` candidates,
//! apply the same norm, invertibility and orthogonalised-norm checks, and
//! solve the NTRU equation with the same fixed budgets and fixed-point
//! reduction schedule, so they accept and reject exactly the same
//! candidates: every key must be byte-identical (signing and verifying
//! key).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::TestRng;
use fn_dsa::{KeyPairGenerator as _, KeyPairGeneratorStandard};
use pqkit_fn_dsa::Generate;
use pqkit_fn_dsa::{fn_dsa_512, fn_dsa_1024};

macro_rules! same_keys {
    ($name:ident, $module:ident, $count:expr) => {
        #[test]
        fn $name() {
            use $module::{SIGNING_KEY_SIZE, SigningKey, VERIFYING_KEY_SIZE, VerifyingKey};
            let mut kg = KeyPairGeneratorStandard::default();
            let mut identical = 0;
            let fg_len =
                1 + 2 * ((1usize << $module::LOGN) * if $module::LOGN == 9 { 6 } else { 5 } / 8);
            for i in 0..$count {
                let seed = format!("keygen {} {i}", stringify!($name));
                let mut their_sk = [0u8; SIGNING_KEY_SIZE];
                let mut their_vk = [0u8; VERIFYING_KEY_SIZE];
                kg.keygen(
                    $module::LOGN,
                    &mut TestRng::new(seed.as_bytes()),
                    &mut their_sk,
                    &mut their_vk,
                );
                let sk =
                    SigningKey::try_generate_from_rng(&mut TestRng::new(seed.as_bytes())).unwrap();
                let ours = sk.to_bytes();
                assert_eq!(&ours[..fg_len], &their_sk[..fg_len], "{seed}: f, g");
                assert_eq!(&ours[..], &their_sk[..], "{seed}: signing key");
                assert_eq!(
                    &sk.verifying_key().to_bytes()[..],
                    &their_vk[..],
                    "{seed}: verifying key"
                );
                identical += 1;
                // Our key works with fn-dsa and with us.
                let vk = sk.verifying_key();
                let mut rng = TestRng::new(b"sign");
                let sig = sk.sign_randomized(b"hello", b"ctx", &mut rng).unwrap();
                vk.verify_with_context(b"hello", b"ctx", &sig).unwrap();
                let theirs_vk = fn_dsa::VerifyingKeyStandard::decode(vk.as_bytes()).unwrap();
                use fn_dsa::VerifyingKey as _;
                assert!(theirs_vk.verify(
                    sig.as_bytes(),
                    &fn_dsa::DomainContext(b"ctx"),
                    &fn_dsa::HASH_ID_RAW,
                    b"hello"
                ));
                let mut their_signer = fn_dsa::SigningKeyStandard::decode(&ours[..]).unwrap();
                use fn_dsa::SigningKey as _;
                let mut their_sig = vec![0u8; $module::SIGNATURE_SIZE];
                their_signer.sign(
                    &mut rng,
                    &fn_dsa::DOMAIN_NONE,
                    &fn_dsa::HASH_ID_RAW,
                    b"x",
                    &mut their_sig,
                );
                vk.verify_message(
                    &pqkit_fn_dsa::Message::raw(b"x"),
                    &$module::Signature::from_bytes(&their_sig).unwrap(),
                )
                .unwrap();
                let _ = VerifyingKey::from_bytes(&their_vk).unwrap();
            }
            eprintln!(
                "{}: {identical} of {} keys byte-identical to fn-dsa 0.3.0",
                stringify!($name),
                $count
            );
            assert_eq!(identical, $count);
        }
    };
}

same_keys!(keygen_512_vs_fn_dsa, fn_dsa_512, 300);
same_keys!(keygen_1024_vs_fn_dsa, fn_dsa_1024, 150);

#[test]
fn from_seed_is_generate() {
    let mut rng = TestRng::new(b"seeded");
    let a = fn_dsa_512::SigningKey::try_generate_from_rng(&mut rng).unwrap();
    let mut rng = TestRng::new(b"seeded");
    let mut seed = [0u8; 32];
    rand_core::Rng::fill_bytes(&mut rng, &mut seed);
    let b = fn_dsa_512::SigningKey::from_seed(&seed);
    assert_eq!(&a.to_bytes()[..], &b.to_bytes()[..]);
}

/// Toy degrees against fn-dsa 0.3.0's `KeyPairGeneratorWeak`.
#[test]
fn toy_keygen_vs_fn_dsa() {
    let mut kg = fn_dsa::KeyPairGeneratorWeak::default();
    let mut identical = 0;
    let mut total = 0;
    for logn in 2u32..=8 {
        for i in 0..4 {
            let seed = format!("toy keygen {logn} {i}");
            let n = 1usize << logn;
            let fg_bits = match logn {
                2..=5 => 8,
                6..=7 => 7,
                _ => 6,
            };
            let sk_len = 1 + 2 * n * fg_bits / 8 + n;
            let vk_len = 1 + 14 * n / 8;
            let mut their_sk = vec![0u8; sk_len];
            let mut their_vk = vec![0u8; vk_len];
            kg.keygen(
                logn,
                &mut TestRng::new(seed.as_bytes()),
                &mut their_sk,
                &mut their_vk,
            );
            let sk = pqkit_fn_dsa::hazmat::toy::SigningKey::generate_with_logn(
                logn,
                &mut TestRng::new(seed.as_bytes()),
            )
            .unwrap();
            let ours = sk.to_bytes();
            assert_eq!(ours.len(), sk_len);
            let fg_len = 1 + 2 * n * fg_bits / 8;
            assert_eq!(&ours[..fg_len], &their_sk[..fg_len], "{seed}: f, g");
            assert_eq!(&ours[..], &their_sk[..], "{seed}");
            assert_eq!(sk.verifying_key().as_bytes(), &their_vk[..], "{seed}");
            identical += 1;
            total += 1;
        }
    }
    eprintln!("toy keygen: {identical} of {total} keys byte-identical to fn-dsa 0.3.0");
    assert_eq!(identical, total);
}
