//! Composite ML-DSA against the draft's vectors (lamps-wg/draft-composite-sigs
//! `src/testvectors.json`, read from the shared vectors, never copied):
//! every composite's public key, private key (raw and PKCS#8), both
//! signatures and self-signed certificate, mutated and misplaced inputs
//! refused; fresh keys of every signable combination signing and
//! verifying through every interface; certificates issued with the
//! `x509-cert` builder; typed errors on truncated, over-long and
//! malformed inputs.
#![cfg(all(feature = "composite", feature = "pem"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use base64ct::{Base64, Encoding};
use der::{Decode, Encode};
use pqkit_hybrid::composite::{
    CompositeParams, Error, Generate, MessageRepresentative, MlDsa44EcdsaP256Sha256,
    MlDsa44Ed25519Sha512, MlDsa44Rsa2048Pkcs15Sha256, MlDsa44Rsa2048PssSha256,
    MlDsa65EcdsaBrainpoolP256r1Sha512, MlDsa65EcdsaP256Sha512, MlDsa65EcdsaP384Sha512,
    MlDsa65Ed25519Sha512, MlDsa65Rsa3072Pkcs15Sha512, MlDsa65Rsa3072PssSha512,
    MlDsa65Rsa4096Pkcs15Sha512, MlDsa65Rsa4096PssSha512, MlDsa87EcdsaBrainpoolP384r1Sha512,
    MlDsa87EcdsaP384Sha512, MlDsa87EcdsaP521Sha512, MlDsa87Ed448Shake256, MlDsa87Rsa3072PssSha512,
    MlDsa87Rsa4096PssSha512, PREFIX, SignableParams, Signature, SigningKey, Traditional,
    TraditionalSigner, VerifyingKey,
    signature::{
        Keypair, MultipartSigner, MultipartVerifier, RandomizedMultipartSigner, RandomizedSigner,
        SignatureEncoding, Signer, Verifier,
    },
};
use pqkit_hybrid::pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding, PrivateKeyInfoRef};
use pqkit_hybrid::spki::{DecodePublicKey, EncodePublicKey, SubjectPublicKeyInfoRef};
use pqkit_ml_dsa::ParameterSet;
use pqkit_testkit::rng::TestRng;
use pqkit_testkit::vectors;

// ---------------------------------------------------------------------------
// The vectors

struct Case {
    id: String,
    pk: Vec<u8>,
    x5c: Vec<u8>,
    sk: Vec<u8>,
    sk_pkcs8: Vec<u8>,
    s: Vec<u8>,
    s_ctx: Vec<u8>,
}

struct Vectors {
    m: Vec<u8>,
    ctx: Vec<u8>,
    cases: Vec<Case>,
}

fn b64(v: &serde_json::Value) -> Vec<u8> {
    Base64::decode_vec(v.as_str().expect("base64 string")).expect("valid base64")
}

fn load() -> Option<Vectors> {
    let v = vectors::json("composite/testvectors.json")?;
    let cases = v["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .map(|t| Case {
            id: t["tcId"].as_str().expect("tcId").to_owned(),
            pk: b64(&t["pk"]),
            x5c: b64(&t["x5c"]),
            sk: b64(&t["sk"]),
            sk_pkcs8: b64(&t["sk_pkcs8"]),
            s: b64(&t["s"]),
            s_ctx: b64(&t["sWithContext"]),
        })
        .collect();
    Some(Vectors {
        m: b64(&v["m"]),
        ctx: b64(&v["ctx"]),
        cases,
    })
}

type Check = fn(&Vectors, &Case);

/// The combinations pqkit signs with, each with its full vector check.
fn signable_checks() -> Vec<(&'static str, Check)> {
    vec![
        (MlDsa44Ed25519Sha512::NAME, signable::<MlDsa44Ed25519Sha512>),
        (MlDsa65Ed25519Sha512::NAME, signable::<MlDsa65Ed25519Sha512>),
        (
            MlDsa44EcdsaP256Sha256::NAME,
            signable::<MlDsa44EcdsaP256Sha256>,
        ),
        (
            MlDsa65EcdsaP256Sha512::NAME,
            signable::<MlDsa65EcdsaP256Sha512>,
        ),
        (
            MlDsa65EcdsaP384Sha512::NAME,
            signable::<MlDsa65EcdsaP384Sha512>,
        ),
        (
            MlDsa87EcdsaP384Sha512::NAME,
            signable::<MlDsa87EcdsaP384Sha512>,
        ),
        (
            MlDsa87EcdsaP521Sha512::NAME,
            signable::<MlDsa87EcdsaP521Sha512>,
        ),
        (
            MlDsa65EcdsaBrainpoolP256r1Sha512::NAME,
            signable::<MlDsa65EcdsaBrainpoolP256r1Sha512>,
        ),
        (
            MlDsa87EcdsaBrainpoolP384r1Sha512::NAME,
            signable::<MlDsa87EcdsaBrainpoolP384r1Sha512>,
        ),
    ]
}

/// The verify-only combinations, with the check of their private keys
/// against their public keys done by the test (RSA, Ed448).
fn verify_only_checks() -> Vec<(&'static str, Check)> {
    vec![
        (
            MlDsa44Rsa2048PssSha256::NAME,
            verify_only_rsa::<MlDsa44Rsa2048PssSha256>,
        ),
        (
            MlDsa44Rsa2048Pkcs15Sha256::NAME,
            verify_only_rsa::<MlDsa44Rsa2048Pkcs15Sha256>,
        ),
        (
            MlDsa65Rsa3072PssSha512::NAME,
            verify_only_rsa::<MlDsa65Rsa3072PssSha512>,
        ),
        (
            MlDsa65Rsa3072Pkcs15Sha512::NAME,
            verify_only_rsa::<MlDsa65Rsa3072Pkcs15Sha512>,
        ),
        (
            MlDsa65Rsa4096PssSha512::NAME,
            verify_only_rsa::<MlDsa65Rsa4096PssSha512>,
        ),
        (
            MlDsa65Rsa4096Pkcs15Sha512::NAME,
            verify_only_rsa::<MlDsa65Rsa4096Pkcs15Sha512>,
        ),
        (
            MlDsa87Rsa3072PssSha512::NAME,
            verify_only_rsa::<MlDsa87Rsa3072PssSha512>,
        ),
        (
            MlDsa87Rsa4096PssSha512::NAME,
            verify_only_rsa::<MlDsa87Rsa4096PssSha512>,
        ),
        (MlDsa87Ed448Shake256::NAME, verify_only_ed448),
    ]
}

const PURE_ML_DSA: [&str; 3] = ["id-ML-DSA-44", "id-ML-DSA-65", "id-ML-DSA-87"];

fn run(checks: &[(&'static str, Check)]) {
    let Some(v) = load() else {
        return;
    };
    for (name, check) in checks {
        let cases: Vec<&Case> = v.cases.iter().filter(|c| c.id == *name).collect();
        assert_eq!(cases.len(), 1, "{name}: exactly one vector case");
        check(&v, cases[0]);
    }
}

/// Every case of the file is one of the 18 composites or 3 pure ML-DSA
/// sets checked here, and no two checks claim the same case.
#[test]
fn vectors_cover_every_case() {
    let Some(v) = load() else {
        return;
    };
    assert_eq!(v.m, b"The quick brown fox jumps over the lazy dog.");
    assert_eq!(v.cases.len(), 21);
    let mut known: Vec<&str> = signable_checks()
        .iter()
        .chain(verify_only_checks().iter())
        .map(|(n, _)| *n)
        .chain(PURE_ML_DSA)
        .collect();
    known.sort_unstable();
    known.dedup();
    assert_eq!(known.len(), 21);
    for c in &v.cases {
        assert!(known.contains(&c.id.as_str()), "unchecked case {}", c.id);
    }
}

#[test]
fn signable_vectors() {
    run(&signable_checks());
}

#[test]
fn verify_only_vectors() {
    run(&verify_only_checks());
}

/// The draft's baseline cases: pure ML-DSA (pqkit-ml-dsa), seed keys.
#[test]
fn pure_ml_dsa_vectors() {
    let Some(v) = load() else {
        return;
    };
    fn check<P: pqkit_ml_dsa::ParameterSetOid>(v: &Vectors, c: &Case) {
        let sk = pqkit_ml_dsa::SigningKey::<P>::from_seed_slice(&c.sk).unwrap();
        let vk = sk.verifying_key();
        assert_eq!(vk.as_bytes(), &c.pk[..], "{}", c.id);
        let from_pkcs8 = pqkit_ml_dsa::SigningKey::<P>::from_pkcs8_der(&c.sk_pkcs8).unwrap();
        assert_eq!(from_pkcs8.as_seed().as_slice(), &c.sk[..]);
        assert_eq!(sk.to_pkcs8_der().unwrap().as_bytes(), &c.sk_pkcs8[..]);
        let s = pqkit_ml_dsa::Signature::<P>::from_bytes(&c.s).unwrap();
        let s_ctx = pqkit_ml_dsa::Signature::<P>::from_bytes(&c.s_ctx).unwrap();
        assert!(vk.verify_with_context(&v.m, b"", &s));
        assert!(vk.verify_with_context(&v.m, &v.ctx, &s_ctx));
        assert!(!vk.verify_with_context(&v.m, &v.ctx, &s));
        let cert = x509_cert::Certificate::from_der(&c.x5c).unwrap();
        let tbs = cert.tbs_certificate().to_der().unwrap();
        let sig = pqkit_ml_dsa::Signature::<P>::from_bytes(cert.signature().raw_bytes()).unwrap();
        assert!(vk.verify_with_context(&tbs, b"", &sig), "{} x5c", c.id);
    }
    let mut seen = 0;
    for c in &v.cases {
        match c.id.as_str() {
            "id-ML-DSA-44" => check::<pqkit_ml_dsa::MlDsa44>(&v, c),
            "id-ML-DSA-65" => check::<pqkit_ml_dsa::MlDsa65>(&v, c),
            "id-ML-DSA-87" => check::<pqkit_ml_dsa::MlDsa87>(&v, c),
            _ => continue,
        }
        seen += 1;
    }
    assert_eq!(seen, 3);
}

// ---------------------------------------------------------------------------
// What every composite vector must satisfy

/// Public key, signatures, refusals and the certificate.
fn check_public<C: CompositeParams>(v: &Vectors, c: &Case) -> VerifyingKey<C> {
    let id = C::NAME;
    let ml_pk = <C::MlDsa as ParameterSet>::PK_LEN;
    let ml_sig = <C::MlDsa as ParameterSet>::SIG_LEN;

    // The public key parses and re-encodes byte for byte, raw and in SPKI.
    let vk = VerifyingKey::<C>::from_bytes(&c.pk).unwrap_or_else(|e| panic!("{id}: pk: {e}"));
    assert_eq!(vk.as_bytes(), &c.pk[..], "{id}");
    assert_eq!(vk.to_bytes(), c.pk, "{id}");
    assert_eq!(vk.ml_dsa_key().as_bytes(), &c.pk[..ml_pk], "{id}");
    assert_eq!(vk.traditional_key_bytes(), &c.pk[ml_pk..], "{id}");
    let spki = vk.to_public_key_der().unwrap();
    assert_eq!(
        VerifyingKey::<C>::from_public_key_der(spki.as_bytes()).unwrap(),
        vk
    );

    // Both signatures verify, each with its own context only.
    let s = Signature::<C>::from_bytes(&c.s).unwrap_or_else(|e| panic!("{id}: s: {e}"));
    let s_ctx = Signature::<C>::from_bytes(&c.s_ctx).unwrap();
    assert_eq!(s.as_bytes(), &c.s[..]);
    assert_eq!(s.to_vec(), c.s);
    assert_eq!(s.ml_dsa_signature(), &c.s[..ml_sig]);
    assert_eq!(s.traditional_signature(), &c.s[ml_sig..]);
    vk.verify_with_context(&v.m, b"", &s)
        .unwrap_or_else(|e| panic!("{id}: s does not verify: {e}"));
    vk.verify(&v.m, &s).unwrap();
    vk.multipart_verify(&[&v.m[..10], &v.m[10..]], &s).unwrap();
    vk.verify_with_context(&v.m, &v.ctx, &s_ctx)
        .unwrap_or_else(|e| panic!("{id}: sWithContext does not verify: {e}"));
    vk.with_context(&v.ctx)
        .unwrap()
        .verify(&v.m, &s_ctx)
        .unwrap();
    let m = MessageRepresentative::new::<C>(&v.m, &v.ctx).unwrap();
    vk.verify_representative(&m, &s_ctx).unwrap();

    // Wrong context, wrong message: refused.
    assert_eq!(
        vk.verify_with_context(&v.m, &v.ctx, &s),
        Err(Error::InvalidSignature),
        "{id}"
    );
    assert_eq!(vk.verify(&v.m, &s_ctx).map_err(|_| ()), Err(()), "{id}");
    let mut other = v.m.clone();
    other[0] ^= 1;
    assert_eq!(
        vk.verify_with_context(&other, b"", &s),
        Err(Error::InvalidSignature)
    );
    assert_eq!(
        vk.verify_with_context(&v.m[1..], b"", &s),
        Err(Error::InvalidSignature)
    );

    // Halves of the two signatures swapped: each half is checked.
    for (a, b, ctx) in [(&c.s, &c.s_ctx, &b""[..]), (&c.s_ctx, &c.s, &v.ctx[..])] {
        let mixed = [&a[..ml_sig], &b[ml_sig..]].concat();
        let mixed = Signature::<C>::from_bytes(&mixed).unwrap();
        assert_eq!(
            vk.verify_with_context(&v.m, ctx, &mixed),
            Err(Error::InvalidSignature)
        );
    }

    // Mutated signatures: one bit anywhere in either half.
    let n = c.s.len();
    for at in [
        0,
        1,
        ml_sig / 2,
        ml_sig - 1,
        ml_sig,
        ml_sig + 1,
        ml_sig + (n - ml_sig) / 2,
        n - 1,
    ] {
        for bit in [0u8, 7] {
            let mut bad = c.s.clone();
            bad[at] ^= 1 << bit;
            if let Ok(bad) = Signature::<C>::from_bytes(&bad) {
                assert!(
                    vk.verify_with_context(&v.m, b"", &bad).is_err(),
                    "{id}: mutated byte {at} bit {bit} verified"
                );
            }
        }
    }

    // Truncated and over-long signatures and keys: typed errors.
    let err = |r: Result<Signature<C>, Error>| r.expect_err("accepted");
    assert!(matches!(
        err(Signature::from_bytes(&c.s[..n - 1])),
        Error::InvalidLength | Error::MalformedSignature
    ));
    assert!(matches!(
        err(Signature::from_bytes(&[&c.s[..], &[0]].concat())),
        Error::InvalidLength | Error::MalformedSignature
    ));
    assert_eq!(
        err(Signature::from_bytes(&c.s[..ml_sig])),
        Error::InvalidLength
    );
    assert_eq!(err(Signature::from_bytes(&[])), Error::InvalidLength);
    assert!(Signature::<C>::try_from(&c.s[..ml_sig + 3]).is_err());
    let pk_err = |b: &[u8]| VerifyingKey::<C>::from_bytes(b).expect_err("accepted");
    assert!(matches!(
        pk_err(&c.pk[..c.pk.len() - 1]),
        Error::InvalidLength | Error::InvalidPublicKey
    ));
    assert!(matches!(
        pk_err(&[&c.pk[..], &[0]].concat()),
        Error::InvalidLength | Error::InvalidPublicKey
    ));
    assert_eq!(pk_err(&c.pk[..ml_pk]), Error::InvalidLength);
    assert_eq!(pk_err(&[]), Error::InvalidLength);

    // The self-signed certificate: composite OIDs without parameters, the
    // vector's key, and a signature that verifies under it.
    let cert = x509_cert::Certificate::from_der(&c.x5c).unwrap();
    assert_eq!(cert.signature_algorithm().oid, C::OID, "{id}");
    assert!(cert.signature_algorithm().parameters.is_none());
    let cert_spki = cert
        .tbs_certificate()
        .subject_public_key_info()
        .to_der()
        .unwrap();
    assert_eq!(cert_spki, spki.as_bytes(), "{id}: SPKI byte for byte");
    let cert_vk = VerifyingKey::<C>::from_public_key_der(&cert_spki).unwrap();
    assert_eq!(cert_vk, vk);
    let tbs = cert.tbs_certificate().to_der().unwrap();
    let sig = Signature::<C>::from_bytes(cert.signature().raw_bytes()).unwrap();
    cert_vk
        .verify(&tbs, &sig)
        .unwrap_or_else(|e| panic!("{id}: certificate signature: {e}"));
    let mut tampered = tbs.clone();
    tampered[tbs.len() / 2] ^= 1;
    assert!(cert_vk.verify(&tampered, &sig).is_err());

    // The PKCS#8 wrapper: the composite OID, no parameters, the raw key.
    let info = PrivateKeyInfoRef::from_der(&c.sk_pkcs8).unwrap();
    assert_eq!(info.algorithm.oid, C::OID);
    assert!(info.algorithm.parameters.is_none());
    assert_eq!(info.private_key.as_bytes(), &c.sk[..]);
    assert!(info.public_key.is_none());
    // The ML-DSA seed yields the ML-DSA half of the public key.
    let ml = pqkit_ml_dsa::SigningKey::<C::MlDsa>::from_seed_slice(&c.sk[..32]).unwrap();
    assert_eq!(ml.verifying_key().as_bytes(), &c.pk[..ml_pk], "{id}");
    vk
}

fn signable<C: SignableParams>(v: &Vectors, c: &Case) {
    let id = C::NAME;
    let vk = check_public::<C>(v, c);
    let ml_sig = <C::MlDsa as ParameterSet>::SIG_LEN;

    // The private key parses, raw and PKCS#8, and re-encodes byte for
    // byte; its public key is the vector's.
    let sk = SigningKey::<C>::from_bytes(&c.sk).unwrap_or_else(|e| panic!("{id}: sk: {e}"));
    assert_eq!(&sk.to_bytes()[..], &c.sk[..], "{id}");
    assert_eq!(sk.verifying_key(), vk, "{id}");
    assert_eq!(sk.ml_dsa_key().as_seed().as_slice(), &c.sk[..32]);
    let sk8 = SigningKey::<C>::from_pkcs8_der(&c.sk_pkcs8).unwrap();
    assert_eq!(&sk8.to_bytes()[..], &c.sk[..]);
    assert_eq!(
        sk8.to_pkcs8_der().unwrap().as_bytes(),
        &c.sk_pkcs8[..],
        "{id}: PKCS#8"
    );
    let v2 = sk.to_pkcs8_der_v2().unwrap();
    assert_eq!(
        SigningKey::<C>::from_pkcs8_der(v2.as_bytes())
            .unwrap()
            .verifying_key(),
        vk
    );
    let pem = sk.to_pkcs8_pem(LineEnding::LF).unwrap();
    assert_eq!(
        &SigningKey::<C>::from_pkcs8_pem(&pem).unwrap().to_bytes()[..],
        &c.sk[..]
    );

    // A v2 key whose [1] public key is another key's: refused.
    let mut wrong = c.pk.clone();
    wrong[5] ^= 1;
    let v2_wrong = pqkit_pkix::pkcs8_der(C::OID, &c.sk, Some(&wrong)).unwrap();
    assert!(SigningKey::<C>::from_pkcs8_der(v2_wrong.as_bytes()).is_err());

    // Deterministic signing: what is deterministic matches the vectors.
    let det = sk.sign_deterministic(&v.m, b"").unwrap();
    assert_eq!(det, sk.sign_deterministic(&v.m, b"").unwrap());
    assert_eq!(det, sk.sign(&v.m));
    assert_eq!(det, sk.multipart_sign(&[&v.m[..3], &v.m[3..]]));
    vk.verify(&v.m, &det).unwrap();
    let det_ctx = sk.sign_deterministic(&v.m, &v.ctx).unwrap();
    assert_eq!(det_ctx, sk.with_context(&v.ctx).unwrap().sign(&v.m));
    vk.verify_with_context(&v.m, &v.ctx, &det_ctx).unwrap();
    assert!(vk.verify(&v.m, &det_ctx).is_err());
    if <C::Traditional as Traditional>::NAME == "Ed25519" {
        // Ed25519 is deterministic: the traditional halves are the
        // vectors' byte for byte.
        assert_eq!(det.traditional_signature(), &c.s[ml_sig..], "{id}");
        assert_eq!(det_ctx.traditional_signature(), &c.s_ctx[ml_sig..], "{id}");
    }

    // Hedged signing: verifies, and differs from call to call.
    let mut rng = TestRng(c.pk.len() as u64);
    let a = sk.sign_randomized(&v.m, &v.ctx, &mut rng).unwrap();
    let b = sk
        .with_context(&v.ctx)
        .unwrap()
        .sign_with_rng(&mut rng, &v.m);
    assert_ne!(a.ml_dsa_signature(), b.ml_dsa_signature());
    vk.verify_with_context(&v.m, &v.ctx, &a).unwrap();
    vk.verify_with_context(&v.m, &v.ctx, &b).unwrap();
    let r = sk.sign_with_rng(&mut rng, &v.m);
    vk.verify(&v.m, &r).unwrap();
    let r = sk.multipart_sign_with_rng(&mut rng, &[&v.m[..7], &v.m[7..]]);
    vk.verify(&v.m, &r).unwrap();

    // Private keys: truncated, over-long, bad traditional half.
    let sk_err = |b: &[u8]| SigningKey::<C>::from_bytes(b).expect_err("accepted");
    assert_eq!(sk_err(&c.sk[..c.sk.len() - 1]), Error::InvalidLength);
    assert_eq!(sk_err(&[&c.sk[..], &[0]].concat()), Error::InvalidLength);
    assert_eq!(sk_err(&c.sk[..32]), Error::InvalidLength);
    assert!(SigningKey::<C>::from_pkcs8_der(&c.sk_pkcs8[..c.sk_pkcs8.len() - 1]).is_err());
}

fn verify_only_rsa<C: CompositeParams>(v: &Vectors, c: &Case) {
    use rsa::pkcs1::{DecodeRsaPrivateKey, EncodeRsaPrivateKey, EncodeRsaPublicKey};
    let vk = check_public::<C>(v, c);
    let ml_pk = <C::MlDsa as ParameterSet>::PK_LEN;
    // The RSA half of the private key (PKCS#1 RSAPrivateKey, version 0)
    // re-encodes byte for byte and belongs to the public key.
    let rsa_sk = rsa::PrivateKey::from_pkcs1_der(&c.sk[32..]).unwrap();
    assert_eq!(
        rsa_sk.to_pkcs1_der().unwrap().as_bytes(),
        &c.sk[32..],
        "{}",
        C::NAME
    );
    let rsa_pk = rsa_sk.to_public_key().to_pkcs1_der().unwrap();
    assert_eq!(rsa_pk.as_bytes(), &c.pk[ml_pk..]);
    assert_eq!(vk.traditional_key_bytes(), rsa_pk.as_bytes());
}

fn verify_only_ed448(v: &Vectors, c: &Case) {
    type C = MlDsa87Ed448Shake256;
    let vk = check_public::<C>(v, c);
    let ml_pk = <<C as CompositeParams>::MlDsa as ParameterSet>::PK_LEN;
    assert_eq!(c.sk.len(), 32 + 57);
    let ed = ed448_goldilocks::SigningKey::try_from(&c.sk[32..]).unwrap();
    assert_eq!(ed.verifying_key().as_bytes(), &c.pk[ml_pk..]);
    assert_eq!(vk.traditional_key_bytes(), &c.pk[ml_pk..]);
    // Pure Ed448 (empty context) over M': the traditional half is
    // deterministic, so it is the vector's byte for byte.
    use ed448_goldilocks::signature::Signer as _;
    for (ctx, s) in [(&b""[..], &c.s), (&v.ctx[..], &c.s_ctx)] {
        let m = MessageRepresentative::new::<C>(&v.m, ctx).unwrap();
        let sig: ed448_goldilocks::Signature = ed.sign(m.as_bytes());
        assert_eq!(&sig.to_bytes()[..], &s[4627..]);
    }
}

// ---------------------------------------------------------------------------
// Fresh keys

fn round_trip<C: SignableParams>(seed: u64) {
    let mut rng = TestRng(seed);
    let sk = SigningKey::<C>::generate_from_rng(&mut rng);
    let vk = sk.verifying_key();
    assert_eq!(sk.to_bytes().len(), SigningKey::<C>::PRIVATE_KEY_SIZE);
    let again = SigningKey::<C>::from_bytes(&sk.to_bytes()).unwrap();
    assert_eq!(again.verifying_key(), vk);
    assert_eq!(&again.to_bytes()[..], &sk.to_bytes()[..]);
    assert_eq!(VerifyingKey::<C>::from_bytes(vk.as_bytes()).unwrap(), vk);
    let other = SigningKey::<C>::generate_from_rng(&mut rng);
    assert_ne!(other.verifying_key(), vk);

    for (msg, ctx) in [
        (&b""[..], &b""[..]),
        (b"hello", b"ctx"),
        (&[7u8; 1000][..], &[1u8; 255][..]),
    ] {
        let det = sk.sign_deterministic(msg, ctx).unwrap();
        vk.verify_with_context(msg, ctx, &det).unwrap();
        assert_eq!(
            det,
            sk.sign_multipart_deterministic(&[msg, b""], ctx).unwrap()
        );
        let hedged = sk.sign_randomized(msg, ctx, &mut rng).unwrap();
        vk.verify_with_context(msg, ctx, &hedged).unwrap();
        // From the message representative (the digest-first path): the
        // same bytes deterministically, fresh ones hedged.
        let m = MessageRepresentative::new::<C>(msg, ctx).unwrap();
        assert_eq!(sk.sign_representative_deterministic(&m).unwrap(), det);
        let from_m = sk.sign_representative_randomized(&m, &mut rng).unwrap();
        vk.verify_with_context(msg, ctx, &from_m).unwrap();
        assert_ne!(from_m, hedged);
        assert_ne!(from_m.ml_dsa_signature(), det.ml_dsa_signature());
        vk.verify_multipart_with_context(&[b"", msg], ctx, &hedged)
            .unwrap();
        assert!(
            other
                .verifying_key()
                .verify_with_context(msg, ctx, &det)
                .is_err()
        );
        let sig = Signature::<C>::from_bytes(det.as_bytes()).unwrap();
        assert_eq!(sig, det);
        assert_eq!(Vec::from(sig), det.to_bytes());
        assert_eq!(det.encoded_len(), det.as_bytes().len());
    }
    let long = [0u8; 256];
    assert_eq!(
        sk.sign_deterministic(b"m", &long).unwrap_err(),
        Error::ContextTooLong
    );
    assert_eq!(
        sk.sign_randomized(b"m", &long, &mut rng).unwrap_err(),
        Error::ContextTooLong
    );
    assert_eq!(sk.with_context(&long).unwrap_err(), Error::ContextTooLong);
    assert_eq!(vk.with_context(&long).unwrap_err(), Error::ContextTooLong);
    let sig = sk.sign(b"m");
    assert_eq!(
        vk.verify_with_context(b"m", &long, &sig),
        Err(Error::ContextTooLong)
    );
    assert_eq!(
        MessageRepresentative::new::<C>(b"m", &long).unwrap_err(),
        Error::ContextTooLong
    );

    // Traits: Keypair, multipart, randomized multipart.
    assert_eq!(Keypair::verifying_key(&sk), vk);
    let s = sk.multipart_sign(&[b"a", b"bc"]);
    vk.verify(b"abc", &s).unwrap();
    let s = sk.multipart_sign_with_rng(&mut rng, &[b"ab", b"c"]);
    vk.multipart_verify(&[b"abc"], &s).unwrap();
    let ctx_signer = sk.with_context(b"app").unwrap();
    assert_eq!(Keypair::verifying_key(&ctx_signer), vk);
    let s = ctx_signer.multipart_sign(&[b"x", b"y"]);
    vk.with_context(b"app")
        .unwrap()
        .multipart_verify(&[b"xy"], &s)
        .unwrap();
    let s = ctx_signer.multipart_sign_with_rng(&mut rng, &[b"xy"]);
    vk.with_context(b"app").unwrap().verify(b"xy", &s).unwrap();
    assert!(vk.verify(b"xy", &s).is_err());
    // Debug never prints key material.
    let shown = format!("{sk:?}");
    assert!(shown.contains(C::NAME));
    assert!(!shown.contains(&format!("{:?}", &sk.to_bytes()[..8])));
}

#[test]
fn fresh_keys_round_trip() {
    round_trip::<MlDsa44Ed25519Sha512>(1);
    round_trip::<MlDsa65Ed25519Sha512>(2);
    round_trip::<MlDsa44EcdsaP256Sha256>(3);
    round_trip::<MlDsa65EcdsaP256Sha512>(4);
    round_trip::<MlDsa65EcdsaP384Sha512>(5);
    round_trip::<MlDsa87EcdsaP384Sha512>(6);
    round_trip::<MlDsa87EcdsaP521Sha512>(7);
    round_trip::<MlDsa65EcdsaBrainpoolP256r1Sha512>(8);
    round_trip::<MlDsa87EcdsaBrainpoolP384r1Sha512>(9);
}

#[cfg(feature = "getrandom")]
#[test]
fn os_randomness_keygen() {
    let a = SigningKey::<MlDsa44Ed25519Sha512>::generate();
    let b = SigningKey::<MlDsa44Ed25519Sha512>::try_generate().unwrap();
    assert_ne!(a.verifying_key(), b.verifying_key());
    a.verifying_key().verify(b"m", &a.sign(b"m")).unwrap();
}

// ---------------------------------------------------------------------------
// The message representative, the OIDs and labels

#[test]
fn message_representative_layout() {
    use sha2::{Digest, Sha256, Sha512};
    let m = MessageRepresentative::new::<MlDsa44EcdsaP256Sha256>(b"abc", b"xy").unwrap();
    let label = b"COMPSIG-MLDSA44-ECDSA-P256-SHA256";
    let expected = [
        &b"CompositeAlgorithmSignatures2025"[..],
        label,
        &[2],
        b"xy",
        &Sha256::digest(b"abc"),
    ]
    .concat();
    assert_eq!(m.as_bytes(), &expected[..]);
    assert_eq!(&PREFIX[..], &expected[..32]);
    let m = MessageRepresentative::new::<MlDsa65Ed25519Sha512>(b"abc", b"").unwrap();
    assert!(m.as_bytes().ends_with(&Sha512::digest(b"abc")));
    assert_eq!(m.as_bytes()[32 + 30], 0);
    let m2 =
        MessageRepresentative::from_prehash::<MlDsa65Ed25519Sha512>(&Sha512::digest(b"abc"), b"")
            .unwrap();
    assert_eq!(m.as_bytes(), m2.as_bytes());
    assert_eq!(
        MessageRepresentative::from_prehash::<MlDsa65Ed25519Sha512>(&[0; 32], b"").unwrap_err(),
        Error::InvalidLength
    );
    // Ed448's pre-hash is SHAKE256 with 64 bytes of output.
    let m = MessageRepresentative::new::<MlDsa87Ed448Shake256>(b"abc", b"").unwrap();
    assert_eq!(m.as_bytes().len(), 32 + 30 + 1 + 64);
}

#[test]
fn oids_and_labels() {
    fn check<C: CompositeParams>(oid: &str, label: &str) {
        assert_eq!(C::OID.to_string(), oid, "{}", C::NAME);
        assert_eq!(C::LABEL, label.as_bytes());
        assert_eq!(
            C::NAME
                .strip_prefix("id-")
                .unwrap()
                .replace('-', "")
                .to_lowercase(),
            core::any::type_name::<C>()
                .rsplit("::")
                .next()
                .unwrap()
                .to_lowercase(),
            "type name matches the draft's name"
        );
    }
    check::<MlDsa44Rsa2048PssSha256>("1.3.6.1.5.5.7.6.37", "COMPSIG-MLDSA44-RSA2048-PSS-SHA256");
    check::<MlDsa44Rsa2048Pkcs15Sha256>(
        "1.3.6.1.5.5.7.6.38",
        "COMPSIG-MLDSA44-RSA2048-PKCS15-SHA256",
    );
    check::<MlDsa44Ed25519Sha512>("1.3.6.1.5.5.7.6.39", "COMPSIG-MLDSA44-Ed25519-SHA512");
    check::<MlDsa44EcdsaP256Sha256>("1.3.6.1.5.5.7.6.40", "COMPSIG-MLDSA44-ECDSA-P256-SHA256");
    check::<MlDsa65Rsa3072PssSha512>("1.3.6.1.5.5.7.6.41", "COMPSIG-MLDSA65-RSA3072-PSS-SHA512");
    check::<MlDsa65Rsa3072Pkcs15Sha512>(
        "1.3.6.1.5.5.7.6.42",
        "COMPSIG-MLDSA65-RSA3072-PKCS15-SHA512",
    );
    check::<MlDsa65Rsa4096PssSha512>("1.3.6.1.5.5.7.6.43", "COMPSIG-MLDSA65-RSA4096-PSS-SHA512");
    check::<MlDsa65Rsa4096Pkcs15Sha512>(
        "1.3.6.1.5.5.7.6.44",
        "COMPSIG-MLDSA65-RSA4096-PKCS15-SHA512",
    );
    check::<MlDsa65EcdsaP256Sha512>("1.3.6.1.5.5.7.6.45", "COMPSIG-MLDSA65-ECDSA-P256-SHA512");
    check::<MlDsa65EcdsaP384Sha512>("1.3.6.1.5.5.7.6.46", "COMPSIG-MLDSA65-ECDSA-P384-SHA512");
    check::<MlDsa65EcdsaBrainpoolP256r1Sha512>(
        "1.3.6.1.5.5.7.6.47",
        "COMPSIG-MLDSA65-ECDSA-BP256-SHA512",
    );
    check::<MlDsa65Ed25519Sha512>("1.3.6.1.5.5.7.6.48", "COMPSIG-MLDSA65-Ed25519-SHA512");
    check::<MlDsa87EcdsaP384Sha512>("1.3.6.1.5.5.7.6.49", "COMPSIG-MLDSA87-ECDSA-P384-SHA512");
    check::<MlDsa87EcdsaBrainpoolP384r1Sha512>(
        "1.3.6.1.5.5.7.6.50",
        "COMPSIG-MLDSA87-ECDSA-BP384-SHA512",
    );
    check::<MlDsa87Ed448Shake256>("1.3.6.1.5.5.7.6.51", "COMPSIG-MLDSA87-Ed448-SHAKE256");
    check::<MlDsa87Rsa3072PssSha512>("1.3.6.1.5.5.7.6.52", "COMPSIG-MLDSA87-RSA3072-PSS-SHA512");
    check::<MlDsa87Rsa4096PssSha512>("1.3.6.1.5.5.7.6.53", "COMPSIG-MLDSA87-RSA4096-PSS-SHA512");
    check::<MlDsa87EcdsaP521Sha512>("1.3.6.1.5.5.7.6.54", "COMPSIG-MLDSA87-ECDSA-P521-SHA512");
}

// ---------------------------------------------------------------------------
// x509-cert's builder

fn issue_certificate<C: SignableParams>(seed: u64) {
    use std::str::FromStr;
    use std::time::Duration;
    use x509_cert::builder::{Builder, CertificateBuilder, profile};
    use x509_cert::name::Name;
    use x509_cert::serial_number::SerialNumber;
    use x509_cert::spki::SubjectPublicKeyInfo;
    use x509_cert::time::Validity;

    let sk = SigningKey::<C>::generate_from_rng(&mut TestRng(seed));
    let subject = Name::from_str("CN=pqkit composite,O=pqkit,C=US").unwrap();
    let prof = profile::cabf::Root::new(false, subject).unwrap();
    let spki = SubjectPublicKeyInfo::from_key(&sk.verifying_key()).unwrap();
    let cert = CertificateBuilder::new(
        prof,
        SerialNumber::from(seed as u32 + 1),
        Validity::from_now(Duration::from_secs(3600)).unwrap(),
        spki,
    )
    .unwrap()
    .build::<_, Signature<C>>(&sk)
    .unwrap();

    let der = cert.to_der().unwrap();
    let cert = x509_cert::Certificate::from_der(&der).unwrap();
    assert_eq!(cert.signature_algorithm().oid, C::OID);
    assert!(cert.signature_algorithm().parameters.is_none());
    assert_eq!(cert.tbs_certificate().signature().oid, C::OID);
    let spki_der = cert
        .tbs_certificate()
        .subject_public_key_info()
        .to_der()
        .unwrap();
    let vk = VerifyingKey::<C>::from_public_key_der(&spki_der).unwrap();
    assert_eq!(vk, sk.verifying_key());
    let tbs = cert.tbs_certificate().to_der().unwrap();
    let sig = Signature::<C>::try_from(cert.signature().raw_bytes()).unwrap();
    vk.verify(&tbs, &sig).unwrap();
    let mut tampered = tbs.clone();
    tampered[30] ^= 1;
    assert!(vk.verify(&tampered, &sig).is_err());

    // The hedged builder too.
    let cert = CertificateBuilder::new(
        profile::cabf::Root::new(false, Name::from_str("CN=hedged,O=pqkit,C=US").unwrap()).unwrap(),
        SerialNumber::from(2u32),
        Validity::from_now(Duration::from_secs(3600)).unwrap(),
        SubjectPublicKeyInfo::from_key(&vk).unwrap(),
    )
    .unwrap()
    .build_with_rng::<_, Signature<C>, _>(&sk, &mut TestRng(seed ^ 0xff))
    .unwrap();
    let tbs = cert.tbs_certificate().to_der().unwrap();
    let sig = Signature::<C>::try_from(cert.signature().raw_bytes()).unwrap();
    vk.verify(&tbs, &sig).unwrap();
}

#[test]
fn x509_builder_issues_composite_certificates() {
    issue_certificate::<MlDsa44Ed25519Sha512>(11);
    issue_certificate::<MlDsa65EcdsaP256Sha512>(12);
    issue_certificate::<MlDsa87EcdsaP521Sha512>(13);
    issue_certificate::<MlDsa65EcdsaBrainpoolP256r1Sha512>(14);
}

// ---------------------------------------------------------------------------
// Refusals with typed errors

/// `SEQUENCE { version 0, AlgorithmIdentifier { oid, params }, OCTET
/// STRING key }` written by hand, for the malformed cases.
fn pkcs8_with(oid: &[u8], params: Option<&[u8]>, key: &[u8]) -> Vec<u8> {
    let mut alg = vec![0x06, oid.len() as u8];
    alg.extend_from_slice(oid);
    if let Some(p) = params {
        alg.extend_from_slice(p);
    }
    let alg = tlv(0x30, &alg);
    let body = [&[0x02, 0x01, 0x00][..], &alg, &tlv(0x04, key)].concat();
    tlv(0x30, &body)
}

fn tlv(tag: u8, value: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let n = value.len();
    if n < 0x80 {
        out.push(n as u8);
    } else if n < 0x100 {
        out.extend_from_slice(&[0x81, n as u8]);
    } else {
        out.extend_from_slice(&[0x82, (n >> 8) as u8, n as u8]);
    }
    out.extend_from_slice(value);
    out
}

#[test]
fn typed_errors() {
    type Ed = MlDsa44Ed25519Sha512;
    type P256 = MlDsa44EcdsaP256Sha256;
    type P521 = MlDsa87EcdsaP521Sha512;
    let mut rng = TestRng(99);
    let sk = SigningKey::<Ed>::generate_from_rng(&mut rng);
    let vk = sk.verifying_key();

    // SPKI: right bytes under another composite's OID; bad DER; params.
    let spki = vk.to_public_key_der().unwrap();
    assert!(VerifyingKey::<MlDsa65Ed25519Sha512>::from_public_key_der(spki.as_bytes()).is_err());
    assert!(matches!(
        VerifyingKey::<P256>::from_public_key_der(spki.as_bytes()),
        Err(spki::Error::OidUnknown { .. })
    ));
    assert!(VerifyingKey::<Ed>::from_public_key_der(&spki.as_bytes()[..100]).is_err());
    assert!(VerifyingKey::<Ed>::from_public_key_der(b"\x30\x00").is_err());
    let info = SubjectPublicKeyInfoRef::from_der(spki.as_bytes()).unwrap();
    assert_eq!(VerifyingKey::<Ed>::try_from(info).unwrap(), vk);

    // PKCS#8: another OID, parameters present, bad DER, bad key.
    let der = sk.to_pkcs8_der().unwrap();
    assert!(SigningKey::<MlDsa65Ed25519Sha512>::from_pkcs8_der(der.as_bytes()).is_err());
    assert!(matches!(
        SigningKey::<P256>::from_pkcs8_der(der.as_bytes()),
        Err(pkcs8::Error::PublicKey(spki::Error::OidUnknown { .. }))
    ));
    let oid = <Ed as pqkit_pkix::AssociatedOid>::OID;
    let good = pkcs8_with(oid.as_bytes(), None, &sk.to_bytes());
    assert_eq!(&good[..], der.as_bytes());
    let with_null = pkcs8_with(oid.as_bytes(), Some(&[0x05, 0x00]), &sk.to_bytes());
    assert!(SigningKey::<Ed>::from_pkcs8_der(&with_null).is_err());
    let short = pkcs8_with(oid.as_bytes(), None, &sk.to_bytes()[..40]);
    assert!(matches!(
        SigningKey::<Ed>::from_pkcs8_der(&short),
        Err(pkcs8::Error::KeyMalformed(_))
    ));
    assert!(SigningKey::<Ed>::from_pkcs8_der(&der.as_bytes()[..20]).is_err());
    assert!(SigningKey::<Ed>::from_pkcs8_der(&[]).is_err());
    let info = PrivateKeyInfoRef::from_der(der.as_bytes()).unwrap();
    assert_eq!(
        SigningKey::<Ed>::try_from(info).unwrap().verifying_key(),
        vk
    );

    // ECDSA private keys: the draft's ECPrivateKey exactly, a valid scalar.
    let ec = SigningKey::<P256>::generate_from_rng(&mut rng);
    let good = ec.to_bytes();
    assert_eq!(good.len(), 32 + 51);
    assert_eq!(&good[32..39], &[0x30, 0x31, 0x02, 0x01, 0x01, 0x04, 0x20]);
    let mutate = |at: usize, value: u8| {
        let mut b = good.to_vec();
        b[at] = value;
        SigningKey::<P256>::from_bytes(&b).expect_err("accepted")
    };
    assert_eq!(mutate(32 + 4, 0x00), Error::InvalidPrivateKey); // version 0
    assert_eq!(mutate(32 + 1, 0x32), Error::InvalidPrivateKey); // length
    assert_eq!(mutate(good.len() - 1, 0x08), Error::InvalidPrivateKey); // another curve
    let mut zero = good.to_vec();
    zero[39..71].fill(0);
    assert_eq!(
        SigningKey::<P256>::from_bytes(&zero).unwrap_err(),
        Error::InvalidPrivateKey
    );
    let mut big = good.to_vec();
    big[39..71].fill(0xff);
    assert_eq!(
        SigningKey::<P256>::from_bytes(&big).unwrap_err(),
        Error::InvalidPrivateKey
    );
    let p521 = SigningKey::<P521>::generate_from_rng(&mut rng).to_bytes();
    assert_eq!(p521.len(), 32 + 82);
    let mut big = p521.to_vec();
    big[32 + 7..32 + 7 + 66].fill(0xff);
    assert_eq!(
        SigningKey::<P521>::from_bytes(&big).unwrap_err(),
        Error::InvalidPrivateKey
    );
    assert_eq!(
        SigningKey::<P256>::from_bytes(&sk.to_bytes()).unwrap_err(),
        Error::InvalidLength
    );

    // ECDSA public keys: uncompressed, on the curve.
    let pk = ec.verifying_key().to_bytes();
    let ml = <<P256 as CompositeParams>::MlDsa as ParameterSet>::PK_LEN;
    assert_eq!(pk[ml], 0x04);
    let mut compressed = pk.clone();
    compressed[ml] = 0x02;
    assert_eq!(
        VerifyingKey::<P256>::from_bytes(&compressed).unwrap_err(),
        Error::InvalidPublicKey
    );
    let mut off_curve = pk.clone();
    *off_curve.last_mut().unwrap() ^= 1;
    assert_eq!(
        VerifyingKey::<P256>::from_bytes(&off_curve).unwrap_err(),
        Error::InvalidPublicKey
    );
    let mut as_compressed = pk[..ml + 33].to_vec();
    as_compressed[ml] = 0x02 | (pk[pk.len() - 1] & 1);
    assert_eq!(
        VerifyingKey::<P256>::from_bytes(&as_compressed).unwrap_err(),
        Error::InvalidLength
    );

    // ECDSA signatures: DER, not raw r || s.
    let sig = ec.sign(b"m");
    let ml_sig = <<P256 as CompositeParams>::MlDsa as ParameterSet>::SIG_LEN;
    assert_eq!(sig.traditional_signature()[0], 0x30);
    let mut not_der = sig.to_bytes();
    not_der[ml_sig] = 0x31;
    assert_eq!(
        Signature::<P256>::from_bytes(&not_der).unwrap_err(),
        Error::MalformedSignature
    );
    let raw = [&sig.as_bytes()[..ml_sig], &[0x11; 64][..]].concat();
    assert_eq!(
        Signature::<P256>::from_bytes(&raw).unwrap_err(),
        Error::MalformedSignature
    );

    // Ed25519 public keys: y = p (decodes, as y = 0, but not canonical),
    // x = -0, and a y that is not on the curve.
    let mut bad = vk.to_bytes();
    let n = bad.len();
    bad[n - 32..].copy_from_slice(&[0xff; 32]);
    bad[n - 1] = 0x7f;
    bad[n - 32] = 0xed;
    assert!(pqkit_ed25519::VerifyingKey::from_bytes(bad[n - 32..].try_into().unwrap()).is_ok());
    assert_eq!(
        VerifyingKey::<Ed>::from_bytes(&bad).unwrap_err(),
        Error::InvalidPublicKey
    );
    bad[n - 32..].fill(0);
    bad[n - 32] = 1;
    assert!(VerifyingKey::<Ed>::from_bytes(&bad).is_ok());
    bad[n - 1] = 0x80;
    assert_eq!(
        VerifyingKey::<Ed>::from_bytes(&bad).unwrap_err(),
        Error::InvalidPublicKey
    );
    bad[n - 1] = 0;
    let off_curve = (2u8..64)
        .find(|&y| {
            let mut a = [0u8; 32];
            a[0] = y;
            pqkit_ed25519::VerifyingKey::from_bytes(&a).is_err()
        })
        .unwrap();
    bad[n - 32] = off_curve;
    assert_eq!(
        VerifyingKey::<Ed>::from_bytes(&bad).unwrap_err(),
        Error::InvalidPublicKey
    );

    // Ed448 and RSA keys through the verify-only combinations.
    let ml87 = <pqkit_ml_dsa::MlDsa87 as ParameterSet>::PK_LEN;
    let mut ed448 = vec![0u8; ml87 + 57];
    assert!(VerifyingKey::<MlDsa87Ed448Shake256>::from_bytes(&ed448).is_err());
    ed448.push(0);
    assert_eq!(
        VerifyingKey::<MlDsa87Ed448Shake256>::from_bytes(&ed448).unwrap_err(),
        Error::InvalidLength
    );
    let ml44 = <pqkit_ml_dsa::MlDsa44 as ParameterSet>::PK_LEN;
    let rsa_junk = [vec![0u8; ml44], vec![0x30, 0x03, 0x02, 0x01, 0x03]].concat();
    assert_eq!(
        VerifyingKey::<MlDsa44Rsa2048PssSha256>::from_bytes(&rsa_junk).unwrap_err(),
        Error::InvalidPublicKey
    );
    let sig_len = <pqkit_ml_dsa::MlDsa44 as ParameterSet>::SIG_LEN;
    assert!(Signature::<MlDsa44Rsa2048PssSha256>::from_bytes(&vec![0; sig_len + 256]).is_ok());
    assert_eq!(
        Signature::<MlDsa44Rsa2048PssSha256>::from_bytes(&vec![0; sig_len + 255]).unwrap_err(),
        Error::InvalidLength
    );

    // The traits report the typed error as their source.
    let e = vk.verify(b"other", &sk.sign(b"m")).unwrap_err();
    let source = core::error::Error::source(&e).unwrap();
    assert_eq!(
        source.downcast_ref::<Error>(),
        Some(&Error::InvalidSignature)
    );
}

/// The vectors' RSA public keys: a modulus of another size than the
/// combination's is refused, as is a non-DER encoding.
#[test]
fn rsa_key_sizes() {
    let Some(v) = load() else {
        return;
    };
    let case = |id: &str| v.cases.iter().find(|c| c.id == id).unwrap();
    let rsa2048 = &case(MlDsa44Rsa2048PssSha256::NAME).pk[1312..];
    let rsa3072 = &case(MlDsa65Rsa3072PssSha512::NAME).pk[1952..];
    let ml65 = &case(MlDsa65Rsa3072PssSha512::NAME).pk[..1952];
    // A 2048-bit key where a 3072-bit one belongs.
    let wrong = [ml65, rsa2048].concat();
    assert_eq!(
        VerifyingKey::<MlDsa65Rsa3072PssSha512>::from_bytes(&wrong).unwrap_err(),
        Error::InvalidPublicKey
    );
    assert!(VerifyingKey::<MlDsa65Rsa3072PssSha512>::from_bytes(&[ml65, rsa3072].concat()).is_ok());
    // The same key with a long-form length where the short one fits is
    // not DER.
    assert_eq!(&rsa3072[..2], &[0x30, 0x82]);
    let ber = [&[0x30, 0x83, 0x00][..], &rsa3072[2..]].concat();
    assert!(VerifyingKey::<MlDsa65Rsa3072PssSha512>::from_bytes(&[ml65, &ber].concat()).is_err());
    // Traditional traits, named for the reader.
    assert_eq!(
        <pqkit_hybrid::composite::Rsa3072Pss as Traditional>::MIN_SIGNATURE_LEN,
        384
    );
    assert_eq!(
        <pqkit_hybrid::composite::EcdsaP384 as TraditionalSigner>::SECRET_KEY_LEN,
        64
    );
}
