//! q = 12289: NTT products against schoolbook for several degrees,
//! inverse round trips, every backend against portable, bad lengths.

use super::*;
use crate::testutil::rng;
use crate::{Backend, BackendKind, Kernel, Portable, run_on};
use std::vec::Vec;

fn random(next: &mut impl FnMut() -> u64, n: usize, bound: i64) -> Vec<i16> {
    (0..n)
        .map(|_| ((next() % (2 * bound as u64 + 1)) as i64 - bound) as i16)
        .collect()
}

fn canon(x: i64) -> i64 {
    x.rem_euclid(Q as i64)
}

fn schoolbook(a: &[i16], b: &[i16]) -> Vec<i64> {
    let n = a.len();
    let mut c = std::vec![0i64; n];
    for i in 0..n {
        for j in 0..n {
            let p = a[i] as i64 * b[j] as i64;
            if i + j < n {
                c[i + j] += p;
            } else {
                c[i + j - n] -= p;
            }
        }
    }
    c.into_iter().map(canon).collect()
}

/// The product of two polynomials through the NTT (with
/// `ntt_small_q12289` as the forward transform when `small`), canonical,
/// and the first factor's forward transform as the kernel left it.
struct Product<'a> {
    a: &'a [i16],
    b: &'a [i16],
    small: bool,
}
impl Kernel for Product<'_> {
    type Output = (Vec<i64>, Vec<i16>);
    fn run<B: Backend>(self, b: B) -> (Vec<i64>, Vec<i16>) {
        let (mut x, mut y) = (self.a.to_vec(), self.b.to_vec());
        let mut r = std::vec![0i16; x.len()];
        for v in [&mut x, &mut y] {
            if self.small {
                b.ntt_small_q12289(v).expect("len");
            } else {
                b.ntt_q12289(v).expect("len");
            }
        }
        b.pointwise_mont_q12289(&x, &y, &mut r).expect("len");
        b.inv_ntt_tomont_q12289(&mut r).expect("len");
        (r.into_iter().map(|c| canon(c as i64)).collect(), x)
    }
}

/// [`Product`] with the full-range forward transform, the product only.
fn product(kind: BackendKind, a: &[i16], b: &[i16]) -> Option<Vec<i64>> {
    run_on(kind, Product { a, b, small: false }).map(|(p, _)| p)
}

#[test]
fn ntt_product_equals_schoolbook_for_every_degree_and_backend() {
    let mut next = rng(11);
    for logn in 1..=10 {
        let n = 1 << logn;
        for _ in 0..if logn >= 9 { 3 } else { 10 } {
            let a = random(&mut next, n, Q as i64 - 1);
            let b = random(&mut next, n, Q as i64 - 1);
            let want = schoolbook(&a, &b);
            for kind in BackendKind::available() {
                assert_eq!(
                    product(kind, &a, &b).as_ref(),
                    Some(&want),
                    "{kind:?} logn {logn}"
                );
            }
        }
    }
}

struct Each(Vec<i16>, Vec<i16>);
impl Kernel for Each {
    type Output = [Vec<i16>; 4];
    fn run<B: Backend>(self, b: B) -> [Vec<i16>; 4] {
        let mut f = self.0.clone();
        b.ntt_q12289(&mut f).expect("len");
        let mut i = self.0.clone();
        b.inv_ntt_tomont_q12289(&mut i).expect("len");
        let mut m = std::vec![0i16; self.0.len()];
        b.pointwise_mont_q12289(&self.0, &self.1, &mut m)
            .expect("len");
        let mut r = self.1;
        b.reduce_q12289(&mut r);
        [f, i, m, r]
    }
}

#[test]
fn every_backend_equals_portable_bit_for_bit() {
    let mut next = rng(12);
    for logn in 1..=10 {
        for _ in 0..20 {
            let n = 1 << logn;
            let a = random(&mut next, n, Q as i64 - 1);
            let b = random(&mut next, n, i16::MAX as i64);
            let mut b2 = b.clone();
            Portable.reduce_q12289(&mut b2);
            let want = Each(a.clone(), b2.clone()).run(Portable);
            for kind in BackendKind::available() {
                assert_eq!(
                    run_on(kind, Each(a.clone(), b2.clone())).as_ref(),
                    Some(&want),
                    "{kind:?} logn {logn}"
                );
            }
            // reduce on the full i16 range too
            let mut r1 = b.clone();
            Portable.reduce_q12289(&mut r1);
            for kind in BackendKind::available() {
                struct R(Vec<i16>);
                impl Kernel for R {
                    type Output = Vec<i16>;
                    fn run<B: Backend>(self, b: B) -> Vec<i16> {
                        let mut x = self.0;
                        b.reduce_q12289(&mut x);
                        x
                    }
                }
                assert_eq!(run_on(kind, R(b.clone())).as_ref(), Some(&r1));
            }
        }
    }
}

#[test]
fn inverse_of_forward_is_identity_times_r() {
    let mut next = rng(13);
    for logn in [1, 2, 5, 9, 10] {
        let a = random(&mut next, 1 << logn, Q as i64 - 1);
        let mut x = a.clone();
        Portable.ntt_q12289(&mut x).expect("len");
        Portable.inv_ntt_tomont_q12289(&mut x).expect("len");
        for (x, y) in x.iter().zip(&a) {
            assert_eq!(canon(*x as i64), canon(*y as i64 * 65536));
        }
    }
}

#[test]
fn bad_lengths_are_errors_and_leave_input_untouched() {
    for n in [0usize, 1, 3, 48, 2048] {
        let mut a = std::vec![5i16; n];
        assert_eq!(Portable.ntt_q12289(&mut a), Err(BadLength));
        assert_eq!(Portable.inv_ntt_tomont_q12289(&mut a), Err(BadLength));
        assert!(a.iter().all(|&x| x == 5));
    }
    let mut r = [0i16; 4];
    assert_eq!(
        Portable.pointwise_mont_q12289(&[1; 4], &[1; 8], &mut r),
        Err(BadLength)
    );
}

#[test]
fn psi_has_order_2048() {
    assert_eq!(MOD.pow(PSI, 1024), Q as i64 - 1);
}

/// Inputs at the documented bound (`|a_i| <= q`), where the values grow
/// the most between reductions: constant `q`, `-q`, `q - 1`, alternating
/// signs, against schoolbook on every backend and degree.
#[test]
fn ntt_product_at_the_input_bound() {
    let q = Q;
    let mut next = rng(12);
    for logn in 1..=10 {
        let n = 1usize << logn;
        let patterns: [Vec<i16>; 5] = [
            std::vec![q; n],
            std::vec![-q; n],
            std::vec![q - 1; n],
            (0..n).map(|i| if i % 2 == 0 { q } else { -q }).collect(),
            (0..n)
                .map(|i| if i % 3 == 0 { -(q - 1) } else { q - 1 })
                .collect(),
        ];
        for a in &patterns {
            for b in patterns.iter().chain([&random(&mut next, n, Q as i64 - 1)]) {
                let want = schoolbook(a, b);
                for kind in BackendKind::available() {
                    assert_eq!(
                        product(kind, a, b).as_ref(),
                        Some(&want),
                        "{kind:?} logn {logn}"
                    );
                }
            }
        }
    }
}

/// The transform for inputs up to `2^12` (fewer reductions): products
/// equal schoolbook at that bound (constant `+-2^12`, alternating, and
/// random) on every degree and backend, and every backend's transform
/// equals the portable one bit for bit.
#[test]
fn small_input_ntt_is_exact_at_its_bound() {
    let m = 4096i16;
    let mut next = rng(13);
    for logn in 1..=10 {
        let n = 1usize << logn;
        let patterns: [Vec<i16>; 5] = [
            std::vec![m; n],
            std::vec![-m; n],
            (0..n).map(|i| if i % 2 == 0 { m } else { -m }).collect(),
            (0..n).map(|i| if i % 3 == 0 { -m } else { m }).collect(),
            random(&mut next, n, m as i64),
        ];
        for a in &patterns {
            for b in &patterns {
                let want = schoolbook(a, b);
                let small = Product { a, b, small: true };
                let portable = small.run(Portable);
                assert_eq!(portable.0, want, "portable logn {logn}");
                for kind in BackendKind::available() {
                    assert_eq!(
                        run_on(kind, Product { a, b, small: true }).as_ref(),
                        Some(&portable),
                        "{kind:?} logn {logn}"
                    );
                }
            }
        }
    }
}

/// The worst-case growth of each reduction schedule stays inside an
/// `i16` (the bound the random and extreme tests cannot reach on their
/// own): a Montgomery product by a zeta (`|z| <= (q - 1)/2`) of `b` is at
/// most `(|b| (q - 1)/2 + q 2^15) / 2^16`, a butterfly output at most the
/// input bound plus that, a reduced output at most `q/2 + 1`. A schedule
/// with the reductions one layer later does overflow.
#[test]
fn reduction_schedules_fit_i16() {
    fn peak(start: i64, logn: u32, mask: u32) -> i64 {
        let q = Q as i64;
        let mut m = start;
        let mut top = 0;
        for layer in 0..logn {
            let t = (m * (q - 1) / 2 + q * 32768 + 65535) / 65536;
            m += t;
            top = top.max(m);
            if (mask >> layer) & 1 == 1 || layer + 1 == logn {
                m = q / 2 + 1;
            }
        }
        top
    }
    for logn in 1..=10 {
        assert!(peak(Q as i64, logn, MASK_FULL) < 32768, "full {logn}");
        assert!(peak(4096, logn, MASK_SMALL) < 32768, "small {logn}");
    }
    assert!(peak(4096, 8, reduce_mask(4, 3)) >= 32768);
    assert!(peak(Q as i64, 8, reduce_mask(3, 2)) >= 32768);
}
