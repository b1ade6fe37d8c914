//! NIST PQCgenKAT_sign reproduction with the KAT AES-256 CTR_DRBG, compared
//! with `kat-hashes.json` as recorded for the pq-crystals reference API
//! (pure ML-DSA, empty context, randomized signing): "single" is the sha256
//! of the first record (PQClean), "all" that of all 100 records separated by
//! blank lines (liboqs `kat_sig --all`; record i has a 33 (i + 1)-byte
//! message). Both match.
//!
//! The harness: a master DRBG (entropy 0x00..0x2f) gives the record's
//! 48-byte seed, then its message (two `randombytes` calls per record). A DRBG
//! seeded with the record's seed gives xi for `crypto_sign_keypair` (one
//! 32-byte draw), then `rnd` for `crypto_sign` when the reference signs
//! randomized. `sm` is the signature followed by the message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqkit_ml_dsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey};
use pqkit_testkit::kat;
use rand_core::Rng;

/// The KAT records `0..count` as a PQCgenKAT-style harness prints them
/// (one record each, no separators).
fn records<P: ParameterSet>(count: usize) -> Vec<String> {
    kat::records(count, |i, seed, master, drbg| {
        let mut msg = vec![0u8; 33 * (i + 1)];
        master.fill_bytes(&mut msg);
        let mut xi = [0u8; 32];
        drbg.fill_bytes(&mut xi);
        let sk = SigningKey::<P>::from_seed(&xi.into());
        let mut rnd = [0u8; 32];
        drbg.fill_bytes(&mut rnd);
        let sig = sk.sign_with_rnd(&msg, b"", &rnd).unwrap();
        sk.verifying_key()
            .verify_multipart_with_context(&[&msg], b"", sig.as_bytes())
            .unwrap();
        let mut sm = sig.as_bytes().to_vec();
        sm.extend_from_slice(&msg);
        let up = |b: &[u8]| hex::encode_upper(b);
        format!(
            "count = {i}\nseed = {}\nmlen = {}\nmsg = {}\npk = {}\nsk = {}\nsmlen = {}\nsm = {}\n",
            up(seed),
            msg.len(),
            up(&msg),
            up(sk.verifying_key().as_bytes()),
            up(sk.expanded_bytes().as_ref()),
            sm.len(),
            up(&sm)
        )
    })
}

#[test]
fn nist_kat_records_match_pqclean_and_liboqs() {
    for (set, recs) in [
        ("ML-DSA-44", records::<MlDsa44>(100)),
        ("ML-DSA-65", records::<MlDsa65>(100)),
        ("ML-DSA-87", records::<MlDsa87>(100)),
    ] {
        // liboqs `kat_sig --all`: the 100 records separated by blank lines.
        if !kat::check_hashes("ml-dsa/kat-hashes.json", set, &recs) {
            return;
        }
    }
}
