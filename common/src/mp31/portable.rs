//! Portable RNS kernels: the executable specification of [`super::Ops`].

use super::{Mod31, tbmask};

pub(super) fn ntt(m: &Mod31, a: &mut [u32], gm: &[u32]) {
    let n = a.len();
    let mut t = n;
    let mut k = 1;
    while k < n {
        let ht = t >> 1;
        for (i, blk) in a.chunks_exact_mut(t).enumerate() {
            let s = gm[k + i];
            let (lo, hi) = blk.split_at_mut(ht);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let u = *x;
                let v = m.mmul(*y, s);
                *x = m.add(u, v);
                *y = m.sub(u, v);
            }
        }
        t = ht;
        k <<= 1;
    }
}

pub(super) fn intt(m: &Mod31, a: &mut [u32], igm: &[u32]) {
    let n = a.len();
    let mut t = 1;
    let mut k = n;
    while k > 1 {
        let hk = k >> 1;
        let dt = t << 1;
        for (i, blk) in a.chunks_exact_mut(dt).enumerate() {
            let s = igm[hk + i];
            let (lo, hi) = blk.split_at_mut(t);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let (u, v) = (*x, *y);
                *x = m.half(m.add(u, v));
                *y = m.mmul(m.sub(u, v), s);
            }
        }
        t = dt;
        k = hk;
    }
}

/// `[z, z^2, z^3, z^4]` in Montgomery form, for a Montgomery-form `z`.
pub(super) fn powers4(m: &Mod31, z1: u32) -> [u32; 4] {
    let z2 = m.mmul(z1, z1);
    [z1, z2, m.mmul(z2, z1), m.mmul(z2, z2)]
}

/// Montgomery forms of `2^31`, `2^62`, `2^93`, `2^124`.
pub(super) fn word_weights(m: &Mod31) -> [u32; 4] {
    powers4(m, m.half(m.r2))
}

/// `acc[k] <- acc[k] 2^(31 len) + (words 0..len of integer k) mod p` for
/// the `acc.len()` integers in the word planes of `d`. Four words are
/// folded per step, so that the dependency chain of each integer has one
/// Montgomery product per four words.
pub(super) fn horner(m: &Mod31, acc: &mut [u32], d: &[u32], len: usize) {
    let n = acc.len();
    let [z1, z2, z3, z4] = word_weights(m);
    let mut j = len;
    while !j.is_multiple_of(4) {
        j -= 1;
        for (a, &w) in acc.iter_mut().zip(&d[j * n..(j + 1) * n]) {
            *a = m.add(m.mmul(*a, z1), m.set_u(w));
        }
    }
    while j > 0 {
        j -= 4;
        let r = &d[j * n..(j + 4) * n];
        for (k, a) in acc.iter_mut().enumerate() {
            let c = m.add(
                m.add(m.mmul(r[k + 3 * n], z3), m.mmul(r[k + 2 * n], z2)),
                m.add(m.mmul(r[k + n], z1), m.set_u(r[k])),
            );
            *a = m.add(m.mmul(*a, z4), c);
        }
    }
}

pub(super) fn residues(m: &Mod31, d: &[u32], len: usize, rx: u32, out: &mut [u32]) {
    let n = out.len();
    out.fill(0);
    if len == 0 {
        return;
    }
    horner(m, out, d, len);
    for (o, &w) in out.iter_mut().zip(&d[(len - 1) * n..len * n]) {
        *o = m.sub(*o, rx & (w >> 30).wrapping_neg());
    }
}

pub(super) fn crt_step(
    m: &Mod31,
    s: u32,
    blk: &mut [u32],
    i: usize,
    prod: &[u32],
    carry: &mut [u32],
) {
    carry.fill(0);
    horner(m, carry, blk, i);
    crt_finish(m, s, blk, i, prod, carry);
}

/// The rest of `crt_step` once `carry` holds `(words 0..i) mod p`: the
/// Garner digit `t = (r_i - carry) / P mod p`, then `x += t P`.
pub(super) fn crt_finish(
    m: &Mod31,
    s: u32,
    blk: &mut [u32],
    i: usize,
    prod: &[u32],
    carry: &mut [u32],
) {
    let n = carry.len();
    for (c, &r) in carry.iter_mut().zip(&blk[i * n..(i + 1) * n]) {
        *c = m.mmul(s, m.sub(r, *c));
    }
    // x += t P, word by word; the last carry becomes word i. The digit
    // goes to plane i first so that `carry` can hold the carries.
    let (lo, top) = blk.split_at_mut(i * n);
    let top = &mut top[..n];
    top.copy_from_slice(carry);
    match n {
        // One, two or four integers (the deepest levels): their carry
        // chains side by side, carries and digits in registers.
        1 => return finish_chains::<1>(lo, top, &prod[..i]),
        2 => return finish_chains::<2>(lo, top, &prod[..i]),
        4 => return finish_chains::<4>(lo, top, &prod[..i]),
        _ => {}
    }
    // Any other count: the chains side by side, carries in `carry`.
    carry.fill(0);
    for (j, &pj) in prod[..i].iter().enumerate() {
        let row = &mut lo[j * n..(j + 1) * n];
        for ((w, &t), c) in row.iter_mut().zip(top.iter()).zip(carry.iter_mut()) {
            let z = pj as u64 * t as u64 + *w as u64 + *c as u64;
            *w = z as u32 & 0x7FFF_FFFF;
            *c = (z >> 31) as u32;
        }
    }
    top.copy_from_slice(carry);
}

/// `x += t P` for `N` integers (word-major in `lo`, digits `t` in `top`,
/// which then gets the final carries), the `N` carry chains interleaved.
#[inline(always)]
fn finish_chains<const N: usize>(lo: &mut [u32], top: &mut [u32], prod: &[u32]) {
    let mut t = [0u64; N];
    for (tk, &x) in t.iter_mut().zip(top.iter()) {
        *tk = u64::from(x);
    }
    let mut c = [0u64; N];
    for (row, &pj) in lo.chunks_exact_mut(N).zip(prod) {
        let pj = u64::from(pj);
        for ((w, &tk), ck) in row.iter_mut().zip(&t).zip(c.iter_mut()) {
            let z = pj * tk + u64::from(*w) + *ck;
            *w = z as u32 & 0x7FFF_FFFF;
            *ck = z >> 31;
        }
    }
    for (x, &ck) in top.iter_mut().zip(&c) {
        *x = ck as u32;
    }
}

pub(super) fn addmul_small(x: &mut [u32], n: usize, ys: &[u32], mt: &[i32]) {
    if n == 0 {
        return;
    }
    if n == 2 {
        // Two products per word: |i32 * (2^31 - 1)| < 2^62, so the sum
        // of two, a word and a carry (|carry| < 2^32) fits an i64; the
        // two carry chains run side by side.
        let (m00, m01, m10, m11) = (mt[0] as i64, mt[1] as i64, mt[2] as i64, mt[3] as i64);
        let (mut c0, mut c1) = (0i64, 0i64);
        for (xw, yw) in x.chunks_exact_mut(2).zip(ys.chunks_exact(2)) {
            let (y0, y1) = (yw[0] as i64, yw[1] as i64);
            let z0 = xw[0] as i64 + c0 + m00 * y0 + m10 * y1;
            let z1 = xw[1] as i64 + c1 + m01 * y0 + m11 * y1;
            xw[0] = z0 as u32 & 0x7FFF_FFFF;
            xw[1] = z1 as u32 & 0x7FFF_FFFF;
            c0 = z0 >> 31;
            c1 = z1 >> 31;
        }
        return;
    }
    let wl = ys.len() / n;
    for dst in 0..n {
        let mut cc = 0i128;
        for (u, row) in ys.chunks_exact(n).take(wl).enumerate() {
            let pos = dst + u * n;
            let mut acc = x[pos] as i128 + cc;
            for (j, &y) in row.iter().enumerate() {
                // An i32 times a 31-bit word fits an i64.
                acc += (mt[j * n + dst] as i64 * y as i64) as i128;
            }
            x[pos] = acc as u32 & 0x7FFF_FFFF;
            cc = acc >> 31;
        }
    }
}

pub(super) fn bezout_step(
    w: &mut [u32],
    m: &[u32],
    f: [i64; 4],
    g: [i64; 4],
    t: [u32; 4],
) -> [i64; 4] {
    let len = w.len() / 4;
    let mut c = [0i64; 4];
    for i in 0..len {
        let word = [w[4 * i], w[4 * i + 1], w[4 * i + 2], w[4 * i + 3]];
        for l in 0..4 {
            let h = l / 2;
            let (a, b, mw) = (
                word[2 * h] as u64,
                word[2 * h + 1] as u64,
                m[2 * i + h] as u64,
            );
            // The true value fits 95 bits, but the low 64 bits, read as
            // signed, hold the quotient by 2^31 that matters: wrapping
            // arithmetic and an arithmetic shift are exact.
            let z = a
                .wrapping_mul(f[l] as u64)
                .wrapping_add(b.wrapping_mul(g[l] as u64))
                .wrapping_add(mw.wrapping_mul(t[l] as u64))
                .wrapping_add(c[l] as u64);
            if i > 0 {
                w[4 * (i - 1) + l] = z as u32 & 0x7FFF_FFFF;
            }
            c[l] = (z as i64) >> 31;
        }
    }
    c
}

/// Word `i` of `floor(m / 2)`.
#[inline(always)]
pub(super) fn half_word(m: &[u32], i: usize) -> u32 {
    let up = m.get(i + 1).map_or(0, |&w| w & 1);
    (m[i] >> 1) | (up << 30)
}

pub(super) fn norm_signed(x: &mut [u32], n: usize, m: &[u32]) {
    for k in 0..n {
        // Compare x with floor(m / 2) from the top word down; `gt` ends
        // all-ones iff x > m / 2. `done` marks that a difference was seen.
        let mut gt = 0u32;
        let mut done = 0u32;
        for i in (0..m.len()).rev() {
            let d = half_word(m, i).wrapping_sub(x[k + i * n]);
            gt |= !done & tbmask(d);
            done |= tbmask(d | d.wrapping_neg());
        }
        let mut cc = 0u32;
        for (i, &mw) in m.iter().enumerate() {
            let z = x[k + i * n].wrapping_sub(mw & gt).wrapping_sub(cc);
            x[k + i * n] = z & 0x7FFF_FFFF;
            cc = z >> 31;
        }
    }
}

pub(super) fn sub_shifted(
    x: &mut [u32],
    n: usize,
    xlen: usize,
    y: &[u32],
    ylen: usize,
    sch: usize,
    scl: u32,
) {
    for k in 0..n {
        sub_shifted_one(&mut x[k..], n, xlen, &y[k..], ylen, sch, scl);
    }
}

/// One integer of `sub_shifted` (words at stride `stride`).
fn sub_shifted_one(
    x: &mut [u32],
    stride: usize,
    xlen: usize,
    y: &[u32],
    ylen: usize,
    sch: usize,
    scl: u32,
) {
    if ylen == 0 || sch >= xlen {
        return;
    }
    let ysign = (y[(ylen - 1) * stride] >> 30).wrapping_neg() >> 1;
    let mut carry_in = 0u32;
    let mut cc = 0u32;
    for u in sch..xlen {
        let j = u - sch;
        let wy = if j < ylen { y[j * stride] } else { ysign };
        let ws = ((wy << scl) & 0x7FFF_FFFF) | carry_in;
        carry_in = wy >> (31 - scl);
        let z = x[u * stride].wrapping_sub(ws).wrapping_sub(cc);
        x[u * stride] = z & 0x7FFF_FFFF;
        cc = z >> 31;
    }
}
