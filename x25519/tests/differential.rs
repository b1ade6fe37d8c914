//! Byte for byte against x25519-dalek: public keys, shared secrets, the
//! bare function and `was_contributory`, on random secrets and public keys
//! (canonical, non-canonical, with bit 255 set) and on every low-order
//! point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use curve25519_dalek::constants::EIGHT_TORSION;
use pqkit_testkit::drbg::KatDrbg;
use rand_core::Rng;

/// The u-coordinates of the eight-torsion points (0, 1 and the two of
/// order 8), p - 1 (order 4 on the twist), the non-canonical forms p and
/// p + 1 of 0 and 1, and each with bit 255 set.
fn low_order() -> Vec<[u8; 32]> {
    let mut out: Vec<[u8; 32]> = EIGHT_TORSION
        .iter()
        .map(|p| p.to_montgomery().to_bytes())
        .collect();
    let mut p = [0xff; 32];
    p[0] = 0xed;
    p[31] = 0x7f;
    let mut p1 = p;
    p1[0] = 0xee;
    let mut m1 = p;
    m1[0] = 0xec;
    out.extend([m1, p, p1]);
    let with_top: Vec<[u8; 32]> = out
        .iter()
        .map(|u| {
            let mut u = *u;
            u[31] |= 0x80;
            u
        })
        .collect();
    out.extend(with_top);
    out
}

fn check(k: [u8; 32], u: [u8; 32]) {
    let ours = pqkit_x25519::StaticSecret::from(k);
    let theirs = x25519_dalek::StaticSecret::from(k);
    assert_eq!(
        pqkit_x25519::PublicKey::from(&ours).to_bytes(),
        x25519_dalek::PublicKey::from(&theirs).to_bytes(),
        "public key of {k:02x?}"
    );
    let a = ours.diffie_hellman(&pqkit_x25519::PublicKey::from(u));
    let b = theirs.diffie_hellman(&x25519_dalek::PublicKey::from(u));
    assert_eq!(a.to_bytes(), b.to_bytes(), "k {k:02x?} u {u:02x?}");
    assert_eq!(a.was_contributory(), b.was_contributory());
    assert_eq!(pqkit_x25519::x25519(k, u), x25519_dalek::x25519(k, u));
}

#[test]
fn random_secrets_and_public_keys() {
    let mut rng = KatDrbg::new(&[0x25; 48]);
    for i in 0..20_000 {
        let mut k = [0u8; 32];
        let mut u = [0u8; 32];
        rng.fill_bytes(&mut k);
        rng.fill_bytes(&mut u);
        if i % 4 == 0 {
            // A non-canonical u: p + (u mod 19), possibly with bit 255.
            let mut p = [0xff; 32];
            p[0] = 0xed + u[0] % 19;
            p[31] = 0x7f | (u[1] & 0x80);
            u = p;
        }
        check(k, u);
    }
}

#[test]
fn low_order_points_are_not_contributory() {
    let points = low_order();
    assert_eq!(points.len(), 22);
    let mut rng = KatDrbg::new(&[0x77; 48]);
    for _ in 0..20 {
        let mut k = [0u8; 32];
        rng.fill_bytes(&mut k);
        for u in &points {
            check(k, *u);
            let shared = pqkit_x25519::StaticSecret::from(k)
                .diffie_hellman(&pqkit_x25519::PublicKey::from(*u));
            assert_eq!(shared.to_bytes(), [0; 32], "{u:02x?}");
            assert!(!shared.was_contributory());
        }
    }
}

#[test]
fn generation_consumes_the_rng_as_dalek_does() {
    let mut a = KatDrbg::new(&[1; 48]);
    let mut b = KatDrbg::new(&[1; 48]);
    for _ in 0..16 {
        let ours = pqkit_x25519::StaticSecret::random_from_rng(&mut a);
        let theirs = x25519_dalek::StaticSecret::random_from_rng(&mut b);
        assert_eq!(ours.to_bytes(), theirs.to_bytes());
        let ours = pqkit_x25519::EphemeralSecret::random_from_rng(&mut a);
        let theirs = x25519_dalek::EphemeralSecret::random_from_rng(&mut b);
        assert_eq!(
            pqkit_x25519::PublicKey::from(&ours).to_bytes(),
            x25519_dalek::PublicKey::from(&theirs).to_bytes()
        );
        let ours = pqkit_x25519::ReusableSecret::random_from_rng(&mut a);
        let theirs = x25519_dalek::ReusableSecret::random_from_rng(&mut b);
        assert_eq!(
            pqkit_x25519::PublicKey::from(&ours).to_bytes(),
            x25519_dalek::PublicKey::from(&theirs).to_bytes()
        );
    }
}

#[cfg(feature = "serde")]
#[test]
fn serde_matches_dalek() {
    let k = [0x24; 32];
    let ours = pqkit_x25519::StaticSecret::from(k);
    let theirs = x25519_dalek::StaticSecret::from(k);
    assert_eq!(
        serde_json::to_string(&ours).unwrap(),
        serde_json::to_string(&theirs).unwrap()
    );
    let pk = pqkit_x25519::PublicKey::from(&ours);
    let dpk = x25519_dalek::PublicKey::from(&theirs);
    let json = serde_json::to_string(&dpk).unwrap();
    assert_eq!(serde_json::to_string(&pk).unwrap(), json);
    let back: pqkit_x25519::PublicKey = serde_json::from_str(&json).unwrap();
    assert_eq!(back, pk);
    let back: pqkit_x25519::StaticSecret =
        serde_json::from_str(&serde_json::to_string(&theirs).unwrap()).unwrap();
    assert_eq!(back.to_bytes(), k);
}
