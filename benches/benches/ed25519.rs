//! Ed25519 keygen / sign / verify / batch verification: pqkit beside
//! ed25519-dalek 3.0 and aws-lc-rs in one process, same keys and messages.
//! Prints mean µs and the pqkit / peer ratios at the end.
//!
//! keygen is "secret key bytes to a signing key" (SHA-512, `[a]B`, encoding
//! of `A`) for all three. verify is with a decoded public key (pqkit,
//! dalek, and aws-lc-rs's `ParsedPublicKey`). batch is 64 signatures under
//! 64 different keys, reported per signature.
#![allow(missing_docs, clippy::expect_used, clippy::unwrap_used)]

use std::hint::black_box;

use aws_lc_rs::signature::{ED25519, Ed25519KeyPair, KeyPair, ParsedPublicKey};
use criterion::{Criterion, criterion_group, criterion_main};
use pqkit_benches::mean_us;
use signature::{Signer, Verifier};

const SECRET: [u8; 32] = [0x42; 32];
const MSG: &[u8] = b"The quick brown fox jumps over the lazy dog, a 64-byte message!!";
const BATCH: usize = 64;

fn all(c: &mut Criterion) {
    let ours = pqkit_ed25519::SigningKey::from_bytes(&SECRET);
    let theirs = ed25519_dalek::SigningKey::from_bytes(&SECRET);
    let aws = Ed25519KeyPair::from_seed_unchecked(&SECRET).unwrap();
    let (vk, dvk) = (ours.verifying_key(), theirs.verifying_key());
    let avk = ParsedPublicKey::new(&ED25519, aws.public_key().as_ref()).unwrap();
    let (sig, dsig) = (ours.sign(MSG), theirs.sign(MSG));
    assert_eq!(sig.to_bytes(), dsig.to_bytes());
    assert_eq!(aws.sign(MSG).as_ref(), &sig.to_bytes());

    // Batch: 64 keys, 64 messages.
    let keys: Vec<_> = (0..BATCH)
        .map(|i| pqkit_ed25519::SigningKey::from_bytes(&[i as u8; 32]))
        .collect();
    let msgs: Vec<Vec<u8>> = (0..BATCH).map(|i| vec![i as u8; 100]).collect();
    let sigs: Vec<_> = keys.iter().zip(&msgs).map(|(k, m)| k.sign(m)).collect();
    let vks: Vec<_> = keys.iter().map(|k| k.verifying_key()).collect();
    let dvks: Vec<_> = vks
        .iter()
        .map(|v| ed25519_dalek::VerifyingKey::from_bytes(v.as_bytes()).unwrap())
        .collect();
    let dsigs: Vec<_> = sigs
        .iter()
        .map(|s| ed25519_dalek::Signature::from_bytes(&s.to_bytes()))
        .collect();
    let dmsgs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
    assert!(pqkit_ed25519::verify_batch(&dmsgs, &sigs, &vks).is_ok());
    assert!(ed25519_dalek::verify_batch(&dmsgs, &dsigs, &dvks).is_ok());

    let keygen_ours = || pqkit_ed25519::SigningKey::from_bytes(black_box(&SECRET));
    let keygen_dalek = || ed25519_dalek::SigningKey::from_bytes(black_box(&SECRET));
    let keygen_aws = || Ed25519KeyPair::from_seed_unchecked(black_box(&SECRET)).unwrap();
    let sign_ours = || ours.sign(black_box(MSG));
    let sign_dalek = || theirs.sign(black_box(MSG));
    let sign_aws = || aws.sign(black_box(MSG));
    let verify_ours = || vk.verify(black_box(MSG), &sig).is_ok();
    let verify_dalek = || dvk.verify(black_box(MSG), &dsig).is_ok();
    let verify_aws = || avk.verify_sig(black_box(MSG), &sig.to_bytes()).is_ok();
    let batch_ours = || pqkit_ed25519::verify_batch(black_box(&dmsgs), &sigs, &vks).is_ok();
    let batch_dalek = || ed25519_dalek::verify_batch(black_box(&dmsgs), &dsigs, &dvks).is_ok();

    let mut g = c.benchmark_group("Ed25519");
    g.bench_function("keygen/pqkit", |b| b.iter(keygen_ours));
    g.bench_function("keygen/dalek", |b| b.iter(keygen_dalek));
    g.bench_function("keygen/aws-lc-rs", |b| b.iter(keygen_aws));
    g.bench_function("sign/pqkit", |b| b.iter(sign_ours));
    g.bench_function("sign/dalek", |b| b.iter(sign_dalek));
    g.bench_function("sign/aws-lc-rs", |b| b.iter(sign_aws));
    g.bench_function("verify/pqkit", |b| b.iter(verify_ours));
    g.bench_function("verify/dalek", |b| b.iter(verify_dalek));
    g.bench_function("verify/aws-lc-rs", |b| b.iter(verify_aws));
    g.bench_function("batch-64/pqkit", |b| b.iter(batch_ours));
    g.bench_function("batch-64/dalek", |b| b.iter(batch_dalek));
    g.finish();

    println!("\nEd25519 mean µs (300 ms each) and pqkit / peer:");
    let per = BATCH as f64;
    for (op, o, d, a) in [
        (
            "keygen",
            mean_us(keygen_ours),
            mean_us(keygen_dalek),
            Some(mean_us(keygen_aws)),
        ),
        (
            "sign",
            mean_us(sign_ours),
            mean_us(sign_dalek),
            Some(mean_us(sign_aws)),
        ),
        (
            "verify",
            mean_us(verify_ours),
            mean_us(verify_dalek),
            Some(mean_us(verify_aws)),
        ),
        (
            "batch/sig",
            mean_us(batch_ours) / per,
            mean_us(batch_dalek) / per,
            None,
        ),
    ] {
        let mut line = format!(
            "Ed25519 {op:<9} pqkit {o:>7.2}  dalek {d:>7.2}  ratio {:.2}",
            o / d
        );
        if let Some(a) = a {
            line += &format!("  aws-lc-rs {a:>7.2}  ratio {:.2}", o / a);
        }
        println!("{line}");
    }
}

criterion_group!(benches, all);
criterion_main!(benches);
