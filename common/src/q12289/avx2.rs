//! AVX2 kernels for q = 12289, on the shared 16-lane NTT engine (degrees
//! n >= 32; smaller ones run the portable kernels).

use super::{BadLength, Ops, logn_of, same_len};
use super::{INV_F, MAX_N, MOD, ZETAS, portable};
use crate::avx2_i16::{self as v16, Butterfly, Consts};

/// Butterfly distances of the forward NTT of degree `n`, in order.
fn lens(n: usize) -> ([usize; 10], usize) {
    let mut l = [0usize; 10];
    let mut count = 0;
    let mut len = n / 2;
    while len >= 1 {
        l[count] = len;
        count += 1;
        len >>= 1;
    }
    (l, count)
}

// Lane zetas of the shuffle layers (`len` 8, 4, 2, 1) at the degrees
// FN-DSA uses.
static FWD_512: [[i16; 16]; 64] = v16::lane_zetas::<64>(&ZETAS, 512, 1, false);
static INV_512: [[i16; 16]; 64] = v16::lane_zetas::<64>(&ZETAS, 512, 1, true);
static FWD_1024: [[i16; 16]; 128] = v16::lane_zetas::<128>(&ZETAS, 1024, 1, false);
static INV_1024: [[i16; 16]; 128] = v16::lane_zetas::<128>(&ZETAS, 1024, 1, true);

/// The precomputed lane zetas for the degrees FN-DSA uses (others build
/// them on the fly).
fn lane_table(n: usize, inverse: bool) -> &'static [[i16; 16]] {
    match (n, inverse) {
        (512, false) => &FWD_512,
        (512, true) => &INV_512,
        (1024, false) => &FWD_1024,
        (1024, true) => &INV_1024,
        _ => &[],
    }
}

#[target_feature(enable = "avx2")]
pub(super) fn ntt(a: &mut [i16]) {
    let n = a.len();
    let (chunks, rest) = a.as_chunks_mut::<16>();
    if n < 32 || !rest.is_empty() {
        portable::ntt(a);
        return;
    }
    let c = Consts::new(MOD);
    let mut v = v16::load_all::<{ MAX_N / 16 }>(chunks);
    let (l, count) = lens(n);
    let vs = &mut v[..n / 16];
    v16::ntt_layers(
        vs,
        &l[..count],
        Butterfly::CtReduce,
        &|blocks, i| ZETAS[blocks + i],
        lane_table(n, false),
        &c,
    );
    v16::store_all(chunks, vs);
}

#[target_feature(enable = "avx2")]
pub(super) fn inv_ntt_tomont(a: &mut [i16], logn: u32) {
    let n = a.len();
    let (chunks, rest) = a.as_chunks_mut::<16>();
    if n < 32 || !rest.is_empty() {
        portable::inv_ntt_tomont(a, logn);
        return;
    }
    let c = Consts::new(MOD);
    let mut v = v16::load_all::<{ MAX_N / 16 }>(chunks);
    let (mut l, count) = lens(n);
    l[..count].reverse();
    let vs = &mut v[..n / 16];
    v16::ntt_layers(
        vs,
        &l[..count],
        Butterfly::Gs,
        &|blocks, i| ZETAS[2 * blocks - 1 - i],
        lane_table(n, true),
        &c,
    );
    let f = core::arch::x86_64::_mm256_set1_epi16(INV_F[logn as usize]);
    for x in vs.iter_mut() {
        *x = v16::fqmul_vv(*x, f, &c);
    }
    v16::store_all(chunks, vs);
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
        logn_of(a.len())?;
        // SAFETY: an `Avx2` token exists only after AVX2 was detected.
        #[allow(unsafe_code)]
        unsafe {
            ntt(a)
        };
        Ok(())
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
