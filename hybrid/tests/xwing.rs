//! X-Wing against the draft's vectors and the `x-wing` crate (ML-KEM and
//! X25519 from RustCrypto and dalek): keys, ciphertexts and shared keys
//! byte for byte, decapsulation of mutated and low-order ciphertexts, the
//! typed errors.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqkit_hybrid::xwing::{
    self, Ciphertext, CiphertextMessage, DecapsulationError, DecapsulationKey,
    DecapsulationKeyRejectNonContrib, EncapsulationKey, Error, XWingKem,
    kem::{Decapsulate, Decapsulator, Encapsulate, Kem, KeyExport, KeyInit},
};
use pqkit_testkit::rng::TestRng;
use pqkit_testkit::vectors;

#[test]
fn draft_vectors() {
    let Some(v) = vectors::json("xwing/test-vectors.json") else {
        return;
    };
    let cases = v.as_array().unwrap();
    assert_eq!(cases.len(), 3);
    for c in cases {
        let h = |k: &str| vectors::hex(&c[k]);
        let seed: [u8; 32] = h("seed").try_into().unwrap();
        let dk = DecapsulationKey::from(seed);
        assert_eq!(&dk.as_bytes()[..], &h("sk")[..]);
        assert_eq!(&dk.to_bytes()[..], &h("sk")[..]);
        let ek = dk.encapsulation_key();
        assert_eq!(&ek.to_bytes()[..], &h("pk")[..]);
        let eseed = h("eseed");
        let (ct, ss) = ek.encapsulate_deterministic(eseed.as_slice().try_into().unwrap());
        assert_eq!(&ct[..], &h("ct")[..]);
        assert_eq!(&ss[..], &h("ss")[..]);
        assert_eq!(&dk.decapsulate(&ct)[..], &h("ss")[..]);
        // The public key re-imported from its bytes encapsulates the same.
        let ek2 = EncapsulationKey::from_bytes(&h("pk")).unwrap();
        assert_eq!(&ek2, ek);
    }
}

#[test]
fn equal_to_x_wing_crate() {
    use x_wing::kem::{Decapsulate as _, Decapsulator as _, KeyExport as _, KeyInit as _};
    let mut rng = TestRng(0x1216);
    for i in 0..200 {
        let seed: [u8; 32] = rng.bytes();
        let eseed: [u8; 64] = rng.bytes();
        let ours = DecapsulationKey::from(seed);
        let theirs = x_wing::DecapsulationKey::new(&seed.into());
        let ek_bytes = ours.encapsulation_key().to_bytes();
        assert_eq!(&ek_bytes[..], &theirs.encapsulation_key().to_bytes()[..]);
        let (ct, ss) = ours
            .encapsulation_key()
            .encapsulate_deterministic(&eseed.into());
        let (ct2, ss2) = theirs
            .encapsulation_key()
            .encapsulate_deterministic(&eseed.into());
        assert_eq!(&ct[..], &ct2[..]);
        assert_eq!(&ss[..], &ss2[..]);
        // Mutated ciphertexts: ML-KEM's implicit rejection, X25519 of
        // another share; both sides agree on every byte.
        let mut bad = ct;
        let at = (rng.next_u64() as usize) % xwing::CIPHERTEXT_SIZE;
        bad[at] ^= 1 << (i % 8);
        let bad2 = x_wing::Ciphertext::try_from(&bad[..]).unwrap();
        assert_eq!(
            &ours.decapsulate(&bad)[..],
            &theirs.decapsulate(&bad2)[..],
            "byte {at}"
        );
    }
}

/// Low-order and non-canonical X25519 shares: the default key accepts them
/// as x-wing's does (same key), the rejecting key refuses exactly the ones
/// whose X25519 secret is zero.
#[test]
fn low_order_shares() {
    use x_wing::kem::{Decapsulate as _, KeyInit as _, TryDecapsulate as _};
    let p = {
        let mut b = [0xffu8; 32];
        b[0] = 0xed;
        b[31] = 0x7f;
        b
    };
    let with_low = |mut b: [u8; 32], k: u8| {
        b[0] = b[0].wrapping_add(k);
        b
    };
    let shares: Vec<([u8; 32], bool)> = vec![
        ([0; 32], true),
        (with_low([0; 32], 1), true),
        (p, true),
        (with_low(p, 1), true),
        ([0xff; 32], false),
        (with_low([0; 32], 9), false),
    ];
    let seed: [u8; 32] = TestRng(7).bytes();
    let ours = DecapsulationKey::from(seed);
    let rejecting = DecapsulationKeyRejectNonContrib::from(seed);
    let theirs = x_wing::DecapsulationKey::new(&seed.into());
    let theirs_rej = x_wing::DecapsulationKeyRejectNonContrib::new(&seed.into());
    let (ct, _) = ours
        .encapsulation_key()
        .encapsulate_deterministic(&[3u8; 64].into());
    for (share, zero) in shares {
        let mut c = ct;
        c[1088..].copy_from_slice(&share);
        let c2 = x_wing::Ciphertext::try_from(&c[..]).unwrap();
        assert_eq!(&ours.decapsulate(&c)[..], &theirs.decapsulate(&c2)[..]);
        let mine = rejecting.try_decapsulate(&c);
        let other = theirs_rej.try_decapsulate(&c2);
        assert_eq!(mine.is_err(), zero, "{share:x?}");
        assert_eq!(other.is_err(), zero, "{share:x?}");
        if let (Ok(a), Ok(b)) = (mine, other) {
            assert_eq!(&a[..], &b[..]);
        } else {
            assert_eq!(rejecting.try_decapsulate(&c), Err(DecapsulationError));
        }
    }
}

#[test]
fn bad_inputs_are_typed_errors() {
    let dk = DecapsulationKey::from([1u8; 32]);
    let ek = dk.encapsulation_key().to_bytes();
    for len in [0, 1, 1184, 1215, 1217] {
        let b = vec![0u8; len];
        assert_eq!(
            EncapsulationKey::from_bytes(&b),
            Err(Error::InvalidLength {
                expected: 1216,
                got: len
            })
        );
        assert!(EncapsulationKey::try_from(&b[..]).is_err());
    }
    // A coefficient of 4095 >= q in the ML-KEM half fails the modulus check.
    let mut bad = ek.to_vec();
    bad[0] = 0xff;
    bad[1] |= 0x0f;
    assert_eq!(EncapsulationKey::from_bytes(&bad), Err(Error::InvalidKey));
    assert_eq!(
        DecapsulationKey::from_seed_slice(&[0u8; 31]).err(),
        Some(Error::InvalidLength {
            expected: 32,
            got: 31
        })
    );
    assert!(DecapsulationKey::from_seed_slice(&[0u8; 32]).is_ok());
    // Debug shows no secret.
    let s = format!("{dk:?}");
    assert!(s.starts_with("DecapsulationKey"));
    assert!(!s.contains(&format!("{:?}", [1u8; 32])));
}

#[test]
fn kem_traits_and_ciphertext_message() {
    fn generic<K: Kem>(rng: &mut TestRng) -> bool
    where
        K::DecapsulationKey: Decapsulate,
    {
        let (dk, ek) = K::generate_keypair_from_rng(rng);
        let (ct, k) = ek.encapsulate_with_rng(rng);
        dk.decapsulate(&ct) == k
    }
    assert!(generic::<XWingKem>(&mut TestRng(1)));
    let dk = DecapsulationKey::new(&[5u8; 32].into());
    let (ct, _) = dk.encapsulation_key().encapsulate_with_rng(&mut TestRng(9));
    let m = CiphertextMessage::from(&ct);
    assert_eq!(Ciphertext::from(&m), ct);
    assert_eq!(m.to_bytes(), ct);
}
