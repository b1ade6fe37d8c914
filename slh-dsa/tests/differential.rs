//! Differential tests against RustCrypto `slh-dsa` and `fips205`: keys,
//! deterministic and hedged signatures byte for byte, and the verification
//! decision on mutated signatures, messages, public keys and contexts.
//!
//! The `s` sets sign in seconds (the peers slower still), so their
//! signatures are compared by the ACVP test and, here, only under
//! `PQKIT_SLH_FULL=1`; their keys and verification decisions always.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod common;

use common::{Op, Peer};
use pqkit_slh_dsa::{Error, HashAlg, ParameterSet, Signature, SigningKey, VerifyingKey};
use pqkit_testkit::rng::TestRng;

fn full() -> bool {
    std::env::var("PQKIT_SLH_FULL").is_ok_and(|v| v == "1")
}

/// Our decision and both peers' agree on `(pk, op, sig)`, and are `want`.
fn decide<P: Peer>(pk: &[u8], op: Op<'_>, sig: &[u8], want: bool, what: &str) {
    let ours = match VerifyingKey::<P>::from_bytes(pk) {
        Ok(vk) => match op {
            Op::Internal(m) => pqkit_slh_dsa::hazmat::slh_verify_internal(&vk, &[m], sig),
            Op::Pure { msg, ctx } => vk.verify_bytes(msg, ctx, sig),
            Op::PreHash { alg, msg, ctx } => {
                Signature::<P>::from_bytes(sig).and_then(|s| vk.verify_prehash(alg, msg, ctx, &s))
            }
        },
        Err(e) => Err(e),
    };
    assert_eq!(ours.is_ok(), want, "{} ours: {what}: {ours:?}", P::NAME);
    if let Some(rc) = P::rc_verify(pk, op, sig) {
        assert_eq!(rc, want, "{} RustCrypto: {what}", P::NAME);
    }
    assert_eq!(
        P::fips_verify(pk, op, sig),
        want,
        "{} fips205: {what}",
        P::NAME
    );
}

fn one_set<P: Peer>(seeds: usize, sign_peers: bool) {
    let n = P::N;
    let mut rng = TestRng(0x5eed_0000 + P::SIG_LEN as u64);
    for round in 0..seeds {
        let seeds: [u8; 96] = rng.bytes();
        let (sk_seed, sk_prf, pk_seed) = (&seeds[..n], &seeds[32..32 + n], &seeds[64..64 + n]);
        let sk = SigningKey::<P>::from_seed(sk_seed, sk_prf, pk_seed).unwrap();
        let vk = sk.verifying_key();
        let (rc_sk, rc_pk) = P::rc_keygen(sk_seed, sk_prf, pk_seed);
        assert_eq!(sk.as_bytes(), &rc_sk[..], "{} RustCrypto sk", P::NAME);
        assert_eq!(vk.as_bytes(), &rc_pk[..], "{} RustCrypto pk", P::NAME);
        let (f_sk, f_pk) = P::fips_keygen(sk_seed, sk_prf, pk_seed);
        assert_eq!(sk.as_bytes(), &f_sk[..], "{} fips205 sk", P::NAME);
        assert_eq!(vk.as_bytes(), &f_pk[..], "{} fips205 pk", P::NAME);

        let mut msg = vec![0u8; (rng.next_u64() % 200) as usize];
        rng.fill(&mut msg);
        let mut ctx = vec![0u8; (rng.next_u64() % 40) as usize];
        rng.fill(&mut ctx);
        let alg = HashAlg::ALL[(rng.next_u64() % 12) as usize];
        let addrnd: [u8; 32] = rng.bytes();
        // One operation per round, in turn: pure, pre-hash, internal.
        let op = match round % 3 {
            0 => Op::Pure {
                msg: &msg,
                ctx: &ctx,
            },
            1 => Op::PreHash {
                alg,
                msg: &msg,
                ctx: &ctx,
            },
            _ => Op::Internal(&msg),
        };
        let rnd = (round % 2 == 1).then_some(&addrnd[..n]);
        let sig = match op {
            Op::Pure { msg, ctx } => match rnd {
                Some(r) => sk.sign_with_rnd(msg, ctx, r),
                None => sk.sign_deterministic(msg, ctx),
            },
            Op::PreHash { alg, msg, ctx } => match rnd {
                Some(r) => sk.sign_prehashed_with_rnd(&alg.digest(msg), ctx, r),
                None => sk.sign_prehash_deterministic(alg, msg, ctx),
            },
            Op::Internal(m) => pqkit_slh_dsa::hazmat::slh_sign_internal(&sk, &[m], rnd),
        }
        .unwrap();
        if sign_peers {
            if let Some(theirs) = P::rc_sign(sk.as_bytes(), op, rnd) {
                assert!(
                    theirs == sig.as_bytes(),
                    "{} RustCrypto sig {op:?}",
                    P::NAME
                );
            }
            assert!(
                P::fips_sign(sk.as_bytes(), op, rnd) == sig.as_bytes(),
                "{} fips205 sig {op:?}",
                P::NAME
            );
        }

        let pk = vk.as_bytes();
        let s = sig.as_bytes();
        decide::<P>(pk, op, s, true, "valid");
        // Bits in R, in the FORS part, in the hypertree part, the last byte.
        let fors_end = n * (1 + P::K * (1 + P::A));
        for at in [0, n + 3, fors_end - 1, fors_end + 5, P::SIG_LEN - 1] {
            let mut bad = s.to_vec();
            bad[at] ^= 1 << (at % 8);
            decide::<P>(pk, op, &bad, false, &format!("sig bit at {at}"));
        }
        decide::<P>(pk, op, &s[..s.len() - 1], false, "short sig");
        let mut bad_pk = pk.to_vec();
        bad_pk[0] ^= 0x80;
        decide::<P>(&bad_pk, op, s, false, "PK.seed bit");
        let mut bad_pk = pk.to_vec();
        bad_pk[2 * n - 1] ^= 0x01;
        decide::<P>(&bad_pk, op, s, false, "PK.root bit");
        let mut bad_msg = msg.clone();
        bad_msg.push(0);
        let other_ctx = [ctx.clone(), vec![1]].concat();
        let (op_msg, op_ctx) = match op {
            Op::Pure { ctx, .. } => (
                Op::Pure { msg: &bad_msg, ctx },
                Some(Op::Pure {
                    msg: &msg,
                    ctx: &other_ctx,
                }),
            ),
            Op::PreHash { alg, ctx, .. } => (
                Op::PreHash {
                    alg,
                    msg: &bad_msg,
                    ctx,
                },
                Some(Op::PreHash {
                    alg,
                    msg: &msg,
                    ctx: &other_ctx,
                }),
            ),
            Op::Internal(_) => (Op::Internal(&bad_msg), None),
        };
        decide::<P>(pk, op_msg, s, false, "message");
        if let Some(op_ctx) = op_ctx {
            decide::<P>(pk, op_ctx, s, false, "context");
        }
    }
}

#[test]
fn slh_differential_fast_sets() {
    let seeds = if full() { 12 } else { 3 };
    one_set::<pqkit_slh_dsa::Sha2_128f>(seeds, true);
    one_set::<pqkit_slh_dsa::Shake128f>(seeds, true);
    one_set::<pqkit_slh_dsa::Sha2_192f>(seeds, true);
    one_set::<pqkit_slh_dsa::Shake192f>(seeds, true);
    one_set::<pqkit_slh_dsa::Sha2_256f>(seeds, true);
    one_set::<pqkit_slh_dsa::Shake256f>(seeds, true);
}

#[test]
fn slh_differential_small_sets() {
    let (seeds, peers) = if full() { (3, true) } else { (1, false) };
    one_set::<pqkit_slh_dsa::Sha2_128s>(seeds, peers);
    one_set::<pqkit_slh_dsa::Shake128s>(seeds, peers);
    one_set::<pqkit_slh_dsa::Sha2_192s>(seeds, peers);
    one_set::<pqkit_slh_dsa::Shake192s>(seeds, peers);
    one_set::<pqkit_slh_dsa::Sha2_256s>(seeds, peers);
    one_set::<pqkit_slh_dsa::Shake256s>(seeds, peers);
}

/// Wrong lengths and long contexts are typed errors, never panics.
#[test]
fn typed_errors() {
    type P = pqkit_slh_dsa::Sha2_128f;
    let s16 = [1u8; 16];
    assert_eq!(
        SigningKey::<P>::from_seed(&[0; 15], &s16, &s16).unwrap_err(),
        Error::InvalidLength
    );
    assert_eq!(
        SigningKey::<P>::from_seed(&s16, &s16, &[0; 17]).unwrap_err(),
        Error::InvalidLength
    );
    assert_eq!(
        SigningKey::<P>::from_bytes(&[0; 63]).unwrap_err(),
        Error::InvalidLength
    );
    let sk = SigningKey::<P>::from_seed(&s16, &[2; 16], &[3; 16]).unwrap();
    // A private key whose PK.root does not match its seeds.
    let mut enc = sk.as_bytes().to_vec();
    enc[63] ^= 1;
    assert_eq!(
        SigningKey::<P>::from_bytes(&enc).unwrap_err(),
        Error::InvalidPrivateKey
    );
    assert!(SigningKey::<P>::from_bytes(sk.as_bytes()).unwrap() == sk);
    assert_eq!(
        VerifyingKey::<P>::from_bytes(&[0; 31]).unwrap_err(),
        Error::InvalidLength
    );
    assert_eq!(
        Signature::<P>::from_bytes(&[0; 100]).unwrap_err(),
        Error::InvalidLength
    );
    let long = [0u8; 256];
    assert_eq!(
        sk.sign_deterministic(b"m", &long).unwrap_err(),
        Error::ContextTooLong
    );
    assert_eq!(
        sk.sign_prehash_deterministic(HashAlg::Sha2_256, b"m", &long)
            .unwrap_err(),
        Error::ContextTooLong
    );
    assert_eq!(
        sk.sign_with_rnd(b"m", b"", &[0; 15]).unwrap_err(),
        Error::InvalidLength
    );
    assert!(sk.with_context(&long).is_err());
    let vk = sk.verifying_key();
    assert!(vk.with_context(&long).is_err());
    let sig = sk.sign_deterministic(b"m", &long[..255]).unwrap();
    vk.verify_with_context(b"m", &long[..255], &sig).unwrap();
    assert_eq!(
        vk.verify_bytes(b"m", &long, sig.as_bytes()).unwrap_err(),
        Error::ContextTooLong
    );
    // Verification of arbitrary bytes: lengths, zeros, garbage.
    for len in [0, 1, 16, P::SIG_LEN - 1, P::SIG_LEN + 1] {
        assert_eq!(
            vk.verify_bytes(b"m", b"", &vec![0xff; len]).unwrap_err(),
            Error::InvalidLength
        );
    }
    assert_eq!(
        vk.verify_bytes(b"m", b"", &vec![0; P::SIG_LEN])
            .unwrap_err(),
        Error::InvalidSignature
    );
    assert!(pqkit_slh_dsa::hazmat::slh_sign_internal(&sk, &[b"m"], Some(&[0; 3])).is_err());
}

/// Verification of arbitrary bytes never panics and never accepts: random
/// signatures, public keys and messages for every `f` set.
fn garbage<P: Peer>() {
    let mut rng = TestRng(0xbad + P::SIG_LEN as u64);
    for _ in 0..4 {
        let mut pk = vec![0u8; P::PK_LEN];
        rng.fill(&mut pk);
        let mut sig = vec![0u8; P::SIG_LEN];
        rng.fill(&mut sig);
        let vk = VerifyingKey::<P>::from_bytes(&pk).unwrap();
        assert_eq!(
            vk.verify_bytes(b"m", b"", &sig),
            Err(Error::InvalidSignature)
        );
        assert_eq!(
            pqkit_slh_dsa::hazmat::slh_verify_internal(&vk, &[b"m"], &sig),
            Err(Error::InvalidSignature)
        );
        let s = Signature::<P>::from_bytes(&sig).unwrap();
        assert_eq!(
            vk.verify_prehash(HashAlg::Sha3_256, b"m", b"c", &s),
            Err(Error::InvalidSignature)
        );
    }
}

#[test]
fn garbage_never_verifies() {
    garbage::<pqkit_slh_dsa::Sha2_128f>();
    garbage::<pqkit_slh_dsa::Shake128f>();
    garbage::<pqkit_slh_dsa::Sha2_192f>();
    garbage::<pqkit_slh_dsa::Shake192f>();
    garbage::<pqkit_slh_dsa::Sha2_256f>();
    garbage::<pqkit_slh_dsa::Shake256f>();
    garbage::<pqkit_slh_dsa::Sha2_128s>();
    garbage::<pqkit_slh_dsa::Shake256s>();
}
