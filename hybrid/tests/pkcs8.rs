//! X-Wing keys as PKCS#8 and SPKI: the exact bytes (id-XWing, the raw seed
//! and key, as other implementations write them), round trips in DER and
//! PEM, v2 keys, and refusals with typed errors.
#![cfg(feature = "pem")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqkit_hybrid::pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding};
use pqkit_hybrid::spki::{DecodePublicKey, EncodePublicKey};
use pqkit_hybrid::xwing::{DecapsulationKey, EncapsulationKey, kem::Decapsulator, kem::KeyExport};

/// SEQUENCE, version 0, AlgorithmIdentifier { id-XWing }, OCTET STRING (32).
const PKCS8_V1_PREFIX: [u8; 22] = [
    0x30, 0x34, 0x02, 0x01, 0x00, 0x30, 0x0d, 0x06, 0x0b, 0x2b, 0x06, 0x01, 0x04, 0x01, 0x83, 0xe6,
    0x2d, 0x81, 0xc8, 0x7a, 0x04, 0x20,
];

/// SEQUENCE, AlgorithmIdentifier { id-XWing }, BIT STRING (1216 bytes).
const SPKI_PREFIX: [u8; 24] = [
    0x30, 0x82, 0x04, 0xd4, 0x30, 0x0d, 0x06, 0x0b, 0x2b, 0x06, 0x01, 0x04, 0x01, 0x83, 0xe6, 0x2d,
    0x81, 0xc8, 0x7a, 0x03, 0x82, 0x04, 0xc1, 0x00,
];

#[test]
fn exact_encodings() {
    let seed = [0x42u8; 32];
    let dk = DecapsulationKey::from(seed);
    let der = dk.to_pkcs8_der().unwrap();
    assert_eq!(der.as_bytes(), [&PKCS8_V1_PREFIX[..], &seed[..]].concat());
    let pk = dk.encapsulation_key().to_bytes();
    let spki = dk.encapsulation_key().to_public_key_der().unwrap();
    assert_eq!(spki.as_bytes(), [&SPKI_PREFIX[..], &pk[..]].concat());
    assert_eq!(
        pqkit_hybrid::XWING_OID.to_string(),
        "1.3.6.1.4.1.62253.25722"
    );
}

#[test]
fn round_trips() {
    for i in 0..8u8 {
        let dk = DecapsulationKey::from([i; 32]);
        let der = dk.to_pkcs8_der().unwrap();
        assert_eq!(
            DecapsulationKey::from_pkcs8_der(der.as_bytes())
                .unwrap()
                .as_bytes(),
            &[i; 32]
        );
        let v2 = dk.to_pkcs8_der_v2().unwrap();
        assert_eq!(
            DecapsulationKey::from_pkcs8_der(v2.as_bytes())
                .unwrap()
                .as_bytes(),
            &[i; 32]
        );
        let pem = dk.to_pkcs8_pem(LineEnding::LF).unwrap();
        assert_eq!(
            DecapsulationKey::from_pkcs8_pem(&pem).unwrap().as_bytes(),
            &[i; 32]
        );
        let ek = dk.encapsulation_key();
        let spki = ek.to_public_key_der().unwrap();
        assert_eq!(
            &EncapsulationKey::from_public_key_der(spki.as_bytes()).unwrap(),
            ek
        );
        let pem = ek.to_public_key_pem(LineEnding::LF).unwrap();
        assert_eq!(&EncapsulationKey::from_public_key_pem(&pem).unwrap(), ek);
    }
}

#[test]
fn refusals() {
    let dk = DecapsulationKey::from([9u8; 32]);
    // A v2 key whose public key is another key's.
    let mut v2 = dk.to_pkcs8_der_v2().unwrap().as_bytes().to_vec();
    let last = v2.len() - 1;
    v2[last] ^= 1;
    assert!(DecapsulationKey::from_pkcs8_der(&v2).is_err());
    // A seed of 31 bytes.
    let mut short = [&PKCS8_V1_PREFIX[..], &[7u8; 31][..]].concat();
    short[1] -= 1;
    short[21] = 31;
    assert!(DecapsulationKey::from_pkcs8_der(&short).is_err());
    // Another algorithm's key (X25519, 1.3.101.110) and public key.
    let x = pqkit_x25519_key();
    assert!(DecapsulationKey::from_pkcs8_der(&x.0).is_err());
    assert!(EncapsulationKey::from_public_key_der(&x.1).is_err());
    // A 1215-byte public key, and one whose ML-KEM half fails the
    // modulus check.
    let pk = dk.encapsulation_key().to_bytes();
    let mut spki = [&SPKI_PREFIX[..], &pk[..]].concat();
    spki[24] = 0xff;
    spki[25] |= 0x0f;
    assert!(EncapsulationKey::from_public_key_der(&spki).is_err());
    let mut cut = [&SPKI_PREFIX[..], &pk[..1215]].concat();
    cut[3] -= 1;
    cut[22] -= 1;
    assert!(EncapsulationKey::from_public_key_der(&cut).is_err());
}

/// An X25519 PKCS#8 and SPKI built by hand (OID 1.3.101.110).
fn pqkit_x25519_key() -> (Vec<u8>, Vec<u8>) {
    let pkcs8 = [
        &[
            0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x04, 0x22,
            0x04, 0x20,
        ][..],
        &[1u8; 32][..],
    ]
    .concat();
    let spki = [
        &[
            0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x03, 0x21, 0x00,
        ][..],
        &[2u8; 32][..],
    ]
    .concat();
    (pkcs8, spki)
}
