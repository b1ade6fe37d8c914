//! Composite ML-DSA signatures checked through their halves with
//! independent implementations: the ML-DSA half with RustCrypto `ml-dsa`
//! (over the message representative, context = the label), the
//! traditional half with `ring` (Ed25519, ECDSA P-256/P-384, RSA PSS and
//! PKCS#1 v1.5). Both for the draft's vector signatures (which pqkit did
//! not make) and for signatures pqkit makes. P-521, the brainpool curves
//! and Ed448 have no independent verifier in this test (ring lacks them);
//! the draft's vectors cover them in `composite.rs`.
// The peer is C (and assembly): native targets only, not wasm.
#![cfg(not(target_family = "wasm"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use base64ct::{Base64, Encoding};
use ml_dsa::{EncodedVerifyingKey, MlDsaParams, VerifyingKey as RcVerifyingKey};
use pqkit_hybrid::composite::{self as c, CompositeParams, Generate, MessageRepresentative};
use pqkit_testkit::drbg::KatDrbg;
use pqkit_testkit::vectors::json;
use ring::signature::{self as rs, UnparsedPublicKey, VerificationAlgorithm};

/// The ML-DSA half with RustCrypto `ml-dsa`.
fn ml_half<P: MlDsaParams>(pk: &[u8], m: &[u8], ctx: &[u8], sig: &[u8]) -> bool {
    let enc = EncodedVerifyingKey::<P>::try_from(pk).expect("ML-DSA public key length");
    let vk = RcVerifyingKey::<P>::decode(&enc);
    match ml_dsa::Signature::<P>::try_from(sig) {
        Ok(s) => vk.verify_with_context(m, ctx, &s),
        Err(_) => false,
    }
}

/// The traditional half with `ring`.
fn trad_half(alg: &'static dyn VerificationAlgorithm, pk: &[u8], m: &[u8], sig: &[u8]) -> bool {
    UnparsedPublicKey::new(alg, pk).verify(m, sig).is_ok()
}

/// A composite public key and signature split at the ML-DSA lengths of
/// `P`, each half checked on its own over `M'`.
fn halves<C: CompositeParams, P: MlDsaParams>(
    alg: &'static dyn VerificationAlgorithm,
    (ml_pk, ml_sig): (usize, usize),
    pk: &[u8],
    msg: &[u8],
    ctx: &[u8],
    sig: &[u8],
) -> (bool, bool) {
    let m = MessageRepresentative::new::<C>(msg, ctx).unwrap();
    let m = m.as_bytes();
    (
        ml_half::<P>(&pk[..ml_pk], m, C::LABEL, &sig[..ml_sig]),
        trad_half(alg, &pk[ml_pk..], m, &sig[ml_sig..]),
    )
}

const L44: (usize, usize) = (1312, 2420);
const L65: (usize, usize) = (1952, 3309);
const L87: (usize, usize) = (2592, 4627);

macro_rules! for_vector {
    ($id:expr, $pk:expr, $m:expr, $ctx:expr, $s:expr; $($name:literal => $c:ty, $p:ty, $l:expr, $alg:expr;)*) => {
        match $id {
            $($name => Some(halves::<$c, $p>($alg, $l, $pk, $m, $ctx, $s)),)*
            _ => None,
        }
    };
}

fn check_vector(id: &str, pk: &[u8], m: &[u8], ctx: &[u8], s: &[u8]) -> Option<(bool, bool)> {
    use ml_dsa::{MlDsa44, MlDsa65, MlDsa87};
    for_vector!(id, pk, m, ctx, s;
        "id-MLDSA44-RSA2048-PSS-SHA256" => c::MlDsa44Rsa2048PssSha256, MlDsa44, L44, &rs::RSA_PSS_2048_8192_SHA256;
        "id-MLDSA44-RSA2048-PKCS15-SHA256" => c::MlDsa44Rsa2048Pkcs15Sha256, MlDsa44, L44, &rs::RSA_PKCS1_2048_8192_SHA256;
        "id-MLDSA44-Ed25519-SHA512" => c::MlDsa44Ed25519Sha512, MlDsa44, L44, &rs::ED25519;
        "id-MLDSA44-ECDSA-P256-SHA256" => c::MlDsa44EcdsaP256Sha256, MlDsa44, L44, &rs::ECDSA_P256_SHA256_ASN1;
        "id-MLDSA65-RSA3072-PSS-SHA512" => c::MlDsa65Rsa3072PssSha512, MlDsa65, L65, &rs::RSA_PSS_2048_8192_SHA256;
        "id-MLDSA65-RSA3072-PKCS15-SHA512" => c::MlDsa65Rsa3072Pkcs15Sha512, MlDsa65, L65, &rs::RSA_PKCS1_2048_8192_SHA256;
        "id-MLDSA65-RSA4096-PSS-SHA512" => c::MlDsa65Rsa4096PssSha512, MlDsa65, L65, &rs::RSA_PSS_2048_8192_SHA384;
        "id-MLDSA65-RSA4096-PKCS15-SHA512" => c::MlDsa65Rsa4096Pkcs15Sha512, MlDsa65, L65, &rs::RSA_PKCS1_2048_8192_SHA384;
        "id-MLDSA65-ECDSA-P256-SHA512" => c::MlDsa65EcdsaP256Sha512, MlDsa65, L65, &rs::ECDSA_P256_SHA256_ASN1;
        "id-MLDSA65-ECDSA-P384-SHA512" => c::MlDsa65EcdsaP384Sha512, MlDsa65, L65, &rs::ECDSA_P384_SHA384_ASN1;
        "id-MLDSA65-Ed25519-SHA512" => c::MlDsa65Ed25519Sha512, MlDsa65, L65, &rs::ED25519;
        "id-MLDSA87-ECDSA-P384-SHA512" => c::MlDsa87EcdsaP384Sha512, MlDsa87, L87, &rs::ECDSA_P384_SHA384_ASN1;
        "id-MLDSA87-RSA3072-PSS-SHA512" => c::MlDsa87Rsa3072PssSha512, MlDsa87, L87, &rs::RSA_PSS_2048_8192_SHA256;
        "id-MLDSA87-RSA4096-PSS-SHA512" => c::MlDsa87Rsa4096PssSha512, MlDsa87, L87, &rs::RSA_PSS_2048_8192_SHA384;
    )
}

/// The ones ring cannot check (no P-521, brainpool or Ed448 in ring).
const NOT_INDEPENDENT: [&str; 4] = [
    "id-MLDSA65-ECDSA-brainpoolP256r1-SHA512",
    "id-MLDSA87-ECDSA-brainpoolP384r1-SHA512",
    "id-MLDSA87-Ed448-SHAKE256",
    "id-MLDSA87-ECDSA-P521-SHA512",
];

#[test]
fn vector_signatures_verify_half_by_half() {
    let Some(v) = json("composite/testvectors.json") else {
        return;
    };
    let b64 =
        |x: &serde_json::Value| Base64::decode_vec(x.as_str().expect("string")).expect("base64");
    let (m, ctx) = (b64(&v["m"]), b64(&v["ctx"]));
    let mut checked = 0;
    for t in v["tests"].as_array().expect("tests") {
        let id = t["tcId"].as_str().expect("tcId");
        if !id.starts_with("id-MLDSA") || !id.contains('-') || id.matches('-').count() < 3 {
            continue; // the pure ML-DSA cases
        }
        let pk = b64(&t["pk"]);
        for (sig, ctx) in [(b64(&t["s"]), &[][..]), (b64(&t["sWithContext"]), &ctx[..])] {
            match check_vector(id, &pk, &m, ctx, &sig) {
                Some((ml, trad)) => {
                    assert!(ml, "{id}: ML-DSA half (RustCrypto ml-dsa)");
                    assert!(trad, "{id}: traditional half (ring)");
                    // The other context fails both halves' M'.
                    let other: &[u8] = if ctx.is_empty() { b"x" } else { b"" };
                    let (ml, trad) = check_vector(id, &pk, &m, other, &sig).expect("known");
                    assert!(!ml && !trad, "{id}: wrong context accepted by a half");
                    checked += 1;
                }
                None => assert!(NOT_INDEPENDENT.contains(&id), "{id}: not covered"),
            }
        }
    }
    assert_eq!(
        checked,
        2 * 14,
        "every independently checkable case, both signatures"
    );
}

fn own<C, P>(alg: &'static dyn VerificationAlgorithm, l: (usize, usize), tag: u8)
where
    C: pqkit_hybrid::composite::SignableParams,
    P: MlDsaParams,
{
    let mut rng = KatDrbg::new(&[tag; 48]);
    for i in 0..4u8 {
        let sk = c::SigningKey::<C>::generate_from_rng(&mut rng);
        let vk = sk.verifying_key();
        let msg = [i; 50];
        let ctx = vec![i; usize::from(i) * 20];
        let sig = if i % 2 == 0 {
            sk.sign_deterministic(&msg, &ctx).unwrap()
        } else {
            sk.sign_randomized(&msg, &ctx, &mut rng).unwrap()
        };
        let (ml, trad) = halves::<C, P>(alg, l, vk.as_bytes(), &msg, &ctx, sig.as_bytes());
        assert!(ml && trad, "{}: halves of pqkit's signature {i}", C::NAME);
        let (ml, trad) = halves::<C, P>(alg, l, vk.as_bytes(), &[i ^ 1; 50], &ctx, sig.as_bytes());
        assert!(!ml && !trad, "{}: wrong message", C::NAME);
    }
}

#[test]
fn pqkit_signatures_verify_half_by_half() {
    use ml_dsa::{MlDsa44, MlDsa65, MlDsa87};
    own::<c::MlDsa44Ed25519Sha512, MlDsa44>(&rs::ED25519, L44, 1);
    own::<c::MlDsa65Ed25519Sha512, MlDsa65>(&rs::ED25519, L65, 2);
    own::<c::MlDsa44EcdsaP256Sha256, MlDsa44>(&rs::ECDSA_P256_SHA256_ASN1, L44, 3);
    own::<c::MlDsa65EcdsaP256Sha512, MlDsa65>(&rs::ECDSA_P256_SHA256_ASN1, L65, 4);
    own::<c::MlDsa65EcdsaP384Sha512, MlDsa65>(&rs::ECDSA_P384_SHA384_ASN1, L65, 5);
    own::<c::MlDsa87EcdsaP384Sha512, MlDsa87>(&rs::ECDSA_P384_SHA384_ASN1, L87, 6);
}
