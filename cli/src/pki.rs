//! Certificates and key forms: `req`, `cert`, `verify-cert`, `pkey`.
//!
//! ASN.1 and path validation come from well-kept libraries: `x509-cert`
//! builds the CSRs and certificates (its builder's `finalize` / `assemble`
//! split: pqkit signs the to-be-signed bytes through the scheme registry),
//! `rustls-webpki` validates chains with pqkit's algorithms (ML-DSA,
//! Ed25519, FN-DSA with its provisional OIDs, composite ML-DSA) beside
//! ring's (ECDSA, RSA) for the `server` and `client` purposes; `--purpose
//! any` (no end-entity or extended-key-usage rules, as `openssl verify`)
//! is `crate::chain`'s, with the same algorithms.

use std::str::FromStr;
use std::time::Duration;

use der::asn1::{BitString, Ia5String};
use der::{Decode, Encode};
use signature::Keypair;
use spki::{AlgorithmIdentifierOwned, DynSignatureAlgorithmIdentifier, EncodePublicKey};
use x509_cert::builder::profile::BuilderProfile;
use x509_cert::builder::{Builder, CertificateBuilder, RequestBuilder};
use x509_cert::certificate::TbsCertificate;
use x509_cert::ext::pkix::name::{GeneralName, GeneralNames};
use x509_cert::ext::pkix::{
    AuthorityKeyIdentifier, BasicConstraints, KeyUsage, KeyUsages, SubjectAltName,
    SubjectKeyIdentifier,
};
use x509_cert::ext::{Extension, ToExtension};
use x509_cert::name::Name;
use x509_cert::request::CertReq;
use x509_cert::serial_number::SerialNumber;
use x509_cert::spki::{SubjectPublicKeyInfoOwned, SubjectPublicKeyInfoRef};
use x509_cert::time::Validity;

use pqkit_rustls::rustls::pki_types as rustls_pki_types;

use crate::args::{KeyFormat, SignOptions, VerifyOptions};
use crate::io::{self, KeyFile, KeyKind};
use crate::schemes::{self, SignatureScheme};
use crate::{CliError, Result};

fn err(what: &str) -> impl Fn(der::Error) -> CliError + '_ {
    move |e| CliError::new(format!("{what}: {e}"))
}

/// A key file's signature scheme, or an error naming what it is.
fn signature_scheme(key: &KeyFile, what: &str) -> Result<&'static dyn SignatureScheme> {
    let scheme = schemes::for_key(key)?;
    scheme.as_signature().ok_or_else(|| {
        CliError::new(format!(
            "{what}: {} keys cannot sign (a KEM key is certified with `cert --pubkey`)",
            scheme.name()
        ))
    })
}

/// The signer `x509-cert`'s builder sees: the algorithm identifier (the
/// key's OID, parameters absent, as RFC 9881 / RFC 8410 require) and the
/// public key; the signature itself is made by the scheme.
struct CliSigner {
    alg: AlgorithmIdentifierOwned,
    spki: Vec<u8>,
}

/// A public key already in SPKI DER.
#[derive(Clone)]
struct SpkiDer(Vec<u8>);

impl EncodePublicKey for SpkiDer {
    fn to_public_key_der(&self) -> spki::Result<der::Document> {
        Ok(der::Document::try_from(self.0.as_slice())?)
    }
}

impl Keypair for CliSigner {
    type VerifyingKey = SpkiDer;
    fn verifying_key(&self) -> SpkiDer {
        SpkiDer(self.spki.clone())
    }
}

impl DynSignatureAlgorithmIdentifier for CliSigner {
    fn signature_algorithm_identifier(&self) -> spki::Result<AlgorithmIdentifierOwned> {
        Ok(self.alg.clone())
    }
}

/// A private key ready to sign certificates and requests.
struct KeySigner {
    key: KeyFile,
    scheme: &'static dyn SignatureScheme,
    signer: CliSigner,
}

impl KeySigner {
    fn load(path: &str) -> Result<Self> {
        let key = io::read_key(path)?;
        if key.kind != KeyKind::Private {
            return Err(CliError::new(format!(
                "{path}: a private key (PKCS#8) is needed to sign"
            )));
        }
        let scheme = signature_scheme(&key, path)?;
        let spki = scheme.public_key_der(&key)?;
        let signer = CliSigner {
            alg: AlgorithmIdentifierOwned {
                oid: key.oid,
                parameters: None,
            },
            spki,
        };
        Ok(Self {
            key,
            scheme,
            signer,
        })
    }

    /// Sign `tbs` (pure signature, empty context, hedged where the scheme
    /// signs hedged).
    fn sign(&self, tbs: &[u8]) -> Result<BitString> {
        let sig = self
            .scheme
            .sign(&self.key, &io::Message::Bytes(tbs), &SignOptions::default())?;
        BitString::from_bytes(&sig).map_err(err("signature"))
    }

    fn spki(&self) -> Result<SubjectPublicKeyInfoOwned> {
        SubjectPublicKeyInfoOwned::from_der(&self.signer.spki).map_err(err("public key"))
    }
}

/// `--subject` as an RFC 4514 string.
fn parse_name(s: &str) -> Result<Name> {
    Name::from_str(s).map_err(|e| CliError::new(format!("--subject '{s}': {e}")))
}

/// `--san TYPE:VALUE` (DNS, IP, email, URI).
fn parse_sans(sans: &[String]) -> Result<Option<SubjectAltName>> {
    if sans.is_empty() {
        return Ok(None);
    }
    let mut names: GeneralNames = Vec::new();
    for s in sans {
        let (kind, value) = s.split_once(':').ok_or_else(|| {
            CliError::new(format!(
                "--san '{s}': expected TYPE:VALUE (DNS:, IP:, email:, URI:)"
            ))
        })?;
        let bad = |e: der::Error| CliError::new(format!("--san '{s}': {e}"));
        names.push(match kind.to_ascii_lowercase().as_str() {
            "dns" => GeneralName::DnsName(Ia5String::new(value).map_err(bad)?),
            "email" => GeneralName::Rfc822Name(Ia5String::new(value).map_err(bad)?),
            "uri" => GeneralName::UniformResourceIdentifier(Ia5String::new(value).map_err(bad)?),
            "ip" => {
                let ip: std::net::IpAddr = value
                    .parse()
                    .map_err(|e| CliError::new(format!("--san '{s}': {e}")))?;
                let bytes = match ip {
                    std::net::IpAddr::V4(v) => v.octets().to_vec(),
                    std::net::IpAddr::V6(v) => v.octets().to_vec(),
                };
                GeneralName::IpAddress(der::asn1::OctetString::new(bytes).map_err(bad)?)
            }
            other => {
                return Err(CliError::new(format!(
                    "--san '{s}': unknown type '{other}' (DNS, IP, email, URI)"
                )));
            }
        });
    }
    Ok(Some(SubjectAltName(names)))
}

/// `pqkit req`: a PKCS#10 request signed by a signature key.
pub fn req(key: &str, subject: &str, sans: &[String], out: &str) -> Result<u8> {
    let signer = KeySigner::load(key)?;
    let mut builder =
        RequestBuilder::new(parse_name(subject)?).map_err(|e| CliError::new(e.to_string()))?;
    if let Some(san) = parse_sans(sans)? {
        builder
            .add_extension(&san)
            .map_err(|e| CliError::new(format!("--san: {e}")))?;
    }
    let tbs = builder
        .finalize(&signer.signer)
        .map_err(|e| CliError::new(e.to_string()))?;
    let sig = signer.sign(&tbs)?;
    let csr = builder
        .assemble(sig, &signer.signer)
        .map_err(|e| CliError::new(e.to_string()))?;
    let der = csr.to_der().map_err(err("request"))?;
    io::write_outputs(&[(out, io::pem("CERTIFICATE REQUEST", &der)?.as_bytes())])?;
    Ok(0)
}

/// What `cert` issues.
pub struct CertRequest<'a> {
    /// The issuer's private key.
    pub key: &'a str,
    /// Self-signed (the key's own public key).
    pub self_signed: bool,
    /// A CSR for the subject key (its signature is checked).
    pub csr: Option<&'a str>,
    /// A public key file for the subject key (e.g. an ML-KEM key).
    pub pubkey: Option<&'a str>,
    /// The issuer's certificate (absent: self-signed).
    pub ca_cert: Option<&'a str>,
    /// The subject name (RFC 4514); from the CSR when absent.
    pub subject: Option<&'a str>,
    /// Subject alternative names.
    pub sans: &'a [String],
    /// Days of validity from now.
    pub days: u32,
    /// A CA certificate.
    pub ca: bool,
    /// Its path length constraint.
    pub path_len: Option<u8>,
    /// Output.
    pub out: &'a str,
}

/// The extensions of an issued certificate.
struct Profile {
    issuer: Name,
    subject: Name,
    ca: bool,
    path_len: Option<u8>,
    /// The subject key is a KEM key: keyEncipherment only (RFC 9935).
    kem: bool,
    san: Option<SubjectAltName>,
    issuer_spki: Vec<u8>,
}

impl BuilderProfile for Profile {
    fn get_issuer(&self, _subject: &Name) -> Name {
        self.issuer.clone()
    }

    fn get_subject(&self) -> Name {
        self.subject.clone()
    }

    fn build_extensions(
        &self,
        spk: SubjectPublicKeyInfoRef<'_>,
        _issuer_spk: SubjectPublicKeyInfoRef<'_>,
        tbs: &TbsCertificate,
    ) -> x509_cert::builder::Result<Vec<Extension>> {
        let mut ext = Vec::new();
        let subject = tbs.subject();
        ext.push(
            BasicConstraints {
                ca: self.ca,
                path_len_constraint: if self.ca { self.path_len } else { None },
            }
            .to_extension(subject, &ext)?,
        );
        let usage = if self.ca {
            KeyUsages::KeyCertSign | KeyUsages::CRLSign | KeyUsages::DigitalSignature
        } else if self.kem {
            KeyUsages::KeyEncipherment.into()
        } else {
            KeyUsages::DigitalSignature.into()
        };
        ext.push(KeyUsage(usage).to_extension(subject, &ext)?);
        let ski = SubjectKeyIdentifier::try_from(spk)?;
        ext.push(ski.to_extension(subject, &ext)?);
        let issuer_spki = SubjectPublicKeyInfoRef::from_der(&self.issuer_spki)?;
        let aki = AuthorityKeyIdentifier {
            key_identifier: Some(SubjectKeyIdentifier::try_from(issuer_spki)?.0),
            ..Default::default()
        };
        ext.push(aki.to_extension(subject, &ext)?);
        if let Some(san) = &self.san {
            ext.push(san.to_extension(subject, &ext)?);
        }
        Ok(ext)
    }
}

/// Read one PEM (or DER) object with the given label.
fn read_pem_der(path: &str, label: &str) -> Result<Vec<u8>> {
    match io::read_pem_or_der(path)? {
        (Some(l), _) if l != label => Err(CliError::new(format!(
            "{path}: PEM label '{l}', expected '{label}'"
        ))),
        (_, der) => Ok(der.to_vec()),
    }
}

/// Every CERTIFICATE in a PEM file (or one DER certificate).
pub(crate) fn read_certs(path: &str) -> Result<Vec<Vec<u8>>> {
    let raw = io::read_input(path)?;
    let text_start = raw
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(raw.len());
    if !raw[text_start..].starts_with(b"-----BEGIN ") {
        return Ok(vec![raw]);
    }
    let text =
        std::str::from_utf8(&raw).map_err(|_| CliError::new(format!("{path}: not PEM text")))?;
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(begin) = rest.find("-----BEGIN ") {
        let block = &rest[begin..];
        let end_marker = block
            .find("-----END ")
            .and_then(|e| {
                block[e..]
                    .find('\n')
                    .map(|n| e + n + 1)
                    .or(Some(block.len()))
            })
            .ok_or_else(|| CliError::new(format!("{path}: malformed PEM (no END line)")))?;
        let (label, der) = der::pem::decode_vec(&block.as_bytes()[..end_marker])
            .map_err(|e| CliError::new(format!("{path}: malformed PEM: {e}")))?;
        if label != "CERTIFICATE" {
            return Err(CliError::new(format!(
                "{path}: PEM label '{label}', expected 'CERTIFICATE'"
            )));
        }
        out.push(der);
        rest = &block[end_marker..];
    }
    if out.is_empty() {
        return Err(CliError::new(format!("{path}: no CERTIFICATE in the file")));
    }
    Ok(out)
}

/// Check a CSR's own signature with the scheme of its public key.
fn check_csr(path: &str, csr: &CertReq) -> Result<()> {
    let spki = csr.info.public_key.to_der().map_err(err(path))?;
    let key = KeyFile {
        der: zeroize::Zeroizing::new(spki),
        kind: KeyKind::Public,
        oid: csr.info.public_key.algorithm.oid,
    };
    if csr.algorithm.oid != key.oid || csr.algorithm.parameters.is_some() {
        return Err(CliError::new(format!(
            "{path}: the request's signature algorithm {} does not match its key ({})",
            csr.algorithm.oid, key.oid
        )));
    }
    let scheme = signature_scheme(&key, path)?;
    let tbs = csr.info.to_der().map_err(err(path))?;
    let sig = csr
        .signature
        .as_bytes()
        .ok_or_else(|| CliError::new(format!("{path}: malformed signature")))?;
    if scheme.verify(
        &key,
        &io::Message::Bytes(&tbs),
        sig,
        &VerifyOptions::default(),
    )? {
        Ok(())
    } else {
        Err(CliError::new(format!(
            "{path}: the request's signature is invalid"
        )))
    }
}

/// The subject alternative names a CSR asks for (its extensionRequest
/// attribute), if any.
fn csr_sans(path: &str, csr: &CertReq) -> Result<Option<SubjectAltName>> {
    use der::oid::AssociatedOid;
    use x509_cert::request::ExtensionReq;
    for attr in csr
        .info
        .attributes
        .iter()
        .filter(|a| a.oid == ExtensionReq::OID)
    {
        for value in attr.values.iter() {
            let req =
                ExtensionReq::from_der(&value.to_der().map_err(err(path))?).map_err(err(path))?;
            if let Some(ext) = req.0.iter().find(|e| e.extn_id == SubjectAltName::OID) {
                return SubjectAltName::from_der(ext.extn_value.as_bytes())
                    .map(Some)
                    .map_err(err(path));
            }
        }
    }
    Ok(None)
}

/// A random positive serial number (RFC 5280: at most 20 octets).
fn serial() -> Result<SerialNumber> {
    let mut b = [0u8; 16];
    getrandom::fill(&mut b).map_err(|e| CliError::new(format!("OS randomness: {e}")))?;
    b[0] = (b[0] & 0x7f) | 0x01;
    SerialNumber::new(&b).map_err(|e| CliError::new(e.to_string()))
}

/// `pqkit cert`.
pub fn cert(r: &CertRequest<'_>) -> Result<u8> {
    let issuer_key = KeySigner::load(r.key)?;
    let sources =
        usize::from(r.self_signed) + usize::from(r.csr.is_some()) + usize::from(r.pubkey.is_some());
    if sources != 1 {
        return Err(CliError::new(
            "give exactly one of --self-signed, --csr, --pubkey",
        ));
    }
    // The subject key and name (and a CSR's requested names).
    let mut requested_sans = None;
    let (spki, csr_subject, kem) = if r.self_signed {
        (issuer_key.spki()?, None, false)
    } else if let Some(path) = r.csr {
        let csr =
            CertReq::from_der(&read_pem_der(path, "CERTIFICATE REQUEST")?).map_err(err(path))?;
        check_csr(path, &csr)?;
        requested_sans = csr_sans(path, &csr)?;
        (
            csr.info.public_key.clone(),
            Some(csr.info.subject.clone()),
            false,
        )
    } else {
        let path = r.pubkey.unwrap_or_default();
        let key = io::read_key(path)?;
        let scheme = schemes::for_key(&key)?;
        let spki_der = scheme.public_key_der(&key)?;
        let spki = SubjectPublicKeyInfoOwned::from_der(&spki_der).map_err(err(path))?;
        (spki, None, scheme.as_kem().is_some())
    };
    if kem && r.ca {
        return Err(CliError::new("a KEM key cannot be a CA (it cannot sign)"));
    }
    let subject = match (r.subject, csr_subject) {
        (Some(s), _) => parse_name(s)?,
        (None, Some(n)) => n,
        (None, None) => return Err(CliError::new("--subject is required")),
    };
    // The issuer name: the CA certificate's subject (whose key must be the
    // signing key), or the subject itself.
    let issuer = match r.ca_cert {
        Some(path) => {
            let der = read_pem_der(path, "CERTIFICATE")?;
            let ca = x509_cert::Certificate::from_der(&der).map_err(err(path))?;
            let ca_spki = ca
                .tbs_certificate()
                .subject_public_key_info()
                .to_der()
                .map_err(err(path))?;
            if ca_spki != issuer_key.signer.spki {
                return Err(CliError::new(format!(
                    "{path}: its public key is not the one of {}",
                    r.key
                )));
            }
            ca.tbs_certificate().subject().clone()
        }
        None if r.self_signed => subject.clone(),
        None => return Err(CliError::new("--ca-cert is required unless --self-signed")),
    };
    let days = u64::from(r.days.max(1));
    let validity =
        Validity::from_now(Duration::from_secs(days * 86_400)).map_err(err("validity"))?;
    let profile = Profile {
        issuer,
        subject,
        ca: r.ca,
        path_len: r.path_len,
        kem,
        // --san replaces the names the CSR asks for.
        san: parse_sans(r.sans)?.or(requested_sans),
        issuer_spki: issuer_key.signer.spki.clone(),
    };
    let mut builder = CertificateBuilder::new(profile, serial()?, validity, spki)
        .map_err(|e| CliError::new(e.to_string()))?;
    let tbs = builder
        .finalize(&issuer_key.signer)
        .map_err(|e| CliError::new(e.to_string()))?;
    let sig = issuer_key.sign(&tbs)?;
    let cert = builder
        .assemble(sig, &issuer_key.signer)
        .map_err(|e| CliError::new(e.to_string()))?;
    let der = cert.to_der().map_err(err("certificate"))?;
    io::write_outputs(&[(r.out, io::pem("CERTIFICATE", &der)?.as_bytes())])?;
    Ok(0)
}

/// FN-DSA for rustls-webpki (provisional OQS OIDs; pure FN-DSA, empty
/// context, the padded signature layout `pqkit sign` writes).
#[derive(Debug)]
struct FnDsaVerify<P: pqkit_fn_dsa::ParameterSet>(
    rustls_pki_types::AlgorithmIdentifier,
    core::marker::PhantomData<P>,
);

impl<P: pqkit_fn_dsa::ParameterSet> rustls_pki_types::SignatureVerificationAlgorithm
    for FnDsaVerify<P>
{
    fn verify_signature(
        &self,
        public_key: &[u8],
        message: &[u8],
        signature: &[u8],
    ) -> std::result::Result<(), rustls_pki_types::InvalidSignature> {
        use pqkit_fn_dsa::{Message, SigFormat, VerifyingKey};
        let vk = VerifyingKey::<P>::from_bytes(public_key)
            .map_err(|_| rustls_pki_types::InvalidSignature)?;
        vk.verify_bytes(
            &Message::Raw {
                ctx: &[],
                msg: message,
            },
            signature,
            SigFormat::Padded,
        )
        .map_err(|_| rustls_pki_types::InvalidSignature)
    }
    fn public_key_alg_id(&self) -> rustls_pki_types::AlgorithmIdentifier {
        self.0
    }
    fn signature_alg_id(&self) -> rustls_pki_types::AlgorithmIdentifier {
        self.0
    }
}

/// The contents of an AlgorithmIdentifier with just an OID (DER of the
/// OID, no outer SEQUENCE), as rustls-pki-types wants it.
const FN_DSA_512_ALG: &[u8] = &[0x06, 0x05, 0x2b, 0xce, 0x0f, 0x03, 0x0b];
const FN_DSA_1024_ALG: &[u8] = &[0x06, 0x05, 0x2b, 0xce, 0x0f, 0x03, 0x0e];

static FN_DSA_512: FnDsaVerify<pqkit_fn_dsa::FnDsa512> = FnDsaVerify(
    rustls_pki_types::AlgorithmIdentifier::from_slice(FN_DSA_512_ALG),
    core::marker::PhantomData,
);
static FN_DSA_1024: FnDsaVerify<pqkit_fn_dsa::FnDsa1024> = FnDsaVerify(
    rustls_pki_types::AlgorithmIdentifier::from_slice(FN_DSA_1024_ALG),
    core::marker::PhantomData,
);

/// The signature algorithms certificate chains are checked with:
/// pqkit-rustls's set (ML-DSA, Ed25519, ring's ECDSA and RSA), FN-DSA and
/// every composite ML-DSA combination.
fn chain_sig_algs() -> Vec<&'static dyn rustls_pki_types::SignatureVerificationAlgorithm> {
    let mut algs: Vec<&dyn rustls_pki_types::SignatureVerificationAlgorithm> =
        pqkit_rustls::verify::SUPPORTED_SIG_ALGS.all.to_vec();
    algs.push(&FN_DSA_512);
    algs.push(&FN_DSA_1024);
    algs.extend(schemes::composite::chain_algorithms());
    algs
}

/// `--time` (or now) as seconds since the Unix epoch.
fn validation_time(time: Option<&str>) -> Result<u64> {
    match time {
        Some(t) => parse_rfc3339(t),
        None => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .map_err(|e| CliError::new(format!("system clock: {e}"))),
    }
}

/// Print the verdict: `valid` (0) or `invalid: <reason>` (1).
fn verdict(result: std::result::Result<(), String>) -> u8 {
    match result {
        Ok(()) => {
            println!("valid");
            0
        }
        Err(reason) => {
            println!("invalid: {reason}");
            1
        }
    }
}

/// `pqkit verify-cert`: 0 valid, 1 invalid (with the reason), 2 error.
///
/// `server` and `client` are rustls-webpki's end-entity validation for
/// TLS; `any` is [`crate::chain`]'s, the semantics of `openssl verify`
/// without `-purpose`.
pub fn verify_cert(
    ca: &str,
    untrusted: Option<&str>,
    time: Option<&str>,
    cert: &str,
    purpose: &str,
) -> Result<u8> {
    let usage = match purpose {
        "server" => Some(webpki::KeyUsage::server_auth()),
        "client" => Some(webpki::KeyUsage::client_auth()),
        "any" => None,
        other => {
            return Err(CliError::new(format!(
                "--purpose '{other}': server, client or any"
            )));
        }
    };
    match usage {
        Some(usage) => verify_cert_webpki(ca, untrusted, time, cert, usage),
        None => verify_cert_any(ca, untrusted, time, cert),
    }
}

/// Every certificate of a file, parsed for [`crate::chain`]; one that does
/// not parse is an error.
fn read_chain_certs(path: &str) -> Result<Vec<crate::chain::Cert>> {
    read_certs(path)?
        .iter()
        .enumerate()
        .map(|(i, der)| {
            crate::chain::Cert::parse(der)
                .map_err(|e| CliError::new(format!("{path}: certificate {}: {e}", i + 1)))
        })
        .collect()
}

/// `verify-cert --purpose any`.
fn verify_cert_any(
    ca: &str,
    untrusted: Option<&str>,
    time: Option<&str>,
    cert: &str,
) -> Result<u8> {
    let roots = read_chain_certs(ca)?;
    let intermediates = match untrusted {
        Some(p) => read_chain_certs(p)?,
        None => Vec::new(),
    };
    let leaf = read_certs(cert)?;
    let now = validation_time(time)?;
    let result = crate::chain::Cert::parse(&leaf[0]).and_then(|leaf| {
        crate::chain::verify(&leaf, &roots, &intermediates, now, &chain_sig_algs())
    });
    Ok(verdict(result.map(|_| ()).map_err(|e| e.to_string())))
}

/// `verify-cert --purpose server|client`: rustls-webpki's rules.
fn verify_cert_webpki(
    ca: &str,
    untrusted: Option<&str>,
    time: Option<&str>,
    cert: &str,
    usage: webpki::KeyUsage,
) -> Result<u8> {
    use rustls_pki_types::{CertificateDer, UnixTime};
    let roots = read_certs(ca)?;
    let anchors = roots
        .iter()
        .map(|r| {
            webpki::anchor_from_trusted_cert(&CertificateDer::from(r.as_slice()))
                .map(|a| a.to_owned())
                .map_err(|e| CliError::new(format!("{ca}: not a usable trust anchor: {e:?}")))
        })
        .collect::<Result<Vec<_>>>()?;
    let intermediates: Vec<CertificateDer<'static>> = match untrusted {
        Some(p) => read_certs(p)?
            .into_iter()
            .map(CertificateDer::from)
            .collect(),
        None => Vec::new(),
    };
    let leaf = read_certs(cert)?;
    let leaf_der = CertificateDer::from(leaf[0].as_slice());
    let ee = match webpki::EndEntityCert::try_from(&leaf_der) {
        Ok(ee) => ee,
        Err(e) => return Ok(verdict(Err(format!("{e:?}")))),
    };
    let now = match time {
        Some(t) => UnixTime::since_unix_epoch(Duration::from_secs(parse_rfc3339(t)?)),
        None => UnixTime::now(),
    };
    let result = ee
        .verify_for_usage(
            &chain_sig_algs(),
            &anchors,
            &intermediates,
            now,
            usage,
            None,
            None,
        )
        .map(|_| ())
        .map_err(|e| format!("{e:?}"));
    Ok(verdict(result))
}

/// `YYYY-MM-DDTHH:MM:SSZ` (RFC 3339, UTC) as seconds since the epoch.
fn parse_rfc3339(s: &str) -> Result<u64> {
    let bad = || CliError::new(format!("--time '{s}': expected YYYY-MM-DDTHH:MM:SSZ"));
    let b = s.as_bytes();
    if b.len() != 20
        || b[4] != b'-'
        || b[7] != b'-'
        || !matches!(b[10], b'T' | b't')
        || b[13] != b':'
        || b[16] != b':'
        || !matches!(b[19], b'Z' | b'z')
    {
        return Err(bad());
    }
    let num = |r: std::ops::Range<usize>| s[r].parse::<u16>().map_err(|_| bad());
    let dt = der::DateTime::new(
        num(0..4)?,
        num(5..7)? as u8,
        num(8..10)? as u8,
        num(11..13)? as u8,
        num(14..16)? as u8,
        num(17..19)? as u8,
    )
    .map_err(|e| CliError::new(format!("--time '{s}': {e}")))?;
    Ok(dt.unix_duration().as_secs())
}

/// `pqkit pkey --check`: the key's import checks (loading it runs them),
/// then a round trip with its own public key. `ok` (0), `invalid:
/// <reason>` (1); a file that is not a private key of a known algorithm is
/// an error (2).
pub fn pkey_check(input: &str) -> Result<u8> {
    let key = io::read_key(input)?;
    if key.kind != KeyKind::Private {
        return Err(CliError::new(format!(
            "{input}: a private key (PKCS#8) is needed"
        )));
    }
    let scheme = schemes::for_key(&key)?;
    if !scheme.loads_private_keys() {
        // Not a property of the key: the CLI does not load such keys.
        return Err(CliError::new(format!(
            "{}: verify-only algorithm: its private keys are not loaded",
            scheme.name()
        )));
    }
    match round_trip(scheme, &key) {
        Ok(()) => {
            println!("ok");
            Ok(0)
        }
        Err(e) => {
            println!("invalid: {}", e.0);
            Ok(1)
        }
    }
}

/// Load the key (its import checks), derive its public key, and sign and
/// verify, or encapsulate and decapsulate, once.
pub(crate) fn round_trip(scheme: &'static dyn schemes::Scheme, key: &KeyFile) -> Result<()> {
    let spki = scheme.public_key_der(key)?;
    let public = KeyFile {
        der: zeroize::Zeroizing::new(spki),
        kind: KeyKind::Public,
        oid: key.oid,
    };
    if let Some(sig) = scheme.as_signature() {
        let msg = b"pqkit pkey --check";
        let s = sig.sign(key, &io::Message::Bytes(msg), &SignOptions::default())?;
        if !sig.verify(
            &public,
            &io::Message::Bytes(msg),
            &s,
            &VerifyOptions::default(),
        )? {
            return Err(CliError::new(format!(
                "{}: its signature does not verify under its public key",
                scheme.name()
            )));
        }
    } else if let Some(kem) = scheme.as_kem() {
        let (ct, ss) = kem.encap(&public, None)?;
        let back = kem.decap(key, &ct)?;
        if !bool::from(subtle::ConstantTimeEq::ct_eq(
            ss.as_slice(),
            back.as_slice(),
        )) {
            return Err(CliError::new(format!(
                "{}: decapsulation does not recover the encapsulated secret",
                scheme.name()
            )));
        }
    }
    Ok(())
}

/// `pqkit pkey`: re-encode a private key in another PKCS#8 form.
pub fn pkey(input: &str, format: KeyFormat, der_out: bool, out: &str) -> Result<u8> {
    let key = io::read_key(input)?;
    if key.kind != KeyKind::Private {
        return Err(CliError::new(format!(
            "{input}: a private key (PKCS#8) is needed"
        )));
    }
    let scheme = schemes::for_key(&key)?;
    let der = scheme.convert(&key, format)?;
    if der_out {
        io::write_outputs(&[(out, &der)])?;
    } else {
        io::write_outputs(&[(out, io::pem("PRIVATE KEY", &der)?.as_bytes())])?;
    }
    Ok(0)
}

/// What `show` found, as ordered `name: value` fields.
struct Shown {
    kind: &'static str,
    fields: Vec<(String, serde_json::Value)>,
}

impl Shown {
    fn new(kind: &'static str) -> Self {
        Self {
            kind,
            fields: Vec::new(),
        }
    }
    fn add(&mut self, name: &str, value: impl Into<serde_json::Value>) {
        self.fields.push((name.to_string(), value.into()));
    }
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(bytes))
}

/// A scheme's name for an OID, or the OID itself.
fn alg_name(oid: &der::asn1::ObjectIdentifier) -> String {
    schemes::all()
        .iter()
        .find(|s| s.oid() == *oid)
        .map_or_else(|| oid.to_string(), |s| s.name().to_string())
}

/// Known extension names.
fn ext_name(oid: &der::asn1::ObjectIdentifier) -> String {
    let name = match oid.to_string().as_str() {
        "2.5.29.19" => "basicConstraints",
        "2.5.29.15" => "keyUsage",
        "2.5.29.37" => "extKeyUsage",
        "2.5.29.17" => "subjectAltName",
        "2.5.29.14" => "subjectKeyIdentifier",
        "2.5.29.35" => "authorityKeyIdentifier",
        "2.5.29.30" => "nameConstraints",
        "2.5.29.32" => "certificatePolicies",
        "2.5.29.31" => "cRLDistributionPoints",
        "1.3.6.1.5.5.7.1.1" => "authorityInfoAccess",
        other => return other.to_string(),
    };
    name.to_string()
}

/// A general name as `TYPE:VALUE` (the `--san` syntax).
fn general_name(n: &GeneralName) -> String {
    match n {
        GeneralName::DnsName(d) => format!("DNS:{d}"),
        GeneralName::Rfc822Name(e) => format!("email:{e}"),
        GeneralName::UniformResourceIdentifier(u) => format!("URI:{u}"),
        GeneralName::IpAddress(ip) => match ip.as_bytes().len() {
            4 => {
                let b: [u8; 4] = ip.as_bytes().try_into().unwrap_or_default();
                format!("IP:{}", std::net::Ipv4Addr::from(b))
            }
            16 => {
                let b: [u8; 16] = ip.as_bytes().try_into().unwrap_or_default();
                format!("IP:{}", std::net::Ipv6Addr::from(b))
            }
            _ => format!("IP:{}", hex::encode(ip.as_bytes())),
        },
        other => format!("{other:?}"),
    }
}

fn show_spki(s: &mut Shown, spki: &SubjectPublicKeyInfoOwned) -> Result<()> {
    let der = spki.to_der().map_err(err("public key"))?;
    s.add("public key algorithm", alg_name(&spki.algorithm.oid));
    s.add("public key OID", spki.algorithm.oid.to_string());
    s.add(
        "public key bytes",
        spki.subject_public_key.raw_bytes().len(),
    );
    s.add("SPKI SHA-256", sha256_hex(&der));
    Ok(())
}

fn show_key(s: &mut Shown, key: &KeyFile) -> Result<()> {
    let scheme = schemes::for_key(key).ok();
    s.add(
        "algorithm",
        scheme.map_or_else(|| key.oid.to_string(), |sc| sc.name().to_string()),
    );
    s.add("OID", key.oid.to_string());
    s.add("encoding bytes", key.der.len());
    if key.kind == KeyKind::Private {
        let info = pkcs8::PrivateKeyInfoRef::from_der(&key.der).map_err(err("private key"))?;
        let body = info.private_key.as_bytes();
        let generic = || match pqkit_pkix::keychoice::decode(body) {
            Ok(pqkit_pkix::keychoice::KeyChoice::Seed(b)) => format!("seed ({} bytes)", b.len()),
            Ok(pqkit_pkix::keychoice::KeyChoice::Expanded(b)) => {
                format!("expandedKey ({} bytes)", b.len())
            }
            Ok(pqkit_pkix::keychoice::KeyChoice::Both { seed, expanded }) => {
                format!(
                    "both (seed {} bytes, expandedKey {} bytes)",
                    seed.len(),
                    expanded.len()
                )
            }
            Err(_) => format!("single form ({} bytes)", body.len()),
        };
        let form = scheme
            .and_then(|sc| sc.private_key_form(key))
            .unwrap_or_else(generic);
        s.add("private key form", form);
    }
    match scheme {
        Some(sc) if key.kind == KeyKind::Private && !sc.loads_private_keys() => {
            s.add("public key", "not derived (verify-only algorithm)");
        }
        Some(sc) => {
            let spki = SubjectPublicKeyInfoOwned::from_der(&sc.public_key_der(key)?)
                .map_err(err("public key"))?;
            show_spki(s, &spki)?;
        }
        None => {}
    }
    Ok(())
}

fn show_cert(s: &mut Shown, der: &[u8]) -> Result<()> {
    let cert = x509_cert::Certificate::from_der(der).map_err(err("certificate"))?;
    let tbs = cert.tbs_certificate();
    s.add("subject", tbs.subject().to_string());
    s.add("issuer", tbs.issuer().to_string());
    s.add("serial", hex::encode(tbs.serial_number().as_bytes()));
    s.add("not before", tbs.validity().not_before.to_string());
    s.add("not after", tbs.validity().not_after.to_string());
    s.add(
        "signature algorithm",
        alg_name(&cert.signature_algorithm().oid),
    );
    show_spki(s, tbs.subject_public_key_info())?;
    let exts: Vec<String> = tbs
        .extensions()
        .map(|e| {
            e.iter()
                .map(|x| {
                    format!(
                        "{}{}",
                        ext_name(&x.extn_id),
                        if x.critical { " (critical)" } else { "" }
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    s.add("extensions", exts);
    if let Ok(Some(san)) = tbs.get_extension::<SubjectAltName>() {
        s.add(
            "subjectAltName",
            san.1.0.iter().map(general_name).collect::<Vec<_>>(),
        );
    }
    if let Ok(Some(bc)) = tbs.get_extension::<BasicConstraints>() {
        s.add("CA", bc.1.ca);
    }
    s.add("certificate bytes", der.len());
    s.add("SHA-256 fingerprint", sha256_hex(der));
    Ok(())
}

fn show_csr(s: &mut Shown, path: &str, der: &[u8]) -> Result<()> {
    let csr = CertReq::from_der(der).map_err(err("certificate request"))?;
    s.add("subject", csr.info.subject.to_string());
    s.add("signature algorithm", alg_name(&csr.algorithm.oid));
    show_spki(s, &csr.info.public_key)?;
    if let Some(san) = csr_sans(path, &csr)? {
        let names: Vec<String> = san.0.iter().map(general_name).collect();
        s.add("requested subjectAltName", names);
    }
    s.add("signature valid", check_csr(path, &csr).is_ok());
    s.add("request bytes", der.len());
    Ok(())
}

/// `pqkit show`: what a key, certificate or request is.
pub fn show(path: &str, json: bool) -> Result<u8> {
    let text = describe(path, json)?;
    print!("{text}");
    Ok(0)
}

/// What `pqkit show` prints for the file at `path` (text or JSON).
pub fn describe(path: &str, json: bool) -> Result<String> {
    let (label, der) = io::read_pem_or_der(path)?;
    let is_cert = || x509_cert::Certificate::from_der(&der).is_ok();
    let is_csr = || CertReq::from_der(&der).is_ok();
    let shown = match label.as_deref() {
        Some("CERTIFICATE") => {
            let mut s = Shown::new("certificate");
            show_cert(&mut s, &der)?;
            s
        }
        Some("CERTIFICATE REQUEST") => {
            let mut s = Shown::new("certificate request");
            show_csr(&mut s, path, &der)?;
            s
        }
        None if is_cert() => {
            let mut s = Shown::new("certificate");
            show_cert(&mut s, &der)?;
            s
        }
        None if is_csr() => {
            let mut s = Shown::new("certificate request");
            show_csr(&mut s, path, &der)?;
            s
        }
        _ => {
            let key = io::key_file(path, label.as_deref(), der)?;
            let mut s = Shown::new(if key.kind == KeyKind::Private {
                "private key"
            } else {
                "public key"
            });
            show_key(&mut s, &key)?;
            s
        }
    };
    let text = if json {
        let mut map = serde_json::Map::new();
        map.insert("type".into(), shown.kind.into());
        for (k, v) in shown.fields {
            map.insert(k, v);
        }
        serde_json::to_string_pretty(&serde_json::Value::Object(map))
            .map_err(|e| CliError::new(e.to_string()))?
            + "\n"
    } else {
        let mut t = format!("type: {}\n", shown.kind);
        for (k, v) in shown.fields {
            let v = match v {
                serde_json::Value::String(s) => s,
                serde_json::Value::Array(a) => a
                    .iter()
                    .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string))
                    .collect::<Vec<_>>()
                    .join(", "),
                other => other.to_string(),
            };
            t.push_str(&format!("{k}: {v}\n"));
        }
        t
    };
    Ok(text)
}
