//! RustCrypto traits, PKCS#8 / SPKI, toy degrees, and rejection of bad
//! input without panics.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::TestRng;
use pkcs8::spki::{DecodePublicKey, EncodePublicKey};
use pkcs8::{DecodePrivateKey, EncodePrivateKey};
use pqkit_fn_dsa::Generate;
use pqkit_fn_dsa::{Error, HashAlg, Message, fn_dsa_512, fn_dsa_1024, hazmat::toy};
use signature::{
    Keypair, MultipartSigner, MultipartVerifier, RandomizedMultipartSigner, RandomizedSigner,
    SignatureEncoding, Signer, Verifier,
};

macro_rules! traits_test {
    ($name:ident, $module:ident) => {
        #[test]
        fn $name() {
            use $module::{Signature, SigningKey, VerifyingKey};
            let mut rng = TestRng::new(stringify!($name).as_bytes());
            let sk = SigningKey::try_generate_from_rng(&mut rng).unwrap();
            let vk: VerifyingKey = sk.verifying_key();

            // Signer (OS RNG), RandomizedSigner, Verifier.
            let sig: Signature = sk.try_sign(b"message").unwrap();
            vk.verify(b"message", &sig).unwrap();
            assert!(vk.verify(b"messagE", &sig).is_err());
            let sig2 = sk.try_sign_with_rng(&mut rng, b"message").unwrap();
            vk.verify(b"message", &sig2).unwrap();
            assert_ne!(sig, sig2, "randomized");

            // Multipart = concatenation.
            let sig = sk.try_multipart_sign(&[b"mes", b"", b"sage"]).unwrap();
            vk.verify(b"message", &sig).unwrap();
            vk.multipart_verify(&[b"m", b"essage"], &sig).unwrap();
            let sig = sk
                .try_multipart_sign_with_rng(&mut rng, &[b"message"])
                .unwrap();
            vk.multipart_verify(&[b"mess", b"age"], &sig).unwrap();

            // Compact keys sign the same way.
            let compact = sk.clone().into_compact();
            assert!(!compact.is_expanded() && sk.is_expanded());
            let s = compact.sign_randomized(b"compact", b"c", &mut rng).unwrap();
            vk.verify_with_context(b"compact", b"c", &s).unwrap();
            assert_eq!(&compact.to_bytes()[..], &sk.to_bytes()[..]);

            // Keypair, SignatureEncoding.
            assert_eq!(sk.verifying_key(), Keypair::verifying_key(&sk));
            let bytes = sig.to_bytes();
            assert_eq!(bytes.len(), $module::SIGNATURE_SIZE);
            assert_eq!(Signature::try_from(&bytes[..]).unwrap(), sig);
            assert_eq!(sig.encoded_len(), $module::SIGNATURE_SIZE);

            // Contexts and pre-hashes are bound.
            let s = sk.sign_randomized(b"m", b"A", &mut rng).unwrap();
            vk.verify_with_context(b"m", b"A", &s).unwrap();
            assert!(vk.verify_with_context(b"m", b"B", &s).is_err());
            assert!(vk.verify(b"m", &s).is_err());
            let long = [0u8; 256];
            assert_eq!(
                sk.sign_randomized(b"m", &long, &mut rng).unwrap_err(),
                Error::ContextTooLong
            );
            assert_eq!(
                vk.verify_with_context(b"m", &long, &s).unwrap_err(),
                Error::ContextTooLong
            );
            for h in HashAlg::ALL {
                let d = h.digest(b"m");
                let m = Message::PreHashed {
                    ctx: b"c",
                    hash: h,
                    digest: d.as_ref(),
                };
                let s = sk.sign_message_randomized(&m, &mut rng).unwrap();
                vk.verify_message(&m, &s).unwrap();
                let raw = Message::Raw {
                    ctx: b"c",
                    msg: d.as_ref(),
                };
                assert!(
                    vk.verify_message(&raw, &s).is_err(),
                    "{h:?}: pre-hash and raw are separated"
                );
                let short = Message::PreHashed {
                    ctx: b"c",
                    hash: h,
                    digest: &d.as_ref()[1..],
                };
                assert_eq!(
                    vk.verify_message(&short, &s).unwrap_err(),
                    Error::InvalidPrehash
                );
            }
            // RustCrypto digest traits = pre-hashed mode with an empty context.
            {
                use signature::digest::Update;
                use signature::{DigestSigner, DigestVerifier, RandomizedDigestSigner};
                let s: Signature = sk
                    .try_sign_digest_with_rng(&mut rng, |d: &mut sha2::Sha384| {
                        d.update(b"digest ");
                        d.update(b"message");
                        Ok(())
                    })
                    .unwrap();
                let d = HashAlg::Sha2_384.digest(b"digest message");
                vk.verify_message(
                    &Message::PreHashed {
                        ctx: b"",
                        hash: HashAlg::Sha2_384,
                        digest: d.as_ref(),
                    },
                    &s,
                )
                .unwrap();
                vk.verify_digest(
                    |d: &mut sha2::Sha384| {
                        d.update(b"digest message");
                        Ok(())
                    },
                    &s,
                )
                .unwrap();
                // pqkit's own SHA-384 is the same pre-hash.
                vk.verify_digest(
                    |d: &mut pqkit_fn_dsa::sha2::Sha384| {
                        d.update(b"digest ");
                        d.update(b"message");
                        Ok(())
                    },
                    &s,
                )
                .unwrap();
                assert!(
                    vk.verify_digest(
                        |d: &mut sha2::Sha512| {
                            d.update(b"digest message");
                            Ok(())
                        },
                        &s
                    )
                    .is_err()
                );
                let s: Signature = sk
                    .try_sign_digest(|d: &mut sha3::Sha3_256| {
                        d.update(b"x");
                        Ok(())
                    })
                    .unwrap();
                vk.verify_digest(
                    |d: &mut sha3::Sha3_256| {
                        d.update(b"x");
                        Ok(())
                    },
                    &s,
                )
                .unwrap();
            }
            // Original Falcon mode signs and verifies, and is separated from FN-DSA.
            let orig = Message::OriginalFalcon { msg: b"m" };
            let s = sk.sign_message_randomized(&orig, &mut rng).unwrap();
            vk.verify_message(&orig, &s).unwrap();
            vk.verify_original_falcon(b"m", s.as_bytes()).unwrap();
            assert!(vk.verify(b"m", &s).is_err());

            // PKCS#8 / SPKI round trips (DER and PEM).
            let der = sk.to_pkcs8_der().unwrap();
            let sk2 = SigningKey::from_pkcs8_der(der.as_bytes()).unwrap();
            assert_eq!(&sk2.to_bytes()[..], &sk.to_bytes()[..]);
            let pem = sk.to_pkcs8_pem(pkcs8::LineEnding::LF).unwrap();
            assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----"));
            assert_eq!(
                &SigningKey::from_pkcs8_pem(&pem).unwrap().to_bytes()[..],
                &sk.to_bytes()[..]
            );
            let spki = vk.to_public_key_der().unwrap();
            assert_eq!(
                VerifyingKey::from_public_key_der(spki.as_bytes()).unwrap(),
                vk
            );
            let pem = vk.to_public_key_pem(pkcs8::LineEnding::LF).unwrap();
            assert_eq!(VerifyingKey::from_public_key_pem(&pem).unwrap(), vk);
            // The OID is in the DER.
            let oid = $module::OID.as_bytes().to_vec();
            assert!(spki.as_bytes().windows(oid.len()).any(|w| w == &oid[..]));
            // The liboqs / oqs-provider layout: OCTET STRING { sk || pk }.
            {
                use pkcs8::der::Encode;
                let mut both = sk.to_bytes().to_vec();
                both.extend_from_slice(vk.as_bytes());
                let inner = pkcs8::der::asn1::OctetStringRef::new(&both)
                    .unwrap()
                    .to_der()
                    .unwrap();
                let info = pkcs8::PrivateKeyInfoRef::new(
                    $module::ALGORITHM_ID,
                    pkcs8::der::asn1::OctetStringRef::new(&inner).unwrap(),
                );
                let oqs_der = info.to_der().unwrap();
                let k = SigningKey::from_pkcs8_der(&oqs_der).unwrap();
                assert_eq!(&k.to_bytes()[..], &sk.to_bytes()[..]);
                // A public key that does not match is rejected.
                let last = both.len() - 1;
                both[last] ^= 1;
                let inner = pkcs8::der::asn1::OctetStringRef::new(&both)
                    .unwrap()
                    .to_der()
                    .unwrap();
                let info = pkcs8::PrivateKeyInfoRef::new(
                    $module::ALGORITHM_ID,
                    pkcs8::der::asn1::OctetStringRef::new(&inner).unwrap(),
                );
                assert!(SigningKey::from_pkcs8_der(&info.to_der().unwrap()).is_err());
            }
            // Corrupted DER: errors, no panics.
            for i in 0..der.as_bytes().len().min(40) {
                let mut bad = der.as_bytes().to_vec();
                bad[i] ^= 0x01;
                let _ = SigningKey::from_pkcs8_der(&bad);
            }
            let mut bad = spki.as_bytes().to_vec();
            let last = bad.len() - 1;
            bad[last] ^= 0xFF; // last coefficient byte: may break canonicity or not
            let _ = VerifyingKey::from_public_key_der(&bad);
            assert!(
                VerifyingKey::from_public_key_der(&spki.as_bytes()[..spki.as_bytes().len() - 1])
                    .is_err()
            );
        }
    };
}

traits_test!(traits_512, fn_dsa_512);
traits_test!(traits_1024, fn_dsa_1024);

#[test]
fn wrong_degree_and_lengths_rejected() {
    let mut rng = TestRng::new(b"degrees");
    let sk512 = fn_dsa_512::SigningKey::try_generate_from_rng(&mut rng).unwrap();
    let sk_bytes = sk512.to_bytes();
    let vk_bytes = sk512.verifying_key().to_bytes();
    // A 512 key is not a 1024 key.
    assert_eq!(
        fn_dsa_1024::SigningKey::from_bytes(&sk_bytes[..]).unwrap_err(),
        Error::UnsupportedDegree
    );
    assert_eq!(
        fn_dsa_1024::VerifyingKey::from_bytes(&vk_bytes).unwrap_err(),
        Error::UnsupportedDegree
    );
    // PKCS#8 with the other OID fails.
    let der = sk512.to_pkcs8_der().unwrap();
    assert!(fn_dsa_1024::SigningKey::from_pkcs8_der(der.as_bytes()).is_err());
    // Lengths.
    for len in [0usize, 1, 100, 896, 898] {
        let v = vec![9u8; len];
        assert!(fn_dsa_512::VerifyingKey::from_bytes(&v).is_err());
    }
    assert_eq!(
        fn_dsa_512::Signature::from_bytes(&[0x39; 665]).unwrap_err(),
        Error::InvalidLength
    );
    assert!(fn_dsa_512::SigningKey::from_bytes(&sk_bytes[..1280]).is_err());
    // Random garbage of the right length never panics.
    let mut buf = vec![0u8; 1281];
    for i in 0..200u32 {
        rand_core::Rng::fill_bytes(&mut rng, &mut buf);
        buf[0] = 0x59;
        let _ = fn_dsa_512::SigningKey::from_bytes(&buf);
        let mut s = buf[..666].to_vec();
        s[0] = 0x39;
        let _ = fn_dsa_512::Signature::from_bytes(&s);
        let _ = sk512
            .verifying_key()
            .verify_original_falcon(b"x", &s[..(41 + (i as usize % 600))]);
    }
    // Toy degrees are rejected by the standard types.
    let toy = toy::SigningKey::generate_with_logn(4, &mut rng).unwrap();
    assert_eq!(
        fn_dsa_512::SigningKey::from_bytes(&toy.to_bytes()).unwrap_err(),
        Error::UnsupportedDegree
    );
    assert_eq!(
        fn_dsa_512::VerifyingKey::from_bytes(toy.verifying_key().as_bytes()).unwrap_err(),
        Error::UnsupportedDegree
    );
}

#[test]
fn toy_degrees() {
    let mut rng = TestRng::new(b"toy");
    for logn in 2..=8 {
        let sk = toy::SigningKey::generate_with_logn(logn, &mut rng).unwrap();
        let vk = sk.verifying_key();
        assert_eq!(vk.logn(), logn);
        let m = Message::raw(b"toy message");
        let sig = sk.sign_message_randomized(&m, &mut rng).unwrap();
        vk.verify_message(&m, &sig).unwrap();
        assert!(vk.verify_message(&Message::raw(b"other"), &sig).is_err());
        let sk2 = toy::SigningKey::from_bytes(&sk.to_bytes()).unwrap();
        assert_eq!(&sk2.verifying_key().as_bytes(), &vk.as_bytes());
        // fn-dsa agrees on toy keys too.
        use fn_dsa::{SigningKey as _, VerifyingKey as _};
        let theirs = fn_dsa::VerifyingKeyWeak::decode(vk.as_bytes()).unwrap();
        assert!(theirs.verify(
            &sig,
            &fn_dsa::DOMAIN_NONE,
            &fn_dsa::HASH_ID_RAW,
            b"toy message"
        ));
        let mut their_sk = fn_dsa::SigningKeyWeak::decode(&sk.to_bytes()).unwrap();
        let mut their_sig = vec![0u8; sig.len()];
        their_sk.sign(
            &mut rng,
            &fn_dsa::DOMAIN_NONE,
            &fn_dsa::HASH_ID_RAW,
            b"toy message",
            &mut their_sig,
        );
        vk.verify_message(&m, &their_sig).unwrap();
    }
    assert_eq!(
        toy::SigningKey::generate_with_logn(9, &mut rng).unwrap_err(),
        Error::UnsupportedDegree
    );
    assert_eq!(
        toy::SigningKey::generate_with_logn(1, &mut rng).unwrap_err(),
        Error::UnsupportedDegree
    );
}

/// One signing key shared by several threads (`sign` takes `&self`; each
/// call has its own work area): every thread's signatures equal the ones
/// made one after the other from the same RNG streams, and verify.
#[test]
#[cfg_attr(target_family = "wasm", ignore = "no threads on wasm32-wasip1")]
fn one_key_signs_from_several_threads() {
    use fn_dsa_1024::{Signature, SigningKey};
    fn sign_all(sk: &SigningKey, t: u8) -> Vec<Signature> {
        let mut rng = TestRng::new(&[b't', t]);
        (0..4u8)
            .map(|i| {
                sk.sign_message_randomized(&Message::raw(&[t, i]), &mut rng)
                    .unwrap()
            })
            .collect()
    }
    let sk = SigningKey::from_seed(&[7u8; 32]);
    let vk = sk.verifying_key();
    let sequential: Vec<Vec<Signature>> = (0..4u8).map(|t| sign_all(&sk, t)).collect();
    let parallel: Vec<Vec<Signature>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4u8)
            .map(|t| {
                let sk = &sk;
                s.spawn(move || sign_all(sk, t))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(parallel, sequential);
    for (t, sigs) in parallel.iter().enumerate() {
        for (i, sig) in sigs.iter().enumerate() {
            vk.verify_message(&Message::raw(&[t as u8, i as u8]), sig)
                .unwrap();
        }
    }
}
