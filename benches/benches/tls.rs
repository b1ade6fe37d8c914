//! Full TLS 1.3 handshakes per second, client and server in one process
//! over memory buffers (new connections every time, no resumption):
//! pqkit-rustls beside rustls's aws-lc-rs provider with the same group
//! (X25519MLKEM768), the same cipher suite and the same certificates,
//! ML-DSA on the aws-lc-rs side being aws-lc-rs's (`unstable`) signing and
//! rustls-webpki's aws-lc-rs verification. Two chains: an ML-DSA-87 root
//! with an ML-DSA-65 leaf, and Ed25519 throughout. Prints handshakes/s,
//! the ratio and the bytes on the wire per handshake at the end.
#![allow(missing_docs, clippy::expect_used, clippy::unwrap_used, clippy::panic)]

#[path = "../../rustls/tests/pki/mod.rs"]
mod pki;

use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use pqkit_benches::mean_us;
use rustls::client::Resumption;
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms, aws_lc_rs};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use rustls::server::NoServerSessionStorage;
use rustls::sign::{Signer, SigningKey};
use rustls::{
    ClientConfig, ClientConnection, Error, RootCertStore, ServerConfig, ServerConnection,
    SignatureAlgorithm, SignatureScheme,
};

/// rustls-webpki's aws-lc-rs algorithms (ML-DSA included), for chains and
/// CertificateVerify.
static AWS_ALGS: WebPkiSupportedAlgorithms = WebPkiSupportedAlgorithms {
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
struct AwsMlDsa(Arc<::aws_lc_rs::signature::PqdsaKeyPair>);

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

fn pqkit_provider() -> Arc<CryptoProvider> {
    Arc::new(CryptoProvider {
        kx_groups: vec![pqkit_rustls::kx::X25519MLKEM768],
        cipher_suites: vec![rustls::crypto::ring::cipher_suite::TLS13_AES_256_GCM_SHA384],
        ..pqkit_rustls::provider()
    })
}

fn aws_provider() -> Arc<CryptoProvider> {
    Arc::new(CryptoProvider {
        kx_groups: vec![aws_lc_rs::kx_group::X25519MLKEM768],
        cipher_suites: vec![aws_lc_rs::cipher_suite::TLS13_AES_256_GCM_SHA384],
        signature_verification_algorithms: AWS_ALGS,
        ..aws_lc_rs::default_provider()
    })
}

/// One chain: the trust anchor, the chain the server sends, its key for
/// each provider.
struct Setup {
    root: CertificateDer<'static>,
    chain: Vec<CertificateDer<'static>>,
    pqkit_key: PrivateKeyDer<'static>,
    aws_key: Arc<dyn SigningKey>,
}

fn ml_dsa_setup() -> Setup {
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

fn ed25519_setup() -> Setup {
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

fn configs(p: Arc<CryptoProvider>, s: &Setup, aws: bool) -> (Arc<ClientConfig>, Arc<ServerConfig>) {
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
fn handshake(client: &Arc<ClientConfig>, server: &Arc<ServerConfig>) -> usize {
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

fn all(c: &mut Criterion) {
    let mut table = Vec::new();
    for (label, setup) in [
        ("ML-DSA-65 chain", ml_dsa_setup()),
        ("Ed25519 chain", ed25519_setup()),
    ] {
        let (pc, ps) = configs(pqkit_provider(), &setup, false);
        let (ac, asv) = configs(aws_provider(), &setup, true);
        let mut g = c.benchmark_group(format!("handshake X25519MLKEM768 {label}"));
        g.bench_function("pqkit-rustls", |b| b.iter(|| handshake(&pc, &ps)));
        g.bench_function("aws-lc-rs", |b| b.iter(|| handshake(&ac, &asv)));
        g.finish();
        let (ours, theirs) = (
            mean_us(|| handshake(&pc, &ps)),
            mean_us(|| handshake(&ac, &asv)),
        );
        let (wire_ours, wire_theirs) = (handshake(&pc, &ps), handshake(&ac, &asv));
        table.push(format!(
            "{label:16} pqkit-rustls {:8.0}/s  aws-lc-rs {:8.0}/s  pqkit/aws-lc {:.2}x  wire bytes {wire_ours} / {wire_theirs}",
            1e6 / ours,
            1e6 / theirs,
            theirs / ours
        ));
    }
    println!("\nTLS 1.3 full handshakes (client + server, one process), X25519MLKEM768:");
    for line in table {
        println!("{line}");
    }
    components();
}

/// Where a handshake's time goes: the key exchange (client start, server
/// start-and-complete, client complete) and the signatures (the server's
/// CertificateVerify, the client's two verifications), per provider, µs.
fn components() {
    use rustls::crypto::SupportedKxGroup;
    println!("\nHandshake components, µs (pqkit-rustls / aws-lc-rs provider):");
    let kx = |g: &'static dyn SupportedKxGroup| {
        let share = g.start().unwrap().pub_key().to_vec();
        let start = mean_us(|| g.start().unwrap());
        let server = mean_us(|| g.start_and_complete(&share).unwrap());
        let reply = g.start_and_complete(&share).unwrap().pub_key;
        let complete = mean_us(|| {
            // A fresh client each time (complete consumes it), minus its start.
            g.start().unwrap().complete(&reply).err()
        }) - start;
        (start, server, complete)
    };
    for (name, ours, theirs) in [
        (
            "X25519MLKEM768",
            pqkit_rustls::kx::X25519MLKEM768,
            aws_lc_rs::kx_group::X25519MLKEM768,
        ),
        (
            "X25519 (ring / aws-lc)",
            rustls::crypto::ring::kx_group::X25519,
            aws_lc_rs::kx_group::X25519,
        ),
    ] {
        let (a, b) = (kx(ours), kx(theirs));
        println!(
            "{name:24} client start {:6.1} / {:6.1}  server {:6.1} / {:6.1}  client complete {:6.1} / {:6.1}",
            a.0, b.0, a.1, b.1, a.2, b.2
        );
    }
    for (label, setup) in [("ML-DSA-65", ml_dsa_setup()), ("Ed25519", ed25519_setup())] {
        let ours = pqkit_rustls::provider()
            .key_provider
            .load_private_key(setup.pqkit_key.clone_key())
            .unwrap();
        let scheme = if label == "Ed25519" {
            SignatureScheme::ED25519
        } else {
            SignatureScheme::ML_DSA_65
        };
        let msg = [0x20u8; 130]; // CertificateVerify's content: 64 spaces, context, hash
        let sign_ours = mean_us(|| ours.choose_scheme(&[scheme]).unwrap().sign(&msg).unwrap());
        let sign_theirs = mean_us(|| {
            setup
                .aws_key
                .choose_scheme(&[scheme])
                .unwrap()
                .sign(&msg)
                .unwrap()
        });
        let sig = ours.choose_scheme(&[scheme]).unwrap().sign(&msg).unwrap();
        let spki = ours.public_key().unwrap();
        let pk = spki_key(spki.as_ref());
        let (va, vb) = match label {
            "Ed25519" => (pqkit_rustls::verify::ED25519, webpki::aws_lc_rs::ED25519),
            _ => (
                pqkit_rustls::verify::ML_DSA_65,
                webpki::aws_lc_rs::ML_DSA_65,
            ),
        };
        va.verify_signature(&pk, &msg, &sig).unwrap();
        vb.verify_signature(&pk, &msg, &sig).unwrap();
        let verify_ours = mean_us(|| va.verify_signature(&pk, &msg, &sig).unwrap());
        let verify_theirs = mean_us(|| vb.verify_signature(&pk, &msg, &sig).unwrap());
        println!(
            "{label:24} sign {sign_ours:6.1} / {sign_theirs:6.1}  verify from key bytes {verify_ours:6.1} / {verify_theirs:6.1}"
        );
    }
}

/// The subjectPublicKey bytes of a DER SubjectPublicKeyInfo.
fn spki_key(der: &[u8]) -> Vec<u8> {
    use x509_cert::der::Decode;
    let spki = x509_cert::spki::SubjectPublicKeyInfoRef::from_der(der).unwrap();
    spki.subject_public_key.raw_bytes().to_vec()
}

criterion_group!(benches, all);
criterion_main!(benches);
