//! The CLI contract's error behaviour: exit status 2 with exactly one line on
//! stderr, and no output file left behind, for bad arguments and malformed
//! key files.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn pqkit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pqkit"))
        .args(args)
        .output()
        .expect("run pqkit")
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pqkit-contract-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("mkdir");
    d
}

/// Run `pqkit` and require exit 0.
fn ok(args: &[&str]) {
    let out = pqkit(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
}

/// The `--kdf` and `--aead` names of an HPKE vector's suite.
fn hpke_suite_names(c: &serde_json::Value) -> (&'static str, &'static str) {
    let id = |k: &str| c[k].as_u64().expect("id");
    let kdf = match id("kdf_id") {
        0x0001 => "hkdf-sha256",
        0x0002 => "hkdf-sha384",
        0x0003 => "hkdf-sha512",
        0x0010 => "shake128",
        0x0011 => "shake256",
        0x0012 => "turboshake128",
        0x0013 => "turboshake256",
        other => panic!("kdf {other:#x}"),
    };
    let aead = match id("aead_id") {
        0x0001 => "aes-128-gcm",
        0x0002 => "aes-256-gcm",
        0x0003 => "chacha20-poly1305",
        other => panic!("aead {other:#x}"),
    };
    (kdf, aead)
}

fn assert_error(out: &Output) {
    assert_eq!(out.status.code(), Some(2), "exit status: {out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "stderr must be one line: {err:?}");
    assert!(err.starts_with("pqkit: error: "), "{err:?}");
    assert!(out.stdout.is_empty(), "stdout: {:?}", out.stdout);
}

fn only_files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn bad_arguments_exit_2_with_one_line() {
    for args in [
        &[][..],
        &["frobnicate"],
        &["keygen"],
        &["keygen", "no-such-alg", "-o", "/dev/null"],
        &["keygen", "ml-kem-768", "--seed", "xyz", "-o", "k"],
        &["sign", "-k", "k.pem", "-i", "m"],
        &["verify", "-p", "p", "-i", "m"],
        &[
            "verify",
            "-p",
            "p",
            "-i",
            "m",
            "-s",
            "s",
            "--prehash",
            "md5",
        ],
        &["encap", "-p", "p", "-o", "c"],
        &["decap", "-k", "k", "-i", "c", "-o", "s", "--bogus"],
        &["demo", "extra"],
    ] {
        let out = pqkit(args);
        assert_error(&out);
    }
}

#[test]
fn malformed_key_files_exit_2_and_write_nothing() {
    let d = tmpdir("malformed");
    let garbage = d.join("garbage.pem");
    std::fs::write(
        &garbage,
        b"-----BEGIN PRIVATE KEY-----\nnot base64!\n-----END PRIVATE KEY-----\n",
    )
    .expect("write");
    let der_junk = d.join("junk.der");
    std::fs::write(&der_junk, [0x30, 0x82, 0xff, 0xff, 0x01]).expect("write");
    let wrong_label = d.join("cert.pem");
    std::fs::write(
        &wrong_label,
        b"-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----\n",
    )
    .expect("write");
    let msg = d.join("msg");
    std::fs::write(&msg, b"hello").expect("write");
    let before = only_files(&d);
    for key in [&garbage, &der_junk, &wrong_label, &d.join("missing.pem")] {
        let key = key.to_str().expect("utf8");
        let m = msg.to_str().expect("utf8");
        let out_path = d.join("out");
        let o = out_path.to_str().expect("utf8");
        assert_error(&pqkit(&["pubkey", "-i", key, "-o", o]));
        assert_error(&pqkit(&["sign", "-k", key, "-i", m, "-o", o]));
        assert_error(&pqkit(&["verify", "-p", key, "-i", m, "-s", m]));
        assert_error(&pqkit(&["encap", "-p", key, "-o", o, "--secret-out", o]));
        assert_error(&pqkit(&["decap", "-k", key, "-i", m, "-o", o]));
        assert_eq!(only_files(&d), before, "an output file was left behind");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn algorithms_lists_known_names_only() {
    let out = pqkit(&["algorithms"]);
    assert_eq!(out.status.code(), Some(0));
    let known = [
        "ml-kem-512",
        "ml-kem-768",
        "ml-kem-1024",
        "ml-dsa-44",
        "ml-dsa-65",
        "ml-dsa-87",
        "slh-dsa-sha2-128s",
        "slh-dsa-sha2-128f",
        "slh-dsa-sha2-192s",
        "slh-dsa-sha2-192f",
        "slh-dsa-sha2-256s",
        "slh-dsa-sha2-256f",
        "slh-dsa-shake-128s",
        "slh-dsa-shake-128f",
        "slh-dsa-shake-192s",
        "slh-dsa-shake-192f",
        "slh-dsa-shake-256s",
        "slh-dsa-shake-256f",
        "fn-dsa-512",
        "fn-dsa-1024",
        "lightsaber",
        "saber",
        "firesaber",
        "ed25519",
        "x25519",
        "x-wing",
        "mldsa44-ed25519",
        "mldsa65-ed25519",
        "mldsa44-ecdsa-p256",
        "mldsa65-ecdsa-p256",
        "mldsa65-ecdsa-p384",
        "mldsa87-ecdsa-p384",
        "mldsa87-ecdsa-p521",
        "mldsa65-ecdsa-brainpoolp256r1",
        "mldsa87-ecdsa-brainpoolp384r1",
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
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        assert!(known.contains(&line), "unexpected algorithm name {line:?}");
    }
}

#[test]
fn help_and_version() {
    let out = pqkit(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("pqkit verify -p PUB.pem"));
    let out = pqkit(&["--version"]);
    assert_eq!(out.status.code(), Some(0));
}

/// keygen, pubkey, sign, verify for every signature algorithm: valid is
/// exit 0 / "valid"; a flipped signature bit, another message and a
/// truncated signature are exit 1 / "invalid".
#[test]
fn signature_round_trips_and_rejections() {
    let d = tmpdir("sigs");
    let p = |f: &str| d.join(f).to_str().expect("utf8").to_owned();
    std::fs::write(p("m"), b"the message").expect("write");
    std::fs::write(p("m2"), b"another message").expect("write");
    for alg in [
        "ml-dsa-44",
        "ml-dsa-65",
        "ml-dsa-87",
        "fn-dsa-512",
        "fn-dsa-1024",
        "ed25519",
        "slh-dsa-sha2-128f",
        "slh-dsa-shake-192f",
    ] {
        let ok = |args: &[&str]| {
            let out = pqkit(args);
            assert_eq!(out.status.code(), Some(0), "{alg} {args:?}: {out:?}");
            out
        };
        ok(&["keygen", alg, "-o", &p("k.pem")]);
        ok(&["pubkey", "-i", &p("k.pem"), "-o", &p("p.pem")]);
        ok(&["sign", "-k", &p("k.pem"), "-i", &p("m"), "-o", &p("s")]);
        let out = ok(&["verify", "-p", &p("p.pem"), "-i", &p("m"), "-s", &p("s")]);
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "valid");
        let sig = std::fs::read(p("s")).expect("read");
        let mut bad = sig.clone();
        bad[sig.len() / 2] ^= 0x04;
        std::fs::write(p("bad"), &bad).expect("write");
        std::fs::write(p("short"), &sig[..sig.len() - 1]).expect("write");
        for (m, s) in [("m", "bad"), ("m2", "s"), ("m", "short")] {
            let out = pqkit(&["verify", "-p", &p("p.pem"), "-i", &p(m), "-s", &p(s)]);
            assert_eq!(out.status.code(), Some(1), "{alg} {m} {s}: {out:?}");
            assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "invalid");
        }
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// SLH-DSA: `keygen --seed` takes SK.seed || SK.prf || PK.seed and gives
/// the key of the library's `from_seed`; deterministic signatures equal the
/// library's; context and pre-hash round trip and do not verify across
/// modes; a wrong seed length and a context over 255 bytes are exit 2;
/// a certificate chain of SLH-DSA certificates verifies.
#[test]
fn slh_dsa_modes() {
    use pkcs8::DecodePrivateKey;
    let d = tmpdir("slh");
    let p = |f: &str| d.join(f).to_str().expect("utf8").to_owned();
    std::fs::write(p("m"), b"the message").expect("write");
    let seed: Vec<u8> = (0..48u8).collect();
    let seed_hex = hex::encode(&seed);
    ok(&[
        "keygen",
        "slh-dsa-sha2-128f",
        "--seed",
        &seed_hex,
        "-o",
        &p("k.pem"),
    ]);
    ok(&["pubkey", "-i", &p("k.pem"), "-o", &p("p.pem")]);
    let pem = std::fs::read_to_string(p("k.pem")).expect("read");
    let sk =
        pqkit_slh_dsa::SigningKey::<pqkit_slh_dsa::Sha2_128f>::from_pkcs8_pem(&pem).expect("key");
    let want = pqkit_slh_dsa::SigningKey::<pqkit_slh_dsa::Sha2_128f>::from_seed(
        &seed[..16],
        &seed[16..32],
        &seed[32..],
    )
    .expect("from_seed");
    assert!(sk == want, "--seed gives from_seed's key");
    ok(&[
        "sign",
        "-k",
        &p("k.pem"),
        "-i",
        &p("m"),
        "-o",
        &p("s"),
        "--deterministic",
    ]);
    let lib = want.sign_deterministic(b"the message", b"").expect("sign");
    assert_eq!(std::fs::read(p("s")).expect("read"), lib.as_bytes());
    for mode in [
        &["--context", "0a0b"][..],
        &["--prehash", "sha2-256"][..],
        &["--prehash", "shake-256", "--context", "00"][..],
    ] {
        ok(&[
            &["sign", "-k", &p("k.pem"), "-i", &p("m"), "-o", &p("s2")][..],
            mode,
        ]
        .concat());
        ok(&[
            &["verify", "-p", &p("p.pem"), "-i", &p("m"), "-s", &p("s2")][..],
            mode,
        ]
        .concat());
        let out = pqkit(&["verify", "-p", &p("p.pem"), "-i", &p("m"), "-s", &p("s2")]);
        assert_eq!(out.status.code(), Some(1), "{mode:?} against pure: {out:?}");
    }
    assert_error(&pqkit(&[
        "keygen",
        "slh-dsa-sha2-128f",
        "--seed",
        "0011",
        "-o",
        &p("x.pem"),
    ]));
    let long_ctx = "00".repeat(256);
    assert_error(&pqkit(&[
        "sign",
        "-k",
        &p("k.pem"),
        "-i",
        &p("m"),
        "-o",
        &p("x"),
        "--context",
        &long_ctx,
    ]));
    assert_error(&pqkit(&[
        "keygen",
        "slh-dsa-shake-128f",
        "--key-format",
        "expanded",
        "-o",
        &p("x.pem"),
    ]));
    // A root and a leaf certificate of SLH-DSA keys verify; a flipped
    // signature bit does not.
    ok(&[
        "cert",
        "-k",
        &p("k.pem"),
        "--self-signed",
        "--subject",
        "CN=slh root",
        "--ca",
        "-o",
        &p("ca.pem"),
    ]);
    ok(&["keygen", "slh-dsa-shake-128f", "-o", &p("leaf.pem")]);
    ok(&[
        "req",
        "-k",
        &p("leaf.pem"),
        "--subject",
        "CN=leaf",
        "--san",
        "dns:leaf.example",
        "-o",
        &p("leaf.csr"),
    ]);
    ok(&[
        "cert",
        "-k",
        &p("k.pem"),
        "--ca-cert",
        &p("ca.pem"),
        "--csr",
        &p("leaf.csr"),
        "-o",
        &p("leaf.crt"),
    ]);
    ok(&["verify-cert", "--ca", &p("ca.pem"), &p("leaf.crt")]);
    let _ = std::fs::remove_dir_all(&d);
}

/// FN-DSA specifics: context, pre-hash and original-Falcon modes round
/// trip and do not verify across modes; unsupported options are exit 2;
/// `--seed` is deterministic.
#[test]
fn fn_dsa_modes() {
    let d = tmpdir("fndsa");
    let p = |f: &str| d.join(f).to_str().expect("utf8").to_owned();
    std::fs::write(p("m"), b"the message").expect("write");
    let seed = "07".repeat(32);
    let (k, pk, m, x) = (p("k.pem"), p("p.pem"), p("m"), p("x"));
    for alg in ["fn-dsa-512", "fn-dsa-1024"] {
        let run = |args: &[&str]| pqkit(args).status.code();
        assert_eq!(
            run(&["keygen", alg, "--seed", &seed, "-o", &p("k.pem")]),
            Some(0)
        );
        assert_eq!(
            run(&["keygen", alg, "--seed", &seed, "-o", &p("k2.pem")]),
            Some(0)
        );
        assert_eq!(
            std::fs::read(p("k.pem")).ok(),
            std::fs::read(p("k2.pem")).ok()
        );
        assert_eq!(
            run(&["pubkey", "-i", &p("k.pem"), "-o", &p("p.pem")]),
            Some(0)
        );
        let modes: [&[&str]; 4] = [
            &[],
            &["--context", "0102"],
            &["--prehash", "sha3-384", "--context", "ff"],
            &["--falcon-original"],
        ];
        for (i, mode) in modes.iter().enumerate() {
            let sig = p(&format!("s{i}"));
            let mut a = vec!["sign", "-k", &k, "-i", &m, "-o", &sig];
            a.extend_from_slice(mode);
            assert_eq!(run(&a), Some(0), "{alg} {mode:?}");
        }
        for (i, _) in modes.iter().enumerate() {
            for (j, mode) in modes.iter().enumerate() {
                let sig = p(&format!("s{i}"));
                let mut a = vec!["verify", "-p", &pk, "-i", &m, "-s", &sig];
                a.extend_from_slice(mode);
                let want = if i == j { 0 } else { 1 };
                assert_eq!(run(&a), Some(want), "{alg} sig {i} verified in mode {j}");
            }
        }
        for bad in [
            &["--deterministic"][..],
            &["--prehash", "sha2-224"],
            &["--mu"],
            &["--falcon-original", "--context", "01"],
        ] {
            let mut a = vec!["sign", "-k", &k, "-i", &m, "-o", &x];
            a.extend_from_slice(bad);
            assert_error(&pqkit(&a));
            assert!(!d.join("x").exists());
        }
        assert_error(&pqkit(&[
            "keygen",
            alg,
            "--key-format",
            "both",
            "-o",
            &p("x"),
        ]));
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// An output that is not a regular file (`/dev/null`, a FIFO) is written in
/// place: the atomic temporary-and-rename path must never replace it.
#[cfg(unix)]
#[test]
fn special_file_outputs_are_written_in_place() {
    use std::os::unix::fs::FileTypeExt;
    let d = tmpdir("fifo");
    let fifo = d.join("out.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).expect("read fifo"))
    };
    let out = pqkit(&["keygen", "ed25519", "-o", fifo.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // Checked before joining: a replaced FIFO would leave the reader
    // blocked forever.
    let kind = std::fs::symlink_metadata(&fifo)
        .expect("still there")
        .file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced by {kind:?}");
    let written = reader.join().expect("reader");
    assert!(written.starts_with(b"-----BEGIN PRIVATE KEY-----"));
    assert_eq!(only_files(&d), ["out.fifo"], "no temporary left behind");
    let _ = std::fs::remove_dir_all(&d);
}

/// keygen, pubkey, encap, decap for every KEM; `encap --seed` (tests only)
/// is deterministic and replays the crate's derandomised encapsulation;
/// a wrong-length seed or ciphertext is exit 2 with no file written.
#[test]
fn kem_round_trips_and_encap_seed() {
    let d = tmpdir("kems");
    let p = |f: &str| d.join(f).to_str().expect("utf8").to_owned();
    for alg in [
        "ml-kem-512",
        "ml-kem-768",
        "ml-kem-1024",
        "lightsaber",
        "saber",
        "firesaber",
    ] {
        let ok = |args: &[&str]| {
            let out = pqkit(args);
            assert_eq!(out.status.code(), Some(0), "{alg} {args:?}: {out:?}");
        };
        let keygen_seed = if alg.contains("saber") {
            "0b".repeat(96)
        } else {
            "0b".repeat(64)
        };
        ok(&["keygen", alg, "--seed", &keygen_seed, "-o", &p("k.pem")]);
        ok(&["pubkey", "-i", &p("k.pem"), "-o", &p("p.pem")]);
        // Random encapsulation.
        ok(&[
            "encap",
            "-p",
            &p("p.pem"),
            "-o",
            &p("c"),
            "--secret-out",
            &p("s"),
        ]);
        ok(&["decap", "-k", &p("k.pem"), "-i", &p("c"), "-o", &p("s2")]);
        assert_eq!(
            std::fs::read(p("s")).ok(),
            std::fs::read(p("s2")).ok(),
            "{alg}"
        );
        // Seeded encapsulation: twice the same bytes, and decap agrees.
        let m = "5a".repeat(32);
        ok(&[
            "encap",
            "-p",
            &p("p.pem"),
            "-o",
            &p("c1"),
            "--secret-out",
            &p("s1"),
            "--seed",
            &m,
        ]);
        ok(&[
            "encap",
            "-p",
            &p("p.pem"),
            "-o",
            &p("c2"),
            "--secret-out",
            &p("s3"),
            "--seed",
            &m,
        ]);
        assert_eq!(
            std::fs::read(p("c1")).ok(),
            std::fs::read(p("c2")).ok(),
            "{alg}"
        );
        assert_eq!(
            std::fs::read(p("s1")).ok(),
            std::fs::read(p("s3")).ok(),
            "{alg}"
        );
        ok(&["decap", "-k", &p("k.pem"), "-i", &p("c1"), "-o", &p("s4")]);
        assert_eq!(
            std::fs::read(p("s1")).ok(),
            std::fs::read(p("s4")).ok(),
            "{alg}"
        );
        // The same bytes as the library's derandomised encapsulation.
        let (ct, ss) = if alg.contains("saber") {
            library_saber_encaps(alg, &[0x0b; 96], &[0x5a; 32])
        } else {
            library_ml_kem_encaps(alg, &[0x0b; 64], &[0x5a; 32])
        };
        assert_eq!(std::fs::read(p("c1")).expect("c1"), ct, "{alg}");
        assert_eq!(std::fs::read(p("s1")).expect("s1"), ss, "{alg}");
        // Bad seed and bad ciphertext length: exit 2, nothing written.
        let before = only_files(&d);
        assert_error(&pqkit(&[
            "encap",
            "-p",
            &p("p.pem"),
            "-o",
            &p("c9"),
            "--secret-out",
            &p("s9"),
            "--seed",
            "00",
        ]));
        std::fs::write(p("short"), b"short").expect("write");
        assert_error(&pqkit(&[
            "decap",
            "-k",
            &p("k.pem"),
            "-i",
            &p("short"),
            "-o",
            &p("s9"),
        ]));
        std::fs::remove_file(p("short")).expect("rm");
        assert_eq!(
            only_files(&d),
            before,
            "{alg}: an output file was left behind"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

fn library_saber_encaps(alg: &str, coins: &[u8; 96], m: &[u8; 32]) -> (Vec<u8>, Vec<u8>) {
    use pqkit_saber::{DecapsulationKey, FireSaber, LightSaber, Saber, hazmat};
    macro_rules! run {
        ($p:ty) => {{
            let dk = DecapsulationKey::<$p>::from_seed(coins);
            let (ct, ss) = hazmat::encaps_internal(dk.encapsulation_key(), m);
            (ct.to_vec(), ss.to_vec())
        }};
    }
    match alg {
        "lightsaber" => run!(LightSaber),
        "saber" => run!(Saber),
        _ => run!(FireSaber),
    }
}

fn library_ml_kem_encaps(alg: &str, seed: &[u8; 64], m: &[u8; 32]) -> (Vec<u8>, Vec<u8>) {
    use pqkit_ml_kem::{DecapsulationKey, MlKem512, MlKem768, MlKem1024, hazmat};
    macro_rules! run {
        ($p:ty) => {{
            let dk = DecapsulationKey::<$p>::from_seed((*seed).into());
            let (ct, ss) = hazmat::encaps_internal(dk.encapsulation_key(), m);
            (ct.to_vec(), ss.to_vec())
        }};
    }
    match alg {
        "ml-kem-512" => run!(MlKem512),
        "ml-kem-768" => run!(MlKem768),
        _ => run!(MlKem1024),
    }
}

/// X25519 key files: keygen from RFC 7748 §6.1's secret writes exactly its
/// PKCS#8 v1, pubkey its SPKI with the RFC's public key, show names them,
/// and sign refuses a key-agreement key.
#[test]
fn x25519_keygen_pubkey_show() {
    let d = tmpdir("x25519");
    let p = |f: &str| d.join(f).to_str().expect("utf8").to_owned();
    let ok = |args: &[&str]| {
        let out = pqkit(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let seed = "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a";
    ok(&["keygen", "x25519", "--seed", seed, "-o", &p("k.pem")]);
    assert_eq!(
        std::fs::read_to_string(p("k.pem")).expect("read"),
        "-----BEGIN PRIVATE KEY-----\n\
         MC4CAQAwBQYDK2VuBCIEIHcHbQpzGKV9PBbBclGyZkXfTC+H68CZKrF3+6UduSwq\n\
         -----END PRIVATE KEY-----\n"
    );
    ok(&["pubkey", "-i", &p("k.pem"), "-o", &p("p.pem")]);
    assert_eq!(
        std::fs::read_to_string(p("p.pem")).expect("read"),
        "-----BEGIN PUBLIC KEY-----\n\
         MCowBQYDK2VuAyEAhSDwCYkwp1R0i33ctD73Wg2/Og0mOBr066SpjqqbTmo=\n\
         -----END PUBLIC KEY-----\n"
    );
    for f in ["k.pem", "p.pem"] {
        let text = ok(&["show", "-i", &p(f)]);
        assert!(text.contains("algorithm: x25519\n"), "{text}");
        assert!(text.contains("OID: 1.3.101.110\n"), "{text}");
    }
    // A random key, and a wrong seed length.
    ok(&["keygen", "x25519", "-o", &p("r.pem")]);
    ok(&["pubkey", "-i", &p("r.pem"), "-o", &p("r.pub")]);
    assert_error(&pqkit(&[
        "keygen",
        "x25519",
        "--seed",
        "00",
        "-o",
        &p("bad.pem"),
    ]));
    std::fs::write(p("m"), b"m").expect("write");
    assert_error(&pqkit(&[
        "sign",
        "-k",
        &p("k.pem"),
        "-i",
        &p("m"),
        "-o",
        &p("s"),
    ]));
    let _ = std::fs::remove_dir_all(&d);
}

/// X-Wing through the CLI on the draft's vectors: `keygen --seed` gives
/// the vector's public key (the SPKI's last 1216 bytes), `encap --seed`
/// its ciphertext and shared secret, `decap` the secret; a wrong-length
/// seed or ciphertext is exit 2.
#[test]
fn x_wing_vectors_through_the_cli() {
    let Some(v) = pqkit_testkit::vectors::json("xwing/test-vectors.json") else {
        return;
    };
    let d = tmpdir("x-wing");
    let p = |f: &str| d.join(f).to_str().expect("utf8").to_owned();
    for c in v.as_array().expect("array") {
        let h = |k: &str| c[k].as_str().expect("hex").to_owned();
        let bytes = |k: &str| pqkit_testkit::vectors::hex(&c[k]);
        ok(&["keygen", "x-wing", "--seed", &h("seed"), "-o", &p("k.pem")]);
        ok(&["pubkey", "-i", &p("k.pem"), "-o", &p("p.pem")]);
        {
            use pqkit_hybrid::pkcs8::DecodePrivateKey;
            use pqkit_hybrid::spki::DecodePublicKey;
            use pqkit_hybrid::xwing::{DecapsulationKey, EncapsulationKey, kem::KeyExport};
            let text = |f: &str| std::fs::read_to_string(p(f)).expect("pem");
            let dk = DecapsulationKey::from_pkcs8_pem(&text("k.pem")).expect("x-wing key");
            assert_eq!(dk.as_bytes()[..], bytes("sk")[..]);
            let ek = EncapsulationKey::from_public_key_pem(&text("p.pem")).expect("x-wing pub");
            assert_eq!(ek.to_bytes()[..], bytes("pk")[..]);
        }
        ok(&[
            "encap",
            "-p",
            &p("p.pem"),
            "-o",
            &p("c"),
            "--secret-out",
            &p("s"),
            "--seed",
            &h("eseed"),
        ]);
        assert_eq!(std::fs::read(p("c")).expect("c"), bytes("ct"));
        assert_eq!(std::fs::read(p("s")).expect("s"), bytes("ss"));
        ok(&["decap", "-k", &p("k.pem"), "-i", &p("c"), "-o", &p("s2")]);
        assert_eq!(std::fs::read(p("s2")).expect("s2"), bytes("ss"));
    }
    assert_error(&pqkit(&[
        "keygen",
        "x-wing",
        "--seed",
        "00",
        "-o",
        &p("bad.der"),
    ]));
    std::fs::write(p("short"), b"short").expect("write");
    assert_error(&pqkit(&[
        "decap",
        "-k",
        &p("k.pem"),
        "-i",
        &p("short"),
        "-o",
        &p("s9"),
    ]));
    assert_error(&pqkit(&[
        "encap",
        "-p",
        &p("p.pem"),
        "-o",
        &p("c9"),
        "--secret-out",
        &p("s9"),
        "--seed",
        "00",
    ]));
    let _ = std::fs::remove_dir_all(&d);
}

/// `hpke seal --seed` and `hpke open` through the CLI on draft-ietf-hpke-pq's
/// vectors, for the suites whose keys the CLI makes (ML-KEM and X-Wing
/// seeds): `keygen --seed skRm`, then sealing the first message with
/// `ikmE` gives `enc || ct`, and `open` gives the plaintext back; a
/// modified ciphertext is exit 1, a truncated input exit 2.
#[test]
fn hpke_vectors_through_the_cli() {
    let Some(v) = pqkit_testkit::vectors::json("hpke-pq/test-vectors.json") else {
        return;
    };
    let d = tmpdir("hpke");
    let p = |f: &str| d.join(f).to_str().expect("utf8").to_owned();
    let mut checked = 0;
    for c in v.as_array().expect("array") {
        let id = |k: &str| c[k].as_u64().expect("id");
        let alg = match id("kem_id") {
            0x0040 => "ml-kem-512",
            0x0041 => "ml-kem-768",
            0x0042 => "ml-kem-1024",
            0x647a => "x-wing",
            _ => continue,
        };
        let (kdf, aead) = hpke_suite_names(c);
        let h = |k: &str| c[k].as_str().expect("hex").to_owned();
        let e = &c["encryptions"][0];
        let eh = |k: &str| e[k].as_str().expect("hex").to_owned();
        let bytes = |v: &serde_json::Value| pqkit_testkit::vectors::hex(v);
        ok(&["keygen", alg, "--seed", &h("skRm"), "-o", &p("k.pem")]);
        ok(&["pubkey", "-i", &p("k.pem"), "-o", &p("p.pem")]);
        std::fs::write(p("pt"), bytes(&e["pt"])).expect("write");
        let suite = [
            "--kdf",
            kdf,
            "--aead",
            aead,
            "--info",
            &h("info"),
            "--aad",
            &eh("aad"),
        ];
        let (pub_pem, pt, key_pem) = (p("p.pem"), p("pt"), p("k.pem"));
        let mut seal = vec!["hpke", "seal", "-p", &pub_pem, "-i", &pt];
        let (o, s) = (p("sealed"), h("ikmE"));
        seal.extend(["-o", &o, "--seed", &s]);
        seal.extend(suite);
        ok(&seal);
        let mut want = bytes(&c["enc"]);
        want.extend(bytes(&e["ct"]));
        assert_eq!(
            std::fs::read(p("sealed")).expect("sealed"),
            want,
            "{alg} {kdf} {aead}"
        );
        let mut open = vec!["hpke", "open", "-k", &key_pem, "-i", &o];
        let out = p("out");
        open.extend(["-o", &out]);
        open.extend(suite);
        ok(&open);
        assert_eq!(std::fs::read(p("out")).expect("out"), bytes(&e["pt"]));
        let mut bad = want.clone();
        *bad.last_mut().expect("tag") ^= 1;
        std::fs::write(p("sealed"), &bad).expect("write");
        assert_eq!(pqkit(&open).status.code(), Some(1), "modified ciphertext");
        std::fs::write(p("sealed"), &want[..10]).expect("write");
        assert_error(&pqkit(&open));
        checked += 1;
    }
    // ML-KEM-512/768/1024 and X-Wing with HKDF, X-Wing with SHAKE256,
    // ML-KEM-1024 with TurboSHAKE256.
    assert_eq!(checked, 6);
    let _ = std::fs::remove_dir_all(&d);
}

/// The raw-key form of `hpke`, on every case of draft-ietf-hpke-pq's
/// vectors: `hpke keygen --ikm
/// ikmR` writes `skRm` and `pkRm`; `seal --kem --seed ikmE` gives `enc ||
/// ct`; `open --kem` gives the plaintext back, and refuses the ciphertext
/// in PSK mode (exit 1). PSK mode round-trips, and a PSK shorter than 32
/// bytes or a lone `--psk` is an error (exit 2).
#[test]
fn hpke_raw_keys_through_the_cli() {
    let Some(v) = pqkit_testkit::vectors::json("hpke-pq/test-vectors.json") else {
        return;
    };
    let d = tmpdir("hpke-raw");
    let p = |f: &str| d.join(f).to_str().expect("utf8").to_owned();
    let names = [
        (0x0010, "p256"),
        (0x0011, "p384"),
        (0x0020, "x25519"),
        (0x0021, "x448"),
        (0x0040, "ml-kem-512"),
        (0x0041, "ml-kem-768"),
        (0x0042, "ml-kem-1024"),
        (0x0050, "mlkem768-p256"),
        (0x0051, "mlkem1024-p384"),
        (0x647a, "x-wing"),
    ];
    let mut checked = Vec::new();
    for c in v.as_array().expect("array") {
        let id = |k: &str| c[k].as_u64().expect("id");
        let &(_, kem) = names
            .iter()
            .find(|(i, _)| *i == id("kem_id"))
            .expect("every KEM of the file");
        let (kdf, aead) = hpke_suite_names(c);
        let h = |k: &str| c[k].as_str().expect("hex").to_owned();
        let bytes = |v: &serde_json::Value| pqkit_testkit::vectors::hex(v);
        let (sk, pk) = (p("sk"), p("pk"));
        let _ = std::fs::remove_file(&sk);
        let _ = std::fs::remove_file(&pk);
        ok(&[
            "hpke",
            "keygen",
            "--kem",
            kem,
            "--ikm",
            &h("ikmR"),
            "-k",
            &sk,
            "-p",
            &pk,
        ]);
        assert_eq!(
            std::fs::read(&sk).expect("sk"),
            bytes(&c["skRm"]),
            "{kem} skRm"
        );
        assert_eq!(
            std::fs::read(&pk).expect("pk"),
            bytes(&c["pkRm"]),
            "{kem} pkRm"
        );
        let e = &c["encryptions"][0];
        std::fs::write(p("pt"), bytes(&e["pt"])).expect("write");
        let aad = e["aad"].as_str().expect("hex").to_owned();
        let info = h("info");
        let suite = [
            "--kem", kem, "--kdf", kdf, "--aead", aead, "--info", &info, "--aad", &aad,
        ];
        let (pt, sealed, out) = (p("pt"), p("sealed"), p("out"));
        let ikm_e = h("ikmE");
        let mut seal = vec!["hpke", "seal", "-p", &pk, "-i", &pt, "-o", &sealed];
        seal.extend(suite);
        ok(&[seal.as_slice(), &["--seed", &ikm_e]].concat());
        let mut want = bytes(&c["enc"]);
        want.extend(bytes(&e["ct"]));
        assert_eq!(
            std::fs::read(&sealed).expect("sealed"),
            want,
            "{kem} {kdf} {aead}"
        );
        let mut open = vec!["hpke", "open", "-k", &sk, "-i", &sealed, "-o", &out];
        open.extend(suite);
        ok(&open);
        assert_eq!(std::fs::read(&out).expect("out"), bytes(&e["pt"]));
        let psk = ["--psk", &"5a".repeat(32), "--psk-id", "6964"];
        let refused = pqkit(&[open.as_slice(), &psk].concat());
        assert_eq!(
            refused.status.code(),
            Some(1),
            "{kem}: base-mode ciphertext in PSK mode"
        );
        ok(&[seal.as_slice(), &psk].concat());
        ok(&[open.as_slice(), &psk].concat());
        assert_eq!(std::fs::read(&out).expect("out"), bytes(&e["pt"]));
        assert_eq!(
            pqkit(&open).status.code(),
            Some(1),
            "{kem}: PSK ciphertext in base mode"
        );
        checked.push(id("kem_id"));
    }
    assert_eq!(checked.len(), 13);
    // A PSK shorter than 32 bytes, a lone --psk, a wrong-length raw key:
    // exit 2.
    let (pk, pt) = (p("pk"), p("pt"));
    std::fs::write(p("short"), [4u8; 64]).expect("write");
    let short = p("short");
    let long_psk = "00".repeat(32);
    for (kem, key, out, extra) in [
        ("p256", &pk, "x", &["--psk", "00", "--psk-id", "01"][..]),
        ("p256", &pk, "y", &["--psk", &long_psk][..]),
        ("p384", &short, "z", &[][..]),
    ] {
        let out = p(out);
        let args = [
            "hpke", "seal", "--kem", kem, "-p", key, "-i", &pt, "-o", &out,
        ];
        assert_error(&pqkit(&[&args[..], extra].concat()));
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// `docs/algorithms.md`'s first table is what `pqkit algorithms --long`
/// prints: every algorithm of the build (in any order) with its kind, key
/// OID and HPKE KEM identifier.
#[test]
fn algorithms_table_matches_the_build() {
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/algorithms.md"),
    )
    .expect("docs/algorithms.md");
    let mut rows: Vec<String> = doc
        .split("## Key and signature algorithms")
        .nth(1)
        .expect("the table's section")
        .lines()
        .skip_while(|l| !l.starts_with("|---"))
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let hpke = if cells[4].is_empty() { "-" } else { cells[4] };
            let name = cells[1].trim_matches('`');
            format!("{name}\t{}\t{}\t{hpke}", cells[2], cells[3])
        })
        .collect();
    let out = pqkit(&["algorithms", "--long"]);
    assert_eq!(out.status.code(), Some(0));
    let mut listed: Vec<String> = String::from_utf8(out.stdout)
        .expect("utf8")
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(listed.len(), 44);
    rows.sort();
    listed.sort();
    assert_eq!(rows, listed);
}
