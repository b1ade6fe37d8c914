//! The peer implementations behind one interface, for the ACVP and
//! differential tests: RustCrypto `slh-dsa` 0.2.0-rc.5 and `fips205` 0.5.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, dead_code)]

use std::time::{Duration, Instant};

use pqkit_slh_dsa::{HashAlg, ParameterSet};

/// What is signed: the three interfaces of FIPS 205.
#[derive(Clone, Copy, Debug)]
pub enum Op<'a> {
    /// `slh_sign_internal(M)`.
    Internal(&'a [u8]),
    /// Pure SLH-DSA with a context.
    Pure { msg: &'a [u8], ctx: &'a [u8] },
    /// HashSLH-DSA: `msg` is hashed with `alg`.
    PreHash {
        alg: HashAlg,
        msg: &'a [u8],
        ctx: &'a [u8],
    },
}

/// `fips205`'s RNG (rand_core 0.6) handing out fixed bytes: the
/// `addrnd` of a hedged case. Deterministic signing never reads it.
pub struct FixedRng(pub Vec<u8>);

impl rand_core_06::RngCore for FixedRng {
    fn next_u32(&mut self) -> u32 {
        panic!("FixedRng: only fill_bytes")
    }
    fn next_u64(&mut self) -> u64 {
        panic!("FixedRng: only fill_bytes")
    }
    fn fill_bytes(&mut self, out: &mut [u8]) {
        assert_eq!(out.len(), self.0.len(), "FixedRng: wrong length asked");
        out.copy_from_slice(&self.0);
    }
    fn try_fill_bytes(&mut self, out: &mut [u8]) -> Result<(), rand_core_06::Error> {
        self.fill_bytes(out);
        Ok(())
    }
}
impl rand_core_06::CryptoRng for FixedRng {}

/// The peers for one parameter set.
pub trait Peer: ParameterSet {
    /// RustCrypto's `slh_keygen_internal`: `(sk, pk)`.
    fn rc_keygen(sk_seed: &[u8], sk_prf: &[u8], pk_seed: &[u8]) -> (Vec<u8>, Vec<u8>);
    /// `fips205`'s `keygen_from_seed`: `(sk, pk)`.
    fn fips_keygen(sk_seed: &[u8], sk_prf: &[u8], pk_seed: &[u8]) -> (Vec<u8>, Vec<u8>);
    /// RustCrypto's signature, or `None` for HashSLH-DSA, which it does
    /// not implement. `rnd`: `None` deterministic.
    fn rc_sign(sk: &[u8], op: Op<'_>, rnd: Option<&[u8]>) -> Option<Vec<u8>>;
    /// `fips205`'s signature (every interface: `sign_internal` with the
    /// `acvp-internal` feature, `try_hash_sign_with_rng` for pre-hash).
    fn fips_sign(sk: &[u8], op: Op<'_>, rnd: Option<&[u8]>) -> Vec<u8>;
    /// RustCrypto's decision (`None` for HashSLH-DSA).
    fn rc_verify(pk: &[u8], op: Op<'_>, sig: &[u8]) -> Option<bool>;
    /// `fips205`'s decision.
    fn fips_verify(pk: &[u8], op: Op<'_>, sig: &[u8]) -> bool;
}

macro_rules! peer {
    ($($ours:ident => $rc:ident, $fips:ident;)*) => {$(
        impl Peer for pqkit_slh_dsa::$ours {
            fn rc_keygen(sk_seed: &[u8], sk_prf: &[u8], pk_seed: &[u8]) -> (Vec<u8>, Vec<u8>) {
                use slh_dsa::signature::Keypair as _;
                let sk = slh_dsa::SigningKey::<slh_dsa::$rc>::slh_keygen_internal(sk_seed, sk_prf, pk_seed);
                (sk.to_bytes().to_vec(), sk.verifying_key().to_bytes().to_vec())
            }
            fn fips_keygen(sk_seed: &[u8], sk_prf: &[u8], pk_seed: &[u8]) -> (Vec<u8>, Vec<u8>) {
                use fips205::traits::{KeyGen, SerDes};
                const N: usize = fips205::$fips::N;
                let (pk, sk) = fips205::$fips::KG::keygen_from_seed::<N>(
                    &sk_seed.try_into().unwrap(),
                    &sk_prf.try_into().unwrap(),
                    &pk_seed.try_into().unwrap(),
                );
                (sk.into_bytes().to_vec(), pk.into_bytes().to_vec())
            }
            fn rc_sign(sk: &[u8], op: Op<'_>, rnd: Option<&[u8]>) -> Option<Vec<u8>> {
                // The encoding as it is (no key generation): keys are
                // compared separately.
                let key = slh_dsa::SigningKey::<slh_dsa::$rc>::try_from(sk).unwrap();
                let sig = match op {
                    Op::Internal(m) => key.slh_sign_internal(&[m], rnd),
                    Op::Pure { msg, ctx } => key.try_sign_with_context(msg, ctx, rnd).unwrap(),
                    Op::PreHash { .. } => return None,
                };
                Some(sig.to_bytes().to_vec())
            }
            #[allow(deprecated)]
            fn fips_sign(sk: &[u8], op: Op<'_>, rnd: Option<&[u8]>) -> Vec<u8> {
                use fips205::traits::{SerDes, Signer};
                let key = fips205::$fips::PrivateKey::try_from_bytes(sk.try_into().unwrap()).unwrap();
                let hedged = rnd.is_some();
                let mut rng = FixedRng(rnd.map(<[u8]>::to_vec).unwrap_or_default());
                match op {
                    Op::Internal(m) => key.sign_internal(&mut rng, m, hedged).unwrap().to_vec(),
                    Op::Pure { msg, ctx } => key.try_sign_with_rng(&mut rng, msg, ctx, hedged).unwrap().to_vec(),
                    Op::PreHash { alg, msg, ctx } => {
                        let ph = alg.digest(msg);
                        key.try_hash_sign_with_rng(&mut rng, ph.as_bytes(), ctx, &alg.oid_der(), hedged)
                            .unwrap()
                            .to_vec()
                    }
                }
            }
            fn rc_verify(pk: &[u8], op: Op<'_>, sig: &[u8]) -> Option<bool> {
                let Ok(vk) = slh_dsa::VerifyingKey::<slh_dsa::$rc>::try_from(pk) else {
                    return Some(false);
                };
                let Ok(sig) = slh_dsa::Signature::<slh_dsa::$rc>::try_from(sig) else {
                    return Some(false);
                };
                Some(match op {
                    Op::Internal(m) => vk.slh_verify_internal(&[m], &sig).is_ok(),
                    Op::Pure { msg, ctx } => vk.try_verify_with_context(msg, ctx, &sig).is_ok(),
                    Op::PreHash { .. } => return None,
                })
            }
            #[allow(deprecated)]
            fn fips_verify(pk: &[u8], op: Op<'_>, sig: &[u8]) -> bool {
                use fips205::traits::{SerDes, Verifier};
                let Ok(pk) = <[u8; fips205::$fips::PK_LEN]>::try_from(pk) else { return false };
                let Ok(vk) = fips205::$fips::PublicKey::try_from_bytes(pk) else { return false };
                let Ok(sig) = <[u8; fips205::$fips::SIG_LEN]>::try_from(sig) else { return false };
                match op {
                    Op::Internal(m) => vk.verify_internal(m, &sig),
                    Op::Pure { msg, ctx } => vk.verify(msg, &sig, ctx),
                    Op::PreHash { alg, msg, ctx } => {
                        vk.hash_verify(alg.digest(msg).as_bytes(), &sig, ctx, &alg.oid_der())
                    }
                }
            }
        }
    )*};
}

peer! {
    Sha2_128s => Sha2_128s, slh_dsa_sha2_128s;
    Shake128s => Shake128s, slh_dsa_shake_128s;
    Sha2_128f => Sha2_128f, slh_dsa_sha2_128f;
    Shake128f => Shake128f, slh_dsa_shake_128f;
    Sha2_192s => Sha2_192s, slh_dsa_sha2_192s;
    Shake192s => Shake192s, slh_dsa_shake_192s;
    Sha2_192f => Sha2_192f, slh_dsa_sha2_192f;
    Shake192f => Shake192f, slh_dsa_shake_192f;
    Sha2_256s => Sha2_256s, slh_dsa_sha2_256s;
    Shake256s => Shake256s, slh_dsa_shake_256s;
    Sha2_256f => Sha2_256f, slh_dsa_sha2_256f;
    Shake256f => Shake256f, slh_dsa_shake_256f;
}

/// Run `$f::<Set>(args)` for the parameter set named `$name` (ACVP names).
#[macro_export]
macro_rules! per_set {
    ($name:expr, $f:ident($($arg:expr),*)) => {
        match $name {
            "SLH-DSA-SHA2-128s" => $f::<pqkit_slh_dsa::Sha2_128s>($($arg),*),
            "SLH-DSA-SHAKE-128s" => $f::<pqkit_slh_dsa::Shake128s>($($arg),*),
            "SLH-DSA-SHA2-128f" => $f::<pqkit_slh_dsa::Sha2_128f>($($arg),*),
            "SLH-DSA-SHAKE-128f" => $f::<pqkit_slh_dsa::Shake128f>($($arg),*),
            "SLH-DSA-SHA2-192s" => $f::<pqkit_slh_dsa::Sha2_192s>($($arg),*),
            "SLH-DSA-SHAKE-192s" => $f::<pqkit_slh_dsa::Shake192s>($($arg),*),
            "SLH-DSA-SHA2-192f" => $f::<pqkit_slh_dsa::Sha2_192f>($($arg),*),
            "SLH-DSA-SHAKE-192f" => $f::<pqkit_slh_dsa::Shake192f>($($arg),*),
            "SLH-DSA-SHA2-256s" => $f::<pqkit_slh_dsa::Sha2_256s>($($arg),*),
            "SLH-DSA-SHAKE-256s" => $f::<pqkit_slh_dsa::Shake256s>($($arg),*),
            "SLH-DSA-SHA2-256f" => $f::<pqkit_slh_dsa::Sha2_256f>($($arg),*),
            "SLH-DSA-SHAKE-256f" => $f::<pqkit_slh_dsa::Shake256f>($($arg),*),
            other => panic!("unknown parameter set {other}"),
        }
    };
}

/// The fastest per-operation time (ms) of `rounds` batches of each
/// implementation, run in turn within every round; a batch repeats its
/// operation until 30 ms have passed (at least once).
pub fn race(rounds: usize, imps: &mut [&mut dyn FnMut()]) -> Vec<f64> {
    let mut best = vec![f64::MAX; imps.len()];
    for _ in 0..rounds {
        for (f, b) in imps.iter_mut().zip(&mut best) {
            let start = Instant::now();
            let mut reps = 0u32;
            while reps == 0 || start.elapsed() < Duration::from_millis(30) {
                f();
                reps += 1;
            }
            *b = b.min(start.elapsed().as_secs_f64() * 1e3 / f64::from(reps));
        }
    }
    best
}
