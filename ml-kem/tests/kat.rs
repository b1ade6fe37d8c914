//! NIST PQCgenKAT_kem reproduction with the KAT AES-256 CTR_DRBG, compared
//! with `kat-hashes.json`: "single" is the sha256 of the first record
//! (PQClean), "all" that of all 100 records separated by blank lines
//! (liboqs `kat_kem --all`). Both match. The master DRBG (entropy 0x00..0x2f)
//! gives the record's seed; a DRBG seeded with it gives d || z for KeyGen
//! (one 64-byte draw) and m for Encaps (one 32-byte draw), as the reference
//! `crypto_kem_keypair` / `crypto_kem_enc` do.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqkit_ml_kem::{DecapsulationKey, MlKem512, MlKem768, MlKem1024, ParameterSet, hazmat};
use pqkit_testkit::drbg::KatDrbg;
use rand_core::Rng;
use sha2::{Digest, Sha256};

/// The KAT records `0..count` as the harness prints them (no separators).
fn records<P: ParameterSet>(count: usize) -> Vec<String> {
    let entropy: [u8; 48] = core::array::from_fn(|i| i as u8);
    let mut master = KatDrbg::new(&entropy);
    (0..count)
        .map(|i| {
            let mut seed = [0u8; 48];
            master.fill_bytes(&mut seed);
            let mut drbg = KatDrbg::new(&seed);
            let mut dz = [0u8; 64];
            drbg.fill_bytes(&mut dz);
            let dk = DecapsulationKey::<P>::from_seed(&dz);
            let mut m = [0u8; 32];
            drbg.fill_bytes(&mut m);
            let (ct, ss) = hazmat::encaps_internal(dk.encapsulation_key(), &m);
            assert_eq!(dk.decapsulate_bytes(&ct).unwrap(), ss);
            let up = |b: &[u8]| hex::encode_upper(b);
            format!(
                "count = {i}\nseed = {}\npk = {}\nsk = {}\nct = {}\nss = {}\n",
                up(&seed),
                up(dk.encapsulation_key().as_bytes()),
                up(dk.expanded_bytes()),
                up(&ct),
                up(&ss)
            )
        })
        .collect()
}

fn expected(set: &str, which: &str) -> Option<String> {
    let v = pqkit_testkit::vectors::json("ml-kem/kat-hashes.json")?;
    Some(v[set][which].as_str().unwrap().to_string())
}

fn sha(s: &str) -> String {
    hex::encode(Sha256::digest(s.as_bytes()))
}

#[test]
fn nist_kat_records_match_pqclean_and_liboqs() {
    for (set, recs) in [
        ("ML-KEM-512", records::<MlKem512>(100)),
        ("ML-KEM-768", records::<MlKem768>(100)),
        ("ML-KEM-1024", records::<MlKem1024>(100)),
    ] {
        let Some(want) = expected(set, "single") else {
            return;
        };
        assert_eq!(sha(&recs[0]), want, "{set}");
        // liboqs `kat_kem --all`: the 100 records separated by blank lines.
        let all = expected(set, "all").unwrap();
        assert_eq!(sha(&recs.join("\n")), all, "{set} all");
    }
}
