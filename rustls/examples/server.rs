//! A TLS 1.3 server on pqkit-rustls: answers each connection with one
//! HTTP response naming the negotiated group and cipher suite.
//!
//! ```text
//! cargo run -p pqkit-rustls --example server -- [--cert CHAIN.pem --key KEY.pem] [--port 8443]
//! ```
//!
//! Without `--cert`/`--key` it makes a demo PKI (an ML-DSA-87 root and an
//! ML-DSA-65 leaf for `localhost`) and writes the root to
//! `pqkit-demo-root.pem` for the client's `--ca`.
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::Arc;

use pqkit_rustls::rustls::pki_types::pem::PemObject;
use pqkit_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use pqkit_rustls::rustls::{ServerConfig, ServerConnection, StreamOwned};

#[path = "../tests/pki/mod.rs"]
mod pki;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
    };
    let port = arg("--port").map_or(Ok(8443), |p| p.parse())?;
    let (chain, key) = match (arg("--cert"), arg("--key")) {
        (Some(c), Some(k)) => (
            CertificateDer::pem_file_iter(c)?.collect::<Result<Vec<_>, _>>()?,
            PrivateKeyDer::from_pem_file(k)?,
        ),
        _ => {
            let root_key = pki::Key::ml_dsa_87_from(&random_seed()?);
            let root = pki::root(&root_key, "pqkit demo root");
            let leaf_key = pki::Key::ml_dsa_65_from(&random_seed()?);
            let leaf = pki::leaf(&root_key, &root, &leaf_key, "localhost", 30);
            std::fs::write("pqkit-demo-root.pem", root.pem())?;
            eprintln!("demo PKI: root written to pqkit-demo-root.pem");
            (vec![leaf.der], leaf_key.private_key())
        }
    };
    let config = ServerConfig::builder_with_provider(Arc::new(pqkit_rustls::provider()))
        .with_safe_default_protocol_versions()?
        .with_no_client_auth()
        .with_single_cert(chain, key)?;
    let config = Arc::new(config);
    let listener = TcpListener::bind(("127.0.0.1", port))?;
    eprintln!("listening on 127.0.0.1:{port}");
    for stream in listener.incoming() {
        let conn = ServerConnection::new(config.clone())?;
        let mut tls = StreamOwned::new(conn, stream?);
        let mut line = String::new();
        if let Err(e) = BufReader::new(&mut tls).read_line(&mut line) {
            eprintln!("handshake failed: {e}");
            continue;
        }
        let group = tls.conn.negotiated_key_exchange_group().map(|g| g.name());
        let suite = tls.conn.negotiated_cipher_suite().map(|s| s.suite());
        let body = format!("hello from pqkit-rustls: group {group:?}, suite {suite:?}\n");
        eprint!("{body}");
        let reply = format!(
            "HTTP/1.0 200 OK\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        );
        let _ = tls.write_all(reply.as_bytes());
        tls.conn.send_close_notify();
        let _ = tls.flush();
    }
    Ok(())
}

/// A fresh key seed from the operating system (ring's `SystemRandom`).
fn random_seed() -> Result<[u8; 32], &'static str> {
    let seed = ring::rand::generate(&ring::rand::SystemRandom::new());
    seed.map(|s| s.expose()).map_err(|_| "no OS randomness")
}
