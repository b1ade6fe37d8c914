//! The two FN-DSA parameter sets as zero-sized types (the toy degrees are
//! only reachable through [`hazmat::toy`](crate::hazmat::toy)).

pub use pqkit_common::ByteArray;

mod sealed {
    pub trait Sealed {}
}

/// An FN-DSA parameter set: [`FnDsa512`] or [`FnDsa1024`]. Sealed.
pub trait ParameterSet:
    Copy + Clone + Default + core::fmt::Debug + PartialEq + Eq + Send + Sync + 'static + sealed::Sealed
{
    /// Name, e.g. `"FN-DSA-512"`.
    const NAME: &'static str;
    /// log2 of the degree.
    const LOGN: u32;
    /// Size of an encoded signing key.
    const SIGNING_KEY_SIZE: usize;
    /// Size of an encoded verifying key.
    const VERIFYING_KEY_SIZE: usize;
    /// Size of a signature.
    const SIGNATURE_SIZE: usize;
    /// `[u8; SIGNING_KEY_SIZE]`.
    type SigningKeyBytes: ByteArray;
    /// `[u8; VERIFYING_KEY_SIZE]`.
    type VerifyingKeyBytes: ByteArray;
    /// `[u8; SIGNATURE_SIZE]`.
    type SignatureBytes: ByteArray;
    /// The **provisional** OQS OID of PKCS#8/SPKI (FIPS 206 OIDs are not
    /// assigned yet).
    #[cfg(feature = "pkcs8")]
    const OID: pkcs8::ObjectIdentifier;
}

macro_rules! param_set {
    ($(#[$m:meta])* $name:ident, $str:literal, logn = $logn:literal, sk = $sk:literal,
     vk = $vk:literal, sig = $sig:literal, oid = $oid:literal) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;
        impl sealed::Sealed for $name {}
        impl ParameterSet for $name {
            const NAME: &'static str = $str;
            const LOGN: u32 = $logn;
            const SIGNING_KEY_SIZE: usize = $sk;
            const VERIFYING_KEY_SIZE: usize = $vk;
            const SIGNATURE_SIZE: usize = $sig;
            type SigningKeyBytes = [u8; $sk];
            type VerifyingKeyBytes = [u8; $vk];
            type SignatureBytes = [u8; $sig];
            #[cfg(feature = "pkcs8")]
            const OID: pkcs8::ObjectIdentifier = pkcs8::ObjectIdentifier::new_unwrap($oid);
        }
        const _: () = assert!(crate::encoding::signing_key_size($logn) == $sk);
        const _: () = assert!(crate::encoding::verifying_key_size($logn) == $vk);
        const _: () = assert!(crate::encoding::signature_size($logn) == $sig);
    };
}

param_set!(
    /// FN-DSA-512 (Falcon-512, degree 512).
    FnDsa512, "FN-DSA-512", logn = 9, sk = 1281, vk = 897, sig = 666, oid = "1.3.9999.3.11"
);
param_set!(
    /// FN-DSA-1024 (Falcon-1024, degree 1024).
    FnDsa1024, "FN-DSA-1024", logn = 10, sk = 2305, vk = 1793, sig = 1280, oid = "1.3.9999.3.14"
);
