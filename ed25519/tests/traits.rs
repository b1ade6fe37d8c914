//! Batch verification, the RustCrypto traits (generic Signer/Verifier, digest
//! = Ed25519ph), ZIP-215 versus strict rules, and an x509-cert certificate.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use curve25519_dalek::constants::EIGHT_TORSION;
use pqkit_ed25519::{Error, Signature, SigningKey, VerifyingKey, verify_batch};
use sha2::Sha512;
use signature::{DigestSigner, DigestVerifier, Keypair, Signer, Verifier};

fn keys(n: usize) -> Vec<SigningKey> {
    (0..n)
        .map(|i| SigningKey::from_bytes(&[i as u8 + 1; 32]))
        .collect()
}

/// The typed reason of a `SignatureError` from the dalek-named API.
fn reason(r: Result<(), pqkit_ed25519::SignatureError>) -> Result<(), Error> {
    r.map_err(|e| Error::from_signature_error(&e).expect("pqkit error as source"))
}

#[test]
fn batch_of_64_agrees_with_single_verification() {
    let sks = keys(64);
    let msgs: Vec<Vec<u8>> = (0..64).map(|i| vec![i as u8; i]).collect();
    let sigs: Vec<Signature> = sks.iter().zip(&msgs).map(|(k, m)| k.sign(m)).collect();
    let vks: Vec<VerifyingKey> = sks.iter().map(|k| k.verifying_key()).collect();
    let ms: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
    for ((m, s), v) in ms.iter().zip(&sigs).zip(&vks) {
        v.verify_bytes(m, s).unwrap();
    }
    verify_batch(&ms, &sigs, &vks).unwrap();
    verify_batch(&[], &[], &[]).unwrap();
    // slices of different lengths
    assert_eq!(
        reason(verify_batch(&ms[1..], &sigs, &vks)),
        Err(Error::InvalidLength)
    );
    assert_eq!(
        reason(verify_batch(&ms, &sigs, &vks[1..])),
        Err(Error::InvalidLength)
    );
    // any single bad element fails the batch
    for bad in [0usize, 17, 63] {
        let mut wrong = ms.clone();
        wrong[bad] = &msgs[(bad + 1) % 64];
        assert_eq!(
            reason(verify_batch(&wrong, &sigs, &vks)),
            Err(Error::InvalidSignature),
            "element {bad}"
        );
    }
    // a non-canonical S is rejected outright
    let mut s = sigs[3].to_bytes();
    s[63] |= 0xf0;
    let mut wrong = sigs.clone();
    wrong[3] = Signature::from_bytes(&s);
    assert_eq!(
        reason(verify_batch(&ms, &wrong, &vks)),
        Err(Error::NonCanonicalS)
    );
}

fn generic<S: Signer<Sig> + Keypair<VerifyingKey = V>, V: Verifier<Sig>, Sig>(sk: &S) {
    let sig = sk.sign(b"generic");
    sk.verifying_key().verify(b"generic", &sig).unwrap();
    assert!(sk.verifying_key().verify(b"generix", &sig).is_err());
}

#[test]
fn traits_generic_and_digest_is_ed25519ph() {
    let sk = SigningKey::from_bytes(&[9; 32]);
    generic::<_, _, Signature>(&sk);
    let via_digest: Signature = sk.sign_digest(|d: &mut Sha512| {
        sha2::Digest::update(d, b"abc");
    });
    assert_eq!(via_digest, sk.sign_prehash(b"abc", b"").unwrap());
    sk.verifying_key()
        .verify_digest(
            |d: &mut Sha512| {
                sha2::Digest::update(d, b"abc");
                Ok(())
            },
            &via_digest,
        )
        .unwrap();
    // contexts: empty ctx is invalid for Ed25519ctx, > 255 for both
    assert_eq!(
        sk.sign_with_context(b"m", b"").err(),
        Some(Error::EmptyContext)
    );
    assert_eq!(
        sk.sign_with_context(b"m", &[0; 256]).err(),
        Some(Error::ContextTooLong)
    );
    assert_eq!(
        sk.sign_prehash(b"m", &[0; 256]).err(),
        Some(Error::ContextTooLong)
    );
    let too_long = [0u8; 256];
    let e = sk.with_context(&too_long).expect_err("refused");
    assert_eq!(Error::from_signature_error(&e), Some(Error::ContextTooLong));
    // Debug never shows the secret
    let dbg = format!("{sk:?}");
    assert!(!dbg.contains("0909090909"), "{dbg}");
}

#[test]
fn small_order_key_zip215_accepts_strict_rejects() {
    // A = small-order point, R = identity, S = 0: [0]B - [k]A = -[k]A, which
    // is small order; cofactored ZIP-215 accepts, strict rejects, is_weak.
    for t in EIGHT_TORSION.iter() {
        let vk = VerifyingKey::from_bytes(&t.compress().to_bytes()).unwrap();
        assert!(vk.is_weak());
        let mut sig = [0u8; 64];
        sig[..32].copy_from_slice(&EIGHT_TORSION[0].compress().to_bytes());
        let sig = Signature::from_bytes(&sig);
        assert!(vk.verify_zip215(b"anything", &sig).is_ok());
        assert_eq!(
            reason(vk.verify_strict(b"anything", &sig)),
            Err(Error::SmallOrder)
        );
    }
    assert!(!SigningKey::from_bytes(&[1; 32]).verifying_key().is_weak());
}

#[test]
fn x509_self_signed_certificate_verifies_with_pqkit() {
    use pqkit_ed25519::spki::DecodePublicKey;
    use std::str::FromStr;
    use std::time::Duration;
    use x509_cert::builder::{Builder, CertificateBuilder, profile};
    use x509_cert::der::{Decode, Encode};
    use x509_cert::name::Name;
    use x509_cert::serial_number::SerialNumber;
    use x509_cert::spki::SubjectPublicKeyInfo;
    use x509_cert::time::Validity;

    let sk = SigningKey::from_bytes(&[0x25; 32]);
    let subject = Name::from_str("CN=pqkit ed25519,O=pqkit,C=US").unwrap();
    let prof = profile::cabf::Root::new(false, subject).unwrap();
    let spki = SubjectPublicKeyInfo::from_key(&sk.verifying_key()).unwrap();
    let cert = CertificateBuilder::new(
        prof,
        SerialNumber::from(7u32),
        Validity::from_now(Duration::from_secs(3600)).unwrap(),
        spki,
    )
    .unwrap()
    .build::<_, Signature>(&sk)
    .unwrap();
    let der = cert.to_der().unwrap();
    let cert = x509_cert::Certificate::from_der(&der).unwrap();
    assert_eq!(cert.signature_algorithm().oid.to_string(), "1.3.101.112");
    assert!(cert.signature_algorithm().parameters.is_none());
    let vk = VerifyingKey::from_public_key_der(
        &cert
            .tbs_certificate()
            .subject_public_key_info()
            .to_der()
            .unwrap(),
    )
    .unwrap();
    let tbs = cert.tbs_certificate().to_der().unwrap();
    let sig = Signature::try_from(cert.signature().raw_bytes()).unwrap();
    vk.verify(&tbs, &sig).unwrap();
    let mut tampered = tbs.clone();
    tampered[20] ^= 1;
    assert!(vk.verify(&tampered, &sig).is_err());
}

#[test]
fn ed25519_crate_pkcs8_containers_convert_like_dalek() {
    use pqkit_ed25519::ed25519::pkcs8::{KeypairBytes, PublicKeyBytes};
    let sk = SigningKey::from_bytes(&[5; 32]);
    let kp = KeypairBytes::from(&sk);
    let theirs = KeypairBytes::from(&ed25519_dalek::SigningKey::from_bytes(&[5; 32]));
    assert_eq!(kp.to_bytes(), theirs.to_bytes());
    assert_eq!(
        SigningKey::try_from(&kp).expect("consistent").to_bytes(),
        [5; 32]
    );
    let mut bad = KeypairBytes::from(&sk);
    bad.public_key = Some(PublicKeyBytes([9; 32]));
    let e = SigningKey::try_from(&bad).expect_err("mismatched pair refused");
    assert_eq!(
        Error::from_signature_error(&e),
        Some(Error::InconsistentKey)
    );
    let pk = PublicKeyBytes::from(&sk.verifying_key());
    assert_eq!(
        VerifyingKey::try_from(pk).expect("valid"),
        sk.verifying_key()
    );
}
