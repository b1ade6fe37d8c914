//! Command-line parsing: the exact names and flags of the CLI contract, as
//! clap derive definitions.
//!
//! Every error, clap's own included, becomes one [`CliError`] line (exit
//! status 2); help and version text is returned for printing (exit 0).

use std::ffi::OsString;

use clap::builder::{EnumValueParser, PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::error::ErrorKind;
use clap::{ArgAction, Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use crate::schemes;
use crate::{CliError, Result};

/// Which PKCS#8 private-key form `keygen` writes (`--key-format`).
pub use pqkit_pkix::keychoice::KeyFormat;

/// A pre-hash function of `--prehash`: pqkit's one registry of them.
pub use pqkit_common::prehash::HashAlg as Prehash;

/// `--prehash`: exactly the registry's names (`sha2-256`, `shake-128`, ...).
fn prehash_parser() -> impl TypedValueParser<Value = Prehash> {
    PossibleValuesParser::new(Prehash::ALL.map(Prehash::name)).try_map(|s| Prehash::from_name(&s))
}

/// The `--key-format` names.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum KeyFormatName {
    /// The seed only (the canonical private key)
    Seed,
    /// The expanded private key only
    Expanded,
    /// Both the seed and the expanded key
    Both,
}

impl From<KeyFormatName> for KeyFormat {
    fn from(n: KeyFormatName) -> Self {
        match n {
            KeyFormatName::Seed => KeyFormat::Seed,
            KeyFormatName::Expanded => KeyFormat::Expanded,
            KeyFormatName::Both => KeyFormat::Both,
        }
    }
}

/// Bytes given in hex on the command line (`--seed`, `--context`).
///
/// An alias rather than `Vec<u8>` so that clap takes the value as one hex
/// string, not as a list of numbers.
pub type HexBytes = Vec<u8>;

/// The value parser of [`HexBytes`] (surrounding whitespace is ignored).
fn hex_bytes(s: &str) -> std::result::Result<HexBytes, String> {
    hex::decode(s.trim()).map_err(|e| format!("not valid hex: {e}"))
}

/// Options of `sign`: the ones every signature scheme reads, then each
/// scheme's own flags.
#[derive(Args, Clone, Debug, Default)]
pub struct SignOptions {
    /// Context string in hex (at most 255 bytes)
    #[arg(long, value_name = "HEX", value_parser = hex_bytes)]
    pub context: Option<HexBytes>,
    /// Sign a digest of the message (HashML-DSA, HashSLH-DSA, HashFN-DSA, Ed25519ph)
    #[arg(long, value_name = "HASH", value_parser = prehash_parser())]
    pub prehash: Option<Prehash>,
    /// Sign without fresh randomness
    #[arg(long, overrides_with = "deterministic")]
    pub deterministic: bool,
    /// The flags of single schemes (each under its own heading).
    #[command(flatten)]
    pub scheme: schemes::SignFlags,
}

/// Options of `verify`: the ones every signature scheme reads, then each
/// scheme's own flags.
#[derive(Args, Clone, Debug, Default)]
pub struct VerifyOptions {
    /// Context string in hex (at most 255 bytes)
    #[arg(long, value_name = "HEX", value_parser = hex_bytes)]
    pub context: Option<HexBytes>,
    /// The signature is over a digest of the message (HashML-DSA, HashSLH-DSA, HashFN-DSA, Ed25519ph)
    #[arg(long, value_name = "HASH", value_parser = prehash_parser())]
    pub prehash: Option<Prehash>,
    /// The flags of single schemes (each under its own heading).
    #[command(flatten)]
    pub scheme: schemes::VerifyFlags,
}

/// The `pqkit` command line.
#[derive(Parser, Debug)]
#[command(
    name = "pqkit",
    bin_name = "pqkit",
    version,
    about,
    subcommand_required = true,
    // No command is an error line, not the help (which derive asks for).
    arg_required_else_help = false,
    // A value flag given twice is an error (clap's default, stated here
    // because the contract depends on it); switches opt out one by one.
    args_override_self = false
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// A parsed command line.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the algorithms of this build, one name a line
    Algorithms {
        /// Also give each one's kind, key OID and HPKE KEM identifier
        /// (tab-separated; `-` where there is none)
        #[arg(long, short = 'l')]
        long: bool,
    },
    /// Generate a private key (PKCS#8 PEM)
    Keygen {
        /// The algorithm (see `pqkit algorithms`)
        #[arg(value_name = "ALG")]
        alg: String,
        /// Derive the key from this seed (hex) instead of the OS RNG
        ///
        /// Composite ML-DSA: the Ed25519 combinations take 64 bytes, the
        /// ML-DSA seed then the Ed25519 private key (the draft's private
        /// key); the ECDSA combinations have no seed form (an ECDSA private
        /// key is a random scalar) and refuse --seed; the RSA and Ed448
        /// combinations are verify-only and have no keygen.
        #[arg(long, value_name = "HEX", value_parser = hex_bytes)]
        seed: Option<HexBytes>,
        /// Which PKCS#8 private-key form to write
        #[arg(
            long = "key-format",
            value_name = "FORMAT",
            default_value = "seed",
            value_parser = EnumValueParser::<KeyFormatName>::new().map(KeyFormat::from)
        )]
        format: KeyFormat,
        /// The private key file to write (`-`: standard output)
        #[arg(short = 'o', value_name = "KEY.pem", allow_hyphen_values = true)]
        out: String,
    },
    /// Write the public key (SPKI PEM) of a key file
    Pubkey {
        /// The key file, private or public (`-`: standard input)
        #[arg(short = 'i', value_name = "KEY.pem", allow_hyphen_values = true)]
        input: String,
        /// The public key file to write (`-`: standard output)
        #[arg(short = 'o', value_name = "PUB.pem", allow_hyphen_values = true)]
        out: String,
    },
    /// Sign a message
    Sign {
        /// The private key file (`-`: standard input)
        #[arg(short = 'k', value_name = "KEY.pem", allow_hyphen_values = true)]
        key: String,
        /// The message file (`-`: standard input)
        #[arg(short = 'i', value_name = "MSG", allow_hyphen_values = true)]
        input: String,
        /// The signature file to write (`-`: standard output)
        #[arg(short = 'o', value_name = "SIG", allow_hyphen_values = true)]
        out: String,
        /// The signing options.
        #[command(flatten)]
        opts: SignOptions,
    },
    /// Verify a signature: prints `valid` (exit 0) or `invalid` (exit 1)
    #[command(after_help = "Exit status: 0 valid, 1 invalid signature, 2 any other error.")]
    Verify {
        /// The public (or private) key file (`-`: standard input)
        #[arg(short = 'p', value_name = "PUB.pem", allow_hyphen_values = true)]
        public: String,
        /// The message file (`-`: standard input)
        #[arg(short = 'i', value_name = "MSG", allow_hyphen_values = true)]
        input: String,
        /// The signature file (`-`: standard input)
        #[arg(short = 's', value_name = "SIG", allow_hyphen_values = true)]
        signature: String,
        /// The verification options.
        #[command(flatten)]
        opts: VerifyOptions,
    },
    /// Encapsulate a fresh shared secret to a KEM public key
    Encap {
        /// The public (or private) key file (`-`: standard input)
        #[arg(short = 'p', value_name = "PUB.pem", allow_hyphen_values = true)]
        public: String,
        /// The ciphertext file to write (`-`: standard output)
        #[arg(short = 'o', value_name = "CT", allow_hyphen_values = true)]
        out: String,
        /// The shared-secret file to write (`-`: standard output)
        #[arg(long = "secret-out", value_name = "SS", allow_hyphen_values = true)]
        secret_out: String,
        /// FOR TESTS ONLY: the encapsulation randomness (hex) instead of the
        /// OS RNG, to replay test vectors (ML-KEM: the 32-byte m; Saber:
        /// its 32 random bytes). Reusing it reuses the shared secret.
        #[arg(long, value_name = "HEX", value_parser = hex_bytes)]
        seed: Option<HexBytes>,
    },
    /// Decapsulate a ciphertext with a KEM private key
    Decap {
        /// The private key file (`-`: standard input)
        #[arg(short = 'k', value_name = "KEY.pem", allow_hyphen_values = true)]
        key: String,
        /// The ciphertext file (`-`: standard input)
        #[arg(short = 'i', value_name = "CT", allow_hyphen_values = true)]
        input: String,
        /// The shared-secret file to write (`-`: standard output)
        #[arg(short = 'o', value_name = "SS", allow_hyphen_values = true)]
        out: String,
    },
    /// Make a PKCS#10 certificate request (CSR) signed by a signature key
    Req {
        /// The private key (ML-DSA, FN-DSA, Ed25519, composite ML-DSA)
        #[arg(short = 'k', value_name = "KEY.pem")]
        key: String,
        /// The subject, RFC 4514 (e.g. "CN=example.com,O=Example")
        #[arg(long, value_name = "NAME")]
        subject: String,
        /// A subject alternative name: DNS:name, IP:addr, email:addr, URI:uri (repeatable)
        #[arg(long = "san", value_name = "TYPE:VALUE")]
        sans: Vec<String>,
        /// The request file to write (PEM)
        #[arg(short = 'o', value_name = "REQ.pem", allow_hyphen_values = true)]
        out: String,
    },
    /// Issue a certificate: self-signed, from a CSR, or for a public key
    Cert {
        /// The issuer's private key
        #[arg(short = 'k', value_name = "SIGNER_KEY.pem")]
        key: String,
        /// Self-signed: the subject key is the signing key
        #[arg(long, conflicts_with_all = ["csr", "pubkey", "ca_cert"])]
        self_signed: bool,
        /// A certificate request for the subject key (its signature is checked)
        #[arg(long, value_name = "REQ.pem", conflicts_with = "pubkey")]
        csr: Option<String>,
        /// A public key to certify, e.g. an ML-KEM key (key usage keyEncipherment)
        #[arg(long, value_name = "PUB.pem")]
        pubkey: Option<String>,
        /// The issuer's certificate (its key must be the signing key)
        #[arg(long, value_name = "CA.pem")]
        ca_cert: Option<String>,
        /// The subject, RFC 4514 (default with --csr: the request's)
        #[arg(long, value_name = "NAME")]
        subject: Option<String>,
        /// A subject alternative name: DNS:name, IP:addr, email:addr, URI:uri (repeatable)
        #[arg(long = "san", value_name = "TYPE:VALUE")]
        sans: Vec<String>,
        /// Validity in days from now
        #[arg(long, value_name = "N", default_value_t = 365)]
        days: u32,
        /// A CA certificate (basicConstraints cA, keyCertSign)
        #[arg(long)]
        ca: bool,
        /// The CA's path length constraint
        #[arg(long, value_name = "N", requires = "ca")]
        path_len: Option<u8>,
        /// The certificate file to write (PEM)
        #[arg(short = 'o', value_name = "CERT.pem", allow_hyphen_values = true)]
        out: String,
    },
    /// Validate a certificate chain: prints `valid` or `invalid: <reason>`
    #[command(
        after_help = "Purposes: server and client are rustls-webpki's TLS end-entity \
        validation (the extended key usage, if the certificate names any, must include \
        serverAuth or clientAuth; a CA certificate is rejected as CaUsedAsEndEntity). any is \
        `openssl verify` without -purpose: the chain alone (names, signatures, validity \
        periods, issuers CA:TRUE with keyCertSign, pathLenConstraint, no unknown critical \
        extension), for any certificate, a root or CA certificate included; a certificate \
        that is one of the --ca roots is valid. Every --ca certificate is a trust anchor, \
        self-signed or not (as openssl verify -partial_chain). any searches paths of at most 8 \
        certificates and tries at most 64 candidate issuers, and rejects the name and \
        policy constraints extensions, which it does not process.\n\n\
        Exit status: 0 valid, 1 invalid, 2 any other error."
    )]
    VerifyCert {
        /// The trusted root certificate(s) (PEM)
        #[arg(long, value_name = "ROOT.pem")]
        ca: String,
        /// Intermediate certificates (PEM, any number in the file)
        #[arg(long, value_name = "INTERMEDIATES.pem")]
        untrusted: Option<String>,
        /// Validate at this time instead of now (YYYY-MM-DDTHH:MM:SSZ)
        #[arg(long, value_name = "RFC3339")]
        time: Option<String>,
        /// What the certificate must be good for: a TLS server or client certificate, or any
        /// certificate that chains to a root (see below)
        #[arg(
            long,
            value_name = "PURPOSE",
            default_value = "server",
            value_parser = ["server", "client", "any"]
        )]
        purpose: String,
        /// The certificate to validate (PEM or DER)
        #[arg(value_name = "CERT.pem")]
        cert: String,
    },
    /// Describe a key, certificate or certificate request
    Show {
        /// The file (PEM or DER)
        #[arg(short = 'i', value_name = "FILE", allow_hyphen_values = true)]
        input: String,
        /// Machine-readable output
        #[arg(long)]
        json: bool,
    },
    /// Convert a private key between PKCS#8 forms (ML-KEM, ML-DSA)
    Pkey {
        /// The private key (PEM or DER)
        #[arg(short = 'i', value_name = "KEY.pem", allow_hyphen_values = true)]
        input: String,
        /// The form to write (expanded to seed is impossible: an error)
        #[arg(
            long = "key-format",
            value_name = "FORMAT",
            value_parser = EnumValueParser::<KeyFormatName>::new().map(KeyFormat::from),
            required_unless_present = "check",
            requires = "out"
        )]
        format: Option<KeyFormat>,
        /// Write DER instead of PEM
        #[arg(long)]
        der: bool,
        /// Check the key instead: every import check, then a sign/verify or
        /// encapsulate/decapsulate round trip; prints `ok` (exit 0) or
        /// `invalid: <reason>` (exit 1)
        #[arg(long, conflicts_with_all = ["format", "der", "out"])]
        check: bool,
        /// The file to write
        #[arg(short = 'o', value_name = "OUT", allow_hyphen_values = true)]
        out: Option<String>,
    },
    /// Serve TLS 1.3 (pqkit-rustls): print what each connection negotiated
    TlsServer {
        /// The certificate chain, leaf first (PEM)
        #[arg(long, value_name = "CHAIN.pem")]
        cert: String,
        /// The leaf's private key (PKCS#8, PEM or DER; every ML-DSA form)
        #[arg(long, value_name = "KEY.pem")]
        key: String,
        /// The TCP port on 127.0.0.1
        #[arg(long, value_name = "N", default_value_t = 8443)]
        port: u16,
        /// Key exchange groups to accept, most preferred first (default:
        /// every group, post-quantum first)
        #[arg(long = "group", value_name = "GROUP")]
        groups: Vec<String>,
        /// Serve one connection, then exit (0 if its handshake succeeded)
        #[arg(long)]
        once: bool,
    },
    /// Connect with TLS 1.3 (pqkit-rustls) and print what was negotiated
    TlsClient {
        /// The server, HOST:PORT
        #[arg(value_name = "HOST:PORT")]
        addr: String,
        /// Trust these roots (PEM) instead of the Mozilla roots
        #[arg(long, value_name = "ROOT.pem")]
        ca: Option<String>,
        /// Key exchange groups to offer, most preferred first (the first
        /// gets the key share; default: every group, post-quantum first)
        #[arg(long = "group", value_name = "GROUP")]
        groups: Vec<String>,
        /// The name to verify (default: HOST)
        #[arg(long, value_name = "NAME")]
        server_name: Option<String>,
    },
    /// HPKE (RFC 9180, base and PSK modes) with post-quantum, hybrid and
    /// classical KEMs
    #[command(
        subcommand,
        after_help = "Exit status of open: 0 opened, 1 the ciphertext does not authenticate, 2 any other error."
    )]
    Hpke(HpkeOp),
    /// Tour every algorithm through the generic RustCrypto traits
    Demo,
    /// A quick ops/s table (every algorithm when none is named)
    Bench {
        /// The algorithms to measure
        #[arg(value_name = "ALG")]
        algs: Vec<String>,
    },
    /// Print a shell completion script to standard output
    Completions {
        /// The shell
        #[arg(value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
}

/// The HPKE operations. With a PEM key file the KEM is the key's
/// (ML-KEM-512/768/1024, X-Wing as MLKEM768-X25519, X25519 as
/// DHKEM(X25519, HKDF-SHA256)); with `--kem` the key files hold the raw
/// RFC 9180 serialization of any of the KEMs, as `hpke keygen` writes.
#[derive(Debug, Subcommand)]
pub enum HpkeOp {
    /// Make a key pair for an HPKE KEM: raw key bytes (RFC 9180
    /// `SerializePrivateKey` / `SerializePublicKey`)
    Keygen {
        /// The KEM
        #[arg(long, value_enum)]
        kem: HpkeKem,
        /// Derive the pair from this input keying material (hex:
        /// `DeriveKeyPair(ikm)`, `ikmR` of the test vectors) instead of the
        /// OS RNG
        #[arg(long, value_name = "HEX", value_parser = hex_bytes)]
        ikm: Option<HexBytes>,
        /// The private key file to write (`-`: standard output)
        #[arg(short = 'k', value_name = "KEY", allow_hyphen_values = true)]
        key: String,
        /// The public key file to write (`-`: standard output)
        #[arg(short = 'p', value_name = "PUB", allow_hyphen_values = true)]
        public: String,
    },
    /// Encrypt a file to a public key: writes `enc || ciphertext`
    Seal {
        /// The recipient's public (or private) key file
        #[arg(short = 'p', value_name = "PUB.pem", allow_hyphen_values = true)]
        public: String,
        /// The plaintext file (`-`: standard input)
        #[arg(short = 'i', value_name = "IN", allow_hyphen_values = true)]
        input: String,
        /// The output file (`-`: standard output)
        #[arg(short = 'o', value_name = "OUT", allow_hyphen_values = true)]
        out: String,
        #[command(flatten)]
        suite: HpkeSuiteArgs,
        /// The public key file holds this KEM's raw public key (as
        /// `hpke keygen -p` writes), not a PEM key
        #[arg(long, value_enum)]
        kem: Option<HpkeKem>,
        /// FOR TESTS ONLY: the encapsulation randomness (hex: `ikmE` of the
        /// test vectors; 32 bytes, 64 for X-Wing) instead of the OS RNG
        #[arg(long, value_name = "HEX", value_parser = hex_bytes)]
        seed: Option<HexBytes>,
    },
    /// Decrypt `enc || ciphertext` with a private key
    Open {
        /// The recipient's private key file
        #[arg(short = 'k', value_name = "KEY.pem", allow_hyphen_values = true)]
        key: String,
        /// The sealed file (`-`: standard input)
        #[arg(short = 'i', value_name = "IN", allow_hyphen_values = true)]
        input: String,
        /// The plaintext file to write (`-`: standard output)
        #[arg(short = 'o', value_name = "OUT", allow_hyphen_values = true)]
        out: String,
        #[command(flatten)]
        suite: HpkeSuiteArgs,
        /// The key file holds this KEM's raw private key (as `hpke keygen
        /// -k` writes), not a PEM key
        #[arg(long, value_enum)]
        kem: Option<HpkeKem>,
    },
}

/// The HPKE KEMs, by the names of draft-ietf-hpke-pq and RFC 9180.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HpkeKem {
    /// DHKEM(P-256, HKDF-SHA256) (0x0010)
    #[value(name = "p256", alias = "p-256")]
    P256,
    /// DHKEM(P-384, HKDF-SHA384) (0x0011)
    #[value(name = "p384", alias = "p-384")]
    P384,
    /// DHKEM(X25519, HKDF-SHA256) (0x0020)
    #[value(name = "x25519")]
    X25519,
    /// DHKEM(X448, HKDF-SHA512) (0x0021)
    #[value(name = "x448")]
    X448,
    /// ML-KEM-512 (0x0040)
    #[value(name = "ml-kem-512", alias = "mlkem512")]
    MlKem512,
    /// ML-KEM-768 (0x0041)
    #[value(name = "ml-kem-768", alias = "mlkem768")]
    MlKem768,
    /// ML-KEM-1024 (0x0042)
    #[value(name = "ml-kem-1024", alias = "mlkem1024")]
    MlKem1024,
    /// MLKEM768-P256 (0x0050)
    #[value(name = "mlkem768-p256")]
    MlKem768P256,
    /// MLKEM1024-P384 (0x0051)
    #[value(name = "mlkem1024-p384")]
    MlKem1024P384,
    /// MLKEM768-X25519, that is X-Wing (0x647a)
    #[value(name = "x-wing", alias = "mlkem768-x25519")]
    XWing,
}

/// The KDF, AEAD, info and associated data of an HPKE operation.
#[derive(Debug, Args)]
pub struct HpkeSuiteArgs {
    /// The key schedule's KDF
    #[arg(long, value_enum, default_value_t = HpkeKdf::HkdfSha256)]
    pub kdf: HpkeKdf,
    /// The AEAD
    #[arg(long, value_enum, default_value_t = HpkeAead::Aes128Gcm)]
    pub aead: HpkeAead,
    /// The `info` string (hex)
    #[arg(long, value_name = "HEX", value_parser = hex_bytes, default_value = "")]
    pub info: HexBytes,
    /// The associated data (hex)
    #[arg(long, value_name = "HEX", value_parser = hex_bytes, default_value = "")]
    pub aad: HexBytes,
    /// PSK mode: the pre-shared key (hex, at least 32 bytes; with
    /// --psk-id)
    #[arg(long, value_name = "HEX", value_parser = hex_bytes, requires = "psk_id")]
    pub psk: Option<HexBytes>,
    /// PSK mode: the pre-shared key's identifier (hex; with --psk)
    #[arg(long, value_name = "HEX", value_parser = hex_bytes, requires = "psk")]
    pub psk_id: Option<HexBytes>,
}

/// HPKE KDFs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HpkeKdf {
    /// HKDF-SHA256 (0x0001)
    HkdfSha256,
    /// HKDF-SHA384 (0x0002)
    HkdfSha384,
    /// HKDF-SHA512 (0x0003)
    HkdfSha512,
    /// SHAKE128, one-stage (0x0010)
    Shake128,
    /// SHAKE256, one-stage (0x0011)
    Shake256,
    /// TurboSHAKE128, one-stage (0x0012)
    Turboshake128,
    /// TurboSHAKE256, one-stage (0x0013)
    Turboshake256,
}

/// HPKE AEADs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HpkeAead {
    /// AES-128-GCM (0x0001)
    #[value(name = "aes-128-gcm")]
    Aes128Gcm,
    /// AES-256-GCM (0x0002)
    #[value(name = "aes-256-gcm")]
    Aes256Gcm,
    /// ChaCha20-Poly1305 (0x0003)
    #[value(name = "chacha20-poly1305")]
    ChaCha20Poly1305,
}

/// What a command line asks for.
#[derive(Debug)]
pub enum Parsed {
    /// Run a command.
    Run(Command),
    /// Print this help or version text to standard output and exit 0.
    Print(String),
}

/// The clap definition of `pqkit`, completed with what is computed from it:
/// the synopsis of every subcommand as the usage, and the notes after the
/// help.
pub fn command() -> clap::Command {
    let cmd = Cli::command();
    let synopsis = synopsis(&cmd);
    cmd.override_usage(synopsis).after_help(notes())
}

/// Parse a command line (program name first).
pub fn parse<I, T>(argv: I) -> Result<Parsed>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString>,
{
    let argv: Vec<OsString> = argv.into_iter().map(Into::into).collect();
    let mut cmd = command();
    let matches = match cmd.try_get_matches_from_mut(&argv) {
        Ok(m) => m,
        Err(e) => return clap_error(&cmd, &argv, &e),
    };
    match Cli::from_arg_matches(&matches) {
        Ok(cli) => Ok(Parsed::Run(cli.command)),
        Err(e) => clap_error(&cmd, &argv, &e),
    }
}

/// Help and version text for printing; any other clap error as one line.
fn clap_error(cmd: &clap::Command, argv: &[OsString], e: &clap::Error) -> Result<Parsed> {
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            Ok(Parsed::Print(e.render().to_string()))
        }
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            Err(CliError::new("no command given (see pqkit --help)"))
        }
        _ => {
            // clap's message is its first paragraph ("error: ..." and, for
            // some kinds, indented lines listing arguments or values); the
            // usage and tips that follow are left to --help.
            let rendered = e.render().to_string();
            let first = rendered.split("\n\n").next().unwrap_or_default();
            let lines: Vec<&str> = first
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            let msg = lines.join(" ");
            let msg = msg.strip_prefix("error: ").unwrap_or(&msg);
            // The subcommand being parsed, when the error is inside one.
            let sub = argv
                .get(1)
                .and_then(|a| a.to_str())
                .filter(|a| *a != "help")
                .and_then(|a| cmd.find_subcommand(a))
                .map(clap::Command::get_name);
            Err(CliError::new(match sub {
                Some(sub) => format!("{sub}: {msg} (see pqkit {sub} --help)"),
                None => format!("{msg} (see pqkit --help)"),
            }))
        }
    }
}

/// Value lists of at most this many names are spelled out in the synopsis
/// (`seed|expanded|both`); longer ones show the value name (`HASH`).
const SYNOPSIS_MAX_CHOICES: usize = 3;

/// One line per subcommand (`pqkit sign -k KEY.pem -i MSG -o SIG
/// [--context HEX] ...`), from the definitions of `cmd`.
fn synopsis(cmd: &clap::Command) -> String {
    let mut lines = Vec::new();
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let mut line = format!("{} {}", cmd.get_name(), sub.get_name());
        for arg in sub.get_arguments() {
            let action = arg.get_action();
            if arg.is_hide_set()
                || matches!(
                    action,
                    ArgAction::Help
                        | ArgAction::HelpShort
                        | ArgAction::HelpLong
                        | ArgAction::Version
                )
            {
                continue;
            }
            let choices = arg.get_possible_values();
            let value = if !choices.is_empty() && choices.len() <= SYNOPSIS_MAX_CHOICES {
                let names: Vec<&str> = choices.iter().map(PossibleValue::get_name).collect();
                names.join("|")
            } else {
                arg.get_value_names()
                    .and_then(|n| n.first())
                    .map_or_else(|| arg.get_id().to_string(), ToString::to_string)
            };
            let mut text = match (arg.get_short(), arg.get_long()) {
                (Some(s), _) => format!("-{s}"),
                (None, Some(l)) => format!("--{l}"),
                (None, None) => value.clone(),
            };
            if !arg.is_positional() && action.takes_values() {
                text = format!("{text} {value}");
            }
            if arg.is_positional() && matches!(action, ArgAction::Append) {
                text.push_str("...");
            }
            if !arg.is_required_set() {
                text = format!("[{text}]");
            }
            line.push(' ');
            line.push_str(&text);
        }
        lines.push(line);
    }
    // clap prints the usage after "Usage: "; later lines line up with it.
    lines.join("\n       ")
}

/// The notes after the top-level help.
fn notes() -> String {
    let hashes: Vec<&str> = Prehash::ALL.iter().map(|h| h.name()).collect();
    let (first, rest) = hashes.split_at(hashes.len() / 2);
    format!(
        "Key inputs may be PEM or DER. `-` as a file name means standard input/output.\n\
         HASH: {}\n      {}\n\
         verify exits 0 (valid), 1 (invalid signature) or 2 (error).",
        first.join(" "),
        rest.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<Parsed> {
        parse(std::iter::once("pqkit").chain(s.split_whitespace()))
    }

    fn run(s: &str) -> Result<Command> {
        match p(s)? {
            Parsed::Run(c) => Ok(c),
            Parsed::Print(t) => Err(CliError::new(format!("printed {t:?}"))),
        }
    }

    #[test]
    fn definitions_are_consistent() {
        command().debug_assert();
    }

    #[test]
    fn contract_shapes() {
        assert!(matches!(
            run("keygen ml-kem-768 --seed 00ff -o k.pem"),
            Ok(Command::Keygen { ref alg, seed: Some(ref s), format: KeyFormat::Seed, ref out })
                if alg == "ml-kem-768" && s == &[0, 255] && out == "k.pem"
        ));
        assert!(matches!(
            run("keygen ed25519 --key-format both -o k.pem"),
            Ok(Command::Keygen {
                format: KeyFormat::Both,
                ..
            })
        ));
        assert!(matches!(
            run("sign -k k -i m -o s --context 0102 --prehash sha2-512/256 --deterministic"),
            Ok(Command::Sign { ref opts, .. })
                if opts.deterministic && opts.prehash == Some(Prehash::Sha2_512_256)
                    && opts.context.as_deref() == Some(&[1, 2][..])
        ));
        assert!(matches!(
            run("verify -p k -i m -s s --strict --mu"),
            Ok(Command::Verify { ref opts, .. })
                if opts.scheme.ed25519.strict && opts.scheme.ml_dsa.mu
        ));
        assert!(matches!(
            run("encap -p k -o c --secret-out s"),
            Ok(Command::Encap { .. })
        ));
        assert!(matches!(
            run("decap -k k -i c -o s"),
            Ok(Command::Decap { .. })
        ));
        assert!(
            matches!(run("bench ed25519 ml-kem-512"), Ok(Command::Bench { ref algs }) if algs.len() == 2)
        );
        assert!(matches!(
            run("completions zsh"),
            Ok(Command::Completions {
                shell: clap_complete::Shell::Zsh
            })
        ));
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
            "completions",
            "completions tcsh",
        ] {
            match p(bad) {
                Err(CliError(msg)) => assert!(!msg.contains('\n'), "{bad:?}: {msg:?}"),
                Ok(r) => panic!("{bad:?} should be an error, not {r:?}"),
            }
        }
    }

    #[test]
    fn value_syntax() {
        assert!(matches!(
            run("keygen ml-dsa-44 --seed=00ff --key-format=expanded -o -"),
            Ok(Command::Keygen { seed: Some(ref s), format: KeyFormat::Expanded, ref out, .. })
                if s == &[0, 255] && out == "-"
        ));
        assert!(matches!(
            run("sign -k - -i -msg -o s --context="),
            Ok(Command::Sign { ref key, ref input, ref opts, .. })
                if key == "-" && input == "-msg" && opts.context.as_deref() == Some(&[][..])
        ));
        // Switches may be repeated, as before; value flags may not.
        assert!(matches!(
            run("verify -p k -i m -s s --strict --strict --falcon-original --falcon-original"),
            Ok(Command::Verify { ref opts, .. })
                if opts.scheme.ed25519.strict && opts.scheme.fn_dsa.falcon_original
        ));
        assert!(run("sign -k k -i m -o s --context 01 --context 02").is_err());
        assert!(run("verify -p k -i m -s s --mu=yes").is_err());
    }

    #[test]
    fn messages() {
        let msg = |s: &str| match p(s) {
            Err(CliError(m)) => m,
            Ok(r) => panic!("{s:?} should be an error, not {r:?}"),
        };
        assert_eq!(msg(""), "no command given (see pqkit --help)");
        assert!(msg("frobnicate").contains("'frobnicate'"));
        let m = msg("sign -k k -i m");
        assert!(m.starts_with("sign: ") && m.contains("-o <SIG>"), "{m}");
        let m = msg("keygen ml-kem-768 --seed zz -o k");
        assert!(
            m.starts_with("keygen: ") && m.contains("not valid hex"),
            "{m}"
        );
        let m = msg("decap -k k -i c -o s -o t");
        assert!(m.contains("cannot be used multiple times"), "{m}");
        let m = msg("verify -p k -i m -s s --prehash md5");
        assert!(m.contains("'md5'") && m.contains("sha2-512/256"), "{m}");
    }

    #[test]
    fn help_and_version() {
        for (args, want) in [
            (
                "--help",
                "pqkit verify -p PUB.pem -i MSG -s SIG [--context HEX]",
            ),
            (
                "-h",
                "pqkit keygen ALG [--seed HEX] [--key-format seed|expanded|both] -o KEY.pem",
            ),
            ("--help", "pqkit completions SHELL"),
            ("help", "HASH: sha2-224"),
            ("help sign", "--deterministic"),
            ("sign --help", "ML-DSA options"),
            ("verify --help", "Exit status: 0 valid"),
            ("--version", "pqkit 0.1.0"),
            ("-V", "pqkit 0.1.0"),
        ] {
            match p(args) {
                Ok(Parsed::Print(text)) => assert!(text.contains(want), "{args}: {text}"),
                r => panic!("{args}: {r:?}"),
            }
        }
    }
}
