//! ML-DSA-44/65/87 (pure, HashML-DSA, external mu) through pqkit-ml-dsa.

use std::marker::PhantomData;

use pkcs8::DecodePrivateKey;
use pqkit_ml_dsa::{
    Error, ExpandedSigningKey, Generate, MlDsa44, MlDsa65, MlDsa87, MuBuilder, ParameterSetOid,
    SigningKey, VerifyingKey,
};
use spki::{DecodePublicKey, EncodePublicKey};
use zeroize::Zeroizing;

use super::{FlagGroup, Scheme, SchemeFlags, SignatureScheme};
use crate::args::{KeyFormat, Prehash, SignOptions, VerifyOptions};
use crate::demo::os_rng;
use crate::io::{KeyFile, KeyKind, Message};
use crate::{CliError, Result};

/// One ML-DSA parameter set.
pub struct MlDsa<P>(&'static str, PhantomData<P>);

/// ML-DSA-44.
pub static ML_DSA_44: MlDsa<MlDsa44> = MlDsa("ml-dsa-44", PhantomData);
/// ML-DSA-65.
pub static ML_DSA_65: MlDsa<MlDsa65> = MlDsa("ml-dsa-65", PhantomData);
/// ML-DSA-87.
pub static ML_DSA_87: MlDsa<MlDsa87> = MlDsa("ml-dsa-87", PhantomData);

/// ML-DSA's own flags of `sign` and `verify`.
#[derive(clap::Args, Clone, Debug, Default)]
#[group(id = "ml-dsa")]
#[command(next_help_heading = "ML-DSA options")]
pub struct Flags {
    /// The input is the 64-byte external mu, not the message (excludes --context and --prehash)
    #[arg(long, overrides_with = "mu")]
    pub mu: bool,
}

impl SchemeFlags for Flags {
    const GROUP: FlagGroup = FlagGroup::MlDsa;

    fn given(&self) -> Vec<&'static str> {
        if self.mu { vec!["--mu"] } else { vec![] }
    }
}

fn err(e: Error) -> CliError {
    CliError::new(e.to_string())
}

fn mu_of(msg: &[u8], prehash: Option<Prehash>, context: Option<&Vec<u8>>) -> Result<[u8; 64]> {
    if prehash.is_some() || context.is_some() {
        return Err(CliError::new(
            "--mu takes the 64-byte mu as the message; it excludes --prehash and --context",
        ));
    }
    <[u8; 64]>::try_from(msg).map_err(|_| {
        CliError::new(format!(
            "--mu: the input must be 64 bytes, not {}",
            msg.len()
        ))
    })
}

/// mu of pure ML-DSA, the message streamed into it.
fn pure_mu<P: ParameterSetOid>(
    vk: &VerifyingKey<P>,
    ctx: &[u8],
    msg: &Message<'_>,
) -> Result<[u8; 64]> {
    let mut b = MuBuilder::from_verifying_key(vk, ctx).map_err(err)?;
    msg.stream(&mut |chunk| {
        b.update(chunk);
    })?;
    Ok(b.finalize())
}

impl<P: ParameterSetOid + Sync> MlDsa<P> {
    /// The private key in any of the three RFC 9881 forms.
    fn signing_key(&self, key: &KeyFile) -> Result<ExpandedSigningKey<P>> {
        super::require_private(key, "this operation")?;
        ExpandedSigningKey::<P>::from_pkcs8_der(&key.der)
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

impl<P: ParameterSetOid + Sync> Scheme for MlDsa<P> {
    fn name(&self) -> &'static str {
        self.0
    }

    fn oid(&self) -> der::asn1::ObjectIdentifier {
        P::OID
    }

    fn keygen(&self, seed: Option<&[u8]>, format: KeyFormat) -> Result<Zeroizing<Vec<u8>>> {
        let sk = match seed {
            Some(s) => SigningKey::<P>::from_seed_slice(s).map_err(|_| {
                CliError::new(format!(
                    "{}: --seed must be 32 bytes (xi), not {}",
                    self.0,
                    s.len()
                ))
            })?,
            None => SigningKey::<P>::try_generate()
                .map_err(|e| CliError::new(format!("{}: OS randomness: {e}", self.0)))?,
        };
        let doc = sk.to_pkcs8_der_with(format)?;
        Ok(Zeroizing::new(doc.as_bytes().to_vec()))
    }

    fn public_key_der(&self, key: &KeyFile) -> Result<Vec<u8>> {
        Ok(self.verifying_key(key)?.to_public_key_der()?.into_vec())
    }

    fn convert(&self, key: &KeyFile, format: KeyFormat) -> Result<Zeroizing<Vec<u8>>> {
        use pkcs8::EncodePrivateKey;
        super::require_private(key, "pkey")?;
        let doc = match SigningKey::<P>::from_pkcs8_der(&key.der) {
            Ok(sk) => sk.to_pkcs8_der_with(format)?,
            Err(_) if format == KeyFormat::Expanded => self.signing_key(key)?.to_pkcs8_der()?,
            Err(_) => {
                // An expanded-only key (or a bad key: say which).
                self.signing_key(key)?;
                return Err(super::no_seed(self.0));
            }
        };
        Ok(Zeroizing::new(doc.as_bytes().to_vec()))
    }

    fn as_signature(&self) -> Option<&dyn SignatureScheme> {
        Some(self)
    }
}

impl<P: ParameterSetOid + Sync> SignatureScheme for MlDsa<P> {
    /// ML-DSA's own flags, and ed25519's `--strict`, which changes nothing
    /// here: ML-DSA has a single acceptance rule (FIPS 204 verification is
    /// already strict).
    fn flag_groups(&self) -> &'static [FlagGroup] {
        &[FlagGroup::MlDsa, FlagGroup::Ed25519]
    }

    /// Pure ML-DSA and HashML-DSA stream the message (into mu, or into the
    /// pre-hash); `--mu` reads its 64 bytes.
    fn sign(&self, key: &KeyFile, msg: &Message<'_>, opts: &SignOptions) -> Result<Vec<u8>> {
        let sk = self.signing_key(key)?;
        let ctx = opts.context.as_deref().unwrap_or_default();
        let mut rng = os_rng();
        let sig = if opts.scheme.ml_dsa.mu {
            let mu = mu_of(&msg.whole("--mu")?, opts.prehash, opts.context.as_ref())?;
            if opts.deterministic {
                sk.sign_mu_deterministic(&mu)
            } else {
                sk.sign_mu_randomized(&mu, &mut rng)
            }
        } else if let Some(p) = opts.prehash {
            let ph = msg.prehash(p)?;
            if opts.deterministic {
                sk.sign_prehashed_with_rnd(&ph, ctx, &[0u8; 32])
            } else {
                let mut rnd = Zeroizing::new([0u8; 32]);
                rand_core::Rng::fill_bytes(&mut rng, &mut rnd[..]);
                sk.sign_prehashed_with_rnd(&ph, ctx, &rnd)
            }
        } else {
            let mu = pure_mu(&sk.verifying_key(), ctx, msg)?;
            if opts.deterministic {
                sk.sign_mu_deterministic(&mu)
            } else {
                sk.sign_mu_randomized(&mu, &mut rng)
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
        let mu = if opts.scheme.ml_dsa.mu {
            mu_of(&msg.whole("--mu")?, opts.prehash, opts.context.as_ref())?
        } else if let Some(p) = opts.prehash {
            MuBuilder::prehashed(&vk.tr(), ctx, &msg.prehash(p)?).map_err(err)?
        } else {
            pure_mu(&vk, ctx, msg)?
        };
        // Every failure from here on is a property of the signature.
        Ok(vk.verify_mu_bytes(&mu, sig).is_ok())
    }
}
