//! ML-DSA keygen / sign / verify: pqkit beside RustCrypto `ml-dsa` 0.1.2,
//! `libcrux-ml-dsa` 0.0.11 (simd256 with run-time detection) and
//! `aws-lc-rs` 1 (ML-DSA in its `signature` module), same seeds, messages, contexts and
//! (deterministic) randomness where the APIs allow. aws-lc-rs only signs
//! hedged (fresh randomness, so a varying number of rejection rounds): it is
//! compared in the `sign-hedged` rows, where pqkit signs hedged too and both
//! average over many signatures.
#![allow(missing_docs, clippy::expect_used, clippy::unwrap_used)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group};

const SEED: [u8; 32] = [0x42; 32];
const MSG: &[u8] = b"The quick brown fox jumps over the lazy dog, a 64-byte message!!";
const CTX: &[u8] = b"";

macro_rules! bench_set {
    ($fn:ident, $name:literal, $ours:ty, $rc:ty, $lc:ident, $aws:ident, $aws_vk:ident) => {
        fn $fn(c: &mut Criterion) {
            use aws_lc_rs::signature::ParsedPublicKey;
            use aws_lc_rs::signature::{PqdsaKeyPair, $aws as AWS_SIGNING, $aws_vk as AWS_VK};
            use libcrux_ml_dsa::$lc as lc;
            use ml_dsa::signature::Keypair as _;
            let mut g = c.benchmark_group($name);

            // Keygen from the 32-byte seed.
            g.bench_function("keygen/pqkit", |b| {
                b.iter(|| pqkit_ml_dsa::SigningKey::<$ours>::from_seed(black_box(&SEED.into())))
            });
            g.bench_function("keygen/rustcrypto", |b| {
                b.iter(|| ml_dsa::SigningKey::<$rc>::from_seed(&black_box(SEED).into()))
            });
            g.bench_function("keygen/libcrux", |b| {
                b.iter(|| lc::generate_key_pair(black_box(SEED)))
            });
            g.bench_function("keygen/aws-lc-rs", |b| {
                b.iter(|| PqdsaKeyPair::from_seed(&AWS_SIGNING, black_box(&SEED)).unwrap())
            });

            // Sign (deterministic) from a decoded key.
            let ours = pqkit_ml_dsa::SigningKey::<$ours>::from_seed(&SEED.into());
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

            // Hedged signing (fresh rnd each time), averaged: the only
            // signing mode aws-lc-rs offers.
            let aws = PqdsaKeyPair::from_seed(&AWS_SIGNING, &SEED).unwrap();
            let mut aws_sig = vec![0u8; aws.algorithm().signature_len()];
            g.bench_function("sign-hedged/pqkit", |b| {
                let mut rng = pqkit_benches::BenchRng::default();
                b.iter(|| ours.sign_randomized(black_box(MSG), CTX, &mut rng).unwrap())
            });
            g.bench_function("sign-hedged/aws-lc-rs", |b| {
                b.iter(|| aws.sign(black_box(MSG), &mut aws_sig).unwrap())
            });

            // Sign from the expanded private-key bytes (decode + sign). libcrux
            // signs from the bytes without checking them; so does
            // `hazmat::sign_expanded` (encoding checks only). The validated
            // import (`from_expanded`, which recomputes t and derives the
            // public key, as aws-lc-rs does) is in `sign-hedged-from-bytes`.
            let sk_bytes = ours.expanded_bytes().as_ref().to_vec();
            g.bench_function("sign-from-bytes/pqkit", |b| {
                b.iter(|| {
                    pqkit_ml_dsa::hazmat::sign_expanded::<$ours>(
                        black_box(&sk_bytes),
                        &[MSG],
                        CTX,
                        &[0u8; 32],
                    )
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
            g.bench_function("sign-hedged-from-bytes/pqkit", |b| {
                let mut rng = pqkit_benches::BenchRng::default();
                b.iter(|| {
                    pqkit_ml_dsa::ExpandedSigningKey::<$ours>::from_expanded(black_box(&sk_bytes))
                        .unwrap()
                        .sign_randomized(MSG, CTX, &mut rng)
                        .unwrap()
                })
            });
            g.bench_function("sign-hedged-from-bytes/aws-lc-rs", |b| {
                b.iter(|| {
                    PqdsaKeyPair::from_raw_private_key(&AWS_SIGNING, black_box(&sk_bytes))
                        .unwrap()
                        .sign(MSG, &mut aws_sig)
                        .unwrap()
                })
            });

            // Verify (from decoded public keys).
            let sig = ours.sign_deterministic(MSG, CTX).unwrap();
            let vk = ours.verifying_key();
            let rc_vk = rc.verifying_key();
            let rc_sig = ml_dsa::Signature::<$rc>::try_from(sig.as_bytes()).unwrap();
            let lc_sig = libcrux_ml_dsa::MLDSASignature::new(sig.to_bytes());
            g.bench_function("verify/pqkit", |b| {
                b.iter(|| assert!(vk.verify_with_context(black_box(MSG), CTX, &sig)))
            });
            g.bench_function("verify/rustcrypto", |b| {
                b.iter(|| assert!(rc_vk.verify_with_context(black_box(MSG), CTX, &rc_sig)))
            });
            g.bench_function("verify/libcrux", |b| {
                b.iter(|| lc::verify(&kp.verification_key, black_box(MSG), CTX, &lc_sig).unwrap())
            });
            let pk_bytes = vk.as_bytes().to_vec();
            let aws_vk = ParsedPublicKey::new(&AWS_VK, &pk_bytes).unwrap();
            g.bench_function("verify/aws-lc-rs", |b| {
                b.iter(|| aws_vk.verify_sig(black_box(MSG), sig.as_bytes()).unwrap())
            });
            // Verify from public-key bytes (decode + verify).
            g.bench_function("verify-from-bytes/pqkit", |b| {
                b.iter(|| {
                    pqkit_ml_dsa::VerifyingKey::<$ours>::from_bytes(black_box(&pk_bytes))
                        .unwrap()
                        .verify_multipart_with_context(&[MSG], CTX, sig.as_bytes())
                        .unwrap()
                })
            });
            g.bench_function("verify-from-bytes/aws-lc-rs", |b| {
                b.iter(|| {
                    ParsedPublicKey::new(&AWS_VK, black_box(&pk_bytes))
                        .unwrap()
                        .verify_sig(MSG, sig.as_bytes())
                        .unwrap()
                })
            });
            // Verify from public-key bytes, cycling 64 distinct messages
            // and signatures (each signature is pqkit's, accepted by both).
            let msgs: Vec<[u8; 32]> = (0..64u8).map(|i| [i; 32]).collect();
            let sigs: Vec<_> = msgs
                .iter()
                .map(|m| ours.sign_deterministic(m, CTX).unwrap())
                .collect();
            let mut n1 = 0;
            let mut verify_ours_64 = || {
                n1 = (n1 + 1) % 64;
                pqkit_ml_dsa::VerifyingKey::<$ours>::from_bytes(black_box(&pk_bytes))
                    .unwrap()
                    .verify_multipart_with_context(&[&msgs[n1]], CTX, sigs[n1].as_bytes())
                    .is_ok()
            };
            let mut n2 = 0;
            let mut verify_aws_64 = || {
                n2 = (n2 + 1) % 64;
                ParsedPublicKey::new(&AWS_VK, black_box(&pk_bytes))
                    .unwrap()
                    .verify_sig(&msgs[n2], sigs[n2].as_bytes())
                    .is_ok()
            };
            assert!((0..64).all(|_| verify_ours_64() && verify_aws_64()));
            g.bench_function("verify-64-from-bytes/pqkit", |b| {
                b.iter(&mut verify_ours_64)
            });
            g.bench_function("verify-64-from-bytes/aws-lc-rs", |b| {
                b.iter(&mut verify_aws_64)
            });
            // Average signing time over the C2SP CCTV benchmark message set
            // (all-zero seed, deterministic, empty context): the set
            // reproduces the distribution of rejection-loop iterations.
            // Reported time is for the whole set; divide by its size.
            if let Some(msgs) = cctv_messages($name) {
                let zero = [0u8; 32];
                let ours = pqkit_ml_dsa::SigningKey::<$ours>::from_seed(&zero.into());
                let rc = ml_dsa::SigningKey::<$rc>::from_seed(&zero.into());
                let kp = lc::generate_key_pair(zero);
                let n = msgs.len();
                g.bench_function(format!("sign-cctv-set-of-{n}/pqkit"), |b| {
                    b.iter(|| {
                        for m in &msgs {
                            black_box(ours.sign_deterministic(m, CTX).unwrap());
                        }
                    })
                });
                g.bench_function(format!("sign-cctv-set-of-{n}/rustcrypto"), |b| {
                    b.iter(|| {
                        for m in &msgs {
                            black_box(rc.expanded_key().sign_deterministic(m, CTX).unwrap());
                        }
                    })
                });
                g.bench_function(format!("sign-cctv-set-of-{n}/libcrux"), |b| {
                    b.iter(|| {
                        for m in &msgs {
                            black_box(lc::sign(&kp.signing_key, m, CTX, [0u8; 32]).unwrap());
                        }
                    })
                });
            }
            g.finish();
        }
    };
}

/// The CCTV ML-DSA benchmark messages for a parameter set, if the shared
/// vectors are present (see `pqkit_testkit::vectors::root`).
fn cctv_messages(set: &str) -> Option<Vec<Vec<u8>>> {
    let text = pqkit_testkit::vectors::read(&format!("ml-dsa/cctv/benchmark/{set}.json"))?;
    let v: Vec<String> = serde_json::from_str(&text).ok()?;
    Some(v.into_iter().map(String::into_bytes).collect())
}

bench_set!(
    ml_dsa_44,
    "ML-DSA-44",
    pqkit_ml_dsa::MlDsa44,
    ml_dsa::MlDsa44,
    ml_dsa_44,
    ML_DSA_44_SIGNING,
    ML_DSA_44
);
bench_set!(
    ml_dsa_65,
    "ML-DSA-65",
    pqkit_ml_dsa::MlDsa65,
    ml_dsa::MlDsa65,
    ml_dsa_65,
    ML_DSA_65_SIGNING,
    ML_DSA_65
);
bench_set!(
    ml_dsa_87,
    "ML-DSA-87",
    pqkit_ml_dsa::MlDsa87,
    ml_dsa::MlDsa87,
    ml_dsa_87,
    ML_DSA_87_SIGNING,
    ML_DSA_87
);

criterion_group!(benches, ml_dsa_44, ml_dsa_65, ml_dsa_87);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    print_ratios();
}

/// Print pqkit's median time beside the best peer for every operation, from
/// criterion's saved estimates (`<target>/criterion/ML-DSA-*/<op>_<impl>`).
fn print_ratios() {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../target").into());
    let median = |set: &str, id: &str| -> Option<f64> {
        let path = target
            .join("criterion")
            .join(set)
            .join(id)
            .join("new/estimates.json");
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
        v["median"]["point_estimate"].as_f64()
    };
    println!("\nML-DSA medians (us) and pqkit / best peer:");
    for set in ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87"] {
        let Ok(dir) = std::fs::read_dir(target.join("criterion").join(set)) else {
            continue;
        };
        let mut ops: Vec<String> = dir
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter_map(|n| n.strip_suffix("_pqkit").map(str::to_owned))
            .collect();
        ops.sort();
        for op in ops {
            let Some(ours) = median(set, &format!("{op}_pqkit")) else {
                continue;
            };
            let peers: Vec<(&str, f64)> = ["aws-lc-rs", "libcrux", "rustcrypto"]
                .into_iter()
                .filter_map(|p| Some((p, median(set, &format!("{op}_{p}"))?)))
                .collect();
            let mut line = format!("{set} {op:<24} pqkit {:>10.1}", ours / 1e3);
            for (p, t) in &peers {
                line += &format!("  {p} {:>10.1}", t / 1e3);
            }
            if let Some(best) = peers.iter().map(|p| p.1).reduce(f64::min) {
                line += &format!("  ratio {:.2}", ours / best);
            }
            println!("{line}");
        }
    }
}
