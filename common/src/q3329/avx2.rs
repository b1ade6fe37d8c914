//! AVX2 kernels for q = 3329, on the shared 16-lane NTT engine.

use super::{INV_NTT_F, MOD, Poly, ZETAS};
use crate::avx2_i16::{self as v16, Butterfly, Consts};

const FWD: [usize; 7] = [128, 64, 32, 16, 8, 4, 2];
const INV: [usize; 7] = [2, 4, 8, 16, 32, 64, 128];

/// Per-lane zetas of the three shuffle layers (`len` 8, 4, 2) for the 8
/// vector pairs, in the order the layers run (see `ntt_layers`), computed
/// at compile time from `ZETAS` with the engine's lane layout.
const fn lane_zetas(inverse: bool) -> [[i16; 16]; 24] {
    let mut out = [[0i16; 16]; 24];
    let lens: [usize; 3] = if inverse { [2, 4, 8] } else { [8, 4, 2] };
    let mut s = 0;
    while s < 3 {
        let len = lens[s];
        let blocks = 256 / (2 * len);
        let per_vec = 16 / (2 * len);
        let mut pair = 0;
        while pair < 8 {
            let first = pair * 2 * per_vec;
            let mut p = 0;
            while p < 16 {
                let i = first + v16::lane_block(p, len);
                out[s * 8 + pair][p] = if inverse {
                    ZETAS[2 * blocks - 1 - i]
                } else {
                    ZETAS[blocks + i]
                };
                p += 1;
            }
            pair += 1;
        }
        s += 1;
    }
    out
}

/// Lanes `[z, 0, -z, 0]` of the base multiplication for the four
/// degree-1 pairs groups of each 16-coefficient chunk (`z = ZETAS[64 + i]`
/// for group `i`); the zero lanes are not used.
const fn basemul_zetas() -> [[i16; 16]; 16] {
    let mut out = [[0i16; 16]; 16];
    let mut j = 0;
    while j < 16 {
        let mut g = 0;
        while g < 4 {
            let z = ZETAS[64 + 4 * j + g];
            out[j][4 * g] = z;
            out[j][4 * g + 2] = -z;
            g += 1;
        }
        j += 1;
    }
    out
}

static BASEMUL_Z: [[i16; 16]; 16] = basemul_zetas();

static FWD_LANES: [[i16; 16]; 24] = lane_zetas(false);
static INV_LANES: [[i16; 16]; 24] = lane_zetas(true);

#[target_feature(enable = "avx2")]
pub(super) fn ntt(a: &mut Poly) {
    let c = Consts::new(MOD);
    let mut v = v16::load_all::<16>(a.chunks());
    // Layer with `blocks` blocks uses ZETAS[blocks + i] (k = 1, 2, 3, ...).
    v16::ntt_layers(
        &mut v,
        &FWD,
        Butterfly::Ct,
        &|blocks, i| ZETAS[blocks + i],
        &FWD_LANES,
        &c,
    );
    for x in v.iter_mut() {
        *x = v16::barrett(*x, &c);
    }
    v16::store_all(a.chunks_mut(), &v);
}

#[target_feature(enable = "avx2")]
pub(super) fn inv_ntt_tomont(a: &mut Poly) {
    let c = Consts::new(MOD);
    let mut v = v16::load_all::<16>(a.chunks());
    // k runs 127 down: a layer with `blocks` blocks uses ZETAS[2 blocks - 1 - i].
    v16::ntt_layers(
        &mut v,
        &INV,
        Butterfly::Gs,
        &|blocks, i| ZETAS[2 * blocks - 1 - i],
        &INV_LANES,
        &c,
    );
    let f = core::arch::x86_64::_mm256_set1_epi16(INV_NTT_F);
    for x in v.iter_mut() {
        *x = v16::fqmul_vv(*x, f, &c);
    }
    v16::store_all(a.chunks_mut(), &v);
}

/// Base multiplication (FIPS 203 Alg. 11/12 with Montgomery factors),
/// lane for lane the portable `basemul_mont`: for each pair,
/// `r0 = fqmul(fqmul(a1, b1), +-z) + fqmul(a0, b0)` and
/// `r1 = fqmul(a0, b1) + fqmul(a1, b0)`.
#[target_feature(enable = "avx2")]
pub(super) fn basemul_mont(a: &Poly, b: &Poly, r: &mut Poly) {
    use core::arch::x86_64::*;
    let c = Consts::new(MOD);
    // Byte shuffles per 128-bit lane: duplicate the even / odd i16 of each
    // pair, and swap the two i16 of each pair.
    let even = _mm256_setr_epi8(
        0, 1, 0, 1, 4, 5, 4, 5, 8, 9, 8, 9, 12, 13, 12, 13, //
        0, 1, 0, 1, 4, 5, 4, 5, 8, 9, 8, 9, 12, 13, 12, 13,
    );
    let odd = _mm256_setr_epi8(
        2, 3, 2, 3, 6, 7, 6, 7, 10, 11, 10, 11, 14, 15, 14, 15, //
        2, 3, 2, 3, 6, 7, 6, 7, 10, 11, 10, 11, 14, 15, 14, 15,
    );
    let swap = _mm256_setr_epi8(
        2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, //
        2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
    );
    let rows = a.chunks().iter().zip(b.chunks()).zip(&BASEMUL_Z);
    for (((ac, bc), zc), rc) in rows.zip(r.chunks_mut().iter_mut()) {
        let av = v16::load(ac);
        let bv = v16::load(bc);
        let a0 = _mm256_shuffle_epi8(av, even);
        let a1 = _mm256_shuffle_epi8(av, odd);
        let bs = _mm256_shuffle_epi8(bv, swap);
        // q = [a0 b0, a0 b1], p = [a1 b1, a1 b0] (Montgomery products).
        let q = v16::fqmul_vv(a0, bv, &c);
        let p = v16::fqmul_vv(a1, bs, &c);
        let zv = v16::load(zc);
        let pz = v16::fqmul_vv(p, zv, &c);
        // Even lanes take fqmul(a1 b1, z), odd lanes a1 b0.
        let sel = _mm256_blend_epi16::<0b1010_1010>(pz, p);
        v16::store(rc, _mm256_add_epi16(sel, q));
    }
}

#[target_feature(enable = "avx2")]
pub(super) fn reduce(a: &mut Poly) {
    let c = Consts::new(MOD);
    for chunk in a.chunks_mut() {
        let x = v16::barrett(v16::load(chunk), &c);
        v16::store(chunk, x);
    }
}
