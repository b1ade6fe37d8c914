//! FIPS 204 internal functions. These skip the domain separation of the
//! external interface: only use them to implement another interface on top
//! (or for test vectors).

use crate::{Error, MuBuilder, ParameterSet, Signature, SigningKey, VerifyingKey};

/// FIPS 204 Alg. 6 ML-DSA.KeyGen_internal(xi) (same as
/// [`SigningKey::from_seed`]).
pub fn keygen_internal<P: ParameterSet>(xi: &[u8; 32]) -> Result<SigningKey<P>, Error> {
    SigningKey::from_seed(xi)
}

/// FIPS 204 Alg. 7 ML-DSA.Sign_internal(sk, M', rnd) with `M'` given in
/// pieces (already formatted by the caller).
pub fn sign_internal<P: ParameterSet>(
    sk: &SigningKey<P>,
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
    let mut b = MuBuilder::new_internal(vk.tr());
    for m in m_prime {
        b.update(m);
    }
    vk.verify_mu_bytes(&b.finalize(), sig)
}
