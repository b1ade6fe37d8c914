//! Decapsulation for every KEM. The second byte's low bit picks:
//! - a ciphertext: arbitrary bytes of the right length give a key
//!   (implicit rejection: the real one only for the real ciphertext),
//!   any other length a typed error;
//! - a decapsulation key: arbitrary bytes in every form (raw expanded,
//!   seed, PKCS#8) never panic, and whatever is accepted decapsulates.
//!
//! Saber's one-shot decapsulation from key bytes gives what import then
//! decapsulation gives (the key or the error), for both kinds of input.
//!
//! HPKE (selector 7, the KEM from the body's first byte): arbitrary
//! `enc || ct` opens to a typed error, never a panic, and a real sealed
//! message opens only unmodified; arbitrary key bytes load or give a typed
//! error, and a key that loads seals and opens.

/// The target: `data[0]` picks the KEM.
pub fn run(data: &[u8]) {
    let Some((sel, rest)) = crate::select(data) else {
        return;
    };
    let Some((kind, body)) = crate::select(rest) else {
        return;
    };
    let key = kind & 1 == 1;
    match sel % 8 {
        0 => ml_kem::<pqkit_ml_kem::MlKem512>(key, body),
        1 => ml_kem::<pqkit_ml_kem::MlKem768>(key, body),
        2 => ml_kem::<pqkit_ml_kem::MlKem1024>(key, body),
        3 => saber::<pqkit_saber::LightSaber>(key, body),
        4 => saber::<pqkit_saber::Saber>(key, body),
        5 => saber::<pqkit_saber::FireSaber>(key, body),
        6 => xwing(key, body),
        _ => hpke(key, body),
    }
}

/// A ciphertext of the right length: the body, repeated or cut to fit.
fn fit(body: &[u8], len: usize) -> Vec<u8> {
    if body.is_empty() {
        return vec![0; len];
    }
    body.iter().copied().cycle().take(len).collect()
}

/// The ciphertext property for one KEM: `decaps` of the real ciphertext
/// gives the real secret, of another right-length one a secret (almost
/// surely another), of any other length an error.
fn ciphertext(
    name: &str,
    real: (&[u8], &[u8]),
    body: &[u8],
    decaps: impl Fn(&[u8]) -> Option<Vec<u8>>,
) {
    let (ct, ss) = real;
    let len = ct.len();
    if body.len() != len {
        assert!(
            decaps(body).is_none(),
            "{name}: wrong-length ciphertext accepted"
        );
    }
    let c = fit(body, len);
    let got = decaps(&c).unwrap_or_else(|| panic!("{name}: right-length ciphertext refused"));
    assert_eq!(got.len(), 32, "{name}: shared secret length");
    if c == ct {
        assert_eq!(got, ss, "{name}: real ciphertext, wrong secret");
    } else {
        assert_ne!(got, ss, "{name}: another ciphertext gives the real secret");
    }
}

struct Kem<D> {
    dk: D,
    ct: Vec<u8>,
    ss: Vec<u8>,
}

fn ml_kem<P: pqkit_ml_kem::ParameterSetOid>(key: bool, body: &[u8]) {
    use pkcs8::DecodePrivateKey;
    use pqkit_ml_kem::{DecapsulationKey, ExpandedDecapsulationKey};
    fn make<P: pqkit_ml_kem::ParameterSetOid>() -> Kem<DecapsulationKey<P>> {
        let dk = DecapsulationKey::<P>::from_seed([P::K as u8; 64].into());
        let (ct, ss) = pqkit_ml_kem::hazmat::encaps_internal(dk.encapsulation_key(), &[1; 32]);
        Kem {
            ct: ct.to_vec(),
            ss: ss.as_ref().to_vec(),
            dk,
        }
    }
    let fx = crate::fixture(make::<P>);
    let name = P::NAME;
    if !key {
        ciphertext(name, (&fx.ct, &fx.ss), body, |c| {
            fx.dk.decapsulate_bytes(c).ok().map(|s| s.as_ref().to_vec())
        });
        return;
    }
    let works = |ok: bool| assert!(ok, "{name}: accepted key fails");
    let ct = &fx.ct;
    if let Ok(dk) = ExpandedDecapsulationKey::<P>::from_expanded(body) {
        works(dk.decapsulate_bytes(ct).is_ok());
        let _ = dk.check_consistency();
    }
    if let Ok(dk) = DecapsulationKey::<P>::from_seed_slice(body) {
        works(dk.decapsulate_bytes(ct).is_ok());
    }
    if let Ok(dk) = DecapsulationKey::<P>::from_pkcs8_der(body) {
        works(dk.decapsulate_bytes(ct).is_ok());
    }
    if let Ok(dk) = ExpandedDecapsulationKey::<P>::from_pkcs8_der(body) {
        works(dk.decapsulate_bytes(ct).is_ok());
    }
}

fn saber<P: pqkit_saber::ParameterSetOid>(key: bool, body: &[u8]) {
    use pkcs8::DecodePrivateKey;
    use pqkit_saber::DecapsulationKey;
    fn make<P: pqkit_saber::ParameterSetOid>() -> Kem<DecapsulationKey<P>> {
        let dk = DecapsulationKey::<P>::from_seed(&[P::L as u8; 96]);
        let (ct, ss) = dk.encapsulation_key().encapsulate_deterministic(&[2; 32]);
        Kem {
            ct: ct.to_vec(),
            ss: ss.as_ref().to_vec(),
            dk,
        }
    }
    let fx = crate::fixture(make::<P>);
    let name = P::NAME;
    if !key {
        ciphertext(name, (&fx.ct, &fx.ss), body, |c| {
            let got = fx.dk.decapsulate_bytes(c);
            let once = DecapsulationKey::<P>::decapsulate_from_key_bytes(fx.dk.as_bytes(), c);
            assert_eq!(once, got, "{name}: one-shot decapsulation differs");
            got.ok().map(|s| s.as_ref().to_vec())
        });
        return;
    }
    let works = |ok: bool| assert!(ok, "{name}: accepted key fails");
    // The one-shot decapsulation from key bytes: import's verdict, and
    // the same key where the import is accepted.
    let two_steps =
        DecapsulationKey::<P>::from_bytes(body).and_then(|dk| dk.decapsulate_bytes(&fx.ct));
    let once = DecapsulationKey::<P>::decapsulate_from_key_bytes(body, &fx.ct);
    assert_eq!(once, two_steps, "{name}: one-shot decapsulation differs");
    if let Ok(dk) = DecapsulationKey::<P>::from_bytes(body) {
        works(dk.decapsulate_bytes(&fx.ct).is_ok());
    }
    if let Ok(dk) = DecapsulationKey::<P>::from_pkcs8_der(body) {
        works(dk.decapsulate_bytes(&fx.ct).is_ok());
    }
}

fn xwing(key: bool, body: &[u8]) {
    use pqkit_hybrid::xwing::{
        Ciphertext, DecapsulationKey,
        kem::{Decapsulate, Decapsulator},
    };
    fn make() -> Kem<DecapsulationKey> {
        let dk = DecapsulationKey::from([6u8; 32]);
        let (ct, ss) = dk
            .encapsulation_key()
            .encapsulate_deterministic(&[3u8; 64].into());
        Kem {
            ct: ct.to_vec(),
            ss: ss.to_vec(),
            dk,
        }
    }
    let fx = crate::fixture(make);
    let decaps = |dk: &DecapsulationKey, c: &[u8]| {
        Ciphertext::try_from(c)
            .ok()
            .map(|c| dk.decapsulate(&c).to_vec())
    };
    if !key {
        ciphertext("X-Wing", (&fx.ct, &fx.ss), body, |c| decaps(&fx.dk, c));
        return;
    }
    // A seed of any 32 bytes is a key, and it decapsulates.
    if let Ok(dk) = DecapsulationKey::from_seed_slice(body) {
        assert!(decaps(&dk, &fx.ct).is_some(), "X-Wing: accepted key fails");
    }
}

fn hpke(key: bool, body: &[u8]) {
    use pqkit_hybrid::hpke::{Aead, Error, Kdf, Kem, PrivateKey, PublicKey, Suite};
    let Some((&k, body)) = body.split_first() else {
        return;
    };
    let kem = Kem::ALL[usize::from(k) % Kem::ALL.len()];
    let suite = Suite::new(kem, Kdf::HkdfSha256, Aead::ChaCha20Poly1305);
    let round_trip = |sk: &PrivateKey, pk: &PublicKey| {
        let r = vec![9u8; kem.encap_randomness_len()];
        let (enc, mut s) = suite
            .setup_sender_derand(pk, b"i", &r)
            .expect("HPKE: a loaded key seals");
        let ct = s.seal(b"a", b"message").expect("seal");
        let mut rx = suite.setup_receiver(&enc, sk, b"i").expect("HPKE: own enc");
        assert_eq!(
            rx.open(b"a", &ct).expect("HPKE: own ciphertext"),
            b"message"
        );
    };
    if key {
        if let Ok(sk) = PrivateKey::from_bytes(kem, body) {
            round_trip(&sk, &sk.public_key());
        }
        if let Ok(pk) = PublicKey::from_bytes(kem, body) {
            assert_eq!(pk.to_bytes(), body, "HPKE: public key bytes round trip");
        }
        return;
    }
    let (sk, pk) = suite.derive_key_pair(&[5; 64]).expect("derive");
    let n = kem.enc_len().min(body.len());
    match suite.setup_receiver(&body[..n], &sk, b"i") {
        Ok(mut rx) => {
            // A right-length enc gives a context; arbitrary bytes do not
            // authenticate under it.
            assert_eq!(rx.open(b"a", &body[n..]), Err(Error::OpenError));
        }
        Err(e) => assert!(
            matches!(e, Error::InvalidEncapsulatedKey | Error::ZeroSharedSecret),
            "HPKE: unexpected {e:?}"
        ),
    }
    round_trip(&sk, &pk);
}
