//! NIST ACVP vectors (ACVP-Server, via paulmillr/acvp-vectors): keyGen
//! against the expected results; sigGen prompts (no expected results
//! here) against RustCrypto `slh-dsa` and `fips205`.
//!
//! The `s` sets take seconds per signature, so by default sigGen runs the
//! first case of every group (72 groups: every set, interface, pre-hash
//! and determinism); `PQKIT_SLH_FULL=1` runs all 624.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod common;

use common::{Op, Peer};
use pqkit_slh_dsa::{HashAlg, PreHash, Signature, SigningKey, hazmat};
use pqkit_testkit::acvp::VectorSet;
use pqkit_testkit::vectors::{self, hex};
use serde_json::Value;

fn keygen_case<P: Peer>(t: &Value, want: &Value) {
    let (sk_seed, sk_prf, pk_seed) = (hex(&t["skSeed"]), hex(&t["skPrf"]), hex(&t["pkSeed"]));
    let sk = SigningKey::<P>::from_seed(&sk_seed, &sk_prf, &pk_seed).expect("seeds");
    assert_eq!(sk.as_bytes(), &hex(&want["sk"])[..], "sk tc {}", t["tcId"]);
    assert_eq!(
        sk.verifying_key().as_bytes(),
        &hex(&want["pk"])[..],
        "pk tc {}",
        t["tcId"]
    );
    let again = hazmat::slh_keygen_internal::<P>(&sk_seed, &sk_prf, &pk_seed).expect("seeds");
    assert!(again == sk);
}

#[test]
fn slh_acvp_keygen() {
    let Some(set) = VectorSet::load("slh-dsa/acvp/SLH-DSA-keyGen-FIPS205") else {
        return;
    };
    let cases = set.cases();
    for c in &cases {
        per_set!(
            c.group["parameterSet"].as_str().expect("set"),
            keygen_case(c.test, c.expected)
        );
    }
    eprintln!("SLH-DSA keyGen: {} cases", cases.len());
    assert_eq!(cases.len(), 120);
}

fn siggen_case<P: Peer>(g: &Value, t: &Value, full: bool) {
    let sk_bytes = hex(&t["sk"]);
    let sk = SigningKey::<P>::from_bytes(&sk_bytes).expect("sk import");
    let vk = sk.verifying_key();
    let rnd = if g["deterministic"].as_bool().expect("deterministic") {
        None
    } else {
        Some(hex(&t["additionalRandomness"]))
    };
    let rnd = rnd.as_deref();
    let msg = hex(&t["message"]);
    let ctx = t.get("context").map(hex).unwrap_or_default();
    let alg = t.get("hashAlg").and_then(Value::as_str);
    let op = if g["signatureInterface"] == "internal" {
        Op::Internal(&msg)
    } else if g["preHash"] == "preHash" {
        let alg = HashAlg::from_name(alg.expect("hashAlg")).expect("known hash");
        Op::PreHash {
            alg,
            msg: &msg,
            ctx: &ctx,
        }
    } else {
        Op::Pure {
            msg: &msg,
            ctx: &ctx,
        }
    };
    let sig: Signature<P> = match op {
        Op::Internal(m) => hazmat::slh_sign_internal(&sk, &[m], rnd).expect("sign"),
        Op::Pure { msg, ctx } => match rnd {
            Some(r) => sk.sign_with_rnd(msg, ctx, r),
            None => sk.sign_deterministic(msg, ctx),
        }
        .expect("sign"),
        Op::PreHash { alg, msg, ctx } => {
            let ph: PreHash = alg.digest(msg);
            match rnd {
                Some(r) => sk.sign_prehashed_with_rnd(&ph, ctx, r),
                None => sk.sign_prehash_deterministic(alg, msg, ctx),
            }
            .expect("sign")
        }
    };
    let tc = &t["tcId"];
    // The peers, on the same key, message, context and randomness.
    // RustCrypto `slh-dsa` has no HashSLH-DSA: pre-hash cases are compared
    // with `fips205` alone. Both peers take seconds per `s`-set signature
    // (RustCrypto up to 4 s at SHAKE-192s here), so by default:
    // * `f` sets: every case run, against both peers;
    // * `s` sets, deterministic: one peer per group, RustCrypto for the
    //   internal interface and fips205 for pure and pre-hash, so each peer
    //   sees every `s` set;
    // * `s` sets, hedged: our signature and verification only.
    // PQKIT_SLH_FULL=1 compares every case with both peers.
    let fast = P::NAME.ends_with('f');
    let internal = matches!(op, Op::Internal(_));
    let (use_rc, use_fips) = if full || fast {
        (true, true)
    } else if rnd.is_some() {
        (false, false)
    } else {
        (internal, !internal)
    };
    if use_rc && let Some(theirs) = P::rc_sign(&sk_bytes, op, rnd) {
        assert!(theirs == sig.as_bytes(), "RustCrypto disagrees, tc {tc}");
    }
    if use_fips {
        assert!(
            P::fips_sign(&sk_bytes, op, rnd) == sig.as_bytes(),
            "fips205 disagrees, tc {tc}"
        );
    }
    // Our verifier accepts it, and rejects it with one byte changed.
    let verify = |s: &[u8]| match op {
        Op::Internal(m) => hazmat::slh_verify_internal(&vk, &[m], s),
        Op::Pure { msg, ctx } => vk.verify_bytes(msg, ctx, s),
        Op::PreHash { alg, msg, ctx } => {
            vk.verify_prehash(alg, msg, ctx, &Signature::from_bytes(s).expect("length"))
        }
    };
    verify(sig.as_bytes()).unwrap_or_else(|e| panic!("self-verify tc {tc}: {e}"));
    let mut bad = sig.as_bytes().to_vec();
    let at = (tc.as_u64().expect("tcId") as usize * 7919) % P::SIG_LEN;
    bad[at] ^= 0x01;
    assert!(verify(&bad).is_err(), "mutated byte {at} accepted, tc {tc}");
    assert!(P::fips_verify(vk.as_bytes(), op, sig.as_bytes()));
}

/// The sigGen groups with `deterministic == det` whose parameter set name
/// contains `family`: the first case of each, or every case with
/// `PQKIT_SLH_FULL=1`. (Split in several tests so that the test harness
/// runs them on all cores.)
fn siggen(det: bool, family: &str) {
    let rel = "slh-dsa/acvp/SLH-DSA-sigGen-FIPS205/prompt.json";
    // Prompts only: there is no expectedResults.json to pair them with.
    let Some(prompt) = vectors::json(rel) else {
        return;
    };
    let full = std::env::var("PQKIT_SLH_FULL").is_ok_and(|v| v == "1");
    let all = prompt["testGroups"].as_array().expect("testGroups");
    assert_eq!(all.len(), 72);
    assert_eq!(
        all.iter()
            .map(|g| g["tests"].as_array().expect("tests").len())
            .sum::<usize>(),
        624
    );
    let groups: Vec<&Value> = all
        .iter()
        .filter(|g| g["deterministic"] == det)
        .filter(|g| g["parameterSet"].as_str().expect("set").contains(family))
        .collect();
    let (mut ran, mut total) = (0usize, 0usize);
    let start = std::time::Instant::now();
    for g in &groups {
        let tests = g["tests"].as_array().expect("tests");
        total += tests.len();
        let take = if full { tests.len() } else { 1 };
        for t in tests.iter().take(take) {
            per_set!(
                g["parameterSet"].as_str().expect("set"),
                siggen_case(g, t, full)
            );
            ran += 1;
        }
    }
    eprintln!(
        "SLH-DSA sigGen ({}{family}): ran {ran} of {total} cases in {} groups ({}; {:.1} s)",
        if det { "deterministic " } else { "hedged " },
        groups.len(),
        if full {
            "PQKIT_SLH_FULL=1"
        } else {
            "first case of each group; PQKIT_SLH_FULL=1 for all"
        },
        start.elapsed().as_secs_f64()
    );
    assert_eq!(groups.len(), if family.is_empty() { 36 } else { 18 });
    assert!(ran >= groups.len());
}

#[test]
fn slh_acvp_siggen_deterministic_sha2() {
    siggen(true, "-SHA2-");
}

#[test]
fn slh_acvp_siggen_deterministic_shake() {
    siggen(true, "-SHAKE-");
}

#[test]
fn slh_acvp_siggen_hedged() {
    siggen(false, "");
}
