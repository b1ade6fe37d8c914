//! The three parameter sets (FIPS 203 Table 2) as zero-sized types.

use hybrid_array::ArraySize;
use hybrid_array::sizes::{U1088, U1184, U1568, U1632, U2400, U3168};
use hybrid_array::typenum::{U768, U800};

mod sealed {
    pub trait Sealed {}
}

/// An ML-KEM parameter set. Sealed: [`MlKem512`], [`MlKem768`],
/// [`MlKem1024`].
pub trait ParameterSet:
    Copy
    + Clone
    + Default
    + core::fmt::Debug
    + Eq
    + Ord
    + core::hash::Hash
    + Send
    + Sync
    + 'static
    + sealed::Sealed
{
    /// `"ML-KEM-768"` etc.
    const NAME: &'static str;
    /// Module rank k.
    const K: usize;
    /// eta_1.
    const ETA1: usize;
    /// eta_2.
    const ETA2: usize;
    /// d_u.
    const DU: u32;
    /// d_v.
    const DV: u32;
    /// Encapsulation key bytes, `384 k + 32`.
    const EK_LEN: usize = 384 * Self::K + 32;
    /// Decapsulation key bytes (expanded form), `768 k + 96`.
    const DK_LEN: usize = 768 * Self::K + 96;
    /// Ciphertext bytes, `32 (d_u k + d_v)`.
    const CT_LEN: usize = 32 * (Self::DU as usize * Self::K + Self::DV as usize);
    /// `EK_LEN` as a type.
    type EkSize: ArraySize;
    /// `CT_LEN` as a type.
    type CtSize: ArraySize;
    /// `DK_LEN` as a type.
    type DkSize: ArraySize;
}

macro_rules! set {
    ($(#[$doc:meta])* $t:ident, $name:literal, $k:literal, $eta1:literal, $du:literal, $dv:literal, $ek:ty, $ct:ty, $dk:ty) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $t;
        impl sealed::Sealed for $t {}
        impl ParameterSet for $t {
            const NAME: &'static str = $name;
            const K: usize = $k;
            const ETA1: usize = $eta1;
            const ETA2: usize = 2;
            const DU: u32 = $du;
            const DV: u32 = $dv;
            type EkSize = $ek;
            type CtSize = $ct;
            type DkSize = $dk;
        }
    };
}

set!(
    /// ML-KEM-512 (NIST security category 1).
    MlKem512, "ML-KEM-512", 2, 3, 10, 4, U800, U768, U1632
);
set!(
    /// ML-KEM-768 (NIST security category 3).
    MlKem768, "ML-KEM-768", 3, 2, 10, 4, U1184, U1088, U2400
);
set!(
    /// ML-KEM-1024 (NIST security category 5).
    MlKem1024, "ML-KEM-1024", 4, 2, 11, 5, U1568, U1568, U3168
);
