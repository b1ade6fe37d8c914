//! SHA-512 compressions four at a time: lane `i` of every `__m256i`
//! (four 64-bit lanes) belongs to message `i`, as in the eight-way
//! SHA-256 kernel (`avx2_x8`). One group of four is bound by the latency
//! of the round (each round waits for the last); two groups interleaved
//! step by step fill it. The one body is built twice:
//!
//! * with AVX-512VL, rotations are `VPRORQ` and the three-input
//!   functions `VPTERNLOGQ`: 42 ns a block for eight, 63 ns for four,
//!   against 126 ns for one compression on the BMI2 rounds (AMD EPYC; a
//!   third group gained nothing);
//! * with AVX2 alone, each rotation is two shifts and an OR (one byte
//!   shuffle for the rotation by 8): 71 ns a block for eight, 108 ns for
//!   four (same machine, `PQKIT_BACKEND=avx2`; three groups, 84 ns,
//!   spill more than they fill).
//!
//! The rounds are written out sixteen at a time with the eight working
//! variables renamed from round to round rather than moved (each round
//! writes only its `d` and `h`): rolled into a loop over rounds, the moves
//! cost AVX2 a seventh of its time.
//!
//! Bit for bit the portable
//! [`compress512_portable`](super::compress512_portable), tested against
//! it.

#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::K512;

/// Proof that the CPU has AVX2, AVX-512F and AVX-512VL.
#[derive(Clone, Copy)]
pub(super) struct Token(());

impl Token {
    /// The token, if detected and allowed (`PQKIT_BACKEND`).
    #[inline]
    pub(super) fn get() -> Option<Self> {
        (crate::backend::has_avx2_bmi2() && crate::backend::has_avx512vl_x86()).then_some(Token(()))
    }
}

/// Proof that the CPU has AVX2 (and BMI2, as the other SHA-2 kernels
/// ask).
#[derive(Clone, Copy)]
pub(super) struct Avx2Token(());

impl Avx2Token {
    /// The token, if detected and allowed (`PQKIT_BACKEND`).
    #[inline]
    pub(super) fn get() -> Option<Self> {
        crate::backend::has_avx2_bmi2().then_some(Avx2Token(()))
    }
}

/// `4 * G` compressions for [`super::compress512_many`]: `G` groups of
/// four lanes, interleaved step by step.
#[inline]
pub(super) fn compress512_x4<const G: usize>(
    _token: Token,
    states: &mut [[[u64; 8]; 4]; G],
    blocks: &[[[u8; 128]; 4]; G],
) {
    // SAFETY: the token exists only when the CPU has AVX2, AVX-512F and
    // AVX-512VL.
    unsafe { compress_avx512(states, blocks) }
}

/// [`compress512_x4`] in AVX2 alone: each rotation two shifts and an OR.
#[inline]
pub(super) fn compress512_x4_avx2<const G: usize>(
    _token: Avx2Token,
    states: &mut [[[u64; 8]; 4]; G],
    blocks: &[[[u8; 128]; 4]; G],
) {
    // SAFETY: the token exists only when the CPU has AVX2.
    unsafe { compress_avx2(states, blocks) }
}

/// The 4 x 4 transpose of 64-bit words: lane `j` of output `i` is lane
/// `i` of input `j`.
#[inline]
#[target_feature(enable = "avx2")]
fn transpose(r: [__m256i; 4]) -> [__m256i; 4] {
    let t0 = _mm256_unpacklo_epi64(r[0], r[1]);
    let t1 = _mm256_unpackhi_epi64(r[0], r[1]);
    let t2 = _mm256_unpacklo_epi64(r[2], r[3]);
    let t3 = _mm256_unpackhi_epi64(r[2], r[3]);
    [
        _mm256_permute2x128_si256::<0x20>(t0, t2),
        _mm256_permute2x128_si256::<0x20>(t1, t3),
        _mm256_permute2x128_si256::<0x31>(t0, t2),
        _mm256_permute2x128_si256::<0x31>(t1, t3),
    ]
}

#[inline]
#[target_feature(enable = "avx2")]
fn add(a: __m256i, b: __m256i) -> __m256i {
    _mm256_add_epi64(a, b)
}

/// The three-input functions of the AVX-512VL kernel (`VPTERNLOGD`):
/// the eight-way SHA-256 kernel's, which are bitwise, so the lane width
/// does not matter.
mod vl {
    pub(super) use super::super::avx2_x8::avx512_ops::{ch, maj, xor3};
}

/// The same functions in AVX2 alone, also the SHA-256 kernel's.
mod plain {
    pub(super) use super::super::avx2_x8::avx2_ops::{ch, maj};
    pub(super) use super::super::avx2_x8::xor3;
}

/// 64-bit rotation right by a literal: `VPRORQ`.
macro_rules! ror_vl {
    ($x:expr, $n:literal) => {
        _mm256_ror_epi64::<$n>($x)
    };
}

/// 64-bit rotation right by a literal: two shifts and an OR, or one
/// byte shuffle for 8.
macro_rules! ror_plain {
    ($x:expr, 8) => {{
        // Each 64-bit lane's bytes moved down one place, byte 0 to the top.
        let r8 = _mm256_set_epi64x(
            0x080f_0e0d_0c0b_0a09,
            0x0007_0605_0403_0201,
            0x080f_0e0d_0c0b_0a09,
            0x0007_0605_0403_0201,
        );
        _mm256_shuffle_epi8($x, r8)
    }};
    ($x:expr, $n:literal) => {{
        let x = $x;
        _mm256_or_si256(
            _mm256_srli_epi64::<$n>(x),
            _mm256_slli_epi64::<{ 64 - $n }>(x),
        )
    }};
}

/// `$f` on each group: `[__m256i; G]` from per-group values.
macro_rules! each {
    ($g:ident, $e:expr) => {{ core::array::from_fn::<__m256i, G, _>(|$g| $e) }};
}

/// Round `$t` of every group on the variables named `$a`..`$h` (each a
/// `[__m256i; G]`): the schedule word `W[t]` first (from `t = 16` on, in
/// the ring `$w`), then `d += T1` and `h = T1 + T2`.
macro_rules! lane_round {
    ($ror:ident, $m:ident, $w:ident, $t:expr, $a:ident, $b:ident, $c:ident, $d:ident,
     $e:ident, $f:ident, $g:ident, $h:ident) => {{
        let t: usize = $t;
        if t >= 16 {
            // W[t] = sigma1(W[t-2]) + W[t-7] + sigma0(W[t-15]) + W[t-16].
            $w[t % 16] = each!(j, {
                let x = $w[(t + 1) % 16][j];
                let s0 = $m::xor3($ror!(x, 1), $ror!(x, 8), _mm256_srli_epi64::<7>(x));
                let y = $w[(t + 14) % 16][j];
                let s1 = $m::xor3($ror!(y, 19), $ror!(y, 61), _mm256_srli_epi64::<6>(y));
                add(add($w[t % 16][j], s0), add($w[(t + 9) % 16][j], s1))
            });
        }
        let kk = _mm256_set1_epi64x(K512[t] as i64);
        let t1 = each!(j, {
            let s1 = $m::xor3($ror!($e[j], 14), $ror!($e[j], 18), $ror!($e[j], 41));
            let ch = $m::ch($e[j], $f[j], $g[j]);
            add(add($h[j], s1), add(ch, add(kk, $w[t % 16][j])))
        });
        let t2 = each!(j, {
            let s0 = $m::xor3($ror!($a[j], 28), $ror!($a[j], 34), $ror!($a[j], 39));
            add(s0, $m::maj($a[j], $b[j], $c[j]))
        });
        $d = each!(j, add($d[j], t1[j]));
        $h = each!(j, add(t1[j], t2[j]));
    }};
}

/// Rounds `$t..$t + 8` (`$t` a multiple of eight): after eight rounds
/// every variable is back under its own name.
macro_rules! eight_rounds {
    ($ror:ident, $m:ident, $w:ident, $t:expr, $a:ident, $b:ident, $c:ident, $d:ident,
     $e:ident, $f:ident, $g:ident, $h:ident) => {{
        let t: usize = $t;
        lane_round!($ror, $m, $w, t, $a, $b, $c, $d, $e, $f, $g, $h);
        lane_round!($ror, $m, $w, t + 1, $h, $a, $b, $c, $d, $e, $f, $g);
        lane_round!($ror, $m, $w, t + 2, $g, $h, $a, $b, $c, $d, $e, $f);
        lane_round!($ror, $m, $w, t + 3, $f, $g, $h, $a, $b, $c, $d, $e);
        lane_round!($ror, $m, $w, t + 4, $e, $f, $g, $h, $a, $b, $c, $d);
        lane_round!($ror, $m, $w, t + 5, $d, $e, $f, $g, $h, $a, $b, $c);
        lane_round!($ror, $m, $w, t + 6, $c, $d, $e, $f, $g, $h, $a, $b);
        lane_round!($ror, $m, $w, t + 7, $b, $c, $d, $e, $f, $g, $h, $a);
    }};
}

/// The kernel body, for each instruction set: `$ror` rotates, `$m` holds
/// the three-input functions.
macro_rules! kernel {
    ($name:ident, $features:literal, $ror:ident, $m:ident) => {
        #[target_feature(enable = $features)]
        fn $name<const G: usize>(states: &mut [[[u64; 8]; 4]; G], blocks: &[[[u8; 128]; 4]; G]) {
            // Byte-swap each 64-bit word (the message is big-endian).
            let bswap = _mm256_set_epi64x(
                0x0809_0a0b_0c0d_0e0f,
                0x0001_0203_0405_0607,
                0x0809_0a0b_0c0d_0e0f,
                0x0001_0203_0405_0607,
            );
            let zero = _mm256_setzero_si256();
            let mut w = [[zero; G]; 16];
            // Words 4q..4q + 4 of each group's four blocks, transposed.
            for g in 0..G {
                for q in 0..4 {
                    let mut r = [zero; 4];
                    for (i, r) in r.iter_mut().enumerate() {
                        let p = blocks[g][i].as_ptr();
                        // SAFETY: each block is 128 readable bytes; 32 from
                        // 32 q, unaligned.
                        let v = unsafe { _mm256_loadu_si256(p.add(32 * q).cast()) };
                        *r = _mm256_shuffle_epi8(v, bswap);
                    }
                    for (j, t) in transpose(r).into_iter().enumerate() {
                        w[4 * q + j][g] = t;
                    }
                }
            }
            let mut init = [[zero; G]; 8];
            for g in 0..G {
                let mut lo = [zero; 4];
                let mut hi = [zero; 4];
                for i in 0..4 {
                    // SAFETY: each state is 64 readable bytes; two unaligned loads.
                    unsafe {
                        lo[i] = _mm256_loadu_si256(states[g][i].as_ptr().cast());
                        hi[i] = _mm256_loadu_si256(states[g][i].as_ptr().add(4).cast());
                    }
                }
                for (j, v) in transpose(lo).into_iter().chain(transpose(hi)).enumerate() {
                    init[j][g] = v;
                }
            }
            let [mut a, mut b, mut c, mut d, mut e, mut f, mut g_, mut h] = init;
            // Sixteen rounds per pass, so that the ring's indices are
            // constants.
            for r in 0..5 {
                eight_rounds!($ror, $m, w, 16 * r, a, b, c, d, e, f, g_, h);
                eight_rounds!($ror, $m, w, 16 * r + 8, a, b, c, d, e, f, g_, h);
            }
            let v = [a, b, c, d, e, f, g_, h];
            for g in 0..G {
                let sum: [__m256i; 8] = core::array::from_fn(|i| add(init[i][g], v[i][g]));
                let lo = transpose([sum[0], sum[1], sum[2], sum[3]]);
                let hi = transpose([sum[4], sum[5], sum[6], sum[7]]);
                for i in 0..4 {
                    // SAFETY: each state is 64 writable bytes; two unaligned stores.
                    unsafe {
                        _mm256_storeu_si256(states[g][i].as_mut_ptr().cast(), lo[i]);
                        _mm256_storeu_si256(states[g][i].as_mut_ptr().add(4).cast(), hi[i]);
                    }
                }
            }
            // The schedule held message words: wipe its stack copy.
            w = [[zero; G]; 16];
            core::hint::black_box(&mut w);
        }
    };
}

kernel!(compress_avx512, "avx2,avx512f,avx512vl", ror_vl, vl);
kernel!(compress_avx2, "avx2", ror_plain, plain);
