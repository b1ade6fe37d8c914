//! Certificates and key forms: `req`, `cert`, `verify-cert`, `pkey`.
//!
//! ASN.1 and path validation come from well-kept libraries: `x509-cert`
//! builds the CSRs and certificates (its builder's `finalize` / `assemble`
//! split: pqkit signs the to-be-signed bytes through the scheme registry),
//! `rustls-webpki` validates chains with pqkit's algorithms (ML-DSA,
//! Ed25519, FN-DSA with its provisional OIDs) beside ring's (ECDSA, RSA).

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
        let sig = self.scheme.sign(&self.key, tbs, &SignOptions::default())?;
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
    let raw = io::read_input(path)?;
    let start = raw
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(raw.len());
    if raw[start..].starts_with(b"-----BEGIN ") {
        let (l, der) = der::pem::decode_vec(&raw[start..])
            .map_err(|e| CliError::new(format!("{path}: malformed PEM: {e}")))?;
        if l != label {
            return Err(CliError::new(format!(
                "{path}: PEM label '{l}', expected '{label}'"
            )));
        }
        Ok(der)
    } else {
        Ok(raw)
    }
}

/// Every CERTIFICATE in a PEM file (or one DER certificate).
fn read_certs(path: &str) -> Result<Vec<Vec<u8>>> {
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
    if scheme.verify(&key, &tbs, sig, &VerifyOptions::default())? {
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

/// `pqkit verify-cert`: 0 valid, 1 invalid (with the reason), 2 error.
pub fn verify_cert(
    ca: &str,
    untrusted: Option<&str>,
    time: Option<&str>,
    cert: &str,
    purpose: &str,
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
        Err(e) => {
            println!("invalid: {e:?}");
            return Ok(1);
        }
    };
    let now = match time {
        Some(t) => UnixTime::since_unix_epoch(Duration::from_secs(parse_rfc3339(t)?)),
        None => UnixTime::now(),
    };
    let usage = match purpose {
        "server" => webpki::KeyUsage::server_auth(),
        "client" => webpki::KeyUsage::client_auth(),
        other => {
            return Err(CliError::new(format!(
                "--purpose '{other}': server or client"
            )));
        }
    };
    let mut algs: Vec<&dyn rustls_pki_types::SignatureVerificationAlgorithm> =
        pqkit_rustls::verify::SUPPORTED_SIG_ALGS.all.to_vec();
    algs.push(&FN_DSA_512);
    algs.push(&FN_DSA_1024);
    match ee.verify_for_usage(&algs, &anchors, &intermediates, now, usage, None, None) {
        Ok(_) => {
            println!("valid");
            Ok(0)
        }
        Err(e) => {
            println!("invalid: {e:?}");
            Ok(1)
        }
    }
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
