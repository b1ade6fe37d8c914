//! Command-line parsing: the exact names and flags of the CLI contract.

use crate::schemes::{self, SignFlags, VerifyFlags};
use crate::{CliError, Result};

/// Which PKCS#8 private-key form `keygen` writes (`--key-format`).
pub use pqkit_common::keychoice::KeyFormat;

/// A pre-hash function name accepted by `--prehash`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prehash {
    Sha2_224,
    Sha2_256,
    Sha2_384,
    Sha2_512,
    Sha2_512_224,
    Sha2_512_256,
    Sha3_224,
    Sha3_256,
    Sha3_384,
    Sha3_512,
    Shake128,
    Shake256,
}

impl Prehash {
    const ALL: [(&'static str, Prehash); 12] = [
        ("sha2-224", Prehash::Sha2_224),
        ("sha2-256", Prehash::Sha2_256),
        ("sha2-384", Prehash::Sha2_384),
        ("sha2-512", Prehash::Sha2_512),
        ("sha2-512/224", Prehash::Sha2_512_224),
        ("sha2-512/256", Prehash::Sha2_512_256),
        ("sha3-224", Prehash::Sha3_224),
        ("sha3-256", Prehash::Sha3_256),
        ("sha3-384", Prehash::Sha3_384),
        ("sha3-512", Prehash::Sha3_512),
        ("shake-128", Prehash::Shake128),
        ("shake-256", Prehash::Shake256),
    ];

    fn parse(s: &str) -> Result<Self> {
        Self::ALL
            .iter()
            .find(|(n, _)| *n == s)
            .map(|(_, p)| *p)
            .ok_or_else(|| {
                let names: Vec<&str> = Self::ALL.iter().map(|(n, _)| *n).collect();
                CliError::new(format!(
                    "unknown --prehash '{s}' (one of: {})",
                    names.join(" ")
                ))
            })
    }
}

/// Options of `sign`: the ones every signature scheme reads, then each
/// scheme's own flags.
#[derive(Clone, Debug, Default)]
pub struct SignOptions {
    pub context: Option<Vec<u8>>,
    pub prehash: Option<Prehash>,
    pub deterministic: bool,
    pub scheme: SignFlags,
}

/// Options of `verify`: the ones every signature scheme reads, then each
/// scheme's own flags.
#[derive(Clone, Debug, Default)]
pub struct VerifyOptions {
    pub context: Option<Vec<u8>>,
    pub prehash: Option<Prehash>,
    pub scheme: VerifyFlags,
}

/// A parsed command line.
#[derive(Debug)]
pub enum Command {
    Help,
    Version,
    Algorithms,
    Keygen {
        alg: String,
        seed: Option<Vec<u8>>,
        format: KeyFormat,
        out: String,
    },
    Pubkey {
        input: String,
        out: String,
    },
    Sign {
        key: String,
        input: String,
        out: String,
        opts: SignOptions,
    },
    Verify {
        public: String,
        input: String,
        signature: String,
        opts: VerifyOptions,
    },
    Encap {
        public: String,
        out: String,
        secret_out: String,
    },
    Decap {
        key: String,
        input: String,
        out: String,
    },
    Demo,
    Bench {
        algs: Vec<String>,
    },
}

/// Parsed flags of one subcommand: `(name, value)` pairs and positionals.
struct Flags {
    cmd: &'static str,
    values: Vec<(&'static str, String)>,
    switches: Vec<&'static str>,
    positional: Vec<String>,
}

impl Flags {
    /// Parse `argv` against the value flags and switches this command takes.
    fn parse(
        cmd: &'static str,
        argv: &[String],
        value_flags: &[&'static str],
        switch_flags: &[&'static str],
    ) -> Result<Self> {
        let mut f = Flags {
            cmd,
            values: Vec::new(),
            switches: Vec::new(),
            positional: Vec::new(),
        };
        let mut it = argv.iter();
        while let Some(a) = it.next() {
            let (name, inline) = match a.split_once('=') {
                Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
                _ => (a.as_str(), None),
            };
            if let Some(&flag) = value_flags.iter().find(|&&v| v == name) {
                let v = match inline {
                    Some(v) => v,
                    None => it
                        .next()
                        .cloned()
                        .ok_or_else(|| CliError::new(format!("{cmd}: {flag} needs a value")))?,
                };
                if f.values.iter().any(|(n, _)| *n == flag) {
                    return Err(CliError::new(format!("{cmd}: {flag} given twice")));
                }
                f.values.push((flag, v));
            } else if let Some(&flag) = switch_flags.iter().find(|&&s| s == name) {
                if inline.is_some() {
                    return Err(CliError::new(format!("{cmd}: {flag} takes no value")));
                }
                f.switches.push(flag);
            } else if a.starts_with('-') && a != "-" {
                return Err(CliError::new(format!(
                    "{cmd}: unknown option '{a}' (see pqkit --help)"
                )));
            } else {
                f.positional.push(a.clone());
            }
        }
        Ok(f)
    }

    fn get(&self, flag: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(n, _)| *n == flag)
            .map(|(_, v)| v.as_str())
    }

    fn required(&self, flag: &str) -> Result<String> {
        self.get(flag)
            .map(str::to_string)
            .ok_or_else(|| CliError::new(format!("{}: missing {flag}", self.cmd)))
    }

    fn has(&self, flag: &str) -> bool {
        self.switches.contains(&flag)
    }

    fn no_positionals(&self) -> Result<()> {
        match self.positional.first() {
            Some(p) => Err(CliError::new(format!(
                "{}: unexpected argument '{p}'",
                self.cmd
            ))),
            None => Ok(()),
        }
    }

    fn hex(&self, flag: &str) -> Result<Option<Vec<u8>>> {
        self.get(flag)
            .map(|h| {
                hex::decode(h.trim()).map_err(|e| {
                    CliError::new(format!("{}: {flag} is not valid hex: {e}", self.cmd))
                })
            })
            .transpose()
    }
}

/// Parse the whole command line (without the program name).
pub fn parse(argv: &[String]) -> Result<Command> {
    let Some((cmd, rest)) = argv.split_first() else {
        return Err(CliError::new("no command given (see pqkit --help)"));
    };
    match cmd.as_str() {
        "-h" | "--help" | "help" => Ok(Command::Help),
        "-V" | "--version" => Ok(Command::Version),
        "algorithms" => {
            Flags::parse("algorithms", rest, &[], &[])?.no_positionals()?;
            Ok(Command::Algorithms)
        }
        "keygen" => {
            let f = Flags::parse("keygen", rest, &["--seed", "--key-format", "-o"], &[])?;
            let alg = match f.positional.as_slice() {
                [alg] => alg.clone(),
                [] => return Err(CliError::new("keygen: missing ALG")),
                [_, extra, ..] => {
                    return Err(CliError::new(format!(
                        "keygen: unexpected argument '{extra}'"
                    )));
                }
            };
            let format = match f.get("--key-format") {
                None | Some("seed") => KeyFormat::Seed,
                Some("expanded") => KeyFormat::Expanded,
                Some("both") => KeyFormat::Both,
                Some(o) => {
                    return Err(CliError::new(format!(
                        "keygen: --key-format must be seed, expanded or both, not '{o}'"
                    )));
                }
            };
            Ok(Command::Keygen {
                alg,
                seed: f.hex("--seed")?,
                format,
                out: f.required("-o")?,
            })
        }
        "pubkey" => {
            let f = Flags::parse("pubkey", rest, &["-i", "-o"], &[])?;
            f.no_positionals()?;
            Ok(Command::Pubkey {
                input: f.required("-i")?,
                out: f.required("-o")?,
            })
        }
        "sign" => {
            let f = Flags::parse(
                "sign",
                rest,
                &["-k", "-i", "-o", "--context", "--prehash"],
                &["--deterministic", "--mu", "--falcon-original"],
            )?;
            f.no_positionals()?;
            Ok(Command::Sign {
                key: f.required("-k")?,
                input: f.required("-i")?,
                out: f.required("-o")?,
                opts: SignOptions {
                    context: f.hex("--context")?,
                    prehash: f.get("--prehash").map(Prehash::parse).transpose()?,
                    deterministic: f.has("--deterministic"),
                    scheme: SignFlags {
                        ml_dsa: schemes::ml_dsa::Flags { mu: f.has("--mu") },
                        fn_dsa: schemes::fn_dsa::Flags {
                            falcon_original: f.has("--falcon-original"),
                        },
                    },
                },
            })
        }
        "verify" => {
            let f = Flags::parse(
                "verify",
                rest,
                &["-p", "-i", "-s", "--context", "--prehash"],
                &["--mu", "--strict", "--falcon-original"],
            )?;
            f.no_positionals()?;
            Ok(Command::Verify {
                public: f.required("-p")?,
                input: f.required("-i")?,
                signature: f.required("-s")?,
                opts: VerifyOptions {
                    context: f.hex("--context")?,
                    prehash: f.get("--prehash").map(Prehash::parse).transpose()?,
                    scheme: VerifyFlags {
                        ml_dsa: schemes::ml_dsa::Flags { mu: f.has("--mu") },
                        fn_dsa: schemes::fn_dsa::Flags {
                            falcon_original: f.has("--falcon-original"),
                        },
                        ed25519: schemes::ed25519::VerifyFlags {
                            strict: f.has("--strict"),
                        },
                    },
                },
            })
        }
        "encap" => {
            let f = Flags::parse("encap", rest, &["-p", "-o", "--secret-out"], &[])?;
            f.no_positionals()?;
            Ok(Command::Encap {
                public: f.required("-p")?,
                out: f.required("-o")?,
                secret_out: f.required("--secret-out")?,
            })
        }
        "decap" => {
            let f = Flags::parse("decap", rest, &["-k", "-i", "-o"], &[])?;
            f.no_positionals()?;
            Ok(Command::Decap {
                key: f.required("-k")?,
                input: f.required("-i")?,
                out: f.required("-o")?,
            })
        }
        "demo" => {
            Flags::parse("demo", rest, &[], &[])?.no_positionals()?;
            Ok(Command::Demo)
        }
        "bench" => {
            let f = Flags::parse("bench", rest, &[], &[])?;
            Ok(Command::Bench { algs: f.positional })
        }
        other => Err(CliError::new(format!(
            "unknown command '{other}' (see pqkit --help)"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<Command> {
        let v: Vec<String> = s.split_whitespace().map(str::to_string).collect();
        parse(&v)
    }

    #[test]
    fn contract_shapes() {
        assert!(matches!(
            p("keygen ml-kem-768 --seed 00ff -o k.pem"),
            Ok(Command::Keygen { ref alg, seed: Some(ref s), format: KeyFormat::Seed, ref out })
                if alg == "ml-kem-768" && s == &[0, 255] && out == "k.pem"
        ));
        assert!(matches!(
            p("keygen ed25519 --key-format both -o k.pem"),
            Ok(Command::Keygen {
                format: KeyFormat::Both,
                ..
            })
        ));
        assert!(matches!(
            p("sign -k k -i m -o s --context 0102 --prehash sha2-512/256 --deterministic"),
            Ok(Command::Sign { ref opts, .. })
                if opts.deterministic && opts.prehash == Some(Prehash::Sha2_512_256)
                    && opts.context.as_deref() == Some(&[1, 2][..])
        ));
        assert!(matches!(
            p("verify -p k -i m -s s --strict --mu"),
            Ok(Command::Verify { ref opts, .. })
                if opts.scheme.ed25519.strict && opts.scheme.ml_dsa.mu
        ));
        assert!(matches!(
            p("encap -p k -o c --secret-out s"),
            Ok(Command::Encap { .. })
        ));
        assert!(matches!(
            p("decap -k k -i c -o s"),
            Ok(Command::Decap { .. })
        ));
        assert!(
            matches!(p("bench ed25519 ml-kem-512"), Ok(Command::Bench { ref algs }) if algs.len() == 2)
        );
    }

    #[test]
    fn errors() {
        for bad in [
            "",
            "frobnicate",
            "keygen",
            "keygen ml-kem-768",
            "keygen a b -o x",
            "keygen ml-kem-768 --seed zz -o k",
            "keygen ml-kem-768 --key-format huge -o k",
            "sign -k k -i m",
            "sign -k k -i m -o s --prehash md5",
            "verify -p k -i m -s s --bogus",
            "encap -p k -o c",
            "decap -k k -i c -o s -o t",
            "demo extra",
        ] {
            assert!(p(bad).is_err(), "{bad:?} should be an error");
        }
    }
}
