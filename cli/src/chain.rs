//! `verify-cert --purpose any`: chain validation with the semantics of
//! `openssl verify` without `-purpose`.
//!
//! rustls-webpki (the `server` and `client` purposes) only validates
//! end-entity certificates for TLS: a root checked against itself, or a
//! leaf that carries `CA:TRUE`, is `CaUsedAsEndEntity` there. This module
//! answers the other question, "does this certificate chain to one of
//! these roots?", for any certificate:
//!
//! * a certificate byte-identical to one of the roots is valid (a trusted
//!   certificate, as `openssl verify -CAfile root.pem root.pem`), once its
//!   validity period and critical extensions pass;
//! * otherwise a path is searched from the certificate through the
//!   untrusted intermediates to a root. Along the path every issuer's
//!   subject name equals its child's issuer name (DER equality, as
//!   rustls-webpki compares names), every signature verifies under the
//!   issuer's public key (the child's `signatureAlgorithm`, which must equal
//!   the one inside its `tbsCertificate`), every certificate (the root
//!   included) is within its validity period at the given time, every
//!   issuer (the root included) has basicConstraints `CA:TRUE`, and
//!   `keyCertSign` when it has a keyUsage extension, and every
//!   pathLenConstraint holds (self-issued intermediates are not counted, as
//!   RFC 5280 6.1.4 (l) says). The root's own self-signature is not checked
//!   (a trust anchor is trusted as given, as OpenSSL does by default).
//! * No extended key usage and no end-entity restriction apply to the
//!   certificate checked.
//! * Every root given is a trust anchor, self-signed or not, as the
//!   `server` and `client` purposes (rustls-webpki) treat `--ca`; OpenSSL
//!   needs `-partial_chain` for a path that ends at a certificate that is
//!   not self-signed, and otherwise goes on looking for a self-signed root.
//! * A critical extension other than basicConstraints, keyUsage,
//!   extendedKeyUsage, subjectAltName and certificatePolicies (any policy
//!   is acceptable: no explicit policy is required) makes the certificate
//!   invalid. Name constraints and policy constraints are not implemented,
//!   so a chain that carries them (they are critical by RFC 5280) is
//!   rejected rather than accepted unchecked; this is where `any` differs
//!   from OpenSSL, which enforces them. A version 1 root (no extensions) is
//!   not a CA here either, where OpenSSL accepts a self-signed v1 root.
//!
//! The search is a depth-first walk that backtracks over candidate issuers
//! (roots before intermediates) and is bounded: a path holds at most
//! [`MAX_CHAIN_LEN`] certificates (the certificate checked and the root
//! included) and at most [`MAX_CANDIDATES`] candidate issuers are tried in
//! all, so the cost of a hostile intermediate set is a bounded number of
//! signature verifications. When no path is found the first failure met is
//! reported (`UnknownIssuer` when no issuer was even named).

use std::fmt;

use der::asn1::{AnyRef, BitStringRef};
use der::oid::AssociatedOid;
use der::{Decode, Encode, Reader};
use x509_cert::Certificate;
use x509_cert::ext::pkix::{
    BasicConstraints, CertificatePolicies, ExtendedKeyUsage, KeyUsage, SubjectAltName,
};

use pqkit_rustls::rustls::pki_types::SignatureVerificationAlgorithm;

/// The longest path searched, in certificates: the one checked, up to six
/// intermediates, and the root.
pub const MAX_CHAIN_LEN: usize = 8;

/// The most candidate issuers tried (each one a signature verification)
/// in one search.
pub const MAX_CANDIDATES: usize = 64;

/// Why a certificate does not chain. The names are rustls-webpki's where
/// the meaning is the same; each carries the subject of the certificate
/// concerned.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ChainError {
    /// The certificate is not a well-formed X.509 certificate.
    BadDer(String),
    /// An extension of the certificate does not decode, or appears twice.
    MalformedExtensions(String),
    /// No root or intermediate is named as the issuer of a certificate on
    /// every path tried.
    UnknownIssuer(String),
    /// The time is after the certificate's notAfter.
    CertExpired(String),
    /// The time is before the certificate's notBefore.
    CertNotValidYet(String),
    /// The issuer's public key does not verify the certificate's
    /// signature.
    InvalidSignatureForPublicKey(String),
    /// No supported algorithm is the certificate's signature algorithm
    /// with the issuer's kind of public key.
    UnsupportedSignatureAlgorithmForPublicKey(String),
    /// The certificate's signatureAlgorithm differs from the one inside its
    /// tbsCertificate.
    SignatureAlgorithmMismatch(String),
    /// An issuer without basicConstraints `CA:TRUE`.
    EndEntityUsedAsCa(String),
    /// An issuer whose keyUsage lacks keyCertSign.
    KeyCertSignNotAllowed(String),
    /// An issuer with more intermediates below it than its
    /// pathLenConstraint allows.
    PathLenConstraintViolated(String),
    /// A critical extension this module does not process.
    UnsupportedCriticalExtension(String),
    /// Every path that was left would be longer than [`MAX_CHAIN_LEN`].
    MaximumPathDepthExceeded(String),
    /// [`MAX_CANDIDATES`] candidate issuers were tried without success.
    MaximumPathBuildCallsExceeded,
}

impl fmt::Display for ChainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, detail) = match self {
            Self::BadDer(d) => ("BadDer", d),
            Self::MalformedExtensions(d) => ("MalformedExtensions", d),
            Self::UnknownIssuer(d) => ("UnknownIssuer", d),
            Self::CertExpired(d) => ("CertExpired", d),
            Self::CertNotValidYet(d) => ("CertNotValidYet", d),
            Self::InvalidSignatureForPublicKey(d) => ("InvalidSignatureForPublicKey", d),
            Self::UnsupportedSignatureAlgorithmForPublicKey(d) => {
                ("UnsupportedSignatureAlgorithmForPublicKey", d)
            }
            Self::SignatureAlgorithmMismatch(d) => ("SignatureAlgorithmMismatch", d),
            Self::EndEntityUsedAsCa(d) => ("EndEntityUsedAsCa", d),
            Self::KeyCertSignNotAllowed(d) => ("KeyCertSignNotAllowed", d),
            Self::PathLenConstraintViolated(d) => ("PathLenConstraintViolated", d),
            Self::UnsupportedCriticalExtension(d) => ("UnsupportedCriticalExtension", d),
            Self::MaximumPathDepthExceeded(d) => ("MaximumPathDepthExceeded", d),
            Self::MaximumPathBuildCallsExceeded => {
                return write!(
                    f,
                    "MaximumPathBuildCallsExceeded: {MAX_CANDIDATES} candidate issuers tried"
                );
            }
        };
        write!(f, "{name}: {detail}")
    }
}

impl std::error::Error for ChainError {}

/// What the path checks need from an extension list.
#[derive(Clone, Debug)]
struct Extensions {
    /// basicConstraints `cA`.
    ca: bool,
    /// basicConstraints pathLenConstraint.
    path_len: Option<u8>,
    /// keyUsage keyCertSign, `None` without a keyUsage extension.
    key_cert_sign: Option<bool>,
    /// The first critical extension not processed here.
    unknown_critical: Option<String>,
}

/// A parsed certificate with the exact bytes its checks use.
#[derive(Clone, Debug)]
pub struct Cert {
    der: Vec<u8>,
    /// The tbsCertificate exactly as signed.
    tbs: Vec<u8>,
    /// The contents of the outer signatureAlgorithm (no SEQUENCE header).
    sig_alg: Vec<u8>,
    /// Whether the signatureAlgorithm equals the tbsCertificate's.
    sig_alg_consistent: bool,
    signature: Vec<u8>,
    /// The contents of the subjectPublicKeyInfo's AlgorithmIdentifier.
    spki_alg: Vec<u8>,
    spki_key: Vec<u8>,
    subject: Vec<u8>,
    issuer: Vec<u8>,
    /// The subject as RFC 4514 text, for messages.
    name: String,
    not_before: u64,
    not_after: u64,
    /// The extensions, or why they do not decode.
    ext: Result<Extensions, String>,
}

/// The contents of a DER TLV (the value, without tag and length).
fn contents(tlv: &[u8]) -> der::Result<Vec<u8>> {
    Ok(AnyRef::from_der(tlv)?.value().to_vec())
}

fn extensions(cert: &Certificate) -> Result<Extensions, String> {
    let tbs = cert.tbs_certificate();
    let list = tbs.extensions().map(Vec::as_slice).unwrap_or_default();
    for (i, e) in list.iter().enumerate() {
        if list[..i].iter().any(|p| p.extn_id == e.extn_id) {
            return Err(format!("extension {} appears twice", e.extn_id));
        }
    }
    let bc = tbs
        .get_extension::<BasicConstraints>()
        .map_err(|e| format!("basicConstraints: {e}"))?
        .map(|(_, bc)| bc);
    let ku = tbs
        .get_extension::<KeyUsage>()
        .map_err(|e| format!("keyUsage: {e}"))?
        .map(|(_, ku)| ku.key_cert_sign());
    let known = [
        BasicConstraints::OID,
        KeyUsage::OID,
        ExtendedKeyUsage::OID,
        SubjectAltName::OID,
        CertificatePolicies::OID,
    ];
    let unknown_critical = list
        .iter()
        .find(|e| e.critical && !known.contains(&e.extn_id))
        .map(|e| e.extn_id.to_string());
    Ok(Extensions {
        ca: bc.as_ref().is_some_and(|bc| bc.ca),
        path_len: bc.and_then(|bc| bc.path_len_constraint),
        key_cert_sign: ku,
        unknown_critical,
    })
}

impl Cert {
    /// Parse a DER certificate; extensions that do not decode are reported
    /// when the certificate is used, not here.
    pub fn parse(der: &[u8]) -> Result<Self, ChainError> {
        let bad = |e: der::Error| ChainError::BadDer(e.to_string());
        let cert = Certificate::from_der(der).map_err(bad)?;
        // The signed bytes as they are in the file (re-encoding a parsed
        // certificate could change them).
        let (tbs, sig_alg) = AnyRef::from_der(der)
            .and_then(|outer| {
                outer.sequence(|r| {
                    let tbs = r.tlv_bytes()?.to_vec();
                    let alg = AnyRef::decode(r)?.value().to_vec();
                    BitStringRef::decode(r)?;
                    Ok((tbs, alg))
                })
            })
            .map_err(bad)?;
        let t = cert.tbs_certificate();
        let spki = t.subject_public_key_info();
        let signature = cert
            .signature()
            .as_bytes()
            .ok_or_else(|| ChainError::BadDer("signature with unused bits".into()))?
            .to_vec();
        Ok(Self {
            der: der.to_vec(),
            tbs,
            sig_alg,
            sig_alg_consistent: t.signature() == cert.signature_algorithm(),
            signature,
            spki_alg: contents(&spki.algorithm.to_der().map_err(bad)?).map_err(bad)?,
            spki_key: spki.subject_public_key.raw_bytes().to_vec(),
            subject: t.subject().to_der().map_err(bad)?,
            issuer: t.issuer().to_der().map_err(bad)?,
            name: t.subject().to_string(),
            not_before: t.validity().not_before.to_unix_duration().as_secs(),
            not_after: t.validity().not_after.to_unix_duration().as_secs(),
            ext: extensions(&cert),
        })
    }

    fn ext(&self) -> Result<&Extensions, ChainError> {
        self.ext
            .as_ref()
            .map_err(|e| ChainError::MalformedExtensions(format!("{}: {e}", self.name)))
    }

    fn self_issued(&self) -> bool {
        self.subject == self.issuer
    }

    /// The checks on the certificate alone: validity at `now`, decodable
    /// extensions, no unprocessed critical one.
    fn check_self(&self, now: u64) -> Result<(), ChainError> {
        if now < self.not_before {
            return Err(ChainError::CertNotValidYet(self.name.clone()));
        }
        if now > self.not_after {
            return Err(ChainError::CertExpired(self.name.clone()));
        }
        if let Some(oid) = &self.ext()?.unknown_critical {
            return Err(ChainError::UnsupportedCriticalExtension(format!(
                "{}: {oid}",
                self.name
            )));
        }
        Ok(())
    }
}

/// A search for a path from one certificate to a root.
struct Search<'a> {
    roots: &'a [Cert],
    intermediates: &'a [Cert],
    algs: &'a [&'a dyn SignatureVerificationAlgorithm],
    now: u64,
    tried: usize,
    first_error: Option<ChainError>,
}

impl<'a> Search<'a> {
    fn note(&mut self, e: ChainError) {
        self.first_error.get_or_insert(e);
    }

    /// `issuer`'s signature on `child`.
    fn signature(&self, child: &Cert, issuer: &Cert) -> Result<(), ChainError> {
        if !child.sig_alg_consistent {
            return Err(ChainError::SignatureAlgorithmMismatch(child.name.clone()));
        }
        let mut supported = false;
        for alg in self.algs.iter().filter(|a| {
            a.signature_alg_id().as_ref() == child.sig_alg.as_slice()
                && a.public_key_alg_id().as_ref() == issuer.spki_alg.as_slice()
        }) {
            supported = true;
            if alg
                .verify_signature(&issuer.spki_key, &child.tbs, &child.signature)
                .is_ok()
            {
                return Ok(());
            }
        }
        let what = format!("{} issued by {}", child.name, issuer.name);
        Err(if supported {
            ChainError::InvalidSignatureForPublicKey(what)
        } else {
            ChainError::UnsupportedSignatureAlgorithmForPublicKey(what)
        })
    }

    /// Whether `issuer` validly issued `path`'s last certificate, `path`
    /// being the certificates below it (the one checked first).
    fn check_issuer(&self, path: &[&Cert], issuer: &Cert) -> Result<(), ChainError> {
        let Some(child) = path.last() else {
            return Ok(());
        };
        self.signature(child, issuer)?;
        issuer.check_self(self.now)?;
        let ext = issuer.ext()?;
        if !ext.ca {
            return Err(ChainError::EndEntityUsedAsCa(issuer.name.clone()));
        }
        if ext.key_cert_sign == Some(false) {
            return Err(ChainError::KeyCertSignNotAllowed(issuer.name.clone()));
        }
        if let Some(max) = ext.path_len {
            let below = path.iter().skip(1).filter(|c| !c.self_issued()).count();
            if below > usize::from(max) {
                return Err(ChainError::PathLenConstraintViolated(format!(
                    "{}: pathLenConstraint {max}, {below} intermediates below it",
                    issuer.name
                )));
            }
        }
        Ok(())
    }

    /// Extend `path` to a root; the root when a valid path was found
    /// (`path` then holds the certificates below it).
    fn extend(&mut self, path: &mut Vec<&'a Cert>) -> Result<Option<&'a Cert>, ChainError> {
        let Some(child) = path.last().copied() else {
            return Ok(None);
        };
        for root in self.roots.iter().filter(|r| r.subject == child.issuer) {
            self.count()?;
            match self.check_issuer(path, root) {
                Ok(()) => return Ok(Some(root)),
                Err(e) => self.note(e),
            }
        }
        let intermediates = self.intermediates;
        for int in intermediates.iter().filter(|c| c.subject == child.issuer) {
            if path.iter().any(|p| p.der == int.der) {
                continue;
            }
            // The intermediate, then at least a root above it.
            if path.len() + 2 > MAX_CHAIN_LEN {
                self.note(ChainError::MaximumPathDepthExceeded(child.name.clone()));
                break;
            }
            self.count()?;
            if let Err(e) = self.check_issuer(path, int) {
                self.note(e);
                continue;
            }
            path.push(int);
            if let Some(root) = self.extend(path)? {
                return Ok(Some(root));
            }
            path.pop();
        }
        Ok(None)
    }

    fn count(&mut self) -> Result<(), ChainError> {
        if self.tried >= MAX_CANDIDATES {
            return Err(ChainError::MaximumPathBuildCallsExceeded);
        }
        self.tried += 1;
        Ok(())
    }
}

/// Validate `cert` against `roots` through `intermediates` at `now`
/// (seconds since the Unix epoch) with the signature algorithms `algs`.
/// Returns the subjects of the path found, `cert`'s first and the root's
/// last (just `cert`'s when it is itself a root).
pub fn verify(
    cert: &Cert,
    roots: &[Cert],
    intermediates: &[Cert],
    now: u64,
    algs: &[&dyn SignatureVerificationAlgorithm],
) -> Result<Vec<String>, ChainError> {
    cert.check_self(now)?;
    if roots.iter().any(|r| r.der == cert.der) {
        return Ok(vec![cert.name.clone()]);
    }
    let mut search = Search {
        roots,
        intermediates,
        algs,
        now,
        tried: 0,
        first_error: None,
    };
    let mut path = vec![cert];
    if let Some(root) = search.extend(&mut path)? {
        let mut names: Vec<String> = path.iter().map(|c| c.name.clone()).collect();
        names.push(root.name.clone());
        return Ok(names);
    }
    Err(search
        .first_error
        .unwrap_or_else(|| ChainError::UnknownIssuer(cert.name.clone())))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use std::str::FromStr;

    use der::DateTime;
    use der::asn1::OctetString;
    use spki::{EncodePublicKey, SubjectPublicKeyInfoOwned};
    use x509_cert::builder::profile::BuilderProfile;
    use x509_cert::builder::{Builder, CertificateBuilder};
    use x509_cert::certificate::TbsCertificate;
    use x509_cert::ext::Extension;
    use x509_cert::ext::pkix::KeyUsages;
    use x509_cert::name::Name;
    use x509_cert::serial_number::SerialNumber;
    use x509_cert::spki::SubjectPublicKeyInfoRef;
    use x509_cert::time::{Time, Validity};

    use pqkit_ed25519::SigningKey;

    /// 2030-01-01T00:00:00Z, inside every test certificate's validity.
    const NOW: u64 = 1_893_456_000;

    fn algs() -> &'static [&'static dyn SignatureVerificationAlgorithm] {
        pqkit_rustls::verify::SUPPORTED_SIG_ALGS.all
    }

    struct Profile {
        issuer: Name,
        subject: Name,
        extensions: Vec<Extension>,
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
            _spk: SubjectPublicKeyInfoRef<'_>,
            _issuer_spk: SubjectPublicKeyInfoRef<'_>,
            _tbs: &TbsCertificate,
        ) -> x509_cert::builder::Result<Vec<Extension>> {
            Ok(self.extensions.clone())
        }
    }

    fn key(i: u8) -> SigningKey {
        SigningKey::from_bytes(&[i; 32])
    }

    fn name(cn: &str) -> Name {
        Name::from_str(&format!("CN={cn}")).unwrap()
    }

    fn ext<T: Encode + AssociatedOid>(value: T, critical: bool) -> Extension {
        Extension {
            extn_id: T::OID,
            critical,
            extn_value: OctetString::new(value.to_der().unwrap()).unwrap(),
        }
    }

    fn ca(path_len: Option<u8>) -> Vec<Extension> {
        vec![
            ext(
                BasicConstraints {
                    ca: true,
                    path_len_constraint: path_len,
                },
                true,
            ),
            ext(KeyUsage(KeyUsages::KeyCertSign | KeyUsages::CRLSign), true),
        ]
    }

    fn ee() -> Vec<Extension> {
        vec![ext(KeyUsage(KeyUsages::DigitalSignature.into()), true)]
    }

    fn time(y: u16) -> Time {
        Time::from(DateTime::new(y, 1, 1, 0, 0, 0).unwrap())
    }

    /// A certificate for `subject`'s key `sk`, named `subject`, signed by
    /// `ik` as `issuer`, valid 2020 to 2040 unless `years` says otherwise.
    fn issue_at(
        subject: &str,
        sk: &SigningKey,
        issuer: &str,
        ik: &SigningKey,
        extensions: Vec<Extension>,
        years: (u16, u16),
    ) -> Cert {
        let spki = SubjectPublicKeyInfoOwned::from_der(
            sk.verifying_key().to_public_key_der().unwrap().as_bytes(),
        )
        .unwrap();
        let profile = Profile {
            issuer: name(issuer),
            subject: name(subject),
            extensions,
        };
        let validity = Validity::new(time(years.0), time(years.1));
        let builder =
            CertificateBuilder::new(profile, SerialNumber::from(7u32), validity, spki).unwrap();
        let cert: Certificate = builder.build::<_, pqkit_ed25519::Signature>(ik).unwrap();
        Cert::parse(&cert.to_der().unwrap()).unwrap()
    }

    fn issue(
        subject: &str,
        sk: &SigningKey,
        issuer: &str,
        ik: &SigningKey,
        extensions: Vec<Extension>,
    ) -> Cert {
        issue_at(subject, sk, issuer, ik, extensions, (2020, 2040))
    }

    fn root() -> Cert {
        issue("Root", &key(1), "Root", &key(1), ca(None))
    }

    fn run(cert: &Cert, roots: &[Cert], ints: &[Cert]) -> Result<Vec<String>, ChainError> {
        verify(cert, roots, ints, NOW, algs())
    }

    fn cns(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| format!("CN={n}")).collect()
    }

    #[test]
    fn valid_paths() {
        let root = root();
        let int = issue("Int", &key(2), "Root", &key(1), ca(Some(0)));
        let leaf = issue("Leaf", &key(3), "Int", &key(2), ee());
        let ca_leaf = issue("CaLeaf", &key(4), "Int", &key(2), ca(None));
        let roots = std::slice::from_ref(&root);
        assert_eq!(run(&root, roots, &[]), Ok(cns(&["Root"])));
        assert_eq!(run(&int, roots, &[]), Ok(cns(&["Int", "Root"])));
        let ints = std::slice::from_ref(&int);
        assert_eq!(run(&leaf, roots, ints), Ok(cns(&["Leaf", "Int", "Root"])));
        assert_eq!(
            run(&ca_leaf, roots, ints),
            Ok(cns(&["CaLeaf", "Int", "Root"]))
        );
        // The intermediate given as a root is a trust anchor too.
        assert_eq!(run(&leaf, ints, &[]), Ok(cns(&["Leaf", "Int"])));
    }

    #[test]
    fn issuer_rules() {
        let root = root();
        let roots = std::slice::from_ref(&root);
        // An issuer without basicConstraints CA:TRUE, with CA:FALSE, or
        // whose keyUsage lacks keyCertSign.
        for (extensions, want) in [
            (ee(), "EndEntityUsedAsCa: CN=Int"),
            (
                vec![ext(
                    BasicConstraints {
                        ca: false,
                        path_len_constraint: None,
                    },
                    true,
                )],
                "EndEntityUsedAsCa: CN=Int",
            ),
            (
                vec![
                    ca(None)[0].clone(),
                    ext(KeyUsage(KeyUsages::DigitalSignature.into()), true),
                ],
                "KeyCertSignNotAllowed: CN=Int",
            ),
        ] {
            let int = issue("Int", &key(2), "Root", &key(1), extensions);
            let leaf = issue("Leaf", &key(3), "Int", &key(2), ee());
            let e = run(&leaf, roots, &[int]).unwrap_err();
            assert_eq!(e.to_string(), want);
        }
        // A root that is not a CA cannot issue, but is valid itself.
        let ee_root = issue("Root", &key(1), "Root", &key(1), ee());
        let int = issue("Int", &key(2), "Root", &key(1), ca(None));
        let ee_roots = std::slice::from_ref(&ee_root);
        assert_eq!(
            run(&int, ee_roots, &[]),
            Err(ChainError::EndEntityUsedAsCa("CN=Root".into()))
        );
        assert_eq!(run(&ee_root, ee_roots, &[]), Ok(cns(&["Root"])));
    }

    #[test]
    fn path_length() {
        let root = root();
        let roots = std::slice::from_ref(&root);
        let int = issue("Int", &key(2), "Root", &key(1), ca(Some(0)));
        let int2 = issue("Int2", &key(3), "Int", &key(2), ca(None));
        let leaf = issue("Leaf", &key(4), "Int2", &key(3), ee());
        assert_eq!(
            run(&leaf, roots, &[int.clone(), int2])
                .unwrap_err()
                .to_string(),
            "PathLenConstraintViolated: CN=Int: pathLenConstraint 0, 1 intermediates below it"
        );
        // A self-issued intermediate (a key rollover: same name, new key)
        // is not counted; the path is found after the old key's signature
        // on the leaf fails.
        let rolled = issue("Int", &key(5), "Int", &key(2), ca(None));
        let leaf = issue("Leaf", &key(4), "Int", &key(5), ee());
        assert_eq!(
            run(&leaf, roots, &[int, rolled]),
            Ok(cns(&["Leaf", "Int", "Int", "Root"]))
        );
    }

    #[test]
    fn validity_periods() {
        let root = root();
        let int = issue("Int", &key(2), "Root", &key(1), ca(None));
        let leaf = issue("Leaf", &key(3), "Int", &key(2), ee());
        let ints = std::slice::from_ref(&int);
        let at = |t: u64, roots: &[Cert]| verify(&leaf, roots, ints, t, algs());
        let roots = std::slice::from_ref(&root);
        // 2041 and 2019: the leaf first.
        assert_eq!(
            at(2_240_611_200, roots),
            Err(ChainError::CertExpired("CN=Leaf".into()))
        );
        assert_eq!(
            at(1_546_300_800, roots),
            Err(ChainError::CertNotValidYet("CN=Leaf".into()))
        );
        // A root that expired in 2025: at 2030 the path fails on it.
        let old_root = issue_at("Root", &key(1), "Root", &key(1), ca(None), (2020, 2025));
        assert_eq!(
            at(NOW, std::slice::from_ref(&old_root)),
            Err(ChainError::CertExpired("CN=Root".into()))
        );
        assert!(at(1_700_000_000, std::slice::from_ref(&old_root)).is_ok());
    }

    #[test]
    fn signatures_and_names() {
        let root = root();
        let roots = std::slice::from_ref(&root);
        let int = issue("Int", &key(2), "Root", &key(1), ca(None));
        // Another key under the root's name.
        let other = issue("Root", &key(9), "Root", &key(9), ca(None));
        assert_eq!(
            run(&int, std::slice::from_ref(&other), &[])
                .unwrap_err()
                .to_string(),
            "InvalidSignatureForPublicKey: CN=Int issued by CN=Root"
        );
        // No certificate named as the issuer.
        let stray = issue("Stray", &key(3), "Nobody", &key(3), ee());
        assert_eq!(
            run(&stray, roots, std::slice::from_ref(&int)),
            Err(ChainError::UnknownIssuer("CN=Stray".into()))
        );
        // A flipped bit in the signature.
        let mut der = int.der.clone();
        let n = der.len();
        der[n - 1] ^= 1;
        let bad = Cert::parse(&der).unwrap();
        assert!(matches!(
            run(&bad, roots, &[]),
            Err(ChainError::InvalidSignatureForPublicKey(_))
        ));
        // A flipped bit in the signed part.
        let mut der = int.der.clone();
        let at = der.windows(3).position(|w| w == b"Int").unwrap();
        der[at] = b'J';
        let bad = Cert::parse(&der).unwrap();
        assert!(matches!(
            run(&bad, roots, &[]),
            Err(ChainError::InvalidSignatureForPublicKey(_))
        ));
        // No algorithm for the pair (an empty set here).
        assert_eq!(
            verify(&int, roots, &[], NOW, &[]),
            Err(ChainError::UnsupportedSignatureAlgorithmForPublicKey(
                "CN=Int issued by CN=Root".into()
            ))
        );
        // The outer signatureAlgorithm (the last Ed25519 identifier, after
        // the tbsCertificate's and the key's) made Ed448's.
        let mut der = int.der.clone();
        let ed25519_alg = [0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70];
        let at = der.windows(7).rposition(|w| w == ed25519_alg).unwrap();
        assert_eq!(der.windows(7).filter(|w| *w == ed25519_alg).count(), 3);
        der[at + 6] = 0x71;
        let bad = Cert::parse(&der).unwrap();
        assert_eq!(
            run(&bad, roots, &[]),
            Err(ChainError::SignatureAlgorithmMismatch("CN=Int".into()))
        );
        // Not a certificate.
        assert!(matches!(
            Cert::parse(&der[..n - 1]),
            Err(ChainError::BadDer(_))
        ));
    }

    #[test]
    fn critical_extensions() {
        let root = root();
        let roots = std::slice::from_ref(&root);
        let unknown = |critical| Extension {
            extn_id: der::oid::ObjectIdentifier::new_unwrap("1.3.6.1.4.1.55555.1"),
            critical,
            extn_value: OctetString::new(vec![5, 0]).unwrap(),
        };
        let mut e = ee();
        e.push(unknown(false));
        assert!(run(&issue("Leaf", &key(3), "Root", &key(1), e), roots, &[]).is_ok());
        let mut e = ee();
        e.push(unknown(true));
        assert_eq!(
            run(&issue("Leaf", &key(3), "Root", &key(1), e), roots, &[])
                .unwrap_err()
                .to_string(),
            "UnsupportedCriticalExtension: CN=Leaf: 1.3.6.1.4.1.55555.1"
        );
        // On the intermediate.
        let mut e = ca(None);
        e.push(unknown(true));
        let int = issue("Int", &key(2), "Root", &key(1), e);
        let child = issue("Leaf", &key(3), "Int", &key(2), ee());
        assert!(matches!(
            run(&child, roots, &[int]),
            Err(ChainError::UnsupportedCriticalExtension(_))
        ));
        // A critical extended key usage is understood and not enforced.
        let mut e = ee();
        e.push(ext(
            ExtendedKeyUsage(vec![der::oid::ObjectIdentifier::new_unwrap(
                "1.3.6.1.5.5.7.3.3",
            )]),
            true,
        ));
        assert!(run(&issue("Leaf", &key(3), "Root", &key(1), e), roots, &[]).is_ok());
        // The same extension twice.
        let mut e = ee();
        e.push(e[0].clone());
        assert!(matches!(
            run(&issue("Leaf", &key(3), "Root", &key(1), e), roots, &[]),
            Err(ChainError::MalformedExtensions(_))
        ));
    }

    #[test]
    fn search_bounds() {
        let root = root();
        let roots = std::slice::from_ref(&root);
        // root -> Int1 -> ... -> IntN -> Leaf: N = 6 fits in 8
        // certificates, N = 7 does not.
        let chain = |n: u8| {
            let mut ints = Vec::new();
            let mut issuer = "Root".to_string();
            let mut issuer_key = key(1);
            for i in 1..=n {
                let s = format!("Int{i}");
                ints.push(issue(&s, &key(10 + i), &issuer, &issuer_key, ca(None)));
                issuer = s;
                issuer_key = key(10 + i);
            }
            let leaf = issue("Leaf", &key(100), &issuer, &issuer_key, ee());
            (ints, leaf)
        };
        let (ints, leaf6) = chain(6);
        assert_eq!(run(&leaf6, roots, &ints).map(|p| p.len()), Ok(8));
        let (ints, leaf7) = chain(7);
        assert!(matches!(
            run(&leaf7, roots, &ints),
            Err(ChainError::MaximumPathDepthExceeded(_))
        ));
        // Many intermediates under the issuer's name, none the right key.
        let leaf = issue("Leaf", &key(3), "Int", &key(2), ee());
        let decoys: Vec<Cert> = (0..MAX_CANDIDATES as u8 + 1)
            .map(|i| issue("Int", &key(120 + i), "Root", &key(1), ca(None)))
            .collect();
        assert_eq!(
            run(&leaf, roots, &decoys),
            Err(ChainError::MaximumPathBuildCallsExceeded)
        );
        // Two CAs that issued each other, and no root: the walk ends.
        let a = issue("A", &key(7), "B", &key(8), ca(None));
        let b = issue("B", &key(8), "A", &key(7), ca(None));
        let leaf = issue("Leaf", &key(3), "A", &key(7), ee());
        assert_eq!(
            run(&leaf, roots, &[a, b]),
            Err(ChainError::UnknownIssuer("CN=Leaf".into()))
        );
    }

    #[test]
    fn help_states_the_bounds() {
        let mut cmd = crate::args::command();
        let help = cmd
            .find_subcommand_mut("verify-cert")
            .unwrap()
            .render_help()
            .to_string();
        assert!(help.contains(&format!("at most {MAX_CHAIN_LEN} certificates")));
        assert!(help.contains(&format!("at most {MAX_CANDIDATES} candidate issuers")));
    }
}
