//! TLS 1.3 key exchange on ML-KEM: the pure groups of draft-ietf-tls-mlkem
//! and the hybrids of draft-ietf-tls-ecdhe-mlkem.
//!
//! A group is an ML-KEM parameter set, optionally with a classical ECDH
//! group ([`X25519`] from pqkit-x25519, P-256 and P-384 from ring), and a
//! layout: which half comes first on the wire
//! and in the shared secret (X25519MLKEM768 puts ML-KEM first, the NIST
//! curve hybrids put the curve first). The client generates an ML-KEM
//! key pair and the classical share; the server encapsulates to the
//! client's key ([`SupportedKxGroup::start_and_complete`], overridden:
//! the default would run a second key generation) and answers with the
//! ciphertext; the client decapsulates.
//!
//! Everything here talks to rustls through `SupportedKxGroup` /
//! `ActiveKeyExchange` and nothing else, so the rustls 0.24 API
//! (`StartedKeyExchange`, public `Hybrid`) is a port of this file only.

use core::marker::PhantomData;

use pqkit_ml_kem::{DecapsulationKey, EncapsulationKey, MlKem768, MlKem1024, ParameterSet};
use rustls::crypto::{
    ActiveKeyExchange, CompletedKeyExchange, SharedSecret, SupportedKxGroup, ring::kx_group,
};
use rustls::{Error, NamedGroup, PeerMisbehaved, ProtocolVersion};

use crate::random;

/// Where the halves go and how long the classical one is.
#[derive(Clone, Copy, Debug)]
struct Layout {
    /// The TLS group.
    name: NamedGroup,
    /// Length of the classical share in both directions (an X25519 key, or
    /// an uncompressed curve point); 0 for pure ML-KEM.
    classical_len: usize,
    /// Whether the classical half comes first (shares and secret).
    classical_first: bool,
}

impl Layout {
    /// Split a peer's share of `pq_len + classical_len` bytes into its ML-KEM
    /// and classical halves; any other length is the peer's fault.
    fn split<'a>(&self, share: &'a [u8], pq_len: usize) -> Result<(&'a [u8], &'a [u8]), Error> {
        if share.len() != pq_len + self.classical_len {
            return Err(PeerMisbehaved::InvalidKeyShare.into());
        }
        Ok(if self.classical_first {
            let (c, pq) = share.split_at(self.classical_len);
            (pq, c)
        } else {
            share.split_at(pq_len)
        })
    }

    /// Concatenate the two halves in the group's order.
    fn join(&self, pq: &[u8], classical: &[u8]) -> Vec<u8> {
        let (first, second) = if self.classical_first {
            (classical, pq)
        } else {
            (pq, classical)
        };
        let mut out = Vec::with_capacity(first.len() + second.len());
        out.extend_from_slice(first);
        out.extend_from_slice(second);
        out
    }

    /// The combined shared secret (wiped: rustls's `SharedSecret` wipes
    /// its buffer on drop, and the halves are wiped by their owners).
    fn secret(&self, pq: &[u8], classical: Option<&SharedSecret>) -> SharedSecret {
        let classical = classical.map_or(&[][..], SharedSecret::secret_bytes);
        SharedSecret::from(self.join(pq, classical))
    }
}

/// An ML-KEM (optionally hybrid) key exchange group; see the statics
/// [`X25519MLKEM768`], [`SECP256R1MLKEM768`], [`SECP384R1MLKEM1024`],
/// [`MLKEM768`] and [`MLKEM1024`].
pub struct KemGroup<P: ParameterSet> {
    layout: Layout,
    classical: Option<&'static dyn SupportedKxGroup>,
    _p: PhantomData<fn() -> P>,
}

impl<P: ParameterSet> core::fmt::Debug for KemGroup<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "KemGroup({:?})", self.layout.name)
    }
}

impl<P: ParameterSet> SupportedKxGroup for KemGroup<P> {
    /// Client side: a fresh ML-KEM key pair (and classical share).
    fn start(&self) -> Result<Box<dyn ActiveKeyExchange>, Error> {
        let seed = random::<64>()?;
        let dk = DecapsulationKey::<P>::from_seed(pqkit_ml_kem::Seed::from(*seed));
        let classical = self.classical.map(|g| g.start()).transpose()?;
        let ek = dk.encapsulation_key().as_bytes();
        let pub_key = match &classical {
            Some(c) => self.layout.join(ek, c.pub_key()),
            None => ek.to_vec(),
        };
        Ok(Box::new(Active::<P> {
            layout: self.layout,
            dk,
            classical,
            pub_key,
        }))
    }

    /// Server side: encapsulate to the client's key (which must pass the
    /// FIPS 203 §7.2 checks) and run the classical half; the answer is the
    /// ciphertext (and the server's classical share).
    fn start_and_complete(&self, client_share: &[u8]) -> Result<CompletedKeyExchange, Error> {
        let (ek, classical_share) = self.layout.split(client_share, P::EK_LEN)?;
        let ek = EncapsulationKey::<P>::from_bytes(ek)
            .map_err(|_| Error::from(PeerMisbehaved::InvalidKeyShare))?;
        let m = random::<32>()?;
        let (ct, key) = pqkit_ml_kem::hazmat::encaps_internal(&ek, &m);
        let classical = self
            .classical
            .map(|g| g.start_and_complete(classical_share))
            .transpose()?;
        let (pub_key, secret) = match &classical {
            Some(c) => (
                self.layout.join(ct.as_slice(), &c.pub_key),
                self.layout.secret(key.as_bytes(), Some(&c.secret)),
            ),
            None => (ct.to_vec(), self.layout.secret(key.as_bytes(), None)),
        };
        Ok(CompletedKeyExchange {
            group: self.layout.name,
            pub_key,
            secret,
        })
    }

    fn name(&self) -> NamedGroup {
        self.layout.name
    }

    /// TLS 1.3 only: TLS 1.2 has no KEM-shaped key exchange.
    fn usable_for_version(&self, version: ProtocolVersion) -> bool {
        version == ProtocolVersion::TLSv1_3
    }
}

/// The client's state between ClientHello and ServerHello.
struct Active<P: ParameterSet> {
    layout: Layout,
    dk: DecapsulationKey<P>,
    classical: Option<Box<dyn ActiveKeyExchange>>,
    pub_key: Vec<u8>,
}

impl<P: ParameterSet> ActiveKeyExchange for Active<P> {
    fn complete(self: Box<Self>, server_share: &[u8]) -> Result<SharedSecret, Error> {
        let (ct, classical_share) = self.layout.split(server_share, P::CT_LEN)?;
        let key = self
            .dk
            .decapsulate_bytes(ct)
            .map_err(|_| Error::from(PeerMisbehaved::InvalidKeyShare))?;
        let classical = match self.classical {
            Some(c) => Some(c.complete(classical_share)?),
            None => None,
        };
        Ok(self.layout.secret(key.as_bytes(), classical.as_ref()))
    }

    /// The classical share alone, so that rustls can offer the bare
    /// classical group from the same ephemeral key.
    fn hybrid_component(&self) -> Option<(NamedGroup, &[u8])> {
        self.classical.as_ref().map(|c| (c.group(), c.pub_key()))
    }

    /// The server chose the bare classical group.
    fn complete_hybrid_component(
        self: Box<Self>,
        server_share: &[u8],
    ) -> Result<SharedSecret, Error> {
        match self.classical {
            Some(c) => c.complete(server_share),
            None => Err(PeerMisbehaved::InvalidKeyShare.into()),
        }
    }

    fn pub_key(&self) -> &[u8] {
        &self.pub_key
    }

    fn group(&self) -> NamedGroup {
        self.layout.name
    }
}

/// `X25519MLKEM768` (0x11ec): ML-KEM-768 first, then X25519 (1216-byte
/// client share, 1120-byte server share, 64-byte secret).
pub static X25519MLKEM768: &dyn SupportedKxGroup = &KemGroup::<MlKem768> {
    layout: Layout {
        name: NamedGroup::X25519MLKEM768,
        classical_len: 32,
        classical_first: false,
    },
    classical: Some(X25519),
    _p: PhantomData,
};

/// `SecP256r1MLKEM768` (0x11eb): the uncompressed P-256 point first, then
/// ML-KEM-768.
pub static SECP256R1MLKEM768: &dyn SupportedKxGroup = &KemGroup::<MlKem768> {
    layout: Layout {
        name: NamedGroup::secp256r1MLKEM768,
        classical_len: 65,
        classical_first: true,
    },
    classical: Some(kx_group::SECP256R1),
    _p: PhantomData,
};

/// `SecP384r1MLKEM1024` (0x11ed): the uncompressed P-384 point first, then
/// ML-KEM-1024.
pub static SECP384R1MLKEM1024: &dyn SupportedKxGroup = &KemGroup::<MlKem1024> {
    layout: Layout {
        name: NamedGroup::Unknown(0x11ed),
        classical_len: 97,
        classical_first: true,
    },
    classical: Some(kx_group::SECP384R1),
    _p: PhantomData,
};

/// `MLKEM768` (0x0201): pure ML-KEM-768 (encapsulation key / ciphertext).
pub static MLKEM768: &dyn SupportedKxGroup = &KemGroup::<MlKem768> {
    layout: Layout {
        name: NamedGroup::MLKEM768,
        classical_len: 0,
        classical_first: false,
    },
    classical: None,
    _p: PhantomData,
};

/// `MLKEM1024` (0x0202): pure ML-KEM-1024.
pub static MLKEM1024: &dyn SupportedKxGroup = &KemGroup::<MlKem1024> {
    layout: Layout {
        name: NamedGroup::MLKEM1024,
        classical_len: 0,
        classical_first: false,
    },
    classical: None,
    _p: PhantomData,
};

/// X25519 (RFC 7748, RFC 8446 §7.4.2) on pqkit-x25519: the bare group
/// (0x001d) and the classical half of [`X25519MLKEM768`]. A peer share
/// that is not 32 bytes, or that gives the all-zero secret (a low-order
/// point), is rejected with `PeerMisbehaved::InvalidKeyShare`, as ring's
/// X25519 does.
pub static X25519: &dyn SupportedKxGroup = &X25519Group;

/// The [`X25519`] group.
#[derive(Debug)]
pub struct X25519Group;

impl SupportedKxGroup for X25519Group {
    fn start(&self) -> Result<Box<dyn ActiveKeyExchange>, Error> {
        let secret = pqkit_x25519::StaticSecret::from(*random::<32>()?);
        let pub_key = pqkit_x25519::PublicKey::from(&secret).to_bytes();
        Ok(Box::new(X25519Active { secret, pub_key }))
    }

    fn name(&self) -> NamedGroup {
        NamedGroup::X25519
    }
}

/// One side's ephemeral secret and public share.
struct X25519Active {
    secret: pqkit_x25519::StaticSecret,
    pub_key: [u8; 32],
}

impl ActiveKeyExchange for X25519Active {
    fn complete(self: Box<Self>, peer: &[u8]) -> Result<SharedSecret, Error> {
        let peer = pqkit_x25519::PublicKey::from_slice(peer)
            .map_err(|_| Error::from(PeerMisbehaved::InvalidKeyShare))?;
        let shared = self.secret.diffie_hellman(&peer);
        if !shared.was_contributory() {
            return Err(PeerMisbehaved::InvalidKeyShare.into());
        }
        Ok(SharedSecret::from(&shared.as_bytes()[..]))
    }

    fn pub_key(&self) -> &[u8] {
        &self.pub_key
    }

    fn group(&self) -> NamedGroup {
        NamedGroup::X25519
    }
}

/// The post-quantum groups, in order of preference.
pub static ALL_PQ_GROUPS: &[&dyn SupportedKxGroup] = &[
    X25519MLKEM768,
    SECP256R1MLKEM768,
    SECP384R1MLKEM1024,
    MLKEM768,
    MLKEM1024,
];
