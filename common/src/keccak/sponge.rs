//! Single-state SHAKE and SHA-3 sponges on pqkit's own Keccak-f\[1600\].
//!
//! Why not the RustCrypto `keccak` crate's permutation (which these
//! replace for pqkit's own hashing): built with any AVX-512 `target-cpu`
//! (`-C target-cpu=native` on a Xeon or a Zen 4, `skylake-avx512`,
//! `icelake-server`, ...), LLVM's SLP vectoriser turns that scalar
//! permutation into shuffle-heavy 512-bit code and it runs 2.3 times
//! slower (270 ns becomes 630 ns here), which made every pqkit operation
//! slower in a native build. [`keccak_f1600_one`] is a scalar permutation
//! with every lane in a local (about 240-270 ns on x86-64); when AVX-512
//! is enabled at compile time it runs the state through the 4-way kernel
//! instead (lane 0 of the AVX-512 `vprolq`/`vpternlogq` kernel: about
//! 240 ns), which the vectoriser cannot touch.

use zeroize::Zeroize;

use super::portable::RC;
use super::{ExtendableOutput, Update, XofReader};

/// Keccak-f\[1600\] on one state (lanes indexed `x + 5y`), scalar, every
/// lane a local.
#[allow(clippy::too_many_lines)]
fn scalar_f1600(s: &mut [u64; 25]) {
    let [
        mut a00,
        mut a10,
        mut a20,
        mut a30,
        mut a40,
        mut a01,
        mut a11,
        mut a21,
        mut a31,
        mut a41,
        mut a02,
        mut a12,
        mut a22,
        mut a32,
        mut a42,
        mut a03,
        mut a13,
        mut a23,
        mut a33,
        mut a43,
        mut a04,
        mut a14,
        mut a24,
        mut a34,
        mut a44,
    ] = *s;
    for rc in RC {
        // theta
        let c0 = a00 ^ a01 ^ a02 ^ a03 ^ a04;
        let c1 = a10 ^ a11 ^ a12 ^ a13 ^ a14;
        let c2 = a20 ^ a21 ^ a22 ^ a23 ^ a24;
        let c3 = a30 ^ a31 ^ a32 ^ a33 ^ a34;
        let c4 = a40 ^ a41 ^ a42 ^ a43 ^ a44;
        let d0 = c4 ^ c1.rotate_left(1);
        let d1 = c0 ^ c2.rotate_left(1);
        let d2 = c1 ^ c3.rotate_left(1);
        let d3 = c2 ^ c4.rotate_left(1);
        let d4 = c3 ^ c0.rotate_left(1);
        // rho and pi: b[y][2x + 3y] = rot(a[x][y] ^ d[x], r[x][y]) (b named
        // column first: bXY is x = X, y = Y)
        let b00 = a00 ^ d0;
        let b13 = (a01 ^ d0).rotate_left(36);
        let b21 = (a02 ^ d0).rotate_left(3);
        let b34 = (a03 ^ d0).rotate_left(41);
        let b42 = (a04 ^ d0).rotate_left(18);
        let b02 = (a10 ^ d1).rotate_left(1);
        let b10 = (a11 ^ d1).rotate_left(44);
        let b23 = (a12 ^ d1).rotate_left(10);
        let b31 = (a13 ^ d1).rotate_left(45);
        let b44 = (a14 ^ d1).rotate_left(2);
        let b04 = (a20 ^ d2).rotate_left(62);
        let b12 = (a21 ^ d2).rotate_left(6);
        let b20 = (a22 ^ d2).rotate_left(43);
        let b33 = (a23 ^ d2).rotate_left(15);
        let b41 = (a24 ^ d2).rotate_left(61);
        let b01 = (a30 ^ d3).rotate_left(28);
        let b14 = (a31 ^ d3).rotate_left(55);
        let b22 = (a32 ^ d3).rotate_left(25);
        let b30 = (a33 ^ d3).rotate_left(21);
        let b43 = (a34 ^ d3).rotate_left(56);
        let b03 = (a40 ^ d4).rotate_left(27);
        let b11 = (a41 ^ d4).rotate_left(20);
        let b24 = (a42 ^ d4).rotate_left(39);
        let b32 = (a43 ^ d4).rotate_left(8);
        let b40 = (a44 ^ d4).rotate_left(14);
        // chi and iota, row by row
        a00 = b00 ^ (!b10 & b20) ^ rc;
        a10 = b10 ^ (!b20 & b30);
        a20 = b20 ^ (!b30 & b40);
        a30 = b30 ^ (!b40 & b00);
        a40 = b40 ^ (!b00 & b10);
        a01 = b01 ^ (!b11 & b21);
        a11 = b11 ^ (!b21 & b31);
        a21 = b21 ^ (!b31 & b41);
        a31 = b31 ^ (!b41 & b01);
        a41 = b41 ^ (!b01 & b11);
        a02 = b02 ^ (!b12 & b22);
        a12 = b12 ^ (!b22 & b32);
        a22 = b22 ^ (!b32 & b42);
        a32 = b32 ^ (!b42 & b02);
        a42 = b42 ^ (!b02 & b12);
        a03 = b03 ^ (!b13 & b23);
        a13 = b13 ^ (!b23 & b33);
        a23 = b23 ^ (!b33 & b43);
        a33 = b33 ^ (!b43 & b03);
        a43 = b43 ^ (!b03 & b13);
        a04 = b04 ^ (!b14 & b24);
        a14 = b14 ^ (!b24 & b34);
        a24 = b24 ^ (!b34 & b44);
        a34 = b34 ^ (!b44 & b04);
        a44 = b44 ^ (!b04 & b14);
    }
    *s = [
        a00, a10, a20, a30, a40, a01, a11, a21, a31, a41, a02, a12, a22, a32, a42, a03, a13, a23,
        a33, a43, a04, a14, a24, a34, a44,
    ];
}

/// Keccak-f\[1600\] on one state, as fast as this build allows (see the
/// module documentation).
pub fn keccak_f1600_one(state: &mut [u64; 25]) {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx512f"))]
    {
        /// Lane 0 of the backend's 4-way permutation.
        struct One<'a>(&'a mut [u64; 25]);
        impl crate::Kernel for One<'_> {
            type Output = ();
            fn run<B: crate::Backend>(self, b: B) {
                let mut x4 = super::StateX4::default();
                for (row, &v) in x4.lanes.iter_mut().zip(self.0.iter()) {
                    row[0] = v;
                }
                b.keccak_f1600_x4(&mut x4);
                for (v, row) in self.0.iter_mut().zip(x4.lanes.iter()) {
                    *v = row[0];
                }
                x4.zeroize();
            }
        }
        crate::dispatch(One(state));
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx512f")))]
    scalar_f1600(state);
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
        self.state.zeroize();
    }
}

impl<const RATE: usize, const PAD: u8> Update for Sponge<RATE, PAD> {
    fn update(&mut self, mut data: &[u8]) {
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
}

impl<const RATE: usize, const PAD: u8> ExtendableOutput for Sponge<RATE, PAD> {
    type Reader = SpongeReader<RATE>;

    fn finalize_xof(self) -> SpongeReader<RATE> {
        let mut state = self.state;
        state[self.pos / 8] ^= u64::from(PAD) << (8 * (self.pos % 8));
        state[(RATE - 1) / 8] ^= 0x80u64 << (8 * ((RATE - 1) % 8));
        keccak_f1600_one(&mut state);
        SpongeReader { state, pos: 0 }
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
        self.state.zeroize();
    }
}

impl<const RATE: usize> XofReader for SpongeReader<RATE> {
    fn read(&mut self, mut out: &mut [u8]) {
        while !out.is_empty() {
            if self.pos == RATE {
                keccak_f1600_one(&mut self.state);
                self.pos = 0;
            }
            let take = (RATE - self.pos).min(out.len());
            let (now, rest) = out.split_at_mut(take);
            for (k, o) in now.iter_mut().enumerate() {
                let at = self.pos + k;
                *o = (self.state[at / 8] >> (8 * (at % 8))) as u8;
            }
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

    #[test]
    fn single_permutations_agree() {
        let mut a: [u64; 25] =
            core::array::from_fn(|i| (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut b = a;
        let mut c = a;
        for _ in 0..3 {
            keccak_f1600_one(&mut a);
            scalar_f1600(&mut b);
            super::super::portable::keccak_f1600(&mut c);
        }
        assert_eq!(a, b);
        assert_eq!(a, c);
    }
}
