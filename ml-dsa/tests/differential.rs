//! Differential tests against RustCrypto `ml-dsa` 0.1.2 and
//! `libcrux-ml-dsa` 0.0.11: identical public keys, identical deterministic
//! signatures, and cross-verification both ways, for 300 random seeds,
//! messages and contexts per parameter set.

// `to_expanded` of ml-dsa 0.1.2 is deprecated but is what we compare with.
#![allow(deprecated)]
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use ml_dsa::signature::Keypair as _;
use pqkit_testkit::rng::TestRng;

const CASES: usize = 300;

macro_rules! differential {
    ($test:ident, $ours:ty, $rc:ty, $lc:ident, $seed:literal) => {
        #[test]
        fn $test() {
            use libcrux_ml_dsa::$lc as lc;
            let mut rng = TestRng($seed);
            for i in 0..CASES {
                let xi: [u8; 32] = rng.bytes();
                let mlen = (rng.next_u64() % 200) as usize;
                let mut msg = vec![0u8; mlen];
                rng.fill(&mut msg);
                let clen = if i % 3 == 0 {
                    0
                } else {
                    (rng.next_u64() % 256) as usize
                };
                let mut ctx = vec![0u8; clen];
                rng.fill(&mut ctx);
                let rnd: [u8; 32] = rng.bytes();

                let ours = pqkit_ml_dsa::SigningKey::<$ours>::from_seed(&xi.into());
                let vk = ours.verifying_key();

                // RustCrypto.
                let rc = ml_dsa::SigningKey::<$rc>::from_seed(&xi.into());
                let rc_vk = rc.verifying_key();
                assert_eq!(vk.as_bytes(), rc_vk.encode().as_slice(), "pk, case {i}");
                assert_eq!(
                    ours.expanded_bytes().as_ref(),
                    rc.expanded_key().to_expanded().as_slice(),
                    "sk, case {i}"
                );
                let (pk_only, sk_only) =
                    pqkit_ml_dsa::hazmat::keygen_internal_encoded::<$ours>(&xi);
                assert_eq!(
                    pk_only.as_ref(),
                    rc_vk.encode().as_slice(),
                    "encoded pk, case {i}"
                );
                assert_eq!(
                    sk_only.as_ref(),
                    rc.expanded_key().to_expanded().as_slice(),
                    "encoded sk, case {i}"
                );
                let ours_sig = ours.sign_deterministic(&msg, &ctx).expect("sign");
                let rc_sig = rc
                    .expanded_key()
                    .sign_deterministic(&msg, &ctx)
                    .expect("rc sign");
                assert_eq!(
                    ours_sig.as_bytes(),
                    rc_sig.encode().as_slice(),
                    "det sig, case {i}"
                );
                // DigestSigner<Shake256> (the message streamed into mu,
                // empty context): the same bytes from both crates.
                if i % 10 == 0 {
                    use ml_dsa::signature::DigestSigner as _;
                    let theirs: ml_dsa::Signature<$rc> = rc.sign_digest(|d| {
                        ml_dsa::signature::digest::Update::update(d, &msg);
                    });
                    let ours_d: pqkit_ml_dsa::Signature<$ours> =
                        pqkit_ml_dsa::DigestSigner::sign_digest(&ours, |d| {
                            pqkit_common::keccak::Update::update(d, &msg);
                        });
                    assert_eq!(
                        ours_d.as_bytes(),
                        theirs.encode().as_slice(),
                        "DigestSigner<Shake256>, case {i}"
                    );
                }
                // Hedged: ours verifies with theirs and vice versa.
                let hedged = ours.sign_with_rnd(&msg, &ctx, &rnd).expect("sign");
                let rc_hedged_view =
                    ml_dsa::Signature::<$rc>::try_from(hedged.as_bytes()).expect("decodes");
                assert!(
                    rc_vk.verify_with_context(&msg, &ctx, &rc_hedged_view),
                    "rc verifies ours, case {i}"
                );
                let rc_hedged = rc
                    .expanded_key()
                    .sign_randomized(&msg, &ctx, &mut TestRng(i as u64 + 1))
                    .expect("rc sign");
                let theirs =
                    pqkit_ml_dsa::Signature::<$ours>::from_bytes(rc_hedged.encode().as_slice())
                        .expect("length");
                vk.verify_multipart_with_context(&[&msg], &ctx, theirs.as_bytes())
                    .expect("we verify rc");

                // libcrux.
                let kp = lc::generate_key_pair(xi);
                assert_eq!(
                    vk.as_bytes(),
                    kp.verification_key.as_slice(),
                    "libcrux pk, case {i}"
                );
                assert_eq!(
                    ours.expanded_bytes().as_ref(),
                    kp.signing_key.as_slice(),
                    "libcrux sk, case {i}"
                );
                let lc_sig = lc::sign(&kp.signing_key, &msg, &ctx, [0u8; 32]).expect("lc sign");
                assert_eq!(
                    ours_sig.as_bytes(),
                    lc_sig.as_slice(),
                    "libcrux det sig, case {i}"
                );
                let lc_hedged = lc::sign(&kp.signing_key, &msg, &ctx, rnd).expect("lc sign");
                assert_eq!(
                    hedged.as_bytes(),
                    lc_hedged.as_slice(),
                    "libcrux same-rnd sig, case {i}"
                );
                let view = libcrux_ml_dsa::MLDSASignature::new(hedged.to_bytes());
                assert!(
                    lc::verify(&kp.verification_key, &msg, &ctx, &view).is_ok(),
                    "libcrux verifies ours, case {i}"
                );
                // A wrong message is rejected by everyone.
                let mut bad = msg.clone();
                bad.push(1);
                assert!(
                    vk.verify_multipart_with_context(&[&bad], &ctx, hedged.as_bytes())
                        .is_err()
                );
                assert!(lc::verify(&kp.verification_key, &bad, &ctx, &view).is_err());
            }
        }
    };
}

differential!(
    differential_ml_dsa_44,
    pqkit_ml_dsa::MlDsa44,
    ml_dsa::MlDsa44,
    ml_dsa_44,
    44
);
differential!(
    differential_ml_dsa_65,
    pqkit_ml_dsa::MlDsa65,
    ml_dsa::MlDsa65,
    ml_dsa_65,
    65
);
differential!(
    differential_ml_dsa_87,
    pqkit_ml_dsa::MlDsa87,
    ml_dsa::MlDsa87,
    ml_dsa_87,
    87
);
