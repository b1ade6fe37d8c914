//! AVX2 unpacking of Saber's 13- and 10-bit polynomials (and of the
//! 10- and 6-bit fields of GenSecret's stream): each group of
//! eight values (`D` bytes) is broadcast to both 128-bit halves, every
//! value's 4-byte window is gathered into a 32-bit lane (`vpshufb`),
//! shifted to its bit offset (`vpsrlvd`) and masked; two groups pack to
//! one vector of sixteen `u16`.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::{N, Poly};

/// Eight `D`-bit values from the first `D` of 16 readable bytes, as
/// 32-bit lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn group<const D: usize>(src: &[u8; 16], idx: __m256i, shift: __m256i, mask: __m256i) -> __m256i {
    // SAFETY: `src` is 16 readable bytes; loadu has no alignment need.
    let x = unsafe { _mm_loadu_si128(src.as_ptr().cast()) };
    let x = _mm256_broadcastsi128_si256(x);
    let x = _mm256_srlv_epi32(_mm256_shuffle_epi8(x, idx), shift);
    _mm256_and_si256(x, mask)
}

/// Unpack 256 `D`-bit values (`D` 6, 10 or 13; `bytes` exactly `32 D`
/// long, which the caller checked) into `out`.
#[target_feature(enable = "avx2")]
pub(super) fn unpack<const D: usize>(bytes: &[u8], out: &mut Poly) {
    let (g, s) = const { crate::pack::gather8(D) };
    // SAFETY: both tables are 32 readable bytes; loadu has no alignment
    // need.
    let (idx, shift) = unsafe {
        (
            _mm256_loadu_si256(g.as_ptr().cast()),
            _mm256_loadu_si256(s.as_ptr().cast()),
        )
    };
    let mask = _mm256_set1_epi32((1 << D) - 1);
    // The last two groups read from a padded copy (16-byte loads would run
    // past the end).
    let mut tail = [0u8; 2 * 16];
    let at = (N / 8 - 2) * D;
    if let (Some(t), Some(src)) = (tail.get_mut(..2 * D), bytes.get(at..at + 2 * D)) {
        t.copy_from_slice(src);
    }
    let last = N / 16 - 1;
    let (pairs, _) = out.coeffs.as_chunks_mut::<16>();
    for (p, dst) in pairs.iter_mut().enumerate() {
        let lo = 2 * p * D;
        let (a, b) = if p < last {
            (
                bytes.get(lo..).and_then(|s| s.first_chunk::<16>()),
                bytes.get(lo + D..).and_then(|s| s.first_chunk::<16>()),
            )
        } else {
            (
                tail.first_chunk::<16>(),
                tail.get(D..).and_then(|s| s.first_chunk::<16>()),
            )
        };
        // Always present: `bytes` is `32 D` long, so every group but the
        // last two has 16 bytes from its start (D >= 6).
        let (Some(a), Some(b)) = (a, b) else {
            continue;
        };
        let x = group::<D>(a, idx, shift, mask);
        let y = group::<D>(b, idx, shift, mask);
        // packus interleaves the halves: [x0..3, y0..3, x4..7, y4..7].
        let v = _mm256_permute4x64_epi64(_mm256_packus_epi32(x, y), 0b11_01_10_00);
        // SAFETY: `dst` is 16 writable u16 (32 bytes); storeu has no
        // alignment need.
        unsafe { _mm256_storeu_si256(dst.as_mut_ptr().cast(), v) };
    }
}
