//! Single-state SHAKE and SHA-3 sponges on pqkit's own Keccak-f\[1600\].
//!
//! Why not the RustCrypto `keccak` crate's permutation (which these
//! replace for pqkit's own hashing): built with any AVX-512 `target-cpu`
//! (`-C target-cpu=native` on a Xeon or a Zen 4, `skylake-avx512`,
//! `icelake-server`, ...), LLVM's SLP vectoriser turns that scalar
//! permutation into shuffle-heavy 512-bit code that runs much slower,
//! which would make every pqkit operation slower in a native build.
//! [`keccak_f1600_one`] is the portable scalar permutation, every lane a
//! local; when AVX-512 is enabled at compile time it runs the state
//! through the 4-way kernel instead (lane 0 of the AVX-512
//! `vprolq`/`vpternlogq` kernel, no slower than the scalar one), which the
//! vectoriser cannot touch.

#[cfg(feature = "digest")]
use super::{ExtendableOutput, Update, XofReader};

/// Keccak-f\[1600\] on one state, as fast as this build allows (see the
/// module documentation).
pub fn keccak_f1600_one(state: &mut [u64; 25]) {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))]
    {
        /// The backend's single-state permutation (on AVX-512, lane 0 of
        /// its 4-way kernel).
        struct One<'a>(&'a mut [u64; 25]);
        impl crate::Kernel for One<'_> {
            type Output = ();
            fn run<B: crate::Backend>(self, b: B) {
                b.keccak_f1600_one(self.0);
            }
        }
        crate::dispatch(One(state));
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx512f")))]
    super::keccak_f1600_scalar(state);
}

/// XOR `data` into the rate part of `state` from byte `pos` (no permutation).
#[inline]
fn xor_bytes(state: &mut [u64; 25], pos: usize, data: &[u8]) {
    for (k, &b) in data.iter().enumerate() {
        let at = pos + k;
        state[at / 8] ^= u64::from(b) << (8 * (at % 8));
    }
}

/// A Keccak sponge absorbing input: rate `RATE` bytes, domain padding
/// byte `PAD` (`0x1f` SHAKE, `0x06` SHA-3). The state is wiped on drop.
#[derive(Clone)]
pub struct Sponge<const RATE: usize, const PAD: u8> {
    state: [u64; 25],
    pos: usize,
}

impl<const RATE: usize, const PAD: u8> Default for Sponge<RATE, PAD> {
    fn default() -> Self {
        Self {
            state: [0; 25],
            pos: 0,
        }
    }
}

impl<const RATE: usize, const PAD: u8> core::fmt::Debug for Sponge<RATE, PAD> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Sponge<{RATE}, {PAD:#04x}> {{ .. }}")
    }
}

impl<const RATE: usize, const PAD: u8> Drop for Sponge<RATE, PAD> {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.state);
    }
}

impl<const RATE: usize, const PAD: u8> Sponge<RATE, PAD> {
    /// Absorb `data` (also the RustCrypto `Update` trait with the `digest`
    /// feature).
    pub fn update(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            let take = (RATE - self.pos).min(data.len());
            let (now, rest) = data.split_at(take);
            if self.pos.is_multiple_of(8) {
                // Whole words first.
                let mut words = now.chunks_exact(8);
                let mut at = self.pos / 8;
                for w in &mut words {
                    let mut b = [0u8; 8];
                    b.copy_from_slice(w);
                    self.state[at] ^= u64::from_le_bytes(b);
                    at += 1;
                }
                xor_bytes(&mut self.state, at * 8, words.remainder());
            } else {
                xor_bytes(&mut self.state, self.pos, now);
            }
            self.pos += take;
            if self.pos == RATE {
                keccak_f1600_one(&mut self.state);
                self.pos = 0;
            }
            data = rest;
        }
    }

    /// Pad and switch to squeezing (also the RustCrypto
    /// `ExtendableOutput` trait with the `digest` feature).
    pub fn finalize_xof(self) -> SpongeReader<RATE> {
        let mut state = self.state;
        state[self.pos / 8] ^= u64::from(PAD) << (8 * (self.pos % 8));
        state[(RATE - 1) / 8] ^= 0x80u64 << (8 * ((RATE - 1) % 8));
        keccak_f1600_one(&mut state);
        SpongeReader { state, pos: 0 }
    }
}

#[cfg(feature = "digest")]
impl<const RATE: usize, const PAD: u8> Update for Sponge<RATE, PAD> {
    fn update(&mut self, data: &[u8]) {
        Sponge::update(self, data);
    }
}

#[cfg(feature = "digest")]
impl<const RATE: usize, const PAD: u8> ExtendableOutput for Sponge<RATE, PAD> {
    type Reader = SpongeReader<RATE>;

    fn finalize_xof(self) -> SpongeReader<RATE> {
        Sponge::finalize_xof(self)
    }
}

/// The squeezing half of a [`Sponge`]. The state is wiped on drop.
#[derive(Clone)]
pub struct SpongeReader<const RATE: usize> {
    state: [u64; 25],
    pos: usize,
}

impl<const RATE: usize> core::fmt::Debug for SpongeReader<RATE> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SpongeReader<{RATE}> {{ .. }}")
    }
}

impl<const RATE: usize> Drop for SpongeReader<RATE> {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.state);
    }
}

#[cfg(feature = "digest")]
impl<const RATE: usize> XofReader for SpongeReader<RATE> {
    fn read(&mut self, out: &mut [u8]) {
        SpongeReader::read(self, out);
    }
}

impl<const RATE: usize> SpongeReader<RATE> {
    /// Squeeze the next `out.len()` bytes (also the RustCrypto `XofReader`
    /// trait with the `digest` feature).
    pub fn read(&mut self, mut out: &mut [u8]) {
        while !out.is_empty() {
            if self.pos == RATE {
                keccak_f1600_one(&mut self.state);
                self.pos = 0;
            }
            let take = (RATE - self.pos).min(out.len());
            let (now, rest) = out.split_at_mut(take);
            // Up to the next whole lane byte by byte, then whole lanes (one
            // 8-byte store each), then the tail.
            let state = &self.state;
            let bytes_at = |from: usize, out: &mut [u8]| {
                for (k, o) in out.iter_mut().enumerate() {
                    let at = from + k;
                    *o = (state[at / 8] >> (8 * (at % 8))) as u8;
                }
            };
            let head = ((8 - self.pos % 8) % 8).min(take);
            let (first, whole) = now.split_at_mut(head);
            bytes_at(self.pos, first);
            let lane0 = (self.pos + head) / 8;
            let mut words = whole.chunks_exact_mut(8);
            for (w, lane) in (&mut words).zip(&state[lane0..]) {
                w.copy_from_slice(&lane.to_le_bytes());
            }
            let tail = words.into_remainder();
            bytes_at(self.pos + take - tail.len(), tail);
            self.pos += take;
            out = rest;
        }
    }
}

/// SHAKE128 (FIPS 202), on pqkit's permutation.
pub type Shake128 = Sponge<168, 0x1f>;
/// SHAKE256 (FIPS 202), on pqkit's permutation.
pub type Shake256 = Sponge<136, 0x1f>;

/// SHA3 with `RATE` and an `N`-byte output over the concatenation of
/// `parts`.
pub(super) fn sha3<const RATE: usize, const N: usize>(parts: &[&[u8]]) -> [u8; N] {
    let mut s = Sponge::<RATE, 0x06>::default();
    for p in parts {
        s.update(p);
    }
    let mut out = [0u8; N];
    s.finalize_xof().read(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use shake::digest::ExtendableOutput as _;

    /// Byte for byte the RustCrypto crates' output, for every split of
    /// the input and output around the rate boundaries.
    #[test]
    fn equals_rustcrypto() {
        let data: [u8; 400] = core::array::from_fn(|i| (i * 7 + 3) as u8);
        for len in [0, 1, 7, 8, 135, 136, 137, 167, 168, 169, 300, 400] {
            for split in [0, 1, 5, 8, len / 2, len] {
                let split = split.min(len);
                let (a, b) = data[..len].split_at(split);
                let mut ours = Shake128::default();
                ours.update(a);
                ours.update(b);
                let mut x = [0u8; 500];
                let mut r = ours.finalize_xof();
                r.read(&mut x[..3]);
                r.read(&mut x[3..200]);
                r.read(&mut x[200..]);
                let mut y = [0u8; 500];
                shake::Shake128::digest_xof(&data[..len], &mut y);
                assert_eq!(x, y, "SHAKE128 len {len} split {split}");

                let mut ours = Shake256::default();
                ours.update(a);
                ours.update(b);
                ours.finalize_xof().read(&mut x);
                shake::Shake256::digest_xof(&data[..len], &mut y);
                assert_eq!(x, y, "SHAKE256 len {len} split {split}");

                use sha3::Digest;
                let want: [u8; 32] = sha3::Sha3_256::digest(&data[..len]).into();
                assert_eq!(sha3::<136, 32>(&[a, b]), want, "SHA3-256 len {len}");
                let want: [u8; 64] = sha3::Sha3_512::digest(&data[..len]).into();
                assert_eq!(sha3::<72, 64>(&[a, b]), want, "SHA3-512 len {len}");
            }
        }
    }

    /// Squeezing in pieces of every size from 1 to 24 bytes (each piece
    /// starting at every offset within a lane and across the rate
    /// boundary) gives the one-call output.
    #[test]
    fn reads_in_pieces_equal_one_read() {
        let mut whole = [0u8; 700];
        let mut s = Shake128::default();
        s.update(b"pieces");
        s.clone().finalize_xof().read(&mut whole);
        for step in 1..=24 {
            let mut r = s.clone().finalize_xof();
            let mut got = [0u8; 700];
            for chunk in got.chunks_mut(step) {
                r.read(chunk);
            }
            assert_eq!(got, whole, "pieces of {step}");
        }
    }

    #[test]
    fn single_permutations_agree() {
        let mut a: [u64; 25] =
            core::array::from_fn(|i| (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut b = a;
        let mut c = a;
        for _ in 0..3 {
            keccak_f1600_one(&mut a);
            super::super::portable::keccak_f1600(&mut b);
            keccak::Keccak::new().with_f1600(|f| f(&mut c));
        }
        assert_eq!(a, b);
        assert_eq!(a, c);
    }
}
