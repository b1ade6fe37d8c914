//! Portable kernels for q = 3329: the executable specification.

use super::{INV_NTT_F, MOD, N, Poly, Q, ZETAS};

/// FIPS 203 Alg. 9: `k` runs 1..128 over the layers `len = 128 .. 2`.
pub(super) fn ntt(a: &mut Poly) {
    let f = &mut a.coeffs;
    let mut k = 1;
    let mut len = 128;
    while len >= 2 {
        for start in (0..N).step_by(2 * len) {
            let zeta = ZETAS[k];
            k += 1;
            for j in start..start + len {
                let t = MOD.fqmul(zeta, f[j + len]);
                f[j + len] = f[j] - t;
                f[j] += t;
            }
        }
        len >>= 1;
    }
    reduce(a);
}

/// FIPS 203 Alg. 10 with Barrett-reduced sums, then the factor
/// [`INV_NTT_F`]: `k` runs 127 down to 1 over `len = 2 .. 128`.
pub(super) fn inv_ntt_tomont(a: &mut Poly) {
    let f = &mut a.coeffs;
    let mut k = 127;
    let mut len = 2;
    while len <= 128 {
        for start in (0..N).step_by(2 * len) {
            let zeta = ZETAS[k];
            k -= 1;
            for j in start..start + len {
                let t = f[j];
                f[j] = MOD.barrett_reduce(t + f[j + len]);
                f[j + len] = MOD.fqmul(zeta, f[j + len] - t);
            }
        }
        len <<= 1;
    }
    for x in f.iter_mut() {
        *x = MOD.fqmul(*x, INV_NTT_F);
    }
}

/// FIPS 203 Alg. 11/12 with Montgomery products: pairs `(4i, 4i+1)` use
/// `zeta = ZETAS[64 + i]`, pairs `(4i+2, 4i+3)` use `-zeta`.
pub(super) fn basemul_mont(a: &Poly, b: &Poly, r: &mut Poly) {
    for i in 0..N / 4 {
        let zeta = ZETAS[64 + i];
        for (off, z) in [(4 * i, zeta), (4 * i + 2, -zeta)] {
            let (a0, a1) = (a.coeffs[off], a.coeffs[off + 1]);
            let (b0, b1) = (b.coeffs[off], b.coeffs[off + 1]);
            r.coeffs[off] = MOD.fqmul(MOD.fqmul(a1, b1), z) + MOD.fqmul(a0, b0);
            r.coeffs[off + 1] = MOD.fqmul(a0, b1) + MOD.fqmul(a1, b0);
        }
    }
}

/// `r = barrett(sum_j a_j o b_j)` (see `Ops::dot_mont_q3329`).
pub(super) fn dot_mont(a: &[Poly], b: &[Poly], r: &mut Poly) {
    r.coeffs = [0; N];
    let mut t = Poly::default();
    for (x, y) in a.iter().zip(b).take(4) {
        basemul_mont(x, y, &mut t);
        for (o, &v) in r.coeffs.iter_mut().zip(&t.coeffs) {
            *o += v;
        }
    }
    crate::wipe::wipe(&mut t.coeffs);
    reduce(r);
}

/// `a_i = barrett(fqmul(a_i, f) + b_i)` (see `Ops::fqmul_add_q3329`).
pub(super) fn fqmul_add(a: &mut Poly, f: i16, b: &Poly) {
    for (x, &y) in a.coeffs.iter_mut().zip(&b.coeffs) {
        *x = MOD.barrett_reduce(MOD.fqmul(*x, f) + y);
    }
}

/// Barrett-reduce every coefficient.
pub(super) fn reduce(a: &mut Poly) {
    for x in a.coeffs.iter_mut() {
        *x = MOD.barrett_reduce(*x);
    }
}

/// SampleNTT step (see `Ops::rej_uniform_q3329`): accepted candidates are
/// compacted without a data-dependent branch into a scratch array, then
/// appended.
pub(super) fn rej_uniform(p: &mut Poly, filled: usize, buf: &[u8; 168]) -> usize {
    let mut acc = [0i16; 113];
    let mut n = 0usize;
    for t in buf.as_chunks::<3>().0 {
        let d1 = u16::from(t[0]) | ((u16::from(t[1]) & 0xf) << 8);
        let d2 = (u16::from(t[1]) >> 4) | (u16::from(t[2]) << 4);
        acc[n] = d1 as i16;
        n += usize::from(d1 < Q as u16);
        acc[n] = d2 as i16;
        n += usize::from(d2 < Q as u16);
    }
    let take = n.min(N.saturating_sub(filled));
    for (dst, &v) in p.coeffs.iter_mut().skip(filled).zip(&acc[..take]) {
        *dst = v;
    }
    filled + take
}

/// Compress_d and ByteEncode_d (see `Ops::compress_encode_q3329`):
/// `round(2^d x / q) = floor((2^d x + (q - 1) / 2) / q)` by a multiply-shift
/// exact for every such numerator (below `2^23`).
pub(super) fn compress_encode(a: &Poly, d: u32, out: &mut [u8]) -> bool {
    if !(1..=11).contains(&d) || out.len() != 32 * d as usize {
        return false;
    }
    const M: u64 = 10_321_340; // ceil(2^35 / q)
    let mut c = [0u32; N];
    for (o, &y) in c.iter_mut().zip(&a.coeffs) {
        let x = MOD.canonical(y);
        let num = ((x as u64) << d) + (Q as u64 / 2);
        *o = ((num * M) >> 35) as u32 & ((1 << d) - 1);
    }
    let ok = crate::pack::pack256(d, &c, out);
    crate::wipe::wipe(&mut c);
    ok
}

/// ByteDecode_d and Decompress_d (see `Ops::decompress_q3329`).
pub(super) fn decompress(d: u32, bytes: &[u8], a: &mut Poly) -> bool {
    if !(1..=11).contains(&d) {
        return false;
    }
    let mut c = [0u32; N];
    let ok = crate::pack::unpack256(d, bytes, &mut c);
    if ok {
        for (x, &y) in a.coeffs.iter_mut().zip(&c) {
            *x = ((y * Q as u32 + (1 << (d - 1))) >> d) as i16;
        }
    }
    crate::wipe::wipe(&mut c);
    ok
}

/// ByteEncode_12 of canonical representatives (see `Ops::encode12_q3329`):
/// canonical first (a loop the compiler vectorises), then four
/// coefficients to six bytes through one 64-bit word.
pub(super) fn encode12(a: &Poly, out: &mut [u8; 384]) {
    let mut c = [0u16; N];
    for (x, &y) in c.iter_mut().zip(&a.coeffs) {
        *x = MOD.canonical(y) as u16;
    }
    for (q4, o) in c.chunks_exact(4).zip(out.chunks_exact_mut(6)) {
        let w = u64::from(q4[0])
            | (u64::from(q4[1]) << 12)
            | (u64::from(q4[2]) << 24)
            | (u64::from(q4[3]) << 36);
        o.copy_from_slice(&w.to_le_bytes()[..6]);
    }
    crate::wipe::wipe(&mut c);
}

/// ByteDecode_12 with the modulus check (see `Ops::decode12_q3329`).
pub(super) fn decode12(bytes: &[u8; 384], a: &mut Poly) -> subtle::Choice {
    // All ones while every value is below q; one Choice at the end.
    let mut below = u32::MAX;
    for (o, pair) in bytes.chunks_exact(3).zip(a.coeffs.chunks_exact_mut(2)) {
        let x = u32::from(o[0]) | (u32::from(o[1] & 0x0f) << 8);
        let y = u32::from(o[1] >> 4) | (u32::from(o[2]) << 4);
        pair[0] = x as i16;
        pair[1] = y as i16;
        below &= crate::ct::lt_mask_u32(x, Q as u32) & crate::ct::lt_mask_u32(y, Q as u32);
    }
    subtle::Choice::from((below & 1) as u8)
}

/// SamplePolyCBD_eta (see `Ops::cbd_q3329`).
pub(super) fn cbd(eta: usize, bytes: &[u8], p: &mut Poly) {
    if eta == 2 {
        for (chunk, out) in bytes
            .as_chunks::<4>()
            .0
            .iter()
            .zip(p.coeffs.as_chunks_mut::<8>().0)
        {
            let t = u32::from_le_bytes(*chunk);
            let d = (t & 0x5555_5555) + ((t >> 1) & 0x5555_5555);
            for (i, o) in out.iter_mut().enumerate() {
                let a = (d >> (4 * i)) & 3;
                let b = (d >> (4 * i + 2)) & 3;
                *o = a as i16 - b as i16;
            }
        }
    } else if eta == 3 {
        for (chunk, out) in bytes
            .as_chunks::<3>()
            .0
            .iter()
            .zip(p.coeffs.as_chunks_mut::<4>().0)
        {
            let t = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], 0]);
            let d = (t & 0x0024_9249) + ((t >> 1) & 0x0024_9249) + ((t >> 2) & 0x0024_9249);
            for (i, o) in out.iter_mut().enumerate() {
                let a = (d >> (6 * i)) & 7;
                let b = (d >> (6 * i + 3)) & 7;
                *o = a as i16 - b as i16;
            }
        }
    }
}
