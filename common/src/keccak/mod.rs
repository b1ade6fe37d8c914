//! Keccak: single SHAKE/SHA-3 and a 4-way Keccak-f\[1600\].
//!
//! Single-stream SHAKE and the SHA3-256/512 of the algorithms run on
//! pqkit's own sponge ([`Shake128`], [`Shake256`], [`sha3_256`],
//! [`sha3_512`]; see `sponge.rs` for why), with the RustCrypto `digest`
//! traits; the pre-hash registry's SHA3-224..512 ([`crate::prehash`])
//! run on the same sponge. The 4-way [`ShakeX4`] absorbs four
//! equal-length inputs and squeezes four
//! output streams at once; it is the hot path of matrix and vector
//! expansion (FIPS 203 `SampleNTT`/`PRF`, FIPS 204 `ExpandA`/`ExpandS`/
//! `ExpandMask`). Its permutation is a backend kernel ([`X4Ops`]).
//!
//! ```
//! use pqkit_common::{Portable, keccak::{Shake128X4, SHAKE128_RATE}};
//! use pqkit_common::keccak::Shake128;
//!
//! let inputs = [*b"lane 0", *b"lane 1", *b"lane 2", *b"lane 3"];
//! let mut x4 = Shake128X4::absorb(Portable, &inputs);
//! let mut blocks = [[0u8; SHAKE128_RATE]; 4];
//! x4.squeeze_block(&mut blocks);
//!
//! let mut one = [0u8; SHAKE128_RATE];
//! let mut h = Shake128::default();
//! h.update(b"lane 2");
//! h.finalize_xof().read(&mut one);
//! assert_eq!(blocks[2], one);
//! ```

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
mod neon;
mod portable;
#[cfg(all(target_family = "wasm", target_feature = "simd128"))]
mod simd128;
mod sponge;
mod stream;

/// The RustCrypto XOF traits, implemented by [`Sponge`] and
/// [`SpongeReader`] (the `digest` feature; the same operations are
/// inherent methods without it).
#[cfg(feature = "digest")]
pub use digest::{ExtendableOutput, Update, XofReader};
pub use sponge::{Shake128, Shake256, Sponge, SpongeReader, keccak_f1600_one};
pub use stream::{Feed, Parked, Rider, Start, Step, stream_x4, stream_x4_parked, stream_x4_riders};

pub use portable::keccak_f1600;

/// SHA3-256 of the concatenation of `parts` (ML-KEM's `H`, Saber's
/// `SHA3-256`).
///
/// ```
/// use pqkit_common::keccak::sha3_256;
/// assert_eq!(sha3_256(&[b"ab", b"c"]), sha3_256(&[b"abc"]));
/// ```
pub fn sha3_256(parts: &[&[u8]]) -> [u8; 32] {
    sponge::sha3::<136, 32>(parts)
}

/// SHA3-512 of the concatenation of `parts` (ML-KEM's `G`, Saber's
/// `SHA3-512`); the output usually holds a key, so it is wiped on drop.
pub fn sha3_512(parts: &[&[u8]]) -> zeroize::Zeroizing<[u8; 64]> {
    zeroize::Zeroizing::new(sponge::sha3::<72, 64>(parts))
}

/// SHAKE128 rate in bytes.
pub const SHAKE128_RATE: usize = 168;
/// SHAKE256 rate in bytes.
pub const SHAKE256_RATE: usize = 136;

/// Four interleaved Keccak states: `lanes[i][k]` is lane `i` (0..25) of
/// instance `k` (0..4), so one row is one 256-bit vector.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct StateX4 {
    /// `lanes[i][k]`: lane `i` of instance `k`.
    pub lanes: [[u64; 4]; 25],
}

impl StateX4 {
    /// Instance `k` (`k < 4`) as one state.
    #[inline]
    pub(crate) fn instance(&self, k: usize) -> [u64; 25] {
        core::array::from_fn(|i| self.lanes[i][k & 3])
    }

    /// Instance `k` (`k < 4`) set to the state `s`.
    #[inline]
    pub(crate) fn set_instance(&mut self, k: usize, s: &[u64; 25]) {
        for (row, &v) in self.lanes.iter_mut().zip(s.iter()) {
            row[k & 3] = v;
        }
    }
}

impl zeroize::Zeroize for StateX4 {
    fn zeroize(&mut self) {
        crate::wipe::wipe(self.lanes.as_flattened_mut());
    }
}

/// The 4-way Keccak kernel of a backend.
pub trait X4Ops: Copy {
    /// Apply Keccak-f\[1600\] to all four instances of `state`.
    #[inline]
    fn keccak_f1600_x4(self, state: &mut StateX4) {
        portable::keccak_f1600_x4(state);
    }

    /// Apply Keccak-f\[1600\] to instance `k` of `state` (`k < 4`), when
    /// the other three are idle: what they hold afterwards is unspecified.
    /// The single-instance permutation by default (a 4-way AVX2
    /// permutation costs more than a single one); backends whose 4-way
    /// kernel is cheaper than one single permutation (AVX-512) run that.
    #[inline]
    fn keccak_f1600_lane(self, state: &mut StateX4, k: usize) {
        keccak_f1600_lane_scalar(state, k);
    }

    /// Apply Keccak-f\[1600\] to one state held apart from a
    /// [`StateX4`]: the single-instance permutation by default, as
    /// [`keccak_f1600_lane`](Self::keccak_f1600_lane).
    #[inline]
    fn keccak_f1600_one(self, s: &mut [u64; 25]) {
        keccak_f1600_scalar(s);
    }
}

/// Keccak-f\[1600\] on one state with the permutation this CPU runs
/// fastest, bit-identical to [`keccak_f1600`]: on x86-64 the scalar one
/// compiled with BMI1/BMI2 where present (see
/// `avx2::keccak_f1600_scalar`); on aarch64 with FEAT_SHA3 the two-way
/// NEON one with a copy in the idle half (fewer instructions than the
/// scalar permutation: BENCHMARKS.md's aarch64 table); else the scalar
/// one.
#[inline]
fn keccak_f1600_scalar(s: &mut [u64; 25]) {
    #[cfg(target_arch = "x86_64")]
    avx2::keccak_f1600_scalar(s);
    #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
    if !neon::keccak_f1600_sha3(s) {
        keccak_f1600(s);
    }
    #[cfg(not(any(
        target_arch = "x86_64",
        all(target_arch = "aarch64", target_feature = "neon")
    )))]
    keccak_f1600(s);
}

/// Keccak-f\[1600\] on instance `k` of `state` alone, with the scalar
/// permutation (the default [`X4Ops::keccak_f1600_lane`]).
fn keccak_f1600_lane_scalar(state: &mut StateX4, k: usize) {
    let mut one = state.instance(k);
    keccak_f1600_scalar(&mut one);
    state.set_instance(k, &one);
    crate::wipe::wipe(&mut one);
}

impl X4Ops for crate::Portable {}

/// Four SHAKE instances in lock step, with rate `RATE` bytes
/// ([`SHAKE128_RATE`] or [`SHAKE256_RATE`]).
///
/// The state is wiped on drop (it may hold secret seeds).
#[derive(Clone)]
pub struct ShakeX4<B: X4Ops, const RATE: usize> {
    backend: B,
    state: StateX4,
}

/// 4-way SHAKE128.
pub type Shake128X4<B> = ShakeX4<B, SHAKE128_RATE>;
/// 4-way SHAKE256.
pub type Shake256X4<B> = ShakeX4<B, SHAKE256_RATE>;

impl<B: X4Ops, const RATE: usize> ShakeX4<B, RATE> {
    /// Absorb four equal-length inputs completely (with SHAKE padding).
    pub fn absorb<const N: usize>(backend: B, inputs: &[[u8; N]; 4]) -> Self {
        let mut s = Self {
            backend,
            state: StateX4::default(),
        };
        let mut offset = 0;
        while N - offset >= RATE {
            for (k, input) in inputs.iter().enumerate() {
                xor_lane(&mut s.state, k, 0, &input[offset..offset + RATE]);
            }
            s.backend.keccak_f1600_x4(&mut s.state);
            offset += RATE;
        }
        // The tail (shorter than a block), then the SHAKE padding bits
        // 0x1f at the next byte and 0x80 at the last byte of the block.
        let tail_len = N - offset;
        for (k, input) in inputs.iter().enumerate() {
            xor_lane(&mut s.state, k, 0, &input[offset..]);
            s.state.lanes[tail_len / 8][k] ^= 0x1f << (8 * (tail_len % 8));
            s.state.lanes[(RATE - 1) / 8][k] ^= 0x80 << (8 * ((RATE - 1) % 8));
        }
        s
    }

    /// Squeeze the next `RATE` bytes of each of the four streams.
    pub fn squeeze_block(&mut self, out: &mut [[u8; RATE]; 4]) {
        const { assert!(RATE.is_multiple_of(8) && RATE <= 200) };
        self.backend.keccak_f1600_x4(&mut self.state);
        for (k, block) in out.iter_mut().enumerate() {
            read_lane(&self.state, k, block);
        }
    }
}

impl<B: X4Ops, const RATE: usize> Drop for ShakeX4<B, RATE> {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.state);
    }
}

/// XOR `bytes` into instance `k` of `state` from byte `at` of its rate.
fn xor_lane(state: &mut StateX4, k: usize, at: usize, bytes: &[u8]) {
    let mut pos = at;
    let mut rest = bytes;
    // Unaligned head byte by byte, then whole words.
    while !rest.is_empty() && !pos.is_multiple_of(8) {
        state.lanes[pos / 8][k] ^= u64::from(rest[0]) << (8 * (pos % 8));
        pos += 1;
        rest = &rest[1..];
    }
    let mut words = rest.chunks_exact(8);
    for w in &mut words {
        let mut b = [0u8; 8];
        b.copy_from_slice(w);
        state.lanes[pos / 8][k] ^= u64::from_le_bytes(b);
        pos += 8;
    }
    for &b in words.remainder() {
        state.lanes[pos / 8][k] ^= u64::from(b) << (8 * (pos % 8));
        pos += 1;
    }
}

/// The first `out.len()` bytes of instance `k` of `state`.
fn read_lane(state: &StateX4, k: usize, out: &mut [u8]) {
    let whole = out.len() / 8;
    let mut chunks = out.chunks_exact_mut(8);
    for (chunk, row) in (&mut chunks).zip(state.lanes.iter()) {
        chunk.copy_from_slice(&row[k].to_le_bytes());
    }
    let tail = chunks.into_remainder();
    if let Some(row) = state.lanes.get(whole) {
        tail.copy_from_slice(&row[k].to_le_bytes()[..tail.len()]);
    }
}

/// Test helper for the SIMD permutation kernels: `kernel` applied to
/// random four-way states gives the portable result (used by the SIMD
/// backends' tests, so only where there are some).
#[cfg(all(test, target_arch = "x86_64"))]
fn assert_x4_kernel_matches_portable(rounds: usize, mut kernel: impl FnMut(&mut StateX4)) {
    let mut next = crate::testutil::rng(0x4B45_4343);
    for _ in 0..rounds {
        let mut st = StateX4::default();
        for w in st.lanes.iter_mut().flatten() {
            *w = next();
        }
        let mut want = st;
        portable::keccak_f1600_x4(&mut want);
        kernel(&mut st);
        assert_eq!(st, want);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Backend, BackendKind, Kernel, run_on};

    fn reference<const RATE: usize>(input: &[u8], out: &mut [u8]) {
        let mut h = Sponge::<RATE, 0x1f>::default();
        h.update(input);
        h.finalize_xof().read(out);
    }

    struct Check<const N: usize>([[u8; N]; 4]);
    impl<const N: usize> Kernel for Check<N> {
        type Output = ();
        fn run<B: Backend>(self, b: B) {
            let mut x = Shake128X4::absorb(b, &self.0);
            let mut got = [[[0u8; SHAKE128_RATE]; 4]; 3];
            for blk in got.iter_mut() {
                x.squeeze_block(blk);
            }
            for k in 0..4 {
                let mut want = [0u8; 3 * SHAKE128_RATE];
                reference::<SHAKE128_RATE>(&self.0[k], &mut want);
                assert_eq!(
                    got.iter().flat_map(|b| b[k]).collect::<std::vec::Vec<_>>(),
                    want
                );
            }
            let mut y = Shake256X4::absorb(b, &self.0);
            let mut got = [[[0u8; SHAKE256_RATE]; 4]; 2];
            for blk in got.iter_mut() {
                y.squeeze_block(blk);
            }
            for k in 0..4 {
                let mut want = [0u8; 2 * SHAKE256_RATE];
                reference::<SHAKE256_RATE>(&self.0[k], &mut want);
                assert_eq!(
                    got.iter().flat_map(|b| b[k]).collect::<std::vec::Vec<_>>(),
                    want
                );
            }
        }
    }

    fn inputs<const N: usize>(seed: u8) -> [[u8; N]; 4] {
        core::array::from_fn(|k| {
            core::array::from_fn(|i| (i as u8).wrapping_mul(31) ^ seed ^ (k as u8 * 77))
        })
    }

    fn all_backends<const N: usize>() {
        for kind in BackendKind::available() {
            assert_eq!(run_on(kind, Check::<N>(inputs::<N>(N as u8))), Some(()));
        }
    }

    #[test]
    fn x4_matches_reference_across_rate_boundaries() {
        all_backends::<0>();
        all_backends::<1>();
        all_backends::<33>();
        all_backends::<34>();
        all_backends::<66>();
        all_backends::<135>();
        all_backends::<136>();
        all_backends::<137>();
        all_backends::<167>();
        all_backends::<168>();
        all_backends::<169>();
        all_backends::<300>();
        all_backends::<337>();
        all_backends::<1000>();
    }

    #[test]
    fn single_permutation_matches_sha3_via_reference() {
        // Keccak-f[1600] applied to the zero state: first lane of the
        // well-known result (Keccak team's KeccakF-1600 intermediate values).
        let mut s = [0u64; 25];
        keccak_f1600(&mut s);
        assert_eq!(s[0], 0xF125_8F79_40E1_DDE7);
    }
}
