//! Composite ML-DSA through the command: keygen / pubkey / sign / verify
//! round trips and rejections for every signable combination, the refusals
//! of the verify-only ones, the draft's vectors (lamps-wg/draft-composite-sigs
//! `src/testvectors.json`, read from the shared vectors, never copied) for
//! all 18 combinations, their self-signed certificates through
//! `verify-cert`, and composite certificates made by `req` / `cert`,
//! checked by `verify-cert` and by `pqkit_hybrid::composite` itself.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;
use std::process::Output;

use base64ct::{Base64, Encoding};
use common::{ok, pqkit};
use der::{Decode, Encode};

/// `pqkit verify-cert ARGS` in `d`: the exit status and the trimmed
/// standard output.
fn verify_cert(d: &Path, args: &[&str]) -> (Option<i32>, String) {
    let mut a = vec!["verify-cert"];
    a.extend_from_slice(args);
    let out = pqkit(d, &a);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).trim().to_string(),
    )
}

fn tmpdir(name: &str) -> std::path::PathBuf {
    common::tmpdir("composite", name)
}

/// The combinations that sign, by CLI name, and whether `--seed` exists.
const SIGNABLE: [(&str, bool); 9] = [
    ("mldsa44-ed25519", true),
    ("mldsa65-ed25519", true),
    ("mldsa44-ecdsa-p256", false),
    ("mldsa65-ecdsa-p256", false),
    ("mldsa65-ecdsa-p384", false),
    ("mldsa87-ecdsa-p384", false),
    ("mldsa87-ecdsa-p521", false),
    ("mldsa65-ecdsa-brainpoolp256r1", false),
    ("mldsa87-ecdsa-brainpoolp384r1", false),
];

/// The verify-only combinations.
const VERIFY_ONLY: [&str; 9] = [
    "mldsa44-rsa2048-pss",
    "mldsa44-rsa2048-pkcs15",
    "mldsa65-rsa3072-pss",
    "mldsa65-rsa3072-pkcs15",
    "mldsa65-rsa4096-pss",
    "mldsa65-rsa4096-pkcs15",
    "mldsa87-rsa3072-pss",
    "mldsa87-rsa4096-pss",
    "mldsa87-ed448",
];

/// The draft's name (the vectors' `tcId`) of each CLI name.
const DRAFT_NAMES: [(&str, &str); 18] = [
    ("id-MLDSA44-RSA2048-PSS-SHA256", "mldsa44-rsa2048-pss"),
    ("id-MLDSA44-RSA2048-PKCS15-SHA256", "mldsa44-rsa2048-pkcs15"),
    ("id-MLDSA44-Ed25519-SHA512", "mldsa44-ed25519"),
    ("id-MLDSA44-ECDSA-P256-SHA256", "mldsa44-ecdsa-p256"),
    ("id-MLDSA65-RSA3072-PSS-SHA512", "mldsa65-rsa3072-pss"),
    ("id-MLDSA65-RSA3072-PKCS15-SHA512", "mldsa65-rsa3072-pkcs15"),
    ("id-MLDSA65-RSA4096-PSS-SHA512", "mldsa65-rsa4096-pss"),
    ("id-MLDSA65-RSA4096-PKCS15-SHA512", "mldsa65-rsa4096-pkcs15"),
    ("id-MLDSA65-ECDSA-P256-SHA512", "mldsa65-ecdsa-p256"),
    ("id-MLDSA65-ECDSA-P384-SHA512", "mldsa65-ecdsa-p384"),
    (
        "id-MLDSA65-ECDSA-brainpoolP256r1-SHA512",
        "mldsa65-ecdsa-brainpoolp256r1",
    ),
    ("id-MLDSA65-Ed25519-SHA512", "mldsa65-ed25519"),
    ("id-MLDSA87-ECDSA-P384-SHA512", "mldsa87-ecdsa-p384"),
    (
        "id-MLDSA87-ECDSA-brainpoolP384r1-SHA512",
        "mldsa87-ecdsa-brainpoolp384r1",
    ),
    ("id-MLDSA87-Ed448-SHAKE256", "mldsa87-ed448"),
    ("id-MLDSA87-RSA3072-PSS-SHA512", "mldsa87-rsa3072-pss"),
    ("id-MLDSA87-RSA4096-PSS-SHA512", "mldsa87-rsa4096-pss"),
    ("id-MLDSA87-ECDSA-P521-SHA512", "mldsa87-ecdsa-p521"),
];

/// Exit status 2, one `pqkit: error:` line, nothing on stdout; the line.
fn error_line(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(err.lines().count(), 1, "one line: {err:?}");
    assert!(err.starts_with("pqkit: error: "), "{err:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    err
}

/// `verify`'s exit status and what it printed.
fn verify(d: &Path, args: &[&str]) -> (Option<i32>, String) {
    let mut a = vec!["verify"];
    a.extend_from_slice(args);
    let out = pqkit(d, &a);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).trim().to_string(),
    )
}

fn valid() -> (Option<i32>, String) {
    (Some(0), "valid".into())
}

fn invalid() -> (Option<i32>, String) {
    (Some(1), "invalid".into())
}

fn read(d: &Path, f: &str) -> Vec<u8> {
    std::fs::read(d.join(f)).unwrap()
}

fn write(d: &Path, f: &str, bytes: &[u8]) {
    std::fs::write(d.join(f), bytes).unwrap();
}

/// keygen, pubkey, sign and verify for every signable combination: with
/// and without a context, hedged (fresh bytes each time) and
/// `--deterministic` (the same bytes); another message, another context,
/// a flipped bit in either half and a truncated signature are exit 1;
/// options that do not apply are exit 2 with nothing written.
#[test]
fn signable_round_trips_and_rejections() {
    for (alg, _) in SIGNABLE {
        let d = tmpdir(alg);
        write(&d, "m", &b"a composite message ".repeat(5000));
        write(&d, "m2", b"another message");
        ok(&d, &["keygen", alg, "-o", "k.pem"]);
        ok(&d, &["pubkey", "-i", "k.pem", "-o", "p.pem"]);
        let show = ok(&d, &["show", "-i", "p.pem"]);
        assert!(show.contains(&format!("algorithm: {alg}\n")), "{show}");
        assert_eq!(ok(&d, &["pkey", "-i", "k.pem", "--check"]), "ok\n", "{alg}");
        // pkey re-encodes the one form; another form is an error.
        ok(
            &d,
            &[
                "pkey",
                "-i",
                "k.pem",
                "--key-format",
                "seed",
                "-o",
                "k2.pem",
            ],
        );
        assert_eq!(read(&d, "k2.pem"), read(&d, "k.pem"), "{alg}");
        error_line(&pqkit(
            &d,
            &["pkey", "-i", "k.pem", "--key-format", "both", "-o", "x"],
        ));

        ok(&d, &["sign", "-k", "k.pem", "-i", "m", "-o", "s"]);
        ok(&d, &["sign", "-k", "k.pem", "-i", "m", "-o", "s2"]);
        assert_ne!(read(&d, "s"), read(&d, "s2"), "{alg}: hedged");
        ok(
            &d,
            &[
                "sign",
                "-k",
                "k.pem",
                "-i",
                "m",
                "-o",
                "sc",
                "--context",
                "0102ff",
            ],
        );
        for (det, ctx) in [("d1", None), ("d2", None), ("dc", Some("0102ff"))] {
            let mut a = vec![
                "sign",
                "-k",
                "k.pem",
                "-i",
                "m",
                "-o",
                det,
                "--deterministic",
            ];
            if let Some(c) = ctx {
                a.extend(["--context", c]);
            }
            ok(&d, &a);
        }
        assert_eq!(read(&d, "d1"), read(&d, "d2"), "{alg}: deterministic");
        assert_ne!(read(&d, "d1"), read(&d, "dc"), "{alg}");

        for s in ["s", "s2", "d1"] {
            assert_eq!(
                verify(&d, &["-p", "p.pem", "-i", "m", "-s", s]),
                valid(),
                "{alg} {s}"
            );
            // The private key file verifies too.
            assert_eq!(
                verify(&d, &["-p", "k.pem", "-i", "m", "-s", s]),
                valid(),
                "{alg} {s}"
            );
            assert_eq!(
                verify(&d, &["-p", "p.pem", "-i", "m", "-s", s, "--context", "00"]),
                invalid(),
                "{alg} {s}"
            );
        }
        for s in ["sc", "dc"] {
            assert_eq!(
                verify(
                    &d,
                    &["-p", "p.pem", "-i", "m", "-s", s, "--context", "0102ff"]
                ),
                valid(),
                "{alg} {s}"
            );
            assert_eq!(
                verify(&d, &["-p", "p.pem", "-i", "m", "-s", s]),
                invalid(),
                "{alg} {s}"
            );
        }
        // The message from standard input (streamed).
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_pqkit"))
            .current_dir(&d)
            .args(["verify", "-p", "p.pem", "-i", "-", "-s", "s"])
            .stdin(std::fs::File::open(d.join("m")).unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{alg}: {out:?}");

        let sig = read(&d, "s");
        let mut bad = sig.clone();
        bad[100] ^= 0x01; // in the ML-DSA half
        write(&d, "bad-ml", &bad);
        let mut bad = sig.clone();
        let n = bad.len();
        bad[n - 3] ^= 0x01; // in the traditional half
        write(&d, "bad-trad", &bad);
        write(&d, "short", &sig[..n - 1]);
        write(&d, "long", &[&sig[..], &[0]].concat());
        for (m, s) in [
            ("m2", "s"),
            ("m", "bad-ml"),
            ("m", "bad-trad"),
            ("m", "short"),
            ("m", "long"),
        ] {
            assert_eq!(
                verify(&d, &["-p", "p.pem", "-i", m, "-s", s]),
                invalid(),
                "{alg} {m} {s}"
            );
        }
        // Options that do not apply, a context too long, a wrong key
        // form: exit 2, nothing written.
        let long_ctx = "00".repeat(256);
        for extra in [
            &["--prehash", "sha2-512"][..],
            &["--mu"],
            &["--falcon-original"],
            &["--context", &long_ctx],
        ] {
            let mut a = vec!["sign", "-k", "k.pem", "-i", "m", "-o", "x"];
            a.extend_from_slice(extra);
            error_line(&pqkit(&d, &a));
            assert!(!d.join("x").exists(), "{alg} {extra:?}");
            let mut a = vec!["verify", "-p", "p.pem", "-i", "m", "-s", "s"];
            a.extend_from_slice(extra);
            error_line(&pqkit(&d, &a));
        }
        error_line(&pqkit(
            &d,
            &["verify", "-p", "p.pem", "-i", "m", "-s", "s", "--strict"],
        ));
        let e = error_line(&pqkit(
            &d,
            &["keygen", alg, "--key-format", "expanded", "-o", "x"],
        ));
        assert!(e.contains("--key-format must be seed"), "{e}");
        error_line(&pqkit(&d, &["sign", "-k", "p.pem", "-i", "m", "-o", "x"]));
        assert!(!d.join("x").exists(), "{alg}");
        let _ = std::fs::remove_dir_all(&d);
    }
}

/// `keygen --seed`: 64 bytes for the Ed25519 combinations (the ML-DSA
/// seed, then the Ed25519 private key), the same key every time and the
/// draft's private key in the PKCS#8; the ECDSA combinations refuse it.
#[test]
fn keygen_seed() {
    let d = tmpdir("seed");
    let seed: Vec<u8> = (0..64u8).map(|i| i.wrapping_mul(29) ^ 0x5a).collect();
    let seed_hex = hex::encode(&seed);
    for (alg, seeded) in SIGNABLE {
        if seeded {
            ok(&d, &["keygen", alg, "--seed", &seed_hex, "-o", "a.pem"]);
            ok(&d, &["keygen", alg, "--seed", &seed_hex, "-o", "b.pem"]);
            assert_eq!(read(&d, "a.pem"), read(&d, "b.pem"), "{alg}");
            let (_, der) = der::pem::decode_vec(&read(&d, "a.pem")).unwrap();
            let info = pkcs8::PrivateKeyInfoRef::from_der(&der).unwrap();
            assert_eq!(info.private_key.as_bytes(), &seed[..], "{alg}");
            let e = error_line(&pqkit(
                &d,
                &["keygen", alg, "--seed", &seed_hex[2..], "-o", "x"],
            ));
            assert!(e.contains("--seed must be 64 bytes"), "{e}");
        } else {
            let e = error_line(&pqkit(&d, &["keygen", alg, "--seed", &seed_hex, "-o", "x"]));
            assert!(e.contains("no seed form"), "{e}");
        }
        assert!(!d.join("x").exists(), "{alg}");
    }
    // The help says so.
    let help = ok(&d, &["keygen", "--help"]);
    assert!(
        help.contains("ECDSA combinations have no seed form"),
        "{help}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// The verify-only combinations: keygen is an error naming the reason,
/// and nothing is written.
#[test]
fn verify_only_keygen_is_an_error() {
    let d = tmpdir("verify-only");
    for alg in VERIFY_ONLY {
        let e = error_line(&pqkit(&d, &["keygen", alg, "-o", "k.pem"]));
        assert!(e.contains("verify-only"), "{e}");
        let why = if alg.contains("ed448") {
            "ed448-goldilocks"
        } else {
            "RUSTSEC-2023-0071"
        };
        assert!(e.contains(why), "{e}");
        assert!(!d.join("k.pem").exists(), "{alg}");
    }
    let listed = ok(&d, &["algorithms"]);
    for alg in SIGNABLE.map(|(a, _)| a).iter().chain(&VERIFY_ONLY) {
        assert!(listed.lines().any(|l| l == *alg), "{alg} not listed");
    }
    let _ = std::fs::remove_dir_all(&d);
}

fn b64(v: &serde_json::Value) -> Vec<u8> {
    Base64::decode_vec(v.as_str().expect("base64")).expect("valid base64")
}

/// An SPKI with `oid` (parameters absent) around the raw key.
fn spki_der(oid: der::asn1::ObjectIdentifier, key: &[u8]) -> Vec<u8> {
    spki::SubjectPublicKeyInfoOwned {
        algorithm: spki::AlgorithmIdentifierOwned {
            oid,
            parameters: None,
        },
        subject_public_key: der::asn1::BitString::from_bytes(key).unwrap(),
    }
    .to_der()
    .unwrap()
}

fn pem(label: &str, der: &[u8]) -> String {
    der::pem::encode_string(label, der::pem::LineEnding::LF, der).unwrap()
}

/// The draft's vectors through the CLI, all 18 combinations: the PKCS#8
/// key file (PEM and DER) and the public key as SPKI; `verify` accepts
/// `s` with the empty context and `sWithContext` with the file's `ctx`,
/// and refuses them swapped, mutated and over another message; the
/// signable combinations derive the same SPKI from the private key and
/// sign what verifies; the verify-only ones refuse their private keys;
/// the self-signed certificate `x5c` validates with `verify-cert`, and a
/// mutated one does not.
#[test]
fn draft_vectors_through_the_cli() {
    let Some(v) = pqkit_testkit::vectors::json("composite/testvectors.json") else {
        return;
    };
    let (m, ctx) = (b64(&v["m"]), b64(&v["ctx"]));
    let ctx_hex = hex::encode(&ctx);
    let mut seen = Vec::new();
    for t in v["tests"].as_array().expect("tests") {
        let id = t["tcId"].as_str().expect("tcId");
        let Some(&(_, alg)) = DRAFT_NAMES.iter().find(|(n, _)| *n == id) else {
            assert!(id.starts_with("id-ML-DSA-"), "unclaimed case {id}");
            continue;
        };
        seen.push(alg);
        let d = tmpdir(&format!("vec-{alg}"));
        let sk_der = b64(&t["sk_pkcs8"]);
        let oid = pkcs8::PrivateKeyInfoRef::from_der(&sk_der)
            .unwrap()
            .algorithm
            .oid;
        let pub_der = spki_der(oid, &b64(&t["pk"]));
        write(&d, "k.der", &sk_der);
        write(&d, "k.pem", pem("PRIVATE KEY", &sk_der).as_bytes());
        write(&d, "p.pem", pem("PUBLIC KEY", &pub_der).as_bytes());
        write(&d, "p.der", &pub_der);
        write(&d, "m", &m);
        write(&d, "m2", &[&m[..], b"!"].concat());
        let (s, sc) = (b64(&t["s"]), b64(&t["sWithContext"]));
        write(&d, "s", &s);
        write(&d, "sc", &sc);

        let shown = ok(&d, &["show", "-i", "p.pem"]);
        assert!(shown.contains(&format!("algorithm: {alg}\n")), "{shown}");
        assert!(shown.contains(&format!("OID: {oid}\n")), "{shown}");
        for p in ["p.pem", "p.der"] {
            assert_eq!(
                verify(&d, &["-p", p, "-i", "m", "-s", "s"]),
                valid(),
                "{id}"
            );
            assert_eq!(
                verify(&d, &["-p", p, "-i", "m", "-s", "sc", "--context", &ctx_hex]),
                valid(),
                "{id}"
            );
        }
        let mut cases = vec![
            ("m", "s", Some(ctx_hex.as_str())),
            ("m", "sc", None),
            ("m2", "s", None),
            ("m2", "sc", Some(ctx_hex.as_str())),
        ];
        for (half, at) in [("ml", 7), ("trad", s.len() - 2)] {
            let mut bad = s.clone();
            bad[at] ^= 0x80;
            write(&d, &format!("bad-{half}"), &bad);
        }
        cases.push(("m", "bad-ml", None));
        cases.push(("m", "bad-trad", None));
        for (msg, sig, c) in cases {
            let mut a = vec!["-p", "p.pem", "-i", msg, "-s", sig];
            if let Some(c) = c {
                a.extend(["--context", c]);
            }
            assert_eq!(verify(&d, &a), invalid(), "{id} {msg} {sig} {c:?}");
        }

        if VERIFY_ONLY.contains(&alg) {
            for args in [
                &["pubkey", "-i", "k.pem", "-o", "x"][..],
                &["sign", "-k", "k.der", "-i", "m", "-o", "x"],
                &["verify", "-p", "k.pem", "-i", "m", "-s", "s"],
                &["pkey", "-i", "k.pem", "--check"],
            ] {
                let e = error_line(&pqkit(&d, args));
                assert!(e.contains("verify-only"), "{id} {args:?}: {e}");
            }
            let shown = ok(&d, &["show", "-i", "k.pem"]);
            assert!(
                shown.contains("public key: not derived (verify-only algorithm)"),
                "{shown}"
            );
        } else {
            for k in ["k.pem", "k.der"] {
                ok(&d, &["pubkey", "-i", k, "-o", "derived.pem"]);
                assert_eq!(
                    read(&d, "derived.pem"),
                    read(&d, "p.pem"),
                    "{id}: pubkey of the vector's private key"
                );
            }
            assert_eq!(
                verify(&d, &["-p", "k.pem", "-i", "m", "-s", "s"]),
                valid(),
                "{id}"
            );
            ok(
                &d,
                &[
                    "sign",
                    "-k",
                    "k.pem",
                    "-i",
                    "m",
                    "-o",
                    "ours",
                    "--context",
                    &ctx_hex,
                ],
            );
            assert_eq!(
                verify(
                    &d,
                    &[
                        "-p",
                        "p.pem",
                        "-i",
                        "m",
                        "-s",
                        "ours",
                        "--context",
                        &ctx_hex
                    ]
                ),
                valid(),
                "{id}"
            );
            assert_eq!(ok(&d, &["pkey", "-i", "k.der", "--check"]), "ok\n", "{id}");
        }

        // The self-signed certificate: rustls-webpki's rules (the default
        // purpose) check its signature under its own key as the anchor's.
        let x5c = b64(&t["x5c"]);
        write(&d, "x5c.pem", pem("CERTIFICATE", &x5c).as_bytes());
        let vc = |args: &[&str]| verify_cert(&d, args);
        assert_eq!(vc(&["--ca", "x5c.pem", "x5c.pem"]), valid(), "{id}");
        assert_eq!(
            vc(&["--purpose", "any", "--ca", "x5c.pem", "x5c.pem"]),
            valid(),
            "{id}"
        );
        let shown = ok(&d, &["show", "-i", "x5c.pem"]);
        assert!(
            shown.contains(&format!("signature algorithm: {alg}\n")),
            "{shown}"
        );
        // Its signature mutated (in the ML-DSA half, and in the last byte,
        // the traditional half): invalid either way.
        let sig_at = x5c.len() - s.len();
        for at in [sig_at + 11, x5c.len() - 1] {
            let mut bad = x5c.clone();
            bad[at] ^= 0x01;
            write(&d, "bad.der", &bad);
            let (code, text) = vc(&["--ca", "x5c.pem", "bad.der"]);
            assert_eq!(code, Some(1), "{id}: {text}");
            let (code, text) = vc(&["--purpose", "any", "--ca", "x5c.pem", "bad.der"]);
            assert_eq!(code, Some(1), "{id}: {text}");
            assert!(
                text.starts_with("invalid: InvalidSignatureForPublicKey: ") && text.contains(id),
                "{id}: {text}"
            );
        }
        let _ = std::fs::remove_dir_all(&d);
    }
    seen.sort_unstable();
    let mut want: Vec<&str> = DRAFT_NAMES.iter().map(|(_, a)| *a).collect();
    want.sort_unstable();
    assert_eq!(seen, want, "every composite case checked once");
}

/// The certificate's signature checked by `pqkit_hybrid::composite` with
/// the issuer's public key, and its AlgorithmIdentifier the one the
/// composite types give the `x509-cert` builder.
fn library_checks<C: pqkit_hybrid::composite::SignableParams>(cert: &[u8], issuer_spki: &[u8]) {
    use pqkit_hybrid::composite::{Signature, SigningKey, VerifyingKey, signature::Verifier};
    use spki::{DecodePublicKey, SignatureAlgorithmIdentifier};
    let cert = x509_cert::Certificate::from_der(cert).unwrap();
    let want = SigningKey::<C>::SIGNATURE_ALGORITHM_IDENTIFIER;
    assert_eq!(cert.signature_algorithm().oid, want.oid);
    assert!(cert.signature_algorithm().parameters.is_none());
    assert!(want.parameters.is_none());
    assert_eq!(
        cert.tbs_certificate().signature(),
        cert.signature_algorithm()
    );
    let vk = VerifyingKey::<C>::from_public_key_der(issuer_spki).unwrap();
    let tbs = cert.tbs_certificate().to_der().unwrap();
    let sig = Signature::<C>::from_bytes(cert.signature().raw_bytes()).unwrap();
    vk.verify(&tbs, &sig).unwrap();
}

/// [`library_checks`] for one combination.
type LibraryCheck = fn(&[u8], &[u8]);

fn cert_der(d: &Path, f: &str) -> Vec<u8> {
    der::pem::decode_vec(&read(d, f)).unwrap().1
}

/// For every signable combination: a self-signed composite CA, a
/// composite leaf from its request, both validated by `verify-cert`
/// (rustls-webpki, and the chain alone), the signatures checked by the
/// library; a leaf issued by another CA of the same name is refused.
#[test]
fn composite_certificates() {
    macro_rules! each {
        ($($alg:literal => $ty:ident),* $(,)?) => {{
            use pqkit_hybrid::composite::*;
            [$(($alg, library_checks::<$ty>)),*]
        }};
    }
    let algs: [(&str, LibraryCheck); 9] = each![
        "mldsa44-ed25519" => MlDsa44Ed25519Sha512,
        "mldsa65-ed25519" => MlDsa65Ed25519Sha512,
        "mldsa44-ecdsa-p256" => MlDsa44EcdsaP256Sha256,
        "mldsa65-ecdsa-p256" => MlDsa65EcdsaP256Sha512,
        "mldsa65-ecdsa-p384" => MlDsa65EcdsaP384Sha512,
        "mldsa87-ecdsa-p384" => MlDsa87EcdsaP384Sha512,
        "mldsa87-ecdsa-p521" => MlDsa87EcdsaP521Sha512,
        "mldsa65-ecdsa-brainpoolp256r1" => MlDsa65EcdsaBrainpoolP256r1Sha512,
        "mldsa87-ecdsa-brainpoolp384r1" => MlDsa87EcdsaBrainpoolP384r1Sha512,
    ];
    assert_eq!(algs.len(), SIGNABLE.len());
    for (alg, check) in algs {
        let d = tmpdir(&format!("cert-{alg}"));
        ok(&d, &["keygen", alg, "-o", "ca.key"]);
        ok(&d, &["pubkey", "-i", "ca.key", "-o", "ca.pub"]);
        ok(
            &d,
            &[
                "cert",
                "-k",
                "ca.key",
                "--self-signed",
                "--subject",
                "CN=Composite CA,O=pqkit",
                "--ca",
                "-o",
                "ca.pem",
            ],
        );
        ok(&d, &["keygen", alg, "-o", "leaf.key"]);
        ok(
            &d,
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
        let csr: serde_json::Value =
            serde_json::from_str(&ok(&d, &["show", "-i", "leaf.csr", "--json"])).unwrap();
        assert_eq!(csr["signature algorithm"], alg);
        assert_eq!(csr["signature valid"], true);
        ok(
            &d,
            &[
                "cert",
                "-k",
                "ca.key",
                "--ca-cert",
                "ca.pem",
                "--csr",
                "leaf.csr",
                "-o",
                "leaf.pem",
            ],
        );
        let ca_spki = der::pem::decode_vec(&read(&d, "ca.pub")).unwrap().1;
        check(&cert_der(&d, "ca.pem"), &ca_spki);
        check(&cert_der(&d, "leaf.pem"), &ca_spki);
        let vc = |args: &[&str]| verify_cert(&d, args);
        assert_eq!(vc(&["--ca", "ca.pem", "leaf.pem"]), valid(), "{alg}");
        assert_eq!(
            vc(&["--purpose", "any", "--ca", "ca.pem", "leaf.pem"]),
            valid(),
            "{alg}"
        );
        // Another CA of the same name: the leaf's signature does not
        // verify under its key.
        ok(&d, &["keygen", alg, "-o", "ca2.key"]);
        ok(
            &d,
            &[
                "cert",
                "-k",
                "ca2.key",
                "--self-signed",
                "--subject",
                "CN=Composite CA,O=pqkit",
                "--ca",
                "-o",
                "ca2.pem",
            ],
        );
        assert_eq!(
            vc(&["--purpose", "any", "--ca", "ca2.pem", "leaf.pem"]),
            (
                Some(1),
                "invalid: InvalidSignatureForPublicKey: CN=localhost issued by CN=Composite \
                 CA,O=pqkit"
                    .into()
            ),
            "{alg}"
        );
        let (code, _) = vc(&["--ca", "ca2.pem", "leaf.pem"]);
        assert_eq!(code, Some(1), "{alg}");
        let _ = std::fs::remove_dir_all(&d);
    }
}

/// A mixed chain: an ML-DSA-65 root issues a composite intermediate,
/// which issues an Ed25519 leaf.
#[test]
fn mixed_chain() {
    let d = tmpdir("mixed");
    ok(&d, &["keygen", "ml-dsa-65", "-o", "root.key"]);
    ok(
        &d,
        &[
            "cert",
            "-k",
            "root.key",
            "--self-signed",
            "--subject",
            "CN=Root",
            "--ca",
            "-o",
            "root.pem",
        ],
    );
    ok(&d, &["keygen", "mldsa87-ecdsa-p384", "-o", "int.key"]);
    ok(
        &d,
        &[
            "req",
            "-k",
            "int.key",
            "--subject",
            "CN=Int",
            "-o",
            "int.csr",
        ],
    );
    ok(
        &d,
        &[
            "cert",
            "-k",
            "root.key",
            "--ca-cert",
            "root.pem",
            "--csr",
            "int.csr",
            "--ca",
            "-o",
            "int.pem",
        ],
    );
    ok(&d, &["keygen", "ed25519", "-o", "leaf.key"]);
    ok(
        &d,
        &[
            "req",
            "-k",
            "leaf.key",
            "--subject",
            "CN=localhost",
            "-o",
            "leaf.csr",
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
            "leaf.csr",
            "-o",
            "leaf.pem",
        ],
    );
    let out = ok(
        &d,
        &[
            "verify-cert",
            "--ca",
            "root.pem",
            "--untrusted",
            "int.pem",
            "leaf.pem",
        ],
    );
    assert_eq!(out.trim(), "valid");
    let shown = ok(&d, &["show", "-i", "leaf.pem"]);
    assert!(
        shown.contains("signature algorithm: mldsa87-ecdsa-p384\n"),
        "{shown}"
    );
    let _ = std::fs::remove_dir_all(&d);
}
