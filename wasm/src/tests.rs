//! The Rust side of the bindings, natively: the same bytes as the
//! algorithm crates, the RFC 8032 vector, typed errors for bad input.
use super::*;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

#[test]
fn ml_kem_round_trip_and_bytes() {
    for level in [512u32, 768, 1024] {
        let dk = MlKemDecapsulationKey::from_seed_bytes(level, &[7u8; 64]).expect("seed");
        assert_eq!(dk.seed(), [7u8; 64]);
        let ek = MlKemEncapsulationKey::from_key_bytes(level, &dk.encapsulation_key()).expect("ek");
        let e = ek.encapsulate_with(&[9u8; 32]).expect("encaps");
        assert_eq!(
            dk.decapsulate_bytes(&e.ciphertext).expect("decaps"),
            e.shared_secret
        );
        // A modified ciphertext: implicit rejection, another secret.
        let mut bad = e.ciphertext.clone();
        bad[0] ^= 1;
        assert_ne!(dk.decapsulate_bytes(&bad).expect("decaps"), e.shared_secret);
        assert!(dk.decapsulate_bytes(&bad[1..]).is_err());
    }
    // The same bytes as pqkit-ml-kem itself.
    let dk = MlKemDecapsulationKey::from_seed_bytes(768, &[7u8; 64]).expect("seed");
    let direct = pqkit_ml_kem::DecapsulationKey::<MlKem768>::from_seed([7u8; 64].into());
    assert_eq!(
        dk.encapsulation_key(),
        direct.encapsulation_key().as_bytes()
    );
    let (ct, ss) = direct
        .encapsulation_key()
        .encapsulate_deterministic(&[9u8; 32].into());
    let ek = MlKemEncapsulationKey::from_key_bytes(768, &dk.encapsulation_key()).expect("ek");
    let e = ek.encapsulate_with(&[9u8; 32]).expect("encaps");
    assert_eq!(e.ciphertext, ct.to_vec());
    assert_eq!(e.shared_secret, ss.to_vec());
}

#[test]
fn ml_dsa_sign_and_verify() {
    for level in [44u32, 65, 87] {
        let sk = MlDsaSigningKey::from_seed_bytes(level, &[3u8; 32]).expect("seed");
        assert_eq!(sk.seed(), [3u8; 32]);
        let vk = MlDsaVerifyingKey::from_key_bytes(level, &sk.verifying_key()).expect("vk");
        let sig = sk.sign_bytes(b"message", b"ctx", true).expect("sign");
        assert!(vk.verify(b"message", &sig, Some(b"ctx".to_vec())));
        assert!(!vk.verify(b"message", &sig, None));
        assert!(!vk.verify(b"massage", &sig, Some(b"ctx".to_vec())));
        assert!(!vk.verify(b"message", &sig[1..], Some(b"ctx".to_vec())));
        let hedged = sk.sign_bytes(b"message", b"", false).expect("sign");
        assert!(vk.verify(b"message", &hedged, None));
        assert!(matches!(
            sk.sign_bytes(b"m", &[0u8; 256], true),
            Err(Error::MlDsa(_))
        ));
    }
    // The same signature as pqkit-ml-dsa itself.
    let direct = pqkit_ml_dsa::SigningKey::<MlDsa65>::from_seed(&[3u8; 32].into());
    let want = direct.sign_deterministic(b"message", b"ctx").expect("sign");
    let sk = MlDsaSigningKey::from_seed_bytes(65, &[3u8; 32]).expect("seed");
    assert_eq!(
        sk.sign_bytes(b"message", b"ctx", true).expect("sign"),
        want.as_bytes()
    );
}

#[test]
fn ed25519_rfc8032_test_1() {
    let sk = Ed25519SigningKey::from_secret_bytes(&hex(
        "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
    ))
    .expect("secret");
    let pk = hex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
    assert_eq!(sk.verifying_key(), pk);
    let sig = sk.sign(b"");
    assert_eq!(
        sig,
        hex(concat!(
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155",
            "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        ))
    );
    let vk = Ed25519VerifyingKey::from_key_bytes(&pk).expect("vk");
    assert!(vk.verify(b"", &sig));
    assert!(!vk.verify(b"x", &sig));
    assert!(!vk.verify(b"", &sig[..63]));
}

#[test]
fn bad_input_is_a_typed_error() {
    assert_eq!(
        MlKemDecapsulationKey::from_seed_bytes(769, &[0u8; 64]).err(),
        Some(Error::UnknownLevel(769))
    );
    assert_eq!(
        MlKemDecapsulationKey::from_seed_bytes(768, &[0u8; 63]).err(),
        Some(Error::BadLength {
            what: "ML-KEM seed",
            expected: 64,
            got: 63
        })
    );
    assert!(matches!(
        MlKemEncapsulationKey::from_key_bytes(768, &[0xffu8; 1184]),
        Err(Error::MlKem(_))
    ));
    assert_eq!(
        MlDsaSigningKey::from_seed_bytes(66, &[0u8; 32]).err(),
        Some(Error::UnknownLevel(66))
    );
    assert!(matches!(
        MlDsaVerifyingKey::from_key_bytes(65, &[0u8; 10]),
        Err(Error::MlDsa(_))
    ));
    assert!(matches!(
        Ed25519SigningKey::from_secret_bytes(&[0u8; 31]),
        Err(Error::BadLength { .. })
    ));
    // Not a point: y = 2 has no x on the curve.
    let mut not_a_point = [0u8; 32];
    not_a_point[0] = 2;
    assert!(matches!(
        Ed25519VerifyingKey::from_key_bytes(&not_a_point),
        Err(Error::Ed25519(_))
    ));
    assert_eq!(
        Error::UnknownLevel(1).to_string(),
        "unknown parameter set level 1"
    );
}
