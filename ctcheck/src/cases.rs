//! The cases. Each returns a digest of its (declassified) outputs.

use pqkit_common::ctgrind::{poison, unpoison};
use pqkit_common::keccak::{SHAKE128_RATE, SHAKE256_RATE, Shake128X4, Shake256X4};
use pqkit_common::q3329::Poly as Poly16;
use pqkit_common::q8380417::{self, Gamma2, Poly as Poly32};
use pqkit_common::{Backend, BackendKind, Kernel, ct, run_on};

/// A case: name and function.
pub type Case = (&'static str, fn() -> u64);

/// Every case. Names starting with `leaky-` are negative controls that the
/// runner expects memcheck to flag.
pub const ALL: &[Case] = &[
    ("leaky-branch", leaky_branch),
    ("leaky-index", leaky_index),
    ("common-ct-helpers", common_ct_helpers),
    ("common-keccak-x4", common_keccak_x4),
    ("common-q8380417-arith", common_q8380417),
    ("common-q3329-arith", common_q3329),
    ("common-q12289-arith", common_q12289),
    ("ml-kem-512", ml_kem::<pqkit_ml_kem::MlKem512>),
    ("ml-kem-768", ml_kem::<pqkit_ml_kem::MlKem768>),
    ("ml-kem-1024", ml_kem::<pqkit_ml_kem::MlKem1024>),
    ("lightsaber", saber::<pqkit_saber::LightSaber>),
    ("saber", saber::<pqkit_saber::Saber>),
    ("firesaber", saber::<pqkit_saber::FireSaber>),
    ("ed25519-keygen-sign", ed25519),
    ("common-curve25519", common_curve25519),
    ("x25519", x25519),
    ("x-wing", x_wing),
    ("hpke-setup-seal-export", hpke),
    ("ml-dsa-44-keygen-sign", ml_dsa::<pqkit_ml_dsa::MlDsa44>),
    ("ml-dsa-65-keygen-sign", ml_dsa::<pqkit_ml_dsa::MlDsa65>),
    ("ml-dsa-87-keygen-sign", ml_dsa::<pqkit_ml_dsa::MlDsa87>),
    (
        "lowmem-ml-dsa-44-keygen-sign",
        ml_dsa_lowmem::<pqkit_ml_dsa::MlDsa44>,
    ),
    (
        "lowmem-ml-dsa-65-keygen-sign",
        ml_dsa_lowmem::<pqkit_ml_dsa::MlDsa65>,
    ),
    (
        "lowmem-ml-dsa-87-keygen-sign",
        ml_dsa_lowmem::<pqkit_ml_dsa::MlDsa87>,
    ),
    ("key-imports", key_imports),
    ("fn-dsa-512-decode-sign", fn_dsa_512),
    ("fn-dsa-1024-decode-sign", fn_dsa_1024),
    ("fn-dsa-512-keygen", fn_dsa_512_keygen),
    ("fn-dsa-1024-keygen", fn_dsa_1024_keygen),
    (
        "slh-dsa-sha2-128f-keygen-sign",
        slh_dsa::<pqkit_slh_dsa::Sha2_128f>,
    ),
    (
        "slh-dsa-sha2-192f-keygen-sign",
        slh_dsa::<pqkit_slh_dsa::Sha2_192f>,
    ),
    (
        "slh-dsa-shake-128f-keygen-sign",
        slh_dsa::<pqkit_slh_dsa::Shake128f>,
    ),
    // h' = 4: the top layer signed from the key's kept nodes, the two
    // halves of that tree (h' = 3 keeps only the root).
    (
        "slh-dsa-sha2-256f-keygen-sign",
        slh_dsa::<pqkit_slh_dsa::Sha2_256f>,
    ),
];

/// Fold bytes into a digest (after they have been declassified).
fn fold(acc: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(acc, |a, &b| a.rotate_left(5) ^ u64::from(b))
}

/// Deterministic pseudo-random "secret" bytes (their values do not matter;
/// memcheck tracks definedness, not values).
fn secret_bytes<const N: usize>(tag: u8) -> [u8; N] {
    core::array::from_fn(|i| (i as u8).wrapping_mul(167).wrapping_add(tag))
}

/// Negative control: an early-exit comparison of secrets (slice `==`).
fn leaky_branch() -> u64 {
    let mut a: [u8; 32] = secret_bytes(1);
    let mut b: [u8; 32] = secret_bytes(1);
    poison(&mut a);
    poison(&mut b);
    let mut equal = u8::from(early_exit_eq(&a, &b));
    unpoison(&mut equal);
    u64::from(equal)
}

/// The classic non-constant-time comparison: returns at the first mismatch.
#[inline(never)]
fn early_exit_eq(a: &[u8], b: &[u8]) -> bool {
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return false;
        }
    }
    a.len() == b.len()
}

/// Negative control: a table look-up at a secret index.
fn leaky_index() -> u64 {
    let table: [u8; 256] = core::array::from_fn(|i| (i as u8).wrapping_mul(7));
    let mut secret: [u8; 32] = secret_bytes(2);
    poison(&mut secret);
    let mut out = [0u8; 32];
    for (o, &s) in out.iter_mut().zip(&secret) {
        *o = table[usize::from(s)];
    }
    unpoison(&mut out);
    fold(0, &out)
}

/// The constant-time helpers of `common::ct`.
fn common_ct_helpers() -> u64 {
    let mut a: [u8; 64] = secret_bytes(3);
    let mut b: [u8; 64] = secret_bytes(3);
    b[17] ^= 1;
    let mut dst: [u8; 64] = secret_bytes(9);
    let mut x = u32::from_le_bytes([a[0], a[1], a[2], a[3]]);
    poison(&mut a);
    poison(&mut b);
    poison(&mut dst);
    poison(&mut x);
    let eq = ct::ct_eq(&a, &b);
    ct::ct_select_into(&mut dst, &a, eq);
    let m1 = ct::nonzero_mask_u32(x);
    let m2 = ct::lt_mask_u32(x, 12345);
    let m3 = ct::negative_mask_i32(x as i32);
    x = m1 ^ m2 ^ (m3 as u32);
    let mut eq = eq.unwrap_u8();
    unpoison(&mut dst);
    unpoison(&mut x);
    unpoison(&mut eq);
    fold(fold(u64::from(x), &dst), &[eq])
}

#[derive(Clone)]
struct KeccakX4Case;
impl Kernel for KeccakX4Case {
    type Output = u64;
    fn run<B: Backend>(self, b: B) -> u64 {
        let mut seeds: [[u8; 66]; 4] = [
            secret_bytes(10),
            secret_bytes(11),
            secret_bytes(12),
            secret_bytes(13),
        ];
        poison(&mut seeds);
        let mut x = Shake128X4::absorb(b, &seeds);
        let mut blocks = [[0u8; SHAKE128_RATE]; 4];
        x.squeeze_block(&mut blocks);
        let mut y = Shake256X4::absorb(b, &seeds);
        let mut blocks2 = [[0u8; SHAKE256_RATE]; 4];
        y.squeeze_block(&mut blocks2);
        unpoison(&mut blocks);
        unpoison(&mut blocks2);
        fold(fold(0, blocks.as_flattened()), blocks2.as_flattened())
    }
}

/// Run a kernel on every available backend and combine the digests.
fn on_all_backends<K: Kernel<Output = u64> + Clone>(k: K) -> u64 {
    BackendKind::available()
        .filter_map(|kind| run_on(kind, k.clone()))
        .fold(0, |a, d| a.rotate_left(1) ^ d)
}

/// 4-way SHAKE128/256 with secret inputs, on every backend.
fn common_keccak_x4() -> u64 {
    on_all_backends(KeccakX4Case)
}

/// ML-DSA KeyGen from a secret seed (to a signing key, and to the
/// encodings only), then hedged signing (secret rnd) and
/// deterministic signing, on the dispatched backend. Declassified inside the
/// crate (each use documented there): the rejection decisions, the
/// challenge of the signature, and the number of ExpandS bytes consumed.
fn ml_dsa<P: pqkit_ml_dsa::ParameterSet>() -> u64 {
    let mut xi: [u8; 32] = secret_bytes(20);
    let mut rnd: [u8; 32] = secret_bytes(21);
    poison(&mut xi);
    poison(&mut rnd);
    let sk = pqkit_ml_dsa::SigningKey::<P>::from_seed(&xi.into());
    let mut pk = sk.verifying_key().as_bytes().to_vec();
    // Key generation to the encodings only: the same public key.
    let (mut pk_only, _sk_only) = pqkit_ml_dsa::hazmat::keygen_internal_encoded::<P>(&xi);
    let msg = b"constant-time check message";
    let mut sig1 = match sk.sign_with_rnd(msg, b"ctx", &rnd) {
        Ok(s) => s.as_bytes().to_vec(),
        Err(_) => return 1,
    };
    let mut sig2 = match sk.sign_deterministic(msg, b"") {
        Ok(s) => s.as_bytes().to_vec(),
        Err(_) => return 2,
    };
    unpoison(pk.as_mut_slice());
    unpoison(pk_only.as_mut());
    unpoison(sig1.as_mut_slice());
    unpoison(sig2.as_mut_slice());
    if pk_only.as_ref() != pk.as_slice() {
        return 3;
    }
    fold(fold(fold(0, &pk), &sig1), &sig2)
}

/// SLH-DSA key generation from secret `SK.seed` and `SK.prf` (public
/// `PK.seed`), hedged signing (secret `addrnd`) and deterministic signing,
/// on the dispatched multi-way hashing kernels. Declassified inside the
/// crate (`algo::public`): what the signature publishes (R, the revealed
/// WOTS+ values and FORS secrets, authentication paths, tree roots).
fn slh_dsa<P: pqkit_slh_dsa::ParameterSet>() -> u64 {
    let n = P::N;
    let mut sk_seed: [u8; 32] = secret_bytes(30);
    let mut sk_prf: [u8; 32] = secret_bytes(31);
    let mut rnd: [u8; 32] = secret_bytes(32);
    let pk_seed: [u8; 32] = secret_bytes(33);
    poison(&mut sk_seed);
    poison(&mut sk_prf);
    poison(&mut rnd);
    let Ok(sk) =
        pqkit_slh_dsa::SigningKey::<P>::from_seed(&sk_seed[..n], &sk_prf[..n], &pk_seed[..n])
    else {
        return 1;
    };
    let mut pk = sk.verifying_key().as_bytes().to_vec();
    let msg = b"constant-time check message";
    let mut sig1 = match sk.sign_with_rnd(msg, b"ctx", &rnd[..n]) {
        Ok(s) => s.as_bytes().to_vec(),
        Err(_) => return 2,
    };
    let mut sig2 = match sk.sign_deterministic(msg, b"") {
        Ok(s) => s.as_bytes().to_vec(),
        Err(_) => return 3,
    };
    unpoison(pk.as_mut_slice());
    unpoison(sig1.as_mut_slice());
    unpoison(sig2.as_mut_slice());
    fold(fold(fold(0, &pk), &sig1), &sig2)
}

/// The low-memory ML-DSA path: streamed keygen from a secret seed, hedged
/// and deterministic signing from the compact key, merged keygen-and-sign,
/// and signing from the expanded key bytes in place. Declassified inside
/// the crate: as for the fast path, plus the accepted hint bits (part of
/// the signature) once an attempt is accepted.
fn ml_dsa_lowmem<P: pqkit_ml_dsa::ParameterSet>() -> u64 {
    use pqkit_ml_dsa::lowmem;
    let mut xi: [u8; 32] = secret_bytes(30);
    let mut rnd: [u8; 32] = secret_bytes(31);
    poison(&mut xi);
    poison(&mut rnd);
    let (sk, vk) = lowmem::keygen::<P>(&xi.into());
    let mut pk = vk.as_bytes().to_vec();
    let msg = b"constant-time check message";
    let mut sigs = Vec::new();
    for s in [
        sk.sign_with_rnd(msg, b"ctx", &rnd),
        sk.sign_deterministic(msg, b""),
        lowmem::sign_from_seed::<P>(&xi.into(), msg, b"", &rnd),
    ] {
        match s {
            Ok(s) => sigs.push(s.as_bytes().to_vec()),
            Err(_) => return 3,
        }
    }
    let full = pqkit_ml_dsa::SigningKey::<P>::from_seed(&xi.into());
    match lowmem::sign_expanded::<P>(full.expanded_bytes().as_ref(), msg, b"", &rnd) {
        Ok(s) => sigs.push(s.as_bytes().to_vec()),
        Err(_) => return 4,
    }
    unpoison(pk.as_mut_slice());
    let mut acc = fold(0, &pk);
    for s in sigs.iter_mut() {
        unpoison(s.as_mut_slice());
        acc = fold(acc, s);
    }
    acc
}

#[derive(Clone)]
struct Q8380417Case;
impl Kernel for Q8380417Case {
    type Output = u64;
    fn run<B: Backend>(self, b: B) -> u64 {
        let mut a = Poly32::default();
        let mut c = Poly32::default();
        for (i, (x, y)) in a.coeffs.iter_mut().zip(c.coeffs.iter_mut()).enumerate() {
            *x = ((i as i32) * 7_919_311) % q8380417::Q;
            *y = ((i as i32) * 1_234_567 + 99) % q8380417::Q;
        }
        poison(&mut a);
        poison(&mut c);
        // NTT, Montgomery products, inverse NTT, reductions.
        b.ntt_q8380417(&mut a);
        b.ntt_q8380417(&mut c);
        let mut r = Poly32::default();
        b.pointwise_mont_q8380417(&a, &c, &mut r);
        b.pointwise_acc_mont_q8380417(&a, &c, &mut r);
        b.inv_ntt_tomont_q8380417(&mut r);
        b.reduce32_q8380417(&mut r);
        b.caddq_q8380417(&mut r);
        // Rounding: Power2Round, Decompose (both gamma2), hints, norm.
        let (mut a1, mut a0, mut h) = (Poly32::default(), Poly32::default(), Poly32::default());
        b.power2round_q8380417(&r, &mut a1, &mut a0);
        let mut acc = 0u32;
        for g in [Gamma2::Q88, Gamma2::Q32] {
            b.decompose_q8380417(g, &r, &mut a1, &mut a0);
            acc ^= b.make_hint_q8380417(g, &a0, &a1, &mut h);
            b.use_hint_q8380417(g, &r, &h, &mut a1);
        }
        let mut big = u8::from(b.exceeds_norm_q8380417(&a0, 1 << 17));
        unpoison(&mut r);
        unpoison(&mut a1);
        unpoison(&mut acc);
        unpoison(&mut big);
        let bytes: Vec<u8> = r
            .coeffs
            .iter()
            .chain(&a1.coeffs)
            .flat_map(|x| x.to_le_bytes())
            .collect();
        fold(u64::from(acc) ^ u64::from(big), &bytes)
    }
}

/// q = 8380417 arithmetic with secret coefficients, on every backend.
fn common_q8380417() -> u64 {
    on_all_backends(Q8380417Case)
}

#[derive(Clone)]
struct Q3329Case;
impl Kernel for Q3329Case {
    type Output = u64;
    fn run<B: Backend>(self, b: B) -> u64 {
        let mut a = Poly16::default();
        let mut c = Poly16::default();
        for (i, (x, y)) in a.coeffs.iter_mut().zip(c.coeffs.iter_mut()).enumerate() {
            *x = ((i as i32 * 1223) % 3329 - 1664) as i16;
            *y = ((i as i32 * 977 + 5) % 3329 - 1664) as i16;
        }
        poison(&mut a);
        poison(&mut c);
        b.ntt_q3329(&mut a);
        b.ntt_q3329(&mut c);
        let mut r = Poly16::default();
        b.basemul_mont_q3329(&a, &c, &mut r);
        b.inv_ntt_tomont_q3329(&mut r);
        b.reduce_q3329(&mut r);
        // The inner product and the Montgomery add, then compression and
        // decompression at every width ML-KEM uses (d = 1 carries the
        // message).
        let mut t = Poly16::default();
        b.dot_mont_q3329(&[a.clone(), c.clone()], &[c, a], &mut t);
        b.fqmul_add_q3329(&mut t, 1353, &r);
        let mut bytes: Vec<u8> = Vec::new();
        for d in [1u32, 4, 5, 10, 11] {
            let mut enc = vec![0u8; 32 * d as usize];
            let mut back = Poly16::default();
            let ok =
                b.compress_encode_q3329(&t, d, &mut enc) && b.decompress_q3329(d, &enc, &mut back);
            unpoison(enc.as_mut_slice());
            unpoison(&mut back);
            bytes.push(u8::from(ok));
            bytes.extend_from_slice(&enc);
            bytes.extend(back.coeffs.iter().flat_map(|x| x.to_le_bytes()));
        }
        unpoison(&mut r);
        unpoison(&mut t);
        bytes.extend(r.coeffs.iter().flat_map(|x| x.to_le_bytes()));
        bytes.extend(t.coeffs.iter().flat_map(|x| x.to_le_bytes()));
        fold(0, &bytes)
    }
}

/// q = 3329 NTT, base multiplication, inner product, reductions and
/// (de)compression, secret inputs, every backend.
fn common_q3329() -> u64 {
    on_all_backends(Q3329Case)
}

#[derive(Clone)]
struct Q12289Case;
impl Kernel for Q12289Case {
    type Output = u64;
    fn run<B: Backend>(self, b: B) -> u64 {
        let mut a: Vec<i16> = (0..512)
            .map(|i| ((i * 7919) % 12289 - 6144) as i16)
            .collect();
        let mut c: Vec<i16> = (0..512)
            .map(|i| ((i * 131 + 9) % 12289 - 6144) as i16)
            .collect();
        poison(a.as_mut_slice());
        poison(c.as_mut_slice());
        let mut r = vec![0i16; 512];
        let ok = b.ntt_q12289(&mut a).is_ok()
            && b.ntt_q12289(&mut c).is_ok()
            && b.pointwise_mont_q12289(&a, &c, &mut r).is_ok()
            && b.inv_ntt_tomont_q12289(&mut r).is_ok();
        b.reduce_q12289(&mut r);
        // The scalar helpers on the secret values: batch division (with a
        // zero entry), zero test, inverses, canonical / centred forms.
        use pqkit_common::q12289::scalar;
        c[17] = 0;
        let invertible = scalar::div_pointwise(&mut a, &c).unwrap_u8();
        let mut flags = [invertible, scalar::has_zero(&c).unwrap_u8()];
        for (x, y) in r.iter_mut().zip(&a) {
            *x = scalar::centre(scalar::canonical(*x) ^ scalar::inv(*y))
                ^ scalar::from_mont(scalar::inv_mont(scalar::to_mont(*x)))
                ^ scalar::is_zero(*y) as i16;
        }
        unpoison(r.as_mut_slice());
        unpoison(&mut flags);
        let bytes: Vec<u8> = r.iter().flat_map(|x| x.to_le_bytes()).collect();
        fold(
            u64::from(ok) + u64::from(flags[0]) + 2 * u64::from(flags[1]),
            &bytes,
        )
    }
}

/// q = 12289 NTT (n = 512), pointwise products and reductions, and the
/// scalar helpers (batch division, inverses, zero test, canonical and
/// centred forms), secret inputs (FN-DSA key generation and signing-key
/// decoding work on secret f, g, F), every backend.
fn common_q12289() -> u64 {
    on_all_backends(Q12289Case)
}

/// ML-KEM KeyGen from a secret seed, Encaps with a secret m, Decaps of the
/// valid ciphertext and of a modified one (implicit rejection), on the
/// dispatched backend. Declassified inside the crate: rho (public, part of
/// ek).
fn ml_kem<P: pqkit_ml_kem::ParameterSet>() -> u64 {
    let mut seed: [u8; 64] = secret_bytes(30);
    let mut m: [u8; 32] = secret_bytes(31);
    poison(&mut seed);
    poison(&mut m);
    let dk = pqkit_ml_kem::DecapsulationKey::<P>::from_seed(seed.into());
    let (ct, k) = pqkit_ml_kem::hazmat::encaps_internal(dk.encapsulation_key(), &m);
    kem_case(dk.encapsulation_key().as_bytes(), &ct, &k, (5, 0x40), |c| {
        dk.decapsulate_bytes(c)
            .map(|x| x.to_vec())
            .unwrap_or_default()
    })
}

/// The shared end of the KEM cases: decapsulate the (public) ciphertext
/// `ct` and the one with `flip` applied (implicit rejection), then
/// declassify the public key, the encapsulated key and both decapsulated
/// keys and fold them into the case's result.
fn kem_case(
    ek: &[u8],
    ct: &[u8],
    k: &[u8],
    flip: (usize, u8),
    decaps: impl Fn(&[u8]) -> Vec<u8>,
) -> u64 {
    let mut ct = ct.to_vec();
    // The ciphertext is public: the decapsulation input is not secret.
    unpoison(ct.as_mut_slice());
    let mut k_dec = decaps(&ct);
    ct[flip.0] ^= flip.1;
    let mut k_rej = decaps(&ct);
    let (mut ek, mut k) = (ek.to_vec(), k.to_vec());
    unpoison(ek.as_mut_slice());
    unpoison(k.as_mut_slice());
    unpoison(k_dec.as_mut_slice());
    unpoison(k_rej.as_mut_slice());
    fold(fold(fold(fold(0, &ek), &k), &k_dec), &k_rej)
}

/// Saber KeyGen from its secret 96 bytes, Encaps with secret coins, Decaps
/// of the valid ciphertext and of a modified one (implicit rejection: the
/// re-encryption comparison and the final select), on the dispatched
/// backend. Nothing is declassified inside the crate.
fn saber<P: pqkit_saber::ParameterSet>() -> u64 {
    let mut coins: [u8; 96] = secret_bytes(40);
    let mut m: [u8; 32] = secret_bytes(41);
    poison(&mut coins);
    poison(&mut m);
    let dk = pqkit_saber::DecapsulationKey::<P>::from_seed(&coins);
    let (ct, k) = dk.encapsulation_key().encapsulate_deterministic(&m);
    kem_case(dk.encapsulation_key().as_bytes(), &ct, &k, (7, 0x10), |c| {
        dk.decapsulate_bytes(c)
            .map(|x| x.to_vec())
            .unwrap_or_default()
    })
}

/// Private-key imports with their consistency checks, the secret parts of
/// each encoding marked secret (the public parts, which the checks may
/// branch on, are not): ML-KEM-768's expanded key with the
/// pairwise-consistency test, ML-DSA-65's expanded key (s1/s2 ranges, t0
/// and tr recomputed), Saber's `sk` (`H(pk)` compared, `s` ranges; also
/// through the one-shot decapsulation, and an unchecked import's first
/// and second decapsulations) and an Ed25519 keypair (public half
/// re-derived). Each imported key is used once or twice; only its outputs
/// are declassified.
fn key_imports() -> u64 {
    let mut acc = 0;
    // ML-KEM-768: s (384 k bytes) and z (the last 32) are secret.
    let dk = pqkit_ml_kem::DecapsulationKey::<pqkit_ml_kem::MlKem768>::from_seed([3u8; 64].into());
    let mut bytes = dk.expanded_bytes().to_vec();
    let n = bytes.len();
    poison(&mut bytes[..384 * 3]);
    poison(&mut bytes[n - 32..]);
    let Ok(k) =
        pqkit_ml_kem::ExpandedDecapsulationKey::<pqkit_ml_kem::MlKem768>::from_expanded_checked(
            &bytes,
        )
    else {
        return 1;
    };
    let (ct, _) = pqkit_ml_kem::hazmat::encaps_internal(dk.encapsulation_key(), &[4u8; 32]);
    let mut out = k
        .decapsulate_bytes(&ct)
        .map(|x| x.to_vec())
        .unwrap_or_default();
    unpoison(out.as_mut_slice());
    acc = fold(acc, &out);
    // ML-DSA-65: K (bytes 32..64) and s1, s2, t0 (from byte 128) are secret.
    let sk = pqkit_ml_dsa::SigningKey::<pqkit_ml_dsa::MlDsa65>::from_seed(&[5u8; 32].into());
    let mut bytes = sk.expanded_bytes().to_vec();
    poison(&mut bytes[32..64]);
    poison(&mut bytes[128..]);
    let Ok(k) = pqkit_ml_dsa::ExpandedSigningKey::<pqkit_ml_dsa::MlDsa65>::from_expanded(&bytes)
    else {
        return 2;
    };
    let Ok(sig) = k.sign_deterministic(b"import", b"") else {
        return 3;
    };
    let mut sig = sig.as_bytes().to_vec();
    unpoison(sig.as_mut_slice());
    acc = fold(acc, &sig);
    // Saber: s (l packed polynomials) and z (the last 32 bytes) are secret.
    let dk = pqkit_saber::DecapsulationKey::<pqkit_saber::Saber>::from_seed(&[6u8; 96]);
    let mut bytes = dk.as_bytes().to_vec();
    let n = bytes.len();
    poison(&mut bytes[..3 * 416]);
    poison(&mut bytes[n - 32..]);
    let Ok(k) = pqkit_saber::DecapsulationKey::<pqkit_saber::Saber>::from_bytes_checked(&bytes)
    else {
        return 4;
    };
    let (ct, _) = dk.encapsulation_key().encapsulate_deterministic(&[7u8; 32]);
    let mut out = k
        .decapsulate_bytes(&ct)
        .map(|x| x.to_vec())
        .unwrap_or_default();
    unpoison(out.as_mut_slice());
    acc = fold(acc, &out);
    // The same key bytes through the one-shot decapsulation (import checks,
    // the shared 4-way streams), of the ciphertext and of a modified one.
    let mut bad = ct.to_vec();
    bad[9] ^= 4;
    // An import without the consistency check leaves GenMatrix to the
    // first decapsulation, which runs GenSecret beside it.
    for c in [&ct[..], &bad[..]] {
        let Ok(k) = pqkit_saber::DecapsulationKey::<pqkit_saber::Saber>::from_bytes(&bytes) else {
            return 6;
        };
        for _ in 0..2 {
            let mut out = k
                .decapsulate_bytes(c)
                .map(|x| x.to_vec())
                .unwrap_or_default();
            unpoison(out.as_mut_slice());
            acc = fold(acc, &out);
        }
    }
    for c in [&ct[..], &bad[..]] {
        let mut out =
            pqkit_saber::DecapsulationKey::<pqkit_saber::Saber>::decapsulate_from_key_bytes(
                &bytes, c,
            )
            .map(|x| x.to_vec())
            .unwrap_or_default();
        unpoison(out.as_mut_slice());
        acc = fold(acc, &out);
    }
    // Ed25519: the first half of the keypair bytes is secret.
    let sk = pqkit_ed25519::SigningKey::from_bytes(&[8u8; 32]);
    let mut kp = sk.to_keypair_bytes();
    poison(&mut kp[..32]);
    let Ok(k) = pqkit_ed25519::SigningKey::from_keypair_bytes(&kp) else {
        return 5;
    };
    let mut sig = signature::Signer::sign(&k, b"import").to_bytes();
    unpoison(&mut sig);
    fold(acc, &sig)
}

/// Ed25519 key generation from a secret and signing (plain, ctx, ph). The
/// public key and the signature are outputs.
fn ed25519() -> u64 {
    let mut secret: [u8; 32] = secret_bytes(40);
    poison(&mut secret);
    let sk = pqkit_ed25519::SigningKey::from_bytes(&secret);
    let mut pk = sk.verifying_key().to_bytes();
    let mut s1 = signature::Signer::sign(&sk, b"message").to_bytes();
    let mut s2 = sk
        .sign_with_context(b"message", b"ctx")
        .map(|s| s.to_bytes())
        .unwrap_or([0; 64]);
    let mut s3 = sk
        .sign_prehash(b"message", b"")
        .map(|s| s.to_bytes())
        .unwrap_or([0; 64]);
    unpoison(&mut pk);
    unpoison(&mut s1);
    unpoison(&mut s2);
    unpoison(&mut s3);
    fold(fold(fold(fold(0, &pk), &s1), &s2), &s3)
}

#[derive(Clone)]
struct Curve25519Case;
impl Kernel for Curve25519Case {
    type Output = u64;
    fn run<B: Backend>(self, b: B) -> u64 {
        use pqkit_common::curve25519::{FieldElement, Scalar};
        let mut scalar: [u8; 32] = secret_bytes(50);
        let mut u: [u8; 32] = secret_bytes(51);
        poison(&mut scalar);
        poison(&mut u);
        // The ladder with a secret scalar and a secret point.
        let mut out = b.ladder_curve25519(&scalar, &u);
        // The field's own constant-time operations on secret values:
        // inversion, square roots, equality, sign and zero tests.
        let x = FieldElement::from_bytes(&u);
        let (was_square, r) = FieldElement::sqrt_ratio_i(&x, &x.invert().add(&FieldElement::ONE));
        let mut flags = [
            was_square.unwrap_u8(),
            r.is_negative().unwrap_u8(),
            r.is_zero().unwrap_u8(),
            ct::ConstantTimeEq::ct_eq(&r, &x).unwrap_u8(),
        ];
        let mut root = r.pow_p58().neg().mul_small(121666).to_bytes();
        // The fixed-base products (X25519's and Ed25519's, with the table
        // scan and the inversion) and scalar arithmetic mod l, secret.
        let mut base = b.x25519_base(&scalar);
        let s = Scalar::from_bytes_mod_order(scalar);
        let t =
            Scalar::from_bytes_mod_order_wide(&[scalar, u].concat().try_into().unwrap_or([0; 64]));
        let (_, mut enc) = b.ed25519_mul_base(&(s * t + s - t));
        unpoison(&mut out);
        unpoison(&mut flags);
        unpoison(&mut root);
        unpoison(&mut base);
        unpoison(&mut enc);
        fold(fold(fold(fold(fold(0, &out), &flags), &root), &base), &enc)
    }
}

/// The curve25519 field and ladder with secret inputs, on every backend.
fn common_curve25519() -> u64 {
    on_all_backends(Curve25519Case)
}

/// X25519 with a secret static scalar: its public key, and exchanges with
/// a public peer key and with a low-order one (an all-zero output).
fn x25519() -> u64 {
    let mut secret: [u8; 32] = secret_bytes(52);
    poison(&mut secret);
    let sk = pqkit_x25519::StaticSecret::from(secret);
    let mut pk = pqkit_x25519::PublicKey::from(&sk).to_bytes();
    let peer = pqkit_x25519::PublicKey::from(pqkit_x25519::X25519_BASEPOINT_BYTES);
    let mut shared = sk.diffie_hellman(&peer).to_bytes();
    let zero = sk.diffie_hellman(&pqkit_x25519::PublicKey::from([0; 32]));
    // was_contributory's result is the caller's to branch on: public.
    let mut flags = [u8::from(zero.was_contributory())];
    let mut bare = pqkit_x25519::x25519(secret, [9; 32]);
    unpoison(&mut pk);
    unpoison(&mut shared);
    unpoison(&mut flags);
    unpoison(&mut bare);
    fold(fold(fold(fold(0, &pk), &shared), &flags), &bare)
}

/// X-Wing: key generation from a secret seed, encapsulation with secret
/// randomness, decapsulation of the ciphertext and of one with a flipped
/// ML-KEM byte (implicit rejection) and, separately, a flipped X25519 byte.
fn x_wing() -> u64 {
    use pqkit_hybrid::xwing::{
        Ciphertext, DecapsulationKey,
        kem::{Decapsulate, Decapsulator, KeyExport},
    };
    let mut seed: [u8; 32] = secret_bytes(60);
    let mut eseed: [u8; 64] = secret_bytes(61);
    poison(&mut seed);
    poison(&mut eseed);
    let dk = DecapsulationKey::from(seed);
    let ek = dk.encapsulation_key().to_bytes();
    let (ct, k) = dk
        .encapsulation_key()
        .encapsulate_deterministic(&eseed.into());
    let decaps = |c: &[u8]| {
        Ciphertext::try_from(c)
            .map(|c| dk.decapsulate(&c).to_vec())
            .unwrap_or_default()
    };
    let a = kem_case(&ek, &ct, &k, (9, 0x04), decaps);
    let b = kem_case(&ek, &ct, &k, (1100, 0x20), decaps);
    a ^ b.rotate_left(1)
}

/// HPKE with secret keys: key derivation from a secret `ikm`, the
/// sender's setup from secret encapsulation randomness, sealing a secret
/// plaintext and exporting; the receiver's setup (decapsulation and key
/// schedule from the secret private key) and export. `open` is left
/// out: the AEAD decides in the open whether the tag matches (a public
/// outcome), which memcheck would report as a secret-dependent branch.
/// X-Wing with HKDF-SHA256 and ChaCha20-Poly1305, ML-KEM-768 with
/// SHAKE256 and AES-128-GCM.
fn hpke() -> u64 {
    use pqkit_hybrid::hpke::{Aead, Kdf, Kem, Psk, Suite};
    let suites = [
        (
            Suite::new(Kem::MlKem768X25519, Kdf::HkdfSha256, Aead::ChaCha20Poly1305),
            64,
        ),
        (
            Suite::new(Kem::MlKem768, Kdf::Shake256, Aead::Aes128Gcm),
            32,
        ),
    ];
    let mut acc = 0;
    for (i, (suite, nr)) in suites.into_iter().enumerate() {
        let tag = 70 + 4 * i as u8;
        let mut ikm: [u8; 32] = secret_bytes(tag);
        let mut r: [u8; 64] = secret_bytes(tag + 1);
        let mut pt: [u8; 40] = secret_bytes(tag + 2);
        let mut psk: [u8; 32] = secret_bytes(tag + 3);
        poison(&mut ikm);
        poison(&mut r);
        poison(&mut pt);
        poison(&mut psk);
        let Ok((sk, pk)) = suite.derive_key_pair(&ikm) else {
            return 0;
        };
        let psk = Psk::new(&psk, b"id").ok();
        let sender = match &psk {
            Some(p) if i == 1 => suite.setup_sender_psk_derand(&pk, b"info", p, &r[..nr]),
            _ => suite.setup_sender_derand(&pk, b"info", &r[..nr]),
        };
        let Ok((mut enc, mut s)) = sender else {
            return 0;
        };
        let Ok(mut ct) = s.seal(b"aad", &pt) else {
            return 0;
        };
        let Ok(mut exp_s) = s.export(b"ctx", 32) else {
            return 0;
        };
        // The encapsulated key and ciphertext are sent in the clear.
        unpoison(enc.as_mut_slice());
        unpoison(ct.as_mut_slice());
        let receiver = match &psk {
            Some(p) if i == 1 => suite.setup_receiver_psk(&enc, &sk, b"info", p),
            _ => suite.setup_receiver(&enc, &sk, b"info"),
        };
        let Ok(rcv) = receiver else {
            return 0;
        };
        let Ok(mut exp_r) = rcv.export(b"ctx", 32) else {
            return 0;
        };
        let mut pk = pk.to_bytes();
        unpoison(pk.as_mut_slice());
        unpoison(exp_s.as_mut_slice());
        unpoison(exp_r.as_mut_slice());
        acc ^= fold(fold(fold(fold(0, &enc), &ct), &exp_s), &exp_r).rotate_left(i as u32);
    }
    acc
}

/// A deterministic RNG whose every output byte is marked secret (FN-DSA's
/// nonce and sampler seed).
struct SecretRng(u64);

impl rand_core::TryRng for SecretRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.try_next_u64()? as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }
    fn try_fill_bytes(&mut self, d: &mut [u8]) -> Result<(), Self::Error> {
        for x in d.iter_mut() {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            *x = (self.0 >> 56) as u8;
        }
        poison(d);
        Ok(())
    }
}

impl rand_core::TryCryptoRng for SecretRng {}

/// FN-DSA: decode a signing key whose bytes (after the public header) are
/// secret, then sign with secret randomness. Key generation is not checked:
/// it is not constant-time yet (see the pqkit-fn-dsa docs).
macro_rules! fn_dsa_case {
    ($name:ident, $module:ident, $seed:expr) => {
        fn $name() -> u64 {
            use pqkit_fn_dsa::$module::SigningKey;
            let sk = SigningKey::from_seed(&[$seed; 32]);
            let mut bytes = sk.to_bytes().to_vec();
            poison(&mut bytes[1..]);
            let Ok(k) = SigningKey::from_bytes(&bytes) else {
                return 1;
            };
            let m = pqkit_fn_dsa::Message::Raw {
                ctx: b"ctx",
                msg: b"constant-time check message",
            };
            let Ok(sig) = k.sign_message_randomized(&m, &mut SecretRng(7)) else {
                return 2;
            };
            let mut sig = sig.to_bytes().to_vec();
            let mut vk = k.verifying_key().as_bytes().to_vec();
            unpoison(sig.as_mut_slice());
            unpoison(vk.as_mut_slice());
            fold(fold(0, &sig), &vk)
        }
    };
}

fn_dsa_case!(fn_dsa_512, fn_dsa_512, 7u8);

/// FN-DSA key generation from a secret seed. The only values made public
/// inside are the accept/reject decisions of the candidates
/// (`pqkit_common::ct::declassify` in the pqkit-fn-dsa key generator); the
/// keys are declassified here, after generation. Both degrees: their
/// solvers take different kernel paths at the deep levels (two integers
/// of 155 or 308 words).
macro_rules! fn_dsa_keygen_case {
    ($name:ident, $module:ident) => {
        fn $name() -> u64 {
            use pqkit_fn_dsa::$module::SigningKey;
            let mut seed = [11u8; 32];
            poison(&mut seed);
            let sk = SigningKey::from_seed(&seed);
            let mut bytes = sk.to_bytes().to_vec();
            let mut vk = sk.verifying_key().as_bytes().to_vec();
            unpoison(bytes.as_mut_slice());
            unpoison(vk.as_mut_slice());
            fold(fold(0, &bytes), &vk)
        }
    };
}
fn_dsa_keygen_case!(fn_dsa_512_keygen, fn_dsa_512);
fn_dsa_keygen_case!(fn_dsa_1024_keygen, fn_dsa_1024);
fn_dsa_case!(fn_dsa_1024, fn_dsa_1024, 9u8);
