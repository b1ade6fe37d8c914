//! X25519 (RFC 7748) key files through pqkit-x25519: `keygen`, `pubkey`,
//! `show` and `pkey`. It is a key agreement, neither a signature scheme
//! nor a KEM, so `sign`/`encap` and the like refuse its keys.

use pkcs8::{DecodePrivateKey, EncodePrivateKey};
use pqkit_x25519::{ALGORITHM_OID, Generate, PublicKey, StaticSecret};
use spki::{DecodePublicKey, EncodePublicKey};
use zeroize::Zeroizing;

use super::Scheme;
use crate::args::KeyFormat;
use crate::io::{KeyFile, KeyKind};
use crate::{CliError, Result};

/// X25519.
pub struct X25519;

/// The one instance.
pub static X25519_SCHEME: X25519 = X25519;

impl Scheme for X25519 {
    fn name(&self) -> &'static str {
        "x25519"
    }

    fn oid(&self) -> der::asn1::ObjectIdentifier {
        ALGORITHM_OID
    }

    fn keygen(&self, seed: Option<&[u8]>, format: KeyFormat) -> Result<Zeroizing<Vec<u8>>> {
        if format != KeyFormat::Seed {
            return Err(CliError::new(
                "x25519: --key-format must be seed (RFC 8410 keys hold the 32-byte secret)",
            ));
        }
        let sk = match seed {
            Some(s) => StaticSecret::from_slice(s).map_err(|_| {
                CliError::new(format!("x25519: --seed must be 32 bytes, not {}", s.len()))
            })?,
            None => StaticSecret::try_generate()
                .map_err(|e| CliError::new(format!("x25519: OS randomness: {e}")))?,
        };
        // PKCS#8 v1, as OpenSSL writes X25519 keys.
        Ok(Zeroizing::new(sk.to_pkcs8_der()?.as_bytes().to_vec()))
    }

    fn public_key_der(&self, key: &KeyFile) -> Result<Vec<u8>> {
        let pk = match key.kind {
            KeyKind::Public => PublicKey::from_public_key_der(&key.der)
                .map_err(|e| CliError::new(format!("x25519: bad public key: {e}")))?,
            KeyKind::Private => PublicKey::from(
                &StaticSecret::from_pkcs8_der(&key.der)
                    .map_err(|e| CliError::new(format!("x25519: bad private key: {e}")))?,
            ),
        };
        Ok(pk.to_public_key_der()?.into_vec())
    }

    fn hpke_kem(&self) -> Option<pqkit_hybrid::hpke::Kem> {
        Some(pqkit_hybrid::hpke::Kem::DhKemX25519)
    }

    fn hpke_private(&self, key: &KeyFile) -> Result<Zeroizing<Vec<u8>>> {
        super::require_private(key, "hpke open")?;
        let sk = StaticSecret::from_pkcs8_der(&key.der)
            .map_err(|e| CliError::new(format!("x25519: bad private key: {e}")))?;
        Ok(Zeroizing::new(sk.to_bytes().to_vec()))
    }
}
