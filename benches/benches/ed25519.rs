//! Ed25519 keygen / sign / verify: pqkit beside ed25519-dalek 3.0 in one
//! process, same keys and messages. Prints pqkit / dalek ratios at the end.
#![allow(missing_docs, clippy::expect_used, clippy::unwrap_used)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use pqkit_benches::mean_us;
use signature::{Signer, Verifier};

const SECRET: [u8; 32] = [0x42; 32];
const MSG: &[u8] = b"The quick brown fox jumps over the lazy dog, a 64-byte message!!";

fn all(c: &mut Criterion) {
    let ours = pqkit_ed25519::SigningKey::from_bytes(&SECRET);
    let theirs = ed25519_dalek::SigningKey::from_bytes(&SECRET);
    let (vk, dvk) = (ours.verifying_key(), theirs.verifying_key());
    let (sig, dsig) = (ours.sign(MSG), theirs.sign(MSG));
    assert_eq!(sig.to_bytes(), dsig.to_bytes());

    let keygen_ours = || pqkit_ed25519::SigningKey::from_bytes(black_box(&SECRET));
    let keygen_dalek = || ed25519_dalek::SigningKey::from_bytes(black_box(&SECRET));
    let sign_ours = || ours.sign(black_box(MSG));
    let sign_dalek = || theirs.sign(black_box(MSG));
    let verify_ours = || vk.verify(black_box(MSG), &sig).is_ok();
    let verify_dalek = || dvk.verify(black_box(MSG), &dsig).is_ok();

    let mut g = c.benchmark_group("Ed25519");
    g.bench_function("keygen/pqkit", |b| b.iter(keygen_ours));
    g.bench_function("keygen/dalek", |b| b.iter(keygen_dalek));
    g.bench_function("sign/pqkit", |b| b.iter(sign_ours));
    g.bench_function("sign/dalek", |b| b.iter(sign_dalek));
    g.bench_function("verify/pqkit", |b| b.iter(verify_ours));
    g.bench_function("verify/dalek", |b| b.iter(verify_dalek));
    g.finish();

    println!("\nEd25519 mean µs (300 ms each) and pqkit / dalek:");
    for (op, o, d) in [
        ("keygen", mean_us(keygen_ours), mean_us(keygen_dalek)),
        ("sign", mean_us(sign_ours), mean_us(sign_dalek)),
        ("verify", mean_us(verify_ours), mean_us(verify_dalek)),
    ] {
        println!(
            "Ed25519 {op:<7} pqkit {o:>7.2}  dalek {d:>7.2}  ratio {:.2}",
            o / d
        );
    }
}

criterion_group!(benches, all);
criterion_main!(benches);
