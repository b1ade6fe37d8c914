//! Saber's power-of-two rings `Z_{2^13}[X]/(X^256 + 1)` and
//! `Z_{2^10}[X]/(X^256 + 1)`: exact products through the NTTs of two
//! 16-bit primes, 3329 and 12289, and the Chinese remainder theorem.
//!
//! Why NTTs modulo primes, in a ring whose modulus is a power of two:
//! Saber multiplies a public polynomial (coefficients below `2^13`) by a
//! small secret one (coefficients in `[-5, 5]`) and sums at most four such
//! products. With both factors centred (`|a| <= 2^12`, `|s| <= mu/2`),
//! every coefficient of the exact integer result is at most
//! `l * 256 * 2^12 * mu/2`, which is `10 * 2^20` for LightSaber and
//! `12 * 2^20` (12.6 million) for Saber and FireSaber: less than half of
//! `3329 * 12289 = 40,910,081`. So the product modulo each prime
//! determines the integer product, and reducing that modulo `2^13` (or
//! `2^10`, `2^16`) gives the ring product exactly. Both primes have
//! 16-bit Montgomery arithmetic and transforms of degree 256 on 16 lanes
//! of a vector register already: 3329 is ML-KEM's modulus (the incomplete
//! NTT and its base multiplication, [`crate::q3329`]), 12289 FN-DSA's (the
//! complete NTT, [`crate::q12289`]). A matrix-vector product transforms
//! each matrix entry and each secret polynomial once, accumulates in the
//! NTT domain and transforms each result back once; the residues are put
//! back together as `x = r1 + 3329 t`, `t = (r2 - r1) / 3329 mod 12289`.
//!
//! Everything is constant-time in the coefficient values.
//!
//! ```
//! use pqkit_common::pow2::{self, N, Ops, Poly, PolyHat, SecretHat};
//! use pqkit_common::{Backend, Kernel, dispatch};
//!
//! // (x + 1) * (x^255 - 2) in Z_{2^13}[X]/(X^256 + 1), on the best backend:
//! // one row of a 1 x 1 matrix-vector product, then the same as an inner
//! // product of 10-bit packed values.
//! struct Demo;
//! impl Kernel for Demo {
//!     type Output = (Poly, Poly);
//!     fn run<B: Backend>(self, b: B) -> (Poly, Poly) {
//!         let mut a = Poly::default();
//!         a.coeffs[0] = 1;
//!         a.coeffs[1] = 1;
//!         let mut s = Poly::default();
//!         s.coeffs[255] = 1;
//!         s.coeffs[0] = (-2i16) as u16;
//!         let s_hat = SecretHat::new(b, &[s]);
//!         let mut a_hat = [PolyHat::ZERO];
//!         pow2::forward(b, &a, 13, &mut a_hat[0]);
//!         let mut row = Poly::default();
//!         pow2::matrix_vector_row(b, &a_hat, &s_hat, false, 0, &mut row);
//!         // The same factor packed as 10-bit values, unpacked on the backend.
//!         let mut packed = [0u8; 10 * N / 8];
//!         assert!(a.pack(10, &mut packed));
//!         let mut a10 = Poly::default();
//!         assert!(b.unpack_pow2(10, &packed, &mut a10));
//!         let mut ip = Poly::default();
//!         // A transformed secret can also be made where it is kept.
//!         let mut kept = SecretHat::default();
//!         kept.set(b, &[s]);
//!         pow2::inner_product(b, &[a10], 10, &kept, &mut ip);
//!         (row, ip)
//!     }
//! }
//! let (row, ip) = dispatch(Demo);
//! // x^255 - 2 + x^256 - 2x = x^255 - 2x - 3 (x^256 = -1).
//! let mut want = [0u16; N];
//! want[0] = (-3i16) as u16;
//! want[1] = (-2i16) as u16;
//! want[255] = 1;
//! assert_eq!(row.coeffs.map(|c| c & 0x1fff), want.map(|c| c & 0x1fff));
//! assert_eq!(ip.coeffs.map(|c| c & 0x3ff), want.map(|c| c & 0x3ff));
//! ```

use crate::Backend;

#[cfg(target_arch = "x86_64")]
mod avx2;

/// The kernels a backend provides for this ring (method names carry the
/// ring's suffix: every ring's trait is a supertrait of [`crate::Backend`]).
pub trait Ops: Copy {
    /// [`Poly::unpack`] on the backend: the same values and the same
    /// refusals (`false`, nothing written), with AVX2 code for the widths
    /// Saber uses (6, 10 and 13 bits).
    #[inline]
    fn unpack_pow2(self, d: u32, bytes: &[u8], out: &mut Poly) -> bool {
        out.unpack(d, bytes)
    }
}

impl Ops for crate::Portable {}

// On NEON the portable unpacker: a gather kernel (TBL, USHL, UZP1, as
// ML-KEM's decompression) counted more instructions than it under qemu
// (626 against 610 for 13 bits), which compiles to shifts of 64-bit
// windows.
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
impl Ops for crate::backend::Neon {}
#[cfg(all(target_family = "wasm", target_feature = "simd128"))]
impl Ops for crate::backend::Simd128 {}

#[cfg(target_arch = "x86_64")]
impl Ops for crate::backend::Avx2 {
    fn unpack_pow2(self, d: u32, bytes: &[u8], out: &mut Poly) -> bool {
        if bytes.len() != 32 * d as usize {
            return false;
        }
        match d {
            // SAFETY: an `Avx2` token exists only after AVX2 was detected;
            // the length is `32 d`, as the kernel requires.
            #[allow(unsafe_code)]
            6 => unsafe { avx2::unpack::<6>(bytes, out) },
            // SAFETY: as above.
            #[allow(unsafe_code)]
            10 => unsafe { avx2::unpack::<10>(bytes, out) },
            // SAFETY: as above.
            #[allow(unsafe_code)]
            13 => unsafe { avx2::unpack::<13>(bytes, out) },
            _ => return out.unpack(d, bytes),
        }
        true
    }
}

/// Ring degree.
pub const N: usize = 256;

/// A polynomial with `u16` coefficients (the ring `Z_{2^16}[X]/(X^256 + 1)`;
/// Saber keeps its values modulo `2^13` or `2^10` in the low bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Poly {
    /// Coefficients, constant term first.
    pub coeffs: [u16; N],
}

impl Default for Poly {
    fn default() -> Self {
        Self { coeffs: [0; N] }
    }
}

impl zeroize::Zeroize for Poly {
    fn zeroize(&mut self) {
        crate::wipe::wipe(&mut self.coeffs);
    }
}

impl Poly {
    /// Pack the low `d` bits of every coefficient into `out` (`32 d`
    /// bytes), eight coefficients per `d` bytes, little-endian, as Saber's
    /// `POLp2BS`/`POLq2BS` and ByteEncode do. `d` is one of Saber's widths
    /// (3, 4, 6, 10, 13); returns `false` (and writes nothing) for any other
    /// width or a wrong length.
    pub fn pack(&self, d: u32, out: &mut [u8]) -> bool {
        match d {
            3 => self.pack_groups::<3>(out),
            4 => self.pack_groups::<4>(out),
            6 => self.pack_groups::<6>(out),
            10 => self.pack_groups::<10>(out),
            13 => self.pack_groups::<13>(out),
            _ => false,
        }
    }

    /// The inverse of [`Poly::pack`]: `d`-bit coefficients from `bytes`
    /// (`32 d` bytes). Returns `false` (and writes nothing) for a width
    /// `pack` does not take or a wrong length.
    pub fn unpack(&mut self, d: u32, bytes: &[u8]) -> bool {
        match d {
            3 => self.unpack_groups::<3>(bytes),
            4 => self.unpack_groups::<4>(bytes),
            6 => self.unpack_groups::<6>(bytes),
            10 => self.unpack_groups::<10>(bytes),
            13 => self.unpack_groups::<13>(bytes),
            _ => false,
        }
    }

    fn pack_groups<const D: usize>(&self, out: &mut [u8]) -> bool {
        if out.len() != 32 * D {
            return false;
        }
        let (chunks, _) = out.as_chunks_mut::<D>();
        for (group, chunk) in self.coeffs.as_chunks::<8>().0.iter().zip(chunks) {
            crate::pack::pack_group::<D>(group.map(u32::from), chunk);
        }
        true
    }

    fn unpack_groups<const D: usize>(&mut self, bytes: &[u8]) -> bool {
        if bytes.len() != 32 * D {
            return false;
        }
        let (groups, _) = self.coeffs.as_chunks_mut::<8>();
        for (group, chunk) in groups.iter_mut().zip(bytes.chunks_exact(D)) {
            // Values of at most 13 bits: the cast keeps them.
            *group = crate::pack::unpack_group::<D>(chunk).map(|v| v as u16);
        }
        true
    }
}

/// The first modulus of the exact products (ML-KEM's: its NTT, base
/// multiplication and inverse are [`crate::q3329`]'s kernels).
const Q1: i16 = crate::q3329::Q;
/// The second modulus (FN-DSA's, at degree 256: [`crate::q12289`]).
const Q2: i16 = crate::q12289::Q;

/// `Q1^-1 * 2^16 mod Q2`, centred: the Montgomery product of a residue
/// modulo `Q2` by it is that residue divided by `Q1`.
const Q1_INV_MONT: i16 = {
    let q2 = Q2 as i64;
    // Q1^-1 mod Q2 by Fermat (Q2 is prime), then times 2^16.
    let inv = crate::q12289::MOD.pow(Q1 as i64, (Q2 as u64) - 2);
    let v = inv * 65536 % q2;
    (if v > q2 / 2 { v - q2 } else { v }) as i16
};
const _: () = assert!((Q1_INV_MONT as i64 * Q1 as i64 - 65536).rem_euclid(Q2 as i64) == 0);

/// A polynomial in the NTT domain: its residues modulo 3329 (ML-KEM's
/// incomplete NTT) and modulo 12289 (the complete NTT of degree 256).
#[derive(Clone)]
#[repr(C, align(32))]
pub struct PolyHat {
    r1: crate::q3329::Poly,
    r2: [i16; N],
}

impl Default for PolyHat {
    fn default() -> Self {
        Self::ZERO
    }
}

impl zeroize::Zeroize for PolyHat {
    fn zeroize(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.r1);
        crate::wipe::wipe(&mut self.r2);
    }
}

impl PolyHat {
    /// The zero polynomial.
    pub const ZERO: Self = Self {
        r1: crate::q3329::Poly { coeffs: [0; N] },
        r2: [0; N],
    };

    /// `self += x * y` in the NTT domain, for term `k` of a sum of at most
    /// four (`tmp` is scratch). The residues modulo 3329 are left
    /// unreduced (each product is below `2q`, four below `8q`), those
    /// modulo 12289 are reduced after every second term (a reduced sum is
    /// at most `q/2 + 1`, so two more products keep it below `2.5 q`):
    /// every sum fits an `i16`, and [`inverse`] reduces both.
    fn mul_acc<B: Backend>(&mut self, b: B, k: usize, x: &PolyHat, y: &PolyHat, tmp: &mut PolyHat) {
        b.basemul_mont_q3329(&x.r1, &y.r1, &mut tmp.r1);
        let _ = b.pointwise_mont_q12289(&x.r2, &y.r2, &mut tmp.r2);
        for (a, t) in self.r1.coeffs.iter_mut().zip(tmp.r1.coeffs.iter()) {
            *a += *t;
        }
        for (a, t) in self.r2.iter_mut().zip(tmp.r2.iter()) {
            *a += *t;
        }
        if k % 2 == 1 {
            b.reduce_q12289(&mut self.r2);
        }
    }
}

/// The NTT of `a`, its coefficients read as `bits`-bit two's-complement
/// values (centred: `[-2^(bits-1), 2^(bits-1))`; `bits` at most 16;
/// the products are exact for 13 bits or fewer, see
/// [`SecretHat::new`]).
pub fn forward<B: Backend>(b: B, a: &Poly, bits: u32, out: &mut PolyHat) {
    let bits = bits.clamp(1, 16);
    forward_bounded(b, a, bits, 1 << (bits - 1), out);
}

/// [`forward`] of values known to be at most `max` in magnitude: each
/// residue is reduced first only where the transform needs it (modulo
/// 3329 from `max >= 3329` on), and values of at most `2^12` take the
/// transform modulo 12289 with fewer reductions.
fn forward_bounded<B: Backend>(b: B, a: &Poly, bits: u32, max: u32, out: &mut PolyHat) {
    let shift = 16 - bits;
    for ((x, y), &c) in out
        .r1
        .coeffs
        .iter_mut()
        .zip(out.r2.iter_mut())
        .zip(a.coeffs.iter())
    {
        let v = ((c << shift) as i16) >> shift;
        *x = v;
        *y = v;
    }
    if max >= Q1 as u32 {
        b.reduce_q3329(&mut out.r1);
    }
    b.ntt_q3329(&mut out.r1);
    if max <= 1 << 12 {
        let _ = b.ntt_small_q12289(&mut out.r2);
    } else {
        b.reduce_q12289(&mut out.r2);
        let _ = b.ntt_q12289(&mut out.r2);
    }
}

/// The inverse NTT of `acc` (a sum of at most four products, as
/// [`PolyHat::mul_acc`] leaves it): the exact integer, rebuilt from its
/// two residues, modulo `2^16`.
fn inverse<B: Backend>(b: B, acc: &mut PolyHat, tmp: &mut PolyHat, out: &mut Poly) {
    b.reduce_q3329(&mut acc.r1);
    b.reduce_q12289(&mut acc.r2);
    b.inv_ntt_tomont_q3329(&mut acc.r1);
    let _ = b.inv_ntt_tomont_q12289(&mut acc.r2);
    // x = r1 + Q1 t with t = (r2 - r1) / Q1 mod Q2, centred: r1 and r2
    // are below their moduli, t at most Q2/2 + 1, so |x| stays under
    // Q1 + Q1 (Q2/2 + 1) < 20.47 million. The exact value is below
    // 2^20 * 16 < 16.8 million (see `SecretHat::new`), and the two
    // differ by a multiple of Q1 Q2 = 40,910,081 smaller than it: they
    // are equal.
    // (`tmp` holds r2 - r1 and the constant; the caller wipes it.)
    for ((d, &r2), &r1) in tmp
        .r2
        .iter_mut()
        .zip(acc.r2.iter())
        .zip(acc.r1.coeffs.iter())
    {
        *d = r2 - r1;
    }
    b.reduce_q12289(&mut tmp.r2);
    tmp.r1.coeffs = [Q1_INV_MONT; N];
    let _ = b.pointwise_mont_q12289(&tmp.r2, &tmp.r1.coeffs, &mut acc.r2);
    b.reduce_q12289(&mut acc.r2);
    for ((o, &r1), &t) in out
        .coeffs
        .iter_mut()
        .zip(acc.r1.coeffs.iter())
        .zip(acc.r2.iter())
    {
        *o = (r1 as u16).wrapping_add((Q1 as u16).wrapping_mul(t as u16));
    }
}

/// A vector of up to four small secret polynomials in the NTT domain,
/// ready for products ([`SecretHat::new`]); wiped on drop.
#[derive(Clone)]
pub struct SecretHat {
    hat: [PolyHat; 4],
    len: usize,
}

impl Drop for SecretHat {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(self);
    }
}

/// Wipes the entries in use (the others are never written).
impl zeroize::Zeroize for SecretHat {
    fn zeroize(&mut self) {
        for h in self.hat.iter_mut().take(self.len) {
            zeroize::Zeroize::zeroize(h);
        }
    }
}

impl Default for SecretHat {
    fn default() -> Self {
        Self {
            hat: [PolyHat::ZERO; 4],
            len: 0,
        }
    }
}

/// Transform the public polynomials `a` (coefficients `bits`-bit values,
/// read centred) into `out`, one by one.
pub fn forward_all<B: Backend>(b: B, a: &[Poly], bits: u32, out: &mut [PolyHat]) {
    for (o, p) in out.iter_mut().zip(a) {
        forward(b, p, bits, o);
    }
}

impl SecretHat {
    /// Transform the small polynomials `s` (at most four, stored modulo
    /// `2^16`) once, for any number of products.
    ///
    /// The products are exact (before the reduction modulo `2^16`) when
    /// the largest magnitudes of the entries of `s` sum to at most 16 and
    /// the other factor has 13-bit coefficients (or fewer bits): every
    /// coefficient of the integer result is then below
    /// `16 * 256 * 2^12 = 2^24 < 16.8 million`. Saber's vectors sum to 10
    /// (LightSaber, `2 * 5`) and 12 (Saber `3 * 4`, FireSaber `4 * 3`).
    pub fn new<B: Backend>(b: B, s: &[Poly]) -> Self {
        let mut out = Self::default();
        out.set(b, s);
        out
    }

    /// [`SecretHat::new`] into `self` (for a value already where it is
    /// kept, such as a key's heap allocation: nothing is built elsewhere
    /// and copied).
    pub fn set<B: Backend>(&mut self, b: B, s: &[Poly]) {
        zeroize::Zeroize::zeroize(self);
        self.len = s.len().min(4);
        // Entries are at most 16 in magnitude (the bound above).
        for (h, p) in self.hat.iter_mut().zip(s) {
            forward_bounded(b, p, 16, 16, h);
        }
    }
}

/// `out[i] = sum_j A[i][j] s[j]` (or `sum_j A[j][i] s[j]` when `transpose`)
/// for the transformed `l x l` matrix `a_hat` (row-major; see
/// [`forward_all`] with 13 bits) and the transformed small vector `s` (`l`
/// entries); results modulo `2^16` (Saber's `MatrixVectorMul`).
pub fn matrix_vector_mul<B: Backend>(
    b: B,
    a_hat: &[PolyHat],
    s: &SecretHat,
    transpose: bool,
    out: &mut [Poly],
) {
    for (i, o) in out.iter_mut().enumerate().take(s.len) {
        matrix_vector_row(b, a_hat, s, transpose, i, o);
    }
}

/// Row `i` of [`matrix_vector_mul`] alone (`out = sum_j A[i][j] s[j]`, or
/// `A[j][i]` when `transpose`), for callers that use each row as it comes
/// (one row buffer instead of `l`).
pub fn matrix_vector_row<B: Backend>(
    b: B,
    a_hat: &[PolyHat],
    s: &SecretHat,
    transpose: bool,
    i: usize,
    out: &mut Poly,
) {
    let l = s.len;
    let mut acc = PolyHat::ZERO;
    let mut tmp = PolyHat::ZERO;
    for (j, sh) in s.hat.iter().enumerate().take(l) {
        let e = if transpose { j * l + i } else { i * l + j };
        if let Some(entry) = a_hat.get(e) {
            acc.mul_acc(b, j, entry, sh, &mut tmp);
        }
    }
    inverse(b, &mut acc, &mut tmp, out);
    zeroize::Zeroize::zeroize(&mut acc);
    zeroize::Zeroize::zeroize(&mut tmp);
}

/// `sum_j v[j] s[j]` for the transformed public vector `v_hat` and the
/// transformed small vector `s`; the result modulo `2^16`.
pub fn inner_product_hat<B: Backend>(b: B, v_hat: &[PolyHat], s: &SecretHat, out: &mut Poly) {
    let mut acc = PolyHat::ZERO;
    let mut tmp = PolyHat::ZERO;
    for (k, (x, sh)) in v_hat.iter().zip(s.hat.iter().take(s.len)).enumerate() {
        acc.mul_acc(b, k, x, sh, &mut tmp);
    }
    inverse(b, &mut acc, &mut tmp, out);
    zeroize::Zeroize::zeroize(&mut acc);
    zeroize::Zeroize::zeroize(&mut tmp);
}

/// `sum_j v[j] s[j]` for the vector `v` (coefficients modulo `2^bits`) and
/// the transformed small vector `s`; the result modulo `2^16` (Saber's
/// `InnerProd`).
pub fn inner_product<B: Backend>(b: B, v: &[Poly], bits: u32, s: &SecretHat, out: &mut Poly) {
    let mut acc = PolyHat::ZERO;
    let mut tmp = PolyHat::ZERO;
    let mut v_hat = PolyHat::ZERO;
    for (k, (x, sh)) in v.iter().zip(s.hat.iter().take(s.len)).enumerate() {
        forward(b, x, bits, &mut v_hat);
        acc.mul_acc(b, k, &v_hat, sh, &mut tmp);
    }
    inverse(b, &mut acc, &mut tmp, out);
    zeroize::Zeroize::zeroize(&mut acc);
    zeroize::Zeroize::zeroize(&mut tmp);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Schoolbook negacyclic product modulo `2^16` (the reference for tests).
    fn schoolbook(a: &Poly, s: &Poly) -> Poly {
        let mut r = [0u16; N];
        for i in 0..N {
            for j in 0..N {
                let prod = a.coeffs[i].wrapping_mul(s.coeffs[j]);
                let k = i + j;
                if k < N {
                    r[k] = r[k].wrapping_add(prod);
                } else {
                    r[k - N] = r[k - N].wrapping_sub(prod);
                }
            }
        }
        Poly { coeffs: r }
    }

    use crate::{BackendKind, Kernel, run_on};

    struct Prng(u64);
    impl Prng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn poly(&mut self, modulus_bits: u32) -> Poly {
            let mut p = Poly::default();
            for c in p.coeffs.iter_mut() {
                *c = (self.next() & ((1 << modulus_bits) - 1)) as u16;
            }
            p
        }
        fn small(&mut self, bound: i16) -> Poly {
            let mut p = Poly::default();
            for c in p.coeffs.iter_mut() {
                let r = (self.next() % (2 * bound as u64 + 1)) as i16 - bound;
                *c = r as u16;
            }
            p
        }
    }

    /// `Poly::pack`/`unpack` equal the generic bit packer for every width
    /// Saber uses, round-trip, and refuse other widths and wrong lengths.
    #[test]
    fn pack_matches_generic_packer_and_round_trips() {
        let mut rng = Prng(0x5eed_1234_abcd_0001);
        for d in [3u32, 4, 6, 10, 13] {
            let p = rng.poly(16);
            let mut out = [0u8; 13 * 32 + 1];
            let len = 32 * d as usize;
            assert!(p.pack(d, &mut out[..len]));
            let mut expect = [0u8; 13 * 32];
            let vals: [u32; N] = core::array::from_fn(|i| u32::from(p.coeffs[i]));
            assert!(crate::pack::pack256(d, &vals, &mut expect[..len]));
            assert_eq!(out[..len], expect[..len], "d = {d}");
            let mut back = Poly::default();
            assert!(back.unpack(d, &out[..len]));
            for (b, c) in back.coeffs.iter().zip(p.coeffs.iter()) {
                assert_eq!(*b, c & ((1 << d) - 1));
            }
            assert!(!p.pack(d, &mut out[..len - 1]));
            assert!(!back.unpack(d, &out[..len + 1]));
        }
        let mut q = Poly::default();
        assert!(!Poly::default().pack(5, &mut [0u8; 160]));
        assert!(!q.unpack(12, &[0u8; 384]));
        assert_eq!(q, Poly::default());
    }

    /// Every backend's `unpack_pow2` equals `Poly::unpack` for each width
    /// Saber uses, on random bytes, and refuses wrong lengths without
    /// writing.
    #[test]
    fn backend_unpack_equals_portable() {
        struct Unpack<'a>(u32, &'a [u8]);
        impl Kernel for Unpack<'_> {
            type Output = (bool, Poly, bool, Poly);
            fn run<B: Backend>(self, b: B) -> Self::Output {
                let mut p = Poly::default();
                let ok = b.unpack_pow2(self.0, self.1, &mut p);
                let mut q = Poly { coeffs: [7; N] };
                let short = b.unpack_pow2(self.0, &self.1[1..], &mut q);
                (ok, p, short, q)
            }
        }
        let mut g = Prng(0x0bad_cafe_1234_5678);
        for d in [3u32, 4, 6, 10, 13] {
            for _ in 0..20 {
                let bytes: std::vec::Vec<u8> = (0..32 * d).map(|_| g.next() as u8).collect();
                let mut want = Poly::default();
                assert!(want.unpack(d, &bytes));
                for backend in BackendKind::available() {
                    let Some((ok, got, short, untouched)) = run_on(backend, Unpack(d, &bytes))
                    else {
                        panic!("{backend:?} listed as available but did not run");
                    };
                    assert!(ok && !short, "d = {d} on {backend:?}");
                    assert_eq!(got, want, "d = {d} on {backend:?}");
                    assert_eq!(untouched.coeffs, [7; N], "d = {d} on {backend:?}");
                }
            }
        }
    }

    struct MatVec<'a> {
        a: &'a [Poly],
        s: &'a [Poly],
        transpose: bool,
    }
    impl Kernel for MatVec<'_> {
        type Output = [Poly; 4];
        fn run<B: Backend>(self, b: B) -> [Poly; 4] {
            let mut out = [Poly::default(); 4];
            let l = self.s.len();
            let s_hat = SecretHat::new(b, self.s);
            let mut a_hat: [PolyHat; 16] = core::array::from_fn(|_| PolyHat::ZERO);
            forward_all(b, self.a, 13, &mut a_hat);
            matrix_vector_mul(b, &a_hat[..l * l], &s_hat, self.transpose, &mut out[..l]);
            // The inner product of row 0 of the matrix with s, the same
            // way (it is out[0] of the untransposed product).
            let mut ip = Poly::default();
            inner_product(b, &self.a[..l], 13, &s_hat, &mut ip);
            if !self.transpose {
                assert_eq!(
                    ip.coeffs.map(|c| c & 0x1fff),
                    out[0].coeffs.map(|c| c & 0x1fff)
                );
            }
            out
        }
    }

    fn reference(a: &[Poly], s: &[Poly], transpose: bool) -> [Poly; 4] {
        let l = s.len();
        let mut out = [Poly::default(); 4];
        for (i, o) in out.iter_mut().enumerate().take(l) {
            for (j, sj) in s.iter().enumerate() {
                let e = if transpose { j * l + i } else { i * l + j };
                let p = schoolbook(&a[e], sj);
                for (x, y) in o.coeffs.iter_mut().zip(p.coeffs) {
                    *x = x.wrapping_add(y);
                }
            }
        }
        out
    }

    /// Random and extreme inputs, for every rank with Saber's secret bound
    /// (LightSaber 2 x 5, Saber 3 x 4, FireSaber 4 x 3) and at the limit
    /// the products promise (4 x 4: results up to 2^24), both orientations,
    /// on every backend: equal to schoolbook modulo 2^13 (A is read as 13-bit
    /// values, centred, so only that much is defined). The extremes put
    /// every coefficient of A at -2^12 or 2^12 - 1 and of s at -bound or
    /// +bound, so that every output coefficient is the largest possible.
    #[test]
    fn products_match_schoolbook_on_every_backend() {
        let mut g = Prng(0x9e37_79b9_7f4a_7c15);
        for (l, bound) in [(2usize, 5i16), (3, 4), (4, 3), (4, 4)] {
            let mut cases: [(alloc_free::Mat, alloc_free::Vecs); 4] = Default::default();
            for e in 0..l * l {
                cases[0].0[e] = g.poly(13);
                cases[1].0[e] = Poly {
                    coeffs: [0x1000; N],
                };
                cases[2].0[e] = Poly {
                    coeffs: [0x0fff; N],
                };
                cases[3].0[e] = Poly {
                    coeffs: [0x1000; N],
                };
            }
            for j in 0..l {
                cases[0].1[j] = g.small(bound);
                cases[1].1[j] = Poly {
                    coeffs: [(-bound) as u16; N],
                };
                cases[2].1[j] = Poly {
                    coeffs: [bound as u16; N],
                };
                cases[3].1[j] = Poly {
                    coeffs: [bound as u16; N],
                };
            }
            for (a, s) in &cases {
                for transpose in [false, true] {
                    let want = reference(&a[..l * l], &s[..l], transpose);
                    for backend in BackendKind::available() {
                        let Some(got) = run_on(
                            backend,
                            MatVec {
                                a: &a[..l * l],
                                s: &s[..l],
                                transpose,
                            },
                        ) else {
                            panic!("{backend:?} listed as available but did not run");
                        };
                        for i in 0..l {
                            assert_eq!(
                                got[i].coeffs.map(|c| c & 0x1fff),
                                want[i].coeffs.map(|c| c & 0x1fff),
                                "l {l} bound {bound} transpose {transpose} row {i} on {backend:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    mod alloc_free {
        pub type Mat = [super::Poly; 16];
        pub type Vecs = [super::Poly; 4];
    }
}
