//! Signature verification for every scheme and mode. Two kinds of input
//! (the low bit of the second byte):
//! - arbitrary: the rest is the signature (under the scheme's fixed key),
//!   then the public key (under the fixed signature); verification
//!   returns, never panics, and fast and low-memory ML-DSA agree;
//! - mutation: the rest is a list of `(offset: u16 le, xor: u8)` edits of
//!   `signature || message` of a signature pqkit made; it verifies if and
//!   only if the edits left every byte as it was (ZIP 215, which accepts
//!   non-canonical encodings by design, only has to accept the unchanged
//!   bytes).

use pqkit_common::prehash::HashAlg;

/// The target: `data[0]` picks the scheme, `data[1]` the mode and kind.
pub fn run(data: &[u8]) {
    let Some((sel, rest)) = crate::select(data) else {
        return;
    };
    let Some((mode, body)) = crate::select(rest) else {
        return;
    };
    let mutate = mode & 1 == 1;
    let mode = mode >> 1;
    match sel % 8 {
        0 => ml_dsa::<pqkit_ml_dsa::MlDsa44>(mode, mutate, body),
        1 => ml_dsa::<pqkit_ml_dsa::MlDsa65>(mode, mutate, body),
        2 => ml_dsa::<pqkit_ml_dsa::MlDsa87>(mode, mutate, body),
        3 => fn_dsa::<pqkit_fn_dsa::FnDsa512>(mode, mutate, body),
        4 => fn_dsa::<pqkit_fn_dsa::FnDsa1024>(mode, mutate, body),
        5 => ed25519(mode, mutate, body),
        6 => slh_dsa::<pqkit_slh_dsa::Sha2_128f>(mode, mutate, body),
        _ => slh_dsa::<pqkit_slh_dsa::Shake128f>(mode, mutate, body),
    }
}

const MSG: &[u8] = b"pqkit fuzz message";
const CTX: &[u8] = b"ctx";

/// Apply the `(offset, xor)` edits of `edits` to `sig || msg`; returns the
/// edited pair and whether any byte changed.
fn edit(sig: &[u8], msg: &[u8], edits: &[u8]) -> (Vec<u8>, Vec<u8>, bool) {
    let mut all = [sig, msg].concat();
    for e in edits.chunks_exact(3) {
        let at = usize::from(u16::from_le_bytes([e[0], e[1]])) % all.len();
        all[at] ^= e[2];
    }
    let changed = all[..sig.len()] != *sig || all[sig.len()..] != *msg;
    let m = all.split_off(sig.len());
    (all, m, changed)
}

/// Check a verification outcome against the mutation property.
fn expect(name: &str, ok: bool, changed: bool) {
    if changed {
        assert!(!ok, "{name}: a modified signature or message verifies");
    } else {
        assert!(ok, "{name}: the unmodified signature does not verify");
    }
}

struct MlDsaFixture<P: pqkit_ml_dsa::ParameterSet> {
    vk: pqkit_ml_dsa::VerifyingKey<P>,
    low: pqkit_ml_dsa::lowmem::VerifyingKey<P>,
    /// Pure (context `CTX`), HashML-DSA (SHA2-256, `CTX`), external mu.
    sigs: [Vec<u8>; 3],
}

fn ml_dsa_fixture<P: pqkit_ml_dsa::ParameterSet>() -> MlDsaFixture<P> {
    let sk = pqkit_ml_dsa::SigningKey::<P>::from_seed(&[P::K as u8; 32].into());
    let vk = sk.verifying_key();
    let mu = pqkit_ml_dsa::MuBuilder::from_verifying_key(&vk, CTX)
        .expect("short context")
        .update(MSG)
        .clone()
        .finalize();
    let sigs = [
        sk.sign_deterministic(MSG, CTX).expect("signs"),
        sk.sign_prehash_deterministic(HashAlg::Sha2_256, MSG, CTX)
            .expect("signs"),
        sk.sign_mu_deterministic(&mu).expect("signs"),
    ]
    .map(|s| s.as_bytes().to_vec());
    let low = pqkit_ml_dsa::lowmem::VerifyingKey::<P>::from_bytes(vk.as_bytes()).expect("valid");
    MlDsaFixture { vk, low, sigs }
}

/// One verification in `mode` with the fast and the low-memory verifier
/// (they must agree); `true` if valid.
fn ml_dsa_verify<P: pqkit_ml_dsa::ParameterSet>(
    fx: &MlDsaFixture<P>,
    vk: &pqkit_ml_dsa::VerifyingKey<P>,
    low: Option<&pqkit_ml_dsa::lowmem::VerifyingKey<P>>,
    mode: u8,
    msg: &[u8],
    sig: &[u8],
) -> bool {
    let _ = fx;
    let fast = match mode {
        0 => pqkit_ml_dsa::Signature::<P>::from_bytes(sig)
            .is_ok_and(|s| vk.verify_with_context(msg, CTX, &s)),
        1 => pqkit_ml_dsa::Signature::<P>::from_bytes(sig)
            .is_ok_and(|s| vk.verify_prehash(HashAlg::Sha2_256, msg, CTX, &s).is_ok()),
        _ => {
            let mu = pqkit_ml_dsa::MuBuilder::from_verifying_key(vk, CTX)
                .expect("short context")
                .update(msg)
                .clone()
                .finalize();
            vk.verify_mu_bytes(&mu, sig).is_ok()
        }
    };
    if let Some(low) = low {
        let slow = match mode {
            0 => low.verify_bytes(msg, CTX, sig).is_ok(),
            1 => low
                .verify_prehashed(&HashAlg::Sha2_256.digest(msg), CTX, sig)
                .is_ok(),
            _ => {
                let mu = pqkit_ml_dsa::MuBuilder::from_verifying_key(vk, CTX)
                    .expect("short context")
                    .update(msg)
                    .clone()
                    .finalize();
                low.verify_mu_bytes(&mu, sig).is_ok()
            }
        };
        assert_eq!(
            fast,
            slow,
            "{}: fast and low-memory verify disagree",
            P::NAME
        );
    }
    fast
}

fn ml_dsa<P: pqkit_ml_dsa::ParameterSet>(mode: u8, mutate: bool, body: &[u8]) {
    let fx = crate::fixture(ml_dsa_fixture::<P>);
    let mode = mode % 3;
    let sig = &fx.sigs[usize::from(mode)];
    if mutate {
        let (s, m, changed) = edit(sig, MSG, body);
        let ok = ml_dsa_verify(fx, &fx.vk, Some(&fx.low), mode, &m, &s);
        expect(P::NAME, ok, changed);
    } else {
        ml_dsa_verify(fx, &fx.vk, Some(&fx.low), mode, MSG, body);
        if let Ok(vk) = pqkit_ml_dsa::VerifyingKey::<P>::from_bytes(body) {
            let low = pqkit_ml_dsa::lowmem::VerifyingKey::<P>::from_bytes(body).expect("same rule");
            let ok = ml_dsa_verify(fx, &vk, Some(&low), mode, MSG, sig);
            assert_eq!(
                ok,
                body == fx.vk.as_bytes(),
                "{}: another key verifies",
                P::NAME
            );
        }
    }
}

struct FnDsaFixture<P: pqkit_fn_dsa::ParameterSet> {
    vk: pqkit_fn_dsa::VerifyingKey<P>,
    /// Raw (context `CTX`), pre-hashed (SHA2-256, `CTX`), original Falcon.
    sigs: [Vec<u8>; 3],
}

fn fn_dsa_message<'a>(mode: u8, msg: &'a [u8], digest: &'a [u8]) -> pqkit_fn_dsa::Message<'a> {
    use pqkit_fn_dsa::Message;
    match mode {
        0 => Message::Raw { ctx: CTX, msg },
        1 => Message::PreHashed {
            ctx: CTX,
            hash: HashAlg::Sha2_256,
            digest,
        },
        _ => Message::OriginalFalcon { msg },
    }
}

fn fn_dsa_fixture<P: pqkit_fn_dsa::ParameterSet>() -> FnDsaFixture<P> {
    let sk = pqkit_fn_dsa::SigningKey::<P>::from_seed(&[P::LOGN as u8; 32]);
    let digest = HashAlg::Sha2_256.digest(MSG);
    let sigs = [0u8, 1, 2].map(|mode| {
        let mut rng = pqkit_testkit::rng::TestRng(u64::from(mode) + 1);
        sk.sign_message_randomized(&fn_dsa_message(mode, MSG, digest.as_ref()), &mut rng)
            .expect("signs")
            .as_bytes()
            .to_vec()
    });
    FnDsaFixture {
        vk: sk.verifying_key(),
        sigs,
    }
}

fn fn_dsa_verify<P: pqkit_fn_dsa::ParameterSet>(
    vk: &pqkit_fn_dsa::VerifyingKey<P>,
    mode: u8,
    msg: &[u8],
    sig: &[u8],
) -> bool {
    let digest = HashAlg::Sha2_256.digest(msg);
    let m = fn_dsa_message(mode, msg, digest.as_ref());
    let padded = vk
        .verify_bytes(&m, sig, pqkit_fn_dsa::SigFormat::Padded)
        .is_ok();
    if mode == 2 {
        // The round-3 reader takes the padded layout too.
        let round3 = vk.verify_original_falcon(msg, sig).is_ok();
        assert!(
            !padded || round3,
            "FN-DSA: round-3 reader refuses a padded signature"
        );
        return round3;
    }
    padded
}

fn fn_dsa<P: pqkit_fn_dsa::ParameterSet>(mode: u8, mutate: bool, body: &[u8]) {
    let fx = crate::fixture(fn_dsa_fixture::<P>);
    let mode = mode % 3;
    let sig = &fx.sigs[usize::from(mode)];
    if mutate {
        let (s, m, changed) = edit(sig, MSG, body);
        expect("FN-DSA", fn_dsa_verify(&fx.vk, mode, &m, &s), changed);
    } else {
        fn_dsa_verify(&fx.vk, mode, MSG, body);
        let _ = fx.vk.open_round3_sm(body);
        if let Ok(vk) = pqkit_fn_dsa::VerifyingKey::<P>::from_bytes(body) {
            let ok = fn_dsa_verify(&vk, mode, MSG, sig);
            assert_eq!(ok, body == fx.vk.as_bytes(), "FN-DSA: another key verifies");
        }
    }
}

struct SlhFixture<P: pqkit_slh_dsa::ParameterSet> {
    vk: pqkit_slh_dsa::VerifyingKey<P>,
    /// Pure with context `CTX`, and HashSLH-DSA (SHA-256, `CTX`).
    sigs: [Vec<u8>; 2],
}

fn slh_fixture<P: pqkit_slh_dsa::ParameterSet>() -> SlhFixture<P> {
    let n = P::N;
    let sk = pqkit_slh_dsa::SigningKey::<P>::from_seed(&[1; 32][..n], &[2; 32][..n], &[3; 32][..n])
        .expect("seeds");
    let pure = sk.sign_deterministic(MSG, CTX).expect("signs");
    let ph = sk
        .sign_prehash_deterministic(HashAlg::Sha2_256, MSG, CTX)
        .expect("signs");
    SlhFixture {
        vk: sk.verifying_key(),
        sigs: [pure.as_bytes().to_vec(), ph.as_bytes().to_vec()],
    }
}

fn slh_verify<P: pqkit_slh_dsa::ParameterSet>(
    vk: &pqkit_slh_dsa::VerifyingKey<P>,
    mode: u8,
    msg: &[u8],
    sig: &[u8],
) -> bool {
    match mode {
        0 => vk.verify_bytes(msg, CTX, sig).is_ok(),
        _ => pqkit_slh_dsa::Signature::<P>::from_bytes(sig)
            .is_ok_and(|s| vk.verify_prehash(HashAlg::Sha2_256, msg, CTX, &s).is_ok()),
    }
}

fn slh_dsa<P: pqkit_slh_dsa::ParameterSet>(mode: u8, mutate: bool, body: &[u8]) {
    let fx = crate::fixture(slh_fixture::<P>);
    let mode = mode % 2;
    let sig = &fx.sigs[usize::from(mode)];
    if mutate {
        let (s, m, changed) = edit(sig, MSG, body);
        expect("SLH-DSA", slh_verify(&fx.vk, mode, &m, &s), changed);
    } else {
        slh_verify(&fx.vk, mode, MSG, body);
        if let Ok(vk) = pqkit_slh_dsa::VerifyingKey::<P>::from_bytes(body) {
            let ok = slh_verify(&vk, mode, MSG, sig);
            assert_eq!(
                ok,
                body == fx.vk.as_bytes(),
                "SLH-DSA: another key verifies"
            );
        }
    }
}

struct EdFixture {
    vk: pqkit_ed25519::VerifyingKey,
    /// Plain, context `CTX`, pre-hashed (Ed25519ph, `CTX`).
    sigs: [[u8; 64]; 3],
}

fn ed_verify(vk: &pqkit_ed25519::VerifyingKey, mode: u8, msg: &[u8], sig: &[u8]) -> bool {
    let Ok(sig) = pqkit_ed25519::Signature::from_slice(sig) else {
        return false;
    };
    match mode {
        0 => vk.verify_bytes(msg, &sig).is_ok(),
        1 => vk.verify_strict(msg, &sig).is_ok(),
        2 => vk.verify_zip215(msg, &sig).is_ok(),
        3 => vk.verify_with_context(msg, CTX, &sig).is_ok(),
        _ => vk.verify_prehash(msg, CTX, &sig).is_ok(),
    }
}

fn ed25519(mode: u8, mutate: bool, body: &[u8]) {
    let fx = crate::fixture(|| {
        let sk = pqkit_ed25519::SigningKey::from_bytes(&[9u8; 32]);
        let plain = signature::Signer::sign(&sk, MSG).to_bytes();
        let ctx = sk.sign_with_context(MSG, CTX).expect("signs").to_bytes();
        let ph = sk.sign_prehash(MSG, CTX).expect("signs").to_bytes();
        EdFixture {
            vk: sk.verifying_key(),
            sigs: [plain, ctx, ph],
        }
    });
    let mode = mode % 5;
    let sig = &fx.sigs[match mode {
        0..=2 => 0,
        3 => 1,
        _ => 2,
    }];
    if mutate {
        let (s, m, changed) = edit(sig, MSG, body);
        let ok = ed_verify(&fx.vk, mode, &m, &s);
        if mode == 2 {
            assert!(
                changed || ok,
                "Ed25519 ZIP 215: the unmodified signature fails"
            );
        } else {
            expect("Ed25519", ok, changed);
        }
    } else {
        ed_verify(&fx.vk, mode, MSG, body);
        if let Ok(bytes) = <[u8; 32]>::try_from(body)
            && let Ok(vk) = pqkit_ed25519::VerifyingKey::from_bytes(&bytes)
        {
            let ok = ed_verify(&vk, mode, MSG, sig);
            if mode != 2 {
                assert_eq!(ok, vk == fx.vk, "Ed25519: another key verifies");
            }
        }
    }
}
