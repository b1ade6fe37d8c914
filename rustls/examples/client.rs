//! A TLS 1.3 client on pqkit-rustls: connects, sends one HTTP request and
//! prints what was negotiated and the first line of the answer.
//!
//! ```text
//! cargo run -p pqkit-rustls --example client -- localhost:8443 --ca pqkit-demo-root.pem
//! cargo run -p pqkit-rustls --example client -- pq.cloudflareresearch.com:443
//! ```
//!
//! Without `--ca` it trusts the Mozilla roots (`webpki-roots`).
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::sync::Arc;

use pqkit_rustls::rustls::pki_types::pem::PemObject;
use pqkit_rustls::rustls::pki_types::{CertificateDer, ServerName};
use pqkit_rustls::rustls::{ClientConfig, ClientConnection, RootCertStore, StreamOwned};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let addr = args
        .get(1)
        .ok_or("usage: client HOST:PORT [--ca ROOT.pem]")?;
    let host = addr.rsplit_once(':').map_or(addr.as_str(), |(h, _)| h);
    let mut roots = RootCertStore::empty();
    match args
        .iter()
        .position(|a| a == "--ca")
        .and_then(|i| args.get(i + 1))
    {
        Some(ca) => {
            for cert in CertificateDer::pem_file_iter(ca)? {
                roots.add(cert?)?;
            }
        }
        None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
    }
    let config = ClientConfig::builder_with_provider(Arc::new(pqkit_rustls::provider()))
        .with_safe_default_protocol_versions()?
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = ServerName::try_from(host.to_string())?;
    let conn = ClientConnection::new(Arc::new(config), name)?;
    let mut tls = StreamOwned::new(conn, TcpStream::connect(addr)?);
    write!(
        tls,
        "GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )?;
    tls.flush()?;
    let mut line = String::new();
    BufReader::new(&mut tls).read_line(&mut line)?;
    println!("protocol: {:?}", tls.conn.protocol_version());
    println!(
        "group: {:?}",
        tls.conn.negotiated_key_exchange_group().map(|g| g.name())
    );
    println!(
        "suite: {:?}",
        tls.conn.negotiated_cipher_suite().map(|s| s.suite())
    );
    println!("response: {}", line.trim_end());
    Ok(())
}
