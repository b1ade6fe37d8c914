//! A loop of Saber keygen / encaps / decaps for profilers (`perf record`):
//! `cargo run --release -p pqkit-saber --example profile -- [keygen|encaps|decaps] [n]`.
use pqkit_saber::{DecapsulationKey, Saber, hazmat};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let op = args.get(1).map(String::as_str).unwrap_or("keygen");
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let dk = DecapsulationKey::<Saber>::from_seed(&[1; 96]);
    let (ct, _) = hazmat::encaps_internal(dk.encapsulation_key(), &[2; 32]);
    let start = std::time::Instant::now();
    let mut acc = 0u8;
    for i in 0..n {
        let b = i as u8;
        acc ^= match op {
            "encaps" => hazmat::encaps_internal(dk.encapsulation_key(), &[b; 32])
                .1
                .as_bytes()[0],
            "decaps" => dk.decapsulate_bytes(&ct).map_or(0, |k| k.as_bytes()[0]),
            _ => DecapsulationKey::<Saber>::from_seed(&[b; 96]).as_bytes()[0],
        };
    }
    let us = start.elapsed().as_secs_f64() * 1e6 / n as f64;
    println!("{op}: {us:.1} us ({acc})");
}
