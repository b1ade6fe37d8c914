//! FN-DSA keygen / sign / verify: pqkit beside `fn-dsa` 0.4.0 and 0.3.0 in
//! one process (raw messages, empty context). "sign" reuses a decoded
//! (expanded) signing key, "sign-from-bytes" decodes the key first;
//! "verify" reuses a decoded verifying key, "verify-from-bytes" decodes it
//! first. Prints mean µs and pqkit / best-peer ratios at the end.
#![allow(missing_docs, clippy::expect_used, clippy::unwrap_used)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use pqkit_benches::{BenchRng, mean_us};
use pqkit_fn_dsa::{Generate, Message};

const MSG: &[u8] = b"The quick brown fox jumps over the lazy dog, a 64-byte message!!";

#[path = "../peer_rng.rs"]
mod peer_rng;
use peer_rng::PeerRng;

macro_rules! bench_set {
    ($fn:ident, $name:literal, $module:ident, $logn:expr) => {
        fn $fn(c: &mut Criterion, table: &mut Vec<String>) {
            use pqkit_fn_dsa::$module::{SIGNATURE_SIZE, SigningKey, VerifyingKey};
            let mut g = c.benchmark_group($name);
            let seed = [0x42u8; 32];

            // Key generation: all three draw their 32-byte seeds from the
            // same xorshift stream (BenchRng and PeerRng are the same
            // generator), so they meet the same sequence of seeds, hence the
            // same (f, g) candidates and rejections; a fresh stream per
            // measurement, so the averages cover the same seeds.
            const KG_STATE: u64 = 0x9E37_79B9_7F4A_7C15;
            let keygen_ours = || {
                let mut rng = BenchRng::default();
                move || SigningKey::try_generate_from_rng(&mut rng).unwrap()
            };
            let keygen_04 = || {
                let mut rng = PeerRng(KG_STATE);
                move || {
                    use fn_dsa_04::KeyPairGenerator as _;
                    let mut sk = vec![0u8; fn_dsa_04::sign_key_size($logn)];
                    let mut vk = vec![0u8; fn_dsa_04::vrfy_key_size($logn)];
                    fn_dsa_04::KeyPairGeneratorStandard::default()
                        .keygen($logn, &mut rng, &mut sk, &mut vk);
                    (sk, vk)
                }
            };
            let keygen_03 = || {
                let mut rng = PeerRng(KG_STATE);
                move || {
                    use fn_dsa_03::KeyPairGenerator as _;
                    let mut sk = vec![0u8; fn_dsa_03::sign_key_size($logn)];
                    let mut vk = vec![0u8; fn_dsa_03::vrfy_key_size($logn)];
                    fn_dsa_03::KeyPairGeneratorStandard::default()
                        .keygen($logn, &mut rng, &mut sk, &mut vk);
                    (sk, vk)
                }
            };
            // The same seeds give the same keys (fn-dsa 0.3 design; at
            // degree 512 always, see fn-dsa/tests/keygen.rs).
            if $logn == 9 {
                assert_eq!(
                    &keygen_ours()().to_bytes()[..],
                    &keygen_03()().0[..],
                    "first bench seed"
                );
            }
            g.sample_size(10);
            g.bench_function("keygen/pqkit", |b| b.iter(keygen_ours()));
            g.bench_function("keygen/fn-dsa-0.4", |b| b.iter(keygen_04()));
            g.bench_function("keygen/fn-dsa-0.3", |b| b.iter(keygen_03()));
            g.sample_size(100);

            let sk = SigningKey::from_seed(&seed);
            let sk_bytes = sk.to_bytes().to_vec();
            let vk = sk.verifying_key();
            let vk_bytes = vk.as_bytes().to_vec();
            let (sk04, vk04) = keygen_04()();
            let (sk03, vk03) = keygen_03()();
            let mut s04 = {
                use fn_dsa_04::SigningKey as _;
                fn_dsa_04::SigningKeyStandard::decode(&sk04).unwrap()
            };
            let mut s03 = {
                use fn_dsa_03::SigningKey as _;
                fn_dsa_03::SigningKeyStandard::decode(&sk03).unwrap()
            };
            let mut rng = BenchRng::default();
            let mut prng = PeerRng(9);
            let mut sig = vec![0u8; SIGNATURE_SIZE];

            let mut sign_ours = || {
                sk.sign_message_randomized(&Message::raw(black_box(MSG)), &mut rng)
                    .unwrap()
            };
            let mut m1 = mean_us(&mut sign_ours);
            g.bench_function("sign/pqkit", |b| b.iter(&mut sign_ours));
            let mut sign_04 = || {
                use fn_dsa_04::SigningKey as _;
                s04.sign(
                    &mut prng,
                    &fn_dsa_04::DOMAIN_NONE,
                    &fn_dsa_04::HASH_ID_RAW,
                    black_box(MSG),
                    &mut sig,
                );
            };
            let m2 = mean_us(&mut sign_04);
            g.bench_function("sign/fn-dsa-0.4", |b| b.iter(&mut sign_04));
            let mut prng = PeerRng(9);
            let mut sig = vec![0u8; SIGNATURE_SIZE];
            let mut sign_03 = || {
                use fn_dsa_03::SigningKey as _;
                s03.sign(
                    &mut prng,
                    &fn_dsa_03::DOMAIN_NONE,
                    &fn_dsa_03::HASH_ID_RAW,
                    black_box(MSG),
                    &mut sig,
                );
            };
            let m3 = mean_us(&mut sign_03);
            g.bench_function("sign/fn-dsa-0.3", |b| b.iter(&mut sign_03));
            m1 = m1.min(mean_us(&mut sign_ours));
            table.push(row($name, "sign", m1, m2, m3));

            let mut rng = BenchRng::default();
            let mut sign_ours_b = || {
                SigningKey::from_bytes(black_box(&sk_bytes))
                    .unwrap()
                    .sign_message_randomized(&Message::raw(MSG), &mut rng)
                    .unwrap()
            };
            let mut prng = PeerRng(9);
            let mut sig = vec![0u8; SIGNATURE_SIZE];
            let mut sign_04_b = || {
                use fn_dsa_04::SigningKey as _;
                fn_dsa_04::SigningKeyStandard::decode(black_box(&sk04))
                    .unwrap()
                    .sign(
                        &mut prng,
                        &fn_dsa_04::DOMAIN_NONE,
                        &fn_dsa_04::HASH_ID_RAW,
                        MSG,
                        &mut sig,
                    );
            };
            let mut prng3 = PeerRng(9);
            let mut sig3 = vec![0u8; SIGNATURE_SIZE];
            let mut sign_03_b = || {
                use fn_dsa_03::SigningKey as _;
                fn_dsa_03::SigningKeyStandard::decode(black_box(&sk03))
                    .unwrap()
                    .sign(
                        &mut prng3,
                        &fn_dsa_03::DOMAIN_NONE,
                        &fn_dsa_03::HASH_ID_RAW,
                        MSG,
                        &mut sig3,
                    );
            };
            g.bench_function("sign-from-bytes/pqkit", |b| b.iter(&mut sign_ours_b));
            g.bench_function("sign-from-bytes/fn-dsa-0.4", |b| b.iter(&mut sign_04_b));
            g.bench_function("sign-from-bytes/fn-dsa-0.3", |b| b.iter(&mut sign_03_b));
            table.push(row(
                $name,
                "sign-from-bytes",
                mean_us(&mut sign_ours_b),
                mean_us(&mut sign_04_b),
                mean_us(&mut sign_03_b),
            ));

            // Verify one signature of each.
            let our_sig = sk
                .sign_message_randomized(&Message::raw(MSG), &mut BenchRng::default())
                .unwrap();
            let mut sig04 = vec![0u8; SIGNATURE_SIZE];
            {
                use fn_dsa_04::SigningKey as _;
                s04.sign(
                    &mut PeerRng(3),
                    &fn_dsa_04::DOMAIN_NONE,
                    &fn_dsa_04::HASH_ID_RAW,
                    MSG,
                    &mut sig04,
                );
            }
            let mut sig03 = vec![0u8; SIGNATURE_SIZE];
            {
                use fn_dsa_03::SigningKey as _;
                s03.sign(
                    &mut PeerRng(3),
                    &fn_dsa_03::DOMAIN_NONE,
                    &fn_dsa_03::HASH_ID_RAW,
                    MSG,
                    &mut sig03,
                );
            }
            let v04 = {
                use fn_dsa_04::VerifyingKey as _;
                fn_dsa_04::VerifyingKeyStandard::decode(&vk04).unwrap()
            };
            let v03 = {
                use fn_dsa_03::VerifyingKey as _;
                fn_dsa_03::VerifyingKeyStandard::decode(&vk03).unwrap()
            };
            let verify_ours = || {
                vk.verify_message(&Message::raw(black_box(MSG)), &our_sig)
                    .is_ok()
            };
            let verify_04 = || {
                use fn_dsa_04::VerifyingKey as _;
                v04.verify(
                    &sig04,
                    &fn_dsa_04::DOMAIN_NONE,
                    &fn_dsa_04::HASH_ID_RAW,
                    black_box(MSG),
                )
            };
            let verify_03 = || {
                use fn_dsa_03::VerifyingKey as _;
                v03.verify(
                    &sig03,
                    &fn_dsa_03::DOMAIN_NONE,
                    &fn_dsa_03::HASH_ID_RAW,
                    black_box(MSG),
                )
            };
            assert!(verify_ours() && verify_04() && verify_03());
            g.bench_function("verify/pqkit", |b| b.iter(verify_ours));
            g.bench_function("verify/fn-dsa-0.4", |b| b.iter(verify_04));
            g.bench_function("verify/fn-dsa-0.3", |b| b.iter(verify_03));
            table.push(row(
                $name,
                "verify",
                mean_us(verify_ours),
                mean_us(verify_04),
                mean_us(verify_03),
            ));

            // 64 distinct messages and signatures, cycled: what a verifier
            // of many signatures sees (no branch history to reuse).
            let msgs: Vec<Vec<u8>> = (0..64u8).map(|i| [MSG, &[i]].concat()).collect();
            let ours64: Vec<_> = msgs
                .iter()
                .map(|m| {
                    sk.sign_message_randomized(&Message::raw(m), &mut BenchRng::default())
                        .unwrap()
                })
                .collect();
            let sigs04: Vec<Vec<u8>> = msgs
                .iter()
                .map(|m| {
                    use fn_dsa_04::SigningKey as _;
                    let mut sig = vec![0u8; SIGNATURE_SIZE];
                    s04.sign(
                        &mut PeerRng(5),
                        &fn_dsa_04::DOMAIN_NONE,
                        &fn_dsa_04::HASH_ID_RAW,
                        m,
                        &mut sig,
                    );
                    sig
                })
                .collect();
            let mut n1 = 0;
            let mut verify_ours_64 = || {
                n1 = (n1 + 1) % 64;
                vk.verify_message(&Message::raw(black_box(&msgs[n1])), &ours64[n1])
                    .is_ok()
            };
            let mut n2 = 0;
            let mut verify_04_64 = || {
                use fn_dsa_04::VerifyingKey as _;
                n2 = (n2 + 1) % 64;
                v04.verify(
                    &sigs04[n2],
                    &fn_dsa_04::DOMAIN_NONE,
                    &fn_dsa_04::HASH_ID_RAW,
                    black_box(&msgs[n2]),
                )
            };
            assert!((0..64).all(|_| verify_ours_64() && verify_04_64()));
            g.bench_function("verify-64-distinct/pqkit", |b| b.iter(&mut verify_ours_64));
            g.bench_function("verify-64-distinct/fn-dsa-0.4", |b| {
                b.iter(&mut verify_04_64)
            });
            table.push(row(
                $name,
                "verify-64-distinct",
                mean_us(&mut verify_ours_64),
                mean_us(&mut verify_04_64),
                f64::NAN,
            ));

            let verify_ours_b = || {
                VerifyingKey::from_bytes(black_box(&vk_bytes))
                    .unwrap()
                    .verify_message(&Message::raw(MSG), &our_sig)
                    .is_ok()
            };
            let verify_04_b = || {
                use fn_dsa_04::VerifyingKey as _;
                fn_dsa_04::VerifyingKeyStandard::decode(black_box(&vk04))
                    .unwrap()
                    .verify(
                        &sig04,
                        &fn_dsa_04::DOMAIN_NONE,
                        &fn_dsa_04::HASH_ID_RAW,
                        MSG,
                    )
            };
            let verify_03_b = || {
                use fn_dsa_03::VerifyingKey as _;
                fn_dsa_03::VerifyingKeyStandard::decode(black_box(&vk03))
                    .unwrap()
                    .verify(
                        &sig03,
                        &fn_dsa_03::DOMAIN_NONE,
                        &fn_dsa_03::HASH_ID_RAW,
                        MSG,
                    )
            };
            g.bench_function("verify-from-bytes/pqkit", |b| b.iter(verify_ours_b));
            g.bench_function("verify-from-bytes/fn-dsa-0.4", |b| b.iter(verify_04_b));
            g.bench_function("verify-from-bytes/fn-dsa-0.3", |b| b.iter(verify_03_b));
            table.push(row(
                $name,
                "verify-from-bytes",
                mean_us(verify_ours_b),
                mean_us(verify_04_b),
                mean_us(verify_03_b),
            ));
            // Keygen last in the table (slowest to average).
            table.push(row(
                $name,
                "keygen",
                mean_us(keygen_ours()),
                mean_us(keygen_04()),
                mean_us(keygen_03()),
            ));
            g.finish();
        }
    };
}

fn row(set: &str, op: &str, ours: f64, v04: f64, v03: f64) -> String {
    format!(
        "{set} {op:<17} pqkit {ours:>9.1}  fn-dsa-0.4 {v04:>9.1}  fn-dsa-0.3 {v03:>9.1}  ratio {:.2}",
        ours / v04.min(v03)
    )
}

bench_set!(set512, "FN-DSA-512", fn_dsa_512, 9);
bench_set!(set1024, "FN-DSA-1024", fn_dsa_1024, 10);

fn all(c: &mut Criterion) {
    let mut table = Vec::new();
    set512(c, &mut table);
    set1024(c, &mut table);
    println!("\nFN-DSA mean µs (300 ms each) and pqkit / best peer:");
    for line in table {
        println!("{line}");
    }
}

criterion_group!(benches, all);
criterion_main!(benches);
