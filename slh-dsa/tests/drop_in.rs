//! RustCrypto `slh-dsa`'s README example with only the crate name changed
//! (and a test RNG for `rand::rng()`): the glob imports, names and trait
//! methods resolve the same way.
// `try_into` as in the example, although the conversion cannot fail here.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::unnecessary_fallible_conversions
)]

use pqkit_slh_dsa::signature::*;
use pqkit_slh_dsa::*;

#[test]
fn readme_example() {
    let mut rng = pqkit_testkit::rng::TestRng(11);

    // Generate a signing key using the SHAKE128f parameter set
    let sk = SigningKey::<Shake128f>::new(&mut rng);

    // Generate the corresponding public key
    let vk = sk.verifying_key();

    // Serialize the verifying key and distribute
    let vk_bytes = vk.to_bytes();

    // Sign a message
    let message = b"Hello world";
    let sig = sk.sign_with_rng(&mut rng, message); // .sign() can be used for deterministic signatures

    // Deserialize a verifying key
    let vk_deserialized = vk_bytes.try_into().unwrap();
    assert_eq!(vk, vk_deserialized);

    assert!(vk_deserialized.verify(message, &sig).is_ok());
    assert_eq!(SignatureEncoding::to_bytes(&sig).as_ref().len(), 17088);
}
