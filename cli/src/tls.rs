//! `tls-server` and `tls-client`: TLS 1.3 on pqkit-rustls from the
//! terminal. Each prints the protocol, the key exchange group, the
//! signature scheme of the server's CertificateVerify and the peer
//! certificate's subject, one `name: value` line each.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pqkit_rustls::rustls::client::WebPkiServerVerifier;
use pqkit_rustls::rustls::client::danger::{
    HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier,
};
use pqkit_rustls::rustls::crypto::{CryptoProvider, SupportedKxGroup};
use pqkit_rustls::rustls::pki_types::pem::PemObject;
use pqkit_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use pqkit_rustls::rustls::server::{ClientHello, ResolvesServerCert};
use pqkit_rustls::rustls::sign::{CertifiedKey, Signer, SigningKey};
use pqkit_rustls::rustls::{
    self, ClientConfig, ClientConnection, DigitallySignedStruct, RootCertStore, ServerConfig,
    ServerConnection, SignatureAlgorithm, SignatureScheme, StreamOwned,
};

use crate::{CliError, Result};

/// The provider with only the named groups (in that order), or all.
fn provider(groups: &[String]) -> Result<Arc<CryptoProvider>> {
    let mut p = pqkit_rustls::provider();
    if !groups.is_empty() {
        let all = p.kx_groups.clone();
        p.kx_groups = groups
            .iter()
            .map(|name| {
                all.iter()
                    .find(|g| group_name(**g).eq_ignore_ascii_case(name))
                    .copied()
                    .ok_or_else(|| {
                        let known: Vec<String> = all.iter().map(|g| group_name(*g)).collect();
                        CliError::new(format!(
                            "unknown group {name} (known: {})",
                            known.join(", ")
                        ))
                    })
            })
            .collect::<Result<_>>()?;
    }
    Ok(Arc::new(p))
}

/// A group's name as the drafts and IANA write it.
fn group_name(g: &dyn SupportedKxGroup) -> String {
    match u16::from(g.name()) {
        0x11ec => "X25519MLKEM768".into(),
        0x11eb => "SecP256r1MLKEM768".into(),
        0x11ed => "SecP384r1MLKEM1024".into(),
        0x0201 => "MLKEM768".into(),
        0x0202 => "MLKEM1024".into(),
        0x001d => "X25519".into(),
        0x0017 => "secp256r1".into(),
        0x0018 => "secp384r1".into(),
        _ => format!("{:?}", g.name()),
    }
}

fn read_pem_certs(path: &str) -> Result<Vec<CertificateDer<'static>>> {
    let certs = CertificateDer::pem_file_iter(path)
        .and_then(|it| it.collect::<std::result::Result<Vec<_>, _>>())
        .map_err(|e| CliError::new(format!("{path}: {e}")))?;
    if certs.is_empty() {
        return Err(CliError::new(format!("{path}: no CERTIFICATE in the file")));
    }
    Ok(certs)
}

/// The subject of a DER certificate, as text.
fn subject(cert: &[u8]) -> String {
    use x509_cert::der::Decode;
    x509_cert::Certificate::from_der(cert).map_or_else(
        |e| format!("(unparsable certificate: {e})"),
        |c| c.tbs_certificate().subject().to_string(),
    )
}

/// Remembers the scheme its key signed with (one connection at a time).
#[derive(Debug)]
struct RecordingKey {
    inner: Arc<dyn SigningKey>,
    chosen: Arc<Mutex<Option<SignatureScheme>>>,
}

impl SigningKey for RecordingKey {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        let signer = self.inner.choose_scheme(offered)?;
        if let Ok(mut c) = self.chosen.lock() {
            *c = Some(signer.scheme());
        }
        Some(signer)
    }
    fn public_key(&self) -> Option<rustls::pki_types::SubjectPublicKeyInfoDer<'_>> {
        self.inner.public_key()
    }
    fn algorithm(&self) -> SignatureAlgorithm {
        self.inner.algorithm()
    }
}

#[derive(Debug)]
struct OneCert(Arc<CertifiedKey>);

impl ResolvesServerCert for OneCert {
    fn resolve(&self, _hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(self.0.clone())
    }
}

/// `pqkit tls-server`: serve on 127.0.0.1:`port`; each connection reads
/// one line and gets an HTTP/1.0 answer naming what was negotiated, and
/// the same is printed on standard output.
pub fn server(cert: &str, key: &str, port: u16, groups: &[String], once: bool) -> Result<u8> {
    let chain = read_pem_certs(cert)?;
    let key_bytes = crate::io::read_input(key)?;
    let key_der = PrivateKeyDer::from_pem_slice(&key_bytes)
        .or_else(|_| PrivateKeyDer::try_from(key_bytes.clone()).map_err(CliError::new))
        .map_err(|e| CliError::new(format!("{key}: not a PKCS#8 private key: {e:?}")))?;
    let p = provider(groups)?;
    let signing = p
        .key_provider
        .load_private_key(key_der)
        .map_err(|e| CliError::new(format!("{key}: {e}")))?;
    let chosen = Arc::new(Mutex::new(None));
    let recording = Arc::new(RecordingKey {
        inner: signing,
        chosen: chosen.clone(),
    });
    let certified = CertifiedKey::new(chain, recording);
    certified
        .keys_match()
        .map_err(|e| CliError::new(format!("{key} does not belong to {cert}: {e}")))?;
    let config = ServerConfig::builder_with_provider(p)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(CliError::from)?
        .with_no_client_auth()
        .with_cert_resolver(Arc::new(OneCert(Arc::new(certified))));
    let config = Arc::new(config);
    let listener = TcpListener::bind(("127.0.0.1", port))
        .map_err(|e| CliError::new(format!("port {port}: {e}")))?;
    println!(
        "listening: 127.0.0.1:{}",
        listener.local_addr().map_or(port, |a| a.port())
    );
    std::io::stdout().flush().ok();
    for stream in listener.incoming() {
        let outcome = serve_one(&config, stream, &chosen);
        match (&outcome, once) {
            (Ok(()), true) => return Ok(0),
            (Err(e), true) => return Err(CliError::new(e.0.clone())),
            (Err(e), false) => eprintln!("pqkit: connection failed: {}", e.0),
            (Ok(()), false) => {}
        }
    }
    Ok(0)
}

fn serve_one(
    config: &Arc<ServerConfig>,
    stream: std::io::Result<TcpStream>,
    chosen: &Mutex<Option<SignatureScheme>>,
) -> Result<()> {
    let stream = stream?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let conn = ServerConnection::new(config.clone()).map_err(CliError::from)?;
    let mut tls = StreamOwned::new(conn, stream);
    let mut line = String::new();
    BufReader::new(&mut tls)
        .read_line(&mut line)
        .map_err(|e| CliError::new(format!("handshake: {e}")))?;
    let scheme = chosen.lock().ok().and_then(|c| *c);
    let info = describe(
        tls.conn.protocol_version(),
        tls.conn.negotiated_key_exchange_group(),
        scheme,
        tls.conn.peer_certificates().and_then(|c| c.first()),
    );
    print!("{info}");
    std::io::stdout().flush().ok();
    let reply = format!(
        "HTTP/1.0 200 OK\r\ncontent-length: {}\r\n\r\n{info}",
        info.len()
    );
    tls.write_all(reply.as_bytes())?;
    tls.conn.send_close_notify();
    tls.flush()?;
    Ok(())
}

fn describe(
    version: Option<rustls::ProtocolVersion>,
    group: Option<&'static dyn SupportedKxGroup>,
    scheme: Option<SignatureScheme>,
    peer: Option<&CertificateDer<'_>>,
) -> String {
    let or_none = |o: Option<String>| o.unwrap_or_else(|| "none".into());
    format!(
        "protocol: {}\ngroup: {}\nsignature scheme: {}\npeer certificate subject: {}\n",
        or_none(version.map(|v| format!("{v:?}"))),
        or_none(group.map(group_name)),
        or_none(scheme.map(scheme_name)),
        or_none(peer.map(|c| subject(c))),
    )
}

/// A signature scheme's IANA name.
fn scheme_name(s: SignatureScheme) -> String {
    match s {
        SignatureScheme::ML_DSA_44 => "mldsa44".into(),
        SignatureScheme::ML_DSA_65 => "mldsa65".into(),
        SignatureScheme::ML_DSA_87 => "mldsa87".into(),
        SignatureScheme::ED25519 => "ed25519".into(),
        other => format!("{other:?}").to_lowercase(),
    }
}

/// Verifies like rustls-webpki, and remembers the CertificateVerify scheme.
#[derive(Debug)]
struct RecordingVerifier {
    inner: Arc<WebPkiServerVerifier>,
    scheme: Mutex<Option<SignatureScheme>>,
}

impl ServerCertVerifier for RecordingVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> std::result::Result<ServerCertVerified, rustls::Error> {
        self.inner
            .verify_server_cert(end_entity, intermediates, server_name, ocsp, now)
    }
    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls12_signature(message, cert, dss)
    }
    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        let ok = self.inner.verify_tls13_signature(message, cert, dss)?;
        if let Ok(mut s) = self.scheme.lock() {
            *s = Some(dss.scheme);
        }
        Ok(ok)
    }
    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.inner.supported_verify_schemes()
    }
}

/// `pqkit tls-client HOST:PORT`: handshake, send one line, print what was
/// negotiated and the server's first line.
pub fn client(
    addr: &str,
    ca: Option<&str>,
    groups: &[String],
    server_name: Option<&str>,
) -> Result<u8> {
    let host = addr
        .rsplit_once(':')
        .map(|(h, _)| h.trim_start_matches('[').trim_end_matches(']'))
        .ok_or_else(|| CliError::new(format!("{addr}: expected HOST:PORT")))?;
    let mut roots = RootCertStore::empty();
    match ca {
        Some(path) => {
            for cert in read_pem_certs(path)? {
                roots
                    .add(cert)
                    .map_err(|e| CliError::new(format!("{path}: {e}")))?;
            }
        }
        None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
    }
    let p = provider(groups)?;
    let verifier = WebPkiServerVerifier::builder_with_provider(Arc::new(roots), p.clone())
        .build()
        .map_err(|e| CliError::new(e.to_string()))?;
    let recording = Arc::new(RecordingVerifier {
        inner: verifier,
        scheme: Mutex::new(None),
    });
    let config = ClientConfig::builder_with_provider(p)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(CliError::from)?
        .dangerous()
        .with_custom_certificate_verifier(recording.clone())
        .with_no_client_auth();
    let name = ServerName::try_from(server_name.unwrap_or(host).to_string())
        .map_err(|e| CliError::new(format!("server name: {e}")))?;
    let conn = ClientConnection::new(Arc::new(config), name).map_err(CliError::from)?;
    let stream = TcpStream::connect(addr).map_err(|e| CliError::new(format!("{addr}: {e}")))?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut tls = StreamOwned::new(conn, stream);
    write!(tls, "GET / HTTP/1.0\r\nHost: {host}\r\n\r\n")
        .and_then(|()| tls.flush())
        .map_err(|e| CliError::new(format!("handshake: {e}")))?;
    let mut line = String::new();
    BufReader::new(&mut tls)
        .read_line(&mut line)
        .map_err(|e| CliError::new(format!("handshake: {e}")))?;
    let scheme = recording.scheme.lock().ok().and_then(|s| *s);
    print!(
        "{}",
        describe(
            tls.conn.protocol_version(),
            tls.conn.negotiated_key_exchange_group(),
            scheme,
            tls.conn.peer_certificates().and_then(|c| c.first()),
        )
    );
    println!("response: {}", line.trim_end());
    Ok(0)
}
