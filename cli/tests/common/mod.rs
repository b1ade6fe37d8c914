//! Helpers the CLI test files share.
#![allow(dead_code, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Run `pqkit args` in `dir`.
pub fn pqkit(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pqkit"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run pqkit")
}

/// Run `pqkit args` in `dir`, expecting exit 0; its standard output.
pub fn ok(dir: &Path, args: &[&str]) -> String {
    let out = pqkit(dir, args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A fresh temporary directory for one test.
pub fn tmpdir(suite: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pqkit-{suite}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("mkdir");
    d
}
