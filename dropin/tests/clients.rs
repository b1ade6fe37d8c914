//! Published crates built on pqkit with only their dependency entry changed,
//! running their own test suites: `x-wing` 0.1.1 (on `pqkit-ml-kem` instead
//! of RustCrypto `ml-kem`) and `ssh-key` 0.7.0-rc.12 with its `ed25519`
//! feature (on `pqkit-ed25519` instead of `ed25519-dalek`).
//!
//! Each test copies the crate's published sources from the local cargo
//! registry (where cargo put them: they are dev-dependencies of this crate,
//! see `build.rs`) into `target/tmp/dropin-clients/<crate>`, rewrites the one
//! dependency entry to `package = "pqkit-..."` with a `path` into this
//! workspace (and appends an empty `[workspace]` table so that it builds
//! stand-alone), starts from this workspace's `Cargo.lock`, and runs `cargo
//! test` there with its own target directory
//! (`target/tmp/dropin-clients/target`, shared by the clients, so no build
//! lock is shared with the outer build). It asserts that cargo exits 0, that
//! the test output reports the expected number of passed tests and none
//! failed, and that the client's resolved graph has the pqkit crate and not
//! the peer.
//!
//! Resolution is `--offline` when every package the client's lock needs is
//! downloaded (after `cargo fetch` in this workspace: `Cargo.lock` pins the
//! clients' whole graphs, see `Cargo.toml`); otherwise the registry is used.
//! Nothing of the clients is committed to this repository.

#![allow(clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::{Command, Output};
use std::{fs, io};

/// One published crate and how it is run on pqkit.
struct Client {
    /// Crate name (and directory name of the copy).
    name: &'static str,
    /// The directory of its published sources, or `error: ...` (`build.rs`).
    sources: &'static str,
    /// The dependency whose entry is rewritten.
    dependency: &'static str,
    /// The pqkit crate that replaces it, and its directory in the workspace.
    pqkit: &'static str,
    pqkit_dir: &'static str,
    /// Features enabled for its test run.
    features: &'static str,
    /// Tests its suite runs with those features (unit, integration and doc
    /// tests), all of which must pass.
    expected_passed: usize,
}

const X_WING: Client = Client {
    name: "x-wing",
    sources: env!("PQKIT_DROPIN_X_WING_SRC"),
    dependency: "ml-kem",
    pqkit: "pqkit-ml-kem",
    pqkit_dir: "ml-kem",
    // Every feature of x-wing: its unit tests need `getrandom`.
    features: "getrandom,hazmat,zeroize",
    // 2 unit tests, 1 known-answer test (the draft's vectors), 1 doc test.
    expected_passed: 4,
};

const SSH_KEY: Client = Client {
    name: "ssh-key",
    sources: env!("PQKIT_DROPIN_SSH_KEY_SRC"),
    dependency: "ed25519-dalek",
    pqkit: "pqkit-ed25519",
    pqkit_dir: "ed25519",
    // The default features (ecdsa, rand_core, std) and `ed25519`, which is
    // what brings in the Ed25519 crate.
    features: "ed25519",
    // 33 unit tests, 83 in tests/, 4 doc tests (5 more are `ignore`d).
    expected_passed: 120,
};

#[test]
fn x_wing_test_suite_passes_on_pqkit_ml_kem() {
    run(&X_WING);
}

#[test]
fn ssh_key_test_suite_passes_on_pqkit_ed25519() {
    run(&SSH_KEY);
}

fn run(client: &Client) {
    if let Some(why) = client.sources.strip_prefix("error: ") {
        panic!(
            "{}: its published sources were not found ({why}); they are a \
             dev-dependency of pqkit-dropin, so `cargo fetch` puts them there",
            client.name
        );
    }
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("dropin/ is in the workspace");
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("dropin-clients");
    let dir = root.join(client.name);
    if dir.exists() {
        fs::remove_dir_all(&dir).expect("remove the previous copy");
    }
    copy_dir(Path::new(client.sources), &dir).expect("copy the client's sources");

    let manifest = dir.join("Cargo.toml");
    let original = fs::read_to_string(&manifest).expect("read the client's Cargo.toml");
    let pqkit_path = workspace.join(client.pqkit_dir);
    let rewritten = rewrite_dependency(&original, client.dependency, client.pqkit, &pqkit_path)
        .unwrap_or_else(|why| panic!("{}: {why}", client.name));
    fs::write(&manifest, rewritten).expect("write the client's Cargo.toml");
    // This workspace's lock: the versions it pins (and cargo downloaded)
    // instead of whatever the client was published with.
    fs::copy(workspace.join("Cargo.lock"), dir.join("Cargo.lock")).expect("copy Cargo.lock");

    let target = root.join("target");
    let offline = cargo(&dir, &target)
        .args(["metadata", "--offline", "--format-version", "1"])
        .output()
        .expect("run cargo")
        .status
        .success();
    if !offline {
        eprintln!(
            "{}: not every package of its graph is downloaded; resolving with the registry \
             (`cargo fetch` in the workspace makes this run offline)",
            client.name
        );
    }
    let mut test = cargo(&dir, &target);
    test.args(["test", "--features", client.features]);
    if offline {
        test.arg("--offline");
    }
    let out = test.output().expect("run cargo test");
    let report = report(client, &out);
    assert!(
        out.status.success(),
        "{}: cargo test failed\n{report}",
        client.name
    );

    let (passed, failed, runs) = count_results(&String::from_utf8_lossy(&out.stdout));
    assert!(
        runs > 0,
        "{}: no test results in the output\n{report}",
        client.name
    );
    assert_eq!(failed, 0, "{}: failed tests\n{report}", client.name);
    assert_eq!(
        passed, client.expected_passed,
        "{}: passed tests\n{report}",
        client.name
    );

    // The suite ran on pqkit: the client's resolved graph has the pqkit
    // crate and not the crate it replaces.
    let lock = fs::read_to_string(dir.join("Cargo.lock")).expect("read the client's Cargo.lock");
    assert!(
        lock.contains(&format!("name = \"{}\"\n", client.pqkit)),
        "{}: {} is not in its Cargo.lock",
        client.name,
        client.pqkit
    );
    assert!(
        !lock.contains(&format!("name = \"{}\"\n", client.dependency)),
        "{}: {} is still in its Cargo.lock",
        client.name,
        client.dependency
    );
}

/// `cargo` (the one running this test) in `dir`, building into `target`.
/// The outer build's compiler flags are dropped: the client is built as its
/// authors build it (a `-D warnings` meant for pqkit would turn the client's
/// own warnings into errors).
fn cargo(dir: &Path, target: &Path) -> Command {
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.current_dir(dir).env("CARGO_TARGET_DIR", target);
    for var in [
        "CARGO_BUILD_TARGET_DIR",
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "RUSTDOCFLAGS",
        "CARGO_ENCODED_RUSTDOCFLAGS",
        "CARGO_BUILD_RUSTDOCFLAGS",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

/// The tail of cargo's output, for failure messages.
fn report(client: &Client, out: &Output) -> String {
    let tail = |b: &[u8]| {
        let s = String::from_utf8_lossy(b);
        let lines: Vec<&str> = s.lines().collect();
        lines[lines.len().saturating_sub(60)..].join("\n")
    };
    format!(
        "--- {} stdout (tail) ---\n{}\n--- stderr (tail) ---\n{}",
        client.name,
        tail(&out.stdout),
        tail(&out.stderr)
    )
}

/// Sums the `test result:` lines: (passed, failed, number of lines).
fn count_results(stdout: &str) -> (usize, usize, usize) {
    let (mut passed, mut failed, mut runs) = (0, 0, 0);
    for line in stdout.lines() {
        let Some(rest) = line.trim().strip_prefix("test result: ") else {
            continue;
        };
        runs += 1;
        let count = |what: &str| {
            rest.split(';')
                .find_map(|part| {
                    part.trim()
                        .trim_start_matches("ok. ")
                        .trim_start_matches("FAILED. ")
                        .strip_suffix(what)
                })
                .and_then(|n| n.trim().parse::<usize>().ok())
                .unwrap_or_else(|| panic!("cannot read `{what}` in {line:?}"))
        };
        passed += count(" passed");
        failed += count(" failed");
    }
    (passed, failed, runs)
}

/// The manifest with the `[dependencies.NAME]` table's `version` replaced by
/// `package` and `path`, everything else of the entry kept (features,
/// `optional`, `default-features`), and an empty `[workspace]` table
/// appended. Published manifests are normalised by cargo, so the entry is
/// that table with one `version = "..."` line.
fn rewrite_dependency(
    manifest: &str,
    name: &str,
    package: &str,
    path: &Path,
) -> Result<String, String> {
    let header = format!("[dependencies.{name}]");
    let mut out = String::new();
    let (mut in_table, mut found, mut replaced) = (false, false, false);
    for line in manifest.lines() {
        if line.starts_with('[') {
            in_table = line.trim() == header;
            found |= in_table;
        }
        if in_table && !replaced && line.trim_start().starts_with("version = ") {
            out.push_str(&format!(
                "package = {package:?}\npath = {:?}\n",
                path.display().to_string()
            ));
            replaced = true;
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    match (found, replaced) {
        (false, _) => Err(format!("no {header} table in its Cargo.toml")),
        (true, false) => Err(format!("{header} has no version line")),
        (true, true) => Ok(out + "\n[workspace]\n"),
    }
}

fn copy_dir(from: &Path, to: &Path) -> io::Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let dest = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &dest)?;
        } else {
            fs::copy(entry.path(), &dest)?;
        }
    }
    Ok(())
}

#[test]
fn rewrite_changes_only_the_dependency_entry() {
    let manifest = "[package]\nname = \"c\"\nversion = \"1.0.0\"\n\n\
                    [dependencies.ml-kem]\nversion = \"0.3\"\nfeatures = [\"hazmat\"]\n\
                    default-features = false\n\n[dependencies.kem]\nversion = \"0.3\"\n";
    let out = rewrite_dependency(manifest, "ml-kem", "pqkit-ml-kem", Path::new("/w/ml-kem"))
        .expect("rewrite");
    assert_eq!(
        out,
        "[package]\nname = \"c\"\nversion = \"1.0.0\"\n\n\
         [dependencies.ml-kem]\npackage = \"pqkit-ml-kem\"\npath = \"/w/ml-kem\"\n\
         features = [\"hazmat\"]\ndefault-features = false\n\n\
         [dependencies.kem]\nversion = \"0.3\"\n\n[workspace]\n"
    );
    assert!(rewrite_dependency(manifest, "ml-dsa", "pqkit-ml-dsa", Path::new("/w")).is_err());
}

#[test]
fn results_are_summed() {
    let out = "running 2 tests\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; \
               0 filtered out; finished in 0.09s\n\
               test result: FAILED. 3 passed; 1 failed; 5 ignored; 0 measured; 0 filtered out\n";
    assert_eq!(count_results(out), (5, 1, 2));
}
