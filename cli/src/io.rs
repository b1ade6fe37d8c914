//! Files: key input (PEM or DER, detected), message input, and outputs that
//! are written completely or not at all.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use der::asn1::ObjectIdentifier;
use der::{Decode, pem::LineEnding};
use pkcs8::PrivateKeyInfoRef;
use spki::SubjectPublicKeyInfoRef;
use zeroize::Zeroizing;

use crate::{CliError, Result};

/// Whether a key file holds a private (PKCS#8) or public (SPKI) key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyKind {
    /// PKCS#8 `PrivateKeyInfo` / `OneAsymmetricKey`.
    Private,
    /// X.509 `SubjectPublicKeyInfo`.
    Public,
}

/// A key read from a file: its DER, kind and algorithm OID.
pub struct KeyFile {
    /// The DER bytes (wiped on drop: they may be a private key).
    pub der: Zeroizing<Vec<u8>>,
    /// Private or public.
    pub kind: KeyKind,
    /// The AlgorithmIdentifier OID.
    pub oid: ObjectIdentifier,
}

/// Read a whole file, or standard input for `-`.
pub fn read_input(path: &str) -> Result<Vec<u8>> {
    let mut buf = Vec::new();
    if path == "-" {
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| CliError::new(format!("reading standard input: {e}")))?;
    } else {
        buf = std::fs::read(path).map_err(|e| CliError::new(format!("reading {path}: {e}")))?;
    }
    Ok(buf)
}

/// Read a file that is PEM (its first object: label and DER) or DER (no
/// label); wiped on drop, as it may hold a private key.
pub fn read_pem_or_der(path: &str) -> Result<(Option<String>, Zeroizing<Vec<u8>>)> {
    let raw = Zeroizing::new(read_input(path)?);
    let trimmed = trim_ascii_start(&raw);
    if trimmed.starts_with(b"-----BEGIN ") {
        let (label, der) = der::pem::decode_vec(trimmed)
            .map_err(|e| CliError::new(format!("{path}: malformed PEM: {e}")))?;
        Ok((Some(label.to_string()), Zeroizing::new(der)))
    } else {
        Ok((None, Zeroizing::new(raw.to_vec())))
    }
}

/// Read a key file in PEM (`PRIVATE KEY` / `PUBLIC KEY`) or DER form.
pub fn read_key(path: &str) -> Result<KeyFile> {
    let (label, der) = read_pem_or_der(path)?;
    key_file(path, label.as_deref(), der)
}

/// A key from what [`read_pem_or_der`] read from `path` (named in errors).
pub fn key_file(path: &str, label: Option<&str>, der: Zeroizing<Vec<u8>>) -> Result<KeyFile> {
    let der = match (label, der) {
        (Some(label), der) => match label {
            "PRIVATE KEY" | "PUBLIC KEY" => der,
            other => {
                return Err(CliError::new(format!(
                    "{path}: unsupported PEM label '{other}' (want PRIVATE KEY or PUBLIC KEY)"
                )));
            }
        },
        (None, der) => der,
    };
    if let Ok(pki) = PrivateKeyInfoRef::from_der(&der) {
        let oid = pki.algorithm.oid;
        return Ok(KeyFile {
            der,
            kind: KeyKind::Private,
            oid,
        });
    }
    if let Ok(spki) = SubjectPublicKeyInfoRef::from_der(&der) {
        let oid = spki.algorithm.oid;
        return Ok(KeyFile {
            der,
            kind: KeyKind::Public,
            oid,
        });
    }
    Err(CliError::new(format!(
        "{path}: not a PKCS#8 private key or SubjectPublicKeyInfo (PEM or DER)"
    )))
}

fn trim_ascii_start(b: &[u8]) -> &[u8] {
    let start = b
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(b.len());
    &b[start..]
}

/// PEM-encode `der` under `label` with LF line endings.
pub fn pem(label: &str, der: &[u8]) -> Result<Zeroizing<String>> {
    der::pem::encode_string(label, LineEnding::LF, der)
        .map(Zeroizing::new)
        .map_err(|e| CliError::new(format!("PEM encoding: {e}")))
}

/// Whether `path` names an existing file that is not a regular file (a
/// device such as `/dev/null`, a FIFO): such a target is written in place,
/// since renaming a temporary over it would replace the device node.
fn is_special(path: &str) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.file_type().is_file() && !m.is_dir())
}

/// Write every `(path, bytes)` pair, all or nothing: each goes to a
/// temporary file beside its target first; only when all are written are
/// they renamed into place. On any failure the temporaries are removed and
/// no target is touched. `-` writes to standard output; an existing
/// non-regular target (`/dev/null`, a FIFO) is written in place after the
/// renames, never replaced.
pub fn write_outputs(outputs: &[(&str, &[u8])]) -> Result<()> {
    let mut staged: Vec<(PathBuf, PathBuf)> = Vec::new();
    let cleanup = |staged: &[(PathBuf, PathBuf)]| {
        for (tmp, _) in staged {
            let _ = std::fs::remove_file(tmp);
        }
    };
    let mut in_place: Vec<(&str, &[u8])> = Vec::new();
    for (i, (path, bytes)) in outputs.iter().enumerate() {
        if *path == "-" {
            continue;
        }
        if outputs[..i].iter().any(|(p, _)| p == path) {
            cleanup(&staged);
            return Err(CliError::new(format!("{path} named twice as an output")));
        }
        if is_special(path) {
            in_place.push((path, bytes));
            continue;
        }
        let target = PathBuf::from(path);
        let tmp = temp_path(&target);
        if let Err(e) = write_new(&tmp, bytes) {
            let _ = std::fs::remove_file(&tmp);
            cleanup(&staged);
            return Err(CliError::new(format!("writing {path}: {e}")));
        }
        staged.push((tmp, target));
    }
    for (tmp, target) in &staged {
        if let Err(e) = std::fs::rename(tmp, target) {
            cleanup(&staged);
            return Err(CliError::new(format!("writing {}: {e}", target.display())));
        }
    }
    for (path, bytes) in in_place {
        std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|mut f| f.write_all(bytes))
            .map_err(|e| CliError::new(format!("writing {path}: {e}")))?;
    }
    for (path, bytes) in outputs {
        if *path == "-" {
            let mut out = std::io::stdout().lock();
            out.write_all(bytes)
                .and_then(|()| out.flush())
                .map_err(|e| CliError::new(format!("writing standard output: {e}")))?;
        }
    }
    Ok(())
}

fn temp_path(target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = format!(".{name}.pqkit-tmp-{}", std::process::id());
    match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.join(tmp),
        _ => PathBuf::from(tmp),
    }
}

fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Private keys and shared secrets: owner-only.
        opts.mode(0o600);
    }
    let mut f = opts.open(path)?;
    f.write_all(bytes)?;
    f.sync_all()
}

/// The largest message read whole into memory, for the modes that need
/// the whole message (pure Ed25519 and Ed25519ctx, FN-DSA's raw and
/// original-Falcon modes, ML-DSA's `--mu` input): 64 MiB. Larger inputs are
/// refused with an error naming the streaming alternative.
pub const MAX_WHOLE_MESSAGE: u64 = 64 << 20;

/// Read size of the streaming modes.
const CHUNK: usize = 64 << 10;

/// A message to sign or verify: bytes in memory, or a file (`-`: standard
/// input) that streaming modes read in 64 KiB chunks, in constant memory.
pub enum Message<'a> {
    /// In memory.
    Bytes(&'a [u8]),
    /// A file or `-`.
    Path(&'a str),
}

impl Message<'_> {
    /// Feed the message to `f` chunk by chunk.
    pub fn stream(&self, f: &mut dyn FnMut(&[u8])) -> Result<()> {
        match self {
            Message::Bytes(b) => {
                f(b);
                Ok(())
            }
            Message::Path(path) => {
                let mut reader: Box<dyn Read> = if *path == "-" {
                    Box::new(std::io::stdin().lock())
                } else {
                    Box::new(
                        std::fs::File::open(path)
                            .map_err(|e| CliError::new(format!("reading {path}: {e}")))?,
                    )
                };
                let mut buf = vec![0u8; CHUNK];
                loop {
                    let n = match reader.read(&mut buf) {
                        Ok(0) => return Ok(()),
                        Ok(n) => n,
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                        Err(e) => return Err(CliError::new(format!("reading {path}: {e}"))),
                    };
                    f(&buf[..n]);
                }
            }
        }
    }

    /// The message's pre-hash under `alg` (HashML-DSA, HashFN-DSA),
    /// streamed.
    pub fn prehash(
        &self,
        alg: pqkit_common::prehash::HashAlg,
    ) -> Result<pqkit_common::prehash::PreHash> {
        let mut h = pqkit_common::prehash::PreHasher::new(alg);
        self.stream(&mut |chunk| h.update(chunk))?;
        Ok(h.finalize())
    }

    /// The whole message in memory, for `mode` (named in the error), at
    /// most [`MAX_WHOLE_MESSAGE`] bytes.
    pub fn whole(&self, mode: &str) -> Result<std::borrow::Cow<'_, [u8]>> {
        match self {
            Message::Bytes(b) => Ok(std::borrow::Cow::Borrowed(b)),
            Message::Path(path) => {
                let too_big = || {
                    CliError::new(format!(
                        "{path}: {mode} needs the whole message in memory and takes at most \
                         {} MiB; use a pre-hash mode (--prehash) to sign larger files",
                        MAX_WHOLE_MESSAGE >> 20
                    ))
                };
                if *path != "-"
                    && std::fs::metadata(path).is_ok_and(|m| m.len() > MAX_WHOLE_MESSAGE)
                {
                    return Err(too_big());
                }
                let mut buf = Vec::new();
                let reader: Box<dyn Read> = if *path == "-" {
                    Box::new(std::io::stdin().lock())
                } else {
                    Box::new(
                        std::fs::File::open(path)
                            .map_err(|e| CliError::new(format!("reading {path}: {e}")))?,
                    )
                };
                reader
                    .take(MAX_WHOLE_MESSAGE + 1)
                    .read_to_end(&mut buf)
                    .map_err(|e| CliError::new(format!("reading {path}: {e}")))?;
                if buf.len() as u64 > MAX_WHOLE_MESSAGE {
                    return Err(too_big());
                }
                Ok(std::borrow::Cow::Owned(buf))
            }
        }
    }
}
