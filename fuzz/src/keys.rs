//! Every key decoder of every algorithm (raw encodings, PKCS#8 in every
//! form, SPKI, both in DER and PEM) on the same bytes. Any input either
//! errors or decodes to a key whose re-encoding is canonical (raw: equal
//! to the input) and decodes again to the same key; a signing key that
//! decodes signs, and its signature verifies under its own public key.

use pkcs8::{DecodePrivateKey, EncodePrivateKey};
use spki::{DecodePublicKey, EncodePublicKey};

/// The target: `data[0]` picks the algorithm.
pub fn run(data: &[u8]) {
    let Some((sel, input)) = crate::select(data) else {
        return;
    };
    match sel % 17 {
        0 => ml_kem::<pqkit_ml_kem::MlKem512>(input),
        1 => ml_kem::<pqkit_ml_kem::MlKem768>(input),
        2 => ml_kem::<pqkit_ml_kem::MlKem1024>(input),
        3 => ml_dsa::<pqkit_ml_dsa::MlDsa44>(input),
        4 => ml_dsa::<pqkit_ml_dsa::MlDsa65>(input),
        5 => ml_dsa::<pqkit_ml_dsa::MlDsa87>(input),
        6 => fn_dsa::<pqkit_fn_dsa::FnDsa512>(input),
        7 => fn_dsa::<pqkit_fn_dsa::FnDsa1024>(input),
        8 => fn_dsa_toy(input),
        9 => saber::<pqkit_saber::LightSaber>(input),
        10 => saber::<pqkit_saber::Saber>(input),
        11 => saber::<pqkit_saber::FireSaber>(input),
        12 => ed25519(input),
        13 => x25519(input),
        14 => xwing(input),
        15 => slh_dsa::<pqkit_slh_dsa::Sha2_128f>(input),
        _ => slh_dsa::<pqkit_slh_dsa::Shake192f>(input),
    }
}

/// A raw decoder: `Some(key)` re-encodes to exactly `input` (every raw
/// encoding pqkit accepts is canonical) and decodes again to the same key.
fn raw<K>(
    name: &str,
    input: &[u8],
    decode: impl Fn(&[u8]) -> Option<K>,
    encode: impl Fn(&K) -> Vec<u8>,
) -> Option<K> {
    let key = decode(input)?;
    let enc = encode(&key);
    assert_eq!(enc, input, "{name}: accepted a non-canonical encoding");
    let again = decode(&enc).unwrap_or_else(|| panic!("{name}: its own encoding is refused"));
    assert_eq!(encode(&again), enc, "{name}: re-encoding changed the key");
    Some(key)
}

/// PKCS#8 in DER, and in PEM when the input is text; the key decoded from
/// DER, if any, for the caller's own checks.
fn pkcs8<K: DecodePrivateKey + EncodePrivateKey>(name: &str, input: &[u8]) -> Option<K> {
    let check = |key: &K| {
        let der = key.to_pkcs8_der().expect("an accepted key re-encodes");
        let again = K::from_pkcs8_der(der.as_bytes())
            .unwrap_or_else(|e| panic!("{name}: its own PKCS#8 is refused: {e}"));
        let der2 = again.to_pkcs8_der().expect("re-encodes");
        assert_eq!(
            der.as_bytes(),
            der2.as_bytes(),
            "{name}: PKCS#8 not canonical"
        );
    };
    if let Ok(text) = std::str::from_utf8(input)
        && let Ok(key) = K::from_pkcs8_pem(text)
    {
        check(&key);
    }
    let key = K::from_pkcs8_der(input).ok()?;
    check(&key);
    Some(key)
}

/// SPKI in DER, and in PEM when the input is text.
fn spki<K: DecodePublicKey + EncodePublicKey>(name: &str, input: &[u8]) {
    let check = |key: K| {
        let der = key.to_public_key_der().expect("an accepted key re-encodes");
        let again = K::from_public_key_der(der.as_bytes())
            .unwrap_or_else(|e| panic!("{name}: its own SPKI is refused: {e}"));
        let der2 = again.to_public_key_der().expect("re-encodes");
        assert_eq!(
            der.as_bytes(),
            der2.as_bytes(),
            "{name}: SPKI not canonical"
        );
    };
    if let Ok(key) = K::from_public_key_der(input) {
        check(key);
    }
    if let Ok(text) = std::str::from_utf8(input)
        && let Ok(key) = K::from_public_key_pem(text)
    {
        check(key);
    }
}

fn ml_kem<P: pqkit_ml_kem::ParameterSetOid>(input: &[u8]) {
    use pqkit_ml_kem::{DecapsulationKey, EncapsulationKey, ExpandedDecapsulationKey};
    let name = P::NAME;
    raw(
        name,
        input,
        |b| EncapsulationKey::<P>::from_bytes(b).ok(),
        |k| k.as_bytes().to_vec(),
    );
    // The raw FIPS 203 expanded import keeps only its §7.2/§7.3 checks: an
    // accepted key decapsulates anything of the right length.
    if let Some(dk) = raw(
        name,
        input,
        |b| ExpandedDecapsulationKey::<P>::from_expanded(b).ok(),
        |k| k.expanded_bytes().to_vec(),
    ) {
        let ct = vec![0x5a; P::CT_LEN];
        assert!(
            dk.decapsulate_bytes(&ct).is_ok(),
            "{name}: decapsulation failed"
        );
    }
    if let Ok(dk) = DecapsulationKey::<P>::from_seed_slice(input) {
        let seed = dk.to_seed().expect("a seeded key");
        assert_eq!(&seed[..], input, "{name}: seed changed");
    }
    pkcs8::<DecapsulationKey<P>>(name, input);
    // An expandedKey-only PKCS#8 import runs the pairwise test: what it
    // accepts round-trips with its own encapsulation key.
    if let Some(dk) = pkcs8::<ExpandedDecapsulationKey<P>>(name, input) {
        let (ct, ss) = pqkit_ml_kem::hazmat::encaps_internal(dk.encapsulation_key(), &[7; 32]);
        let back = dk.decapsulate_bytes(ct.as_ref()).expect("right length");
        assert!(back == ss, "{name}: imported key does not round-trip");
    }
    spki::<EncapsulationKey<P>>(name, input);
}

fn ml_dsa<P: pqkit_ml_dsa::ParameterSetOid>(input: &[u8]) {
    use pqkit_ml_dsa::{ExpandedSigningKey, Signature, SigningKey, VerifyingKey};
    let name = P::NAME;
    raw(
        name,
        input,
        |b| VerifyingKey::<P>::from_bytes(b).ok(),
        |k| k.as_bytes().to_vec(),
    );
    raw(
        name,
        input,
        |b| Signature::<P>::from_bytes(b).ok(),
        |s| s.as_bytes().to_vec(),
    );
    if let Some(sk) = raw(
        name,
        input,
        |b| ExpandedSigningKey::<P>::from_expanded(b).ok(),
        |k| k.expanded_bytes().as_ref().to_vec(),
    ) {
        let sig = sk
            .sign_deterministic(b"fuzz", b"")
            .unwrap_or_else(|e| panic!("{name}: an accepted key does not sign: {e:?}"));
        assert!(
            sk.verifying_key().verify_with_context(b"fuzz", b"", &sig),
            "{name}: signature of an accepted key does not verify"
        );
    }
    if let Ok(sk) = SigningKey::<P>::from_seed_slice(input) {
        assert_eq!(&sk.to_seed()[..], input, "{name}: seed changed");
    }
    pkcs8::<SigningKey<P>>(name, input);
    pkcs8::<ExpandedSigningKey<P>>(name, input);
    spki::<VerifyingKey<P>>(name, input);
    // The low-memory path's own decoders.
    if let Ok(vk) = pqkit_ml_dsa::lowmem::VerifyingKey::<P>::from_bytes(input) {
        assert_eq!(vk.as_bytes(), input, "{name}: lowmem public key changed");
    }
}

fn slh_dsa<P: pqkit_slh_dsa::ParameterSetOid>(input: &[u8]) {
    use pqkit_slh_dsa::{Signature, SigningKey, VerifyingKey};
    let name = "SLH-DSA";
    raw(
        name,
        input,
        |b| VerifyingKey::<P>::from_bytes(b).ok(),
        |k| k.as_bytes().to_vec(),
    );
    raw(
        name,
        input,
        |b| Signature::<P>::from_bytes(b).ok(),
        |s| s.as_bytes().to_vec(),
    );
    // A private key loads only if its PK.root is that of its seeds.
    if let Some(sk) = raw(
        name,
        input,
        |b| SigningKey::<P>::from_bytes(b).ok(),
        |k| k.as_bytes().to_vec(),
    ) {
        let sig = sk
            .sign_deterministic(b"fuzz", b"")
            .unwrap_or_else(|e| panic!("{name}: an accepted key does not sign: {e:?}"));
        assert!(
            sk.verifying_key()
                .verify_with_context(b"fuzz", b"", &sig)
                .is_ok(),
            "{name}: signature of an accepted key does not verify"
        );
    }
    let n = P::N;
    if input.len() == 3 * n {
        let sk = SigningKey::<P>::from_seed(&input[..n], &input[n..2 * n], &input[2 * n..])
            .unwrap_or_else(|e| panic!("{name}: seeds of the right length refused: {e:?}"));
        assert_eq!(&sk.as_bytes()[..3 * n], input, "{name}: seeds changed");
    }
    pkcs8::<SigningKey<P>>(name, input);
    spki::<VerifyingKey<P>>(name, input);
}

fn fn_dsa<P: pqkit_fn_dsa::ParameterSet>(input: &[u8])
where
    pqkit_fn_dsa::SigningKey<P>: DecodePrivateKey + EncodePrivateKey,
    pqkit_fn_dsa::VerifyingKey<P>: DecodePublicKey + EncodePublicKey,
{
    use pqkit_fn_dsa::{Message, Signature, SigningKey, VerifyingKey};
    let name = "FN-DSA";
    raw(
        name,
        input,
        |b| VerifyingKey::<P>::from_bytes(b).ok(),
        |k| k.as_bytes().to_vec(),
    );
    raw(
        name,
        input,
        |b| Signature::<P>::from_bytes(b).ok(),
        |s| s.as_bytes().to_vec(),
    );
    if let Some(sk) = raw(
        name,
        input,
        |b| SigningKey::<P>::from_bytes(b).ok(),
        |k| k.to_bytes().as_ref().to_vec(),
    ) {
        signs_and_verifies(&sk);
        signs_and_verifies(&sk.into_compact());
    }
    pkcs8::<SigningKey<P>>(name, input);
    spki::<VerifyingKey<P>>(name, input);

    fn signs_and_verifies<P: pqkit_fn_dsa::ParameterSet>(sk: &SigningKey<P>) {
        let msg = Message::raw(b"fuzz");
        let sig = sk
            .sign_message_hedged(&msg)
            .unwrap_or_else(|e| panic!("FN-DSA: an accepted key does not sign: {e:?}"));
        assert!(
            sk.verifying_key().verify_message(&msg, &sig).is_ok(),
            "FN-DSA: signature of an accepted key does not verify"
        );
    }
}

fn fn_dsa_toy(input: &[u8]) {
    use pqkit_fn_dsa::hazmat::toy;
    raw(
        "toy FN-DSA",
        input,
        |b| toy::VerifyingKey::from_bytes(b).ok(),
        |k| k.as_bytes().to_vec(),
    );
    if let Some(sk) = raw(
        "toy FN-DSA",
        input,
        |b| toy::SigningKey::from_bytes(b).ok(),
        |k| k.to_bytes().to_vec(),
    ) {
        let msg = pqkit_fn_dsa::Message::raw(b"fuzz");
        let mut rng = pqkit_testkit::rng::TestRng(1);
        let sig = sk
            .sign_message_randomized(&msg, &mut rng)
            .unwrap_or_else(|e| panic!("toy FN-DSA: an accepted key does not sign: {e:?}"));
        assert!(sk.verifying_key().verify_message(&msg, &sig).is_ok());
    }
}

fn saber<P: pqkit_saber::ParameterSetOid>(input: &[u8]) {
    use pqkit_saber::{DecapsulationKey, EncapsulationKey};
    let name = P::NAME;
    raw(
        name,
        input,
        |b| EncapsulationKey::<P>::from_bytes(b).ok(),
        |k| k.as_bytes().to_vec(),
    );
    // The raw import checks the encoding and H(pk) only (fast decapsulation
    // from bytes): an accepted key decapsulates anything of the right
    // length; the checked import (and PKCS#8) also round-trips.
    let round_trips = |dk: &DecapsulationKey<P>| {
        let (ct, ss) = dk.encapsulation_key().encapsulate_deterministic(&[3; 32]);
        dk.decapsulate_bytes(ct.as_ref()).expect("right length") == ss
    };
    if let Some(dk) = raw(
        name,
        input,
        |b| DecapsulationKey::<P>::from_bytes(b).ok(),
        |k| k.as_bytes().to_vec(),
    ) {
        let ok = round_trips(&dk);
        if dk.check_consistency().is_ok() {
            assert!(ok, "{name}: a consistent key does not round-trip");
        }
    }
    if let Some(dk) = pkcs8::<DecapsulationKey<P>>(name, input) {
        assert!(round_trips(&dk), "{name}: imported key does not round-trip");
    }
    spki::<EncapsulationKey<P>>(name, input);
}

fn ed25519(input: &[u8]) {
    use pqkit_ed25519::{SigningKey, VerifyingKey};
    // Public keys: any decodable encoding is kept as given (as dalek).
    raw(
        "Ed25519",
        input,
        |b| VerifyingKey::from_bytes(b.try_into().ok()?).ok(),
        |k| k.to_bytes().to_vec(),
    );
    if let Some(sk) = raw(
        "Ed25519",
        input,
        |b| SigningKey::from_keypair_bytes(b.try_into().ok()?).ok(),
        |k| k.to_keypair_bytes().to_vec(),
    ) {
        let sig = signature::Signer::sign(&sk, b"fuzz");
        assert!(sk.verifying_key().verify_strict(b"fuzz", &sig).is_ok());
    }
    pkcs8::<SigningKey>("Ed25519", input);
    spki::<VerifyingKey>("Ed25519", input);
    // Point decoding against curve25519-dalek's: the same accept/reject
    // decision, the same point (its canonical encoding, its small-order
    // test) on the first 32 bytes.
    if let Some(b) = input.get(..32).and_then(|b| <[u8; 32]>::try_from(b).ok()) {
        let ours = pqkit_common::curve25519::EdwardsPoint::decompress(&b);
        let theirs = curve25519_dalek::edwards::CompressedEdwardsY(b).decompress();
        assert_eq!(
            ours.is_some(),
            theirs.is_some(),
            "Ed25519: decoding differs from dalek"
        );
        if let (Some(o), Some(t)) = (ours, theirs) {
            assert_eq!(
                o.compress(),
                t.compress().to_bytes(),
                "Ed25519: decoded point"
            );
            assert_eq!(
                o.is_small_order(),
                t.is_small_order(),
                "Ed25519: small order"
            );
        }
    }
}

fn x25519(input: &[u8]) {
    use pqkit_x25519::{PublicKey, StaticSecret};
    // Every 32 bytes are a public key and a secret, kept as given.
    let public = raw(
        "X25519",
        input,
        |b| PublicKey::from_slice(b).ok(),
        |k| k.to_bytes().to_vec(),
    );
    let secret = raw(
        "X25519",
        input,
        |b| StaticSecret::from_slice(b).ok(),
        |k| k.to_bytes().to_vec(),
    );
    if let (Some(pk), Some(sk)) = (public, secret) {
        // The exchange commutes, and it is non-contributory exactly when
        // the shared secret is all zeros.
        let peer = StaticSecret::from([0x5d; 32]);
        let ours = sk.diffie_hellman(&PublicKey::from(&peer));
        let theirs = peer.diffie_hellman(&PublicKey::from(&sk));
        assert_eq!(
            ours.to_bytes(),
            theirs.to_bytes(),
            "X25519: DH does not commute"
        );
        let shared = peer.diffie_hellman(&pk);
        assert_eq!(
            shared.was_contributory(),
            shared.to_bytes() != [0; 32],
            "X25519: was_contributory"
        );
    }
    pkcs8::<StaticSecret>("X25519", input);
    spki::<PublicKey>("X25519", input);
}

fn xwing(input: &[u8]) {
    use pqkit_hybrid::xwing::{
        DecapsulationKey, EncapsulationKey,
        kem::{Decapsulate, Decapsulator, KeyExport},
    };
    // 1216 bytes whose ML-KEM-768 half passes the modulus check are a key,
    // kept as given; a key that loads encapsulates to itself.
    if let Some(ek) = raw(
        "X-Wing",
        input,
        |b| EncapsulationKey::from_bytes(b).ok(),
        |k| k.to_bytes().to_vec(),
    ) {
        let (ct, ss) = ek.encapsulate_deterministic(&[4u8; 64].into());
        assert_eq!(ct.len(), 1120, "X-Wing: ciphertext length");
        assert_eq!(ss.len(), 32, "X-Wing: shared key length");
    }
    // Every 32 bytes are a seed; the key it gives decapsulates what its
    // public key encapsulates.
    if let Some(dk) = raw(
        "X-Wing",
        input,
        |b| DecapsulationKey::from_seed_slice(b).ok(),
        |k| k.to_bytes().to_vec(),
    ) {
        let (ct, ss) = dk
            .encapsulation_key()
            .encapsulate_deterministic(&[5u8; 64].into());
        assert_eq!(dk.decapsulate(&ct), ss, "X-Wing: round trip");
    }
    pkcs8::<DecapsulationKey>("X-Wing", input);
    spki::<EncapsulationKey>("X-Wing", input);
}
