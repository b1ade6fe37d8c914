//! RustCrypto traits, PKCS#8/SPKI, and an X.509 self-signed certificate.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use pqkit_ml_dsa::pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding};
use pqkit_ml_dsa::signature::{
    DigestSigner, DigestVerifier, Keypair, MultipartSigner, MultipartVerifier, RandomizedSigner,
    SignatureEncoding, Signer, Verifier,
};
use pqkit_ml_dsa::spki::{DecodePublicKey, EncodePublicKey};
use pqkit_ml_dsa::{
    Error, ExpandedSigningKey, HashAlg, KeyFormat, MlDsa44, MlDsa65, MlDsa87, ParameterSetOid,
    Signature, SigningKey, VerifyingKey,
};
use pqkit_testkit::rng::TestRng;

/// Generic code over the traits only.
fn sign_and_verify<S, V, Sig>(signer: &S, verifier: &V, msg: &[u8]) -> Sig
where
    S: Signer<Sig> + RandomizedSigner<Sig> + MultipartSigner<Sig>,
    V: Verifier<Sig> + MultipartVerifier<Sig>,
    Sig: SignatureEncoding,
{
    let sig = signer.sign(msg);
    verifier.verify(msg, &sig).expect("valid");
    assert!(verifier.verify(b"other message", &sig).is_err());
    let hedged = signer.sign_with_rng(&mut TestRng(7), msg);
    verifier.verify(msg, &hedged).expect("valid hedged");
    let parts = signer.multipart_sign(&[&msg[..3], &msg[3..]]);
    assert_eq!(
        parts.to_bytes().as_ref(),
        sig.to_bytes().as_ref(),
        "multipart = one-shot"
    );
    verifier
        .multipart_verify(&[&msg[..1], &msg[1..]], &sig)
        .expect("multipart verify");
    let back = Sig::try_from(sig.to_bytes().as_ref()).ok().expect("decode");
    verifier.verify(msg, &back).expect("round trip");
    sig
}

fn traits_for<P: ParameterSetOid>()
where
    Signature<P>: SignatureEncoding,
{
    let sk = SigningKey::<P>::from_seed(&[3u8; 32].into());
    let vk = sk.verifying_key();
    let sig = sign_and_verify(&sk, &vk, b"generic message");
    // Signer = deterministic, empty context.
    assert_eq!(
        sig,
        sk.sign_deterministic(b"generic message", b"")
            .expect("sign")
    );

    // Context through the traits.
    let csk = sk.with_context(b"ctx").expect("ctx ok");
    let cvk = vk.with_context(b"ctx").expect("ctx ok");
    let csig = sign_and_verify(&csk, &cvk, b"generic message");
    assert!(
        vk.verify(b"generic message", &csig).is_err(),
        "context matters"
    );
    vk.verify_multipart_with_context(&[b"generic message"], b"ctx", csig.as_bytes())
        .expect("same ctx");
    assert_eq!(csk.verifying_key(), vk);

    // Context length limit.
    let long = [0u8; 256];
    assert_eq!(sk.with_context(&long).err(), Some(Error::ContextTooLong));
    assert_eq!(
        sk.sign_deterministic(b"m", &long).err(),
        Some(Error::ContextTooLong)
    );
    assert_eq!(
        vk.verify_multipart_with_context(&[b"m"], &long, sig.as_bytes())
            .err(),
        Some(Error::ContextTooLong)
    );
    assert!(sk.sign_deterministic(b"m", &long[..255]).is_ok());

    // DigestSigner<Shake256>: pure ML-DSA with the message streamed into
    // mu (RustCrypto ml-dsa semantics): deterministic, empty context.
    let dsig: Signature<P> =
        DigestSigner::<pqkit_common::keccak::Shake256, _>::sign_digest(&sk, |d| {
            pqkit_common::keccak::Update::update(d, b"streamed ");
            pqkit_common::keccak::Update::update(d, b"message");
        });
    assert_eq!(
        dsig,
        sk.sign_deterministic(b"streamed message", b"")
            .expect("sign")
    );
    DigestVerifier::<pqkit_common::keccak::Shake256, _>::verify_digest(
        &vk,
        |d| {
            pqkit_common::keccak::Update::update(d, b"streamed message");
            Ok(())
        },
        &dsig,
    )
    .expect("digest verify");
    vk.verify(b"streamed message", &dsig).expect("pure");
    // With a context signer, the context enters mu.
    let shake_sig: Signature<P> =
        DigestSigner::<pqkit_common::keccak::Shake256, _>::sign_digest(&csk, |d| {
            pqkit_common::keccak::Update::update(d, b"xof");
        });
    assert_eq!(
        shake_sig,
        sk.sign_deterministic(b"xof", b"ctx").expect("sign")
    );
    // HashML-DSA is its own API, domain-separated from pure signatures.
    let hsig = sk
        .sign_prehash_deterministic(HashAlg::Sha2_512, b"hashed message", b"")
        .expect("sign");
    vk.verify_prehash(HashAlg::Sha2_512, b"hashed message", b"", &hsig)
        .expect("prehash verify");
    assert!(
        vk.verify(b"hashed message", &hsig).is_err(),
        "pre-hash is domain separated"
    );
}

#[test]
fn signature_traits_all_sets() {
    traits_for::<MlDsa44>();
    traits_for::<MlDsa65>();
    traits_for::<MlDsa87>();
}

fn pkcs8_for<P: ParameterSetOid>(oid_last: u8) {
    let sk = SigningKey::<P>::from_seed(&[9u8; 32].into());
    // Seed form by default: exact RFC 9881 bytes.
    let der = sk.to_pkcs8_der().expect("der");
    let mut want = vec![
        0x30, 0x34, 0x02, 0x01, 0x00, 0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03,
        0x04, 0x03, oid_last, 0x04, 0x22, 0x80, 0x20,
    ];
    want.extend_from_slice(&[9u8; 32]);
    assert_eq!(der.as_bytes(), &want[..]);
    for format in [KeyFormat::Seed, KeyFormat::Expanded, KeyFormat::Both] {
        let der = sk.to_pkcs8_der_with(format).expect("der");
        // ExpandedSigningKey loads every form; SigningKey the forms with a
        // seed, and says why it refuses the expanded-only form.
        let back = ExpandedSigningKey::<P>::from_pkcs8_der(der.as_bytes()).expect("import");
        assert_eq!(back.verifying_key(), sk.verifying_key());
        assert!(back.expanded_bytes() == sk.expanded_bytes());
        match SigningKey::<P>::from_pkcs8_der(der.as_bytes()) {
            Ok(seeded) => {
                assert_ne!(format, KeyFormat::Expanded);
                assert_eq!(seeded.as_seed(), sk.as_seed());
                assert!(seeded.expanded_bytes() == sk.expanded_bytes());
            }
            Err(_) => {
                assert_eq!(format, KeyFormat::Expanded);
                assert_eq!(
                    <SigningKey<P> as pqkit_pkix::ChoiceKey>::from_expanded_arm(
                        sk.expanded_bytes().as_ref()
                    )
                    .err(),
                    Some(Error::NoSeed)
                );
            }
        }
        let pem = sk.to_pkcs8_pem_with(format, LineEnding::LF).expect("pem");
        assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----"));
        let back = ExpandedSigningKey::<P>::from_pkcs8_pem(&pem).expect("pem import");
        assert_eq!(back.verifying_key(), sk.verifying_key());
    }
    // Expanded-only keys export the expanded form; seed form is refused.
    let exp =
        ExpandedSigningKey::<P>::from_expanded(sk.expanded_bytes().as_ref()).expect("expanded");
    assert!(exp.to_pkcs8_der_with(KeyFormat::Seed).is_err());
    let der = exp.to_pkcs8_der().expect("expanded der");
    assert!(ExpandedSigningKey::<P>::from_pkcs8_der(der.as_bytes()).is_ok());
    assert!(SigningKey::<P>::from_pkcs8_der(der.as_bytes()).is_err());

    // `both` with a mismatching expanded key is rejected.
    let other = SigningKey::<P>::from_seed(&[10u8; 32].into());
    let mut both = sk
        .to_pkcs8_der_with(KeyFormat::Both)
        .expect("der")
        .as_bytes()
        .to_vec();
    let n = both.len();
    let tail = other.expanded_bytes().as_ref();
    both[n - tail.len()..].copy_from_slice(tail);
    assert!(SigningKey::<P>::from_pkcs8_der(&both).is_err());
    assert!(ExpandedSigningKey::<P>::from_pkcs8_der(&both).is_err());
    // A flipped bit anywhere in the expanded part is rejected too.
    let mut both = sk
        .to_pkcs8_der_with(KeyFormat::Both)
        .expect("der")
        .as_bytes()
        .to_vec();
    let last = both.len() - 1;
    both[last] ^= 1;
    assert!(SigningKey::<P>::from_pkcs8_der(&both).is_err());
    assert!(ExpandedSigningKey::<P>::from_pkcs8_der(&both).is_err());
    // Truncations never panic.
    let der = sk.to_pkcs8_der_with(KeyFormat::Both).expect("der");
    for len in 0..der.as_bytes().len() {
        assert!(SigningKey::<P>::from_pkcs8_der(&der.as_bytes()[..len]).is_err());
        assert!(ExpandedSigningKey::<P>::from_pkcs8_der(&der.as_bytes()[..len]).is_err());
    }

    // SPKI.
    let vk = sk.verifying_key();
    let spki = vk.to_public_key_der().expect("spki");
    assert_eq!(
        VerifyingKey::<P>::from_public_key_der(spki.as_bytes()).expect("decode"),
        vk
    );
    let pem = vk.to_public_key_pem(LineEnding::LF).expect("pem");
    assert!(pem.starts_with("-----BEGIN PUBLIC KEY-----"));
    assert_eq!(
        VerifyingKey::<P>::from_public_key_pem(&pem).expect("decode"),
        vk
    );
    // Wrong OID: the other sets refuse it.
    let mut bad = spki.as_bytes().to_vec();
    let pos = bad
        .windows(3)
        .position(|w| w == [0x04, 0x03, oid_last])
        .expect("oid")
        + 2;
    bad[pos] = if oid_last == 0x11 { 0x12 } else { 0x11 };
    assert!(VerifyingKey::<P>::from_public_key_der(&bad).is_err());
}

#[test]
fn pkcs8_and_spki_all_sets() {
    pkcs8_for::<MlDsa44>(0x11);
    pkcs8_for::<MlDsa65>(0x12);
    pkcs8_for::<MlDsa87>(0x13);
}

#[test]
fn x509_self_signed_ml_dsa_65() {
    use std::str::FromStr;
    use std::time::Duration;
    use x509_cert::builder::{Builder, CertificateBuilder, profile};
    use x509_cert::der::{Decode, Encode};
    use x509_cert::name::Name;
    use x509_cert::serial_number::SerialNumber;
    use x509_cert::spki::SubjectPublicKeyInfo;
    use x509_cert::time::Validity;

    let sk = SigningKey::<MlDsa65>::from_seed(&[0x65; 32].into());
    let subject = Name::from_str("CN=pqkit test,O=pqkit,C=US").expect("name");
    let prof = profile::cabf::Root::new(false, subject).expect("profile");
    let spki = SubjectPublicKeyInfo::from_key(&sk.verifying_key()).expect("spki");
    let cert = CertificateBuilder::new(
        prof,
        SerialNumber::from(1u32),
        Validity::from_now(Duration::from_secs(3600)).expect("validity"),
        spki,
    )
    .expect("builder")
    .build::<_, Signature<MlDsa65>>(&sk)
    .expect("build");

    // Round-trip through DER and verify with pqkit.
    let der = cert.to_der().expect("der");
    let cert = x509_cert::Certificate::from_der(&der).expect("parse");
    assert_eq!(
        cert.signature_algorithm().oid.to_string(),
        "2.16.840.1.101.3.4.3.18"
    );
    assert!(cert.signature_algorithm().parameters.is_none());
    let spki_der = cert
        .tbs_certificate()
        .subject_public_key_info()
        .to_der()
        .expect("spki der");
    let vk = VerifyingKey::<MlDsa65>::from_public_key_der(&spki_der).expect("vk");
    let tbs = cert.tbs_certificate().to_der().expect("tbs");
    let sig = Signature::<MlDsa65>::try_from(cert.signature().raw_bytes()).expect("sig");
    vk.verify(&tbs, &sig)
        .expect("certificate signature verifies");
    let mut tampered = tbs.clone();
    tampered[20] ^= 1;
    assert!(vk.verify(&tampered, &sig).is_err());
}

#[cfg(feature = "getrandom")]
#[test]
fn os_randomness_keygen_and_hedged_signing() {
    use pqkit_ml_dsa::Generate;
    let sk = SigningKey::<MlDsa44>::generate();
    let other = SigningKey::<MlDsa44>::try_generate().expect("keygen");
    assert_ne!(sk.verifying_key(), other.verifying_key());
    let a = sk.sign_hedged(b"m", b"c").expect("sign");
    let b = sk.sign_hedged(b"m", b"c").expect("sign");
    assert_ne!(a, b, "hedged signatures differ");
    sk.verifying_key()
        .verify_multipart_with_context(&[b"m"], b"c", a.as_bytes())
        .expect("valid");
    sk.verifying_key()
        .verify_multipart_with_context(&[b"m"], b"c", b.as_bytes())
        .expect("valid");
    let mut rng = TestRng(1);
    let c = SigningKey::<MlDsa87>::try_generate_from_rng(&mut rng).expect("keygen");
    // The seed is the RNG's first 32 bytes.
    let mut first = TestRng(1);
    let mut seed = pqkit_ml_dsa::Seed::default();
    rand_core::TryRng::try_fill_bytes(&mut first, &mut seed).expect("rng");
    assert_eq!(c.as_seed(), &seed);
    let s = c.sign_randomized(b"m", b"", &mut rng).expect("sign");
    c.verifying_key()
        .verify_multipart_with_context(&[b"m"], b"", s.as_bytes())
        .expect("valid");
    let h = c
        .sign_prehash_randomized(HashAlg::Sha3_256, b"m", b"", &mut rng)
        .expect("sign");
    c.verifying_key()
        .verify_prehash(HashAlg::Sha3_256, b"m", b"", &h)
        .expect("valid");
    assert!(
        c.verifying_key()
            .verify_prehash(HashAlg::Sha3_384, b"m", b"", &h)
            .is_err()
    );
}

#[test]
fn hash_names_and_oids() {
    for alg in HashAlg::ALL {
        assert_eq!(HashAlg::from_name(alg.name()), Ok(alg));
        assert_eq!(HashAlg::from_name(&alg.name().to_uppercase()), Ok(alg));
        assert_eq!(alg.digest(b"abc").as_bytes().len(), alg.digest_len());
    }
    assert_eq!(
        HashAlg::from_name("md5"),
        Err(pqkit_ml_dsa::PreHashError::UnknownHash)
    );
    // SHA2-256("abc").
    assert_eq!(
        hex::encode(HashAlg::Sha2_256.digest(b"abc").as_bytes()),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(HashAlg::Sha2_512.oid_der()[10], 3);
    assert!(pqkit_ml_dsa::PreHash::from_digest(HashAlg::Sha2_256, &[0u8; 31]).is_err());
}
