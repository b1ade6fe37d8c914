//! FN-DSA-512 / FN-DSA-1024 (pre-standard Falcon, the `fn-dsa` 0.3 design)
//! through pqkit-fn-dsa: raw messages with `--context`, HashFN-DSA with
//! `--prehash` (sha2-256/384/512, sha3-256/384/512), and the original
//! round-3 Falcon hashing with `--falcon-original` (no context, no
//! pre-hash); in that mode `verify` also accepts the variable-length
//! compressed round-3 signatures.
//!
//! Private keys have a single form, the encoded signing key (`f, g, F`), so
//! `--key-format` may be `seed` (the default) or `expanded`, which write
//! the same PKCS#8 key; `--seed` gives the 32-byte seed of the key
//! generator's SHAKE256 stream (as `fn-dsa` 0.3's generator draws it).
//! Signing is always randomized: `--deterministic` is refused.

use pkcs8::{DecodePrivateKey, EncodePrivateKey};
use pqkit_fn_dsa::{Error, HashAlg, Message, SigFormat};
use spki::{DecodePublicKey, EncodePublicKey};
use zeroize::Zeroizing;

use super::{FlagGroup, Scheme, SchemeFlags, SignatureScheme};
use crate::args::{KeyFormat, SignOptions, VerifyOptions};
use crate::io::{KeyFile, KeyKind, Message as Input};
use crate::{CliError, Result};

/// FN-DSA's own flags of `sign` and `verify`.
#[derive(clap::Args, Clone, Debug, Default)]
#[group(id = "fn-dsa")]
#[command(next_help_heading = "FN-DSA options")]
pub struct Flags {
    /// Original round-3 Falcon hashing (no --context or --prehash); verify then also accepts compressed round-3 signatures
    #[arg(long = "falcon-original", overrides_with = "falcon_original")]
    pub falcon_original: bool,
}

impl SchemeFlags for Flags {
    const GROUP: FlagGroup = FlagGroup::FnDsa;

    fn given(&self) -> Vec<&'static str> {
        if self.falcon_original {
            vec!["--falcon-original"]
        } else {
            vec![]
        }
    }
}

/// The pre-hash functions `pqkit sign/verify` offers for FN-DSA (the CLI
/// contract's six; the library takes any of the registry).
const PREHASHES: [HashAlg; 6] = [
    HashAlg::Sha2_256,
    HashAlg::Sha2_384,
    HashAlg::Sha2_512,
    HashAlg::Sha3_256,
    HashAlg::Sha3_384,
    HashAlg::Sha3_512,
];

fn prehash(p: HashAlg) -> Result<HashAlg> {
    if PREHASHES.contains(&p) {
        return Ok(p);
    }
    let names: Vec<&str> = PREHASHES.iter().map(|h| h.name()).collect();
    Err(CliError::new(format!(
        "fn-dsa: --prehash must be one of {}",
        names.join(" ")
    )))
}

/// The digest (if pre-hashed) and the pieces of a [`Message`].
struct Prepared {
    ctx: Vec<u8>,
    hash: Option<(HashAlg, Vec<u8>)>,
    original: bool,
    /// The message itself, for the raw and original modes (they need it
    /// whole); empty when pre-hashed (streamed into the hash).
    whole: Vec<u8>,
}

impl Prepared {
    fn new(
        msg: &Input<'_>,
        context: Option<&[u8]>,
        ph: Option<HashAlg>,
        original: bool,
    ) -> Result<Self> {
        let ctx = context.unwrap_or_default().to_vec();
        if original && (!ctx.is_empty() || ph.is_some()) {
            return Err(CliError::new(
                "fn-dsa: --falcon-original takes neither --context nor --prehash",
            ));
        }
        if ctx.len() > 255 {
            return Err(err(Error::ContextTooLong));
        }
        let (hash, whole) = match ph {
            Some(p) => {
                let h = prehash(p)?;
                (Some((h, msg.prehash(h)?.as_ref().to_vec())), Vec::new())
            }
            None => {
                let mode = if original {
                    "--falcon-original"
                } else {
                    "FN-DSA without --prehash"
                };
                (None, msg.whole(mode)?.into_owned())
            }
        };
        Ok(Prepared {
            ctx,
            hash,
            original,
            whole,
        })
    }

    fn message(&self) -> Message<'_> {
        let msg = &self.whole[..];
        match (&self.hash, self.original) {
            (_, true) => Message::OriginalFalcon { msg },
            (Some((hash, digest)), false) => Message::PreHashed {
                ctx: &self.ctx,
                hash: *hash,
                digest,
            },
            (None, false) => Message::Raw {
                ctx: &self.ctx,
                msg,
            },
        }
    }
}

fn err(e: Error) -> CliError {
    CliError::new(format!("fn-dsa: {e}"))
}

macro_rules! fn_dsa_scheme {
    ($ty:ident, $inst:ident, $module:ident, $name:literal) => {
        #[doc = concat!("`", $name, "`.")]
        pub struct $ty;

        #[doc = concat!("The `", $name, "` instance.")]
        pub static $inst: $ty = $ty;

        impl $ty {
            fn signing_key(&self, key: &KeyFile) -> Result<pqkit_fn_dsa::$module::SigningKey> {
                super::require_private(key, "this operation")?;
                pqkit_fn_dsa::$module::SigningKey::from_pkcs8_der(&key.der).map_err(|e| {
                    CliError::new(format!(concat!($name, ": bad private key: {}"), e))
                })
            }

            fn verifying_key(&self, key: &KeyFile) -> Result<pqkit_fn_dsa::$module::VerifyingKey> {
                match key.kind {
                    KeyKind::Public => {
                        pqkit_fn_dsa::$module::VerifyingKey::from_public_key_der(&key.der).map_err(
                            |e| CliError::new(format!(concat!($name, ": bad public key: {}"), e)),
                        )
                    }
                    KeyKind::Private => Ok(self.signing_key(key)?.verifying_key()),
                }
            }
        }

        impl Scheme for $ty {
            fn name(&self) -> &'static str {
                $name
            }

            fn oid(&self) -> der::asn1::ObjectIdentifier {
                pqkit_fn_dsa::$module::OID
            }

            fn keygen(&self, seed: Option<&[u8]>, format: KeyFormat) -> Result<Zeroizing<Vec<u8>>> {
                if format == KeyFormat::Both {
                    return Err(CliError::new(concat!(
                        $name,
                        ": --key-format must be seed or expanded (FN-DSA keys have one form, the encoded signing key)"
                    )));
                }
                let sk = match seed {
                    Some(s) => pqkit_fn_dsa::$module::SigningKey::from_seed(
                        super::seed_array($name, "", s)?,
                    ),
                    None => <pqkit_fn_dsa::$module::SigningKey as pqkit_fn_dsa::Generate>::try_generate()
                        .map_err(|e| CliError::new(format!(concat!($name, ": OS randomness: {}"), e)))?,
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

        impl SignatureScheme for $ty {
            fn flag_groups(&self) -> &'static [FlagGroup] {
                &[FlagGroup::FnDsa]
            }

            fn sign(&self, key: &KeyFile, msg: &Input<'_>, opts: &SignOptions) -> Result<Vec<u8>> {
                if opts.deterministic {
                    return Err(CliError::new(concat!(
                        $name,
                        ": signing is always randomized; --deterministic is not available"
                    )));
                }
                let p = Prepared::new(
                    msg,
                    opts.context.as_deref(),
                    opts.prehash,
                    opts.scheme.fn_dsa.falcon_original,
                )?;
                let sk = self.signing_key(key)?;
                let sig = sk.sign_message_hedged(&p.message()).map_err(err)?;
                Ok(sig.as_bytes().to_vec())
            }

            fn verify(
                &self,
                key: &KeyFile,
                msg: &Input<'_>,
                sig: &[u8],
                opts: &VerifyOptions,
            ) -> Result<bool> {
                let p = Prepared::new(
                    msg,
                    opts.context.as_deref(),
                    opts.prehash,
                    opts.scheme.fn_dsa.falcon_original,
                )?;
                let vk = self.verifying_key(key)?;
                let format = if opts.scheme.fn_dsa.falcon_original {
                    SigFormat::Round3
                } else {
                    SigFormat::Padded
                };
                // Every failure past this point concerns the signature
                // (malformed or wrong): "invalid".
                Ok(vk.verify_bytes(&p.message(), sig, format).is_ok())
            }
        }
    };
}

fn_dsa_scheme!(FnDsa512, FN_DSA_512, fn_dsa_512, "fn-dsa-512");
fn_dsa_scheme!(FnDsa1024, FN_DSA_1024, fn_dsa_1024, "fn-dsa-1024");
