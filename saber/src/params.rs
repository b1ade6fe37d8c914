//! The three Saber parameter sets (round 3, Table 1 of the specification)
//! as zero-sized types.

use hybrid_array::ArraySize;
use hybrid_array::sizes::{U672, U736, U992, U1088, U1312, U1472, U1568, U2304, U3040};

mod sealed {
    pub trait Sealed {}
}

/// A Saber parameter set: [`LightSaber`], [`Saber`] or [`FireSaber`].
/// Sealed.
pub trait ParameterSet:
    Copy + Clone + Default + core::fmt::Debug + PartialEq + Eq + Send + Sync + 'static + sealed::Sealed
{
    /// Name, e.g. `"Saber"`.
    const NAME: &'static str;
    /// Module rank `l`.
    const L: usize;
    /// Secret distribution parameter `mu` (centred binomial over `mu / 2`
    /// bits each side).
    const MU: u32;
    /// Bits `eT` of the message-carrying part of the ciphertext.
    const ET: u32;
    /// Encapsulation key length `l * 320 + 32`.
    const PK_LEN: usize;
    /// Decapsulation key length (`s`, `pk`, `H(pk)`, `z`).
    const SK_LEN: usize;
    /// Ciphertext length `l * 320 + 32 * eT`.
    const CT_LEN: usize;
    /// `PK_LEN` as a type-level size.
    type PkSize: ArraySize;
    /// `SK_LEN` as a type-level size.
    type SkSize: ArraySize;
    /// `CT_LEN` as a type-level size.
    type CtSize: ArraySize;
}

macro_rules! param_set {
    ($(#[$m:meta])* $name:ident, $str:literal, l = $l:literal, mu = $mu:literal, et = $et:literal,
     pk = $pk:literal ($pkty:ident), sk = $sk:literal ($skty:ident), ct = $ct:literal ($ctty:ident)) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name;
        impl sealed::Sealed for $name {}
        impl ParameterSet for $name {
            const NAME: &'static str = $str;
            const L: usize = $l;
            const MU: u32 = $mu;
            const ET: u32 = $et;
            const PK_LEN: usize = $pk;
            const SK_LEN: usize = $sk;
            const CT_LEN: usize = $ct;
            type PkSize = $pkty;
            type SkSize = $skty;
            type CtSize = $ctty;
        }
        const _: () = assert!($pk == $l * 320 + 32);
        const _: () = assert!($ct == $l * 320 + 32 * $et);
        const _: () = assert!($sk == $l * 416 + $pk + 64);
    };
}

param_set!(
    /// LightSaber (NIST security category 1).
    LightSaber, "LightSaber", l = 2, mu = 10, et = 3,
    pk = 672 (U672), sk = 1568 (U1568), ct = 736 (U736)
);
param_set!(
    /// Saber (NIST security category 3).
    Saber, "Saber", l = 3, mu = 8, et = 4,
    pk = 992 (U992), sk = 2304 (U2304), ct = 1088 (U1088)
);
param_set!(
    /// FireSaber (NIST security category 5).
    FireSaber, "FireSaber", l = 4, mu = 6, et = 6,
    pk = 1312 (U1312), sk = 3040 (U3040), ct = 1472 (U1472)
);

/// Largest rank of any set.
pub(crate) const MAX_L: usize = 4;
