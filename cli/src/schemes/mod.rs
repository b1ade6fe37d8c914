//! The algorithms the CLI drives, behind one small interface each.
//!
//! A scheme turns CLI requests into calls on a pqkit crate's public API.
//! Keys cross this boundary as DER (PKCS#8 or SPKI); the scheme is picked by
//! name (`keygen`) or by the key's AlgorithmIdentifier OID (everything else).
//!
//! Options only some schemes understand are declared by those schemes: each
//! module has a small `#[derive(clap::Args)]` struct of its flags, flattened
//! into `sign` / `verify` below ([`SignFlags`], [`VerifyFlags`]) under a help
//! heading of its own, and [`check_flags`] rejects a flag given with a key of
//! a scheme that does not take it. The options every signature scheme reads
//! (`--context`, `--prehash`, `--deterministic`) are in
//! [`crate::args::SignOptions`] / [`crate::args::VerifyOptions`].

use clap::Args;
use zeroize::Zeroizing;

pub mod composite;
pub mod ed25519;
pub mod fn_dsa;
pub mod ml_dsa;
mod ml_kem;
mod saber;
pub mod slh_dsa;
mod x25519;
mod xwing;

use crate::args::{KeyFormat, SignOptions, VerifyOptions};
use crate::io::{KeyFile, KeyKind, Message};
use crate::{CliError, Result};

/// What every algorithm offers.
pub trait Scheme: Sync {
    /// The CLI name (`ml-kem-768`, `ed25519`, ...).
    fn name(&self) -> &'static str;
    /// The OID of its keys.
    fn oid(&self) -> der::asn1::ObjectIdentifier;
    /// Generate a private key (PKCS#8 DER), from the standard's seed if given.
    fn keygen(&self, seed: Option<&[u8]>, format: KeyFormat) -> Result<Zeroizing<Vec<u8>>>;
    /// The SPKI DER of a key file's public key (a private key file gives its
    /// public key; a public key file is validated and re-encoded).
    fn public_key_der(&self, key: &KeyFile) -> Result<Vec<u8>>;
    /// The private key re-encoded in another PKCS#8 form (`pqkit pkey`).
    /// Schemes whose private keys have one form only re-encode it.
    fn convert(&self, key: &KeyFile, format: KeyFormat) -> Result<Zeroizing<Vec<u8>>> {
        if format != KeyFormat::Seed {
            return Err(CliError::new(format!(
                "{}: private keys have one form; --key-format applies to ML-KEM and ML-DSA keys",
                self.name()
            )));
        }
        Ok(Zeroizing::new(key.der.to_vec()))
    }
    /// How `show` describes the private key of a key file, when the
    /// generic description (the ML-KEM / ML-DSA seed, expanded or both
    /// CHOICE, else "single form") does not fit.
    fn private_key_form(&self, _key: &KeyFile) -> Option<String> {
        None
    }
    /// Whether the CLI loads this scheme's private keys (a verify-only
    /// scheme does not: `show` then describes the file without deriving
    /// its public key).
    fn loads_private_keys(&self) -> bool {
        true
    }
    /// The signature interface, if this is a signature scheme.
    fn as_signature(&self) -> Option<&dyn SignatureScheme> {
        None
    }
    /// The HPKE KEM this scheme's keys serve, if any.
    fn hpke_kem(&self) -> Option<pqkit_hybrid::hpke::Kem> {
        None
    }

    /// The HPKE private key (the KEM's `Nsk` bytes) of a private key file.
    fn hpke_private(&self, _key: &KeyFile) -> Result<Zeroizing<Vec<u8>>> {
        Err(CliError::new(format!("{}: no HPKE KEM", self.name())))
    }

    /// The KEM interface, if this is a KEM.
    fn as_kem(&self) -> Option<&dyn KemScheme> {
        None
    }
}

/// Signature schemes.
pub trait SignatureScheme: Scheme {
    /// The scheme-specific flag groups this scheme takes (see [`check_flags`]).
    fn flag_groups(&self) -> &'static [FlagGroup] {
        &[]
    }
    /// Sign `msg` with the private key in `key` (streamed where the mode
    /// allows: see [`Message`]).
    fn sign(&self, key: &KeyFile, msg: &Message<'_>, opts: &SignOptions) -> Result<Vec<u8>>;
    /// `Ok(true)` valid, `Ok(false)` invalid signature, `Err` for anything
    /// else (unusable key, unsupported options).
    fn verify(
        &self,
        key: &KeyFile,
        msg: &Message<'_>,
        sig: &[u8],
        opts: &VerifyOptions,
    ) -> Result<bool>;
}

/// Key-encapsulation mechanisms.
pub trait KemScheme: Scheme {
    /// Encapsulate to the key: `(ciphertext, shared secret)`, with the
    /// given encapsulation randomness (tests only) or the OS RNG.
    fn encap(&self, key: &KeyFile, seed: Option<&[u8]>) -> Result<(Vec<u8>, Zeroizing<Vec<u8>>)>;
    /// Decapsulate `ct` with the private key.
    fn decap(&self, key: &KeyFile, ct: &[u8]) -> Result<Zeroizing<Vec<u8>>>;
}

/// Every scheme in this build, in the contract's order.
/// One line of `pqkit algorithms --long`: name, kind, key OID and HPKE KEM
/// identifier, tab-separated (`-` where there is none).
pub fn describe(s: &dyn Scheme) -> String {
    let kind = match (s.as_signature(), s.as_kem()) {
        (Some(_), _) if !s.loads_private_keys() => "signature-verify-only",
        (Some(_), _) => "signature",
        (None, Some(_)) => "kem",
        (None, None) => "key-agreement",
    };
    let hpke = s
        .hpke_kem()
        .map_or_else(|| "-".to_owned(), |k| format!("{:#06x}", k.id()));
    format!("{}\t{kind}\t{}\t{hpke}", s.name(), s.oid())
}

pub fn all() -> &'static [&'static dyn Scheme] {
    static ALL: [&(dyn Scheme + 'static); 44] = [
        &ml_kem::ML_KEM_512,
        &ml_kem::ML_KEM_768,
        &ml_kem::ML_KEM_1024,
        &ml_dsa::ML_DSA_44,
        &ml_dsa::ML_DSA_65,
        &ml_dsa::ML_DSA_87,
        &slh_dsa::SLH_DSA_SHA2_128S,
        &slh_dsa::SLH_DSA_SHA2_128F,
        &slh_dsa::SLH_DSA_SHA2_192S,
        &slh_dsa::SLH_DSA_SHA2_192F,
        &slh_dsa::SLH_DSA_SHA2_256S,
        &slh_dsa::SLH_DSA_SHA2_256F,
        &slh_dsa::SLH_DSA_SHAKE_128S,
        &slh_dsa::SLH_DSA_SHAKE_128F,
        &slh_dsa::SLH_DSA_SHAKE_192S,
        &slh_dsa::SLH_DSA_SHAKE_192F,
        &slh_dsa::SLH_DSA_SHAKE_256S,
        &slh_dsa::SLH_DSA_SHAKE_256F,
        &fn_dsa::FN_DSA_512,
        &fn_dsa::FN_DSA_1024,
        &saber::LIGHTSABER,
        &saber::SABER,
        &saber::FIRESABER,
        &ed25519::ED25519,
        &x25519::X25519_SCHEME,
        &xwing::X_WING,
        &composite::MLDSA44_ED25519,
        &composite::MLDSA65_ED25519,
        &composite::MLDSA44_ECDSA_P256,
        &composite::MLDSA65_ECDSA_P256,
        &composite::MLDSA65_ECDSA_P384,
        &composite::MLDSA87_ECDSA_P384,
        &composite::MLDSA87_ECDSA_P521,
        &composite::MLDSA65_ECDSA_BP256,
        &composite::MLDSA87_ECDSA_BP384,
        &composite::MLDSA44_RSA2048_PSS,
        &composite::MLDSA44_RSA2048_PKCS15,
        &composite::MLDSA65_RSA3072_PSS,
        &composite::MLDSA65_RSA3072_PKCS15,
        &composite::MLDSA65_RSA4096_PSS,
        &composite::MLDSA65_RSA4096_PKCS15,
        &composite::MLDSA87_RSA3072_PSS,
        &composite::MLDSA87_RSA4096_PSS,
        &composite::MLDSA87_ED448,
    ];
    &ALL
}

/// The scheme named `name`.
pub fn by_name(name: &str) -> Result<&'static dyn Scheme> {
    all()
        .iter()
        .copied()
        .find(|s| s.name() == name)
        .ok_or_else(|| {
            let names: Vec<&str> = all().iter().map(|s| s.name()).collect();
            CliError::new(format!(
                "unknown algorithm '{name}' (supported: {})",
                names.join(" ")
            ))
        })
}

/// The scheme a key file belongs to, by OID.
pub fn for_key(key: &KeyFile) -> Result<&'static dyn Scheme> {
    all()
        .iter()
        .copied()
        .find(|s| s.oid() == key.oid)
        .ok_or_else(|| CliError::new(format!("unsupported key algorithm OID {}", key.oid)))
}

/// A `--seed` of exactly `N` bytes, else the error
/// "`alg`: --seed must be `N` bytes`what`, not `len`".
pub fn seed_array<'a, const N: usize>(
    alg: &str,
    what: &str,
    seed: &'a [u8],
) -> Result<&'a [u8; N]> {
    seed.try_into().map_err(|_| {
        CliError::new(format!(
            "{alg}: --seed must be {N} bytes{what}, not {}",
            seed.len()
        ))
    })
}

/// The message of a refused conversion of an expanded-only key to a form
/// with the seed.
pub fn no_seed(name: &str) -> CliError {
    CliError::new(format!(
        "{name}: the key has no seed (expandedKey form), and the seed cannot be recovered \
         from the expanded key; only --key-format expanded is possible"
    ))
}

/// Fail unless `key` is a private key.
pub fn require_private(key: &KeyFile, what: &str) -> Result<()> {
    match key.kind {
        KeyKind::Private => Ok(()),
        KeyKind::Public => Err(CliError::new(format!(
            "{what} needs a private key (PKCS#8)"
        ))),
    }
}

/// A group of scheme-specific flags: one `#[derive(clap::Args)]` struct in
/// a scheme's module, implementing [`SchemeFlags`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlagGroup {
    /// [`ml_dsa::Flags`] (`--mu`).
    MlDsa,
    /// [`fn_dsa::Flags`] (`--falcon-original`).
    FnDsa,
    /// [`ed25519::VerifyFlags`] (`--strict`).
    Ed25519,
}

impl FlagGroup {
    /// The schemes the group's flags are for, as error messages name them.
    fn applies_to(self) -> &'static str {
        match self {
            FlagGroup::MlDsa => "ML-DSA",
            FlagGroup::FnDsa => "fn-dsa",
            FlagGroup::Ed25519 => "ed25519",
        }
    }
}

/// The flags a scheme declares for itself.
pub trait SchemeFlags {
    /// The group they form.
    const GROUP: FlagGroup;
    /// The flags given on the command line, by name (`--mu`).
    fn given(&self) -> Vec<&'static str>;

    /// The flags given, with their group.
    fn given_in_group(&self) -> Vec<(FlagGroup, &'static str)> {
        self.given().into_iter().map(|f| (Self::GROUP, f)).collect()
    }
}

/// The scheme-specific flags of `sign`.
#[derive(Args, Clone, Debug, Default)]
pub struct SignFlags {
    /// ML-DSA's.
    #[command(flatten)]
    pub ml_dsa: ml_dsa::Flags,
    /// FN-DSA's.
    #[command(flatten)]
    pub fn_dsa: fn_dsa::Flags,
}

impl SignFlags {
    /// Every scheme-specific flag given, with its group.
    pub fn given(&self) -> Vec<(FlagGroup, &'static str)> {
        let mut v = self.ml_dsa.given_in_group();
        v.extend(self.fn_dsa.given_in_group());
        v
    }
}

/// The scheme-specific flags of `verify`.
#[derive(Args, Clone, Debug, Default)]
pub struct VerifyFlags {
    /// ML-DSA's.
    #[command(flatten)]
    pub ml_dsa: ml_dsa::Flags,
    /// FN-DSA's.
    #[command(flatten)]
    pub fn_dsa: fn_dsa::Flags,
    /// Ed25519's.
    #[command(flatten)]
    pub ed25519: ed25519::VerifyFlags,
}

impl VerifyFlags {
    /// Every scheme-specific flag given, with its group.
    pub fn given(&self) -> Vec<(FlagGroup, &'static str)> {
        let mut v = self.ml_dsa.given_in_group();
        v.extend(self.fn_dsa.given_in_group());
        v.extend(self.ed25519.given_in_group());
        v
    }
}

/// Fail, in one line, on a scheme-specific flag (from [`SignFlags::given`]
/// or [`VerifyFlags::given`]) that `scheme` does not take.
pub fn check_flags(
    scheme: &dyn SignatureScheme,
    given: &[(FlagGroup, &'static str)],
) -> Result<()> {
    match given
        .iter()
        .find(|(group, _)| !scheme.flag_groups().contains(group))
    {
        Some((group, flag)) => Err(CliError::new(format!(
            "{flag} applies to {} only",
            group.applies_to()
        ))),
        None => Ok(()),
    }
}
