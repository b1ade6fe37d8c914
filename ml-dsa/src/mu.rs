//! External mu (FIPS 204 Alg. 7 line 6): `mu = H(tr || M', 64)`.

use pqkit_common::keccak::Shake256;

use crate::{Error, ParameterSet, PreHash, VerifyingKey};

/// The 64-byte message representative mu.
pub type Mu = [u8; 64];

/// Incremental computation of mu for the pure ML-DSA interface:
/// `mu = H(tr || 0 || |ctx| || ctx || M)`, with `M` given in pieces.
///
/// ```
/// use pqkit_ml_dsa::{MlDsa44, SigningKey, MuBuilder};
/// let sk = SigningKey::<MlDsa44>::from_seed(&[7u8; 32].into());
/// let vk = sk.verifying_key();
/// let mut b = MuBuilder::from_verifying_key(&vk, b"ctx")?;
/// b.update(b"hello, ");
/// b.update(b"world");
/// let mu = b.finalize();
/// let sig = sk.sign_mu_deterministic(&mu)?;
/// assert!(vk.verify_with_context(b"hello, world", b"ctx", &sig));
/// # Ok::<(), pqkit_ml_dsa::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct MuBuilder {
    h: Shake256,
}

impl MuBuilder {
    /// Start from `tr = H(pk, 64)` and a context of at most 255 bytes.
    pub fn new(tr: &[u8; 64], ctx: &[u8]) -> Result<Self, Error> {
        let len = u8::try_from(ctx.len()).map_err(|_| Error::ContextTooLong)?;
        let mut h = Shake256::default();
        h.update(tr);
        h.update(&[0, len]);
        h.update(ctx);
        Ok(Self { h })
    }

    /// Start from a public key and a context of at most 255 bytes.
    pub fn from_verifying_key<P: ParameterSet>(
        vk: &VerifyingKey<P>,
        ctx: &[u8],
    ) -> Result<Self, Error> {
        Self::new(&vk.tr(), ctx)
    }

    /// Start from `tr` for an arbitrary, already formatted `M'`
    /// (`Sign_internal` semantics).
    pub fn new_internal(tr: &[u8; 64]) -> Self {
        let mut h = Shake256::default();
        h.update(tr);
        Self { h }
    }

    /// Absorb the next piece of the message.
    pub fn update(&mut self, piece: &[u8]) -> &mut Self {
        self.h.update(piece);
        self
    }

    /// The SHAKE256 state mu is being absorbed into (what the RustCrypto
    /// `DigestSigner<Shake256>` closures feed).
    ///
    /// ```
    /// use pqkit_ml_dsa::{MlDsa44, MuBuilder, SigningKey};
    /// use pqkit_common::keccak::Update;
    /// let sk = SigningKey::<MlDsa44>::from_seed(&[1u8; 32].into());
    /// let mut b = MuBuilder::from_verifying_key(&sk.verifying_key(), b"")?;
    /// b.hasher_mut().update(b"message");
    /// let sig = sk.sign_mu_deterministic(&b.finalize())?;
    /// assert_eq!(sig, sk.sign_deterministic(b"message", b"")?);
    /// # Ok::<(), pqkit_ml_dsa::Error>(())
    /// ```
    pub fn hasher_mut(&mut self) -> &mut Shake256 {
        &mut self.h
    }

    /// Finish: mu.
    pub fn finalize(self) -> Mu {
        let mut mu = [0u8; 64];
        self.h.finalize_xof().read(&mut mu);
        mu
    }

    /// mu for HashML-DSA: `H(tr || 1 || |ctx| || ctx || OID || PH(M))`.
    pub fn prehashed(tr: &[u8; 64], ctx: &[u8], ph: &PreHash) -> Result<Mu, Error> {
        let len = u8::try_from(ctx.len()).map_err(|_| Error::ContextTooLong)?;
        let mut h = Shake256::default();
        h.update(tr);
        h.update(&[1, len]);
        h.update(ctx);
        h.update(&ph.alg().oid_der());
        h.update(ph.as_bytes());
        let mut mu = [0u8; 64];
        h.finalize_xof().read(&mut mu);
        Ok(mu)
    }
}

/// As in RustCrypto `ml-dsa`: the mu hasher for streaming a message.
impl AsMut<Shake256> for MuBuilder {
    fn as_mut(&mut self) -> &mut Shake256 {
        &mut self.h
    }
}
