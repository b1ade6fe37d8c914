//! The TLS handshake set-up shared by the `tls` bench and the
//! `interleaved` example: the two providers (pqkit-rustls, and rustls's
//! aws-lc-rs provider with aws-lc-rs ML-DSA signing and rustls-webpki's
//! aws-lc-rs verification), the two chains, the configurations and one
//! full handshake over memory buffers. The including file declares
//! `mod pki` (rustls/tests/pki/mod.rs) beside this module.

use std::sync::Arc;

use rustls::client::Resumption;
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms, aws_lc_rs};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use rustls::server::NoServerSessionStorage;
use rustls::sign::{Signer, SigningKey};
use rustls::{
    ClientConfig, ClientConnection, Error, RootCertStore, ServerConfig, ServerConnection,
    SignatureAlgorithm, SignatureScheme,
};

use super::pki;

/// rustls-webpki's aws-lc-rs algorithms (ML-DSA included), for chains and
/// CertificateVerify.
pub static AWS_ALGS: WebPkiSupportedAlgorithms = WebPkiSupportedAlgorithms {
    all: &[
        webpki::aws_lc_rs::ML_DSA_44,
        webpki::aws_lc_rs::ML_DSA_65,
        webpki::aws_lc_rs::ML_DSA_87,
        webpki::aws_lc_rs::ED25519,
    ],
    mapping: &[
        (SignatureScheme::ML_DSA_87, &[webpki::aws_lc_rs::ML_DSA_87]),
        (SignatureScheme::ML_DSA_65, &[webpki::aws_lc_rs::ML_DSA_65]),
        (SignatureScheme::ML_DSA_44, &[webpki::aws_lc_rs::ML_DSA_44]),
        (SignatureScheme::ED25519, &[webpki::aws_lc_rs::ED25519]),
    ],
};

/// An aws-lc-rs ML-DSA-65 signing key for rustls (what the aws-lc-rs
/// provider lacks in rustls 0.23).
#[derive(Debug)]
pub struct AwsMlDsa(Arc<::aws_lc_rs::signature::PqdsaKeyPair>);

impl SigningKey for AwsMlDsa {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        if !offered.contains(&SignatureScheme::ML_DSA_65) {
            return None;
        }
        Some(Box::new(AwsMlDsa(self.0.clone())))
    }
    fn algorithm(&self) -> SignatureAlgorithm {
        SignatureAlgorithm::Unknown(0)
    }
}

impl Signer for AwsMlDsa {
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, Error> {
        let mut sig = vec![0u8; 3309];
        let n = self
            .0
            .sign(message, &mut sig)
            .map_err(|_| Error::General("aws-lc-rs ML-DSA".into()))?;
        sig.truncate(n);
        Ok(sig)
    }
    fn scheme(&self) -> SignatureScheme {
        SignatureScheme::ML_DSA_65
    }
}

pub fn pqkit_provider() -> Arc<CryptoProvider> {
    Arc::new(CryptoProvider {
        kx_groups: vec![pqkit_rustls::kx::X25519MLKEM768],
        cipher_suites: vec![rustls::crypto::ring::cipher_suite::TLS13_AES_256_GCM_SHA384],
        ..pqkit_rustls::provider()
    })
}

pub fn aws_provider() -> Arc<CryptoProvider> {
    Arc::new(CryptoProvider {
        kx_groups: vec![aws_lc_rs::kx_group::X25519MLKEM768],
        cipher_suites: vec![aws_lc_rs::cipher_suite::TLS13_AES_256_GCM_SHA384],
        signature_verification_algorithms: AWS_ALGS,
        ..aws_lc_rs::default_provider()
    })
}

/// One chain: the trust anchor, the chain the server sends, its key for
/// each provider.
pub struct Setup {
    pub root: CertificateDer<'static>,
    pub chain: Vec<CertificateDer<'static>>,
    pub pqkit_key: PrivateKeyDer<'static>,
    pub aws_key: Arc<dyn SigningKey>,
}

pub fn ml_dsa_setup() -> Setup {
    let root_key = pki::Key::ml_dsa_87(87);
    let root = pki::root(&root_key, "bench ML-DSA-87 root");
    let leaf_key = pki::Key::ml_dsa_65(65);
    let leaf = pki::leaf(&root_key, &root, &leaf_key, "localhost", 7);
    let aws = ::aws_lc_rs::signature::PqdsaKeyPair::from_seed(
        &::aws_lc_rs::signature::ML_DSA_65_SIGNING,
        &[65u8; 32],
    )
    .expect("aws-lc-rs key");
    Setup {
        root: root.der.clone(),
        chain: vec![leaf.der],
        pqkit_key: leaf_key.private_key(),
        aws_key: Arc::new(AwsMlDsa(Arc::new(aws))),
    }
}

pub fn ed25519_setup() -> Setup {
    let root_key = pki::Key::ed25519(1);
    let root = pki::root(&root_key, "bench Ed25519 root");
    let leaf_key = pki::Key::ed25519(2);
    let leaf = pki::leaf(&root_key, &root, &leaf_key, "localhost", 7);
    let aws_key = aws_lc_rs::sign::any_eddsa_type(&match leaf_key.private_key() {
        PrivateKeyDer::Pkcs8(k) => k,
        _ => panic!("pkcs8"),
    })
    .expect("aws-lc-rs Ed25519 key");
    Setup {
        root: root.der.clone(),
        chain: vec![leaf.der],
        pqkit_key: leaf_key.private_key(),
        aws_key,
    }
}

pub fn configs(
    p: Arc<CryptoProvider>,
    s: &Setup,
    aws: bool,
) -> (Arc<ClientConfig>, Arc<ServerConfig>) {
    let mut roots = RootCertStore::empty();
    roots.add(s.root.clone()).unwrap();
    let mut client = ClientConfig::builder_with_provider(p.clone())
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    client.resumption = Resumption::disabled();
    let builder = ServerConfig::builder_with_provider(p)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .with_no_client_auth();
    let mut server = if aws {
        let ck = rustls::sign::CertifiedKey::new(s.chain.clone(), s.aws_key.clone());
        builder.with_cert_resolver(Arc::new(rustls::sign::SingleCertAndKey::from(ck)))
    } else {
        builder
            .with_single_cert(s.chain.clone(), s.pqkit_key.clone_key())
            .unwrap()
    };
    server.session_storage = Arc::new(NoServerSessionStorage {});
    server.send_tls13_tickets = 0;
    (Arc::new(client), Arc::new(server))
}

/// One full handshake; the bytes both sides wrote.
pub fn handshake(client: &Arc<ClientConfig>, server: &Arc<ServerConfig>) -> usize {
    let name = ServerName::try_from("localhost").unwrap();
    let mut c = ClientConnection::new(client.clone(), name).unwrap();
    let mut s = ServerConnection::new(server.clone()).unwrap();
    let mut wire = 0;
    let mut buf = Vec::with_capacity(16 << 10);
    while c.is_handshaking() || s.is_handshaking() || c.wants_write() || s.wants_write() {
        buf.clear();
        while c.wants_write() {
            c.write_tls(&mut buf).unwrap();
        }
        wire += buf.len();
        let mut rd = &buf[..];
        while !rd.is_empty() {
            s.read_tls(&mut rd).unwrap();
            s.process_new_packets().unwrap();
        }
        buf.clear();
        while s.wants_write() {
            s.write_tls(&mut buf).unwrap();
        }
        wire += buf.len();
        let mut rd = &buf[..];
        while !rd.is_empty() {
            c.read_tls(&mut rd).unwrap();
            c.process_new_packets().unwrap();
        }
        if buf.is_empty() && !c.wants_write() && !s.is_handshaking() && !c.is_handshaking() {
            break;
        }
    }
    assert!(!c.is_handshaking() && !s.is_handshaking());
    wire
}
