//! ML-KEM-512/768/1024 through pqkit-ml-kem.

use std::marker::PhantomData;

use pkcs8::DecodePrivateKey;
use pqkit_ml_kem::{
    DecapsulationKey, EncapsulationKey, ExpandedDecapsulationKey, Generate, MlKem512, MlKem768,
    MlKem1024, ParameterSetOid,
};
use spki::{DecodePublicKey, EncodePublicKey};
use zeroize::Zeroizing;

use super::{KemScheme, Scheme};
use crate::args::KeyFormat;
use crate::demo::os_rng;
use crate::io::{KeyFile, KeyKind};
use crate::{CliError, Result};

/// One ML-KEM parameter set.
pub struct MlKem<P>(&'static str, PhantomData<P>);

/// ML-KEM-512.
pub static ML_KEM_512: MlKem<MlKem512> = MlKem("ml-kem-512", PhantomData);
/// ML-KEM-768.
pub static ML_KEM_768: MlKem<MlKem768> = MlKem("ml-kem-768", PhantomData);
/// ML-KEM-1024.
pub static ML_KEM_1024: MlKem<MlKem1024> = MlKem("ml-kem-1024", PhantomData);

impl<P: ParameterSetOid> MlKem<P> {
    /// The private key in any of the three RFC 9935 forms.
    fn decapsulation_key(&self, key: &KeyFile) -> Result<ExpandedDecapsulationKey<P>> {
        super::require_private(key, "this operation")?;
        ExpandedDecapsulationKey::<P>::from_pkcs8_der(&key.der)
            .map_err(|e| CliError::new(format!("{}: bad private key: {e}", self.0)))
    }

    fn encapsulation_key(&self, key: &KeyFile) -> Result<EncapsulationKey<P>> {
        match key.kind {
            KeyKind::Public => EncapsulationKey::<P>::from_public_key_der(&key.der)
                .map_err(|e| CliError::new(format!("{}: bad public key: {e}", self.0))),
            KeyKind::Private => Ok(self.decapsulation_key(key)?.encapsulation_key().clone()),
        }
    }
}

impl<P: ParameterSetOid> Scheme for MlKem<P> {
    fn name(&self) -> &'static str {
        self.0
    }

    fn oid(&self) -> der::asn1::ObjectIdentifier {
        P::OID
    }

    fn keygen(&self, seed: Option<&[u8]>, format: KeyFormat) -> Result<Zeroizing<Vec<u8>>> {
        let dk = match seed {
            Some(s) => DecapsulationKey::<P>::from_seed_slice(s).map_err(|_| {
                CliError::new(format!(
                    "{}: --seed must be 64 bytes (d || z), not {}",
                    self.0,
                    s.len()
                ))
            })?,
            None => DecapsulationKey::<P>::try_generate()
                .map_err(|e| CliError::new(format!("{}: OS randomness: {e}", self.0)))?,
        };
        Ok(Zeroizing::new(
            dk.to_pkcs8_der_with(format)?.as_bytes().to_vec(),
        ))
    }

    fn public_key_der(&self, key: &KeyFile) -> Result<Vec<u8>> {
        Ok(self.encapsulation_key(key)?.to_public_key_der()?.into_vec())
    }

    fn hpke_kem(&self) -> Option<pqkit_hybrid::hpke::Kem> {
        use pqkit_hybrid::hpke::Kem;
        match self.0 {
            "ml-kem-512" => Some(Kem::MlKem512),
            "ml-kem-768" => Some(Kem::MlKem768),
            "ml-kem-1024" => Some(Kem::MlKem1024),
            _ => None,
        }
    }

    fn hpke_private(&self, key: &KeyFile) -> Result<Zeroizing<Vec<u8>>> {
        super::require_private(key, "hpke open")?;
        let dk = DecapsulationKey::<P>::from_pkcs8_der(&key.der).map_err(|_| {
            CliError::new(format!(
                "{}: HPKE keys are the 64-byte seed: this key has no seed (convert a seeded key with `pkey`)",
                self.0
            ))
        })?;
        Ok(Zeroizing::new(dk.as_seed().to_vec()))
    }

    fn convert(&self, key: &KeyFile, format: KeyFormat) -> Result<Zeroizing<Vec<u8>>> {
        use pkcs8::{DecodePrivateKey, EncodePrivateKey};
        super::require_private(key, "pkey")?;
        let bad = |e: pkcs8::Error| CliError::new(format!("{}: bad private key: {e}", self.0));
        let doc = match DecapsulationKey::<P>::from_pkcs8_der(&key.der) {
            Ok(dk) => dk.to_pkcs8_der_with(format)?,
            Err(_) => {
                let expanded =
                    ExpandedDecapsulationKey::<P>::from_pkcs8_der(&key.der).map_err(bad)?;
                if format != KeyFormat::Expanded {
                    return Err(super::no_seed(self.0));
                }
                expanded.to_pkcs8_der()?
            }
        };
        Ok(Zeroizing::new(doc.as_bytes().to_vec()))
    }

    fn as_kem(&self) -> Option<&dyn KemScheme> {
        Some(self)
    }
}

impl<P: ParameterSetOid> KemScheme for MlKem<P> {
    fn encap(&self, key: &KeyFile, seed: Option<&[u8]>) -> Result<(Vec<u8>, Zeroizing<Vec<u8>>)> {
        let ek = self.encapsulation_key(key)?;
        let (ct, ss) = match seed {
            Some(m) => {
                pqkit_ml_kem::hazmat::encaps_internal(&ek, super::seed_array(self.0, " (m)", m)?)
            }
            None => ek
                .try_encapsulate_with_rng(&mut os_rng())
                .map_err(|e| CliError::new(e.to_string()))?,
        };
        Ok((ct.to_vec(), Zeroizing::new(ss.to_vec())))
    }

    fn decap(&self, key: &KeyFile, ct: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
        let dk = self.decapsulation_key(key)?;
        let ss = dk.decapsulate_bytes(ct).map_err(|e| {
            CliError::new(format!("{}: ciphertext of {} bytes: {e}", self.0, ct.len()))
        })?;
        Ok(Zeroizing::new(ss.to_vec()))
    }
}
