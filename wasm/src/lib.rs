//! # pqkit-wasm
//!
//! pqkit for JavaScript: ML-KEM (FIPS 203), ML-DSA (FIPS 204) and Ed25519
//! (RFC 8032) through [`wasm-bindgen`](https://docs.rs/wasm-bindgen), built
//! for `wasm32-unknown-unknown` (`scripts/wasm.sh` makes the package in
//! `target/wasm-pkg`, and `wasm/www/` is a page that uses it).
//!
//! Keys are objects that JavaScript holds (each wipes its secrets when
//! freed): the decapsulation and signing keys are made from their seeds
//! (the canonical private keys of FIPS 203 and FIPS 204, and the 32-byte
//! Ed25519 secret key) or generated with `crypto.getRandomValues`.
//!
//! ```js
//! import init, { MlKemDecapsulationKey, MlKemEncapsulationKey } from './pqkit_wasm.js';
//! await init();
//! const dk = MlKemDecapsulationKey.generate(768);
//! const ek = MlKemEncapsulationKey.fromBytes(768, dk.encapsulationKey());
//! const { ciphertext, sharedSecret } = ek.encapsulate();
//! dk.decapsulate(ciphertext); // equal to sharedSecret
//! ```
//!
//! Every function is also a plain Rust function with a typed [`Error`]
//! (the JavaScript side gets the error's message as an `Error`), which the
//! crate's native tests exercise.
#![deny(unsafe_code)]

use wasm_bindgen::prelude::*;

use pqkit_ml_dsa::{MlDsa44, MlDsa65, MlDsa87};
use pqkit_ml_kem::{MlKem512, MlKem768, MlKem1024};

/// What can go wrong, typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// No parameter set of the algorithm has this level (ML-KEM: 512, 768,
    /// 1024; ML-DSA: 44, 65, 87).
    UnknownLevel(u32),
    /// An input of the wrong length.
    BadLength {
        /// What the input is.
        what: &'static str,
        /// The length it must have.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// ML-KEM refused an input (see [`pqkit_ml_kem::Error`]).
    MlKem(pqkit_ml_kem::Error),
    /// ML-DSA refused an input or failed (see [`pqkit_ml_dsa::Error`]).
    MlDsa(pqkit_ml_dsa::Error),
    /// Ed25519 refused an input (see [`pqkit_ed25519::Error`]).
    Ed25519(pqkit_ed25519::Error),
    /// The random number generator failed.
    Rng,
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Error::UnknownLevel(l) => write!(f, "unknown parameter set level {l}"),
            Error::BadLength {
                what,
                expected,
                got,
            } => write!(f, "{what}: {got} bytes, expected {expected}"),
            Error::MlKem(e) => write!(f, "ML-KEM: {e}"),
            Error::MlDsa(e) => write!(f, "ML-DSA: {e}"),
            Error::Ed25519(e) => write!(f, "Ed25519: {e}"),
            Error::Rng => f.write_str("the random number generator failed"),
        }
    }
}

impl core::error::Error for Error {}

fn to_js(e: Error) -> JsError {
    JsError::new(&e.to_string())
}

/// `bytes` as an array of `N`, or [`Error::BadLength`].
fn exact<const N: usize>(what: &'static str, bytes: &[u8]) -> Result<[u8; N], Error> {
    bytes.try_into().map_err(|_| Error::BadLength {
        what,
        expected: N,
        got: bytes.len(),
    })
}

/// `N` random bytes from the operating system (`crypto.getRandomValues`
/// in the browser).
fn random<const N: usize>() -> Result<zeroize::Zeroizing<[u8; N]>, Error> {
    let mut out = zeroize::Zeroizing::new([0u8; N]);
    getrandom::fill(out.as_mut()).map_err(|_| Error::Rng)?;
    Ok(out)
}

/// Run `$body` with `$k` bound to the key of whichever parameter set the
/// enum holds.
macro_rules! each {
    ($e:expr, $enum:ident, $k:ident => $body:expr) => {
        match $e {
            $enum::A($k) => $body,
            $enum::B($k) => $body,
            $enum::C($k) => $body,
        }
    };
}

// ---------------------------------------------------------------- ML-KEM

enum Dk {
    A(Box<pqkit_ml_kem::DecapsulationKey<MlKem512>>),
    B(Box<pqkit_ml_kem::DecapsulationKey<MlKem768>>),
    C(Box<pqkit_ml_kem::DecapsulationKey<MlKem1024>>),
}

enum Ek {
    A(Box<pqkit_ml_kem::EncapsulationKey<MlKem512>>),
    B(Box<pqkit_ml_kem::EncapsulationKey<MlKem768>>),
    C(Box<pqkit_ml_kem::EncapsulationKey<MlKem1024>>),
}

/// An ML-KEM decapsulation key (ML-KEM-512, -768 or -1024), kept with its
/// 64-byte seed `d || z`.
#[wasm_bindgen]
pub struct MlKemDecapsulationKey(Dk);

impl MlKemDecapsulationKey {
    /// The key of `level` from its 64-byte seed.
    pub fn from_seed_bytes(level: u32, seed: &[u8]) -> Result<Self, Error> {
        let seed = zeroize::Zeroizing::new(exact::<64>("ML-KEM seed", seed)?);
        Ok(Self(match level {
            512 => Dk::A(Box::new(pqkit_ml_kem::DecapsulationKey::from_seed(
                (*seed).into(),
            ))),
            768 => Dk::B(Box::new(pqkit_ml_kem::DecapsulationKey::from_seed(
                (*seed).into(),
            ))),
            1024 => Dk::C(Box::new(pqkit_ml_kem::DecapsulationKey::from_seed(
                (*seed).into(),
            ))),
            l => return Err(Error::UnknownLevel(l)),
        }))
    }

    /// A fresh key of `level` (a random seed).
    pub fn generate_key(level: u32) -> Result<Self, Error> {
        Self::from_seed_bytes(level, random::<64>()?.as_ref())
    }

    /// The shared secret for ciphertext `ct` (implicit rejection: a
    /// modified ciphertext gives an unrelated secret, not an error).
    pub fn decapsulate_bytes(&self, ct: &[u8]) -> Result<Vec<u8>, Error> {
        each!(&self.0, Dk, k => k.decapsulate_bytes(ct).map(|s| s.to_vec()).map_err(Error::MlKem))
    }
}

#[wasm_bindgen]
impl MlKemDecapsulationKey {
    /// The key of `level` (512, 768 or 1024) from its 64-byte seed.
    #[wasm_bindgen(js_name = fromSeed)]
    pub fn from_seed(level: u32, seed: &[u8]) -> Result<MlKemDecapsulationKey, JsError> {
        Self::from_seed_bytes(level, seed).map_err(to_js)
    }

    /// A fresh key of `level` (512, 768 or 1024).
    pub fn generate(level: u32) -> Result<MlKemDecapsulationKey, JsError> {
        Self::generate_key(level).map_err(to_js)
    }

    /// The 64-byte seed (the private key).
    pub fn seed(&self) -> Vec<u8> {
        each!(&self.0, Dk, k => k.as_seed().to_vec())
    }

    /// The encapsulation key's bytes.
    #[wasm_bindgen(js_name = encapsulationKey)]
    pub fn encapsulation_key(&self) -> Vec<u8> {
        each!(&self.0, Dk, k => k.encapsulation_key().as_bytes().to_vec())
    }

    /// The shared secret (32 bytes) for `ciphertext`.
    pub fn decapsulate(&self, ciphertext: &[u8]) -> Result<Vec<u8>, JsError> {
        self.decapsulate_bytes(ciphertext).map_err(to_js)
    }
}

/// An ML-KEM encapsulation key.
#[wasm_bindgen]
pub struct MlKemEncapsulationKey(Ek);

/// A ciphertext and the shared secret it carries.
#[wasm_bindgen(getter_with_clone)]
pub struct Encapsulation {
    /// The ciphertext, for the holder of the decapsulation key.
    pub ciphertext: Vec<u8>,
    /// The 32-byte shared secret.
    #[wasm_bindgen(js_name = sharedSecret)]
    pub shared_secret: Vec<u8>,
}

impl MlKemEncapsulationKey {
    /// The key of `level` from its bytes (FIPS 203 §7.2 modulus check).
    pub fn from_key_bytes(level: u32, bytes: &[u8]) -> Result<Self, Error> {
        use pqkit_ml_kem::EncapsulationKey as E;
        Ok(Self(match level {
            512 => Ek::A(Box::new(E::from_bytes(bytes).map_err(Error::MlKem)?)),
            768 => Ek::B(Box::new(E::from_bytes(bytes).map_err(Error::MlKem)?)),
            1024 => Ek::C(Box::new(E::from_bytes(bytes).map_err(Error::MlKem)?)),
            l => return Err(Error::UnknownLevel(l)),
        }))
    }

    /// Encapsulation with the 32-byte randomness `m` (FIPS 203
    /// `ML-KEM.Encaps_internal`).
    pub fn encapsulate_with(&self, m: &[u8]) -> Result<Encapsulation, Error> {
        let m = zeroize::Zeroizing::new(exact::<32>("ML-KEM randomness", m)?);
        let (ciphertext, shared_secret) = each!(&self.0, Ek, k => {
            let (ct, ss) = k.encapsulate_deterministic(&(*m).into());
            (ct.to_vec(), ss.to_vec())
        });
        Ok(Encapsulation {
            ciphertext,
            shared_secret,
        })
    }
}

#[wasm_bindgen]
impl MlKemEncapsulationKey {
    /// The key of `level` (512, 768 or 1024) from its bytes.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(level: u32, bytes: &[u8]) -> Result<MlKemEncapsulationKey, JsError> {
        Self::from_key_bytes(level, bytes).map_err(to_js)
    }

    /// A fresh shared secret and its ciphertext.
    pub fn encapsulate(&self) -> Result<Encapsulation, JsError> {
        random::<32>()
            .and_then(|m| self.encapsulate_with(m.as_ref()))
            .map_err(to_js)
    }

    /// Encapsulation with given 32-byte randomness (for tests and vectors).
    #[wasm_bindgen(js_name = encapsulateDeterministic)]
    pub fn encapsulate_deterministic(&self, m: &[u8]) -> Result<Encapsulation, JsError> {
        self.encapsulate_with(m).map_err(to_js)
    }
}

// ---------------------------------------------------------------- ML-DSA

enum Sk {
    A(Box<pqkit_ml_dsa::SigningKey<MlDsa44>>),
    B(Box<pqkit_ml_dsa::SigningKey<MlDsa65>>),
    C(Box<pqkit_ml_dsa::SigningKey<MlDsa87>>),
}

enum Vk {
    A(Box<pqkit_ml_dsa::VerifyingKey<MlDsa44>>),
    B(Box<pqkit_ml_dsa::VerifyingKey<MlDsa65>>),
    C(Box<pqkit_ml_dsa::VerifyingKey<MlDsa87>>),
}

/// An ML-DSA signing key (ML-DSA-44, -65 or -87), kept with its 32-byte
/// seed `xi`.
#[wasm_bindgen]
pub struct MlDsaSigningKey(Sk);

impl MlDsaSigningKey {
    /// The key of `level` from its 32-byte seed.
    pub fn from_seed_bytes(level: u32, seed: &[u8]) -> Result<Self, Error> {
        let xi = zeroize::Zeroizing::new(exact::<32>("ML-DSA seed", seed)?);
        let xi = &(*xi).into();
        Ok(Self(match level {
            44 => Sk::A(Box::new(pqkit_ml_dsa::SigningKey::from_seed(xi))),
            65 => Sk::B(Box::new(pqkit_ml_dsa::SigningKey::from_seed(xi))),
            87 => Sk::C(Box::new(pqkit_ml_dsa::SigningKey::from_seed(xi))),
            l => return Err(Error::UnknownLevel(l)),
        }))
    }

    /// A fresh key of `level` (a random seed).
    pub fn generate_key(level: u32) -> Result<Self, Error> {
        Self::from_seed_bytes(level, random::<32>()?.as_ref())
    }

    /// ML-DSA.Sign of `msg` with context `ctx` (at most 255 bytes):
    /// deterministic (`rnd` = 0) or hedged (`rnd` from the OS).
    pub fn sign_bytes(
        &self,
        msg: &[u8],
        ctx: &[u8],
        deterministic: bool,
    ) -> Result<Vec<u8>, Error> {
        each!(&self.0, Sk, k => {
            let sig = if deterministic {
                k.sign_deterministic(msg, ctx)
            } else {
                k.sign_hedged(msg, ctx)
            };
            sig.map(|s| s.as_bytes().to_vec()).map_err(Error::MlDsa)
        })
    }
}

#[wasm_bindgen]
impl MlDsaSigningKey {
    /// The key of `level` (44, 65 or 87) from its 32-byte seed.
    #[wasm_bindgen(js_name = fromSeed)]
    pub fn from_seed(level: u32, seed: &[u8]) -> Result<MlDsaSigningKey, JsError> {
        Self::from_seed_bytes(level, seed).map_err(to_js)
    }

    /// A fresh key of `level` (44, 65 or 87).
    pub fn generate(level: u32) -> Result<MlDsaSigningKey, JsError> {
        Self::generate_key(level).map_err(to_js)
    }

    /// The 32-byte seed (the private key).
    pub fn seed(&self) -> Vec<u8> {
        each!(&self.0, Sk, k => k.to_seed().to_vec())
    }

    /// The verifying key's bytes.
    #[wasm_bindgen(js_name = verifyingKey)]
    pub fn verifying_key(&self) -> Vec<u8> {
        each!(&self.0, Sk, k => k.verifying_key().as_bytes().to_vec())
    }

    /// A hedged signature of `msg` with the context `ctx` (empty if
    /// omitted).
    pub fn sign(&self, msg: &[u8], ctx: Option<Vec<u8>>) -> Result<Vec<u8>, JsError> {
        self.sign_bytes(msg, ctx.as_deref().unwrap_or_default(), false)
            .map_err(to_js)
    }

    /// The deterministic signature of `msg` with the context `ctx`.
    #[wasm_bindgen(js_name = signDeterministic)]
    pub fn sign_deterministic(&self, msg: &[u8], ctx: Option<Vec<u8>>) -> Result<Vec<u8>, JsError> {
        self.sign_bytes(msg, ctx.as_deref().unwrap_or_default(), true)
            .map_err(to_js)
    }
}

/// An ML-DSA verifying key.
#[wasm_bindgen]
pub struct MlDsaVerifyingKey(Vk);

impl MlDsaVerifyingKey {
    /// The key of `level` from its bytes.
    pub fn from_key_bytes(level: u32, bytes: &[u8]) -> Result<Self, Error> {
        use pqkit_ml_dsa::VerifyingKey as V;
        Ok(Self(match level {
            44 => Vk::A(Box::new(V::from_bytes(bytes).map_err(Error::MlDsa)?)),
            65 => Vk::B(Box::new(V::from_bytes(bytes).map_err(Error::MlDsa)?)),
            87 => Vk::C(Box::new(V::from_bytes(bytes).map_err(Error::MlDsa)?)),
            l => return Err(Error::UnknownLevel(l)),
        }))
    }
}

#[wasm_bindgen]
impl MlDsaVerifyingKey {
    /// The key of `level` (44, 65 or 87) from its bytes.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(level: u32, bytes: &[u8]) -> Result<MlDsaVerifyingKey, JsError> {
        Self::from_key_bytes(level, bytes).map_err(to_js)
    }

    /// Whether `sig` is a valid signature of `msg` with the context `ctx`
    /// (empty if omitted). A malformed signature is simply invalid.
    pub fn verify(&self, msg: &[u8], sig: &[u8], ctx: Option<Vec<u8>>) -> bool {
        let ctx = ctx.as_deref().unwrap_or_default();
        each!(&self.0, Vk, k => pqkit_ml_dsa::Signature::from_bytes(sig)
            .is_ok_and(|s| k.verify_with_context(msg, ctx, &s)))
    }
}

// --------------------------------------------------------------- Ed25519

/// An Ed25519 signing key (its 32-byte secret key).
#[wasm_bindgen]
pub struct Ed25519SigningKey(pqkit_ed25519::SigningKey);

impl Ed25519SigningKey {
    /// The key from its 32-byte secret key.
    pub fn from_secret_bytes(secret: &[u8]) -> Result<Self, Error> {
        let secret = zeroize::Zeroizing::new(exact::<32>("Ed25519 secret key", secret)?);
        Ok(Self(pqkit_ed25519::SigningKey::from_bytes(&secret)))
    }
}

#[wasm_bindgen]
impl Ed25519SigningKey {
    /// The key from its 32-byte secret key.
    #[wasm_bindgen(js_name = fromSeed)]
    pub fn from_seed(secret: &[u8]) -> Result<Ed25519SigningKey, JsError> {
        Self::from_secret_bytes(secret).map_err(to_js)
    }

    /// A fresh key.
    pub fn generate() -> Result<Ed25519SigningKey, JsError> {
        random::<32>()
            .and_then(|s| Self::from_secret_bytes(s.as_ref()))
            .map_err(to_js)
    }

    /// The 32-byte secret key.
    pub fn seed(&self) -> Vec<u8> {
        self.0.to_bytes().to_vec()
    }

    /// The 32-byte verifying key.
    #[wasm_bindgen(js_name = verifyingKey)]
    pub fn verifying_key(&self) -> Vec<u8> {
        self.0.verifying_key().to_bytes().to_vec()
    }

    /// The 64-byte signature of `msg`.
    pub fn sign(&self, msg: &[u8]) -> Vec<u8> {
        use pqkit_ed25519::signature::Signer;
        self.0.sign(msg).to_bytes().to_vec()
    }
}

/// An Ed25519 verifying key.
#[wasm_bindgen]
pub struct Ed25519VerifyingKey(pqkit_ed25519::VerifyingKey);

impl Ed25519VerifyingKey {
    /// The key from its 32 bytes (a point that does not decode is refused).
    pub fn from_key_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let b = exact::<32>("Ed25519 verifying key", bytes)?;
        pqkit_ed25519::VerifyingKey::from_bytes(&b)
            .map(Self)
            .map_err(|e| {
                Error::Ed25519(
                    pqkit_ed25519::Error::from_signature_error(&e)
                        .unwrap_or(pqkit_ed25519::Error::InvalidPoint),
                )
            })
    }
}

#[wasm_bindgen]
impl Ed25519VerifyingKey {
    /// The key from its 32 bytes.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(bytes: &[u8]) -> Result<Ed25519VerifyingKey, JsError> {
        Self::from_key_bytes(bytes).map_err(to_js)
    }

    /// Whether `sig` (64 bytes) is a valid signature of `msg`
    /// (ed25519-dalek's `verify` rules).
    pub fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
        exact::<64>("Ed25519 signature", sig).is_ok_and(|s| {
            let s = pqkit_ed25519::Signature::from_bytes(&s);
            self.0.verify_bytes(msg, &s).is_ok()
        })
    }
}

#[cfg(test)]
mod tests;
