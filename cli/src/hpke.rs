//! `pqkit hpke keygen|seal|open`: HPKE (RFC 9180, base and PSK modes)
//! through `pqkit_hybrid::hpke`.
//!
//! Keys come in two forms. A PEM key file of `pqkit keygen` carries its
//! KEM: ML-KEM-512/768/1024, X-Wing (MLKEM768-X25519) or X25519
//! (DHKEM(X25519, HKDF-SHA256)). With `--kem`, the key file holds the raw
//! RFC 9180 serialization (`SerializePrivateKey`, `SerializePublicKey`) of
//! any KEM pqkit has, including DHKEM(P-256), DHKEM(P-384), DHKEM(X448),
//! MLKEM768-P256 and MLKEM1024-P384, which have no PKIX encoding here; `hpke keygen` writes
//! that form, and so do other HPKE libraries (Go's `crypto/hpke`
//! `Bytes()`). The sealed form is `enc || ciphertext`, as Go's
//! `crypto/hpke.Seal` writes.

use pqkit_hybrid::hpke::{self, Aead, Kdf, Kem, PrivateKey, Psk, PublicKey, Suite};
use spki::SubjectPublicKeyInfoRef;
use zeroize::Zeroizing;

use crate::args::{HpkeAead, HpkeKdf, HpkeKem, HpkeOp, HpkeSuiteArgs};
use crate::{CliError, Result, io, schemes};

fn kem(k: HpkeKem) -> Kem {
    match k {
        HpkeKem::P256 => Kem::DhKemP256,
        HpkeKem::P384 => Kem::DhKemP384,
        HpkeKem::X25519 => Kem::DhKemX25519,
        HpkeKem::X448 => Kem::DhKemX448,
        HpkeKem::MlKem512 => Kem::MlKem512,
        HpkeKem::MlKem768 => Kem::MlKem768,
        HpkeKem::MlKem1024 => Kem::MlKem1024,
        HpkeKem::MlKem768P256 => Kem::MlKem768P256,
        HpkeKem::MlKem1024P384 => Kem::MlKem1024P384,
        HpkeKem::XWing => Kem::MlKem768X25519,
    }
}

fn suite(kem: Kem, args: &HpkeSuiteArgs) -> Suite {
    let kdf = match args.kdf {
        HpkeKdf::HkdfSha256 => Kdf::HkdfSha256,
        HpkeKdf::HkdfSha384 => Kdf::HkdfSha384,
        HpkeKdf::HkdfSha512 => Kdf::HkdfSha512,
        HpkeKdf::Shake128 => Kdf::Shake128,
        HpkeKdf::Shake256 => Kdf::Shake256,
        HpkeKdf::Turboshake128 => Kdf::TurboShake128,
        HpkeKdf::Turboshake256 => Kdf::TurboShake256,
    };
    let aead = match args.aead {
        HpkeAead::Aes128Gcm => Aead::Aes128Gcm,
        HpkeAead::Aes256Gcm => Aead::Aes256Gcm,
        HpkeAead::ChaCha20Poly1305 => Aead::ChaCha20Poly1305,
    };
    Suite::new(kem, kdf, aead)
}

/// The PSK of `--psk` and `--psk-id` (clap requires both or neither).
fn psk(args: &HpkeSuiteArgs) -> Result<Option<Psk<'_>>> {
    match (&args.psk, &args.psk_id) {
        (Some(psk), Some(id)) => Ok(Some(Psk::new(psk, id).map_err(hpke_error)?)),
        _ => Ok(None),
    }
}

/// The key file's scheme and its HPKE KEM.
fn scheme_and_kem(key: &io::KeyFile) -> Result<(&'static dyn schemes::Scheme, Kem)> {
    let scheme = schemes::for_key(key)?;
    let kem = scheme
        .hpke_kem()
        .ok_or_else(|| CliError::new(format!("hpke: {} keys have no HPKE KEM", scheme.name())))?;
    Ok((scheme, kem))
}

fn hpke_error(e: hpke::Error) -> CliError {
    CliError::new(format!("hpke: {e}"))
}

/// The recipient's public key: raw bytes of `raw_kem`, or a PEM key file.
fn public_key(path: &str, raw_kem: Option<HpkeKem>) -> Result<PublicKey> {
    if let Some(k) = raw_kem {
        return PublicKey::from_bytes(kem(k), &io::read_input(path)?).map_err(hpke_error);
    }
    let key = io::read_key(path)?;
    let (scheme, kem) = scheme_and_kem(&key)?;
    let spki_der = scheme.public_key_der(&key)?;
    let spki = SubjectPublicKeyInfoRef::try_from(spki_der.as_slice())
        .map_err(|e| CliError::new(format!("hpke: public key: {e}")))?;
    let raw = spki
        .subject_public_key
        .as_bytes()
        .ok_or_else(|| CliError::new("hpke: public key: not whole bytes"))?;
    PublicKey::from_bytes(kem, raw).map_err(hpke_error)
}

/// The recipient's private key: raw bytes of `raw_kem`, or a PEM key file.
fn private_key(path: &str, raw_kem: Option<HpkeKem>) -> Result<PrivateKey> {
    if let Some(k) = raw_kem {
        let raw = Zeroizing::new(io::read_input(path)?);
        return PrivateKey::from_bytes(kem(k), &raw).map_err(hpke_error);
    }
    let key = io::read_key(path)?;
    let (scheme, kem) = scheme_and_kem(&key)?;
    PrivateKey::from_bytes(kem, &scheme.hpke_private(&key)?).map_err(hpke_error)
}

/// Run `hpke keygen`, `hpke seal` or `hpke open`; `open` returns 1 when
/// the ciphertext does not authenticate.
pub fn run(op: &HpkeOp) -> Result<u8> {
    match op {
        HpkeOp::Keygen {
            kem: k,
            ikm,
            key,
            public,
        } => {
            // DeriveKeyPair depends on the KEM alone; the KDF and AEAD of
            // the suite are placeholders.
            let s = Suite::new(kem(*k), Kdf::HkdfSha256, Aead::Aes128Gcm);
            let (sk, pk) = match ikm {
                Some(ikm) => s.derive_key_pair(ikm),
                None => s.generate_key_pair(&mut crate::demo::os_rng()),
            }
            .map_err(hpke_error)?;
            io::write_outputs(&[(key, &sk.to_bytes()), (public, &pk.to_bytes())])?;
            Ok(0)
        }
        HpkeOp::Seal {
            public,
            input,
            out,
            suite: args,
            kem: raw_kem,
            seed,
        } => {
            let pk = public_key(public, *raw_kem)?;
            let suite = suite(pk.kem(), args);
            let psk = psk(args)?;
            let mut rng = crate::demo::os_rng();
            let (enc, mut ctx) = match (&psk, seed) {
                (None, Some(r)) => suite.setup_sender_derand(&pk, &args.info, r),
                (None, None) => suite.setup_sender(&pk, &args.info, &mut rng),
                (Some(p), Some(r)) => suite.setup_sender_psk_derand(&pk, &args.info, p, r),
                (Some(p), None) => suite.setup_sender_psk(&pk, &args.info, p, &mut rng),
            }
            .map_err(hpke_error)?;
            let pt = io::read_input(input)?;
            let mut sealed = enc;
            sealed.extend_from_slice(&ctx.seal(&args.aad, &pt).map_err(hpke_error)?);
            io::write_outputs(&[(out, &sealed)])?;
            Ok(0)
        }
        HpkeOp::Open {
            key,
            input,
            out,
            suite: args,
            kem: raw_kem,
        } => {
            let sk = private_key(key, *raw_kem)?;
            let kem = sk.kem();
            let psk = psk(args)?;
            let sealed = io::read_input(input)?;
            if sealed.len() < kem.enc_len() {
                return Err(CliError::new(format!(
                    "hpke: input shorter than the {}-byte encapsulated key",
                    kem.enc_len()
                )));
            }
            let (enc, ct) = sealed.split_at(kem.enc_len());
            let suite = suite(kem, args);
            let mut ctx = match &psk {
                None => suite.setup_receiver(enc, &sk, &args.info),
                Some(p) => suite.setup_receiver_psk(enc, &sk, &args.info, p),
            }
            .map_err(hpke_error)?;
            match ctx.open(&args.aad, ct) {
                Ok(pt) => {
                    io::write_outputs(&[(out, &pt)])?;
                    Ok(0)
                }
                Err(hpke::Error::OpenError) => {
                    eprintln!("hpke: the ciphertext does not authenticate");
                    Ok(1)
                }
                Err(e) => Err(hpke_error(e)),
            }
        }
    }
}
