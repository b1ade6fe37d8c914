//! AVX2 kernels for q = 12289, on the shared 16-lane NTT engine (the
//! degrees FN-DSA uses, 512 and 1024, and 256 for Saber's exact products
//! in [`crate::pow2`]; other degrees run the portable transforms).

use super::{BadLength, MASK_FULL, MASK_SMALL, Ops, logn_of, same_len};
use super::{INV_F, MOD, ZETAS, portable};
use crate::avx2_i16::{self as v16, Consts};

// Zeta schedules (distances n/2 .. 1) at the degrees FN-DSA and Saber
// use; other degrees run the portable kernels.
const GROUP: usize = v16::group_len(1);
const S256: usize = v16::schedule_len(256, 1);
static FWD_256: [v16::Zv; S256] = v16::schedule::<S256>(&ZETAS, 256, 1, false, MOD.qinv);
static INV_256: [v16::Zv; S256] = v16::schedule::<S256>(&ZETAS, 256, 1, true, MOD.qinv);
const S512: usize = v16::schedule_len(512, 1);
const S1024: usize = v16::schedule_len(1024, 1);
static FWD_512: [v16::Zv; S512] = v16::schedule::<S512>(&ZETAS, 512, 1, false, MOD.qinv);
static INV_512: [v16::Zv; S512] = v16::schedule::<S512>(&ZETAS, 512, 1, true, MOD.qinv);
static FWD_1024: [v16::Zv; S1024] = v16::schedule::<S1024>(&ZETAS, 1024, 1, false, MOD.qinv);
static INV_1024: [v16::Zv; S1024] = v16::schedule::<S1024>(&ZETAS, 1024, 1, true, MOD.qinv);

/// The schedule of degree `n` (forward or inverse), if it has one.
fn schedule(n: usize, inverse: bool) -> Option<&'static [v16::Zv]> {
    match (n, inverse) {
        (256, false) => Some(&FWD_256),
        (256, true) => Some(&INV_256),
        (512, false) => Some(&FWD_512),
        (512, true) => Some(&INV_512),
        (1024, false) => Some(&FWD_1024),
        (1024, true) => Some(&INV_1024),
        _ => None,
    }
}

/// The forward NTT with the reduction schedule `MASK` (`MASK_FULL` or
/// `MASK_SMALL`), as the portable kernel.
#[target_feature(enable = "avx2")]
fn ntt<const MASK: u32>(a: &mut [i16]) {
    let (chunks, rest) = a.as_chunks_mut::<16>();
    match schedule(16 * chunks.len(), false) {
        Some(t) if rest.is_empty() => {
            let c = Consts::new(MOD);
            v16::forward::<{ v16::CT_LAZY }, 1, GROUP, false, MASK>(chunks, t, &c);
        }
        _ => portable::ntt(a, MASK),
    }
}

/// [`ntt`] behind the length check, for the two `Ops` methods.
fn ntt_checked<const MASK: u32>(a: &mut [i16]) -> Result<(), BadLength> {
    logn_of(a.len())?;
    // SAFETY: called only from `Avx2` methods; an `Avx2` token exists only
    // after AVX2 was detected.
    #[allow(unsafe_code)]
    unsafe {
        ntt::<MASK>(a)
    };
    Ok(())
}

#[target_feature(enable = "avx2")]
pub(super) fn inv_ntt_tomont(a: &mut [i16], logn: u32) {
    let (chunks, rest) = a.as_chunks_mut::<16>();
    match schedule(16 * chunks.len(), true) {
        Some(t) if rest.is_empty() => {
            let c = Consts::new(MOD);
            v16::inverse::<1, GROUP>(chunks, t, INV_F[logn as usize], &c);
        }
        _ => portable::inv_ntt_tomont(a, logn),
    }
}

#[target_feature(enable = "avx2")]
pub(super) fn pointwise_mont(a: &[i16], b: &[i16], r: &mut [i16]) {
    let c = Consts::new(MOD);
    let (ac, at) = a.as_chunks::<16>();
    let (bc, bt) = b.as_chunks::<16>();
    let (rc, rt) = r.as_chunks_mut::<16>();
    for ((x, y), o) in ac.iter().zip(bc).zip(rc.iter_mut()) {
        v16::store(o, v16::fqmul_vv(v16::load(x), v16::load(y), &c));
    }
    portable::pointwise_mont(at, bt, rt);
}

#[target_feature(enable = "avx2")]
pub(super) fn reduce(a: &mut [i16]) {
    let c = Consts::new(MOD);
    let (chunks, rest) = a.as_chunks_mut::<16>();
    for x in chunks.iter_mut() {
        v16::store(x, v16::barrett(v16::load(x), &c));
    }
    portable::reduce(rest);
}

impl Ops for crate::backend::Avx2 {
    fn ntt_q12289(self, a: &mut [i16]) -> Result<(), BadLength> {
        ntt_checked::<MASK_FULL>(a)
    }
    fn ntt_small_q12289(self, a: &mut [i16]) -> Result<(), BadLength> {
        ntt_checked::<MASK_SMALL>(a)
    }
    fn inv_ntt_tomont_q12289(self, a: &mut [i16]) -> Result<(), BadLength> {
        let logn = logn_of(a.len())?;
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            inv_ntt_tomont(a, logn)
        };
        Ok(())
    }
    fn pointwise_mont_q12289(self, a: &[i16], b: &[i16], r: &mut [i16]) -> Result<(), BadLength> {
        same_len(a, b, r)?;
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            pointwise_mont(a, b, r)
        };
        Ok(())
    }
    fn reduce_q12289(self, a: &mut [i16]) {
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            reduce(a)
        }
    }
}
