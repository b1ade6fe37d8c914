//! Arithmetic modulo q = 3329, the ring of ML-KEM (FIPS 203):
//! `R_q = Z_q[X]/(X^256 + 1)` with the 7-layer (incomplete) NTT, whose
//! pointwise product is 128 products in `Z_q[X]/(X^2 - zeta^(2 BitRev7(i) + 1))`.
//!
//! Coefficients are signed 16-bit values; multiplications are Montgomery
//! products with `R = 2^16` ([`crate::mont16`]). The kernels are the
//! [`Ops`] trait, implemented by the portable backend (the executable
//! specification) and the AVX2 backend, which agree bit for bit.

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
mod neon;
mod portable;
#[cfg(all(target_family = "wasm", target_feature = "simd128"))]
mod simd128;
#[cfg(test)]
mod tests;

use crate::mont16::{Mod16, zeta_table};

/// Polynomial degree.
pub const N: usize = 256;
/// The modulus.
pub const Q: i16 = 3329;
/// The modulus with its Montgomery/Barrett constants.
pub const MOD: Mod16 = Mod16::new(Q);
/// `ZETAS[k] = 17^BitRev7(k) 2^16 mod q` (centred), FIPS 203 §4.3.
pub const ZETAS: [i16; 128] = zeta_table::<128>(MOD, 17, 7);
/// Final factor of the inverse NTT: `2^32 / 128 mod q` in Montgomery form
/// (so the output comes out multiplied by `2^16`).
pub const INV_NTT_F: i16 = {
    // 2^32 * 128^-1 mod q; fqmul by it gives x * 2^16 / 128.
    let inv128 = MOD.pow(128, (Q as u64) - 2);
    let r2 = MOD.pow(2, 32);
    (r2 * inv128 % (Q as i64)) as i16
};

/// A polynomial: 256 signed coefficients, 32-byte aligned. Implements
/// [`Zeroize`](zeroize::Zeroize) but is not wiped on drop: most
/// polynomials are public (matrix entries, t-hat, ciphertext parts), so the
/// code that holds secrets wipes exactly those.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Poly {
    /// Coefficients, lowest degree first (bit-reversed order in the NTT
    /// domain).
    pub coeffs: [i16; N],
}

impl Default for Poly {
    fn default() -> Self {
        Poly { coeffs: [0; N] }
    }
}

impl zeroize::Zeroize for Poly {
    fn zeroize(&mut self) {
        crate::wipe::wipe(&mut self.coeffs);
    }
}

impl Poly {
    /// The coefficients as 16 chunks of 16 (the AVX2 lane width).
    pub fn chunks(&self) -> &[[i16; 16]] {
        self.coeffs.as_chunks::<16>().0
    }

    /// Mutable [`Poly::chunks`].
    pub fn chunks_mut(&mut self) -> &mut [[i16; 16]] {
        self.coeffs.as_chunks_mut::<16>().0
    }
}

/// The kernels a backend provides for this ring. Method names carry the
/// ring's suffix: every ring's trait is a supertrait of [`crate::Backend`].
pub trait Ops: Copy {
    /// Forward NTT (FIPS 203 Alg. 9) in place, then Barrett reduction.
    /// Input `|a_i| < q`; output `|a_i| <= q/2 + 1`, bit-reversed order.
    #[inline]
    fn ntt_q3329(self, a: &mut Poly) {
        portable::ntt(a);
    }
    /// Inverse NTT (FIPS 203 Alg. 10) times `2^16` (Montgomery factor).
    /// Input `|a_i| < q`... any `i16` with `|a_i| <= 4q`; output `|a_i| < q`.
    #[inline]
    fn inv_ntt_tomont_q3329(self, a: &mut Poly) {
        portable::inv_ntt_tomont(a);
    }
    /// `r = a * b * 2^-16` in the NTT domain (FIPS 203 Alg. 11/12: 128
    /// degree-1 products). Inputs `|a_i|, |b_i| < 2^12`; output `|r_i| < 2q`.
    #[inline]
    fn basemul_mont_q3329(self, a: &Poly, b: &Poly, r: &mut Poly) {
        portable::basemul_mont(a, b, r);
    }
    /// `r = barrett(sum_j a_j o b_j)`: the inner product of two vectors in
    /// the NTT domain, each product as [`Ops::basemul_mont_q3329`] (times
    /// `2^-16`), summed over the first `min(a.len(), b.len())` entries (at
    /// most 4, so the sum stays below `8q`), then Barrett-reduced. An empty
    /// product gives zero. Inputs `|a_i|, |b_i| < 2^12`.
    #[inline]
    fn dot_mont_q3329(self, a: &[Poly], b: &[Poly], r: &mut Poly) {
        portable::dot_mont(a, b, r);
    }
    /// `a_i = barrett(fqmul(a_i, f) + b_i)` for every coefficient (e.g. `f =
    /// 2^32 mod q` takes `a` into the Montgomery domain before adding `b`).
    /// Inputs `|b_i| < 2^14`.
    #[inline]
    fn fqmul_add_q3329(self, a: &mut Poly, f: i16, b: &Poly) {
        portable::fqmul_add(a, f, b);
    }
    /// Barrett reduction of every coefficient to `|a_i| <= q/2 + 1`.
    #[inline]
    fn reduce_q3329(self, a: &mut Poly) {
        portable::reduce(a);
    }
    /// One step of FIPS 203 Alg. 7 SampleNTT: append the 12-bit candidates
    /// of `buf` (two per three bytes) that are below q to `a.coeffs[filled..]`
    /// until 256 are there; returns the new count. Public data only (the
    /// matrix comes from rho): the loop may branch on the values. Entries
    /// past the returned count are unspecified.
    #[inline]
    fn rej_uniform_q3329(self, a: &mut Poly, filled: usize, buf: &[u8; 168]) -> usize {
        portable::rej_uniform(a, filled, buf)
    }
    /// FIPS 203 (4.7) Compress_d of the canonical representative of every
    /// coefficient (any `i16` input): `round(2^d x / q) mod 2^d`, without
    /// a division (KyberSlash), then Alg. 5 ByteEncode_d into `out` (`32 d`
    /// bytes), for `d` in `1..=11`. Returns `false` (and leaves `out`
    /// unchanged) for another `d` or another length. Constant-time (the
    /// message is encoded this way).
    #[inline]
    fn compress_encode_q3329(self, a: &Poly, d: u32, out: &mut [u8]) -> bool {
        portable::compress_encode(a, d, out)
    }
    /// FIPS 203 Alg. 6 ByteDecode_d of `32 d` bytes, then (4.8)
    /// Decompress_d: `round(q y / 2^d)` for every value `y`, for `d` in
    /// `1..=11`. Returns `false` (and leaves `a` unchanged) for another `d`
    /// or another length. Constant-time (the message is decoded this way).
    #[inline]
    fn decompress_q3329(self, d: u32, bytes: &[u8], a: &mut Poly) -> bool {
        portable::decompress(d, bytes, a)
    }
    /// FIPS 203 Alg. 8 SamplePolyCBD_eta from `64 eta` bytes, `eta` 2 or
    /// 3 (other values, or fewer bytes, leave the missing coefficients
    /// unchanged). Constant-time: the bytes are secret.
    #[inline]
    fn cbd_q3329(self, eta: usize, bytes: &[u8], out: &mut Poly) {
        portable::cbd(eta, bytes, out);
    }
    /// FIPS 203 Alg. 5 ByteEncode_12 of the canonical representative of
    /// every coefficient (any `i16` input): two coefficients to three
    /// bytes, little-endian. Constant-time (secret keys are encoded).
    #[inline]
    fn encode12_q3329(self, a: &Poly, out: &mut [u8; 384]) {
        portable::encode12(a, out);
    }
    /// FIPS 203 Alg. 6 ByteDecode_12 into `a` (values in `0..4096`), and
    /// whether every value is below q (the §7.2 modulus check), computed
    /// without a branch on the values. Constant-time (secret keys are
    /// decoded).
    #[inline]
    fn decode12_q3329(self, bytes: &[u8; 384], a: &mut Poly) -> subtle::Choice {
        portable::decode12(bytes, a)
    }
}

impl Ops for crate::Portable {}

/// Lanes `[z0, -z0, z1, -z1, z2, -z2, z3, -z3]` for the eight degree-1
/// pairs of 16-coefficient chunk `j` (`zg = ZETAS[64 + 4j + g]`; pairs
/// `(4i, 4i+1)` use `+z`, pairs `(4i+2, 4i+3)` use `-z`): the 8-lane
/// engines' base-multiplication table, computed at compile time.
#[cfg(any(
    all(target_arch = "aarch64", target_feature = "neon"),
    all(target_family = "wasm", target_feature = "simd128")
))]
const fn basemul_zetas8() -> [[i16; 8]; N / 16] {
    let mut out = [[0i16; 8]; N / 16];
    let mut j = 0;
    while j < N / 16 {
        let mut g = 0;
        while g < 4 {
            let z = ZETAS[64 + 4 * j + g];
            out[j][2 * g] = z;
            out[j][2 * g + 1] = -z;
            g += 1;
        }
        j += 1;
    }
    out
}

/// `rej_uniform_q3329` of the 8-lane engines: `block` packs the accepted
/// candidates of all of `buf` into a buffer (returning their number), and
/// as many as still fit are appended from `filled`.
#[cfg(any(
    all(target_arch = "aarch64", target_feature = "neon"),
    all(target_family = "wasm", target_feature = "simd128")
))]
#[inline(always)]
fn rej_uniform_by_block(
    a: &mut Poly,
    filled: usize,
    buf: &[u8; 168],
    block: impl Fn(&mut [i16; 120], &[u8; 168]) -> usize,
) -> usize {
    let mut acc = [0i16; 120];
    let n = block(&mut acc, buf);
    let take = n.min(N.saturating_sub(filled));
    for (dst, &v) in a.coeffs.iter_mut().skip(filled).zip(&acc[..take]) {
        *dst = v;
    }
    filled + take
}

/// `cbd_q3329` of the 8-lane engines: eta = 2 on 16-byte blocks (32
/// coefficients each), eta = 3 on 12-byte groups read through 16-byte
/// windows (16 coefficients each; the last window is padded), anything
/// else portable.
#[cfg(any(
    all(target_arch = "aarch64", target_feature = "neon"),
    all(target_family = "wasm", target_feature = "simd128")
))]
#[inline(always)]
fn cbd_by_blocks(
    eta: usize,
    bytes: &[u8],
    out: &mut Poly,
    cbd2: impl Fn(&[u8; 16], &mut [[i16; 8]]),
    cbd3: impl Fn(&[u8; 16], &mut [[i16; 8]]),
) {
    let (outs, _) = out.coeffs.as_chunks_mut::<8>();
    match eta {
        2 if bytes.len() >= 128 => {
            for (b, o) in bytes
                .as_chunks::<16>()
                .0
                .iter()
                .zip(outs.chunks_exact_mut(4))
            {
                cbd2(b, o);
            }
        }
        3 if bytes.len() >= 192 => {
            let mut last = [0u8; 16];
            last[..12].copy_from_slice(&bytes[180..192]);
            for (k, o) in outs.chunks_exact_mut(2).enumerate() {
                let window = bytes[12 * k..].first_chunk::<16>().unwrap_or(&last);
                cbd3(window, o);
            }
        }
        _ => portable::cbd(eta, bytes, out),
    }
}
