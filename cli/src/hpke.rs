//! `pqkit hpke seal|open`: HPKE (RFC 9180, base mode) through
//! `pqkit_hybrid::hpke`, the KEM being the key's: ML-KEM-512/768/1024,
//! X-Wing (MLKEM768-X25519) or X25519 (DHKEM(X25519, HKDF-SHA256)). The
//! sealed form is `enc || ciphertext`, as Go's `crypto/hpke.Seal` writes.

use pqkit_hybrid::hpke::{self, Aead, Kdf, PrivateKey, PublicKey, Suite};
use spki::SubjectPublicKeyInfoRef;

use crate::args::{HpkeAead, HpkeKdf, HpkeOp, HpkeSuiteArgs};
use crate::{CliError, Result, io, schemes};

fn suite(kem: hpke::Kem, args: &HpkeSuiteArgs) -> Suite {
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

/// The key file's scheme and its HPKE KEM.
fn scheme_and_kem(key: &io::KeyFile) -> Result<(&'static dyn schemes::Scheme, hpke::Kem)> {
    let scheme = schemes::for_key(key)?;
    let kem = scheme
        .hpke_kem()
        .ok_or_else(|| CliError::new(format!("hpke: {} keys have no HPKE KEM", scheme.name())))?;
    Ok((scheme, kem))
}

fn hpke_error(e: hpke::Error) -> CliError {
    CliError::new(format!("hpke: {e}"))
}

/// Run `hpke seal` or `hpke open`; `open` returns 1 when the ciphertext
/// does not authenticate.
pub fn run(op: &HpkeOp) -> Result<u8> {
    match op {
        HpkeOp::Seal {
            public,
            input,
            out,
            suite: args,
            seed,
        } => {
            let key = io::read_key(public)?;
            let (scheme, kem) = scheme_and_kem(&key)?;
            let spki_der = scheme.public_key_der(&key)?;
            let spki = SubjectPublicKeyInfoRef::try_from(spki_der.as_slice())
                .map_err(|e| CliError::new(format!("hpke: public key: {e}")))?;
            let raw = spki
                .subject_public_key
                .as_bytes()
                .ok_or_else(|| CliError::new("hpke: public key: not whole bytes"))?;
            let pk = PublicKey::from_bytes(kem, raw).map_err(hpke_error)?;
            let suite = suite(kem, args);
            let (enc, mut ctx) = match seed {
                Some(r) => suite.setup_sender_derand(&pk, &args.info, r),
                None => suite.setup_sender(&pk, &args.info, &mut crate::demo::os_rng()),
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
        } => {
            let key = io::read_key(key)?;
            let (scheme, kem) = scheme_and_kem(&key)?;
            let sk =
                PrivateKey::from_bytes(kem, &scheme.hpke_private(&key)?).map_err(hpke_error)?;
            let sealed = io::read_input(input)?;
            if sealed.len() < kem.enc_len() {
                return Err(CliError::new(format!(
                    "hpke: input shorter than the {}-byte encapsulated key",
                    kem.enc_len()
                )));
            }
            let (enc, ct) = sealed.split_at(kem.enc_len());
            let mut ctx = suite(kem, args)
                .setup_receiver(enc, &sk, &args.info)
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
