//! RFC 7748 through the public API: §5.2's single and iterated vectors and
//! §6.1's exchange.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqkit_x25519::{PublicKey, StaticSecret, X25519_BASEPOINT_BYTES, x25519};

fn hex32(s: &str) -> [u8; 32] {
    hex::decode(s).unwrap().try_into().unwrap()
}

#[test]
fn rfc7748_section_5_2() {
    let cases = [
        (
            "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
            "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
            "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552",
        ),
        (
            "4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
            "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
            "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957",
        ),
    ];
    for (k, u, want) in cases {
        let (k, u, want) = (hex32(k), hex32(u), hex32(want));
        assert_eq!(x25519(k, u), want);
        let shared = StaticSecret::from(k).diffie_hellman(&PublicKey::from(u));
        assert_eq!(shared.to_bytes(), want);
        assert_eq!(shared.as_bytes(), &want);
        assert!(shared.was_contributory());
    }
}

fn iterate(n: u32) -> [u8; 32] {
    let (mut k, mut u) = (X25519_BASEPOINT_BYTES, X25519_BASEPOINT_BYTES);
    for _ in 0..n {
        let r = x25519(k, u);
        u = k;
        k = r;
    }
    k
}

#[test]
fn rfc7748_iterated_1_and_1000() {
    assert_eq!(
        iterate(1),
        hex32("422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079")
    );
    assert_eq!(
        iterate(1000),
        hex32("684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51")
    );
}

/// The 1,000,000-iteration value: slow (about a minute optimised), run
/// with `--ignored`.
#[test]
#[ignore]
fn rfc7748_iterated_million() {
    assert_eq!(
        iterate(1_000_000),
        hex32("7c3911e0ab2586fd864497297e575e6f3bc601c0883c30df5f4dd2d24f665424")
    );
}

#[test]
fn rfc7748_section_6_1() {
    let alice = StaticSecret::from(hex32(
        "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a",
    ));
    let bob = StaticSecret::from(hex32(
        "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb",
    ));
    let alice_public = PublicKey::from(&alice);
    let bob_public = PublicKey::from(&bob);
    assert_eq!(
        alice_public.to_bytes(),
        hex32("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
    );
    assert_eq!(
        bob_public.to_bytes(),
        hex32("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")
    );
    let k = hex32("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742");
    assert_eq!(alice.diffie_hellman(&bob_public).to_bytes(), k);
    assert_eq!(bob.diffie_hellman(&alice_public).to_bytes(), k);
    assert_eq!(x25519(alice.to_bytes(), bob_public.to_bytes()), k);
}
