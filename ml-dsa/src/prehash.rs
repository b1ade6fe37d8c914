//! HashML-DSA pre-hash functions (FIPS 204 §5.4) and their OIDs.

use digest::Digest;
use pqkit_common::keccak::{
    ExtendableOutput, Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake128, Shake256, Update, XofReader,
};

use crate::Error;

/// A pre-hash function of HashML-DSA. All twelve that ACVP tests are
/// supported; their OIDs (under 2.16.840.1.101.3.4.2) enter the domain
/// separator `M' = 1 || |ctx| || ctx || OID || PH(M)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum HashAlg {
    /// SHA2-224 (OID ...2.4, 28-byte digest).
    Sha2_224,
    /// SHA2-256 (OID ...2.1, 32 bytes).
    Sha2_256,
    /// SHA2-384 (OID ...2.2, 48 bytes).
    Sha2_384,
    /// SHA2-512 (OID ...2.3, 64 bytes).
    Sha2_512,
    /// SHA2-512/224 (OID ...2.5, 28 bytes).
    Sha2_512_224,
    /// SHA2-512/256 (OID ...2.6, 32 bytes).
    Sha2_512_256,
    /// SHA3-224 (OID ...2.7, 28 bytes).
    Sha3_224,
    /// SHA3-256 (OID ...2.8, 32 bytes).
    Sha3_256,
    /// SHA3-384 (OID ...2.9, 48 bytes).
    Sha3_384,
    /// SHA3-512 (OID ...2.10, 64 bytes).
    Sha3_512,
    /// SHAKE-128 with 256 bits of output (OID ...2.11, 32 bytes).
    Shake128,
    /// SHAKE-256 with 512 bits of output (OID ...2.12, 64 bytes).
    Shake256,
}

impl HashAlg {
    /// Every supported pre-hash.
    pub const ALL: [HashAlg; 12] = [
        HashAlg::Sha2_224,
        HashAlg::Sha2_256,
        HashAlg::Sha2_384,
        HashAlg::Sha2_512,
        HashAlg::Sha2_512_224,
        HashAlg::Sha2_512_256,
        HashAlg::Sha3_224,
        HashAlg::Sha3_256,
        HashAlg::Sha3_384,
        HashAlg::Sha3_512,
        HashAlg::Shake128,
        HashAlg::Shake256,
    ];

    /// The lower-case name used by the `pqkit` CLI (`sha2-256`,
    /// `sha2-512/224`, `sha3-384`, `shake-128`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            HashAlg::Sha2_224 => "sha2-224",
            HashAlg::Sha2_256 => "sha2-256",
            HashAlg::Sha2_384 => "sha2-384",
            HashAlg::Sha2_512 => "sha2-512",
            HashAlg::Sha2_512_224 => "sha2-512/224",
            HashAlg::Sha2_512_256 => "sha2-512/256",
            HashAlg::Sha3_224 => "sha3-224",
            HashAlg::Sha3_256 => "sha3-256",
            HashAlg::Sha3_384 => "sha3-384",
            HashAlg::Sha3_512 => "sha3-512",
            HashAlg::Shake128 => "shake-128",
            HashAlg::Shake256 => "shake-256",
        }
    }

    /// Parse a name, case-insensitively: the CLI names of [`name`](Self::name)
    /// and the ACVP names (`SHA2-256`, `SHA2-512/224`, `SHAKE-128`, ...).
    pub fn from_name(name: &str) -> Result<Self, Error> {
        HashAlg::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(name))
            .ok_or(Error::UnknownHash)
    }

    /// The last arc of the OID 2.16.840.1.101.3.4.2.x.
    const fn arc(self) -> u8 {
        match self {
            HashAlg::Sha2_256 => 1,
            HashAlg::Sha2_384 => 2,
            HashAlg::Sha2_512 => 3,
            HashAlg::Sha2_224 => 4,
            HashAlg::Sha2_512_224 => 5,
            HashAlg::Sha2_512_256 => 6,
            HashAlg::Sha3_224 => 7,
            HashAlg::Sha3_256 => 8,
            HashAlg::Sha3_384 => 9,
            HashAlg::Sha3_512 => 10,
            HashAlg::Shake128 => 11,
            HashAlg::Shake256 => 12,
        }
    }

    /// DER encoding of the OID (tag, length, value), as it enters `M'`.
    pub const fn oid_der(self) -> [u8; 11] {
        [
            0x06,
            0x09,
            0x60,
            0x86,
            0x48,
            0x01,
            0x65,
            0x03,
            0x04,
            0x02,
            self.arc(),
        ]
    }

    /// Digest length in bytes.
    pub const fn digest_len(self) -> usize {
        match self {
            HashAlg::Sha2_224 | HashAlg::Sha2_512_224 | HashAlg::Sha3_224 => 28,
            HashAlg::Sha2_256 | HashAlg::Sha2_512_256 | HashAlg::Sha3_256 | HashAlg::Shake128 => 32,
            HashAlg::Sha2_384 | HashAlg::Sha3_384 => 48,
            HashAlg::Sha2_512 | HashAlg::Sha3_512 | HashAlg::Shake256 => 64,
        }
    }

    /// `PH(msg)`.
    pub fn digest(self, msg: &[u8]) -> PreHash {
        let mut h = PreHasher::new(self);
        h.update(msg);
        h.finalize()
    }
}

/// A pre-hash digest `PH(M)` with its algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PreHash {
    alg: HashAlg,
    bytes: [u8; 64],
}

impl PreHash {
    /// Wrap an externally computed digest; its length must be
    /// [`HashAlg::digest_len`].
    pub fn from_digest(alg: HashAlg, digest: &[u8]) -> Result<Self, Error> {
        if digest.len() != alg.digest_len() {
            return Err(Error::InvalidLength);
        }
        let mut bytes = [0u8; 64];
        bytes[..digest.len()].copy_from_slice(digest);
        Ok(Self { alg, bytes })
    }
    /// The algorithm.
    pub fn alg(&self) -> HashAlg {
        self.alg
    }
    /// The digest bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.alg.digest_len()]
    }
}

/// An incremental pre-hash computation.
#[derive(Clone, Debug)]
pub struct PreHasher(Inner);

#[derive(Clone, Debug)]
enum Inner {
    Sha224(sha2::Sha224),
    Sha256(sha2::Sha256),
    Sha384(sha2::Sha384),
    Sha512(sha2::Sha512),
    Sha512_224(sha2::Sha512_224),
    Sha512_256(sha2::Sha512_256),
    Sha3_224(Sha3_224),
    Sha3_256(Sha3_256),
    Sha3_384(Sha3_384),
    Sha3_512(Sha3_512),
    Shake128(Shake128),
    Shake256(Shake256),
}

impl PreHasher {
    /// Start hashing with `alg`.
    pub fn new(alg: HashAlg) -> Self {
        PreHasher(match alg {
            HashAlg::Sha2_224 => Inner::Sha224(Digest::new()),
            HashAlg::Sha2_256 => Inner::Sha256(Digest::new()),
            HashAlg::Sha2_384 => Inner::Sha384(Digest::new()),
            HashAlg::Sha2_512 => Inner::Sha512(Digest::new()),
            HashAlg::Sha2_512_224 => Inner::Sha512_224(Digest::new()),
            HashAlg::Sha2_512_256 => Inner::Sha512_256(Digest::new()),
            HashAlg::Sha3_224 => Inner::Sha3_224(Digest::new()),
            HashAlg::Sha3_256 => Inner::Sha3_256(Digest::new()),
            HashAlg::Sha3_384 => Inner::Sha3_384(Digest::new()),
            HashAlg::Sha3_512 => Inner::Sha3_512(Digest::new()),
            HashAlg::Shake128 => Inner::Shake128(Shake128::default()),
            HashAlg::Shake256 => Inner::Shake256(Shake256::default()),
        })
    }

    /// Absorb a message piece.
    pub fn update(&mut self, data: &[u8]) {
        match &mut self.0 {
            Inner::Sha224(h) => Digest::update(h, data),
            Inner::Sha256(h) => Digest::update(h, data),
            Inner::Sha384(h) => Digest::update(h, data),
            Inner::Sha512(h) => Digest::update(h, data),
            Inner::Sha512_224(h) => Digest::update(h, data),
            Inner::Sha512_256(h) => Digest::update(h, data),
            Inner::Sha3_224(h) => Digest::update(h, data),
            Inner::Sha3_256(h) => Digest::update(h, data),
            Inner::Sha3_384(h) => Digest::update(h, data),
            Inner::Sha3_512(h) => Digest::update(h, data),
            Inner::Shake128(h) => Update::update(h, data),
            Inner::Shake256(h) => Update::update(h, data),
        }
    }

    /// The algorithm.
    pub fn alg(&self) -> HashAlg {
        match &self.0 {
            Inner::Sha224(_) => HashAlg::Sha2_224,
            Inner::Sha256(_) => HashAlg::Sha2_256,
            Inner::Sha384(_) => HashAlg::Sha2_384,
            Inner::Sha512(_) => HashAlg::Sha2_512,
            Inner::Sha512_224(_) => HashAlg::Sha2_512_224,
            Inner::Sha512_256(_) => HashAlg::Sha2_512_256,
            Inner::Sha3_224(_) => HashAlg::Sha3_224,
            Inner::Sha3_256(_) => HashAlg::Sha3_256,
            Inner::Sha3_384(_) => HashAlg::Sha3_384,
            Inner::Sha3_512(_) => HashAlg::Sha3_512,
            Inner::Shake128(_) => HashAlg::Shake128,
            Inner::Shake256(_) => HashAlg::Shake256,
        }
    }

    /// Finish: `PH(M)`.
    pub fn finalize(self) -> PreHash {
        let alg = self.alg();
        let mut bytes = [0u8; 64];
        fn put(out: &mut [u8; 64], d: &[u8]) {
            out[..d.len()].copy_from_slice(d);
        }
        match self.0 {
            Inner::Sha224(h) => put(&mut bytes, &h.finalize()),
            Inner::Sha256(h) => put(&mut bytes, &h.finalize()),
            Inner::Sha384(h) => put(&mut bytes, &h.finalize()),
            Inner::Sha512(h) => put(&mut bytes, &h.finalize()),
            Inner::Sha512_224(h) => put(&mut bytes, &h.finalize()),
            Inner::Sha512_256(h) => put(&mut bytes, &h.finalize()),
            Inner::Sha3_224(h) => put(&mut bytes, &h.finalize()),
            Inner::Sha3_256(h) => put(&mut bytes, &h.finalize()),
            Inner::Sha3_384(h) => put(&mut bytes, &h.finalize()),
            Inner::Sha3_512(h) => put(&mut bytes, &h.finalize()),
            Inner::Shake128(h) => h.finalize_xof().read(&mut bytes[..32]),
            Inner::Shake256(h) => h.finalize_xof().read(&mut bytes[..64]),
        }
        PreHash { alg, bytes }
    }
}

/// A digest type usable with the `DigestSigner`/`DigestVerifier` traits
/// for HashML-DSA: each maps to its [`HashAlg`].
pub trait PreHashDigest: Update + Default {
    /// The pre-hash this type computes.
    const ALG: HashAlg;
    /// Finish into a [`PreHash`].
    fn finish(self) -> PreHash;
}

macro_rules! fixed_digest {
    ($($t:ty => $alg:ident),*) => {$(
        impl PreHashDigest for $t {
            const ALG: HashAlg = HashAlg::$alg;
            fn finish(self) -> PreHash {
                let mut bytes = [0u8; 64];
                let d = Digest::finalize(self);
                bytes[..d.len()].copy_from_slice(&d);
                PreHash { alg: HashAlg::$alg, bytes }
            }
        }
    )*};
}
fixed_digest!(
    sha2::Sha224 => Sha2_224, sha2::Sha256 => Sha2_256, sha2::Sha384 => Sha2_384,
    sha2::Sha512 => Sha2_512, sha2::Sha512_224 => Sha2_512_224, sha2::Sha512_256 => Sha2_512_256,
    Sha3_224 => Sha3_224, Sha3_256 => Sha3_256, Sha3_384 => Sha3_384, Sha3_512 => Sha3_512
);

impl PreHashDigest for Shake128 {
    const ALG: HashAlg = HashAlg::Shake128;
    fn finish(self) -> PreHash {
        let mut bytes = [0u8; 64];
        self.finalize_xof().read(&mut bytes[..32]);
        PreHash {
            alg: HashAlg::Shake128,
            bytes,
        }
    }
}

impl PreHashDigest for Shake256 {
    const ALG: HashAlg = HashAlg::Shake256;
    fn finish(self) -> PreHash {
        let mut bytes = [0u8; 64];
        self.finalize_xof().read(&mut bytes[..64]);
        PreHash {
            alg: HashAlg::Shake256,
            bytes,
        }
    }
}
