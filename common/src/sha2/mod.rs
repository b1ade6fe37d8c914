//! SHA-2 (FIPS 180-4): SHA-224, SHA-256, SHA-384, SHA-512, SHA-512/224 and
//! SHA-512/256, on pqkit's own compression functions.
//!
//! They serve the pre-hash registry ([`crate::prehash`]) without the
//! RustCrypto `sha2` crate, so that a crate on `pqkit-common` does not wait
//! for `sha2` and its dependencies before it starts compiling; and they
//! are the executable specification for multi-way SHA-2 kernels. Each
//! hasher is incremental (`new`, `update`, `finalize`) with a one-shot
//! `digest`; message lengths are public, and nothing branches on the
//! data. States are wiped on drop. Everything here is `#[inline]` or
//! generic, so it is compiled only in the crates (or modules) that hash
//! with it: depending on `pqkit-common` costs no SHA-2 build time.
//!
//! ```
//! use pqkit_common::sha2::{Sha256, Sha512_256};
//!
//! let mut h = Sha256::new();
//! h.update(b"a");
//! h.update(b"bc");
//! assert_eq!(h.finalize(), Sha256::digest(b"abc"));
//! assert_eq!(
//!     Sha256::digest(b"abc")[..4],
//!     [0xba, 0x78, 0x16, 0xbf] // FIPS 180-4 example, SHA-256("abc")
//! );
//! assert_eq!(Sha512_256::digest(b"").len(), 32);
//! ```
//!
//! A message whose first block many messages share can resume from that
//! block's chaining value (`IV`, [`compress256`], `from_state`):
//!
//! ```
//! use pqkit_common::sha2::{Sha256, compress256};
//!
//! let first = [7u8; 64];
//! let mut mid = Sha256::IV;
//! compress256(&mut mid, &[first]);
//! let mut h = Sha256::from_state(mid, 1);
//! h.update(b"rest");
//! let mut whole = Sha256::new();
//! whole.update(&first);
//! whole.update(b"rest");
//! assert_eq!(h.finalize(), whole.finalize());
//! ```

#[cfg(target_arch = "x86_64")]
mod shani;

/// SHA-256's round constants (FIPS 180-4 §4.2.2).
const K256: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// SHA-512's round constants (FIPS 180-4 §4.2.3).
const K512: [u64; 80] = [
    0x428a2f98d728ae22,
    0x7137449123ef65cd,
    0xb5c0fbcfec4d3b2f,
    0xe9b5dba58189dbbc,
    0x3956c25bf348b538,
    0x59f111f1b605d019,
    0x923f82a4af194f9b,
    0xab1c5ed5da6d8118,
    0xd807aa98a3030242,
    0x12835b0145706fbe,
    0x243185be4ee4b28c,
    0x550c7dc3d5ffb4e2,
    0x72be5d74f27b896f,
    0x80deb1fe3b1696b1,
    0x9bdc06a725c71235,
    0xc19bf174cf692694,
    0xe49b69c19ef14ad2,
    0xefbe4786384f25e3,
    0x0fc19dc68b8cd5b5,
    0x240ca1cc77ac9c65,
    0x2de92c6f592b0275,
    0x4a7484aa6ea6e483,
    0x5cb0a9dcbd41fbd4,
    0x76f988da831153b5,
    0x983e5152ee66dfab,
    0xa831c66d2db43210,
    0xb00327c898fb213f,
    0xbf597fc7beef0ee4,
    0xc6e00bf33da88fc2,
    0xd5a79147930aa725,
    0x06ca6351e003826f,
    0x142929670a0e6e70,
    0x27b70a8546d22ffc,
    0x2e1b21385c26c926,
    0x4d2c6dfc5ac42aed,
    0x53380d139d95b3df,
    0x650a73548baf63de,
    0x766a0abb3c77b2a8,
    0x81c2c92e47edaee6,
    0x92722c851482353b,
    0xa2bfe8a14cf10364,
    0xa81a664bbc423001,
    0xc24b8b70d0f89791,
    0xc76c51a30654be30,
    0xd192e819d6ef5218,
    0xd69906245565a910,
    0xf40e35855771202a,
    0x106aa07032bbd1b8,
    0x19a4c116b8d2d0c8,
    0x1e376c085141ab53,
    0x2748774cdf8eeb99,
    0x34b0bcb5e19b48a8,
    0x391c0cb3c5c95a63,
    0x4ed8aa4ae3418acb,
    0x5b9cca4f7763e373,
    0x682e6ff3d6b2b8a3,
    0x748f82ee5defb2fc,
    0x78a5636f43172f60,
    0x84c87814a1f0ab72,
    0x8cc702081a6439ec,
    0x90befffa23631e28,
    0xa4506cebde82bde9,
    0xbef9a3f7b2c67915,
    0xc67178f2e372532b,
    0xca273eceea26619c,
    0xd186b8c721c0c207,
    0xeada7dd6cde0eb1e,
    0xf57d4f7fee6ed178,
    0x06f067aa72176fba,
    0x0a637dc5a2c898a6,
    0x113f9804bef90dae,
    0x1b710b35131c471b,
    0x28db77f523047d84,
    0x32caab7b40c72493,
    0x3c9ebe0a15c9bebc,
    0x431d67c49c100d4c,
    0x4cc5d4becb3e42b6,
    0x597f299cfc657e2a,
    0x5fcb6fab3ad6faec,
    0x6c44198c4a475817,
];

/// One SHA-2 round (FIPS 180-4 §6.2.2 step 3, §6.4.2 step 3) with the
/// working variables renamed instead of moved: `d` and `h` are updated,
/// and the caller rotates the names for the next round.
macro_rules! round {
    ($a:ident $b:ident $c:ident $d:ident $e:ident $f:ident $g:ident $h:ident,
     $kw:expr, ($r0:literal $r1:literal $r2:literal), ($r3:literal $r4:literal $r5:literal)) => {
        let t1 = $h
            .wrapping_add($e.rotate_right($r3) ^ $e.rotate_right($r4) ^ $e.rotate_right($r5))
            // Ch(e, f, g) = (e & f) ^ (!e & g), in three operations.
            .wrapping_add((($f ^ $g) & $e) ^ $g)
            .wrapping_add($kw);
        let t2 = ($a.rotate_right($r0) ^ $a.rotate_right($r1) ^ $a.rotate_right($r2))
            // Maj(a, b, c) = (a & b) ^ (a & c) ^ (b & c); this round's a ^ b
            // is the next round's b ^ c, which the compiler reuses.
            .wrapping_add((($a ^ $b) & ($b ^ $c)) ^ $b);
        $d = $d.wrapping_add(t1);
        $h = t1.wrapping_add(t2);
    };
}

/// Sixteen rounds over the schedule window `w` (the message words of this
/// group) with round constants `k`, names rotated by one each round.
macro_rules! sixteen_rounds {
    ($v:ident, $w:ident, $k:expr, $s0:tt, $s1:tt) => {{
        let k = $k;
        sixteen_rounds!($v, |i: usize| k[i].wrapping_add($w[i]), |_| {}, $s0, $s1);
    }};
    // `kw(i)`: round i's constant plus schedule word; `between(p)` runs
    // after rounds 2p and 2p + 1 (independent work for the CPU to overlap
    // with the rounds' dependency chain).
    ($v:ident, $kw:expr, $between:expr, $s0:tt, $s1:tt) => {{
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = $v;
        let kw = $kw;
        // Mutable when it changes what it captures (the AVX2 schedule).
        #[allow(unused_mut)]
        let mut between = $between;
        round!(a b c d e f g h, kw(0), $s0, $s1);
        round!(h a b c d e f g, kw(1), $s0, $s1);
        between(0);
        round!(g h a b c d e f, kw(2), $s0, $s1);
        round!(f g h a b c d e, kw(3), $s0, $s1);
        between(1);
        round!(e f g h a b c d, kw(4), $s0, $s1);
        round!(d e f g h a b c, kw(5), $s0, $s1);
        between(2);
        round!(c d e f g h a b, kw(6), $s0, $s1);
        round!(b c d e f g h a, kw(7), $s0, $s1);
        between(3);
        round!(a b c d e f g h, kw(8), $s0, $s1);
        round!(h a b c d e f g, kw(9), $s0, $s1);
        between(4);
        round!(g h a b c d e f, kw(10), $s0, $s1);
        round!(f g h a b c d e, kw(11), $s0, $s1);
        between(5);
        round!(e f g h a b c d, kw(12), $s0, $s1);
        round!(d e f g h a b c, kw(13), $s0, $s1);
        between(6);
        round!(c d e f g h a b, kw(14), $s0, $s1);
        round!(b c d e f g h a, kw(15), $s0, $s1);
        between(7);
        // Sixteen renamings are two full turns: the names are back in place.
        $v = [a, b, c, d, e, f, g, h];
    }};
}

/// The next sixteen schedule words in place of the current ones
/// (FIPS 180-4 §6.2.2 step 1, §6.4.2 step 1).
macro_rules! next_schedule {
    ($w:ident, ($a0:literal $a1:literal $a2:literal), ($b0:literal $b1:literal $b2:literal)) => {
        for t in 0..16 {
            let x = $w[(t + 1) % 16];
            let y = $w[(t + 14) % 16];
            let s0 = x.rotate_right($a0) ^ x.rotate_right($a1) ^ (x >> $a2);
            let s1 = y.rotate_right($b0) ^ y.rotate_right($b1) ^ (y >> $b2);
            $w[t] = $w[t]
                .wrapping_add(s0)
                .wrapping_add($w[(t + 9) % 16])
                .wrapping_add(s1);
        }
    };
}

// After the round macros, which it uses.
#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx2_x4;
#[cfg(target_arch = "x86_64")]
mod avx2_x8;

/// The SHA-256 compression function on whole 64-byte blocks
/// (FIPS 180-4 §6.2.2): on the x86 SHA extensions where the CPU has them
/// (and `PQKIT_BACKEND=portable` is not set), else portable.
#[inline]
pub fn compress256(state: &mut [u32; 8], blocks: &[[u8; 64]]) {
    #[cfg(target_arch = "x86_64")]
    if let Some(token) = shani::Token::get() {
        return shani::compress256(token, state, blocks);
    }
    compress256_portable(state, blocks);
}

/// Independent SHA-256 compressions of one 64-byte block each:
/// `states[i]` takes `blocks[i]` for `i < min(states.len(), blocks.len())`.
/// The multi-buffer kernel of the hash-based signatures (their thousands
/// of independent F and H calls), fastest with eight or more at a time:
///
/// * with the x86 SHA extensions, eight compressions interleaved step by
///   step, so that their `SHA256RNDS2` chains overlap (measured on an AMD
///   EPYC: 16.5 ns per block against 26 ns for one at a time; two or four
///   interleaved gained less);
/// * else with AVX2, eight in the eight 32-bit lanes of the vectors
///   (38 ns per block there, portable 168 ns), with AVX-512VL's rotates
///   and three-input logic where the CPU has them (0.73x the AVX2 time);
/// * else, and for the last `len % 8` (four of them interleaved where
///   there are four), one [`compress256`] each.
///
/// `PQKIT_BACKEND=portable` keeps the kernels off.
///
/// ```
/// use pqkit_common::sha2::{compress256_many, compress256_portable};
///
/// let blocks: Vec<[u8; 64]> = (0..11).map(|i| [i as u8; 64]).collect();
/// let mut states = vec![[0x6a09e667u32; 8]; 11];
/// compress256_many(&mut states, &blocks);
/// let mut one = [0x6a09e667u32; 8];
/// compress256_portable(&mut one, &blocks[9..10]);
/// assert_eq!(states[9], one);
/// ```
#[inline]
pub fn compress256_many(states: &mut [[u32; 8]], blocks: &[[u8; 64]]) {
    let n = states.len().min(blocks.len());
    let (states, blocks) = (&mut states[..n], &blocks[..n]);
    let (s8, s_rest) = states.as_chunks_mut::<8>();
    let (b8, b_rest) = blocks.as_chunks::<8>();
    #[cfg(target_arch = "x86_64")]
    if let Some(token) = shani::Token::get() {
        for (s, b) in s8.iter_mut().zip(b8) {
            shani::compress256_xn(token, s, b);
        }
        // Four or more left: four interleaved (22 ns a block there).
        if let (Some((s4, s_rest)), Some((b4, b_rest))) = (
            s_rest.split_first_chunk_mut::<4>(),
            b_rest.split_first_chunk::<4>(),
        ) {
            shani::compress256_xn(token, s4, b4);
            for (s, b) in s_rest.iter_mut().zip(b_rest) {
                compress256(s, core::slice::from_ref(b));
            }
            return;
        }
    } else if let Some(token) = avx2_x8::Token::get() {
        for (s, b) in s8.iter_mut().zip(b8) {
            avx2_x8::compress256_x8(token, s, b);
        }
    } else {
        for (s, b) in s8.as_flattened_mut().iter_mut().zip(b8.as_flattened()) {
            compress256_portable(s, core::slice::from_ref(b));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    for (s, b) in s8.as_flattened_mut().iter_mut().zip(b8.as_flattened()) {
        compress256(s, core::slice::from_ref(b));
    }
    for (s, b) in s_rest.iter_mut().zip(b_rest) {
        compress256(s, core::slice::from_ref(b));
    }
}

/// [`compress256`] in portable code (also what other backends are
/// compared with).
#[inline]
pub fn compress256_portable(state: &mut [u32; 8], blocks: &[[u8; 64]]) {
    for block in blocks {
        let mut w = [0u32; 16];
        for (wi, b) in w.iter_mut().zip(block.chunks_exact(4)) {
            *wi = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
        }
        let mut v = *state;
        // Sixteen straight-line rounds per group, the groups in a loop
        // (unrolled, they cost a build five times the code for a gain
        // within noise).
        for (g, k) in K256.as_chunks::<16>().0.iter().enumerate() {
            if g > 0 {
                next_schedule!(w, (7 18 3), (17 19 10));
            }
            sixteen_rounds!(v, w, k, (2 13 22), (6 11 25));
        }
        for (s, x) in state.iter_mut().zip(v) {
            *s = s.wrapping_add(x);
        }
        crate::wipe::wipe(&mut w);
    }
}

/// The SHA-512 compression function on whole 128-byte blocks
/// (FIPS 180-4 §6.4.2): on AVX2 and BMI2 where the CPU has them (and
/// `PQKIT_BACKEND=portable` is not set), else portable.
#[inline]
pub fn compress512(state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    #[cfg(target_arch = "x86_64")]
    if let Some(token) = avx2::Token::get() {
        return avx2::compress512(token, state, blocks);
    }
    compress512_portable(state, blocks);
}

/// One step of many hash chains kept in their blocks: for every block,
/// the compression of the block from the shared state `mid`, whose first
/// `len` digest bytes (big-endian, `len <= 32`) replace `block[at..at +
/// len]` (`at + len <= 64`). The hash-based signatures' WOTS+ chains: the
/// message of the next step is the digest of this one. The same kernels
/// as [`compress256_many`], with the state set up once and the digest
/// written back without a state array.
///
/// ```
/// use pqkit_common::sha2::{compress256_many_into, compress256_portable};
///
/// let mid = [0x6a09e667u32; 8];
/// let mut blocks = vec![[5u8; 64]; 9];
/// compress256_many_into(&mid, &mut blocks, 22, 16);
/// let mut st = mid;
/// compress256_portable(&mut st, &[[5u8; 64]]);
/// assert_eq!(blocks[8][22..26], st[0].to_be_bytes());
/// assert_eq!(blocks[8][..22], [5u8; 22]);
/// ```
///
/// # Panics
///
/// If `len > 32` or `at + len > 64` (a caller's constant).
#[inline]
pub fn compress256_many_into(mid: &[u32; 8], blocks: &mut [[u8; 64]], at: usize, len: usize) {
    assert!(
        len <= 32 && at + len <= 64,
        "compress256_many_into: bad slot"
    );
    #[cfg(target_arch = "x86_64")]
    if let Some(token) = shani::Token::get().filter(|_| len >= 16) {
        let (b8, rest) = blocks.as_chunks_mut::<8>();
        for b in b8 {
            shani::chain_xn(token, mid, None, b, at, len);
        }
        let (b4, rest) = rest.as_chunks_mut::<4>();
        for b in b4 {
            shani::chain_xn(token, mid, None, b, at, len);
        }
        for b in rest {
            shani::chain_xn(token, mid, None, core::array::from_mut(b), at, len);
        }
        return;
    }
    let mut states = [*mid; 8];
    for group in blocks.chunks_mut(8) {
        let k = group.len();
        states[..k].fill(*mid);
        compress256_many(&mut states[..k], group);
        for (b, st) in group.iter_mut().zip(&states) {
            let mut digest = [0u8; 32];
            for (d, w) in digest.chunks_exact_mut(4).zip(st) {
                d.copy_from_slice(&w.to_be_bytes());
            }
            b[at..at + len].copy_from_slice(&digest[..len]);
        }
    }
    crate::wipe::wipe(states.as_flattened_mut());
}

/// The SHA-256 working variables after rounds 0..4 of a compression of
/// `block` from `state`, which read only the block's first sixteen bytes:
/// the state from which [`compress256_many_into_after4`] resumes blocks
/// that begin with those bytes (FIPS 180-4 §6.2.2 step 3, `t` = 0..3).
///
/// ```
/// use pqkit_common::sha2::{Sha256, compress256_many_into, compress256_many_into_after4, rounds256_first4};
///
/// let mid = Sha256::IV;
/// let mut blocks = vec![[9u8; 64]; 11];
/// for (i, b) in blocks.iter_mut().enumerate() {
///     b[40] = i as u8; // only the words after the first four differ
/// }
/// let after4 = [rounds256_first4(&mid, &blocks[0])];
/// let mut direct = blocks.clone();
/// compress256_many_into(&mid, &mut direct, 0, 32);
/// compress256_many_into_after4(&mid, &after4, 11, &mut blocks, 0, 32);
/// assert_eq!(blocks, direct);
/// ```
#[inline]
pub fn rounds256_first4(state: &[u32; 8], block: &[u8; 64]) -> [u32; 8] {
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    let kw = |t: usize| {
        let w = [
            block[4 * t],
            block[4 * t + 1],
            block[4 * t + 2],
            block[4 * t + 3],
        ];
        K256[t].wrapping_add(u32::from_be_bytes(w))
    };
    round!(a b c d e f g h, kw(0), (2 13 22), (6 11 25));
    round!(h a b c d e f g, kw(1), (2 13 22), (6 11 25));
    round!(g h a b c d e f, kw(2), (2 13 22), (6 11 25));
    round!(f g h a b c d e, kw(3), (2 13 22), (6 11 25));
    // Four renamings: the variable named `e` now holds A.
    [e, f, g, h, a, b, c, d]
}

/// [`compress256_many_into`] for blocks whose first four rounds are done:
/// runs of `per` consecutive blocks begin with the same sixteen bytes,
/// and block `i` resumes from `after4[i / per]`, which must be
/// [`rounds256_first4`] of `mid` and a block of that run (the caller's
/// invariant: a wrong state gives a wrong digest, not an error).
/// Where many blocks share their first sixteen bytes (the address of a
/// hash-based signature's tweakable hash), this leaves out four of the
/// 64 rounds: on the SHA extensions two of the 32 `SHA256RNDS2`, a
/// sixteenth of the time. Other backends compress the whole block, as
/// [`compress256_many_into`] does.
///
/// # Panics
///
/// As [`compress256_many_into`], and if `per` is 0 or `after4` has fewer
/// than `blocks.len() / per` (rounded up) states (a caller's constant).
#[inline]
pub fn compress256_many_into_after4(
    mid: &[u32; 8],
    after4: &[[u32; 8]],
    per: usize,
    blocks: &mut [[u8; 64]],
    at: usize,
    len: usize,
) {
    assert!(
        len <= 32 && at + len <= 64 && per > 0 && after4.len() >= blocks.len().div_ceil(per),
        "compress256_many_into_after4: bad slot or states"
    );
    #[cfg(target_arch = "x86_64")]
    if let Some(token) = shani::Token::get().filter(|_| len >= 16) {
        let mut runs = Runs {
            run: 0,
            left: per,
            per,
        };
        let (b8, rest) = blocks.as_chunks_mut::<8>();
        for b in b8 {
            // Most groups lie inside one run: one state for all eight.
            let s: [&[u32; 8]; 8] = match runs.within(8) {
                Some(r) => [&after4[r]; 8],
                None => core::array::from_fn(|_| &after4[runs.next()]),
            };
            shani::chain_xn(token, mid, Some(s), b, at, len);
        }
        let (b4, rest) = rest.as_chunks_mut::<4>();
        for b in b4 {
            let s: [&[u32; 8]; 4] = core::array::from_fn(|_| &after4[runs.next()]);
            shani::chain_xn(token, mid, Some(s), b, at, len);
        }
        for b in rest {
            let s = [&after4[runs.next()]];
            shani::chain_xn(token, mid, Some(s), core::array::from_mut(b), at, len);
        }
        return;
    }
    compress256_many_into(mid, blocks, at, len);
}

/// Which run of [`compress256_many_into_after4`]'s blocks comes next,
/// without a division per block: run `run` has `left` blocks to go, each
/// run `per`.
#[cfg(target_arch = "x86_64")]
struct Runs {
    run: usize,
    left: usize,
    per: usize,
}

#[cfg(target_arch = "x86_64")]
impl Runs {
    /// The next block's run.
    #[inline]
    fn next(&mut self) -> usize {
        let r = self.run;
        self.left -= 1;
        if self.left == 0 {
            (self.run, self.left) = (r + 1, self.per);
        }
        r
    }

    /// The run of all of the next `k` blocks, if they lie in one (not
    /// ending it: the next block is still in it).
    #[inline]
    fn within(&mut self, k: usize) -> Option<usize> {
        (self.left > k).then(|| {
            self.left -= k;
            self.run
        })
    }
}

/// Independent SHA-512 compressions of one 128-byte block each:
/// `states[i]` takes `blocks[i]` for `i < min(states.len(),
/// blocks.len())` (the hash-based signatures' `H` and `T` at `n > 16`).
/// With AVX-512VL, in the 64-bit lanes of 256-bit vectors (`VPRORQ`,
/// `VPTERNLOGQ`): eight at a time as two groups of four interleaved step
/// by step, so that one group's rounds fill the other's latency (42 ns a
/// block on an AMD EPYC, against 63 ns for one group of four and 126 ns
/// one at a time), then four; with AVX2 alone the same way (71 ns a
/// block for eight, 108 ns for four); else, and for the last one to
/// three, one [`compress512`] each (its AVX2 schedule and BMI2 rounds).
///
/// ```
/// use pqkit_common::sha2::{compress512_many, compress512_portable};
///
/// let blocks: Vec<[u8; 128]> = (0..6).map(|i| [i as u8; 128]).collect();
/// let mut states = vec![[7u64; 8]; 6];
/// compress512_many(&mut states, &blocks);
/// let mut one = [7u64; 8];
/// compress512_portable(&mut one, &blocks[5..6]);
/// assert_eq!(states[5], one);
/// ```
#[inline]
pub fn compress512_many(states: &mut [[u64; 8]], blocks: &[[u8; 128]]) {
    let n = states.len().min(blocks.len());
    let (states, blocks) = (&mut states[..n], &blocks[..n]);
    #[cfg(target_arch = "x86_64")]
    if let Some(token) = avx2_x4::Token::get() {
        // Groups of four, and pairs of those.
        let (s4, s_rest) = states.as_chunks_mut::<4>();
        let (b4, b_rest) = blocks.as_chunks::<4>();
        let (s8, s4) = s4.as_chunks_mut::<2>();
        let (b8, b4) = b4.as_chunks::<2>();
        for (s, b) in s8.iter_mut().zip(b8) {
            avx2_x4::compress512_x4(token, s, b);
        }
        for (s, b) in s4.iter_mut().zip(b4) {
            avx2_x4::compress512_x4(token, core::array::from_mut(s), core::array::from_ref(b));
        }
        for (s, b) in s_rest.iter_mut().zip(b_rest) {
            compress512(s, core::slice::from_ref(b));
        }
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(token) = avx2_x4::Avx2Token::get() {
        let (s8, s_rest) = states.as_chunks_mut::<8>();
        let (b8, b_rest) = blocks.as_chunks::<8>();
        for (s, b) in s8.iter_mut().zip(b8) {
            let (s, b) = (s.as_chunks_mut::<4>().0, b.as_chunks::<4>().0);
            let (s, b) = (s.as_chunks_mut::<2>().0, b.as_chunks::<2>().0);
            avx2_x4::compress512_x4_avx2(token, &mut s[0], &b[0]);
        }
        // Four or more left: one group of four (still ahead of four
        // single compressions).
        let (s_rest, b_rest) = match (
            s_rest.split_first_chunk_mut::<4>(),
            b_rest.split_first_chunk::<4>(),
        ) {
            (Some((s4, s_rest)), Some((b4, b_rest))) => {
                avx2_x4::compress512_x4_avx2(
                    token,
                    core::array::from_mut(s4),
                    core::array::from_ref(b4),
                );
                (s_rest, b_rest)
            }
            _ => (s_rest, b_rest),
        };
        for (s, b) in s_rest.iter_mut().zip(b_rest) {
            compress512(s, core::slice::from_ref(b));
        }
        return;
    }
    for (s, b) in states.iter_mut().zip(blocks) {
        compress512(s, core::slice::from_ref(b));
    }
}

/// [`compress512`] in portable code (also what other backends are
/// compared with).
#[inline]
pub fn compress512_portable(state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    for block in blocks {
        let mut w = [0u64; 16];
        for (wi, b) in w.iter_mut().zip(block.chunks_exact(8)) {
            let mut x = [0u8; 8];
            x.copy_from_slice(b);
            *wi = u64::from_be_bytes(x);
        }
        let mut v = *state;
        // As in compress256_portable.
        for (g, k) in K512.as_chunks::<16>().0.iter().enumerate() {
            if g > 0 {
                next_schedule!(w, (1 8 7), (19 61 6));
            }
            sixteen_rounds!(v, w, k, (28 34 39), (14 18 41));
        }
        for (s, x) in state.iter_mut().zip(v) {
            *s = s.wrapping_add(x);
        }
        crate::wipe::wipe(&mut w);
    }
}

/// What distinguishes the two SHA-2 engines: word type, block size,
/// compression function and length-field size.
trait Word: Copy + Default + zeroize::DefaultIsZeroes {
    /// Bytes per block.
    const BLOCK: usize;
    /// Bytes of the big-endian message-length field in the padding.
    const LEN_FIELD: usize;
    /// The compression function on whole blocks of `BLOCK` bytes (a
    /// trailing partial block is ignored; callers pass none).
    fn compress(state: &mut [Self; 8], blocks: &[u8]);
    /// Append `word` big-endian to `out`, at most `out.len()` bytes.
    fn put(word: Self, out: &mut [u8]);
}

impl Word for u32 {
    const BLOCK: usize = 64;
    const LEN_FIELD: usize = 8;
    #[inline]
    fn compress(state: &mut [u32; 8], blocks: &[u8]) {
        compress256(state, blocks.as_chunks().0);
    }
    #[inline]
    fn put(word: u32, out: &mut [u8]) {
        let n = out.len();
        out.copy_from_slice(&word.to_be_bytes()[..n]);
    }
}

impl Word for u64 {
    const BLOCK: usize = 128;
    const LEN_FIELD: usize = 16;
    #[inline]
    fn compress(state: &mut [u64; 8], blocks: &[u8]) {
        compress512(state, blocks.as_chunks().0);
    }
    #[inline]
    fn put(word: u64, out: &mut [u8]) {
        let n = out.len();
        out.copy_from_slice(&word.to_be_bytes()[..n]);
    }
}

/// The incremental Merkle-Damgard engine shared by all six functions:
/// chaining state, the partial block and the message length in bytes.
#[derive(Clone)]
struct Engine<W: Word> {
    state: [W; 8],
    // 128 bytes serve both block sizes; SHA-256 uses the first 64.
    buf: [u8; 128],
    pos: usize,
    len: u128,
}

impl<W: Word> Engine<W> {
    const fn new(iv: [W; 8]) -> Self {
        Self {
            state: iv,
            buf: [0; 128],
            pos: 0,
            len: 0,
        }
    }

    fn update(&mut self, mut data: &[u8]) {
        self.len = self.len.wrapping_add(data.len() as u128);
        if self.pos > 0 {
            let take = (W::BLOCK - self.pos).min(data.len());
            let (now, rest) = data.split_at(take);
            self.buf[self.pos..self.pos + take].copy_from_slice(now);
            self.pos += take;
            data = rest;
            if self.pos < W::BLOCK {
                return;
            }
            W::compress(&mut self.state, &self.buf[..W::BLOCK]);
            self.pos = 0;
        }
        let whole = data.len() - data.len() % W::BLOCK;
        let (blocks, rest) = data.split_at(whole);
        W::compress(&mut self.state, blocks);
        self.buf[..rest.len()].copy_from_slice(rest);
        self.pos = rest.len();
    }

    /// Pad (FIPS 180-4 §5.1) and write the first `out.len()` bytes of the
    /// final state.
    fn finalize_into(&mut self, out: &mut [u8]) {
        let bits = self.len.wrapping_mul(8);
        self.buf[self.pos] = 0x80;
        self.buf[self.pos + 1..W::BLOCK].fill(0);
        if self.pos + 1 > W::BLOCK - W::LEN_FIELD {
            W::compress(&mut self.state, &self.buf[..W::BLOCK]);
            self.buf[..W::BLOCK].fill(0);
        }
        let len_bytes = bits.to_be_bytes();
        self.buf[W::BLOCK - W::LEN_FIELD..W::BLOCK]
            .copy_from_slice(&len_bytes[16 - W::LEN_FIELD..]);
        W::compress(&mut self.state, &self.buf[..W::BLOCK]);
        let size = size_of::<W>();
        for (chunk, &word) in out.chunks_mut(size).zip(&self.state) {
            W::put(word, chunk);
        }
    }
}

impl<W: Word> Drop for Engine<W> {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.state);
        crate::wipe::wipe(&mut self.buf);
    }
}

macro_rules! sha2_fn {
    ($(#[$doc:meta])* $name:ident, $word:ty, $out:expr, $iv:expr, $label:expr) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub struct $name(Engine<$word>);

        impl $name {
            /// Output length in bytes.
            pub const OUTPUT_LEN: usize = $out;

            /// The initial chaining value (FIPS 180-4 §5.3).
            pub const IV: [$word; 8] = $iv;

            /// A fresh hasher.
            #[inline]
            pub const fn new() -> Self {
                Self(Engine::new($iv))
            }

            /// Resume a message whose first `blocks` whole blocks are
            /// already compressed into `state` (a midstate shared by many
            /// messages with the same first blocks; see the module
            /// example).
            #[inline]
            pub fn from_state(state: [$word; 8], blocks: u64) -> Self {
                let mut e = Engine::new(state);
                e.len = u128::from(blocks) * (<$word as Word>::BLOCK as u128);
                Self(e)
            }

            /// Absorb `data` (also the RustCrypto `Update` trait with the
            /// `digest` feature).
            #[inline]
            pub fn update(&mut self, data: &[u8]) {
                self.0.update(data);
            }

            /// The digest of everything absorbed.
            #[inline]
            pub fn finalize(mut self) -> [u8; $out] {
                let mut out = [0u8; $out];
                self.0.finalize_into(&mut out);
                out
            }

            /// The digest of `data`.
            #[inline]
            pub fn digest(data: &[u8]) -> [u8; $out] {
                let mut h = Self::new();
                h.update(data);
                h.finalize()
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(concat!($label, " { .. }"))
            }
        }

        #[cfg(feature = "digest")]
        impl digest::Update for $name {
            #[inline]
            fn update(&mut self, data: &[u8]) {
                $name::update(self, data);
            }
        }
    };
}

sha2_fn!(
    /// SHA-224: 28-byte digests.
    Sha224, u32, 28,
    [0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939, 0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4],
    "Sha224"
);
sha2_fn!(
    /// SHA-256: 32-byte digests.
    Sha256, u32, 32,
    [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19],
    "Sha256"
);
sha2_fn!(
    /// SHA-384: 48-byte digests.
    Sha384, u64, 48,
    [
        0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17, 0x152fecd8f70e5939,
        0x67332667ffc00b31, 0x8eb44a8768581511, 0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4,
    ],
    "Sha384"
);
sha2_fn!(
    /// SHA-512: 64-byte digests.
    Sha512, u64, 64,
    [
        0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
        0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
    ],
    "Sha512"
);
sha2_fn!(
    /// SHA-512/224: 28-byte digests.
    Sha512_224, u64, 28,
    [
        0x8c3d37c819544da2, 0x73e1996689dcd4d6, 0x1dfab7ae32ff9c82, 0x679dd514582f9fcf,
        0x0f6d2b697bd44da8, 0x77e36f7304c48942, 0x3f9d85a86a1d36c8, 0x1112e6ad91d692a1,
    ],
    "Sha512_224"
);
sha2_fn!(
    /// SHA-512/256: 32-byte digests.
    Sha512_256, u64, 32,
    [
        0x22312194fc2bf72c, 0x9f555fa3c84c64c2, 0x2393b86b6f53b151, 0x963877195940eabd,
        0x96283ee2a88effe3, 0xbe5e1e2553863992, 0x2b0199fc2c85b8aa, 0x0eb72ddc81c52ca2,
    ],
    "Sha512_256"
);

#[cfg(test)]
mod tests {
    use super::*;

    /// A xorshift64 generator for the kernel comparisons.
    #[cfg(target_arch = "x86_64")]
    fn xorshift() -> impl FnMut() -> u64 {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    }

    /// The SHA-extensions kernel equals the portable one on random states
    /// and 0..40 blocks (when this CPU has the extensions).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn shani_equals_portable() {
        let Some(token) = shani::Token::get() else {
            std::eprintln!("no SHA extensions on this CPU (or PQKIT_BACKEND=portable)");
            return;
        };
        let mut next = xorshift();
        for n in 0..40 {
            let blocks: alloc::vec::Vec<[u8; 64]> = (0..n)
                .map(|_| core::array::from_fn(|_| next() as u8))
                .collect();
            let start: [u32; 8] = core::array::from_fn(|_| next() as u32);
            let (mut a, mut b) = (start, start);
            compress256_portable(&mut a, &blocks);
            shani::compress256(token, &mut b, &blocks);
            assert_eq!(a, b, "{n} blocks");
        }
    }

    /// The AVX2 SHA-512 kernel equals the portable one on random states
    /// and 0..40 blocks (odd counts take its one-block path), and on
    /// all-zero and all-one blocks (when this CPU has AVX2 and BMI2).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn sha512_avx2_equals_portable() {
        let Some(token) = avx2::Token::get() else {
            std::eprintln!("no AVX2 and BMI2 on this CPU (or PQKIT_BACKEND=portable)");
            return;
        };
        let mut next = xorshift();
        for n in 0..40 {
            let blocks: alloc::vec::Vec<[u8; 128]> = (0..n)
                .map(|_| core::array::from_fn(|_| next() as u8))
                .collect();
            let start: [u64; 8] = core::array::from_fn(|_| next());
            let (mut a, mut b) = (start, start);
            compress512_portable(&mut a, &blocks);
            avx2::compress512(token, &mut b, &blocks);
            assert_eq!(a, b, "{n} blocks");
        }
        for fill in [0x00, 0xff] {
            let blocks = [[fill; 128]; 3];
            let (mut a, mut b) = ([u64::MAX; 8], [u64::MAX; 8]);
            compress512_portable(&mut a, &blocks);
            avx2::compress512(token, &mut b, &blocks);
            assert_eq!(a, b, "blocks of {fill:#x}");
        }
    }

    /// The eight-way kernels (AVX2 lanes, SHA-NI interleaved) and
    /// `compress256_many` equal eight portable compressions on random
    /// states and blocks, on all-zero and all-one ones, and with one lane
    /// changed at a time (a lane mix-up in a transpose shows there).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn x8_equals_portable() {
        let Some(token) = avx2_x8::Token::get() else {
            std::eprintln!("no AVX2 on this CPU (or PQKIT_BACKEND=portable)");
            return;
        };
        let mut next = xorshift();
        let check = |states: [[u32; 8]; 8], blocks: &[[u8; 64]; 8]| {
            let mut want = states;
            for (s, b) in want.iter_mut().zip(blocks) {
                compress256_portable(s, core::slice::from_ref(b));
            }
            let mut got = states;
            avx2_x8::compress256_x8(token, &mut got, blocks);
            assert_eq!(got, want);
            let mut public = states;
            compress256_many(&mut public, blocks);
            assert_eq!(public, want);
            if let Some(token) = shani::Token::get() {
                let mut interleaved = states;
                shani::compress256_xn(token, &mut interleaved, blocks);
                assert_eq!(interleaved, want, "SHA-NI, eight interleaved");
                let (mut s4, b4) = (states, blocks.as_chunks::<4>().0);
                for (s, b) in s4.as_chunks_mut::<4>().0.iter_mut().zip(b4) {
                    shani::compress256_xn(token, s, b);
                }
                assert_eq!(s4, want, "SHA-NI, four interleaved");
            }
        };
        for _ in 0..200 {
            let blocks: [[u8; 64]; 8] =
                core::array::from_fn(|_| core::array::from_fn(|_| next() as u8));
            let states: [[u32; 8]; 8] =
                core::array::from_fn(|_| core::array::from_fn(|_| next() as u32));
            check(states, &blocks);
            for lane in 0..8 {
                let mut b = blocks;
                b[lane][next() as usize % 64] ^= 1 << (next() % 8);
                check(states, &b);
            }
        }
        for fill in [0x00, 0xff] {
            check([[u32::MAX; 8]; 8], &[[fill; 64]; 8]);
            check([[0; 8]; 8], &[[fill; 64]; 8]);
        }
    }

    /// `compress256_many` at every count up to 40 (whole groups of eight
    /// and remainders) equals portable compressions.
    #[test]
    fn many_equals_portable_at_every_count() {
        let mut next = xorshift_any();
        for n in 0..=40 {
            let blocks: alloc::vec::Vec<[u8; 64]> = (0..n)
                .map(|_| core::array::from_fn(|_| next() as u8))
                .collect();
            let states: alloc::vec::Vec<[u32; 8]> = (0..n)
                .map(|_| core::array::from_fn(|_| next() as u32))
                .collect();
            let mut want = states.clone();
            for (s, b) in want.iter_mut().zip(&blocks) {
                compress256_portable(s, core::slice::from_ref(b));
            }
            let mut got = states.clone();
            compress256_many(&mut got, &blocks);
            assert_eq!(got, want, "{n} blocks");
            // Extra states beyond the blocks stay as they were.
            let mut longer = states.clone();
            longer.push([7; 8]);
            compress256_many(&mut longer, &blocks);
            assert_eq!(longer[n], [7; 8]);
        }
    }

    /// `compress512_many` (eight or four AVX-512VL lanes where the CPU has them)
    /// at every count up to 20 equals portable compressions, on random
    /// and on all-zero/all-one inputs.
    #[test]
    fn many512_equals_portable_at_every_count() {
        let mut next = xorshift_any();
        for n in 0..=20 {
            for fill in [None, Some(0x00), Some(0xff)] {
                let blocks: alloc::vec::Vec<[u8; 128]> = (0..n)
                    .map(|_| core::array::from_fn(|_| fill.unwrap_or(next() as u8)))
                    .collect();
                let states: alloc::vec::Vec<[u64; 8]> = (0..n)
                    .map(|_| {
                        core::array::from_fn(|_| if fill.is_some() { u64::MAX } else { next() })
                    })
                    .collect();
                let mut want = states.clone();
                for (s, b) in want.iter_mut().zip(&blocks) {
                    compress512_portable(s, core::slice::from_ref(b));
                }
                let mut got = states.clone();
                compress512_many(&mut got, &blocks);
                assert_eq!(got, want, "{n} blocks, fill {fill:?}");
            }
        }
    }

    /// `compress256_many_into` at every count up to 24, for each slot
    /// the signatures use, equals portable compressions written back.
    #[test]
    fn many_into_equals_portable() {
        let mut next = xorshift_any();
        for (at, len) in [
            (22, 16),
            (22, 24),
            (22, 32),
            (0, 32),
            (48, 16),
            (3, 20),
            (40, 8),
        ] {
            for count in 0..=24 {
                let mid: [u32; 8] = core::array::from_fn(|_| next() as u32);
                let blocks: alloc::vec::Vec<[u8; 64]> = (0..count)
                    .map(|_| core::array::from_fn(|_| next() as u8))
                    .collect();
                let mut want = blocks.clone();
                for b in &mut want {
                    let mut st = mid;
                    compress256_portable(&mut st, core::slice::from_ref(b));
                    let d: alloc::vec::Vec<u8> = st.iter().flat_map(|w| w.to_be_bytes()).collect();
                    b[at..at + len].copy_from_slice(&d[..len]);
                }
                let mut got = blocks.clone();
                compress256_many_into(&mid, &mut got, at, len);
                assert_eq!(got, want, "slot {at}+{len}, {count} blocks");
            }
        }
    }

    /// `rounds256_first4` against four rounds written the plain way
    /// (FIPS 180-4 §6.2.2 step 3, with `T1`, `T2` and the moves).
    #[test]
    fn first4_is_four_rounds() {
        let mut next = xorshift_any();
        for _ in 0..50 {
            let state: [u32; 8] = core::array::from_fn(|_| next() as u32);
            let block: [u8; 64] = core::array::from_fn(|_| next() as u8);
            let w: [u32; 4] = core::array::from_fn(|t| {
                u32::from_be_bytes([
                    block[4 * t],
                    block[4 * t + 1],
                    block[4 * t + 2],
                    block[4 * t + 3],
                ])
            });
            let mut v = state;
            for t in 0..4 {
                let [a, b, c, d, e, f, g, h] = v;
                let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
                let ch = (e & f) ^ (!e & g);
                let t1 = h
                    .wrapping_add(s1)
                    .wrapping_add(ch)
                    .wrapping_add(K256[t])
                    .wrapping_add(w[t]);
                let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
                let maj = (a & b) ^ (a & c) ^ (b & c);
                v = [
                    t1.wrapping_add(s0).wrapping_add(maj),
                    a,
                    b,
                    c,
                    d.wrapping_add(t1),
                    e,
                    f,
                    g,
                ];
            }
            assert_eq!(rounds256_first4(&state, &block), v);
        }
    }

    /// `compress256_many_into_after4` equals `compress256_many_into` at
    /// every count, with runs of one, seven, eight and nineteen blocks
    /// sharing their first words (groups of eight across runs, inside
    /// one, and ending one); on the SHA extensions (where the states are
    /// used) a state for other first words changes the digests of its
    /// run and no other.
    #[test]
    fn many_into_after4_equals_many_into() {
        let mut next = xorshift_any();
        for (at, len) in [(22, 16), (22, 24), (22, 32), (0, 32), (3, 20)] {
            for per in [1, 7, 8, 19] {
                for count in 0usize..=40 {
                    let mid: [u32; 8] = core::array::from_fn(|_| next() as u32);
                    let heads: alloc::vec::Vec<[u8; 16]> = (0..count.div_ceil(per))
                        .map(|_| core::array::from_fn(|_| next() as u8))
                        .collect();
                    let blocks: alloc::vec::Vec<[u8; 64]> = (0..count)
                        .map(|i| {
                            let mut b: [u8; 64] = core::array::from_fn(|_| next() as u8);
                            b[..16].copy_from_slice(&heads[i / per]);
                            b
                        })
                        .collect();
                    let after4: alloc::vec::Vec<[u32; 8]> = blocks
                        .chunks(per)
                        .map(|run| rounds256_first4(&mid, &run[0]))
                        .collect();
                    let mut want = blocks.clone();
                    compress256_many_into(&mid, &mut want, at, len);
                    let mut got = blocks.clone();
                    compress256_many_into_after4(&mid, &after4, per, &mut got, at, len);
                    assert_eq!(got, want, "slot {at}+{len}, runs of {per}, {count} blocks");
                    #[cfg(target_arch = "x86_64")]
                    if count > 0 && shani::Token::get().is_some() {
                        let r = (count - 1) / per;
                        let mut wrong = after4.clone();
                        wrong[r][0] ^= 1;
                        let mut got = blocks.clone();
                        compress256_many_into_after4(&mid, &wrong, per, &mut got, at, len);
                        let run = r * per;
                        assert!(got[run..].iter().zip(&want[run..]).all(|(g, w)| g != w));
                        assert_eq!(got[..run], want[..run]);
                    }
                }
            }
        }
    }

    fn xorshift_any() -> impl FnMut() -> u64 {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    }

    fn hex(s: &str) -> alloc::vec::Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    /// FIPS 180-4's worked examples ("abc" and the two-block messages),
    /// from the NIST examples document, for every function.
    #[test]
    fn nist_examples() {
        let m2 = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
        let m4 = b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
        assert_eq!(
            Sha224::digest(b"abc").to_vec(),
            hex("23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7")
        );
        assert_eq!(
            Sha256::digest(b"abc").to_vec(),
            hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        );
        assert_eq!(
            Sha256::digest(m2).to_vec(),
            hex("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        );
        assert_eq!(
            Sha384::digest(b"abc").to_vec(),
            hex(
                "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"
            )
        );
        assert_eq!(
            Sha512::digest(b"abc").to_vec(),
            hex(
                "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
            )
        );
        assert_eq!(
            Sha512::digest(m4).to_vec(),
            hex(
                "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"
            )
        );
        assert_eq!(
            Sha512_224::digest(b"abc").to_vec(),
            hex("4634270f707b6a54daae7530460842e20e37ed265ceee9a43e8924aa")
        );
        assert_eq!(
            Sha512_256::digest(b"abc").to_vec(),
            hex("53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23")
        );
    }

    /// The one-million-'a' message of the NIST examples, fed in uneven
    /// pieces.
    #[test]
    fn million_a() {
        let chunk = [b'a'; 997];
        let mut h256 = Sha256::new();
        let mut h512 = Sha512::new();
        let mut left = 1_000_000usize;
        while left > 0 {
            let n = left.min(chunk.len());
            h256.update(&chunk[..n]);
            h512.update(&chunk[..n]);
            left -= n;
        }
        assert_eq!(
            h256.finalize().to_vec(),
            hex("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        );
        assert_eq!(
            h512.finalize().to_vec(),
            hex(
                "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b"
            )
        );
    }

    /// Every function equals RustCrypto `sha2` at every length up to three
    /// blocks (each padding case: the length field in the last block or in
    /// an extra one), whole and fed in three pieces split everywhere.
    #[test]
    fn equals_rustcrypto() {
        use ::sha2::Digest as _;
        let data: [u8; 400] = core::array::from_fn(|i| (i * 151 + 7) as u8);
        macro_rules! check {
            ($ours:ty, $theirs:ty, $len:expr) => {{
                let m = &data[..$len];
                let want = <$theirs>::digest(m);
                assert_eq!(
                    <$ours>::digest(m)[..],
                    want[..],
                    "{} len {}",
                    stringify!($ours),
                    $len
                );
                for (i, j) in [
                    (0, $len),
                    ($len / 3, $len / 2),
                    (1, $len),
                    ($len / 2, $len / 2),
                ] {
                    if i > $len || j > $len || i > j {
                        continue;
                    }
                    let mut h = <$ours>::new();
                    h.update(&m[..i]);
                    h.update(&m[i..j]);
                    h.update(&m[j..]);
                    assert_eq!(
                        h.finalize()[..],
                        want[..],
                        "{} len {} split {i} {j}",
                        stringify!($ours),
                        $len
                    );
                }
            }};
        }
        for len in 0..=400 {
            check!(Sha224, ::sha2::Sha224, len);
            check!(Sha256, ::sha2::Sha256, len);
            check!(Sha384, ::sha2::Sha384, len);
            check!(Sha512, ::sha2::Sha512, len);
            check!(Sha512_224, ::sha2::Sha512_224, len);
            check!(Sha512_256, ::sha2::Sha512_256, len);
        }
    }
}
