//! Saber's power-of-two rings `Z_{2^13}[X]/(X^256 + 1)` and
//! `Z_{2^10}[X]/(X^256 + 1)`: exact products through one negacyclic NTT
//! modulo a 31-bit prime.
//!
//! Why an NTT modulo a prime, in a ring whose modulus is a power of two:
//! Saber multiplies a public polynomial (coefficients below `2^13`) by a
//! small secret one (coefficients in `[-5, 5]`) and sums at most four such
//! products. With both factors centred (`|a| <= 2^12`, `|s| <= 5`) every
//! coefficient of the exact integer result is below
//! `4 * 256 * 2^12 * 5 < 2^25` in magnitude, far inside `(-p/2, p/2)` for a
//! prime `2^30 < p < 2^31`. So the product modulo `p`, centred, *is* the
//! integer product, and reducing it modulo `2^13` (or `2^10`, `2^16`) gives
//! the ring product exactly. The prime is `p = 2^31 - 10239 = 2147473409`,
//! the largest below `2^31` with `p = 1 mod 2048`, so a negacyclic NTT of
//! size 256 exists; the transforms are `pqkit_common::mp31`'s backend
//! kernels (portable and AVX2). A matrix-vector product transforms each
//! matrix entry and each secret polynomial once, accumulates in the NTT
//! domain and transforms each result back once.
//!
//! Everything is constant-time in the coefficient values.

use crate::Backend;
use crate::mp31::Mod31;

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

/// The prime of the exact products.
const P: u32 = 2_147_473_409;

/// `R = 2^32` modulo `P` (`2 * (2^31 - P)`), the Montgomery factor.
const R_MOD_P: i32 = 2 * (0x8000_0000 - P as i64) as i32;
const _: () = assert!((1u64 << 32) % P as u64 == R_MOD_P as u64);

/// Its Montgomery constants (a compile-time check that `P` is valid).
#[allow(clippy::panic)] // evaluated at compile time: a build error, never a run-time panic
const MOD: Mod31 = match Mod31::new(P) {
    Some(m) => m,
    None => panic!("P is not a valid 31-bit modulus"),
};

/// `x^e mod p` (plain values; public exponents only).
const fn pow_mod(x: u64, mut e: u64) -> u64 {
    let p = P as u64;
    let (mut r, mut b) = (1u64, x % p);
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % p;
        }
        b = b * b % p;
        e >>= 1;
    }
    r
}

/// The NTT context: the modulus and the root tables of degree 256, in the
/// layout of [`crate::mp31::roots`] (`gm[rev(i)] = w^i R`,
/// `igm[rev(i)] = w^-i R / 2`, Montgomery form), computed at compile time.
#[derive(Clone)]
pub struct Ntt {
    m: Mod31,
    gm: &'static [u32; N],
    igm: &'static [u32; N],
}

impl Default for Ntt {
    fn default() -> Self {
        Self::new()
    }
}

/// The root tables of [`Ntt`]. 3 is a quadratic non-residue modulo p, so
/// `w = 3^((p - 1) / 512)` has order exactly 512: a primitive 512th root,
/// as the negacyclic NTT of degree 256 needs.
static TABLES: ([u32; N], [u32; N]) = {
    let p = P as u64;
    let w = pow_mod(3, (p - 1) / 512);
    let iw = pow_mod(w, 511);
    let half = p.div_ceil(2); // 1/2 mod p (p odd)
    let r = (1u64 << 32) % p;
    let mut gm = [0u32; N];
    let mut igm = [0u32; N];
    let (mut x, mut y) = (1u64, half);
    let mut i = 0;
    while i < N {
        let v = (i as u8).reverse_bits() as usize;
        gm[v] = (x * r % p) as u32;
        igm[v] = (y * r % p) as u32;
        x = x * w % p;
        y = y * iw % p;
        i += 1;
    }
    (gm, igm)
};

impl Ntt {
    /// The context (the tables are statics computed at compile time; this
    /// copies nothing).
    pub const fn new() -> Self {
        Self {
            m: MOD,
            gm: &TABLES.0,
            igm: &TABLES.1,
        }
    }

    /// The NTT of `a`, its coefficients read as `bits`-bit two's-complement
    /// values (centred: `[-2^(bits-1), 2^(bits-1))`).
    pub fn forward<B: Backend>(&self, b: B, a: &Poly, bits: u32, out: &mut [u32; N]) {
        self.forward_scaled(b, a, bits, 1, out);
    }

    /// The NTT of `scale * a` (`a` read as in [`Ntt::forward`];
    /// `|scale| * 2^(bits-1) < p`).
    fn forward_scaled<B: Backend>(
        &self,
        b: B,
        a: &Poly,
        bits: u32,
        scale: i32,
        out: &mut [u32; N],
    ) {
        let shift = 32 - bits;
        for (o, &c) in out.iter_mut().zip(a.coeffs.iter()) {
            let v = ((c as u32) << shift) as i32 >> shift;
            *o = self.m.set(v * scale);
        }
        b.ntt_mp31(&self.m, out, self.gm);
    }

    /// `acc += x * y` in the NTT domain (`y` in Montgomery form: scaled by
    /// `R = 2^32`, as [`SecretHat`] keeps it), on the backend's kernel.
    pub fn mul_acc<B: Backend>(&self, b: B, acc: &mut [u32; N], x: &[u32; N], y: &[u32; N]) {
        b.mul_acc_mont_mp31(&self.m, acc, x, y);
    }

    /// The inverse NTT of `acc`, centred, as `u16` (the exact integer
    /// modulo `2^16`).
    pub fn inverse<B: Backend>(&self, b: B, acc: &mut [u32; N], out: &mut Poly) {
        b.intt_mp31(&self.m, acc, self.igm);
        for (o, &v) in out.coeffs.iter_mut().zip(acc.iter()) {
            *o = self.m.norm(v) as u16;
        }
    }
}

/// A vector of up to four small secret polynomials in the NTT domain,
/// ready for products ([`SecretHat::new`]); wiped on drop.
#[derive(Clone)]
pub struct SecretHat {
    hat: [[u32; N]; 4],
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
            hat: [[0u32; N]; 4],
            len: 0,
        }
    }
}

/// A public polynomial in the NTT domain.
pub type PolyHat = [u32; N];

/// Transform the public polynomials `a` (coefficients `bits`-bit values,
/// read centred) into `out`, one by one.
pub fn forward_all<B: Backend>(b: B, ntt: &Ntt, a: &[Poly], bits: u32, out: &mut [PolyHat]) {
    for (o, p) in out.iter_mut().zip(a) {
        ntt.forward(b, p, bits, o);
    }
}

impl SecretHat {
    /// Transform the small polynomials `s` (coefficients in `[-8, 8]`,
    /// stored modulo `2^16`; at most four) once, for any number of products.
    pub fn new<B: Backend>(b: B, ntt: &Ntt, s: &[Poly]) -> Self {
        let mut out = Self {
            hat: [[0u32; N]; 4],
            len: s.len().min(4),
        };
        // Montgomery form is the plain transform times R; the NTT is
        // linear, so scale the inputs by `R mod p` (small: `|s| * R mod p`
        // stays far below p) instead of multiplying 256 outputs.
        for (h, p) in out.hat.iter_mut().zip(s) {
            ntt.forward_scaled(b, p, 16, R_MOD_P, h);
        }
        out
    }
}

/// `out[i] = sum_j A[i][j] s[j]` (or `sum_j A[j][i] s[j]` when `transpose`)
/// for the transformed `l x l` matrix `a_hat` (row-major; see
/// [`forward_all`] with 13 bits) and the transformed small vector `s` (`l`
/// entries); results modulo `2^16` (Saber's `MatrixVectorMul`).
pub fn matrix_vector_mul<B: Backend>(
    b: B,
    ntt: &Ntt,
    a_hat: &[PolyHat],
    s: &SecretHat,
    transpose: bool,
    out: &mut [Poly],
) {
    let l = s.len;
    for (i, o) in out.iter_mut().enumerate().take(l) {
        let mut acc = [0u32; N];
        for (j, sh) in s.hat.iter().enumerate().take(l) {
            let e = if transpose { j * l + i } else { i * l + j };
            if let Some(entry) = a_hat.get(e) {
                ntt.mul_acc(b, &mut acc, entry, sh);
            }
        }
        ntt.inverse(b, &mut acc, o);
    }
}

/// `sum_j v[j] s[j]` for the transformed public vector `v_hat` and the
/// transformed small vector `s`; the result modulo `2^16`.
pub fn inner_product_hat<B: Backend>(
    b: B,
    ntt: &Ntt,
    v_hat: &[PolyHat],
    s: &SecretHat,
    out: &mut Poly,
) {
    let mut acc = [0u32; N];
    for (x, sh) in v_hat.iter().zip(s.hat.iter().take(s.len)) {
        ntt.mul_acc(b, &mut acc, x, sh);
    }
    ntt.inverse(b, &mut acc, out);
    zeroize::Zeroize::zeroize(&mut acc);
}

/// `sum_j v[j] s[j]` for the vector `v` (coefficients modulo `2^bits`) and
/// the transformed small vector `s`; the result modulo `2^16` (Saber's
/// `InnerProd`).
pub fn inner_product<B: Backend>(
    b: B,
    ntt: &Ntt,
    v: &[Poly],
    bits: u32,
    s: &SecretHat,
    out: &mut Poly,
) {
    let mut acc = [0u32; N];
    let mut v_hat = [0u32; N];
    for (x, sh) in v.iter().zip(s.hat.iter().take(s.len)) {
        ntt.forward(b, x, bits, &mut v_hat);
        ntt.mul_acc(b, &mut acc, &v_hat, sh);
    }
    ntt.inverse(b, &mut acc, out);
    zeroize::Zeroize::zeroize(&mut acc);
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

    /// The compile-time tables equal those of `mp31::roots`.
    #[test]
    fn const_tables_match_mp31_roots() {
        let m = MOD;
        let w = pow_mod(3, (P as u64 - 1) / 512);
        let iw = pow_mod(w, 511);
        let to_mont = |x: u64| m.mmul(x as u32, m.r2);
        let (mut gm, mut igm) = ([0u32; N], [0u32; N]);
        crate::mp31::roots(&m, 8, to_mont(w), to_mont(iw), &mut gm, &mut igm);
        assert_eq!(gm, TABLES.0);
        assert_eq!(igm, TABLES.1);
    }

    struct MatVec<'a> {
        a: &'a [Poly],
        s: &'a [Poly],
        transpose: bool,
    }
    impl Kernel for MatVec<'_> {
        type Output = [Poly; 4];
        fn run<B: Backend>(self, b: B) -> [Poly; 4] {
            let ntt = Ntt::new();
            let mut out = [Poly::default(); 4];
            let l = self.s.len();
            let s_hat = SecretHat::new(b, &ntt, self.s);
            let mut a_hat = [[0u32; N]; 16];
            forward_all(b, &ntt, self.a, 13, &mut a_hat);
            matrix_vector_mul(
                b,
                &ntt,
                &a_hat[..l * l],
                &s_hat,
                self.transpose,
                &mut out[..l],
            );
            // The inner product of row 0 of the matrix with s, the same
            // way (it is out[0] of the untransposed product).
            let mut ip = Poly::default();
            inner_product(b, &ntt, &self.a[..l], 13, &s_hat, &mut ip);
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

    /// Random and extreme inputs (every coefficient at the bounds), every
    /// rank, both orientations, on every backend: equal to schoolbook
    /// modulo 2^13.
    #[test]
    fn products_match_schoolbook_on_every_backend() {
        let mut g = Prng(0x9e37_79b9_7f4a_7c15);
        for l in 2..=4usize {
            let mut cases: [(alloc_free::Mat, alloc_free::Vecs); 3] = Default::default();
            // random
            for e in 0..l * l {
                cases[0].0[e] = g.poly(13);
            }
            for j in 0..l {
                cases[0].1[j] = g.small(5);
            }
            // extremes: A at -2^12 (0x1000) and s at -5 / +5
            for e in 0..l * l {
                cases[1].0[e] = Poly {
                    coeffs: [0x1000; N],
                };
                cases[2].0[e] = Poly {
                    coeffs: [0x0fff; N],
                };
            }
            for j in 0..l {
                cases[1].1[j] = Poly {
                    coeffs: [(-5i16) as u16; N],
                };
                cases[2].1[j] = Poly { coeffs: [5; N] };
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
                            for k in 0..N {
                                assert_eq!(
                                    got[i].coeffs[k] & 0x1fff,
                                    want[i].coeffs[k] & 0x1fff,
                                    "l {l} transpose {transpose} row {i} coeff {k} on {backend:?}"
                                );
                            }
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
