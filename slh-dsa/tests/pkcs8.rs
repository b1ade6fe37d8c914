//! PKCS#8 and SPKI with the RFC 9909 OIDs, against RustCrypto `slh-dsa`.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use pqkit_slh_dsa::pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding};
use pqkit_slh_dsa::spki::{DecodePublicKey, EncodePublicKey};
use pqkit_slh_dsa::{Sha2_128f, Sha2_256f, Shake128s, Shake192f, SigningKey, VerifyingKey};

/// Our DER decodes in RustCrypto and theirs in ours, to the same keys.
fn round_trip<P, R>(seed: u8)
where
    P: pqkit_slh_dsa::ParameterSetOid,
    R: slh_dsa::ParameterSet,
{
    let n = P::N;
    let sk =
        SigningKey::<P>::from_seed(&vec![seed; n], &vec![seed + 1; n], &vec![seed + 2; n]).unwrap();
    let vk = sk.verifying_key();
    let der = sk.to_pkcs8_der().unwrap();
    let back = SigningKey::<P>::from_pkcs8_der(der.as_bytes()).unwrap();
    assert!(back == sk);
    let pem = sk.to_pkcs8_pem(LineEnding::LF).unwrap();
    assert!(SigningKey::<P>::from_pkcs8_pem(&pem).unwrap() == sk);
    let spki = vk.to_public_key_der().unwrap();
    assert_eq!(
        VerifyingKey::<P>::from_public_key_der(spki.as_bytes()).unwrap(),
        vk
    );

    // RustCrypto reads ours and writes the same bytes.
    let theirs = slh_dsa::SigningKey::<R>::from_pkcs8_der(der.as_bytes()).unwrap();
    assert_eq!(&theirs.to_bytes()[..], sk.as_bytes());
    assert_eq!(
        theirs.to_pkcs8_der().unwrap().as_bytes(),
        der.as_bytes(),
        "{}",
        P::NAME
    );
    let their_vk = slh_dsa::VerifyingKey::<R>::from_public_key_der(spki.as_bytes()).unwrap();
    assert_eq!(
        their_vk.to_public_key_der().unwrap().as_bytes(),
        spki.as_bytes()
    );

    // A private key whose PK.root does not match its seeds is refused.
    let mut bad = sk.as_bytes().to_vec();
    *bad.last_mut().unwrap() ^= 1;
    let bad_der = der.as_bytes().to_vec();
    let at = bad_der.len() - bad.len();
    let mut bad_der = bad_der;
    bad_der[at..].copy_from_slice(&bad);
    assert!(SigningKey::<P>::from_pkcs8_der(&bad_der).is_err());
}

#[test]
fn pkcs8_spki_match_rustcrypto() {
    round_trip::<Sha2_128f, slh_dsa::Sha2_128f>(1);
    round_trip::<Shake128s, slh_dsa::Shake128s>(4);
    round_trip::<Shake192f, slh_dsa::Shake192f>(7);
    round_trip::<Sha2_256f, slh_dsa::Sha2_256f>(10);
}

#[test]
fn wrong_oid_is_refused() {
    let sk = SigningKey::<Sha2_128f>::from_seed(&[1; 16], &[2; 16], &[3; 16]).unwrap();
    let der = sk.to_pkcs8_der().unwrap();
    // Same sizes, other set: the OID differs.
    assert!(SigningKey::<pqkit_slh_dsa::Shake128f>::from_pkcs8_der(der.as_bytes()).is_err());
    let spki = sk.verifying_key().to_public_key_der().unwrap();
    assert!(
        VerifyingKey::<pqkit_slh_dsa::Sha2_128s>::from_public_key_der(spki.as_bytes()).is_err()
    );
}

/// Every OID equals RustCrypto's.
#[test]
fn oids() {
    use pqkit_slh_dsa::spki::AssociatedAlgorithmIdentifier as _;
    macro_rules! same {
        ($($t:ident),*) => {$(
            assert_eq!(
                <pqkit_slh_dsa::$t as pqkit_slh_dsa::pkcs8::AssociatedOid>::OID,
                <slh_dsa::$t as slh_dsa::ParameterSet>::ALGORITHM_OID,
                stringify!($t)
            );
            assert!(<pqkit_slh_dsa::$t>::ALGORITHM_IDENTIFIER.parameters.is_none());
        )*};
    }
    same!(
        Sha2_128s, Sha2_128f, Sha2_192s, Sha2_192f, Sha2_256s, Sha2_256f, Shake128s, Shake128f,
        Shake192s, Shake192f, Shake256s, Shake256f
    );
}
