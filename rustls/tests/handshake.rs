//! Real TLS 1.3 handshakes in process, rustls client and server both on
//! pqkit-rustls: every post-quantum group, ML-DSA and Ed25519 chains,
//! client authentication, and the rejections (tampered signature, wrong
//! root, expired leaf, malformed key shares).
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod pki;

use std::io::{Read, Write};
use std::sync::Arc;

use pki::{Cert, Key};
use pqkit_ml_dsa::KeyFormat;
use pqkit_rustls::rustls::{
    self, CertificateError, ClientConfig, ClientConnection, Error, HandshakeKind, NamedGroup,
    PeerMisbehaved, RootCertStore, ServerConfig, ServerConnection,
    crypto::{CryptoProvider, SupportedKxGroup},
    pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName},
    server::WebPkiClientVerifier,
    version::TLS13,
};
use pqkit_rustls::{kx, provider};

/// Which side failed a handshake.
#[derive(Debug)]
enum Failed {
    Client(Error),
    Server(Error),
}

/// Move every pending TLS record between the two until neither has
/// anything to say (each `read_tls` takes what fits; loop until the
/// buffer is consumed).
fn pump(client: &mut ClientConnection, server: &mut ServerConnection) -> Result<(), Failed> {
    loop {
        let mut buf = Vec::new();
        while client.wants_write() {
            client.write_tls(&mut buf).expect("write");
        }
        let mut moved = !buf.is_empty();
        let mut rd = &buf[..];
        while !rd.is_empty() {
            server.read_tls(&mut rd).expect("read");
            server.process_new_packets().map_err(Failed::Server)?;
        }
        let mut buf = Vec::new();
        while server.wants_write() {
            server.write_tls(&mut buf).expect("write");
        }
        moved |= !buf.is_empty();
        let mut rd = &buf[..];
        while !rd.is_empty() {
            client.read_tls(&mut rd).expect("read");
            client.process_new_packets().map_err(Failed::Client)?;
        }
        if !moved {
            return Ok(());
        }
    }
}

fn provider_with(groups: &[&'static dyn SupportedKxGroup]) -> Arc<CryptoProvider> {
    Arc::new(CryptoProvider {
        kx_groups: groups.to_vec(),
        ..provider()
    })
}

fn roots(root: &Cert) -> RootCertStore {
    let mut store = RootCertStore::empty();
    store.add(root.der.clone()).expect("trust anchor");
    store
}

fn client_config(p: Arc<CryptoProvider>, root: &Cert) -> ClientConfig {
    ClientConfig::builder_with_provider(p)
        .with_protocol_versions(&[&TLS13])
        .expect("versions")
        .with_root_certificates(roots(root))
        .with_no_client_auth()
}

fn server_config(
    p: Arc<CryptoProvider>,
    chain: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
) -> ServerConfig {
    ServerConfig::builder_with_provider(p)
        .with_protocol_versions(&[&TLS13])
        .expect("versions")
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .expect("server key")
}

fn connect(
    client: ClientConfig,
    server: ServerConfig,
) -> Result<(ClientConnection, ServerConnection), Failed> {
    let name = ServerName::try_from("localhost").expect("name");
    let mut c = ClientConnection::new(Arc::new(client), name).expect("client");
    let mut s = ServerConnection::new(Arc::new(server)).expect("server");
    pump(&mut c, &mut s)?;
    assert!(!c.is_handshaking() && !s.is_handshaking());
    Ok((c, s))
}

/// Application data both ways.
fn round_trip(c: &mut ClientConnection, s: &mut ServerConnection) {
    c.writer().write_all(b"ping from the client").unwrap();
    pump(c, s).unwrap();
    let mut got = [0u8; 20];
    s.reader().read_exact(&mut got).unwrap();
    assert_eq!(&got, b"ping from the client");
    s.writer().write_all(b"pong from the server").unwrap();
    pump(c, s).unwrap();
    c.reader().read_exact(&mut got).unwrap();
    assert_eq!(&got, b"pong from the server");
}

/// An ML-DSA-87 root and an ML-DSA-65 leaf for localhost.
fn ml_dsa_pki() -> (Cert, Cert, Key) {
    let root_key = Key::ml_dsa_87(87);
    let root = pki::root(&root_key, "pqkit ML-DSA-87 root");
    let leaf_key = Key::ml_dsa_65(65);
    let leaf = pki::leaf(&root_key, &root, &leaf_key, "localhost", 7);
    (root, leaf, leaf_key)
}

#[test]
fn every_pq_group_with_an_ml_dsa_chain() {
    let (root, leaf, leaf_key) = ml_dsa_pki();
    for &group in kx::ALL_PQ_GROUPS {
        let client = client_config(provider_with(&[group]), &root);
        let server = server_config(
            Arc::new(provider()),
            vec![leaf.der.clone(), root.der.clone()],
            leaf_key.private_key(),
        );
        let (mut c, mut s) = connect(client, server).expect("handshake");
        let name = group.name();
        assert_eq!(c.negotiated_key_exchange_group().unwrap().name(), name);
        assert_eq!(s.negotiated_key_exchange_group().unwrap().name(), name);
        assert_eq!(c.handshake_kind(), Some(HandshakeKind::Full));
        assert_eq!(c.peer_certificates().unwrap()[0], leaf.der);
        round_trip(&mut c, &mut s);
    }
}

#[test]
fn the_groups_have_their_code_points() {
    let names: Vec<u16> = kx::ALL_PQ_GROUPS
        .iter()
        .map(|g| u16::from(g.name()))
        .collect();
    assert_eq!(names, [0x11ec, 0x11eb, 0x11ed, 0x0201, 0x0202]);
    for &g in kx::ALL_PQ_GROUPS {
        assert!(g.usable_for_version(rustls::ProtocolVersion::TLSv1_3));
        assert!(!g.usable_for_version(rustls::ProtocolVersion::TLSv1_2));
    }
}

#[test]
fn ed25519_chain() {
    let root_key = Key::ed25519(1);
    let root = pki::root(&root_key, "pqkit Ed25519 root");
    let leaf_key = Key::ed25519(2);
    let leaf = pki::leaf(&root_key, &root, &leaf_key, "localhost", 7);
    let client = client_config(Arc::new(provider()), &root);
    let server = server_config(
        Arc::new(provider()),
        vec![leaf.der.clone()],
        leaf_key.private_key(),
    );
    let (mut c, mut s) = connect(client, server).expect("handshake");
    assert_eq!(
        c.negotiated_key_exchange_group().unwrap().name(),
        NamedGroup::X25519MLKEM768
    );
    round_trip(&mut c, &mut s);
}

/// A server without post-quantum groups picks the X25519 share the
/// client sent beside its X25519MLKEM768 share (same ephemeral key): no
/// HelloRetryRequest.
#[test]
fn classical_server_takes_the_hybrid_component_without_retry() {
    let (root, leaf, leaf_key) = ml_dsa_pki();
    let client = client_config(Arc::new(provider()), &root);
    let server = server_config(
        provider_with(&[rustls::crypto::ring::kx_group::X25519]),
        vec![leaf.der.clone()],
        leaf_key.private_key(),
    );
    let (mut c, mut s) = connect(client, server).expect("handshake");
    assert_eq!(
        c.negotiated_key_exchange_group().unwrap().name(),
        NamedGroup::X25519
    );
    assert_eq!(c.handshake_kind(), Some(HandshakeKind::Full));
    round_trip(&mut c, &mut s);
}

/// A server preferring a group the client did not send a share for asks
/// for it (HelloRetryRequest) and gets it.
#[test]
fn retry_to_a_pure_ml_kem_group() {
    let (root, leaf, leaf_key) = ml_dsa_pki();
    let client = client_config(Arc::new(provider()), &root);
    let server = server_config(
        provider_with(&[kx::MLKEM1024]),
        vec![leaf.der.clone()],
        leaf_key.private_key(),
    );
    let (mut c, mut s) = connect(client, server).expect("handshake");
    assert_eq!(
        c.negotiated_key_exchange_group().unwrap().name(),
        NamedGroup::MLKEM1024
    );
    assert_eq!(
        c.handshake_kind(),
        Some(HandshakeKind::FullWithHelloRetryRequest)
    );
    round_trip(&mut c, &mut s);
}

#[test]
fn client_authentication_with_ml_dsa_44() {
    let root_key = Key::ml_dsa_87(87);
    let root = pki::root(&root_key, "pqkit ML-DSA-87 root");
    let server_key = Key::ml_dsa_65(65);
    let server_cert = pki::leaf(&root_key, &root, &server_key, "localhost", 7);
    let client_key = Key::ml_dsa_44(44);
    let client_cert = pki::leaf(&root_key, &root, &client_key, "pqkit client", 7);

    let p = Arc::new(provider());
    let verifier = WebPkiClientVerifier::builder_with_provider(Arc::new(roots(&root)), p.clone())
        .build()
        .expect("client verifier");
    let server = ServerConfig::builder_with_provider(p.clone())
        .with_protocol_versions(&[&TLS13])
        .unwrap()
        .with_client_cert_verifier(verifier)
        .with_single_cert(vec![server_cert.der.clone()], server_key.private_key())
        .unwrap();
    let client = ClientConfig::builder_with_provider(p.clone())
        .with_protocol_versions(&[&TLS13])
        .unwrap()
        .with_root_certificates(roots(&root))
        .with_client_auth_cert(vec![client_cert.der.clone()], client_key.private_key())
        .unwrap();
    let (mut c, mut s) = connect(client, server.clone()).expect("handshake");
    assert_eq!(s.peer_certificates().unwrap()[0], client_cert.der);
    round_trip(&mut c, &mut s);

    // Without a certificate the server refuses.
    let anonymous = client_config(p, &root);
    match connect(anonymous, server) {
        Err(Failed::Server(Error::NoCertificatesPresented)) => {}
        other => panic!(
            "expected NoCertificatesPresented, got {:?}",
            other.map(|_| ())
        ),
    }
}

fn client_error(client: ClientConfig, server: ServerConfig) -> Error {
    match connect(client, server) {
        Err(Failed::Client(e)) => e,
        other => panic!(
            "expected a client-side failure, got {:?}",
            other.map(|_| ())
        ),
    }
}

#[test]
fn tampered_signature_wrong_root_and_expired_leaf_are_rejected() {
    let (root, leaf, leaf_key) = ml_dsa_pki();
    let p = Arc::new(provider());

    // One bit of the leaf's signature (the DER ends with it).
    let mut bad = leaf.der.to_vec();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    let e = client_error(
        client_config(p.clone(), &root),
        server_config(
            p.clone(),
            vec![CertificateDer::from(bad)],
            leaf_key.private_key(),
        ),
    );
    assert_eq!(e, Error::InvalidCertificate(CertificateError::BadSignature));

    // A root the client does not trust: another name, then the same name
    // with another key (found by name, its signature check fails).
    let other_root = pki::root(&Key::ml_dsa_87(88), "another root");
    let e = client_error(
        client_config(p.clone(), &other_root),
        server_config(p.clone(), vec![leaf.der.clone()], leaf_key.private_key()),
    );
    assert_eq!(
        e,
        Error::InvalidCertificate(CertificateError::UnknownIssuer)
    );
    let impostor = pki::root(&Key::ml_dsa_87(88), "pqkit ML-DSA-87 root");
    let e = client_error(
        client_config(p.clone(), &impostor),
        server_config(p.clone(), vec![leaf.der.clone()], leaf_key.private_key()),
    );
    assert_eq!(e, Error::InvalidCertificate(CertificateError::BadSignature));

    // A leaf that expired yesterday.
    let expired = pki::leaf(&Key::ml_dsa_87(87), &root, &leaf_key, "localhost", -1);
    let e = client_error(
        client_config(p.clone(), &root),
        server_config(p, vec![expired.der.clone()], leaf_key.private_key()),
    );
    assert!(
        matches!(
            e,
            Error::InvalidCertificate(
                CertificateError::Expired | CertificateError::ExpiredContext { .. }
            )
        ),
        "{e:?}"
    );
}

#[test]
fn key_provider_loads_every_ml_dsa_form_and_falls_back_to_ring() {
    use pqkit_rustls::rustls::SignatureScheme;
    let provider = provider();
    for (key, scheme, alg) in [
        (
            Key::ml_dsa_44(4),
            SignatureScheme::ML_DSA_44,
            pqkit_rustls::verify::ML_DSA_44,
        ),
        (
            Key::ml_dsa_65(6),
            SignatureScheme::ML_DSA_65,
            pqkit_rustls::verify::ML_DSA_65,
        ),
        (
            Key::ml_dsa_87(8),
            SignatureScheme::ML_DSA_87,
            pqkit_rustls::verify::ML_DSA_87,
        ),
    ] {
        let spki = key.spki();
        let pk = spki.subject_public_key.raw_bytes();
        for format in [KeyFormat::Seed, KeyFormat::Expanded, KeyFormat::Both] {
            let der = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.pkcs8_with(format)));
            let loaded = provider.key_provider.load_private_key(der).expect("load");
            assert!(loaded.choose_scheme(&[SignatureScheme::ED25519]).is_none());
            let signer = loaded
                .choose_scheme(&[SignatureScheme::ED25519, scheme])
                .expect("scheme");
            assert_eq!(signer.scheme(), scheme);
            let sig = signer.sign(b"transcript").expect("sign");
            alg.verify_signature(pk, b"transcript", &sig)
                .expect("verifies");
            assert!(alg.verify_signature(pk, b"transcript!", &sig).is_err());
            let spki_der = loaded.public_key().expect("spki");
            assert_eq!(
                spki_der.as_ref(),
                x509_cert::der::Encode::to_der(&spki).unwrap().as_slice()
            );
        }
        // A corrupted key of the right algorithm is an error, not ring's.
        let mut der = key.pkcs8_with(KeyFormat::Expanded);
        let n = der.len();
        der[n - 100] ^= 0xff;
        let e = provider
            .key_provider
            .load_private_key(PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(der)))
            .expect_err("rejected");
        assert!(
            matches!(e, Error::General(ref m) if m.contains("ML-DSA")),
            "{e:?}"
        );
    }

    // Ed25519 on pqkit.
    let ed = Key::ed25519(9);
    let loaded = provider
        .key_provider
        .load_private_key(ed.private_key())
        .expect("ed25519");
    let signer = loaded
        .choose_scheme(&[SignatureScheme::ED25519])
        .expect("scheme");
    let sig = signer.sign(b"m").unwrap();
    let spki = ed.spki();
    pqkit_rustls::verify::ED25519
        .verify_signature(spki.subject_public_key.raw_bytes(), b"m", &sig)
        .expect("verifies");

    // ECDSA P-256 falls through to ring.
    let rng = ring::rand::SystemRandom::new();
    let doc = ring::signature::EcdsaKeyPair::generate_pkcs8(
        &ring::signature::ECDSA_P256_SHA256_ASN1_SIGNING,
        &rng,
    )
    .unwrap();
    let loaded = provider
        .key_provider
        .load_private_key(PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(
            doc.as_ref().to_vec(),
        )))
        .expect("ring key");
    assert_eq!(loaded.algorithm(), rustls::SignatureAlgorithm::ECDSA);
}

#[test]
fn malformed_key_shares_are_peer_misbehaviour() {
    let invalid = Error::PeerMisbehaved(PeerMisbehaved::InvalidKeyShare);
    for &g in kx::ALL_PQ_GROUPS {
        // The client's share, valid, then cut and extended.
        let active = g.start().expect("start");
        let share = active.pub_key().to_vec();
        for len in [0, 1, share.len() - 1, share.len() + 1] {
            let mut s = share.clone();
            s.resize(len, 0);
            assert_eq!(
                g.start_and_complete(&s).err(),
                Some(invalid.clone()),
                "{:?} {len}",
                g.name()
            );
        }
        // The server's answer, then a cut one on a fresh client.
        let done = g.start_and_complete(&share).expect("server");
        assert_eq!(
            active
                .complete(&done.pub_key)
                .expect("client")
                .secret_bytes(),
            done.secret.secret_bytes()
        );
        let active = g.start().expect("start");
        let cut = &done.pub_key[..done.pub_key.len() - 1];
        assert_eq!(active.complete(cut).err(), Some(invalid.clone()));
    }
    // An encapsulation key whose coefficients are not reduced modulo q
    // (FIPS 203 §7.2): all-ones bytes.
    let mut share = vec![0xff; 1184];
    share.extend_from_slice(&[9; 32]);
    assert_eq!(
        kx::X25519MLKEM768.start_and_complete(&share).err(),
        Some(invalid.clone())
    );
    assert_eq!(
        kx::MLKEM768.start_and_complete(&[0xff; 1184]).err(),
        Some(invalid)
    );
}

/// The shared secret's layout: X25519MLKEM768 is ML-KEM first (32 + 32
/// bytes), the NIST-curve hybrids put the ECDH secret first (32 + 32, 48 +
/// 32). Checked against the classical half alone, computed by ring.
#[test]
fn hybrid_secrets_have_the_draft_layout() {
    for (g, classical_len, classical_first) in [
        (kx::X25519MLKEM768, 32usize, false),
        (kx::SECP256R1MLKEM768, 32, true),
        (kx::SECP384R1MLKEM1024, 48, true),
    ] {
        let active = g.start().expect("start");
        let (component_group, component_share) = active.hybrid_component().expect("hybrid");
        let component_share = component_share.to_vec();
        let share = active.pub_key().to_vec();
        let done = g.start_and_complete(&share).expect("server");
        let secret = done.secret.secret_bytes().to_vec();
        assert_eq!(secret.len(), classical_len + 32);
        assert_eq!(
            active.complete(&done.pub_key).unwrap().secret_bytes(),
            &secret[..]
        );
        // The classical share sits where the layout says, and ring agrees
        // on its secret: run the client's classical share against a fresh
        // ring server key.
        let classical_group = rustls::crypto::ring::ALL_KX_GROUPS
            .iter()
            .find(|k| k.name() == component_group)
            .expect("classical group");
        let in_share = if classical_first {
            &share[..component_share.len()]
        } else {
            &share[share.len() - component_share.len()..]
        };
        assert_eq!(in_share, &component_share[..]);
        assert!(classical_group.start_and_complete(in_share).is_ok());
    }
}

/// pqkit's X25519 group against ring's, both directions, and the shares
/// both reject: wrong lengths and the low-order points (all-zero secret).
#[test]
fn x25519_agrees_with_ring_and_rejects_what_ring_rejects() {
    let ring_x25519 = rustls::crypto::ring::kx_group::X25519;
    assert_eq!(kx::X25519.name(), NamedGroup::X25519);
    for _ in 0..32 {
        let ours = kx::X25519.start().expect("start");
        let theirs = ring_x25519
            .start_and_complete(ours.pub_key())
            .expect("ring server");
        assert_eq!(
            ours.complete(&theirs.pub_key)
                .expect("client")
                .secret_bytes(),
            theirs.secret.secret_bytes()
        );
        let theirs = ring_x25519.start().expect("ring start");
        let ours = kx::X25519
            .start_and_complete(theirs.pub_key())
            .expect("server");
        assert_eq!(
            theirs
                .complete(&ours.pub_key)
                .expect("ring client")
                .secret_bytes(),
            ours.secret.secret_bytes()
        );
    }
    let invalid = Error::PeerMisbehaved(PeerMisbehaved::InvalidKeyShare);
    let hex32 = |s: &str| -> Vec<u8> {
        (0..32)
            .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
            .collect()
    };
    let mut bad: Vec<Vec<u8>> = vec![vec![9; 31], vec![9; 33], vec![]];
    // 0, 1, the points of order 8, p - 1, p, p + 1 (RFC 7748 §7 and
    // Bernstein's list of curve25519's small-order u).
    for u in [
        "0000000000000000000000000000000000000000000000000000000000000000",
        "0100000000000000000000000000000000000000000000000000000000000000",
        "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
        "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    ] {
        bad.push(hex32(u));
    }
    for share in &bad {
        let ours = kx::X25519.start_and_complete(share).err();
        let theirs = ring_x25519.start_and_complete(share).err();
        assert_eq!(ours, Some(invalid.clone()), "{share:02x?}");
        assert_eq!(ours, theirs, "{share:02x?}");
        let active = kx::X25519.start().expect("start");
        assert_eq!(active.complete(share).err(), Some(invalid.clone()));
    }
}

/// The provider offers pqkit's X25519, once, after the post-quantum groups.
#[test]
fn provider_x25519_is_pqkits() {
    let groups = provider().kx_groups;
    let x: Vec<_> = groups
        .iter()
        .filter(|g| g.name() == NamedGroup::X25519)
        .collect();
    assert_eq!(x.len(), 1);
    assert_eq!(format!("{:?}", x[0]), "X25519Group");
}
