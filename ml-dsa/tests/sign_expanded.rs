//! `hazmat::sign_expanded` (signing straight from the expanded key bytes)
//! gives the same signatures as a decoded `SigningKey`, and rejects
//! malformed encodings with typed errors.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqkit_ml_dsa::{Error, MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey, hazmat};

fn check<P: ParameterSet>() {
    for i in 0..8u8 {
        let sk = SigningKey::<P>::from_seed(&[i; 32].into());
        let bytes = sk.expanded_bytes().as_ref().to_vec();
        let msg = vec![i; 100 + usize::from(i)];
        let ctx = vec![0xC0 ^ i; usize::from(i) * 30];
        let rnd = [i.wrapping_mul(17); 32];
        let want = sk.sign_with_rnd(&msg, &ctx, &rnd).unwrap();
        let (a, b) = msg.split_at(37);
        let got = hazmat::sign_expanded::<P>(&bytes, &[a, b], &ctx, &rnd).unwrap();
        assert_eq!(got.as_bytes(), want.as_bytes(), "{} seed {i}", P::NAME);
    }
    let sk = SigningKey::<P>::from_seed(&[9; 32].into());
    let bytes = sk.expanded_bytes().as_ref().to_vec();
    let r = [0u8; 32];
    // Wrong lengths.
    for len in [0, bytes.len() - 1, bytes.len() + 1] {
        let mut b = bytes.clone();
        b.resize(len, 0);
        assert_eq!(
            hazmat::sign_expanded::<P>(&b, &[b"m"], b"", &r).unwrap_err(),
            Error::InvalidLength
        );
    }
    // s1 coefficient out of [-eta, eta]: every packed s1 byte 0xff.
    let mut b = bytes.clone();
    b[128..160].fill(0xff);
    assert_eq!(
        hazmat::sign_expanded::<P>(&b, &[b"m"], b"", &r).unwrap_err(),
        Error::InvalidPrivateKey
    );
    // Context too long.
    assert_eq!(
        hazmat::sign_expanded::<P>(&bytes, &[b"m"], &[0u8; 256], &r).unwrap_err(),
        Error::ContextTooLong
    );
}

#[test]
fn sign_expanded_matches_signing_key_all_sets() {
    check::<MlDsa44>();
    check::<MlDsa65>();
    check::<MlDsa87>();
}
