//! FIPS 205 internal functions (Algorithms 18–20). These skip the domain
//! separation of the external interface (`0 || |ctx| || ctx`): only use
//! them to build another interface on top, or for test vectors.

use crate::{Error, ParameterSet, Signature, SigningKey, VerifyingKey};

/// FIPS 205 Alg. 18 `slh_keygen_internal(SK.seed, SK.prf, PK.seed)`
/// (the same as [`SigningKey::from_seed`]).
pub fn slh_keygen_internal<P: ParameterSet>(
    sk_seed: &[u8],
    sk_prf: &[u8],
    pk_seed: &[u8],
) -> Result<SigningKey<P>, Error> {
    SigningKey::from_seed(sk_seed, sk_prf, pk_seed)
}

/// FIPS 205 Alg. 19 `slh_sign_internal(M, SK, addrnd)`, `M` given in parts;
/// `opt_rand = None` is the deterministic variant (`PK.seed`). An
/// `addrnd` that is not `n` bytes is [`Error::InvalidLength`].
pub fn slh_sign_internal<P: ParameterSet>(
    sk: &SigningKey<P>,
    msg: &[&[u8]],
    opt_rand: Option<&[u8]>,
) -> Result<Signature<P>, Error> {
    let pk_seed = &sk.as_bytes()[2 * P::N..3 * P::N];
    let r = opt_rand.unwrap_or(pk_seed);
    if r.len() != P::N {
        return Err(Error::InvalidLength);
    }
    Ok(sk.sign_internal_parts(msg, r))
}

/// [`slh_sign_internal`] writing the signature into `out` (exactly
/// `P::SIG_LEN` bytes, else [`Error::InvalidLength`]): for small stacks,
/// where the caller places the up to 49856-byte signature (a static or a
/// heap buffer) and no `Signature` value is moved around.
pub fn slh_sign_internal_into<P: ParameterSet>(
    sk: &SigningKey<P>,
    msg: &[&[u8]],
    opt_rand: Option<&[u8]>,
    out: &mut [u8],
) -> Result<(), Error> {
    let pk_seed = &sk.as_bytes()[2 * P::N..3 * P::N];
    let r = opt_rand.unwrap_or(pk_seed);
    if r.len() != P::N || out.len() != P::SIG_LEN {
        return Err(Error::InvalidLength);
    }
    crate::algo::sign_internal::<P>(sk.as_bytes(), sk.top(), msg, r, out);
    Ok(())
}

/// FIPS 205 Alg. 20 `slh_verify_internal(M, SIG, PK)` on signature bytes:
/// [`Error::InvalidLength`] or [`Error::InvalidSignature`], never a panic.
pub fn slh_verify_internal<P: ParameterSet>(
    vk: &VerifyingKey<P>,
    msg: &[&[u8]],
    sig: &[u8],
) -> Result<(), Error> {
    vk.verify_internal_parts(msg, sig)
}
