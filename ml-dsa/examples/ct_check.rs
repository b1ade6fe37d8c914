//! Constant-time check of ML-DSA keygen and signing (TIMECOP method).
//!
//! The seed xi and the signing randomness are marked *undefined* for
//! valgrind memcheck; any branch or memory address depending on them (or on
//! anything derived from them, such as K, s1, s2, t0, y) is reported.
//! Only what FIPS 204 makes public is declassified inside the crate (see
//! the crate docs). Run:
//!
//! ```text
//! cargo build --release -p pqkit-ml-dsa --example ct_check --features ct-check
//! valgrind --error-exitcode=1 target/release/examples/ct_check          # AVX2
//! PQKIT_BACKEND=portable valgrind --error-exitcode=1 target/release/examples/ct_check
//! NEGATIVE_CONTROL=1 valgrind --error-exitcode=1 target/release/examples/ct_check  # must fail
//! ```
#![allow(clippy::expect_used, clippy::unwrap_used)]

use pqkit_common::ctgrind::{poison, unpoison};
use pqkit_ml_dsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey};

fn run<P: ParameterSet>() {
    let xi = [7u8; 32];
    poison(&xi);
    let sk = SigningKey::<P>::from_seed(&xi).expect("keygen");
    if std::env::var_os("NEGATIVE_CONTROL").is_some() && sk.expanded_bytes().as_ref()[40] == 3 {
        // A deliberate branch on the secret key K: memcheck must report it.
        println!("negative control");
    }
    let rnd = [9u8; 32];
    poison(&rnd);
    let hedged = sk
        .sign_with_rnd(b"message", b"context", &rnd)
        .expect("sign");
    unpoison(&hedged);
    let det = sk
        .sign_deterministic(b"another message", b"")
        .expect("sign");
    unpoison(&det);
    println!(
        "{}: ok ({} {})",
        P::NAME,
        hedged.as_bytes()[0],
        det.as_bytes()[0]
    );
}

fn main() {
    run::<MlDsa44>();
    run::<MlDsa65>();
    run::<MlDsa87>();
}
