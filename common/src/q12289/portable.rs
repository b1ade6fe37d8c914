//! Portable kernels for q = 12289: the executable specification.

use super::{INV_F, MOD, ZETAS};

/// Cooley-Tukey layers `len = n/2 .. 1`; a layer with `B` blocks uses
/// `ZETAS[B + i]` for block `i`; both outputs Barrett-reduced in the
/// layers set in `mask` (bit `i` for layer `i`; see `MASK_FULL` and
/// `MASK_SMALL` for the schedules and their bounds) and in the last.
pub(super) fn ntt(a: &mut [i16], mask: u32) {
    let n = a.len();
    let mut len = n / 2;
    let mut layer = 0;
    while len >= 1 {
        let blocks = n / (2 * len);
        let reduce = (mask >> layer) & 1 == 1 || len == 1;
        for (i, start) in (0..n).step_by(2 * len).enumerate() {
            let zeta = ZETAS[blocks + i];
            for j in start..start + len {
                let t = MOD.fqmul(zeta, a[j + len]);
                let x = a[j];
                let (s, d) = (x + t, x - t);
                (a[j], a[j + len]) = if reduce {
                    (MOD.barrett_reduce(s), MOD.barrett_reduce(d))
                } else {
                    (s, d)
                };
            }
        }
        len >>= 1;
        layer += 1;
    }
}

/// Gentleman-Sande layers `len = 1 .. n/2`; a layer with `B` blocks uses
/// `ZETAS[2B - 1 - i] = -zeta^-1` for block `i` (so `(b - a)` times it is
/// `(a - b) zeta^-1`); then the factor `INV_F[logn]`.
pub(super) fn inv_ntt_tomont(a: &mut [i16], logn: u32) {
    let n = a.len();
    let mut len = 1;
    while len < n {
        let blocks = n / (2 * len);
        for (i, start) in (0..n).step_by(2 * len).enumerate() {
            let zeta = ZETAS[2 * blocks - 1 - i];
            for j in start..start + len {
                let t = a[j];
                a[j] = MOD.barrett_reduce(t + a[j + len]);
                a[j + len] = MOD.fqmul(zeta, a[j + len] - t);
            }
        }
        len <<= 1;
    }
    let f = INV_F[logn as usize];
    for x in a.iter_mut() {
        *x = MOD.fqmul(*x, f);
    }
}

pub(super) fn pointwise_mont(a: &[i16], b: &[i16], r: &mut [i16]) {
    for ((r, &x), &y) in r.iter_mut().zip(a).zip(b) {
        *r = MOD.fqmul(x, y);
    }
}

pub(super) fn reduce(a: &mut [i16]) {
    for x in a.iter_mut() {
        *x = MOD.barrett_reduce(*x);
    }
}
