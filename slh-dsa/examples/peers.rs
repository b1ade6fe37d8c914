//! pqkit-slh-dsa beside RustCrypto `slh-dsa` 0.2.0-rc.5 and `fips205` 0.5
//! in one process: key generation from seeds, deterministic signing
//! (`slh_sign_internal`) with a key made once and with one decoded from
//! its bytes each time, and verification, for the parameter sets asked
//! (all twelve by default), interleaved: every round runs each
//! implementation's batch in turn, and the fastest batch of
//! `ROUNDS` (default 3) is reported, in ms per operation, with pqkit's
//! time over the faster peer's.
//!
//! ```text
//! cargo run --release -p pqkit-slh-dsa --example peers -- [SETS] [ROUNDS]
//! ```
//!
//! SETS is a `|`-separated list of substrings of the set names
//! (`SHA2-128f`, `SHAKE-256s`, ...). The peers' APIs are those of the
//! differential tests (`tests/common`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../tests/common/mod.rs"]
mod common;

use common::{Op, Peer, race};
use std::hint::black_box;

fn row<P: Peer>(name: &str, rounds: usize) {
    let n = P::N;
    let (s, p, q): (Vec<u8>, Vec<u8>, Vec<u8>) = (
        (0..n as u8).collect(),
        (0..n as u8).map(|b| b ^ 0x55).collect(),
        (0..n as u8).map(|b| b ^ 0xaa).collect(),
    );
    let sk = pqkit_slh_dsa::hazmat::slh_keygen_internal::<P>(&s, &p, &q).expect("key");
    let vk = sk.verifying_key();
    let (skb, pkb) = (sk.as_bytes().to_vec(), vk.as_bytes().to_vec());
    let msg: &[u8] = b"pqkit-slh-dsa peers";
    let op = Op::Internal(msg);
    let sig = pqkit_slh_dsa::hazmat::slh_sign_internal::<P>(&sk, &[msg], None).expect("sign");
    let sig = sig.as_ref().to_vec();
    // The three agree before anything is timed.
    assert_eq!(P::rc_keygen(&s, &p, &q), (skb.clone(), pkb.clone()));
    assert_eq!(P::rc_sign(&skb, op, None).as_deref(), Some(&sig[..]));
    assert_eq!(P::fips_sign(&skb, op, None), sig);

    let kg = race(
        rounds,
        &mut [
            &mut || {
                black_box(pqkit_slh_dsa::hazmat::slh_keygen_internal::<P>(&s, &p, &q).ok());
            },
            &mut || {
                black_box(P::rc_keygen(&s, &p, &q));
            },
            &mut || {
                black_box(P::fips_keygen(&s, &p, &q));
            },
        ],
    );
    let sg = race(
        rounds,
        &mut [
            &mut || {
                black_box(pqkit_slh_dsa::hazmat::slh_sign_internal::<P>(&sk, &[msg], None).ok());
            },
            &mut || {
                black_box(P::rc_sign(&skb, op, None));
            },
            &mut || {
                black_box(P::fips_sign(&skb, op, None));
            },
        ],
    );
    // Signing with a key loaded from its encoding each time: the peers'
    // closures above already decode theirs; pqkit's `from_bytes` also
    // recomputes the top tree (PK.root, checked, and the nodes a key
    // keeps for signing).
    let sb = race(
        rounds,
        &mut [
            &mut || {
                let key = pqkit_slh_dsa::SigningKey::<P>::from_bytes(&skb).unwrap();
                black_box(pqkit_slh_dsa::hazmat::slh_sign_internal::<P>(&key, &[msg], None).ok());
            },
            &mut || {
                black_box(P::rc_sign(&skb, op, None));
            },
            &mut || {
                black_box(P::fips_sign(&skb, op, None));
            },
        ],
    );
    let vf = race(
        rounds,
        &mut [
            &mut || {
                assert!(pqkit_slh_dsa::hazmat::slh_verify_internal::<P>(&vk, &[msg], &sig).is_ok());
            },
            &mut || assert_eq!(P::rc_verify(&pkb, op, &sig), Some(true)),
            &mut || assert!(P::fips_verify(&pkb, op, &sig)),
        ],
    );
    for (what, t) in [
        ("keygen", kg),
        ("sign", sg),
        ("sign, key from bytes", sb),
        ("verify", vf),
    ] {
        println!(
            "| {name} {what} | {:.3} | {:.3} | {:.3} | {:.2}x |",
            t[0],
            t[1],
            t[2],
            t[0] / t[1].min(t[2])
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let wanted: Vec<String> = args
        .first()
        .map(|f| {
            f.split('|')
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect()
        })
        .unwrap_or_default();
    let rounds = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(3).max(1);
    let on = |name: &str| wanted.is_empty() || wanted.iter().any(|w| name.contains(w.as_str()));
    println!(
        "| SLH-DSA (ms per operation) | pqkit | RustCrypto slh-dsa | fips205 | pqkit / best peer |"
    );
    println!("|---|---|---|---|---|");
    macro_rules! sets {
        ($($name:literal => $set:ident),*) => {$(
            if on($name) {
                row::<pqkit_slh_dsa::$set>($name, rounds);
            }
        )*};
    }
    sets!(
        "SHA2-128s" => Sha2_128s, "SHAKE-128s" => Shake128s,
        "SHA2-128f" => Sha2_128f, "SHAKE-128f" => Shake128f,
        "SHA2-192s" => Sha2_192s, "SHAKE-192s" => Shake192s,
        "SHA2-192f" => Sha2_192f, "SHAKE-192f" => Shake192f,
        "SHA2-256s" => Sha2_256s, "SHAKE-256s" => Shake256s,
        "SHA2-256f" => Sha2_256f, "SHAKE-256f" => Shake256f
    );
}
