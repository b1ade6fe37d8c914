//! `pqkit demo`: an end-to-end tour of every algorithm through the generic
//! RustCrypto traits: keygen, PKCS#8/SPKI PEM round trip, sign/verify or
//! encap/decap, tamper detection, with sizes and timings.
//!
//! The two drivers below are generic over the traits only, exactly the code
//! a user writes against `signature` / `kem` / `pkcs8` / `spki`: each
//! algorithm joins the tour with one entry in [`tours`].

use std::time::Instant;

use kem::{Decapsulate, Encapsulate, Kem};
use pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding};
use signature::{Keypair, SignatureEncoding, Signer, Verifier};
use spki::{DecodePublicKey, EncodePublicKey};

use crate::{CliError, Result};

/// The OS RNG as a `rand_core::CryptoRng`.
pub fn os_rng() -> rand_core::UnwrapErr<getrandom::SysRng> {
    rand_core::UnwrapErr(getrandom::SysRng)
}

/// Mean time of `f` in microseconds, over at least `min_iters` runs and about
/// `budget_ms` milliseconds.
pub fn time_us<T>(min_iters: u32, budget_ms: u64, mut f: impl FnMut() -> T) -> f64 {
    let start = Instant::now();
    let mut n = 0u32;
    while n < min_iters || start.elapsed().as_millis() < u128::from(budget_ms) {
        std::hint::black_box(f());
        n += 1;
    }
    start.elapsed().as_secs_f64() * 1e6 / f64::from(n)
}

fn check(cond: bool, what: &str, alg: &str) -> Result<()> {
    if cond {
        Ok(())
    } else {
        Err(CliError::new(format!("demo: {alg}: {what} failed")))
    }
}

fn row(alg: &str, cells: &[String]) {
    println!("  {alg:<17} {}", cells.join("  "));
}

/// The signature tour for one algorithm.
pub fn signature_tour<SK, S, E>(
    alg: &str,
    budget_ms: u64,
    generate: impl Fn() -> std::result::Result<SK, E>,
) -> Result<Timings>
where
    SK: Signer<S> + Keypair + EncodePrivateKey + DecodePrivateKey,
    SK::VerifyingKey: Verifier<S> + EncodePublicKey + DecodePublicKey,
    S: SignatureEncoding,
    E: std::error::Error,
{
    let keygen_us = time_us(3, budget_ms, &generate);
    let sk = generate()?;
    // PEM round trips through PKCS#8 and SPKI.
    let sk_pem = sk.to_pkcs8_pem(LineEnding::LF)?;
    let sk = SK::from_pkcs8_pem(&sk_pem)?;
    let vk_pem = sk.verifying_key().to_public_key_pem(LineEnding::LF)?;
    let vk = SK::VerifyingKey::from_public_key_pem(&vk_pem)?;
    let msg = b"pqkit demo: the quick brown fox jumps over the lazy dog";
    let sig = sk.try_sign(msg)?;
    let sign_us = time_us(3, budget_ms, || sk.try_sign(msg));
    check(vk.verify(msg, &sig).is_ok(), "verify", alg)?;
    let verify_us = time_us(3, budget_ms, || vk.verify(msg, &sig));
    // Tampering: a flipped message bit and a flipped signature bit.
    let mut bad_msg = *msg;
    bad_msg[3] ^= 1;
    check(
        vk.verify(&bad_msg, &sig).is_err(),
        "tampered-message rejection",
        alg,
    )?;
    let mut bad_sig = sig.to_vec();
    let mid = bad_sig.len() / 2;
    bad_sig[mid] ^= 0x20;
    let rejected = match S::try_from(&bad_sig[..]) {
        Ok(s) => vk.verify(msg, &s).is_err(),
        Err(_) => true,
    };
    check(rejected, "tampered-signature rejection", alg)?;
    let vk_len = vk.to_public_key_der()?.as_bytes().len();
    let sk_len = sk.to_pkcs8_der()?.as_bytes().len();
    row(
        alg,
        &[
            format!("keygen {keygen_us:>8.1} µs"),
            format!("sign {sign_us:>8.1} µs"),
            format!("verify {verify_us:>8.1} µs"),
            format!("SPKI {vk_len:>5} B"),
            format!("PKCS#8 {sk_len:>5} B"),
            format!("sig {:>5} B", sig.encoded_len()),
            "PEM ok, tamper caught".to_string(),
        ],
    );
    Ok([
        ("keygen", keygen_us),
        ("sign", sign_us),
        ("verify", verify_us),
    ])
}

/// The KEM tour for one algorithm.
pub fn kem_tour<K>(alg: &str, budget_ms: u64) -> Result<Timings>
where
    K: Kem,
    K::DecapsulationKey: Decapsulate + EncodePrivateKey + DecodePrivateKey,
    K::EncapsulationKey: EncodePublicKey + DecodePublicKey,
{
    let mut rng = os_rng();
    let keygen_us = time_us(3, budget_ms, || K::generate_keypair_from_rng(&mut os_rng()));
    let (dk, ek) = K::generate_keypair_from_rng(&mut rng);
    let dk_pem = dk.to_pkcs8_pem(LineEnding::LF)?;
    let dk = K::DecapsulationKey::from_pkcs8_pem(&dk_pem)?;
    let ek_pem = ek.to_public_key_pem(LineEnding::LF)?;
    let ek = K::EncapsulationKey::from_public_key_pem(&ek_pem)?;
    let (ct, ss) = ek.encapsulate_with_rng(&mut rng);
    let encap_us = time_us(3, budget_ms, || ek.encapsulate_with_rng(&mut os_rng()));
    check(dk.decapsulate(&ct) == ss, "decapsulation", alg)?;
    let decap_us = time_us(3, budget_ms, || dk.decapsulate(&ct));
    let mut bad = ct.clone();
    bad[0] ^= 1;
    check(
        dk.decapsulate(&bad) != ss,
        "tampered-ciphertext rejection",
        alg,
    )?;
    let ek_len = ek.to_public_key_der()?.as_bytes().len();
    let dk_len = dk.to_pkcs8_der()?.as_bytes().len();
    row(
        alg,
        &[
            format!("keygen {keygen_us:>8.1} µs"),
            format!("encap  {encap_us:>8.1} µs"),
            format!("decap  {decap_us:>8.1} µs"),
            format!("SPKI {ek_len:>5} B"),
            format!("PKCS#8 {dk_len:>5} B"),
            format!("ct  {:>5} B", ct.len()),
            "PEM ok, tamper caught".to_string(),
        ],
    );
    Ok([
        ("keygen", keygen_us),
        ("encap", encap_us),
        ("decap", decap_us),
    ])
}

/// Mean microseconds per operation, three operations per algorithm.
pub type Timings = [(&'static str, f64); 3];

/// One algorithm's tour, run with a time budget per operation (ms).
pub type Tour = (&'static str, fn(u64) -> Result<Timings>);

/// Every algorithm's tour, in the order of `pqkit algorithms`.
pub fn tours() -> &'static [Tour] {
    use pqkit_ml_dsa::{Generate, ml_dsa_44, ml_dsa_65, ml_dsa_87};
    use pqkit_ml_kem::{MlKem512, MlKem768, MlKem1024};
    &[
        ("ml-kem-512", |b| kem_tour::<MlKem512>("ml-kem-512", b)),
        ("ml-kem-768", |b| kem_tour::<MlKem768>("ml-kem-768", b)),
        ("ml-kem-1024", |b| kem_tour::<MlKem1024>("ml-kem-1024", b)),
        ("ml-dsa-44", |b| {
            signature_tour::<_, ml_dsa_44::Signature, _>("ml-dsa-44", b, || {
                ml_dsa_44::SigningKey::try_generate()
            })
        }),
        ("ml-dsa-65", |b| {
            signature_tour::<_, ml_dsa_65::Signature, _>("ml-dsa-65", b, || {
                ml_dsa_65::SigningKey::try_generate()
            })
        }),
        ("ml-dsa-87", |b| {
            signature_tour::<_, ml_dsa_87::Signature, _>("ml-dsa-87", b, || {
                ml_dsa_87::SigningKey::try_generate()
            })
        }),
        // SLH-DSA: one set of twelve (the fast SHA2 set at category 1).
        ("slh-dsa-sha2-128f", |b| {
            use pqkit_slh_dsa::{Sha2_128f, Signature, SigningKey};
            signature_tour::<_, Signature<Sha2_128f>, _>("slh-dsa-sha2-128f", b, || {
                SigningKey::<Sha2_128f>::try_generate()
            })
        }),
        ("fn-dsa-512", |b| {
            signature_tour::<_, pqkit_fn_dsa::fn_dsa_512::Signature, _>("fn-dsa-512", b, || {
                pqkit_fn_dsa::fn_dsa_512::SigningKey::try_generate()
            })
        }),
        ("fn-dsa-1024", |b| {
            signature_tour::<_, pqkit_fn_dsa::fn_dsa_1024::Signature, _>("fn-dsa-1024", b, || {
                pqkit_fn_dsa::fn_dsa_1024::SigningKey::try_generate()
            })
        }),
        ("lightsaber", |b| {
            kem_tour::<pqkit_saber::LightSaber>("lightsaber", b)
        }),
        ("saber", |b| kem_tour::<pqkit_saber::Saber>("saber", b)),
        ("firesaber", |b| {
            kem_tour::<pqkit_saber::FireSaber>("firesaber", b)
        }),
        ("ed25519", |b| {
            signature_tour::<_, pqkit_ed25519::Signature, _>("ed25519", b, || {
                pqkit_ed25519::SigningKey::try_generate()
            })
        }),
        ("x-wing", |b| {
            kem_tour::<pqkit_hybrid::xwing::XWingKem>("x-wing", b)
        }),
        // Composite ML-DSA: ML-DSA-65 and Ed25519 over one message
        // representative, through the same traits.
        ("mldsa65-ed25519", |b| {
            use pqkit_hybrid::composite::{MlDsa65Ed25519Sha512, Signature, SigningKey};
            signature_tour::<_, Signature<MlDsa65Ed25519Sha512>, _>("mldsa65-ed25519", b, || {
                SigningKey::<MlDsa65Ed25519Sha512>::try_generate()
            })
        }),
    ]
}

/// Run the demo.
pub fn run() -> Result<()> {
    println!(
        "pqkit {} demo (backend: {})",
        env!("CARGO_PKG_VERSION"),
        pqkit_common::backend::selected().name()
    );
    println!(
        "Generic code over kem::{{Encapsulate, Decapsulate}}, signature::{{Signer, Verifier}}, pkcs8/spki:"
    );
    for (_, tour) in tours() {
        tour(100)?;
    }
    println!("demo: all {} algorithms passed", tours().len());
    hpke_tour()?;
    certificate_chain()
}

/// HPKE (RFC 9180) with a post-quantum KEM: a key pair of MLKEM768-X25519
/// (X-Wing), a 1 KiB message sealed to it and opened, with the timings,
/// and a modified ciphertext refused.
fn hpke_tour() -> Result<()> {
    use pqkit_hybrid::hpke::{Aead, Kdf, Kem, Suite};
    let e = |e: pqkit_hybrid::hpke::Error| CliError::new(format!("demo: hpke: {e}"));
    let suite = Suite::new(Kem::MlKem768X25519, Kdf::HkdfSha256, Aead::ChaCha20Poly1305);
    let (sk, pk) = suite.generate_key_pair(&mut os_rng()).map_err(e)?;
    let (info, aad, msg) = (b"pqkit demo", b"header", [0x5au8; 1024]);
    let seal = || -> std::result::Result<(Vec<u8>, Vec<u8>), pqkit_hybrid::hpke::Error> {
        let (enc, mut ctx) = suite.setup_sender(&pk, info, &mut os_rng())?;
        Ok((enc, ctx.seal(aad, &msg)?))
    };
    let open = |enc: &[u8], ct: &[u8]| -> std::result::Result<Vec<u8>, pqkit_hybrid::hpke::Error> {
        suite.setup_receiver(enc, &sk, info)?.open(aad, ct)
    };
    let (enc, ct) = seal().map_err(e)?;
    check(open(&enc, &ct).map_err(e)? == msg, "hpke open", "hpke")?;
    let mut bad = ct.clone();
    bad[0] ^= 1;
    check(open(&enc, &bad).is_err(), "hpke tamper rejection", "hpke")?;
    let seal_us = time_us(3, 100, seal);
    let open_us = time_us(3, 100, || open(&enc, &ct));
    println!("HPKE (RFC 9180) with MLKEM768-X25519, HKDF-SHA256, ChaCha20-Poly1305, 1 KiB:");
    row(
        "x-wing hpke",
        &[
            format!("seal {seal_us:>8.1} µs"),
            format!("open {open_us:>8.1} µs"),
            format!("enc {:>5} B", enc.len()),
            format!("ct {:>5} B", ct.len()),
            "tamper caught".to_string(),
        ],
    );
    Ok(())
}

/// A certificate chain made with the `req` / `cert` / `verify-cert`
/// commands (in a temporary directory, removed afterwards): an ML-DSA-87
/// root, an ML-DSA-65 intermediate from its CSR, an ML-DSA-44 leaf for
/// localhost, a composite ML-DSA-65 + Ed25519 leaf from its CSR and an
/// ML-KEM-768 end-entity certificate, then validated.
fn certificate_chain() -> Result<()> {
    let dir = std::env::temp_dir().join(format!("pqkit-demo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| CliError::new(format!("{}: {e}", dir.display())))?;
    let result = chain_in(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn chain_in(dir: &std::path::Path) -> Result<()> {
    use crate::args::KeyFormat;
    use crate::pki::{self, CertRequest};
    let f = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let cert = |key: &str,
                how: (bool, Option<&str>, Option<&str>),
                ca_cert: Option<&str>,
                subject: Option<&str>,
                sans: &[String],
                ca: bool,
                out: &str| {
        pki::cert(&CertRequest {
            key,
            self_signed: how.0,
            csr: how.1,
            pubkey: how.2,
            ca_cert,
            subject,
            sans,
            days: 30,
            ca,
            path_len: ca.then_some(1),
            out,
        })
    };
    println!("Certificate chain (pqkit req / cert / verify-cert):");
    let (root_key, root, int_key, int_csr, int) = (
        f("root.key"),
        f("root.pem"),
        f("int.key"),
        f("int.csr"),
        f("int.pem"),
    );
    let (leaf_key, leaf_csr, leaf, kem_key, kem_pub, kem) = (
        f("leaf.key"),
        f("leaf.csr"),
        f("leaf.pem"),
        f("kem.key"),
        f("kem.pub"),
        f("kem.pem"),
    );
    crate::keygen("ml-dsa-87", None, KeyFormat::Seed, &root_key)?;
    cert(
        &root_key,
        (true, None, None),
        None,
        Some("CN=pqkit demo root,O=pqkit"),
        &[],
        true,
        &root,
    )?;
    crate::keygen("ml-dsa-65", None, KeyFormat::Seed, &int_key)?;
    pki::req(
        &int_key,
        "CN=pqkit demo intermediate,O=pqkit",
        &[],
        &int_csr,
    )?;
    cert(
        &root_key,
        (false, Some(&int_csr), None),
        Some(&root),
        None,
        &[],
        true,
        &int,
    )?;
    crate::keygen("ml-dsa-44", None, KeyFormat::Seed, &leaf_key)?;
    pki::req(
        &leaf_key,
        "CN=localhost",
        &["DNS:localhost".to_string()],
        &leaf_csr,
    )?;
    cert(
        &int_key,
        (false, Some(&leaf_csr), None),
        Some(&int),
        None,
        &[],
        false,
        &leaf,
    )?;
    let (comp_key, comp_csr, comp) = (f("comp.key"), f("comp.csr"), f("comp.pem"));
    crate::keygen("mldsa65-ed25519", None, KeyFormat::Seed, &comp_key)?;
    pki::req(
        &comp_key,
        "CN=pqkit demo composite,O=pqkit",
        &["DNS:composite.localhost".to_string()],
        &comp_csr,
    )?;
    cert(
        &int_key,
        (false, Some(&comp_csr), None),
        Some(&int),
        None,
        &[],
        false,
        &comp,
    )?;
    crate::keygen("ml-kem-768", None, KeyFormat::Seed, &kem_key)?;
    let key = crate::io::read_key(&kem_key)?;
    let spki = crate::schemes::for_key(&key)?.public_key_der(&key)?;
    crate::io::write_outputs(&[(&kem_pub, crate::io::pem("PUBLIC KEY", &spki)?.as_bytes())])?;
    cert(
        &int_key,
        (false, None, Some(&kem_pub)),
        Some(&int),
        Some("CN=pqkit demo KEM key"),
        &[],
        false,
        &kem,
    )?;
    println!(
        "  root ML-DSA-87 -> intermediate ML-DSA-65 -> leaf ML-DSA-44 (localhost), \
         a composite mldsa65-ed25519 leaf and an ML-KEM-768 leaf"
    );
    for (what, c) in [
        ("ML-DSA-44 leaf", &leaf),
        ("mldsa65-ed25519 leaf", &comp),
        ("ML-KEM-768 leaf", &kem),
    ] {
        print!("  verify-cert {what}: ");
        if pki::verify_cert(&root, Some(&int), None, c, "server")? != 0 {
            return Err(CliError::new(format!("demo: the {what} did not validate")));
        }
    }
    Ok(())
}
