//! HPKE against rust-hpke (the `hpke` crate), an independent
//! implementation: for every KEM both implement, in base and PSK modes,
//! with a two-stage and a one-stage KDF, the derived keys are the same
//! bytes, a message sealed by either side opens on the other, and both
//! sides export the same secrets.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use hpke::{Deserializable, OpModeR, OpModeS, PskBundle, Serializable};
use pqkit_hybrid::hpke::{Aead, Kdf, Kem, PrivateKey, Psk, PublicKey, Suite};
use pqkit_testkit::drbg::KatDrbg;
use rust_hpke as hpke;

fn drbg(tag: u8) -> KatDrbg {
    KatDrbg::new(&[tag; 48])
}

fn bytes(rng: &mut KatDrbg, n: usize) -> Vec<u8> {
    let mut v = vec![0u8; n];
    rng.randombytes(&mut v);
    v
}

/// One KEM, KDF and AEAD on both implementations; `psk` selects the mode.
fn check<K, F, A>(suite: Suite, psk: Option<(&[u8], &[u8])>, tag: u8)
where
    K: hpke::Kem,
    F: hpke::kdf::Kdf,
    A: hpke::aead::Aead,
{
    let mut rng = drbg(tag);
    let label = format!("{suite:?} psk={}", psk.is_some());
    // The same key pair from the same ikm.
    let ikm = bytes(&mut rng, 64);
    let (sk, pk) = suite.derive_key_pair(&ikm).unwrap();
    let (their_sk, their_pk) = K::derive_keypair(&ikm);
    assert_eq!(
        pk.to_bytes(),
        their_pk.to_bytes().to_vec(),
        "{label}: public key"
    );
    // rust-hpke stores X25519 scalars clamped (RFC 9180 §7.1.2 says to
    // clamp on serialization; its test vectors, and pqkit, keep the
    // derived bytes): the same key either way.
    let mut ours_sk = sk.to_bytes().to_vec();
    if suite.kem == Kem::DhKemX25519 {
        ours_sk[0] &= 248;
        ours_sk[31] &= 127;
        ours_sk[31] |= 64;
    }
    assert_eq!(
        ours_sk,
        their_sk.to_bytes().to_vec(),
        "{label}: private key"
    );
    let pk = PublicKey::from_bytes(suite.kem, &their_pk.to_bytes()).unwrap();
    let sk = PrivateKey::from_bytes(suite.kem, &their_sk.to_bytes()).unwrap();

    let info = bytes(&mut rng, 20);
    let aad = bytes(&mut rng, 7);
    let msg = bytes(&mut rng, 100);
    let ours = psk.map(|(k, id)| Psk::new(k, id).unwrap());
    let bundle = psk.map(|(k, id)| PskBundle::new(k, id).unwrap());
    let mode_s = match bundle {
        Some(b) => OpModeS::Psk(b),
        None => OpModeS::Base,
    };
    let mode_r = match bundle {
        Some(b) => OpModeR::Psk(b),
        None => OpModeR::Base,
    };
    let exportable = A::AEAD_ID != 0xffff;

    // Theirs seals, ours opens.
    let (enc, mut their_s) =
        hpke::setup_sender_with_rng::<A, F, K>(&mode_s, &their_pk, &info, &mut rng).unwrap();
    let enc = enc.to_bytes().to_vec();
    let mut our_r = match &ours {
        Some(p) => suite.setup_receiver_psk(&enc, &sk, &info, p),
        None => suite.setup_receiver(&enc, &sk, &info),
    }
    .unwrap();
    if exportable {
        for i in 0..3 {
            let ct = their_s.seal(&msg[..40 * i], &aad).unwrap();
            assert_eq!(
                our_r.open(&aad, &ct).unwrap(),
                &msg[..40 * i],
                "{label}: open {i}"
            );
        }
    }
    let mut a = [0u8; 48];
    their_s.export(b"exporter", &mut a).unwrap();
    assert_eq!(
        our_r.export(b"exporter", 48).unwrap(),
        a,
        "{label}: export (receiver)"
    );

    // Ours seals, theirs opens.
    let randomness = bytes(&mut rng, suite.kem.encap_randomness_len());
    let (enc, mut our_s) = match &ours {
        Some(p) => suite.setup_sender_psk_derand(&pk, &info, p, &randomness),
        None => suite.setup_sender_derand(&pk, &info, &randomness),
    }
    .unwrap();
    let their_enc = <K::EncappedKey as Deserializable>::from_bytes(&enc).unwrap();
    let mut their_r =
        hpke::setup_receiver::<A, F, K>(&mode_r, &their_sk, &their_enc, &info).unwrap();
    if exportable {
        for i in 0..3 {
            let ct = our_s.seal(&aad, &msg[..40 * i]).unwrap();
            assert_eq!(
                their_r.open(&ct, &aad).unwrap(),
                &msg[..40 * i],
                "{label}: seal {i}"
            );
        }
    }
    let mut b = [0u8; 48];
    their_r.export(b"exporter", &mut b).unwrap();
    assert_eq!(
        our_s.export(b"exporter", 48).unwrap(),
        b,
        "{label}: export (sender)"
    );

    // A PSK that differs by one byte does not open the other side's
    // message.
    if let (Some((k, id)), true) = (psk, exportable) {
        let mut k2 = k.to_vec();
        k2[0] ^= 1;
        let (enc, mut their_s) =
            hpke::setup_sender_with_rng::<A, F, K>(&mode_s, &their_pk, &info, &mut rng).unwrap();
        let ct = their_s.seal(&msg, &aad).unwrap();
        let wrong = Psk::new(&k2, id).unwrap();
        let mut r = suite
            .setup_receiver_psk(&enc.to_bytes(), &sk, &info, &wrong)
            .unwrap();
        assert!(r.open(&aad, &ct).is_err(), "{label}: wrong psk opens");
    }
}

macro_rules! both_modes {
    ($name:ident, $kem:expr, $k:ty) => {
        #[test]
        fn $name() {
            use hpke::aead::{AesGcm128, AesGcm256, ChaCha20Poly1305, ExportOnlyAead};
            use hpke::kdf::{HkdfSha256, HkdfSha384, HkdfSha512, KdfShake256, KdfTurboShake128};
            let psk = [0x5a; 32];
            for (i, p) in [None, Some((&psk[..], &b"psk id"[..]))]
                .into_iter()
                .enumerate()
            {
                let t = (i as u8) << 4;
                check::<$k, HkdfSha256, AesGcm128>(
                    Suite::new($kem, Kdf::HkdfSha256, Aead::Aes128Gcm),
                    p,
                    t | 1,
                );
                check::<$k, HkdfSha384, ChaCha20Poly1305>(
                    Suite::new($kem, Kdf::HkdfSha384, Aead::ChaCha20Poly1305),
                    p,
                    t | 2,
                );
                check::<$k, KdfShake256, AesGcm256>(
                    Suite::new($kem, Kdf::Shake256, Aead::Aes256Gcm),
                    p,
                    t | 3,
                );
                check::<$k, KdfTurboShake128, ChaCha20Poly1305>(
                    Suite::new($kem, Kdf::TurboShake128, Aead::ChaCha20Poly1305),
                    p,
                    t | 4,
                );
                // (rust-hpke 0.15.1 panics on export-only with a one-stage
                // KDF: its derivation buffer is too short for that AEAD's
                // sizes; export-only is compared with a two-stage KDF.)
                check::<$k, HkdfSha512, ExportOnlyAead>(
                    Suite::new($kem, Kdf::HkdfSha512, Aead::ExportOnly),
                    p,
                    t | 5,
                );
            }
        }
    };
}

both_modes!(dhkem_x25519, Kem::DhKemX25519, hpke::kem::X25519HkdfSha256);
both_modes!(dhkem_p256, Kem::DhKemP256, hpke::kem::DhP256HkdfSha256);
both_modes!(dhkem_p384, Kem::DhKemP384, hpke::kem::DhP384HkdfSha384);
both_modes!(ml_kem_768, Kem::MlKem768, hpke::kem::MlKem768);
both_modes!(ml_kem_1024, Kem::MlKem1024, hpke::kem::MlKem1024);
both_modes!(ml_kem_768_p256, Kem::MlKem768P256, hpke::kem::MlKem768P256);
both_modes!(
    ml_kem_1024_p384,
    Kem::MlKem1024P384,
    hpke::kem::MlKem1024P384
);
both_modes!(x_wing, Kem::MlKem768X25519, hpke::kem::XWing);

/// PSK inputs RFC 9180 refuses are refused.
#[test]
fn psk_inputs() {
    assert!(Psk::new(&[1; 32], b"").is_err());
    assert!(Psk::new(&[1; 31], b"id").is_err());
    assert!(Psk::new(&[], b"id").is_err());
    assert!(Psk::new(&[1; 32], b"id").is_ok());
}

/// The adapter's KEMs inside rust-hpke interoperate with rust-hpke's own
/// KEMs (same keys from the same ikm, each side opens the other's
/// messages), and with pqkit's own HPKE.
mod adapter {
    use super::*;
    use hpke::aead::ChaCha20Poly1305;
    use hpke::kdf::HkdfSha256;
    use pqkit_hybrid::rust_hpke;

    fn cross<Ours: hpke::Kem, Theirs: hpke::Kem>(tag: u8) {
        let mut rng = drbg(tag);
        let ikm = bytes(&mut rng, 48);
        let (sk, pk) = Ours::derive_keypair(&ikm);
        let (tsk, tpk) = Theirs::derive_keypair(&ikm);
        assert_eq!(pk.to_bytes().to_vec(), tpk.to_bytes().to_vec());
        assert_eq!(sk.to_bytes().to_vec(), tsk.to_bytes().to_vec());
        assert_eq!(Ours::KEM_ID, Theirs::KEM_ID);
        for round in 0..4 {
            // Theirs seals to their key; ours opens with the same key.
            let (enc, mut s) = hpke::setup_sender_with_rng::<ChaCha20Poly1305, HkdfSha256, Theirs>(
                &OpModeS::Base,
                &tpk,
                b"info",
                &mut rng,
            )
            .unwrap();
            let ct = s.seal(b"msg", b"aad").unwrap();
            let enc = <Ours::EncappedKey as Deserializable>::from_bytes(&enc.to_bytes()).unwrap();
            let mut r = hpke::setup_receiver::<ChaCha20Poly1305, HkdfSha256, Ours>(
                &OpModeR::Base,
                &sk,
                &enc,
                b"info",
            )
            .unwrap();
            assert_eq!(r.open(&ct, b"aad").unwrap(), b"msg", "round {round}");
            // And the other way.
            let (enc, mut s) = hpke::setup_sender_with_rng::<ChaCha20Poly1305, HkdfSha256, Ours>(
                &OpModeS::Base,
                &pk,
                b"info",
                &mut rng,
            )
            .unwrap();
            let ct = s.seal(b"msg", b"aad").unwrap();
            let enc = <Theirs::EncappedKey as Deserializable>::from_bytes(&enc.to_bytes()).unwrap();
            let mut r = hpke::setup_receiver::<ChaCha20Poly1305, HkdfSha256, Theirs>(
                &OpModeR::Base,
                &tsk,
                &enc,
                b"info",
            )
            .unwrap();
            assert_eq!(r.open(&ct, b"aad").unwrap(), b"msg", "round {round}");
        }
        // Wrong lengths are errors, not panics.
        assert!(<Ours::PublicKey as Deserializable>::from_bytes(&[0; 3]).is_err());
        assert!(<Ours::PrivateKey as Deserializable>::from_bytes(&[0; 3]).is_err());
        assert!(<Ours::EncappedKey as Deserializable>::from_bytes(&[0; 3]).is_err());
    }

    #[test]
    fn adapter_matches_rust_hpke() {
        cross::<rust_hpke::MlKem768, hpke::kem::MlKem768>(0x71);
        cross::<rust_hpke::MlKem1024, hpke::kem::MlKem1024>(0x72);
        cross::<rust_hpke::XWing, hpke::kem::XWing>(0x73);
    }

    /// ML-KEM-512, which rust-hpke lacks, against pqkit's own HPKE.
    #[test]
    fn adapter_ml_kem_512_matches_pqkit_hpke() {
        let suite = Suite::new(Kem::MlKem512, Kdf::HkdfSha256, Aead::ChaCha20Poly1305);
        let mut rng = drbg(0x74);
        let ikm = bytes(&mut rng, 48);
        let (sk, pk) = <rust_hpke::MlKem512 as hpke::Kem>::derive_keypair(&ikm);
        let (osk, opk) = suite.derive_key_pair(&ikm).unwrap();
        assert_eq!(pk.to_bytes().to_vec(), opk.to_bytes());
        let (enc, mut s) = hpke::setup_sender_with_rng::<
            ChaCha20Poly1305,
            HkdfSha256,
            rust_hpke::MlKem512,
        >(&OpModeS::Base, &pk, b"info", &mut rng)
        .unwrap();
        let ct = s.seal(b"msg", b"").unwrap();
        let mut r = suite
            .setup_receiver(&enc.to_bytes(), &osk, b"info")
            .unwrap();
        assert_eq!(r.open(b"", &ct).unwrap(), b"msg");
        let _ = sk;
    }
}
