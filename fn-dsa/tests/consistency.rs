//! A signing key that decodes must be one that signs: `f G - g F = q` is
//! checked on every import (issue 21's example: an all-zero `F`, which
//! makes `G` zero too and used to decode, then loop in the sampler).
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
