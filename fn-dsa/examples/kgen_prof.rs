//! Profiling helper: generate many keys from fixed seeds.
#![allow(clippy::unwrap_used)]
use pqkit_fn_dsa::{fn_dsa_512, fn_dsa_1024};

fn main() {
    let logn: u32 = std::env::args().nth(1).map_or(9, |s| s.parse().unwrap());
    let count: u32 = std::env::args().nth(2).map_or(200, |s| s.parse().unwrap());
    let t = std::time::Instant::now();
    for i in 0..count {
        let mut seed = [0u8; 32];
        seed[..4].copy_from_slice(&i.to_le_bytes());
        if logn == 9 {
            let _ = fn_dsa_512::SigningKey::from_seed(&seed).unwrap();
        } else {
            let _ = fn_dsa_1024::SigningKey::from_seed(&seed).unwrap();
        }
    }
    println!("{:?} per key", t.elapsed() / count);
}
