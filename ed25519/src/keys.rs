//! Keys, signatures, RFC 8032 signing and the three verification modes.

use pqkit_common::curve25519::{EdwardsPoint, Scalar};
use pqkit_common::prehash::HashAlg;
use pqkit_common::sha2::Sha512;
use rand_core::{CryptoRng, TryCryptoRng};
#[cfg(feature = "digest")]
use sha2::Digest;
#[cfg(feature = "digest")]
use sha2::digest::consts::U64;

/// The pre-hash of Ed25519ph (RFC 8032 §5.1), from pqkit's pre-hash
/// registry: SHA-512.
pub const PREHASH: HashAlg = HashAlg::Sha2_512;

/// `PH(M)` of Ed25519ph: SHA-512 ([`PREHASH`]).
fn prehash(msg: &[u8]) -> [u8; 64] {
    Sha512::digest(msg)
}
pub use ed25519::Signature;
#[cfg(feature = "digest")]
use signature::{DigestSigner, DigestVerifier};
use signature::{KeypairRef, MultipartSigner, MultipartVerifier, Signer, Verifier};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::{Error, SignatureError};

/// RFC 8032 dom2(F, C): none for Ed25519, F = 0 for Ed25519ctx, F = 1 for
/// Ed25519ph.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Dom<'a> {
    Plain,
    Ctx(&'a [u8]),
    Ph(&'a [u8]),
}

impl Dom<'_> {
    fn absorb(self, h: &mut Sha512) {
        let (flag, ctx) = match self {
            Dom::Plain => return,
            Dom::Ctx(c) => (0u8, c),
            Dom::Ph(c) => (1u8, c),
        };
        h.update(b"SigEd25519 no Ed25519 collisions");
        h.update(&[flag, ctx.len() as u8]);
        h.update(ctx);
    }
}

fn ctx_for_ctx(ctx: &[u8]) -> Result<Dom<'_>, Error> {
    if ctx.is_empty() {
        return Err(Error::EmptyContext);
    }
    if ctx.len() > 255 {
        return Err(Error::ContextTooLong);
    }
    Ok(Dom::Ctx(ctx))
}

/// `PH(M)` of a finished 64-byte digest.
#[cfg(feature = "digest")]
fn digest_bytes<D: Digest<OutputSize = U64>>(d: D) -> [u8; 64] {
    d.finalize().into()
}

fn ctx_for_ph(ctx: &[u8]) -> Result<Dom<'_>, Error> {
    if ctx.len() > 255 {
        return Err(Error::ContextTooLong);
    }
    Ok(Dom::Ph(ctx))
}

/// `SHA-512(dom || parts...)` reduced mod L.
pub(crate) fn hash_scalar(dom: Dom<'_>, prefix: &[&[u8]], msg: &[&[u8]]) -> Scalar {
    let mut h = Sha512::new();
    dom.absorb(&mut h);
    for p in prefix.iter().chain(msg) {
        h.update(p);
    }
    Scalar::from_bytes_mod_order_wide(&h.finalize())
}

/// A verifying (public) key `A`: its bytes as given and the decoded point.
#[derive(Clone, Copy)]
pub struct VerifyingKey {
    compressed: [u8; 32],
    point: EdwardsPoint,
}

impl PartialEq for VerifyingKey {
    /// Equality of the encodings (the point is a function of them).
    fn eq(&self, other: &Self) -> bool {
        self.compressed == other.compressed
    }
}

impl Eq for VerifyingKey {}

impl core::fmt::Debug for VerifyingKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("VerifyingKey(")?;
        for b in &self.compressed {
            write!(f, "{b:02x}")?;
        }
        f.write_str(")")
    }
}

/// Which verification rules apply.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Default,
    Strict,
    Zip215,
}

impl VerifyingKey {
    /// Decode a 32-byte point encoding. Like ed25519-dalek, the decoder
    /// accepts any `y` encoding that decompresses (see the crate docs).
    ///
    /// Returns ed25519-dalek's `SignatureError`, whose source is
    /// [`Error::InvalidPoint`] (see [`Error::from_signature_error`]).
    pub fn from_bytes(bytes: &[u8; 32]) -> Result<Self, SignatureError> {
        Ok(Self::decode(bytes)?)
    }

    fn decode(bytes: &[u8; 32]) -> Result<Self, Error> {
        let point = EdwardsPoint::decompress(bytes).ok_or(Error::InvalidPoint)?;
        Ok(VerifyingKey {
            compressed: *bytes,
            point,
        })
    }

    /// The 32 bytes.
    pub fn to_bytes(&self) -> [u8; 32] {
        self.compressed
    }

    /// The 32 bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.compressed
    }

    /// The decoded point `A`.
    #[cfg(feature = "alloc")]
    pub(crate) fn point(&self) -> EdwardsPoint {
        self.point
    }

    /// Whether `A` has small order (a "weak" key anyone can forge for).
    pub fn is_weak(&self) -> bool {
        self.point.is_small_order()
    }

    fn verify_parts(
        &self,
        dom: Dom<'_>,
        msg: &[&[u8]],
        sig: &Signature,
        mode: Mode,
    ) -> Result<(), Error> {
        let s = Option::<Scalar>::from(Scalar::from_canonical_bytes(*sig.s_bytes()))
            .ok_or(Error::NonCanonicalS)?;
        let r_enc = sig.r_bytes();
        let k = hash_scalar(dom, &[sig.r_bytes(), &self.compressed], msg);
        // R is decoded with dalek's (lenient) rules; the equation is decided
        // on points, at half the doublings of computing [S]B - [k]A
        // (`vartime_check_equation`).
        let r = EdwardsPoint::decompress(r_enc).ok_or(Error::InvalidSignature)?;
        let cofactored = match mode {
            Mode::Default | Mode::Strict => {
                if mode == Mode::Strict && (r.is_small_order() || self.point.is_small_order()) {
                    return Err(Error::SmallOrder);
                }
                // dalek compares the canonical encoding of [S]B - [k]A with
                // R's bytes: the same as comparing points when R's bytes
                // are canonical, and a mismatch when they are not.
                if !EdwardsPoint::is_canonical_encoding(r_enc) {
                    return Err(Error::InvalidSignature);
                }
                false
            }
            Mode::Zip215 => true,
        };
        if EdwardsPoint::vartime_check_equation(&s, &k, &self.point, &r, cofactored) {
            Ok(())
        } else {
            Err(Error::InvalidSignature)
        }
    }

    /// Ed25519 verification (ed25519-dalek `verify` rules).
    pub fn verify_bytes(&self, msg: &[u8], sig: &Signature) -> Result<(), Error> {
        self.verify_parts(Dom::Plain, &[msg], sig, Mode::Default)
    }

    /// Ed25519 strict verification (ed25519-dalek `verify_strict` rules).
    pub fn verify_strict(&self, msg: &[u8], sig: &Signature) -> Result<(), SignatureError> {
        Ok(self.verify_parts(Dom::Plain, &[msg], sig, Mode::Strict)?)
    }

    /// Ed25519 verification under the ZIP 215 rules.
    pub fn verify_zip215(&self, msg: &[u8], sig: &Signature) -> Result<(), Error> {
        self.verify_parts(Dom::Plain, &[msg], sig, Mode::Zip215)
    }

    /// Ed25519ctx verification (context 1..=255 bytes).
    pub fn verify_with_context(
        &self,
        msg: &[u8],
        ctx: &[u8],
        sig: &Signature,
    ) -> Result<(), Error> {
        self.verify_parts(ctx_for_ctx(ctx)?, &[msg], sig, Mode::Default)
    }

    /// Ed25519ctx strict verification.
    pub fn verify_with_context_strict(
        &self,
        msg: &[u8],
        ctx: &[u8],
        sig: &Signature,
    ) -> Result<(), Error> {
        self.verify_parts(ctx_for_ctx(ctx)?, &[msg], sig, Mode::Strict)
    }

    /// Ed25519ph verification of `msg` (hashed here with SHA-512), context
    /// up to 255 bytes.
    pub fn verify_prehash(&self, msg: &[u8], ctx: &[u8], sig: &Signature) -> Result<(), Error> {
        self.verify_ph(&prehash(msg), ctx, sig, Mode::Default)
    }

    /// Ed25519ph verification of the digest `ph` (every `*prehash*` form).
    fn verify_ph(
        &self,
        ph: &[u8; 64],
        ctx: &[u8],
        sig: &Signature,
        mode: Mode,
    ) -> Result<(), Error> {
        self.verify_parts(ctx_for_ph(ctx)?, &[ph], sig, mode)
    }

    /// Ed25519ph strict verification of `msg`.
    pub fn verify_prehash_strict(
        &self,
        msg: &[u8],
        ctx: &[u8],
        sig: &Signature,
    ) -> Result<(), Error> {
        self.verify_ph(&prehash(msg), ctx, sig, Mode::Strict)
    }

    /// Ed25519ph verification of a pre-hashed message: `prehashed` has had
    /// the message fed into it (RFC 8032 allows only SHA-512; any 64-byte
    /// digest is accepted, as in ed25519-dalek), `context` at most 255
    /// bytes (`None` is empty).
    #[cfg(feature = "digest")]
    pub fn verify_prehashed<D: Digest<OutputSize = U64>>(
        &self,
        prehashed: D,
        context: Option<&[u8]>,
        sig: &Signature,
    ) -> Result<(), SignatureError> {
        let ph = digest_bytes(prehashed);
        Ok(self.verify_ph(&ph, context.unwrap_or_default(), sig, Mode::Default)?)
    }

    /// [`verify_prehashed`](Self::verify_prehashed) with the strict rules.
    #[cfg(feature = "digest")]
    pub fn verify_prehashed_strict<D: Digest<OutputSize = U64>>(
        &self,
        prehashed: D,
        context: Option<&[u8]>,
        sig: &Signature,
    ) -> Result<(), SignatureError> {
        let ph = digest_bytes(prehashed);
        Ok(self.verify_ph(&ph, context.unwrap_or_default(), sig, Mode::Strict)?)
    }

    /// An Ed25519ph verifier with a context of at most 255 bytes, for the
    /// `DigestVerifier` trait (ed25519-dalek's `Context`).
    #[cfg(feature = "digest")]
    pub fn with_context<'k, 'v>(
        &'k self,
        context: &'v [u8],
    ) -> Result<Context<'k, 'v, VerifyingKey>, SignatureError> {
        Ok(Context::new(self, context)?)
    }
}

impl TryFrom<&[u8]> for VerifyingKey {
    type Error = SignatureError;
    /// A 32-byte point encoding (see [`VerifyingKey::from_bytes`]).
    fn try_from(bytes: &[u8]) -> Result<Self, SignatureError> {
        Ok(Self::decode(
            bytes.try_into().map_err(|_| Error::InvalidLength)?,
        )?)
    }
}

impl core::hash::Hash for VerifyingKey {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.compressed.hash(state);
    }
}

/// A key with an Ed25519ph context string of at most 255 bytes
/// (ed25519-dalek's type): [`SigningKey::with_context`] and
/// [`VerifyingKey::with_context`] make one, and its `DigestSigner` /
/// `DigestVerifier` impls sign and verify Ed25519ph with that context.
#[cfg(feature = "digest")]
#[derive(Clone, Debug)]
pub struct Context<'k, 'v, K> {
    key: &'k K,
    value: &'v [u8],
}

#[cfg(feature = "digest")]
impl<'k, 'v, K> Context<'k, 'v, K> {
    /// The longest context, in bytes.
    pub const MAX_LENGTH: usize = 255;

    fn new(key: &'k K, value: &'v [u8]) -> Result<Self, Error> {
        if value.len() > Self::MAX_LENGTH {
            return Err(Error::ContextTooLong);
        }
        Ok(Self { key, value })
    }

    /// The key.
    pub fn key(&self) -> &'k K {
        self.key
    }

    /// The context string.
    pub fn value(&self) -> &'v [u8] {
        self.value
    }
}

impl Verifier<Signature> for VerifyingKey {
    fn verify(&self, msg: &[u8], sig: &Signature) -> Result<(), signature::Error> {
        Ok(self.verify_bytes(msg, sig)?)
    }
}

impl MultipartVerifier<Signature> for VerifyingKey {
    fn multipart_verify(&self, msg: &[&[u8]], sig: &Signature) -> Result<(), signature::Error> {
        Ok(self.verify_parts(Dom::Plain, msg, sig, Mode::Default)?)
    }
}

/// Ed25519ph (empty context) through the digest traits, for any 64-byte
/// digest as in ed25519-dalek (RFC 8032 specifies SHA-512).
#[cfg(feature = "digest")]
impl<D: Digest<OutputSize = U64> + sha2::digest::Update> DigestVerifier<D, Signature>
    for VerifyingKey
{
    fn verify_digest<F: Fn(&mut D) -> Result<(), signature::Error>>(
        &self,
        f: F,
        sig: &Signature,
    ) -> Result<(), signature::Error> {
        let mut h = D::new();
        f(&mut h)?;
        self.verify_prehashed(h, None, sig)
    }
}

/// Ed25519ph with the context's string.
#[cfg(feature = "digest")]
impl<D: Digest<OutputSize = U64> + sha2::digest::Update> DigestVerifier<D, Signature>
    for Context<'_, '_, VerifyingKey>
{
    fn verify_digest<F: Fn(&mut D) -> Result<(), signature::Error>>(
        &self,
        f: F,
        sig: &Signature,
    ) -> Result<(), signature::Error> {
        let mut h = D::new();
        f(&mut h)?;
        self.key.verify_prehashed(h, Some(self.value), sig)
    }
}

/// A signing key: the 32-byte secret, with the expanded scalar, the nonce
/// prefix and the public key computed once. Wiped on drop.
#[derive(Clone)]
pub struct SigningKey {
    secret: [u8; 32],
    scalar: Scalar,
    prefix: [u8; 32],
    vk: VerifyingKey,
}

impl Zeroize for SigningKey {
    fn zeroize(&mut self) {
        self.secret.zeroize();
        self.scalar.zeroize();
        self.prefix.zeroize();
    }
}

impl Drop for SigningKey {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl ZeroizeOnDrop for SigningKey {}

impl core::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SigningKey({:?}, ..)", self.vk)
    }
}

impl SigningKey {
    /// From the 32-byte secret key (RFC 8032 §5.1.5).
    pub fn from_bytes(secret: &[u8; 32]) -> Self {
        let h = Zeroizing::new(Sha512::digest(secret));
        let mut lower = Zeroizing::new([0u8; 32]);
        lower.copy_from_slice(&h[..32]);
        let mut prefix = [0u8; 32];
        prefix.copy_from_slice(&h[32..]);
        let scalar = Scalar::from_bytes_mod_order(pqkit_common::curve25519::clamp(&lower));
        let (point, compressed) = EdwardsPoint::mul_base(&scalar);
        let vk = VerifyingKey { compressed, point };
        SigningKey {
            secret: *secret,
            scalar,
            prefix,
            vk,
        }
    }

    /// From a slice (must be 32 bytes).
    pub fn from_slice(secret: &[u8]) -> Result<Self, Error> {
        let s = Zeroizing::new(<[u8; 32]>::try_from(secret).map_err(|_| Error::InvalidLength)?);
        Ok(Self::from_bytes(&s))
    }

    /// A fresh key from `csprng` (ed25519-dalek's signature; a fallible
    /// RNG goes through `Generate::try_generate_from_rng`).
    pub fn generate<R: CryptoRng + ?Sized>(csprng: &mut R) -> SigningKey {
        let mut s = Zeroizing::new([0u8; 32]);
        csprng.fill_bytes(&mut s[..]);
        Self::from_bytes(&s)
    }

    /// The 32-byte secret key.
    pub fn to_bytes(&self) -> SecretKey {
        self.secret
    }

    /// The 32-byte secret key, borrowed.
    pub fn as_bytes(&self) -> &SecretKey {
        &self.secret
    }

    /// The secret key followed by the public key (as `ed25519-dalek`).
    pub fn to_keypair_bytes(&self) -> [u8; crate::KEYPAIR_LENGTH] {
        let mut out = [0u8; crate::KEYPAIR_LENGTH];
        out[..32].copy_from_slice(&self.secret);
        out[32..].copy_from_slice(self.vk.as_bytes());
        out
    }

    /// From the secret key followed by the public key (as `ed25519-dalek`):
    /// the public key must be the one the secret key yields, else an
    /// error (dalek's "mismatched keypair").
    ///
    /// ```
    /// use pqkit_ed25519::SigningKey;
    /// let sk = SigningKey::from_bytes(&[7u8; 32]);
    /// let mut kp = sk.to_keypair_bytes();
    /// assert_eq!(SigningKey::from_keypair_bytes(&kp)?.to_bytes(), [7u8; 32]);
    /// kp[63] ^= 1;
    /// assert!(SigningKey::from_keypair_bytes(&kp).is_err());
    /// # Ok::<(), pqkit_ed25519::SignatureError>(())
    /// ```
    pub fn from_keypair_bytes(
        bytes: &[u8; crate::KEYPAIR_LENGTH],
    ) -> Result<SigningKey, SignatureError> {
        let mut secret = [0u8; 32];
        secret.copy_from_slice(&bytes[..32]);
        let sk = SigningKey::from_bytes(&secret);
        secret.zeroize();
        // Compared without an early exit; whether the halves match is a
        // public property of the input (the public half is public).
        let same = subtle::ConstantTimeEq::ct_eq(&sk.vk.as_bytes()[..], &bytes[32..]);
        if !pqkit_common::ct::declassify(bool::from(same)) {
            return Err(signature::Error::from(Error::InconsistentKey));
        }
        Ok(sk)
    }

    /// The public key.
    pub fn verifying_key(&self) -> VerifyingKey {
        self.vk
    }

    /// RFC 8032 §5.1.6 with dom2 and the message in parts.
    pub(crate) fn sign_parts(&self, dom: Dom<'_>, msg: &[&[u8]]) -> Signature {
        crate::hazmat::sign_expanded(&self.scalar, &self.prefix, &self.vk, dom, msg)
    }

    /// Ed25519ctx (context 1..=255 bytes).
    pub fn sign_with_context(&self, msg: &[u8], ctx: &[u8]) -> Result<Signature, Error> {
        Ok(self.sign_parts(ctx_for_ctx(ctx)?, &[msg]))
    }

    /// Ed25519ph of `msg` (hashed here with SHA-512), context up to 255 bytes.
    pub fn sign_prehash(&self, msg: &[u8], ctx: &[u8]) -> Result<Signature, Error> {
        let ph = prehash(msg);
        Ok(self.sign_parts(ctx_for_ph(ctx)?, &[&ph]))
    }

    /// Ed25519ph of a pre-hashed message: `prehashed` has had the message
    /// fed into it (RFC 8032 allows only SHA-512; any 64-byte digest is
    /// accepted, as in ed25519-dalek), `context` at most 255 bytes (`None`
    /// is empty).
    #[cfg(feature = "digest")]
    pub fn sign_prehashed<D: Digest<OutputSize = U64>>(
        &self,
        prehashed: D,
        context: Option<&[u8]>,
    ) -> Result<Signature, SignatureError> {
        let ph = digest_bytes(prehashed);
        Ok(self.sign_parts(ctx_for_ph(context.unwrap_or_default())?, &[&ph]))
    }

    /// Verify a signature with this key's public key (as ed25519-dalek).
    pub fn verify(&self, msg: &[u8], sig: &Signature) -> Result<(), SignatureError> {
        Ok(self.vk.verify_bytes(msg, sig)?)
    }

    /// Strict verification with this key's public key.
    pub fn verify_strict(&self, msg: &[u8], sig: &Signature) -> Result<(), SignatureError> {
        self.vk.verify_strict(msg, sig)
    }

    /// Ed25519ph verification with this key's public key.
    #[cfg(feature = "digest")]
    pub fn verify_prehashed<D: Digest<OutputSize = U64>>(
        &self,
        prehashed: D,
        context: Option<&[u8]>,
        sig: &Signature,
    ) -> Result<(), SignatureError> {
        self.vk.verify_prehashed(prehashed, context, sig)
    }

    /// An Ed25519ph signer with a context of at most 255 bytes, for the
    /// `DigestSigner` trait (ed25519-dalek's `Context`).
    #[cfg(feature = "digest")]
    pub fn with_context<'k, 'v>(
        &'k self,
        context: &'v [u8],
    ) -> Result<Context<'k, 'v, SigningKey>, SignatureError> {
        Ok(Context::new(self, context)?)
    }
}

/// The 32-byte secret key (RFC 8032), ed25519-dalek's name.
pub type SecretKey = [u8; 32];

impl From<SecretKey> for SigningKey {
    fn from(secret: SecretKey) -> Self {
        Self::from_bytes(&secret)
    }
}

impl From<&SecretKey> for SigningKey {
    fn from(secret: &SecretKey) -> Self {
        Self::from_bytes(secret)
    }
}

impl TryFrom<&[u8]> for SigningKey {
    type Error = SignatureError;
    /// A 32-byte secret key.
    fn try_from(secret: &[u8]) -> Result<Self, SignatureError> {
        Ok(Self::from_slice(secret)?)
    }
}

impl subtle::ConstantTimeEq for SigningKey {
    fn ct_eq(&self, other: &Self) -> subtle::Choice {
        self.secret.ct_eq(&other.secret)
    }
}

impl PartialEq for SigningKey {
    /// Constant time.
    fn eq(&self, other: &Self) -> bool {
        subtle::ConstantTimeEq::ct_eq(self, other).into()
    }
}
impl Eq for SigningKey {}

impl crypto_common::KeySizeUser for SigningKey {
    type KeySize = crypto_common::typenum::U32;
}

impl crypto_common::KeyInit for SigningKey {
    /// [`SigningKey::from_bytes`].
    fn new(secret: &crypto_common::Key<Self>) -> Self {
        Self::from_bytes(&secret.0)
    }
}

impl crypto_common::KeyExport for SigningKey {
    /// The 32-byte secret key.
    fn to_bytes(&self) -> crypto_common::Key<Self> {
        self.secret.into()
    }
}

impl crypto_common::Generate for SigningKey {
    fn try_generate_from_rng<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self, R::Error> {
        let mut s = Zeroizing::new([0u8; 32]);
        rng.try_fill_bytes(&mut s[..])?;
        Ok(Self::from_bytes(&s))
    }
}

impl AsRef<VerifyingKey> for SigningKey {
    fn as_ref(&self) -> &VerifyingKey {
        &self.vk
    }
}

impl KeypairRef for SigningKey {
    type VerifyingKey = VerifyingKey;
}

impl Signer<Signature> for SigningKey {
    fn try_sign(&self, msg: &[u8]) -> Result<Signature, signature::Error> {
        Ok(self.sign_parts(Dom::Plain, &[msg]))
    }
}

impl MultipartSigner<Signature> for SigningKey {
    fn try_multipart_sign(&self, msg: &[&[u8]]) -> Result<Signature, signature::Error> {
        Ok(self.sign_parts(Dom::Plain, msg))
    }
}

impl Verifier<Signature> for SigningKey {
    fn verify(&self, msg: &[u8], sig: &Signature) -> Result<(), signature::Error> {
        self.vk.verify(msg, sig)
    }
}

/// Ed25519ph (empty context) through the digest traits, for any 64-byte
/// digest as in ed25519-dalek (RFC 8032 specifies SHA-512).
#[cfg(feature = "digest")]
impl<D: Digest<OutputSize = U64> + sha2::digest::Update> DigestSigner<D, Signature> for SigningKey {
    fn try_sign_digest<F: Fn(&mut D) -> Result<(), signature::Error>>(
        &self,
        f: F,
    ) -> Result<Signature, signature::Error> {
        let mut h = D::new();
        f(&mut h)?;
        self.sign_prehashed(h, None)
    }
}

/// Ed25519ph with the context's string.
#[cfg(feature = "digest")]
impl<D: Digest<OutputSize = U64> + sha2::digest::Update> DigestSigner<D, Signature>
    for Context<'_, '_, SigningKey>
{
    fn try_sign_digest<F: Fn(&mut D) -> Result<(), signature::Error>>(
        &self,
        f: F,
    ) -> Result<Signature, signature::Error> {
        let mut h = D::new();
        f(&mut h)?;
        self.key.sign_prehashed(h, Some(self.value))
    }
}
