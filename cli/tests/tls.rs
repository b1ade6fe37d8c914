//! `pqkit tls-server` and `pqkit tls-client` against each other on
//! loopback: an ML-DSA-87 root, an ML-DSA-65 leaf (key in PKCS#8 seed,
//! expanded and both forms), every post-quantum group, and the failures
//! (unknown root, wrong key for the chain, unknown group) as exit 2.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../../rustls/tests/pki/mod.rs"]
mod pki;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use pqkit_ml_dsa::KeyFormat;

fn pqkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pqkit"))
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pqkit-tls-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("mkdir");
    d
}

/// Root, chain and key files for localhost.
fn pki_files(dir: &Path, format: KeyFormat) -> (PathBuf, PathBuf, PathBuf) {
    let root_key = pki::Key::ml_dsa_87(87);
    let root = pki::root(&root_key, "pqkit CLI root");
    let leaf_key = pki::Key::ml_dsa_65(65);
    let leaf = pki::leaf(&root_key, &root, &leaf_key, "localhost", 7);
    let (r, c, k) = (
        dir.join("root.pem"),
        dir.join("chain.pem"),
        dir.join("key.der"),
    );
    std::fs::write(&r, root.pem()).unwrap();
    std::fs::write(&c, leaf.pem() + &root.pem()).unwrap();
    std::fs::write(&k, leaf_key.pkcs8_with(format)).unwrap();
    (r, c, k)
}

/// Start `tls-server --once --port 0 ...` and read the port it bound.
fn start_server(chain: &Path, key: &Path, extra: &[&str]) -> (Child, u16) {
    let mut child = pqkit()
        .args(["tls-server", "--once", "--port", "0", "--cert"])
        .arg(chain)
        .arg("--key")
        .arg(key)
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn server");
    let mut line = String::new();
    let stdout = child.stdout.as_mut().expect("stdout");
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("listening line");
    let port = line
        .trim()
        .strip_prefix("listening: 127.0.0.1:")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .parse()
        .expect("port");
    (child, port)
}

fn client(port: u16, root: &Path, extra: &[&str]) -> Output {
    pqkit()
        .arg("tls-client")
        .arg(format!("localhost:{port}"))
        .arg("--ca")
        .arg(root)
        .args(extra)
        .output()
        .expect("run client")
}

fn field<'a>(text: &'a str, name: &str) -> &'a str {
    text.lines()
        .find_map(|l| l.strip_prefix(name).and_then(|r| r.strip_prefix(": ")))
        .unwrap_or_else(|| panic!("no {name} in {text:?}"))
}

#[test]
fn every_group_and_key_form_through_the_cli() {
    let dir = tmpdir("groups");
    for (format, group) in [
        (KeyFormat::Seed, "X25519MLKEM768"),
        (KeyFormat::Expanded, "SecP256r1MLKEM768"),
        (KeyFormat::Both, "SecP384r1MLKEM1024"),
        (KeyFormat::Seed, "MLKEM768"),
        (KeyFormat::Seed, "MLKEM1024"),
        (KeyFormat::Seed, "X25519"),
    ] {
        let (root, chain, key) = pki_files(&dir, format);
        let (server, port) = start_server(&chain, &key, &[]);
        let out = client(port, &root, &["--group", group]);
        let server = server.wait_with_output().expect("server");
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        assert_eq!(field(&text, "protocol"), "TLSv1_3");
        assert_eq!(field(&text, "group"), group);
        assert_eq!(field(&text, "signature scheme"), "mldsa65");
        assert_eq!(
            field(&text, "peer certificate subject"),
            "CN=localhost,O=pqkit test"
        );
        assert_eq!(field(&text, "response"), "HTTP/1.0 200 OK");
        assert_eq!(server.status.code(), Some(0), "{server:?}");
        let served = String::from_utf8_lossy(&server.stdout);
        assert_eq!(field(&served, "group"), group);
        assert_eq!(field(&served, "signature scheme"), "mldsa65");
        assert_eq!(field(&served, "peer certificate subject"), "none");
    }
}

#[test]
fn failures_exit_2() {
    let dir = tmpdir("failures");
    let (_root, chain, key) = pki_files(&dir, KeyFormat::Seed);

    // A root the client does not trust: the client fails, so does the
    // one connection of the server.
    let other = pki::root(&pki::Key::ml_dsa_87(1), "another root");
    let other_path = dir.join("other.pem");
    std::fs::write(&other_path, other.pem()).unwrap();
    let (server, port) = start_server(&chain, &key, &[]);
    let out = client(port, &other_path, &[]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("pqkit: error: ") && err.contains("UnknownIssuer"),
        "{err}"
    );
    assert_eq!(server.wait_with_output().unwrap().status.code(), Some(2));

    // A key that is not the leaf's.
    let wrong = dir.join("wrong.der");
    std::fs::write(&wrong, pki::Key::ml_dsa_65(66).pkcs8_with(KeyFormat::Seed)).unwrap();
    let out = pqkit()
        .args(["tls-server", "--once", "--port", "0", "--cert"])
        .arg(&chain)
        .arg("--key")
        .arg(&wrong)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not belong"));

    // An unknown group, a malformed key file.
    let out = pqkit()
        .args(["tls-client", "localhost:1", "--group", "frodo"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown group frodo"));
    let junk = dir.join("junk.pem");
    std::fs::write(&junk, "not a key").unwrap();
    let out = pqkit()
        .args(["tls-server", "--once", "--port", "0", "--cert"])
        .arg(&chain)
        .arg("--key")
        .arg(&junk)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}
