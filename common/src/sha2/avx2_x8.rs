//! Eight SHA-256 compressions at once on AVX2: lane `i` of every
//! `__m256i` belongs to message `i`, so each vector instruction does one
//! step of eight independent compressions (the multi-buffer layout; the
//! hash-based signatures call SHA-256 thousands of times on independent
//! inputs). The blocks and states are transposed in and out with
//! 32-bit and 64-bit unpacks and 128-bit permutes. AVX2 has no rotate:
//! each rotation is two shifts and an OR. Bit for bit the portable
//! [`compress256_portable`](super::compress256_portable), tested against
//! it.

#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::K256;
use crate::avx2_transpose::transpose8x32 as transpose;

/// Proof that the CPU has AVX2.
#[derive(Clone, Copy)]
pub(super) struct Token(());

impl Token {
    /// The token, if detected and allowed (`PQKIT_BACKEND`).
    #[inline]
    pub(super) fn get() -> Option<Self> {
        crate::backend::has_avx2_bmi2().then_some(Token(()))
    }
}

/// Eight compressions for [`super::compress256_many`]: with AVX-512VL's
/// rotates and three-input logic where the CPU has them (and
/// `PQKIT_BACKEND=avx2` does not keep them off), else on AVX2.
#[inline]
pub(super) fn compress256_x8(_token: Token, states: &mut [[u32; 8]; 8], blocks: &[[u8; 64]; 8]) {
    if crate::backend::has_avx512vl_x86() {
        // SAFETY: the CPU has AVX-512F and AVX-512VL (detected just
        // above) and AVX2 (the token).
        unsafe { compress_avx512(states, blocks) }
    } else {
        // SAFETY: the token exists only when the CPU has AVX2.
        unsafe { compress_avx2(states, blocks) }
    }
}

/// `x` rotated right by `N` in each 32-bit lane (`M = 32 - N`).
#[inline]
#[target_feature(enable = "avx2")]
fn ror<const N: i32, const M: i32>(x: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_srli_epi32::<N>(x), _mm256_slli_epi32::<M>(x))
}

#[inline]
#[target_feature(enable = "avx2")]
fn add(a: __m256i, b: __m256i) -> __m256i {
    _mm256_add_epi32(a, b)
}

/// `a ^ b ^ c` (bitwise: SHA-512's four-lane kernel, `avx2_x4`, uses it
/// too).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn xor3(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
    _mm256_xor_si256(_mm256_xor_si256(a, b), c)
}

/// The round functions on AVX2: rotations as two shifts and an OR. `ch`
/// and `maj` are bitwise, so `avx2_x4` uses them on 64-bit lanes too.
pub(super) mod avx2_ops {
    use super::{ror, xor3};
    use core::arch::x86_64::*;

    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn big_sigma0(a: __m256i) -> __m256i {
        xor3(ror::<2, 30>(a), ror::<13, 19>(a), ror::<22, 10>(a))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn big_sigma1(e: __m256i) -> __m256i {
        xor3(ror::<6, 26>(e), ror::<11, 21>(e), ror::<25, 7>(e))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn small_sigma0(x: __m256i) -> __m256i {
        xor3(ror::<7, 25>(x), ror::<18, 14>(x), _mm256_srli_epi32::<3>(x))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(super) fn small_sigma1(x: __m256i) -> __m256i {
        xor3(
            ror::<17, 15>(x),
            ror::<19, 13>(x),
            _mm256_srli_epi32::<10>(x),
        )
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(in crate::sha2) fn ch(e: __m256i, f: __m256i, g: __m256i) -> __m256i {
        _mm256_xor_si256(_mm256_and_si256(e, f), _mm256_andnot_si256(e, g))
    }
    #[inline]
    #[target_feature(enable = "avx2")]
    pub(in crate::sha2) fn maj(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        _mm256_xor_si256(
            _mm256_and_si256(_mm256_xor_si256(a, b), _mm256_xor_si256(b, c)),
            b,
        )
    }
}

/// The round functions with AVX-512VL on 256-bit vectors: `VPRORD`
/// rotates, `VPTERNLOGD` computes each three-input function in one
/// instruction (0x96 XOR, 0xca choose, 0xe8 majority).
pub(super) mod avx512_ops {
    use core::arch::x86_64::*;

    #[inline]
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    pub(in crate::sha2) fn xor3(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        _mm256_ternarylogic_epi32::<0x96>(a, b, c)
    }
    #[inline]
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    pub(super) fn big_sigma0(a: __m256i) -> __m256i {
        xor3(
            _mm256_ror_epi32::<2>(a),
            _mm256_ror_epi32::<13>(a),
            _mm256_ror_epi32::<22>(a),
        )
    }
    #[inline]
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    pub(super) fn big_sigma1(e: __m256i) -> __m256i {
        xor3(
            _mm256_ror_epi32::<6>(e),
            _mm256_ror_epi32::<11>(e),
            _mm256_ror_epi32::<25>(e),
        )
    }
    #[inline]
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    pub(super) fn small_sigma0(x: __m256i) -> __m256i {
        xor3(
            _mm256_ror_epi32::<7>(x),
            _mm256_ror_epi32::<18>(x),
            _mm256_srli_epi32::<3>(x),
        )
    }
    #[inline]
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    pub(super) fn small_sigma1(x: __m256i) -> __m256i {
        xor3(
            _mm256_ror_epi32::<17>(x),
            _mm256_ror_epi32::<19>(x),
            _mm256_srli_epi32::<10>(x),
        )
    }
    #[inline]
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    pub(in crate::sha2) fn ch(e: __m256i, f: __m256i, g: __m256i) -> __m256i {
        _mm256_ternarylogic_epi32::<0xca>(e, f, g)
    }
    #[inline]
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    pub(in crate::sha2) fn maj(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        _mm256_ternarylogic_epi32::<0xe8>(a, b, c)
    }
}

/// The eight-lane compression over the round functions of module `$ops`
/// (expanded in a function compiled with that module's features).
macro_rules! compress_x8 {
    ($ops:ident, $states:ident, $blocks:ident) => {{
        use $ops::{big_sigma0, big_sigma1, ch, maj, small_sigma0, small_sigma1};
        // Byte-swap each 32-bit word (the message is big-endian).
        let bswap = _mm256_set_epi64x(
            0x0c0d_0e0f_0809_0a0b,
            0x0405_0607_0001_0203,
            0x0c0d_0e0f_0809_0a0b,
            0x0405_0607_0001_0203,
        );
        let mut lo = [_mm256_setzero_si256(); 8];
        let mut hi = [_mm256_setzero_si256(); 8];
        let mut st = [_mm256_setzero_si256(); 8];
        for i in 0..8 {
            let p = $blocks[i].as_ptr().cast::<__m256i>();
            // SAFETY: each block is 64 readable bytes, the state 32; the
            // loads are unaligned.
            unsafe {
                lo[i] = _mm256_shuffle_epi8(_mm256_loadu_si256(p), bswap);
                hi[i] = _mm256_shuffle_epi8(_mm256_loadu_si256(p.add(1)), bswap);
                st[i] = _mm256_loadu_si256($states[i].as_ptr().cast());
            }
        }
        let (lo, hi) = (transpose(lo), transpose(hi));
        let mut w = [_mm256_setzero_si256(); 16];
        w[..8].copy_from_slice(&lo);
        w[8..].copy_from_slice(&hi);
        let init = transpose(st);
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = init;
        for (t, &k) in K256.iter().enumerate() {
            if t >= 16 {
                // W[t] = sigma1(W[t-2]) + W[t-7] + sigma0(W[t-15]) + W[t-16].
                let s0 = small_sigma0(w[(t + 1) % 16]);
                let s1 = small_sigma1(w[(t + 14) % 16]);
                w[t % 16] = add(add(w[t % 16], s0), add(w[(t + 9) % 16], s1));
            }
            let kw = add(_mm256_set1_epi32(k as i32), w[t % 16]);
            let t1 = add(add(h, big_sigma1(e)), add(ch(e, f, g), kw));
            let t2 = add(big_sigma0(a), maj(a, b, c));
            h = g;
            g = f;
            f = e;
            e = add(d, t1);
            d = c;
            c = b;
            b = a;
            a = add(t1, t2);
        }
        let v = [a, b, c, d, e, f, g, h];
        let mut sum = [_mm256_setzero_si256(); 8];
        for i in 0..8 {
            sum[i] = add(init[i], v[i]);
        }
        let out = transpose(sum);
        for i in 0..8 {
            // SAFETY: each state is 32 writable bytes; the store is
            // unaligned.
            unsafe { _mm256_storeu_si256($states[i].as_mut_ptr().cast(), out[i]) };
        }
        // The schedule held message words: wipe its stack copy (the
        // states are the caller's to keep).
        w = [_mm256_setzero_si256(); 16];
        core::hint::black_box(&mut w);
    }};
}

#[target_feature(enable = "avx2")]
fn compress_avx2(states: &mut [[u32; 8]; 8], blocks: &[[u8; 64]; 8]) {
    compress_x8!(avx2_ops, states, blocks);
}

#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn compress_avx512(states: &mut [[u32; 8]; 8], blocks: &[[u8; 64]; 8]) {
    compress_x8!(avx512_ops, states, blocks);
}
