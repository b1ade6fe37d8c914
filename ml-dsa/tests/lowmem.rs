//! The low-memory path against the fast one on seeded keys: the same
//! public keys, the same signatures (deterministic, hedged with the same
//! rnd, contexts, HashML-DSA, external mu, merged keygen-and-sign), the
//! same verification decisions on valid and mutated signatures, and the
//! `signature` traits.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use pqkit_ml_dsa::signature::{Keypair, RandomizedSigner, Signer, Verifier};
use pqkit_ml_dsa::{
    HashAlg, MlDsa44, MlDsa65, MlDsa87, MuBuilder, ParameterSet, Signature, SigningKey, lowmem,
};

fn seeded<P: ParameterSet>() {
    let mut rng = pqkit_testkit::rng::TestRng(0x9e37_79b9 + P::K as u64);
    for round in 0..6u8 {
        let seed: [u8; 32] =
            core::array::from_fn(|i| (i as u8).wrapping_mul(31) ^ round ^ P::K as u8);
        let fast = SigningKey::<P>::from_seed(&seed.into());
        let compact = lowmem::SigningKey::<P>::from_seed(&seed.into());
        let vk = fast.verifying_key();
        let cvk = compact.verifying_key();
        assert_eq!(cvk.as_bytes(), vk.as_bytes());
        assert_eq!(*compact.tr(), vk.tr());
        assert_eq!(lowmem::VerifyingKey::from(&vk), cvk);
        let (k2, v2) = lowmem::keygen::<P>(&seed.into());
        assert_eq!(v2, cvk);
        assert_eq!(k2.tr(), compact.tr());
        let msg = [round; 100];
        let ctx: &[u8] = if round % 2 == 0 {
            b""
        } else {
            b"lowmem context"
        };
        let rnd: [u8; 32] = rng.bytes();
        for r in [[0u8; 32], rnd] {
            let want = fast.sign_with_rnd(&msg, ctx, &r).unwrap();
            assert_eq!(compact.sign_with_rnd(&msg, ctx, &r).unwrap(), want);
            assert_eq!(
                lowmem::sign_from_seed::<P>(&seed.into(), &msg, ctx, &r).unwrap(),
                want
            );
            let sk_bytes = fast.expanded_bytes();
            assert_eq!(
                lowmem::sign_expanded::<P>(sk_bytes.as_ref(), &msg, ctx, &r).unwrap(),
                want
            );
            assert!(cvk.verify_with_context(&msg, ctx, &want));
            // Mutations: both verifiers reject, for the same reason.
            for pos in [
                0,
                40,
                700,
                want.as_bytes().len() - 3,
                want.as_bytes().len() - 1,
            ] {
                let mut bad = want.as_bytes().to_vec();
                bad[pos] ^= 0x04;
                assert_eq!(
                    cvk.verify_bytes(&msg, ctx, &bad),
                    vk.verify_multipart_with_context(&[&msg], ctx, &bad),
                    "position {pos}"
                );
                assert!(cvk.verify_bytes(&msg, ctx, &bad).is_err());
            }
            assert!(!cvk.verify_with_context(b"other message", ctx, &want));
        }
        // HashML-DSA and external mu.
        let alg = HashAlg::from_name("sha2-512").expect("sha2-512");
        let ph = alg.digest(&msg);
        let want = fast.sign_prehashed_with_rnd(&ph, ctx, &rnd).unwrap();
        assert_eq!(
            compact.sign_prehashed_with_rnd(&ph, ctx, &rnd).unwrap(),
            want
        );
        cvk.verify_prehashed(&ph, ctx, want.as_bytes()).unwrap();
        let mut b = MuBuilder::from_verifying_key(&vk, ctx).unwrap();
        b.update(&msg);
        let mu = b.finalize();
        let want = fast.sign_mu_with_rnd(&mu, &rnd).unwrap();
        assert_eq!(compact.sign_mu_with_rnd(&mu, &rnd).unwrap(), want);
        cvk.verify_mu_bytes(&mu, want.as_bytes()).unwrap();
    }
}

#[test]
fn seeded_ml_dsa_44() {
    seeded::<MlDsa44>();
}

#[test]
fn seeded_ml_dsa_65() {
    seeded::<MlDsa65>();
}

#[test]
fn seeded_ml_dsa_87() {
    seeded::<MlDsa87>();
}

#[test]
fn traits_conversions_and_errors() {
    let compact = lowmem::SigningKey::<MlDsa65>::from_seed(&[9u8; 32].into());
    let vk: lowmem::VerifyingKey<MlDsa65> = Keypair::verifying_key(&compact);
    let sig: Signature<MlDsa65> = compact.try_sign(b"m").unwrap();
    vk.verify(b"m", &sig).unwrap();
    assert!(vk.verify(b"n", &sig).is_err());
    let mut rng = pqkit_testkit::rng::TestRng(3);
    let hedged = compact.try_sign_with_rng(&mut rng, b"m").unwrap();
    vk.verify(b"m", &hedged).unwrap();
    let full: SigningKey<MlDsa65> = SigningKey::from(&compact);
    assert_eq!(full.sign_deterministic(b"m", b"").unwrap(), sig);
    assert_eq!(lowmem::SigningKey::from(&full).as_seed(), compact.as_seed());
    let regular = pqkit_ml_dsa::VerifyingKey::try_from(&vk).unwrap();
    assert!(regular.verify_with_context(b"m", b"", &sig));
    // Typed errors.
    assert_eq!(
        compact.sign_deterministic(b"m", &[0u8; 256]).err(),
        Some(pqkit_ml_dsa::Error::ContextTooLong)
    );
    assert_eq!(
        lowmem::VerifyingKey::<MlDsa65>::from_bytes(&[0u8; 10]).err(),
        Some(pqkit_ml_dsa::Error::InvalidLength)
    );
    assert_eq!(
        vk.verify_bytes(b"m", b"", &sig.as_bytes()[1..]),
        Err(pqkit_ml_dsa::Error::InvalidLength)
    );
    assert_eq!(
        lowmem::sign_expanded::<MlDsa65>(&[0u8; 100], b"m", b"", &[0; 32]).err(),
        Some(pqkit_ml_dsa::Error::InvalidLength)
    );
    // An expanded key with an out-of-range s1 coefficient (eta = 4: nibble
    // value 15 decodes to -11).
    let mut sk = full.expanded_bytes().as_ref().to_vec();
    sk[128] = 0xff;
    assert_eq!(
        lowmem::sign_expanded::<MlDsa65>(&sk, b"m", b"", &[0; 32]).err(),
        Some(pqkit_ml_dsa::Error::InvalidPrivateKey)
    );
    assert!(format!("{compact:?}").contains("ML-DSA-65"));
    assert_eq!(size_of::<lowmem::SigningKey<MlDsa65>>(), 160);
}
