//! The RustCrypto `signature` traits and the inherent signing forms agree.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use pqkit_slh_dsa::signature::{
    Keypair, MultipartSigner, MultipartVerifier, RandomizedSigner, SignatureEncoding, Signer,
    Verifier,
};
use pqkit_slh_dsa::{Error, HashAlg, Sha2_128f, Shake128f, Signature, SigningKey, hazmat};
use pqkit_testkit::rng::TestRng;

#[test]
fn signer_is_deterministic_with_empty_context() {
    let sk = SigningKey::<Sha2_128f>::from_seed(&[1; 16], &[2; 16], &[3; 16]).unwrap();
    let vk = sk.verifying_key();
    assert_eq!(Keypair::verifying_key(&sk), vk);
    let sig: Signature<Sha2_128f> = sk.sign(b"msg");
    assert_eq!(sig, sk.sign_deterministic(b"msg", b"").unwrap());
    assert_eq!(sig, sk.try_sign_with_context(b"msg", b"", None).unwrap());
    // opt_rand = PK.seed is the deterministic variant.
    assert_eq!(sig, sk.sign_with_rnd(b"msg", b"", &[3; 16]).unwrap());
    vk.verify(b"msg", &sig).unwrap();
    assert!(vk.verify(b"msG", &sig).is_err());
    let parts: Signature<Sha2_128f> = sk.multipart_sign(&[b"m", b"sg"]);
    assert_eq!(parts, sig);
    vk.multipart_verify(&[b"ms", b"g"], &sig).unwrap();
    // Encoding round trip.
    let bytes = sig.to_bytes();
    assert_eq!(Signature::<Sha2_128f>::try_from(&bytes[..]).unwrap(), sig);
    let repr: [u8; 17088] = sig.clone().into();
    assert_eq!(Signature::<Sha2_128f>::try_from(repr).unwrap(), sig);
    assert_eq!(SignatureEncoding::encoded_len(&sig), 17088);
}

#[test]
fn randomized_and_context_signers() {
    let sk = SigningKey::<Shake128f>::from_seed(&[4; 16], &[5; 16], &[6; 16]).unwrap();
    let vk = sk.verifying_key();
    let mut rng = TestRng(1);
    let a: Signature<Shake128f> = sk.sign_with_rng(&mut rng, b"msg");
    let b: Signature<Shake128f> = sk.sign_with_rng(&mut rng, b"msg");
    assert_ne!(a, b, "hedged signatures differ");
    vk.verify(b"msg", &a).unwrap();
    vk.verify(b"msg", &b).unwrap();
    // The same randomness through the inherent API gives the same bytes.
    let mut r1 = TestRng(9);
    let mut r2 = TestRng(9);
    let x: Signature<Shake128f> = sk
        .with_context(b"ctx")
        .unwrap()
        .sign_with_rng(&mut r1, b"m");
    let y = sk.sign_randomized(b"m", b"ctx", &mut r2).unwrap();
    assert_eq!(x, y);
    let cvk = vk.with_context(b"ctx").unwrap();
    cvk.verify(b"m", &x).unwrap();
    assert!(vk.verify(b"m", &x).is_err(), "context matters");
    let det: Signature<Shake128f> = sk.with_context(b"ctx").unwrap().sign(b"m");
    assert_eq!(det, sk.sign_deterministic(b"m", b"ctx").unwrap());
    #[cfg(feature = "getrandom")]
    {
        let h = sk.sign_hedged(b"m", b"ctx").unwrap();
        vk.verify_with_context(b"m", b"ctx", &h).unwrap();
        let h = sk
            .sign_prehash_hedged(HashAlg::Shake256, b"m", b"")
            .unwrap();
        vk.verify_prehash(HashAlg::Shake256, b"m", b"", &h).unwrap();
    }
}

#[test]
fn prehash_and_internal_are_domain_separated() {
    let sk = SigningKey::<Sha2_128f>::from_seed(&[7; 16], &[8; 16], &[9; 16]).unwrap();
    let vk = sk.verifying_key();
    let pure = sk.sign_deterministic(b"m", b"").unwrap();
    for alg in HashAlg::ALL {
        let ph = sk.sign_prehash_deterministic(alg, b"m", b"").unwrap();
        vk.verify_prehash(alg, b"m", b"", &ph).unwrap();
        assert_ne!(ph, pure);
        assert_eq!(
            vk.verify_with_context(b"m", b"", &ph),
            Err(Error::InvalidSignature)
        );
    }
    let int = hazmat::slh_sign_internal(&sk, &[b"m"], None).unwrap();
    // The same bytes into a caller's buffer; wrong lengths are errors.
    let mut buf = vec![0u8; 17088];
    hazmat::slh_sign_internal_into(&sk, &[b"m"], None, &mut buf).unwrap();
    assert_eq!(&buf[..], int.as_bytes());
    assert_eq!(
        hazmat::slh_sign_internal_into(&sk, &[b"m"], None, &mut buf[1..]),
        Err(Error::InvalidLength)
    );
    assert_eq!(
        hazmat::slh_sign_internal_into(&sk, &[b"m"], Some(&[0; 15]), &mut buf),
        Err(Error::InvalidLength)
    );
    hazmat::slh_verify_internal(&vk, &[b"m"], int.as_bytes()).unwrap();
    // The pure signature is slh_sign_internal of 0 || 0 || M.
    let wrapped = hazmat::slh_sign_internal(&sk, &[&[0, 0], b"m"], None).unwrap();
    assert_eq!(wrapped, pure);
}

#[test]
fn generate_matches_from_seed() {
    use pqkit_slh_dsa::Generate;
    let mut rng = TestRng(42);
    let sk = SigningKey::<Sha2_128f>::generate_from_rng(&mut rng);
    let mut again = TestRng(42);
    let seeds: [u8; 48] = again.bytes();
    let want =
        SigningKey::<Sha2_128f>::from_seed(&seeds[..16], &seeds[16..32], &seeds[32..]).unwrap();
    assert!(sk == want);
    assert!(SigningKey::<Sha2_128f>::new(&mut TestRng(42)) == want);
    assert!(SigningKey::<Sha2_128f>::try_new(&mut TestRng(42)).unwrap() == want);
    #[cfg(feature = "getrandom")]
    {
        let a = SigningKey::<Sha2_128f>::generate();
        let b = SigningKey::<Sha2_128f>::generate();
        assert!(a != b);
    }
}

/// RustCrypto `slh-dsa`'s README example, with pqkit's names.
#[test]
fn rustcrypto_readme_example() {
    use pqkit_slh_dsa::Shake128f;
    let mut rng = TestRng(7);
    let sk = SigningKey::<Shake128f>::new(&mut rng);
    let vk = sk.verifying_key();
    let vk_bytes = vk.to_bytes();
    let message = b"Hello world";
    let sig = sk.sign_with_rng(&mut rng, message);
    let vk_deserialized: pqkit_slh_dsa::VerifyingKey<Shake128f> = vk_bytes.into();
    assert_eq!(vk, vk_deserialized);
    assert!(vk_deserialized.verify(message, &sig).is_ok());
    // The byte conversions of the other types.
    let again = SigningKey::<Shake128f>::try_from(&sk.to_vec()[..]).unwrap();
    assert!(again == sk);
    let sig2 = Signature::<Shake128f>::from(&sig.to_bytes());
    assert_eq!(sig2.to_vec(), sig.to_vec());
    let r: &pqkit_slh_dsa::VerifyingKey<Shake128f> = sk.as_ref();
    assert_eq!(r, &vk);
    let arr: [u8; 32] = vk.clone().into();
    assert_eq!(&arr[..], &vk.to_vec()[..]);
}
