//! # pqkit-fn-dsa
//!
//! FN-DSA (Falcon) signatures for degrees 512 and 1024: verification,
//! signing and the encodings of the pre-standard design of the `fn-dsa`
//! 0.3 crate, plus the original round-3 Falcon hashing for compatibility.
//!
//! ## Warning: pre-standard
//!
//! **FIPS 206 (FN-DSA) is not published yet.** This crate implements the
//! pre-standard variant described by the `fn-dsa` 0.3.0 crate. The final
//! standard may change the key and signature encodings, the hashing of
//! messages (pre-hashing, domain separation) and the OIDs, so **keys and
//! signatures made with this version may not be valid under FIPS 206**. All
//! encodings and the hashing live in one module ([`encoding`]) so that the
//! standard can be adopted there. The PKCS#8/SPKI OIDs are provisional.
//!
//! ## Layout
//!
//! * [`fn_dsa_512`] and [`fn_dsa_1024`]: the key and signature types of the
//!   two standard degrees (`logn` 9 and 10), with fixed-size encodings
//!   (signing key / verifying key / signature: 1281 / 897 / 666 and
//!   2305 / 1793 / 1280 bytes).
//! * [`toy`]: the explicit opt-in API for the insecure toy degrees
//!   (`logn` 2..=8), for tests and research only. The standard types
//!   reject them.
//! * [`Message`]: what is signed: a raw message with a context of at most
//!   255 bytes, a pre-hashed message ([`PreHash`]: SHA-256/384/512,
//!   SHA3-256/384/512), or the original Falcon hashing.
//!
//! ## Example
//!
//! ```
//! use pqkit_fn_dsa::fn_dsa_512::{SigningKey, VerifyingKey};
//! # fn kat_key() -> Vec<u8> {
//! #   // A signing key from keygen or a file; here one from the KAT file
//! #   // shape is not available, so we skip when the test vectors are absent.
//! #   Vec::new()
//! # }
//! # let sk_bytes = kat_key();
//! # if sk_bytes.is_empty() { return; }
//! let sk = SigningKey::from_bytes(&sk_bytes).expect("valid key");
//! let vk: VerifyingKey = sk.verifying_key();
//! let vk = VerifyingKey::from_bytes(&vk.to_bytes()).expect("round trip");
//! # let _ = vk;
//! ```
//!
//! Verification is integer-only and never uses floating point.
#![no_std]
#![forbid(unsafe_code)]
// Index loops follow the specification's notation.
#![allow(clippy::needless_range_loop)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "alloc")]
#[allow(unused_extern_crates)]
extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

pub mod encoding;
mod error;
#[cfg(feature = "alloc")]
mod fft;
#[cfg(feature = "alloc")]
#[allow(clippy::approx_constant, clippy::unreadable_literal)]
mod fft_table;
#[cfg(feature = "alloc")]
mod fxp;
#[cfg(feature = "alloc")]
mod kgen;
mod ring;
#[cfg(feature = "alloc")]
mod sampler;
#[cfg(feature = "alloc")]
mod sign;
mod skey;
mod vrfy;
#[cfg(feature = "alloc")]
mod zint;

pub use encoding::{Message, PreHash, PreHashDigest, SigFormat};
pub use error::Error;

macro_rules! degree_module {
    ($name:ident, $logn:literal, $skl:literal, $vkl:literal, $sigl:literal, $title:literal) => {
        #[doc = concat!($title, ": keys and signatures of degree 2^", stringify!($logn), ".")]
        pub mod $name {
            use crate::encoding::{self, Message, SigFormat};
            use crate::{Error, skey::SkCore, vrfy::VkCore};

            /// log2 of the degree.
            pub const LOGN: u32 = $logn;
            /// Size of an encoded signing key.
            pub const SIGNING_KEY_SIZE: usize = $skl;
            /// Size of an encoded verifying key.
            pub const VERIFYING_KEY_SIZE: usize = $vkl;
            /// Size of a signature.
            pub const SIGNATURE_SIZE: usize = $sigl;

            const _: () = assert!(encoding::signing_key_size(LOGN) == SIGNING_KEY_SIZE);
            const _: () = assert!(encoding::verifying_key_size(LOGN) == VERIFYING_KEY_SIZE);
            const _: () = assert!(encoding::signature_size(LOGN) == SIGNATURE_SIZE);

            /// A decoded verifying key (`h` kept in NTT form, and its hash),
            /// reusable for many verifications.
            #[derive(Clone)]
            pub struct VerifyingKey(pub(crate) VkCore);

            impl core::fmt::Debug for VerifyingKey {
                fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    f.debug_struct("VerifyingKey")
                        .field("logn", &LOGN)
                        .finish_non_exhaustive()
                }
            }

            impl PartialEq for VerifyingKey {
                fn eq(&self, other: &Self) -> bool {
                    self.0.encoded() == other.0.encoded()
                }
            }
            impl Eq for VerifyingKey {}

            impl VerifyingKey {
                /// Decode (strictly) an encoded verifying key.
                pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
                    VkCore::decode(bytes, LOGN, LOGN).map(Self)
                }

                /// The encoded verifying key.
                pub fn to_bytes(&self) -> [u8; VERIFYING_KEY_SIZE] {
                    let mut out = [0u8; VERIFYING_KEY_SIZE];
                    out.copy_from_slice(self.0.encoded());
                    out
                }

                /// The encoded verifying key, borrowed.
                pub fn as_bytes(&self) -> &[u8] {
                    self.0.encoded()
                }

                /// Verify a signature on `msg` (raw, pre-hashed or original
                /// Falcon hashing) in the fixed-size FN-DSA layout.
                pub fn verify_message(
                    &self,
                    msg: &Message<'_>,
                    sig: &Signature,
                ) -> Result<(), Error> {
                    self.0.verify(&sig.0, SigFormat::Padded, msg)
                }

                /// Verify an encoded signature given as bytes, in the layout
                /// `format` (the variable-length round-3 layout is only
                /// meaningful with [`Message::OriginalFalcon`]).
                pub fn verify_bytes(
                    &self,
                    msg: &Message<'_>,
                    sig: &[u8],
                    format: SigFormat,
                ) -> Result<(), Error> {
                    self.0.verify(sig, format, msg)
                }

                /// Verify a raw message with a context (at most 255 bytes).
                pub fn verify_with_context(
                    &self,
                    ctx: &[u8],
                    msg: &[u8],
                    sig: &Signature,
                ) -> Result<(), Error> {
                    self.verify_message(&Message::Raw { ctx, msg }, sig)
                }

                /// Verify an original round-3 Falcon signature (detached:
                /// header `0x30 + logn`, nonce, compressed `s2`;
                /// variable-length or padded) over `SHAKE256(nonce || msg)`.
                pub fn verify_original_falcon(&self, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
                    self.0
                        .verify(sig, SigFormat::Round3, &Message::OriginalFalcon { msg })
                }

                /// Open a NIST round-3 `crypto_sign` output `sm` (2-byte
                /// big-endian body length, nonce, message, body with header
                /// `0x20 + logn`); returns the message if the signature is
                /// valid.
                pub fn open_round3_sm<'a>(&self, sm: &'a [u8]) -> Result<&'a [u8], Error> {
                    crate::vrfy::open_round3_sm(&self.0, sm)
                }
            }

            /// A signature in the fixed-size FN-DSA layout.
            #[derive(Clone, PartialEq, Eq)]
            pub struct Signature(pub(crate) [u8; SIGNATURE_SIZE]);

            impl core::fmt::Debug for Signature {
                fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    f.debug_tuple("Signature")
                        .field(&&self.0[..8])
                        .finish_non_exhaustive()
                }
            }

            impl Signature {
                /// Decode a signature (header, length and canonical encoding
                /// of `s2` are checked).
                pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
                    let mut s2 = [0i16; 1024];
                    encoding::decode_signature(bytes, LOGN, SigFormat::Padded, &mut s2)?;
                    let mut out = [0u8; SIGNATURE_SIZE];
                    out.copy_from_slice(bytes);
                    Ok(Self(out))
                }

                /// The encoded signature.
                pub fn to_bytes(&self) -> [u8; SIGNATURE_SIZE] {
                    self.0
                }

                /// The encoded signature, borrowed.
                pub fn as_bytes(&self) -> &[u8] {
                    &self.0
                }
            }

            impl AsRef<[u8]> for Signature {
                fn as_ref(&self) -> &[u8] {
                    &self.0
                }
            }

            impl TryFrom<&[u8]> for Signature {
                type Error = Error;
                fn try_from(bytes: &[u8]) -> Result<Self, Error> {
                    Self::from_bytes(bytes)
                }
            }

            impl From<Signature> for [u8; SIGNATURE_SIZE] {
                fn from(sig: Signature) -> Self {
                    sig.0
                }
            }

            /// A signing key: the secret polynomials, the verifying key
            /// and the expanded (FFT-domain) key with its ffLDL tree, so
            /// that repeated signatures skip the expansion. Wiped on drop.
            #[cfg(feature = "alloc")]
            #[derive(Clone)]
            pub struct SigningKey {
                pub(crate) core: SkCore,
                pub(crate) vk: VkCore,
                pub(crate) exp: crate::sign::Expanded,
            }

            #[cfg(feature = "alloc")]
            impl core::fmt::Debug for SigningKey {
                fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    f.debug_struct("SigningKey")
                        .field("logn", &LOGN)
                        .finish_non_exhaustive()
                }
            }

            #[cfg(feature = "alloc")]
            impl SigningKey {
                /// Decode (strictly) an encoded signing key; `G` and the
                /// verifying key are recomputed and checked, and the key
                /// is expanded for signing.
                pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
                    let (core, vk) = SkCore::decode(bytes, LOGN, LOGN)?;
                    let exp = crate::sign::Expanded::new(&core);
                    Ok(Self { core, vk, exp })
                }

                /// Generate a key pair: 32 bytes from `rng` seed a SHAKE256
                /// stream that drives the whole generation (the same RNG
                /// stream gives the same key as fn-dsa 0.3's
                /// `KeyPairGeneratorStandard`).
                pub fn generate<R: rand_core::TryCryptoRng + ?Sized>(
                    rng: &mut R,
                ) -> Result<Self, Error> {
                    let core = crate::kgen::keygen(LOGN, rng)?;
                    Self::from_core(core)
                }

                /// Deterministic key generation from a 32-byte seed (the
                /// first 32 bytes [`SigningKey::generate`] draws).
                pub fn from_seed(seed: &[u8; 32]) -> Result<Self, Error> {
                    let core = crate::kgen::keygen_from_seed(LOGN, seed)?;
                    Self::from_core(core)
                }

                fn from_core(mut core: SkCore) -> Result<Self, Error> {
                    let vk = core.complete()?;
                    let exp = crate::sign::Expanded::new(&core);
                    Ok(Self { core, vk, exp })
                }

                /// Sign `msg` (raw with context, pre-hashed, or original
                /// Falcon hashing) with randomness from `rng`. FN-DSA
                /// signing is always randomized (40-byte nonce and sampler
                /// seed).
                pub fn sign_message_with_rng<R: rand_core::TryCryptoRng + ?Sized>(
                    &self,
                    rng: &mut R,
                    msg: &Message<'_>,
                ) -> Result<Signature, Error> {
                    let mut out = [0u8; SIGNATURE_SIZE];
                    self.exp.sign(rng, &self.vk.hpk, msg, &mut out)?;
                    Ok(Signature(out))
                }

                /// Sign a raw message with a context (at most 255 bytes).
                pub fn sign_with_context<R: rand_core::TryCryptoRng + ?Sized>(
                    &self,
                    rng: &mut R,
                    ctx: &[u8],
                    msg: &[u8],
                ) -> Result<Signature, Error> {
                    self.sign_message_with_rng(rng, &Message::Raw { ctx, msg })
                }

                /// The encoded signing key (secret: wipe it after use).
                pub fn to_bytes(&self) -> zeroize::Zeroizing<[u8; SIGNING_KEY_SIZE]> {
                    let mut out = zeroize::Zeroizing::new([0u8; SIGNING_KEY_SIZE]);
                    self.core.encode(&mut out[..]);
                    out
                }

                /// The verifying key of this signing key.
                pub fn verifying_key(&self) -> VerifyingKey {
                    VerifyingKey(self.vk.clone())
                }
            }
        }
    };
}

degree_module!(fn_dsa_512, 9, 1281, 897, 666, "FN-DSA-512 (Falcon-512)");
degree_module!(
    fn_dsa_1024,
    10,
    2305,
    1793,
    1280,
    "FN-DSA-1024 (Falcon-1024)"
);

pub mod toy {
    //! Toy degrees `logn` 2..=8 (n = 4..256): **insecure**, for tests and
    //! research only. This module is the only entry point accepting them.
}
