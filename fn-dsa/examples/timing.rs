//! Rough timings beside fn-dsa 0.3.0 (the real benches belong in the
//! workspace `benches/` crate): `cargo run --release -p pqkit-fn-dsa --example timing`.
//! Note: the dev-dependencies build fn-dsa-sign with `no_avx2` (see
//! Cargo.toml), so fn-dsa's signing here is its portable code; its key
//! generation and verification still use AVX2.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use fn_dsa::{KeyPairGenerator as _, SigningKey as _, VerifyingKey as _};
use pqkit_fn_dsa::Generate;
use std::time::Instant;

fn time<F: FnMut()>(label: &str, iters: u32, mut f: F) -> f64 {
    f();
    let t = Instant::now();
    for _ in 0..iters {
        f();
    }
    let us = t.elapsed().as_secs_f64() * 1e6 / iters as f64;
    println!("{label:<40} {us:>10.1} us");
    us
}

macro_rules! run {
    ($module:ident, $logn:expr, $kg:expr) => {{
        use pqkit_fn_dsa::$module::{SigningKey, VerifyingKey};
        let mut rng = getrandom::SysRng;
        let sk = SigningKey::try_generate_from_rng(&mut rng).unwrap();
        let vk = sk.verifying_key();
        let skb = sk.to_bytes();
        let vkb = vk.to_bytes();
        let sig = sk.sign_randomized(b"message", b"", &mut rng).unwrap();
        time(concat!(stringify!($module), " keygen (pqkit)"), $kg, || {
            let _ = SigningKey::try_generate_from_rng(&mut rng).unwrap();
        });
        let mut kg = fn_dsa::KeyPairGeneratorStandard::default();
        let mut osrng = Rng06;
        time(
            concat!(stringify!($module), " keygen (fn-dsa 0.3)"),
            $kg,
            || {
                let mut a = vec![0u8; skb.len()];
                let mut b = vec![0u8; vkb.len()];
                kg.keygen($logn, &mut osrng, &mut a, &mut b);
            },
        );
        time(
            concat!(stringify!($module), " sign, reused key (pqkit)"),
            2000,
            || {
                let _ = sk.sign_randomized(b"message", b"", &mut rng).unwrap();
            },
        );
        let mut theirs = fn_dsa::SigningKeyStandard::decode(&skb[..]).unwrap();
        let mut out = vec![0u8; sig.as_bytes().len()];
        time(
            concat!(stringify!($module), " sign, reused key (fn-dsa 0.3)"),
            2000,
            || {
                theirs.sign(
                    &mut osrng,
                    &fn_dsa::DOMAIN_NONE,
                    &fn_dsa::HASH_ID_RAW,
                    b"message",
                    &mut out,
                );
            },
        );
        time(
            concat!(stringify!($module), " sign, fresh decode (pqkit)"),
            500,
            || {
                let k = SigningKey::from_bytes(&skb[..]).unwrap();
                let _ = k.sign_randomized(b"message", b"", &mut rng).unwrap();
            },
        );
        time(
            concat!(stringify!($module), " verify, reused key (pqkit)"),
            5000,
            || {
                vk.verify_with_context(b"message", b"", &sig).unwrap();
            },
        );
        let their_vk = fn_dsa::VerifyingKeyStandard::decode(&vkb).unwrap();
        time(
            concat!(stringify!($module), " verify, reused key (fn-dsa 0.3)"),
            5000,
            || {
                assert!(their_vk.verify(
                    sig.as_bytes(),
                    &fn_dsa::DOMAIN_NONE,
                    &fn_dsa::HASH_ID_RAW,
                    b"message"
                ));
            },
        );
        time(
            concat!(stringify!($module), " verify, fresh decode (pqkit)"),
            5000,
            || {
                VerifyingKey::from_bytes(&vkb)
                    .unwrap()
                    .verify_with_context(b"message", b"", &sig)
                    .unwrap();
            },
        );
        println!(
            "size_of::<SigningKey>() = {} B (+ {} B expanded key on the heap)",
            std::mem::size_of::<SigningKey>(),
            (4 + $logn + 1) * (1usize << $logn) * 8
        );
    }};
}

/// OS randomness through the rand_core 0.6 traits fn-dsa 0.3 uses.
struct Rng06;
impl fn_dsa::RngCore for Rng06 {
    fn next_u32(&mut self) -> u32 {
        rand_core::Rng::next_u32(&mut rand_core::UnwrapErr(getrandom::SysRng))
    }
    fn next_u64(&mut self) -> u64 {
        rand_core::Rng::next_u64(&mut rand_core::UnwrapErr(getrandom::SysRng))
    }
    fn fill_bytes(&mut self, d: &mut [u8]) {
        rand_core::Rng::fill_bytes(&mut rand_core::UnwrapErr(getrandom::SysRng), d)
    }
    fn try_fill_bytes(&mut self, d: &mut [u8]) -> Result<(), fn_dsa::RngError> {
        self.fill_bytes(d);
        Ok(())
    }
}
impl fn_dsa::CryptoRng for Rng06 {}

fn main() {
    run!(fn_dsa_512, 9, 100);
    run!(fn_dsa_1024, 10, 30);
}
