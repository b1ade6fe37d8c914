//! Arithmetic modulo q = 8380417, the ring of ML-DSA (FIPS 204).
//!
//! Polynomials of `Z_q[X]/(X^256 + 1)` are held as [`Poly`]: 256 signed
//! `i32` coefficients in a 32-byte aligned array. The representation follows
//! the usual "signed, lazily reduced" conventions:
//!
//! * [`Ops::ntt_q8380417`] takes coefficients of absolute value below `q` and returns
//!   the NTT (FIPS 204 Alg. 41, zeta = 1753, bit-reversed order) with
//!   coefficients of absolute value below `9q`.
//! * [`Ops::pointwise_mont_q8380417`] multiplies two NTT-domain polynomials and divides
//!   by the Montgomery factor `R = 2^32` (result below `q` in absolute value).
//! * [`Ops::inv_ntt_tomont_q8380417`] is FIPS 204 Alg. 42 followed by a multiplication
//!   by `R`, so `inv_ntt_tomont(pointwise_mont(ntt a, ntt b)) = a * b`.
//!
//! The per-polynomial kernels ML-DSA needs (Power2Round, Decompose,
//! MakeHint, UseHint, the infinity-norm check, rejection sampling) are
//! kernels of [`Ops`] too, so each backend can accelerate them. Bit packing
//! and `SampleInBall` are plain functions ([`pack`], [`sample_in_ball`]).
//!
//! Secret-data kernels are constant time: `Decompose` divides with a
//! multiply-shift, the norm check never exits early, and selections are
//! mask arithmetic.

/// The parts of the 4-lane i32 engines (`simd128.rs`, `neon.rs`) that are
/// the same on every target: the transforms of FIPS 204 Alg. 41 and 42 and
/// the pointwise products, over the calling module's vector type `$v` and
/// its vocabulary (`load`, `store`, `add`, `sub`, `splat`, `mullo`,
/// `mont`, `mont_pre`, `small_zetas`, `small_layer`).
#[cfg(any(
    all(target_arch = "aarch64", target_feature = "neon"),
    all(target_family = "wasm", target_feature = "simd128")
))]
macro_rules! i32_engine_drivers {
    ($v:ty) => {
        /// FIPS 204 Alg. 41 as the portable `ntt`: the layer with `B` blocks uses
        /// `ZETAS[B + i]` for block `i`.
        fn ntt(a: &mut Poly) {
            let qinv = splat(QINV);
            let butterfly = |x: $v, y: $v, z: $v, zq: $v| {
                let t = mont_pre(y, z, zq);
                (add(x, t), sub(x, t))
            };
            let mut len = N / 2;
            while len >= 1 {
                let blocks = N / (2 * len);
                if len >= 4 {
                    let (chunks, _) = a.coeffs.as_chunks_mut::<4>();
                    let half = len / 4;
                    for (i, block) in chunks.chunks_exact_mut(2 * half).enumerate() {
                        let z = splat(ZETAS[blocks + i]);
                        let zq = mullo(z, qinv);
                        let (lo, hi) = block.split_at_mut(half);
                        for (x, y) in lo.iter_mut().zip(hi) {
                            let (s, d) = butterfly(load(x), load(y), z, zq);
                            store(x, s);
                            store(y, d);
                        }
                    }
                } else {
                    let per_chunk = 8 / (2 * len);
                    let (chunks, _) = a.coeffs.as_chunks_mut::<8>();
                    for (k, chunk) in chunks.iter_mut().enumerate() {
                        let z = small_zetas(len, blocks + k * per_chunk, false);
                        let zq = mullo(z, qinv);
                        small_layer(chunk, len, |l, h| butterfly(l, h, z, zq));
                    }
                }
                len >>= 1;
            }
        }

        /// FIPS 204 Alg. 42 as the portable `inv_ntt_tomont`: the layer with `B`
        /// blocks uses `-ZETAS[2B - 1 - i]` for block `i`, then the factor
        /// `INV_NTT_F`.
        fn inv_ntt_tomont(a: &mut Poly) {
            let qinv = splat(QINV);
            let butterfly = |x: $v, y: $v, z: $v, zq: $v| (add(x, y), mont_pre(sub(x, y), z, zq));
            let mut len = 1;
            while len < N {
                let blocks = N / (2 * len);
                if len >= 4 {
                    let (chunks, _) = a.coeffs.as_chunks_mut::<4>();
                    let half = len / 4;
                    for (i, block) in chunks.chunks_exact_mut(2 * half).enumerate() {
                        let z = splat(-ZETAS[2 * blocks - 1 - i]);
                        let zq = mullo(z, qinv);
                        let (lo, hi) = block.split_at_mut(half);
                        for (x, y) in lo.iter_mut().zip(hi) {
                            let (s, d) = butterfly(load(x), load(y), z, zq);
                            store(x, s);
                            store(y, d);
                        }
                    }
                } else {
                    let per_chunk = 8 / (2 * len);
                    let (chunks, _) = a.coeffs.as_chunks_mut::<8>();
                    for (k, chunk) in chunks.iter_mut().enumerate() {
                        let z = small_zetas(len, 2 * blocks - 1 - k * per_chunk, true);
                        let zq = mullo(z, qinv);
                        small_layer(chunk, len, |l, h| butterfly(l, h, z, zq));
                    }
                }
                len <<= 1;
            }
            let f = splat(INV_NTT_F);
            let fq = mullo(f, qinv);
            for x in a.coeffs.as_chunks_mut::<4>().0 {
                store(x, mont_pre(load(x), f, fq));
            }
        }

        /// `r = mont(a, b)` coefficient by coefficient.
        fn pointwise(a: &Poly, b: &Poly, r: &mut Poly) {
            let (a, _) = a.coeffs.as_chunks::<4>();
            let (b, _) = b.coeffs.as_chunks::<4>();
            for ((r, a), b) in r.coeffs.as_chunks_mut::<4>().0.iter_mut().zip(a).zip(b) {
                store(r, mont(load(a), load(b)));
            }
        }

        /// `r += mont(a, b)` coefficient by coefficient.
        fn pointwise_acc(a: &Poly, b: &Poly, r: &mut Poly) {
            let (a, _) = a.coeffs.as_chunks::<4>();
            let (b, _) = b.coeffs.as_chunks::<4>();
            for ((r, a), b) in r.coeffs.as_chunks_mut::<4>().0.iter_mut().zip(a).zip(b) {
                store(r, add(load(r), mont(load(a), load(b))));
            }
        }
    };
}

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
mod neon;
pub mod pack;
mod portable;
#[cfg(all(target_family = "wasm", target_feature = "simd128"))]
mod simd128;

#[cfg(target_arch = "x86_64")]
mod avx2;

use zeroize::Zeroize;

/// The modulus q = 2^23 - 2^13 + 1.
pub const Q: i32 = 8_380_417;
/// Polynomial degree.
pub const N: usize = 256;
/// Number of dropped bits of t (FIPS 204 `d`).
pub const D: u32 = 13;
/// `q^-1 mod 2^32` (as a signed value), for Montgomery reduction.
pub const QINV: i32 = qinv();
/// `R^2 / 256 mod q` with `R = 2^32`: the final factor of the inverse NTT
/// (undoes the `1/256` and leaves one factor `R`).
pub const INV_NTT_F: i32 = inv_ntt_factor();

/// The 256 NTT twiddles `zeta^brv8(k) * R mod q`, centred in
/// `(-q/2, q/2]` (index 0 unused). zeta = 1753 is a primitive 512th root
/// of unity mod q.
pub static ZETAS: [i32; N] = zetas();

const fn qinv() -> i32 {
    // Newton iteration for the inverse mod 2^32: x <- x(2 - qx).
    let q = Q as u32;
    let mut x: u32 = 1;
    let mut i = 0;
    while i < 6 {
        x = x.wrapping_mul(2u32.wrapping_sub(q.wrapping_mul(x)));
        i += 1;
    }
    x as i32
}

const fn pow_mod(base: u64, e: u64) -> u64 {
    crate::mont16::pow_mod(base as i64, e, Q as i64) as u64
}

const fn center(x: u64) -> i32 {
    let x = x as i64;
    let q = Q as i64;
    (if x > q / 2 { x - q } else { x }) as i32
}

pub(crate) const fn zetas() -> [i32; N] {
    let mut z = [0i32; N];
    let r = (1u64 << 32) % Q as u64;
    let mut k = 1;
    while k < N {
        let e = (k as u8).reverse_bits() as u64;
        z[k] = center(pow_mod(1753, e) * r % Q as u64);
        k += 1;
    }
    z
}

const fn inv_ntt_factor() -> i32 {
    // R^2 / 256 = 2^56 mod q.
    center(pow_mod(2, 56))
}

/// Montgomery reduction: for `|a| < q * 2^31`, returns `r = a * 2^-32 mod q`
/// with `|r| < q`.
#[inline(always)]
pub const fn montgomery_reduce(a: i64) -> i32 {
    let t = (a as i32).wrapping_mul(QINV);
    ((a - (t as i64) * (Q as i64)) >> 32) as i32
}

/// For `a <= 2^31 - 2^22 - 1`, returns `r = a mod q` with
/// `-6283008 <= r <= 6283008`.
#[inline(always)]
pub const fn reduce32(a: i32) -> i32 {
    let t = (a + (1 << 22)) >> 23;
    a - t * Q
}

/// Add q if `a` is negative (branch-free).
#[inline(always)]
pub const fn caddq(a: i32) -> i32 {
    a + ((a >> 31) & Q)
}

/// The standard representative of `a mod q` in `[0, q)` for
/// `a <= 2^31 - 2^22 - 1`.
#[inline(always)]
pub const fn freeze(a: i32) -> i32 {
    caddq(reduce32(a))
}

/// `gamma2`, the low-order rounding range of ML-DSA.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gamma2 {
    /// `(q - 1) / 88` (ML-DSA-44); `w1` coefficients in `0..=43`.
    Q88,
    /// `(q - 1) / 32` (ML-DSA-65 and -87); `w1` coefficients in `0..=15`.
    Q32,
}

impl Gamma2 {
    /// The value of gamma2.
    pub const fn value(self) -> i32 {
        match self {
            Gamma2::Q88 => (Q - 1) / 88,
            Gamma2::Q32 => (Q - 1) / 32,
        }
    }
    /// The largest high-bits value `m - 1` with `m = (q - 1) / (2 gamma2)`.
    pub const fn max_high(self) -> i32 {
        match self {
            Gamma2::Q88 => 43,
            Gamma2::Q32 => 15,
        }
    }
}

/// eta, the bound of the secret vectors s1 and s2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eta {
    /// eta = 2 (ML-DSA-44 and -87).
    Two,
    /// eta = 4 (ML-DSA-65).
    Four,
}

impl Eta {
    /// The value of eta.
    pub const fn value(self) -> i32 {
        match self {
            Eta::Two => 2,
            Eta::Four => 4,
        }
    }
}

/// A polynomial of `Z_q[X]/(X^256 + 1)`: 256 signed coefficients, 32-byte
/// aligned for the SIMD kernels. Implements [`zeroize::Zeroize`]
/// but is not wiped on drop: most polynomials are public (matrix entries,
/// t1, w1), so the containers that hold secrets wipe exactly the
/// polynomials they use.
#[derive(Clone, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Poly {
    /// The coefficients, lowest degree first.
    pub coeffs: [i32; N],
}

impl Default for Poly {
    fn default() -> Self {
        Self { coeffs: [0; N] }
    }
}

impl core::fmt::Debug for Poly {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Poly(..)")
    }
}

impl Zeroize for Poly {
    fn zeroize(&mut self) {
        crate::wipe::wipe(&mut self.coeffs);
    }
}

/// The kernels a backend provides for this ring. The portable
/// implementations (in `portable.rs`) are the executable specification.
pub trait Ops: Copy {
    /// Forward NTT (FIPS 204 Alg. 41) in place. Input `|a_i| < q`,
    /// output `|a_i| < 9q`, bit-reversed order.
    #[inline]
    fn ntt_q8380417(self, a: &mut Poly) {
        portable::ntt(a)
    }

    /// Inverse NTT (FIPS 204 Alg. 42) times the Montgomery factor `2^32`.
    /// Input `|a_i| < q`, output `|a_i| < q`.
    #[inline]
    fn inv_ntt_tomont_q8380417(self, a: &mut Poly) {
        portable::inv_ntt_tomont(a)
    }

    /// `r = a * b * 2^-32` coefficient-wise (NTT domain). Inputs
    /// `|a_i|, |b_i| < 9q` (products below `2^31 q`); output `|r_i| < q`.
    #[inline]
    fn pointwise_mont_q8380417(self, a: &Poly, b: &Poly, r: &mut Poly) {
        portable::pointwise_mont(a, b, r)
    }

    /// `r += a * b * 2^-32` coefficient-wise (accumulate a matrix row
    /// times a vector). Caller keeps `r` below `2^31 - q` in magnitude.
    #[inline]
    fn pointwise_acc_mont_q8380417(self, a: &Poly, b: &Poly, r: &mut Poly) {
        portable::pointwise_acc_mont(a, b, r)
    }

    /// `a = a + b` coefficient-wise (no reduction).
    #[inline]
    fn add_q8380417(self, a: &mut Poly, b: &Poly) {
        portable::add(a, b)
    }

    /// `a = a - b` coefficient-wise (no reduction).
    #[inline]
    fn sub_q8380417(self, a: &mut Poly, b: &Poly) {
        portable::sub(a, b)
    }

    /// [`reduce32`] on every coefficient.
    #[inline]
    fn reduce32_q8380417(self, a: &mut Poly) {
        portable::reduce(a)
    }

    /// [`caddq`] on every coefficient.
    #[inline]
    fn caddq_q8380417(self, a: &mut Poly) {
        portable::caddq_all(a)
    }

    /// `a = a * 2^d` on every coefficient (d = 13).
    #[inline]
    fn shift_left_d_q8380417(self, a: &mut Poly) {
        portable::shift_left_d(a)
    }

    /// FIPS 204 Alg. 35 Power2Round on standard representatives
    /// (`0 <= a_i < q`): `a = a1 * 2^13 + a0` with `-2^12 < a0 <= 2^12`.
    #[inline]
    fn power2round_q8380417(self, a: &Poly, a1: &mut Poly, a0: &mut Poly) {
        portable::power2round_poly(a, a1, a0)
    }

    /// FIPS 204 Alg. 36 Decompose on standard representatives:
    /// `a = a1 * 2 gamma2 + a0` with `-gamma2 < a0 <= gamma2`, except
    /// `a1 = 0, a0 = a - q` when `a - a0 = q - 1`. Multiply-shift, no division.
    #[inline]
    fn decompose_q8380417(self, gamma2: Gamma2, a: &Poly, a1: &mut Poly, a0: &mut Poly) {
        portable::decompose_poly(gamma2, a, a1, a0)
    }

    /// MakeHint in the form of the reference implementation (equivalent to
    /// FIPS 204 Alg. 39 for the signer's values): `h_i = 1` iff
    /// `a0_i > gamma2`, `a0_i < -gamma2`, or `a0_i = -gamma2` and
    /// `a1_i != 0`. `a0 = w0 - c s2 + c t0` (centred), `a1 = w1`. Returns the
    /// number of ones.
    #[inline]
    fn make_hint_q8380417(self, gamma2: Gamma2, a0: &Poly, a1: &Poly, h: &mut Poly) -> u32 {
        portable::make_hint_poly(gamma2, a0, a1, h)
    }

    /// FIPS 204 Alg. 40 UseHint: `out_i = UseHint(h_i, a_i)` for standard
    /// representatives `a_i` and hints `h_i` in {0, 1}.
    #[inline]
    fn use_hint_q8380417(self, gamma2: Gamma2, a: &Poly, h: &Poly, out: &mut Poly) {
        portable::use_hint_poly(gamma2, a, h, out)
    }

    /// Infinity-norm check: `true` iff some coefficient has `|a_i| >= bound`
    /// (coefficients reduced by [`reduce32`]; `bound <= (q - 1) / 8`).
    /// Constant time in the coefficients (no early exit).
    #[inline]
    fn exceeds_norm_q8380417(self, a: &Poly, bound: i32) -> bool {
        portable::exceeds_norm(a, bound)
    }

    /// RejNTTPoly step (FIPS 204 Alg. 30 / CoeffFromThreeBytes): append to
    /// `a[filled..]` the accepted 23-bit values of `buf` (3 bytes each), up
    /// to 256 coefficients. Returns the new fill level.
    #[inline]
    fn rej_uniform_q8380417(self, a: &mut Poly, filled: usize, buf: &[u8; 168]) -> usize {
        portable::rej_uniform(a, filled, buf)
    }

    /// RejBoundedPoly step (FIPS 204 Alg. 31 / CoeffFromHalfByte): append
    /// accepted coefficients in `[-eta, eta]` from the nibbles of `buf`.
    /// Returns the new fill level.
    #[inline]
    fn rej_eta_q8380417(self, eta: Eta, a: &mut Poly, filled: usize, buf: &[u8; 136]) -> usize {
        portable::rej_eta(eta, a, filled, buf)
    }
}

impl Ops for crate::Portable {}

pub use portable::{decompose, make_hint, power2round, use_hint};

/// FIPS 204 Alg. 29 SampleInBall: the challenge polynomial with `tau`
/// coefficients in {-1, 1} from the commitment hash `c_tilde`.
///
/// `c` is public (it is recomputed by every verifier), so the data-dependent
/// loop is fine. Returns `None` only if SHAKE256 output ran out, which for
/// the bound used here (64 blocks = 8704 bytes) has probability below
/// `2^-1000`.
pub fn sample_in_ball(c_tilde: &[u8], tau: usize) -> Option<Poly> {
    let mut c = Poly::default();
    sample_in_ball_into(c_tilde, tau, &mut c).then_some(c)
}

/// [`sample_in_ball`] into `c` (no polynomial-sized return value: for
/// callers that count their stack). Returns `false` where
/// `sample_in_ball` returns `None` (`c` then holds a partial result).
pub fn sample_in_ball_into(c_tilde: &[u8], tau: usize, c: &mut Poly) -> bool {
    use crate::keccak::Shake256;
    c.coeffs.fill(0);
    let mut h = Shake256::default();
    h.update(c_tilde);
    let mut rd = h.finalize_xof();
    let mut block = [0u8; 136];
    rd.read(&mut block);
    let mut signs = u64::from_le_bytes([
        block[0], block[1], block[2], block[3], block[4], block[5], block[6], block[7],
    ]);
    let mut pos = 8usize;
    let mut blocks = 1usize;
    let tau = tau.min(N);
    for i in (N - tau)..N {
        // Line 7..9: draw j until j <= i.
        let j = loop {
            if pos == block.len() {
                if blocks >= 64 {
                    return false;
                }
                rd.read(&mut block);
                pos = 0;
                blocks += 1;
            }
            let j = block[pos] as usize;
            pos += 1;
            if j <= i {
                break j;
            }
        };
        c.coeffs[i] = c.coeffs[j];
        c.coeffs[j] = 1 - 2 * (signs & 1) as i32;
        signs >>= 1;
    }
    true
}

#[cfg(test)]
mod tests;
