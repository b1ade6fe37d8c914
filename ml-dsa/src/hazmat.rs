//! FIPS 204 internal functions. These skip the domain separation of the
//! external interface: only use them to implement another interface on top
//! (or for test vectors).

use core::marker::PhantomData;

use pqkit_common::wipe::{Store, WipedBytes, store_default};
use pqkit_common::{Backend, ByteArray, Kernel, dispatch};

use crate::algo::{self, SecretParts, SignForms};
use crate::keys::keygen_into;
use crate::{
    EncodedVerifyingKey, Error, ExpandedSigningKey, ExpandedSigningKeyBytes, Mu, MuBuilder,
    ParameterSet, Signature, SigningKey, VerifyingKey,
};

/// FIPS 204 Alg. 6 ML-DSA.KeyGen_internal(xi) (same as
/// [`SigningKey::from_seed`]).
pub fn keygen_internal<P: ParameterSet>(xi: &[u8; 32]) -> SigningKey<P> {
    SigningKey::from_seed(&(*xi).into())
}

/// FIPS 204 Alg. 6 ML-DSA.KeyGen_internal(xi) as the standard writes
/// it: the encodings only, `pk = pkEncode(rho, t1)` and the expanded
/// private key `sk = skEncode(rho, K, tr, s1, s2, t0)` (wiped on drop).
///
/// The same bytes as [`SigningKey::from_seed`]'s public key and
/// [`expanded_bytes`](ExpandedSigningKey::expanded_bytes):
/// `SigningKey::from_seed` runs this, and its key makes the NTT-domain
/// forms it signs and verifies with from these bytes on first use. For
/// code that wants the encodings only (a certificate request, a PKCS#8
/// file with the expanded key), without a key object.
///
/// ```
/// use pqkit_ml_dsa::{hazmat, MlDsa44, SigningKey};
/// let xi = [7u8; 32];
/// let (pk, sk) = hazmat::keygen_internal_encoded::<MlDsa44>(&xi);
/// let key = SigningKey::<MlDsa44>::from_seed(&xi.into());
/// assert_eq!(pk, key.verifying_key().encode());
/// assert_eq!(sk[..], key.expanded_bytes()[..]);
/// ```
pub fn keygen_internal_encoded<P: ParameterSet>(
    xi: &[u8; 32],
) -> (
    EncodedVerifyingKey<P>,
    WipedBytes<ExpandedSigningKeyBytes<P>>,
) {
    let mut pk = P::PublicKeyBytes::zeroed();
    let mut sk = WipedBytes(P::ExpandedKeyBytes::zeroed());
    // rho, K, tr and NTT(s1): working memory here (wiped when dropped).
    let mut parts: Store<SecretParts> = store_default();
    keygen_into::<P>(xi, pk.as_mut(), sk.as_mut(), &mut parts);
    (pk, sk)
}

/// FIPS 204 Alg. 7 ML-DSA.Sign_internal(sk, M', rnd) with `M'` given in
/// pieces (already formatted by the caller).
pub fn sign_internal<P: ParameterSet>(
    sk: &ExpandedSigningKey<P>,
    m_prime: &[&[u8]],
    rnd: &[u8; 32],
) -> Result<Signature<P>, Error> {
    let mut b = MuBuilder::new_internal(sk.tr());
    for m in m_prime {
        b.update(m);
    }
    sk.sign_mu_with_rnd(&b.finalize(), rnd)
}

/// FIPS 204 Alg. 8 ML-DSA.Verify_internal(pk, M', sigma), raw signature
/// bytes.
pub fn verify_internal<P: ParameterSet>(
    vk: &VerifyingKey<P>,
    m_prime: &[&[u8]],
    sig: &[u8],
) -> Result<(), Error> {
    let mut b = MuBuilder::new_internal(&vk.tr());
    for m in m_prime {
        b.update(m);
    }
    vk.verify_mu_bytes(&b.finalize(), sig)
}

struct SignExpandedK<'a, P> {
    sk: &'a [u8],
    ctx: &'a [u8],
    msg: &'a [&'a [u8]],
    rnd: &'a [u8; 32],
    sig: &'a mut [u8],
    _p: PhantomData<P>,
}

impl<P: ParameterSet> Kernel for SignExpandedK<'_, P> {
    type Output = Result<(), Error>;
    fn run<B: Backend>(self, b: B) -> Self::Output {
        let mut parts = SecretParts::default();
        let mut forms = SignForms::default();
        algo::decode_sk_unchecked::<B, P>(b, self.sk, &mut parts, &mut forms)?;
        let mut mb = MuBuilder::new(&parts.tr, self.ctx)?;
        for m in self.msg {
            mb.update(m);
        }
        let mu: Mu = mb.finalize();
        algo::sign_mu::<B, P>(b, &parts, &forms, &mu, self.rnd, self.sig)
    }
}

/// FIPS 204 Alg. 2 ML-DSA.Sign straight from the expanded private-key bytes
/// `skEncode(rho, K, tr, s1, s2, t0)`, without building a [`SigningKey`]:
/// the message is given in pieces, `rnd` is fresh randomness (or all zero
/// for the deterministic variant).
///
/// Only the encoding is checked (lengths, and s1/s2 coefficients in
/// `[-eta, eta]`): t0 and tr are *not* recomputed from rho, s1 and s2, so
/// an inconsistent key yields signatures that do not verify under any
/// public key. This is the cost model of signing from raw key bytes in
/// other libraries; use [`ExpandedSigningKey::from_expanded`] to import a key with
/// full validation (which also derives its public key).
///
/// ```
/// use pqkit_ml_dsa::{hazmat, MlDsa65, SigningKey};
/// let sk = SigningKey::<MlDsa65>::from_seed(&[7u8; 32].into());
/// let sig = hazmat::sign_expanded::<MlDsa65>(
///     sk.expanded_bytes().as_ref(),
///     &[b"hello"],
///     b"",
///     &[0u8; 32],
/// )?;
/// assert!(sk.verifying_key().verify_with_context(b"hello", b"", &sig));
/// # Ok::<(), pqkit_ml_dsa::Error>(())
/// ```
pub fn sign_expanded<P: ParameterSet>(
    sk: &[u8],
    msg: &[&[u8]],
    ctx: &[u8],
    rnd: &[u8; 32],
) -> Result<Signature<P>, Error> {
    let mut bytes = <P::SignatureBytes as ByteArray>::zeroed();
    dispatch(SignExpandedK::<P> {
        sk,
        ctx,
        msg,
        rnd,
        sig: bytes.as_mut(),
        _p: PhantomData,
    })?;
    Signature::from_bytes(bytes.as_ref())
}
