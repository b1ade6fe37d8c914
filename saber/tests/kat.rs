//! The NIST round-3 KATs: all 100 records of each variant's
//! `PQCkemKAT_<sk bytes>.rsp` reproduced byte for byte through the
//! RNG-driven API (`Generate::try_generate_from_rng` draws seed_A, seed_s
//! and z with three 32-byte calls, encapsulation draws 32 bytes, as the
//! reference does) with the KAT AES-256 CTR_DRBG, and the sha256 values of
//! `kat-hashes.json` ("single": the first record; "file": the whole file).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqkit_saber::{DecapsulationKey, FireSaber, Generate, LightSaber, ParameterSet, Saber};
use pqkit_testkit::{kat, vectors};

/// The `pqcgenkat_kem` example's generator, checked here too.
#[path = "../examples/pqcgenkat_kem.rs"]
mod genkat;
use sha2::{Digest, Sha256};

fn records<P: ParameterSet>(count: usize) -> Vec<String> {
    kat::records(count, |i, seed, _, drbg| {
        let dk = DecapsulationKey::<P>::try_generate_from_rng(drbg).unwrap();
        let (ct, ss) = dk
            .encapsulation_key()
            .try_encapsulate_with_rng(drbg)
            .unwrap();
        assert_eq!(dk.decapsulate_bytes(&ct).unwrap(), ss);
        assert_eq!(
            DecapsulationKey::<P>::decapsulate_from_key_bytes(dk.as_bytes(), &ct).unwrap(),
            ss
        );
        let up = |b: &[u8]| hex::encode_upper(b);
        format!(
            "count = {i}\nseed = {}\npk = {}\nsk = {}\nct = {}\nss = {}\n",
            up(seed),
            up(dk.encapsulation_key().as_bytes()),
            up(dk.as_bytes()),
            up(&ct),
            up(ss.as_bytes())
        )
    })
}

fn check<P: ParameterSet>(file: &str) {
    let Some(want_file) = vectors::read(&format!("saber/{file}")) else {
        return;
    };
    let hashes = vectors::json("saber/kat-hashes.json").expect("kat-hashes.json");
    let recs = records::<P>(100);
    let mut text = format!("# {}\n\n", P::NAME);
    for r in &recs {
        text.push_str(r);
        text.push('\n');
    }
    // Record by record first, for a readable failure.
    for (ours, theirs) in recs.iter().zip(want_file.split("\n\n").skip(1)) {
        assert_eq!(ours.trim_end(), theirs.trim_end(), "{file}");
    }
    assert_eq!(text, want_file, "{file}: whole file");
    // The example writes the same file.
    let (req, rsp) = genkat::files::<P>();
    assert_eq!(rsp, want_file, "{file}: pqcgenkat_kem example");
    assert!(req.starts_with("count = 0\nseed = 061550234D158C5E"));
    assert_eq!(req.matches("count = ").count(), 100);
    let sha = |s: &str| hex::encode(Sha256::digest(s.as_bytes()));
    assert_eq!(
        sha(&recs[0]),
        hashes[file]["single"].as_str().unwrap(),
        "{file} single"
    );
    assert_eq!(
        sha(&text),
        hashes[file]["file"].as_str().unwrap(),
        "{file} file"
    );
}

#[test]
fn lightsaber_kat() {
    check::<LightSaber>("LightSaber/PQCkemKAT_1568.rsp");
}

#[test]
fn saber_kat() {
    check::<Saber>("Saber/PQCkemKAT_2304.rsp");
}

#[test]
fn firesaber_kat() {
    check::<FireSaber>("FireSaber/PQCkemKAT_3040.rsp");
}
