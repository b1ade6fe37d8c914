//! AVX2 kernels on big integers stored as word planes (word `j` of
//! integer `k` at `d[k + j n]`, 31-bit words): residues modulo a prime
//! (Horner folds across or along the words), the Garner CRT step,
//! small-matrix multiply-accumulate, the 32.32 fixed-point division, the
//! binary GCD's Bezout step, centring after CRT and shifted subtraction.

use super::*;

/// Lane-wise Horner evaluation `sum_j word(j) z^j mod p` over
/// `j < count`, with `z` the step weight and `zs = [z, z^2, z^3, z^4]`
/// (Montgomery forms): four terms are folded per step, so that each lane's
/// dependency chain has one product per four terms.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn horner_fold(c: &C, zs: &[V; 4], count: usize, word: impl Fn(usize) -> V) -> V {
    let mut acc = _mm256_setzero_si256();
    let mut j = count;
    while !j.is_multiple_of(4) {
        j -= 1;
        acc = add(c, mmul(c, acc, zs[0]), word(j));
    }
    while j > 0 {
        j -= 4;
        let t = add(
            c,
            add(c, mmul(c, word(j + 3), zs[2]), mmul(c, word(j + 2), zs[1])),
            add(c, mmul(c, word(j + 1), zs[0]), word(j)),
        );
        acc = add(c, mmul(c, acc, zs[3]), t);
    }
    acc
}

/// Horner evaluation of lanes `q..q + 8` of the integers in the word
/// planes `0..len` of `d` (stride `n`): `sum_j word_j 2^(31 j) mod p`.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn horner8(c: &C, z: &[V; 4], d: &[u32], n: usize, len: usize, q: usize) -> V {
    horner_fold(c, z, len, |j| reduce_once(c, load(lanes(d, j * n + q))))
}

/// Whether `horner_small` takes a batch of `n` integers of `len` words:
/// `n` divides 8 and there are enough words to fill the lanes.
pub(super) fn small_batch(n: usize, len: usize) -> bool {
    matches!(n, 1 | 2 | 4) && len * n >= 64
}

/// Residues of words `0..len` of the `n` (1, 2 or 4) integers in the word
/// planes of `d`, with the lanes running along the words instead of
/// across the integers: register `q` holds values `8q..8q + 8` of the
/// planes, so lane `l` is word `(8 / n) q + l / n` of integer `l mod n`.
/// Each lane is a Horner chain in steps of `8 / n` words; the lanes are
/// then weighted by `2^(31 (l / n))` and summed per integer.
#[target_feature(enable = "avx2")]
pub(super) fn horner_small(m: &Mod31, d: &[u32], n: usize, len: usize) -> [u32; 4] {
    let c = consts(m);
    let g = (8 / n) as u32;
    let total = len * n;
    let chunk = |q: usize| -> V {
        let at = 8 * q;
        if at + 8 <= total {
            reduce_once(&c, load(lanes(d, at)))
        } else {
            let mut t = [0u32; 8];
            t[..total - at].copy_from_slice(&d[at..total]);
            reduce_once(&c, load(&t))
        }
    };
    // pw[e]: Montgomery form of 2^(31 e), e <= 8.
    let mut pw = [m.one_m(); 9];
    for e in 1..9 {
        pw[e] = m.mmul(pw[e - 1], m.half(m.r2));
    }
    // Montgomery forms of 2^(31 g e): multiplying by them shifts by e
    // registers.
    let z = portable::powers4(m, pw[g as usize]).map(|x| _mm256_set1_epi32(x as i32));
    let acc = horner_fold(&c, &z, total.div_ceil(8), chunk);
    let mut lw = [0u32; 8];
    for (l, x) in lw.iter_mut().enumerate() {
        *x = pw[l / n];
    }
    let mut out = [0u32; 8];
    store(&mut out, mmul(&c, acc, load(&lw)));
    let mut r = [0u32; 4];
    for (l, &x) in out.iter().enumerate() {
        r[l % n] = m.add(r[l % n], x);
    }
    r
}

#[target_feature(enable = "avx2")]
pub(super) fn weights(m: &Mod31) -> [V; 4] {
    portable::word_weights(m).map(|x| _mm256_set1_epi32(x as i32))
}

#[target_feature(enable = "avx2")]
pub(super) fn residues(m: &Mod31, d: &[u32], len: usize, rx: u32, out: &mut [u32]) {
    let n = out.len();
    if len > 0 && small_batch(n, len) {
        let r = horner_small(m, d, n, len);
        for (k, o) in out.iter_mut().enumerate() {
            let neg = (d[k + (len - 1) * n] >> 30).wrapping_neg();
            *o = m.sub(r[k], rx & neg);
        }
        return;
    }
    if len == 0 || !n.is_multiple_of(8) {
        portable::residues(m, d, len, rx, out);
        return;
    }
    let c = consts(m);
    let z = weights(m);
    let rx = _mm256_set1_epi32(rx as i32);
    let top = &d[(len - 1) * n..len * n];
    for (q, (o, t)) in out
        .as_chunks_mut::<8>()
        .0
        .iter_mut()
        .zip(top.as_chunks::<8>().0)
        .enumerate()
    {
        let acc = horner8(&c, &z, d, n, len, 8 * q);
        // Bit 30 of the top word is the sign.
        let neg = _mm256_srai_epi32::<31>(_mm256_slli_epi32::<1>(load(t)));
        store(o, sub(&c, acc, _mm256_and_si256(rx, neg)));
    }
}

#[target_feature(enable = "avx2")]
pub(super) fn crt_step(
    m: &Mod31,
    s: u32,
    blk: &mut [u32],
    i: usize,
    prod: &[u32],
    carry: &mut [u32],
) {
    let n = carry.len();
    if small_batch(n, i) {
        let r = horner_small(m, blk, n, i);
        carry.copy_from_slice(&r[..n]);
        portable::crt_finish(m, s, blk, i, prod, carry);
        return;
    }
    if !n.is_multiple_of(8) {
        portable::crt_step(m, s, blk, i, prod, carry);
        return;
    }
    let c = consts(m);
    let z = weights(m);
    let sv = _mm256_set1_epi32(s as i32);
    let mask31 = _mm256_set1_epi32(0x7FFF_FFFF);
    for q in (0..n).step_by(8) {
        let acc = horner8(&c, &z, blk, n, i, q);
        let top = lanes_mut(blk, i * n + q);
        // The Garner digit t, then x += t P with 64-bit carries per lane
        // (even and odd lanes apart).
        let t = mmul(&c, sv, sub(&c, load(top), acc));
        let to = _mm256_srli_epi64::<32>(t);
        let lo32 = _mm256_set1_epi64x(0xFFFF_FFFF);
        let (mut ce, mut co) = (_mm256_setzero_si256(), _mm256_setzero_si256());
        for (j, &pj) in prod[..i].iter().enumerate() {
            let row = lanes_mut(blk, j * n + q);
            let w = load(row);
            let pv = _mm256_set1_epi32(pj as i32);
            let ze = _mm256_add_epi64(
                _mm256_add_epi64(_mm256_mul_epu32(t, pv), _mm256_and_si256(w, lo32)),
                ce,
            );
            let zo = _mm256_add_epi64(
                _mm256_add_epi64(_mm256_mul_epu32(to, pv), _mm256_srli_epi64::<32>(w)),
                co,
            );
            let nw = _mm256_blend_epi32::<0xAA>(ze, _mm256_slli_epi64::<32>(zo));
            store(row, _mm256_and_si256(nw, mask31));
            ce = _mm256_srli_epi64::<31>(ze);
            co = _mm256_srli_epi64::<31>(zo);
        }
        let top = lanes_mut(blk, i * n + q);
        store(
            top,
            _mm256_blend_epi32::<0xAA>(ce, _mm256_slli_epi64::<32>(co)),
        );
    }
}

/// `n` = 4 or 8 (smaller batches are faster in scalar code): the `n`
/// outputs sit in one or two registers of four 64-bit lanes. Each word `y` is split into 16 + 15 bits so that the
/// lane sums of `i32 * y_part` products stay below 2^51; the carries are
/// floor divisions by 2^31 and 2^15, done as logical shifts of values
/// biased to be non-negative (AVX2 has no 64-bit arithmetic shift).
#[target_feature(enable = "avx2")]
pub(super) fn addmul_small(x: &mut [u32], n: usize, ys: &[u32], mt: &[i32]) {
    if n != 4 && n != 8 {
        portable::addmul_small(x, n, ys, mt);
        return;
    }
    let nv = n / 4;
    let zero = _mm256_setzero_si256();
    let mut mv = [[zero; 2]; 8];
    for (j, row) in mv.iter_mut().enumerate().take(n) {
        for (v, m) in row.iter_mut().enumerate().take(nv) {
            let src = mt[j * n + 4 * v..].as_chunks::<4>().0[0].map(|c| c as u32);
            *m = _mm256_cvtepi32_epi64(load4(&src));
        }
    }
    let mask31 = _mm256_set1_epi64x(0x7FFF_FFFF);
    let mask15 = _mm256_set1_epi64x(0x7FFF);
    let bias62 = _mm256_set1_epi64x(1 << 62);
    let bias60 = _mm256_set1_epi64x(1 << 60);
    let off31 = _mm256_set1_epi64x(1 << 31);
    let off45 = _mm256_set1_epi64x(1 << 45);
    let pack = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    let mut cc = [zero; 2];
    for (u, row) in ys.chunks_exact(n).enumerate() {
        let (mut lo, mut hi) = ([zero; 2], [zero; 2]);
        for (&y, mj) in row.iter().zip(&mv) {
            let yl = _mm256_set1_epi64x((y & 0xFFFF) as i64);
            let yh = _mm256_set1_epi64x((y >> 16) as i64);
            for v in 0..nv {
                lo[v] = _mm256_add_epi64(lo[v], _mm256_mul_epi32(mj[v], yl));
                hi[v] = _mm256_add_epi64(hi[v], _mm256_mul_epi32(mj[v], yh));
            }
        }
        for v in 0..nv {
            let dst = &mut x[u * n + 4 * v..].as_chunks_mut::<4>().0[0];
            let xw = _mm256_cvtepu32_epi64(load4(dst));
            let hl = _mm256_slli_epi64::<16>(_mm256_and_si256(hi[v], mask15));
            let t = _mm256_add_epi64(_mm256_add_epi64(xw, cc[v]), _mm256_add_epi64(lo[v], hl));
            let tq = _mm256_sub_epi64(_mm256_srli_epi64::<31>(_mm256_add_epi64(t, bias62)), off31);
            let hq = _mm256_sub_epi64(
                _mm256_srli_epi64::<15>(_mm256_add_epi64(hi[v], bias60)),
                off45,
            );
            cc[v] = _mm256_add_epi64(tq, hq);
            let w = _mm256_permutevar8x32_epi32(_mm256_and_si256(t, mask31), pack);
            store4(dst, _mm256_castsi256_si128(w));
        }
    }
}

/// `div_fx32` on the four 64-bit lanes of `xv` and `yv`, step for step
/// the same restoring division: the partial remainder keeps `r - |y|`
/// where that is non-negative (a blend on its sign bit) and the quotient
/// bits are shifted in from the right.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn div_lanes(xv: V, yv: V) -> V {
    let zero = _mm256_setzero_si256();
    let one = _mm256_set1_epi64x(1);
    let sx = _mm256_cmpgt_epi64(zero, xv);
    let sy = _mm256_cmpgt_epi64(zero, yv);
    let ax = _mm256_sub_epi64(_mm256_xor_si256(xv, sx), sx);
    let ay = _mm256_sub_epi64(_mm256_xor_si256(yv, sy), sy);
    let mut q = zero;
    let mut r = _mm256_srli_epi64::<31>(ax);
    for bit in (0..64).rev() {
        let d = _mm256_sub_epi64(r, ay);
        // Quotient bit: 1 where d >= 0 (signed).
        let b = _mm256_xor_si256(_mm256_srli_epi64::<63>(d), one);
        q = _mm256_or_si256(_mm256_slli_epi64::<1>(q), b);
        let keep = _mm256_blendv_pd(
            _mm256_castsi256_pd(d),
            _mm256_castsi256_pd(r),
            _mm256_castsi256_pd(d),
        );
        r = _mm256_slli_epi64::<1>(_mm256_castpd_si256(keep));
        if bit >= 33 {
            let cnt = _mm_cvtsi64_si128(bit - 33);
            r = _mm256_or_si256(r, _mm256_and_si256(_mm256_srl_epi64(ax, cnt), one));
        }
    }
    // Round up when twice the remainder reaches |y|.
    let d = _mm256_sub_epi64(r, ay);
    q = _mm256_add_epi64(q, _mm256_xor_si256(_mm256_srli_epi64::<63>(d), one));
    let s = _mm256_xor_si256(sx, sy);
    _mm256_sub_epi64(_mm256_xor_si256(q, s), s)
}

/// `div_fx32` four lanes at a time, two registers per step so that two
/// independent chains overlap.
#[target_feature(enable = "avx2")]
pub(super) fn div_fx32(x: &mut [u64], y: &[u64]) {
    let y = &y[..x.len()];
    let (xc, xr) = x.as_chunks_mut::<8>();
    let (yc, yr) = y.as_chunks::<8>();
    for (xv, yv) in xc.iter_mut().zip(yc) {
        let (x0, x1) = xv.split_at_mut(4);
        let (x0, x1) = (
            &mut x0.as_chunks_mut::<4>().0[0],
            &mut x1.as_chunks_mut::<4>().0[0],
        );
        let (y0, y1) = (
            &yv[..4].as_chunks::<4>().0[0],
            &yv[4..].as_chunks::<4>().0[0],
        );
        let (q0, q1) = (
            div_lanes(load_u64(x0), load_u64(y0)),
            div_lanes(load_u64(x1), load_u64(y1)),
        );
        store_u64(x0, q0);
        store_u64(x1, q1);
    }
    let (xc, xr) = xr.as_chunks_mut::<4>();
    let (yc, yr) = yr.as_chunks::<4>();
    for (xv, yv) in xc.iter_mut().zip(yc) {
        store_u64(xv, div_lanes(load_u64(xv), load_u64(yv)));
    }
    for (a, &b) in xr.iter_mut().zip(yr) {
        *a = div_scalar(*a, b);
    }
}

/// Lane-wise `a * s mod 2^64` for `a < 2^32` and a signed `s` with
/// `|s| <= 2^31` (its low 32 bits read unsigned, minus `a 2^32` when `s`
/// is negative).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn mul_signed(a: V, s: V, sneg: V) -> V {
    _mm256_sub_epi64(
        _mm256_mul_epu32(a, s),
        _mm256_and_si256(_mm256_slli_epi64::<32>(a), sneg),
    )
}

#[target_feature(enable = "avx2")]
pub(super) fn bezout_step(
    w: &mut [u32],
    m: &[u32],
    f: [i64; 4],
    g: [i64; 4],
    t: [u32; 4],
) -> [i64; 4] {
    let zero = _mm256_setzero_si256();
    let fv = _mm256_setr_epi64x(f[0], f[1], f[2], f[3]);
    let gv = _mm256_setr_epi64x(g[0], g[1], g[2], g[3]);
    let tv = _mm256_setr_epi64x(t[0] as i64, t[1] as i64, t[2] as i64, t[3] as i64);
    let (fneg, gneg) = (_mm256_cmpgt_epi64(zero, fv), _mm256_cmpgt_epi64(zero, gv));
    let mask31 = _mm256_set1_epi64x(0x7FFF_FFFF);
    let bit32 = _mm256_set1_epi64x(1 << 32);
    let pack = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    let len = w.len() / 4;
    let mut c = zero;
    for i in 0..len {
        let word = load4(&w[4 * i..].as_chunks::<4>().0[0]);
        // (A, B) per lane: words (0, 1) for lanes 0, 1 and (2, 3) for 2, 3.
        let a = _mm256_cvtepu32_epi64(_mm_shuffle_epi32::<0b10_10_00_00>(word));
        let b = _mm256_cvtepu32_epi64(_mm_shuffle_epi32::<0b11_11_01_01>(word));
        let mm = [m[2 * i], m[2 * i], m[2 * i + 1], m[2 * i + 1]];
        let mv = _mm256_cvtepu32_epi64(load4(&mm));
        let z = _mm256_add_epi64(
            _mm256_add_epi64(mul_signed(a, fv, fneg), mul_signed(b, gv, gneg)),
            _mm256_add_epi64(_mm256_mul_epu32(mv, tv), c),
        );
        if i > 0 {
            let out = _mm256_permutevar8x32_epi32(_mm256_and_si256(z, mask31), pack);
            store4(
                &mut w[4 * (i - 1)..].as_chunks_mut::<4>().0[0],
                _mm256_castsi256_si128(out),
            );
        }
        // Arithmetic shift by 31: logical shift, then sign-extend from
        // bit 32.
        let sh = _mm256_srli_epi64::<31>(z);
        c = _mm256_sub_epi64(_mm256_xor_si256(sh, bit32), bit32);
    }
    let mut out = [0u64; 4];
    store_u64(&mut out, c);
    out.map(|x| x as i64)
}

/// Eight integers per register (lanes across the integers); batches that
/// are not a multiple of 8 run the portable kernel.
#[target_feature(enable = "avx2")]
pub(super) fn norm_signed(x: &mut [u32], n: usize, m: &[u32]) {
    if !n.is_multiple_of(8) {
        portable::norm_signed(x, n, m);
        return;
    }
    let zero = _mm256_setzero_si256();
    let mask31 = _mm256_set1_epi32(0x7FFF_FFFF);
    for q in (0..n).step_by(8) {
        let (mut gt, mut done) = (zero, zero);
        for i in (0..m.len()).rev() {
            let hw = _mm256_set1_epi32(portable::half_word(m, i) as i32);
            let d = _mm256_sub_epi32(hw, load(lanes(x, q + i * n)));
            gt = _mm256_or_si256(gt, _mm256_andnot_si256(done, _mm256_srai_epi32::<31>(d)));
            done = _mm256_or_si256(
                done,
                _mm256_andnot_si256(_mm256_cmpeq_epi32(d, zero), _mm256_set1_epi32(-1)),
            );
        }
        let mut cc = zero;
        for (i, &mw) in m.iter().enumerate() {
            let w = lanes_mut(x, q + i * n);
            let sub = _mm256_and_si256(_mm256_set1_epi32(mw as i32), gt);
            let z = _mm256_sub_epi32(_mm256_sub_epi32(load(w), sub), cc);
            store(w, _mm256_and_si256(z, mask31));
            cc = _mm256_srli_epi32::<31>(z);
        }
    }
}

/// Eight integers per register; other batch sizes run the portable code.
#[target_feature(enable = "avx2")]
pub(super) fn sub_shifted(
    x: &mut [u32],
    n: usize,
    xlen: usize,
    y: &[u32],
    ylen: usize,
    sch: usize,
    scl: u32,
) {
    if !n.is_multiple_of(8) {
        portable::sub_shifted(x, n, xlen, y, ylen, sch, scl);
        return;
    }
    if ylen == 0 || sch >= xlen {
        return;
    }
    let mask31 = _mm256_set1_epi32(0x7FFF_FFFF);
    let left = _mm_cvtsi32_si128(scl as i32);
    let right = _mm_cvtsi32_si128(31 - scl as i32);
    for q in (0..n).step_by(8) {
        // Sign words of y: all-ones (31 bits) where y is negative.
        let top = load(lanes(y, q + (ylen - 1) * n));
        let ysign = _mm256_srli_epi32::<1>(_mm256_srai_epi32::<31>(_mm256_slli_epi32::<1>(top)));
        let (mut carry_in, mut cc) = (_mm256_setzero_si256(), _mm256_setzero_si256());
        for u in sch..xlen {
            let j = u - sch;
            let wy = if j < ylen {
                load(lanes(y, q + j * n))
            } else {
                ysign
            };
            let ws = _mm256_or_si256(
                _mm256_and_si256(_mm256_sll_epi32(wy, left), mask31),
                carry_in,
            );
            carry_in = _mm256_srl_epi32(wy, right);
            let xw = lanes_mut(x, q + u * n);
            let z = _mm256_sub_epi32(_mm256_sub_epi32(load(xw), ws), cc);
            store(xw, _mm256_and_si256(z, mask31));
            cc = _mm256_srli_epi32::<31>(z);
        }
    }
}

/// [`super::super::fx_mul`] on four lanes: with `a = ah 2^32 + al` (`ah`
/// signed, `al` unsigned) and `b` alike, `floor(a b / 2^32) = ah bh 2^32
/// + ah bl + al bh + floor(al bl / 2^32)`, every term wrapped to 64 bits.
/// The 32x32-bit products are unsigned (`vpmuludq`); a negative `a` reads
/// `ah` as `ah + 2^32`, which adds `bl 2^32` to `ah bl` (and `b` alike),
/// so those are taken back: `((b & [a < 0]) + (a & [b < 0])) << 32`.
#[target_feature(enable = "avx2")]
#[inline]
fn fx_mul4(a: V, b: V) -> V {
    let ah = _mm256_srli_epi64::<32>(a);
    let bh = _mm256_srli_epi64::<32>(b);
    let hh = _mm256_slli_epi64::<32>(_mm256_mul_epu32(ah, bh));
    let cross = _mm256_add_epi64(_mm256_mul_epu32(ah, b), _mm256_mul_epu32(a, bh));
    let ll = _mm256_srli_epi64::<32>(_mm256_mul_epu32(a, b));
    let zero = _mm256_setzero_si256();
    let fix = _mm256_add_epi64(
        _mm256_and_si256(b, _mm256_cmpgt_epi64(zero, a)),
        _mm256_and_si256(a, _mm256_cmpgt_epi64(zero, b)),
    );
    _mm256_sub_epi64(
        _mm256_add_epi64(_mm256_add_epi64(hh, cross), ll),
        _mm256_slli_epi64::<32>(fix),
    )
}

/// [`super::super::fx_cmul`] on four lanes.
#[target_feature(enable = "avx2")]
#[inline]
fn fx_cmul4(ar: V, ai: V, br: V, bi: V) -> (V, V) {
    let z0 = fx_mul4(ar, br);
    let z1 = fx_mul4(ai, bi);
    let z2 = fx_mul4(_mm256_add_epi64(ar, ai), _mm256_add_epi64(br, bi));
    (
        _mm256_sub_epi64(z0, z1),
        _mm256_sub_epi64(z2, _mm256_add_epi64(z0, z1)),
    )
}

/// [`super::super::fx_half`] on four lanes: `(a + 1) >> 1` with the sign
/// bit kept (AVX2 has no 64-bit arithmetic shift).
#[target_feature(enable = "avx2")]
#[inline]
fn fx_half4(a: V) -> V {
    let a = _mm256_add_epi64(a, _mm256_set1_epi64x(1));
    _mm256_or_si256(
        _mm256_srli_epi64::<1>(a),
        _mm256_and_si256(a, _mm256_set1_epi64x(i64::MIN)),
    )
}

/// The four-lane steps of a group: `top` and `bot` (real parts, then
/// imaginary parts) in whole blocks of four; the rest is left to the
/// scalar loop. Returns how many butterflies were done.
macro_rules! fx_group {
    ($re:ident, $im:ident, $body:expr) => {{
        let h = $re.len() / 2;
        let (rt, rb) = $re.split_at_mut(h);
        let (it, ib) = $im[..2 * h].split_at_mut(h);
        let (rt, _) = rt.as_chunks_mut::<4>();
        let (rb, _) = rb.as_chunks_mut::<4>();
        let (it, _) = it.as_chunks_mut::<4>();
        let (ib, _) = ib.as_chunks_mut::<4>();
        let mut done = 0;
        for (((xr, xi), yr), yi) in rt.iter_mut().zip(it).zip(rb).zip(ib) {
            let (tr, ti, br, bi) = $body(load_u64(xr), load_u64(xi), load_u64(yr), load_u64(yi));
            store_u64(xr, tr);
            store_u64(xi, ti);
            store_u64(yr, br);
            store_u64(yi, bi);
            done += 4;
        }
        done
    }};
}

/// Forward FFT butterflies of one group, four at a time (see
/// `Ops::fx_fft_group`); returns how many were done (a multiple of four).
#[target_feature(enable = "avx2")]
pub(super) fn fx_fft_group4(re: &mut [u64], im: &mut [u64], sr: u64, si: u64) -> usize {
    let (sr, si) = (_mm256_set1_epi64x(sr as i64), _mm256_set1_epi64x(si as i64));
    fx_group!(re, im, |xr, xi, yr, yi| {
        let (zr, zi) = fx_cmul4(sr, si, yr, yi);
        (
            _mm256_add_epi64(xr, zr),
            _mm256_add_epi64(xi, zi),
            _mm256_sub_epi64(xr, zr),
            _mm256_sub_epi64(xi, zi),
        )
    })
}

/// Inverse FFT butterflies of one group, four at a time (see
/// `Ops::fx_ifft_group`); returns how many were done.
#[target_feature(enable = "avx2")]
pub(super) fn fx_ifft_group4(re: &mut [u64], im: &mut [u64], sr: u64, si: u64) -> usize {
    let (sr, si) = (_mm256_set1_epi64x(sr as i64), _mm256_set1_epi64x(si as i64));
    fx_group!(re, im, |xr, xi, yr, yi| {
        let dr = fx_half4(_mm256_sub_epi64(xr, yr));
        let di = fx_half4(_mm256_sub_epi64(xi, yi));
        let (zr, zi) = fx_cmul4(sr, si, dr, di);
        (
            fx_half4(_mm256_add_epi64(xr, yr)),
            fx_half4(_mm256_add_epi64(xi, yi)),
            zr,
            zi,
        )
    })
}

/// `a <- fx_cmul(a, b)` four complex values at a time; returns how many
/// were done (a multiple of four).
#[target_feature(enable = "avx2")]
pub(super) fn fx_cmul_pointwise(
    a_re: &mut [u64],
    a_im: &mut [u64],
    b_re: &[u64],
    b_im: &[u64],
) -> usize {
    let (ar, _) = a_re.as_chunks_mut::<4>();
    let (ai, _) = a_im.as_chunks_mut::<4>();
    let (br, _) = b_re.as_chunks::<4>();
    let (bi, _) = b_im.as_chunks::<4>();
    let mut done = 0;
    for (((xr, xi), yr), yi) in ar.iter_mut().zip(ai).zip(br).zip(bi) {
        let (zr, zi) = fx_cmul4(load_u64(xr), load_u64(xi), load_u64(yr), load_u64(yi));
        store_u64(xr, zr);
        store_u64(xi, zi);
        done += 4;
    }
    done
}
