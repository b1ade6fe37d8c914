//! RustCrypto `ml-dsa` names at the crate root (issue 13, first step): the
//! `signature` traits resolve with only the crate name changed.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqkit_ml_dsa::{Keypair, MlDsa65, SignatureEncoding, Signer, SigningKey, Verifier};

#[test]
fn root_traits_resolve_and_work() {
    let sk = SigningKey::<MlDsa65>::from_seed(&[3u8; 32].into());
    let vk = sk.verifying_key();
    let sig = sk.sign(b"drop-in");
    assert!(vk.verify(b"drop-in", &sig).is_ok());
    assert!(vk.verify(b"drop-out", &sig).is_err());
    assert_eq!(SignatureEncoding::to_bytes(&sig).as_ref().len(), 3309);
}
