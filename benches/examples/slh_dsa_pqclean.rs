//! pqkit-slh-dsa beside PQClean's SPHINCS+ (`pqcrypto-sphincsplus`, its
//! AVX2 implementations where the CPU has AVX2), all twelve parameter
//! sets in one process, in the manner of pqkit-slh-dsa's `peers` example:
//! every round runs each implementation's 30 ms batch in turn, and the
//! fastest batch of `ROUNDS` (default 3) is reported, in ms per
//! operation, with pqkit's time over PQClean's.
//!
//! ```text
//! cargo run --release -p pqkit-benches --example slh_dsa_pqclean -- [SETS] [ROUNDS]
//! ```
//!
//! PQClean implements SPHINCS+ round 3.1, whose "simple" sets have FIPS
//! 205's parameters and tree structure but not its outputs (FIPS 205
//! changed the SHA2 sets' `H_msg` MGF1 input and the message encoding),
//! so it is a timing peer only: nothing is compared byte for byte. Its
//! key generation draws fresh randomness (pqkit's starts from fixed
//! seeds), and its signing is randomised (pqkit's `slh_sign_internal`
//! here is deterministic: the same hashing).
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::hint::black_box;

#[path = "../../slh-dsa/tests/common/mod.rs"]
mod common;

use common::race;
use pqcrypto_sphincsplus as pqc;
use pqcrypto_traits::sign::DetachedSignature as _;
use pqkit_slh_dsa::{ParameterSet, hazmat};

macro_rules! row {
    ($name:literal, $ours:ty, $pqc:ident, $rounds:expr) => {{
        let n = <$ours as ParameterSet>::N;
        let seed = vec![7u8; n];
        let sk = hazmat::slh_keygen_internal::<$ours>(&seed, &seed, &seed).expect("key");
        let vk = sk.verifying_key();
        let msg: &[u8] = b"pqkit-slh-dsa beside PQClean";
        let sig = hazmat::slh_sign_internal::<$ours>(&sk, &[msg], None).expect("sign");
        let (ppk, psk) = pqc::$pqc::keypair();
        let psig = pqc::$pqc::detached_sign(msg, &psk);
        assert_eq!(sig.as_ref().len(), psig.as_bytes().len(), "signature sizes");
        assert!(pqc::$pqc::verify_detached_signature(&psig, msg, &ppk).is_ok());
        let rounds = $rounds;
        let ops: [(&str, Vec<f64>); 3] = [
            (
                "keygen",
                race(
                    rounds,
                    &mut [
                        &mut || {
                            black_box(
                                hazmat::slh_keygen_internal::<$ours>(
                                    black_box(&seed),
                                    &seed,
                                    &seed,
                                )
                                .expect("key"),
                            );
                        },
                        &mut || {
                            black_box(pqc::$pqc::keypair());
                        },
                    ],
                ),
            ),
            (
                "sign",
                race(
                    rounds,
                    &mut [
                        &mut || {
                            black_box(
                                hazmat::slh_sign_internal::<$ours>(&sk, &[black_box(msg)], None)
                                    .expect("sign"),
                            );
                        },
                        &mut || {
                            black_box(pqc::$pqc::detached_sign(black_box(msg), &psk));
                        },
                    ],
                ),
            ),
            (
                "verify",
                race(
                    rounds,
                    &mut [
                        &mut || {
                            assert!(
                                hazmat::slh_verify_internal::<$ours>(
                                    &vk,
                                    &[black_box(msg)],
                                    sig.as_ref()
                                )
                                .is_ok()
                            );
                        },
                        &mut || {
                            assert!(
                                pqc::$pqc::verify_detached_signature(&psig, black_box(msg), &ppk)
                                    .is_ok()
                            );
                        },
                    ],
                ),
            ),
        ];
        for (op, t) in ops {
            println!(
                "| {} {op} | {:.3} | {:.3} | {:.2}x |",
                $name,
                t[0],
                t[1],
                t[0] / t[1]
            );
        }
    }};
}

fn main() {
    let mut args = std::env::args().skip(1);
    let sets = args.next().unwrap_or_default();
    let rounds: usize = args.next().map_or(3, |r| r.parse().expect("ROUNDS"));
    let want = |name: &str| sets.is_empty() || sets.split('|').any(|s| name.contains(s));
    println!("| SLH-DSA / SPHINCS+ (ms per operation) | pqkit | PQClean | pqkit / PQClean |");
    println!("|---|---|---|---|");
    macro_rules! sets {
        ($($name:literal, $ours:ty, $pqc:ident;)*) => {$(
            if want($name) {
                row!($name, $ours, $pqc, rounds);
            }
        )*};
    }
    sets! {
        "SHA2-128s", pqkit_slh_dsa::Sha2_128s, sphincssha2128ssimple;
        "SHAKE-128s", pqkit_slh_dsa::Shake128s, sphincsshake128ssimple;
        "SHA2-128f", pqkit_slh_dsa::Sha2_128f, sphincssha2128fsimple;
        "SHAKE-128f", pqkit_slh_dsa::Shake128f, sphincsshake128fsimple;
        "SHA2-192s", pqkit_slh_dsa::Sha2_192s, sphincssha2192ssimple;
        "SHAKE-192s", pqkit_slh_dsa::Shake192s, sphincsshake192ssimple;
        "SHA2-192f", pqkit_slh_dsa::Sha2_192f, sphincssha2192fsimple;
        "SHAKE-192f", pqkit_slh_dsa::Shake192f, sphincsshake192fsimple;
        "SHA2-256s", pqkit_slh_dsa::Sha2_256s, sphincssha2256ssimple;
        "SHAKE-256s", pqkit_slh_dsa::Shake256s, sphincsshake256ssimple;
        "SHA2-256f", pqkit_slh_dsa::Sha2_256f, sphincssha2256fsimple;
        "SHAKE-256f", pqkit_slh_dsa::Shake256f, sphincsshake256fsimple;
    }
}
