//! SLH-DSA (FIPS 205), all twelve parameter sets, through pqkit-slh-dsa:
//! pure SLH-DSA with `--context`, HashSLH-DSA with `--prehash`,
//! deterministic (`--deterministic`: `opt_rand = PK.seed`) or hedged.

use std::marker::PhantomData;

use pkcs8::{DecodePrivateKey, EncodePrivateKey};
use pqkit_slh_dsa::{
    Error, Generate, ParameterSetOid, Sha2_128f, Sha2_128s, Sha2_192f, Sha2_192s, Sha2_256f,
    Sha2_256s, Shake128f, Shake128s, Shake192f, Shake192s, Shake256f, Shake256s, Signature,
    SigningKey, VerifyingKey,
};
use spki::{DecodePublicKey, EncodePublicKey};
use zeroize::Zeroizing;

use super::{Scheme, SignatureScheme};
use crate::args::{KeyFormat, SignOptions, VerifyOptions};
use crate::demo::os_rng;
use crate::io::{KeyFile, KeyKind, Message};
use crate::{CliError, Result};

/// One SLH-DSA parameter set.
pub struct SlhDsa<P>(&'static str, PhantomData<P>);

macro_rules! sets {
    ($($stat:ident = $name:literal, $set:ident;)*) => {$(
        #[doc = concat!("SLH-DSA `", $name, "`.")]
        pub static $stat: SlhDsa<$set> = SlhDsa($name, PhantomData);
    )*};
}

sets! {
    SLH_DSA_SHA2_128S = "slh-dsa-sha2-128s", Sha2_128s;
    SLH_DSA_SHA2_128F = "slh-dsa-sha2-128f", Sha2_128f;
    SLH_DSA_SHA2_192S = "slh-dsa-sha2-192s", Sha2_192s;
    SLH_DSA_SHA2_192F = "slh-dsa-sha2-192f", Sha2_192f;
    SLH_DSA_SHA2_256S = "slh-dsa-sha2-256s", Sha2_256s;
    SLH_DSA_SHA2_256F = "slh-dsa-sha2-256f", Sha2_256f;
    SLH_DSA_SHAKE_128S = "slh-dsa-shake-128s", Shake128s;
    SLH_DSA_SHAKE_128F = "slh-dsa-shake-128f", Shake128f;
    SLH_DSA_SHAKE_192S = "slh-dsa-shake-192s", Shake192s;
    SLH_DSA_SHAKE_192F = "slh-dsa-shake-192f", Shake192f;
    SLH_DSA_SHAKE_256S = "slh-dsa-shake-256s", Shake256s;
    SLH_DSA_SHAKE_256F = "slh-dsa-shake-256f", Shake256f;
}

fn err(e: Error) -> CliError {
    CliError::new(e.to_string())
}

impl<P: ParameterSetOid + Sync> SlhDsa<P> {
    fn signing_key(&self, key: &KeyFile) -> Result<SigningKey<P>> {
        super::require_private(key, "this operation")?;
        SigningKey::<P>::from_pkcs8_der(&key.der)
            .map_err(|e| CliError::new(format!("{}: bad private key: {e}", self.0)))
    }

    fn verifying_key(&self, key: &KeyFile) -> Result<VerifyingKey<P>> {
        match key.kind {
            KeyKind::Public => VerifyingKey::<P>::from_public_key_der(&key.der)
                .map_err(|e| CliError::new(format!("{}: bad public key: {e}", self.0))),
            KeyKind::Private => Ok(self.signing_key(key)?.verifying_key()),
        }
    }
}

impl<P: ParameterSetOid + Sync> Scheme for SlhDsa<P> {
    fn name(&self) -> &'static str {
        self.0
    }

    fn oid(&self) -> der::asn1::ObjectIdentifier {
        P::OID
    }

    /// `--seed` is the `3 n` bytes `SK.seed || SK.prf || PK.seed` of
    /// FIPS 205's `slh_keygen_internal`.
    fn keygen(&self, seed: Option<&[u8]>, format: KeyFormat) -> Result<Zeroizing<Vec<u8>>> {
        if format != KeyFormat::Seed {
            return Err(CliError::new(format!(
                "{}: --key-format must be seed (an SLH-DSA private key has one form, \
                 SK.seed || SK.prf || PK.seed || PK.root)",
                self.0
            )));
        }
        let n = P::N;
        let sk = match seed {
            Some(s) if s.len() == 3 * n => {
                SigningKey::<P>::from_seed(&s[..n], &s[n..2 * n], &s[2 * n..]).map_err(err)?
            }
            Some(s) => {
                return Err(CliError::new(format!(
                    "{}: --seed must be {} bytes (SK.seed || SK.prf || PK.seed), not {}",
                    self.0,
                    3 * n,
                    s.len()
                )));
            }
            None => SigningKey::<P>::try_generate()
                .map_err(|e| CliError::new(format!("{}: OS randomness: {e}", self.0)))?,
        };
        Ok(Zeroizing::new(sk.to_pkcs8_der()?.as_bytes().to_vec()))
    }

    fn public_key_der(&self, key: &KeyFile) -> Result<Vec<u8>> {
        Ok(self.verifying_key(key)?.to_public_key_der()?.into_vec())
    }

    fn as_signature(&self) -> Option<&dyn SignatureScheme> {
        Some(self)
    }
}

impl<P: ParameterSetOid + Sync> SignatureScheme for SlhDsa<P> {
    /// Pure SLH-DSA hashes the message twice (`PRF_msg`, `H_msg`), so it
    /// is read whole; `--prehash` streams it into the pre-hash.
    fn sign(&self, key: &KeyFile, msg: &Message<'_>, opts: &SignOptions) -> Result<Vec<u8>> {
        let sk = self.signing_key(key)?;
        let ctx = opts.context.as_deref().unwrap_or_default();
        let sig = if let Some(p) = opts.prehash {
            let ph = msg.prehash(p)?;
            if opts.deterministic {
                sk.sign_prehashed_deterministic(&ph, ctx)
            } else {
                let mut rnd = Zeroizing::new([0u8; 32]);
                rand_core::Rng::fill_bytes(&mut os_rng(), &mut rnd[..P::N]);
                sk.sign_prehashed_with_rnd(&ph, ctx, &rnd[..P::N])
            }
        } else {
            let m = msg.whole("pure SLH-DSA")?;
            if opts.deterministic {
                sk.sign_deterministic(&m, ctx)
            } else {
                sk.sign_randomized(&m, ctx, &mut os_rng())
            }
        };
        Ok(sig.map_err(err)?.as_bytes().to_vec())
    }

    fn verify(
        &self,
        key: &KeyFile,
        msg: &Message<'_>,
        sig: &[u8],
        opts: &VerifyOptions,
    ) -> Result<bool> {
        let vk = self.verifying_key(key)?;
        let ctx = opts.context.as_deref().unwrap_or_default();
        if ctx.len() > 255 {
            return Err(err(Error::ContextTooLong));
        }
        // Every failure from here on is a property of the signature.
        Ok(if let Some(p) = opts.prehash {
            let ph = msg.prehash(p)?;
            Signature::<P>::from_bytes(sig).is_ok_and(|s| vk.verify_prehashed(&ph, ctx, &s).is_ok())
        } else {
            vk.verify_bytes(&msg.whole("pure SLH-DSA")?, ctx, sig)
                .is_ok()
        })
    }
}
