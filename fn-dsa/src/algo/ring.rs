//! Polynomials modulo (q = 12289, X^n + 1): the one place where this crate
//! multiplies and divides polynomials modulo q.
//!
//! All arithmetic is `pqkit_common::q12289`'s: its backend-dispatched NTT,
//! Montgomery product and inverse NTT (AVX2 when available), and the
//! constant-time scalar helpers of `q12289::scalar` (canonical and centred
//! representatives, Montgomery form, batch division). Polynomials are
//! `i16` slices in that module's representation; the encoded public
//! polynomial `h` is kept canonical (`[0, q)`), which the forward NTT
//! accepts as it is. Every operation here is constant-time, so secret
//! polynomials (key decoding and key generation) may go through it.
//!
//! Each kernel below enters the dispatch once and runs all its transforms
//! on the selected backend.

use pqkit_common::q12289::scalar;
use pqkit_common::{Backend, Kernel, dispatch};

/// The modulus.
pub(crate) use pqkit_common::q12289::Q;

/// Forward NTT in place (input `|a_i| <= q`, e.g. canonical or small
/// signed values; output `|a_i| <= q/2 + 1`, the kernel's evaluation
/// order). `a.len()` is a power of two in 1..=1024 (degree 1 is the
/// identity, which the kernel leaves untouched).
struct Fwd<'a>(&'a mut [i16]);

impl Kernel for Fwd<'_> {
    type Output = ();
    fn run<B: Backend>(self, b: B) {
        // A bad length (only n = 1 here) leaves the slice untouched: the
        // identity, which is the NTT of degree 1.
        let _ = b.ntt_q12289(self.0);
    }
}

/// [`Fwd`] through the dispatch.
pub(crate) fn ntt(a: &mut [i16]) {
    dispatch(Fwd(a));
}

/// `out = s2 h mod q` in coefficient form (`|out_i| < q`) for `s2` in
/// coefficient form (`|s2_i| <= q`, consumed: left in the NTT domain) and
/// `h_ntt` from [`ntt`] or [`RecoverG`]: NTT, Montgomery pointwise product
/// (`R^-1`), inverse NTT (`R`).
pub(crate) struct MulH<'a> {
    /// `s2`, transformed in place.
    pub(crate) s2: &'a mut [i16],
    /// `h` in the NTT domain (`|h_i| < q`).
    pub(crate) h_ntt: &'a [i16],
    /// The product.
    pub(crate) out: &'a mut [i16],
}

impl Kernel for MulH<'_> {
    type Output = ();
    fn run<B: Backend>(self, b: B) {
        let _ = b.ntt_q12289(self.s2);
        let _ = b.pointwise_mont_q12289(self.s2, self.h_ntt, self.out);
        let _ = b.inv_ntt_tomont_q12289(self.out);
    }
}

/// Signing-key completion (`f, g, F` small, coefficient form, in the three
/// buffers): `h = g / f` and `G = h F = g F / f` modulo q. On return
/// `fg` holds `G` (coefficient form, `|G_i| < q`), `gh` holds `h` in the
/// NTT domain (`|h_i| < q`, usable by [`MulH`]) and `cap_fh` holds `h` in
/// coefficient form (canonical, `[0, q)`). Returns 1 iff `f` is invertible
/// modulo (q, X^n + 1); otherwise the outputs are meaningless. Lengths are
/// equal powers of two in 2..=1024.
pub(crate) struct RecoverG<'a> {
    /// `f` in, `G` out.
    pub(crate) fg: &'a mut [i16],
    /// `g` in, `h` (NTT domain) out.
    pub(crate) gh: &'a mut [i16],
    /// `F` in, `h` (canonical coefficients) out.
    pub(crate) cap_fh: &'a mut [i16],
}

impl Kernel for RecoverG<'_> {
    type Output = subtle::Choice;
    fn run<B: Backend>(self, b: B) -> subtle::Choice {
        let RecoverG { fg, gh, cap_fh } = self;
        let _ = b.ntt_q12289(fg);
        let _ = b.ntt_q12289(gh);
        let _ = b.ntt_q12289(cap_fh);
        // h = g / f, plain NTT-domain values (|h_i| < q).
        let invertible = scalar::div_pointwise(gh, fg);
        // G = F h: F h R^-1 then the inverse NTT's R.
        let _ = b.pointwise_mont_q12289(cap_fh, gh, fg);
        let _ = b.inv_ntt_tomont_q12289(fg);
        // h in coefficient form: h R from the inverse NTT, then R^-1.
        cap_fh.copy_from_slice(gh);
        let _ = b.inv_ntt_tomont_q12289(cap_fh);
        for x in cap_fh.iter_mut() {
            *x = scalar::canonical(scalar::from_mont(*x));
        }
        invertible
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    fn canon(x: i64) -> i64 {
        x.rem_euclid(Q as i64)
    }

    fn schoolbook(a: &[i16], b: &[i16]) -> Vec<i64> {
        let n = a.len();
        let mut r = std::vec![0i64; n];
        for i in 0..n {
            for j in 0..n {
                let p = a[i] as i64 * b[j] as i64;
                if i + j < n {
                    r[i + j] += p;
                } else {
                    r[i + j - n] -= p;
                }
            }
        }
        r.into_iter().map(canon).collect()
    }

    fn lcg(seed: u32) -> impl FnMut() -> u32 {
        let mut s = seed;
        move || {
            s = s.wrapping_mul(1_103_515_245).wrapping_add(12345);
            s >> 8
        }
    }

    #[test]
    fn ntt_multiplication_matches_schoolbook() {
        let mut next = lcg(0x1234_5678);
        for logn in 1..=10 {
            let n = 1usize << logn;
            // h canonical, s2 small and signed (as in verification).
            let h: Vec<i16> = (0..n).map(|_| (next() % Q as u32) as i16).collect();
            let s2: Vec<i16> = (0..n).map(|_| (next() % 4095) as i16 - 2047).collect();
            let want = schoolbook(&s2, &h);
            let mut h_ntt = h.clone();
            ntt(&mut h_ntt);
            let mut t = s2.clone();
            let mut out = std::vec![0i16; n];
            dispatch(MulH {
                s2: &mut t,
                h_ntt: &h_ntt,
                out: &mut out,
            });
            let got: Vec<i64> = out.iter().map(|&x| canon(x as i64)).collect();
            assert_eq!(got, want, "logn {logn}");
        }
    }

    #[test]
    fn recover_g_divides() {
        let mut next = lcg(0x9abc_def0);
        for logn in 1..=10 {
            let n = 1usize << logn;
            let small = |next: &mut dyn FnMut() -> u32| -> Vec<i16> {
                (0..n).map(|_| (next() % 255) as i16 - 127).collect()
            };
            let (f, g, cap_f) = (small(&mut next), small(&mut next), small(&mut next));
            let (mut w0, mut w1, mut w2) = (f.clone(), g.clone(), cap_f.clone());
            let ok = dispatch(RecoverG {
                fg: &mut w0,
                gh: &mut w1,
                cap_fh: &mut w2,
            });
            // f is invertible iff no NTT value is zero.
            let mut f_ntt = f.clone();
            ntt(&mut f_ntt);
            let invertible = !f_ntt.iter().any(|&x| canon(x as i64) == 0);
            assert_eq!(bool::from(ok), invertible, "logn {logn}");
            if !invertible {
                continue;
            }
            // h canonical with h f = g, G f = g F.
            assert!(w2.iter().all(|&x| (0..Q).contains(&x)));
            assert_eq!(
                schoolbook(&w2, &f),
                g.iter().map(|&x| canon(x as i64)).collect::<Vec<_>>()
            );
            assert_eq!(schoolbook(&w0, &f), schoolbook(&g, &cap_f), "logn {logn}");
            // The NTT-domain h is the transform of the coefficients.
            let mut h = w2.clone();
            ntt(&mut h);
            for (x, y) in h.iter().zip(&w1) {
                assert_eq!(canon(*x as i64), canon(*y as i64));
            }
        }
    }
}
