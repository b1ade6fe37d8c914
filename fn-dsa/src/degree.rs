// The per-degree public types, generated once for FN-DSA-512 and once for
// FN-DSA-1024 (included from lib.rs).

macro_rules! degree_module {
    ($name:ident, $logn:literal, $skl:literal, $vkl:literal, $sigl:literal, $oid:literal, $title:literal) => {
        #[doc = concat!($title, ": keys and signatures of degree 2^", stringify!($logn), ".")]
        pub mod $name {
            use crate::encoding::{self, Message, SigFormat};
            use pqkit_common::prehash::PreHashDigest;
            use crate::{Error, vrfy::VkCore};

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
                    f.debug_struct("VerifyingKey").field("logn", &LOGN).finish_non_exhaustive()
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
                pub fn verify_message(&self, msg: &Message<'_>, sig: &Signature) -> Result<(), Error> {
                    self.0.verify(&sig.0, SigFormat::Padded, msg, &[])
                }

                /// Verify an encoded signature given as bytes, in the layout
                /// `format` (the variable-length round-3 layout is only
                /// meaningful with [`Message::OriginalFalcon`]).
                pub fn verify_bytes(&self, msg: &Message<'_>, sig: &[u8], format: SigFormat) -> Result<(), Error> {
                    self.0.verify(sig, format, msg, &[])
                }

                /// Verify a raw message with a context (at most 255 bytes).
                pub fn verify_with_context(&self, ctx: &[u8], msg: &[u8], sig: &Signature) -> Result<(), Error> {
                    self.verify_message(&Message::Raw { ctx, msg }, sig)
                }

                /// Verify an original round-3 Falcon signature (detached:
                /// header `0x30 + logn`, nonce, compressed `s2`;
                /// variable-length or padded) over `SHAKE256(nonce || msg)`.
                pub fn verify_original_falcon(&self, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
                    self.0.verify(sig, SigFormat::Round3, &Message::OriginalFalcon { msg }, &[])
                }

                /// Open a NIST round-3 `crypto_sign` output `sm` (2-byte
                /// big-endian body length, nonce, message, body with header
                /// `0x20 + logn`); returns the message if the signature is
                /// valid.
                pub fn open_round3_sm<'a>(&self, sm: &'a [u8]) -> Result<&'a [u8], Error> {
                    crate::vrfy::open_round3_sm(&self.0, sm)
                }
            }

            impl signature::Verifier<Signature> for VerifyingKey {
                /// Raw message, empty context.
                fn verify(&self, msg: &[u8], sig: &Signature) -> Result<(), signature::Error> {
                    Ok(self.verify_message(&Message::raw(msg), sig)?)
                }
            }

            impl signature::MultipartVerifier<Signature> for VerifyingKey {
                /// Raw message given in parts, empty context.
                fn multipart_verify(&self, msg: &[&[u8]], sig: &Signature) -> Result<(), signature::Error> {
                    Ok(self.0.verify(&sig.0, SigFormat::Padded, &Message::raw(&[]), msg)?)
                }
            }

            impl TryFrom<&[u8]> for VerifyingKey {
                type Error = Error;
                fn try_from(bytes: &[u8]) -> Result<Self, Error> {
                    Self::from_bytes(bytes)
                }
            }

            /// A signature in the fixed-size FN-DSA layout.
            #[derive(Clone, PartialEq, Eq)]
            pub struct Signature(pub(crate) [u8; SIGNATURE_SIZE]);

            impl core::fmt::Debug for Signature {
                fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    f.debug_tuple("Signature").field(&&self.0[..8]).finish_non_exhaustive()
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

            impl signature::SignatureEncoding for Signature {
                type Repr = [u8; SIGNATURE_SIZE];
            }

            /// A signing key: the secret polynomials, the verifying key
            /// and (by default) the expanded FFT-domain key with its ffLDL
            /// tree, so that repeated signatures skip the expansion. A
            /// compact key ([`SigningKey::into_compact`]) drops the expanded
            /// form and rebuilds it (on the heap, wiped afterwards) for each
            /// signature: smaller at rest, slower to sign. Wiped on drop.
            ///
            /// Signing takes `&self` and keeps its work area (`4n` floats:
            /// 16 KiB for FN-DSA-512, 32 KiB for FN-DSA-1024) on the stack
            /// of each call, wiped before it returns: no allocation per
            /// signature, and one key may sign from several threads at once.
            #[cfg(feature = "alloc")]
            #[derive(Clone)]
            pub struct SigningKey {
                core: crate::skey::SkCore,
                vk: VerifyingKey,
                exp: Option<crate::sign::Expanded>,
            }

            #[cfg(feature = "alloc")]
            impl zeroize::ZeroizeOnDrop for SigningKey {}

            #[cfg(feature = "alloc")]
            impl core::fmt::Debug for SigningKey {
                fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    f.debug_struct("SigningKey").field("logn", &LOGN).finish_non_exhaustive()
                }
            }

            #[cfg(feature = "alloc")]
            impl SigningKey {
                /// Decode (strictly) an encoded signing key; `G` and the
                /// verifying key are recomputed and checked, and the key
                /// is expanded for signing.
                pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
                    let (core, vk) = crate::skey::SkCore::decode(bytes, LOGN, LOGN)?;
                    let exp = Some(crate::sign::Expanded::new(&core));
                    Ok(Self { core, vk: VerifyingKey(vk), exp })
                }

                /// Drop the expanded key: the key object becomes small
                /// (the secret polynomials and the verifying key) and each
                /// signature rebuilds the expansion.
                pub fn into_compact(mut self) -> Self {
                    self.exp = None;
                    self
                }

                /// Whether this key keeps its expanded form.
                pub fn is_expanded(&self) -> bool {
                    self.exp.is_some()
                }

                /// Generate a key pair: 32 bytes from `rng` seed a SHAKE256
                /// stream that drives the whole generation (as fn-dsa 0.3's
                /// `KeyPairGeneratorStandard` does).
                pub fn generate<R: rand_core::TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self, Error> {
                    let core = crate::kgen::keygen(LOGN, rng)?;
                    Self::from_core(core)
                }

                /// Deterministic key generation from a 32-byte seed (the
                /// first 32 bytes [`SigningKey::generate`] draws).
                pub fn from_seed(seed: &[u8; 32]) -> Result<Self, Error> {
                    let core = crate::kgen::keygen_from_seed(LOGN, seed)?;
                    Self::from_core(core)
                }

                fn from_core(mut core: crate::skey::SkCore) -> Result<Self, Error> {
                    let vk = core.complete()?;
                    let exp = Some(crate::sign::Expanded::new(&core));
                    Ok(Self { core, vk: VerifyingKey(vk), exp })
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
                    self.sign_parts(rng, msg, &[])
                }

                fn sign_parts<R: rand_core::TryCryptoRng + ?Sized>(
                    &self,
                    rng: &mut R,
                    msg: &Message<'_>,
                    parts: &[&[u8]],
                ) -> Result<Signature, Error> {
                    let mut out = [0u8; SIGNATURE_SIZE];
                    match &self.exp {
                        Some(exp) => exp.sign(rng, &self.vk.0.hpk, msg, parts, &mut out)?,
                        None => crate::sign::Expanded::<crate::sign::Fp>::new(&self.core).sign(rng, &self.vk.0.hpk, msg, parts, &mut out)?,
                    }
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

                /// The encoded signing key (secret: wiped when dropped).
                pub fn to_bytes(&self) -> zeroize::Zeroizing<[u8; SIGNING_KEY_SIZE]> {
                    let mut out = zeroize::Zeroizing::new([0u8; SIGNING_KEY_SIZE]);
                    self.core.encode(&mut out[..]);
                    out
                }

                /// The verifying key of this signing key.
                pub fn verifying_key(&self) -> VerifyingKey {
                    self.vk.clone()
                }
            }

            #[cfg(feature = "alloc")]
            impl AsRef<VerifyingKey> for SigningKey {
                fn as_ref(&self) -> &VerifyingKey {
                    &self.vk
                }
            }

            #[cfg(feature = "alloc")]
            impl signature::KeypairRef for SigningKey {
                type VerifyingKey = VerifyingKey;
            }

            #[cfg(feature = "alloc")]
            impl signature::RandomizedSigner<Signature> for SigningKey {
                /// Raw message, empty context.
                fn try_sign_with_rng<R: rand_core::TryCryptoRng + ?Sized>(
                    &self,
                    rng: &mut R,
                    msg: &[u8],
                ) -> Result<Signature, signature::Error> {
                    Ok(self.sign_message_with_rng(rng, &Message::raw(msg))?)
                }
            }

            #[cfg(feature = "alloc")]
            impl signature::RandomizedMultipartSigner<Signature> for SigningKey {
                /// Raw message given in parts, empty context.
                fn try_multipart_sign_with_rng<R: rand_core::TryCryptoRng + ?Sized>(
                    &self,
                    rng: &mut R,
                    msg: &[&[u8]],
                ) -> Result<Signature, signature::Error> {
                    Ok(self.sign_parts(rng, &Message::raw(&[]), msg)?)
                }
            }

            #[cfg(all(feature = "alloc", feature = "getrandom"))]
            impl signature::Signer<Signature> for SigningKey {
                /// Raw message, empty context, randomness from the OS.
                fn try_sign(&self, msg: &[u8]) -> Result<Signature, signature::Error> {
                    Ok(self.sign_message_with_rng(&mut getrandom::SysRng, &Message::raw(msg))?)
                }
            }

            #[cfg(all(feature = "alloc", feature = "getrandom"))]
            impl signature::MultipartSigner<Signature> for SigningKey {
                /// Raw message given in parts, empty context, randomness
                /// from the OS.
                fn try_multipart_sign(&self, msg: &[&[u8]]) -> Result<Signature, signature::Error> {
                    Ok(self.sign_parts(&mut getrandom::SysRng, &Message::raw(&[]), msg)?)
                }
            }


            /// Pre-hashed signing (empty context) through the RustCrypto
            /// digest traits, for every digest of pqkit's pre-hash registry:
            /// the closure fills the hash, its output is signed with the
            /// hash's OID.
            #[cfg(feature = "alloc")]
            impl<D: PreHashDigest> signature::RandomizedDigestSigner<D, Signature> for SigningKey {
                fn try_sign_digest_with_rng<
                    R: rand_core::TryCryptoRng + ?Sized,
                    F: Fn(&mut D) -> Result<(), signature::Error>,
                >(
                    &self,
                    rng: &mut R,
                    f: F,
                ) -> Result<Signature, signature::Error> {
                    let mut d = D::default();
                    f(&mut d)?;
                    let ph = d.finish();
                    let msg = Message::PreHashed { ctx: &[], hash: ph.alg(), digest: ph.as_bytes() };
                    Ok(self.sign_message_with_rng(rng, &msg)?)
                }
            }

            /// Pre-hashed signing (empty context) with the OS RNG.
            #[cfg(all(feature = "alloc", feature = "getrandom"))]
            impl<D: PreHashDigest> signature::DigestSigner<D, Signature> for SigningKey {
                fn try_sign_digest<F: Fn(&mut D) -> Result<(), signature::Error>>(
                    &self,
                    f: F,
                ) -> Result<Signature, signature::Error> {
                    signature::RandomizedDigestSigner::try_sign_digest_with_rng(self, &mut getrandom::SysRng, f)
                }
            }

            /// Pre-hashed verification (empty context).
            impl<D: PreHashDigest> signature::DigestVerifier<D, Signature> for VerifyingKey {
                fn verify_digest<F: Fn(&mut D) -> Result<(), signature::Error>>(
                    &self,
                    f: F,
                    sig: &Signature,
                ) -> Result<(), signature::Error> {
                    let mut d = D::default();
                    f(&mut d)?;
                    let ph = d.finish();
                    let msg = Message::PreHashed { ctx: &[], hash: ph.alg(), digest: ph.as_bytes() };
                    Ok(self.verify_message(&msg, sig)?)
                }
            }

            #[cfg(feature = "alloc")]
            impl TryFrom<&[u8]> for SigningKey {
                type Error = Error;
                fn try_from(bytes: &[u8]) -> Result<Self, Error> {
                    Self::from_bytes(bytes)
                }
            }

            /// PKCS#8 / SPKI with the **provisional** OQS OID (FIPS 206 OIDs
            /// are not assigned yet). The private key is the encoded
            /// signing key; decoding also accepts the liboqs/oqs-provider
            /// layout (an inner OCTET STRING with the signing key followed
            /// by the matching verifying key). AlgorithmIdentifier
            /// parameters must be absent.
            #[cfg(feature = "pkcs8")]
            mod pkix {
                use super::*;
                use pkcs8::der::AnyRef;
                use pkcs8::spki;
                use pqkit_common::pkix::{self as common, AlgorithmId};

                /// The provisional OID.
                pub const OID: pkcs8::ObjectIdentifier = pkcs8::ObjectIdentifier::new_unwrap($oid);

                /// AlgorithmIdentifier (no parameters).
                pub const ALGORITHM_ID: AlgorithmId = common::algorithm_id(OID);

                impl spki::SignatureAlgorithmIdentifier for VerifyingKey {
                    type Params = AnyRef<'static>;
                    const SIGNATURE_ALGORITHM_IDENTIFIER: AlgorithmId = ALGORITHM_ID;
                }

                impl spki::AssociatedAlgorithmIdentifier for Signature {
                    type Params = AnyRef<'static>;
                    const ALGORITHM_IDENTIFIER: AlgorithmId = ALGORITHM_ID;
                }

                pqkit_common::impl_public_key!(impl<> VerifyingKey, oid = OID);

                #[cfg(feature = "alloc")]
                impl spki::SignatureBitStringEncoding for Signature {
                    fn to_bitstring(&self) -> pkcs8::der::Result<pkcs8::der::asn1::BitString> {
                        common::signature_bit_string(&self.0)
                    }
                }

                #[cfg(feature = "alloc")]
                impl spki::SignatureAlgorithmIdentifier for SigningKey {
                    type Params = AnyRef<'static>;
                    const SIGNATURE_ALGORITHM_IDENTIFIER: AlgorithmId = ALGORITHM_ID;
                }

                #[cfg(feature = "alloc")]
                impl TryFrom<pkcs8::PrivateKeyInfoRef<'_>> for SigningKey {
                    type Error = pkcs8::Error;
                    fn try_from(info: pkcs8::PrivateKeyInfoRef<'_>) -> pkcs8::Result<Self> {
                        let raw = common::private_key_bytes(&info, OID)?;
                        let sk = if raw.first() == Some(&0x04) {
                            // liboqs / oqs-provider layout: an inner OCTET
                            // STRING holding the signing key then the
                            // verifying key, which must match.
                            use pkcs8::der::Decode;
                            let inner = <&pkcs8::der::asn1::OctetStringRef>::from_der(raw)?.as_bytes();
                            if inner.len() != SIGNING_KEY_SIZE + VERIFYING_KEY_SIZE {
                                return Err(common::invalid_key());
                            }
                            let (skb, pkb) = inner.split_at(SIGNING_KEY_SIZE);
                            let sk = Self::from_bytes(skb).map_err(|_| common::invalid_key())?;
                            if pkb != sk.vk.as_bytes() {
                                return Err(common::invalid_key());
                            }
                            sk
                        } else {
                            Self::from_bytes(raw).map_err(|_| common::invalid_key())?
                        };
                        // v2 (OneAsymmetricKey): the public key must match.
                        common::check_public_key(&info, sk.vk.as_bytes())?;
                        Ok(sk)
                    }
                }

                #[cfg(feature = "alloc")]
                impl pkcs8::EncodePrivateKey for SigningKey {
                    fn to_pkcs8_der(&self) -> pkcs8::Result<pkcs8::SecretDocument> {
                        common::pkcs8_der(OID, &self.to_bytes()[..], None)
                    }
                }
            }

            #[cfg(feature = "pkcs8")]
            pub use pkix::{ALGORITHM_ID, OID};
        }
    };
}
