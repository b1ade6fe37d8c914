#![allow(clippy::expect_used, clippy::unwrap_used)]

use super::*;
use crate::{Backend, BackendKind, Kernel, run_on};

/// xorshift64*: test-only deterministic randomness.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: i32) -> i32 {
        (self.next() % n as u64) as i32
    }
    fn poly(&mut self, bound: i32) -> Poly {
        let mut p = Poly::default();
        for c in p.coeffs.iter_mut() {
            *c = self.below(2 * bound - 1) - (bound - 1);
        }
        p
    }
    fn bytes<const L: usize>(&mut self) -> [u8; L] {
        core::array::from_fn(|_| self.next() as u8)
    }
}

fn modq(x: i64) -> i32 {
    x.rem_euclid(Q as i64) as i32
}

fn schoolbook(a: &Poly, b: &Poly) -> [i32; N] {
    let mut r = [0i64; N];
    for i in 0..N {
        for j in 0..N {
            let p = a.coeffs[i] as i64 * b.coeffs[j] as i64 % Q as i64;
            if i + j < N {
                r[i + j] += p;
            } else {
                r[i + j - N] -= p;
            }
        }
    }
    r.map(modq)
}

struct NttMul(u64);
impl Kernel for NttMul {
    type Output = ();
    fn run<B: Backend>(self, b: B) {
        let mut rng = Rng(self.0);
        for _ in 0..20 {
            let x = rng.poly(Q);
            let y = rng.poly(Q);
            let want = schoolbook(&x, &y);
            let (mut xh, mut yh) = (x.clone(), y.clone());
            b.ntt_q8380417(&mut xh);
            b.ntt_q8380417(&mut yh);
            for c in xh.coeffs.iter().chain(&yh.coeffs) {
                assert!(c.abs() < 9 * Q);
            }
            let mut r = Poly::default();
            b.pointwise_mont_q8380417(&xh, &yh, &mut r);
            b.inv_ntt_tomont_q8380417(&mut r);
            for c in r.coeffs.iter() {
                assert!(c.abs() < Q, "{} inv_ntt bound", b.name());
            }
            assert_eq!(r.coeffs.map(|c| modq(c as i64)), want, "{}", b.name());

            // invNTT(NTT(x)) == x * R (tomont), so multiply back by 1:
            // pointwise with the NTT of the constant 1 divided by R.
            let mut z = x.clone();
            b.ntt_q8380417(&mut z);
            b.reduce32_q8380417(&mut z);
            b.inv_ntt_tomont_q8380417(&mut z);
            // z = x * 2^32 mod q; undo with a Montgomery reduction.
            let back = z.coeffs.map(|c| modq(montgomery_reduce(c as i64) as i64));
            assert_eq!(back, x.coeffs.map(|c| modq(c as i64)), "{}", b.name());
        }
    }
}

#[test]
fn ntt_multiplication_matches_schoolbook_on_every_backend() {
    for kind in BackendKind::available() {
        assert_eq!(run_on(kind, NttMul(0x1234_5678 + kind as u64)), Some(()));
    }
}

/// Every kernel output, on the same random inputs, as a comparable value.
#[derive(Debug, PartialEq)]
struct Outputs {
    polys: std::vec::Vec<[i32; N]>,
    nums: std::vec::Vec<i64>,
}

struct AllKernels(u64);
impl Kernel for AllKernels {
    type Output = Outputs;
    fn run<B: Backend>(self, b: B) -> Outputs {
        let mut rng = Rng(self.0);
        let mut polys = std::vec::Vec::new();
        let mut nums = std::vec::Vec::new();
        for _ in 0..30 {
            let x = rng.poly(Q);
            let y = rng.poly(9 * Q);
            let mut t = x.clone();
            b.ntt_q8380417(&mut t);
            polys.push(t.coeffs);
            let mut t = x.clone();
            b.inv_ntt_tomont_q8380417(&mut t);
            polys.push(t.coeffs);
            let mut t = Poly::default();
            b.pointwise_mont_q8380417(&x, &y, &mut t);
            polys.push(t.coeffs);
            b.pointwise_acc_mont_q8380417(&y, &x, &mut t);
            polys.push(t.coeffs);
            let mut t = x.clone();
            b.add_q8380417(&mut t, &y);
            polys.push(t.coeffs);
            b.sub_q8380417(&mut t, &x);
            b.sub_q8380417(&mut t, &x);
            polys.push(t.coeffs);
            let mut t = y.clone();
            b.reduce32_q8380417(&mut t);
            polys.push(t.coeffs);
            b.caddq_q8380417(&mut t);
            polys.push(t.coeffs);
            let mut s = rng.poly(1 << 10);
            b.shift_left_d_q8380417(&mut s);
            polys.push(s.coeffs);

            // Standard representatives.
            let mut std_rep = x.clone();
            b.caddq_q8380417(&mut std_rep);
            let (mut h, mut l) = (Poly::default(), Poly::default());
            b.power2round_q8380417(&std_rep, &mut h, &mut l);
            polys.push(h.coeffs);
            polys.push(l.coeffs);
            for g in [Gamma2::Q88, Gamma2::Q32] {
                b.decompose_q8380417(g, &std_rep, &mut h, &mut l);
                polys.push(h.coeffs);
                polys.push(l.coeffs);
                // Hints: a0 near the +-gamma2 edges, a1 random or zero.
                let mut a0 = Poly::default();
                let mut a1 = Poly::default();
                for i in 0..N {
                    a0.coeffs[i] = g.value() + rng.below(5) - 2;
                    if rng.next() & 1 == 1 {
                        a0.coeffs[i] = -a0.coeffs[i];
                    }
                    if rng.next() & 3 == 0 {
                        a0.coeffs[i] = rng.below(2 * g.value()) - g.value();
                    }
                    a1.coeffs[i] = if rng.next() & 1 == 1 {
                        0
                    } else {
                        rng.below(g.max_high() + 1)
                    };
                }
                let mut hint = Poly::default();
                nums.push(b.make_hint_q8380417(g, &a0, &a1, &mut hint) as i64);
                polys.push(hint.coeffs);
                let mut out = Poly::default();
                b.use_hint_q8380417(g, &std_rep, &hint, &mut out);
                polys.push(out.coeffs);
            }
            let mut r = y.clone();
            b.reduce32_q8380417(&mut r);
            for bound in [1, 2, 100, 130_000, 1 << 19, (Q - 1) / 8] {
                nums.push(b.exceeds_norm_q8380417(&r, bound) as i64);
                nums.push(b.exceeds_norm_q8380417(&rng.poly(bound + 1), bound) as i64);
                nums.push(b.exceeds_norm_q8380417(&rng.poly(bound), bound) as i64);
            }
            let mut a = Poly::default();
            let mut filled = rng.below(256) as usize;
            while filled < N {
                filled = b.rej_uniform_q8380417(&mut a, filled, &rng.bytes());
                nums.push(filled as i64);
            }
            polys.push(a.coeffs);
            for eta in [Eta::Two, Eta::Four] {
                let mut a = Poly::default();
                let mut filled = rng.below(256) as usize;
                while filled < N {
                    filled = b.rej_eta_q8380417(eta, &mut a, filled, &rng.bytes());
                    nums.push(filled as i64);
                }
                polys.push(a.coeffs);
            }
        }
        Outputs { polys, nums }
    }
}

#[test]
fn every_backend_matches_portable() {
    for seed in 1..4u64 {
        let want = run_on(BackendKind::Portable, AllKernels(seed));
        for kind in BackendKind::available() {
            assert_eq!(run_on(kind, AllKernels(seed)), want, "{}", kind.name());
        }
    }
}

/// One `rej_uniform_q8380417` call on `buf` from fill level `filled`: the
/// new fill level and the coefficients below it (what a kernel leaves
/// above the fill level is scratch, overwritten by the next call).
struct RejUniform([u8; 168], usize);
impl Kernel for RejUniform {
    type Output = (usize, [i32; N]);
    fn run<B: Backend>(self, b: B) -> (usize, [i32; N]) {
        let mut a = Poly::default();
        let filled = b.rej_uniform_q8380417(&mut a, self.1, &self.0);
        a.coeffs[filled.min(N)..].fill(0);
        (filled, a.coeffs)
    }
}

#[test]
fn rejection_sampler_equals_portable_with_many_rejections() {
    // Random 23-bit candidates are almost never rejected; here each
    // candidate is forced to a rejected value (q, 2^23 - 1, or the top
    // bit set over q) with probability 0, 1/4, 1/2 or 3/4, so that every
    // acceptance pattern of a group of four occurs, from every fill level
    // near the end of the polynomial too.
    let mut rng = Rng(0x5eed_0417);
    for round in 0..400 {
        let mut buf: [u8; 168] = rng.bytes();
        for c in buf.chunks_exact_mut(3) {
            if rng.below(4) < round % 4 {
                let t: u32 = match rng.below(3) {
                    0 => Q as u32,
                    1 => (1 << 23) - 1,
                    _ => (1 << 23) | (Q as u32 + rng.below(1 << 13) as u32),
                };
                c.copy_from_slice(&t.to_le_bytes()[..3]);
            }
        }
        let filled = match round % 3 {
            0 => 0,
            1 => rng.below(N as i32) as usize,
            _ => N - rng.below(8) as usize,
        };
        let want = run_on(BackendKind::Portable, RejUniform(buf, filled));
        for kind in BackendKind::available() {
            assert_eq!(
                run_on(kind, RejUniform(buf, filled)),
                want,
                "{} round {round}",
                kind.name()
            );
        }
    }
}

struct RejEta(Eta, [u8; 136], usize);
impl Kernel for RejEta {
    type Output = (usize, [i32; N]);
    fn run<B: Backend>(self, b: B) -> (usize, [i32; N]) {
        let mut a = Poly { coeffs: [7; N] };
        let filled = b.rej_eta_q8380417(self.0, &mut a, self.2, &self.1);
        // Past the fill level a kernel may leave lanes that the next call
        // overwrites (AVX2 stores whole vectors): not compared.
        a.coeffs[filled.min(N)..].fill(7);
        (filled, a.coeffs)
    }
}

#[test]
fn eta_sampler_equals_portable_on_extreme_nibbles() {
    // Random nibbles are mostly accepted; here each nibble is drawn from
    // the edges (0, the largest accepted, the smallest rejected, 15) with
    // a rejection share that grows with the round, plus all-accepted and
    // all-rejected buffers, from fill levels at the start, in the middle
    // and near the end; the coefficients before the start must stay as
    // they were.
    let mut rng = Rng(0x5eed_0e7a);
    for round in 0..300 {
        for eta in [Eta::Two, Eta::Four] {
            let (last_ok, first_bad) = match eta {
                Eta::Two => (14u8, 15u8),
                Eta::Four => (8, 9),
            };
            let nibble = |rng: &mut Rng| match rng.below(8) {
                x if x < round % 8 => [first_bad, 15][rng.below(2) as usize],
                _ => [0, last_ok, rng.below(i32::from(last_ok) + 1) as u8][rng.below(3) as usize],
            };
            let buf: [u8; 136] = match round {
                0 => [0; 136],
                1 => [0xff; 136],
                2 => [last_ok * 0x11; 136],
                _ => core::array::from_fn(|_| nibble(&mut rng) | (nibble(&mut rng) << 4)),
            };
            let filled = match round % 3 {
                0 => 0,
                1 => rng.below(N as i32) as usize,
                _ => N - rng.below(9) as usize,
            };
            let want = run_on(BackendKind::Portable, RejEta(eta, buf, filled));
            for kind in BackendKind::available() {
                assert_eq!(
                    run_on(kind, RejEta(eta, buf, filled)),
                    want,
                    "{} round {round} eta {}",
                    kind.name(),
                    eta.value()
                );
            }
        }
    }
}

#[test]
fn constants() {
    assert_eq!(QINV, 58_728_449);
    assert_eq!((QINV as i64 * Q as i64) & 0xffff_ffff, 1);
    // zeta^256 = -1.
    assert_eq!(pow_mod(1753, 256), Q as u64 - 1);
    assert_eq!(INV_NTT_F, 41_978);
    assert_eq!(ZETAS[1], 25_847);
}

#[test]
fn scalar_rounding_examples() {
    // From the CCTV field-operation example for r = 6010000.
    let r = 6_010_000;
    assert_eq!(power2round(r), (734, 6_010_000 - 734 * 8192));
    assert_eq!(decompose(Gamma2::Q88, r), (32, -84_848));
    assert_eq!(use_hint(Gamma2::Q88, r, 1), 31);
    assert_eq!(decompose(Gamma2::Q32, r), (11, 248_464));
    assert_eq!(use_hint(Gamma2::Q32, r, 1), 12);
    // Exhaustive decompose identity on a stride.
    for g in [Gamma2::Q88, Gamma2::Q32] {
        let mut a = 0;
        while a < Q {
            let (a1, a0) = decompose(g, a);
            assert!(a1 >= 0 && a1 <= g.max_high());
            assert!(modq((a1 as i64) * 2 * g.value() as i64 + a0 as i64) == a);
            assert!(a0 > -g.value() - 1 && a0 <= g.value());
            a += 7;
        }
    }
}

#[test]
fn packing_round_trips() {
    let mut rng = Rng(99);
    let mut buf = [0u8; 640];
    for _ in 0..10 {
        let mut t1 = rng.poly(1 << 10);
        t1.coeffs
            .iter_mut()
            .for_each(|c| *c = c.rem_euclid(1 << 10));
        pack::pack_t1(&t1, &mut buf[..320]);
        let mut back = Poly::default();
        pack::unpack_t1(&buf[..320], &mut back);
        assert_eq!(back, t1);

        let t0 = {
            let mut p = rng.poly(1 << 12);
            p.coeffs[0] = 1 << 12;
            p
        };
        pack::pack_t0(&t0, &mut buf[..416]);
        pack::unpack_t0(&buf[..416], &mut back);
        assert_eq!(back, t0);

        for eta in [Eta::Two, Eta::Four] {
            let s = rng.poly(eta.value() + 1);
            let l = pack::eta_bytes(eta);
            pack::pack_eta(eta, &s, &mut buf[..l]);
            assert!(pack::unpack_eta(eta, &buf[..l], &mut back));
            assert_eq!(back, s);
        }
        // 3-bit code 7 is out of range for eta = 2.
        assert!(!pack::unpack_eta(Eta::Two, &[0xff; 96], &mut back));
        // Every code in every position, against a bit-by-bit reading: the
        // coefficients, and whether one is out of range (codes above 2 eta).
        for eta in [Eta::Two, Eta::Four] {
            let (bits, e) = (if eta == Eta::Two { 3 } else { 4 }, eta.value());
            let l = pack::eta_bytes(eta);
            for trial in 0..200u32 {
                // Mostly in-range codes, and now and then one that is not.
                let mut codes = [0u32; 256];
                for (i, c) in codes.iter_mut().enumerate() {
                    *c = rng.below(2 * e + 1) as u32;
                    if trial % 3 == 0 && i as u32 == trial % 256 {
                        *c = 2 * e as u32 + 1 + (trial / 3) % ((1 << bits) - 2 * e as u32 - 1);
                    }
                }
                buf[..l].fill(0);
                for (i, &c) in codes.iter().enumerate() {
                    for k in 0..bits {
                        let bit = (c >> k) & 1;
                        let at = i * bits + k;
                        buf[at / 8] |= (bit as u8) << (at % 8);
                    }
                }
                let ok = pack::unpack_eta(eta, &buf[..l], &mut back);
                assert_eq!(
                    ok,
                    codes.iter().all(|&c| c <= 2 * e as u32),
                    "{eta:?} {trial}"
                );
                for (i, &c) in codes.iter().enumerate() {
                    assert_eq!(back.coeffs[i], e - c as i32, "{eta:?} {trial} {i}");
                }
                // A short input: the same coefficients as far as it goes.
                let mut short = Poly::default();
                pack::unpack_eta(eta, &buf[..l - 1], &mut short);
                let whole = (l - 1) * 8 / bits / 8 * 8;
                assert_eq!(short.coeffs[..whole], back.coeffs[..whole]);
            }
        }
        for bits in [17, 19] {
            let mut z = rng.poly(1 << bits);
            z.coeffs[1] = 1 << bits;
            let l = pack::z_bytes(bits);
            pack::pack_z(bits, &z, &mut buf[..l]);
            pack::unpack_z(bits, &buf[..l], &mut back);
            assert_eq!(back, z);
            // A short output takes the byte-at-a-time packer: the same
            // bytes as far as they go.
            let mut short = [0u8; 639];
            pack::pack_z(bits, &z, &mut short[..l - 1]);
            assert_eq!(short[..l - 1], buf[..l - 1]);
        }
    }
}

#[test]
fn sample_in_ball_weight() {
    for tau in [39, 49, 60] {
        let c = sample_in_ball(&[tau as u8; 48], tau).expect("enough output");
        assert_eq!(c.coeffs.iter().filter(|&&x| x != 0).count(), tau);
        assert!(c.coeffs.iter().all(|&x| (-1..=1).contains(&x)));
    }
}
