//! C2SP CCTV accumulated tests (expected values from
//! ml-dsa/accumulated.json under the vectors root).

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use pqkit_common::keccak::Shake128;
use pqkit_common::q8380417::{Gamma2, Q, decompose, power2round, use_hint};
use pqkit_ml_dsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey};
use pqkit_testkit::vectors;

fn accumulate<P: ParameterSet>(iterations: usize) -> String {
    let mut src = Shake128::default().finalize_xof();
    let mut acc = Shake128::default();
    for _ in 0..iterations {
        let mut seed = [0u8; 32];
        src.read(&mut seed);
        let sk = SigningKey::<P>::from_seed(&seed.into());
        acc.update(sk.verifying_key().as_bytes());
        let sig = sk.sign_deterministic(b"", b"").expect("sign");
        acc.update(sig.as_bytes());
        sk.verifying_key()
            .verify_multipart_with_context(&[b""], b"", sig.as_bytes())
            .expect("verify");
    }
    let mut out = [0u8; 32];
    acc.finalize_xof().read(&mut out);
    hex::encode(out)
}

#[test]
fn keygen_sign_100_iterations() {
    let Some(j) = vectors::json("ml-dsa/accumulated.json") else {
        return;
    };
    let e = &j["keygen_sign"]["expected"];
    assert_eq!(
        accumulate::<MlDsa44>(100),
        e["ML-DSA-44"]["100"].as_str().expect("hex")
    );
    assert_eq!(
        accumulate::<MlDsa65>(100),
        e["ML-DSA-65"]["100"].as_str().expect("hex")
    );
    assert_eq!(
        accumulate::<MlDsa87>(100),
        e["ML-DSA-87"]["100"].as_str().expect("hex")
    );
}

/// The exhaustive field-operation test over every r in Z_q (about 100M
/// lines of SHAKE128 input; a couple of seconds in release).
#[test]
fn field_operations_exhaustive() {
    let Some(j) = vectors::json("ml-dsa/accumulated.json") else {
        return;
    };
    let want = j["field_operations"]["expected"].as_str().expect("hex");
    let mut h = Shake128::default();
    let mut line = Vec::with_capacity(256);
    use std::io::Write;
    for r in 0..Q {
        line.clear();
        let centred = if r > (Q - 1) / 2 { r - Q } else { r };
        let (r1, r0) = power2round(r);
        let r0q = r0.rem_euclid(Q);
        write!(line, "{centred}\n{}\n{r1}\n{r0q}\n", centred.abs()).expect("write");
        for g in [Gamma2::Q88, Gamma2::Q32] {
            let (hi, lo) = decompose(g, r);
            assert_eq!(use_hint(g, r, 0), hi);
            write!(line, "{hi}\n{}\n{lo}\n{}\n", use_hint(g, r, 1), lo.abs()).expect("write");
        }
        h.update(&line);
    }
    let mut out = [0u8; 32];
    h.finalize_xof().read(&mut out);
    assert_eq!(hex::encode(out), want);
}
