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

use criterion::{Criterion, criterion_group, criterion_main};
use pqkit_benches::mean_us;
use rustls::SignatureScheme;
use rustls::crypto::aws_lc_rs;

#[path = "shared/tls_setup.rs"]
mod tls_setup;
use tls_setup::{aws_provider, configs, ed25519_setup, handshake, ml_dsa_setup, pqkit_provider};

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
            "X25519",
            pqkit_rustls::kx::X25519,
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
