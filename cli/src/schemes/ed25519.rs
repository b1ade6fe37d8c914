//! Ed25519 / Ed25519ctx (`--context`) / Ed25519ph (`--prehash sha2-512`)
//! through pqkit-ed25519; `--strict` selects `verify_strict`.

use pkcs8::DecodePrivateKey;
use pqkit_ed25519::{ALGORITHM_OID, Error, Signature, SigningKey, VerifyingKey};
use spki::{DecodePublicKey, EncodePublicKey};
use zeroize::Zeroizing;

use super::{FlagGroup, Scheme, SchemeFlags, SignatureScheme};
use crate::args::{KeyFormat, Prehash, SignOptions, VerifyOptions};
use crate::io::{KeyFile, KeyKind, Message};
use crate::{CliError, Result};

/// Ed25519.
pub struct Ed25519;

/// The one instance.
pub static ED25519: Ed25519 = Ed25519;

/// Ed25519's own flags of `verify`.
#[derive(clap::Args, Clone, Debug, Default)]
#[group(id = "ed25519")]
#[command(next_help_heading = "Ed25519 options")]
pub struct VerifyFlags {
    /// Strict verification (ed25519-dalek `verify_strict` rules: no small-order key or R)
    #[arg(long, overrides_with = "strict")]
    pub strict: bool,
}

impl SchemeFlags for VerifyFlags {
    const GROUP: FlagGroup = FlagGroup::Ed25519;

    fn given(&self) -> Vec<&'static str> {
        if self.strict {
            vec!["--strict"]
        } else {
            vec![]
        }
    }
}

/// How a message is signed or verified.
enum Variant<'a> {
    Plain,
    Ctx(&'a [u8]),
    Ph(&'a [u8]),
}

fn variant(context: Option<&[u8]>, prehash: Option<Prehash>) -> Result<Variant<'_>> {
    match (prehash, context.filter(|c| !c.is_empty())) {
        (None, None) => Ok(Variant::Plain),
        (None, Some(c)) => Ok(Variant::Ctx(c)),
        (Some(p), c) if p == pqkit_ed25519::PREHASH => Ok(Variant::Ph(c.unwrap_or_default())),
        (Some(_), _) => Err(CliError::new(
            "ed25519: --prehash must be sha2-512 (Ed25519ph)",
        )),
    }
}

/// SHA-512 of the streamed message (Ed25519ph's pre-hash).
fn sha512_of(msg: &Message<'_>) -> Result<sha2::Sha512> {
    use sha2::Digest;
    let mut h = sha2::Sha512::new();
    msg.stream(&mut |chunk| h.update(chunk))?;
    Ok(h)
}

fn err(e: Error) -> CliError {
    CliError::new(e.to_string())
}

impl Ed25519 {
    fn signing_key(&self, key: &KeyFile) -> Result<SigningKey> {
        super::require_private(key, "this operation")?;
        SigningKey::from_pkcs8_der(&key.der)
            .map_err(|e| CliError::new(format!("ed25519: bad private key: {e}")))
    }

    fn verifying_key(&self, key: &KeyFile) -> Result<VerifyingKey> {
        match key.kind {
            KeyKind::Public => VerifyingKey::from_public_key_der(&key.der)
                .map_err(|e| CliError::new(format!("ed25519: bad public key: {e}"))),
            KeyKind::Private => Ok(self.signing_key(key)?.verifying_key()),
        }
    }
}

impl Scheme for Ed25519 {
    fn name(&self) -> &'static str {
        "ed25519"
    }

    fn oid(&self) -> der::asn1::ObjectIdentifier {
        ALGORITHM_OID
    }

    fn keygen(&self, seed: Option<&[u8]>, format: KeyFormat) -> Result<Zeroizing<Vec<u8>>> {
        if format != KeyFormat::Seed {
            return Err(CliError::new(
                "ed25519: --key-format must be seed (RFC 8410 keys hold the 32-byte secret)",
            ));
        }
        let sk = match seed {
            Some(s) => SigningKey::from_slice(s).map_err(|_| {
                CliError::new(format!("ed25519: --seed must be 32 bytes, not {}", s.len()))
            })?,
            None => <SigningKey as pqkit_ed25519::Generate>::try_generate()
                .map_err(|e| CliError::new(format!("ed25519: OS randomness: {e}")))?,
        };
        // Key files are PKCS#8 v1: pyca/cryptography (OpenSSL 4.0) and Go
        // reject the v2 `[1] publicKey` field, and v1 is what they write.
        // (The library's `EncodePrivateKey` writes v2, like ed25519-dalek;
        // both versions are read.)
        Ok(Zeroizing::new(sk.to_pkcs8_der_v1()?.as_bytes().to_vec()))
    }

    fn public_key_der(&self, key: &KeyFile) -> Result<Vec<u8>> {
        Ok(self.verifying_key(key)?.to_public_key_der()?.into_vec())
    }

    fn as_signature(&self) -> Option<&dyn SignatureScheme> {
        Some(self)
    }
}

impl SignatureScheme for Ed25519 {
    fn flag_groups(&self) -> &'static [FlagGroup] {
        &[FlagGroup::Ed25519]
    }

    /// Ed25519ph streams the message into SHA-512; pure Ed25519 and
    /// Ed25519ctx hash the message twice and need it whole.
    fn sign(&self, key: &KeyFile, msg: &Message<'_>, opts: &SignOptions) -> Result<Vec<u8>> {
        // Ed25519 is deterministic by construction; --deterministic is accepted.
        let sk = self.signing_key(key)?;
        let sig = match variant(opts.context.as_deref(), opts.prehash)? {
            Variant::Plain => signature::Signer::sign(&sk, &msg.whole("pure Ed25519")?),
            Variant::Ctx(c) => sk
                .sign_with_context(&msg.whole("Ed25519ctx")?, c)
                .map_err(err)?,
            Variant::Ph(c) => sk
                .sign_prehashed(sha512_of(msg)?, Some(c))
                .map_err(|e| CliError::new(e.to_string()))?,
        };
        Ok(sig.to_bytes().to_vec())
    }

    fn verify(
        &self,
        key: &KeyFile,
        msg: &Message<'_>,
        sig: &[u8],
        opts: &VerifyOptions,
    ) -> Result<bool> {
        let vk = self.verifying_key(key)?;
        let v = variant(opts.context.as_deref(), opts.prehash)?;
        if let Variant::Ctx(c) | Variant::Ph(c) = v
            && c.len() > 255
        {
            return Err(err(Error::ContextTooLong));
        }
        let Ok(sig) = <[u8; 64]>::try_from(sig) else {
            return Ok(false);
        };
        let sig = Signature::from_bytes(&sig);
        let strict = opts.scheme.ed25519.strict;
        Ok(match v {
            Variant::Plain => {
                let m = msg.whole("pure Ed25519")?;
                if strict {
                    vk.verify_strict(&m, &sig).is_ok()
                } else {
                    vk.verify_bytes(&m, &sig).is_ok()
                }
            }
            Variant::Ctx(c) => {
                let m = msg.whole("Ed25519ctx")?;
                if strict {
                    vk.verify_with_context_strict(&m, c, &sig).is_ok()
                } else {
                    vk.verify_with_context(&m, c, &sig).is_ok()
                }
            }
            Variant::Ph(c) => {
                let d = sha512_of(msg)?;
                if strict {
                    vk.verify_prehashed_strict(d, Some(c), &sig).is_ok()
                } else {
                    vk.verify_prehashed(d, Some(c), &sig).is_ok()
                }
            }
        })
    }
}
