//! HPKE (RFC 9180), base mode, with the post-quantum KEMs of
//! draft-ietf-hpke-pq on pqkit's ML-KEM and X-Wing, and DHKEM(X25519) for
//! comparison.
//!
//! | KEM | id | `Npk` | `Nsk` | `Nenc` | encapsulation randomness |
//! |---|---|---|---|---|---|
//! | [`Kem::MlKem512`] | `0x0040` | 800 | 64 | 768 | 32 |
//! | [`Kem::MlKem768`] | `0x0041` | 1184 | 64 | 1088 | 32 |
//! | [`Kem::MlKem1024`] | `0x0042` | 1568 | 64 | 1568 | 32 |
//! | [`Kem::MlKem768X25519`] (X-Wing) | `0x647a` | 1216 | 32 | 1120 | 64 |
//! | [`Kem::DhKemX25519`] (HKDF-SHA256) | `0x0020` | 32 | 32 | 32 | 32 |
//!
//! KDFs: HKDF-SHA256/384/512 (RFC 9180's two-stage key schedule) and the
//! one-stage SHAKE128, SHAKE256, TurboSHAKE128 and TurboSHAKE256 of
//! draft-ietf-hpke-hpke and draft-ietf-hpke-pq. AEADs: AES-128-GCM, AES-256-GCM,
//! ChaCha20-Poly1305 (RustCrypto's crates) and export-only.
//!
//! Private keys are the KEMs' seeds (64 bytes for ML-KEM, `d || z`; 32 for
//! X-Wing; the X25519 scalar for the DHKEM); public keys their encodings.
//! `DeriveKeyPair` is `SHAKE256.LabeledDerive(ikm, "DeriveKeyPair", "",
//! Nsk)` for the post-quantum KEMs and RFC 9180 §7.1.3 for the DHKEM.
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
        })
    }
}

impl core::error::Error for Error {}

/// An HPKE KEM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kem {
    /// ML-KEM-512 (`0x0040`).
    MlKem512,
    /// ML-KEM-768 (`0x0041`).
    MlKem768,
    /// ML-KEM-1024 (`0x0042`).
    MlKem1024,
    /// MLKEM768-X25519, that is X-Wing (`0x647a`).
    MlKem768X25519,
    /// DHKEM(X25519, HKDF-SHA256) of RFC 9180 (`0x0020`).
    DhKemX25519,
}

impl Kem {
    /// Every KEM, in identifier order.
    pub const ALL: [Kem; 5] = [
        Kem::DhKemX25519,
        Kem::MlKem512,
        Kem::MlKem768,
        Kem::MlKem1024,
        Kem::MlKem768X25519,
    ];

    /// The registry identifier.
    pub const fn id(self) -> u16 {
        match self {
            Kem::MlKem512 => 0x0040,
            Kem::MlKem768 => 0x0041,
            Kem::MlKem1024 => 0x0042,
            Kem::MlKem768X25519 => 0x647a,
            Kem::DhKemX25519 => 0x0020,
        }
    }

    /// The KEM of an identifier, if supported.
    pub const fn from_id(id: u16) -> Option<Kem> {
        match id {
            0x0040 => Some(Kem::MlKem512),
            0x0041 => Some(Kem::MlKem768),
            0x0042 => Some(Kem::MlKem1024),
            0x647a => Some(Kem::MlKem768X25519),
            0x0020 => Some(Kem::DhKemX25519),
            _ => None,
        }
    }

    /// `Npk`, the public key length.
    pub const fn public_key_len(self) -> usize {
        match self {
            Kem::MlKem512 => 800,
            Kem::MlKem768 => 1184,
            Kem::MlKem1024 => 1568,
            Kem::MlKem768X25519 => xwing::ENCAPSULATION_KEY_SIZE,
            Kem::DhKemX25519 => 32,
        }
    }

    /// `Nsk`, the private key (seed) length.
    pub const fn private_key_len(self) -> usize {
        match self {
            Kem::MlKem512 | Kem::MlKem768 | Kem::MlKem1024 => 64,
            Kem::MlKem768X25519 => xwing::DECAPSULATION_KEY_SIZE,
            Kem::DhKemX25519 => 32,
        }
    }

    /// `Nenc`, the encapsulated key length.
    pub const fn enc_len(self) -> usize {
        match self {
            Kem::MlKem512 => 768,
            Kem::MlKem768 => 1088,
            Kem::MlKem1024 => 1568,
            Kem::MlKem768X25519 => xwing::CIPHERTEXT_SIZE,
            Kem::DhKemX25519 => 32,
        }
    }

    /// The bytes of randomness one encapsulation takes (`ikmE`).
    pub const fn encap_randomness_len(self) -> usize {
        match self {
            Kem::MlKem768X25519 => xwing::ENCAPSULATION_RANDOMNESS_SIZE,
            _ => 32,
        }
    }

    /// `Nsecret`, the shared secret length (32 for every KEM here).
    pub const fn shared_secret_len(self) -> usize {
        32
    }

    fn suite_id(self) -> [u8; 5] {
        let id = self.id().to_be_bytes();
        [b'K', b'E', b'M', id[0], id[1]]
    }
}

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

// ------------------------------------------------------------------ keys

#[derive(Clone)]
enum SkInner {
    MlKem512(Box<pqkit_ml_kem::DecapsulationKey512>),
    MlKem768(Box<pqkit_ml_kem::DecapsulationKey768>),
    MlKem1024(Box<pqkit_ml_kem::DecapsulationKey1024>),
    XWing(Box<xwing::DecapsulationKey>),
    X25519(Zeroizing<[u8; 32]>),
}

#[derive(Clone)]
enum PkInner {
    MlKem512(Box<pqkit_ml_kem::EncapsulationKey512>),
    MlKem768(Box<pqkit_ml_kem::EncapsulationKey768>),
    MlKem1024(Box<pqkit_ml_kem::EncapsulationKey1024>),
    XWing(Box<xwing::EncapsulationKey>),
    X25519([u8; 32]),
}

/// An HPKE private key: the KEM's seed, with the key it expands to kept
/// for decapsulation. Wiped on drop.
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

impl PrivateKey {
    /// The key of `kem` from its serialization (`Nsk` bytes: the seed).
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
        })
    }

    /// `Decap(enc, skR)`: the shared secret.
    fn decap(&self, enc: &[u8]) -> Result<Zeroizing<[u8; 32]>, Error> {
        let mut out = Zeroizing::new([0u8; 32]);
        match &self.0 {
            SkInner::MlKem512(k) => out.copy_from_slice(ml_decap(k, enc)?.as_bytes()),
            SkInner::MlKem768(k) => out.copy_from_slice(ml_decap(k, enc)?.as_bytes()),
            SkInner::MlKem1024(k) => out.copy_from_slice(ml_decap(k, enc)?.as_bytes()),
            SkInner::XWing(k) => {
                let ct =
                    xwing::Ciphertext::try_from(enc).map_err(|_| Error::InvalidEncapsulatedKey)?;
                out.copy_from_slice(&k.decapsulate(&ct));
            }
            SkInner::X25519(k) => {
                let pk_e: [u8; 32] = enc.try_into().map_err(|_| Error::InvalidEncapsulatedKey)?;
                let pk_r = x25519_base(k);
                let dh = Zeroizing::new(pqkit_x25519::x25519(**k, pk_e));
                *out = dhkem_shared_secret(&dh, &pk_e, &pk_r)?;
            }
        }
        Ok(out)
    }
}

fn ml_decap<P: pqkit_ml_kem::ParameterSet>(
    k: &pqkit_ml_kem::DecapsulationKey<P>,
    enc: &[u8],
) -> Result<pqkit_common::secret::SharedSecret, Error> {
    k.decapsulate_bytes(enc)
        .map_err(|_| Error::InvalidEncapsulatedKey)
}

fn x25519_base(k: &[u8; 32]) -> [u8; 32] {
    pqkit_x25519::x25519(*k, pqkit_x25519::X25519_BASEPOINT_BYTES)
}

/// RFC 9180 §4.1 `ExtractAndExpand(dh, enc || pkRm)` for DHKEM(X25519,
/// HKDF-SHA256), refusing an all-zero `dh` (§7.1.4).
fn dhkem_shared_secret(dh: &[u8; 32], enc: &[u8; 32], pk_r: &[u8; 32]) -> Result<[u8; 32], Error> {
    if bool::from(subtle::ConstantTimeEq::ct_eq(&dh[..], &[0u8; 32][..])) {
        return Err(Error::ZeroSharedSecret);
    }
    let sid = Kem::DhKemX25519.suite_id();
    let prk = labeled_extract(Kdf::HkdfSha256, &sid, b"", b"eae_prk", dh);
    let mut ctx = [0u8; 64];
    ctx[..32].copy_from_slice(enc);
    ctx[32..].copy_from_slice(pk_r);
    let ss = labeled_expand(Kdf::HkdfSha256, &sid, &prk, b"shared_secret", &ctx, 32);
    let mut out = [0u8; 32];
    out.copy_from_slice(&ss);
    Ok(out)
}

impl PublicKey {
    /// The key of `kem` from its serialization (`Npk` bytes). ML-KEM keys
    /// (alone or in X-Wing) must pass FIPS 203's modulus check.
    pub fn from_bytes(kem: Kem, bytes: &[u8]) -> Result<Self, Error> {
        if bytes.len() != kem.public_key_len() {
            return Err(Error::InvalidPublicKey);
        }
        let e = |_| Error::InvalidPublicKey;
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
        }
    }

    /// `Encap(pkR)` with the given randomness: `(shared_secret, enc)`.
    fn encap(&self, randomness: &[u8]) -> Result<(Zeroizing<[u8; 32]>, Vec<u8>), Error> {
        if randomness.len() != self.kem().encap_randomness_len() {
            return Err(Error::InvalidRandomness);
        }
        let mut ss = Zeroizing::new([0u8; 32]);
        let mut m = Zeroizing::new([0u8; 32]);
        let enc = match &self.0 {
            PkInner::MlKem512(k) => {
                m.copy_from_slice(randomness);
                let (ct, s) = pqkit_ml_kem::hazmat::encaps_internal(k, &m);
                ss.copy_from_slice(s.as_bytes());
                ct.to_vec()
            }
            PkInner::MlKem768(k) => {
                m.copy_from_slice(randomness);
                let (ct, s) = pqkit_ml_kem::hazmat::encaps_internal(k, &m);
                ss.copy_from_slice(s.as_bytes());
                ct.to_vec()
            }
            PkInner::MlKem1024(k) => {
                m.copy_from_slice(randomness);
                let (ct, s) = pqkit_ml_kem::hazmat::encaps_internal(k, &m);
                ss.copy_from_slice(s.as_bytes());
                ct.to_vec()
            }
            PkInner::XWing(k) => {
                let mut r = Array::<u8, hybrid_array::sizes::U64>::default();
                r.copy_from_slice(randomness);
                let (ct, s) = k.encapsulate_deterministic(&r);
                r.zeroize();
                ss.copy_from_slice(&s);
                ct.to_vec()
            }
            PkInner::X25519(pk_r) => {
                let (sk_e, pk_e) = dhkem_derive(randomness);
                let dh = Zeroizing::new(pqkit_x25519::x25519(*sk_e, *pk_r));
                *ss = dhkem_shared_secret(&dh, &pk_e, pk_r)?;
                pk_e.to_vec()
            }
        };
        Ok((ss, enc))
    }
}

/// RFC 9180 §7.1.3 `DeriveKeyPair(ikm)` for DHKEM(X25519, HKDF-SHA256).
fn dhkem_derive(ikm: &[u8]) -> (Zeroizing<[u8; 32]>, [u8; 32]) {
    let sid = Kem::DhKemX25519.suite_id();
    let prk = labeled_extract(Kdf::HkdfSha256, &sid, b"", b"dkp_prk", ikm);
    let sk = labeled_expand(Kdf::HkdfSha256, &sid, &prk, b"sk", b"", 32);
    let mut k = Zeroizing::new([0u8; 32]);
    k.copy_from_slice(&sk);
    let pk = x25519_base(&k);
    (k, pk)
}

// ------------------------------------------------------------------ suites

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
                let (sk, _) = dhkem_derive(ikm);
                PrivateKey::from_bytes(self.kem, &sk[..])?
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
        let n = match self.kem {
            Kem::DhKemX25519 => 32,
            kem => kem.private_key_len(),
        };
        rng.try_fill_bytes(&mut seed[..n]).map_err(|_| Error::Rng)?;
        match self.kem {
            Kem::DhKemX25519 => self.derive_key_pair(&seed[..n]),
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
        let mut r = Zeroizing::new([0u8; 64]);
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
        Ok((enc, SenderContext(self.key_schedule(&ss[..], info))))
    }

    /// `SetupBaseR(enc, skR, info)`: the receiver's context.
    pub fn setup_receiver(
        &self,
        enc: &[u8],
        sk: &PrivateKey,
        info: &[u8],
    ) -> Result<ReceiverContext, Error> {
        if sk.kem() != self.kem {
            return Err(Error::KemMismatch);
        }
        if enc.len() != self.kem.enc_len() {
            return Err(Error::InvalidEncapsulatedKey);
        }
        let ss = sk.decap(enc)?;
        Ok(ReceiverContext(self.key_schedule(&ss[..], info)))
    }

    /// RFC 9180 §5.1 `KeySchedule` in base mode (two-stage KDFs), or the
    /// one-stage schedule of draft-ietf-hpke-hpke for SHAKE.
    fn key_schedule(&self, shared_secret: &[u8], info: &[u8]) -> Context {
        let sid = self.suite_id();
        let (nk, nn, nh) = (self.aead.key_len(), self.aead.nonce_len(), self.kdf.nh());
        let (key, base_nonce, exporter_secret) = if self.kdf.one_stage() {
            // secrets = I2OSP(len(psk), 2) || psk || I2OSP(len(ss), 2) || ss
            let ss_len = (shared_secret.len() as u16).to_be_bytes();
            let info_len = (info.len() as u16).to_be_bytes();
            let all = labeled_derive(
                self.kdf,
                &sid,
                &[&[0, 0], &ss_len, shared_secret],
                b"secret",
                &[&[0], &[0, 0], &info_len, info],
                nk + nn + nh,
            );
            (
                Zeroizing::new(all[..nk].to_vec()),
                Zeroizing::new(all[nk..nk + nn].to_vec()),
                Zeroizing::new(all[nk + nn..].to_vec()),
            )
        } else {
            let psk_id_hash = labeled_extract(self.kdf, &sid, b"", b"psk_id_hash", b"");
            let info_hash = labeled_extract(self.kdf, &sid, b"", b"info_hash", info);
            let mut ctx = Vec::with_capacity(1 + 2 * nh);
            ctx.push(0u8);
            ctx.extend_from_slice(&psk_id_hash);
            ctx.extend_from_slice(&info_hash);
            let secret = labeled_extract(self.kdf, &sid, shared_secret, b"secret", b"");
            (
                labeled_expand(self.kdf, &sid, &secret, b"key", &ctx, nk),
                labeled_expand(self.kdf, &sid, &secret, b"base_nonce", &ctx, nn),
                labeled_expand(self.kdf, &sid, &secret, b"exp", &ctx, nh),
            )
        };
        let cipher = match self.aead {
            Aead::Aes128Gcm => Cipher::Aes128(aes_gcm::Aes128Gcm::new_from_slice(&key).ok()),
            Aead::Aes256Gcm => Cipher::Aes256(aes_gcm::Aes256Gcm::new_from_slice(&key).ok()),
            Aead::ChaCha20Poly1305 => {
                Cipher::ChaCha(chacha20poly1305::ChaCha20Poly1305::new_from_slice(&key).ok())
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

/// The AEAD instance of a context (boxed state kept out of the key types).
enum Cipher {
    Aes128(Option<aes_gcm::Aes128Gcm>),
    Aes256(Option<aes_gcm::Aes256Gcm>),
    ChaCha(Option<chacha20poly1305::ChaCha20Poly1305>),
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
            (Cipher::Aes128(Some(c)), true) => c.encrypt(&nonce, payload),
            (Cipher::Aes128(Some(c)), false) => c.decrypt(&nonce, payload),
            (Cipher::Aes256(Some(c)), true) => c.encrypt(&nonce, payload),
            (Cipher::Aes256(Some(c)), false) => c.decrypt(&nonce, payload),
            (Cipher::ChaCha(Some(c)), true) => c.encrypt(&nonce, payload),
            (Cipher::ChaCha(Some(c)), false) => c.decrypt(&nonce, payload),
            _ => return Err(Error::ExportOnly),
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
