//! The Babai reduction of `(F, G)` against `(f, g)` at depths `d >= 1`
//! (32.32 fixed-point quotients on the fixed schedule) with its two ways
//! of subtracting `k (f, g)`: schoolbook on word planes for small degrees,
//! RNS/NTT products above; and the NTT-domain lift `F'(x^2) g(-x)`.

use super::*;

/// Babai reduction of `(F, G)` (`big`: F then G, `llen` words each)
/// against `(f, g)`, on the fixed schedule.
pub(super) fn reduce<B: Backend>(b: B, lv: &Level<'_>, big: &mut [u32], llen: usize) {
    let (logn, n, slen, depth) = (lv.logn, lv.n, lv.slen, lv.depth);
    let hn = n / 2;
    let rlen = WORD_WIN[depth];
    let blen = slen - rlen;
    let use_ntt = depth > 1 && logn >= MIN_LOGN_FGNTT;

    // f and g are approximated as x / 2^(scale_fg + scale_x): scale_fg is
    // public (the words below the window), scale_x is the secret bit
    // length of the window; scale_t (<= 15 - logn, so that
    // f adj f + g adj g stays below 2^31 in 32.32) is restored after the
    // FFT by a left shift.
    let scale_fg = 31 * blen as u32;
    let mut scale_big = 31 * llen as u32;
    let fw = &lv.f[blen * n..];
    let gw = &lv.g[blen * n..];
    let scale_x = ct_max(max_bitlength(fw, n, rlen), max_bitlength(gw, n, rlen));
    let scale_t = ct_min(15 - logn, scale_x);
    let scdiff = scale_x - scale_t;

    // rf = adj(f) / (f adj f + g adj g), rg = adj(g) / (...), FFT.
    let mut rf = fixed(n);
    let mut rg = fixed(n);
    let mut rn = fixed(hn);
    to_fixed(fw, n, rlen, scdiff, &mut rf);
    to_fixed(gw, n, rlen, scdiff, &mut rg);
    fixed_point::fft(b, &mut rf);
    fixed_point::fft(b, &mut rg);
    for i in 0..hn {
        rn[i] = fixed_point::sqr(rf[i])
            .wrapping_add(fixed_point::sqr(rf[i + hn]))
            .wrapping_add(fixed_point::sqr(rg[i]))
            .wrapping_add(fixed_point::sqr(rg[i + hn]));
    }
    for x in rf.iter_mut().chain(rg.iter_mut()) {
        *x <<= scale_t;
    }
    // Four separate divisions per i (no shared reciprocal), as specified:
    // rf[i] / rn[i], -rf[i + hn] / rn[i], and the same for rg.
    for v in [&mut rf, &mut rg] {
        let (lo, hi) = v.split_at_mut(hn);
        for x in hi.iter_mut() {
            *x = x.wrapping_neg();
        }
        b.div_fx32_mp31(lo, &rn);
        b.div_fx32_mp31(hi, &rn);
    }
    drop(rn);

    // For the NTT path: f and g modulo slen + 1 primes, in NTT form, with
    // the root tables.
    let mut sub = if use_ntt {
        Some(NttSub::new(b, lv))
    } else {
        None
    };
    let mut sub1 = if depth == 1 {
        Some(Depth1Sub::new(b, lv))
    } else {
        None
    };

    let (bf, bg) = big.split_at_mut(llen * n);
    let mut rbf = fixed(n);
    let mut rbg = fixed(n);
    let mut k = Zeroizing::new(vec![0i32; n]);
    let mut fglen = llen;
    let mut school: Option<SchoolScratch> = None;
    let reduce_bits = REDUCE_BITS[lv.logn_top as usize];
    loop {
        // (F, G) approximated as x / 2^(scale_big + scale_x).
        let (clen, coff) = divrem31(scale_big);
        let clen = clen as usize;
        to_fixed(&bf[clen * n..], n, fglen - clen, scale_x + coff, &mut rbf);
        to_fixed(&bg[clen * n..], n, fglen - clen, scale_x + coff, &mut rbg);
        fixed_point::fft(b, &mut rbf);
        fixed_point::fft(b, &mut rbg);
        for (x, y) in [(&mut rbf, &rf), (&mut rbg, &rg)] {
            let (xr, xi) = x.split_at_mut(hn);
            b.fx_cmul_mp31(xr, xi, &y[..hn], &y[hn..]);
        }
        for (x, &y) in rbg.iter_mut().zip(rbf.iter()) {
            *x = x.wrapping_add(y);
        }
        fixed_point::ifft(b, &mut rbg);
        for (kk, &x) in k.iter_mut().zip(rbg.iter()) {
            *kk = fixed_point::round(x);
        }

        // k carries the public scale 2^(scale_big - scale_fg).
        let scale_k = scale_big - scale_fg;
        if let Some(s) = sub1.as_mut() {
            s.apply(b, lv, bf, bg, fglen, &k, scale_k);
        } else if let Some(s) = sub.as_mut() {
            s.apply(b, lv, bf, fglen, &k, scale_k, false);
            s.apply(b, lv, bg, fglen, &k, scale_k, true);
        } else {
            let sc = school.get_or_insert_with(|| SchoolScratch {
                ys: words(n * llen),
                mt: Zeroizing::new(vec![0i32; n * n]),
            });
            // The matrix of k once, for f and for g.
            sub_schoolbook(b, lv, bf, fglen, lv.f, Some(&k), scale_k, sc);
            sub_schoolbook(b, lv, bg, fglen, lv.g, None, scale_k, sc);
        }

        // Assume (F, G) shrank by reduce_bits; drop the words that can no
        // longer be significant.
        if scale_big <= scale_fg {
            break;
        }
        scale_big = if scale_big <= scale_fg + reduce_bits {
            scale_fg
        } else {
            scale_big - reduce_bits
        };
        while fglen > slen && 31 * (fglen - slen) as u32 > scale_big - scale_fg + 30 {
            fglen -= 1;
        }
    }
}

/// Scratch of `sub_schoolbook`, allocated once per depth (wiped on drop).
pub(super) struct SchoolScratch {
    ys: Words,
    mt: Zeroizing<Vec<i32>>,
}

/// `F -= k f 2^sc mod X^n + 1`, modulo `2^(31 fglen)`, by schoolbook
/// products (small degrees), on the backend's small-matrix kernel: output
/// coefficient `dst` gets `-k_i f_j` for `i + j = dst`, and `+k_i f_j` for
/// `i + j = dst + n` (`X^n = -1`). `k` is `None` when the matrix of the
/// previous call's `k` (in `scratch`) is the one to use: f and g are
/// reduced by the same `k`.
#[allow(clippy::too_many_arguments)]
pub(super) fn sub_schoolbook<B: Backend>(
    b: B,
    lv: &Level<'_>,
    big: &mut [u32],
    fglen: usize,
    f: &[u32],
    k: Option<&[i32]>,
    sc: u32,
    scratch: &mut SchoolScratch,
) {
    let (n, slen) = (lv.n, lv.slen);
    let (sch, scl) = divrem31(sc);
    let sch = sch as usize;
    if sch >= fglen {
        return;
    }
    // Words sch.. of F are touched; ys holds the words of f_j 2^scl
    // (sign-extended to wl words), word-major: word u of f_j is f[u n + j],
    // so each value of ys is its word of f shifted, or-ed with the bits
    // shifted out of the word before it (one flat, vectorisable loop over
    // the words of f, then the sign words).
    let wl = fglen - sch;
    let ys = &mut scratch.ys[..n * wl];
    let shift = |w: u32, prev: u32| ((w << scl) & 0x7FFF_FFFF) | (prev >> (31 - scl));
    let lim = wl.min(slen) * n;
    for (y, &w) in ys.iter_mut().zip(&f[..lim.min(n)]) {
        *y = shift(w, 0);
    }
    if lim > n {
        let cur = &f[n..lim];
        let prev = &f[..lim - n];
        for ((y, &w), &p) in ys[n..lim].iter_mut().zip(cur).zip(prev) {
            *y = shift(w, p);
        }
    }
    if wl > slen {
        for j in 0..n {
            let top = f[j + (slen - 1) * n];
            let sign = (top >> 30).wrapping_neg() >> 1;
            let mut prev = top;
            for u in slen..wl {
                ys[u * n + j] = shift(sign, prev);
                prev = sign;
            }
        }
    }
    // The matrix of k (`None`: the one the previous call made).
    let mt = &mut scratch.mt[..n * n];
    if let Some(k) = k {
        for (j, row) in mt.chunks_exact_mut(n).enumerate() {
            // Row j: k[n - j..] for dst < j (X^n = -1 wraps them), then
            // -k[..n - j].
            let (wrap, direct) = row.split_at_mut(j);
            wrap.copy_from_slice(&k[n - j..n]);
            for (m, &kv) in direct.iter_mut().zip(&k[..n - j]) {
                *m = kv.wrapping_neg();
            }
        }
    }
    b.addmul_small_mp31(&mut big[sch * n..fglen * n], n, ys, mt);
}

/// The NTT path of `F -= k f 2^sc`: `k f` is computed exactly modulo
/// `slen + 1` primes, rebuilt, then subtracted with the shift.
pub(super) struct NttSub {
    roots: Vec<Roots>,
    /// f then g modulo each prime, NTT form: `[side][prime][n]`.
    fg: Words,
    kf: Words,
    t: Words,
}

impl NttSub {
    fn new<B: Backend>(b: B, lv: &Level<'_>) -> Self {
        let (n, slen, logn) = (lv.n, lv.slen, lv.logn);
        let plen = slen + 1;
        let roots: Vec<Roots> = (0..plen).map(|i| Roots::new(&PRIMES[i], logn)).collect();
        let mut fg = words(2 * plen * n);
        for (side, src) in [lv.f, lv.g].into_iter().enumerate() {
            for (i, r) in roots.iter().enumerate() {
                let sp = &PRIMES[i];
                let rx = sp.pow2_31(slen as u32);
                let o = &mut fg[(side * plen + i) * n..][..n];
                b.residues_mp31(sp, src, slen, rx, o);
                b.ntt_mp31(sp, o, &r.gm);
            }
        }
        NttSub {
            roots,
            fg,
            kf: words(plen * n),
            t: words(n),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn apply<B: Backend>(
        &mut self,
        b: B,
        lv: &Level<'_>,
        big: &mut [u32],
        fglen: usize,
        k: &[i32],
        sc: u32,
        g_side: bool,
    ) {
        let n = lv.n;
        let plen = self.roots.len();
        let side = g_side as usize;
        for (i, r) in self.roots.iter().enumerate() {
            let sp = &PRIMES[i];
            for (tj, &kj) in self.t.iter_mut().zip(k) {
                *tj = sp.set(kj);
            }
            b.ntt_mp31(sp, &mut self.t, &r.gm);
            let fs = &self.fg[(side * plen + i) * n..][..n];
            let o = &mut self.kf[i * n..(i + 1) * n];
            o.copy_from_slice(&self.t);
            b.mul_mp31(sp, o, fs);
            b.intt_mp31(sp, o, &r.igm);
        }
        let mut tmp = words(plen);
        big_int::rebuild_crt(b, &mut self.kf, plen, n, 1, true, &mut tmp);
        let (sch, scl) = divrem31(sc);
        b.sub_shifted_mp31(big, n, fglen, &self.kf, plen, sch as usize, scl);
    }
}

/// Depth 1: `(F, G) -= k 2^sc (f_1, g_1)` computed modulo `p_0` (and `p_1`
/// when `(F, G)` still has two words), then rebuilt centred; the values
/// wrap modulo those primes, as in the reference. The root tables and
/// the NTTs of `f_1, g_1` for both primes are computed once.
pub(super) struct Depth1Sub {
    roots: [Roots; 2],
    /// NTT of f_1 then g_1 modulo p_0, then modulo p_1.
    fg: Words,
    res: Words,
    t: Words,
}

impl Depth1Sub {
    fn new<B: Backend>(b: B, lv: &Level<'_>) -> Self {
        let (n, logn) = (lv.n, lv.logn);
        let roots = [Roots::new(&PRIMES[0], logn), Roots::new(&PRIMES[1], logn)];
        let mut fg = words(4 * n);
        for (i, r) in roots.iter().enumerate() {
            let sp = &PRIMES[i];
            let rx1 = sp.pow2_31(1);
            for (side, src) in [lv.f, lv.g].into_iter().enumerate() {
                // f_1, g_1 are one word each at depth 1.
                let o = &mut fg[(2 * i + side) * n..][..n];
                b.residues_mp31(sp, src, 1, rx1, o);
                b.ntt_mp31(sp, o, &r.gm);
            }
        }
        Depth1Sub {
            roots,
            fg,
            res: words(4 * n),
            t: words(n),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn apply<B: Backend>(
        &mut self,
        b: B,
        lv: &Level<'_>,
        bf: &mut [u32],
        bg: &mut [u32],
        fglen: usize,
        k: &[i32],
        sc: u32,
    ) {
        let n = lv.n;
        // The reference recovers k for the second prime from its residue
        // modulo p_0 (as a centred value, after multiplying by 2^sc and
        // back with Montgomery factors); reproduce that exactly.
        let mut k1 = Zeroizing::new(vec![0i32; n]);
        if fglen == 2 {
            let sp = &PRIMES[0];
            let scm = sc_factor(sp, sc);
            let mut back = 1u32 << (sc.wrapping_neg() & 31);
            for _ in 0..(sc >> 5) {
                back = sp.mmul(back, 1);
            }
            for (o, &kj) in k1.iter_mut().zip(k) {
                let x = sp.mmul(scm, sp.set(kj));
                *o = sp.norm(sp.mmul(back, x));
            }
        }
        let res = &mut self.res[..2 * fglen * n];
        for i in 0..fglen {
            let sp = &PRIMES[i];
            let r = &self.roots[i];
            let rx = sp.pow2_31(fglen as u32);
            let scm = sc_factor(sp, sc);
            let kk: &[i32] = if i == 0 { k } else { &k1 };
            for (tj, &kj) in self.t.iter_mut().zip(kk) {
                *tj = sp.mmul(scm, sp.set(kj));
            }
            b.ntt_mp31(sp, &mut self.t, &r.gm);
            for (side, src) in [&*bf, &*bg].into_iter().enumerate() {
                let o = &mut res[side * fglen * n + i * n..][..n];
                b.residues_mp31(sp, src, fglen, rx, o);
                b.ntt_mp31(sp, o, &r.gm);
                let u = &self.fg[(2 * i + side) * n..][..n];
                for j in 0..n {
                    let x = sp.mul(self.t[j], u[j]);
                    o[j] = sp.sub(o[j], x);
                }
                b.intt_mp31(sp, o, &r.igm);
            }
        }
        let mut tmp = words(fglen);
        big_int::rebuild_crt(b, res, fglen, n, 2, true, &mut tmp);
        bf[..fglen * n].copy_from_slice(&res[..fglen * n]);
        bg[..fglen * n].copy_from_slice(&res[fglen * n..]);
    }
}

/// The lift of a deeper solution in the NTT domain modulo `sp`: with
/// `(F', G')` of degree `n/2` (`uf`, `ug`, plain form) and `f`, `g` of
/// degree `n` (`ft`, `gt`), `F = F'(x^2) g(-x)` and `G = G'(x^2) f(-x)`:
/// at the root pair `(w, -w)` of slots `2j, 2j + 1`, `F'(w^2)` times
/// `g(-w)` and `g(w)`. Writes `of`, `og` (Montgomery products undone).
pub(super) fn lift_ntt(
    sp: &SmallPrime,
    uf: &[u32],
    ug: &[u32],
    ft: &[u32],
    gt: &[u32],
    of: &mut [u32],
    og: &mut [u32],
) {
    for j in 0..uf.len() {
        let mf = sp.mmul(uf[j], sp.r2);
        let mg = sp.mmul(ug[j], sp.r2);
        of[2 * j] = sp.mmul(gt[2 * j + 1], mf);
        of[2 * j + 1] = sp.mmul(gt[2 * j], mf);
        og[2 * j] = sp.mmul(ft[2 * j + 1], mg);
        og[2 * j + 1] = sp.mmul(ft[2 * j], mg);
    }
}
