//! WebAssembly SIMD kernels for q = 3329, on the shared 8-lane engine
//! (`simd128_i16`): the transforms and products, lane for lane the
//! portable kernels.

use super::{INV_NTT_F, MOD, N, Ops, Poly, Q, ZETAS};
use crate::simd128_i16::{self as v, Consts};
use core::arch::wasm32::{
    i8x16_shuffle, i8x16_sub, i8x16_swizzle, i16x8, i16x8_add, i16x8_bitmask,
    i16x8_extend_high_i8x16, i16x8_extend_low_i8x16, i16x8_lt, i16x8_narrow_i32x4, i16x8_shuffle,
    i16x8_splat, i32x4_add, i32x4_sub, u8x16, u16x8_shr, u32x4_shr, u32x4_splat, v128, v128_and,
    v128_bitselect, v128_load,
};

static COMPACT: [[u8; 16]; 256] = crate::compact::compact16();

/// Sixteen bytes.
#[inline(always)]
fn load_bytes(b: &[u8; 16]) -> v128 {
    // SAFETY: `b` is 16 readable bytes; no alignment requirement.
    #[allow(unsafe_code)]
    unsafe {
        v128_load(b.as_ptr().cast())
    }
}

/// The eight 12-bit candidates of 12 bytes (the first 12 of `b`), in the
/// order of FIPS 203 Alg. 7: lane `2p` is `b[3p] | (b[3p+1] & 15) << 8`,
/// lane `2p+1` is `b[3p+1] >> 4 | b[3p+2] << 4`.
#[inline(always)]
fn candidates(b: &[u8; 16]) -> v128 {
    let pairs = i8x16_shuffle::<0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11>(
        load_bytes(b),
        load_bytes(b),
    );
    let even = v128_and(pairs, i16x8_splat(0x0fff));
    let odd = u16x8_shr(pairs, 4);
    v128_bitselect(even, odd, i16x8(-1, 0, -1, 0, -1, 0, -1, 0))
}

/// FIPS 203 Alg. 7's candidates of `buf` below q, in order, packed into
/// `acc`; returns their number. Eight candidates (12 bytes) at a time: the
/// accepted lanes are moved to the front by a byte shuffle from
/// [`COMPACT`] and stored whole at the current end (the lanes after it
/// are overwritten by the next store).
fn rej_block(acc: &mut [i16; 120], buf: &[u8; 168]) -> usize {
    let q = i16x8_splat(Q);
    let mut n = 0;
    let mut last = [0u8; 16];
    last[..12].copy_from_slice(&buf[156..]);
    for k in 0..14 {
        // The last 12 bytes have no 16-byte window in `buf`.
        let window = buf[12 * k..].first_chunk::<16>().unwrap_or(&last);
        let c = candidates(window);
        let m = i16x8_bitmask(i16x8_lt(c, q));
        let packed = i8x16_swizzle(c, load_bytes(&COMPACT[usize::from(m)]));
        // n <= 8 k, so the eight lanes from n fit in `acc`.
        if let Some(dst) = acc[n..].first_chunk_mut::<8>() {
            v::store(dst, packed);
        }
        n += m.count_ones() as usize;
    }
    n
}

/// FIPS 203 Alg. 8 with eta = 2 on 16 bytes (32 coefficients): each byte
/// of `d = (t & 0x55..) + ((t >> 1) & 0x55..)` holds two coefficients'
/// bit counts `a` (bits 0-1, 4-5) and `b` (bits 2-3, 6-7).
#[inline(always)]
fn cbd2_block(bytes: &[u8; 16], out: &mut [[i16; 8]]) {
    let t = load_bytes(bytes);
    let m55 = u32x4_splat(0x5555_5555);
    let m03 = u32x4_splat(0x0303_0303);
    let d = i32x4_add(v128_and(t, m55), v128_and(u32x4_shr(t, 1), m55));
    let lo = i8x16_sub(v128_and(d, m03), v128_and(u32x4_shr(d, 2), m03));
    let hi = i8x16_sub(
        v128_and(u32x4_shr(d, 4), m03),
        v128_and(u32x4_shr(d, 6), m03),
    );
    let first = i8x16_shuffle::<0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23>(lo, hi);
    let second =
        i8x16_shuffle::<8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31>(lo, hi);
    let [o0, o1, o2, o3] = out else { return };
    v::store(o0, i16x8_extend_low_i8x16(first));
    v::store(o1, i16x8_extend_high_i8x16(first));
    v::store(o2, i16x8_extend_low_i8x16(second));
    v::store(o3, i16x8_extend_high_i8x16(second));
}

/// FIPS 203 Alg. 8 with eta = 3 on 12 bytes (16 coefficients, the first 12
/// of `bytes`): each 3-byte group in a 32-bit lane, its bit counts
/// `d = t & 0x249249 + ...`, coefficient `i` of the group is
/// `(d >> 6i & 7) - (d >> 6i+3 & 7)`, gathered back into order.
#[inline(always)]
fn cbd3_block(bytes: &[u8; 16], out: &mut [[i16; 8]]) {
    let b = load_bytes(bytes);
    // Bytes 3g..3g+3 into lane g (the top byte zeroed by index 0x80).
    let idx = u8x16(0, 1, 2, 0x80, 3, 4, 5, 0x80, 6, 7, 8, 0x80, 9, 10, 11, 0x80);
    let t = i8x16_swizzle(b, idx);
    let m = u32x4_splat(0x0024_9249);
    let d = i32x4_add(
        i32x4_add(v128_and(t, m), v128_and(u32x4_shr(t, 1), m)),
        v128_and(u32x4_shr(t, 2), m),
    );
    let seven = u32x4_splat(7);
    let coeff = |s: u32| {
        i32x4_sub(
            v128_and(u32x4_shr(d, s), seven),
            v128_and(u32x4_shr(d, s + 3), seven),
        )
    };
    let n01 = i16x8_narrow_i32x4(coeff(0), coeff(6));
    let n23 = i16x8_narrow_i32x4(coeff(12), coeff(18));
    let [o0, o1] = out else { return };
    v::store(o0, i16x8_shuffle::<0, 4, 8, 12, 1, 5, 9, 13>(n01, n23));
    v::store(o1, i16x8_shuffle::<2, 6, 10, 14, 3, 7, 11, 15>(n01, n23));
}

static BASEMUL_Z: [[i16; 8]; N / 16] = super::basemul_zetas8();

/// The base multiplication of one 16-coefficient chunk (`x || y` of each
/// operand), returned as its two halves: the pairs are split into their
/// even and odd coefficients, multiplied as the portable `basemul_mont`
/// does, and interleaved again.
#[inline(always)]
fn basemul_chunk(a: &[[i16; 8]], b: &[[i16; 8]], z: &[i16; 8], c: &Consts) -> (v128, v128) {
    let even = |x, y| i16x8_shuffle::<0, 2, 4, 6, 8, 10, 12, 14>(x, y);
    let odd = |x, y| i16x8_shuffle::<1, 3, 5, 7, 9, 11, 13, 15>(x, y);
    let (ax, ay) = (v::load(&a[0]), v::load(&a[1]));
    let (bx, by) = (v::load(&b[0]), v::load(&b[1]));
    let (a0, a1) = (even(ax, ay), odd(ax, ay));
    let (b0, b1) = (even(bx, by), odd(bx, by));
    let r0 = i16x8_add(
        v::fqmul(v::fqmul(a1, b1, c), v::load(z), c),
        v::fqmul(a0, b0, c),
    );
    let r1 = i16x8_add(v::fqmul(a0, b1, c), v::fqmul(a1, b0, c));
    (
        i16x8_shuffle::<0, 8, 1, 9, 2, 10, 3, 11>(r0, r1),
        i16x8_shuffle::<4, 12, 5, 13, 6, 14, 7, 15>(r0, r1),
    )
}

impl Ops for crate::backend::Simd128 {
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
            let (mut x, mut y) = (v::load(&[0; 8]), v::load(&[0; 8]));
            for (p, q) in a.iter().zip(b).take(4) {
                let pa = &p.coeffs.as_chunks::<8>().0[2 * k..2 * k + 2];
                let pb = &q.coeffs.as_chunks::<8>().0[2 * k..2 * k + 2];
                let (s, t) = basemul_chunk(pa, pb, z, &c);
                x = i16x8_add(x, s);
                y = i16x8_add(y, t);
            }
            v::store(&mut o[0], v::barrett(x, &c));
            v::store(&mut o[1], v::barrett(y, &c));
        }
    }

    fn fqmul_add_q3329(self, a: &mut Poly, f: i16, b: &Poly) {
        let c = Consts::new(MOD);
        let fv = v::load(&[f; 8]);
        for (x, y) in a
            .coeffs
            .as_chunks_mut::<8>()
            .0
            .iter_mut()
            .zip(b.coeffs.as_chunks::<8>().0)
        {
            v::store(
                x,
                v::barrett(i16x8_add(v::fqmul(v::load(x), fv, &c), v::load(y)), &c),
            );
        }
    }

    fn reduce_q3329(self, a: &mut Poly) {
        v::reduce(&mut a.coeffs, MOD);
    }

    fn rej_uniform_q3329(self, a: &mut Poly, filled: usize, buf: &[u8; 168]) -> usize {
        super::rej_uniform_by_block(a, filled, buf, rej_block)
    }

    fn cbd_q3329(self, eta: usize, bytes: &[u8], out: &mut Poly) {
        super::cbd_by_blocks(eta, bytes, out, cbd2_block, cbd3_block);
    }
}
