//! Saber keygen / encaps / decaps: pqkit beside PQClean (`pqcrypto-saber`
//! 0.1.11, its AVX2 code picked at run time on this CPU) in one process, for
//! all three variants. Prints pqkit / PQClean ratios at the end.
//!
//! PQClean draws its randomness inside each call (the OS RNG: 96 bytes for
//! keygen, 32 for encaps), so pqkit's rows draw theirs from the OS too.
//! Decapsulation cycles through 16 distinct ciphertexts on both sides.
//!
//! rusty-saber 1.0 (pure Rust) compiles exactly one variant per build: Saber
//! by default, LightSaber with `--features rusty-saber/lightsaber`,
//! FireSaber with `--features rusty-saber/firesaber`; it appears in that
//! variant's group (with its own NIST AES DRBG as the RNG, as its API
//! requires).
#![allow(missing_docs, clippy::expect_used, clippy::unwrap_used)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use pqcrypto_traits::kem::{Ciphertext as _, SecretKey as _};
use pqkit_benches::mean_us;
use pqkit_saber::Generate;

macro_rules! bench_set {
    ($fn:ident, $name:literal, $ours:ty, $pq:ident) => {
        fn $fn(c: &mut Criterion, table: &mut Vec<String>) {
            use pqcrypto_saber::$pq as pq;
            use pqkit_saber::DecapsulationKey;
            let mut g = c.benchmark_group($name);

            let keygen_ours = || DecapsulationKey::<$ours>::generate();
            let keygen_pq = || pq::keypair();
            g.bench_function("keygen/pqkit", |b| b.iter(keygen_ours));
            g.bench_function("keygen/pqclean", |b| b.iter(keygen_pq));

            let dk = DecapsulationKey::<$ours>::generate();
            let ek = dk.encapsulation_key().clone();
            let (pk, sk) = pq::keypair();
            let encaps_ours = || ek.try_encapsulate_with_rng(&mut getrandom::SysRng).unwrap();
            let encaps_pq = || pq::encapsulate(black_box(&pk));
            g.bench_function("encaps/pqkit", |b| b.iter(encaps_ours));
            g.bench_function("encaps/pqclean", |b| b.iter(encaps_pq));

            let cts: Vec<_> = (0..16).map(|_| ek.try_encapsulate_with_rng(&mut getrandom::SysRng).unwrap().0).collect();
            let pq_cts: Vec<_> = (0..16).map(|_| pq::encapsulate(&pk).1).collect();
            let mut i = 0usize;
            let mut decaps_ours = || {
                i = (i + 1) % 16;
                dk.decapsulate_bytes(black_box(&cts[i])).unwrap()
            };
            let mut j = 0usize;
            let mut decaps_pq = || {
                j = (j + 1) % 16;
                pq::decapsulate(black_box(&pq_cts[j]), &sk)
            };
            g.bench_function("decaps/pqkit", |b| b.iter(&mut decaps_ours));
            g.bench_function("decaps/pqclean", |b| b.iter(&mut decaps_pq));
            // From key bytes, cycling the 16 ciphertexts: import then
            // decapsulate, the one-shot call, and PQClean (which always
            // starts from the bytes).
            let sk_bytes = dk.as_bytes().to_vec();
            let next = core::cell::Cell::new(0usize);
            let step = || {
                next.set((next.get() + 1) % 16);
                next.get()
            };
            let decaps_ours_bytes = || {
                DecapsulationKey::<$ours>::from_bytes(black_box(&sk_bytes))
                    .unwrap()
                    .decapsulate_bytes(&cts[step()])
                    .unwrap()
            };
            let decaps_ours_once = || {
                DecapsulationKey::<$ours>::decapsulate_from_key_bytes(black_box(&sk_bytes), &cts[step()])
                    .unwrap()
            };
            let pq_sk_bytes = sk.as_bytes().to_vec();
            let decaps_pq_bytes = || {
                let sk = pq::SecretKey::from_bytes(black_box(&pq_sk_bytes)).unwrap();
                pq::decapsulate(&pq::Ciphertext::from_bytes(pq_cts[step()].as_bytes()).unwrap(), &sk)
            };
            g.bench_function("decaps-from-bytes/pqkit", |b| b.iter(decaps_ours_bytes));
            g.bench_function("decaps-one-shot/pqkit", |b| b.iter(decaps_ours_once));
            g.bench_function("decaps-from-bytes/pqclean", |b| b.iter(decaps_pq_bytes));
            g.finish();

            let rusty = if $name == RUSTY_VARIANT { rusty_saber_rows() } else { [None; 3] };
            for (k, (op, ours, theirs)) in [
                ("keygen", mean_us(keygen_ours), mean_us(keygen_pq)),
                ("encaps", mean_us(encaps_ours), mean_us(encaps_pq)),
                ("decaps", mean_us(&mut decaps_ours), mean_us(&mut decaps_pq)),
                ("decaps-from-bytes", mean_us(decaps_ours_bytes), mean_us(decaps_pq_bytes)),
                ("decaps-one-shot", mean_us(decaps_ours_once), mean_us(decaps_pq_bytes)),
            ]
            .into_iter()
            .enumerate()
            {
                let rusty = rusty.get(k).copied().flatten().map_or(String::new(), |r| {
                    format!("  rusty-saber {r:>7.1}  vs rusty {:.2}", ours / r)
                });
                table.push(format!(
                    "{:<10} {op:<17} pqkit {ours:>7.1}  pqclean-avx2 {theirs:>7.1}  vs pqclean {:.2}{rusty}",
                    $name,
                    ours / theirs
                ));
            }
        }
    };
}

/// The variant this build of rusty-saber implements (by its key size).
const RUSTY_VARIANT: &str = match rusty_saber::api::CRYPTO_SECRETKEYBYTES {
    1568 => "LightSaber",
    3040 => "FireSaber",
    _ => "Saber",
};

/// rusty-saber (the variant of this build): keygen, encaps, decaps in µs.
fn rusty_saber_rows() -> [Option<f64>; 3] {
    use rusty_saber::api::{
        CRYPTO_BYTES, CRYPTO_CIPHERTEXTBYTES, CRYPTO_PUBLICKEYBYTES, CRYPTO_SECRETKEYBYTES,
    };
    use rusty_saber::kem::{crypto_kem_dec, crypto_kem_enc, crypto_kem_keypair};
    let mut rng = rusty_saber::rng::AesState::new();
    let mut pk = [0u8; CRYPTO_PUBLICKEYBYTES];
    let mut sk = [0u8; CRYPTO_SECRETKEYBYTES];
    crypto_kem_keypair(&mut pk, &mut sk, &mut rng).unwrap();
    let mut ct = [0u8; CRYPTO_CIPHERTEXTBYTES];
    let mut ss = [0u8; CRYPTO_BYTES];
    crypto_kem_enc(&mut ct, &mut ss, &mut pk, &mut rng).unwrap();
    let keygen = mean_us(|| {
        let (mut p, mut s) = ([0u8; CRYPTO_PUBLICKEYBYTES], [0u8; CRYPTO_SECRETKEYBYTES]);
        crypto_kem_keypair(&mut p, &mut s, &mut rng).unwrap();
        s[0]
    });
    let mut rng2 = rusty_saber::rng::AesState::new();
    let encaps = mean_us(|| {
        let (mut c, mut k) = ([0u8; CRYPTO_CIPHERTEXTBYTES], [0u8; CRYPTO_BYTES]);
        crypto_kem_enc(&mut c, &mut k, &mut pk, &mut rng2).unwrap();
        k[0]
    });
    let decaps = mean_us(|| {
        let mut k = [0u8; CRYPTO_BYTES];
        crypto_kem_dec(&mut k, black_box(&ct), &sk).unwrap();
        k[0]
    });
    [Some(keygen), Some(encaps), Some(decaps)]
}

bench_set!(light, "LightSaber", pqkit_saber::LightSaber, lightsaber);
bench_set!(saber, "Saber", pqkit_saber::Saber, saber);
bench_set!(fire, "FireSaber", pqkit_saber::FireSaber, firesaber);

fn all(c: &mut Criterion) {
    let mut table = Vec::new();
    light(c, &mut table);
    saber(c, &mut table);
    fire(c, &mut table);
    println!("\nSaber, microseconds (pqkit / PQClean AVX2):");
    for line in table {
        println!("{line}");
    }
}

criterion_group!(benches, all);
criterion_main!(benches);
