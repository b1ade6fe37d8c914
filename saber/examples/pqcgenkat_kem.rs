//! NIST PQCgenKAT_kem for Saber: writes `PQCkemKAT_<sk bytes>.req` and
//! `.rsp` for one variant into the current directory, from the standard
//! DRBG seed (entropy `0x00..0x2f`), byte-identical to the round-3 KAT
//! files (the `kat` test checks the text against the official KATs under the vectors root).
//!
//! `cargo run --release -p pqkit-saber --example pqcgenkat_kem -- [lightsaber|saber|firesaber]`
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqkit_saber::{DecapsulationKey, FireSaber, Generate, LightSaber, ParameterSet, Saber};
use pqkit_testkit::kat;

/// The `.req` and `.rsp` texts of variant `P` (100 records).
pub fn files<P: ParameterSet>() -> (String, String) {
    let mut req = String::new();
    let records = kat::records(100, |i, seed, _, drbg| {
        let up = |b: &[u8]| hex::encode_upper(b);
        req.push_str(&format!(
            "count = {i}\nseed = {}\npk =\nsk =\nct =\nss =\n\n",
            up(seed)
        ));
        let dk = DecapsulationKey::<P>::try_generate_from_rng(drbg).expect("DRBG");
        let (ct, ss) = dk
            .encapsulation_key()
            .try_encapsulate_with_rng(drbg)
            .expect("DRBG");
        format!(
            "count = {i}\nseed = {}\npk = {}\nsk = {}\nct = {}\nss = {}\n",
            up(seed),
            up(dk.encapsulation_key().as_bytes()),
            up(dk.as_bytes()),
            up(&ct),
            up(ss.as_bytes())
        )
    });
    let mut rsp = format!("# {}\n\n", P::NAME);
    for r in &records {
        rsp.push_str(r);
        rsp.push('\n');
    }
    (req, rsp)
}

#[allow(dead_code)] // also compiled into the `kat` test, which has its own main
fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "saber".into());
    let (req, rsp, sk_len) = match which.as_str() {
        "lightsaber" => {
            let (a, b) = files::<LightSaber>();
            (a, b, LightSaber::SK_LEN)
        }
        "saber" => {
            let (a, b) = files::<Saber>();
            (a, b, Saber::SK_LEN)
        }
        "firesaber" => {
            let (a, b) = files::<FireSaber>();
            (a, b, FireSaber::SK_LEN)
        }
        other => {
            eprintln!("unknown variant {other:?} (lightsaber, saber, firesaber)");
            std::process::exit(2);
        }
    };
    for (ext, text) in [("req", req), ("rsp", rsp)] {
        let name = format!("PQCkemKAT_{sk_len}.{ext}");
        std::fs::write(&name, text).unwrap_or_else(|e| panic!("{name}: {e}"));
        println!("wrote {name}");
    }
}
