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
        "fn-dsa-512",
        "fn-dsa-1024",
        "lightsaber",
        "saber",
        "firesaber",
        "ed25519",
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
