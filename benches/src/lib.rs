//! pqkit benchmarks (criterion, in `benches/`, each pqkit operation beside
//! the best peer crates) and stack probes (`src/bin/stack_probe.rs`, driven
//! by `scripts/stack-probe.sh`).

/// Mean microseconds per call of `f`, over about 300 ms (the ratio tables
/// the benches print beside criterion's own statistics).
pub fn mean_us<T>(mut f: impl FnMut() -> T) -> f64 {
    let start = std::time::Instant::now();
    let mut n = 0u32;
    while start.elapsed().as_millis() < 300 {
        std::hint::black_box(f());
        n += 1;
    }
    start.elapsed().as_secs_f64() * 1e6 / f64::from(n)
}

/// A fast deterministic generator for hedged-signing benches (xorshift64*;
/// NOT cryptographic — it only feeds benchmark randomness).
#[derive(Clone, Debug)]
pub struct BenchRng(u64);

impl Default for BenchRng {
    fn default() -> Self {
        Self(0x9E37_79B9_7F4A_7C15)
    }
}

impl rand_core::TryRng for BenchRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok((self.try_next_u64()? >> 32) as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        Ok(self.0.wrapping_mul(0x2545_F491_4F6C_DD1D))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for chunk in dst.chunks_mut(8) {
            let v = self.try_next_u64()?.to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
        Ok(())
    }
}

impl rand_core::TryCryptoRng for BenchRng {}

/// The SLH-DSA peers (RustCrypto `slh-dsa`, `fips205`) behind the
/// interface of pqkit-slh-dsa's differential tests.
#[path = "../../slh-dsa/tests/common/mod.rs"]
mod slh_peers;

pub mod probes {
    //! One-operation probes for the stack probe. Each probe's `prepare`
    //! makes the inputs (outside the measured phase) and returns the
    //! operation, which the probe binary runs repeatedly under massif.

    use std::hint::black_box;

    use pqkit_common::keccak::{SHAKE128_RATE, Shake128X4};
    use pqkit_common::{Backend, Kernel, dispatch};
    use pqkit_ml_dsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey};
    use pqkit_ml_kem::{DecapsulationKey, MlKem768, ParameterSet as KemParameterSet};
    use pqkit_slh_dsa::{Sha2_128f, Sha2_256f, Shake256f};

    /// The measured operation.
    pub type Op = Box<dyn Fn() -> u64>;
    /// A probe: name and preparation.
    pub type Probe = (&'static str, fn() -> Op);

    /// Every probe; `noop` is the baseline.
    pub const ALL: &[Probe] = &[
        ("noop", || Box::new(|| black_box(0))),
        ("keccak-x4", || Box::new(keccak_x4)),
        ("ml-kem-768-keygen", ml_kem_keygen::<MlKem768>),
        ("ml-kem-768-encaps", ml_kem_encaps::<MlKem768>),
        ("ml-kem-768-decaps", ml_kem_decaps::<MlKem768>),
        ("ml-kem-768-decaps-from-bytes", ml_kem_decaps_from_bytes),
        (
            "libcrux-ml-kem-768-decaps-from-bytes",
            libcrux_ml_kem_decaps_from_bytes,
        ),
        (
            "aws-lc-ml-kem-768-decaps-from-bytes",
            aws_ml_kem_decaps_from_bytes,
        ),
        ("ml-dsa-44-keygen", ml_dsa_keygen::<MlDsa44>),
        ("ml-dsa-44-sign", ml_dsa_sign::<MlDsa44>),
        ("ml-dsa-44-verify", ml_dsa_verify::<MlDsa44>),
        ("ml-dsa-65-keygen", ml_dsa_keygen::<MlDsa65>),
        ("ml-dsa-65-sign", ml_dsa_sign::<MlDsa65>),
        ("ml-dsa-65-verify", ml_dsa_verify::<MlDsa65>),
        ("ml-dsa-65-sign-from-bytes", ml_dsa_65_sign_from_bytes),
        (
            "libcrux-ml-dsa-65-sign-from-bytes",
            libcrux_ml_dsa_65_sign_from_bytes,
        ),
        (
            "aws-lc-ml-dsa-65-sign-from-bytes",
            aws_ml_dsa_65_sign_from_bytes,
        ),
        ("ml-dsa-87-keygen", ml_dsa_keygen::<MlDsa87>),
        ("ml-dsa-87-sign", ml_dsa_sign::<MlDsa87>),
        ("ml-dsa-87-verify", ml_dsa_verify::<MlDsa87>),
        ("lowmem-ml-dsa-44-keygen", lowmem_keygen::<MlDsa44>),
        ("lowmem-ml-dsa-44-sign", lowmem_sign::<MlDsa44>),
        (
            "lowmem-ml-dsa-44-sign-from-seed",
            lowmem_sign_from_seed::<MlDsa44>,
        ),
        ("lowmem-ml-dsa-44-verify", lowmem_verify::<MlDsa44>),
        ("lowmem-ml-dsa-65-keygen", lowmem_keygen::<MlDsa65>),
        ("lowmem-ml-dsa-65-sign", lowmem_sign::<MlDsa65>),
        (
            "lowmem-ml-dsa-65-sign-from-seed",
            lowmem_sign_from_seed::<MlDsa65>,
        ),
        ("lowmem-ml-dsa-65-verify", lowmem_verify::<MlDsa65>),
        ("lowmem-ml-dsa-87-keygen", lowmem_keygen::<MlDsa87>),
        ("lowmem-ml-dsa-87-sign", lowmem_sign::<MlDsa87>),
        (
            "lowmem-ml-dsa-87-sign-from-seed",
            lowmem_sign_from_seed::<MlDsa87>,
        ),
        ("lowmem-ml-dsa-87-verify", lowmem_verify::<MlDsa87>),
        ("fn-dsa-512-sign", fn_dsa_512_sign),
        ("fn-dsa-512-decode-sign", fn_dsa_512_decode_sign),
        ("fn-dsa-512-verify", fn_dsa_512_verify),
        ("fn-dsa-1024-sign", fn_dsa_1024_sign),
        ("fn-dsa-1024-decode-sign", fn_dsa_1024_decode_sign),
        ("fn-dsa-1024-verify", fn_dsa_1024_verify),
        ("slh-dsa-sha2-128f-keygen", slh::keygen::<Sha2_128f>),
        ("slh-dsa-sha2-128f-sign", slh::sign::<Sha2_128f>),
        ("slh-dsa-sha2-128f-verify", slh::verify::<Sha2_128f>),
        (
            "rustcrypto-slh-dsa-sha2-128f-sign",
            slh::rc_sign::<Sha2_128f>,
        ),
        (
            "rustcrypto-slh-dsa-sha2-128f-verify",
            slh::rc_verify::<Sha2_128f>,
        ),
        (
            "fips205-slh-dsa-sha2-128f-sign",
            slh::fips_sign::<Sha2_128f>,
        ),
        (
            "fips205-slh-dsa-sha2-128f-verify",
            slh::fips_verify::<Sha2_128f>,
        ),
        ("slh-dsa-sha2-256f-keygen", slh::keygen::<Sha2_256f>),
        ("slh-dsa-sha2-256f-sign", slh::sign::<Sha2_256f>),
        ("slh-dsa-sha2-256f-verify", slh::verify::<Sha2_256f>),
        (
            "rustcrypto-slh-dsa-sha2-256f-sign",
            slh::rc_sign::<Sha2_256f>,
        ),
        (
            "rustcrypto-slh-dsa-sha2-256f-verify",
            slh::rc_verify::<Sha2_256f>,
        ),
        (
            "fips205-slh-dsa-sha2-256f-sign",
            slh::fips_sign::<Sha2_256f>,
        ),
        (
            "fips205-slh-dsa-sha2-256f-verify",
            slh::fips_verify::<Sha2_256f>,
        ),
        ("slh-dsa-shake-256f-sign", slh::sign::<Shake256f>),
        (
            "rustcrypto-slh-dsa-shake-256f-sign",
            slh::rc_sign::<Shake256f>,
        ),
        (
            "fips205-slh-dsa-shake-256f-sign",
            slh::fips_sign::<Shake256f>,
        ),
        ("saber-keygen", saber_keygen),
        ("saber-encaps", saber_encaps),
        ("saber-decaps", saber_decaps),
        ("saber-decaps-one-shot", saber_decaps_one_shot),
        ("saber-import-decaps", saber_import_decaps),
        ("pqclean-saber-keygen", pqclean_saber_keygen),
        ("pqclean-saber-encaps", pqclean_saber_encaps),
        ("pqclean-saber-decaps", pqclean_saber_decaps),
    ];

    macro_rules! fn_dsa_probes {
        ($sign:ident, $decode_sign:ident, $verify:ident, $module:ident) => {
            /// Sign with a decoded (expanded) key made beforehand.
            fn $sign() -> Op {
                use pqkit_fn_dsa::$module::SigningKey;
                let sk = SigningKey::from_seed(&[5u8; 32]);
                Box::new(move || {
                    let mut rng = crate::BenchRng::default();
                    sk.sign_message_randomized(
                        &pqkit_fn_dsa::Message::raw(black_box(b"stack probe")),
                        &mut rng,
                    )
                    .map_or(0, |s| u64::from(s.as_bytes()[50]))
                })
            }

            /// Decode the signing-key bytes, then sign.
            fn $decode_sign() -> Op {
                use pqkit_fn_dsa::$module::SigningKey;
                let bytes = SigningKey::from_seed(&[5u8; 32]).to_bytes().to_vec();
                Box::new(move || {
                    let mut rng = crate::BenchRng::default();
                    SigningKey::from_bytes(black_box(&bytes))
                        .ok()
                        .and_then(|sk| {
                            sk.sign_message_randomized(
                                &pqkit_fn_dsa::Message::raw(b"stack probe"),
                                &mut rng,
                            )
                            .ok()
                        })
                        .map_or(0, |s| u64::from(s.as_bytes()[50]))
                })
            }

            /// Verify with a decoded key.
            fn $verify() -> Op {
                use pqkit_fn_dsa::$module::SigningKey;
                let sk = SigningKey::from_seed(&[5u8; 32]);
                let pair = sk
                    .sign_message_randomized(
                        &pqkit_fn_dsa::Message::raw(b"stack probe"),
                        &mut crate::BenchRng::default(),
                    )
                    .ok()
                    .map(|sig| (sk.verifying_key(), sig));
                Box::new(move || {
                    pair.as_ref().map_or(0, |(vk, sig)| {
                        u64::from(
                            vk.verify_message(
                                &pqkit_fn_dsa::Message::raw(black_box(b"stack probe")),
                                sig,
                            )
                            .is_ok(),
                        )
                    })
                })
            }
        };
    }

    fn_dsa_probes!(
        fn_dsa_512_sign,
        fn_dsa_512_decode_sign,
        fn_dsa_512_verify,
        fn_dsa_512
    );
    fn_dsa_probes!(
        fn_dsa_1024_sign,
        fn_dsa_1024_decode_sign,
        fn_dsa_1024_verify,
        fn_dsa_1024
    );

    struct X4;
    impl Kernel for X4 {
        type Output = u64;
        fn run<B: Backend>(self, b: B) -> u64 {
            let mut x = Shake128X4::absorb(b, &[[7u8; 34]; 4]);
            let mut out = [[0u8; SHAKE128_RATE]; 4];
            x.squeeze_block(&mut out);
            u64::from(out[3][5])
        }
    }

    #[inline(never)]
    fn keccak_x4() -> u64 {
        dispatch(X4)
    }

    fn ml_dsa_keygen<P: ParameterSet>() -> Op {
        Box::new(|| {
            let sk = SigningKey::<P>::from_seed(black_box(&[5u8; 32].into()));
            u64::from(sk.expanded_bytes().as_ref()[0])
        })
    }

    fn ml_dsa_sign<P: ParameterSet>() -> Op {
        let sk = SigningKey::<P>::from_seed(&[5u8; 32].into());
        Box::new(move || {
            sk.sign_with_rnd(black_box(b"stack probe"), b"", &[9; 32])
                .map_or(0, |s| u64::from(s.as_bytes()[0]))
        })
    }

    /// Verification from the static encoded key and signature (decoding
    /// the key inside the measurement, as `lowmem_verify`).
    fn ml_dsa_verify<P: ParameterSet>() -> Op {
        let (pk, sig) = static_input::<P>();
        Box::new(move || {
            pqkit_ml_dsa::VerifyingKey::<P>::from_bytes(black_box(pk)).map_or(0, |vk| {
                u64::from(
                    vk.verify_multipart_with_context(&[b"stack probe"], b"", sig)
                        .is_ok(),
                )
            })
        })
    }

    /// Low-memory keygen: the public key from the seed, written into one
    /// output buffer on the stack (inside the measurement), as a device
    /// would.
    fn lowmem_keygen<P: ParameterSet>() -> Op {
        Box::new(|| {
            use pqkit_ml_dsa::ByteArray;
            let mut pk = P::PublicKeyBytes::zeroed();
            let sk = pqkit_ml_dsa::lowmem::keygen_into::<P>(black_box(&[5u8; 32].into()), &mut pk);
            u64::from(black_box(&pk).as_ref()[40]) + u64::from(sk.tr()[0])
        })
    }

    /// Low-memory signing into one signature buffer on the stack.
    fn lowmem_sign<P: ParameterSet>() -> Op {
        let sk = pqkit_ml_dsa::lowmem::SigningKey::<P>::from_seed(&[5u8; 32].into());
        Box::new(move || {
            use pqkit_ml_dsa::ByteArray;
            let mut sig = P::SignatureBytes::zeroed();
            sk.sign_into(black_box(b"stack probe"), b"", &[9; 32], &mut sig)
                .map_or(0, |()| u64::from(black_box(&sig).as_ref()[0]))
        })
    }

    /// Merged keygen-and-sign from the seed, into one signature buffer.
    fn lowmem_sign_from_seed<P: ParameterSet>() -> Op {
        Box::new(|| {
            use pqkit_ml_dsa::ByteArray;
            let mut sig = P::SignatureBytes::zeroed();
            pqkit_ml_dsa::lowmem::sign_from_seed_into::<P>(
                black_box(&[5u8; 32].into()),
                b"stack probe",
                b"",
                &[9; 32],
                &mut sig,
            )
            .map_or(0, |()| u64::from(black_box(&sig).as_ref()[0]))
        })
    }

    /// The verification probes' static inputs (made by `build.rs`): the
    /// public key of seed `[5; 32]` and its deterministic signature of
    /// "stack probe".
    fn static_input<P: ParameterSet>() -> (&'static [u8], &'static [u8]) {
        match P::K {
            4 => (
                include_bytes!(concat!(env!("OUT_DIR"), "/ml-dsa-44.pk")),
                include_bytes!(concat!(env!("OUT_DIR"), "/ml-dsa-44.sig")),
            ),
            6 => (
                include_bytes!(concat!(env!("OUT_DIR"), "/ml-dsa-65.pk")),
                include_bytes!(concat!(env!("OUT_DIR"), "/ml-dsa-65.sig")),
            ),
            _ => (
                include_bytes!(concat!(env!("OUT_DIR"), "/ml-dsa-87.pk")),
                include_bytes!(concat!(env!("OUT_DIR"), "/ml-dsa-87.sig")),
            ),
        }
    }

    /// Low-memory verification from the static encoded key and signature
    /// (as in flash): nothing is made at run time.
    fn lowmem_verify<P: ParameterSet>() -> Op {
        let (pk, sig) = static_input::<P>();
        Box::new(move || {
            u64::from(
                pqkit_ml_dsa::lowmem::verify::<P>(pk, black_box(b"stack probe"), b"", sig).is_ok(),
            )
        })
    }

    fn ml_kem_keygen<P: KemParameterSet>() -> Op {
        Box::new(|| {
            let dk = DecapsulationKey::<P>::from_seed(black_box([5u8; 64].into()));
            u64::from(dk.encapsulation_key().as_bytes()[0])
        })
    }

    fn ml_kem_encaps<P: KemParameterSet>() -> Op {
        let ek = DecapsulationKey::<P>::from_seed([5u8; 64].into())
            .encapsulation_key()
            .clone();
        Box::new(move || {
            u64::from(pqkit_ml_kem::hazmat::encaps_internal(&ek, black_box(&[7u8; 32])).1[0])
        })
    }

    fn saber_keygen() -> Op {
        Box::new(|| {
            let dk = pqkit_saber::DecapsulationKey::<pqkit_saber::Saber>::from_seed(black_box(
                &[5u8; 96],
            ));
            u64::from(dk.as_bytes()[0])
        })
    }

    fn saber_encaps() -> Op {
        let dk = pqkit_saber::DecapsulationKey::<pqkit_saber::Saber>::from_seed(&[5u8; 96]);
        let ek = dk.encapsulation_key().clone();
        Box::new(move || {
            let (ct, _) = ek.encapsulate_deterministic(black_box(&[7u8; 32]));
            u64::from(ct[0])
        })
    }

    fn saber_decaps() -> Op {
        let dk = pqkit_saber::DecapsulationKey::<pqkit_saber::Saber>::from_seed(&[5u8; 96]);
        let (ct, _) = dk.encapsulation_key().encapsulate_deterministic(&[7u8; 32]);
        Box::new(move || {
            dk.decapsulate_bytes(black_box(&ct))
                .map_or(0, |k| u64::from(k[0]))
        })
    }

    fn saber_decaps_one_shot() -> Op {
        let dk = pqkit_saber::DecapsulationKey::<pqkit_saber::Saber>::from_seed(&[5u8; 96]);
        let (ct, _) = dk.encapsulation_key().encapsulate_deterministic(&[7u8; 32]);
        let sk = dk.as_bytes().to_vec();
        Box::new(move || {
            pqkit_saber::DecapsulationKey::<pqkit_saber::Saber>::decapsulate_from_key_bytes(
                black_box(&sk),
                &ct,
            )
            .map_or(0, |k| u64::from(k[0]))
        })
    }

    /// The reference `sk` imported, then its first decapsulation (which
    /// finishes GenMatrix beside GenSecret and `H(c)`).
    fn saber_import_decaps() -> Op {
        let dk = pqkit_saber::DecapsulationKey::<pqkit_saber::Saber>::from_seed(&[5u8; 96]);
        let (ct, _) = dk.encapsulation_key().encapsulate_deterministic(&[7u8; 32]);
        let sk = dk.as_bytes().to_vec();
        Box::new(move || {
            pqkit_saber::DecapsulationKey::<pqkit_saber::Saber>::from_bytes(black_box(&sk))
                .and_then(|k| k.decapsulate_bytes(&ct))
                .map_or(0, |k| u64::from(k[0]))
        })
    }

    // PQClean's Saber (pqcrypto-saber: its AVX2 code on this CPU), for the
    // comparison; its randomness comes from the OS inside each call.
    fn pqclean_saber_keygen() -> Op {
        Box::new(|| {
            use pqcrypto_traits::kem::SecretKey as _;
            let (_, sk) = pqcrypto_saber::saber::keypair();
            u64::from(sk.as_bytes()[0])
        })
    }

    fn pqclean_saber_encaps() -> Op {
        let (pk, _) = pqcrypto_saber::saber::keypair();
        Box::new(move || {
            use pqcrypto_traits::kem::Ciphertext as _;
            let (_, ct) = pqcrypto_saber::saber::encapsulate(black_box(&pk));
            u64::from(ct.as_bytes()[0])
        })
    }

    fn pqclean_saber_decaps() -> Op {
        let (pk, sk) = pqcrypto_saber::saber::keypair();
        let (_, ct) = pqcrypto_saber::saber::encapsulate(&pk);
        Box::new(move || {
            use pqcrypto_traits::kem::SharedSecret as _;
            let ss = pqcrypto_saber::saber::decapsulate(black_box(&ct), &sk);
            u64::from(ss.as_bytes()[0])
        })
    }

    fn ml_kem_decaps<P: KemParameterSet>() -> Op {
        let dk = DecapsulationKey::<P>::from_seed([5u8; 64].into());
        let (ct, _) = pqkit_ml_kem::hazmat::encaps_internal(dk.encapsulation_key(), &[7u8; 32]);
        Box::new(move || {
            dk.decapsulate_bytes(black_box(&ct))
                .map_or(0, |k| u64::from(k[0]))
        })
    }

    /// ML-KEM-768's static expanded decapsulation key and a ciphertext.
    fn kem_static() -> (&'static [u8; 2400], &'static [u8; 1088]) {
        (
            include_bytes!(concat!(env!("OUT_DIR"), "/ml-kem-768.dk")),
            include_bytes!(concat!(env!("OUT_DIR"), "/ml-kem-768.ct")),
        )
    }

    /// Decapsulation from the static expanded key bytes: the validated
    /// import (§7.2/§7.3 checks, A-hat^T) and the decapsulation.
    fn ml_kem_decaps_from_bytes() -> Op {
        let (dk, ct) = kem_static();
        Box::new(move || {
            pqkit_ml_kem::ExpandedDecapsulationKey::<MlKem768>::from_expanded(black_box(dk))
                .and_then(|k| k.decapsulate_bytes(ct))
                .map_or(0, |k| u64::from(k[0]))
        })
    }

    /// libcrux-ml-kem: decapsulation from the same bytes.
    fn libcrux_ml_kem_decaps_from_bytes() -> Op {
        let (dk, ct) = kem_static();
        Box::new(move || {
            use libcrux_ml_kem::mlkem768;
            let sk = mlkem768::MlKem768PrivateKey::from(black_box(dk));
            let ct = mlkem768::MlKem768Ciphertext::from(ct);
            u64::from(mlkem768::decapsulate(&sk, &ct)[0])
        })
    }

    /// aws-lc-rs: decapsulation from the same bytes.
    fn aws_ml_kem_decaps_from_bytes() -> Op {
        let (dk, ct) = kem_static();
        Box::new(move || {
            use aws_lc_rs::kem::{DecapsulationKey, ML_KEM_768};
            DecapsulationKey::new(&ML_KEM_768, black_box(dk))
                .ok()
                .and_then(|k| k.decapsulate(ct[..].into()).ok())
                .map_or(0, |k| u64::from(k.as_ref()[0]))
        })
    }

    /// ML-DSA-65's static expanded signing key.
    fn dsa_65_sk() -> &'static [u8; 4032] {
        include_bytes!(concat!(env!("OUT_DIR"), "/ml-dsa-65.sk"))
    }

    /// Signing from the static expanded key bytes, with the fully validated
    /// import (as aws-lc-rs, which derives the public key).
    fn ml_dsa_65_sign_from_bytes() -> Op {
        Box::new(|| {
            pqkit_ml_dsa::ExpandedSigningKey::<MlDsa65>::from_expanded(black_box(dsa_65_sk()))
                .and_then(|sk| sk.sign_with_rnd(b"stack probe", b"", &[9; 32]))
                .map_or(0, |s| u64::from(s.as_bytes()[0]))
        })
    }

    /// libcrux-ml-dsa: signing from the same bytes (not validated).
    fn libcrux_ml_dsa_65_sign_from_bytes() -> Op {
        Box::new(|| {
            use libcrux_ml_dsa::{MLDSASigningKey, ml_dsa_65};
            let sk = MLDSASigningKey::new(*black_box(dsa_65_sk()));
            ml_dsa_65::sign(&sk, b"stack probe", b"", [9; 32])
                .map_or(0, |s| u64::from(s.as_ref()[0]))
        })
    }

    /// aws-lc-rs: signing from the same bytes (it derives the public key).
    fn aws_ml_dsa_65_sign_from_bytes() -> Op {
        Box::new(|| {
            use aws_lc_rs::signature::{ML_DSA_65_SIGNING, PqdsaKeyPair};
            let mut sig = [0u8; 3309];
            PqdsaKeyPair::from_raw_private_key(&ML_DSA_65_SIGNING, black_box(dsa_65_sk()))
                .ok()
                .and_then(|kp| kp.sign(b"stack probe", &mut sig).ok())
                .map_or(0, |_| u64::from(sig[0]))
        })
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// The verification probes verify (their static inputs match), and
        /// every ML-DSA probe runs.
        #[test]
        fn ml_dsa_probes_run_and_verify() {
            for (name, prepare) in ALL.iter().filter(|(n, _)| n.contains("ml-dsa")) {
                let out = prepare()();
                if name.ends_with("verify") {
                    assert_eq!(out, 1, "{name}");
                }
            }
        }
    }

    /// SLH-DSA beside RustCrypto `slh-dsa` and `fips205`: deterministic
    /// `slh_sign_internal` and `slh_verify_internal` of one fixed key.
    /// The peers' operations decode the key bytes first (their interface
    /// in `slh-dsa/tests/common`; a decode is a copy for both), pqkit's
    /// use the loaded key.
    // Set-up with fixed seeds and messages, outside the measured phase:
    // a failure there is a broken probe, reported by the panic.
    #[allow(clippy::expect_used)]
    mod slh {
        use super::{Op, black_box};
        use pqkit_slh_dsa::hazmat;

        use crate::slh_peers as peers;
        use peers::Peer;

        const MSG: &[u8] = b"stack probe";

        fn seeds<P: Peer>() -> [Vec<u8>; 3] {
            [vec![1u8; P::N], vec![2u8; P::N], vec![3u8; P::N]]
        }

        fn key<P: Peer>() -> pqkit_slh_dsa::SigningKey<P> {
            let [s, p, q] = seeds::<P>();
            hazmat::slh_keygen_internal::<P>(&s, &p, &q).expect("key")
        }

        pub(super) fn keygen<P: Peer>() -> Op {
            let [s, p, q] = seeds::<P>();
            Box::new(move || {
                hazmat::slh_keygen_internal::<P>(black_box(&s), &p, &q)
                    .map_or(0, |k| u64::from(k.as_bytes()[0]))
            })
        }

        pub(super) fn sign<P: Peer>() -> Op {
            let sk = key::<P>();
            Box::new(move || {
                hazmat::slh_sign_internal::<P>(&sk, &[black_box(MSG)], None)
                    .map_or(0, |s| u64::from(s.as_ref()[0]))
            })
        }

        pub(super) fn verify<P: Peer>() -> Op {
            let sk = key::<P>();
            let sig = hazmat::slh_sign_internal::<P>(&sk, &[MSG], None).expect("sign");
            let vk = sk.verifying_key();
            Box::new(move || {
                u64::from(
                    hazmat::slh_verify_internal::<P>(&vk, &[black_box(MSG)], sig.as_ref()).is_ok(),
                )
            })
        }

        fn peer_keys<P: Peer>() -> (Vec<u8>, Vec<u8>) {
            let [s, p, q] = seeds::<P>();
            P::rc_keygen(&s, &p, &q)
        }

        pub(super) fn rc_sign<P: Peer>() -> Op {
            let (sk, _) = peer_keys::<P>();
            Box::new(move || {
                P::rc_sign(&sk, peers::Op::Internal(black_box(MSG)), None)
                    .map_or(0, |s| u64::from(s[0]))
            })
        }

        pub(super) fn rc_verify<P: Peer>() -> Op {
            let (sk, pk) = peer_keys::<P>();
            let sig = P::rc_sign(&sk, peers::Op::Internal(MSG), None).expect("sign");
            Box::new(move || {
                P::rc_verify(&pk, peers::Op::Internal(black_box(MSG)), &sig).map_or(0, u64::from)
            })
        }

        pub(super) fn fips_sign<P: Peer>() -> Op {
            let (sk, _) = peer_keys::<P>();
            Box::new(move || {
                u64::from(P::fips_sign(&sk, peers::Op::Internal(black_box(MSG)), None)[0])
            })
        }

        pub(super) fn fips_verify<P: Peer>() -> Op {
            let (sk, pk) = peer_keys::<P>();
            let sig = P::fips_sign(&sk, peers::Op::Internal(MSG), None);
            Box::new(move || {
                u64::from(P::fips_verify(
                    &pk,
                    peers::Op::Internal(black_box(MSG)),
                    &sig,
                ))
            })
        }
    }
}
