//! The twelve SLH-DSA parameter sets (FIPS 205 Table 2) as zero-sized
//! types, named as in RustCrypto `slh-dsa`.

mod sealed {
    pub trait Sealed {}
}

pub use pqkit_common::ByteArray;

/// The hash family of a parameter set (FIPS 205 §11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HashFamily {
    /// SHAKE256 for every function (FIPS 205 §11.1).
    Shake,
    /// SHA-256 (and SHA-512 at security categories 3 and 5) with the
    /// compressed address (FIPS 205 §11.2).
    Sha2,
}

/// Largest `n` of any parameter set.
pub(crate) const MAX_N: usize = 32;
/// Largest WOTS+ `len = 2 n + 3`.
pub(crate) const MAX_LEN: usize = 2 * MAX_N + 3;
/// Largest `k` (FORS trees).
pub(crate) const MAX_K: usize = 35;
/// Largest `a` (FORS tree height).
pub(crate) const MAX_A: usize = 14;
/// Largest `h'` (XMSS tree height).
pub(crate) const MAX_HP: usize = 9;
/// Largest `m` (H_msg output bytes).
pub(crate) const MAX_M: usize = 49;
/// The height of the top XMSS tree's nodes that a signing key keeps
/// ([`ParameterSet::TopNodesBytes`]): a signature then computes only the
/// `2^3` leaves under its own node there, one batch of eight.
pub(crate) const TOP_HEIGHT: usize = 3;
/// Most nodes kept: `2^(MAX_HP - TOP_HEIGHT)`.
#[cfg(test)]
pub(crate) const MAX_TOP: usize = 1 << (MAX_HP - TOP_HEIGHT);

/// An SLH-DSA parameter set (FIPS 205 Table 2). Implemented by the twelve
/// zero-sized types of this module; sealed.
pub trait ParameterSet:
    Copy + Clone + Default + core::fmt::Debug + PartialEq + Eq + Send + Sync + 'static + sealed::Sealed
{
    /// Name, e.g. `"SLH-DSA-SHA2-128s"`.
    const NAME: &'static str;
    /// The hash family.
    const FAMILY: HashFamily;
    /// Security parameter `n`: bytes of every hash value and seed.
    const N: usize;
    /// Total hypertree height `h`.
    const H: usize;
    /// Hypertree layers `d`.
    const D: usize;
    /// XMSS tree height `h' = h / d`.
    const HP: usize;
    /// FORS tree height `a`.
    const A: usize;
    /// Number of FORS trees `k`.
    const K: usize;
    /// `lg w`: 4 for every set.
    const LG_W: usize = 4;
    /// Bytes of `H_msg` output `m`.
    const M: usize;
    /// WOTS+ chains `len = 2 n + 3`.
    const LEN: usize = 2 * Self::N + 3;
    /// Public key length `2 n`.
    const PK_LEN: usize = 2 * Self::N;
    /// Private key length `4 n`.
    const SK_LEN: usize = 4 * Self::N;
    /// Signature length `n (1 + k (1 + a) + h + d len)`.
    const SIG_LEN: usize;
    /// Public key bytes: `[u8; PK_LEN]`.
    type PublicKeyBytes: ByteArray;
    /// Private key bytes: `[u8; SK_LEN]`.
    type PrivateKeyBytes: ByteArray;
    /// Signature bytes: `[u8; SIG_LEN]`.
    type SignatureBytes: ByteArray;
    /// The nodes at height 3 of the top XMSS tree (`2^(h' - 3) n`
    /// bytes) that a [`SigningKey`](crate::SigningKey) keeps beside its
    /// encoding: not part of any encoding.
    type TopNodesBytes: ByteArray;
}

macro_rules! param_set {
    ($(#[$m:meta])* $name:ident, $str:literal, $fam:ident, n=$n:literal, h=$h:literal, d=$d:literal,
     hp=$hp:literal, a=$a:literal, k=$k:literal, m=$mm:literal, sig=$sig:literal) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;
        impl sealed::Sealed for $name {}
        impl ParameterSet for $name {
            const NAME: &'static str = $str;
            const FAMILY: HashFamily = HashFamily::$fam;
            const N: usize = $n;
            const H: usize = $h;
            const D: usize = $d;
            const HP: usize = $hp;
            const A: usize = $a;
            const K: usize = $k;
            const M: usize = $mm;
            const SIG_LEN: usize = $sig;
            type PublicKeyBytes = [u8; 2 * $n];
            type PrivateKeyBytes = [u8; 4 * $n];
            type SignatureBytes = [u8; $sig];
            type TopNodesBytes = [u8; (1 << ($hp - TOP_HEIGHT)) * $n];
        }
    };
}

param_set!(
    /// SLH-DSA-SHA2-128s (category 1, small signatures).
    Sha2_128s, "SLH-DSA-SHA2-128s", Sha2, n = 16, h = 63, d = 7, hp = 9, a = 12, k = 14, m = 30, sig = 7856
);
param_set!(
    /// SLH-DSA-SHAKE-128s (category 1, small signatures).
    Shake128s, "SLH-DSA-SHAKE-128s", Shake, n = 16, h = 63, d = 7, hp = 9, a = 12, k = 14, m = 30, sig = 7856
);
param_set!(
    /// SLH-DSA-SHA2-128f (category 1, fast signing).
    Sha2_128f, "SLH-DSA-SHA2-128f", Sha2, n = 16, h = 66, d = 22, hp = 3, a = 6, k = 33, m = 34, sig = 17088
);
param_set!(
    /// SLH-DSA-SHAKE-128f (category 1, fast signing).
    Shake128f, "SLH-DSA-SHAKE-128f", Shake, n = 16, h = 66, d = 22, hp = 3, a = 6, k = 33, m = 34, sig = 17088
);
param_set!(
    /// SLH-DSA-SHA2-192s (category 3, small signatures).
    Sha2_192s, "SLH-DSA-SHA2-192s", Sha2, n = 24, h = 63, d = 7, hp = 9, a = 14, k = 17, m = 39, sig = 16224
);
param_set!(
    /// SLH-DSA-SHAKE-192s (category 3, small signatures).
    Shake192s, "SLH-DSA-SHAKE-192s", Shake, n = 24, h = 63, d = 7, hp = 9, a = 14, k = 17, m = 39, sig = 16224
);
param_set!(
    /// SLH-DSA-SHA2-192f (category 3, fast signing).
    Sha2_192f, "SLH-DSA-SHA2-192f", Sha2, n = 24, h = 66, d = 22, hp = 3, a = 8, k = 33, m = 42, sig = 35664
);
param_set!(
    /// SLH-DSA-SHAKE-192f (category 3, fast signing).
    Shake192f, "SLH-DSA-SHAKE-192f", Shake, n = 24, h = 66, d = 22, hp = 3, a = 8, k = 33, m = 42, sig = 35664
);
param_set!(
    /// SLH-DSA-SHA2-256s (category 5, small signatures).
    Sha2_256s, "SLH-DSA-SHA2-256s", Sha2, n = 32, h = 64, d = 8, hp = 8, a = 14, k = 22, m = 47, sig = 29792
);
param_set!(
    /// SLH-DSA-SHAKE-256s (category 5, small signatures).
    Shake256s, "SLH-DSA-SHAKE-256s", Shake, n = 32, h = 64, d = 8, hp = 8, a = 14, k = 22, m = 47, sig = 29792
);
param_set!(
    /// SLH-DSA-SHA2-256f (category 5, fast signing).
    Sha2_256f, "SLH-DSA-SHA2-256f", Sha2, n = 32, h = 68, d = 17, hp = 4, a = 9, k = 35, m = 49, sig = 49856
);
param_set!(
    /// SLH-DSA-SHAKE-256f (category 5, fast signing).
    Shake256f, "SLH-DSA-SHAKE-256f", Shake, n = 32, h = 68, d = 17, hp = 4, a = 9, k = 35, m = 49, sig = 49856
);

#[cfg(test)]
mod tests {
    use super::*;

    fn check<P: ParameterSet>() {
        assert_eq!(P::HP * P::D, P::H, "{}", P::NAME);
        let sig = P::N * (1 + P::K * (1 + P::A) + P::H + P::D * P::LEN);
        assert_eq!(sig, P::SIG_LEN, "{}", P::NAME);
        let m = (P::K * P::A).div_ceil(8) + (P::H - P::HP).div_ceil(8) + P::HP.div_ceil(8);
        assert_eq!(m, P::M, "{}", P::NAME);
        assert_eq!(P::PublicKeyBytes::zeroed().as_ref().len(), P::PK_LEN);
        assert_eq!(P::PrivateKeyBytes::zeroed().as_ref().len(), P::SK_LEN);
        assert_eq!(P::SignatureBytes::zeroed().as_ref().len(), P::SIG_LEN);
        let top = P::TopNodesBytes::zeroed().as_ref().len();
        assert_eq!(top, (1 << (P::HP - TOP_HEIGHT)) * P::N);
        assert!(P::HP >= TOP_HEIGHT && top <= MAX_TOP * MAX_N);
        assert!(P::N <= MAX_N && P::LEN <= MAX_LEN && P::K <= MAX_K);
        assert!(P::A <= MAX_A && P::HP <= MAX_HP && P::M <= MAX_M);
    }

    #[test]
    fn table_2() {
        check::<Sha2_128s>();
        check::<Shake128s>();
        check::<Sha2_128f>();
        check::<Shake128f>();
        check::<Sha2_192s>();
        check::<Shake192s>();
        check::<Sha2_192f>();
        check::<Shake192f>();
        check::<Sha2_256s>();
        check::<Shake256s>();
        check::<Sha2_256f>();
        check::<Shake256f>();
    }
}
