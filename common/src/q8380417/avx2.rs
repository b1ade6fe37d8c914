//! AVX2 kernels for q = 8380417 (8 x i32 lanes).

use super::{Eta, Gamma2, Ops, Poly, portable};
use crate::backend::Avx2;

impl Ops for Avx2 {
    #[inline]
    fn ntt(self, a: &mut Poly) {
        portable::ntt(a)
    }
    #[inline]
    fn inv_ntt_tomont(self, a: &mut Poly) {
        portable::inv_ntt_tomont(a)
    }
    #[inline]
    fn pointwise_mont(self, a: &Poly, b: &Poly, r: &mut Poly) {
        portable::pointwise_mont(a, b, r)
    }
    #[inline]
    fn pointwise_acc_mont(self, a: &Poly, b: &Poly, r: &mut Poly) {
        portable::pointwise_acc_mont(a, b, r)
    }
    #[inline]
    fn add(self, a: &mut Poly, b: &Poly) {
        portable::add(a, b)
    }
    #[inline]
    fn sub(self, a: &mut Poly, b: &Poly) {
        portable::sub(a, b)
    }
    #[inline]
    fn reduce32(self, a: &mut Poly) {
        portable::reduce(a)
    }
    #[inline]
    fn caddq(self, a: &mut Poly) {
        portable::caddq_all(a)
    }
    #[inline]
    fn shift_left_d(self, a: &mut Poly) {
        portable::shift_left_d(a)
    }
    #[inline]
    fn power2round(self, a: &Poly, a1: &mut Poly, a0: &mut Poly) {
        portable::power2round_poly(a, a1, a0)
    }
    #[inline]
    fn decompose(self, gamma2: Gamma2, a: &Poly, a1: &mut Poly, a0: &mut Poly) {
        portable::decompose_poly(gamma2, a, a1, a0)
    }
    #[inline]
    fn make_hint(self, gamma2: Gamma2, a0: &Poly, a1: &Poly, h: &mut Poly) -> u32 {
        portable::make_hint_poly(gamma2, a0, a1, h)
    }
    #[inline]
    fn use_hint(self, gamma2: Gamma2, a: &Poly, h: &Poly, out: &mut Poly) {
        portable::use_hint_poly(gamma2, a, h, out)
    }
    #[inline]
    fn exceeds_norm(self, a: &Poly, bound: i32) -> bool {
        portable::exceeds_norm(a, bound)
    }
    #[inline]
    fn rej_uniform(self, a: &mut Poly, filled: usize, buf: &[u8; 168]) -> usize {
        portable::rej_uniform(a, filled, buf)
    }
    #[inline]
    fn rej_eta(self, eta: Eta, a: &mut Poly, filled: usize, buf: &[u8; 136]) -> usize {
        portable::rej_eta(eta, a, filled, buf)
    }
}
