//! The traditional halves of the composites, each a zero-sized type over
//! the crate that implements it: its key and signature encodings as the
//! draft's §5 fixes them, verification, and for the signable ones key
//! generation, private-key encodings and signing.
//!
//! * Ed25519 (RFC 8032, pqkit-ed25519): 32-byte public key, 32-byte
//!   private key (the RFC 8032 seed), 64-byte signature.
//! * ECDSA (RustCrypto `p256`, `p384`, `p521`, `bp256`, `bp384`): the
//!   uncompressed SEC 1 point (`04 || x || y`); the private key is the
//!   RFC 5915 `ECPrivateKey` with the curve's OID as `parameters` and no
//!   `publicKey`; the signature is the DER `Ecdsa-Sig-Value` over `M'`
//!   with the curve's hash (SHA-256, SHA-384 or SHA-512).
//! * RSA (RustCrypto `rsa`), verification only: the PKCS#1 `RSAPublicKey`
//!   DER with a modulus of exactly the combination's size; RSASSA-PSS
//!   (MGF1 with the same hash, salt as long as the hash) or PKCS#1 v1.5.
//! * Ed448 (RustCrypto `ed448-goldilocks`), verification only: 57-byte
//!   public key, 114-byte signature, pure Ed448 with the empty context.

use alloc::vec::Vec;
use core::fmt::Debug;

use rand_core::TryCryptoRng;
use zeroize::ZeroizeOnDrop;

use super::Error;

mod sealed {
    pub trait Sealed {}
}

/// The traditional half of a composite: its public key, signature and
/// verification. Implemented by [`Ed25519`], the `Ecdsa*` types, the
/// `Rsa*` types and [`Ed448`]; sealed.
pub trait Traditional:
    sealed::Sealed + Copy + Clone + Default + Debug + Eq + Send + Sync + 'static
{
    /// A decoded public key.
    type PublicKey: Clone + Send + Sync;
    /// The algorithm, e.g. `"ECDSA P-256 with SHA-256"`.
    const NAME: &'static str;
    /// Shortest encoded signature.
    const MIN_SIGNATURE_LEN: usize;
    /// Longest encoded signature.
    const MAX_SIGNATURE_LEN: usize;

    /// Decode a public key in the draft's encoding. Only the canonical
    /// encoding is accepted: [`encode_public_key`](Self::encode_public_key)
    /// gives the same bytes back.
    fn decode_public_key(bytes: &[u8]) -> Result<Self::PublicKey, Error>;

    /// Append the encoded public key to `out`.
    fn encode_public_key(pk: &Self::PublicKey, out: &mut Vec<u8>);

    /// Check the form of an encoded signature (length, DER), without the
    /// key.
    fn check_signature(sig: &[u8]) -> Result<(), Error>;

    /// Verify `sig` over `msg` (the composite's `M'`).
    fn verify(pk: &Self::PublicKey, msg: &[u8], sig: &[u8]) -> Result<(), Error>;
}

/// A [`Traditional`] half that pqkit also signs with: [`Ed25519`] and the
/// `Ecdsa*` types. Sealed.
pub trait TraditionalSigner: Traditional {
    /// A private key (wiped on drop).
    type SecretKey: Clone + ZeroizeOnDrop + Send + Sync;
    /// Length of the encoded private key.
    const SECRET_KEY_LEN: usize;

    /// Decode a private key in the draft's encoding (exactly
    /// [`SECRET_KEY_LEN`](Self::SECRET_KEY_LEN) bytes, canonical).
    fn decode_secret_key(bytes: &[u8]) -> Result<Self::SecretKey, Error>;

    /// Write the encoded private key to `out`
    /// ([`SECRET_KEY_LEN`](Self::SECRET_KEY_LEN) bytes).
    fn encode_secret_key(sk: &Self::SecretKey, out: &mut [u8]);

    /// The public key of `sk`.
    fn public_key(sk: &Self::SecretKey) -> Self::PublicKey;

    /// A fresh private key.
    fn try_generate<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self::SecretKey, R::Error>;

    /// The deterministic signature of `msg` (Ed25519; ECDSA with RFC 6979
    /// nonces).
    fn sign(sk: &Self::SecretKey, msg: &[u8]) -> Result<Vec<u8>, Error>;

    /// A signature of `msg` with randomness from `rng` (ECDSA: RFC 6979
    /// with added entropy; Ed25519 is deterministic and ignores `rng`).
    fn sign_randomized<R: TryCryptoRng + ?Sized>(
        sk: &Self::SecretKey,
        msg: &[u8],
        rng: &mut R,
    ) -> Result<Vec<u8>, Error>;
}

// ---------------------------------------------------------------------------
// Ed25519

/// Ed25519 (RFC 8032, pure, no context), on pqkit-ed25519. Verification
/// follows pqkit-ed25519's `verify_bytes` (ed25519-dalek's `verify`
/// rules); public keys must be canonical encodings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Ed25519;

impl sealed::Sealed for Ed25519 {}

impl Traditional for Ed25519 {
    type PublicKey = pqkit_ed25519::VerifyingKey;
    const NAME: &'static str = "Ed25519";
    const MIN_SIGNATURE_LEN: usize = 64;
    const MAX_SIGNATURE_LEN: usize = 64;

    fn decode_public_key(bytes: &[u8]) -> Result<Self::PublicKey, Error> {
        let bytes: &[u8; 32] = bytes.try_into().map_err(|_| Error::InvalidLength)?;
        // RFC 8032's decoding accepts `y >= p` and a sign bit on `x = 0`;
        // only the canonical encoding is a composite key here.
        if !pqkit_common::curve25519::EdwardsPoint::is_canonical_encoding(bytes) {
            return Err(Error::InvalidPublicKey);
        }
        pqkit_ed25519::VerifyingKey::from_bytes(bytes).map_err(|_| Error::InvalidPublicKey)
    }

    fn encode_public_key(pk: &Self::PublicKey, out: &mut Vec<u8>) {
        out.extend_from_slice(pk.as_bytes());
    }

    fn check_signature(sig: &[u8]) -> Result<(), Error> {
        if sig.len() == 64 {
            Ok(())
        } else {
            Err(Error::InvalidLength)
        }
    }

    fn verify(pk: &Self::PublicKey, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
        let sig = pqkit_ed25519::Signature::from_slice(sig).map_err(|_| Error::InvalidLength)?;
        pk.verify_bytes(msg, &sig)
            .map_err(|_| Error::InvalidSignature)
    }
}

impl TraditionalSigner for Ed25519 {
    type SecretKey = pqkit_ed25519::SigningKey;
    const SECRET_KEY_LEN: usize = 32;

    fn decode_secret_key(bytes: &[u8]) -> Result<Self::SecretKey, Error> {
        if bytes.len() != Self::SECRET_KEY_LEN {
            return Err(Error::InvalidLength);
        }
        pqkit_ed25519::SigningKey::from_slice(bytes).map_err(|_| Error::InvalidPrivateKey)
    }

    fn encode_secret_key(sk: &Self::SecretKey, out: &mut [u8]) {
        out.copy_from_slice(sk.as_bytes());
    }

    fn public_key(sk: &Self::SecretKey) -> Self::PublicKey {
        sk.verifying_key()
    }

    fn try_generate<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self::SecretKey, R::Error> {
        <pqkit_ed25519::SigningKey as crypto_common::Generate>::try_generate_from_rng(rng)
    }

    fn sign(sk: &Self::SecretKey, msg: &[u8]) -> Result<Vec<u8>, Error> {
        use signature::Signer;
        let sig: pqkit_ed25519::Signature = sk.try_sign(msg).map_err(|_| Error::SigningFailed)?;
        Ok(sig.to_bytes().to_vec())
    }

    fn sign_randomized<R: TryCryptoRng + ?Sized>(
        sk: &Self::SecretKey,
        msg: &[u8],
        _rng: &mut R,
    ) -> Result<Vec<u8>, Error> {
        Self::sign(sk, msg)
    }
}

// ---------------------------------------------------------------------------
// ECDSA

/// Append the RFC 5915 `ECPrivateKey` the draft fixes: `SEQUENCE { 1,
/// OCTET STRING d, [0] OID }` (no `publicKey`). Every length is below 128,
/// so the encoding is `prefix || d || suffix` with fixed parts.
fn ec_private_key_prefix(field_len: usize, oid: &[u8]) -> [u8; 7] {
    let inner = 3 + 2 + field_len + 4 + oid.len();
    [0x30, inner as u8, 0x02, 0x01, 0x01, 0x04, field_len as u8]
}

/// The `[0] { OID }` suffix of [`ec_private_key_prefix`]'s encoding.
fn ec_private_key_suffix(oid: &[u8], out: &mut [u8]) {
    out[0] = 0xa0;
    out[1] = (oid.len() + 2) as u8;
    out[2] = 0x06;
    out[3] = oid.len() as u8;
    out[4..].copy_from_slice(oid);
}

macro_rules! ecdsa_component {
    ($(#[$m:meta])* $name:ident, curve = $curve:ty, label = $label:literal,
     field = $field:literal, oid = [$($oid:literal),+ $(,)?] $(,)?) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl sealed::Sealed for $name {}

        impl $name {
            /// The curve's OID (contents octets), the `parameters` of the
            /// private key.
            const CURVE_OID: &'static [u8] = &[$($oid),+];
        }

        impl Traditional for $name {
            type PublicKey = ecdsa::VerifyingKey<$curve>;
            const NAME: &'static str = $label;
            // SEQUENCE { INTEGER r, INTEGER s }: from 1-byte integers up to
            // full-width ones with a sign byte and a long-form length.
            const MIN_SIGNATURE_LEN: usize = 8;
            const MAX_SIGNATURE_LEN: usize = 2 * $field + 9;

            fn decode_public_key(bytes: &[u8]) -> Result<Self::PublicKey, Error> {
                // Uncompressed only: 04 || x || y.
                if bytes.len() != 1 + 2 * $field {
                    return Err(Error::InvalidLength);
                }
                if bytes[0] != 0x04 {
                    return Err(Error::InvalidPublicKey);
                }
                ecdsa::VerifyingKey::<$curve>::from_sec1_bytes(bytes)
                    .map_err(|_| Error::InvalidPublicKey)
            }

            fn encode_public_key(pk: &Self::PublicKey, out: &mut Vec<u8>) {
                out.extend_from_slice(pk.to_sec1_point(false).as_bytes());
            }

            fn check_signature(sig: &[u8]) -> Result<(), Error> {
                ecdsa::der::Signature::<$curve>::from_bytes(sig)
                    .map(|_| ())
                    .map_err(|_| Error::MalformedSignature)
            }

            fn verify(pk: &Self::PublicKey, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
                use signature::Verifier;
                let sig = ecdsa::der::Signature::<$curve>::from_bytes(sig)
                    .map_err(|_| Error::MalformedSignature)?;
                pk.verify(msg, &sig).map_err(|_| Error::InvalidSignature)
            }
        }

        impl TraditionalSigner for $name {
            type SecretKey = ecdsa::SigningKey<$curve>;
            const SECRET_KEY_LEN: usize = 7 + $field + 4 + [$($oid),+].len();

            fn decode_secret_key(bytes: &[u8]) -> Result<Self::SecretKey, Error> {
                if bytes.len() != Self::SECRET_KEY_LEN {
                    return Err(Error::InvalidLength);
                }
                // The framing is public structure; only `d` is secret.
                let (head, rest) = bytes.split_at(7);
                let (d, tail) = rest.split_at($field);
                let mut suffix = [0u8; 4 + [$($oid),+].len()];
                ec_private_key_suffix(Self::CURVE_OID, &mut suffix);
                if head != ec_private_key_prefix($field, Self::CURVE_OID) || tail != suffix {
                    return Err(Error::InvalidPrivateKey);
                }
                // Rejects 0 and values >= n.
                ecdsa::SigningKey::<$curve>::from_slice(d).map_err(|_| Error::InvalidPrivateKey)
            }

            fn encode_secret_key(sk: &Self::SecretKey, out: &mut [u8]) {
                let (head, rest) = out.split_at_mut(7);
                let (d, tail) = rest.split_at_mut($field);
                head.copy_from_slice(&ec_private_key_prefix($field, Self::CURVE_OID));
                let mut bytes = sk.to_bytes();
                d.copy_from_slice(&bytes);
                zeroize::Zeroize::zeroize(&mut bytes[..]);
                ec_private_key_suffix(Self::CURVE_OID, tail);
            }

            fn public_key(sk: &Self::SecretKey) -> Self::PublicKey {
                *sk.verifying_key()
            }

            fn try_generate<R: TryCryptoRng + ?Sized>(
                rng: &mut R,
            ) -> Result<Self::SecretKey, R::Error> {
                <ecdsa::SigningKey<$curve> as crypto_common::Generate>::try_generate_from_rng(rng)
            }

            fn sign(sk: &Self::SecretKey, msg: &[u8]) -> Result<Vec<u8>, Error> {
                use signature::Signer;
                let sig: ecdsa::der::Signature<$curve> =
                    sk.try_sign(msg).map_err(|_| Error::SigningFailed)?;
                Ok(sig.as_bytes().to_vec())
            }

            fn sign_randomized<R: TryCryptoRng + ?Sized>(
                sk: &Self::SecretKey,
                msg: &[u8],
                rng: &mut R,
            ) -> Result<Vec<u8>, Error> {
                use signature::RandomizedSigner;
                let sig: ecdsa::der::Signature<$curve> =
                    sk.try_sign_with_rng(rng, msg).map_err(|_| Error::SigningFailed)?;
                Ok(sig.as_bytes().to_vec())
            }
        }
    };
}

ecdsa_component!(
    /// ECDSA on P-256 (secp256r1) with SHA-256 (`ecdsa-with-SHA256`),
    /// RustCrypto `p256`.
    EcdsaP256, curve = p256::NistP256, label = "ECDSA P-256 with SHA-256", field = 32,
    oid = [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07],
);
ecdsa_component!(
    /// ECDSA on P-384 (secp384r1) with SHA-384 (`ecdsa-with-SHA384`),
    /// RustCrypto `p384`.
    EcdsaP384, curve = p384::NistP384, label = "ECDSA P-384 with SHA-384", field = 48,
    oid = [0x2b, 0x81, 0x04, 0x00, 0x22],
);
ecdsa_component!(
    /// ECDSA on P-521 (secp521r1) with SHA-512 (`ecdsa-with-SHA512`),
    /// RustCrypto `p521`.
    EcdsaP521, curve = p521::NistP521, label = "ECDSA P-521 with SHA-512", field = 66,
    oid = [0x2b, 0x81, 0x04, 0x00, 0x23],
);
ecdsa_component!(
    /// ECDSA on brainpoolP256r1 (RFC 5639) with SHA-256
    /// (`ecdsa-with-SHA256`), RustCrypto `bp256`.
    EcdsaBrainpoolP256r1, curve = bp256::BrainpoolP256r1,
    label = "ECDSA brainpoolP256r1 with SHA-256", field = 32,
    oid = [0x2b, 0x24, 0x03, 0x03, 0x02, 0x08, 0x01, 0x01, 0x07],
);
ecdsa_component!(
    /// ECDSA on brainpoolP384r1 (RFC 5639) with SHA-384
    /// (`ecdsa-with-SHA384`), RustCrypto `bp384`.
    EcdsaBrainpoolP384r1, curve = bp384::BrainpoolP384r1,
    label = "ECDSA brainpoolP384r1 with SHA-384", field = 48,
    oid = [0x2b, 0x24, 0x03, 0x03, 0x02, 0x08, 0x01, 0x01, 0x0b],
);

// ---------------------------------------------------------------------------
// RSA (verification only)

/// The RSA padding of a combination.
#[derive(Clone, Copy)]
enum RsaPadding {
    /// RSASSA-PSS, MGF1 with the message hash, salt as long as the hash.
    Pss,
    /// RSASSA-PKCS1-v1_5.
    Pkcs1v15,
}

/// The message hash of an RSA combination.
#[derive(Clone, Copy)]
enum RsaHash {
    Sha256,
    Sha384,
}

/// Decode a PKCS#1 `RSAPublicKey` whose modulus has exactly `bits` bits
/// (canonical DER only).
fn rsa_decode_public_key(bytes: &[u8], bits: u32) -> Result<rsa::PublicKey, Error> {
    use rsa::pkcs1::{DecodeRsaPublicKey, EncodeRsaPublicKey};
    use rsa::traits::PublicKeyParts;
    let pk = rsa::PublicKey::from_pkcs1_der(bytes).map_err(|_| Error::InvalidPublicKey)?;
    if pk.n().bit_width() != bits {
        return Err(Error::InvalidPublicKey);
    }
    // der decodes DER strictly; check that nothing else slipped through.
    let again = pk.to_pkcs1_der().map_err(|_| Error::InvalidPublicKey)?;
    if again.as_bytes() != bytes {
        return Err(Error::InvalidPublicKey);
    }
    Ok(pk)
}

fn rsa_encode_public_key(pk: &rsa::PublicKey, out: &mut Vec<u8>) {
    use rsa::pkcs1::EncodeRsaPublicKey;
    // A key that decoded re-encodes (checked on decode), so this cannot
    // fail for a key this module holds.
    if let Ok(der) = pk.to_pkcs1_der() {
        out.extend_from_slice(der.as_bytes());
    }
}

fn rsa_verify(
    pk: &rsa::PublicKey,
    padding: RsaPadding,
    hash: RsaHash,
    msg: &[u8],
    sig: &[u8],
) -> Result<(), Error> {
    use rsa::sha2::{Digest, Sha256, Sha384};
    use rsa::traits::PublicKeyParts;
    if sig.len() != pk.size() {
        return Err(Error::InvalidLength);
    }
    let r = match (padding, hash) {
        (RsaPadding::Pss, RsaHash::Sha256) => {
            pk.verify(rsa::pss::Pss::<Sha256>::new(), &Sha256::digest(msg), sig)
        }
        (RsaPadding::Pss, RsaHash::Sha384) => {
            pk.verify(rsa::pss::Pss::<Sha384>::new(), &Sha384::digest(msg), sig)
        }
        (RsaPadding::Pkcs1v15, RsaHash::Sha256) => pk.verify(
            rsa::Pkcs1v15Sign::new::<Sha256>(),
            &Sha256::digest(msg),
            sig,
        ),
        (RsaPadding::Pkcs1v15, RsaHash::Sha384) => pk.verify(
            rsa::Pkcs1v15Sign::new::<Sha384>(),
            &Sha384::digest(msg),
            sig,
        ),
    };
    r.map_err(|_| Error::InvalidSignature)
}

macro_rules! rsa_component {
    ($(#[$m:meta])* $name:ident, bits = $bits:literal, padding = $pad:ident, hash = $hash:ident,
     label = $label:literal $(,)?) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl sealed::Sealed for $name {}

        impl Traditional for $name {
            type PublicKey = rsa::PublicKey;
            const NAME: &'static str = $label;
            const MIN_SIGNATURE_LEN: usize = $bits / 8;
            const MAX_SIGNATURE_LEN: usize = $bits / 8;

            fn decode_public_key(bytes: &[u8]) -> Result<Self::PublicKey, Error> {
                rsa_decode_public_key(bytes, $bits)
            }

            fn encode_public_key(pk: &Self::PublicKey, out: &mut Vec<u8>) {
                rsa_encode_public_key(pk, out)
            }

            fn check_signature(sig: &[u8]) -> Result<(), Error> {
                if sig.len() == $bits / 8 {
                    Ok(())
                } else {
                    Err(Error::InvalidLength)
                }
            }

            fn verify(pk: &Self::PublicKey, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
                rsa_verify(pk, RsaPadding::$pad, RsaHash::$hash, msg, sig)
            }
        }
    };
}

rsa_component!(
    /// RSASSA-PSS with a 2048-bit modulus, SHA-256, MGF1-SHA-256 and a
    /// 32-byte salt (verification only).
    Rsa2048Pss, bits = 2048, padding = Pss, hash = Sha256, label = "RSA-2048 PSS with SHA-256",
);
rsa_component!(
    /// RSASSA-PKCS1-v1_5 with a 2048-bit modulus and SHA-256
    /// (`sha256WithRSAEncryption`; verification only).
    Rsa2048Pkcs15, bits = 2048, padding = Pkcs1v15, hash = Sha256,
    label = "RSA-2048 PKCS#1 v1.5 with SHA-256",
);
rsa_component!(
    /// RSASSA-PSS with a 3072-bit modulus, SHA-256, MGF1-SHA-256 and a
    /// 32-byte salt (verification only).
    Rsa3072Pss, bits = 3072, padding = Pss, hash = Sha256, label = "RSA-3072 PSS with SHA-256",
);
rsa_component!(
    /// RSASSA-PKCS1-v1_5 with a 3072-bit modulus and SHA-256
    /// (`sha256WithRSAEncryption`; verification only).
    Rsa3072Pkcs15, bits = 3072, padding = Pkcs1v15, hash = Sha256,
    label = "RSA-3072 PKCS#1 v1.5 with SHA-256",
);
rsa_component!(
    /// RSASSA-PSS with a 4096-bit modulus, SHA-384, MGF1-SHA-384 and a
    /// 48-byte salt (verification only).
    Rsa4096Pss, bits = 4096, padding = Pss, hash = Sha384, label = "RSA-4096 PSS with SHA-384",
);
rsa_component!(
    /// RSASSA-PKCS1-v1_5 with a 4096-bit modulus and SHA-384
    /// (`sha384WithRSAEncryption`; verification only).
    Rsa4096Pkcs15, bits = 4096, padding = Pkcs1v15, hash = Sha384,
    label = "RSA-4096 PKCS#1 v1.5 with SHA-384",
);

// ---------------------------------------------------------------------------
// Ed448 (verification only)

/// Ed448 (RFC 8032, pure, empty context), RustCrypto `ed448-goldilocks`
/// (verification only).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Ed448;

impl sealed::Sealed for Ed448 {}

impl Traditional for Ed448 {
    type PublicKey = ed448_goldilocks::VerifyingKey;
    const NAME: &'static str = "Ed448";
    const MIN_SIGNATURE_LEN: usize = 114;
    const MAX_SIGNATURE_LEN: usize = 114;

    fn decode_public_key(bytes: &[u8]) -> Result<Self::PublicKey, Error> {
        let bytes: &[u8; 57] = bytes.try_into().map_err(|_| Error::InvalidLength)?;
        let pk = ed448_goldilocks::VerifyingKey::from_bytes(bytes)
            .map_err(|_| Error::InvalidPublicKey)?;
        // The key keeps the bytes it was given; a non-canonical encoding of
        // the point is refused.
        if pk.to_edwards().to_affine().compress().as_bytes() != bytes {
            return Err(Error::InvalidPublicKey);
        }
        Ok(pk)
    }

    fn encode_public_key(pk: &Self::PublicKey, out: &mut Vec<u8>) {
        out.extend_from_slice(pk.as_bytes());
    }

    fn check_signature(sig: &[u8]) -> Result<(), Error> {
        if sig.len() == 114 {
            Ok(())
        } else {
            Err(Error::InvalidLength)
        }
    }

    fn verify(pk: &Self::PublicKey, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
        let sig = ed448_goldilocks::Signature::from_slice(sig).map_err(|_| Error::InvalidLength)?;
        pk.verify_raw(&sig, msg)
            .map_err(|_| Error::InvalidSignature)
    }
}
