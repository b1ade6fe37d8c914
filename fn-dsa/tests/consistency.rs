//! A signing key that decodes must be one that signs: `f G - g F = q` is
//! checked on every import (issue 21's example: an all-zero `F`, which
//! makes `G` zero too; such a key must not decode, or signing with it
//! would loop in the sampler).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use pqkit_fn_dsa::{Error, fn_dsa_512, fn_dsa_1024};

#[test]
fn all_zero_capital_f_is_rejected_at_import() {
    let sk = fn_dsa_512::SigningKey::from_seed(&[3u8; 32]);
    let mut bytes = sk.to_bytes().to_vec();
    let n = 512;
    // The last n bytes are F (8 bits per coefficient).
    let len = bytes.len();
    bytes[len - n..].fill(0);
    let start = std::time::Instant::now();
    assert_eq!(
        fn_dsa_512::SigningKey::from_bytes(&bytes).err(),
        Some(Error::InconsistentKey)
    );
    assert!(start.elapsed().as_secs() < 1);

    let sk = fn_dsa_1024::SigningKey::from_seed(&[4u8; 32]);
    let mut bytes = sk.to_bytes().to_vec();
    let len = bytes.len();
    bytes[len - 1024..].fill(0);
    assert_eq!(
        fn_dsa_1024::SigningKey::from_bytes(&bytes).err(),
        Some(Error::InconsistentKey)
    );
}

#[test]
fn one_changed_coefficient_of_capital_f_is_rejected() {
    let sk = fn_dsa_512::SigningKey::from_seed(&[5u8; 32]);
    let good = sk.to_bytes().to_vec();
    let len = good.len();
    for pos in [len - 512, len - 300, len - 1] {
        let mut bytes = good.clone();
        bytes[pos] = bytes[pos].wrapping_add(1);
        // Either G leaves its range or the equation fails: never a key.
        let err = fn_dsa_512::SigningKey::from_bytes(&bytes).err();
        assert!(
            matches!(
                err,
                Some(Error::InconsistentKey | Error::InvalidPrivateKey | Error::NonCanonical)
            ),
            "{pos}: {err:?}"
        );
    }
    assert!(fn_dsa_512::SigningKey::from_bytes(&good).is_ok());
}

/// Replace `f` by the constant 1 (invertible, well encoded): the NTRU
/// equation cannot hold with the key's `g` and `F`.
fn with_f_one(bytes: &mut [u8], logn: u32) {
    let n = 1usize << logn;
    let f_len = n * pqkit_fn_dsa::encoding::fg_bits(logn) as usize / 8;
    bytes[1..1 + f_len].fill(0);
    // Coefficients are packed most significant bit first.
    bytes[1] = 1 << (8 - pqkit_fn_dsa::encoding::fg_bits(logn));
}

#[test]
fn f_equal_to_one_is_rejected() {
    let sk = fn_dsa_512::SigningKey::from_seed(&[6u8; 32]);
    let mut bytes = sk.to_bytes().to_vec();
    with_f_one(&mut bytes, 9);
    let err = fn_dsa_512::SigningKey::from_bytes(&bytes).err();
    assert!(
        matches!(err, Some(Error::InconsistentKey | Error::InvalidPrivateKey)),
        "{err:?}"
    );
}

/// PKCS#8 (DER and PEM) carries the encoded signing key: the same check.
#[cfg(feature = "pem")]
#[test]
fn pkcs8_import_checks_the_equation() {
    use pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding};
    let sk = fn_dsa_512::SigningKey::from_seed(&[7u8; 32]);
    let der = sk.to_pkcs8_der().unwrap().as_bytes().to_vec();
    let enc = sk.to_bytes().to_vec();
    let pos = der
        .windows(enc.len())
        .position(|w| w == enc.as_slice())
        .expect("encoded key in the DER");
    let mut bad = der.clone();
    let end = pos + enc.len();
    bad[end - 512..end].fill(0);
    assert!(fn_dsa_512::SigningKey::from_pkcs8_der(&bad).is_err());
    let doc = pkcs8::SecretDocument::try_from(bad.as_slice()).unwrap();
    let pem = doc.to_pem("PRIVATE KEY", LineEnding::LF).unwrap();
    assert!(fn_dsa_512::SigningKey::from_pkcs8_pem(&pem).is_err());
    assert!(fn_dsa_512::SigningKey::from_pkcs8_der(&der).is_ok());
    assert!(sk.to_pkcs8_pem(LineEnding::LF).is_ok());
}

/// The toy degrees decode through the same checks.
#[test]
fn toy_degrees_check_the_equation() {
    use pqkit_fn_dsa::hazmat::toy;
    for logn in 2u32..=8 {
        let sk = toy::SigningKey::from_seed(logn, &[logn as u8; 32]).unwrap();
        let mut bytes = sk.to_bytes().to_vec();
        let len = bytes.len();
        let n = 1usize << logn;
        bytes[len - n..].fill(0);
        assert_eq!(
            toy::SigningKey::from_bytes(&bytes).err(),
            Some(Error::InconsistentKey),
            "logn {logn}"
        );
        let mut bytes = sk.to_bytes().to_vec();
        with_f_one(&mut bytes, logn);
        assert!(toy::SigningKey::from_bytes(&bytes).is_err(), "logn {logn}");
        assert!(toy::SigningKey::from_bytes(&sk.to_bytes()).is_ok());
    }
}

/// Rejection at import is cheap: well under a millisecond per key in an
/// optimised build (FN-DSA-1024, the largest).
#[test]
fn rejection_is_fast() {
    let sk = fn_dsa_1024::SigningKey::from_seed(&[8u8; 32]);
    let mut bytes = sk.to_bytes().to_vec();
    let len = bytes.len();
    bytes[len - 1024..].fill(0);
    let rounds = 50u32;
    let start = std::time::Instant::now();
    for _ in 0..rounds {
        assert!(fn_dsa_1024::SigningKey::from_bytes(&bytes).is_err());
    }
    let each = start.elapsed() / rounds;
    eprintln!("FN-DSA-1024 inconsistent key rejected in {each:?}");
    if !cfg!(debug_assertions) {
        assert!(each.as_micros() < 1000, "{each:?}");
    }
}
