//! SHA-256 on the x86 SHA extensions (`SHA256RNDS2`, `SHA256MSG1`,
//! `SHA256MSG2`): four rounds per pair of `SHA256RNDS2`, the message
//! schedule four words at a time. Bit for bit the portable
//! [`compress256_portable`](super::compress256_portable), tested against
//! it.

#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::K256;

/// Proof that the CPU has the SHA extensions, SSSE3 and SSE4.1.
#[derive(Clone, Copy)]
pub(super) struct Token(());

impl Token {
    /// The token, if detected and allowed (`PQKIT_BACKEND`).
    #[inline]
    pub(super) fn get() -> Option<Self> {
        crate::backend::has_sha_ni().then_some(Token(()))
    }
}

/// [`super::compress256`] with the SHA extensions.
#[inline]
pub(super) fn compress256(_token: Token, state: &mut [u32; 8], blocks: &[[u8; 64]]) {
    // SAFETY: the token exists only when the CPU has the features the
    // function is compiled for.
    unsafe { compress256_shani(state, blocks) }
}

#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn compress256_shani(state: &mut [u32; 8], blocks: &[[u8; 64]]) {
    // Byte-swap each 32-bit word (the message is big-endian).
    let bswap = _mm_set_epi64x(0x0c0d_0e0f_0809_0a0b, 0x0405_0607_0001_0203);
    // SAFETY: `state` is 32 bytes; unaligned loads read its two halves.
    let (abcd, efgh) = unsafe {
        (
            _mm_loadu_si128(state.as_ptr().cast()),
            _mm_loadu_si128(state.as_ptr().add(4).cast()),
        )
    };
    // The instructions keep the state as ABEF and CDGH (A in the top word).
    let badc = _mm_shuffle_epi32(abcd, 0xb1);
    let hgfe = _mm_shuffle_epi32(efgh, 0x1b);
    let mut abef = _mm_alignr_epi8(badc, hgfe, 8);
    let mut cdgh = _mm_blend_epi16(hgfe, badc, 0xf0);

    for block in blocks {
        let (abef0, cdgh0) = (abef, cdgh);
        // SAFETY: the block is 64 bytes; unaligned loads read its quarters.
        let load = |i: usize| unsafe {
            _mm_shuffle_epi8(_mm_loadu_si128(block.as_ptr().add(16 * i).cast()), bswap)
        };
        let (mut m0, mut m1, mut m2, mut m3) = (load(0), load(1), load(2), load(3));
        // Four rounds with the schedule words `w` and constants 4g..4g+4.
        let mut rounds = |g: usize, w: __m128i| {
            // SAFETY: K256 has 64 words and g < 16: words 4g..4g+4.
            let k = unsafe { _mm_loadu_si128(K256.as_ptr().add(4 * g).cast()) };
            let wk = _mm_add_epi32(w, k);
            // The first call leaves the new ABEF in `cdgh` and the old
            // ABEF, now CDGH, in `abef`; the second puts them back.
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0e));
        };
        // W[t..t+4] from W[t-16..t] held in (w16, w12, w8, w4).
        let next = |w16: __m128i, w12: __m128i, w8: __m128i, w4: __m128i| {
            let x = _mm_add_epi32(_mm_sha256msg1_epu32(w16, w12), _mm_alignr_epi8(w4, w8, 4));
            _mm_sha256msg2_epu32(x, w4)
        };
        rounds(0, m0);
        rounds(1, m1);
        rounds(2, m2);
        rounds(3, m3);
        for g in (4..16).step_by(4) {
            m0 = next(m0, m1, m2, m3);
            rounds(g, m0);
            m1 = next(m1, m2, m3, m0);
            rounds(g + 1, m1);
            m2 = next(m2, m3, m0, m1);
            rounds(g + 2, m2);
            m3 = next(m3, m0, m1, m2);
            rounds(g + 3, m3);
        }
        abef = _mm_add_epi32(abef, abef0);
        cdgh = _mm_add_epi32(cdgh, cdgh0);
    }

    let feba = _mm_shuffle_epi32(abef, 0x1b);
    let dchg = _mm_shuffle_epi32(cdgh, 0xb1);
    let abcd = _mm_blend_epi16(feba, dchg, 0xf0);
    let efgh = _mm_alignr_epi8(dchg, feba, 8);
    // SAFETY: as for the loads.
    unsafe {
        _mm_storeu_si128(state.as_mut_ptr().cast(), abcd);
        _mm_storeu_si128(state.as_mut_ptr().add(4).cast(), efgh);
    }
}

/// [`super::compress256_many`]'s SHA-extensions form: `N` independent
/// one-block compressions interleaved step by step, so that the CPU
/// overlaps their `SHA256RNDS2` dependency chains (one compression is
/// bound by that chain's latency).
#[inline]
pub(super) fn compress256_xn<const N: usize>(
    _token: Token,
    states: &mut [[u32; 8]; N],
    blocks: &[[u8; 64]; N],
) {
    // SAFETY: the token exists only when the CPU has the features the
    // function is compiled for.
    unsafe { compress256_shani_xn(states, blocks) }
}

/// `state` (A..H) as the instructions keep it: (ABEF, CDGH).
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn to_abef(abcd: __m128i, efgh: __m128i) -> (__m128i, __m128i) {
    let badc = _mm_shuffle_epi32(abcd, 0xb1);
    let hgfe = _mm_shuffle_epi32(efgh, 0x1b);
    (
        _mm_alignr_epi8(badc, hgfe, 8),
        _mm_blend_epi16(hgfe, badc, 0xf0),
    )
}

/// (ABEF, CDGH) back to (ABCD, EFGH).
#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn from_abef(abef: __m128i, cdgh: __m128i) -> (__m128i, __m128i) {
    let feba = _mm_shuffle_epi32(abef, 0x1b);
    let dchg = _mm_shuffle_epi32(cdgh, 0xb1);
    (
        _mm_blend_epi16(feba, dchg, 0xf0),
        _mm_alignr_epi8(dchg, feba, 8),
    )
}

/// The `N` interleaved compressions of `$blocks` from the states
/// (ABEF, CDGH) in the arrays `$abef`, `$cdgh` of each lane, updated in
/// place, then `$abef0`, `$cdgh0` added (feed-forward: the chaining
/// values). With `$skip4`, the states are already past rounds 0..4 and
/// those rounds are left out (their message words still feed the
/// schedule). A macro, so that the state arrays stay in registers of the
/// function it expands in.
macro_rules! rounds_xn {
    ($n:ident, $abef:ident, $cdgh:ident, $abef0:expr, $cdgh0:expr, $blocks:ident, $skip4:expr) => {{
        let bswap = _mm_set_epi64x(0x0c0d_0e0f_0809_0a0b, 0x0405_0607_0001_0203);
        let zero = _mm_setzero_si128();
        let mut m = [[zero; 4]; $n];
        for i in 0..$n {
            for (q, w) in m[i].iter_mut().enumerate() {
                // SAFETY: a block is 64 bytes; an unaligned load reads its
                // quarter `q`.
                let v = unsafe { _mm_loadu_si128($blocks[i].as_ptr().add(16 * q).cast()) };
                *w = _mm_shuffle_epi8(v, bswap);
            }
        }
        let (abef0, cdgh0) = ($abef0, $cdgh0);
        // Four rounds of every compression with schedule group `q` of the
        // ring (`g` the group of constants); from `g = 4` on the group is
        // first advanced from the four before it. `q` is a constant after
        // unrolling, so the ring stays in registers.
        let mut step = |g: usize, q: usize| {
            // SAFETY: K256 has 64 words and g < 16: words 4g..4g+4.
            let k = unsafe { _mm_loadu_si128(K256.as_ptr().add(4 * g).cast()) };
            for i in 0..$n {
                if g >= 4 {
                    let (w16, w12, w8, w4) = (
                        m[i][q],
                        m[i][(q + 1) % 4],
                        m[i][(q + 2) % 4],
                        m[i][(q + 3) % 4],
                    );
                    let x =
                        _mm_add_epi32(_mm_sha256msg1_epu32(w16, w12), _mm_alignr_epi8(w4, w8, 4));
                    m[i][q] = _mm_sha256msg2_epu32(x, w4);
                }
                let wk = _mm_add_epi32(m[i][q], k);
                $cdgh[i] = _mm_sha256rnds2_epu32($cdgh[i], $abef[i], wk);
                $abef[i] = _mm_sha256rnds2_epu32($abef[i], $cdgh[i], _mm_shuffle_epi32(wk, 0x0e));
            }
        };
        for g in (0..16).step_by(4) {
            if g > 0 || !$skip4 {
                step(g, 0);
            }
            step(g + 1, 1);
            step(g + 2, 2);
            step(g + 3, 3);
        }
        for i in 0..$n {
            $abef[i] = _mm_add_epi32($abef[i], abef0[i]);
            $cdgh[i] = _mm_add_epi32($cdgh[i], cdgh0[i]);
        }
        // The schedule held message words: wipe its stack copy.
        m = [[zero; 4]; $n];
        core::hint::black_box(&mut m);
    }};
}

#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn compress256_shani_xn<const N: usize>(states: &mut [[u32; 8]; N], blocks: &[[u8; 64]; N]) {
    let zero = _mm_setzero_si128();
    let (mut abef, mut cdgh) = ([zero; N], [zero; N]);
    for i in 0..N {
        // SAFETY: a state is 32 bytes; unaligned loads read its halves.
        let (abcd, efgh) = unsafe {
            let s = states[i].as_ptr();
            (_mm_loadu_si128(s.cast()), _mm_loadu_si128(s.add(4).cast()))
        };
        (abef[i], cdgh[i]) = to_abef(abcd, efgh);
    }
    rounds_xn!(N, abef, cdgh, abef, cdgh, blocks, false);
    for i in 0..N {
        let (abcd, efgh) = from_abef(abef[i], cdgh[i]);
        // SAFETY: as for the loads.
        unsafe {
            _mm_storeu_si128(states[i].as_mut_ptr().cast(), abcd);
            _mm_storeu_si128(states[i].as_mut_ptr().add(4).cast(), efgh);
        }
    }
}

/// [`super::compress256_many_into`]'s SHA-extensions form: `N`
/// interleaved compressions of the blocks from one shared state `mid`,
/// each digest's first `len` bytes (`16 <= len <= 32`; 16, 24 and 32 take
/// direct stores) written big-endian into its own block at `at`. With
/// `after4`, lane `i` resumes from `after4[i]`, its state after rounds
/// 0..4 ([`super::compress256_many_into_after4`]).
#[inline]
pub(super) fn chain_xn<const N: usize>(
    _token: Token,
    mid: &[u32; 8],
    after4: Option<[&[u32; 8]; N]>,
    blocks: &mut [[u8; 64]; N],
    at: usize,
    len: usize,
) {
    // Opaque to the optimizer: where a caller passes constants, it
    // cloned the kernel into that crate with them folded in, and the
    // clone came out with its rounds in a loop, spilled, and a quarter
    // slower (SLH-DSA's WOTS+ chains with `n` constant).
    let (at, len) = core::hint::black_box((at, len));
    // SAFETY: the token exists only when the CPU has the features the
    // function is compiled for.
    unsafe {
        match after4 {
            None => chain_shani_xn::<N, false>(mid, [mid; N], blocks, at, len),
            Some(after4) => chain_shani_xn::<N, true>(mid, after4, blocks, at, len),
        }
    }
}

#[inline]
#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn chain_shani_xn<const N: usize, const SKIP4: bool>(
    mid: &[u32; 8],
    starts: [&[u32; 8]; N],
    blocks: &mut [[u8; 64]; N],
    at: usize,
    len: usize,
) {
    // SAFETY: `mid` is 32 bytes; unaligned loads read its halves.
    let (abcd, efgh) = unsafe {
        let s = mid.as_ptr();
        (_mm_loadu_si128(s.cast()), _mm_loadu_si128(s.add(4).cast()))
    };
    let (abef0, cdgh0) = to_abef(abcd, efgh);
    let (mut abef, mut cdgh) = ([abef0; N], [cdgh0; N]);
    if SKIP4 {
        for i in 0..N {
            // SAFETY: a state is 32 bytes; unaligned loads read its halves.
            let (abcd, efgh) = unsafe {
                let s = starts[i].as_ptr();
                (_mm_loadu_si128(s.cast()), _mm_loadu_si128(s.add(4).cast()))
            };
            (abef[i], cdgh[i]) = to_abef(abcd, efgh);
        }
    }
    rounds_xn!(N, abef, cdgh, [abef0; N], [cdgh0; N], blocks, SKIP4);
    let bswap = _mm_set_epi64x(0x0c0d_0e0f_0809_0a0b, 0x0405_0607_0001_0203);
    for i in 0..N {
        let (abcd, efgh) = from_abef(abef[i], cdgh[i]);
        let (abcd, efgh) = (_mm_shuffle_epi8(abcd, bswap), _mm_shuffle_epi8(efgh, bswap));
        // Digest bytes 0..16, then 16..24 or 16..32 (`len` is 16, 24 or
        // 32): direct stores into the slot, bounds-checked by slicing.
        let slot = &mut blocks[i][at..at + len];
        let (first, rest) = slot.split_at_mut(16);
        // SAFETY: `first` is 16 writable bytes; unaligned store.
        unsafe { _mm_storeu_si128(first.as_mut_ptr().cast(), abcd) };
        match rest.len() {
            0 => {}
            // SAFETY: `rest` is 16 writable bytes; unaligned store.
            16 => unsafe { _mm_storeu_si128(rest.as_mut_ptr().cast(), efgh) },
            // SAFETY: `rest` is 8 writable bytes; the low 8 bytes stored.
            8 => unsafe { _mm_storel_epi64(rest.as_mut_ptr().cast(), efgh) },
            _ => {
                let mut d = [0u8; 16];
                // SAFETY: `d` is 16 writable bytes.
                unsafe { _mm_storeu_si128(d.as_mut_ptr().cast(), efgh) };
                rest.copy_from_slice(&d[..rest.len()]);
            }
        }
    }
}
