//! Every input the fuzzers kept (`fuzz/corpus/<target>/`) and every input
//! that once crashed a target (`fuzz/regressions/<target>/`), replayed
//! through the target's property on stable Rust: a fixed finding stays
//! fixed, and machines without nightly still run the corpora.
#![allow(clippy::expect_used)]

use std::path::Path;

fn replay(folder: &str) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut total = 0;
    for (name, target) in pqkit_fuzz::TARGETS {
        let dir = root.join(name);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        files.sort();
        for file in files {
            let data = std::fs::read(&file).expect("readable corpus file");
            let result = std::panic::catch_unwind(|| target(&data));
            assert!(
                result.is_ok(),
                "{name}: {} fails its property",
                file.display()
            );
            total += 1;
        }
    }
    total
}

#[test]
fn corpora_keep_their_properties() {
    let n = replay("corpus");
    eprintln!("{n} corpus inputs replayed");
    // The corpora are in the repository: an empty replay means they moved.
    assert!(n > 100, "only {n} corpus inputs found");
}

#[test]
fn regressions_stay_fixed() {
    let n = replay("regressions");
    eprintln!("{n} regression inputs replayed");
}
