//! SHA-512 with the message schedule on AVX2 and the rounds on BMI2.
//!
//! Two blocks at a time: each 128-bit half of a `__m256i` holds two
//! consecutive schedule words of one block, so one vector step gives the
//! next two words of both blocks (`W[t]` needs `W[t - 2]`, never
//! `W[t - 1]`). The rounds run in scalar code, where BMI2's `RORX` rotates
//! without a copy; the first block's rounds are interleaved with the
//! vector steps that compute the next sixteen words of both blocks (the
//! CPU overlaps the independent work with the rounds' dependency chain:
//! computed all ahead, the schedule made a one-block hash 2.1x RustCrypto
//! `sha2`'s time instead of 1.05x), and the second block's rounds read
//! the stored words afterwards. An odd last block is scheduled in both
//! halves and its copy's rounds are skipped (the block count is public).
//! Bit for
//! bit the portable [`compress512_portable`](super::compress512_portable),
//! tested against it.

#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::K512;

/// Proof that the CPU has AVX2, BMI1 and BMI2.
#[derive(Clone, Copy)]
pub(super) struct Token(());

impl Token {
    /// The token, if detected and allowed (`PQKIT_BACKEND`).
    #[inline]
    pub(super) fn get() -> Option<Self> {
        crate::backend::has_avx2_bmi2().then_some(Token(()))
    }
}

/// [`super::compress512`] on AVX2 and BMI2.
#[inline]
pub(super) fn compress512(_token: Token, state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    // SAFETY: the token exists only when the CPU has the features the
    // function is compiled for.
    unsafe { compress512_avx2(state, blocks) }
}

/// `x` rotated right by `N` in each 64-bit lane (`M = 64 - N`).
#[inline]
#[target_feature(enable = "avx2")]
fn ror<const N: i32, const M: i32>(x: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_srli_epi64::<N>(x), _mm256_slli_epi64::<M>(x))
}

/// The first eight schedule pairs of two blocks: pair `j` holds words
/// `2j` and `2j + 1` of the first block, then of the second.
#[inline]
#[target_feature(enable = "avx2")]
fn load(first: &[u8; 128], second: &[u8; 128]) -> [__m256i; 8] {
    // Byte-swap each 64-bit word (the message is big-endian).
    let bswap = _mm256_set_epi64x(
        0x0809_0a0b_0c0d_0e0f,
        0x0001_0203_0405_0607,
        0x0809_0a0b_0c0d_0e0f,
        0x0001_0203_0405_0607,
    );
    let load = |j: usize| {
        // SAFETY: the blocks are 128 bytes and j < 8: bytes 16j..16j+16.
        let (lo, hi) = unsafe {
            (
                _mm_loadu_si128(first.as_ptr().add(16 * j).cast()),
                _mm_loadu_si128(second.as_ptr().add(16 * j).cast()),
            )
        };
        let both = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(lo), hi);
        _mm256_shuffle_epi8(both, bswap)
    };
    [
        load(0),
        load(1),
        load(2),
        load(3),
        load(4),
        load(5),
        load(6),
        load(7),
    ]
}

/// `W[2j..2j+2]` from the pairs `W[2j-16..2j-14]`, `W[2j-14..2j-12]`,
/// `W[2j-8..2j-6]`, `W[2j-6..2j-4]` and `W[2j-2..2j]`:
/// `s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16]` for both words.
#[inline]
#[target_feature(enable = "avx2")]
fn next(w16: __m256i, w14: __m256i, w8: __m256i, w6: __m256i, w2: __m256i) -> __m256i {
    let w15 = _mm256_alignr_epi8::<8>(w14, w16);
    let w7 = _mm256_alignr_epi8::<8>(w6, w8);
    let s0 = _mm256_xor_si256(
        _mm256_xor_si256(ror::<1, 63>(w15), ror::<8, 56>(w15)),
        _mm256_srli_epi64::<7>(w15),
    );
    let s1 = _mm256_xor_si256(
        _mm256_xor_si256(ror::<19, 45>(w2), ror::<61, 3>(w2)),
        _mm256_srli_epi64::<6>(w2),
    );
    _mm256_add_epi64(_mm256_add_epi64(w16, s0), _mm256_add_epi64(w7, s1))
}

/// Pair `j` of the schedule plus words `2j` and `2j + 1` of the constants.
#[inline]
#[target_feature(enable = "avx2")]
fn store(out: &mut [u64; 4], w: __m256i, j: usize) {
    let k: &[u64; 2] = &K512.as_chunks().0[j];
    // SAFETY: `k` is 16 bytes and `out` 32.
    unsafe {
        let k = _mm256_broadcastsi128_si256(_mm_loadu_si128(k.as_ptr().cast()));
        _mm256_storeu_si256(out.as_mut_ptr().cast(), _mm256_add_epi64(w, k));
    }
}

/// Eighty rounds of the second block of a pair, from its stored
/// schedule-plus-constant words.
#[inline]
#[target_feature(enable = "bmi1,bmi2")]
fn second_rounds(state: &mut [u64; 8], wk: &[[[u64; 4]; 8]; 5]) {
    let mut v = *state;
    for cur in wk {
        sixteen_rounds!(v, |i: usize| cur[i / 2][2 + i % 2], |_| {}, (28 34 39), (14 18 41));
    }
    for (s, x) in state.iter_mut().zip(v) {
        *s = s.wrapping_add(x);
    }
}

/// Blocks two at a time: the first block's rounds run interleaved with the
/// schedule of its next sixteen words (and the second block's), which is
/// stored for the second block's rounds after it. An odd last block is
/// scheduled twice and its copy's rounds skipped (the count is public).
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2")]
fn compress512_avx2(state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    // Group g, pair j: schedule words 16g + 2j and 16g + 2j + 1 plus their
    // constants, of the first block, then of the second.
    let mut wk = [[[0u64; 4]; 8]; 5];
    for pair in blocks.chunks(2) {
        let mut x = load(&pair[0], pair.get(1).unwrap_or(&pair[0]));
        for (j, &xj) in x.iter().enumerate() {
            store(&mut wk[0][j], xj, j);
        }
        let mut v = *state;
        for g in 0..5 {
            let (done, rest) = wk.split_at_mut(g + 1);
            let cur = &done[g];
            match rest.first_mut() {
                Some(nxt) => {
                    // x[j] holds pair 8g + j; its replacement is pair
                    // 8(g + 1) + j, written out so indices are constants.
                    let between = |j: usize| {
                        x[j] = next(
                            x[j],
                            x[(j + 1) % 8],
                            x[(j + 4) % 8],
                            x[(j + 5) % 8],
                            x[(j + 7) % 8],
                        );
                        store(&mut nxt[j], x[j], 8 * (g + 1) + j);
                    };
                    sixteen_rounds!(v, |i: usize| cur[i / 2][i % 2], between, (28 34 39), (14 18 41));
                }
                None => {
                    sixteen_rounds!(v, |i: usize| cur[i / 2][i % 2], |_| {}, (28 34 39), (14 18 41));
                }
            }
        }
        for (s, x) in state.iter_mut().zip(v) {
            *s = s.wrapping_add(x);
        }
        if pair.len() == 2 {
            second_rounds(state, &wk);
        }
    }
    crate::wipe::wipe(wk.as_flattened_mut().as_flattened_mut());
}
