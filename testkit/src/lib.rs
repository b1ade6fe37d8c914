//! # pqkit-testkit
//!
//! Test-only support shared by pqkit's tests, examples and benches (never a
//! dependency of a library crate):
//!
//! * [`vectors`]: find the official vectors (`PQKIT_VECTORS`, else the
//!   repository's `vectors/` filled by `scripts/fetch-vectors.sh`, else
//!   `../shared/vectors` beside the workspace). When they are absent a test
//!   says so loudly, naming the script, and skips; under `CI=true` absence
//!   is a failure.
//! * [`acvp`]: NIST ACVP `prompt.json` joined with `expectedResults.json`.
//! * [`rsp`]: the NIST `.rsp` KAT file format (`count = 0`, `seed = ...`).
//! * [`drbg`]: the NIST PQC KAT AES-256 CTR_DRBG that reproduces the KAT
//!   files; [`kat`]: the PQCgenKAT record loop and the comparison with a
//!   `kat-hashes.json`.
//! * [`rng`]: a small deterministic RNG for tests (not for keys).
#![allow(clippy::panic, clippy::expect_used, clippy::unwrap_used)]

pub mod drbg;

pub mod kat {
    //! The NIST PQCgenKAT harness: records drawn from the KAT DRBG, compared
    //! by hash with a `kat-hashes.json` ("single": sha256 of the first
    //! record, as PQClean checks; "all": sha256 of all records separated by
    //! blank lines, as liboqs `kat_kem --all` / `kat_sig --all` print them).
    use sha2::{Digest, Sha256};

    use crate::drbg::KatDrbg;

    /// The record loop of PQCgenKAT: a master DRBG on the entropy
    /// `0x00..0x2f`; for record `i`, `record(i, seed, master, drbg)` gets
    /// the record's 48-byte seed (already drawn from `master`, which it may
    /// draw further from, e.g. the message of a signature KAT) and a DRBG
    /// seeded with it, and returns the record's text.
    pub fn records(
        count: usize,
        mut record: impl FnMut(usize, &[u8; 48], &mut KatDrbg, &mut KatDrbg) -> String,
    ) -> Vec<String> {
        use rand_core::Rng;
        let entropy: [u8; 48] = core::array::from_fn(|i| i as u8);
        let mut master = KatDrbg::new(&entropy);
        (0..count)
            .map(|i| {
                let mut seed = [0u8; 48];
                master.fill_bytes(&mut seed);
                let mut drbg = KatDrbg::new(&seed);
                record(i, &seed, &mut master, &mut drbg)
            })
            .collect()
    }

    fn sha(s: &str) -> String {
        hex::encode(Sha256::digest(s.as_bytes()))
    }

    /// Assert that `records` hash to the "single" and "all" values of
    /// `set` in the JSON file `rel` (under the vectors root). Returns
    /// `false` (after the loud skip) when the file is absent.
    pub fn check_hashes(rel: &str, set: &str, records: &[String]) -> bool {
        let Some(v) = crate::vectors::json(rel) else {
            return false;
        };
        let want = |which: &str| {
            v[set][which]
                .as_str()
                .unwrap_or_else(|| panic!("{rel}: no {set}/{which}"))
                .to_string()
        };
        assert_eq!(sha(&records[0]), want("single"), "{set} single");
        assert_eq!(sha(&records.join("\n")), want("all"), "{set} all");
        true
    }
}

pub mod vectors {
    //! Locating and reading the shared vectors.
    use std::path::PathBuf;

    /// The workspace's root folder.
    pub fn workspace() -> PathBuf {
        PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
    }

    /// The vectors root, the first of:
    /// 1. `PQKIT_VECTORS`, when set;
    /// 2. the repository's `vectors/`, when `scripts/fetch-vectors.sh` has
    ///    filled it (it writes `vectors/SHA256SUMS` only after every file
    ///    arrived with the manifest's sha256);
    /// 3. `../shared/vectors` beside the workspace, when it exists;
    /// 4. else the repository's `vectors/` (absent: the tests then say so,
    ///    naming the script).
    pub fn root() -> PathBuf {
        if let Some(p) = std::env::var_os("PQKIT_VECTORS") {
            return p.into();
        }
        let fetched = workspace().join("vectors");
        if fetched.join("SHA256SUMS").is_file() {
            return fetched;
        }
        let shared = workspace().join("../shared/vectors");
        if shared.is_dir() {
            return shared;
        }
        fetched
    }

    /// What to do when the vectors are missing.
    pub const FETCH_HINT: &str = "run `bash scripts/fetch-vectors.sh` (downloads them into \
        vectors/ and checks every sha256 against scripts/vectors.tsv), or set PQKIT_VECTORS";

    /// Whether this run is CI (`CI=true`), where missing vectors fail.
    pub fn in_ci() -> bool {
        std::env::var("CI").as_deref() == Ok("true")
    }

    /// Report a missing vector path: a panic under CI, else a loud line on
    /// stderr (the caller then skips).
    pub fn missing(what: &std::path::Path) {
        assert!(
            !in_ci(),
            "test vectors not found at {} (CI=true): {FETCH_HINT}",
            what.display()
        );
        // Straight to the process's stderr: libtest captures `eprintln!`
        // of a passing test, and a skip must be seen.
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "\n!!!!! SKIPPED: test vectors not found at {}: {FETCH_HINT} !!!!!\n",
            what.display()
        );
    }

    /// `root()/rel` if it exists (file or folder); else reported as missing.
    pub fn path(rel: &str) -> Option<PathBuf> {
        let p = root().join(rel);
        if p.exists() {
            Some(p)
        } else {
            missing(&p);
            None
        }
    }

    /// The text of `root()/rel`, if present.
    pub fn read(rel: &str) -> Option<String> {
        let p = path(rel)?;
        Some(std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
    }

    /// The JSON of `root()/rel`, if present.
    pub fn json(rel: &str) -> Option<serde_json::Value> {
        read(rel).map(|t| serde_json::from_str(&t).expect("valid JSON"))
    }

    /// A JSON hex string as bytes.
    pub fn hex(v: &serde_json::Value) -> Vec<u8> {
        hex::decode(v.as_str().expect("hex string")).expect("valid hex")
    }
}

pub mod acvp {
    //! NIST ACVP vector sets: a `prompt.json` and its `expectedResults.json`.
    use std::collections::HashMap;

    use serde_json::Value;

    /// One test case: its group, the prompt's test and the expected result.
    #[derive(Clone, Copy, Debug)]
    pub struct Case<'a> {
        /// The prompt's test group (`parameterSet`, `tgId`, ...).
        pub group: &'a Value,
        /// The prompt's test (`tcId`, inputs).
        pub test: &'a Value,
        /// The expected result with the same `(tgId, tcId)`.
        pub expected: &'a Value,
    }

    /// A loaded ACVP vector set.
    #[derive(Debug)]
    pub struct VectorSet {
        prompt: Value,
        expected: HashMap<(u64, u64), Value>,
    }

    impl VectorSet {
        /// Load `dir/prompt.json` and `dir/expectedResults.json` (relative
        /// to the vectors root), if present.
        pub fn load(dir: &str) -> Option<Self> {
            let prompt = super::vectors::json(&format!("{dir}/prompt.json"))?;
            let results = super::vectors::json(&format!("{dir}/expectedResults.json"))?;
            let mut expected = HashMap::new();
            for g in results["testGroups"].as_array().expect("testGroups") {
                let tg = g["tgId"].as_u64().expect("tgId");
                for t in g["tests"].as_array().expect("tests") {
                    expected.insert((tg, t["tcId"].as_u64().expect("tcId")), t.clone());
                }
            }
            Some(VectorSet { prompt, expected })
        }

        /// Every case, in the prompt's order.
        pub fn cases(&self) -> Vec<Case<'_>> {
            let mut out = Vec::new();
            for group in self.prompt["testGroups"].as_array().expect("testGroups") {
                let tg = group["tgId"].as_u64().expect("tgId");
                for test in group["tests"].as_array().expect("tests") {
                    let tc = test["tcId"].as_u64().expect("tcId");
                    let expected = self
                        .expected
                        .get(&(tg, tc))
                        .unwrap_or_else(|| panic!("no expected result for tgId {tg} tcId {tc}"));
                    out.push(Case {
                        group,
                        test,
                        expected,
                    });
                }
            }
            out
        }
    }
}

pub mod rsp {
    //! The NIST `.rsp` KAT format: blank-line separated records of
    //! `name = value` lines (hex values), `#` comment lines.
    use std::collections::BTreeMap;

    /// One record: field name to value text.
    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    pub struct Record(pub BTreeMap<String, String>);

    impl Record {
        /// Whether the record has a field.
        pub fn has(&self, name: &str) -> bool {
            self.0.contains_key(name)
        }
        /// The text of a field.
        pub fn text(&self, name: &str) -> &str {
            self.0
                .get(name)
                .unwrap_or_else(|| panic!("record has no field {name}"))
        }
        /// A hex field as bytes.
        pub fn hex(&self, name: &str) -> Vec<u8> {
            hex::decode(self.text(name)).unwrap_or_else(|e| panic!("field {name}: {e}"))
        }
        /// A decimal field.
        pub fn number(&self, name: &str) -> usize {
            self.text(name)
                .parse()
                .unwrap_or_else(|e| panic!("field {name}: {e}"))
        }
    }

    /// Parse the records of an `.rsp` text (records need a `count` field).
    pub fn parse(text: &str) -> Vec<Record> {
        let mut out = Vec::new();
        let mut cur = Record::default();
        for line in text.lines().chain(std::iter::once("")) {
            let line = line.trim();
            if line.starts_with('#') {
                continue;
            }
            if let Some((k, v)) = line.split_once(" = ") {
                cur.0.insert(k.trim().to_string(), v.trim().to_string());
            } else if line.is_empty() && !cur.0.is_empty() {
                if cur.has("count") {
                    out.push(std::mem::take(&mut cur));
                } else {
                    cur = Record::default();
                }
            }
        }
        out
    }

    /// The records of `root()/rel`, if present.
    pub fn load(rel: &str) -> Option<Vec<Record>> {
        super::vectors::read(rel).map(|t| parse(&t))
    }

    #[cfg(test)]
    mod tests {
        #[test]
        fn parses_records() {
            let r = super::parse("# title\n\ncount = 0\nseed = 00ff\n\ncount = 1\nmlen = 3\n");
            assert_eq!(r.len(), 2);
            assert_eq!(r[0].hex("seed"), [0, 255]);
            assert_eq!(r[1].number("mlen"), 3);
            assert_eq!(r[1].number("count"), 1);
        }
    }
}

pub mod rng {
    //! Deterministic test randomness.

    /// xorshift64* randomness for tests: reproducible, never for real keys.
    #[derive(Clone, Debug)]
    pub struct TestRng(pub u64);

    impl TestRng {
        /// The next 64 bits.
        pub fn next_u64(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        /// Fill `out`, one output per byte.
        pub fn fill(&mut self, out: &mut [u8]) {
            for b in out {
                *b = self.next_u64() as u8;
            }
        }
        /// `N` fresh bytes.
        pub fn bytes<const N: usize>(&mut self) -> [u8; N] {
            let mut b = [0u8; N];
            self.fill(&mut b);
            b
        }
    }

    impl rand_core::TryRng for TestRng {
        type Error = core::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(self.next_u64() as u32)
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            Ok(self.next_u64())
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            self.fill(dst);
            Ok(())
        }
    }
    impl rand_core::TryCryptoRng for TestRng {}
}
