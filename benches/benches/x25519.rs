//! X25519 public key and shared secret: pqkit beside x25519-dalek 3.0 and
//! aws-lc-rs in one process, same secret and peer key. Prints mean µs and
//! the pqkit / peer ratios at the end.
//!
//! keygen is "secret bytes to public key bytes" (the base-point product:
//! pqkit runs the ladder on u = 9, the peers a fixed-base method); agree is
//! one exchange with a peer's public key given as bytes.
#![allow(missing_docs, clippy::expect_used, clippy::unwrap_used)]

use std::hint::black_box;

use aws_lc_rs::agreement::{self, PrivateKey, UnparsedPublicKey, X25519};
use criterion::{Criterion, criterion_group, criterion_main};
use pqkit_benches::mean_us;

const SECRET: [u8; 32] = [0x42; 32];
const PEER: [u8; 32] = [0x17; 32];

fn all(c: &mut Criterion) {
    let ours = pqkit_x25519::StaticSecret::from(SECRET);
    let theirs = x25519_dalek::StaticSecret::from(SECRET);
    let aws = PrivateKey::from_private_key(&X25519, &SECRET).unwrap();
    let peer_public = pqkit_x25519::PublicKey::from(&pqkit_x25519::StaticSecret::from(PEER));
    let peer_bytes = peer_public.to_bytes();
    let want = ours.diffie_hellman(&peer_public).to_bytes();
    assert_eq!(
        theirs
            .diffie_hellman(&x25519_dalek::PublicKey::from(peer_bytes))
            .to_bytes(),
        want
    );
    let aws_agree = || {
        agreement::agree(
            &aws,
            UnparsedPublicKey::new(&X25519, black_box(&peer_bytes)),
            (),
            |k| Ok(<[u8; 32]>::try_from(k).unwrap()),
        )
        .unwrap()
    };
    assert_eq!(aws_agree(), want);
    assert_eq!(
        aws.compute_public_key().unwrap().as_ref(),
        pqkit_x25519::PublicKey::from(&ours).as_bytes()
    );

    let keygen_ours =
        || pqkit_x25519::PublicKey::from(&pqkit_x25519::StaticSecret::from(black_box(SECRET)));
    let keygen_dalek =
        || x25519_dalek::PublicKey::from(&x25519_dalek::StaticSecret::from(black_box(SECRET)));
    let keygen_aws = || {
        PrivateKey::from_private_key(&X25519, black_box(&SECRET))
            .unwrap()
            .compute_public_key()
            .unwrap()
    };
    let agree_ours = || {
        ours.diffie_hellman(&pqkit_x25519::PublicKey::from(black_box(peer_bytes)))
            .to_bytes()
    };
    let agree_dalek = || {
        theirs
            .diffie_hellman(&x25519_dalek::PublicKey::from(black_box(peer_bytes)))
            .to_bytes()
    };

    let mut g = c.benchmark_group("X25519");
    g.bench_function("keygen/pqkit", |b| b.iter(keygen_ours));
    g.bench_function("keygen/dalek", |b| b.iter(keygen_dalek));
    g.bench_function("keygen/aws-lc-rs", |b| b.iter(keygen_aws));
    g.bench_function("agree/pqkit", |b| b.iter(agree_ours));
    g.bench_function("agree/dalek", |b| b.iter(agree_dalek));
    g.bench_function("agree/aws-lc-rs", |b| b.iter(aws_agree));
    g.finish();

    println!("\nX25519 mean µs (300 ms each) and pqkit / peer:");
    for (op, o, d, a) in [
        (
            "keygen",
            mean_us(keygen_ours),
            mean_us(keygen_dalek),
            mean_us(keygen_aws),
        ),
        (
            "agree",
            mean_us(agree_ours),
            mean_us(agree_dalek),
            mean_us(aws_agree),
        ),
    ] {
        println!(
            "X25519 {op:<6} pqkit {o:>7.2}  dalek {d:>7.2}  ratio {:.2}  aws-lc-rs {a:>7.2}  ratio {:.2}",
            o / d,
            o / a
        );
    }
}

criterion_group!(benches, all);
criterion_main!(benches);
