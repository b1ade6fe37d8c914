//! Extracts the peers' documentation examples into `$OUT_DIR` (see
#![allow(clippy::expect_used)]
//! `src/lib.rs`). A peer whose sources cannot be found yields one example
//! that fails to compile, naming where it looked: a missing peer is a
//! failing test, never a silently empty one. It also passes the directories
//! of the client crates' sources to `tests/clients.rs` (see `CLIENTS`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

/// (crate name in Cargo.lock, its identifier in code, pqkit's identifier).
const PEERS: [(&str, &str, &str); 6] = [
    ("ml-dsa", "ml_dsa", "pqkit_ml_dsa"),
    ("slh-dsa", "slh_dsa", "pqkit_slh_dsa"),
    ("ml-kem", "ml_kem", "pqkit_ml_kem"),
    ("ed25519-dalek", "ed25519_dalek", "pqkit_ed25519"),
    ("x25519-dalek", "x25519_dalek", "pqkit_x25519"),
    ("x-wing", "x_wing", "pqkit_hybrid::xwing"),
];

/// The published crates whose test suites `tests/clients.rs` runs on pqkit:
/// (crate name in Cargo.lock, the environment variable that passes the
/// directory of its sources to the test).
const CLIENTS: [(&str, &str); 2] = [
    ("x-wing", "PQKIT_DROPIN_X_WING_SRC"),
    ("ssh-key", "PQKIT_DROPIN_SSH_KEY_SRC"),
];

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets it"));
    let lock = manifest.join("../Cargo.lock");
    println!("cargo:rerun-if-changed={}", lock.display());
    println!("cargo:rerun-if-changed=build.rs");
    let lock = fs::read_to_string(&lock).unwrap_or_default();
    let mut counts = Vec::new();
    for (name, ident, ours) in PEERS {
        let (md, n) = match locked_version(&lock, name).and_then(|v| find_sources(name, &v)) {
            Ok(dir) => {
                println!("cargo:rerun-if-changed={}", dir.display());
                extract(&dir, ident, ours)
            }
            Err(why) => (
                format!(
                    "```\ncompile_error!(\"{}\");\n```\n",
                    why.replace('\\', "/").replace('"', "'")
                ),
                0,
            ),
        };
        fs::write(out.join(format!("{ident}.md")), md).expect("write OUT_DIR");
        counts.push(format!("(\"{name}\", {n})"));
    }
    for (name, var) in CLIENTS {
        // An error is passed as text the test reports (it fails on it).
        let value = match locked_version(&lock, name).and_then(|v| find_sources(name, &v)) {
            Ok(dir) => dir.display().to_string(),
            Err(why) => format!("error: {why}"),
        };
        println!("cargo:rustc-env={var}={value}");
    }
    let rs = format!(
        "/// How many Rust examples were extracted from each peer's docs.\n\
         pub const EXAMPLES: [(&str, usize); {}] = [{}];\n",
        counts.len(),
        counts.join(", ")
    );
    fs::write(out.join("counts.rs"), rs).expect("write OUT_DIR");
}

/// The version of `name` in the workspace's Cargo.lock.
fn locked_version(lock: &str, name: &str) -> Result<String, String> {
    let mut lines = lock.lines();
    while let Some(l) = lines.next() {
        if l.trim() == format!("name = \"{name}\"")
            && let Some(v) = lines
                .next()
                .and_then(|v| v.trim().strip_prefix("version = "))
        {
            return Ok(v.trim_matches('"').to_string());
        }
    }
    Err(format!("{name} is not in Cargo.lock"))
}

/// `$CARGO_HOME/registry/src/<index>/<name>-<version>`.
fn find_sources(name: &str, version: &str) -> Result<PathBuf, String> {
    let home = env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .ok_or("neither CARGO_HOME nor HOME is set")?;
    let src = home.join("registry/src");
    let dir = format!("{name}-{version}");
    for index in fs::read_dir(&src).map_err(|e| format!("{}: {e}", src.display()))? {
        let candidate = index.map_err(|e| e.to_string())?.path().join(&dir);
        if candidate.join("Cargo.toml").is_file() {
            return Ok(candidate);
        }
    }
    Err(format!(
        "sources of {dir} not found under {}",
        src.display()
    ))
}

/// Every Rust code block of the crate's README and doc comments, renamed,
/// as Markdown; and how many there are.
fn extract(dir: &Path, ident: &str, ours: &str) -> (String, usize) {
    let mut files = vec![dir.join("README.md")];
    rust_files(&dir.join("src"), &mut files);
    files.sort();
    let mut md = String::new();
    let mut n = 0;
    for file in files {
        let Ok(text) = fs::read_to_string(&file) else {
            continue;
        };
        let is_md = file.extension().is_some_and(|e| e == "md");
        let doc = if is_md {
            text.lines().map(|l| (l.to_string(), true)).collect()
        } else {
            doc_lines(&text)
        };
        let rel = file
            .strip_prefix(dir)
            .unwrap_or(&file)
            .display()
            .to_string();
        for (lang, code, line) in code_blocks(&doc) {
            n += 1;
            let _ = write!(md, "Example {n}: `{rel}`, doc line {line}.\n\n```{lang}\n");
            for l in code {
                md.push_str(&rename(&l, ident, ours));
                md.push('\n');
            }
            md.push_str("```\n\n");
        }
    }
    (md, n)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The documentation text of a Rust file, line by line: `//!` and `///`
/// comments, and the fences that `#[cfg_attr(COND, doc = "...")]` turns on
/// with all features enabled (those under `not(...)` are dropped). The flag
/// is false on a line that is not documentation (it ends a code block).
fn doc_lines(text: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix("//!").or_else(|| t.strip_prefix("///")) {
            out.push((rest.strip_prefix(' ').unwrap_or(rest).to_string(), true));
        } else if t.starts_with("#![cfg_attr(") || t.starts_with("#[cfg_attr(") {
            let mut attr = t.to_string();
            while attr.matches('(').count() > attr.matches(')').count() {
                match lines.next() {
                    Some(more) => attr.push_str(more.trim()),
                    None => break,
                }
            }
            if let Some(fence) = enabled_doc(&attr) {
                out.push((fence, true));
            }
        } else {
            out.push((String::new(), false));
        }
    }
    out
}

/// The string of `#[cfg_attr(COND, doc = "STRING")]` if COND holds with
/// every feature on, i.e. it is not a negation.
fn enabled_doc(attr: &str) -> Option<String> {
    let start = attr.find("cfg_attr(")? + "cfg_attr(".len();
    let doc = attr.rfind("doc = \"")?;
    let cond = attr[start..doc].trim();
    if cond.starts_with("not(") || cond.starts_with("any(not(") {
        return None;
    }
    let s = &attr[doc + "doc = \"".len()..];
    Some(s[..s.find('"')?].to_string())
}

/// The Rust code blocks: `(fence info, lines, index of the opening line)`.
fn code_blocks(doc: &[(String, bool)]) -> Vec<(String, Vec<String>, usize)> {
    let mut blocks = Vec::new();
    let mut open: Option<(String, Vec<String>, usize)> = None;
    for (i, (line, is_doc)) in doc.iter().enumerate() {
        let fence = line.trim_start().strip_prefix("```");
        match (&mut open, fence) {
            (Some(_), Some(_)) => {
                let (lang, code, at) = open.take().expect("open");
                if is_rust(&lang) {
                    blocks.push((lang, code, at));
                }
            }
            (Some(_), None) if !is_doc => open = None,
            (Some((_, code, _)), None) => code.push(line.clone()),
            (None, Some(lang)) if *is_doc => {
                open = Some((lang.trim().to_string(), Vec::new(), i + 1))
            }
            (None, _) => {}
        }
    }
    blocks
}

fn is_rust(lang: &str) -> bool {
    lang.split(',').map(str::trim).all(|t| {
        matches!(
            t,
            "" | "rust" | "ignore" | "no_run" | "should_panic" | "compile_fail"
        ) || t.starts_with("edition")
    })
}

/// `ident` → `ours` wherever it is a whole identifier.
fn rename(line: &str, ident: &str, ours: &str) -> String {
    let is_id = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::new();
    let mut rest = line;
    while let Some(pos) = rest.find(ident) {
        let before = rest[..pos].chars().next_back();
        let after = rest[pos + ident.len()..].chars().next();
        out.push_str(&rest[..pos]);
        if before.is_some_and(is_id) || after.is_some_and(is_id) {
            out.push_str(ident);
        } else {
            out.push_str(ours);
        }
        rest = &rest[pos + ident.len()..];
    }
    out.push_str(rest);
    out
}
