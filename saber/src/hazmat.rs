//! Derandomised entry points, for test vectors and protocols that must fix
//! the randomness. Reusing randomness breaks security.

use crate::{Ciphertext, DecapsulationKey, EncapsulationKey, ParameterSet, SharedSecret};

/// Key generation from its 96 random bytes: `seed_A` (before the SHAKE128
/// hashing the reference applies), `seed_s`, `z`, in that order.
pub fn keygen_internal<P: ParameterSet>(
    coins: &[u8; 96],
) -> (DecapsulationKey<P>, EncapsulationKey<P>) {
    let dk = DecapsulationKey::<P>::from_seed(coins);
    let ek = dk.encapsulation_key().clone();
    (dk, ek)
}

/// Encapsulation from its 32 random bytes (the reference hashes them with
/// SHA3-256 into the message): `(ciphertext, shared key)`.
pub fn encaps_internal<P: ParameterSet>(
    ek: &EncapsulationKey<P>,
    coins: &[u8; 32],
) -> (Ciphertext<P>, SharedSecret) {
    ek.encapsulate_deterministic(coins)
}
