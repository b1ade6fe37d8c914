//! Derandomised internals (FIPS 203 §6): for test vectors and protocols
//! that must fix the randomness. Misuse (reusing `m`) breaks security.

use crate::{Ciphertext, DecapsulationKey, EncapsulationKey, ParameterSet, SharedSecret};

/// ML-KEM.KeyGen_internal(d, z).
pub fn keygen_internal<P: ParameterSet>(
    d: &[u8; 32],
    z: &[u8; 32],
) -> (DecapsulationKey<P>, EncapsulationKey<P>) {
    let mut seed = crate::Seed::default();
    seed[..32].copy_from_slice(d);
    seed[32..].copy_from_slice(z);
    // `from_seed` wipes its argument.
    let dk = DecapsulationKey::<P>::from_seed(seed);
    let ek = dk.encapsulation_key().clone();
    (dk, ek)
}

/// ML-KEM.Encaps_internal(ek, m): `(ciphertext, shared key)`.
pub fn encaps_internal<P: ParameterSet>(
    ek: &EncapsulationKey<P>,
    m: &[u8; 32],
) -> (Ciphertext<P>, SharedSecret) {
    ek.encaps_internal(m)
}
