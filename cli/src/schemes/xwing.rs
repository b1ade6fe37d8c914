//! X-Wing (ML-KEM-768 + X25519, draft-connolly-cfrg-xwing-kem) through
//! pqkit-hybrid: keys are PKCS#8 / SPKI under id-XWing, the private key
//! the 32-byte seed; `encap --seed` takes the 64 bytes of encapsulation
//! randomness (tests only).

use pkcs8::{DecodePrivateKey, EncodePrivateKey};
use pqkit_hybrid::xwing::{
    Ciphertext, DecapsulationKey, EncapsulationKey,
    kem::{Decapsulate, Decapsulator, Encapsulate, Generate},
};
use spki::{DecodePublicKey, EncodePublicKey};
use zeroize::Zeroizing;

use super::{KemScheme, Scheme};
use crate::args::KeyFormat;
use crate::demo::os_rng;
use crate::io::{KeyFile, KeyKind};
use crate::{CliError, Result};

/// X-Wing.
pub struct XWing;

/// The one instance.
pub static X_WING: XWing = XWing;

impl XWing {
    fn decapsulation_key(&self, key: &KeyFile) -> Result<DecapsulationKey> {
        super::require_private(key, "this operation")?;
        DecapsulationKey::from_pkcs8_der(&key.der)
            .map_err(|e| CliError::new(format!("x-wing: bad private key: {e}")))
    }

    fn encapsulation_key(&self, key: &KeyFile) -> Result<EncapsulationKey> {
        match key.kind {
            KeyKind::Public => EncapsulationKey::from_public_key_der(&key.der)
                .map_err(|e| CliError::new(format!("x-wing: bad public key: {e}"))),
            KeyKind::Private => Ok(self.decapsulation_key(key)?.encapsulation_key().clone()),
        }
    }
}

impl Scheme for XWing {
    fn name(&self) -> &'static str {
        "x-wing"
    }

    fn oid(&self) -> der::asn1::ObjectIdentifier {
        pqkit_hybrid::XWING_OID
    }

    fn keygen(&self, seed: Option<&[u8]>, format: KeyFormat) -> Result<Zeroizing<Vec<u8>>> {
        if format != KeyFormat::Seed {
            return Err(CliError::new(
                "x-wing: --key-format must be seed (X-Wing keys hold the 32-byte seed)",
            ));
        }
        let dk = match seed {
            Some(s) => DecapsulationKey::from_seed_slice(s).map_err(|_| {
                CliError::new(format!("x-wing: --seed must be 32 bytes, not {}", s.len()))
            })?,
            None => DecapsulationKey::try_generate()
                .map_err(|e| CliError::new(format!("x-wing: OS randomness: {e}")))?,
        };
        Ok(Zeroizing::new(dk.to_pkcs8_der()?.as_bytes().to_vec()))
    }

    fn public_key_der(&self, key: &KeyFile) -> Result<Vec<u8>> {
        Ok(self.encapsulation_key(key)?.to_public_key_der()?.into_vec())
    }

    fn hpke_kem(&self) -> Option<pqkit_hybrid::hpke::Kem> {
        Some(pqkit_hybrid::hpke::Kem::MlKem768X25519)
    }

    fn hpke_private(&self, key: &KeyFile) -> Result<Zeroizing<Vec<u8>>> {
        Ok(Zeroizing::new(
            self.decapsulation_key(key)?.as_bytes().to_vec(),
        ))
    }

    fn as_kem(&self) -> Option<&dyn KemScheme> {
        Some(self)
    }
}

impl KemScheme for XWing {
    fn encap(&self, key: &KeyFile, seed: Option<&[u8]>) -> Result<(Vec<u8>, Zeroizing<Vec<u8>>)> {
        let ek = self.encapsulation_key(key)?;
        let (ct, ss) = match seed {
            Some(r) => {
                let r: &[u8; 64] = super::seed_array("x-wing", " (encapsulation randomness)", r)?;
                ek.encapsulate_deterministic(&(*r).into())
            }
            None => ek.encapsulate_with_rng(&mut os_rng()),
        };
        Ok((ct.to_vec(), Zeroizing::new(ss.to_vec())))
    }

    fn decap(&self, key: &KeyFile, ct: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
        let dk = self.decapsulation_key(key)?;
        let ct = Ciphertext::try_from(ct).map_err(|_| {
            CliError::new(format!(
                "x-wing: the ciphertext must be {} bytes, not {}",
                pqkit_hybrid::xwing::CIPHERTEXT_SIZE,
                ct.len()
            ))
        })?;
        Ok(Zeroizing::new(dk.decapsulate(&ct).to_vec()))
    }
}
