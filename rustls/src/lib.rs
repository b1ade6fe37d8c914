//! A [rustls] crypto provider with post-quantum key exchange and
//! post-quantum certificates: pqkit (pure Rust) for ML-KEM, ML-DSA,
//! Ed25519 and X25519, ring for the other classical and symmetric parts
//! (AES-GCM, ChaCha20-Poly1305, HKDF, P-256/P-384 ECDH, ECDSA, RSA); no
//! aws-lc.
//!
//! - **Key exchange** (TLS 1.3): `X25519MLKEM768` (0x11ec),
//!   `SecP256r1MLKEM768` (0x11eb), `SecP384r1MLKEM1024` (0x11ed),
//!   `MLKEM768` (0x0201), `MLKEM1024` (0x0202) from [`kx`], with the wire
//!   layouts of draft-ietf-tls-ecdhe-mlkem and draft-ietf-tls-mlkem; then
//!   X25519 ([`kx::X25519`], pqkit's, also the hybrid's classical half),
//!   and ring's P-256 and P-384. A client offering a hybrid group also
//!   offers its classical half from the same ephemeral key, so a server
//!   without post-quantum support answers without a retry.
//! - **Certificates and CertificateVerify**: ML-DSA-44/65/87 (RFC 9881
//!   OIDs; TLS schemes 0x0904-0x0906) and Ed25519 (0x0807) on pqkit, ECDSA
//!   and RSA on ring ([`verify::SUPPORTED_SIG_ALGS`]), so rustls-webpki
//!   verifies ML-DSA chains.
//! - **Private keys** ([`sign::PqkitKeyProvider`]): ML-DSA in all three
//!   PKCS#8 forms (seed, expandedKey, both: OpenSSL writes the seed form)
//!   and Ed25519 on pqkit, every other key type on ring.
//!
//! ```
//! use std::sync::Arc;
//! use pqkit_rustls::rustls;
//!
//! // A client that prefers X25519MLKEM768 and accepts ML-DSA certificates.
//! let roots = rustls::RootCertStore::empty(); // add your trust anchors
//! let config = rustls::ClientConfig::builder_with_provider(Arc::new(pqkit_rustls::provider()))
//!     .with_protocol_versions(&[&rustls::version::TLS13])?
//!     .with_root_certificates(roots)
//!     .with_no_client_auth();
//! assert_eq!(
//!     config.crypto_provider().kx_groups[0].name(),
//!     rustls::NamedGroup::X25519MLKEM768
//! );
//! # Ok::<(), rustls::Error>(())
//! ```
//!
//! A server loads its ML-DSA key (any PKCS#8 form, e.g. one written by
//! `openssl genpkey -algorithm ML-DSA-65` or `pqkit keygen`) and chain as
//! with any provider: see `examples/server.rs` and `examples/client.rs`.

#![forbid(unsafe_code)]

use std::sync::Arc;

use rustls::crypto::CryptoProvider;

pub mod kx;
pub mod sign;
pub mod verify;

pub use rustls;

/// `N` bytes from the operating system (ring's `SystemRandom`, the
/// provider's `secure_random` too), wiped on drop.
pub(crate) fn random<const N: usize>() -> Result<zeroize::Zeroizing<[u8; N]>, rustls::Error> {
    use ring::rand::SecureRandom;
    let mut out = zeroize::Zeroizing::new([0u8; N]);
    ring::rand::SystemRandom::new()
        .fill(&mut out[..])
        .map_err(|_| rustls::Error::FailedToGetRandomBytes)?;
    Ok(out)
}

/// The provider: ring's cipher suites and random numbers; the
/// post-quantum groups of [`kx`] first (the first, X25519MLKEM768, is the
/// client's key share), then pqkit's X25519 and ring's P-256 and P-384;
/// [`verify::SUPPORTED_SIG_ALGS`]; [`sign::KEY_PROVIDER`].
pub fn provider() -> CryptoProvider {
    let ring = rustls::crypto::ring::default_provider();
    let mut kx_groups = kx::ALL_PQ_GROUPS.to_vec();
    kx_groups.push(kx::X25519);
    kx_groups.extend(
        rustls::crypto::ring::ALL_KX_GROUPS
            .iter()
            .filter(|g| g.name() != rustls::NamedGroup::X25519),
    );
    CryptoProvider {
        kx_groups,
        signature_verification_algorithms: verify::SUPPORTED_SIG_ALGS,
        key_provider: sign::KEY_PROVIDER,
        ..ring
    }
}

/// Make [`provider`] the process-wide default (what
/// `ClientConfig::builder()` / `ServerConfig::builder()` use). Fails, with
/// the provider that is installed, if one already is.
pub fn install_default() -> Result<(), Arc<CryptoProvider>> {
    provider().install_default()
}
