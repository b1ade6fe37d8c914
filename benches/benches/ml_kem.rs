//! ML-KEM keygen / encaps / decaps: pqkit beside RustCrypto `ml-kem` 0.3.4,
//! `libcrux-ml-kem` 0.0.11 (run-time detected AVX2) and aws-lc-rs 1, same
//! seeds and messages where the APIs allow, in one process. Prints pqkit /
//! best-peer ratios at the end.
//!
//! pqkit keys keep t-hat and the matrix A-hat^T once decoded (the other
//! libraries regenerate the matrix inside every encaps/decaps), so
//! `encaps`/`decaps` are with decoded keys and `encaps-from-bytes` /
//! `decaps-from-bytes` include decoding the key bytes (pqkit validates them
//! on import; libcrux's byte-level API does not).
//!
//! aws-lc-rs has no seeded or derandomized API: its keygen and encaps draw
//! their own randomness (one 64-byte / 32-byte draw, a small fraction of
//! the time); its decaps is of a ciphertext made for its own key.
#![allow(missing_docs, clippy::expect_used, clippy::unwrap_used)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use ml_kem::kem::{Decapsulate as _, FromSeed as _, KeyExport as _};
use pqkit_benches::mean_us;

const SEED: [u8; 64] = [0x42; 64];
const M: [u8; 32] = [0x17; 32];

macro_rules! bench_set {
    ($fn:ident, $name:literal, $ours:ty, $rc:ty, $lc:ident, $aws:ident) => {
        fn $fn(c: &mut Criterion, table: &mut Vec<String>) {
            use aws_lc_rs::kem::{$aws as AWS, DecapsulationKey as AwsDk};
            use libcrux_ml_kem::$lc as lc;
            use pqkit_ml_kem::{DecapsulationKey, hazmat};
            let mut g = c.benchmark_group($name);

            let keygen_ours = || DecapsulationKey::<$ours>::from_seed(black_box(SEED.into()));
            let keygen_rc = || <$rc>::from_seed(black_box(&SEED.into()));
            let keygen_lc = || lc::generate_key_pair(black_box(SEED));
            g.bench_function("keygen/pqkit", |b| b.iter(keygen_ours));
            g.bench_function("keygen/rustcrypto", |b| b.iter(keygen_rc));
            g.bench_function("keygen/libcrux", |b| b.iter(keygen_lc));
            let keygen_aws = || AwsDk::generate(&AWS).unwrap();
            g.bench_function("keygen/aws-lc-rs", |b| b.iter(keygen_aws));
            let aws_dk = AwsDk::generate(&AWS).unwrap();
            let aws_ek = aws_dk.encapsulation_key().unwrap();

            let dk = DecapsulationKey::<$ours>::from_seed(SEED.into());
            let ek = dk.encapsulation_key().clone();
            let (rdk, rek) = <$rc>::from_seed(&SEED.into());
            let kp = lc::generate_key_pair(SEED);
            let encaps_ours = || hazmat::encaps_internal(&ek, black_box(&M));
            let encaps_rc = || rek.encapsulate_deterministic(black_box(&M.into()));
            let encaps_lc = || lc::encapsulate(kp.public_key(), black_box(M));
            g.bench_function("encaps/pqkit", |b| b.iter(encaps_ours));
            g.bench_function("encaps/rustcrypto", |b| b.iter(encaps_rc));
            g.bench_function("encaps/libcrux", |b| b.iter(encaps_lc));
            let encaps_aws = || aws_ek.encapsulate().unwrap();
            g.bench_function("encaps/aws-lc-rs", |b| b.iter(encaps_aws));
            let (aws_ct, _) = aws_ek.encapsulate().unwrap();
            let aws_ct = aws_ct.as_ref().to_vec();

            let ek_bytes = ek.as_bytes().to_vec();
            let encaps_ours_bytes = || {
                let ek = pqkit_ml_kem::EncapsulationKey::<$ours>::from_bytes(black_box(&ek_bytes))
                    .unwrap();
                hazmat::encaps_internal(&ek, &M)
            };
            let aws_ek_bytes = aws_ek.key_bytes().unwrap().as_ref().to_vec();
            let encaps_aws_bytes = || {
                aws_lc_rs::kem::EncapsulationKey::new(&AWS, black_box(&aws_ek_bytes))
                    .unwrap()
                    .encapsulate()
                    .unwrap()
            };
            g.bench_function("encaps-from-bytes/pqkit", |b| b.iter(encaps_ours_bytes));
            g.bench_function("encaps-from-bytes/aws-lc-rs", |b| b.iter(encaps_aws_bytes));

            let (ct, _) = hazmat::encaps_internal(&ek, &M);
            let ct_lc = lc::encapsulate(kp.public_key(), M).0;
            assert_eq!(ct_lc.as_slice(), &ct[..]);
            assert_eq!(&rek.to_bytes()[..], ek.as_bytes());
            let decaps_ours = || dk.decapsulate_bytes(black_box(&ct)).unwrap();
            let decaps_rc = || rdk.decapsulate_slice(black_box(&ct)).unwrap();
            let decaps_lc = || lc::decapsulate(kp.private_key(), black_box(&ct_lc));
            g.bench_function("decaps/pqkit", |b| b.iter(decaps_ours));
            g.bench_function("decaps/rustcrypto", |b| b.iter(decaps_rc));
            g.bench_function("decaps/libcrux", |b| b.iter(decaps_lc));
            let decaps_aws = || {
                aws_dk
                    .decapsulate(black_box(aws_ct.as_slice()).into())
                    .unwrap()
            };
            g.bench_function("decaps/aws-lc-rs", |b| b.iter(decaps_aws));
            let dk_bytes = dk.expanded_bytes().to_vec();
            let decaps_ours_bytes = || {
                pqkit_ml_kem::ExpandedDecapsulationKey::<$ours>::from_expanded(black_box(&dk_bytes))
                    .unwrap()
                    .decapsulate_bytes(&ct)
                    .unwrap()
            };
            let aws_dk_bytes = aws_dk.key_bytes().unwrap().as_ref().to_vec();
            let decaps_aws_bytes = || {
                AwsDk::new(&AWS, black_box(&aws_dk_bytes))
                    .unwrap()
                    .decapsulate(aws_ct.as_slice().into())
                    .unwrap()
            };
            g.bench_function("decaps-from-bytes/pqkit", |b| b.iter(decaps_ours_bytes));
            g.bench_function("decaps-from-bytes/aws-lc-rs", |b| b.iter(decaps_aws_bytes));
            // The same from key bytes, cycling 64 distinct ciphertexts
            // (what a server sees), each checked against the peer's key.
            let cts: Vec<_> = (0..64u8)
                .map(|i| {
                    let (ct, k) = hazmat::encaps_internal(&ek, &[i; 32]);
                    (ct, k)
                })
                .collect();
            let aws_cts: Vec<_> = (0..64)
                .map(|_| {
                    let (ct, k) = aws_ek.encapsulate().unwrap();
                    (ct.as_ref().to_vec(), k.as_ref().to_vec())
                })
                .collect();
            let mut n1 = 0;
            let mut decaps_ours_64 = || {
                n1 = (n1 + 1) % 64;
                pqkit_ml_kem::ExpandedDecapsulationKey::<$ours>::from_expanded(black_box(&dk_bytes))
                    .unwrap()
                    .decapsulate_bytes(black_box(&cts[n1].0))
                    .unwrap()
            };
            let mut n2 = 0;
            let mut decaps_aws_64 = || {
                n2 = (n2 + 1) % 64;
                AwsDk::new(&AWS, black_box(&aws_dk_bytes))
                    .unwrap()
                    .decapsulate(black_box(aws_cts[n2].0.as_slice()).into())
                    .unwrap()
            };
            // Call i uses ciphertext i mod 64.
            for i in 1..=64 {
                assert_eq!(decaps_ours_64().as_bytes(), cts[i % 64].1.as_bytes());
                assert_eq!(decaps_aws_64().as_ref(), &aws_cts[i % 64].1[..]);
            }
            g.bench_function("decaps-64-from-bytes/pqkit", |b| b.iter(&mut decaps_ours_64));
            g.bench_function("decaps-64-from-bytes/aws-lc-rs", |b| b.iter(&mut decaps_aws_64));
            g.finish();

            for (op, ours, rc, lcx, aws) in [
                ("keygen", mean_us(keygen_ours), mean_us(keygen_rc), mean_us(keygen_lc), mean_us(keygen_aws)),
                ("encaps", mean_us(encaps_ours), mean_us(encaps_rc), mean_us(encaps_lc), mean_us(encaps_aws)),
                ("decaps", mean_us(decaps_ours), mean_us(decaps_rc), mean_us(decaps_lc), mean_us(decaps_aws)),
                // libcrux takes key bytes in every call and RustCrypto
                // regenerates the matrix in every call: their
                // encaps/decaps numbers are repeated in these rows.
                ("encaps-from-bytes", mean_us(encaps_ours_bytes), mean_us(encaps_rc), mean_us(encaps_lc), mean_us(encaps_aws_bytes)),
                ("decaps-from-bytes", mean_us(decaps_ours_bytes), mean_us(decaps_rc), mean_us(decaps_lc), mean_us(decaps_aws_bytes)),
                ("decaps-64-from-bytes", mean_us(&mut decaps_ours_64), mean_us(decaps_rc), mean_us(decaps_lc), mean_us(&mut decaps_aws_64)),
            ] {
                table.push(format!(
                    "{} {op:<17} pqkit {ours:>7.1}  aws-lc-rs {aws:>7.1}  libcrux {lcx:>7.1}  rustcrypto {rc:>7.1}  vs aws {:.2}  vs libcrux {:.2}",
                    $name,
                    ours / aws,
                    ours / lcx
                ));
            }
        }
    };
}

bench_set!(
    set512,
    "ML-KEM-512",
    pqkit_ml_kem::MlKem512,
    ml_kem::MlKem512,
    mlkem512,
    ML_KEM_512
);
bench_set!(
    set768,
    "ML-KEM-768",
    pqkit_ml_kem::MlKem768,
    ml_kem::MlKem768,
    mlkem768,
    ML_KEM_768
);
bench_set!(
    set1024,
    "ML-KEM-1024",
    pqkit_ml_kem::MlKem1024,
    ml_kem::MlKem1024,
    mlkem1024,
    ML_KEM_1024
);

fn all(c: &mut Criterion) {
    let mut table = Vec::new();
    set512(c, &mut table);
    set768(c, &mut table);
    set1024(c, &mut table);
    println!("\nML-KEM mean µs (300 ms each) and pqkit / best peer:");
    for line in table {
        println!("{line}");
    }
}

criterion_group!(benches, all);
criterion_main!(benches);
