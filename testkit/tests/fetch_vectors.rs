//! `scripts/fetch-vectors.sh`: its download, gunzip, checksum and layout
//! logic on a local mirror (a `file://` base laid out as
//! `owner/repo/commit/path`, as the origins are), and the real manifest
//! against the vectors this run reads.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pqkit_testkit::vectors;
use sha2::{Digest, Sha256};

fn script() -> PathBuf {
    vectors::workspace().join("scripts/fetch-vectors.sh")
}

fn run(args: &[&str], base: &Path) -> Output {
    Command::new("bash")
        .arg(script())
        .args(args)
        .env("PQKIT_VECTORS_BASE", format!("file://{}", base.display()))
        .output()
        .expect("bash runs")
}

fn sha(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// A fresh folder under the system's temporary folder.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pqkit-fetch-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

fn gzip(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut child = Command::new("gzip")
        .arg("-c")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("gzip runs");
    child.stdin.take().unwrap().write_all(data).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    out.stdout
}

#[test]
fn fetches_from_a_mirror_all_or_nothing() {
    let dir = scratch("mirror");
    let mirror = dir.join("mirror");
    let dest = dir.join("out/vectors");
    let commit = "0123456789abcdef0123456789abcdef01234567";
    let raw = b"count = 0\nseed = 00\n".to_vec();
    let json = br#"{"tests": [1, 2, 3]}"#.to_vec();
    let ours_rel = "testkit/authored/ml-kem/accumulated.json";
    let ours = fs::read(vectors::workspace().join(ours_rel)).unwrap();

    let put = |path: &str, bytes: &[u8]| {
        let p = mirror.join("someone/data").join(commit).join(path);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, bytes).unwrap();
    };
    put("kat/a.rsp", &raw);
    put("acvp/b.json.gz", &gzip(&json));
    let manifest = dir.join("manifest.tsv");
    let write_manifest = |raw_sha: &str| {
        fs::write(
            &manifest,
            format!(
                "# a comment\n\n\
                 x/a.rsp\t{raw_sha}\tsomeone/data\t{commit}\tkat/a.rsp\traw\tMIT\n\
                 y/z/b.json\t{}\tsomeone/data\t{commit}\tacvp/b.json.gz\tgunzip\tMIT\n\
                 ml-kem/accumulated.json\t{}\tpqkit\t-\t{ours_rel}\traw\tours\n",
                sha(&json),
                sha(&ours)
            ),
        )
        .unwrap();
    };
    write_manifest(&sha(&raw));
    let m = manifest.to_str().unwrap();
    let d = dest.to_str().unwrap();

    let out = run(&["--manifest", m, "--dest", d], &mirror);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(fs::read(dest.join("x/a.rsp")).unwrap(), raw);
    assert_eq!(
        fs::read(dest.join("y/z/b.json")).unwrap(),
        json,
        "gunzipped"
    );
    assert_eq!(
        fs::read(dest.join("ml-kem/accumulated.json")).unwrap(),
        ours
    );
    let sums = fs::read_to_string(dest.join("SHA256SUMS")).unwrap();
    assert_eq!(
        sums,
        format!(
            "{}  x/a.rsp\n{}  y/z/b.json\n{}  ml-kem/accumulated.json\n",
            sha(&raw),
            sha(&json),
            sha(&ours)
        )
    );
    assert!(
        run(&["--manifest", m, "--check", d], &mirror)
            .status
            .success()
    );

    // A file whose bytes differ from the manifest: exit 1, naming it, and
    // the earlier complete fetch stays as it was (no staging folder left).
    put("kat/a.rsp", b"count = 1\n");
    let out = run(&["--manifest", m, "--dest", d], &mirror);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("SHA256   x/a.rsp"));
    assert_eq!(fs::read(dest.join("x/a.rsp")).unwrap(), raw);
    let left: Vec<_> = fs::read_dir(dest.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["vectors"], "staging folder removed");

    // A file the origin does not have: exit 1, naming it.
    write_manifest(&sha(&raw));
    fs::remove_file(mirror.join("someone/data").join(commit).join("kat/a.rsp")).unwrap();
    let out = run(&["--manifest", m, "--dest", d], &mirror);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("FETCH    x/a.rsp"));

    // --check finds a changed file in a folder.
    fs::write(dest.join("y/z/b.json"), b"{}").unwrap();
    let out = run(&["--manifest", m, "--check", d], &mirror);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("SHA256   y/z/b.json"));

    // A usage error is exit 2.
    assert_eq!(run(&["--nonsense"], &mirror).status.code(), Some(2));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn manifest_matches_the_vectors_in_use() {
    let root = vectors::root();
    if !root.is_dir() {
        vectors::missing(&root);
        return;
    }
    let out = run(
        &["--check", root.to_str().unwrap()],
        Path::new("/nonexistent"),
    );
    assert!(
        out.status.success(),
        "{}: {}",
        root.display(),
        String::from_utf8_lossy(&out.stdout)
    );
    let manifest = fs::read_to_string(vectors::workspace().join("scripts/vectors.tsv")).unwrap();
    let rows = manifest
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    let mut n = 0;
    for row in rows {
        let cols: Vec<&str> = row.split('\t').collect();
        assert_eq!(cols.len(), 7, "seven columns: {row}");
        assert_eq!(cols[1].len(), 64, "a sha256: {row}");
        assert!(matches!(cols[5], "raw" | "gunzip"), "transform: {row}");
        assert!(
            cols[2] == "pqkit" || (cols[2].contains('/') && cols[3].len() == 40),
            "origin and full commit: {row}"
        );
        assert!(!cols[6].is_empty(), "licence: {row}");
        n += 1;
    }
    assert!(n >= 50, "{n} rows");
}
