//! RNS kernels: NTT products against schoolbook, residues and CRT against
//! `i128` arithmetic, and every backend against portable on random inputs.

use super::*;
use crate::testutil::rng;
use crate::{Backend, BackendKind, Kernel, Portable, run_on};
use std::vec::Vec;

/// The largest prime below 2^31 that is 1 mod 2048, and the next one.
const P0: u32 = 2147473409;
const P1: u32 = 2147389441;

fn pow_mod(b: u64, mut e: u64, m: u64) -> u64 {
    let (mut r, mut b) = (1u64, b % m);
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % m;
        }
        b = b * b % m;
        e >>= 1;
    }
    r
}

/// Montgomery form of a primitive `2n`-th root of 1 modulo `p` and of its
/// inverse, and the two root tables of degree `n = 2^logn`.
fn tables(m: &Mod31, logn: u32) -> (Vec<u32>, Vec<u32>) {
    let p = m.p as u64;
    let mut x = 2;
    while pow_mod(x, (p - 1) / 2, p) != p - 1 {
        x += 1;
    }
    let w = pow_mod(x, (p - 1) >> (logn + 1), p);
    let iw = pow_mod(w, p - 2, p);
    let r = (1u64 << 32) % p;
    let n = 1usize << logn;
    let (mut gm, mut igm) = (std::vec![0; n], std::vec![0; n]);
    roots(
        m,
        logn,
        (w * r % p) as u32,
        (iw * r % p) as u32,
        &mut gm,
        &mut igm,
    );
    (gm, igm)
}

#[test]
fn constants() {
    for p in [P0, P1, (1 << 30) + 1, (1 << 31) - 1] {
        let m = Mod31::new(p).unwrap();
        assert_eq!(p.wrapping_mul(m.p0i), u32::MAX);
        let r = (1u64 << 32) % p as u64;
        assert_eq!(m.r2 as u64, r * r % p as u64);
        assert_eq!(m.mmul(m.one_m(), 1), 1);
        for e in [0u32, 1, 2, 5, 33] {
            assert_eq!(
                m.pow2_31(e) as u64,
                pow_mod(2, 31 * e as u64, p as u64),
                "{p} {e}"
            );
        }
    }
    assert_eq!(Mod31::new(1 << 30), None);
    assert_eq!(Mod31::new((1 << 30) + 2), None);
    assert_eq!(Mod31::new(1 << 31), None);
}

#[test]
fn scalar_ops() {
    let m = Mod31::new(P0).unwrap();
    let p = P0 as u64;
    let mut next = rng(3);
    for _ in 0..10_000 {
        let a = (next() % p) as u32;
        let b = (next() % p) as u32;
        let (a64, b64) = (a as u64, b as u64);
        assert_eq!(m.add(a, b) as u64, (a64 + b64) % p);
        assert_eq!(m.sub(a, b) as u64, (a64 + p - b64) % p);
        assert_eq!(m.half(a) as u64 * 2 % p, a64);
        let rinv = pow_mod(1 << 32, p - 2, p);
        assert_eq!(m.mmul(a, b) as u64, a64 * b64 % p * rinv % p);
        let s = (next() as i32) >> 1;
        let s = s % P0 as i32;
        assert_eq!(m.set(s) as i64, (s as i64).rem_euclid(p as i64));
        let c = m.norm(a) as i64;
        assert!(c > -(p as i64) / 2 - 1 && c <= p as i64 / 2);
        assert_eq!(c.rem_euclid(p as i64) as u64, a64);
    }
}

fn schoolbook(m: &Mod31, a: &[u32], b: &[u32]) -> Vec<u32> {
    let (n, p) = (a.len(), m.p as u64);
    let mut c = std::vec![0u64; n];
    for (i, &x) in a.iter().enumerate() {
        for (j, &y) in b.iter().enumerate() {
            let z = x as u64 * y as u64 % p;
            let k = (i + j) % n;
            c[k] = if i + j < n {
                (c[k] + z) % p
            } else {
                (c[k] + p - z) % p
            };
        }
    }
    c.into_iter().map(|x| x as u32).collect()
}

struct Product<'a>(&'a Mod31, &'a [u32], &'a [u32], &'a [u32], &'a [u32]);
impl Kernel for Product<'_> {
    type Output = Vec<u32>;
    fn run<B: Backend>(self, b: B) -> Vec<u32> {
        let Product(m, x, y, gm, igm) = self;
        let (mut x, mut y) = (x.to_vec(), y.to_vec());
        b.ntt_mp31(m, &mut x, gm);
        b.ntt_mp31(m, &mut y, gm);
        for (u, v) in x.iter_mut().zip(&y) {
            *u = m.mmul(m.mmul(*u, *v), m.r2);
        }
        b.intt_mp31(m, &mut x, igm);
        x
    }
}

#[test]
fn ntt_product_every_backend() {
    let mut next = rng(5);
    for p in [P0, P1] {
        let m = Mod31::new(p).unwrap();
        for logn in 0..=10u32 {
            let n = 1usize << logn;
            let (gm, igm) = tables(&m, logn);
            let a: Vec<u32> = (0..n).map(|_| (next() % p as u64) as u32).collect();
            let b: Vec<u32> = (0..n).map(|_| (next() % p as u64) as u32).collect();
            let want = if logn <= 8 {
                Some(schoolbook(&m, &a, &b))
            } else {
                None
            };
            let port = Product(&m, &a, &b, &gm, &igm).run(Portable);
            if let Some(w) = &want {
                assert_eq!(&port, w, "portable, logn {logn}");
            }
            for kind in BackendKind::available() {
                let got = run_on(kind, Product(&m, &a, &b, &gm, &igm)).unwrap();
                assert_eq!(got, port, "{kind:?}, logn {logn}");
            }
        }
    }
}

struct Transforms<'a>(&'a Mod31, &'a [u32], &'a [u32], &'a [u32]);
impl Kernel for Transforms<'_> {
    type Output = (Vec<u32>, Vec<u32>);
    fn run<B: Backend>(self, b: B) -> (Vec<u32>, Vec<u32>) {
        let Transforms(m, a, gm, igm) = self;
        let mut f = a.to_vec();
        b.ntt_mp31(m, &mut f, gm);
        let mut i = a.to_vec();
        b.intt_mp31(m, &mut i, igm);
        (f, i)
    }
}

#[test]
fn transforms_match_portable_at_extremes() {
    // Values at 0 and p - 1 exercise every conditional subtraction.
    let m = Mod31::new(P1).unwrap();
    let mut next = rng(11);
    for logn in 0..=10u32 {
        let n = 1usize << logn;
        let (gm, igm) = tables(&m, logn);
        for pattern in 0..3 {
            let a: Vec<u32> = (0..n)
                .map(|_| match pattern {
                    0 => m.p - 1,
                    1 => (next() & 1) as u32 * (m.p - 1),
                    _ => (next() % m.p as u64) as u32,
                })
                .collect();
            let want = Transforms(&m, &a, &gm, &igm).run(Portable);
            for kind in BackendKind::available() {
                let got = run_on(kind, Transforms(&m, &a, &gm, &igm)).unwrap();
                assert_eq!(got, want, "{kind:?} logn {logn} pattern {pattern}");
            }
        }
    }
}

/// `n` signed integers of `len` 31-bit words (word planes) from `i128`s.
fn planes(vals: &[i128], len: usize) -> Vec<u32> {
    let n = vals.len();
    let mut d = std::vec![0u32; n * len];
    for (k, &v) in vals.iter().enumerate() {
        for j in 0..len {
            let sh = (31 * j).min(127) as u32;
            d[k + j * n] = (v >> sh) as u32 & 0x7FFF_FFFF;
        }
    }
    d
}

struct Residues<'a>(&'a Mod31, &'a [u32], usize, u32, usize);
impl Kernel for Residues<'_> {
    type Output = Vec<u32>;
    fn run<B: Backend>(self, b: B) -> Vec<u32> {
        let Residues(m, d, len, rx, n) = self;
        let mut out = std::vec![7u32; n];
        b.residues_mp31(m, d, len, rx, &mut out);
        out
    }
}

#[test]
fn residues_every_backend() {
    let mut next = rng(17);
    for p in [P0, P1] {
        let m = Mod31::new(p).unwrap();
        for n in [1usize, 3, 8, 16, 24, 64] {
            for len in 0..=4usize {
                let bits = (31 * len).min(124) as u32;
                let vals: Vec<i128> = (0..n)
                    .map(|_| {
                        let v = ((next() as u128) << 64 | next() as u128) as i128;
                        if bits == 0 { 0 } else { v >> (128 - bits) }
                    })
                    .collect();
                let d = planes(&vals, len);
                let rx = m.pow2_31(len as u32);
                let want: Vec<u32> = vals
                    .iter()
                    .map(|&v| v.rem_euclid(p as i128) as u32)
                    .collect();
                for kind in BackendKind::available() {
                    let got = run_on(kind, Residues(&m, &d, len, rx, n)).unwrap();
                    assert_eq!(got, want, "{kind:?} n {n} len {len}");
                }
            }
        }
    }
}

struct Crt<'a>(&'a Mod31, u32, &'a [u32], usize, &'a [u32]);
impl Kernel for Crt<'_> {
    type Output = Vec<u32>;
    fn run<B: Backend>(self, b: B) -> Vec<u32> {
        let Crt(m, s, blk, i, prod) = self;
        let n = blk.len() / (i + 1);
        let mut blk = blk.to_vec();
        let mut carry = std::vec![0u32; n];
        b.crt_step_mp31(m, s, &mut blk, i, prod, &mut carry);
        blk
    }
}

#[test]
fn crt_step_every_backend() {
    // x mod P0 (one word) plus residues mod P1 give x mod P0 P1.
    let m = Mod31::new(P1).unwrap();
    let s = pow_mod(P0 as u64, P1 as u64 - 2, P1 as u64);
    let s_m = (s * ((1u64 << 32) % P1 as u64) % P1 as u64) as u32;
    let big = P0 as u128 * P1 as u128;
    let mut next = rng(23);
    for n in [1usize, 2, 4, 5, 8, 32] {
        let vals: Vec<u128> = (0..n)
            .map(|k| match k {
                0 => big - 1,
                1 => 0,
                _ => ((next() as u128) << 64 | next() as u128) % big,
            })
            .collect();
        let mut blk = std::vec![0u32; 2 * n];
        for (k, &v) in vals.iter().enumerate() {
            blk[k] = (v % P0 as u128) as u32;
            blk[k + n] = (v % P1 as u128) as u32;
        }
        for kind in BackendKind::available() {
            let got = run_on(kind, Crt(&m, s_m, &blk, 1, &[P0])).unwrap();
            for (k, &v) in vals.iter().enumerate() {
                let x = got[k] as u128 | (got[k + n] as u128) << 31;
                assert_eq!(x, v, "{kind:?} n {n} k {k}");
            }
        }
    }
}

struct AddMul<'a>(&'a [u32], usize, &'a [u32], &'a [i32]);
impl Kernel for AddMul<'_> {
    type Output = Vec<u32>;
    fn run<B: Backend>(self, b: B) -> Vec<u32> {
        let mut x = self.0.to_vec();
        b.addmul_small_mp31(&mut x, self.1, self.2, self.3);
        x
    }
}

#[test]
fn addmul_small_every_backend() {
    // Against i128 arithmetic with 4-word integers (mod 2^124), extreme
    // coefficients and words included.
    let mut next = rng(29);
    for n in [1usize, 2, 4, 8] {
        for round in 0..50 {
            let wl = 4;
            let word = |next: &mut dyn FnMut() -> u64| match round % 3 {
                0 => 0x7FFF_FFFF,
                _ => next() as u32 & 0x7FFF_FFFF,
            };
            let x: Vec<u32> = (0..n * wl).map(|_| word(&mut next)).collect();
            let ys: Vec<u32> = (0..n * wl).map(|_| word(&mut next)).collect();
            let mt: Vec<i32> = (0..n * n)
                .map(|_| match round % 3 {
                    0 => i32::MIN,
                    _ => next() as i32,
                })
                .collect();
            let val = |d: &[u32], k: usize| -> i128 {
                (0..wl)
                    .rev()
                    .fold(0i128, |a, u| (a << 31) | d[k + u * n] as i128)
            };
            let mask = (1i128 << (31 * wl)) - 1;
            let want: Vec<i128> = (0..n)
                .map(|dst| {
                    let s = (0..n).fold(val(&x, dst), |a, j| {
                        a.wrapping_add((mt[j * n + dst] as i128).wrapping_mul(val(&ys, j)))
                    });
                    s & mask
                })
                .collect();
            for kind in BackendKind::available() {
                let got = run_on(kind, AddMul(&x, n, &ys, &mt)).unwrap();
                for (dst, &w) in want.iter().enumerate() {
                    assert_eq!(val(&got, dst), w, "{kind:?} n {n} round {round}");
                }
            }
        }
    }
}

#[test]
fn residues_of_extreme_words_every_backend() {
    // Words at and above p (31-bit words reach 2^31 - 1 > p), and at the
    // sign bit: random words almost never are, and each backend's word
    // reduction must handle them.
    let mut next = rng(41);
    for p in [P0, P1] {
        let m = Mod31::new(p).unwrap();
        let edge = [0, 1, p - 1, p, p + 1, (1 << 30) - 1, 1 << 30, 0x7FFF_FFFF];
        for n in [1usize, 4, 9] {
            for len in [1usize, 2, 3, 4, 5, 8, 9] {
                let d: Vec<u32> = (0..n * len).map(|_| edge[(next() % 8) as usize]).collect();
                let rx = m.pow2_31(len as u32);
                let want = Residues(&m, &d, len, rx, n).run(Portable);
                let pw = p as u64;
                for (k, &got) in want.iter().enumerate() {
                    let v = (0..len)
                        .rev()
                        .fold(0u64, |a, j| ((a << 31) + d[k + j * n] as u64) % pw);
                    let neg = d[k + (len - 1) * n] >> 30 == 1;
                    let r = ((v + pw - if neg { rx as u64 } else { 0 }) % pw) as u32;
                    assert_eq!(got, r, "portable n {n} len {len}");
                }
                for kind in BackendKind::available() {
                    let got = run_on(kind, Residues(&m, &d, len, rx, n)).unwrap();
                    assert_eq!(got, want, "{kind:?} n {n} len {len}");
                }
            }
        }
    }
}

#[test]
fn long_integers_every_backend() {
    // Long integers (the solver's deep levels: few integers, hundreds of
    // words): residues against a scalar Horner over the words, and the
    // Garner step of every backend against portable.
    let mut next = rng(31);
    let m = Mod31::new(P0).unwrap();
    let p = P0 as u64;
    for n in [1usize, 2, 4, 8, 16] {
        for len in [1usize, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 155, 308] {
            let d: Vec<u32> = (0..n * len).map(|_| next() as u32 & 0x7FFF_FFFF).collect();
            let rx = m.pow2_31(len as u32);
            let want: Vec<u32> = (0..n)
                .map(|k| {
                    let v = (0..len)
                        .rev()
                        .fold(0u64, |a, j| ((a << 31) + d[k + j * n] as u64) % p);
                    let neg = d[k + (len - 1) * n] >> 30 == 1;
                    ((v + p - if neg { rx as u64 } else { 0 }) % p) as u32
                })
                .collect();
            for kind in BackendKind::available() {
                let got = run_on(kind, Residues(&m, &d, len, rx, n)).unwrap();
                assert_eq!(got, want, "{kind:?} residues n {n} len {len}");
            }
            let i = len - 1;
            if i > 0 {
                let prod: Vec<u32> = (0..i).map(|_| next() as u32 & 0x7FFF_FFFF).collect();
                let s = (next() % p) as u32;
                let blk = &d[..(i + 1) * n];
                let want = Crt(&m, s, blk, i, &prod).run(Portable);
                for kind in BackendKind::available() {
                    let got = run_on(kind, Crt(&m, s, blk, i, &prod)).unwrap();
                    assert_eq!(got, want, "{kind:?} crt n {n} i {i}");
                }
            }
        }
    }
}

struct Div<'a>(&'a [u64], &'a [u64]);
impl Kernel for Div<'_> {
    type Output = Vec<u64>;
    fn run<B: Backend>(self, b: B) -> Vec<u64> {
        let mut x = self.0.to_vec();
        b.div_fx32_mp31(&mut x, self.1);
        x
    }
}

#[test]
fn div_fx32_exact_and_every_backend() {
    // In range: round(x 2^32 / y) with halves away from zero, checked
    // with i128 arithmetic; out of range (huge quotients, zero divisor)
    // only backend agreement.
    let mut next = rng(37);
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    for i in 0..403 {
        let (x, y) = match i % 4 {
            0 => (
                (next() as i64 >> 20) as u64,
                (next() as i64 >> 8) as u64 | 1,
            ),
            1 => (next(), next()),
            2 => (next(), 0),
            _ => (
                (next() as i64 >> 30) as u64,
                (next() as i64 >> 33) as u64 | 1,
            ),
        };
        xs.push(x);
        ys.push(y);
        if i % 4 == 0 || i % 4 == 3 {
            let (xi, yi) = (x as i64 as i128, y as i64 as i128);
            let num = xi.abs() << 32;
            let (q, r) = (num / yi.abs(), num % yi.abs());
            let q = if 2 * r >= yi.abs() { q + 1 } else { q };
            let want = if (xi < 0) != (yi < 0) { -q } else { q };
            if want.abs() < 1 << 62 {
                assert_eq!(div_fx32(x, y) as i64 as i128, want, "{x:#x} / {y:#x}");
            }
        }
    }
    let want: Vec<u64> = xs.iter().zip(&ys).map(|(&x, &y)| div_fx32(x, y)).collect();
    for kind in BackendKind::available() {
        assert_eq!(run_on(kind, Div(&xs, &ys)).unwrap(), want, "{kind:?}");
    }
}

struct BezoutStep<'a>(&'a [u32], &'a [u32], [i64; 4], [i64; 4], [u32; 4]);
impl Kernel for BezoutStep<'_> {
    type Output = (Vec<u32>, [i64; 4]);
    fn run<B: Backend>(self, b: B) -> (Vec<u32>, [i64; 4]) {
        let mut w = self.0.to_vec();
        let c = b.bezout_step_mp31(&mut w, self.1, self.2, self.3, self.4);
        (w, c)
    }
}

#[test]
fn bezout_step_exact_and_every_backend() {
    // With 3-word integers the whole value fits an i128: check
    // floor((A f + B g + M t) / 2^31) against the low words and the carry.
    let mut next = rng(41);
    for round in 0..200 {
        let len = 3;
        let word = |next: &mut dyn FnMut() -> u64| next() as u32 & 0x7FFF_FFFF;
        let w: Vec<u32> = (0..4 * len).map(|_| word(&mut next)).collect();
        let m: Vec<u32> = (0..2 * len).map(|_| word(&mut next)).collect();
        // |f_l| + |g_l| <= 2^31, as in the GCD (so the words never
        // overflow 64 bits), extremes included.
        let coef = |next: &mut dyn FnMut() -> u64, first: bool| match (round % 4, first) {
            (0, true) => 1i64 << 31,
            (1, true) => -(1i64 << 31),
            (0 | 1, false) => 0,
            _ => (next() as i64) >> 33,
        };
        let f = [0; 4].map(|_: i64| coef(&mut next, true));
        let g = [0; 4].map(|_: i64| coef(&mut next, false));
        let t = [
            word(&mut next),
            word(&mut next),
            word(&mut next),
            word(&mut next),
        ];
        let val = |d: &[u32], stride: usize, lane: usize| -> i128 {
            (0..len)
                .rev()
                .fold(0i128, |a, i| (a << 31) | d[stride * i + lane] as i128)
        };
        let want = Product4(&w, &m, f, g, t, len).run(Portable);
        for (l, &(low, carry)) in want.iter().enumerate() {
            let h = l / 2;
            let z = val(&w, 4, 2 * h) * f[l] as i128
                + val(&w, 4, 2 * h + 1) * g[l] as i128
                + val(&m, 2, h) * t[l] as i128;
            let q = z >> 31;
            assert_eq!(
                q & ((1i128 << (31 * (len - 1))) - 1),
                low,
                "round {round} lane {l}"
            );
            assert_eq!(
                q >> (31 * (len - 1)),
                carry as i128,
                "round {round} lane {l}"
            );
        }
        let port = BezoutStep(&w, &m, f, g, t).run(Portable);
        for kind in BackendKind::available() {
            let got = run_on(kind, BezoutStep(&w, &m, f, g, t)).unwrap();
            assert_eq!(got, port, "{kind:?} round {round}");
        }
    }
}

/// The low `len - 1` words and the carry of each lane of `bezout_step`.
struct Product4<'a>(&'a [u32], &'a [u32], [i64; 4], [i64; 4], [u32; 4], usize);
impl Kernel for Product4<'_> {
    type Output = Vec<(i128, i64)>;
    fn run<B: Backend>(self, b: B) -> Vec<(i128, i64)> {
        let Product4(w, m, f, g, t, len) = self;
        let mut w = w.to_vec();
        let c = b.bezout_step_mp31(&mut w, m, f, g, t);
        (0..4)
            .map(|l| {
                let low = (0..len - 1)
                    .rev()
                    .fold(0i128, |a, i| (a << 31) | w[4 * i + l] as i128);
                (low, c[l])
            })
            .collect()
    }
}

struct NormSigned<'a>(&'a [u32], usize, &'a [u32]);
impl Kernel for NormSigned<'_> {
    type Output = Vec<u32>;
    fn run<B: Backend>(self, b: B) -> Vec<u32> {
        let mut x = self.0.to_vec();
        b.norm_signed_mp31(&mut x, self.1, self.2);
        x
    }
}

#[test]
fn norm_signed_exact_and_every_backend() {
    // M = P0 P1 (2 words... as 3-word integers), values around M / 2.
    let big = P0 as i128 * P1 as i128;
    let len = 3;
    let m: Vec<u32> = (0..len)
        .map(|j| (big >> (31 * j)) as u32 & 0x7FFF_FFFF)
        .collect();
    let mut next = rng(43);
    for n in [1usize, 3, 8, 16] {
        let vals: Vec<i128> = (0..n)
            .map(|k| match k % 4 {
                0 => big / 2,
                1 => big / 2 + 1,
                2 => big - 1,
                _ => ((next() as i128) << 40 | next() as i128 & 0xFF_FFFF_FFFF) % big,
            })
            .collect();
        let mut x = std::vec![0u32; n * len];
        for (k, &v) in vals.iter().enumerate() {
            for j in 0..len {
                x[k + j * n] = (v >> (31 * j)) as u32 & 0x7FFF_FFFF;
            }
        }
        for kind in BackendKind::available() {
            let got = run_on(kind, NormSigned(&x, n, &m)).unwrap();
            for (k, &v) in vals.iter().enumerate() {
                let raw = (0..len)
                    .rev()
                    .fold(0i128, |a, j| (a << 31) | got[k + j * n] as i128);
                let signed = (raw << (128 - 31 * len)) >> (128 - 31 * len);
                let want = if v > big / 2 { v - big } else { v };
                assert_eq!(signed, want, "{kind:?} n {n} k {k}");
            }
        }
    }
}

struct SubShifted<'a>(&'a [u32], usize, usize, &'a [u32], usize, usize, u32);
impl Kernel for SubShifted<'_> {
    type Output = Vec<u32>;
    fn run<B: Backend>(self, b: B) -> Vec<u32> {
        let SubShifted(x, n, xlen, y, ylen, sch, scl) = self;
        let mut x = x.to_vec();
        b.sub_shifted_mp31(&mut x, n, xlen, y, ylen, sch, scl);
        x
    }
}

#[test]
fn sub_shifted_and_mul_exact_and_every_backend() {
    // 4-word x, 2-word signed y: x - y 2^(31 sch + scl) mod 2^124 in i128.
    let mut next = rng(47);
    let (xlen, ylen) = (4usize, 2usize);
    for n in [1usize, 3, 8, 16] {
        for (sch, scl) in [(0usize, 0u32), (0, 30), (1, 7), (2, 30), (3, 1), (4, 5)] {
            let x: Vec<u32> = (0..n * xlen).map(|_| next() as u32 & 0x7FFF_FFFF).collect();
            let y: Vec<u32> = (0..n * ylen).map(|_| next() as u32 & 0x7FFF_FFFF).collect();
            let val = |d: &[u32], len: usize, k: usize| -> i128 {
                (0..len)
                    .rev()
                    .fold(0i128, |a, j| (a << 31) | d[k + j * n] as i128)
            };
            let mask = (1i128 << (31 * xlen)) - 1;
            for kind in BackendKind::available() {
                let got = run_on(kind, SubShifted(&x, n, xlen, &y, ylen, sch, scl)).unwrap();
                for k in 0..n {
                    let yv = (val(&y, ylen, k) << (128 - 31 * ylen)) >> (128 - 31 * ylen);
                    let sh = 31 * sch as u32 + scl;
                    let want = if sch >= xlen {
                        val(&x, xlen, k)
                    } else {
                        val(&x, xlen, k).wrapping_sub(yv.wrapping_shl(sh)) & mask
                    };
                    assert_eq!(
                        val(&got, xlen, k),
                        want,
                        "{kind:?} n {n} sch {sch} scl {scl}"
                    );
                }
            }
        }
    }
    let m = Mod31::new(P0).unwrap();
    let a: Vec<u32> = (0..37).map(|_| (next() % P0 as u64) as u32).collect();
    let b: Vec<u32> = (0..37).map(|_| (next() % P0 as u64) as u32).collect();
    struct Mul<'a>(&'a Mod31, &'a [u32], &'a [u32]);
    impl Kernel for Mul<'_> {
        type Output = Vec<u32>;
        fn run<B: Backend>(self, b: B) -> Vec<u32> {
            let mut a = self.1.to_vec();
            b.mul_mp31(self.0, &mut a, self.2);
            a
        }
    }
    let want: Vec<u32> = a
        .iter()
        .zip(&b)
        .map(|(&x, &y)| (x as u64 * y as u64 % P0 as u64) as u32)
        .collect();
    for kind in BackendKind::available() {
        assert_eq!(run_on(kind, Mul(&m, &a, &b)).unwrap(), want, "{kind:?}");
    }
    // The accumulated Montgomery product: acc + a b / 2^32 mod p.
    let acc0: Vec<u32> = (0..37).map(|_| (next() % P0 as u64) as u32).collect();
    struct MulAcc<'a>(&'a Mod31, &'a [u32], &'a [u32], &'a [u32]);
    impl Kernel for MulAcc<'_> {
        type Output = Vec<u32>;
        fn run<B: Backend>(self, b: B) -> Vec<u32> {
            let mut acc = self.3.to_vec();
            b.mul_acc_mont_mp31(self.0, &mut acc, self.1, self.2);
            acc
        }
    }
    let rinv = {
        // 2^-32 mod p, by exponentiation (p prime).
        let (mut r, mut x, mut e) = (1u64, (1u64 << 32) % P0 as u64, P0 as u64 - 2);
        while e > 0 {
            if e & 1 == 1 {
                r = r * x % P0 as u64;
            }
            x = x * x % P0 as u64;
            e >>= 1;
        }
        r
    };
    let want: Vec<u32> = a
        .iter()
        .zip(&b)
        .zip(&acc0)
        .map(|((&x, &y), &z)| {
            let prod = (x as u64 * y as u64 % P0 as u64) * rinv % P0 as u64;
            ((z as u64 + prod) % P0 as u64) as u32
        })
        .collect();
    for kind in BackendKind::available() {
        assert_eq!(
            run_on(kind, MulAcc(&m, &a, &b, &acc0)).unwrap(),
            want,
            "{kind:?} mul_acc"
        );
    }
}

/// The 32.32 kernels on one set of values: an FFT group, an inverse FFT
/// group and the pointwise product.
struct Fx<'a>(&'a [u64], &'a [u64], u64, u64);
impl Kernel for Fx<'_> {
    type Output = [Vec<u64>; 6];
    fn run<B: Backend>(self, b: B) -> [Vec<u64>; 6] {
        let (mut fr, mut fi) = (self.0.to_vec(), self.1.to_vec());
        b.fx_fft_group(&mut fr, &mut fi, self.2, self.3);
        let (mut ir, mut ii) = (self.0.to_vec(), self.1.to_vec());
        b.fx_ifft_group(&mut ir, &mut ii, self.2, self.3);
        let h = self.0.len() / 2;
        let (mut pr, mut pi) = (self.0[..h].to_vec(), self.1[..h].to_vec());
        b.fx_cmul_mp31(&mut pr, &mut pi, &self.0[h..], &self.1[h..]);
        [fr, fi, ir, ii, pr, pi]
    }
}

#[test]
fn fixed_point_product_exact_and_every_backend() {
    // fx_mul against i128 arithmetic, at the extremes and at random.
    let mut next = rng(41);
    let edges = [
        0u64,
        1,
        u64::MAX,
        1 << 63,
        (1 << 63) - 1,
        1 << 32,
        (1 << 32) - 1,
    ];
    for &a in &edges {
        for &b in &edges {
            let want = ((a as i64 as i128 * b as i64 as i128) >> 32) as u64;
            assert_eq!(fx_mul(a, b), want, "{a:#x} {b:#x}");
        }
    }
    // Groups of every length the FFT uses (and odd remainders), values
    // full-range, small, and at the edges; every backend as portable.
    for (round, h) in [1usize, 2, 3, 4, 5, 8, 13, 64, 128].into_iter().enumerate() {
        let vals = |next: &mut dyn FnMut() -> u64, j: usize| match (round + j) % 3 {
            0 => next(),
            1 => (next() as i64 >> 24) as u64,
            _ => edges[j % edges.len()],
        };
        let re: Vec<u64> = (0..2 * h).map(|j| vals(&mut next, j)).collect();
        let im: Vec<u64> = (0..2 * h).map(|j| vals(&mut next, j + 1)).collect();
        let (sr, si) = (next(), (next() as i64 >> 31) as u64);
        let want = Fx(&re, &im, sr, si).run(Portable);
        // Portable against the scalar formulas, written out here.
        let (mut fr, mut fi) = (re.clone(), im.clone());
        for j in 0..h {
            let (zr, zi) = fx_cmul(sr, si, re[j + h], im[j + h]);
            fr[j] = re[j].wrapping_add(zr);
            fi[j] = im[j].wrapping_add(zi);
            fr[j + h] = re[j].wrapping_sub(zr);
            fi[j + h] = im[j].wrapping_sub(zi);
        }
        assert_eq!((&want[0], &want[1]), (&fr, &fi), "fft h {h}");
        for j in 0..h {
            let d = (
                fx_half(re[j].wrapping_sub(re[j + h])),
                fx_half(im[j].wrapping_sub(im[j + h])),
            );
            assert_eq!(want[2][j], fx_half(re[j].wrapping_add(re[j + h])));
            assert_eq!((want[2][j + h], want[3][j + h]), fx_cmul(sr, si, d.0, d.1));
            assert_eq!(want[4][j], fx_cmul(re[j], im[j], re[j + h], im[j + h]).0);
        }
        for kind in BackendKind::available() {
            assert_eq!(
                run_on(kind, Fx(&re, &im, sr, si)).unwrap(),
                want,
                "{kind:?} h {h}"
            );
        }
    }
}
