//! A small test PKI built with `x509-cert` from pqkit keys: roots and
//! leaves with the extensions rustls-webpki checks (basic constraints, key
//! usage, SAN, EKU). Shared by the tests and the examples.
#![allow(dead_code, clippy::expect_used, clippy::large_enum_variant)]

use std::str::FromStr;
use std::time::{Duration, SystemTime};

use pqkit_ml_dsa::{KeyFormat, MlDsa44, MlDsa65, MlDsa87, SigningKey};
use pqkit_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use x509_cert::builder::profile::BuilderProfile;
use x509_cert::builder::{Builder, CertificateBuilder};
use x509_cert::certificate::TbsCertificate;
use x509_cert::der::asn1::Ia5String;
use x509_cert::der::oid::ObjectIdentifier;
use x509_cert::der::pem::LineEnding;
use x509_cert::der::{Decode, Encode, EncodePem};
use x509_cert::ext::pkix::name::GeneralName;
use x509_cert::ext::pkix::{
    BasicConstraints, ExtendedKeyUsage, KeyUsage, KeyUsages, SubjectAltName, SubjectKeyIdentifier,
};
use x509_cert::ext::{Extension, ToExtension};
use x509_cert::name::Name;
use x509_cert::serial_number::SerialNumber;
use x509_cert::spki::{SubjectPublicKeyInfoOwned, SubjectPublicKeyInfoRef};
use x509_cert::time::{Time, Validity};

const ID_KP_SERVER_AUTH: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.6.1.5.5.7.3.1");
const ID_KP_CLIENT_AUTH: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.6.1.5.5.7.3.2");

/// A signing key of one of pqkit's certificate algorithms.
pub enum Key {
    MlDsa44(SigningKey<MlDsa44>),
    MlDsa65(SigningKey<MlDsa65>),
    MlDsa87(SigningKey<MlDsa87>),
    Ed25519(pqkit_ed25519::SigningKey),
}

impl Key {
    pub fn ml_dsa_44(seed: u8) -> Self {
        Key::MlDsa44(SigningKey::from_seed(&[seed; 32].into()))
    }
    pub fn ml_dsa_65(seed: u8) -> Self {
        Self::ml_dsa_65_from(&[seed; 32])
    }
    pub fn ml_dsa_65_from(seed: &[u8; 32]) -> Self {
        Key::MlDsa65(SigningKey::from_seed(&(*seed).into()))
    }
    pub fn ml_dsa_87(seed: u8) -> Self {
        Self::ml_dsa_87_from(&[seed; 32])
    }
    pub fn ml_dsa_87_from(seed: &[u8; 32]) -> Self {
        Key::MlDsa87(SigningKey::from_seed(&(*seed).into()))
    }
    pub fn ed25519(seed: u8) -> Self {
        Key::Ed25519(pqkit_ed25519::SigningKey::from_bytes(&[seed; 32]))
    }

    pub fn spki(&self) -> SubjectPublicKeyInfoOwned {
        match self {
            Key::MlDsa44(k) => SubjectPublicKeyInfoOwned::from_key(&k.verifying_key()),
            Key::MlDsa65(k) => SubjectPublicKeyInfoOwned::from_key(&k.verifying_key()),
            Key::MlDsa87(k) => SubjectPublicKeyInfoOwned::from_key(&k.verifying_key()),
            Key::Ed25519(k) => SubjectPublicKeyInfoOwned::from_key(&k.verifying_key()),
        }
        .expect("spki")
    }

    /// PKCS#8 DER; ML-DSA in the chosen CHOICE form.
    pub fn pkcs8_with(&self, format: KeyFormat) -> Vec<u8> {
        use pkcs8::EncodePrivateKey;
        match self {
            Key::MlDsa44(k) => k.to_pkcs8_der_with(format),
            Key::MlDsa65(k) => k.to_pkcs8_der_with(format),
            Key::MlDsa87(k) => k.to_pkcs8_der_with(format),
            Key::Ed25519(k) => k.to_pkcs8_der(),
        }
        .expect("pkcs8")
        .as_bytes()
        .to_vec()
    }

    /// PKCS#8 (seed form for ML-DSA) for rustls.
    pub fn private_key(&self) -> PrivateKeyDer<'static> {
        PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(self.pkcs8_with(KeyFormat::Seed)))
    }

    fn sign(&self, b: CertificateBuilder<Profile>) -> x509_cert::Certificate {
        match self {
            Key::MlDsa44(k) => b.build::<_, pqkit_ml_dsa::Signature<MlDsa44>>(k),
            Key::MlDsa65(k) => b.build::<_, pqkit_ml_dsa::Signature<MlDsa65>>(k),
            Key::MlDsa87(k) => b.build::<_, pqkit_ml_dsa::Signature<MlDsa87>>(k),
            Key::Ed25519(k) => b.build::<_, pqkit_ed25519::Signature>(k),
        }
        .expect("build certificate")
    }
}

/// What a certificate is for.
#[derive(Clone)]
pub struct Profile {
    issuer: Name,
    subject: Name,
    ca: bool,
    dns: Vec<String>,
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
        let bc = BasicConstraints {
            ca: self.ca,
            path_len_constraint: None,
        };
        ext.push(bc.to_extension(tbs.subject(), &ext)?);
        let usage = if self.ca {
            KeyUsages::KeyCertSign | KeyUsages::CRLSign
        } else {
            KeyUsages::DigitalSignature.into()
        };
        ext.push(KeyUsage(usage).to_extension(tbs.subject(), &ext)?);
        ext.push(SubjectKeyIdentifier::try_from(spk)?.to_extension(tbs.subject(), &ext)?);
        if !self.ca {
            let eku = ExtendedKeyUsage(vec![ID_KP_SERVER_AUTH, ID_KP_CLIENT_AUTH]);
            ext.push(eku.to_extension(tbs.subject(), &ext)?);
        }
        if !self.dns.is_empty() {
            let names = self
                .dns
                .iter()
                .map(|d| GeneralName::DnsName(Ia5String::new(d).expect("dns name")))
                .collect();
            ext.push(SubjectAltName(names).to_extension(tbs.subject(), &ext)?);
        }
        Ok(ext)
    }
}

/// A certificate and the name it was issued to.
pub struct Cert {
    pub der: CertificateDer<'static>,
    pub name: Name,
}

impl Cert {
    pub fn pem(&self) -> String {
        let cert = x509_cert::Certificate::from_der(&self.der).expect("der");
        cert.to_pem(LineEnding::LF).expect("pem")
    }
}

/// Validity from now for `days` days; negative `days` end `-days` days
/// ago (an expired certificate).
pub fn validity(days: i64) -> Validity {
    let now = SystemTime::now();
    let day = Duration::from_secs(86_400);
    if days >= 0 {
        Validity::from_now(day * days as u32).expect("validity")
    } else {
        let end = now - day * (-days) as u32;
        Validity::new(
            Time::try_from(end - day * 30).expect("time"),
            Time::try_from(end).expect("time"),
        )
    }
}

/// A self-signed root for `key`.
pub fn root(key: &Key, cn: &str) -> Cert {
    let name = Name::from_str(&format!("CN={cn},O=pqkit test")).expect("name");
    issue(key, &name, key, &name, true, &[], validity(30), 1)
}

/// A certificate for `subject_key`, signed by `issuer_key`.
#[allow(clippy::too_many_arguments)]
pub fn issue(
    issuer_key: &Key,
    issuer: &Name,
    subject_key: &Key,
    subject: &Name,
    ca: bool,
    dns: &[&str],
    validity: Validity,
    serial: u32,
) -> Cert {
    let profile = Profile {
        issuer: issuer.clone(),
        subject: subject.clone(),
        ca,
        dns: dns.iter().map(|s| s.to_string()).collect(),
    };
    let builder = CertificateBuilder::new(
        profile,
        SerialNumber::from(serial),
        validity,
        subject_key.spki(),
    )
    .expect("builder");
    let cert = issuer_key.sign(builder);
    Cert {
        der: CertificateDer::from(cert.to_der().expect("der")),
        name: subject.clone(),
    }
}

/// A leaf for `localhost` (server and client use) under `root`.
pub fn leaf(root_key: &Key, root: &Cert, key: &Key, cn: &str, days: i64) -> Cert {
    let name = Name::from_str(&format!("CN={cn},O=pqkit test")).expect("name");
    issue(
        root_key,
        &root.name,
        key,
        &name,
        false,
        &["localhost"],
        validity(days),
        2,
    )
}
