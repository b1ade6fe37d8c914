//! PKCS#8 and SPKI (RFC 8410, id-X25519 = 1.3.101.110): the exact DER of
//! RFC 7748's example keys, round trips (DER and PEM), and rejections.
#![cfg(feature = "pem")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqkit_x25519::pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding};
use pqkit_x25519::spki::{DecodePublicKey, EncodePublicKey};
use pqkit_x25519::{ALGORITHM_OID, PublicKey, StaticSecret};

fn hex(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap()
}

const ALICE: &str = "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a";
const ALICE_PUBLIC: &str = "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a";

fn alice() -> StaticSecret {
    StaticSecret::from_slice(&hex(ALICE)).unwrap()
}

#[test]
fn der_is_rfc_8410() {
    assert_eq!(ALGORITHM_OID.to_string(), "1.3.101.110");
    let sk = alice();
    // OneAsymmetricKey v1: version 0, AlgorithmIdentifier { id-X25519 },
    // privateKey OCTET STRING { OCTET STRING (32) }.
    let v1 = hex(&format!("302e020100300506032b656e04220420{ALICE}"));
    assert_eq!(sk.to_pkcs8_der().unwrap().as_bytes(), &v1[..]);
    // v2 adds [1] publicKey.
    let v2 = hex(&format!(
        "3051020101300506032b656e04220420{ALICE}812100{ALICE_PUBLIC}"
    ));
    assert_eq!(sk.to_pkcs8_der_v2().unwrap().as_bytes(), &v2[..]);
    let spki = hex(&format!("302a300506032b656e032100{ALICE_PUBLIC}"));
    let pk = PublicKey::from(&sk);
    assert_eq!(pk.to_public_key_der().unwrap().as_bytes(), &spki[..]);

    for der in [&v1, &v2] {
        assert_eq!(
            StaticSecret::from_pkcs8_der(der).unwrap().to_bytes(),
            sk.to_bytes()
        );
    }
    assert_eq!(PublicKey::from_public_key_der(&spki).unwrap(), pk);
}

#[test]
fn pem_round_trips() {
    let sk = StaticSecret::from([0xa7; 32]);
    let pem = sk.to_pkcs8_pem(LineEnding::LF).unwrap();
    assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----\n"));
    assert_eq!(
        StaticSecret::from_pkcs8_pem(&pem).unwrap().to_bytes(),
        [0xa7; 32]
    );
    let pk = PublicKey::from(&sk);
    let pem = pk.to_public_key_pem(LineEnding::LF).unwrap();
    assert!(pem.starts_with("-----BEGIN PUBLIC KEY-----\n"));
    assert_eq!(PublicKey::from_public_key_pem(&pem).unwrap(), pk);
}

#[test]
fn rejections() {
    // Another algorithm (id-Ed25519, 1.3.101.112) with the same layout.
    let ed = hex(&format!("302e020100300506032b657004220420{ALICE}"));
    assert!(StaticSecret::from_pkcs8_der(&ed).is_err());
    let ed_spki = hex(&format!("302a300506032b6570032100{ALICE_PUBLIC}"));
    assert!(PublicKey::from_public_key_der(&ed_spki).is_err());
    // A v2 key whose public key is not the private key's.
    let mut wrong = ALICE_PUBLIC.to_string();
    wrong.replace_range(0..2, "86");
    let v2 = hex(&format!(
        "3051020101300506032b656e04220420{ALICE}812100{wrong}"
    ));
    assert!(StaticSecret::from_pkcs8_der(&v2).is_err());
    // A 31-byte private key, and a 31-byte public key.
    let short = hex(&format!("302d020100300506032b656e0421041f{}", &ALICE[..62]));
    assert!(StaticSecret::from_pkcs8_der(&short).is_err());
    let short = hex(&format!("3029300506032b656e032000{}", &ALICE_PUBLIC[..62]));
    assert!(PublicKey::from_public_key_der(&short).is_err());
    // Parameters present (NULL) in the AlgorithmIdentifier.
    let params = hex(&format!("3030020100300706032b656e050004220420{ALICE}"));
    assert!(StaticSecret::from_pkcs8_der(&params).is_err());
}

#[test]
fn random_keys_round_trip() {
    let mut rng = pqkit_testkit::drbg::KatDrbg::new(&[3; 48]);
    for _ in 0..64 {
        let sk = StaticSecret::random_from_rng(&mut rng);
        let back = StaticSecret::from_pkcs8_der(sk.to_pkcs8_der().unwrap().as_bytes()).unwrap();
        assert_eq!(back.to_bytes(), sk.to_bytes());
        let back = StaticSecret::from_pkcs8_der(sk.to_pkcs8_der_v2().unwrap().as_bytes()).unwrap();
        assert_eq!(back.to_bytes(), sk.to_bytes());
        let pk = PublicKey::from(&sk);
        let back = PublicKey::from_public_key_der(pk.to_public_key_der().unwrap().as_bytes());
        assert_eq!(back.unwrap(), pk);
    }
}
