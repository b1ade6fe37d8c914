//! The low-memory ML-DSA path (`pqkit_ml_dsa::lowmem`) beside pqkit's fast
//! path, per parameter set: keygen (the public key from the seed), signing
//! (deterministic, from a key object: the compact key vs the regular one;
//! and merged keygen-and-sign from the seed), verification from the
//! encoded public key and signature. Prints the low-memory path's
//! throughput as a share of the fast path's at the end.
#![allow(missing_docs, clippy::expect_used, clippy::unwrap_used)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use pqkit_benches::mean_us;
use pqkit_ml_dsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey, VerifyingKey, lowmem};

fn set<P: ParameterSet>(c: &mut Criterion, table: &mut Vec<String>) {
    let seed = [7u8; 32].into();
    let mut g = c.benchmark_group(format!("{} lowmem", P::NAME));
    let fast = SigningKey::<P>::from_seed(&seed);
    let compact = lowmem::SigningKey::<P>::from_seed(&seed);
    let pk = fast.verifying_key().as_bytes().to_vec();
    // Distinct messages and signatures for verification.
    let sigs: Vec<(Vec<u8>, Vec<u8>)> = (0..16u8)
        .map(|i| {
            let m = vec![i; 64];
            let s = fast
                .sign_deterministic(&m, b"")
                .unwrap()
                .as_bytes()
                .to_vec();
            (m, s)
        })
        .collect();
    let keygen_fast = || SigningKey::<P>::from_seed(black_box(&seed)).verifying_key();
    let keygen_low = || lowmem::keygen::<P>(black_box(&seed));
    let sign_fast = || fast.sign_deterministic(black_box(b"message"), b"").unwrap();
    let sign_low = || {
        compact
            .sign_deterministic(black_box(b"message"), b"")
            .unwrap()
    };
    let sign_seed =
        || lowmem::sign_from_seed::<P>(black_box(&seed), b"message", b"", &[0; 32]).unwrap();
    let mut i = 0;
    let mut verify_fast = || {
        i = (i + 1) % sigs.len();
        let (m, s) = &sigs[i];
        let vk = VerifyingKey::<P>::from_bytes(black_box(&pk)).unwrap();
        vk.verify_multipart_with_context(&[m], b"", s).is_ok()
    };
    let mut j = 0;
    let mut verify_low = || {
        j = (j + 1) % sigs.len();
        let (m, s) = &sigs[j];
        lowmem::verify::<P>(black_box(&pk), m, b"", s).is_ok()
    };
    assert!(verify_fast() && verify_low());
    g.bench_function("keygen/fast", |b| b.iter(keygen_fast));
    g.bench_function("keygen/lowmem", |b| b.iter(keygen_low));
    g.bench_function("sign/fast", |b| b.iter(sign_fast));
    g.bench_function("sign/lowmem", |b| b.iter(sign_low));
    g.bench_function("sign-from-seed/lowmem", |b| b.iter(sign_seed));
    g.bench_function("verify-from-bytes/fast", |b| b.iter(&mut verify_fast));
    g.bench_function("verify-from-bytes/lowmem", |b| b.iter(&mut verify_low));
    g.finish();
    let rows = [
        ("keygen", mean_us(keygen_fast), mean_us(keygen_low)),
        ("sign", mean_us(sign_fast), mean_us(sign_low)),
        ("sign from seed", mean_us(sign_fast), mean_us(sign_seed)),
        (
            "verify from bytes",
            mean_us(&mut verify_fast),
            mean_us(&mut verify_low),
        ),
    ];
    for (op, f, l) in rows {
        table.push(format!(
            "{:10} {op:18} fast {f:8.1} us  lowmem {l:8.1} us  lowmem throughput {:5.1}% of fast",
            P::NAME,
            100.0 * f / l
        ));
    }
}

fn all(c: &mut Criterion) {
    let mut table = Vec::new();
    set::<MlDsa44>(c, &mut table);
    set::<MlDsa65>(c, &mut table);
    set::<MlDsa87>(c, &mut table);
    println!("\nML-DSA low-memory path vs the fast path (µs; throughput share):");
    for line in table {
        println!("{line}");
    }
}

criterion_group!(benches, all);
criterion_main!(benches);
