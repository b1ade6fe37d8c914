//! RFC 8032 vectors (Ed25519, Ed25519ctx, Ed25519ph), all 1024 lines of
//! SUPERCOP `sign.input`, and the RFC 8410 key files.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use pqkit_ed25519::pkcs8::{DecodePrivateKey, EncodePrivateKey};
use pqkit_ed25519::spki::{DecodePublicKey, EncodePublicKey};
use pqkit_ed25519::{Signature, SigningKey, VerifyingKey};

fn dir() -> Option<PathBuf> {
    pqkit_testkit::vectors::path("ed25519")
}

fn h(v: &serde_json::Value) -> Vec<u8> {
    hex::decode(v.as_str().unwrap_or("")).unwrap()
}

#[test]
fn rfc8032_all_variants() {
    let Some(d) = dir() else { return };
    let mut n = 0;
    for (file, kind) in [
        ("ed25519.json", 0),
        ("ed25519ctx.json", 1),
        ("ed25519ph.json", 2),
    ] {
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(d.join("rfc8032").join(file)).unwrap())
                .unwrap();
        for t in v.as_array().unwrap() {
            let sk = SigningKey::from_slice(&h(&t["secretKey"])).unwrap();
            assert_eq!(&sk.verifying_key().to_bytes()[..], &h(&t["publicKey"])[..]);
            let msg = h(&t["message"]);
            let ctx = h(&t["context"]);
            let want = Signature::try_from(&h(&t["signature"])[..]).unwrap();
            let vk = sk.verifying_key();
            match kind {
                0 => {
                    assert_eq!(signature::Signer::sign(&sk, &msg), want, "{}", t["name"]);
                    vk.verify_bytes(&msg, &want).unwrap();
                    vk.verify_strict(&msg, &want).unwrap();
                    vk.verify_zip215(&msg, &want).unwrap();
                }
                1 => {
                    assert_eq!(
                        sk.sign_with_context(&msg, &ctx).unwrap(),
                        want,
                        "{}",
                        t["name"]
                    );
                    vk.verify_with_context(&msg, &ctx, &want).unwrap();
                    assert!(vk.verify_bytes(&msg, &want).is_err());
                }
                _ => {
                    assert_eq!(sk.sign_prehash(&msg, &ctx).unwrap(), want, "{}", t["name"]);
                    vk.verify_prehash(&msg, &ctx, &want).unwrap();
                }
            }
            n += 1;
        }
    }
    assert_eq!(n, 10);
}

#[test]
fn supercop_sign_input_all_1024_lines() {
    let Some(d) = dir() else { return };
    let text = std::fs::read_to_string(d.join("supercop/sign.input")).unwrap();
    let mut n = 0;
    for line in text.lines() {
        let f: Vec<&str> = line.split(':').collect();
        let sk_pk = hex::decode(f[0]).unwrap();
        let pk = hex::decode(f[1]).unwrap();
        let msg = hex::decode(f[2]).unwrap();
        let sm = hex::decode(f[3]).unwrap();
        let sk = SigningKey::from_slice(&sk_pk[..32]).unwrap();
        assert_eq!(&sk.verifying_key().to_bytes()[..], &pk[..]);
        let sig = signature::Signer::sign(&sk, &msg);
        assert_eq!(&sig.to_bytes()[..], &sm[..64], "line {n}");
        let vk = VerifyingKey::from_bytes(&pk.try_into().unwrap()).unwrap();
        vk.verify_strict(&msg, &sig).unwrap();
        n += 1;
    }
    assert_eq!(n, 1024);
}

#[test]
fn rfc8410_key_files() {
    let Some(d) = dir() else { return };
    let d = d.join("rfc8410");
    let v1 = std::fs::read(d.join("pkcs8-v1.der")).unwrap();
    let v2 = std::fs::read(d.join("pkcs8-v2.der")).unwrap();
    let pubkey = std::fs::read(d.join("pubkey.der")).unwrap();
    let sk1 = SigningKey::from_pkcs8_der(&v1).unwrap();
    let sk2 = SigningKey::from_pkcs8_der(&v2).unwrap();
    let vk = VerifyingKey::from_public_key_der(&pubkey).unwrap();
    assert_eq!(sk1.verifying_key(), vk);
    // RFC 8410's v2 example carries attributes and the public key of its own
    // private key (the two examples are different keys).
    assert_eq!(sk2.verifying_key().to_bytes().len(), 32);
    // Our v1 encoding of the v1 key is byte-identical to the file.
    assert_eq!(sk1.to_pkcs8_der_v1().unwrap().as_bytes(), &v1[..]);
    assert_eq!(vk.to_public_key_der().unwrap().as_bytes(), &pubkey[..]);
    // PEM: the v1 and public files parse; the v2 file's footer has an extra
    // trailing '-' (kept as upstream), which a strict RFC 7468 parser rejects.
    let pem1 = std::fs::read_to_string(d.join("pkcs8-v1.pem")).unwrap();
    assert_eq!(
        SigningKey::from_pkcs8_pem(&pem1).unwrap().to_bytes(),
        sk1.to_bytes()
    );
    let pem2 = std::fs::read_to_string(d.join("pkcs8-v2.pem")).unwrap();
    assert!(SigningKey::from_pkcs8_pem(&pem2).is_err());
    // v2 round trip with the public key checked
    let ours = sk2.to_pkcs8_der().unwrap();
    assert_eq!(
        SigningKey::from_pkcs8_der(ours.as_bytes())
            .unwrap()
            .to_bytes(),
        sk2.to_bytes()
    );
    let mut bad = ours.as_bytes().to_vec();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    assert!(
        SigningKey::from_pkcs8_der(&bad).is_err(),
        "mismatching public key accepted"
    );
}
