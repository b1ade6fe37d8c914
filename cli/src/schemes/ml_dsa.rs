//! ML-DSA-44/65/87 (pure, HashML-DSA, external mu) through pqkit-ml-dsa.

use std::marker::PhantomData;

use pkcs8::DecodePrivateKey;
use pqkit_ml_dsa::{
    Error, ExpandedSigningKey, Generate, MlDsa44, MlDsa65, MlDsa87, ParameterSetOid, Signature,
    SigningKey, VerifyingKey,
};
use spki::{DecodePublicKey, EncodePublicKey};
use zeroize::Zeroizing;

use super::{FlagGroup, Scheme, SchemeFlags, SignatureScheme};
use crate::args::{KeyFormat, Prehash, SignOptions, VerifyOptions};
use crate::demo::os_rng;
use crate::io::{KeyFile, KeyKind};
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

    fn sign(&self, key: &KeyFile, msg: &[u8], opts: &SignOptions) -> Result<Vec<u8>> {
        let sk = self.signing_key(key)?;
        let ctx = opts.context.as_deref().unwrap_or_default();
        let mut rng = os_rng();
        let sig = if opts.scheme.ml_dsa.mu {
            let mu = mu_of(msg, opts.prehash, opts.context.as_ref())?;
            if opts.deterministic {
                sk.sign_mu_deterministic(&mu)
            } else {
                sk.sign_mu_randomized(&mu, &mut rng)
            }
        } else if let Some(p) = opts.prehash {
            if opts.deterministic {
                sk.sign_prehash_deterministic(p, msg, ctx)
            } else {
                sk.sign_prehash_randomized(p, msg, ctx, &mut rng)
            }
        } else if opts.deterministic {
            sk.sign_deterministic(msg, ctx)
        } else {
            sk.sign_randomized(msg, ctx, &mut rng)
        };
        Ok(sig.map_err(err)?.as_bytes().to_vec())
    }

    fn verify(&self, key: &KeyFile, msg: &[u8], sig: &[u8], opts: &VerifyOptions) -> Result<bool> {
        let vk = self.verifying_key(key)?;
        let ctx = opts.context.as_deref().unwrap_or_default();
        if ctx.len() > 255 {
            return Err(err(Error::ContextTooLong));
        }
        let mu = if opts.scheme.ml_dsa.mu {
            Some(mu_of(msg, opts.prehash, opts.context.as_ref())?)
        } else {
            None
        };
        // Every failure from here on is a property of the signature.
        let Ok(sig) = Signature::<P>::from_bytes(sig) else {
            return Ok(false);
        };
        let res = match (mu, opts.prehash) {
            (Some(mu), _) => vk.verify_mu_bytes(&mu, sig.as_bytes()),
            (None, Some(p)) => vk.verify_prehash(p, msg, ctx, &sig),
            (None, None) => vk.verify_multipart_with_context(&[msg], ctx, sig.as_bytes()),
        };
        Ok(res.is_ok())
    }
}
