//! ML-DSA keygen / sign / verify: pqkit beside RustCrypto `ml-dsa` 0.1.2
//! and `libcrux-ml-dsa` 0.0.11 (simd256 with run-time detection), same
//! seeds, messages, contexts and (deterministic) randomness.
#![allow(missing_docs, clippy::expect_used, clippy::unwrap_used)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

const SEED: [u8; 32] = [0x42; 32];
const MSG: &[u8] = b"The quick brown fox jumps over the lazy dog, a 64-byte message!!";
const CTX: &[u8] = b"";

macro_rules! bench_set {
    ($fn:ident, $name:literal, $ours:ty, $rc:ty, $lc:ident) => {
        fn $fn(c: &mut Criterion) {
            use libcrux_ml_dsa::$lc as lc;
            use ml_dsa::signature::Keypair as _;
            let mut g = c.benchmark_group($name);

            // Keygen from the 32-byte seed.
            g.bench_function("keygen/pqkit", |b| {
                b.iter(|| pqkit_ml_dsa::SigningKey::<$ours>::from_seed(black_box(&SEED)).unwrap())
            });
            g.bench_function("keygen/rustcrypto", |b| {
                b.iter(|| ml_dsa::SigningKey::<$rc>::from_seed(&black_box(SEED).into()))
            });
            g.bench_function("keygen/libcrux", |b| {
                b.iter(|| lc::generate_key_pair(black_box(SEED)))
            });

            // Sign (deterministic) from a decoded key.
            let ours = pqkit_ml_dsa::SigningKey::<$ours>::from_seed(&SEED).unwrap();
            let rc = ml_dsa::SigningKey::<$rc>::from_seed(&SEED.into());
            let kp = lc::generate_key_pair(SEED);
            g.bench_function("sign/pqkit", |b| {
                b.iter(|| ours.sign_deterministic(black_box(MSG), CTX).unwrap())
            });
            g.bench_function("sign/rustcrypto", |b| {
                b.iter(|| {
                    rc.expanded_key()
                        .sign_deterministic(black_box(MSG), CTX)
                        .unwrap()
                })
            });
            g.bench_function("sign/libcrux", |b| {
                b.iter(|| lc::sign(&kp.signing_key, black_box(MSG), CTX, [0u8; 32]).unwrap())
            });

            // Sign from the expanded private-key bytes (decode + sign).
            let sk_bytes = ours.expanded_bytes().as_ref().to_vec();
            g.bench_function("sign-from-bytes/pqkit", |b| {
                b.iter(|| {
                    pqkit_ml_dsa::SigningKey::<$ours>::from_expanded(black_box(&sk_bytes))
                        .unwrap()
                        .sign_deterministic(MSG, CTX)
                        .unwrap()
                })
            });
            g.bench_function("sign-from-bytes/libcrux", |b| {
                b.iter(|| {
                    let sk = libcrux_ml_dsa::MLDSASigningKey::new(
                        black_box(kp.signing_key.as_ref()).clone(),
                    );
                    lc::sign(&sk, MSG, CTX, [0u8; 32]).unwrap()
                })
            });

            // Verify (from decoded public keys).
            let sig = ours.sign_deterministic(MSG, CTX).unwrap();
            let vk = ours.public_key().clone();
            let rc_vk = rc.verifying_key();
            let rc_sig = ml_dsa::Signature::<$rc>::try_from(sig.as_bytes()).unwrap();
            let lc_sig = libcrux_ml_dsa::MLDSASignature::new(sig.to_bytes());
            g.bench_function("verify/pqkit", |b| {
                b.iter(|| vk.verify_with_context(black_box(MSG), CTX, &sig).unwrap())
            });
            g.bench_function("verify/rustcrypto", |b| {
                b.iter(|| assert!(rc_vk.verify_with_context(black_box(MSG), CTX, &rc_sig)))
            });
            g.bench_function("verify/libcrux", |b| {
                b.iter(|| lc::verify(&kp.verification_key, black_box(MSG), CTX, &lc_sig).unwrap())
            });
            // Verify from public-key bytes (decode + verify).
            let pk_bytes = vk.as_bytes().to_vec();
            g.bench_function("verify-from-bytes/pqkit", |b| {
                b.iter(|| {
                    pqkit_ml_dsa::VerifyingKey::<$ours>::from_bytes(black_box(&pk_bytes))
                        .unwrap()
                        .verify_with_context(MSG, CTX, &sig)
                        .unwrap()
                })
            });
            g.finish();
        }
    };
}

bench_set!(
    ml_dsa_44,
    "ML-DSA-44",
    pqkit_ml_dsa::MlDsa44,
    ml_dsa::MlDsa44,
    ml_dsa_44
);
bench_set!(
    ml_dsa_65,
    "ML-DSA-65",
    pqkit_ml_dsa::MlDsa65,
    ml_dsa::MlDsa65,
    ml_dsa_65
);
bench_set!(
    ml_dsa_87,
    "ML-DSA-87",
    pqkit_ml_dsa::MlDsa87,
    ml_dsa::MlDsa87,
    ml_dsa_87
);

criterion_group!(benches, ml_dsa_44, ml_dsa_65, ml_dsa_87);
criterion_main!(benches);
