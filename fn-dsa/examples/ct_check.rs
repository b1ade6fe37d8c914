//! Constant-time check cases for FN-DSA (TIMECOP method), to run under
//! valgrind memcheck:
//!
//! ```text
//! cargo build --release -p pqkit-fn-dsa --features ct-check --example ct_check
//! for c in decode sign sign-1024; do
//!   valgrind -q --error-exitcode=99 target/release/examples/ct_check $c || echo LEAK
//! done
//! ```
//!
//! The signing-key bytes (after the public header) and every byte the RNG
//! returns are marked secret; any branch or address depending on them is
//! reported, except the documented declassifications
//! (`pqkit_common::ct::declassify`). Build with `--features float-emu` too
//! to check the emulated-float signing path. Key generation is not checked
//! (not constant-time yet).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqkit_common::ctgrind::{poison, unpoison};
use pqkit_common::keccak::{ExtendableOutput, Shake256, Update, XofReader};
use pqkit_fn_dsa::{Message, fn_dsa_512, fn_dsa_1024};
use std::convert::Infallible;

/// A deterministic RNG whose output is marked secret.
struct SecretRng(<Shake256 as ExtendableOutput>::Reader);

impl rand_core::TryRng for SecretRng {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }
    fn try_fill_bytes(&mut self, d: &mut [u8]) -> Result<(), Infallible> {
        self.0.read(d);
        poison(d);
        Ok(())
    }
}
impl rand_core::TryCryptoRng for SecretRng {}

fn rng() -> SecretRng {
    let mut h = Shake256::default();
    h.update(b"pqkit fn-dsa ct check");
    SecretRng(h.finalize_xof())
}

fn main() {
    let case = std::env::args().nth(1).unwrap_or_default();
    match case.as_str() {
        "decode" => {
            let sk = fn_dsa_512::SigningKey::from_seed(&[7u8; 32]).unwrap();
            let mut bytes = sk.to_bytes().to_vec();
            poison(&mut bytes[1..]);
            let k = fn_dsa_512::SigningKey::from_bytes(&bytes).unwrap();
            println!("decode: ok ({:02x})", k.verifying_key().as_bytes()[1]);
        }
        "sign" => {
            let sk = fn_dsa_512::SigningKey::from_seed(&[7u8; 32]).unwrap();
            let mut bytes = sk.to_bytes().to_vec();
            poison(&mut bytes[1..]);
            let k = fn_dsa_512::SigningKey::from_bytes(&bytes).unwrap();
            let mut sig = k
                .sign_message_with_rng(&mut rng(), &Message::raw(b"msg"))
                .unwrap()
                .to_bytes();
            unpoison(&mut sig);
            println!("sign: ok ({:02x}{:02x})", sig[41], sig[42]);
        }
        "sign-1024" => {
            let sk = fn_dsa_1024::SigningKey::from_seed(&[9u8; 32]).unwrap();
            let mut bytes = sk.to_bytes().to_vec();
            poison(&mut bytes[1..]);
            let k = fn_dsa_1024::SigningKey::from_bytes(&bytes).unwrap();
            let m = Message::Raw {
                ctx: b"ctx",
                msg: b"msg",
            };
            let mut sig = k.sign_message_with_rng(&mut rng(), &m).unwrap().to_bytes();
            unpoison(&mut sig);
            println!("sign-1024: ok ({:02x}{:02x})", sig[41], sig[42]);
        }
        _ => {
            eprintln!("usage: ct_check decode|sign|sign-1024");
            std::process::exit(2);
        }
    }
}
