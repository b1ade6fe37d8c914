//! Signature verification for certificates (rustls-webpki) and TLS 1.3
//! CertificateVerify: ML-DSA-44/65/87 (RFC 9881) and Ed25519 (RFC 8410)
//! from pqkit, ECDSA and RSA from ring, in one
//! [`WebPkiSupportedAlgorithms`].

use core::marker::PhantomData;

use pqkit_ml_dsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet};
use rustls::SignatureScheme;
use rustls::crypto::WebPkiSupportedAlgorithms;
use rustls::pki_types::{
    AlgorithmIdentifier, InvalidSignature, SignatureVerificationAlgorithm, alg_id,
};
use webpki::ring as ring_algs;

/// Pure ML-DSA with the empty context, as RFC 9881 (certificates) and
/// draft-ietf-tls-mldsa (CertificateVerify) use it.
pub struct MlDsaVerify<P: ParameterSet> {
    alg_id: AlgorithmIdentifier,
    _p: PhantomData<fn() -> P>,
}

impl<P: ParameterSet> core::fmt::Debug for MlDsaVerify<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "MlDsaVerify({})", P::NAME)
    }
}

impl<P: ParameterSet> SignatureVerificationAlgorithm for MlDsaVerify<P> {
    /// `public_key` is the encoded key (the SPKI's BIT STRING contents);
    /// any malformed key or signature is `InvalidSignature`.
    fn verify_signature(
        &self,
        public_key: &[u8],
        message: &[u8],
        signature: &[u8],
    ) -> Result<(), InvalidSignature> {
        let vk = pqkit_ml_dsa::VerifyingKey::<P>::from_bytes(public_key)
            .map_err(|_| InvalidSignature)?;
        let sig =
            pqkit_ml_dsa::Signature::<P>::from_bytes(signature).map_err(|_| InvalidSignature)?;
        if vk.verify_with_context(message, &[], &sig) {
            Ok(())
        } else {
            Err(InvalidSignature)
        }
    }

    fn public_key_alg_id(&self) -> AlgorithmIdentifier {
        self.alg_id
    }

    /// The same OID (parameters absent) signs certificates.
    fn signature_alg_id(&self) -> AlgorithmIdentifier {
        self.alg_id
    }
}

/// Ed25519 (RFC 8032 verification with ed25519-dalek's rules: canonical
/// `S`, cofactorless equation; the rules ring applies too).
#[derive(Debug)]
pub struct Ed25519Verify;

impl SignatureVerificationAlgorithm for Ed25519Verify {
    fn verify_signature(
        &self,
        public_key: &[u8],
        message: &[u8],
        signature: &[u8],
    ) -> Result<(), InvalidSignature> {
        let pk: &[u8; 32] = public_key.try_into().map_err(|_| InvalidSignature)?;
        let vk = pqkit_ed25519::VerifyingKey::from_bytes(pk).map_err(|_| InvalidSignature)?;
        let sig = pqkit_ed25519::Signature::from_slice(signature).map_err(|_| InvalidSignature)?;
        vk.verify_bytes(message, &sig).map_err(|_| InvalidSignature)
    }

    fn public_key_alg_id(&self) -> AlgorithmIdentifier {
        alg_id::ED25519
    }

    fn signature_alg_id(&self) -> AlgorithmIdentifier {
        alg_id::ED25519
    }
}

/// ML-DSA-44 (OID 2.16.840.1.101.3.4.3.17, TLS scheme 0x0904).
pub static ML_DSA_44: &dyn SignatureVerificationAlgorithm = &MlDsaVerify::<MlDsa44> {
    alg_id: alg_id::ML_DSA_44,
    _p: PhantomData,
};
/// ML-DSA-65 (OID 2.16.840.1.101.3.4.3.18, TLS scheme 0x0905).
pub static ML_DSA_65: &dyn SignatureVerificationAlgorithm = &MlDsaVerify::<MlDsa65> {
    alg_id: alg_id::ML_DSA_65,
    _p: PhantomData,
};
/// ML-DSA-87 (OID 2.16.840.1.101.3.4.3.19, TLS scheme 0x0906).
pub static ML_DSA_87: &dyn SignatureVerificationAlgorithm = &MlDsaVerify::<MlDsa87> {
    alg_id: alg_id::ML_DSA_87,
    _p: PhantomData,
};
/// Ed25519 (OID 1.3.101.112, TLS scheme 0x0807) on pqkit.
pub static ED25519: &dyn SignatureVerificationAlgorithm = &Ed25519Verify;

/// pqkit's algorithms (ML-DSA, Ed25519) and ring's (ECDSA P-256/P-384,
/// RSA PKCS#1 and PSS), for chains (`all`) and CertificateVerify
/// (`mapping`, in the order the signature_algorithms extension offers
/// them: ML-DSA first).
pub static SUPPORTED_SIG_ALGS: WebPkiSupportedAlgorithms = WebPkiSupportedAlgorithms {
    all: &[
        ML_DSA_44,
        ML_DSA_65,
        ML_DSA_87,
        ED25519,
        ring_algs::ECDSA_P256_SHA256,
        ring_algs::ECDSA_P256_SHA384,
        ring_algs::ECDSA_P384_SHA256,
        ring_algs::ECDSA_P384_SHA384,
        ring_algs::RSA_PSS_2048_8192_SHA256_LEGACY_KEY,
        ring_algs::RSA_PSS_2048_8192_SHA384_LEGACY_KEY,
        ring_algs::RSA_PSS_2048_8192_SHA512_LEGACY_KEY,
        ring_algs::RSA_PKCS1_2048_8192_SHA256,
        ring_algs::RSA_PKCS1_2048_8192_SHA384,
        ring_algs::RSA_PKCS1_2048_8192_SHA512,
        ring_algs::RSA_PKCS1_2048_8192_SHA256_ABSENT_PARAMS,
        ring_algs::RSA_PKCS1_2048_8192_SHA384_ABSENT_PARAMS,
        ring_algs::RSA_PKCS1_2048_8192_SHA512_ABSENT_PARAMS,
    ],
    mapping: &[
        (SignatureScheme::ML_DSA_87, &[ML_DSA_87]),
        (SignatureScheme::ML_DSA_65, &[ML_DSA_65]),
        (SignatureScheme::ML_DSA_44, &[ML_DSA_44]),
        (
            SignatureScheme::ECDSA_NISTP384_SHA384,
            &[ring_algs::ECDSA_P384_SHA384, ring_algs::ECDSA_P256_SHA384],
        ),
        (
            SignatureScheme::ECDSA_NISTP256_SHA256,
            &[ring_algs::ECDSA_P256_SHA256, ring_algs::ECDSA_P384_SHA256],
        ),
        (SignatureScheme::ED25519, &[ED25519]),
        (
            SignatureScheme::RSA_PSS_SHA512,
            &[ring_algs::RSA_PSS_2048_8192_SHA512_LEGACY_KEY],
        ),
        (
            SignatureScheme::RSA_PSS_SHA384,
            &[ring_algs::RSA_PSS_2048_8192_SHA384_LEGACY_KEY],
        ),
        (
            SignatureScheme::RSA_PSS_SHA256,
            &[ring_algs::RSA_PSS_2048_8192_SHA256_LEGACY_KEY],
        ),
        (
            SignatureScheme::RSA_PKCS1_SHA512,
            &[ring_algs::RSA_PKCS1_2048_8192_SHA512],
        ),
        (
            SignatureScheme::RSA_PKCS1_SHA384,
            &[ring_algs::RSA_PKCS1_2048_8192_SHA384],
        ),
        (
            SignatureScheme::RSA_PKCS1_SHA256,
            &[ring_algs::RSA_PKCS1_2048_8192_SHA256],
        ),
    ],
};
