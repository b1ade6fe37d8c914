//! Deterministic hostile input, for machines without nightly: the keys and
//! signatures of the official vector files (`vectors::root()`), truncated,
//! extended and with single bits flipped, fed through the fuzz targets'
//! properties (every decoder: a typed error, or a key that re-encodes
//! canonically and works; verification: no panic, nothing else verifies).

use pqkit_testkit::acvp::VectorSet;
use pqkit_testkit::vectors;

/// `(keys-target selector, bytes)` of every key and signature taken from
/// the vector files (the first cases of each set).
fn vector_inputs() -> Vec<(u8, Vec<u8>)> {
    let mut out = Vec::new();
    let per_set = 2;
    // The keys target's selector of an ACVP parameter set.
    let selector = |name: &str| match name {
        "ML-KEM-512" => 0,
        "ML-KEM-768" => 1,
        n if n.starts_with("ML-KEM") => 2,
        "ML-DSA-44" => 3,
        "ML-DSA-65" => 4,
        _ => 5,
    };
    let mut taken = std::collections::HashMap::<(u8, &str), usize>::new();
    let mut take = |sel: u8, kind: &'static str| {
        let n = taken.entry((sel, kind)).or_default();
        *n += 1;
        *n <= per_set
    };
    // ACVP sets: the file, the per-set quota it counts against, and the
    // fields taken from each case.
    let acvp: [(&str, &str, &[&str]); 3] = [
        ("ml-kem/acvp/ML-KEM-keyGen-FIPS203", "keygen", &["ek", "dk"]),
        ("ml-dsa/acvp/ML-DSA-keyGen-FIPS204", "keygen", &["pk", "sk"]),
        ("ml-dsa/acvp/ML-DSA-sigGen-FIPS204", "sig", &["signature"]),
    ];
    for (path, kind, fields) in acvp {
        let Some(set) = VectorSet::load(path) else {
            continue;
        };
        for c in set.cases() {
            let sel = selector(c.group["parameterSet"].as_str().unwrap_or(""));
            if take(sel, kind) {
                for f in fields {
                    out.push((sel, vectors::hex(&c.expected[*f])));
                }
            }
        }
    }
    for (file, sel) in [("falcon512-KAT.rsp", 6u8), ("falcon1024-KAT.rsp", 7)] {
        if let Some(records) = pqkit_testkit::rsp::load(&format!("falcon/{file}")) {
            for r in records.iter().take(per_set) {
                out.push((sel, r.hex("pk")));
                out.push((sel, r.hex("sk")));
            }
        }
    }
    for (set, file, sel) in [
        ("LightSaber", "PQCkemKAT_1568.rsp", 9u8),
        ("Saber", "PQCkemKAT_2304.rsp", 10),
        ("FireSaber", "PQCkemKAT_3040.rsp", 11),
    ] {
        if let Some(records) = pqkit_testkit::rsp::load(&format!("saber/{set}/{file}")) {
            for r in records.iter().take(per_set) {
                out.push((sel, r.hex("pk")));
                out.push((sel, r.hex("sk")));
            }
        }
    }
    if let Some(cases) = vectors::json("ed25519/rfc8032/ed25519.json") {
        for c in cases.as_array().into_iter().flatten().take(per_set) {
            let sk = vectors::hex(&c["secretKey"]);
            let pk = vectors::hex(&c["publicKey"]);
            out.push((12, pk.clone()));
            out.push((12, [sk, pk].concat()));
        }
    }
    for f in [
        "pkcs8-v1.der",
        "pkcs8-v2.der",
        "pubkey.der",
        "pkcs8-v1.pem",
        "pubkey.pem",
    ] {
        if let Some(path) = vectors::path(&format!("ed25519/rfc8410/{f}")) {
            out.push((12, std::fs::read(path).unwrap_or_default()));
        }
    }
    out
}

/// Truncations, extensions and single-bit flips of `b` (the first and
/// last two bytes bit by bit, then about 64 bits spread over the rest).
fn mutations(b: &[u8]) -> Vec<Vec<u8>> {
    let n = b.len();
    let mut out = Vec::new();
    for len in [0, 1, n / 2, n.saturating_sub(1)] {
        out.push(b[..len.min(n)].to_vec());
    }
    out.push([b, &[0]].concat());
    out.push([b, &[0xff]].concat());
    out.push([b, b].concat());
    let mut bits: Vec<usize> = (0..16).chain((8 * n).saturating_sub(16)..8 * n).collect();
    let step = (8 * n / 64).max(1);
    bits.extend((0..8 * n).step_by(step));
    for bit in bits {
        let mut m = b.to_vec();
        m[bit / 8] ^= 1 << (bit % 8);
        out.push(m);
    }
    out
}

#[test]
fn vector_keys_and_signatures_mutated() {
    let inputs = vector_inputs();
    if inputs.is_empty() {
        vectors::missing(&vectors::root());
        return;
    }
    let mut runs = 0;
    for (sel, bytes) in &inputs {
        for m in std::iter::once(bytes.clone()).chain(mutations(bytes)) {
            pqkit_fuzz::keys::run(&[&[*sel][..], &m].concat());
            runs += 1;
        }
    }
    eprintln!("{} vector inputs, {runs} decoder runs", inputs.len());
    assert!(inputs.len() >= 40, "only {} vector inputs", inputs.len());
}

#[test]
fn vector_signatures_mutated_under_fixed_keys() {
    // Arbitrary-signature mode of the verify target: ML-DSA sigGen
    // signatures (mutated) under the target's own keys never verify and
    // never panic; fast and low-memory verification agree.
    let Some(set) = VectorSet::load("ml-dsa/acvp/ML-DSA-sigGen-FIPS204") else {
        vectors::missing(&vectors::root().join("ml-dsa"));
        return;
    };
    let mut runs = 0;
    for c in set.cases().iter().take(12) {
        let sel = match c.group["parameterSet"].as_str().unwrap_or("") {
            "ML-DSA-44" => 0u8,
            "ML-DSA-65" => 1,
            _ => 2,
        };
        let sig = vectors::hex(&c.expected["signature"]);
        for m in mutations(&sig).into_iter().take(40) {
            for mode in 0..3u8 {
                pqkit_fuzz::verify::run(&[&[sel, mode << 1][..], &m].concat());
                runs += 1;
            }
        }
    }
    eprintln!("{runs} verifications");
    assert!(runs > 100);
}
