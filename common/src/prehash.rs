//! The one registry of pre-hash functions: name, OID, output length and
//! digest, read by HashML-DSA (FIPS 204 §5.4), HashFN-DSA, Ed25519ph
//! (RFC 8032, SHA-512) and the `pqkit` command. The names, OIDs and
//! lengths are always there; computing digests ([`HashAlg::digest`],
//! `PreHasher`, `PreHashDigest`) is the `prehash` feature.
//!
//! ```
//! use pqkit_common::prehash::{HashAlg, PreHasher};
//!
//! let alg = HashAlg::from_name("SHA2-512/256").unwrap();
//! assert_eq!(alg, HashAlg::Sha2_512_256);
//! assert_eq!((alg.name(), alg.digest_len(), alg.oid_arc()), ("sha2-512/256", 32, 6));
//!
//! let mut h = PreHasher::new(HashAlg::Shake128);
//! h.update(b"ab");
//! h.update(b"c");
//! assert_eq!(h.finalize(), HashAlg::Shake128.digest(b"abc"));
//! assert_eq!(HashAlg::Sha3_384.digest(b"").as_bytes().len(), 48);
//! ```

#[cfg(feature = "prehash")]
use crate::keccak::{Shake128, Shake256, Sponge};
#[cfg(feature = "prehash")]
use crate::sha2::{Sha224, Sha256, Sha384, Sha512, Sha512_224, Sha512_256};

/// SHA3-224/256/384/512 on pqkit's own sponge: rate `200 - 2 d`, padding
/// `0x06`, the first `d` bytes squeezed (FIPS 202 §6.1).
#[cfg(feature = "prehash")]
type Sha3<const RATE: usize> = Sponge<RATE, 0x06>;

/// What can go wrong naming a hash or wrapping a digest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// No pre-hash function has this name.
    UnknownHash,
    /// A digest whose length is not the function's output length.
    InvalidLength,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Error::UnknownHash => "unknown pre-hash algorithm",
            Error::InvalidLength => "pre-hash digest of the wrong length",
        })
    }
}

impl core::error::Error for Error {}

/// A pre-hash function. All twelve that ACVP tests for HashML-DSA are
/// here; their OIDs (under 2.16.840.1.101.3.4.2) enter the domain
/// separator `M' = 1 || |ctx| || ctx || OID || PH(M)` of HashML-DSA and
/// HashFN-DSA.
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

    /// Parse a name, case-insensitively: the CLI names of [`name`](Self::name),
    /// the ACVP names (`SHA2-256`, `SHA2-512/224`, `SHAKE-128`, ...) and the
    /// short SHA-2 names (`sha256`, `sha512/256`, ...).
    pub fn from_name(name: &str) -> Result<Self, Error> {
        // `sha256` for `sha2-256`, ...: "sha" then the part after "sha2-".
        let short = |a: HashAlg| match (a.name().strip_prefix("sha2-"), name.split_at_checked(3)) {
            (Some(rest), Some((sha, tail))) => {
                sha.eq_ignore_ascii_case("sha") && tail.eq_ignore_ascii_case(rest)
            }
            _ => false,
        };
        HashAlg::ALL
            .into_iter()
            .find(|&a| a.name().eq_ignore_ascii_case(name) || short(a))
            .ok_or(Error::UnknownHash)
    }

    /// The last arc of the OID 2.16.840.1.101.3.4.2.x.
    pub const fn oid_arc(self) -> u8 {
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
            self.oid_arc(),
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

    /// `PH(msg)` (the `prehash` feature).
    #[cfg(feature = "prehash")]
    #[inline]
    pub fn digest(self, msg: &[u8]) -> PreHash {
        let mut h = PreHasher::new(self);
        h.update(msg);
        h.finalize()
    }
}

impl core::str::FromStr for HashAlg {
    type Err = Error;
    /// [`HashAlg::from_name`].
    fn from_str(s: &str) -> Result<Self, Error> {
        HashAlg::from_name(s)
    }
}

impl core::fmt::Display for HashAlg {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// A pre-hash digest `PH(M)` with its algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

impl AsRef<[u8]> for PreHash {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

/// An incremental pre-hash computation (the `prehash` feature). Its
/// methods are `#[inline]`: the twelve hash functions are compiled in the
/// crates that hash with them, not in every build of `pqkit-common`.
#[cfg(feature = "prehash")]
#[derive(Clone, Debug)]
pub struct PreHasher(Inner);

#[cfg(feature = "prehash")]
#[derive(Clone, Debug)]
enum Inner {
    Sha224(Sha224),
    Sha256(Sha256),
    Sha384(Sha384),
    Sha512(Sha512),
    Sha512_224(Sha512_224),
    Sha512_256(Sha512_256),
    Sha3_224(Sha3<144>),
    Sha3_256(Sha3<136>),
    Sha3_384(Sha3<104>),
    Sha3_512(Sha3<72>),
    Shake128(Shake128),
    Shake256(Shake256),
}

#[cfg(feature = "prehash")]
impl PreHasher {
    /// Start hashing with `alg`.
    #[inline]
    pub fn new(alg: HashAlg) -> Self {
        PreHasher(match alg {
            HashAlg::Sha2_224 => Inner::Sha224(Sha224::new()),
            HashAlg::Sha2_256 => Inner::Sha256(Sha256::new()),
            HashAlg::Sha2_384 => Inner::Sha384(Sha384::new()),
            HashAlg::Sha2_512 => Inner::Sha512(Sha512::new()),
            HashAlg::Sha2_512_224 => Inner::Sha512_224(Sha512_224::new()),
            HashAlg::Sha2_512_256 => Inner::Sha512_256(Sha512_256::new()),
            HashAlg::Sha3_224 => Inner::Sha3_224(Sha3::default()),
            HashAlg::Sha3_256 => Inner::Sha3_256(Sha3::default()),
            HashAlg::Sha3_384 => Inner::Sha3_384(Sha3::default()),
            HashAlg::Sha3_512 => Inner::Sha3_512(Sha3::default()),
            HashAlg::Shake128 => Inner::Shake128(Shake128::default()),
            HashAlg::Shake256 => Inner::Shake256(Shake256::default()),
        })
    }

    /// Absorb a message piece.
    #[inline]
    pub fn update(&mut self, data: &[u8]) {
        match &mut self.0 {
            Inner::Sha224(h) => h.update(data),
            Inner::Sha256(h) => h.update(data),
            Inner::Sha384(h) => h.update(data),
            Inner::Sha512(h) => h.update(data),
            Inner::Sha512_224(h) => h.update(data),
            Inner::Sha512_256(h) => h.update(data),
            Inner::Sha3_224(h) => h.update(data),
            Inner::Sha3_256(h) => h.update(data),
            Inner::Sha3_384(h) => h.update(data),
            Inner::Sha3_512(h) => h.update(data),
            Inner::Shake128(h) => h.update(data),
            Inner::Shake256(h) => h.update(data),
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
    #[inline]
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
            Inner::Sha3_224(h) => h.finalize_xof().read(&mut bytes[..28]),
            Inner::Sha3_256(h) => h.finalize_xof().read(&mut bytes[..32]),
            Inner::Sha3_384(h) => h.finalize_xof().read(&mut bytes[..48]),
            Inner::Sha3_512(h) => h.finalize_xof().read(&mut bytes[..64]),
            Inner::Shake128(h) => h.finalize_xof().read(&mut bytes[..32]),
            Inner::Shake256(h) => h.finalize_xof().read(&mut bytes[..64]),
        }
        PreHash { alg, bytes }
    }
}

/// A hasher that is one of the registry's functions: pqkit's own SHA-2
/// (`sha2` module) and SHAKE types, and with the `sha2`/`sha3` features
/// RustCrypto's. Each maps to its [`HashAlg`]; together with the RustCrypto
/// `Update` trait (pqkit's types have it with the `digest` feature) this is
/// what the `DigestSigner`/`DigestVerifier` impls of the pre-hash modes
/// accept (the `prehash` feature).
#[cfg(feature = "prehash")]
pub trait PreHashDigest: Default {
    /// The pre-hash this type computes.
    const ALG: HashAlg;
    /// Finish into a [`PreHash`].
    fn finish(self) -> PreHash;
}

/// `PreHashDigest` for fixed-output hashers: pqkit's own (their inherent
/// `finalize`) and, with the `sha2`/`sha3` features, RustCrypto's
/// (`Digest::finalize`, imported for them).
#[cfg(feature = "prehash")]
macro_rules! fixed_digest {
    ($($t:ty => $alg:ident),*) => {$(
        impl PreHashDigest for $t {
            const ALG: HashAlg = HashAlg::$alg;
            #[inline]
            fn finish(self) -> PreHash {
                let mut bytes = [0u8; 64];
                let d = <$t>::finalize(self);
                bytes[..d.len()].copy_from_slice(&d);
                PreHash { alg: HashAlg::$alg, bytes }
            }
        }
    )*};
}
#[cfg(feature = "prehash")]
fixed_digest!(
    Sha224 => Sha2_224, Sha256 => Sha2_256, Sha384 => Sha2_384,
    Sha512 => Sha2_512, Sha512_224 => Sha2_512_224, Sha512_256 => Sha2_512_256
);

// RustCrypto's digest types, for callers who hash with them (the `sha2`
// and `sha3` features; pqkit's own hashing needs neither crate).
#[cfg(any(feature = "sha2", feature = "sha3"))]
use digest::Digest as _;

#[cfg(feature = "sha2")]
fixed_digest!(
    ::sha2::Sha224 => Sha2_224, ::sha2::Sha256 => Sha2_256, ::sha2::Sha384 => Sha2_384,
    ::sha2::Sha512 => Sha2_512, ::sha2::Sha512_224 => Sha2_512_224,
    ::sha2::Sha512_256 => Sha2_512_256
);
#[cfg(feature = "sha3")]
fixed_digest!(
    ::sha3::Sha3_224 => Sha3_224, ::sha3::Sha3_256 => Sha3_256,
    ::sha3::Sha3_384 => Sha3_384, ::sha3::Sha3_512 => Sha3_512
);

#[cfg(feature = "prehash")]
impl PreHashDigest for Shake128 {
    const ALG: HashAlg = HashAlg::Shake128;
    #[inline]
    fn finish(self) -> PreHash {
        let mut bytes = [0u8; 64];
        self.finalize_xof().read(&mut bytes[..32]);
        PreHash {
            alg: HashAlg::Shake128,
            bytes,
        }
    }
}

#[cfg(feature = "prehash")]
impl PreHashDigest for Shake256 {
    const ALG: HashAlg = HashAlg::Shake256;
    #[inline]
    fn finish(self) -> PreHash {
        let mut bytes = [0u8; 64];
        self.finalize_xof().read(&mut bytes[..64]);
        PreHash {
            alg: HashAlg::Shake256,
            bytes,
        }
    }
}

#[cfg(all(test, feature = "prehash"))]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_aliases() {
        for a in HashAlg::ALL {
            assert_eq!(HashAlg::from_name(a.name()), Ok(a));
            assert_eq!(a.name().to_uppercase().parse(), Ok(a));
        }
        assert_eq!(HashAlg::from_name("sha256"), Ok(HashAlg::Sha2_256));
        assert_eq!(HashAlg::from_name("SHA512/224"), Ok(HashAlg::Sha2_512_224));
        for bad in [
            "",
            "sha",
            "md5",
            "sha3256",
            "sha2-",
            "shake-512",
            "sha2-256x",
        ] {
            assert_eq!(HashAlg::from_name(bad), Err(Error::UnknownHash), "{bad}");
        }
    }

    #[test]
    fn oids_and_lengths() {
        // 2.16.840.1.101.3.4.2.1 is SHA-256 (RFC 5754), .3 SHA-512, .8 SHA3-256,
        // .11 SHAKE128 (RFC 8702).
        assert_eq!(
            HashAlg::Sha2_256.oid_der(),
            [6, 9, 0x60, 0x86, 0x48, 1, 0x65, 3, 4, 2, 1]
        );
        assert_eq!(HashAlg::Sha2_512.oid_arc(), 3);
        assert_eq!(HashAlg::Sha3_256.oid_arc(), 8);
        assert_eq!(HashAlg::Shake128.oid_arc(), 11);
        let mut arcs: [u8; 12] = HashAlg::ALL.map(HashAlg::oid_arc);
        arcs.sort_unstable();
        assert_eq!(arcs, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
        for a in HashAlg::ALL {
            assert_eq!(a.digest(b"x").as_bytes().len(), a.digest_len());
        }
        // FIPS 180-4 example: SHA-256("abc").
        assert_eq!(
            HashAlg::Sha2_256.digest(b"abc").as_bytes()[..4],
            [0xba, 0x78, 0x16, 0xbf]
        );
        assert_eq!(
            PreHash::from_digest(HashAlg::Sha2_384, &[0; 47]),
            Err(Error::InvalidLength)
        );
    }

    /// The SHA-3 functions on pqkit's sponge equal RustCrypto `sha3`, for
    /// every length around the rates and in pieces.
    #[test]
    fn sha3_equals_rustcrypto() {
        use sha3::Digest as _;
        let data: [u8; 300] = core::array::from_fn(|i| (i * 7 + 3) as u8);
        for len in (0..300).filter(|l| l % 7 == 0 || (70..=146).contains(l)) {
            let m = &data[..len];
            let check = |alg: HashAlg, want: &[u8]| {
                assert_eq!(alg.digest(m).as_bytes(), want, "{alg} len {len}");
                let mut h = PreHasher::new(alg);
                let (a, b) = m.split_at(len / 3);
                h.update(a);
                h.update(b);
                assert_eq!(h.finalize().as_bytes(), want, "{alg} len {len} in pieces");
            };
            check(HashAlg::Sha3_224, &sha3::Sha3_224::digest(m));
            check(HashAlg::Sha3_256, &sha3::Sha3_256::digest(m));
            check(HashAlg::Sha3_384, &sha3::Sha3_384::digest(m));
            check(HashAlg::Sha3_512, &sha3::Sha3_512::digest(m));
        }
    }
}
