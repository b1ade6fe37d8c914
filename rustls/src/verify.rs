//! Signature verification for certificates (rustls-webpki) and TLS 1.3
//! CertificateVerify: ML-DSA-44/65/87 (RFC 9881), SLH-DSA (the twelve
//! sets of RFC 9909, certificates only: TLS has no SLH-DSA code points in
//! rustls) and Ed25519 (RFC 8410) from pqkit, ECDSA and RSA from ring, in
//! one [`WebPkiSupportedAlgorithms`].

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

/// Pure SLH-DSA with the empty context, as RFC 9909 signs certificates.
pub struct SlhDsaVerify<P: pqkit_slh_dsa::ParameterSet> {
    alg_id: AlgorithmIdentifier,
    _p: PhantomData<fn() -> P>,
}

impl<P: pqkit_slh_dsa::ParameterSet> core::fmt::Debug for SlhDsaVerify<P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SlhDsaVerify(n = {})", P::N)
    }
}

impl<P: pqkit_slh_dsa::ParameterSet> SignatureVerificationAlgorithm for SlhDsaVerify<P> {
    /// `public_key` is the `2 n`-byte key; any malformed key or signature
    /// is `InvalidSignature`.
    fn verify_signature(
        &self,
        public_key: &[u8],
        message: &[u8],
        signature: &[u8],
    ) -> Result<(), InvalidSignature> {
        let vk = pqkit_slh_dsa::VerifyingKey::<P>::from_bytes(public_key)
            .map_err(|_| InvalidSignature)?;
        vk.verify_bytes(message, &[], signature)
            .map_err(|_| InvalidSignature)
    }

    fn public_key_alg_id(&self) -> AlgorithmIdentifier {
        self.alg_id
    }

    /// The same OID (parameters absent) signs certificates.
    fn signature_alg_id(&self) -> AlgorithmIdentifier {
        self.alg_id
    }
}

macro_rules! slh_dsa_algs {
    ($($stat:ident = $set:ident, $last:literal, $oid:literal;)*) => {$(
        #[doc = concat!("SLH-DSA ", stringify!($set), " (OID ", $oid, ").")]
        pub static $stat: &dyn SignatureVerificationAlgorithm =
            &SlhDsaVerify::<pqkit_slh_dsa::$set> {
                // The OID's DER (parameters absent): 2.16.840.1.101.3.4.3.x.
                alg_id: AlgorithmIdentifier::from_slice(&[
                    0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, $last,
                ]),
                _p: PhantomData,
            };
    )*};
}

slh_dsa_algs! {
    SLH_DSA_SHA2_128S = Sha2_128s, 20, "2.16.840.1.101.3.4.3.20";
    SLH_DSA_SHA2_128F = Sha2_128f, 21, "2.16.840.1.101.3.4.3.21";
    SLH_DSA_SHA2_192S = Sha2_192s, 22, "2.16.840.1.101.3.4.3.22";
    SLH_DSA_SHA2_192F = Sha2_192f, 23, "2.16.840.1.101.3.4.3.23";
    SLH_DSA_SHA2_256S = Sha2_256s, 24, "2.16.840.1.101.3.4.3.24";
    SLH_DSA_SHA2_256F = Sha2_256f, 25, "2.16.840.1.101.3.4.3.25";
    SLH_DSA_SHAKE_128S = Shake128s, 26, "2.16.840.1.101.3.4.3.26";
    SLH_DSA_SHAKE_128F = Shake128f, 27, "2.16.840.1.101.3.4.3.27";
    SLH_DSA_SHAKE_192S = Shake192s, 28, "2.16.840.1.101.3.4.3.28";
    SLH_DSA_SHAKE_192F = Shake192f, 29, "2.16.840.1.101.3.4.3.29";
    SLH_DSA_SHAKE_256S = Shake256s, 30, "2.16.840.1.101.3.4.3.30";
    SLH_DSA_SHAKE_256F = Shake256f, 31, "2.16.840.1.101.3.4.3.31";
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

/// pqkit's algorithms (ML-DSA, SLH-DSA, Ed25519) and ring's (ECDSA P-256/P-384,
/// RSA PKCS#1 and PSS), for chains (`all`) and CertificateVerify
/// (`mapping`, in the order the signature_algorithms extension offers
/// them: ML-DSA first).
pub static SUPPORTED_SIG_ALGS: WebPkiSupportedAlgorithms = WebPkiSupportedAlgorithms {
    all: &[
        ML_DSA_44,
        ML_DSA_65,
        ML_DSA_87,
        SLH_DSA_SHA2_128S,
        SLH_DSA_SHA2_128F,
        SLH_DSA_SHA2_192S,
        SLH_DSA_SHA2_192F,
        SLH_DSA_SHA2_256S,
        SLH_DSA_SHA2_256F,
        SLH_DSA_SHAKE_128S,
        SLH_DSA_SHAKE_128F,
        SLH_DSA_SHAKE_192S,
        SLH_DSA_SHAKE_192F,
        SLH_DSA_SHAKE_256S,
        SLH_DSA_SHAKE_256F,
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
