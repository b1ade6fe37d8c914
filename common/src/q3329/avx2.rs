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

#[target_feature(enable = "avx2")]
pub(super) fn reduce(a: &mut Poly) {
    let c = Consts::new(MOD);
    for chunk in a.chunks_mut() {
        let x = v16::barrett(v16::load(chunk), &c);
        v16::store(chunk, x);
    }
}
