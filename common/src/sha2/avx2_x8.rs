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

/// Eight compressions for [`super::compress256_many`] on AVX2.
#[inline]
pub(super) fn compress256_x8(_token: Token, states: &mut [[u32; 8]; 8], blocks: &[[u8; 64]; 8]) {
    // SAFETY: the token exists only when the CPU has AVX2.
    unsafe { compress_avx2(states, blocks) }
}

/// The 8 x 8 transpose of 32-bit words: lane `j` of output `i` is lane
/// `i` of input `j`.
#[inline]
#[target_feature(enable = "avx2")]
fn transpose(r: [__m256i; 8]) -> [__m256i; 8] {
    let t0 = _mm256_unpacklo_epi32(r[0], r[1]);
    let t1 = _mm256_unpackhi_epi32(r[0], r[1]);
    let t2 = _mm256_unpacklo_epi32(r[2], r[3]);
    let t3 = _mm256_unpackhi_epi32(r[2], r[3]);
    let t4 = _mm256_unpacklo_epi32(r[4], r[5]);
    let t5 = _mm256_unpackhi_epi32(r[4], r[5]);
    let t6 = _mm256_unpacklo_epi32(r[6], r[7]);
    let t7 = _mm256_unpackhi_epi32(r[6], r[7]);
    let u0 = _mm256_unpacklo_epi64(t0, t2);
    let u1 = _mm256_unpackhi_epi64(t0, t2);
    let u2 = _mm256_unpacklo_epi64(t1, t3);
    let u3 = _mm256_unpackhi_epi64(t1, t3);
    let u4 = _mm256_unpacklo_epi64(t4, t6);
    let u5 = _mm256_unpackhi_epi64(t4, t6);
    let u6 = _mm256_unpacklo_epi64(t5, t7);
    let u7 = _mm256_unpackhi_epi64(t5, t7);
    [
        _mm256_permute2x128_si256::<0x20>(u0, u4),
        _mm256_permute2x128_si256::<0x20>(u1, u5),
        _mm256_permute2x128_si256::<0x20>(u2, u6),
        _mm256_permute2x128_si256::<0x20>(u3, u7),
        _mm256_permute2x128_si256::<0x31>(u0, u4),
        _mm256_permute2x128_si256::<0x31>(u1, u5),
        _mm256_permute2x128_si256::<0x31>(u2, u6),
        _mm256_permute2x128_si256::<0x31>(u3, u7),
    ]
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

#[inline]
#[target_feature(enable = "avx2")]
fn xor3(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
    _mm256_xor_si256(_mm256_xor_si256(a, b), c)
}

/// One schedule step: `w[t] = sigma1(w[t-2]) + w[t-7] + sigma0(w[t-15])
/// + w[t-16]`, in the ring of sixteen.
#[inline]
#[target_feature(enable = "avx2")]
fn schedule(w: &mut [__m256i; 16], t: usize) {
    let x = w[(t + 1) % 16];
    let s0 = xor3(ror::<7, 25>(x), ror::<18, 14>(x), _mm256_srli_epi32::<3>(x));
    let y = w[(t + 14) % 16];
    let s1 = xor3(
        ror::<17, 15>(y),
        ror::<19, 13>(y),
        _mm256_srli_epi32::<10>(y),
    );
    w[t % 16] = add(add(w[t % 16], s0), add(w[(t + 9) % 16], s1));
}

#[target_feature(enable = "avx2")]
fn compress_avx2(states: &mut [[u32; 8]; 8], blocks: &[[u8; 64]; 8]) {
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
        let p = blocks[i].as_ptr().cast::<__m256i>();
        // SAFETY: each block is 64 readable bytes, the state 32; the
        // loads are unaligned.
        unsafe {
            lo[i] = _mm256_shuffle_epi8(_mm256_loadu_si256(p), bswap);
            hi[i] = _mm256_shuffle_epi8(_mm256_loadu_si256(p.add(1)), bswap);
            st[i] = _mm256_loadu_si256(states[i].as_ptr().cast());
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
            schedule(&mut w, t);
        }
        let s1 = xor3(ror::<6, 26>(e), ror::<11, 21>(e), ror::<25, 7>(e));
        let ch = _mm256_xor_si256(_mm256_and_si256(e, f), _mm256_andnot_si256(e, g));
        let kw = add(_mm256_set1_epi32(k as i32), w[t % 16]);
        let t1 = add(add(h, s1), add(ch, kw));
        let s0 = xor3(ror::<2, 30>(a), ror::<13, 19>(a), ror::<22, 10>(a));
        let maj = _mm256_xor_si256(
            _mm256_and_si256(_mm256_xor_si256(a, b), _mm256_xor_si256(b, c)),
            b,
        );
        let t2 = add(s0, maj);
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
        // SAFETY: each state is 32 writable bytes; the store is unaligned.
        unsafe { _mm256_storeu_si256(states[i].as_mut_ptr().cast(), out[i]) };
    }
    // The schedule held message words: wipe its stack copy (the states
    // are the caller's to keep).
    w = [_mm256_setzero_si256(); 16];
    core::hint::black_box(&mut w);
}
