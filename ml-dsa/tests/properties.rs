//! Property tests: every single-bit flip of a signature, message, context
//! or public key makes verification fail (with a typed error, no panic);
//! malformed signatures give the specific errors.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use pqkit_ml_dsa::{
    Error, ExpandedSigningKey, MlDsa44, MlDsa65, MlDsa87, ParameterSet, Signature, SigningKey,
    VerifyingKey,
};

fn flips<P: ParameterSet>() {
    let sk = SigningKey::<P>::from_seed(&[0x5a; 32].into());
    let vk = sk.verifying_key();
    let msg = b"property test message, 38 bytes long".to_vec();
    let ctx = b"ctx-16-bytes-ok!".to_vec();
    let sig = sk.sign_deterministic(&msg, &ctx).expect("sign");
    vk.verify_multipart_with_context(&[&msg], &ctx, sig.as_bytes())
        .expect("valid");

    let mut s = sig.as_bytes().to_vec();
    for bit in 0..s.len() * 8 {
        s[bit / 8] ^= 1 << (bit % 8);
        let r = vk.verify_multipart_with_context(&[&msg], &ctx, &s);
        assert!(r.is_err(), "{} sig bit {bit}", P::NAME);
        s[bit / 8] ^= 1 << (bit % 8);
    }
    let mut m = msg.clone();
    for bit in 0..m.len() * 8 {
        m[bit / 8] ^= 1 << (bit % 8);
        assert_eq!(
            vk.verify_multipart_with_context(&[&m], &ctx, sig.as_bytes()),
            Err(Error::InvalidSignature)
        );
        m[bit / 8] ^= 1 << (bit % 8);
    }
    let mut c = ctx.clone();
    for bit in 0..c.len() * 8 {
        c[bit / 8] ^= 1 << (bit % 8);
        assert_eq!(
            vk.verify_multipart_with_context(&[&msg], &c, sig.as_bytes()),
            Err(Error::InvalidSignature)
        );
        c[bit / 8] ^= 1 << (bit % 8);
    }
    let mut pk = vk.as_bytes().to_vec();
    for bit in 0..pk.len() * 8 {
        pk[bit / 8] ^= 1 << (bit % 8);
        let other = VerifyingKey::<P>::from_bytes(&pk).expect("any pk bytes decode");
        assert!(
            other
                .verify_multipart_with_context(&[&msg], &ctx, sig.as_bytes())
                .is_err(),
            "{} pk bit {bit}",
            P::NAME
        );
        pk[bit / 8] ^= 1 << (bit % 8);
    }

    // Wrong lengths.
    assert_eq!(
        Signature::<P>::from_bytes(&s[1..]).err(),
        Some(Error::InvalidLength)
    );
    assert_eq!(
        vk.verify_multipart_with_context(&[&msg], &ctx, &s[1..]),
        Err(Error::InvalidLength)
    );
    assert!(VerifyingKey::<P>::from_bytes(&pk[1..]).is_err());
    assert_eq!(
        ExpandedSigningKey::<P>::from_expanded(&[0u8; 10]).err(),
        Some(Error::InvalidLength)
    );
    assert_eq!(
        SigningKey::<P>::from_seed_slice(&[0u8; 31]).err(),
        Some(Error::InvalidLength)
    );

    // Malformed hints: the hint area is the last omega + k bytes.
    let h0 = P::SIG_LEN - P::OMEGA - P::K;
    let count = |s: &[u8], i: usize| s[h0 + P::OMEGA + i] as usize;
    // (a) a cumulative count above omega.
    let mut bad = s.clone();
    bad[h0 + P::OMEGA] = (P::OMEGA + 1) as u8;
    assert_eq!(
        vk.verify_multipart_with_context(&[&msg], &ctx, &bad),
        Err(Error::MalformedHint)
    );
    // (b) decreasing cumulative counts.
    let mut bad = s.clone();
    let total = count(&s, P::K - 1);
    if total > 0 {
        bad[h0 + P::OMEGA] = total as u8;
        bad[h0 + P::OMEGA + 1] = 0;
        assert_eq!(
            vk.verify_multipart_with_context(&[&msg], &ctx, &bad),
            Err(Error::MalformedHint)
        );
    }
    // (c) non-zero padding after the last index.
    if total < P::OMEGA {
        let mut bad = s.clone();
        bad[h0 + P::OMEGA - 1] = 1;
        assert_eq!(
            vk.verify_multipart_with_context(&[&msg], &ctx, &bad),
            Err(Error::MalformedHint)
        );
    }
    // (d) indices not strictly increasing within a polynomial.
    let first_poly =
        (0..P::K).find(|&i| count(&s, i) - if i == 0 { 0 } else { count(&s, i - 1) } >= 2);
    if let Some(i) = first_poly {
        let start = if i == 0 { 0 } else { count(&s, i - 1) };
        let mut bad = s.clone();
        bad[h0 + start + 1] = bad[h0 + start];
        assert_eq!(
            vk.verify_multipart_with_context(&[&msg], &ctx, &bad),
            Err(Error::MalformedHint)
        );
    }
    // z out of range: the code 0 means z = gamma1 (the top bit set in the
    // first coefficient's encoding of zeros).
    let mut bad = s.clone();
    let ct = P::LAMBDA / 4;
    bad[ct..ct + 3].fill(0);
    assert_eq!(
        vk.verify_multipart_with_context(&[&msg], &ctx, &bad),
        Err(Error::ZOutOfRange)
    );
}

#[test]
fn single_bit_flips_fail_ml_dsa_44() {
    flips::<MlDsa44>();
}
#[test]
fn single_bit_flips_fail_ml_dsa_65() {
    flips::<MlDsa65>();
}
#[test]
fn single_bit_flips_fail_ml_dsa_87() {
    flips::<MlDsa87>();
}

#[test]
fn expanded_key_validation() {
    let sk = SigningKey::<MlDsa65>::from_seed(&[1; 32].into());
    let good = sk.expanded_bytes().as_ref().to_vec();
    // tr, s1, t0 changes are all detected.
    for pos in [64, 128, 128 + 5 * 128 + 6 * 128 + 3, good.len() - 1] {
        let mut bad = good.clone();
        bad[pos] ^= 1;
        assert_eq!(
            ExpandedSigningKey::<MlDsa65>::from_expanded(&bad).err(),
            Some(Error::InvalidPrivateKey),
            "pos {pos}"
        );
    }
    // eta = 4 code 9..15 is out of range.
    let mut bad = good.clone();
    bad[128] = 0xff;
    assert_eq!(
        ExpandedSigningKey::<MlDsa65>::from_expanded(&bad).err(),
        Some(Error::InvalidPrivateKey)
    );
}

/// A key decoded from bytes computes `tr = H(pk)` on first need: by its
/// first verification (beside ExpandA), by `tr()`, or not at all for
/// external-mu verification. Every order gives the signing key's `tr` and
/// the same verdicts, clones carry what was computed, and a signature
/// rejected before the matrix product leaves the key working.
fn lazy_tr<P: ParameterSet>() {
    let sk = SigningKey::<P>::from_seed(&[0x3c; 32].into());
    let vk = sk.verifying_key();
    let want = vk.tr();
    let sig = sk.sign_deterministic(b"lazy tr", b"ctx").expect("sign");
    let bytes = vk.as_bytes().to_vec();
    let fresh = || VerifyingKey::<P>::from_bytes(&bytes).expect("decode");

    // Verification first (the rider computes tr), then tr().
    let k = fresh();
    let before = k.clone();
    k.verify_multipart_with_context(&[b"lazy tr"], b"ctx", sig.as_bytes())
        .expect("valid");
    assert_eq!(k.tr(), want, "{}", P::NAME);
    assert_eq!(before.tr(), want);
    assert_eq!(
        k.verify_multipart_with_context(&[b"lazy tR"], b"ctx", sig.as_bytes()),
        Err(Error::InvalidSignature)
    );

    // tr() first (hashed alone), then verification with it.
    let k = fresh();
    assert_eq!(k.tr(), want);
    k.verify_multipart_with_context(&[b"lazy tr"], b"ctx", sig.as_bytes())
        .expect("valid");
    assert!(k.clone().verify_with_context(b"lazy tr", b"ctx", &sig));

    // A wrong message on a fresh key: tr is computed all the same.
    let k = fresh();
    assert_eq!(
        k.verify_multipart_with_context(&[b"other"], b"ctx", sig.as_bytes()),
        Err(Error::InvalidSignature)
    );
    assert_eq!(k.tr(), want);

    // Rejected before the product (z out of range), then a valid one.
    let k = fresh();
    let mut bad = sig.as_bytes().to_vec();
    let ct = P::LAMBDA / 4;
    bad[ct..ct + 4].fill(0xff);
    assert_eq!(
        k.verify_multipart_with_context(&[b"lazy tr"], b"ctx", &bad),
        Err(Error::ZOutOfRange)
    );
    k.verify_multipart_with_context(&[b"lazy tr"], b"ctx", sig.as_bytes())
        .expect("valid");

    // External mu needs no tr; HashML-DSA computes it like pure ML-DSA.
    let k = fresh();
    let mu = pqkit_ml_dsa::MuBuilder::new(&want, b"ctx")
        .expect("ctx")
        .update(b"lazy tr")
        .clone()
        .finalize();
    k.verify_mu_bytes(&mu, sig.as_bytes()).expect("valid mu");
    let ph = sk
        .sign_prehash_deterministic(pqkit_ml_dsa::HashAlg::Sha2_256, b"lazy tr", b"ctx")
        .expect("sign ph");
    let k = fresh();
    k.verify_prehash(pqkit_ml_dsa::HashAlg::Sha2_256, b"lazy tr", b"ctx", &ph)
        .expect("valid prehash");
    assert_eq!(k.tr(), want);
}

#[test]
fn tr_is_computed_lazily_and_kept() {
    lazy_tr::<MlDsa44>();
    lazy_tr::<MlDsa65>();
    lazy_tr::<MlDsa87>();
}

/// A generated key makes `NTT(s2)`, `NTT(t0)` and its public key's
/// `NTT(t1 * 2^d)` on first use: every path to them (first use, a clone
/// taken before or after it, threads racing on it, the validated import
/// that makes them at once) signs and verifies the same.
fn forms_on_demand<P: ParameterSet>() {
    let seed = [0x5a; 32];
    let msg: &[u8] = b"forms made on first use";
    let want = SigningKey::<P>::from_seed(&seed.into())
        .sign_deterministic(msg, b"ctx")
        .expect("sign");
    let imported = ExpandedSigningKey::<P>::from_expanded(
        SigningKey::<P>::from_seed(&seed.into())
            .expanded_bytes()
            .as_ref(),
    )
    .expect("import");
    assert_eq!(
        imported.sign_deterministic(msg, b"ctx").expect("sign"),
        want,
        "{}",
        P::NAME
    );

    let sk = SigningKey::<P>::from_seed(&seed.into());
    let early = sk.clone();
    let vk = sk.verifying_key();
    assert!(vk.verify_with_context(msg, b"ctx", &want));
    assert_eq!(sk.sign_deterministic(msg, b"ctx").expect("sign"), want);
    let late = sk.clone();
    assert_eq!(early.sign_deterministic(msg, b"ctx").expect("sign"), want);
    assert_eq!(late.sign_deterministic(msg, b"ctx").expect("sign"), want);
    assert!(late.verifying_key().verify_with_context(msg, b"ctx", &want));
    assert!(!vk.verify_with_context(b"another message", b"ctx", &want));

    // Four threads make the forms of one fresh key at once (where there
    // are threads: not on wasm32-wasip1, whose run covers the rest).
    #[cfg(not(target_family = "wasm"))]
    {
        let shared = SigningKey::<P>::from_seed(&seed.into());
        let sigs: Vec<_> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..4)
                .map(|_| s.spawn(|| shared.sign_deterministic(msg, b"ctx").expect("sign")))
                .collect();
            hs.into_iter().map(|h| h.join().expect("thread")).collect()
        });
        assert!(sigs.iter().all(|s| *s == want));
    }

    // Zeroized (forms made, then dropped and so wiped): the key now signs
    // with zero parts, not as before.
    let mut inner = sk.expanded_key().clone();
    zeroize::Zeroize::zeroize(&mut inner);
    assert!(inner.expanded_bytes().as_ref().iter().all(|&b| b == 0));
    assert_ne!(inner.sign_deterministic(msg, b"ctx").ok(), Some(want));
}

#[test]
fn generated_keys_make_their_forms_on_first_use() {
    forms_on_demand::<MlDsa44>();
    forms_on_demand::<MlDsa65>();
    forms_on_demand::<MlDsa87>();
}
