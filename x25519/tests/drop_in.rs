//! x25519-dalek-style code, compiled against pqkit with the crate name
//! changed (`x25519_dalek` → `pqkit_x25519`): the names, signatures and
//! trait impls a user of dalek relies on.
#![cfg(feature = "getrandom")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// The paths are spelt as x25519-dalek's users and docs spell them.
#![allow(unused_qualifications)]

use pqkit_x25519::{
    EphemeralSecret, PublicKey, ReusableSecret, SharedSecret, StaticSecret, X25519_BASEPOINT_BYTES,
    x25519,
};
use zeroize::{Zeroize, ZeroizeOnDrop};

fn is_zod<T: ZeroizeOnDrop>() {}
fn is_zeroize<T: Zeroize>() {}

#[test]
fn dalek_readme_flow() {
    let mut csprng = getrandom::rand_core::UnwrapErr(getrandom::SysRng);
    let alice_secret = EphemeralSecret::random_from_rng(&mut csprng);
    let alice_public = PublicKey::from(&alice_secret);
    let bob_secret = EphemeralSecret::random();
    let bob_public = PublicKey::from(&bob_secret);
    let alice_shared_secret: SharedSecret = alice_secret.diffie_hellman(&bob_public);
    let bob_shared_secret = bob_secret.diffie_hellman(&alice_public);
    assert_eq!(alice_shared_secret.as_bytes(), bob_shared_secret.as_bytes());
    assert!(alice_shared_secret.was_contributory());
    let _: &[u8] = alice_shared_secret.as_ref();
    let _: [u8; 32] = bob_shared_secret.to_bytes();
}

#[test]
fn static_and_reusable() {
    let mut rng = getrandom::rand_core::UnwrapErr(getrandom::SysRng);
    let s: StaticSecret = StaticSecret::random_from_rng(&mut rng);
    let s2 = StaticSecret::random();
    let r: ReusableSecret = ReusableSecret::random_from_rng(&mut rng);
    let r2 = ReusableSecret::random().clone();
    let (ps, pr): (PublicKey, PublicKey) = ((&s).into(), PublicKey::from(&r));
    assert_eq!(
        s.diffie_hellman(&pr).to_bytes(),
        r.diffie_hellman(&ps).to_bytes()
    );
    let bytes: [u8; 32] = s.to_bytes();
    let again = StaticSecret::from(bytes);
    assert_eq!(again.as_bytes(), s.as_bytes());
    let _: &[u8] = s.as_ref();
    let pk = PublicKey::from(*ps.as_bytes());
    assert_eq!(pk, ps);
    let _: &[u8] = pk.as_ref();
    // The bare function with the base point gives the same public key.
    assert_eq!(
        x25519(s2.to_bytes(), X25519_BASEPOINT_BYTES),
        PublicKey::from(&s2).to_bytes()
    );
    let _ = r2.diffie_hellman(&pk);
}

#[test]
fn traits() {
    is_zod::<StaticSecret>();
    is_zod::<ReusableSecret>();
    is_zod::<EphemeralSecret>();
    is_zod::<SharedSecret>();
    is_zeroize::<PublicKey>();
    is_zeroize::<StaticSecret>();
    let mut pk = PublicKey::from([3; 32]);
    pk.zeroize();
    assert_eq!(pk.to_bytes(), [0; 32]);
    let mut s = StaticSecret::from([3; 32]);
    s.zeroize();
    assert_eq!(s.to_bytes(), [0; 32]);
    // rand_core is re-exported, as in dalek.
    fn takes_rng<R: pqkit_x25519::rand_core::CryptoRng>(r: &mut R) -> StaticSecret {
        StaticSecret::random_from_rng(r)
    }
    let _ = takes_rng(&mut getrandom::rand_core::UnwrapErr(getrandom::SysRng));
}
