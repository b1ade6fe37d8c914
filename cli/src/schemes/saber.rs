//! LightSaber, Saber and FireSaber through pqkit-saber (provisional OIDs,
//! see the crate docs).

use std::marker::PhantomData;

use pkcs8::{DecodePrivateKey, EncodePrivateKey};
use pqkit_saber::{
    DecapsulationKey, EncapsulationKey, FireSaber, Generate, LightSaber, ParameterSetOid, Saber,
};
use spki::{DecodePublicKey, EncodePublicKey};
use zeroize::Zeroizing;

use super::{KemScheme, Scheme};
use crate::args::KeyFormat;
use crate::demo::os_rng;
use crate::io::{KeyFile, KeyKind};
use crate::{CliError, Result};

/// One Saber parameter set.
pub struct SaberKem<P>(&'static str, PhantomData<P>);

/// LightSaber.
pub static LIGHTSABER: SaberKem<LightSaber> = SaberKem("lightsaber", PhantomData);
/// Saber.
pub static SABER: SaberKem<Saber> = SaberKem("saber", PhantomData);
/// FireSaber.
pub static FIRESABER: SaberKem<FireSaber> = SaberKem("firesaber", PhantomData);

impl<P: ParameterSetOid> SaberKem<P> {
    fn decapsulation_key(&self, key: &KeyFile) -> Result<DecapsulationKey<P>> {
        super::require_private(key, "this operation")?;
        DecapsulationKey::<P>::from_pkcs8_der(&key.der)
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

impl<P: ParameterSetOid> Scheme for SaberKem<P> {
    fn name(&self) -> &'static str {
        self.0
    }

    fn oid(&self) -> der::asn1::ObjectIdentifier {
        P::OID
    }

    fn keygen(&self, seed: Option<&[u8]>, format: KeyFormat) -> Result<Zeroizing<Vec<u8>>> {
        if format == KeyFormat::Both {
            return Err(CliError::new(format!(
                "{}: --key-format must be seed or expanded (Saber keys have one form, the reference sk encoding)",
                self.0
            )));
        }
        let dk = match seed {
            Some(s) => DecapsulationKey::<P>::from_seed(super::seed_array(
                self.0,
                " (seed_A, seed_s, z)",
                s,
            )?),
            None => DecapsulationKey::<P>::try_generate()
                .map_err(|e| CliError::new(format!("{}: OS randomness: {e}", self.0)))?,
        };
        Ok(Zeroizing::new(dk.to_pkcs8_der()?.as_bytes().to_vec()))
    }

    fn public_key_der(&self, key: &KeyFile) -> Result<Vec<u8>> {
        Ok(self.encapsulation_key(key)?.to_public_key_der()?.into_vec())
    }

    fn as_kem(&self) -> Option<&dyn KemScheme> {
        Some(self)
    }
}

impl<P: ParameterSetOid> KemScheme for SaberKem<P> {
    fn encap(&self, key: &KeyFile, seed: Option<&[u8]>) -> Result<(Vec<u8>, Zeroizing<Vec<u8>>)> {
        let ek = self.encapsulation_key(key)?;
        let (ct, ss) = match seed {
            Some(c) => ek.encapsulate_deterministic(super::seed_array(self.0, "", c)?),
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
