//! The RustCrypto traits (generic code over `kem::Kem`), PKCS#8/SPKI in all
//! three private-key forms, typed errors on bad input, implicit rejection on
//! every single-bit flip, and byte-for-byte agreement with RustCrypto
//! `ml-kem` 0.3.4 and `libcrux-ml-kem` 0.0.11.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqkit_common::keccak::Shake256;
use pqkit_ml_kem::kem::{Decapsulate, Encapsulate, FromSeed, Kem, KeyExport, TryKeyInit};
use pqkit_ml_kem::pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding};
use pqkit_ml_kem::spki::{DecodePublicKey, EncodePublicKey};
use pqkit_ml_kem::{
    DecapsulationKey, EncapsulationKey, Error, ExpandedDecapsulationKey, KeyFormat, MlKem512,
    MlKem768, MlKem1024, ParameterSetOid, hazmat,
};

/// A deterministic test RNG (xorshift, expanded to bytes).
struct TestRng(u64);
impl rand_core::TryRng for TestRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.try_next_u64()? as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        Ok(self.0)
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for b in dst.iter_mut() {
            *b = self.try_next_u64()? as u8;
        }
        Ok(())
    }
}
impl rand_core::TryCryptoRng for TestRng {}

/// Written against the `kem` traits only.
fn generic_round_trip<K: Kem>()
where
    K::DecapsulationKey: Decapsulate,
{
    let mut rng = TestRng(0x1234_5678_9abc_def1);
    let (dk, ek) = K::generate_keypair_from_rng(&mut rng);
    let (ct, k1) = ek.encapsulate_with_rng(&mut rng);
    assert_eq!(dk.decapsulate(&ct), k1);
    let ek2 = K::EncapsulationKey::new(&ek.to_bytes()).unwrap();
    assert_eq!(ek, ek2);
}

#[test]
fn generic_code_over_kem_runs_for_every_set() {
    generic_round_trip::<MlKem512>();
    generic_round_trip::<MlKem768>();
    generic_round_trip::<MlKem1024>();
}

fn pkcs8_forms<P: ParameterSetOid>() {
    let dk = DecapsulationKey::<P>::from_seed([9u8; 64].into());
    for format in [KeyFormat::Seed, KeyFormat::Expanded, KeyFormat::Both] {
        let der = dk.to_pkcs8_der_with(format).unwrap();
        // ExpandedDecapsulationKey loads every form; DecapsulationKey the
        // forms with a seed (and the same seed back).
        let back = ExpandedDecapsulationKey::<P>::from_pkcs8_der(der.as_bytes()).unwrap();
        assert_eq!(back.expanded_bytes(), dk.expanded_bytes());
        match DecapsulationKey::<P>::from_pkcs8_der(der.as_bytes()) {
            Ok(seeded) => {
                assert_ne!(format, KeyFormat::Expanded);
                assert_eq!(seeded.to_seed(), dk.to_seed());
                assert_eq!(KeyExport::to_bytes(&seeded), KeyExport::to_bytes(&dk));
            }
            Err(_) => assert_eq!(format, KeyFormat::Expanded),
        }
        // every truncation is an error, never a panic
        for cut in 0..der.as_bytes().len() {
            assert!(DecapsulationKey::<P>::from_pkcs8_der(&der.as_bytes()[..cut]).is_err());
            assert!(ExpandedDecapsulationKey::<P>::from_pkcs8_der(&der.as_bytes()[..cut]).is_err());
        }
    }
    // seed form bytes: 04 42 80 40 <seed> inside the PrivateKeyInfo.
    let der = dk.to_pkcs8_der().unwrap();
    assert_eq!(der.as_bytes().len(), 86);
    assert_eq!(&der.as_bytes()[18..22], &[0x04, 0x42, 0x80, 0x40]);
    // PEM and SPKI round trips.
    let pem = dk.to_pkcs8_pem(LineEnding::LF).unwrap();
    assert!(DecapsulationKey::<P>::from_pkcs8_pem(&pem).is_ok());
    let spki = dk
        .encapsulation_key()
        .to_public_key_pem(LineEnding::LF)
        .unwrap();
    let ek = EncapsulationKey::<P>::from_public_key_pem(&spki).unwrap();
    assert_eq!(&ek, dk.encapsulation_key());
    // `both` with a mismatching expanded key is rejected.
    let other = DecapsulationKey::<P>::from_seed([8u8; 64].into());
    let mut both = dk
        .to_pkcs8_der_with(KeyFormat::Both)
        .unwrap()
        .as_bytes()
        .to_vec();
    let n = both.len();
    let tail = other.expanded_bytes();
    both[n - tail.len()..].copy_from_slice(tail);
    assert!(DecapsulationKey::<P>::from_pkcs8_der(&both).is_err());
    // an expanded-only key cannot export a seed form
    let exp = ExpandedDecapsulationKey::<P>::from_expanded(dk.expanded_bytes()).unwrap();
    assert!(exp.to_pkcs8_der_with(KeyFormat::Seed).is_err());
    let der = exp.to_pkcs8_der().unwrap();
    assert!(DecapsulationKey::<P>::from_pkcs8_der(der.as_bytes()).is_err());
    assert!(ExpandedDecapsulationKey::<P>::from_pkcs8_der(der.as_bytes()).unwrap() == exp);
}

#[test]
fn pkcs8_and_spki_in_every_form() {
    pkcs8_forms::<MlKem512>();
    pkcs8_forms::<MlKem768>();
    pkcs8_forms::<MlKem1024>();
}

#[test]
fn wrong_parameter_set_and_bad_lengths_are_typed_errors() {
    let dk = DecapsulationKey::<MlKem768>::from_seed([1u8; 64].into());
    let der = dk.to_pkcs8_der().unwrap();
    assert!(DecapsulationKey::<MlKem512>::from_pkcs8_der(der.as_bytes()).is_err());
    let ek = dk.encapsulation_key();
    for len in [0, 1, 1183, 1185] {
        assert_eq!(
            EncapsulationKey::<MlKem768>::from_bytes(&vec![0; len]).err(),
            Some(Error::InvalidLength)
        );
        assert_eq!(
            dk.decapsulate_bytes(&vec![0; len]).err(),
            Some(Error::InvalidLength)
        );
    }
    assert_eq!(
        DecapsulationKey::<MlKem768>::from_seed_slice(&[0; 63]).err(),
        Some(Error::InvalidLength)
    );
    assert_eq!(
        ExpandedDecapsulationKey::<MlKem768>::from_expanded(&[0; 10]).err(),
        Some(Error::InvalidLength)
    );
    // a tampered H(ek) inside dk fails the hash check
    let mut bad = dk.expanded_bytes().to_vec();
    bad[768 * 3 + 40] ^= 1;
    assert_eq!(
        ExpandedDecapsulationKey::<MlKem768>::from_expanded(&bad).err(),
        Some(Error::InvalidDecapsulationKey)
    );
    assert!(ek.as_bytes().len() == 1184);
}

#[test]
fn every_single_bit_flip_gives_the_implicit_rejection_key() {
    let dk = DecapsulationKey::<MlKem512>::from_seed([3u8; 64].into());
    let (ct, k) = hazmat::encaps_internal(dk.encapsulation_key(), &[4u8; 32]);
    let mut seen = std::collections::HashSet::new();
    for bit in 0..ct.len() * 8 {
        let mut c = ct;
        c[bit / 8] ^= 1 << (bit % 8);
        let k2 = dk.decapsulate(&c);
        assert_ne!(k2, k.to_shared_key(), "bit {bit}");
        // exactly the implicit-rejection key K-bar = J(z || c) = SHAKE256(z || c, 32)
        // (z: the last 32 bytes of the seed)
        let mut x = Shake256::default();
        x.update(&[3u8; 32]);
        x.update(&c);
        let mut kbar = [0u8; 32];
        x.finalize_xof().read(&mut kbar);
        assert_eq!(k2.as_slice(), &kbar, "bit {bit}");
        // the rejection key depends on the ciphertext: all distinct
        assert!(seen.insert(k2.to_vec()), "bit {bit}");
    }
}

macro_rules! differential {
    ($name:ident, $ours:ty, $rc:ty, $lc:ident, $ct_len:literal) => {
        #[test]
        fn $name() {
            let mut rng = TestRng(0xdead_beef_0bad_f00d ^ $ct_len);
            for _ in 0..1000 {
                let mut seed = [0u8; 64];
                let mut m = [0u8; 32];
                let mut junk = [0u8; $ct_len];
                rand_core::Rng::fill_bytes(&mut rng, &mut seed);
                rand_core::Rng::fill_bytes(&mut rng, &mut m);
                rand_core::Rng::fill_bytes(&mut rng, &mut junk);
                let dk = DecapsulationKey::<$ours>::from_seed(seed.into());
                let ek = dk.encapsulation_key();
                let (ct, k) = hazmat::encaps_internal(ek, &m);
                // RustCrypto ml-kem
                let (rdk, rek) = <$rc>::from_seed(&seed.into());
                assert_eq!(&rek.to_bytes()[..], ek.as_bytes());
                let (rct, rk) = rek.encapsulate_deterministic(&m.into());
                assert_eq!(&rct[..], &ct[..]);
                assert_eq!(&rk[..], &k[..]);
                // The inherent form with RustCrypto's signature (B32 in,
                // the traits' SharedKey out) gives the same bytes.
                let (ct2, k2) = ek.encapsulate_deterministic(&m.into());
                assert_eq!(&ct2[..], &rct[..]);
                assert_eq!(k2, rk);
                assert_eq!(
                    &rdk.decapsulate_slice(&junk).unwrap()[..],
                    &dk.decapsulate_bytes(&junk).unwrap()[..]
                );
                // libcrux
                let kp = libcrux_ml_kem::$lc::generate_key_pair(seed);
                assert_eq!(kp.public_key().as_slice(), ek.as_bytes());
                assert_eq!(&kp.private_key().as_slice()[..], dk.expanded_bytes());
                let (lct, lk) = libcrux_ml_kem::$lc::encapsulate(kp.public_key(), m);
                assert_eq!(lct.as_slice(), &ct[..]);
                assert_eq!(&lk[..], &k[..]);
                let lrej = libcrux_ml_kem::$lc::decapsulate(kp.private_key(), &junk.into());
                assert_eq!(&lrej[..], &dk.decapsulate_bytes(&junk).unwrap()[..]);
            }
        }
    };
}
differential!(differential_512, MlKem512, ml_kem::MlKem512, mlkem512, 768);
differential!(differential_768, MlKem768, ml_kem::MlKem768, mlkem768, 1088);
differential!(
    differential_1024,
    MlKem1024,
    ml_kem::MlKem1024,
    mlkem1024,
    1568
);

#[test]
fn shared_secret_is_redacted_in_debug_and_compares() {
    let dk = DecapsulationKey::<MlKem768>::from_seed([5u8; 64].into());
    let (ct, ss) = hazmat::encaps_internal(dk.encapsulation_key(), &[6u8; 32]);
    let printed = format!("{ss:?}");
    assert_eq!(printed, "SharedSecret(..)");
    let again = dk.decapsulate_bytes(&ct).unwrap();
    assert_eq!(again, ss);
    assert_eq!(again.as_slice(), ss.to_shared_key().as_slice());
    assert_eq!(dk.decapsulate(&ct), ss.to_shared_key());
}
