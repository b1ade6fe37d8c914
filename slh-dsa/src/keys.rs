//! The key and signature types.

use pqkit_common::prehash::{HashAlg, PreHash};
use rand_core::{CryptoRng, TryCryptoRng};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use crate::Error;
use crate::algo;
use crate::params::{ByteArray, MAX_N, ParameterSet};

/// Check a context string's length (at most 255 bytes).
pub(crate) fn check_ctx(ctx: &[u8]) -> Result<u8, Error> {
    u8::try_from(ctx.len()).map_err(|_| Error::ContextTooLong)
}

/// `n` bytes of randomness from `rng`.
pub(crate) fn rand_from<P: ParameterSet, R: TryCryptoRng + ?Sized>(
    rng: &mut R,
) -> Result<Zeroizing<[u8; MAX_N]>, Error> {
    let mut r = Zeroizing::new([0u8; MAX_N]);
    rng.try_fill_bytes(&mut r[..P::N]).map_err(|_| Error::Rng)?;
    Ok(r)
}

/// `n` bytes of OS randomness.
#[cfg(feature = "getrandom")]
fn rand_os<P: ParameterSet>() -> Result<Zeroizing<[u8; MAX_N]>, Error> {
    let mut r = Zeroizing::new([0u8; MAX_N]);
    getrandom::fill(&mut r[..P::N]).map_err(|_| Error::Rng)?;
    Ok(r)
}

// ---------------------------------------------------------------------------

/// An SLH-DSA signature: `R || SIG_FORS || SIG_HT`, `P::SIG_LEN` bytes
/// held inline (up to 49856 bytes for the `256f` sets).
#[derive(Clone, PartialEq, Eq)]
pub struct Signature<P: ParameterSet> {
    bytes: P::SignatureBytes,
}

impl<P: ParameterSet> core::fmt::Debug for Signature<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Signature<{}>({} bytes)", P::NAME, P::SIG_LEN)
    }
}

impl<P: ParameterSet> Signature<P> {
    /// A signature from its encoding; only the length is checked
    /// ([`Error::InvalidLength`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        if bytes.len() != P::SIG_LEN {
            return Err(Error::InvalidLength);
        }
        let mut s = Self::zeroed();
        s.bytes.as_mut().copy_from_slice(bytes);
        Ok(s)
    }
    /// The encoding.
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.as_ref()
    }
    /// The encoding as an owned array.
    pub fn to_bytes(&self) -> P::SignatureBytes {
        self.bytes
    }
    /// The encoding as a vector (RustCrypto `slh-dsa`'s `to_vec`).
    #[cfg(feature = "alloc")]
    pub fn to_vec(&self) -> alloc::vec::Vec<u8> {
        self.as_bytes().to_vec()
    }
    pub(crate) fn zeroed() -> Self {
        Self {
            bytes: P::SignatureBytes::zeroed(),
        }
    }
    /// From an array of exactly `SIG_LEN` bytes (the per-set `From` impls).
    pub(crate) fn from_array<const L: usize>(bytes: &[u8; L]) -> Self {
        let mut s = Self::zeroed();
        s.bytes.as_mut().copy_from_slice(bytes);
        s
    }
    pub(crate) fn bytes_mut(&mut self) -> &mut [u8] {
        self.bytes.as_mut()
    }
}

impl<P: ParameterSet> AsRef<[u8]> for Signature<P> {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

// ---------------------------------------------------------------------------

/// An SLH-DSA public (verifying) key `PK.seed || PK.root`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct VerifyingKey<P: ParameterSet> {
    bytes: P::PublicKeyBytes,
}

impl<P: ParameterSet> core::fmt::Debug for VerifyingKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "VerifyingKey<{}>({:02x?})", P::NAME, self.bytes.as_ref())
    }
}

impl<P: ParameterSet> VerifyingKey<P> {
    /// A public key from its `2 n` bytes (every such string is a key).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let bytes = P::PublicKeyBytes::try_from(bytes).map_err(|_| Error::InvalidLength)?;
        Ok(Self { bytes })
    }
    /// The encoding `PK.seed || PK.root`.
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.as_ref()
    }
    /// The encoding as a vector (RustCrypto `slh-dsa`'s `to_vec`).
    #[cfg(feature = "alloc")]
    pub fn to_vec(&self) -> alloc::vec::Vec<u8> {
        self.as_bytes().to_vec()
    }
    /// From an array of exactly `PK_LEN` bytes (the per-set `From` impls).
    pub(crate) fn from_array<const L: usize>(bytes: [u8; L]) -> Self {
        let mut b = P::PublicKeyBytes::zeroed();
        b.as_mut().copy_from_slice(&bytes);
        Self { bytes: b }
    }
    /// The encoding as an owned array.
    pub fn to_bytes(&self) -> P::PublicKeyBytes {
        self.bytes
    }

    /// FIPS 205 Alg. 24 `slh_verify` (pure SLH-DSA with a context).
    pub fn verify_with_context(
        &self,
        msg: &[u8],
        ctx: &[u8],
        sig: &Signature<P>,
    ) -> Result<(), Error> {
        self.verify_bytes(msg, ctx, sig.as_bytes())
    }

    /// [`verify_with_context`](Self::verify_with_context), RustCrypto
    /// `slh-dsa`'s name.
    pub fn try_verify_with_context(
        &self,
        msg: &[u8],
        ctx: &[u8],
        sig: &Signature<P>,
    ) -> Result<(), Error> {
        self.verify_bytes(msg, ctx, sig.as_bytes())
    }

    /// Pure SLH-DSA verification of a signature given as bytes: the
    /// reason as a typed error, never a panic.
    pub fn verify_bytes(&self, msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<(), Error> {
        self.verify_multipart_bytes(&[msg], ctx, sig)
    }

    /// Pure SLH-DSA verification of a message given in parts.
    pub fn verify_multipart_bytes(
        &self,
        msg: &[&[u8]],
        ctx: &[u8],
        sig: &[u8],
    ) -> Result<(), Error> {
        let len = check_ctx(ctx)?;
        if sig.len() != P::SIG_LEN {
            return Err(Error::InvalidLength);
        }
        let head = [0u8, len];
        let mut parts: [&[u8]; 8] = [&[]; 8];
        let k = pure_parts(&head, ctx, msg, &mut parts)?;
        self.verify_internal_parts(&parts[..k], sig)
    }

    /// FIPS 205 Alg. 25 `hash_slh_verify`: hashes `msg` with `alg`.
    pub fn verify_prehash(
        &self,
        alg: HashAlg,
        msg: &[u8],
        ctx: &[u8],
        sig: &Signature<P>,
    ) -> Result<(), Error> {
        self.verify_prehashed(&alg.digest(msg), ctx, sig)
    }

    /// HashSLH-DSA verification given the digest `PH(M)`.
    pub fn verify_prehashed(
        &self,
        ph: &PreHash,
        ctx: &[u8],
        sig: &Signature<P>,
    ) -> Result<(), Error> {
        let len = check_ctx(ctx)?;
        let head = [1u8, len];
        let oid = ph.alg().oid_der();
        self.verify_internal_parts(&[&head, ctx, &oid, ph.as_bytes()], sig.as_bytes())
    }

    /// FIPS 205 Alg. 20 on a message in parts.
    pub(crate) fn verify_internal_parts(&self, msg: &[&[u8]], sig: &[u8]) -> Result<(), Error> {
        if sig.len() != P::SIG_LEN {
            return Err(Error::InvalidLength);
        }
        if algo::verify_internal::<P>(self.as_bytes(), msg, sig) {
            Ok(())
        } else {
            Err(Error::InvalidSignature)
        }
    }

    /// A verifier for the traits with context `ctx` (at most 255 bytes).
    pub fn with_context<'a>(&'a self, ctx: &'a [u8]) -> Result<ContextVerifyingKey<'a, P>, Error> {
        check_ctx(ctx)?;
        Ok(ContextVerifyingKey { key: self, ctx })
    }
}

/// `M' = 0 || |ctx| || ctx || M` as parts (at most 6 message parts).
fn pure_parts<'a>(
    head: &'a [u8; 2],
    ctx: &'a [u8],
    msg: &[&'a [u8]],
    out: &mut [&'a [u8]; 8],
) -> Result<usize, Error> {
    out[0] = head;
    out[1] = ctx;
    if msg.len() > 6 {
        return Err(Error::InvalidLength);
    }
    for (o, m) in out[2..].iter_mut().zip(msg) {
        *o = m;
    }
    Ok(2 + msg.len())
}

/// A [`VerifyingKey`] with a context string, for the `Verifier` trait.
#[derive(Clone, Copy, Debug)]
pub struct ContextVerifyingKey<'a, P: ParameterSet> {
    pub(crate) key: &'a VerifyingKey<P>,
    pub(crate) ctx: &'a [u8],
}

// ---------------------------------------------------------------------------

/// An SLH-DSA private (signing) key `SK.seed || SK.prf || PK.seed ||
/// PK.root`. The three seeds are the key; `PK.root` is generated from
/// them. Wiped on drop.
///
/// Beside its encoding a key keeps the `2^(h' - 3)` nodes at height 3 of
/// the top XMSS tree ([`ParameterSet::TopNodesBytes`]: 1 KB at 128s,
/// 1.5 KB at 192s, 1 KB at 256s, one or two nodes in the fast sets),
/// made with `PK.root` by every constructor at no extra cost. Signing
/// then computes eight of that tree's `2^h'` leaves instead of all of
/// them: one layer in `d` of the hypertree's work less, about an eighth
/// of a signature in the small sets.
#[derive(Clone)]
pub struct SigningKey<P: ParameterSet> {
    bytes: P::PrivateKeyBytes,
    /// `PK.seed || PK.root` again, for `AsRef<VerifyingKey>`.
    vk: VerifyingKey<P>,
    /// The top XMSS tree's nodes at height 3, computed with `PK.root`.
    top: P::TopNodesBytes,
}

impl<P: ParameterSet> core::fmt::Debug for SigningKey<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SigningKey<{}> {{ .. }}", P::NAME)
    }
}

impl<P: ParameterSet> Drop for SigningKey<P> {
    fn drop(&mut self) {
        self.bytes.zeroize();
    }
}
impl<P: ParameterSet> ZeroizeOnDrop for SigningKey<P> {}

impl<P: ParameterSet> PartialEq for SigningKey<P> {
    /// Constant-time comparison of the encodings.
    fn eq(&self, other: &Self) -> bool {
        use subtle::ConstantTimeEq;
        bool::from(self.bytes.as_ref().ct_eq(other.bytes.as_ref()))
    }
}
impl<P: ParameterSet> Eq for SigningKey<P> {}

impl<P: ParameterSet> SigningKey<P> {
    /// FIPS 205 Alg. 18 `slh_keygen_internal(SK.seed, SK.prf, PK.seed)`:
    /// each seed `n` bytes, else [`Error::InvalidLength`].
    pub fn from_seed(sk_seed: &[u8], sk_prf: &[u8], pk_seed: &[u8]) -> Result<Self, Error> {
        let n = P::N;
        if sk_seed.len() != n || sk_prf.len() != n || pk_seed.len() != n {
            return Err(Error::InvalidLength);
        }
        let mut seeds = Zeroizing::new([0u8; 3 * MAX_N]);
        seeds[..n].copy_from_slice(sk_seed);
        seeds[n..2 * n].copy_from_slice(sk_prf);
        seeds[2 * n..3 * n].copy_from_slice(pk_seed);
        Ok(Self::from_seed_block(&seeds))
    }

    /// FIPS 205 Alg. 21 `slh_keygen` with the three seeds from `rng`.
    pub fn try_new<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self, Error> {
        let mut seeds = Zeroizing::new([0u8; 3 * MAX_N]);
        let n = P::N;
        rng.try_fill_bytes(&mut seeds[..3 * n])
            .map_err(|_| Error::Rng)?;
        Self::from_seed(&seeds[..n], &seeds[n..2 * n], &seeds[2 * n..3 * n])
    }

    /// FIPS 205 Alg. 21 `slh_keygen` (RustCrypto `slh-dsa`'s constructor;
    /// an infallible RNG cannot fail, so neither can this).
    pub fn new<R: CryptoRng + ?Sized>(rng: &mut R) -> Self {
        let mut seeds = Zeroizing::new([0u8; 3 * MAX_N]);
        rng.fill_bytes(&mut seeds[..3 * P::N]);
        Self::from_seed_block(&seeds)
    }

    /// Key generation from `SK.seed || SK.prf || PK.seed` at the start of
    /// `seeds` (`n` bytes each).
    pub(crate) fn from_seed_block(seeds: &[u8; 3 * MAX_N]) -> Self {
        let n = P::N;
        let mut bytes = P::PrivateKeyBytes::zeroed();
        let b = bytes.as_mut();
        b[..3 * n].copy_from_slice(&seeds[..3 * n]);
        let mut top = P::TopNodesBytes::zeroed();
        let root = algo::pk_root::<P>(&seeds[..n], &seeds[2 * n..3 * n], top.as_mut());
        b[3 * n..].copy_from_slice(&root[..n]);
        let mut vk = P::PublicKeyBytes::zeroed();
        vk.as_mut().copy_from_slice(&b[2 * n..]);
        Self {
            bytes,
            vk: VerifyingKey { bytes: vk },
            top,
        }
    }

    /// A private key from its `4 n`-byte encoding. `PK.root` is
    /// recomputed from the seeds and must match
    /// ([`Error::InvalidPrivateKey`]): this costs one key generation.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let n = P::N;
        if bytes.len() != P::SK_LEN {
            return Err(Error::InvalidLength);
        }
        let key = Self::from_seed(&bytes[..n], &bytes[n..2 * n], &bytes[2 * n..3 * n])?;
        use subtle::ConstantTimeEq;
        if bool::from(key.bytes.as_ref()[3 * n..].ct_eq(&bytes[3 * n..])) {
            Ok(key)
        } else {
            Err(Error::InvalidPrivateKey)
        }
    }

    /// The encoding `SK.seed || SK.prf || PK.seed || PK.root`.
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.as_ref()
    }
    /// The encoding as an owned array (wiped when dropped).
    pub fn to_bytes(&self) -> Zeroizing<P::PrivateKeyBytes> {
        Zeroizing::new(self.bytes)
    }
    /// The encoding as a vector, wiped when dropped (RustCrypto
    /// `slh-dsa`'s `to_vec`, which returns a plain `Vec`).
    #[cfg(feature = "alloc")]
    pub fn to_vec(&self) -> Zeroizing<alloc::vec::Vec<u8>> {
        Zeroizing::new(self.as_bytes().to_vec())
    }
    /// The public key.
    pub fn verifying_key(&self) -> VerifyingKey<P> {
        self.vk.clone()
    }
    pub(crate) fn verifying_key_ref(&self) -> &VerifyingKey<P> {
        &self.vk
    }

    /// FIPS 205 Alg. 19 on a message in parts, with `opt_rand`.
    pub(crate) fn sign_internal_parts(&self, msg: &[&[u8]], opt_rand: &[u8]) -> Signature<P> {
        let mut sig = Signature::<P>::zeroed();
        algo::sign_internal::<P>(self.as_bytes(), self.top(), msg, opt_rand, sig.bytes_mut());
        sig
    }

    /// The top XMSS tree's nodes at height 3 (for signing).
    pub(crate) fn top(&self) -> &[u8] {
        self.top.as_ref()
    }

    fn pk_seed(&self) -> &[u8] {
        &self.bytes.as_ref()[2 * P::N..3 * P::N]
    }

    /// Pure SLH-DSA (FIPS 205 Alg. 22) of a message in parts with explicit
    /// `addrnd` (`n` bytes).
    pub fn sign_multipart_with_rnd(
        &self,
        msg: &[&[u8]],
        ctx: &[u8],
        addrnd: &[u8],
    ) -> Result<Signature<P>, Error> {
        let len = check_ctx(ctx)?;
        if addrnd.len() != P::N {
            return Err(Error::InvalidLength);
        }
        let head = [0u8, len];
        let mut parts: [&[u8]; 8] = [&[]; 8];
        let k = pure_parts(&head, ctx, msg, &mut parts)?;
        Ok(self.sign_internal_parts(&parts[..k], addrnd))
    }

    /// FIPS 205 Alg. 22 `slh_sign` with explicit `addrnd` (`n` bytes).
    pub fn sign_with_rnd(
        &self,
        msg: &[u8],
        ctx: &[u8],
        addrnd: &[u8],
    ) -> Result<Signature<P>, Error> {
        self.sign_multipart_with_rnd(&[msg], ctx, addrnd)
    }

    /// Deterministic SLH-DSA (`opt_rand = PK.seed`).
    pub fn sign_deterministic(&self, msg: &[u8], ctx: &[u8]) -> Result<Signature<P>, Error> {
        let seed = pk_seed_array::<P>(self.pk_seed());
        self.sign_with_rnd(msg, ctx, &seed[..P::N])
    }

    /// Hedged SLH-DSA: `addrnd` from `rng`.
    pub fn sign_randomized<R: TryCryptoRng + ?Sized>(
        &self,
        msg: &[u8],
        ctx: &[u8],
        rng: &mut R,
    ) -> Result<Signature<P>, Error> {
        check_ctx(ctx)?;
        let r = rand_from::<P, R>(rng)?;
        self.sign_with_rnd(msg, ctx, &r[..P::N])
    }

    /// Hedged SLH-DSA with `addrnd` from the operating system.
    #[cfg(feature = "getrandom")]
    pub fn sign_hedged(&self, msg: &[u8], ctx: &[u8]) -> Result<Signature<P>, Error> {
        check_ctx(ctx)?;
        let r = rand_os::<P>()?;
        self.sign_with_rnd(msg, ctx, &r[..P::N])
    }

    /// RustCrypto `slh-dsa`'s `try_sign_with_context`: pure SLH-DSA,
    /// deterministic when `opt_rand` is `None`.
    pub fn try_sign_with_context(
        &self,
        msg: &[u8],
        ctx: &[u8],
        opt_rand: Option<&[u8]>,
    ) -> Result<Signature<P>, Error> {
        match opt_rand {
            Some(r) => self.sign_with_rnd(msg, ctx, r),
            None => self.sign_deterministic(msg, ctx),
        }
    }

    /// FIPS 205 Alg. 23 `hash_slh_sign` given `PH(M)`, with explicit
    /// `addrnd` (`n` bytes).
    pub fn sign_prehashed_with_rnd(
        &self,
        ph: &PreHash,
        ctx: &[u8],
        addrnd: &[u8],
    ) -> Result<Signature<P>, Error> {
        let len = check_ctx(ctx)?;
        if addrnd.len() != P::N {
            return Err(Error::InvalidLength);
        }
        let head = [1u8, len];
        let oid = ph.alg().oid_der();
        Ok(self.sign_internal_parts(&[&head, ctx, &oid, ph.as_bytes()], addrnd))
    }

    /// Deterministic HashSLH-DSA given `PH(M)`.
    pub fn sign_prehashed_deterministic(
        &self,
        ph: &PreHash,
        ctx: &[u8],
    ) -> Result<Signature<P>, Error> {
        let seed = pk_seed_array::<P>(self.pk_seed());
        self.sign_prehashed_with_rnd(ph, ctx, &seed[..P::N])
    }

    /// Deterministic HashSLH-DSA: hashes `msg` with `alg`.
    pub fn sign_prehash_deterministic(
        &self,
        alg: HashAlg,
        msg: &[u8],
        ctx: &[u8],
    ) -> Result<Signature<P>, Error> {
        check_ctx(ctx)?;
        self.sign_prehashed_deterministic(&alg.digest(msg), ctx)
    }

    /// Hedged HashSLH-DSA: hashes `msg` with `alg`, `addrnd` from `rng`.
    pub fn sign_prehash_randomized<R: TryCryptoRng + ?Sized>(
        &self,
        alg: HashAlg,
        msg: &[u8],
        ctx: &[u8],
        rng: &mut R,
    ) -> Result<Signature<P>, Error> {
        check_ctx(ctx)?;
        let r = rand_from::<P, R>(rng)?;
        self.sign_prehashed_with_rnd(&alg.digest(msg), ctx, &r[..P::N])
    }

    /// Hedged HashSLH-DSA with OS randomness.
    #[cfg(feature = "getrandom")]
    pub fn sign_prehash_hedged(
        &self,
        alg: HashAlg,
        msg: &[u8],
        ctx: &[u8],
    ) -> Result<Signature<P>, Error> {
        check_ctx(ctx)?;
        let r = rand_os::<P>()?;
        self.sign_prehashed_with_rnd(&alg.digest(msg), ctx, &r[..P::N])
    }

    /// A signer for the traits with context `ctx` (at most 255 bytes).
    pub fn with_context<'a>(&'a self, ctx: &'a [u8]) -> Result<ContextSigningKey<'a, P>, Error> {
        check_ctx(ctx)?;
        Ok(ContextSigningKey { key: self, ctx })
    }
}

/// `PK.seed` copied out (public; no wiping needed).
fn pk_seed_array<P: ParameterSet>(seed: &[u8]) -> [u8; MAX_N] {
    let mut out = [0u8; MAX_N];
    out[..P::N].copy_from_slice(seed);
    out
}

/// A [`SigningKey`] with a context string, for the `Signer` traits.
#[derive(Clone, Copy, Debug)]
pub struct ContextSigningKey<'a, P: ParameterSet> {
    pub(crate) key: &'a SigningKey<P>,
    pub(crate) ctx: &'a [u8],
}
