//! Official vectors: NIST ACVP (keyGen, encapsulation, decapsulation, both
//! key checks), C2SP CCTV (strcmp, unlucky sample, invalid moduli), and the
//! accumulated test of Go's crypto/mlkem (10,000 iterations, no files).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Read;
use std::path::PathBuf;

use pqkit_ml_kem::kem::{Decapsulate, KeyExport};
use pqkit_ml_kem::{
    DecapsulationKey, EncapsulationKey, Error, ExpandedDecapsulationKey, MlKem512, MlKem768,
    MlKem1024, ParameterSet, hazmat,
};
use pqkit_testkit::acvp::VectorSet;
use pqkit_testkit::vectors::{self, hex as hx};
use serde_json::Value;

/// The ML-KEM vectors folder, if present.
fn vectors_dir() -> Option<PathBuf> {
    vectors::path("ml-kem")
}

/// Every case of an ACVP set under ml-kem/acvp, if present.
fn acvp(name: &str) -> Option<VectorSet> {
    VectorSet::load(&format!("ml-kem/acvp/{name}"))
}

/// Run `f::<P>` for the parameter set named `name`.
macro_rules! by_set {
    ($name:expr, $f:ident ( $($arg:expr),* )) => {
        match $name {
            "ML-KEM-512" => $f::<MlKem512>($($arg),*),
            "ML-KEM-768" => $f::<MlKem768>($($arg),*),
            "ML-KEM-1024" => $f::<MlKem1024>($($arg),*),
            other => panic!("unknown set {other}"),
        }
    };
}

fn keygen_case<P: ParameterSet>(t: &Value, r: &Value) {
    let d: [u8; 32] = hx(&t["d"]).try_into().unwrap();
    let z: [u8; 32] = hx(&t["z"]).try_into().unwrap();
    let (dk, ek) = hazmat::keygen_internal::<P>(&d, &z);
    assert_eq!(ek.as_bytes(), &hx(&r["ek"])[..], "ek, tcId {}", t["tcId"]);
    assert_eq!(
        dk.expanded_bytes(),
        &hx(&r["dk"])[..],
        "dk, tcId {}",
        t["tcId"]
    );
}

#[test]
fn acvp_keygen() {
    let Some(v) = acvp("ML-KEM-keyGen-FIPS203") else {
        return;
    };
    let cases = v.cases();
    for c in &cases {
        by_set!(
            c.group["parameterSet"].as_str().unwrap(),
            keygen_case(c.test, c.expected)
        );
    }
    assert_eq!(cases.len(), 75);
}

fn encaps_case<P: ParameterSet>(t: &Value, r: &Value) {
    let ek = EncapsulationKey::<P>::from_bytes(&hx(&t["ek"])).unwrap();
    let m: [u8; 32] = hx(&t["m"]).try_into().unwrap();
    let (c, k) = hazmat::encaps_internal(&ek, &m);
    assert_eq!(&c[..], &hx(&r["c"])[..], "c, tcId {}", t["tcId"]);
    assert_eq!(&k[..], &hx(&r["k"])[..], "k, tcId {}", t["tcId"]);
}

fn decaps_case<P: ParameterSet>(t: &Value, r: &Value) {
    let dk = ExpandedDecapsulationKey::<P>::from_expanded(&hx(&t["dk"])).unwrap();
    let k = dk.decapsulate_bytes(&hx(&t["c"])).unwrap();
    assert_eq!(&k[..], &hx(&r["k"])[..], "k, tcId {}", t["tcId"]);
}

fn ek_check_case<P: ParameterSet>(t: &Value, r: &Value) {
    let ok = EncapsulationKey::<P>::from_bytes(&hx(&t["ek"])).is_ok();
    assert_eq!(ok, r["testPassed"].as_bool().unwrap(), "tcId {}", t["tcId"]);
}

fn dk_check_case<P: ParameterSet>(t: &Value, r: &Value) {
    let ok = ExpandedDecapsulationKey::<P>::from_expanded(&hx(&t["dk"])).is_ok();
    assert_eq!(ok, r["testPassed"].as_bool().unwrap(), "tcId {}", t["tcId"]);
}

#[test]
fn acvp_encap_decap_and_key_checks() {
    let Some(v) = acvp("ML-KEM-encapDecap-FIPS203") else {
        return;
    };
    let mut counts = std::collections::BTreeMap::new();
    for c in v.cases() {
        let set = c.group["parameterSet"].as_str().unwrap();
        let func = c.group["function"].as_str().unwrap();
        let (t, exp) = (c.test, c.expected);
        {
            match func {
                "encapsulation" => by_set!(set, encaps_case(t, exp)),
                "decapsulation" => by_set!(set, decaps_case(t, exp)),
                "encapsulationKeyCheck" => by_set!(set, ek_check_case(t, exp)),
                "decapsulationKeyCheck" => by_set!(set, dk_check_case(t, exp)),
                other => panic!("unknown function {other}"),
            }
            *counts.entry(func.to_string()).or_insert(0) += 1;
        }
    }
    assert_eq!(counts["encapsulation"], 75);
    assert_eq!(counts["decapsulation"], 30);
    assert_eq!(counts["encapsulationKeyCheck"], 30);
    assert_eq!(counts["decapsulationKeyCheck"], 30);
}

/// `name = hex` lines of a CCTV text file.
fn cctv_fields(rel: &str) -> Option<std::collections::HashMap<String, Vec<u8>>> {
    let text = vectors::read(&format!("ml-kem/{rel}"))?;
    Some(
        text.lines()
            .filter_map(|l| l.split_once(" = "))
            .filter_map(|(k, v)| Some((k.trim().to_string(), hex::decode(v.trim()).ok()?)))
            .collect(),
    )
}

fn cctv_set<P: ParameterSet>(name: &str) {
    // strcmp: Decaps(dk, c) = K.
    if let Some(f) = cctv_fields(&format!("cctv/strcmp/{name}.txt")) {
        let dk = ExpandedDecapsulationKey::<P>::from_expanded(&f["dk"]).unwrap();
        assert_eq!(
            &dk.decapsulate_bytes(&f["c"]).unwrap()[..],
            &f["K"][..],
            "strcmp {name}"
        );
    }
    // unlucky sample: Encaps_internal(ek, m) = (c, K), and Decaps(dk, c) = K.
    if let Some(f) = cctv_fields(&format!("cctv/unluckysample/{name}.txt")) {
        let ek = EncapsulationKey::<P>::from_bytes(&f["ek"]).unwrap();
        let (c, k) = hazmat::encaps_internal(&ek, &f["m"].clone().try_into().unwrap());
        assert_eq!(&c[..], &f["c"][..], "unlucky c {name}");
        assert_eq!(&k[..], &f["K"][..], "unlucky K {name}");
        let dk = ExpandedDecapsulationKey::<P>::from_expanded(&f["dk"]).unwrap();
        assert_eq!(&dk.decapsulate_bytes(&f["c"]).unwrap()[..], &f["K"][..]);
    }
    // every key in modulus/ is invalid.
    if let Some(dir) = vectors_dir() {
        let mut gz = String::new();
        flate2::read::GzDecoder::new(
            std::fs::File::open(dir.join(format!("cctv/modulus/{name}.txt.gz"))).unwrap(),
        )
        .read_to_string(&mut gz)
        .unwrap();
        let mut n = 0;
        for line in gz.lines().filter(|l| !l.trim().is_empty()) {
            let ek = hex::decode(line.trim()).unwrap();
            assert_eq!(
                EncapsulationKey::<P>::from_bytes(&ek).err(),
                Some(Error::InvalidEncapsulationKey)
            );
            n += 1;
        }
        assert!(n >= 775, "{name}: {n} invalid keys");
    }
}

#[test]
fn cctv_strcmp_unlucky_and_invalid_moduli() {
    cctv_set::<MlKem512>("ML-KEM-512");
    cctv_set::<MlKem768>("ML-KEM-768");
    cctv_set::<MlKem1024>("ML-KEM-1024");
}

/// Go's TestAccumulated (FIPS 203 final, ML-KEM-768), 10,000 iterations;
/// expected value from ml-kem/accumulated.json under the vectors root.
#[test]
fn accumulated_go_10000() {
    use pqkit_common::keccak::Shake128;
    let mut s = Shake128::default().finalize_xof();
    let mut o = Shake128::default();
    for _ in 0..10_000 {
        let mut seed = [0u8; 64];
        s.read(&mut seed);
        let dk = DecapsulationKey::<MlKem768>::from_seed(seed.into());
        let ek = dk.encapsulation_key().clone();
        o.update(&ek.to_bytes());
        let mut m = [0u8; 32];
        s.read(&mut m);
        let (c, k) = hazmat::encaps_internal(&ek, &m);
        o.update(&c);
        o.update(&k);
        assert_eq!(dk.decapsulate(&c), k.to_shared_key());
        let mut c1 = [0u8; 1088];
        s.read(&mut c1);
        let k1 = dk.decapsulate_bytes(&c1).unwrap();
        o.update(&k1);
    }
    let mut out = [0u8; 32];
    o.finalize_xof().read(&mut out);
    assert_eq!(
        hex::encode(out),
        "8a518cc63da366322a8e7a818c7a0d63483cb3528d34a4cf42f35d5ad73f22fc"
    );
}
