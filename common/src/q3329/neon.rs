//! aarch64 NEON kernels for q = 3329, on the shared 8-lane engine
//! (`neon_i16`): the transforms and products, lane for lane the portable
//! kernels.

use super::{INV_NTT_F, MOD, N, Ops, Poly, ZETAS};
use crate::neon_i16::{self as v, Consts};
use core::arch::aarch64::int16x8_t;

/// Lanes `[z0, -z0, z1, -z1, z2, -z2, z3, -z3]` for the eight degree-1
/// pairs of 16-coefficient chunk `j` (`zg = ZETAS[64 + 4j + g]`; pairs
/// `(4i, 4i+1)` use `+z`, pairs `(4i+2, 4i+3)` use `-z`).
const fn basemul_zetas() -> [[i16; 8]; N / 16] {
    let mut out = [[0i16; 8]; N / 16];
    let mut j = 0;
    while j < N / 16 {
        let mut g = 0;
        while g < 4 {
            let z = ZETAS[64 + 4 * j + g];
            out[j][2 * g] = z;
            out[j][2 * g + 1] = -z;
            g += 1;
        }
        j += 1;
    }
    out
}

static BASEMUL_Z: [[i16; 8]; N / 16] = basemul_zetas();

/// The base multiplication of one 16-coefficient chunk (`x || y` of each
/// operand), returned as its two halves: the pairs are split into their
/// even and odd coefficients, multiplied as the portable `basemul_mont`
/// does, and interleaved again.
#[inline(always)]
fn basemul_chunk(
    a: &[[i16; 8]],
    b: &[[i16; 8]],
    z: &[i16; 8],
    c: &Consts,
) -> (int16x8_t, int16x8_t) {
    let (ax, ay) = (v::load(&a[0]), v::load(&a[1]));
    let (bx, by) = (v::load(&b[0]), v::load(&b[1]));
    let (a0, a1) = (v::even(ax, ay), v::odd(ax, ay));
    let (b0, b1) = (v::even(bx, by), v::odd(bx, by));
    let r0 = v::add(
        v::fqmul(v::fqmul(a1, b1, c), v::load(z), c),
        v::fqmul(a0, b0, c),
    );
    let r1 = v::add(v::fqmul(a0, b1, c), v::fqmul(a1, b0, c));
    (v::interleave_low(r0, r1), v::interleave_high(r0, r1))
}

impl Ops for crate::backend::Neon {
    fn ntt_q3329(self, a: &mut Poly) {
        v::forward(&mut a.coeffs, &ZETAS, MOD, 0, 2);
    }

    fn inv_ntt_tomont_q3329(self, a: &mut Poly) {
        v::inverse(&mut a.coeffs, &ZETAS, MOD, 2, INV_NTT_F);
    }

    fn basemul_mont_q3329(self, a: &Poly, b: &Poly, r: &mut Poly) {
        let c = Consts::new(MOD);
        let (a, _) = a.coeffs.as_chunks::<8>();
        let (b, _) = b.coeffs.as_chunks::<8>();
        let (r, _) = r.coeffs.as_chunks_mut::<8>();
        for (((r, a), b), z) in r
            .chunks_exact_mut(2)
            .zip(a.chunks_exact(2))
            .zip(b.chunks_exact(2))
            .zip(&BASEMUL_Z)
        {
            let (x, y) = basemul_chunk(a, b, z, &c);
            v::store(&mut r[0], x);
            v::store(&mut r[1], y);
        }
    }

    fn dot_mont_q3329(self, a: &[Poly], b: &[Poly], r: &mut Poly) {
        let c = Consts::new(MOD);
        let (out, _) = r.coeffs.as_chunks_mut::<8>();
        for (k, (o, z)) in out.chunks_exact_mut(2).zip(&BASEMUL_Z).enumerate() {
            let (mut x, mut y) = (v::splat(0), v::splat(0));
            for (p, q) in a.iter().zip(b).take(4) {
                let pa = &p.coeffs.as_chunks::<8>().0[2 * k..2 * k + 2];
                let pb = &q.coeffs.as_chunks::<8>().0[2 * k..2 * k + 2];
                let (s, t) = basemul_chunk(pa, pb, z, &c);
                x = v::add(x, s);
                y = v::add(y, t);
            }
            v::store(&mut o[0], v::barrett(x, &c));
            v::store(&mut o[1], v::barrett(y, &c));
        }
    }

    fn fqmul_add_q3329(self, a: &mut Poly, f: i16, b: &Poly) {
        let c = Consts::new(MOD);
        let fv = v::splat(f);
        for (x, y) in a
            .coeffs
            .as_chunks_mut::<8>()
            .0
            .iter_mut()
            .zip(b.coeffs.as_chunks::<8>().0)
        {
            v::store(
                x,
                v::barrett(v::add(v::fqmul(v::load(x), fv, &c), v::load(y)), &c),
            );
        }
    }

    fn reduce_q3329(self, a: &mut Poly) {
        v::reduce(&mut a.coeffs, MOD);
    }
}
