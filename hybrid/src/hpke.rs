//! HPKE (RFC 9180), base and PSK modes, with the post-quantum KEMs of
//! draft-ietf-hpke-pq on pqkit's ML-KEM and X-Wing, the hybrids with P-256
//! and P-384 (draft-irtf-cfrg-concrete-hybrid-kems, the groups from
//! RustCrypto's `p256` and `p384`), and RFC 9180's DHKEMs (X448 from
//! RustCrypto's `x448`).
//!
//! | KEM | id | `Npk` | `Nsk` | `Nenc` | encapsulation randomness |
//! |---|---|---|---|---|---|
//! | [`Kem::DhKemP256`] (HKDF-SHA256) | `0x0010` | 65 | 32 | 65 | 32 |
//! | [`Kem::DhKemP384`] (HKDF-SHA384) | `0x0011` | 97 | 48 | 97 | 48 |
//! | [`Kem::DhKemX25519`] (HKDF-SHA256) | `0x0020` | 32 | 32 | 32 | 32 |
//! | [`Kem::DhKemX448`] (HKDF-SHA512) | `0x0021` | 56 | 56 | 56 | 56 |
//! | [`Kem::MlKem512`] | `0x0040` | 800 | 64 | 768 | 32 |
//! | [`Kem::MlKem768`] | `0x0041` | 1184 | 64 | 1088 | 32 |
//! | [`Kem::MlKem1024`] | `0x0042` | 1568 | 64 | 1568 | 32 |
//! | [`Kem::MlKem768P256`] | `0x0050` | 1249 | 32 | 1153 | 128 |
//! | [`Kem::MlKem1024P384`] | `0x0051` | 1665 | 32 | 1665 | 80 |
//! | [`Kem::MlKem768X25519`] (X-Wing) | `0x647a` | 1216 | 32 | 1120 | 64 |
//!
//! KDFs: HKDF-SHA256/384/512 (RFC 9180's two-stage key schedule) and the
//! one-stage SHAKE128, SHAKE256, TurboSHAKE128 and TurboSHAKE256 of
//! draft-ietf-hpke-hpke and draft-ietf-hpke-pq. AEADs: AES-128-GCM, AES-256-GCM,
//! ChaCha20-Poly1305 (RustCrypto's crates) and export-only.
//!
//! Private keys are the KEMs' seeds (64 bytes for ML-KEM, `d || z`; 32 for
//! the hybrids; the scalar for a DHKEM: clamped for X448, as RFC 9180
//! §7.1.2 asks and the draft's vectors give it, and kept as given for
//! X25519, as both the RFC's and the draft's vectors give it); public keys
//! their encodings (curve points uncompressed). `DeriveKeyPair` is
//! `SHAKE256.LabeledDerive(ikm, "DeriveKeyPair", "", Nsk)` for the
//! post-quantum KEMs and RFC 9180 §7.1.3 for the DHKEMs. The hybrids'
//! shared secret is `SHA3-256(ss_PQ || ss_T || ct_T || ek_T || label)`.
//!
//! ```
//! use pqkit_hybrid::hpke::{Aead, Kdf, Kem, Suite};
//!
//! let suite = Suite::new(Kem::MlKem768X25519, Kdf::HkdfSha256, Aead::ChaCha20Poly1305);
//! let (sk, pk) = suite.derive_key_pair(&[7; 32])?;
//! // The sender's randomness comes from the caller here (tests); with the
//! // `getrandom` feature `setup_sender` draws it from the OS.
//! let (enc, mut sender) = suite.setup_sender_derand(&pk, b"info", &[9; 64])?;
//! let ct = sender.seal(b"aad", b"hello")?;
//! let mut receiver = suite.setup_receiver(&enc, &sk, b"info")?;
//! assert_eq!(receiver.open(b"aad", &ct)?, b"hello");
//! assert_eq!(sender.export(b"ctx", 32)?, receiver.export(b"ctx", 32)?);
//! # Ok::<(), pqkit_hybrid::hpke::Error>(())
//! ```
//!
//! Every operation on a secret is constant-time (the KEMs' own guarantees,
//! HKDF, SHAKE and the AEADs); keys, shared secrets and the key schedule's
//! secrets are wiped on drop.

use alloc::boxed::Box;
use alloc::vec::Vec;

use aes_gcm::aead::{Aead as _, KeyInit, Payload};
use hybrid_array::Array;
use kem::{Decapsulate, Decapsulator};
use pqkit_common::keccak::{ExtendableOutput, Shake128, Shake256, Update, XofReader};
use zeroize::{Zeroize, Zeroizing};

use crate::xwing;

/// An HPKE failure. No variant carries secret data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A public key of the wrong length, or one its KEM refuses (an
    /// ML-KEM key failing the modulus check).
    InvalidPublicKey,
    /// A private key of the wrong length.
    InvalidPrivateKey,
    /// An encapsulated key of the wrong length.
    InvalidEncapsulatedKey,
    /// The Diffie-Hellman result is all zeros (a low-order X25519 share).
    ZeroSharedSecret,
    /// Encapsulation randomness of the wrong length.
    InvalidRandomness,
    /// A key or the suite belongs to another KEM.
    KemMismatch,
    /// The ciphertext does not authenticate.
    OpenError,
    /// `seal` or `open` on an export-only context.
    ExportOnly,
    /// The sequence number is exhausted.
    MessageLimitReached,
    /// An export longer than the KDF allows (`255 Nh` for HKDF, `65535`).
    ExportTooLong,
    /// A message or associated data too long for the AEAD.
    MessageTooLong,
    /// The randomness source failed.
    Rng,
    /// Key derivation found no valid scalar (negligible probability).
    DeriveKeyPairFailed,
    /// A pre-shared key shorter than 32 bytes, or an empty PSK
    /// identifier ([`Psk::new`]).
    InvalidPsk,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Error::InvalidPublicKey => "invalid HPKE public key",
            Error::InvalidPrivateKey => "invalid HPKE private key",
            Error::InvalidEncapsulatedKey => "invalid HPKE encapsulated key",
            Error::ZeroSharedSecret => "all-zero Diffie-Hellman result",
            Error::InvalidRandomness => "encapsulation randomness of the wrong length",
            Error::KemMismatch => "key of another KEM",
            Error::OpenError => "HPKE ciphertext does not authenticate",
            Error::ExportOnly => "seal/open on an export-only HPKE context",
            Error::MessageLimitReached => "HPKE sequence number exhausted",
            Error::ExportTooLong => "HPKE export too long",
            Error::MessageTooLong => "message too long for the AEAD",
            Error::Rng => "randomness source failed",
            Error::DeriveKeyPairFailed => "no valid scalar derived",
            Error::InvalidPsk => "a PSK shorter than 32 bytes or an empty PSK id",
        })
    }
}

impl core::error::Error for Error {}

/// An HPKE KEM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kem {
    /// DHKEM(P-256, HKDF-SHA256) of RFC 9180 (`0x0010`).
    DhKemP256,
    /// DHKEM(P-384, HKDF-SHA384) of RFC 9180 (`0x0011`).
    DhKemP384,
    /// DHKEM(X25519, HKDF-SHA256) of RFC 9180 (`0x0020`).
    DhKemX25519,
    /// DHKEM(X448, HKDF-SHA512) of RFC 9180 (`0x0021`), the group from
    /// RustCrypto's `x448`.
    DhKemX448,
    /// ML-KEM-512 (`0x0040`).
    MlKem512,
    /// ML-KEM-768 (`0x0041`).
    MlKem768,
    /// ML-KEM-1024 (`0x0042`).
    MlKem1024,
    /// MLKEM768-P256 (`0x0050`).
    MlKem768P256,
    /// MLKEM1024-P384 (`0x0051`).
    MlKem1024P384,
    /// MLKEM768-X25519, that is X-Wing (`0x647a`).
    MlKem768X25519,
}

impl Kem {
    /// Every KEM, in identifier order.
    pub const ALL: [Kem; 10] = [
        Kem::DhKemP256,
        Kem::DhKemP384,
        Kem::DhKemX25519,
        Kem::DhKemX448,
        Kem::MlKem512,
        Kem::MlKem768,
        Kem::MlKem1024,
        Kem::MlKem768P256,
        Kem::MlKem1024P384,
        Kem::MlKem768X25519,
    ];

    /// The registry identifier.
    pub const fn id(self) -> u16 {
        match self {
            Kem::DhKemP256 => 0x0010,
            Kem::DhKemP384 => 0x0011,
            Kem::DhKemX25519 => 0x0020,
            Kem::DhKemX448 => 0x0021,
            Kem::MlKem512 => 0x0040,
            Kem::MlKem768 => 0x0041,
            Kem::MlKem1024 => 0x0042,
            Kem::MlKem768P256 => 0x0050,
            Kem::MlKem1024P384 => 0x0051,
            Kem::MlKem768X25519 => 0x647a,
        }
    }

    /// The KEM of an identifier, if supported.
    pub const fn from_id(id: u16) -> Option<Kem> {
        match id {
            0x0010 => Some(Kem::DhKemP256),
            0x0011 => Some(Kem::DhKemP384),
            0x0020 => Some(Kem::DhKemX25519),
            0x0021 => Some(Kem::DhKemX448),
            0x0040 => Some(Kem::MlKem512),
            0x0041 => Some(Kem::MlKem768),
            0x0042 => Some(Kem::MlKem1024),
            0x0050 => Some(Kem::MlKem768P256),
            0x0051 => Some(Kem::MlKem1024P384),
            0x647a => Some(Kem::MlKem768X25519),
            _ => None,
        }
    }

    /// `Npk`, the public key length.
    pub const fn public_key_len(self) -> usize {
        match self {
            Kem::DhKemP256 => 65,
            Kem::DhKemP384 => 97,
            Kem::DhKemX25519 => 32,
            Kem::DhKemX448 => 56,
            Kem::MlKem512 => 800,
            Kem::MlKem768 => 1184,
            Kem::MlKem1024 => 1568,
            Kem::MlKem768P256 => 1184 + 65,
            Kem::MlKem1024P384 => 1568 + 97,
            Kem::MlKem768X25519 => xwing::ENCAPSULATION_KEY_SIZE,
        }
    }

    /// `Nsk`, the private key length (the scalar of a DHKEM, the seed of
    /// the others).
    pub const fn private_key_len(self) -> usize {
        match self {
            Kem::DhKemP384 => 48,
            Kem::DhKemX448 => 56,
            Kem::MlKem512 | Kem::MlKem768 | Kem::MlKem1024 => 64,
            _ => 32,
        }
    }

    /// `Nenc`, the encapsulated key length.
    pub const fn enc_len(self) -> usize {
        match self {
            Kem::DhKemP256 => 65,
            Kem::DhKemP384 => 97,
            Kem::DhKemX25519 => 32,
            Kem::DhKemX448 => 56,
            Kem::MlKem512 => 768,
            Kem::MlKem768 => 1088,
            Kem::MlKem1024 => 1568,
            Kem::MlKem768P256 => 1088 + 65,
            Kem::MlKem1024P384 => 1568 + 97,
            Kem::MlKem768X25519 => xwing::CIPHERTEXT_SIZE,
        }
    }

    /// The bytes of randomness one encapsulation takes (`ikmE` of the
    /// vectors): `Nsk` for a DHKEM, 32 for ML-KEM, and for the hybrids
    /// ML-KEM's 32 then the group's seed (32 for X25519, three 32-byte
    /// candidates for P-256, 48 for P-384).
    pub const fn encap_randomness_len(self) -> usize {
        match self {
            Kem::DhKemP384 => 48,
            Kem::DhKemX448 => 56,
            Kem::MlKem768P256 => 32 + P256_SEED,
            Kem::MlKem1024P384 => 32 + P384_SEED,
            Kem::MlKem768X25519 => xwing::ENCAPSULATION_RANDOMNESS_SIZE,
            _ => 32,
        }
    }

    /// `Nsecret`, the shared secret length (48 for DHKEM(P-384), 64 for
    /// DHKEM(X448), else 32).
    pub const fn shared_secret_len(self) -> usize {
        match self {
            Kem::DhKemP384 => 48,
            Kem::DhKemX448 => 64,
            _ => 32,
        }
    }

    fn suite_id(self) -> [u8; 5] {
        let id = self.id().to_be_bytes();
        [b'K', b'E', b'M', id[0], id[1]]
    }
}

/// The group seeds of the P-curve hybrids (draft-irtf-cfrg-concrete-hybrid-kems):
/// rejection sampling over 32-byte candidates for P-256, one 48-byte
/// candidate for P-384.
const P256_SEED: usize = 96;
const P384_SEED: usize = 48;

/// An HPKE KDF.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kdf {
    /// HKDF-SHA256 (`0x0001`).
    HkdfSha256,
    /// HKDF-SHA384 (`0x0002`).
    HkdfSha384,
    /// HKDF-SHA512 (`0x0003`).
    HkdfSha512,
    /// SHAKE128, one-stage (`0x0010`).
    Shake128,
    /// SHAKE256, one-stage (`0x0011`).
    Shake256,
    /// TurboSHAKE128, one-stage (`0x0012`).
    TurboShake128,
    /// TurboSHAKE256, one-stage (`0x0013`).
    TurboShake256,
}

impl Kdf {
    /// The registry identifier.
    pub const fn id(self) -> u16 {
        match self {
            Kdf::HkdfSha256 => 0x0001,
            Kdf::HkdfSha384 => 0x0002,
            Kdf::HkdfSha512 => 0x0003,
            Kdf::Shake128 => 0x0010,
            Kdf::Shake256 => 0x0011,
            Kdf::TurboShake128 => 0x0012,
            Kdf::TurboShake256 => 0x0013,
        }
    }

    /// The KDF of an identifier, if supported.
    pub const fn from_id(id: u16) -> Option<Kdf> {
        match id {
            0x0001 => Some(Kdf::HkdfSha256),
            0x0002 => Some(Kdf::HkdfSha384),
            0x0003 => Some(Kdf::HkdfSha512),
            0x0010 => Some(Kdf::Shake128),
            0x0011 => Some(Kdf::Shake256),
            0x0012 => Some(Kdf::TurboShake128),
            0x0013 => Some(Kdf::TurboShake256),
            _ => None,
        }
    }

    /// `Nh`.
    pub const fn nh(self) -> usize {
        match self {
            Kdf::HkdfSha256 | Kdf::Shake128 | Kdf::TurboShake128 => 32,
            Kdf::HkdfSha384 => 48,
            Kdf::HkdfSha512 | Kdf::Shake256 | Kdf::TurboShake256 => 64,
        }
    }

    const fn one_stage(self) -> bool {
        matches!(
            self,
            Kdf::Shake128 | Kdf::Shake256 | Kdf::TurboShake128 | Kdf::TurboShake256
        )
    }

    /// The longest export (and expansion): `255 Nh` for HKDF, `2^16 - 1`
    /// for the one-stage KDFs.
    const fn max_len(self) -> usize {
        if self.one_stage() {
            u16::MAX as usize
        } else {
            255 * self.nh()
        }
    }
}

/// An HPKE AEAD.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Aead {
    /// AES-128-GCM (`0x0001`).
    Aes128Gcm,
    /// AES-256-GCM (`0x0002`).
    Aes256Gcm,
    /// ChaCha20-Poly1305 (`0x0003`).
    ChaCha20Poly1305,
    /// Export-only (`0xffff`): no `seal`/`open`.
    ExportOnly,
}

impl Aead {
    /// The registry identifier.
    pub const fn id(self) -> u16 {
        match self {
            Aead::Aes128Gcm => 0x0001,
            Aead::Aes256Gcm => 0x0002,
            Aead::ChaCha20Poly1305 => 0x0003,
            Aead::ExportOnly => 0xffff,
        }
    }

    /// The AEAD of an identifier, if supported.
    pub const fn from_id(id: u16) -> Option<Aead> {
        match id {
            0x0001 => Some(Aead::Aes128Gcm),
            0x0002 => Some(Aead::Aes256Gcm),
            0x0003 => Some(Aead::ChaCha20Poly1305),
            0xffff => Some(Aead::ExportOnly),
            _ => None,
        }
    }

    /// `Nk`, the key length.
    pub const fn key_len(self) -> usize {
        match self {
            Aead::Aes128Gcm => 16,
            Aead::Aes256Gcm | Aead::ChaCha20Poly1305 => 32,
            Aead::ExportOnly => 0,
        }
    }

    /// `Nn`, the nonce length.
    pub const fn nonce_len(self) -> usize {
        match self {
            Aead::ExportOnly => 0,
            _ => 12,
        }
    }

    /// `Nt`, the tag length.
    pub const fn tag_len(self) -> usize {
        match self {
            Aead::ExportOnly => 0,
            _ => 16,
        }
    }
}

// ------------------------------------------------------------------ KDFs

macro_rules! hkdf_ops {
    ($hash:ty, $extract:ident, $expand:ident) => {
        fn $extract(salt: &[u8], ikm: &[&[u8]]) -> Zeroizing<Vec<u8>> {
            let mut h = hkdf::HkdfExtract::<$hash>::new(Some(salt));
            for part in ikm {
                h.input_ikm(part);
            }
            let (prk, _) = h.finalize();
            Zeroizing::new(prk.to_vec())
        }

        fn $expand(prk: &[u8], info: &[&[u8]], len: usize) -> Zeroizing<Vec<u8>> {
            let mut out = Zeroizing::new(alloc::vec![0u8; len]);
            // The PRK is an extract output (`Nh` bytes) and `len` is
            // checked against `255 Nh` by the callers: neither fails.
            if let Ok(h) = hkdf::Hkdf::<$hash>::from_prk(prk) {
                let _ = h.expand_multi_info(info, &mut out);
            }
            out
        }
    };
}

hkdf_ops!(sha2::Sha256, extract_sha256, expand_sha256);
hkdf_ops!(sha2::Sha384, extract_sha384, expand_sha384);
hkdf_ops!(sha2::Sha512, extract_sha512, expand_sha512);

/// `LabeledExtract(salt, label, ikm)` of a two-stage KDF.
fn labeled_extract(
    kdf: Kdf,
    suite_id: &[u8],
    salt: &[u8],
    label: &[u8],
    ikm: &[u8],
) -> Zeroizing<Vec<u8>> {
    let parts: [&[u8]; 4] = [b"HPKE-v1", suite_id, label, ikm];
    match kdf {
        Kdf::HkdfSha384 => extract_sha384(salt, &parts),
        Kdf::HkdfSha512 => extract_sha512(salt, &parts),
        _ => extract_sha256(salt, &parts),
    }
}

/// `LabeledExpand(prk, label, info, len)` of a two-stage KDF (`len` at
/// most `255 Nh`).
fn labeled_expand(
    kdf: Kdf,
    suite_id: &[u8],
    prk: &[u8],
    label: &[u8],
    info: &[u8],
    len: usize,
) -> Zeroizing<Vec<u8>> {
    let l = (len as u16).to_be_bytes();
    let parts: [&[u8]; 5] = [&l, b"HPKE-v1", suite_id, label, info];
    match kdf {
        Kdf::HkdfSha384 => expand_sha384(prk, &parts, len),
        Kdf::HkdfSha512 => expand_sha512(prk, &parts, len),
        _ => expand_sha256(prk, &parts, len),
    }
}

/// `LabeledDerive(ikm, label, context, len)` of a one-stage KDF (SHAKE, or
/// TurboSHAKE with the default domain byte `0x1f`):
/// `SHAKE(ikm || "HPKE-v1" || suite_id || I2OSP(len(label), 2) || label ||
/// I2OSP(len, 2) || context, len)`.
fn labeled_derive(
    kdf: Kdf,
    suite_id: &[u8],
    ikm: &[&[u8]],
    label: &[u8],
    context: &[&[u8]],
    len: usize,
) -> Zeroizing<Vec<u8>> {
    fn run<H: Default + Update + ExtendableOutput>(
        parts: &[&[u8]],
        more: &[&[u8]],
        out: &mut [u8],
    ) {
        let mut h = H::default();
        for p in parts.iter().chain(more) {
            h.update(p);
        }
        h.finalize_xof().read(out);
    }
    let label_len = (label.len() as u16).to_be_bytes();
    let l = (len as u16).to_be_bytes();
    let mut head: Vec<&[u8]> = ikm.to_vec();
    head.extend_from_slice(&[b"HPKE-v1", suite_id, &label_len, label, &l]);
    let mut out = Zeroizing::new(alloc::vec![0u8; len]);
    match kdf {
        Kdf::Shake128 => run::<Shake128>(&head, context, &mut out),
        Kdf::TurboShake128 => run::<turboshake::TurboShake128>(&head, context, &mut out),
        Kdf::TurboShake256 => run::<turboshake::TurboShake256>(&head, context, &mut out),
        _ => run::<Shake256>(&head, context, &mut out),
    }
    out
}

// ------------------------------------------------------------------ groups

/// The NIST curves, through RustCrypto's `p256` and `p384`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Curve {
    P256,
    P384,
}

impl Curve {
    /// Scalar and coordinate bytes.
    const fn n(self) -> usize {
        match self {
            Curve::P256 => 32,
            Curve::P384 => 48,
        }
    }

    /// Whether `b` (`n` bytes, big-endian) is a scalar in `[1, order)`.
    fn is_scalar(self, b: &[u8]) -> bool {
        match self {
            Curve::P256 => p256::SecretKey::from_slice(b).is_ok(),
            Curve::P384 => p384::SecretKey::from_slice(b).is_ok(),
        }
    }

    /// `g^sk`, uncompressed (`sk` a valid scalar).
    fn public(self, sk: &[u8]) -> Result<Vec<u8>, Error> {
        let bad = |_| Error::InvalidPrivateKey;
        Ok(match self {
            Curve::P256 => p256::SecretKey::from_slice(sk)
                .map_err(bad)?
                .public_key()
                .to_sec1_bytes()
                .to_vec(),
            Curve::P384 => p384::SecretKey::from_slice(sk)
                .map_err(bad)?
                .public_key()
                .to_sec1_bytes()
                .to_vec(),
        })
    }

    /// Whether `b` is an uncompressed point of the curve (not the identity).
    fn is_point(self, b: &[u8]) -> bool {
        b.len() == 2 * self.n() + 1
            && b[0] == 4
            && match self {
                Curve::P256 => p256::PublicKey::from_sec1_bytes(b).is_ok(),
                Curve::P384 => p384::PublicKey::from_sec1_bytes(b).is_ok(),
            }
    }

    /// The x-coordinate of `pk^sk` (`sk` a valid scalar, `pk` a point).
    fn dh(self, sk: &[u8], pk: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
        let bad_sk = |_| Error::InvalidPrivateKey;
        let bad_pk = |_| Error::InvalidEncapsulatedKey;
        Ok(Zeroizing::new(match self {
            Curve::P256 => {
                let sk = p256::SecretKey::from_slice(sk).map_err(bad_sk)?;
                let pk = p256::PublicKey::from_sec1_bytes(pk).map_err(bad_pk)?;
                p256::ecdh::diffie_hellman(sk.to_nonzero_scalar(), pk.as_affine())
                    .raw_secret_bytes()
                    .to_vec()
            }
            Curve::P384 => {
                let sk = p384::SecretKey::from_slice(sk).map_err(bad_sk)?;
                let pk = p384::PublicKey::from_sec1_bytes(pk).map_err(bad_pk)?;
                p384::ecdh::diffie_hellman(sk.to_nonzero_scalar(), pk.as_affine())
                    .raw_secret_bytes()
                    .to_vec()
            }
        }))
    }

    /// `Group.RandomScalar(seed)` of the hybrids: the first `n`-byte chunk
    /// that is a valid scalar.
    fn random_scalar(self, seed: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
        seed.chunks_exact(self.n())
            .find(|c| self.is_scalar(c))
            .map(|c| Zeroizing::new(c.to_vec()))
            .ok_or(Error::DeriveKeyPairFailed)
    }

    /// The DHKEM of the curve and its KDF.
    const fn dhkem(self) -> (Kem, Kdf) {
        match self {
            Curve::P256 => (Kem::DhKemP256, Kdf::HkdfSha256),
            Curve::P384 => (Kem::DhKemP384, Kdf::HkdfSha384),
        }
    }
}

// ------------------------------------------------------------------ keys

#[derive(Clone)]
enum SkInner {
    MlKem512(Box<pqkit_ml_kem::DecapsulationKey512>),
    MlKem768(Box<pqkit_ml_kem::DecapsulationKey768>),
    MlKem1024(Box<pqkit_ml_kem::DecapsulationKey1024>),
    XWing(Box<xwing::DecapsulationKey>),
    X25519(Zeroizing<[u8; 32]>),
    X448(Zeroizing<[u8; 56]>),
    /// A DHKEM scalar and its public key.
    Ec(Curve, Zeroizing<Vec<u8>>, Vec<u8>),
    /// MLKEM768-P256 / MLKEM1024-P384: the seed, the ML-KEM key, the group
    /// scalar and point.
    Hybrid768(Box<Hybrid<pqkit_ml_kem::MlKem768>>),
    Hybrid1024(Box<Hybrid<pqkit_ml_kem::MlKem1024>>),
}

#[derive(Clone)]
struct Hybrid<P: pqkit_ml_kem::ParameterSet> {
    seed: Zeroizing<[u8; 32]>,
    pq: pqkit_ml_kem::DecapsulationKey<P>,
    sk_t: Zeroizing<Vec<u8>>,
    ek_t: Vec<u8>,
}

impl<P: pqkit_ml_kem::ParameterSet> Hybrid<P> {
    /// `expandKey(seed)`: `SHAKE256(seed, 64 + Group.Nseed)` split into
    /// ML-KEM's `d || z` and the group seed.
    fn expand(seed: &[u8], curve: Curve, group_seed: usize) -> Result<Self, Error> {
        let mut full = Zeroizing::new([0u8; 64 + P256_SEED]);
        let mut h = Shake256::default();
        h.update(seed);
        h.finalize_xof().read(&mut full[..64 + group_seed]);
        let pq = pqkit_ml_kem::DecapsulationKey::<P>::from_seed(ml_seed(&full[..64])?);
        let sk_t = curve.random_scalar(&full[64..64 + group_seed])?;
        let ek_t = curve.public(&sk_t)?;
        let mut s = Zeroizing::new([0u8; 32]);
        s.copy_from_slice(seed);
        Ok(Hybrid {
            seed: s,
            pq,
            sk_t,
            ek_t,
        })
    }
}

#[derive(Clone)]
enum PkInner {
    MlKem512(Box<pqkit_ml_kem::EncapsulationKey512>),
    MlKem768(Box<pqkit_ml_kem::EncapsulationKey768>),
    MlKem1024(Box<pqkit_ml_kem::EncapsulationKey1024>),
    XWing(Box<xwing::EncapsulationKey>),
    X25519([u8; 32]),
    X448([u8; 56]),
    Ec(Curve, Vec<u8>),
    Hybrid768(Box<pqkit_ml_kem::EncapsulationKey768>, Vec<u8>),
    Hybrid1024(Box<pqkit_ml_kem::EncapsulationKey1024>, Vec<u8>),
}

/// An HPKE private key: the KEM's seed (or DHKEM scalar), with the key it
/// expands to kept for decapsulation. Wiped on drop.
#[derive(Clone)]
pub struct PrivateKey(SkInner);

/// An HPKE public key.
#[derive(Clone)]
pub struct PublicKey(PkInner);

impl core::fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "PrivateKey({:?}, ..)", self.kem())
    }
}

impl core::fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "PublicKey({:?})", self.kem())
    }
}

fn ml_seed(bytes: &[u8]) -> Result<pqkit_ml_kem::Seed, Error> {
    pqkit_ml_kem::Seed::try_from(bytes).map_err(|_| Error::InvalidPrivateKey)
}

/// The hybrids' combiner: `SHA3-256(ss_PQ || ss_T || ct_T || ek_T || Label)`.
fn qsf(ss_pq: &[u8], ss_t: &[u8], ct_t: &[u8], ek_t: &[u8], label: &[u8]) -> Zeroizing<Vec<u8>> {
    Zeroizing::new(pqkit_common::keccak::sha3_256(&[ss_pq, ss_t, ct_t, ek_t, label]).to_vec())
}

impl PrivateKey {
    /// The key of `kem` from its serialization (`Nsk` bytes: the seed, or
    /// a DHKEM's scalar, which must be in range).
    pub fn from_bytes(kem: Kem, bytes: &[u8]) -> Result<Self, Error> {
        if bytes.len() != kem.private_key_len() {
            return Err(Error::InvalidPrivateKey);
        }
        Ok(PrivateKey(match kem {
            Kem::MlKem512 => SkInner::MlKem512(Box::new(
                pqkit_ml_kem::DecapsulationKey512::from_seed(ml_seed(bytes)?),
            )),
            Kem::MlKem768 => SkInner::MlKem768(Box::new(
                pqkit_ml_kem::DecapsulationKey768::from_seed(ml_seed(bytes)?),
            )),
            Kem::MlKem1024 => SkInner::MlKem1024(Box::new(
                pqkit_ml_kem::DecapsulationKey1024::from_seed(ml_seed(bytes)?),
            )),
            Kem::MlKem768X25519 => SkInner::XWing(Box::new(
                xwing::DecapsulationKey::from_seed_slice(bytes)
                    .map_err(|_| Error::InvalidPrivateKey)?,
            )),
            Kem::DhKemX25519 => {
                let mut k = Zeroizing::new([0u8; 32]);
                k.copy_from_slice(bytes);
                SkInner::X25519(k)
            }
            Kem::DhKemX448 => {
                // RFC 9180 §7.1.2: the key is clamped when deserialized
                // (and so serialized clamped, as the draft's vectors give
                // X448's skRm; X25519 keys are kept as given, as both the
                // RFC's and the draft's vectors give skRm unclamped).
                let mut k = Zeroizing::new([0u8; 56]);
                k.copy_from_slice(bytes);
                k[0] &= 0xfc;
                k[55] |= 0x80;
                SkInner::X448(k)
            }
            Kem::DhKemP256 | Kem::DhKemP384 => {
                let curve = if kem == Kem::DhKemP256 {
                    Curve::P256
                } else {
                    Curve::P384
                };
                let pk = curve.public(bytes)?;
                SkInner::Ec(curve, Zeroizing::new(bytes.to_vec()), pk)
            }
            Kem::MlKem768P256 => {
                SkInner::Hybrid768(Box::new(Hybrid::expand(bytes, Curve::P256, P256_SEED)?))
            }
            Kem::MlKem1024P384 => {
                SkInner::Hybrid1024(Box::new(Hybrid::expand(bytes, Curve::P384, P384_SEED)?))
            }
        }))
    }

    /// The serialization (`Nsk` bytes).
    pub fn to_bytes(&self) -> Zeroizing<Vec<u8>> {
        Zeroizing::new(match &self.0 {
            SkInner::MlKem512(k) => k.as_seed().to_vec(),
            SkInner::MlKem768(k) => k.as_seed().to_vec(),
            SkInner::MlKem1024(k) => k.as_seed().to_vec(),
            SkInner::XWing(k) => k.as_bytes().to_vec(),
            SkInner::X25519(k) => k.to_vec(),
            SkInner::X448(k) => k.to_vec(),
            SkInner::Ec(_, k, _) => k.to_vec(),
            SkInner::Hybrid768(h) => h.seed.to_vec(),
            SkInner::Hybrid1024(h) => h.seed.to_vec(),
        })
    }

    /// The KEM.
    pub fn kem(&self) -> Kem {
        match &self.0 {
            SkInner::MlKem512(_) => Kem::MlKem512,
            SkInner::MlKem768(_) => Kem::MlKem768,
            SkInner::MlKem1024(_) => Kem::MlKem1024,
            SkInner::XWing(_) => Kem::MlKem768X25519,
            SkInner::X25519(_) => Kem::DhKemX25519,
            SkInner::X448(_) => Kem::DhKemX448,
            SkInner::Ec(c, _, _) => c.dhkem().0,
            SkInner::Hybrid768(_) => Kem::MlKem768P256,
            SkInner::Hybrid1024(_) => Kem::MlKem1024P384,
        }
    }

    /// The matching public key.
    pub fn public_key(&self) -> PublicKey {
        PublicKey(match &self.0 {
            SkInner::MlKem512(k) => PkInner::MlKem512(Box::new(k.encapsulation_key().clone())),
            SkInner::MlKem768(k) => PkInner::MlKem768(Box::new(k.encapsulation_key().clone())),
            SkInner::MlKem1024(k) => PkInner::MlKem1024(Box::new(k.encapsulation_key().clone())),
            SkInner::XWing(k) => PkInner::XWing(Box::new(k.encapsulation_key().clone())),
            SkInner::X25519(k) => PkInner::X25519(x25519_base(k)),
            SkInner::X448(k) => PkInner::X448(x448_base(k)),
            SkInner::Ec(c, _, pk) => PkInner::Ec(*c, pk.clone()),
            SkInner::Hybrid768(h) => {
                PkInner::Hybrid768(Box::new(h.pq.encapsulation_key().clone()), h.ek_t.clone())
            }
            SkInner::Hybrid1024(h) => {
                PkInner::Hybrid1024(Box::new(h.pq.encapsulation_key().clone()), h.ek_t.clone())
            }
        })
    }

    /// `Decap(enc, skR)`: the shared secret.
    pub(crate) fn decap(&self, enc: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
        let copy = |b: &[u8]| Zeroizing::new(b.to_vec());
        match &self.0 {
            SkInner::MlKem512(k) => Ok(copy(ml_decap(k, enc)?.as_bytes())),
            SkInner::MlKem768(k) => Ok(copy(ml_decap(k, enc)?.as_bytes())),
            SkInner::MlKem1024(k) => Ok(copy(ml_decap(k, enc)?.as_bytes())),
            SkInner::XWing(k) => {
                let ct =
                    xwing::Ciphertext::try_from(enc).map_err(|_| Error::InvalidEncapsulatedKey)?;
                Ok(copy(&k.decapsulate(&ct)))
            }
            SkInner::X25519(k) => {
                let pk_e: [u8; 32] = enc.try_into().map_err(|_| Error::InvalidEncapsulatedKey)?;
                let pk_r = x25519_base(k);
                x25519_dhkem_secret(k, &pk_e, &pk_e, &pk_r)
            }
            SkInner::X448(k) => {
                let pk_e: [u8; 56] = enc.try_into().map_err(|_| Error::InvalidEncapsulatedKey)?;
                let pk_r = x448_base(k);
                x448_dhkem_secret(k, &pk_e, &pk_e, &pk_r)
            }
            SkInner::Ec(c, sk, pk_r) => {
                if !c.is_point(enc) {
                    return Err(Error::InvalidEncapsulatedKey);
                }
                let dh = c.dh(sk, enc)?;
                let (kem, kdf) = c.dhkem();
                Ok(extract_and_expand(kem, kdf, &dh, enc, pk_r))
            }
            SkInner::Hybrid768(h) => hybrid_decap(h, Curve::P256, b"MLKEM768-P256", enc),
            SkInner::Hybrid1024(h) => hybrid_decap(h, Curve::P384, b"MLKEM1024-P384", enc),
        }
    }
}

fn hybrid_decap<P: pqkit_ml_kem::ParameterSet>(
    h: &Hybrid<P>,
    curve: Curve,
    label: &[u8],
    enc: &[u8],
) -> Result<Zeroizing<Vec<u8>>, Error> {
    let n_ct = P::CT_LEN;
    if enc.len() != n_ct + 2 * curve.n() + 1 {
        return Err(Error::InvalidEncapsulatedKey);
    }
    let (ct_pq, ct_t) = enc.split_at(n_ct);
    if !curve.is_point(ct_t) {
        return Err(Error::InvalidEncapsulatedKey);
    }
    let ss_pq = ml_decap(&h.pq, ct_pq)?;
    let ss_t = curve.dh(&h.sk_t, ct_t)?;
    Ok(qsf(ss_pq.as_bytes(), &ss_t, ct_t, &h.ek_t, label))
}

fn ml_decap<P: pqkit_ml_kem::ParameterSet>(
    k: &pqkit_ml_kem::DecapsulationKey<P>,
    enc: &[u8],
) -> Result<pqkit_ml_kem::SharedSecret, Error> {
    k.decapsulate_bytes(enc)
        .map_err(|_| Error::InvalidEncapsulatedKey)
}

fn x25519_base(k: &[u8; 32]) -> [u8; 32] {
    pqkit_x25519::x25519(*k, pqkit_x25519::X25519_BASEPOINT_BYTES)
}

/// DHKEM(X25519)'s shared secret: `dh = X25519(sk, peer)`, refused when
/// all zeros (RFC 9180 §7.1.4), then `ExtractAndExpand(dh, enc || pkR)`.
fn x25519_dhkem_secret(
    sk: &[u8; 32],
    peer: &[u8; 32],
    enc: &[u8; 32],
    pk_r: &[u8; 32],
) -> Result<Zeroizing<Vec<u8>>, Error> {
    let dh = Zeroizing::new(pqkit_x25519::x25519(*sk, *peer));
    if bool::from(subtle::ConstantTimeEq::ct_eq(&dh[..], &[0u8; 32][..])) {
        return Err(Error::ZeroSharedSecret);
    }
    Ok(extract_and_expand(
        Kem::DhKemX25519,
        Kdf::HkdfSha256,
        &dh[..],
        enc,
        pk_r,
    ))
}

fn x448_base(k: &[u8; 56]) -> [u8; 56] {
    x448::x448_unchecked(*k, x448::X448_BASEPOINT_BYTES)
}

/// DHKEM(X448)'s shared secret: `dh = X448(sk, peer)`, refused when all
/// zeros (RFC 9180 §7.1.4), then `ExtractAndExpand(dh, enc || pkR)`.
fn x448_dhkem_secret(
    sk: &[u8; 56],
    peer: &[u8; 56],
    enc: &[u8; 56],
    pk_r: &[u8; 56],
) -> Result<Zeroizing<Vec<u8>>, Error> {
    let dh = Zeroizing::new(x448::x448_unchecked(*sk, *peer));
    if bool::from(subtle::ConstantTimeEq::ct_eq(&dh[..], &[0u8; 56][..])) {
        return Err(Error::ZeroSharedSecret);
    }
    Ok(extract_and_expand(
        Kem::DhKemX448,
        Kdf::HkdfSha512,
        &dh[..],
        enc,
        pk_r,
    ))
}

/// ML-KEM.Encaps_internal(ek, m) as `(shared secret, ciphertext)`.
fn ml_encap<P: pqkit_ml_kem::ParameterSet>(
    ek: &pqkit_ml_kem::EncapsulationKey<P>,
    m: &[u8; 32],
) -> (Zeroizing<Vec<u8>>, Vec<u8>) {
    let (ct, ss) = pqkit_ml_kem::hazmat::encaps_internal(ek, m);
    (Zeroizing::new(ss.as_bytes().to_vec()), ct.to_vec())
}

/// RFC 9180 §4.1 `ExtractAndExpand(dh, enc || pkRm)` of a DHKEM, with its
/// KDF and `Nsecret`.
fn extract_and_expand(
    kem: Kem,
    kdf: Kdf,
    dh: &[u8],
    enc: &[u8],
    pk_r: &[u8],
) -> Zeroizing<Vec<u8>> {
    let sid = kem.suite_id();
    let prk = labeled_extract(kdf, &sid, b"", b"eae_prk", dh);
    let mut ctx = Vec::with_capacity(enc.len() + pk_r.len());
    ctx.extend_from_slice(enc);
    ctx.extend_from_slice(pk_r);
    labeled_expand(
        kdf,
        &sid,
        &prk,
        b"shared_secret",
        &ctx,
        kem.shared_secret_len(),
    )
}

impl PublicKey {
    /// The key of `kem` from its serialization (`Npk` bytes). ML-KEM keys
    /// (alone or in a hybrid) must pass FIPS 203's modulus check, curve
    /// points must be uncompressed points of the curve.
    pub fn from_bytes(kem: Kem, bytes: &[u8]) -> Result<Self, Error> {
        if bytes.len() != kem.public_key_len() {
            return Err(Error::InvalidPublicKey);
        }
        let e = |_| Error::InvalidPublicKey;
        let point = |c: Curve, b: &[u8]| {
            if c.is_point(b) {
                Ok(b.to_vec())
            } else {
                Err(Error::InvalidPublicKey)
            }
        };
        Ok(PublicKey(match kem {
            Kem::MlKem512 => PkInner::MlKem512(Box::new(
                pqkit_ml_kem::EncapsulationKey512::from_bytes(bytes).map_err(e)?,
            )),
            Kem::MlKem768 => PkInner::MlKem768(Box::new(
                pqkit_ml_kem::EncapsulationKey768::from_bytes(bytes).map_err(e)?,
            )),
            Kem::MlKem1024 => PkInner::MlKem1024(Box::new(
                pqkit_ml_kem::EncapsulationKey1024::from_bytes(bytes).map_err(e)?,
            )),
            Kem::MlKem768X25519 => PkInner::XWing(Box::new(
                xwing::EncapsulationKey::from_bytes(bytes).map_err(|_| Error::InvalidPublicKey)?,
            )),
            Kem::DhKemX25519 => {
                let mut k = [0u8; 32];
                k.copy_from_slice(bytes);
                PkInner::X25519(k)
            }
            Kem::DhKemX448 => {
                let mut k = [0u8; 56];
                k.copy_from_slice(bytes);
                PkInner::X448(k)
            }
            Kem::DhKemP256 => PkInner::Ec(Curve::P256, point(Curve::P256, bytes)?),
            Kem::DhKemP384 => PkInner::Ec(Curve::P384, point(Curve::P384, bytes)?),
            Kem::MlKem768P256 => PkInner::Hybrid768(
                Box::new(pqkit_ml_kem::EncapsulationKey768::from_bytes(&bytes[..1184]).map_err(e)?),
                point(Curve::P256, &bytes[1184..])?,
            ),
            Kem::MlKem1024P384 => PkInner::Hybrid1024(
                Box::new(
                    pqkit_ml_kem::EncapsulationKey1024::from_bytes(&bytes[..1568]).map_err(e)?,
                ),
                point(Curve::P384, &bytes[1568..])?,
            ),
        }))
    }

    /// The serialization (`Npk` bytes).
    pub fn to_bytes(&self) -> Vec<u8> {
        match &self.0 {
            PkInner::MlKem512(k) => k.as_bytes().to_vec(),
            PkInner::MlKem768(k) => k.as_bytes().to_vec(),
            PkInner::MlKem1024(k) => k.as_bytes().to_vec(),
            PkInner::XWing(k) => kem::KeyExport::to_bytes(k.as_ref()).to_vec(),
            PkInner::X25519(k) => k.to_vec(),
            PkInner::X448(k) => k.to_vec(),
            PkInner::Ec(_, k) => k.clone(),
            PkInner::Hybrid768(pq, t) => [pq.as_bytes(), t].concat(),
            PkInner::Hybrid1024(pq, t) => [pq.as_bytes(), t].concat(),
        }
    }

    /// The KEM.
    pub fn kem(&self) -> Kem {
        match &self.0 {
            PkInner::MlKem512(_) => Kem::MlKem512,
            PkInner::MlKem768(_) => Kem::MlKem768,
            PkInner::MlKem1024(_) => Kem::MlKem1024,
            PkInner::XWing(_) => Kem::MlKem768X25519,
            PkInner::X25519(_) => Kem::DhKemX25519,
            PkInner::X448(_) => Kem::DhKemX448,
            PkInner::Ec(c, _) => c.dhkem().0,
            PkInner::Hybrid768(..) => Kem::MlKem768P256,
            PkInner::Hybrid1024(..) => Kem::MlKem1024P384,
        }
    }

    /// `Encap(pkR)` with the given randomness: `(shared_secret, enc)`.
    pub(crate) fn encap(&self, randomness: &[u8]) -> Result<(Zeroizing<Vec<u8>>, Vec<u8>), Error> {
        if randomness.len() != self.kem().encap_randomness_len() {
            return Err(Error::InvalidRandomness);
        }
        let mut m = Zeroizing::new([0u8; 32]);
        m.copy_from_slice(&randomness[..32]);
        let copy = |b: &[u8]| Zeroizing::new(b.to_vec());
        Ok(match &self.0 {
            PkInner::MlKem512(k) => ml_encap(k, &m),
            PkInner::MlKem768(k) => ml_encap(k, &m),
            PkInner::MlKem1024(k) => ml_encap(k, &m),
            PkInner::XWing(k) => {
                let mut r = Array::<u8, hybrid_array::sizes::U64>::default();
                r.copy_from_slice(randomness);
                let (ct, s) = k.encapsulate_deterministic(&r);
                r.zeroize();
                (copy(&s), ct.to_vec())
            }
            PkInner::X25519(pk_r) => {
                let (sk_e, pk_e) = dhkem_derive_x25519(randomness);
                let ss = x25519_dhkem_secret(&sk_e, pk_r, &pk_e, pk_r)?;
                (ss, pk_e.to_vec())
            }
            PkInner::X448(pk_r) => {
                let (sk_e, pk_e) = dhkem_derive_x448(randomness);
                let ss = x448_dhkem_secret(&sk_e, pk_r, &pk_e, pk_r)?;
                (ss, pk_e.to_vec())
            }
            PkInner::Ec(c, pk_r) => {
                let sk_e = dhkem_derive_ec(*c, randomness)?;
                let pk_e = c.public(&sk_e)?;
                let dh = c.dh(&sk_e, pk_r)?;
                let (kem, kdf) = c.dhkem();
                (extract_and_expand(kem, kdf, &dh, &pk_e, pk_r), pk_e)
            }
            PkInner::Hybrid768(pq, ek_t) => {
                let (ss, ct) = ml_encap(pq, &m);
                hybrid_encap(
                    &ct,
                    &ss,
                    Curve::P256,
                    b"MLKEM768-P256",
                    ek_t,
                    &randomness[32..],
                )?
            }
            PkInner::Hybrid1024(pq, ek_t) => {
                let (ss, ct) = ml_encap(pq, &m);
                hybrid_encap(
                    &ct,
                    &ss,
                    Curve::P384,
                    b"MLKEM1024-P384",
                    ek_t,
                    &randomness[32..],
                )?
            }
        })
    }
}

/// The group half of a hybrid encapsulation and the combiner.
fn hybrid_encap(
    ct_pq: &[u8],
    ss_pq: &[u8],
    curve: Curve,
    label: &[u8],
    ek_t: &[u8],
    seed_t: &[u8],
) -> Result<(Zeroizing<Vec<u8>>, Vec<u8>), Error> {
    let sk_e = curve.random_scalar(seed_t)?;
    let ct_t = curve.public(&sk_e)?;
    let ss_t = curve.dh(&sk_e, ek_t)?;
    let ss = qsf(ss_pq, &ss_t, &ct_t, ek_t, label);
    Ok((ss, [ct_pq, &ct_t].concat()))
}

/// RFC 9180 §7.1.3 `DeriveKeyPair(ikm)` for DHKEM(X25519, HKDF-SHA256).
fn dhkem_derive_x25519(ikm: &[u8]) -> (Zeroizing<[u8; 32]>, [u8; 32]) {
    let sid = Kem::DhKemX25519.suite_id();
    let prk = labeled_extract(Kdf::HkdfSha256, &sid, b"", b"dkp_prk", ikm);
    let sk = labeled_expand(Kdf::HkdfSha256, &sid, &prk, b"sk", b"", 32);
    let mut k = Zeroizing::new([0u8; 32]);
    k.copy_from_slice(&sk);
    let pk = x25519_base(&k);
    (k, pk)
}

/// RFC 9180 §7.1.3 `DeriveKeyPair(ikm)` for DHKEM(X448, HKDF-SHA512).
fn dhkem_derive_x448(ikm: &[u8]) -> (Zeroizing<[u8; 56]>, [u8; 56]) {
    let sid = Kem::DhKemX448.suite_id();
    let prk = labeled_extract(Kdf::HkdfSha512, &sid, b"", b"dkp_prk", ikm);
    let sk = labeled_expand(Kdf::HkdfSha512, &sid, &prk, b"sk", b"", 56);
    let mut k = Zeroizing::new([0u8; 56]);
    k.copy_from_slice(&sk);
    let pk = x448_base(&k);
    (k, pk)
}

/// RFC 9180 §7.1.3 `DeriveKeyPair(ikm)` for DHKEM(P-256) and DHKEM(P-384):
/// candidates `LabeledExpand(dkp_prk, "candidate", I2OSP(counter, 1), Nsk)`
/// until one is a scalar in range (the bitmask is `0xff` for both).
fn dhkem_derive_ec(curve: Curve, ikm: &[u8]) -> Result<Zeroizing<Vec<u8>>, Error> {
    let (kem, kdf) = curve.dhkem();
    let sid = kem.suite_id();
    let prk = labeled_extract(kdf, &sid, b"", b"dkp_prk", ikm);
    for counter in 0..=255u8 {
        let c = labeled_expand(kdf, &sid, &prk, b"candidate", &[counter], curve.n());
        if curve.is_scalar(&c) {
            return Ok(c);
        }
    }
    Err(Error::DeriveKeyPairFailed)
}

// ------------------------------------------------------------------ suites

/// A pre-shared key and its identifier for HPKE's PSK mode (RFC 9180
/// §5.1.2): both sides hold `psk`, and `psk_id` names it. The key must
/// have at least 32 bytes (of entropy: RFC 9180 requires it; pqkit can
/// only check the length) and the identifier must not be empty.
///
/// ```
/// use pqkit_hybrid::hpke::{Aead, Kdf, Kem, Psk, Suite};
///
/// let suite = Suite::new(Kem::MlKem768, Kdf::HkdfSha256, Aead::Aes128Gcm);
/// let (sk, pk) = suite.derive_key_pair(&[7; 64])?;
/// let psk = Psk::new(&[0x42; 32], b"key 1")?;
/// let (enc, mut sender) = suite.setup_sender_psk_derand(&pk, b"info", &psk, &[9; 32])?;
/// let ct = sender.seal(b"", b"hello")?;
/// let mut receiver = suite.setup_receiver_psk(&enc, &sk, b"info", &psk)?;
/// assert_eq!(receiver.open(b"", &ct)?, b"hello");
/// // Another PSK (or none) does not open it.
/// let other = Psk::new(&[0x43; 32], b"key 1")?;
/// let mut wrong = suite.setup_receiver_psk(&enc, &sk, b"info", &other)?;
/// assert!(wrong.open(b"", &ct).is_err());
/// assert!(Psk::new(&[0x42; 31], b"key 1").is_err());
/// # Ok::<(), pqkit_hybrid::hpke::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct Psk<'a> {
    psk: &'a [u8],
    psk_id: &'a [u8],
}

impl<'a> Psk<'a> {
    /// The pre-shared key `psk` (at least 32 bytes) named `psk_id` (not
    /// empty), else [`Error::InvalidPsk`].
    pub fn new(psk: &'a [u8], psk_id: &'a [u8]) -> Result<Self, Error> {
        if psk.len() < 32
            || psk_id.is_empty()
            || psk.len() > u16::MAX as usize
            || psk_id.len() > u16::MAX as usize
        {
            return Err(Error::InvalidPsk);
        }
        Ok(Psk { psk, psk_id })
    }
}

impl core::fmt::Debug for Psk<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Psk")
            .field("psk_id", &self.psk_id)
            .finish_non_exhaustive()
    }
}

/// The mode and PSK inputs of the key schedule (empty for base mode).
struct ModeInputs<'a> {
    mode: u8,
    psk: &'a [u8],
    psk_id: &'a [u8],
}

const BASE: ModeInputs<'static> = ModeInputs {
    mode: 0,
    psk: &[],
    psk_id: &[],
};

impl<'a> From<&Psk<'a>> for ModeInputs<'a> {
    fn from(p: &Psk<'a>) -> Self {
        ModeInputs {
            mode: 1,
            psk: p.psk,
            psk_id: p.psk_id,
        }
    }
}

/// An HPKE cipher suite: a KEM, a KDF and an AEAD.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Suite {
    /// The KEM.
    pub kem: Kem,
    /// The KDF of the key schedule.
    pub kdf: Kdf,
    /// The AEAD.
    pub aead: Aead,
}

impl Suite {
    /// The suite of the three algorithms.
    pub const fn new(kem: Kem, kdf: Kdf, aead: Aead) -> Self {
        Suite { kem, kdf, aead }
    }

    /// The suite of three registry identifiers, if all are supported.
    pub const fn from_ids(kem: u16, kdf: u16, aead: u16) -> Option<Self> {
        match (Kem::from_id(kem), Kdf::from_id(kdf), Aead::from_id(aead)) {
            (Some(kem), Some(kdf), Some(aead)) => Some(Suite { kem, kdf, aead }),
            _ => None,
        }
    }

    fn suite_id(&self) -> [u8; 10] {
        let (k, f, a) = (
            self.kem.id().to_be_bytes(),
            self.kdf.id().to_be_bytes(),
            self.aead.id().to_be_bytes(),
        );
        [b'H', b'P', b'K', b'E', k[0], k[1], f[0], f[1], a[0], a[1]]
    }

    /// `DeriveKeyPair(ikm)`: the key pair of the KEM from input keying
    /// material (at least `Nsk` bytes of entropy are the caller's duty).
    pub fn derive_key_pair(&self, ikm: &[u8]) -> Result<(PrivateKey, PublicKey), Error> {
        let sk = match self.kem {
            Kem::DhKemX25519 => {
                let (sk, _) = dhkem_derive_x25519(ikm);
                PrivateKey::from_bytes(self.kem, &sk[..])?
            }
            Kem::DhKemX448 => {
                let (sk, _) = dhkem_derive_x448(ikm);
                PrivateKey::from_bytes(self.kem, &sk[..])?
            }
            Kem::DhKemP256 => {
                PrivateKey::from_bytes(self.kem, &dhkem_derive_ec(Curve::P256, ikm)?)?
            }
            Kem::DhKemP384 => {
                PrivateKey::from_bytes(self.kem, &dhkem_derive_ec(Curve::P384, ikm)?)?
            }
            kem => {
                let seed = labeled_derive(
                    Kdf::Shake256,
                    &kem.suite_id(),
                    &[ikm],
                    b"DeriveKeyPair",
                    &[],
                    kem.private_key_len(),
                );
                PrivateKey::from_bytes(kem, &seed)?
            }
        };
        let pk = sk.public_key();
        Ok((sk, pk))
    }

    /// `GenerateKeyPair()` from `rng`.
    pub fn generate_key_pair<R: rand_core::TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
    ) -> Result<(PrivateKey, PublicKey), Error> {
        let mut seed = Zeroizing::new([0u8; 64]);
        let n = self.kem.private_key_len();
        rng.try_fill_bytes(&mut seed[..n]).map_err(|_| Error::Rng)?;
        match self.kem {
            Kem::DhKemX25519 | Kem::DhKemX448 | Kem::DhKemP256 | Kem::DhKemP384 => {
                self.derive_key_pair(&seed[..n])
            }
            kem => {
                let sk = PrivateKey::from_bytes(kem, &seed[..n])?;
                let pk = sk.public_key();
                Ok((sk, pk))
            }
        }
    }

    /// `SetupBaseS(pkR, info)` with randomness from `rng`: the
    /// encapsulated key `enc` and the sender's context.
    pub fn setup_sender<R: rand_core::TryCryptoRng + ?Sized>(
        &self,
        pk: &PublicKey,
        info: &[u8],
        rng: &mut R,
    ) -> Result<(Vec<u8>, SenderContext), Error> {
        let mut r = Zeroizing::new([0u8; 32 + P256_SEED]);
        let n = self.kem.encap_randomness_len();
        rng.try_fill_bytes(&mut r[..n]).map_err(|_| Error::Rng)?;
        self.setup_sender_derand(pk, info, &r[..n])
    }

    /// `SetupBaseS` with the encapsulation randomness given
    /// ([`Kem::encap_randomness_len`] bytes: `ikmE` of the test vectors).
    /// For tests: reusing randomness breaks security.
    pub fn setup_sender_derand(
        &self,
        pk: &PublicKey,
        info: &[u8],
        randomness: &[u8],
    ) -> Result<(Vec<u8>, SenderContext), Error> {
        if pk.kem() != self.kem {
            return Err(Error::KemMismatch);
        }
        let (ss, enc) = pk.encap(randomness)?;
        Ok((enc, SenderContext(self.key_schedule(&ss[..], info, &BASE))))
    }

    /// `SetupPSKS(pkR, info, psk, psk_id)` with randomness from `rng`:
    /// the encapsulated key and the sender's context in PSK mode.
    pub fn setup_sender_psk<R: rand_core::TryCryptoRng + ?Sized>(
        &self,
        pk: &PublicKey,
        info: &[u8],
        psk: &Psk<'_>,
        rng: &mut R,
    ) -> Result<(Vec<u8>, SenderContext), Error> {
        let mut r = Zeroizing::new([0u8; 32 + P256_SEED]);
        let n = self.kem.encap_randomness_len();
        rng.try_fill_bytes(&mut r[..n]).map_err(|_| Error::Rng)?;
        self.setup_sender_psk_derand(pk, info, psk, &r[..n])
    }

    /// `SetupPSKS` with the encapsulation randomness given (tests only,
    /// as [`Suite::setup_sender_derand`]).
    pub fn setup_sender_psk_derand(
        &self,
        pk: &PublicKey,
        info: &[u8],
        psk: &Psk<'_>,
        randomness: &[u8],
    ) -> Result<(Vec<u8>, SenderContext), Error> {
        if pk.kem() != self.kem {
            return Err(Error::KemMismatch);
        }
        let (ss, enc) = pk.encap(randomness)?;
        let mode = ModeInputs::from(psk);
        Ok((enc, SenderContext(self.key_schedule(&ss[..], info, &mode))))
    }

    /// `SetupPSKR(enc, skR, info, psk, psk_id)`: the receiver's context in
    /// PSK mode.
    pub fn setup_receiver_psk(
        &self,
        enc: &[u8],
        sk: &PrivateKey,
        info: &[u8],
        psk: &Psk<'_>,
    ) -> Result<ReceiverContext, Error> {
        self.receiver(enc, sk, info, &ModeInputs::from(psk))
    }

    /// `SetupBaseR(enc, skR, info)`: the receiver's context.
    pub fn setup_receiver(
        &self,
        enc: &[u8],
        sk: &PrivateKey,
        info: &[u8],
    ) -> Result<ReceiverContext, Error> {
        self.receiver(enc, sk, info, &BASE)
    }

    fn receiver(
        &self,
        enc: &[u8],
        sk: &PrivateKey,
        info: &[u8],
        mode: &ModeInputs<'_>,
    ) -> Result<ReceiverContext, Error> {
        if sk.kem() != self.kem {
            return Err(Error::KemMismatch);
        }
        if enc.len() != self.kem.enc_len() {
            return Err(Error::InvalidEncapsulatedKey);
        }
        let ss = sk.decap(enc)?;
        Ok(ReceiverContext(self.key_schedule(&ss[..], info, mode)))
    }

    /// RFC 9180 §5.1 `KeySchedule` (two-stage KDFs), or the one-stage
    /// schedule of draft-ietf-hpke-hpke for SHAKE, in base or PSK mode.
    fn key_schedule(&self, shared_secret: &[u8], info: &[u8], m: &ModeInputs<'_>) -> Context {
        let sid = self.suite_id();
        let (nk, nn, nh) = (self.aead.key_len(), self.aead.nonce_len(), self.kdf.nh());
        let (key, base_nonce, exporter_secret) = if self.kdf.one_stage() {
            // secrets = I2OSP(len(psk), 2) || psk || I2OSP(len(ss), 2) || ss
            let ss_len = (shared_secret.len() as u16).to_be_bytes();
            let info_len = (info.len() as u16).to_be_bytes();
            let psk_len = (m.psk.len() as u16).to_be_bytes();
            let psk_id_len = (m.psk_id.len() as u16).to_be_bytes();
            let all = labeled_derive(
                self.kdf,
                &sid,
                &[&psk_len, m.psk, &ss_len, shared_secret],
                b"secret",
                &[&[m.mode], &psk_id_len, m.psk_id, &info_len, info],
                nk + nn + nh,
            );
            (
                Zeroizing::new(all[..nk].to_vec()),
                Zeroizing::new(all[nk..nk + nn].to_vec()),
                Zeroizing::new(all[nk + nn..].to_vec()),
            )
        } else {
            let psk_id_hash = labeled_extract(self.kdf, &sid, b"", b"psk_id_hash", m.psk_id);
            let info_hash = labeled_extract(self.kdf, &sid, b"", b"info_hash", info);
            let mut ctx = Vec::with_capacity(1 + 2 * nh);
            ctx.push(m.mode);
            ctx.extend_from_slice(&psk_id_hash);
            ctx.extend_from_slice(&info_hash);
            let secret = labeled_extract(self.kdf, &sid, shared_secret, b"secret", m.psk);
            (
                labeled_expand(self.kdf, &sid, &secret, b"key", &ctx, nk),
                labeled_expand(self.kdf, &sid, &secret, b"base_nonce", &ctx, nn),
                labeled_expand(self.kdf, &sid, &secret, b"exp", &ctx, nh),
            )
        };
        // `key` is `Nk` bytes of this AEAD: the fixed-size copies cannot
        // fail.
        let cipher = match self.aead {
            Aead::Aes128Gcm => {
                let mut k = Zeroizing::new([0u8; 16]);
                k.copy_from_slice(&key);
                Cipher::Aes128(aes_gcm::Aes128Gcm::new(&(*k).into()))
            }
            Aead::Aes256Gcm => {
                let mut k = Zeroizing::new([0u8; 32]);
                k.copy_from_slice(&key);
                Cipher::Aes256(aes_gcm::Aes256Gcm::new(&(*k).into()))
            }
            Aead::ChaCha20Poly1305 => {
                let mut k = Zeroizing::new([0u8; 32]);
                k.copy_from_slice(&key);
                Cipher::ChaCha(chacha20poly1305::ChaCha20Poly1305::new(&(*k).into()))
            }
            Aead::ExportOnly => Cipher::None,
        };
        Context {
            suite: *self,
            cipher,
            base_nonce,
            exporter_secret,
            seq: 0,
        }
    }
}

/// The AEAD instance of a context (`None`: export-only).
enum Cipher {
    Aes128(aes_gcm::Aes128Gcm),
    Aes256(aes_gcm::Aes256Gcm),
    ChaCha(chacha20poly1305::ChaCha20Poly1305),
    None,
}

struct Context {
    suite: Suite,
    cipher: Cipher,
    base_nonce: Zeroizing<Vec<u8>>,
    exporter_secret: Zeroizing<Vec<u8>>,
    seq: u64,
}

impl Context {
    /// `base_nonce XOR I2OSP(seq, Nn)` (`Nn = 12`: not for export-only
    /// contexts).
    fn nonce(&self) -> [u8; 12] {
        let mut n = [0u8; 12];
        n.copy_from_slice(&self.base_nonce[..12]);
        for (b, s) in n[4..].iter_mut().zip(self.seq.to_be_bytes()) {
            *b ^= s;
        }
        n
    }

    fn crypt(&mut self, aad: &[u8], input: &[u8], seal: bool) -> Result<Vec<u8>, Error> {
        if matches!(self.cipher, Cipher::None) {
            return Err(Error::ExportOnly);
        }
        if self.seq == u64::MAX {
            return Err(Error::MessageLimitReached);
        }
        let nonce = Array::from(self.nonce());
        let payload = Payload { msg: input, aad };
        let out = match (&self.cipher, seal) {
            (Cipher::Aes128(c), true) => c.encrypt(&nonce, payload),
            (Cipher::Aes128(c), false) => c.decrypt(&nonce, payload),
            (Cipher::Aes256(c), true) => c.encrypt(&nonce, payload),
            (Cipher::Aes256(c), false) => c.decrypt(&nonce, payload),
            (Cipher::ChaCha(c), true) => c.encrypt(&nonce, payload),
            (Cipher::ChaCha(c), false) => c.decrypt(&nonce, payload),
            (Cipher::None, _) => return Err(Error::ExportOnly),
        };
        let out = out.map_err(|_| {
            if seal {
                Error::MessageTooLong
            } else {
                Error::OpenError
            }
        })?;
        self.seq += 1;
        Ok(out)
    }

    fn export(&self, exporter_context: &[u8], len: usize) -> Result<Vec<u8>, Error> {
        if len > self.suite.kdf.max_len() {
            return Err(Error::ExportTooLong);
        }
        let sid = self.suite.suite_id();
        let out = if self.suite.kdf.one_stage() {
            labeled_derive(
                self.suite.kdf,
                &sid,
                &[&self.exporter_secret],
                b"sec",
                &[exporter_context],
                len,
            )
        } else {
            labeled_expand(
                self.suite.kdf,
                &sid,
                &self.exporter_secret,
                b"sec",
                exporter_context,
                len,
            )
        };
        Ok(out.to_vec())
    }
}

/// The sender's context of `SetupBaseS`: `seal` and `export`.
pub struct SenderContext(Context);

/// The receiver's context of `SetupBaseR`: `open` and `export`.
pub struct ReceiverContext(Context);

impl SenderContext {
    /// `Seal(aad, pt)`: the ciphertext (plaintext and tag), with the next
    /// nonce.
    pub fn seal(&mut self, aad: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, Error> {
        self.0.crypt(aad, plaintext, true)
    }

    /// `Export(exporter_context, L)`.
    pub fn export(&self, exporter_context: &[u8], len: usize) -> Result<Vec<u8>, Error> {
        self.0.export(exporter_context, len)
    }

    /// The suite.
    pub fn suite(&self) -> Suite {
        self.0.suite
    }
}

impl ReceiverContext {
    /// `Open(aad, ct)`: the plaintext; the sequence number advances only
    /// when the ciphertext authenticates.
    pub fn open(&mut self, aad: &[u8], ciphertext: &[u8]) -> Result<Vec<u8>, Error> {
        self.0.crypt(aad, ciphertext, false)
    }

    /// `Export(exporter_context, L)`.
    pub fn export(&self, exporter_context: &[u8], len: usize) -> Result<Vec<u8>, Error> {
        self.0.export(exporter_context, len)
    }

    /// The suite.
    pub fn suite(&self) -> Suite {
        self.0.suite
    }
}

impl core::fmt::Debug for SenderContext {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SenderContext({:?}, ..)", self.0.suite)
    }
}

impl core::fmt::Debug for ReceiverContext {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "ReceiverContext({:?}, ..)", self.0.suite)
    }
}
