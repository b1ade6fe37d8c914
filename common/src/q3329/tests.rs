//! q = 3329: NTT products against schoolbook, inverse round trips, and
//! every backend against portable, on random inputs.

use super::*;
use crate::testutil::rng;
use crate::{Backend, BackendKind, Kernel, Portable, run_on};

fn random_poly(next: &mut impl FnMut() -> u64, bound: i16) -> Poly {
    let mut p = Poly::default();
    for c in p.coeffs.iter_mut() {
        *c = ((next() % (2 * bound as u64 + 1)) as i64 - bound as i64) as i16;
    }
    p
}

fn canon(x: i64) -> i64 {
    x.rem_euclid(Q as i64)
}

fn schoolbook(a: &Poly, b: &Poly) -> [i64; N] {
    let mut c = [0i64; N];
    for i in 0..N {
        for j in 0..N {
            let p = a.coeffs[i] as i64 * b.coeffs[j] as i64;
            if i + j < N {
                c[i + j] += p;
            } else {
                c[i + j - N] -= p;
            }
        }
    }
    c.map(canon)
}

struct Product<'a>(&'a Poly, &'a Poly);
impl Kernel for Product<'_> {
    type Output = [i64; N];
    fn run<B: Backend>(self, b: B) -> [i64; N] {
        let (mut x, mut y, mut r) = (self.0.clone(), self.1.clone(), Poly::default());
        b.ntt_q3329(&mut x);
        b.ntt_q3329(&mut y);
        b.basemul_mont_q3329(&x, &y, &mut r);
        b.inv_ntt_tomont_q3329(&mut r);
        // basemul gives 2^-16, the inverse NTT 2^16: the plain product.
        r.coeffs.map(|c| canon(c as i64))
    }
}

#[test]
fn ntt_product_equals_schoolbook_on_every_backend() {
    let mut next = rng(1);
    for _ in 0..20 {
        let a = random_poly(&mut next, Q - 1);
        let b = random_poly(&mut next, Q - 1);
        let want = schoolbook(&a, &b);
        for kind in BackendKind::available() {
            assert_eq!(run_on(kind, Product(&a, &b)), Some(want), "{kind:?}");
        }
    }
}

struct RoundTrip(Poly);
impl Kernel for RoundTrip {
    type Output = Poly;
    fn run<B: Backend>(self, b: B) -> Poly {
        let mut x = self.0;
        b.ntt_q3329(&mut x);
        b.inv_ntt_tomont_q3329(&mut x);
        x
    }
}

#[test]
fn inverse_of_forward_is_identity_times_r() {
    let mut next = rng(2);
    for _ in 0..50 {
        let a = random_poly(&mut next, Q - 1);
        for kind in BackendKind::available() {
            let Some(back) = run_on(kind, RoundTrip(a.clone())) else {
                continue;
            };
            for (x, y) in back.coeffs.iter().zip(a.coeffs.iter()) {
                // inv_ntt_tomont multiplies by 2^16.
                assert_eq!(canon(*x as i64), canon(*y as i64 * 65536), "{kind:?}");
                assert!(x.abs() < Q, "{kind:?}: {x}");
            }
        }
    }
}

struct Each(Poly, Poly);
impl Kernel for Each {
    type Output = [Poly; 4];
    fn run<B: Backend>(self, b: B) -> [Poly; 4] {
        let mut f = self.0.clone();
        b.ntt_q3329(&mut f);
        let mut i = self.0.clone();
        b.inv_ntt_tomont_q3329(&mut i);
        let mut m = Poly::default();
        b.basemul_mont_q3329(&self.0, &self.1, &mut m);
        let mut r = self.1;
        b.reduce_q3329(&mut r);
        [f, i, m, r]
    }
}

#[test]
fn every_backend_equals_portable_bit_for_bit() {
    let mut next = rng(3);
    for round in 0..200 {
        // Full i16 range for reduce; |a| < q for the NTTs; < 2^12 for basemul.
        let a = random_poly(&mut next, if round % 2 == 0 { Q - 1 } else { 4095 });
        let b = random_poly(&mut next, if round % 3 == 0 { i16::MAX } else { Q - 1 });
        let want = Each(a.clone(), b.clone()).run(Portable);
        for kind in BackendKind::available() {
            assert_eq!(
                run_on(kind, Each(a.clone(), b.clone())).as_ref(),
                Some(&want),
                "{kind:?}"
            );
        }
    }
}

#[test]
fn zeta_table_matches_fips_203() {
    // FIPS 203 Appendix A (standard form): 1, 1729, 2580, 3289, ..., 2154.
    let std = |z: i16| canon(MOD.fqmul(z, 1) as i64);
    assert_eq!(std(ZETAS[0]), 1);
    assert_eq!(std(ZETAS[1]), 1729);
    assert_eq!(std(ZETAS[2]), 2580);
    assert_eq!(std(ZETAS[3]), 3289);
    assert_eq!(std(ZETAS[127]), 2154);
}

struct Rej(std::vec::Vec<[u8; 168]>);
impl Kernel for Rej {
    type Output = (usize, Poly);
    fn run<B: Backend>(self, b: B) -> (usize, Poly) {
        let mut p = Poly::default();
        let mut filled = 0;
        for blk in &self.0 {
            filled = b.rej_uniform_q3329(&mut p, filled, blk);
        }
        // Entries past `filled` are unspecified.
        for c in p.coeffs.iter_mut().skip(filled) {
            *c = 0;
        }
        (filled, p)
    }
}

#[test]
fn rejection_sampler_equals_portable_on_every_backend() {
    let mut next = rng(11);
    for round in 0..300 {
        // Mostly uniform bytes; some rounds bias towards rejections (values
        // >= q) to exercise long runs of rejected candidates.
        let blocks: std::vec::Vec<[u8; 168]> = (0..(1 + round % 5))
            .map(|_| {
                core::array::from_fn(|_| {
                    let x = next() as u8;
                    if round % 3 == 0 { x | 0xd0 } else { x }
                })
            })
            .collect();
        let want = Rej(blocks.clone()).run(Portable);
        for kind in BackendKind::available() {
            assert_eq!(
                run_on(kind, Rej(blocks.clone())),
                Some(want.clone()),
                "{kind:?} {round}"
            );
        }
    }
}

struct Compress(Poly, u32, usize);
impl Kernel for Compress {
    type Output = (bool, std::vec::Vec<u8>);
    fn run<B: Backend>(self, b: B) -> (bool, std::vec::Vec<u8>) {
        let mut out = std::vec![0xa5u8; self.2];
        let ok = b.compress_encode_q3329(&self.0, self.1, &mut out);
        (ok, out)
    }
}

#[test]
fn compression_equals_portable_and_the_definition_everywhere() {
    // Every i16 input, for every d (ML-KEM's and the others), on every
    // backend; ByteEncode_d checked bit by bit.
    for d in 0..=12u32 {
        for start in (i16::MIN as i32..=i16::MAX as i32).step_by(N) {
            let mut p = Poly::default();
            for (i, c) in p.coeffs.iter_mut().enumerate() {
                *c = (start + i as i32).clamp(i16::MIN as i32, i16::MAX as i32) as i16;
            }
            let len = 32 * d as usize;
            let want = Compress(p.clone(), d, len).run(Portable);
            assert_eq!(want.0, (1..=11).contains(&d));
            if want.0 {
                for (i, &c) in p.coeffs.iter().enumerate() {
                    // round(2^d x / q) mod 2^d with x canonical, in exact
                    // integers, then its bits at i d .. (i + 1) d.
                    let x = canon(c as i64);
                    let r = (((x << d) + (Q as i64) / 2) / Q as i64) & ((1 << d) - 1);
                    for k in 0..d as usize {
                        let bit = i * d as usize + k;
                        let got = (want.1[bit / 8] >> (bit % 8)) & 1;
                        assert_eq!(i64::from(got), (r >> k) & 1, "d {d} x {x}");
                    }
                }
            } else {
                assert!(want.1.iter().all(|&b| b == 0xa5));
            }
            for kind in BackendKind::available() {
                assert_eq!(
                    run_on(kind, Compress(p.clone(), d, len)).as_ref(),
                    Some(&want),
                    "{kind:?} d {d}"
                );
            }
        }
        // A wrong length is refused and leaves the output alone.
        for kind in BackendKind::available() {
            let got = run_on(kind, Compress(Poly::default(), d, 32 * d as usize + 1));
            assert_eq!(got, Some((false, std::vec![0xa5; 32 * d as usize + 1])));
        }
    }
}

struct Encode12(Poly);
impl Kernel for Encode12 {
    type Output = [u8; 384];
    fn run<B: Backend>(self, b: B) -> [u8; 384] {
        let mut out = [0u8; 384];
        b.encode12_q3329(&self.0, &mut out);
        out
    }
}

#[test]
fn encode12_equals_the_definition_everywhere() {
    // Every i16 input, on every backend: ByteEncode_12 of the canonical
    // representative, bit by bit (FIPS 203 Alg. 5).
    for start in (i16::MIN as i32..=i16::MAX as i32).step_by(N) {
        let mut p = Poly::default();
        for (i, c) in p.coeffs.iter_mut().enumerate() {
            *c = (start + i as i32 * 97).clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        }
        let mut want = [0u8; 384];
        for (i, &c) in p.coeffs.iter().enumerate() {
            let x = canon(c as i64) as u32;
            for bit in 0..12 {
                let at = 12 * i + bit;
                want[at / 8] |= (((x >> bit) & 1) as u8) << (at % 8);
            }
        }
        for kind in BackendKind::available() {
            assert_eq!(
                run_on(kind, Encode12(p.clone())),
                Some(want),
                "{kind:?} {start}"
            );
        }
    }
}

struct Decode12([u8; 384]);
impl Kernel for Decode12 {
    type Output = (Poly, bool);
    fn run<B: Backend>(self, b: B) -> (Poly, bool) {
        let mut p = Poly::default();
        let ok = b.decode12_q3329(&self.0, &mut p);
        (p, bool::from(ok))
    }
}

#[test]
fn decode12_equals_the_definition_everywhere() {
    // Every 12-bit value in every position (16 polynomials of 256
    // values), then each with a single value pushed to q, q + 1 and
    // 4095 at every position: the coefficients bit by bit (FIPS 203
    // Alg. 6) and the modulus check, on every backend.
    let encode = |vals: &[u32; N]| {
        let mut bytes = [0u8; 384];
        for (i, &x) in vals.iter().enumerate() {
            for bit in 0..12 {
                let at = 12 * i + bit;
                bytes[at / 8] |= (((x >> bit) & 1) as u8) << (at % 8);
            }
        }
        bytes
    };
    let check = |vals: &[u32; N]| {
        let bytes = encode(vals);
        let want_ok = vals.iter().all(|&x| x < Q as u32);
        for kind in BackendKind::available() {
            let (p, ok) = run_on(kind, Decode12(bytes)).expect("available");
            assert_eq!(ok, want_ok, "{kind:?}");
            for (c, &x) in p.coeffs.iter().zip(vals) {
                assert_eq!(*c as u32, x, "{kind:?}");
            }
        }
    };
    for start in (0..4096u32).step_by(N) {
        let vals: [u32; N] = core::array::from_fn(|i| (start + i as u32 * 17) % 4096);
        check(&vals);
    }
    for pos in (0..N).step_by(7) {
        for bad in [Q as u32 - 1, Q as u32, Q as u32 + 1, 4095] {
            let mut vals: [u32; N] = core::array::from_fn(|i| (i as u32 * 13) % (Q as u32));
            vals[pos] = bad;
            check(&vals);
        }
    }
}

struct Cbd(usize, std::vec::Vec<u8>);
impl Kernel for Cbd {
    type Output = Poly;
    fn run<B: Backend>(self, b: B) -> Poly {
        let mut p = Poly::default();
        b.cbd_q3329(self.0, &self.1, &mut p);
        p
    }
}

#[test]
fn cbd_equals_portable_and_the_definition() {
    let mut next = rng(21);
    for round in 0..200 {
        for eta in [2usize, 3] {
            let bytes: std::vec::Vec<u8> = (0..64 * eta).map(|_| next() as u8).collect();
            let want = Cbd(eta, bytes.clone()).run(Portable);
            // FIPS 203 Alg. 8 bit by bit.
            let bit = |k: usize| i16::from((bytes[k / 8] >> (k % 8)) & 1);
            for (i, &c) in want.coeffs.iter().enumerate() {
                let x: i16 = (0..eta).map(|j| bit(2 * i * eta + j)).sum();
                let y: i16 = (0..eta).map(|j| bit(2 * i * eta + eta + j)).sum();
                assert_eq!(c, x - y, "eta {eta} i {i} round {round}");
            }
            for kind in BackendKind::available() {
                assert_eq!(
                    run_on(kind, Cbd(eta, bytes.clone())),
                    Some(want.clone()),
                    "{kind:?}"
                );
            }
        }
    }
}

struct Dot(std::vec::Vec<Poly>, std::vec::Vec<Poly>, i16);
impl Kernel for Dot {
    type Output = (Poly, Poly);
    fn run<B: Backend>(self, b: B) -> (Poly, Poly) {
        // Garbage in `r` must not leak into the result.
        let mut r = Poly { coeffs: [1234; N] };
        b.dot_mont_q3329(&self.0, &self.1, &mut r);
        let mut m = r.clone();
        let add = self.1.first().cloned().unwrap_or_default();
        b.fqmul_add_q3329(&mut m, self.2, &add);
        (r, m)
    }
}

#[test]
fn dot_and_fqmul_add_equal_portable_and_the_definition() {
    let mut next = rng(4);
    for round in 0..200 {
        let k = round % 5;
        let a: std::vec::Vec<Poly> = (0..k).map(|_| random_poly(&mut next, 4095)).collect();
        // One entry more on one side: only the common length counts.
        let b: std::vec::Vec<Poly> = (0..k + round % 2)
            .map(|_| random_poly(&mut next, if round % 3 == 0 { 4095 } else { Q - 1 }))
            .collect();
        let f = random_poly(&mut next, i16::MAX).coeffs[0];
        let (dot, m) = Dot(a.clone(), b.clone(), f).run(Portable);
        // The definition: the sum of the single products, reduced mod q.
        let mut sum = [0i64; N];
        for (x, y) in a.iter().zip(&b) {
            let mut t = Poly::default();
            Portable.basemul_mont_q3329(x, y, &mut t);
            for (s, &c) in sum.iter_mut().zip(&t.coeffs) {
                *s += c as i64;
            }
        }
        let zero = Poly::default();
        let add = b.first().unwrap_or(&zero);
        for (((&d, &s), &x), &y) in dot.coeffs.iter().zip(&sum).zip(&m.coeffs).zip(&add.coeffs) {
            assert_eq!(canon(d as i64), canon(s), "round {round}");
            assert!(d.abs() <= Q / 2 + 1);
            // fqmul_add: dot * f * 2^-16 + add, reduced.
            let want = canon(MOD.fqmul(d, f) as i64 + y as i64);
            assert_eq!(canon(x as i64), want);
            assert!(x.abs() <= Q / 2 + 1);
        }
        for kind in BackendKind::available() {
            assert_eq!(
                run_on(kind, Dot(a.clone(), b.clone(), f)),
                Some((dot.clone(), m.clone())),
                "{kind:?} round {round}"
            );
        }
    }
}

struct Decompress(u32, std::vec::Vec<u8>);
impl Kernel for Decompress {
    type Output = (bool, Poly);
    fn run<B: Backend>(self, b: B) -> (bool, Poly) {
        let mut p = Poly { coeffs: [7; N] };
        let ok = b.decompress_q3329(self.0, &self.1, &mut p);
        (ok, p)
    }
}

#[test]
fn decompress_equals_portable_and_the_definition() {
    let mut next = rng(5);
    for d in 0..=13u32 {
        for round in 0..40 {
            let len = 32 * d as usize;
            // Wrong lengths are refused and leave the polynomial alone.
            let len = match round {
                0 => len + 1,
                1 => len.saturating_sub(1),
                _ => len,
            };
            let bytes: std::vec::Vec<u8> = (0..len)
                .map(|_| match round {
                    2 => 0xff,
                    3 => 0,
                    _ => next() as u8,
                })
                .collect();
            let want = Decompress(d, bytes.clone()).run(Portable);
            let valid = (1..=11).contains(&d) && len == 32 * d as usize;
            assert_eq!(want.0, valid, "d {d} len {len}");
            if valid {
                // The definition: bit i of the string is bit i mod d of
                // value i / d; the value y gives round(q y / 2^d).
                for (i, &x) in want.1.coeffs.iter().enumerate() {
                    let y: u64 = (0..d as usize)
                        .map(|k| {
                            let bit = i * d as usize + k;
                            u64::from((bytes[bit / 8] >> (bit % 8)) & 1) << k
                        })
                        .sum();
                    let r = (2 * y * Q as u64 + (1 << d)) / (2 << d);
                    assert_eq!(x as u64, r, "d {d} value {i}");
                }
            } else {
                assert_eq!(want.1.coeffs, [7; N]);
            }
            for kind in BackendKind::available() {
                assert_eq!(
                    run_on(kind, Decompress(d, bytes.clone())),
                    Some(want.clone()),
                    "{kind:?} d {d} round {round}"
                );
            }
        }
    }
}
