//! HPKE against draft-ietf-hpke-pq's test vectors (keys from `ikmR`,
//! `enc` from `ikmE`, every encryption and export, on both sides), and
//! the error cases.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqkit_hybrid::hpke::{Aead, Error, Kdf, Kem, PrivateKey, PublicKey, Suite};
use pqkit_testkit::vectors::{hex, json};

#[test]
fn draft_vectors() {
    let Some(v) = json("hpke-pq/test-vectors.json") else {
        return;
    };
    let mut checked = Vec::new();
    for c in v.as_array().expect("array") {
        let id = |k: &str| c[k].as_u64().expect("id") as u16;
        let ids = (id("kem_id"), id("kdf_id"), id("aead_id"));
        assert_eq!(c["mode"].as_u64(), Some(0), "base mode only in the file");
        let suite = Suite::from_ids(ids.0, ids.1, ids.2).expect("every suite of the file");
        let h = |k: &str| hex(&c[k]);
        let (sk, pk) = suite.derive_key_pair(&h("ikmR")).unwrap();
        assert_eq!(sk.to_bytes()[..], h("skRm")[..], "{ids:x?} skRm");
        assert_eq!(pk.to_bytes(), h("pkRm"), "{ids:x?} pkRm");
        // The serialized keys load back to the same keys.
        let sk = PrivateKey::from_bytes(suite.kem, &h("skRm")).unwrap();
        let pk = PublicKey::from_bytes(suite.kem, &h("pkRm")).unwrap();
        let info = h("info");
        let (enc, mut sender) = suite.setup_sender_derand(&pk, &info, &h("ikmE")).unwrap();
        assert_eq!(enc, h("enc"), "{ids:x?} enc");
        let mut receiver = suite.setup_receiver(&enc, &sk, &info).unwrap();
        for e in c["encryptions"].as_array().expect("encryptions") {
            let (aad, pt, ct) = (hex(&e["aad"]), hex(&e["pt"]), hex(&e["ct"]));
            assert_eq!(sender.seal(&aad, &pt).unwrap(), ct, "{ids:x?} seal");
            assert_eq!(receiver.open(&aad, &ct).unwrap(), pt, "{ids:x?} open");
        }
        for x in c["exports"].as_array().expect("exports") {
            let ctx = hex(&x["exporter_context"]);
            let len = x["L"].as_u64().expect("L") as usize;
            let want = hex(&x["exported_value"]);
            assert_eq!(sender.export(&ctx, len).unwrap(), want, "{ids:x?} export");
            assert_eq!(receiver.export(&ctx, len).unwrap(), want);
        }
        checked.push(ids);
    }
    assert_eq!(checked.len(), 13, "{checked:x?}");
}

/// Seal/open round trips for every KEM, KDF and AEAD, with fresh keys.
#[test]
fn every_suite_round_trips() {
    let kdfs = [
        Kdf::HkdfSha256,
        Kdf::HkdfSha384,
        Kdf::HkdfSha512,
        Kdf::Shake128,
        Kdf::Shake256,
    ];
    let aeads = [Aead::Aes128Gcm, Aead::Aes256Gcm, Aead::ChaCha20Poly1305];
    let mut rng = pqkit_testkit::rng::TestRng(7);
    for kem in Kem::ALL {
        for kdf in kdfs {
            for aead in aeads {
                let suite = Suite::new(kem, kdf, aead);
                let (sk, pk) = suite.generate_key_pair(&mut rng).unwrap();
                let (enc, mut s) = suite.setup_sender(&pk, b"info", &mut rng).unwrap();
                assert_eq!(enc.len(), kem.enc_len());
                let mut r = suite.setup_receiver(&enc, &sk, b"info").unwrap();
                for i in 0..3u8 {
                    let ct = s.seal(&[i], &[i; 40]).unwrap();
                    assert_eq!(ct.len(), 40 + aead.tag_len());
                    assert_eq!(r.open(&[i], &ct).unwrap(), [i; 40]);
                }
                assert_eq!(s.export(b"x", 77).unwrap(), r.export(b"x", 77).unwrap());
                // another info: another key schedule
                let mut r2 = suite.setup_receiver(&enc, &sk, b"other").unwrap();
                assert_eq!(
                    r2.open(b"", &s.seal(b"", b"m").unwrap()),
                    Err(Error::OpenError)
                );
            }
        }
    }
}

#[test]
fn errors_are_typed() {
    let suite = Suite::new(Kem::MlKem768, Kdf::HkdfSha256, Aead::Aes128Gcm);
    let (sk, pk) = suite.derive_key_pair(&[1; 64]).unwrap();
    // lengths
    assert_eq!(
        PublicKey::from_bytes(Kem::MlKem768, &[0; 1183]).unwrap_err(),
        Error::InvalidPublicKey
    );
    assert_eq!(
        PrivateKey::from_bytes(Kem::MlKem768, &[0; 63]).unwrap_err(),
        Error::InvalidPrivateKey
    );
    assert_eq!(
        suite.setup_sender_derand(&pk, b"", &[0; 31]).unwrap_err(),
        Error::InvalidRandomness
    );
    assert_eq!(
        suite.setup_receiver(&[0; 1087], &sk, b"").unwrap_err(),
        Error::InvalidEncapsulatedKey
    );
    // an ML-KEM key failing the modulus check (coefficients 0xfff)
    assert_eq!(
        PublicKey::from_bytes(Kem::MlKem768, &[0xff; 1184]).unwrap_err(),
        Error::InvalidPublicKey
    );
    // another KEM's key
    let other = Suite::new(Kem::MlKem768X25519, Kdf::HkdfSha256, Aead::Aes128Gcm);
    assert_eq!(
        other.setup_sender_derand(&pk, b"", &[0; 64]).unwrap_err(),
        Error::KemMismatch
    );
    assert_eq!(
        other.setup_receiver(&[0; 1120], &sk, b"").unwrap_err(),
        Error::KemMismatch
    );
    // a modified ciphertext, and the sequence number stays put
    let (enc, mut s) = suite.setup_sender_derand(&pk, b"", &[2; 32]).unwrap();
    let mut r = suite.setup_receiver(&enc, &sk, b"").unwrap();
    let mut ct = s.seal(b"a", b"msg").unwrap();
    ct[0] ^= 1;
    assert_eq!(r.open(b"a", &ct), Err(Error::OpenError));
    ct[0] ^= 1;
    assert_eq!(r.open(b"a", &ct).unwrap(), b"msg");
    // export-only contexts and export lengths
    let exp = Suite::new(Kem::MlKem768, Kdf::HkdfSha256, Aead::ExportOnly);
    let (enc, mut s) = exp.setup_sender_derand(&pk, b"", &[3; 32]).unwrap();
    assert_eq!(s.seal(b"", b"m"), Err(Error::ExportOnly));
    let r = exp.setup_receiver(&enc, &sk, b"").unwrap();
    assert_eq!(
        s.export(b"c", 255 * 32).unwrap(),
        r.export(b"c", 255 * 32).unwrap()
    );
    assert_eq!(s.export(b"c", 255 * 32 + 1), Err(Error::ExportTooLong));
    // DHKEM(X25519): a low-order share gives an all-zero DH result
    let dh = Suite::new(Kem::DhKemX25519, Kdf::HkdfSha256, Aead::Aes128Gcm);
    let (dsk, _) = dh.derive_key_pair(&[4; 32]).unwrap();
    assert_eq!(
        dh.setup_receiver(&[0; 32], &dsk, b"").unwrap_err(),
        Error::ZeroSharedSecret
    );
    let low = PublicKey::from_bytes(Kem::DhKemX25519, &[0; 32]).unwrap();
    assert_eq!(
        dh.setup_sender_derand(&low, b"", &[5; 32]).unwrap_err(),
        Error::ZeroSharedSecret
    );
    // DHKEM(X448) likewise, for u = 0, 1 and p - 1 (RFC 7748's low-order
    // points of Curve448 and its twist)
    let dh = Suite::new(Kem::DhKemX448, Kdf::HkdfSha512, Aead::Aes256Gcm);
    let (dsk, _) = dh.derive_key_pair(&[4; 56]).unwrap();
    let mut p_minus_1 = [0xffu8; 56];
    p_minus_1[0] = 0xfe;
    p_minus_1[28] = 0xfe;
    let mut one = [0u8; 56];
    one[0] = 1;
    for u in [[0u8; 56], one, p_minus_1] {
        assert_eq!(
            dh.setup_receiver(&u, &dsk, b"").unwrap_err(),
            Error::ZeroSharedSecret
        );
        let low = PublicKey::from_bytes(Kem::DhKemX448, &u).unwrap();
        assert_eq!(
            dh.setup_sender_derand(&low, b"", &[5; 56]).unwrap_err(),
            Error::ZeroSharedSecret
        );
    }
    // the NIST curves: points must be uncompressed points of the curve,
    // scalars in range, and encapsulated points valid
    let mut not_on_curve = [0u8; 65];
    not_on_curve[0] = 4;
    assert_eq!(
        PublicKey::from_bytes(Kem::DhKemP256, &not_on_curve).unwrap_err(),
        Error::InvalidPublicKey
    );
    let (psk, ppk) = Suite::new(Kem::DhKemP256, Kdf::HkdfSha256, Aead::Aes128Gcm)
        .derive_key_pair(&[6; 32])
        .unwrap();
    let mut compressed_tag = ppk.to_bytes();
    compressed_tag[0] = 2;
    assert_eq!(
        PublicKey::from_bytes(Kem::DhKemP256, &compressed_tag).unwrap_err(),
        Error::InvalidPublicKey
    );
    assert_eq!(
        PrivateKey::from_bytes(Kem::DhKemP256, &[0; 32]).unwrap_err(),
        Error::InvalidPrivateKey
    );
    assert_eq!(
        PrivateKey::from_bytes(Kem::DhKemP384, &[0xff; 48]).unwrap_err(),
        Error::InvalidPrivateKey
    );
    let p256 = Suite::new(Kem::DhKemP256, Kdf::HkdfSha256, Aead::Aes128Gcm);
    assert_eq!(
        p256.setup_receiver(&not_on_curve, &psk, b"").unwrap_err(),
        Error::InvalidEncapsulatedKey
    );
    let hy = Suite::new(Kem::MlKem768P256, Kdf::HkdfSha256, Aead::Aes128Gcm);
    let (hsk, hpk) = hy.derive_key_pair(&[7; 32]).unwrap();
    let (mut enc, _) = hy.setup_sender_derand(&hpk, b"", &[8; 128]).unwrap();
    enc[1088..].copy_from_slice(&not_on_curve);
    assert_eq!(
        hy.setup_receiver(&enc, &hsk, b"").unwrap_err(),
        Error::InvalidEncapsulatedKey
    );
    let mut hbytes = hpk.to_bytes();
    hbytes[1184..].copy_from_slice(&not_on_curve);
    assert_eq!(
        PublicKey::from_bytes(Kem::MlKem768P256, &hbytes).unwrap_err(),
        Error::InvalidPublicKey
    );
    // identifiers
    for kem in Kem::ALL {
        assert_eq!(Kem::from_id(kem.id()), Some(kem));
    }
    assert_eq!(Suite::from_ids(0x0041, 0x0001, 0x0099), None);
}
