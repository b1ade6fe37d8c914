//! `sign` / `verify` on large files in constant memory: the streaming
//! modes (pure ML-DSA and HashML-DSA into mu / the pre-hash, Ed25519ph,
//! HashFN-DSA and composite ML-DSA into the hash) give the same signatures
//! as the in-memory library calls, sign and verify a 2 GiB sparse file in a few MB of
//! memory (`/usr/bin/time -v`), and the whole-message modes refuse inputs
//! above 64 MiB with an error instead of exhausting memory.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;
use std::process::Command;

use common::{ok, pqkit};

fn tmpdir(name: &str) -> std::path::PathBuf {
    common::tmpdir("stream", name)
}

#[test]
fn streamed_signatures_equal_the_in_memory_ones() {
    let d = tmpdir("equal");
    let msg: Vec<u8> = (0..300_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    std::fs::write(d.join("msg"), &msg).unwrap();
    let seed = [0x42u8; 32];
    ok(
        &d,
        &[
            "keygen",
            "ml-dsa-65",
            "--seed",
            &hex::encode(seed),
            "-o",
            "dsa.key",
        ],
    );
    ok(
        &d,
        &[
            "keygen",
            "ed25519",
            "--seed",
            &hex::encode(seed),
            "-o",
            "ed.key",
        ],
    );
    let sk = pqkit_ml_dsa::SigningKey::<pqkit_ml_dsa::MlDsa65>::from_seed(&seed.into());
    // Pure ML-DSA with a context, HashML-DSA.
    ok(
        &d,
        &[
            "sign",
            "-k",
            "dsa.key",
            "-i",
            "msg",
            "-o",
            "s1",
            "--deterministic",
            "--context",
            "6162",
        ],
    );
    assert_eq!(
        std::fs::read(d.join("s1")).unwrap(),
        sk.sign_deterministic(&msg, b"ab").unwrap().as_bytes()
    );
    ok(
        &d,
        &[
            "sign",
            "-k",
            "dsa.key",
            "-i",
            "msg",
            "-o",
            "s2",
            "--deterministic",
            "--prehash",
            "sha2-256",
        ],
    );
    let alg = pqkit_ml_dsa::HashAlg::from_name("sha2-256").unwrap();
    assert_eq!(
        std::fs::read(d.join("s2")).unwrap(),
        sk.sign_prehash_deterministic(alg, &msg, b"")
            .unwrap()
            .as_bytes()
    );
    // Ed25519ph.
    ok(
        &d,
        &[
            "sign",
            "-k",
            "ed.key",
            "-i",
            "msg",
            "-o",
            "s3",
            "--prehash",
            "sha2-512",
        ],
    );
    let ed = pqkit_ed25519::SigningKey::from_bytes(&seed);
    assert_eq!(
        std::fs::read(d.join("s3")).unwrap(),
        ed.sign_prehash(&msg, b"").unwrap().to_bytes()
    );
    // Composite ML-DSA (its pre-hash is part of the combination).
    let seed64 = [[0x42u8; 32], [0x24u8; 32]].concat();
    ok(
        &d,
        &[
            "keygen",
            "mldsa65-ed25519",
            "--seed",
            &hex::encode(&seed64),
            "-o",
            "comp.key",
        ],
    );
    ok(
        &d,
        &[
            "sign",
            "-k",
            "comp.key",
            "-i",
            "msg",
            "-o",
            "s4",
            "--deterministic",
            "--context",
            "6162",
        ],
    );
    let comp = pqkit_hybrid::composite::SigningKey::<
        pqkit_hybrid::composite::MlDsa65Ed25519Sha512,
    >::from_bytes(&seed64)
    .unwrap();
    assert_eq!(
        std::fs::read(d.join("s4")).unwrap(),
        comp.sign_deterministic(&msg, b"ab").unwrap().as_bytes()
    );
    // And every one verifies through the streaming path.
    ok(&d, &["pubkey", "-i", "dsa.key", "-o", "dsa.pub"]);
    ok(&d, &["pubkey", "-i", "ed.key", "-o", "ed.pub"]);
    ok(&d, &["pubkey", "-i", "comp.key", "-o", "comp.pub"]);
    ok(
        &d,
        &[
            "verify",
            "-p",
            "comp.pub",
            "-i",
            "msg",
            "-s",
            "s4",
            "--context",
            "6162",
        ],
    );
    ok(
        &d,
        &[
            "verify",
            "-p",
            "dsa.pub",
            "-i",
            "msg",
            "-s",
            "s1",
            "--context",
            "6162",
        ],
    );
    ok(
        &d,
        &[
            "verify",
            "-p",
            "dsa.pub",
            "-i",
            "msg",
            "-s",
            "s2",
            "--prehash",
            "sha2-256",
        ],
    );
    ok(
        &d,
        &[
            "verify",
            "-p",
            "ed.pub",
            "-i",
            "msg",
            "-s",
            "s3",
            "--prehash",
            "sha2-512",
        ],
    );
}

/// Run `pqkit args` under `/usr/bin/time -v`; exit status and peak RSS (KB).
fn measured(dir: &Path, args: &[&str]) -> (Option<i32>, u64) {
    let out = Command::new("/usr/bin/time")
        .arg("-v")
        .arg(env!("CARGO_BIN_EXE_pqkit"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("/usr/bin/time (scripts/install-deps.sh installs it)");
    let err = String::from_utf8_lossy(&out.stderr);
    let rss = err
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("Maximum resident set size (kbytes): ")
        })
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no RSS in {err}"));
    (out.status.code(), rss)
}

#[test]
fn a_2_gib_file_in_constant_memory() {
    // GNU time measures the peak RSS; scripts/install-deps.sh installs it
    // for the full suite. `cargo test` alone (no system packages) skips
    // this test loudly, and under CI=true its absence is a failure.
    if !Path::new("/usr/bin/time").exists() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "/usr/bin/time is missing (CI=true): bash scripts/install-deps.sh"
        );
        eprintln!(
            "\n!!!!! SKIPPED: /usr/bin/time is missing (bash scripts/install-deps.sh) !!!!!\n"
        );
        return;
    }
    let d = tmpdir("big");
    let f = std::fs::File::create(d.join("big")).unwrap();
    f.set_len(2 << 30).unwrap(); // sparse: no disk space
    ok(&d, &["keygen", "ml-dsa-65", "-o", "dsa.key"]);
    ok(&d, &["pubkey", "-i", "dsa.key", "-o", "dsa.pub"]);
    ok(&d, &["keygen", "ed25519", "-o", "ed.key"]);
    ok(&d, &["pubkey", "-i", "ed.key", "-o", "ed.pub"]);
    ok(&d, &["keygen", "mldsa65-ecdsa-p256", "-o", "comp.key"]);
    ok(&d, &["pubkey", "-i", "comp.key", "-o", "comp.pub"]);
    for (key, public, mode) in [
        ("dsa.key", "dsa.pub", &[][..]),
        ("ed.key", "ed.pub", &["--prehash", "sha2-512"][..]),
        ("comp.key", "comp.pub", &[][..]),
    ] {
        let mut sign = vec!["sign", "-k", key, "-i", "big", "-o", "big.sig"];
        sign.extend_from_slice(mode);
        let (code, rss) = measured(&d, &sign);
        assert_eq!(code, Some(0));
        assert!(rss < 16 * 1024, "{key}: sign peak RSS {rss} KB");
        let mut verify = vec!["verify", "-p", public, "-i", "big", "-s", "big.sig"];
        verify.extend_from_slice(mode);
        let (code, rss) = measured(&d, &verify);
        assert_eq!(code, Some(0), "{key}: verify");
        assert!(rss < 16 * 1024, "{key}: verify peak RSS {rss} KB");
    }
    std::fs::remove_file(d.join("big")).unwrap();
}

#[test]
fn whole_message_modes_refuse_huge_inputs() {
    let d = tmpdir("huge");
    let f = std::fs::File::create(d.join("huge")).unwrap();
    f.set_len((64 << 20) + 1).unwrap();
    ok(&d, &["keygen", "ed25519", "-o", "ed.key"]);
    ok(&d, &["keygen", "fn-dsa-512", "-o", "fn.key"]);
    for key in ["ed.key", "fn.key"] {
        let out = pqkit(&d, &["sign", "-k", key, "-i", "huge", "-o", "sig"]);
        assert_eq!(out.status.code(), Some(2), "{key}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("at most 64 MiB") && err.contains("--prehash"),
            "{err}"
        );
        assert!(!d.join("sig").exists());
    }
    // A pre-hash mode signs it.
    ok(
        &d,
        &[
            "sign",
            "-k",
            "fn.key",
            "-i",
            "huge",
            "-o",
            "sig",
            "--prehash",
            "sha2-512",
        ],
    );
}
