//! Interleaved comparison for noisy machines: for each row, pqkit and the
//! peers run in turn, one batch of about 3 ms each per round (30 ms for
//! hedged signing, whose time per operation is random), and the row
//! reports each one's fastest and median batch (µs per operation), the
//! ratio of pqkit's fastest to the best peer's fastest, and the median
//! over rounds of pqkit's batch over the best peer's batch of the same
//! round (steadier when a slow spell of a shared machine lasts a row).
//!
//! Criterion measures one function after another and reports a mean, so a
//! burst of load from elsewhere on a shared machine lands on whichever
//! function runs then. Here every round measures every implementation
//! within a few milliseconds, and the minimum over rounds is the run least
//! disturbed. It complements the criterion benches; it does not replace
//! them.
//!
//! ```text
//! cargo run --profile downstream -p pqkit-benches --example interleaved -- [FILTER] [ROUNDS]
//! ```
//!
//! FILTER is a `|`-separated list of substrings of row names (all rows if
//! empty); ROUNDS defaults to 40. The rows are those of issue 18 where the
//! peers have a matching API: ML-KEM keygen, encapsulation from `ek` bytes
//! and decapsulation from expanded `dk` bytes (64 distinct ciphertexts)
//! against aws-lc-rs; ML-DSA keygen to a signing key against libcrux and
//! aws-lc-rs, to the encodings only against libcrux, and a new key's
//! first signature against libcrux (the two signatures checked equal),
//! signing from expanded key bytes against libcrux, hedged signing after the
//! validated import against aws-lc-rs, and verification from public
//! key bytes (64 distinct signatures) against aws-lc-rs; Saber keygen,
//! import then decapsulation and the one-shot decapsulation from `sk`
//! bytes (16 ciphertexts) against PQClean's AVX2 code; FN-DSA key
//! generation from fixed seeds, signing from key bytes and verification
//! from public-key bytes (64 distinct signatures) against fn-dsa 0.4 and
//! 0.3; Ed25519 key generation, signing, verification from public-key
//! bytes (64 distinct keys and signatures) against ed25519-dalek,
//! aws-lc-rs and graviola, and batch verification of 64 signatures from
//! bytes against ed25519-dalek; X25519 key generation and agreement with
//! 64 distinct public keys against x25519-dalek, aws-lc-rs and graviola,
//! and the ephemeral exchange (generate, agree) against ring; composite
//! ML-DSA signing and verification (ML-DSA-44/65 with Ed25519, ML-DSA-65
//! with ECDSA P-256, ML-DSA-87 with P-384) beside the sum of pqkit's two
//! halves measured alone (no peer crate has the draft); full TLS 1.3
//! handshakes (X25519MLKEM768, an ML-DSA chain and an Ed25519 chain)
//! through pqkit-rustls against rustls's aws-lc-rs provider.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../../rustls/tests/pki/mod.rs"]
mod pki;
#[path = "../benches/shared/tls_setup.rs"]
mod tls_setup;

use std::hint::black_box;
use std::time::Instant;

/// One implementation of a row: its name and one operation.
type Imp = (&'static str, Box<dyn FnMut()>);

/// A row: its name and the implementations, pqkit's (one or more) first.
struct Row {
    name: String,
    /// How many of `imps` are pqkit's (1 unless a row compares two pqkit
    /// paths with the peers).
    ours: usize,
    /// Length of one batch, ms: 3, or 30 where one operation's time is
    /// random (hedged signing: the number of rejection rounds), so that a
    /// batch's mean is close to the expected time and the fastest batch is
    /// not merely the luckiest draw.
    batch_ms: u32,
    /// Batch sizes are multiples of this: an operation that cycles through
    /// this many inputs (FN-DSA key generation's seeds) then meets each
    /// of them equally often in every batch of every implementation.
    cycle: u32,
    imps: Vec<Imp>,
}

impl Default for Row {
    fn default() -> Self {
        Row {
            name: String::new(),
            ours: 1,
            batch_ms: 3,
            cycle: 1,
            imps: Vec::new(),
        }
    }
}

const SEED: [u8; 64] = [0x42; 64];
const M: [u8; 32] = [0x17; 32];

/// Boxes one operation, dropping its result through `black_box`.
fn op<T>(mut f: impl FnMut() -> T + 'static) -> Box<dyn FnMut()> {
    Box::new(move || {
        black_box(f());
    })
}

macro_rules! ml_kem {
    ($rows:ident, $name:literal, $ours:ty, $aws:ident) => {{
        use aws_lc_rs::kem::{DecapsulationKey as AwsDk, EncapsulationKey as AwsEk, $aws as AWS};
        use pqkit_ml_kem::{DecapsulationKey, EncapsulationKey, ExpandedDecapsulationKey, hazmat};
        $rows.push(Row {
            name: format!("{}/keygen", $name),
            imps: vec![
                (
                    "pqkit",
                    op(|| DecapsulationKey::<$ours>::from_seed(black_box(SEED.into()))),
                ),
                ("aws-lc-rs", op(|| AwsDk::generate(&AWS).unwrap())),
            ],
            ..Row::default()
        });
        let dk = DecapsulationKey::<$ours>::from_seed(SEED.into());
        let ek = dk.encapsulation_key().clone();
        let aws_dk = AwsDk::generate(&AWS).unwrap();
        let aws_ek = aws_dk.encapsulation_key().unwrap();
        let ek_bytes = ek.as_bytes().to_vec();
        let aws_ek_bytes = aws_ek.key_bytes().unwrap().as_ref().to_vec();
        $rows.push(Row {
            name: format!("{}/encaps-from-bytes", $name),
            imps: vec![
                (
                    "pqkit",
                    op(move || {
                        let ek =
                            EncapsulationKey::<$ours>::from_bytes(black_box(&ek_bytes)).unwrap();
                        hazmat::encaps_internal(&ek, &M)
                    }),
                ),
                (
                    "aws-lc-rs",
                    op(move || {
                        AwsEk::new(&AWS, black_box(&aws_ek_bytes))
                            .unwrap()
                            .encapsulate()
                            .unwrap()
                    }),
                ),
            ],
            ..Row::default()
        });
        let cts: Vec<_> = (0..64u8)
            .map(|i| hazmat::encaps_internal(&ek, &[i; 32]).0)
            .collect();
        let aws_cts: Vec<_> = (0..64)
            .map(|_| aws_ek.encapsulate().unwrap().0.as_ref().to_vec())
            .collect();
        let dk_bytes = dk.expanded_bytes().to_vec();
        let aws_dk_bytes = aws_dk.key_bytes().unwrap().as_ref().to_vec();
        let (mut i, mut j) = (0, 0);
        $rows.push(Row {
            name: format!("{}/decaps-64-from-bytes", $name),
            imps: vec![
                (
                    "pqkit",
                    op(move || {
                        i = (i + 1) % 64;
                        ExpandedDecapsulationKey::<$ours>::from_expanded(black_box(&dk_bytes))
                            .unwrap()
                            .decapsulate_bytes(&cts[i])
                            .unwrap()
                    }),
                ),
                (
                    "aws-lc-rs",
                    op(move || {
                        j = (j + 1) % 64;
                        AwsDk::new(&AWS, black_box(&aws_dk_bytes))
                            .unwrap()
                            .decapsulate(aws_cts[j].as_slice().into())
                            .unwrap()
                    }),
                ),
            ],
            ..Row::default()
        });
    }};
}

macro_rules! ml_dsa {
    ($rows:ident, $name:literal, $ours:ty, $lc:ident, $aws:ident, $aws_vk:ident) => {{
        use aws_lc_rs::signature::{ParsedPublicKey, PqdsaKeyPair, $aws as AWS, $aws_vk as AWS_VK};
        use libcrux_ml_dsa::$lc as lc;
        use pqkit_ml_dsa::{SigningKey, VerifyingKey, hazmat};
        let seed = [0x42u8; 32];
        $rows.push(Row {
            name: format!("{}/keygen", $name),
            imps: vec![
                (
                    "pqkit",
                    op(move || SigningKey::<$ours>::from_seed(black_box(&seed.into()))),
                ),
                (
                    "libcrux",
                    op(move || lc::generate_key_pair(black_box(seed))),
                ),
                (
                    "aws-lc-rs",
                    op(move || PqdsaKeyPair::from_seed(&AWS, black_box(&seed)).unwrap()),
                ),
            ],
            ..Row::default()
        });
        // The encodings only, as libcrux's key generation returns them.
        $rows.push(Row {
            name: format!("{}/keygen-to-bytes", $name),
            imps: vec![
                (
                    "pqkit",
                    op(move || hazmat::keygen_internal_encoded::<$ours>(black_box(&seed))),
                ),
                (
                    "libcrux",
                    op(move || lc::generate_key_pair(black_box(seed))),
                ),
            ],
            ..Row::default()
        });
        const MSG: &[u8] = b"The quick brown fox jumps over the lazy dog, a 64-byte message!!";
        // A new key and its first (deterministic) signature: pqkit's key
        // makes its signing form from the encodings on first use, so this
        // row carries what the keygen row leaves out.
        assert_eq!(
            SigningKey::<$ours>::from_seed(&seed.into())
                .sign_deterministic(MSG, b"")
                .unwrap()
                .as_bytes(),
            lc::sign(
                &lc::generate_key_pair(seed).signing_key,
                MSG,
                b"",
                [0u8; 32]
            )
            .unwrap()
            .as_ref(),
            "the same signature"
        );
        $rows.push(Row {
            name: format!("{}/keygen-then-sign", $name),
            imps: vec![
                (
                    "pqkit",
                    op(move || {
                        SigningKey::<$ours>::from_seed(black_box(&seed.into()))
                            .sign_deterministic(MSG, b"")
                            .unwrap()
                    }),
                ),
                (
                    "libcrux",
                    op(move || {
                        let kp = lc::generate_key_pair(black_box(seed));
                        lc::sign(&kp.signing_key, MSG, b"", [0u8; 32]).unwrap()
                    }),
                ),
            ],
            ..Row::default()
        });
        let ours = SigningKey::<$ours>::from_seed(&seed.into());
        let sk_bytes = ours.expanded_bytes().as_ref().to_vec();
        let kp = lc::generate_key_pair(seed);
        let lc_sk = kp.signing_key.as_ref().to_vec();
        $rows.push(Row {
            name: format!("{}/sign-from-bytes", $name),
            imps: vec![
                (
                    "pqkit",
                    op(move || {
                        hazmat::sign_expanded::<$ours>(
                            black_box(&sk_bytes),
                            &[MSG],
                            b"",
                            &[0u8; 32],
                        )
                        .unwrap()
                    }),
                ),
                (
                    "libcrux",
                    op(move || {
                        let sk = libcrux_ml_dsa::MLDSASigningKey::new(
                            black_box(lc_sk.as_slice()).try_into().unwrap(),
                        );
                        lc::sign(&sk, MSG, b"", [0u8; 32]).unwrap()
                    }),
                ),
            ],
            ..Row::default()
        });
        // Import with every check (t0 and tr recomputed, which derives the
        // public key), then one hedged signature: aws-lc-rs's
        // `from_raw_private_key` also derives the public key.
        let sk_bytes3 = ours.expanded_bytes().as_ref().to_vec();
        let sk_bytes4 = sk_bytes3.clone();
        let mut rng = pqkit_benches::BenchRng::default();
        let mut aws_sig = vec![0u8; AWS.signature_len()];
        $rows.push(Row {
            name: format!("{}/sign-hedged-after-validated-import", $name),
            batch_ms: 30,
            imps: vec![
                (
                    "pqkit",
                    op(move || {
                        pqkit_ml_dsa::ExpandedSigningKey::<$ours>::from_expanded(black_box(
                            &sk_bytes3,
                        ))
                        .unwrap()
                        .sign_randomized(MSG, b"", &mut rng)
                        .unwrap()
                    }),
                ),
                (
                    "aws-lc-rs",
                    op(move || {
                        PqdsaKeyPair::from_raw_private_key(&AWS, black_box(&sk_bytes4))
                            .unwrap()
                            .sign(MSG, &mut aws_sig)
                            .unwrap()
                    }),
                ),
            ],
            ..Row::default()
        });
        let pk_bytes = ours.verifying_key().as_bytes().to_vec();
        let pk_bytes2 = pk_bytes.clone();
        let msgs: Vec<[u8; 32]> = (0..64u8).map(|i| [i; 32]).collect();
        let sigs: Vec<_> = msgs
            .iter()
            .map(|m| ours.sign_deterministic(m, b"").unwrap())
            .collect();
        let (msgs2, sigs2) = (msgs.clone(), sigs.clone());
        let (mut i, mut j) = (0, 0);
        $rows.push(Row {
            name: format!("{}/verify-64-from-bytes", $name),
            imps: vec![
                (
                    "pqkit",
                    op(move || {
                        i = (i + 1) % 64;
                        VerifyingKey::<$ours>::from_bytes(black_box(&pk_bytes))
                            .unwrap()
                            .verify_multipart_with_context(&[&msgs[i]], b"", sigs[i].as_bytes())
                            .unwrap()
                    }),
                ),
                (
                    "aws-lc-rs",
                    op(move || {
                        j = (j + 1) % 64;
                        ParsedPublicKey::new(&AWS_VK, black_box(&pk_bytes2))
                            .unwrap()
                            .verify_sig(&msgs2[j], sigs2[j].as_bytes())
                            .unwrap()
                    }),
                ),
            ],
            ..Row::default()
        });
    }};
}

macro_rules! saber {
    ($rows:ident, $name:literal, $ours:ty, $pq:ident) => {{
        use pqcrypto_saber::$pq as pq;
        use pqcrypto_traits::kem::{Ciphertext as _, SecretKey as _};
        use pqkit_saber::{DecapsulationKey, Generate};
        $rows.push(Row {
            name: format!("{}/keygen", $name),
            imps: vec![
                ("pqkit", op(DecapsulationKey::<$ours>::generate)),
                ("pqclean", op(pq::keypair)),
            ],
            ..Row::default()
        });
        let dk = DecapsulationKey::<$ours>::generate();
        let ek = dk.encapsulation_key().clone();
        let (pk, sk) = pq::keypair();
        let cts: Vec<_> = (0..16)
            .map(|_| {
                ek.try_encapsulate_with_rng(&mut getrandom::SysRng)
                    .unwrap()
                    .0
            })
            .collect();
        let pq_cts: Vec<_> = (0..16)
            .map(|_| pq::encapsulate(&pk).1.as_bytes().to_vec())
            .collect();
        let sk_bytes = dk.as_bytes().to_vec();
        let pq_sk_bytes = sk.as_bytes().to_vec();
        let (cts2, sk_bytes2) = (cts.clone(), sk_bytes.clone());
        let (mut a, mut b, mut c) = (0, 0, 0);
        $rows.push(Row {
            name: format!("{}/decaps-from-bytes", $name),
            ours: 2,
            imps: vec![
                (
                    "pqkit (import, decapsulate)",
                    op(move || {
                        a = (a + 1) % 16;
                        DecapsulationKey::<$ours>::from_bytes(black_box(&sk_bytes))
                            .unwrap()
                            .decapsulate_bytes(&cts[a])
                            .unwrap()
                    }),
                ),
                (
                    "pqkit (one-shot)",
                    op(move || {
                        b = (b + 1) % 16;
                        DecapsulationKey::<$ours>::decapsulate_from_key_bytes(
                            black_box(&sk_bytes2),
                            &cts2[b],
                        )
                        .unwrap()
                    }),
                ),
                (
                    "pqclean",
                    op(move || {
                        c = (c + 1) % 16;
                        let sk = pq::SecretKey::from_bytes(black_box(&pq_sk_bytes)).unwrap();
                        pq::decapsulate(&pq::Ciphertext::from_bytes(&pq_cts[c]).unwrap(), &sk)
                    }),
                ),
            ],
            ..Row::default()
        });
    }};
}

#[path = "../peer_rng.rs"]
mod peer_rng;
use peer_rng::PeerRng;

/// FN-DSA rows against fn-dsa 0.4 and 0.3: key generation cycling through
/// a fixed set of seeds (16 at 512, 8 at 1024; every batch meets each seed
/// equally often, see `Row::cycle`; pqkit and fn-dsa 0.3 meet the same
/// candidates, fn-dsa 0.4 its own, so a single seed compares luck, not
/// code), signing from key bytes (randomized, 30 ms batches) and
/// verification from public-key bytes cycling 64 distinct signatures.
macro_rules! fn_dsa {
    ($rows:ident, $name:literal, $module:ident, $logn:expr, $seeds:expr) => {{
        use pqkit_fn_dsa::$module::{SIGNATURE_SIZE, SigningKey, VerifyingKey};
        use pqkit_fn_dsa::{Message, Signature};
        const MSG: &[u8] = b"The quick brown fox jumps over the lazy dog, a 64-byte message!!";
        // Key generation by fn-dsa 0.4 or 0.3 drawing from PeerRng(state).
        macro_rules! peer_keygen {
            ($krate:ident) => {
                |state: u64| {
                    use $krate::KeyPairGenerator as _;
                    let mut sk = vec![0u8; $krate::sign_key_size($logn)];
                    let mut vk = vec![0u8; $krate::vrfy_key_size($logn)];
                    $krate::KeyPairGeneratorStandard::default().keygen(
                        $logn,
                        &mut PeerRng(state),
                        &mut sk,
                        &mut vk,
                    );
                    (sk, vk)
                }
            };
        }
        let peer_keygen_04 = peer_keygen!(fn_dsa_04);
        let peer_keygen_03 = peer_keygen!(fn_dsa_03);
        // A signature by fn-dsa 0.4 or 0.3: the key decoded from its bytes,
        // a raw message, no context.
        macro_rules! peer_sign {
            ($krate:ident, $sk:expr, $rng:expr, $msg:expr) => {{
                use $krate::SigningKey as _;
                let mut sig = vec![0u8; SIGNATURE_SIZE];
                $krate::SigningKeyStandard::decode($sk).unwrap().sign(
                    $rng,
                    &$krate::DOMAIN_NONE,
                    &$krate::HASH_ID_RAW,
                    $msg,
                    &mut sig,
                );
                sig
            }};
        }
        // The seeds the peers draw first from PeerRng(state), one per state.
        let states: Vec<u64> = (1..=$seeds)
            .map(|k| 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(k))
            .collect();
        let seeds: Vec<[u8; 32]> = states
            .iter()
            .map(|&state| {
                let mut seed = [0u8; 32];
                fn_dsa_03::RngCore::fill_bytes(&mut PeerRng(state), &mut seed);
                seed
            })
            .collect();
        if $logn == 9 {
            assert_eq!(
                &SigningKey::from_seed(&seeds[0]).to_bytes()[..],
                &peer_keygen_03(states[0]).0[..],
                "pqkit and fn-dsa 0.3 make the same key from a seed"
            );
        }
        let states04 = states.clone();
        let (mut a, mut b, mut c) = (0, 0, 0);
        $rows.push(Row {
            name: format!("{}/keygen-{}-seeds", $name, $seeds),
            batch_ms: 30,
            cycle: $seeds,
            imps: vec![
                (
                    "pqkit",
                    op(move || {
                        a = (a + 1) % seeds.len();
                        SigningKey::from_seed(black_box(&seeds[a]))
                    }),
                ),
                (
                    "fn-dsa-0.4",
                    op(move || {
                        b = (b + 1) % states04.len();
                        peer_keygen_04(black_box(states04[b]))
                    }),
                ),
                (
                    "fn-dsa-0.3",
                    op(move || {
                        c = (c + 1) % states.len();
                        peer_keygen_03(black_box(states[c]))
                    }),
                ),
            ],
            ..Row::default()
        });
        let sk = SigningKey::from_seed(&[0x42; 32]);
        let sk_bytes = sk.to_bytes().to_vec();
        let vk_bytes = sk.verifying_key().to_bytes().to_vec();
        let (sk04, vk04) = peer_keygen_04(7);
        let (sk03, _) = peer_keygen_03(7);
        let mut rng = pqkit_benches::BenchRng::default();
        let (mut rng04, mut rng03) = (PeerRng(11), PeerRng(13));
        let sk04b = sk04.clone();
        $rows.push(Row {
            name: format!("{}/sign-from-bytes", $name),
            batch_ms: 30,
            imps: vec![
                (
                    "pqkit",
                    op(move || {
                        SigningKey::from_bytes(black_box(&sk_bytes))
                            .unwrap()
                            .sign_message_randomized(&Message::raw(MSG), &mut rng)
                            .unwrap()
                    }),
                ),
                (
                    "fn-dsa-0.4",
                    op(move || peer_sign!(fn_dsa_04, black_box(&sk04b), &mut rng04, MSG)),
                ),
                (
                    "fn-dsa-0.3",
                    op(move || peer_sign!(fn_dsa_03, black_box(&sk03), &mut rng03, MSG)),
                ),
            ],
            ..Row::default()
        });
        // 64 distinct messages and signatures, cycled.
        let msgs: Vec<Vec<u8>> = (0..64u8).map(|i| [MSG, &[i]].concat()).collect();
        let mut srng = pqkit_benches::BenchRng::default();
        let ours: Vec<Signature<_>> = msgs
            .iter()
            .map(|m| {
                sk.sign_message_randomized(&Message::raw(m), &mut srng)
                    .unwrap()
            })
            .collect();
        let theirs: Vec<Vec<u8>> = msgs
            .iter()
            .map(|m| peer_sign!(fn_dsa_04, &sk04, &mut PeerRng(5), m))
            .collect();
        let (msgs2, vk04b) = (msgs.clone(), vk04.clone());
        let (mut i, mut j) = (0, 0);
        // Every signature verifies, on both sides.
        for ((m, s), t) in msgs.iter().zip(&ours).zip(&theirs) {
            use fn_dsa_04::VerifyingKey as _;
            let vk = VerifyingKey::from_bytes(&vk_bytes).unwrap();
            assert!(vk.verify_message(&Message::raw(m), s).is_ok());
            let v04 = fn_dsa_04::VerifyingKeyStandard::decode(&vk04).unwrap();
            assert!(v04.verify(t, &fn_dsa_04::DOMAIN_NONE, &fn_dsa_04::HASH_ID_RAW, m));
        }
        $rows.push(Row {
            name: format!("{}/verify-64-from-bytes", $name),
            imps: vec![
                (
                    "pqkit",
                    op(move || {
                        i = (i + 1) % 64;
                        VerifyingKey::from_bytes(black_box(&vk_bytes))
                            .unwrap()
                            .verify_message(&Message::raw(&msgs[i]), &ours[i])
                            .is_ok()
                    }),
                ),
                (
                    "fn-dsa-0.4",
                    op(move || {
                        use fn_dsa_04::VerifyingKey as _;
                        j = (j + 1) % 64;
                        fn_dsa_04::VerifyingKeyStandard::decode(black_box(&vk04b))
                            .unwrap()
                            .verify(
                                &theirs[j],
                                &fn_dsa_04::DOMAIN_NONE,
                                &fn_dsa_04::HASH_ID_RAW,
                                &msgs2[j],
                            )
                    }),
                ),
            ],
            ..Row::default()
        });
    }};
}

/// Ed25519 rows: key generation from the 32-byte secret (SHA-512, `[a]B`,
/// the encoding of `A`), signing a 64-byte message with a decoded key
/// (cycling 64 messages), and verification from public-key bytes cycling
/// 64 distinct keys, messages and signatures, against ed25519-dalek and
/// aws-lc-rs. The three give identical signatures (checked here).
fn ed25519(rows: &mut Vec<Row>) {
    use aws_lc_rs::signature::{ED25519, Ed25519KeyPair, KeyPair as _, UnparsedPublicKey};
    use signature::{Signer as _, Verifier as _};
    let seeds: Vec<[u8; 32]> = (0..64u8).map(|i| [i ^ 0x5a; 32]).collect();
    let msgs: Vec<[u8; 64]> = (0..64u8).map(|i| [i; 64]).collect();
    let ours: Vec<_> = seeds
        .iter()
        .map(pqkit_ed25519::SigningKey::from_bytes)
        .collect();
    let dalek: Vec<_> = seeds
        .iter()
        .map(ed25519_dalek::SigningKey::from_bytes)
        .collect();
    let mut aws: Vec<_> = seeds
        .iter()
        .map(|s| Ed25519KeyPair::from_seed_unchecked(s).unwrap())
        .collect();
    let sigs: Vec<[u8; 64]> = ours
        .iter()
        .zip(&msgs)
        .map(|(k, m)| k.sign(m).to_bytes())
        .collect();
    let pks: Vec<[u8; 32]> = ours.iter().map(|k| k.verifying_key().to_bytes()).collect();
    for (i, s) in sigs.iter().enumerate() {
        assert_eq!(&dalek[i].sign(&msgs[i]).to_bytes(), s);
        assert_eq!(aws[i].sign(&msgs[i]).as_ref(), s);
        assert_eq!(aws[i].public_key().as_ref(), &pks[i]);
    }
    #[cfg(target_arch = "x86_64")]
    let s4 = seeds.clone();
    #[cfg(target_arch = "x86_64")]
    for (i, s) in seeds.iter().enumerate() {
        let g = graviola::signing::eddsa::Ed25519SigningKey::from_bytes(s).unwrap();
        assert_eq!(&g.sign(&msgs[i]), &sigs[i]);
    }
    let (batch_msgs, batch_sigs, batch_pks) = (msgs.clone(), sigs.clone(), pks.clone());
    let (s1, s2, s3) = (seeds.clone(), seeds.clone(), seeds);
    let (mut a, mut b, mut c) = (0, 0, 0);
    #[allow(unused_mut)]
    let mut keygen: Vec<Imp> = vec![
        (
            "pqkit",
            op(move || {
                a = (a + 1) % 64;
                pqkit_ed25519::SigningKey::from_bytes(black_box(&s1[a]))
            }),
        ),
        (
            "ed25519-dalek",
            op(move || {
                b = (b + 1) % 64;
                ed25519_dalek::SigningKey::from_bytes(black_box(&s2[b]))
            }),
        ),
        (
            "aws-lc-rs",
            op(move || {
                c = (c + 1) % 64;
                Ed25519KeyPair::from_seed_unchecked(black_box(&s3[c])).unwrap()
            }),
        ),
    ];
    #[cfg(target_arch = "x86_64")]
    {
        let mut d = 0;
        keygen.push((
            "graviola",
            op(move || {
                d = (d + 1) % 64;
                graviola::signing::eddsa::Ed25519SigningKey::from_bytes(black_box(&s4[d]))
                    .unwrap()
                    .public_key()
                    .as_bytes()
            }),
        ));
    }
    rows.push(Row {
        name: "Ed25519/keygen".into(),
        imps: keygen,
        ..Row::default()
    });
    let (m1, m2, m3) = (msgs.clone(), msgs.clone(), msgs.clone());
    #[cfg(target_arch = "x86_64")]
    let m4 = msgs.clone();
    let (k1, k2, k3) = (ours[0].clone(), dalek[0].clone(), aws.swap_remove(0));
    let (mut a, mut b, mut c) = (0, 0, 0);
    #[allow(unused_mut)]
    let mut sign: Vec<Imp> = vec![
        (
            "pqkit",
            op(move || {
                a = (a + 1) % 64;
                k1.sign(black_box(&m1[a]))
            }),
        ),
        (
            "ed25519-dalek",
            op(move || {
                b = (b + 1) % 64;
                k2.sign(black_box(&m2[b]))
            }),
        ),
        (
            "aws-lc-rs",
            op(move || {
                c = (c + 1) % 64;
                k3.sign(black_box(&m3[c]))
            }),
        ),
    ];
    #[cfg(target_arch = "x86_64")]
    {
        let k4 = graviola::signing::eddsa::Ed25519SigningKey::from_bytes(&[0x5a; 32]).unwrap();
        let mut d = 0;
        sign.push((
            "graviola",
            op(move || {
                d = (d + 1) % 64;
                k4.sign(black_box(&m4[d]))
            }),
        ));
    }
    rows.push(Row {
        name: "Ed25519/sign".into(),
        imps: sign,
        ..Row::default()
    });
    #[cfg(target_arch = "x86_64")]
    let (m4, g4, p4) = (msgs.clone(), sigs.clone(), pks.clone());
    let (m1, m2, m3) = (msgs.clone(), msgs.clone(), msgs);
    let (g1, g2, g3) = (sigs.clone(), sigs.clone(), sigs);
    let (p1, p2, p3) = (pks.clone(), pks.clone(), pks);
    let (mut a, mut b, mut c) = (0, 0, 0);
    #[allow(unused_mut)]
    let mut verify: Vec<Imp> = vec![
        (
            "pqkit",
            op(move || {
                a = (a + 1) % 64;
                let vk = pqkit_ed25519::VerifyingKey::from_bytes(black_box(&p1[a])).unwrap();
                let sig = pqkit_ed25519::Signature::from_bytes(&g1[a]);
                assert!(vk.verify(&m1[a], &sig).is_ok());
            }),
        ),
        (
            "ed25519-dalek",
            op(move || {
                b = (b + 1) % 64;
                let vk = ed25519_dalek::VerifyingKey::from_bytes(black_box(&p2[b])).unwrap();
                let sig = ed25519_dalek::Signature::from_bytes(&g2[b]);
                assert!(vk.verify(&m2[b], &sig).is_ok());
            }),
        ),
        (
            "aws-lc-rs",
            op(move || {
                c = (c + 1) % 64;
                let vk = UnparsedPublicKey::new(&ED25519, black_box(&p3[c]));
                assert!(vk.verify(&m3[c], &g3[c]).is_ok());
            }),
        ),
    ];
    #[cfg(target_arch = "x86_64")]
    {
        let mut d = 0;
        verify.push((
            "graviola",
            op(move || {
                d = (d + 1) % 64;
                let vk =
                    graviola::signing::eddsa::Ed25519VerifyingKey::from_bytes(black_box(&p4[d]))
                        .unwrap();
                assert!(vk.verify(&g4[d], &m4[d]).is_ok());
            }),
        ));
    }
    rows.push(Row {
        name: "Ed25519/verify-64-from-bytes".into(),
        imps: verify,
        ..Row::default()
    });
    // Batch verification of the 64 signatures, keys decoded from bytes in
    // every batch.
    let (bm1, bs1, bp1) = (batch_msgs.clone(), batch_sigs.clone(), batch_pks.clone());
    let (bm2, bs2, bp2) = (batch_msgs, batch_sigs, batch_pks);
    rows.push(Row {
        name: "Ed25519/batch-64-from-bytes".into(),
        imps: vec![
            (
                "pqkit",
                op(move || {
                    let vks: Vec<_> = bp1
                        .iter()
                        .map(|p| pqkit_ed25519::VerifyingKey::from_bytes(black_box(p)).unwrap())
                        .collect();
                    let sigs: Vec<_> = bs1
                        .iter()
                        .map(pqkit_ed25519::Signature::from_bytes)
                        .collect();
                    let msgs: Vec<&[u8]> = bm1.iter().map(|m| &m[..]).collect();
                    assert!(pqkit_ed25519::verify_batch(&msgs, &sigs, &vks).is_ok());
                }),
            ),
            (
                "ed25519-dalek",
                op(move || {
                    let vks: Vec<_> = bp2
                        .iter()
                        .map(|p| ed25519_dalek::VerifyingKey::from_bytes(black_box(p)).unwrap())
                        .collect();
                    let sigs: Vec<_> = bs2
                        .iter()
                        .map(ed25519_dalek::Signature::from_bytes)
                        .collect();
                    let msgs: Vec<&[u8]> = bm2.iter().map(|m| &m[..]).collect();
                    assert!(ed25519_dalek::verify_batch(&msgs, &sigs, &vks).is_ok());
                }),
            ),
        ],
        ..Row::default()
    });
}

/// X25519 rows, 64 distinct secrets and peer public keys (as bytes):
/// "keygen" is secret bytes to public-key bytes, "agree" one exchange with
/// a peer key given as bytes, against x25519-dalek, aws-lc-rs and
/// graviola; "ephemeral" is a fresh key pair plus one exchange (what one
/// side of a TLS handshake does), where ring (ephemeral keys only) joins.
fn x25519(rows: &mut Vec<Row>) {
    use aws_lc_rs::agreement::{self, PrivateKey, UnparsedPublicKey, X25519};
    let secrets: Vec<[u8; 32]> = (0..64u8).map(|i| [i ^ 0x33; 32]).collect();
    let peers: Vec<[u8; 32]> = (0..64u8)
        .map(|i| {
            pqkit_x25519::PublicKey::from(&pqkit_x25519::StaticSecret::from([i ^ 0x77; 32]))
                .to_bytes()
        })
        .collect();
    for (s, p) in secrets.iter().zip(&peers) {
        let ours = pqkit_x25519::StaticSecret::from(*s);
        let want = ours
            .diffie_hellman(&pqkit_x25519::PublicKey::from(*p))
            .to_bytes();
        let dalek = x25519_dalek::StaticSecret::from(*s);
        let theirs = dalek.diffie_hellman(&x25519_dalek::PublicKey::from(*p));
        assert_eq!(theirs.to_bytes(), want);
        assert_eq!(
            x25519_dalek::PublicKey::from(&dalek).to_bytes(),
            pqkit_x25519::PublicKey::from(&ours).to_bytes()
        );
    }
    let (s1, s2, s3) = (secrets.clone(), secrets.clone(), secrets.clone());
    #[cfg(target_arch = "x86_64")]
    let s4 = secrets.clone();
    let (mut a, mut b, mut c) = (0, 0, 0);
    #[allow(unused_mut)]
    let mut keygen: Vec<Imp> = vec![
        (
            "pqkit",
            op(move || {
                a = (a + 1) % 64;
                let s = pqkit_x25519::StaticSecret::from(black_box(s1[a]));
                pqkit_x25519::PublicKey::from(&s).to_bytes()
            }),
        ),
        (
            "x25519-dalek",
            op(move || {
                b = (b + 1) % 64;
                let s = x25519_dalek::StaticSecret::from(black_box(s2[b]));
                x25519_dalek::PublicKey::from(&s).to_bytes()
            }),
        ),
        (
            "aws-lc-rs",
            op(move || {
                c = (c + 1) % 64;
                PrivateKey::from_private_key(&X25519, black_box(&s3[c]))
                    .unwrap()
                    .compute_public_key()
                    .unwrap()
            }),
        ),
    ];
    #[cfg(target_arch = "x86_64")]
    {
        let mut d = 0;
        keygen.push((
            "graviola",
            op(move || {
                d = (d + 1) % 64;
                graviola::key_agreement::x25519::StaticPrivateKey::from_array(black_box(&s4[d]))
                    .public_key()
                    .as_bytes()
            }),
        ));
    }
    rows.push(Row {
        name: "X25519/keygen".into(),
        imps: keygen,
        ..Row::default()
    });
    let ours: Vec<_> = secrets
        .iter()
        .map(|s| pqkit_x25519::StaticSecret::from(*s))
        .collect();
    let dalek: Vec<_> = secrets
        .iter()
        .map(|s| x25519_dalek::StaticSecret::from(*s))
        .collect();
    let aws: Vec<_> = secrets
        .iter()
        .map(|s| PrivateKey::from_private_key(&X25519, s).unwrap())
        .collect();
    let (p1, p2, p3) = (peers.clone(), peers.clone(), peers.clone());
    #[cfg(target_arch = "x86_64")]
    let (p4, s4) = (peers.clone(), secrets.clone());
    let (mut a, mut b, mut c) = (0, 0, 0);
    #[allow(unused_mut)]
    let mut agree: Vec<Imp> = vec![
        (
            "pqkit",
            op(move || {
                a = (a + 1) % 64;
                let peer = pqkit_x25519::PublicKey::from(black_box(p1[a]));
                ours[a].diffie_hellman(&peer).to_bytes()
            }),
        ),
        (
            "x25519-dalek",
            op(move || {
                b = (b + 1) % 64;
                let peer = x25519_dalek::PublicKey::from(black_box(p2[b]));
                dalek[b].diffie_hellman(&peer).to_bytes()
            }),
        ),
        (
            "aws-lc-rs",
            op(move || {
                c = (c + 1) % 64;
                agreement::agree(
                    &aws[c],
                    UnparsedPublicKey::new(&X25519, black_box(&p3[c])),
                    (),
                    |k| Ok(<[u8; 32]>::try_from(k).unwrap()),
                )
                .unwrap()
            }),
        ),
    ];
    #[cfg(target_arch = "x86_64")]
    {
        let keys: Vec<_> = s4
            .iter()
            .map(graviola::key_agreement::x25519::StaticPrivateKey::from_array)
            .collect();
        let mut d = 0;
        agree.push((
            "graviola",
            op(move || {
                d = (d + 1) % 64;
                let peer =
                    graviola::key_agreement::x25519::PublicKey::from_array(black_box(&p4[d]));
                keys[d].diffie_hellman(&peer).unwrap().0
            }),
        ));
    }
    rows.push(Row {
        name: "X25519/agree".into(),
        imps: agree,
        ..Row::default()
    });
    let rng = ring::rand::SystemRandom::new();
    let (p1, p2) = (peers.clone(), peers);
    let (mut a, mut b) = (0, 0);
    rows.push(Row {
        name: "X25519/ephemeral".into(),
        imps: vec![
            (
                "pqkit",
                op(move || {
                    a = (a + 1) % 64;
                    let e = pqkit_x25519::EphemeralSecret::random();
                    let public = pqkit_x25519::PublicKey::from(&e);
                    let peer = pqkit_x25519::PublicKey::from(black_box(p1[a]));
                    (public, e.diffie_hellman(&peer).to_bytes())
                }),
            ),
            (
                "ring",
                op(move || {
                    use ring::agreement as ra;
                    b = (b + 1) % 64;
                    let e = ra::EphemeralPrivateKey::generate(&ra::X25519, &rng).unwrap();
                    let public = e.compute_public_key().unwrap();
                    let peer = ra::UnparsedPublicKey::new(&ra::X25519, black_box(p2[b]));
                    let out = ra::agree_ephemeral(e, &peer, |k| <[u8; 32]>::try_from(k).unwrap())
                        .unwrap();
                    (public.as_ref().to_vec(), out)
                }),
            ),
        ],
        ..Row::default()
    });
}

/// Full TLS 1.3 handshakes (client and server in this process, memory
/// buffers, no resumption), X25519MLKEM768 and AES-256-GCM: pqkit-rustls
/// beside rustls's aws-lc-rs provider (aws-lc-rs ML-DSA signing,
/// rustls-webpki's aws-lc-rs verification), with an ML-DSA-87 root and
/// ML-DSA-65 leaf, and with Ed25519 throughout (benches/tls.rs has the
/// same set-up under criterion, and the per-component split).
/// X-Wing beside the `x-wing` crate (RustCrypto ML-KEM, x25519-dalek):
/// key generation from the seed; encapsulation from the key's bytes;
/// decapsulation with a loaded key and from the seed (x-wing expands the
/// seed at every decapsulation; pqkit keeps the expanded key).
fn xwing(rows: &mut Vec<Row>) {
    use pqkit_hybrid::xwing::{self as ours, kem::Decapsulate as _, kem::Decapsulator as _};
    use x_wing::kem::{KeyExport as _, KeyInit as _, TryKeyInit as _};
    let seeds: Vec<[u8; 32]> = (0..64u8).map(|i| [i ^ 0x5a; 32]).collect();
    let eseed = [0x33u8; 64];
    let dks: Vec<ours::DecapsulationKey> = seeds.iter().map(|s| (*s).into()).collect();
    let theirs: Vec<x_wing::DecapsulationKey> = seeds
        .iter()
        .map(|s| x_wing::DecapsulationKey::new(&(*s).into()))
        .collect();
    let eks: Vec<Vec<u8>> = dks
        .iter()
        .map(|d| ours::kem::KeyExport::to_bytes(d.encapsulation_key()).to_vec())
        .collect();
    let cts: Vec<ours::Ciphertext> = dks
        .iter()
        .map(|d| {
            d.encapsulation_key()
                .encapsulate_deterministic(&eseed.into())
                .0
        })
        .collect();
    for (d, t) in dks.iter().zip(&theirs) {
        assert_eq!(
            &ours::kem::KeyExport::to_bytes(d.encapsulation_key())[..],
            &t.encapsulation_key().to_bytes()[..]
        );
    }
    let (s1, s2) = (seeds.clone(), seeds.clone());
    let (mut a, mut b) = (0, 0);
    rows.push(Row {
        name: "X-Wing/keygen".into(),
        imps: vec![
            (
                "pqkit",
                op(move || {
                    a = (a + 1) % 64;
                    ours::DecapsulationKey::from(black_box(s1[a]))
                }),
            ),
            (
                "x-wing",
                op(move || {
                    b = (b + 1) % 64;
                    x_wing::DecapsulationKey::new(&black_box(s2[b]).into())
                }),
            ),
        ],
        ..Row::default()
    });
    let (e1, e2) = (eks.clone(), eks.clone());
    let (mut a, mut b) = (0, 0);
    rows.push(Row {
        name: "X-Wing/encaps-from-bytes".into(),
        imps: vec![
            (
                "pqkit",
                op(move || {
                    a = (a + 1) % 64;
                    let ek = ours::EncapsulationKey::from_bytes(black_box(&e1[a])).unwrap();
                    ek.encapsulate_deterministic(&eseed.into())
                }),
            ),
            (
                "x-wing",
                op(move || {
                    b = (b + 1) % 64;
                    let ek = x_wing::EncapsulationKey::new_from_slice(black_box(&e2[b])).unwrap();
                    ek.encapsulate_deterministic(&eseed.into())
                }),
            ),
        ],
        ..Row::default()
    });
    let theirs_cts: Vec<x_wing::Ciphertext> = cts
        .iter()
        .map(|c| x_wing::Ciphertext::try_from(&c[..]).unwrap())
        .collect();
    let (c1, c2) = (cts.clone(), theirs_cts.clone());
    let (mut a, mut b) = (0, 0);
    rows.push(Row {
        name: "X-Wing/decaps".into(),
        imps: vec![
            (
                "pqkit",
                op(move || {
                    a = (a + 1) % 64;
                    dks[a].decapsulate(black_box(&c1[a]))
                }),
            ),
            (
                "x-wing",
                op(move || {
                    b = (b + 1) % 64;
                    theirs[b].decapsulate(black_box(&c2[b]))
                }),
            ),
        ],
        ..Row::default()
    });
    let (s1, s2) = (seeds.clone(), seeds);
    let (mut a, mut b) = (0, 0);
    rows.push(Row {
        name: "X-Wing/decaps-from-bytes".into(),
        imps: vec![
            (
                "pqkit",
                op(move || {
                    a = (a + 1) % 64;
                    ours::DecapsulationKey::from(black_box(s1[a])).decapsulate(&cts[a])
                }),
            ),
            (
                "x-wing",
                op(move || {
                    b = (b + 1) % 64;
                    x_wing::DecapsulationKey::new(&black_box(s2[b]).into())
                        .decapsulate(&theirs_cts[b])
                }),
            ),
        ],
        ..Row::default()
    });
}

/// Composite ML-DSA (pqkit-hybrid) beside the sum of its halves measured
/// alone: ML-DSA's signature of the message representative `M'` (the
/// combination's label as its context, `rnd = 0`) followed by the
/// traditional half's signature of `M'`, the very calls the composite
/// makes, with `M'` made beforehand; verification likewise. The ratio is
/// the composite's own cost on top of its halves (pre-hashing the
/// message, building `M'`, joining or splitting the signature). The rows
/// are named `sign-vs-halves` / `verify-vs-halves`, which the summary
/// (pqkit beside peers) does not pick up. Sixteen 64-byte messages, every
/// batch meeting each equally often; keys loaded, signing deterministic.
macro_rules! composite {
    ($rows:ident, $name:literal, $ty:ty) => {{
        use pqkit_hybrid::composite::{
            CompositeParams, Generate, MessageRepresentative, SEED_SIZE, Signature, SigningKey,
            Traditional, TraditionalSigner,
        };
        type T = <$ty as CompositeParams>::Traditional;
        const LABEL: &[u8] = <$ty as CompositeParams>::LABEL;
        let sk = SigningKey::<$ty>::generate_from_rng(&mut pqkit_benches::BenchRng::default());
        let vk = sk.verifying_key();
        let msgs: Vec<[u8; 64]> = (0..16u8).map(|i| [i ^ 0x3c; 64]).collect();
        let reps: Vec<MessageRepresentative> = msgs
            .iter()
            .map(|m| MessageRepresentative::new::<$ty>(m, b"").unwrap())
            .collect();
        let sigs: Vec<Signature<$ty>> = msgs
            .iter()
            .map(|m| sk.sign_deterministic(m, b"").unwrap())
            .collect();
        // The halves alone: the same keys, the same bytes.
        let ml = sk.ml_dsa_key().clone();
        let trad =
            <T as TraditionalSigner>::decode_secret_key(&sk.to_bytes()[SEED_SIZE..]).unwrap();
        for (m, s) in reps.iter().zip(&sigs) {
            let ml_sig = ml.sign_with_rnd(m.as_bytes(), LABEL, &[0u8; 32]).unwrap();
            assert_eq!(
                ml_sig.as_bytes(),
                s.ml_dsa_signature(),
                "the same ML-DSA half"
            );
            assert_eq!(
                <T as TraditionalSigner>::sign(&trad, m.as_bytes()).unwrap(),
                s.traditional_signature(),
                "the same traditional half"
            );
        }
        let (m1, r1) = (msgs.clone(), reps.clone());
        let (mut a, mut b) = (0, 0);
        $rows.push(Row {
            name: format!("{}/sign-vs-halves", $name),
            cycle: 16,
            imps: vec![
                (
                    "pqkit",
                    op(move || {
                        a = (a + 1) % 16;
                        sk.sign_deterministic(black_box(&m1[a]), b"").unwrap()
                    }),
                ),
                (
                    "halves alone",
                    op(move || {
                        b = (b + 1) % 16;
                        let m = black_box(r1[b].as_bytes());
                        (
                            ml.sign_with_rnd(m, LABEL, &[0u8; 32]).unwrap(),
                            <T as TraditionalSigner>::sign(&trad, m).unwrap(),
                        )
                    }),
                ),
            ],
            ..Row::default()
        });
        let ml_vk = vk.ml_dsa_key().clone();
        let trad_vk = <T as Traditional>::decode_public_key(vk.traditional_key_bytes()).unwrap();
        let sigs2 = sigs.clone();
        let (mut a, mut b) = (0, 0);
        $rows.push(Row {
            name: format!("{}/verify-vs-halves", $name),
            cycle: 16,
            imps: vec![
                (
                    "pqkit",
                    op(move || {
                        a = (a + 1) % 16;
                        vk.verify_with_context(black_box(&msgs[a]), b"", &sigs[a])
                            .unwrap()
                    }),
                ),
                (
                    "halves alone",
                    op(move || {
                        b = (b + 1) % 16;
                        let m = black_box(reps[b].as_bytes());
                        ml_vk
                            .verify_multipart_with_context(&[m], LABEL, sigs2[b].ml_dsa_signature())
                            .unwrap();
                        <T as Traditional>::verify(&trad_vk, m, sigs2[b].traditional_signature())
                            .unwrap()
                    }),
                ),
            ],
            ..Row::default()
        });
    }};
}

fn tls(rows: &mut Vec<Row>) {
    use tls_setup::{
        aws_provider, configs, ed25519_setup, handshake, ml_dsa_setup, pqkit_provider,
    };
    for (name, setup) in [
        ("TLS/handshake-ml-dsa-65-chain", ml_dsa_setup()),
        ("TLS/handshake-ed25519-chain", ed25519_setup()),
    ] {
        let (pc, ps) = configs(pqkit_provider(), &setup, false);
        let (ac, asv) = configs(aws_provider(), &setup, true);
        rows.push(Row {
            name: name.into(),
            imps: vec![
                ("pqkit", op(move || handshake(&pc, &ps))),
                ("aws-lc-rs", op(move || handshake(&ac, &asv))),
            ],
            ..Row::default()
        });
    }
}

/// HPKE beside rust-hpke (the `hpke` crate: RustCrypto ML-KEM, x-wing,
/// x25519-dalek) and hpke-rs with its libcrux provider: base mode,
/// HKDF-SHA256 and ChaCha20-Poly1305, one 1 KiB message. `seal` is
/// `SetupBaseS` + `Seal` to a public key decoded from its bytes each
/// time, with OS randomness (hpke-rs: its own seeded generator); `open` is
/// `SetupBaseR` + `Open` over 64 distinct encapsulations, with a loaded
/// private key (hpke-rs's API takes the private key's bytes at every
/// call, so its row includes expanding the seed).
fn hpke(rows: &mut Vec<Row>) {
    use hpke_rs::{Hpke, HpkePrivateKey, HpkePublicKey, Mode};
    use hpke_rs_crypto::types::{AeadAlgorithm, KdfAlgorithm, KemAlgorithm};
    use hpke_rs_libcrux::HpkeLibcrux;
    use pqkit_hybrid::hpke::{Aead, Kdf, Kem, PrivateKey, PublicKey, Suite};
    use rust_hpke::{Deserializable as _, OpModeR, OpModeS, Serializable as _};
    use rust_hpke::{aead::ChaCha20Poly1305 as RhChaCha, kdf::HkdfSha256 as RhSha256};

    fn rows_for<K: rust_hpke::Kem + 'static>(
        rows: &mut Vec<Row>,
        name: &str,
        kem: Kem,
        hr_kem: KemAlgorithm,
    ) {
        let suite = Suite::new(kem, Kdf::HkdfSha256, Aead::ChaCha20Poly1305);
        let ikm = [0x61u8; 32];
        let (sk, pk) = suite.derive_key_pair(&ikm).unwrap();
        let pk_bytes = pk.to_bytes();
        let sk_bytes = sk.to_bytes().to_vec();
        let (rh_sk, rh_pk) = K::derive_keypair(&ikm);
        assert_eq!(rh_pk.to_bytes().to_vec(), pk_bytes, "{name}: same key pair");
        let msg = vec![0x5au8; 1024];
        let n = 64;
        let randomness: Vec<Vec<u8>> = (0..n)
            .map(|i| vec![i as u8 ^ 0x3c; kem.encap_randomness_len()])
            .collect();
        let sealed: Vec<(Vec<u8>, Vec<u8>)> = randomness
            .iter()
            .map(|r| {
                let (enc, mut s) = suite.setup_sender_derand(&pk, b"info", r).unwrap();
                (enc, s.seal(b"aad", &msg).unwrap())
            })
            .collect();
        let hr_sk = HpkePrivateKey::new(sk_bytes.clone());
        let new_hr = move || {
            Hpke::<HpkeLibcrux>::new(
                Mode::Base,
                hr_kem,
                KdfAlgorithm::HkdfSha256,
                AeadAlgorithm::ChaCha20Poly1305,
            )
        };
        // Every peer opens what pqkit sealed (same bytes on the wire).
        for (enc, ct) in &sealed {
            let pt = new_hr()
                .open(enc, &hr_sk, b"info", b"aad", ct, None, None, None)
                .unwrap();
            assert_eq!(pt, msg, "{name}: hpke-rs opens pqkit's message");
            let e = K::EncappedKey::from_bytes(enc).unwrap();
            let mut r = rust_hpke::setup_receiver::<RhChaCha, RhSha256, K>(
                &OpModeR::Base,
                &rh_sk,
                &e,
                b"info",
            )
            .unwrap();
            assert_eq!(
                r.open(ct, b"aad").unwrap(),
                msg,
                "{name}: rust-hpke opens it"
            );
        }

        let (m1, m2, m3) = (msg.clone(), msg.clone(), msg.clone());
        let (pb1, pb2) = (pk_bytes.clone(), pk_bytes.clone());
        let mut rng = rand_core::UnwrapErr(getrandom::SysRng);
        let mut hr = new_hr();
        rows.push(Row {
            name: format!("HPKE/{name}/seal-1KiB"),
            imps: vec![
                (
                    "pqkit",
                    op(move || {
                        let pk = PublicKey::from_bytes(kem, black_box(&pb1)).unwrap();
                        let (enc, mut s) = suite
                            .setup_sender(&pk, b"info", &mut getrandom::SysRng)
                            .unwrap();
                        (enc, s.seal(b"aad", &m1).unwrap())
                    }),
                ),
                (
                    "hpke-rs (libcrux)",
                    op(move || {
                        let pk = HpkePublicKey::new(black_box(&pb2).clone());
                        hr.seal(&pk, b"info", b"aad", &m2, None, None, None)
                            .unwrap()
                    }),
                ),
                (
                    "rust-hpke",
                    op(move || {
                        let pk = K::PublicKey::from_bytes(black_box(&pk_bytes)).unwrap();
                        let (enc, mut s) =
                            rust_hpke::setup_sender_with_rng::<RhChaCha, RhSha256, K>(
                                &OpModeS::Base,
                                &pk,
                                b"info",
                                &mut rng,
                            )
                            .unwrap();
                        (enc, s.seal(&m3, b"aad").unwrap())
                    }),
                ),
            ],
            ..Row::default()
        });
        let sealed2 = sealed.clone();
        let sealed3 = sealed.clone();
        let (mut a, mut b, mut c) = (0usize, 0usize, 0usize);
        let hr2 = new_hr();
        rows.push(Row {
            name: format!("HPKE/{name}/open-1KiB"),
            imps: vec![
                (
                    "pqkit",
                    op(move || {
                        a = (a + 1) % n;
                        let (enc, ct) = &sealed[a];
                        let mut r = suite.setup_receiver(black_box(enc), &sk, b"info").unwrap();
                        r.open(b"aad", ct).unwrap()
                    }),
                ),
                (
                    "hpke-rs (libcrux)",
                    op(move || {
                        b = (b + 1) % n;
                        let (enc, ct) = &sealed2[b];
                        hr2.open(
                            black_box(enc),
                            &hr_sk,
                            b"info",
                            b"aad",
                            ct,
                            None,
                            None,
                            None,
                        )
                        .unwrap()
                    }),
                ),
                (
                    "rust-hpke",
                    op(move || {
                        c = (c + 1) % n;
                        let (enc, ct) = &sealed3[c];
                        let e = K::EncappedKey::from_bytes(black_box(enc)).unwrap();
                        let mut r = rust_hpke::setup_receiver::<RhChaCha, RhSha256, K>(
                            &OpModeR::Base,
                            &rh_sk,
                            &e,
                            b"info",
                        )
                        .unwrap();
                        r.open(ct, b"aad").unwrap()
                    }),
                ),
            ],
            ..Row::default()
        });
        let _ = PrivateKey::from_bytes(kem, &sk_bytes).unwrap();
    }

    rows_for::<rust_hpke::kem::XWing>(
        rows,
        "X-Wing",
        Kem::MlKem768X25519,
        KemAlgorithm::XWingDraft06,
    );
    rows_for::<rust_hpke::kem::MlKem768>(rows, "ML-KEM-768", Kem::MlKem768, KemAlgorithm::MlKem768);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let filter = args.first().cloned().unwrap_or_default();
    let rounds: usize = args
        .get(1)
        .map_or(40, |s| s.parse().expect("ROUNDS is a number"))
        .max(1);
    let wanted: Vec<&str> = filter.split('|').filter(|s| !s.is_empty()).collect();
    let mut rows: Vec<Row> = Vec::new();
    ml_kem!(rows, "ML-KEM-512", pqkit_ml_kem::MlKem512, ML_KEM_512);
    ml_kem!(rows, "ML-KEM-768", pqkit_ml_kem::MlKem768, ML_KEM_768);
    ml_kem!(rows, "ML-KEM-1024", pqkit_ml_kem::MlKem1024, ML_KEM_1024);
    ml_dsa!(
        rows,
        "ML-DSA-44",
        pqkit_ml_dsa::MlDsa44,
        ml_dsa_44,
        ML_DSA_44_SIGNING,
        ML_DSA_44
    );
    ml_dsa!(
        rows,
        "ML-DSA-65",
        pqkit_ml_dsa::MlDsa65,
        ml_dsa_65,
        ML_DSA_65_SIGNING,
        ML_DSA_65
    );
    ml_dsa!(
        rows,
        "ML-DSA-87",
        pqkit_ml_dsa::MlDsa87,
        ml_dsa_87,
        ML_DSA_87_SIGNING,
        ML_DSA_87
    );
    saber!(rows, "LightSaber", pqkit_saber::LightSaber, lightsaber);
    saber!(rows, "Saber", pqkit_saber::Saber, saber);
    saber!(rows, "FireSaber", pqkit_saber::FireSaber, firesaber);
    fn_dsa!(rows, "FN-DSA-512", fn_dsa_512, 9, 16);
    fn_dsa!(rows, "FN-DSA-1024", fn_dsa_1024, 10, 8);
    ed25519(&mut rows);
    x25519(&mut rows);
    xwing(&mut rows);
    hpke(&mut rows);
    use pqkit_hybrid::composite as c;
    composite!(rows, "MLDSA44-Ed25519-SHA512", c::MlDsa44Ed25519Sha512);
    composite!(rows, "MLDSA65-Ed25519-SHA512", c::MlDsa65Ed25519Sha512);
    composite!(rows, "MLDSA65-ECDSA-P256-SHA512", c::MlDsa65EcdsaP256Sha512);
    composite!(rows, "MLDSA87-ECDSA-P384-SHA512", c::MlDsa87EcdsaP384Sha512);
    tls(&mut rows);
    println!(
        "{}",
        std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|c| {
                c.lines()
                    .find(|l| l.starts_with("model name"))
                    .map(str::to_owned)
            })
            .unwrap_or_default()
    );
    for mut row in rows {
        if !wanted.is_empty() && !wanted.iter().any(|w| row.name.contains(w)) {
            continue;
        }
        // Batch sizes: about 3 ms of each implementation.
        let sizes: Vec<u32> = row
            .imps
            .iter_mut()
            .map(|(_, f)| {
                let start = Instant::now();
                let mut n = 0u32;
                while start.elapsed().as_micros() < u128::from(row.batch_ms) * 1000 {
                    f();
                    n += 1;
                }
                n.max(5).div_ceil(row.cycle) * row.cycle
            })
            .collect();
        let mut samples = vec![Vec::with_capacity(rounds); row.imps.len()];
        for _ in 0..rounds {
            for ((_, f), (&n, s)) in row
                .imps
                .iter_mut()
                .zip(sizes.iter().zip(samples.iter_mut()))
            {
                let start = Instant::now();
                for _ in 0..n {
                    f();
                }
                s.push(start.elapsed().as_secs_f64() * 1e6 / f64::from(n));
            }
        }
        println!("{}", row.name);
        // Per round, pqkit's batch over the best peer's batch of the same
        // round: a slow spell of the machine that lasts a whole row moves
        // both, so the median of these is steadier than the ratio of the
        // fastest batches when the machine is noisy.
        let round_ratios: Vec<Vec<f64>> = samples[..row.ours]
            .iter()
            .map(|ours| {
                let mut r: Vec<f64> = (0..ours.len())
                    .map(|i| {
                        let peer = samples[row.ours..]
                            .iter()
                            .map(|s| s[i])
                            .fold(f64::INFINITY, f64::min);
                        ours[i] / peer
                    })
                    .collect();
                r.sort_by(f64::total_cmp);
                r
            })
            .collect();
        let mut fastest = Vec::new();
        for ((label, _), s) in row.imps.iter().zip(samples.iter_mut()) {
            s.sort_by(f64::total_cmp);
            let (min, median) = (s.first().copied().unwrap_or(0.0), s[s.len() / 2]);
            fastest.push(min);
            println!("  {label:<28} min {min:>8.2}  median {median:>8.2}");
        }
        let best_peer = fastest[row.ours..]
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min);
        for (((label, _), min), r) in row.imps.iter().zip(fastest.iter()).zip(&round_ratios) {
            println!(
                "  {label:<28} vs best peer {:.2}  (median of rounds {:.2})",
                min / best_peer,
                r[r.len() / 2]
            );
        }
    }
}
