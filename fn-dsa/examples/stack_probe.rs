//! One-operation binary for peak-stack measurement under
//! `valgrind --tool=massif --stacks=yes` (same method as
//! scripts/stack-probe.sh: a 1 MiB heap block marks the measured phase).
//! Usage: stack_probe noop|verify|sign|sign-compact|decode|keygen [512|1024]

#![allow(clippy::unwrap_used, clippy::expect_used)]

use pqkit_fn_dsa::Generate;
use pqkit_fn_dsa::{Message, fn_dsa_512, fn_dsa_1024};

macro_rules! run {
    ($m:ident, $op:expr) => {{
        let sk = $m::SigningKey::from_seed(&[1u8; 32]);
        let skb = sk.to_bytes();
        let vk = sk.verifying_key();
        let vkb = vk.to_bytes();
        let mut rng = getrandom::SysRng;
        let sig = sk
            .sign_message_randomized(&Message::raw(b"m"), &mut rng)
            .unwrap();
        let compact = sk.clone().into_compact();
        let marker = std::hint::black_box(vec![1u8; 1 << 20]);
        for _ in 0..3 {
            match $op {
                "noop" => {}
                "verify" => {
                    let v = $m::VerifyingKey::from_bytes(std::hint::black_box(&vkb)).unwrap();
                    v.verify_message(&Message::raw(b"m"), &sig).unwrap();
                }
                "decode" => {
                    std::hint::black_box($m::SigningKey::from_bytes(&skb[..]).unwrap());
                }
                "sign" => {
                    std::hint::black_box(
                        sk.sign_message_randomized(&Message::raw(b"m"), &mut rng)
                            .unwrap(),
                    );
                }
                "sign-compact" => {
                    std::hint::black_box(
                        compact
                            .sign_message_randomized(&Message::raw(b"m"), &mut rng)
                            .unwrap(),
                    );
                }
                "keygen" => {
                    std::hint::black_box($m::SigningKey::try_generate_from_rng(&mut rng).unwrap());
                }
                _ => panic!("unknown operation"),
            }
        }
        drop(marker);
    }};
}

fn main() {
    let op = std::env::args().nth(1).unwrap_or_default();
    let deg = std::env::args().nth(2).unwrap_or_else(|| "512".into());
    if deg == "1024" {
        run!(fn_dsa_1024, op.as_str())
    } else {
        run!(fn_dsa_512, op.as_str())
    }
}
