//! `req`, `cert`, `verify-cert` and `pkey` through the command: a root ->
//! intermediate -> leaf chain for every signature algorithm (FN-DSA with
//! its provisional OIDs included; two composite ML-DSA combinations here,
//! all of them in tests/composite.rs), an ML-KEM end-entity certificate, the
//! rejections `verify-cert` reports (exit 1 with a reason), and bad input
//! (exit 2, one line, no output file).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;

use common::{ok, pqkit};

fn tmpdir(name: &str) -> std::path::PathBuf {
    common::tmpdir("pki", name)
}

/// root (CA) -> intermediate (CA, path length 0) -> leaf, each key of `alg`.
fn chain(d: &Path, alg: &str) {
    ok(d, &["keygen", alg, "-o", "root.key"]);
    ok(
        d,
        &[
            "cert",
            "-k",
            "root.key",
            "--self-signed",
            "--subject",
            "CN=Root,O=pqkit test",
            "--ca",
            "-o",
            "root.pem",
        ],
    );
    ok(d, &["keygen", alg, "-o", "int.key"]);
    ok(
        d,
        &[
            "req",
            "-k",
            "int.key",
            "--subject",
            "CN=Intermediate,O=pqkit test",
            "-o",
            "int.csr",
        ],
    );
    ok(
        d,
        &[
            "cert",
            "-k",
            "root.key",
            "--ca-cert",
            "root.pem",
            "--csr",
            "int.csr",
            "--ca",
            "--path-len",
            "0",
            "-o",
            "int.pem",
        ],
    );
    ok(d, &["keygen", alg, "-o", "leaf.key"]);
    ok(
        d,
        &[
            "req",
            "-k",
            "leaf.key",
            "--subject",
            "CN=localhost",
            "--san",
            "DNS:localhost",
            "-o",
            "leaf.csr",
        ],
    );
    ok(
        d,
        &[
            "cert",
            "-k",
            "int.key",
            "--ca-cert",
            "int.pem",
            "--csr",
            "leaf.csr",
            "--days",
            "30",
            "-o",
            "leaf.pem",
        ],
    );
}

/// After `chain`: a new `victim.key` (of `alg`) whose certificate
/// `victim.pem` the leaf's key issues (the leaf is no CA), and `both.pem`
/// holding the intermediate and the leaf, for the untrusted set.
fn leaf_issues_victim(d: &Path, alg: &str) {
    ok(d, &["keygen", alg, "-o", "victim.key"]);
    ok(
        d,
        &[
            "req",
            "-k",
            "victim.key",
            "--subject",
            "CN=victim",
            "-o",
            "victim.csr",
        ],
    );
    ok(
        d,
        &[
            "cert",
            "-k",
            "leaf.key",
            "--ca-cert",
            "leaf.pem",
            "--csr",
            "victim.csr",
            "-o",
            "victim.pem",
        ],
    );
    std::fs::write(
        d.join("both.pem"),
        std::fs::read_to_string(d.join("int.pem")).unwrap()
            + &std::fs::read_to_string(d.join("leaf.pem")).unwrap(),
    )
    .unwrap();
}

fn verify(d: &Path, args: &[&str]) -> (Option<i32>, String) {
    let mut a = vec!["verify-cert"];
    a.extend_from_slice(args);
    let out = pqkit(d, &a);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).trim().to_string(),
    )
}

#[test]
fn chains_for_every_signature_algorithm() {
    for alg in [
        "ml-dsa-44",
        "ml-dsa-65",
        "ml-dsa-87",
        "ed25519",
        "fn-dsa-512",
        "fn-dsa-1024",
        "mldsa65-ed25519",
        "mldsa44-ecdsa-p256",
    ] {
        let d = tmpdir(alg);
        chain(&d, alg);
        assert_eq!(
            verify(
                &d,
                &["--ca", "root.pem", "--untrusted", "int.pem", "leaf.pem"]
            ),
            (Some(0), "valid".into()),
            "{alg}"
        );
        // --purpose any: the same chain, and the root and intermediate
        // themselves.
        for (untrusted, cert) in [
            ("int.pem", "leaf.pem"),
            ("int.pem", "int.pem"),
            ("root.pem", "root.pem"),
        ] {
            assert_eq!(
                verify(
                    &d,
                    &[
                        "--purpose",
                        "any",
                        "--ca",
                        "root.pem",
                        "--untrusted",
                        untrusted,
                        cert
                    ]
                ),
                (Some(0), "valid".into()),
                "{alg} {cert}"
            );
        }
        // Without the intermediate, against the wrong root, in the future.
        let (code, text) = verify(&d, &["--ca", "root.pem", "leaf.pem"]);
        assert_eq!(
            (code, text.as_str()),
            (Some(1), "invalid: UnknownIssuer"),
            "{alg}"
        );
        let (code, text) = verify(&d, &["--ca", "leaf.pem", "int.pem"]);
        assert_eq!(code, Some(1), "{alg}: {text}");
        let (code, text) = verify(
            &d,
            &[
                "--ca",
                "root.pem",
                "--untrusted",
                "int.pem",
                "--time",
                "2099-01-01T00:00:00Z",
                "leaf.pem",
            ],
        );
        assert_eq!(code, Some(1));
        assert!(text.starts_with("invalid: CertExpired"), "{text}");
    }
}

#[test]
fn kem_certificate_tampering_and_misuse() {
    let d = tmpdir("kem");
    chain(&d, "ml-dsa-65");
    ok(&d, &["keygen", "ml-kem-768", "-o", "kem.key"]);
    ok(&d, &["pubkey", "-i", "kem.key", "-o", "kem.pub"]);
    ok(
        &d,
        &[
            "cert",
            "-k",
            "int.key",
            "--ca-cert",
            "int.pem",
            "--pubkey",
            "kem.pub",
            "--subject",
            "CN=kem",
            "-o",
            "kem.pem",
        ],
    );
    assert_eq!(
        verify(
            &d,
            &["--ca", "root.pem", "--untrusted", "int.pem", "kem.pem"]
        ),
        (Some(0), "valid".into())
    );
    // A flipped bit in the leaf's signature.
    let pem = std::fs::read_to_string(d.join("leaf.pem")).unwrap();
    let (label, mut der) = der_of(&pem);
    assert_eq!(label, "CERTIFICATE");
    let n = der.len();
    der[n - 5] ^= 1;
    std::fs::write(d.join("bad.der"), &der).unwrap();
    assert_eq!(
        verify(
            &d,
            &["--ca", "root.pem", "--untrusted", "int.pem", "bad.der"]
        ),
        (Some(1), "invalid: InvalidSignatureForPublicKey".into())
    );
    // A leaf used as a CA: the leaf key issues a certificate.
    leaf_issues_victim(&d, "ml-dsa-44");
    let (code, text) = verify(
        &d,
        &["--ca", "root.pem", "--untrusted", "both.pem", "victim.pem"],
    );
    assert_eq!(code, Some(1), "{text}");
    assert!(text.starts_with("invalid:"), "{text}");
}

fn der_of(pem: &str) -> (String, Vec<u8>) {
    let (label, der) = der::pem::decode_vec(pem.as_bytes()).unwrap();
    (label.to_string(), der)
}

#[test]
fn pkey_forms() {
    let d = tmpdir("pkey");
    for alg in ["ml-dsa-65", "ml-kem-768"] {
        ok(
            &d,
            &[
                "keygen",
                alg,
                "--seed",
                &"07".repeat(if alg == "ml-kem-768" { 64 } else { 32 }),
                "-o",
                "seed.key",
            ],
        );
        ok(
            &d,
            &[
                "pkey",
                "-i",
                "seed.key",
                "--key-format",
                "expanded",
                "-o",
                "exp.key",
            ],
        );
        ok(
            &d,
            &[
                "pkey",
                "-i",
                "seed.key",
                "--key-format",
                "both",
                "--der",
                "-o",
                "both.der",
            ],
        );
        ok(
            &d,
            &[
                "pkey",
                "-i",
                "both.der",
                "--key-format",
                "seed",
                "-o",
                "seed2.key",
            ],
        );
        assert_eq!(
            std::fs::read(d.join("seed.key")).unwrap(),
            std::fs::read(d.join("seed2.key")).unwrap()
        );
        // The same public key from every form.
        let pubs: Vec<Vec<u8>> = ["seed.key", "exp.key", "both.der"]
            .iter()
            .map(|k| {
                ok(&d, &["pubkey", "-i", k, "-o", "p.pem"]);
                std::fs::read(d.join("p.pem")).unwrap()
            })
            .collect();
        assert!(pubs.windows(2).all(|w| w[0] == w[1]));
        // Expanded to seed: error, no file.
        let out = pqkit(
            &d,
            &[
                "pkey",
                "-i",
                "exp.key",
                "--key-format",
                "seed",
                "-o",
                "nope.key",
            ],
        );
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("has no seed"));
        assert!(!d.join("nope.key").exists());
        for f in ["seed.key", "exp.key", "both.der", "seed2.key", "p.pem"] {
            std::fs::remove_file(d.join(f)).unwrap();
        }
    }
}

#[test]
fn bad_inputs_exit_2_without_output() {
    let d = tmpdir("bad");
    chain(&d, "ed25519");
    ok(&d, &["keygen", "ml-kem-512", "-o", "kem.key"]);
    std::fs::write(
        d.join("junk.pem"),
        "-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n",
    )
    .unwrap();
    // A CSR whose signature does not verify: swap in another request's key.
    let csr = std::fs::read_to_string(d.join("leaf.csr")).unwrap();
    let (_, mut der) = der_of(&csr);
    let n = der.len();
    der[n - 3] ^= 0x40;
    std::fs::write(
        d.join("badsig.csr"),
        der::pem::encode_string("CERTIFICATE REQUEST", der::pem::LineEnding::LF, &der).unwrap(),
    )
    .unwrap();
    for args in [
        &["req", "-k", "kem.key", "--subject", "CN=x", "-o", "out.pem"][..],
        &[
            "req",
            "-k",
            "leaf.key",
            "--subject",
            "not a name",
            "-o",
            "out.pem",
        ],
        &[
            "req",
            "-k",
            "leaf.key",
            "--subject",
            "CN=x",
            "--san",
            "FTP:x",
            "-o",
            "out.pem",
        ],
        &[
            "cert",
            "-k",
            "int.key",
            "--ca-cert",
            "int.pem",
            "--csr",
            "badsig.csr",
            "-o",
            "out.pem",
        ],
        &[
            "cert",
            "-k",
            "int.key",
            "--ca-cert",
            "root.pem",
            "--csr",
            "leaf.csr",
            "-o",
            "out.pem",
        ],
        &[
            "cert", "-k", "int.key", "--csr", "leaf.csr", "-o", "out.pem",
        ],
        &[
            "cert",
            "-k",
            "int.key",
            "--ca-cert",
            "junk.pem",
            "--csr",
            "leaf.csr",
            "-o",
            "out.pem",
        ],
        &[
            "cert",
            "-k",
            "kem.key",
            "--self-signed",
            "--subject",
            "CN=x",
            "-o",
            "out.pem",
        ],
        &[
            "cert",
            "-k",
            "root.key",
            "--self-signed",
            "--subject",
            "CN=x",
            "--frobnicate",
            "-o",
            "out.pem",
        ],
        &["verify-cert", "--ca", "junk.pem", "leaf.pem"],
        &[
            "verify-cert",
            "--ca",
            "root.pem",
            "--time",
            "yesterday",
            "leaf.pem",
        ],
        &[
            "pkey",
            "-i",
            "leaf.key",
            "--key-format",
            "expanded",
            "-o",
            "out.pem",
        ],
    ] {
        let out = pqkit(&d, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("pqkit: error: "), "{err}");
        assert!(!d.join("out.pem").exists(), "{args:?} left a file");
    }
}

#[test]
fn show_describes_keys_certificates_and_requests() {
    let d = tmpdir("show");
    chain(&d, "ml-dsa-65");
    ok(
        &d,
        &[
            "pkey",
            "-i",
            "leaf.key",
            "--key-format",
            "both",
            "-o",
            "both.key",
        ],
    );
    ok(&d, &["pubkey", "-i", "leaf.key", "-o", "leaf.pub"]);
    let text = ok(&d, &["show", "-i", "leaf.pem"]);
    assert!(text.contains("type: certificate\n"), "{text}");
    assert!(text.contains("subject: CN=localhost\n"), "{text}");
    assert!(
        text.contains("issuer: CN=Intermediate,O=pqkit test\n"),
        "{text}"
    );
    assert!(text.contains("signature algorithm: ml-dsa-65\n"), "{text}");
    assert!(text.contains("subjectAltName: DNS:localhost\n"), "{text}");
    assert!(text.contains("CA: false\n"), "{text}");
    let json: serde_json::Value =
        serde_json::from_str(&ok(&d, &["show", "-i", "int.pem", "--json"])).unwrap();
    assert_eq!(json["type"], "certificate");
    assert_eq!(json["CA"], true);
    assert_eq!(json["public key algorithm"], "ml-dsa-65");
    assert_eq!(json["SHA-256 fingerprint"].as_str().unwrap().len(), 64);
    let csr: serde_json::Value =
        serde_json::from_str(&ok(&d, &["show", "-i", "leaf.csr", "--json"])).unwrap();
    assert_eq!(csr["type"], "certificate request");
    assert_eq!(csr["signature valid"], true);
    assert_eq!(csr["requested subjectAltName"][0], "DNS:localhost");
    let key: serde_json::Value =
        serde_json::from_str(&ok(&d, &["show", "-i", "both.key", "--json"])).unwrap();
    assert_eq!(key["type"], "private key");
    assert_eq!(
        key["private key form"],
        "both (seed 32 bytes, expandedKey 4032 bytes)"
    );
    let public: serde_json::Value =
        serde_json::from_str(&ok(&d, &["show", "-i", "leaf.pub", "--json"])).unwrap();
    assert_eq!(public["type"], "public key");
    assert_eq!(public["SPKI SHA-256"], key["SPKI SHA-256"]);
    std::fs::write(d.join("junk"), b"\x30\x03\x02\x01\x00").unwrap();
    let out = pqkit(&d, &["show", "-i", "junk"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[test]
fn pkey_check_runs_the_import_checks_and_a_round_trip() {
    let d = tmpdir("check");
    for alg in [
        "ml-kem-768",
        "ml-dsa-65",
        "fn-dsa-512",
        "saber",
        "ed25519",
        "mldsa87-ecdsa-p521",
    ] {
        ok(&d, &["keygen", alg, "-o", "k.pem"]);
        assert_eq!(ok(&d, &["pkey", "-i", "k.pem", "--check"]), "ok\n", "{alg}");
    }
    // An FN-DSA key whose F is all zeros (the last n bytes of the key,
    // which end the PKCS#8 DER): well encoded, G = 0 in range, but
    // f G - g F != q.
    ok(
        &d,
        &[
            "keygen",
            "fn-dsa-512",
            "--key-format",
            "seed",
            "-o",
            "f.pem",
            "--seed",
            &"07".repeat(32),
        ],
    );
    let (_, mut der) = der_of(&std::fs::read_to_string(d.join("f.pem")).unwrap());
    let n = der.len();
    der[n - 512..].fill(0);
    std::fs::write(d.join("f0.der"), &der).unwrap();
    let out = pqkit(&d, &["pkey", "-i", "f0.der", "--check"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("invalid: "));
    // Using it is an error: exit 2, one line, no output.
    let out = pqkit(&d, &["sign", "-k", "f0.der", "-i", "f.pem", "-o", "sig"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
    assert!(!d.join("sig").exists());
    let out = pqkit(&d, &["pubkey", "-i", "f0.der", "-o", "pub"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
    assert!(!d.join("pub").exists());
    // An expanded-only ML-KEM key with an altered s (its H(ek) still
    // valid): the pairwise test refuses it; decap leaves no output.
    ok(
        &d,
        &[
            "keygen",
            "ml-kem-512",
            "--key-format",
            "expanded",
            "-o",
            "e.pem",
        ],
    );
    ok(&d, &["pubkey", "-i", "e.pem", "-o", "e.pub"]);
    ok(
        &d,
        &["encap", "-p", "e.pub", "-o", "ct", "--secret-out", "ss"],
    );
    let (_, mut der) = der_of(&std::fs::read_to_string(d.join("e.pem")).unwrap());
    let n = der.len();
    // The 1632-byte expanded key ends the DER; s comes first in it.
    der[n - 1632] ^= 1;
    std::fs::write(d.join("e0.der"), &der).unwrap();
    let out = pqkit(&d, &["pkey", "-i", "e0.der", "--check"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let out = pqkit(&d, &["decap", "-k", "e0.der", "-i", "ct", "-o", "ss2"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
    assert!(!d.join("ss2").exists());
    assert!(
        pqkit(&d, &["decap", "-k", "e.pem", "-i", "ct", "-o", "ss3"])
            .status
            .success()
    );
    assert_eq!(
        std::fs::read(d.join("ss")).unwrap(),
        std::fs::read(d.join("ss3")).unwrap()
    );
    // --check takes no output options; without --check they are required.
    assert_eq!(
        pqkit(&d, &["pkey", "-i", "f.pem", "--check", "-o", "x"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(pqkit(&d, &["pkey", "-i", "f.pem"]).status.code(), Some(2));
}

/// `--purpose any`: the chain alone, as `openssl verify` without
/// `-purpose`, for pqkit-made chains of two key types.
#[test]
fn purpose_any_checks_the_chain_alone() {
    for alg in ["ml-dsa-65", "ed25519"] {
        let d = tmpdir(&format!("any-{alg}"));
        chain(&d, alg);
        let any = |args: &[&str]| {
            let mut a = vec!["--purpose", "any"];
            a.extend_from_slice(args);
            verify(&d, &a)
        };
        let valid = (Some(0), "valid".to_string());
        // A root against itself: valid for any, a CA for webpki's server
        // rules (the default) as before.
        assert_eq!(any(&["--ca", "root.pem", "root.pem"]), valid, "{alg}");
        assert_eq!(
            verify(&d, &["--ca", "root.pem", "root.pem"]),
            (Some(1), "invalid: CaUsedAsEndEntity".into()),
            "{alg}"
        );
        assert_eq!(
            verify(&d, &["--purpose", "server", "--ca", "root.pem", "int.pem"]),
            (Some(1), "invalid: CaUsedAsEndEntity".into()),
            "{alg}"
        );
        // An intermediate against the root, a leaf through it.
        assert_eq!(any(&["--ca", "root.pem", "int.pem"]), valid, "{alg}");
        assert_eq!(
            any(&["--ca", "root.pem", "--untrusted", "int.pem", "leaf.pem"]),
            valid,
            "{alg}"
        );
        // A CA:TRUE leaf under the intermediate (path length 0 counts
        // intermediates below it, not the certificate checked).
        ok(&d, &["keygen", alg, "-o", "caleaf.key"]);
        ok(
            &d,
            &[
                "req",
                "-k",
                "caleaf.key",
                "--subject",
                "CN=CA leaf",
                "-o",
                "caleaf.csr",
            ],
        );
        ok(
            &d,
            &[
                "cert",
                "-k",
                "int.key",
                "--ca-cert",
                "int.pem",
                "--csr",
                "caleaf.csr",
                "--ca",
                "-o",
                "caleaf.pem",
            ],
        );
        assert_eq!(
            any(&["--ca", "root.pem", "--untrusted", "int.pem", "caleaf.pem"]),
            valid,
            "{alg}"
        );
        // No intermediate; a root of the same name with another key.
        assert_eq!(
            any(&["--ca", "root.pem", "leaf.pem"]),
            (Some(1), "invalid: UnknownIssuer: CN=localhost".into()),
            "{alg}"
        );
        ok(&d, &["keygen", alg, "-o", "root2.key"]);
        ok(
            &d,
            &[
                "cert",
                "-k",
                "root2.key",
                "--self-signed",
                "--subject",
                "CN=Root,O=pqkit test",
                "--ca",
                "-o",
                "root2.pem",
            ],
        );
        assert_eq!(
            any(&["--ca", "root2.pem", "--untrusted", "int.pem", "leaf.pem"]),
            (
                Some(1),
                "invalid: InvalidSignatureForPublicKey: CN=Intermediate,O=pqkit test issued by \
                 CN=Root,O=pqkit test"
                    .into()
            ),
            "{alg}"
        );
        // Both roots given: the right one is found.
        std::fs::write(
            d.join("roots.pem"),
            std::fs::read_to_string(d.join("root2.pem")).unwrap()
                + &std::fs::read_to_string(d.join("root.pem")).unwrap(),
        )
        .unwrap();
        assert_eq!(
            any(&["--ca", "roots.pem", "--untrusted", "int.pem", "leaf.pem"]),
            valid,
            "{alg}"
        );
        // Expired (the leaf's 30 days are over long before the root's year).
        assert_eq!(
            any(&[
                "--ca",
                "root.pem",
                "--untrusted",
                "int.pem",
                "--time",
                "2099-01-01T00:00:00Z",
                "leaf.pem",
            ]),
            (Some(1), "invalid: CertExpired: CN=localhost".into()),
            "{alg}"
        );
        assert_eq!(
            any(&[
                "--ca",
                "root.pem",
                "--time",
                "2000-01-01T00:00:00Z",
                "root.pem",
            ]),
            (
                Some(1),
                "invalid: CertNotValidYet: CN=Root,O=pqkit test".into()
            ),
            "{alg}"
        );
        // An issuer without CA:TRUE: the leaf's key issues a certificate.
        leaf_issues_victim(&d, alg);
        assert_eq!(
            any(&["--ca", "root.pem", "--untrusted", "both.pem", "victim.pem"]),
            (Some(1), "invalid: EndEntityUsedAsCa: CN=localhost".into()),
            "{alg}"
        );
        // Path length: the intermediate (path length 0) issues a second CA,
        // which issues a leaf.
        ok(&d, &["keygen", alg, "-o", "int2.key"]);
        ok(
            &d,
            &[
                "req",
                "-k",
                "int2.key",
                "--subject",
                "CN=Int2",
                "-o",
                "int2.csr",
            ],
        );
        ok(
            &d,
            &[
                "cert",
                "-k",
                "int.key",
                "--ca-cert",
                "int.pem",
                "--csr",
                "int2.csr",
                "--ca",
                "-o",
                "int2.pem",
            ],
        );
        ok(
            &d,
            &[
                "cert",
                "-k",
                "int2.key",
                "--ca-cert",
                "int2.pem",
                "--csr",
                "leaf.csr",
                "-o",
                "deep.pem",
            ],
        );
        std::fs::write(
            d.join("ints.pem"),
            std::fs::read_to_string(d.join("int.pem")).unwrap()
                + &std::fs::read_to_string(d.join("int2.pem")).unwrap(),
        )
        .unwrap();
        assert_eq!(
            any(&["--ca", "root.pem", "--untrusted", "ints.pem", "deep.pem"]),
            (
                Some(1),
                "invalid: PathLenConstraintViolated: CN=Intermediate,O=pqkit test: \
                 pathLenConstraint 0, 1 intermediates below it"
                    .into()
            ),
            "{alg}"
        );
        // With the second CA as the root, the same leaf is valid.
        assert_eq!(any(&["--ca", "int2.pem", "deep.pem"]), valid, "{alg}");
        // A flipped bit in the leaf's signature.
        let (_, mut der) = der_of(&std::fs::read_to_string(d.join("leaf.pem")).unwrap());
        let n = der.len();
        der[n - 5] ^= 1;
        std::fs::write(d.join("bad.der"), &der).unwrap();
        let (code, text) = any(&["--ca", "root.pem", "--untrusted", "int.pem", "bad.der"]);
        assert_eq!(code, Some(1), "{alg}");
        assert!(
            text.starts_with("invalid: InvalidSignatureForPublicKey: CN=localhost issued by"),
            "{alg}: {text}"
        );
        // Unreadable input is an error (2), as for the other purposes.
        let out = pqkit(
            &d,
            &[
                "verify-cert",
                "--purpose",
                "any",
                "--ca",
                "leaf.key",
                "leaf.pem",
            ],
        );
        assert_eq!(out.status.code(), Some(2), "{alg}: {out:?}");
        let out = pqkit(
            &d,
            &[
                "verify-cert",
                "--purpose",
                "all",
                "--ca",
                "root.pem",
                "leaf.pem",
            ],
        );
        assert_eq!(out.status.code(), Some(2), "{alg}: {out:?}");
    }
}
