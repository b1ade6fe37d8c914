//! NIST ACVP vectors (ACVP-Server v1.1.0.43): keyGen, sigGen, sigVer.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use pqkit_ml_dsa::{
    ExpandedSigningKey, HashAlg, MlDsa44, MlDsa65, MlDsa87, MuBuilder, ParameterSet, PreHash,
    Signature, SigningKey, VerifyingKey, hazmat, lowmem,
};
use pqkit_testkit::acvp::VectorSet;
use pqkit_testkit::vectors::hex;
use serde_json::Value;

/// Run `f` on every case of an ACVP vector set, by parameter set; the
/// number of cases run.
fn run_set(dir: &str, mut f: impl FnMut(&str, &Value, &Value, &Value)) -> Option<usize> {
    let set = VectorSet::load(dir)?;
    let cases = set.cases();
    for c in &cases {
        f(
            c.group["parameterSet"].as_str().expect("set"),
            c.group,
            c.test,
            c.expected,
        );
    }
    Some(cases.len())
}

macro_rules! per_set {
    ($name:expr, $f:ident($($arg:expr),*)) => {
        match $name {
            "ML-DSA-44" => $f::<MlDsa44>($($arg),*),
            "ML-DSA-65" => $f::<MlDsa65>($($arg),*),
            "ML-DSA-87" => $f::<MlDsa87>($($arg),*),
            other => panic!("unknown parameter set {other}"),
        }
    };
}

fn keygen_case<P: ParameterSet>(t: &Value, want: &Value) {
    let seed: [u8; 32] = hex(&t["seed"]).try_into().expect("32-byte seed");
    let sk = SigningKey::<P>::from_seed(&seed.into());
    assert_eq!(sk.verifying_key().as_bytes(), &hex(&want["pk"])[..], "pk");
    assert_eq!(sk.expanded_bytes().as_ref(), &hex(&want["sk"])[..], "sk");
    // Key generation to the encodings only (no signing forms).
    let (pk_only, sk_only) = hazmat::keygen_internal_encoded::<P>(&seed);
    assert_eq!(pk_only.as_ref(), &hex(&want["pk"])[..], "encoded pk");
    assert_eq!(sk_only.as_ref(), &hex(&want["sk"])[..], "encoded sk");
    let again = ExpandedSigningKey::<P>::from_expanded(&hex(&want["sk"])).expect("expanded import");
    assert_eq!(again.verifying_key(), sk.verifying_key());
    assert!(again.expanded_bytes() == sk.expanded_bytes());
    // The low-memory key of the same seed streams the same public key.
    let compact = lowmem::SigningKey::<P>::from_seed(&seed.into());
    assert_eq!(
        compact.verifying_key().as_bytes(),
        &hex(&want["pk"])[..],
        "lowmem pk"
    );
    assert_eq!(*compact.tr(), sk.verifying_key().tr());
}

#[test]
fn acvp_keygen() {
    let Some(n) = run_set("ml-dsa/acvp/ML-DSA-keyGen-FIPS204", |set, _g, t, want| {
        per_set!(set, keygen_case(t, want))
    }) else {
        return;
    };
    assert_eq!(n, 75);
}

fn siggen_case<P: ParameterSet>(g: &Value, t: &Value, want: &Value) {
    let sk = ExpandedSigningKey::<P>::from_expanded(&hex(&t["sk"])).expect("sk import");
    let rnd: [u8; 32] = if g["deterministic"].as_bool().expect("det") {
        [0u8; 32]
    } else {
        hex(&t["rnd"]).try_into().expect("rnd")
    };
    let sig = if g["signatureInterface"] == "external" {
        let msg = hex(&t["message"]);
        let ctx = hex(&t["context"]);
        if g["preHash"] == "preHash" {
            let alg =
                HashAlg::from_name(t["hashAlg"].as_str().expect("hashAlg")).expect("known hash");
            sk.sign_prehashed_with_rnd(&alg.digest(&msg), &ctx, &rnd)
                .expect("sign")
        } else {
            sk.sign_with_rnd(&msg, &ctx, &rnd).expect("sign")
        }
    } else if g["externalMu"].as_bool().expect("externalMu") {
        let mu: [u8; 64] = hex(&t["mu"]).try_into().expect("mu");
        sk.sign_mu_with_rnd(&mu, &rnd).expect("sign")
    } else {
        hazmat::sign_internal(&sk, &[&hex(&t["message"])], &rnd).expect("sign")
    };
    assert_eq!(
        sig.as_bytes(),
        &hex(&want["signature"])[..],
        "tc {}",
        t["tcId"]
    );
    // And it verifies through the matching interface.
    let mu = mu_of::<P>(g, t, &sk.verifying_key());
    sk.verifying_key()
        .verify_mu_bytes(&mu, sig.as_bytes())
        .expect("self-verify");
    // The low-memory signer, reading the expanded key in place, signs the
    // same mu to the same bytes.
    let compact = lowmem::sign_expanded_mu::<P>(&hex(&t["sk"]), &mu, &rnd).expect("lowmem sign");
    assert_eq!(compact, sig, "lowmem tc {}", t["tcId"]);
}

fn mu_of<P: ParameterSet>(g: &Value, t: &Value, vk: &VerifyingKey<P>) -> [u8; 64] {
    if g["signatureInterface"] == "external" {
        let msg = hex(&t["message"]);
        let ctx = hex(&t["context"]);
        if g["preHash"] == "preHash" {
            let alg =
                HashAlg::from_name(t["hashAlg"].as_str().expect("hashAlg")).expect("known hash");
            let ph = PreHash::from_digest(alg, alg.digest(&msg).as_bytes()).expect("digest");
            MuBuilder::prehashed(&vk.tr(), &ctx, &ph).expect("ctx")
        } else {
            let mut b = MuBuilder::from_verifying_key(vk, &ctx).expect("ctx");
            b.update(&msg);
            b.finalize()
        }
    } else if g["externalMu"].as_bool().expect("externalMu") {
        hex(&t["mu"]).try_into().expect("mu")
    } else {
        let mut b = MuBuilder::new_internal(&vk.tr());
        b.update(&hex(&t["message"]));
        b.finalize()
    }
}

#[test]
fn acvp_siggen() {
    let Some(n) = run_set("ml-dsa/acvp/ML-DSA-sigGen-FIPS204", |set, g, t, want| {
        per_set!(set, siggen_case(g, t, want))
    }) else {
        return;
    };
    assert_eq!(n, 360);
}

fn sigver_case<P: ParameterSet>(g: &Value, t: &Value, want: &Value) {
    let vk = VerifyingKey::<P>::from_bytes(&hex(&t["pk"])).expect("pk");
    let sig = hex(&t["signature"]);
    let passed = want["testPassed"].as_bool().expect("testPassed");
    let mu = mu_of::<P>(g, t, &vk);
    let res = vk.verify_mu_bytes(&mu, &sig);
    assert_eq!(
        res.is_ok(),
        passed,
        "tg {} tc {}: {res:?}",
        g["tgId"],
        t["tcId"]
    );
    // The low-memory verifier decides the same, for the same reason.
    let compact = lowmem::VerifyingKey::<P>::from_bytes(&hex(&t["pk"])).expect("pk");
    assert_eq!(
        compact.verify_mu_bytes(&mu, &sig),
        res,
        "lowmem tc {}",
        t["tcId"]
    );
    // The convenience interfaces agree.
    if g["signatureInterface"] == "external" {
        let msg = hex(&t["message"]);
        let ctx = hex(&t["context"]);
        let s = Signature::<P>::from_bytes(&sig).expect("length");
        let r2 = if g["preHash"] == "preHash" {
            let alg = HashAlg::from_name(t["hashAlg"].as_str().expect("hashAlg")).expect("hash");
            vk.verify_prehash(alg, &msg, &ctx, &s)
        } else {
            vk.verify_multipart_with_context(&[&msg], &ctx, s.as_bytes())
        };
        assert_eq!(r2, res);
    } else if g["externalMu"] == false {
        assert_eq!(
            hazmat::verify_internal(&vk, &[&hex(&t["message"])], &sig),
            res
        );
    }
}

#[test]
fn acvp_sigver() {
    let Some(n) = run_set("ml-dsa/acvp/ML-DSA-sigVer-FIPS204", |set, g, t, want| {
        per_set!(set, sigver_case(g, t, want))
    }) else {
        return;
    };
    assert_eq!(n, 180);
}
