//! Write seed inputs for every fuzz target, made by pqkit itself (keys in
//! every encoding, signatures, ciphertexts), into `DIR/<target>/`:
//! `cargo run -p pqkit-fuzz --bin fuzz-seeds -- DIR`. The committed
//! corpora under `fuzz/corpus` started from these.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use pkcs8::{EncodePrivateKey, LineEnding};
use spki::EncodePublicKey;

struct Out {
    dir: PathBuf,
    count: usize,
}

impl Out {
    fn put(&mut self, target: &str, selector: &[u8], body: &[u8]) {
        let dir = self.dir.join(target);
        std::fs::create_dir_all(&dir).expect("create the corpus folder");
        let mut bytes = selector.to_vec();
        bytes.extend_from_slice(body);
        let name = format!("seed-{:04}", self.count);
        self.count += 1;
        std::fs::write(dir.join(name), bytes).expect("write a seed");
    }
    /// A key target seed in DER and PEM, and a CLI seed (PEM).
    fn private<K: EncodePrivateKey>(&mut self, sel: u8, key: &K) {
        let der = key.to_pkcs8_der().expect("encodes");
        let pem = key.to_pkcs8_pem(LineEnding::LF).expect("encodes");
        self.put("keys", &[sel], der.as_bytes());
        self.put("keys", &[sel], pem.as_bytes());
        self.put("cli", &[], pem.as_bytes());
    }
    fn public<K: EncodePublicKey>(&mut self, sel: u8, key: &K) {
        let der = key.to_public_key_der().expect("encodes");
        let pem = key.to_public_key_pem(LineEnding::LF).expect("encodes");
        self.put("keys", &[sel], der.as_bytes());
        self.put("keys", &[sel], pem.as_bytes());
        self.put("cli", &[], der.as_bytes());
    }
}

fn main() {
    let dir = std::env::args().nth(1).expect("usage: fuzz-seeds DIR");
    let mut out = Out {
        dir: Path::new(&dir).to_path_buf(),
        count: 0,
    };
    ml_kem::<pqkit_ml_kem::MlKem512>(&mut out, 0);
    ml_kem::<pqkit_ml_kem::MlKem768>(&mut out, 1);
    ml_kem::<pqkit_ml_kem::MlKem1024>(&mut out, 2);
    ml_dsa::<pqkit_ml_dsa::MlDsa44>(&mut out, 3);
    ml_dsa::<pqkit_ml_dsa::MlDsa65>(&mut out, 4);
    ml_dsa::<pqkit_ml_dsa::MlDsa87>(&mut out, 5);
    fn_dsa::<pqkit_fn_dsa::FnDsa512>(&mut out, 6);
    fn_dsa::<pqkit_fn_dsa::FnDsa1024>(&mut out, 7);
    for logn in 2..=8 {
        let sk = pqkit_fn_dsa::hazmat::toy::SigningKey::from_seed(logn, &[logn as u8; 32])
            .expect("toy degree");
        out.put("keys", &[8], &sk.to_bytes());
        out.put("keys", &[8], sk.verifying_key().as_bytes());
    }
    saber::<pqkit_saber::LightSaber>(&mut out, 9);
    saber::<pqkit_saber::Saber>(&mut out, 10);
    saber::<pqkit_saber::FireSaber>(&mut out, 11);
    let sk = pqkit_ed25519::SigningKey::from_bytes(&[5; 32]);
    out.put("keys", &[12], &sk.to_keypair_bytes());
    out.put("keys", &[12], sk.verifying_key().as_bytes());
    out.private(12, &sk);
    out.public(12, &sk.verifying_key());
    let sk = pqkit_x25519::StaticSecret::from([6; 32]);
    let pk = pqkit_x25519::PublicKey::from(&sk);
    out.put("keys", &[13], sk.as_bytes());
    out.put("keys", &[13], pk.as_bytes());
    out.private(13, &sk);
    out.public(13, &pk);
    // verify: every scheme and mode, unchanged (no edits) and one edit.
    for scheme in 0..6u8 {
        for mode in 0..5u8 {
            out.put("verify", &[scheme, mode << 1 | 1], &[]);
            out.put("verify", &[scheme, mode << 1 | 1], &[7, 0, 1]);
        }
    }
    // kernels: each kernel on a few bytes.
    for k in 0..26u8 {
        let body: Vec<u8> = (0..64u8)
            .map(|i| i.wrapping_mul(37).wrapping_add(k))
            .collect();
        out.put("kernels", &[k], &body);
    }
    println!("{} seeds in {dir}", out.count);
}

fn ml_kem<P: pqkit_ml_kem::ParameterSetOid>(out: &mut Out, sel: u8) {
    use pqkit_ml_kem::{DecapsulationKey, KeyFormat};
    let dk = DecapsulationKey::<P>::from_seed([sel; 64].into());
    out.put("keys", &[sel], dk.encapsulation_key().as_bytes());
    out.put("keys", &[sel], dk.expanded_bytes());
    for f in [KeyFormat::Seed, KeyFormat::Expanded, KeyFormat::Both] {
        let der = dk.to_pkcs8_der_with(f).expect("encodes");
        out.put("keys", &[sel], der.as_bytes());
        out.put("decaps", &[sel, 1], der.as_bytes());
        let pem = der.to_pem("PRIVATE KEY", LineEnding::LF).expect("encodes");
        out.put("cli", &[], pem.as_bytes());
    }
    out.public(sel, dk.encapsulation_key());
    out.put("decaps", &[sel, 1], dk.expanded_bytes());
    let (ct, _) = pqkit_ml_kem::hazmat::encaps_internal(dk.encapsulation_key(), &[1; 32]);
    out.put("decaps", &[sel, 0], &ct);
}

fn ml_dsa<P: pqkit_ml_dsa::ParameterSetOid>(out: &mut Out, sel: u8) {
    use pqkit_ml_dsa::{KeyFormat, SigningKey};
    let sk = SigningKey::<P>::from_seed(&[sel; 32].into());
    let vk = sk.verifying_key();
    out.put("keys", &[sel], vk.as_bytes());
    out.put("keys", &[sel], sk.expanded_bytes().as_ref());
    let sig = sk.sign_deterministic(b"seed", b"").expect("signs");
    out.put("keys", &[sel], sig.as_bytes());
    for f in [KeyFormat::Seed, KeyFormat::Expanded, KeyFormat::Both] {
        let der = sk.to_pkcs8_der_with(f).expect("encodes");
        out.put("keys", &[sel], der.as_bytes());
        let pem = der.to_pem("PRIVATE KEY", LineEnding::LF).expect("encodes");
        out.put("cli", &[], pem.as_bytes());
    }
    out.public(sel, &vk);
    out.put("verify", &[sel - 3, 0], sig.as_bytes());
    out.put("verify", &[sel - 3, 0], vk.as_bytes());
}

fn fn_dsa<P: pqkit_fn_dsa::ParameterSet>(out: &mut Out, sel: u8)
where
    pqkit_fn_dsa::SigningKey<P>: EncodePrivateKey,
    pqkit_fn_dsa::VerifyingKey<P>: EncodePublicKey,
{
    let sk = pqkit_fn_dsa::SigningKey::<P>::from_seed(&[sel; 32]);
    let vk = sk.verifying_key();
    out.put("keys", &[sel], sk.to_bytes().as_ref());
    out.put("keys", &[sel], vk.as_bytes());
    let sig = sk
        .sign_message_hedged(&pqkit_fn_dsa::Message::raw(b"seed"))
        .expect("signs");
    out.put("keys", &[sel], sig.as_bytes());
    out.private(sel, &sk);
    out.public(sel, &vk);
    out.put("verify", &[sel - 3, 0], sig.as_bytes());
    out.put("verify", &[sel - 3, 0], vk.as_bytes());
}

fn saber<P: pqkit_saber::ParameterSetOid>(out: &mut Out, sel: u8) {
    let dk = pqkit_saber::DecapsulationKey::<P>::from_seed(&[sel; 96]);
    out.put("keys", &[sel], dk.as_bytes());
    out.put("keys", &[sel], dk.encapsulation_key().as_bytes());
    out.private(sel, &dk);
    out.public(sel, dk.encapsulation_key());
    out.put("decaps", &[sel - 6, 1], dk.as_bytes());
    let (ct, _) = dk.encapsulation_key().encapsulate_deterministic(&[2; 32]);
    out.put("decaps", &[sel - 6, 0], &ct);
}
