//! Backend differential: each lattice kernel (NTTs, products, reductions,
//! packing-side rounding, rejection and binomial sampling) on inputs
//! within its documented preconditions gives bit-identical outputs on the
//! portable backend and on every SIMD backend this CPU runs. `data[0]`
//! picks the kernel; the rest fills its inputs (cycled).

use pqkit_common::q3329::Poly as P16;
use pqkit_common::q8380417::{Eta, Gamma2, Poly as P32, Q as Q23};
use pqkit_common::{Backend, BackendKind, Kernel, run_on};

/// Number of kernels.
const KERNELS: u8 = 26;

/// The target.
pub fn run(data: &[u8]) {
    let Some((sel, rest)) = crate::select(data) else {
        return;
    };
    let op = Op {
        which: sel % KERNELS,
        bytes: rest.to_vec(),
    };
    let want = op.clone().run(pqkit_common::Portable);
    for kind in BackendKind::available() {
        if let Some(got) = run_on(kind, op.clone()) {
            assert_eq!(got, want, "kernel {} on {kind:?}", op.which);
        }
    }
}

/// Input bytes, cycled (zeros when empty).
struct Src<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Src<'_> {
    fn u8(&mut self) -> u8 {
        if self.bytes.is_empty() {
            return 0;
        }
        let b = self.bytes[self.at % self.bytes.len()];
        self.at += 1;
        b
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }
    /// Uniform-ish in `[-bound, bound]` (`bound < 2^31`).
    fn signed(&mut self, bound: u32) -> i32 {
        let span = 2 * u64::from(bound) + 1;
        ((u64::from(self.u32()) % span) as i64 - i64::from(bound)) as i32
    }
    /// In `[0, bound)`.
    fn below(&mut self, bound: u32) -> i32 {
        (self.u32() % bound) as i32
    }
    fn p16(&mut self, bound: u32) -> P16 {
        let mut p = P16::default();
        for c in p.coeffs.iter_mut() {
            *c = self.signed(bound) as i16;
        }
        p
    }
    fn p32(&mut self, f: impl Fn(&mut Self) -> i32) -> P32 {
        let mut p = P32::default();
        for c in p.coeffs.iter_mut() {
            *c = f(self);
        }
        p
    }
    fn block<const N: usize>(&mut self) -> [u8; N] {
        core::array::from_fn(|_| self.u8())
    }
}

#[derive(Clone)]
struct Op {
    which: u8,
    bytes: Vec<u8>,
}

impl Kernel for Op {
    type Output = Vec<i64>;
    fn run<B: Backend>(self, b: B) -> Vec<i64> {
        let mut s = Src {
            bytes: &self.bytes,
            at: 0,
        };
        let w16 = |p: &P16| p.coeffs.iter().map(|&x| i64::from(x)).collect::<Vec<_>>();
        let w32 = |p: &P32| p.coeffs.iter().map(|&x| i64::from(x)).collect::<Vec<_>>();
        let q16 = 3329u32;
        let g2 = |s: &mut Src<'_>| {
            if s.u8() & 1 == 0 {
                Gamma2::Q88
            } else {
                Gamma2::Q32
            }
        };
        match self.which {
            // ML-KEM's ring.
            0 => {
                let mut a = s.p16(q16 - 1);
                b.ntt_q3329(&mut a);
                w16(&a)
            }
            1 => {
                let mut a = s.p16(4 * q16);
                b.inv_ntt_tomont_q3329(&mut a);
                w16(&a)
            }
            2 => {
                let (x, y) = (s.p16(4095), s.p16(4095));
                let mut r = P16::default();
                b.basemul_mont_q3329(&x, &y, &mut r);
                w16(&r)
            }
            3 => {
                let mut a = s.p16(32767);
                b.reduce_q3329(&mut a);
                w16(&a)
            }
            4 => {
                let mut a = s.p16(q16 - 1);
                let filled = usize::from(s.u8());
                let buf = s.block::<168>();
                let n = b.rej_uniform_q3329(&mut a, filled, &buf);
                let mut out = vec![n as i64];
                out.extend(a.coeffs[..n.min(256)].iter().map(|&x| i64::from(x)));
                out
            }
            5 => {
                // Compress_d + ByteEncode_d, then back.
                let a = s.p16(32767);
                let d = u32::from(s.u8() % 11) + 1;
                let mut enc = vec![0u8; 32 * d as usize];
                let mut back = P16::default();
                let ok = b.compress_encode_q3329(&a, d, &mut enc)
                    && b.decompress_q3329(d, &enc, &mut back);
                let mut out = vec![i64::from(ok)];
                out.extend(enc.iter().map(|&x| i64::from(x)));
                out.extend(back.coeffs.iter().map(|&x| i64::from(x)));
                out
            }
            6 => {
                let eta = if s.u8() & 1 == 0 { 2 } else { 3 };
                let bytes: Vec<u8> = (0..64 * eta).map(|_| s.u8()).collect();
                let mut a = P16::default();
                b.cbd_q3329(eta, &bytes, &mut a);
                w16(&a)
            }
            // ML-DSA's ring.
            7 => {
                let mut a = s.p32(|s| s.signed(Q23 as u32 - 1));
                b.ntt_q8380417(&mut a);
                w32(&a)
            }
            8 => {
                let mut a = s.p32(|s| s.signed(Q23 as u32 - 1));
                b.inv_ntt_tomont_q8380417(&mut a);
                w32(&a)
            }
            9 | 10 => {
                let x = s.p32(|s| s.signed(9 * Q23 as u32 - 1));
                let y = s.p32(|s| s.signed(9 * Q23 as u32 - 1));
                let mut r = s.p32(|s| s.signed(Q23 as u32));
                if self.which == 9 {
                    b.pointwise_mont_q8380417(&x, &y, &mut r);
                } else {
                    b.pointwise_acc_mont_q8380417(&x, &y, &mut r);
                }
                w32(&r)
            }
            11 => {
                let mut x = s.p32(|s| s.signed(1 << 29));
                let y = s.p32(|s| s.signed(1 << 29));
                b.add_q8380417(&mut x, &y);
                let mut out = w32(&x);
                b.sub_q8380417(&mut x, &y);
                b.sub_q8380417(&mut x, &y);
                out.extend(w32(&x));
                out
            }
            12 => {
                let mut a = s.p32(|s| s.below((1 << 31) - (1 << 22)) - (1 << 30));
                b.reduce32_q8380417(&mut a);
                w32(&a)
            }
            13 => {
                let mut a = s.p32(|s| s.signed(Q23 as u32 - 1));
                b.caddq_q8380417(&mut a);
                w32(&a)
            }
            14 => {
                let mut a = s.p32(|s| s.below(1 << 10));
                b.shift_left_d_q8380417(&mut a);
                w32(&a)
            }
            15 | 16 => {
                let a = s.p32(|s| s.below(Q23 as u32));
                let (mut a1, mut a0) = (P32::default(), P32::default());
                if self.which == 15 {
                    b.power2round_q8380417(&a, &mut a1, &mut a0);
                } else {
                    b.decompose_q8380417(g2(&mut s), &a, &mut a1, &mut a0);
                }
                let mut out = w32(&a1);
                out.extend(w32(&a0));
                out
            }
            17 => {
                let g = g2(&mut s);
                let top = if matches!(g, Gamma2::Q88) { 44 } else { 16 };
                let a0 = s.p32(|s| s.signed((Q23 as u32 - 1) / 2));
                let a1 = s.p32(|s| s.below(top));
                let mut h = P32::default();
                let n = b.make_hint_q8380417(g, &a0, &a1, &mut h);
                let mut out = vec![i64::from(n)];
                out.extend(w32(&h));
                out
            }
            18 => {
                let g = g2(&mut s);
                let a = s.p32(|s| s.below(Q23 as u32));
                let h = s.p32(|s| s.below(2));
                let mut out = P32::default();
                b.use_hint_q8380417(g, &a, &h, &mut out);
                w32(&out)
            }
            19 => {
                let a = s.p32(|s| s.signed(6_283_008));
                let bound = s.below((Q23 as u32 - 1) / 8 + 1);
                vec![i64::from(b.exceeds_norm_q8380417(&a, bound))]
            }
            20 => {
                let mut a = s.p32(|s| s.below(Q23 as u32));
                let filled = usize::from(s.u8());
                let buf = s.block::<168>();
                let n = b.rej_uniform_q8380417(&mut a, filled, &buf);
                let mut out = vec![n as i64];
                out.extend(a.coeffs[..n.min(256)].iter().map(|&x| i64::from(x)));
                out
            }
            21 => {
                let eta = if s.u8() & 1 == 0 { Eta::Two } else { Eta::Four };
                let mut a = s.p32(|s| s.signed(4));
                let filled = usize::from(s.u8());
                let buf = s.block::<136>();
                let n = b.rej_eta_q8380417(eta, &mut a, filled, &buf);
                let mut out = vec![n as i64];
                out.extend(a.coeffs[..n.min(256)].iter().map(|&x| i64::from(x)));
                out
            }
            // FN-DSA's ring, every supported degree.
            w => {
                let q = 12289u32;
                let n = 2usize << (s.u8() % 10);
                let vec = |s: &mut Src<'_>, bound: u32| -> Vec<i16> {
                    (0..n).map(|_| s.signed(bound) as i16).collect()
                };
                let wide = |v: &[i16]| v.iter().map(|&x| i64::from(x)).collect::<Vec<_>>();
                match w {
                    22 => {
                        let mut a = vec(&mut s, q);
                        b.ntt_q12289(&mut a).expect("power-of-two length");
                        wide(&a)
                    }
                    23 => {
                        let mut a = vec(&mut s, q - 1);
                        b.inv_ntt_tomont_q12289(&mut a)
                            .expect("power-of-two length");
                        wide(&a)
                    }
                    24 => {
                        let (x, y) = (vec(&mut s, q - 1), vec(&mut s, q - 1));
                        let mut r = vec![0i16; n];
                        b.pointwise_mont_q12289(&x, &y, &mut r)
                            .expect("equal lengths");
                        wide(&r)
                    }
                    _ => {
                        let mut a = vec(&mut s, 32767);
                        b.reduce_q12289(&mut a);
                        wide(&a)
                    }
                }
            }
        }
    }
}
