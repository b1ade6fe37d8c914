//! The CLI verifies the round-3 Falcon KAT signatures (detached form:
//! header `0x30 + logn`, nonce, compressed `s2`) with `--falcon-original`,
//! from a public key given as SPKI DER, and rejects them without the flag
//! or with a flipped bit (exit 1).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Command;

use spki::EncodePublicKey;

/// `(pk, msg, detached signature)` of a KAT record.
type Record = (Vec<u8>, Vec<u8>, Vec<u8>);

fn records(file: &str, count: usize) -> Option<Vec<Record>> {
    let mut out = Vec::new();
    for rec in pqkit_testkit::rsp::load(&format!("falcon/{file}"))?
        .iter()
        .filter(|r| r.has("sm"))
        .take(count)
    {
        let (pk, msg, sm) = (rec.hex("pk"), rec.hex("msg"), rec.hex("sm"));
        eprintln!("{file}: record with a {}-byte message", msg.len());
        // sm = sig_len (2, big-endian) || nonce (40) || msg || 0x20+logn || s2
        let body = &sm[42 + msg.len()..];
        let mut sig = vec![0x10 + body[0]];
        sig.extend_from_slice(&sm[2..42]);
        sig.extend_from_slice(&body[1..]);
        out.push((pk, msg, sig));
    }
    Some(out)
}

fn verify(dir: &std::path::Path, sig: &[u8], extra: &[&str]) -> Option<i32> {
    std::fs::write(dir.join("sig"), sig).unwrap();
    let d = |f: &str| dir.join(f).to_str().unwrap().to_owned();
    let mut args = vec![
        "verify".to_owned(),
        "-p".into(),
        d("pub.der"),
        "-i".into(),
        d("msg"),
        "-s".into(),
        d("sig"),
    ];
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    Command::new(env!("CARGO_BIN_EXE_pqkit"))
        .args(&args)
        .output()
        .unwrap()
        .status
        .code()
}

#[test]
fn round3_kat_signatures_verify_through_the_cli() {
    let dir = std::env::temp_dir().join(format!("pqkit-falcon-kat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (file, logn) in [("falcon512-KAT.rsp", 9), ("falcon1024-KAT.rsp", 10)] {
        let Some(recs) = records(file, 3) else { return };
        for (pk, msg, sig) in recs {
            let spki = if logn == 9 {
                pqkit_fn_dsa::fn_dsa_512::VerifyingKey::from_bytes(&pk)
                    .unwrap()
                    .to_public_key_der()
            } else {
                pqkit_fn_dsa::fn_dsa_1024::VerifyingKey::from_bytes(&pk)
                    .unwrap()
                    .to_public_key_der()
            }
            .unwrap();
            std::fs::write(dir.join("pub.der"), spki.as_bytes()).unwrap();
            std::fs::write(dir.join("msg"), &msg).unwrap();
            assert_eq!(
                verify(&dir, &sig, &["--falcon-original"]),
                Some(0),
                "{file}"
            );
            // FN-DSA hashing differs: invalid, not an error.
            assert_eq!(verify(&dir, &sig, &[]), Some(1), "{file}");
            let mut bad = sig.clone();
            let last = bad.len() - 3;
            bad[last] ^= 0x10;
            assert_eq!(
                verify(&dir, &bad, &["--falcon-original"]),
                Some(1),
                "{file}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
