//! The `pqkit` command: keys as PEM, sign/verify, encap/decap, demo, bench.
//!
//! The interface is a contract driven by outside checks; see the clap
//! definitions in `args.rs` (`pqkit --help`) and the README. Exit status:
//! 0 success / valid signature, 1 invalid signature (`verify` only), 2 any
//! other error (one line on stderr).
//!
//! This library is the command itself ([`main`]; `src/main.rs` calls it)
//! plus the hidden entry points the fuzz targets drive.

mod args;
mod bench;
mod chain;
mod demo;
mod hpke;
mod io;
mod pki;
mod schemes;
mod tls;

use std::io::Write;
use std::process::ExitCode;

use args::{Command, KeyFormat, Parsed, SignOptions, VerifyOptions};

/// A failure reported as one line on stderr with exit status 2.
#[derive(Debug)]
pub struct CliError(pub String);

impl CliError {
    /// Build from anything printable.
    pub fn new(msg: impl Into<String>) -> Self {
        CliError(msg.into())
    }
}

impl<E: std::error::Error> From<E> for CliError {
    fn from(e: E) -> Self {
        CliError(e.to_string())
    }
}

/// Result alias of the CLI.
pub type Result<T> = std::result::Result<T, CliError>;

/// Run the `pqkit` command on the process's arguments.
pub fn main() -> ExitCode {
    let result = args::parse(std::env::args_os()).and_then(|parsed| match parsed {
        Parsed::Run(command) => run(command),
        Parsed::Print(text) => write_stdout(text.as_bytes()).map(|()| 0),
    });
    match result {
        Ok(code) => ExitCode::from(code),
        Err(CliError(msg)) => {
            let line = msg.replace('\n', " ");
            eprintln!("pqkit: error: {line}");
            ExitCode::from(2)
        }
    }
}

/// Write all of `bytes` to standard output.
fn write_stdout(bytes: &[u8]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(|e| CliError::new(format!("writing standard output: {e}")))
}

fn run(command: Command) -> Result<u8> {
    match command {
        Command::Algorithms { long } => {
            for s in schemes::all() {
                if long {
                    println!("{}", schemes::describe(*s));
                } else {
                    println!("{}", s.name());
                }
            }
            Ok(0)
        }
        Command::Keygen {
            alg,
            seed,
            format,
            out,
        } => keygen(&alg, seed.as_deref(), format, &out),
        Command::Pubkey { input, out } => {
            let key = io::read_key(&input)?;
            let scheme = schemes::for_key(&key)?;
            let spki = scheme.public_key_der(&key)?;
            io::write_outputs(&[(&out, io::pem("PUBLIC KEY", &spki)?.as_bytes())])?;
            Ok(0)
        }
        Command::Sign {
            key,
            input,
            out,
            opts,
        } => sign(&key, &input, &out, &opts),
        Command::Verify {
            public,
            input,
            signature,
            opts,
        } => verify(&public, &input, &signature, &opts),
        Command::Encap {
            public,
            out,
            secret_out,
            seed,
        } => {
            let key = io::read_key(&public)?;
            let scheme = schemes::for_key(&key)?;
            let kem = scheme
                .as_kem()
                .ok_or_else(|| CliError::new(format!("{} is not a KEM", scheme.name())))?;
            let (ct, ss) = kem.encap(&key, seed.as_deref())?;
            io::write_outputs(&[(&out, &ct), (&secret_out, &ss)])?;
            Ok(0)
        }
        Command::Decap { key, input, out } => {
            let key = io::read_key(&key)?;
            let scheme = schemes::for_key(&key)?;
            let kem = scheme
                .as_kem()
                .ok_or_else(|| CliError::new(format!("{} is not a KEM", scheme.name())))?;
            let ct = io::read_input(&input)?;
            let ss = kem.decap(&key, &ct)?;
            io::write_outputs(&[(&out, &ss)])?;
            Ok(0)
        }
        Command::Hpke(op) => hpke::run(&op),
        Command::Req {
            key,
            subject,
            sans,
            out,
        } => pki::req(&key, &subject, &sans, &out),
        Command::Cert {
            key,
            self_signed,
            csr,
            pubkey,
            ca_cert,
            subject,
            sans,
            days,
            ca,
            path_len,
            out,
        } => pki::cert(&pki::CertRequest {
            key: &key,
            self_signed,
            csr: csr.as_deref(),
            pubkey: pubkey.as_deref(),
            ca_cert: ca_cert.as_deref(),
            subject: subject.as_deref(),
            sans: &sans,
            days,
            ca,
            path_len,
            out: &out,
        }),
        Command::VerifyCert {
            ca,
            untrusted,
            time,
            purpose,
            cert,
        } => pki::verify_cert(&ca, untrusted.as_deref(), time.as_deref(), &cert, &purpose),
        Command::Show { input, json } => pki::show(&input, json),
        Command::Pkey {
            input,
            format,
            der,
            check,
            out,
        } => match (check, format, out) {
            (true, _, _) => pki::pkey_check(&input),
            (false, Some(format), Some(out)) => pki::pkey(&input, format, der, &out),
            _ => Err(CliError::new("pkey: give --key-format and -o, or --check")),
        },
        Command::TlsServer {
            cert,
            key,
            port,
            groups,
            once,
        } => tls::server(&cert, &key, port, &groups, once),
        Command::TlsClient {
            addr,
            ca,
            groups,
            server_name,
        } => tls::client(&addr, ca.as_deref(), &groups, server_name.as_deref()),
        Command::Demo => demo::run().map(|()| 0),
        Command::Bench { algs } => bench::run(&algs).map(|()| 0),
        Command::Completions { shell } => {
            // Into a buffer first: the generator panics on a failed write.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut args::command(), "pqkit", &mut script);
            write_stdout(&script).map(|()| 0)
        }
    }
}

fn keygen(alg: &str, seed: Option<&[u8]>, format: KeyFormat, out: &str) -> Result<u8> {
    let scheme = schemes::by_name(alg)?;
    let der = scheme.keygen(seed, format)?;
    let pem = io::pem("PRIVATE KEY", &der)?;
    io::write_outputs(&[(out, pem.as_bytes())])?;
    Ok(0)
}

fn sign(key: &str, input: &str, out: &str, opts: &SignOptions) -> Result<u8> {
    let key = io::read_key(key)?;
    if key.kind != io::KeyKind::Private {
        return Err(CliError::new("sign needs a private key (PKCS#8)"));
    }
    let scheme = schemes::for_key(&key)?;
    let sig_scheme = scheme
        .as_signature()
        .ok_or_else(|| CliError::new(format!("{} is not a signature algorithm", scheme.name())))?;
    schemes::check_flags(sig_scheme, &opts.scheme.given())?;
    let sig = sig_scheme.sign(&key, &io::Message::Path(input), opts)?;
    io::write_outputs(&[(out, &sig)])?;
    Ok(0)
}

fn verify(public: &str, input: &str, signature: &str, opts: &VerifyOptions) -> Result<u8> {
    let key = io::read_key(public)?;
    let scheme = schemes::for_key(&key)?;
    let sig_scheme = scheme
        .as_signature()
        .ok_or_else(|| CliError::new(format!("{} is not a signature algorithm", scheme.name())))?;
    schemes::check_flags(sig_scheme, &opts.scheme.given())?;
    let sig = io::read_input(signature)?;
    if sig_scheme.verify(&key, &io::Message::Path(input), &sig, opts)? {
        println!("valid");
        Ok(0)
    } else {
        println!("invalid");
        Ok(1)
    }
}

/// Entry points for the fuzz targets (`fuzz/`): not a stable interface.
#[doc(hidden)]
pub mod fuzzing {
    use crate::args::KeyFormat;
    use crate::io::{self, KeyFile, KeyKind};
    use crate::{pki, schemes};

    /// A file of this process and thread, in the temporary directory.
    fn scratch(name: &str) -> String {
        let dir = std::env::temp_dir();
        let id = format!("{:?}", std::thread::current().id());
        let id: String = id.chars().filter(char::is_ascii_digit).collect();
        let path = dir.join(format!("pqkit-fuzz-{}-{id}-{name}", std::process::id()));
        path.to_string_lossy().into_owned()
    }

    /// Give `bytes` to the CLI's file readers as a key, certificate or
    /// request file (`pubkey`, `pkey`, `pkey --check`, `show`,
    /// `verify-cert`'s certificate reader), and check what each promises:
    /// an error, or
    /// - a private key that loads (its public key derives) signs and
    ///   verifies, or encapsulates and decapsulates, with its own public
    ///   key (`pkey --check`'s round trip);
    /// - a key re-encoded by `pubkey` or `pkey` loads again, to the same
    ///   public key;
    /// - `show` describes whatever the file is without failing twice
    ///   differently (text and JSON agree on success).
    ///
    /// Panics (the fuzzer's finding) when a promise is broken.
    #[allow(clippy::panic)] // a broken promise is the fuzzer's finding
    pub fn load_file(bytes: &[u8]) {
        let path = scratch("input");
        if std::fs::write(&path, bytes).is_err() {
            return;
        }
        if let Ok(key) = io::read_key(&path)
            && let Ok(scheme) = schemes::for_key(&key)
        {
            check_key(scheme, &key);
        }
        let text = pki::describe(&path, false);
        let json = pki::describe(&path, true);
        assert_eq!(text.is_ok(), json.is_ok(), "show: text and JSON disagree");
        let _ = pki::read_certs(&path);
        let _ = std::fs::remove_file(&path);
    }

    #[allow(clippy::panic)] // a broken promise is the fuzzer's finding
    fn check_key(scheme: &'static dyn schemes::Scheme, key: &KeyFile) {
        let Ok(spki) = scheme.public_key_der(key) else {
            return;
        };
        let public = KeyFile {
            der: zeroize::Zeroizing::new(spki.clone()),
            kind: KeyKind::Public,
            oid: key.oid,
        };
        let again = scheme.public_key_der(&public);
        assert_eq!(
            again.as_deref().ok(),
            Some(spki.as_slice()),
            "{}: the derived public key does not load to itself",
            scheme.name()
        );
        if key.kind != KeyKind::Private {
            return;
        }
        if let Err(e) = pki::round_trip(scheme, key) {
            panic!(
                "{}: a private key that loads does not work: {}",
                scheme.name(),
                e.0
            );
        }
        for format in [KeyFormat::Seed, KeyFormat::Expanded, KeyFormat::Both] {
            let Ok(der) = scheme.convert(key, format) else {
                continue;
            };
            let converted = KeyFile {
                der,
                kind: KeyKind::Private,
                oid: key.oid,
            };
            let spki2 = scheme.public_key_der(&converted);
            assert_eq!(
                spki2.as_deref().ok(),
                Some(spki.as_slice()),
                "{}: pkey {format:?} changed the key",
                scheme.name()
            );
        }
    }
}
