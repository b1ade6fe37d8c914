//! The three ML-DSA parameter sets (FIPS 204 Table 1) as zero-sized types.

use pqkit_common::q8380417::{Eta, Gamma2};

mod sealed {
    pub trait Sealed {}
}

pub use pqkit_common::ByteArray;

/// Largest `k` of any parameter set.
pub(crate) const MAX_K: usize = 8;
/// Largest `l` of any parameter set.
pub(crate) const MAX_L: usize = 7;

/// An ML-DSA parameter set (FIPS 204 Table 1). Implemented by [`MlDsa44`],
/// [`MlDsa65`] and [`MlDsa87`]; sealed.
pub trait ParameterSet:
    Copy + Clone + Default + core::fmt::Debug + PartialEq + Eq + Send + Sync + 'static + sealed::Sealed
{
    /// Name, e.g. `"ML-DSA-65"`.
    const NAME: &'static str;
    /// Rows of A.
    const K: usize;
    /// Columns of A.
    const L: usize;
    /// Secret coefficient bound.
    const ETA: Eta;
    /// Number of +-1 coefficients of the challenge.
    const TAU: usize;
    /// `tau * eta`.
    const BETA: i32;
    /// `log2(gamma1)`: 17 or 19.
    const GAMMA1_BITS: u32;
    /// Low-order rounding range.
    const GAMMA2: Gamma2;
    /// Maximum number of ones in the hint.
    const OMEGA: usize;
    /// Collision strength lambda in bits; the commitment hash has
    /// `lambda / 4` bytes.
    const LAMBDA: usize;
    /// Encoded public key length.
    const PK_LEN: usize;
    /// Encoded (expanded) private key length.
    const SK_LEN: usize;
    /// Signature length.
    const SIG_LEN: usize;
    /// Public key bytes: `[u8; PK_LEN]`.
    type PublicKeyBytes: ByteArray;
    /// Expanded private key bytes: `[u8; SK_LEN]`.
    type ExpandedKeyBytes: ByteArray;
    /// Signature bytes: `[u8; SIG_LEN]`.
    type SignatureBytes: ByteArray;
    /// `PK_LEN` as a type-level size: the `KeySize` of
    /// [`VerifyingKey`](crate::VerifyingKey)'s `KeyInit`/`KeyExport`.
    type VerifyingKeySize: hybrid_array::ArraySize;
}

/// `gamma1`.
pub(crate) const fn gamma1<P: ParameterSet>() -> i32 {
    1 << P::GAMMA1_BITS
}

/// Commitment hash length `lambda / 4` bytes.
pub(crate) const fn ctilde_len<P: ParameterSet>() -> usize {
    P::LAMBDA / 4
}

macro_rules! param_set {
    ($(#[$m:meta])* $name:ident, $str:literal, k=$k:literal, l=$l:literal, eta=$eta:expr, tau=$tau:literal,
     g1=$g1:literal, g2=$g2:expr, omega=$omega:literal, lambda=$lambda:literal,
     pk=$pk:literal ($pkty:ident), sk=$sk:literal, sig=$sig:literal) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;
        impl sealed::Sealed for $name {}
        impl ParameterSet for $name {
            const NAME: &'static str = $str;
            const K: usize = $k;
            const L: usize = $l;
            const ETA: Eta = $eta;
            const TAU: usize = $tau;
            const BETA: i32 = $tau * $eta.value();
            const GAMMA1_BITS: u32 = $g1;
            const GAMMA2: Gamma2 = $g2;
            const OMEGA: usize = $omega;
            const LAMBDA: usize = $lambda;
            const PK_LEN: usize = $pk;
            const SK_LEN: usize = $sk;
            const SIG_LEN: usize = $sig;
            type PublicKeyBytes = [u8; $pk];
            type ExpandedKeyBytes = [u8; $sk];
            type SignatureBytes = [u8; $sig];
            type VerifyingKeySize = hybrid_array::sizes::$pkty;
        }
    };
}

param_set!(
    /// ML-DSA-44 (NIST security category 2).
    MlDsa44, "ML-DSA-44", k = 4, l = 4, eta = Eta::Two, tau = 39, g1 = 17, g2 = Gamma2::Q88,
    omega = 80, lambda = 128, pk = 1312 (U1312), sk = 2560, sig = 2420
);
param_set!(
    /// ML-DSA-65 (NIST security category 3).
    MlDsa65, "ML-DSA-65", k = 6, l = 5, eta = Eta::Four, tau = 49, g1 = 19, g2 = Gamma2::Q32,
    omega = 55, lambda = 192, pk = 1952 (U1952), sk = 4032, sig = 3309
);
param_set!(
    /// ML-DSA-87 (NIST security category 5).
    MlDsa87, "ML-DSA-87", k = 8, l = 7, eta = Eta::Two, tau = 60, g1 = 19, g2 = Gamma2::Q32,
    omega = 75, lambda = 256, pk = 2592 (U2592), sk = 4896, sig = 4627
);

#[cfg(test)]
mod tests {
    use super::*;
    use pqkit_common::q8380417::pack;

    fn sizes<P: ParameterSet>() {
        assert!(P::K <= MAX_K && P::L <= MAX_L);
        assert_eq!(P::PK_LEN, 32 + P::K * pack::T1_BYTES);
        assert_eq!(
            <P::VerifyingKeySize as hybrid_array::typenum::Unsigned>::USIZE,
            P::PK_LEN
        );
        assert_eq!(
            P::SK_LEN,
            128 + (P::K + P::L) * pack::eta_bytes(P::ETA) + P::K * pack::T0_BYTES
        );
        assert_eq!(
            P::SIG_LEN,
            ctilde_len::<P>() + P::L * pack::z_bytes(P::GAMMA1_BITS) + P::OMEGA + P::K
        );
    }

    #[test]
    fn encoded_sizes_match_fips_204() {
        sizes::<MlDsa44>();
        sizes::<MlDsa65>();
        sizes::<MlDsa87>();
    }
}
