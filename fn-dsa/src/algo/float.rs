//! The floating-point type of signing: native `f64` (strict IEEE-754 on
//! x86_64 and aarch64) or [`Emu`], an integer-only emulation of the
//! IEEE-754 binary64 operations signing needs (addition, subtraction,
//! multiplication, division, all correctly rounded to nearest-even), so
//! that both give bit-identical results.
//!
//! The emulation is branch-free (masks, shifts, fixed-length loops). It
//! handles zeros and normal numbers; subnormal results are flushed to zero
//! and infinities/NaNs are not produced (signing never reaches them).

// On targets with native f64 the emulation is only used by the tests (and
// the `float-emu` feature).
#![cfg_attr(
    all(
        any(target_arch = "x86_64", target_arch = "aarch64"),
        not(feature = "float-emu"),
        not(test)
    ),
    allow(dead_code)
)]

use zeroize::DefaultIsZeroes;

/// The operations of signing, over native or emulated binary64.
pub(crate) trait Float: Copy + Default + DefaultIsZeroes + core::fmt::Debug {
    /// A compile-time `f64` constant (no run-time floating point for `Emu`).
    fn of(c: f64) -> Self;
    fn from_i64(v: i64) -> Self;
    fn to_bits(self) -> u64;
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    fn div(self, o: Self) -> Self;
    fn neg(self) -> Self;
    /// Correctly rounded square root of `self >= 0` (zero or normal).
    fn sqrt(self) -> Self;
    /// `self < o` as 0/1 (no jump).
    fn lt(self, o: Self) -> u64;
    /// `max(self, 0)` (negative values, including -0, give +0).
    fn max0(self) -> Self;
    fn from_bits(b: u64) -> Self;
}

impl Float for f64 {
    #[inline(always)]
    fn of(c: f64) -> Self {
        c
    }
    #[inline(always)]
    fn from_i64(v: i64) -> Self {
        v as f64
    }
    #[inline(always)]
    fn to_bits(self) -> u64 {
        f64::to_bits(self)
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        self + o
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        self - o
    }
    #[inline(always)]
    fn mul(self, o: Self) -> Self {
        self * o
    }
    #[inline(always)]
    fn div(self, o: Self) -> Self {
        self / o
    }
    #[inline(always)]
    fn neg(self) -> Self {
        -self
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        // The hardware instruction (IEEE-754 correctly rounded, no
        // data-dependent branch): SSE2 `sqrtsd` on x86_64, the standard
        // library's elsewhere; without either, the emulation's correctly
        // rounded result (the same value, computed with integers).
        #[cfg(target_arch = "x86_64")]
        {
            pqkit_common::float::sqrt_f64(self)
        }
        #[cfg(all(not(target_arch = "x86_64"), feature = "std"))]
        {
            extern crate std;
            f64::sqrt(self)
        }
        #[cfg(all(not(target_arch = "x86_64"), not(feature = "std")))]
        {
            f64::from_bits(Emu::sqrt_bits(self.to_bits()))
        }
    }
    #[inline(always)]
    fn lt(self, o: Self) -> u64 {
        (self < o) as u64
    }
    #[inline(always)]
    fn max0(self) -> Self {
        f64::from_bits(self.to_bits() & !(((self.to_bits() as i64) >> 63) as u64))
    }
    #[inline(always)]
    fn from_bits(b: u64) -> Self {
        f64::from_bits(b)
    }
}

/// Emulated binary64 (the IEEE-754 bit pattern in a `u64`).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Emu(pub(crate) u64);

impl DefaultIsZeroes for Emu {}

impl core::fmt::Debug for Emu {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Emu({:#018x})", self.0)
    }
}

/// All ones if `x != 0`. The optimisation barrier keeps the compiler from
/// turning the mask back into a conditional move.
#[inline(always)]
fn nz64(x: u64) -> u64 {
    core::hint::black_box(0u64.wrapping_sub((x | x.wrapping_neg()) >> 63))
}

/// Split into (sign, biased exponent, mantissa with the implicit bit);
/// a zero exponent field (zero or subnormal) is read as exponent 1 with
/// no implicit bit.
#[inline(always)]
fn unpack(x: u64) -> (u64, i32, u64) {
    let s = x >> 63;
    let ef = ((x >> 52) & 0x7FF) as i32;
    let normal = nz64(ef as u64);
    let m = (x & ((1u64 << 52) - 1)) | ((1u64 << 52) & normal);
    // ef == 0 -> 1
    let e = ef | ((!normal as i32) & 1);
    (s, e, m)
}

/// Pack `(-1)^s * m * 2^e` for `m` in `[2^54, 2^55)` whose lowest bit is
/// sticky, or `m = 0`, rounding to nearest-even. Results below the normal
/// range flush to (signed) zero.
#[inline(always)]
fn make(s: u64, e: i32, m: u64) -> u64 {
    // value = (m >> 2) * 2^(e + 2); biased exponent field = e + 1076 once
    // the implicit bit of (m >> 2) is added in.
    let ef = e + 1076;
    // Round up when the dropped bits (round, sticky) and the kept lsb are
    // 011, 110 or 111 (above half, or a tie with an odd lsb).
    let up = (0xC8u64 >> (m & 7)) & 1;
    let mag = ((ef as i64 as u64) << 52)
        .wrapping_add(m >> 2)
        .wrapping_add(up);
    // Zero mantissa or exponent underflow: signed zero.
    let keep = nz64(m) & nz64((ef > 0) as u64);
    (s << 63) | (mag & keep)
}

/// `(m >> sh) | sticky` for `sh < 128` on a u128.
#[inline(always)]
fn shr_sticky128(m: u128, sh: u32) -> u64 {
    let kept = (m >> sh) as u64;
    let lost = m & ((1u128 << sh) - 1);
    kept | (((lost | lost.wrapping_neg()) >> 127) as u64)
}

impl Emu {
    /// Correctly rounded sum.
    fn add_bits(x: u64, y: u64) -> u64 {
        // Order by magnitude: |x| >= |y|.
        let ax = x & !(1u64 << 63);
        let ay = y & !(1u64 << 63);
        // ax < ay from the borrow of ax - ay (both below 2^63).
        let swap = core::hint::black_box(0u64.wrapping_sub(ax.wrapping_sub(ay) >> 63));
        let d = (x ^ y) & swap;
        let (x, y) = (x ^ d, y ^ d);
        let (sx, ex, mx) = unpack(x);
        let (sy, ey, my) = unpack(y);
        // Three guard bits.
        let mx = mx << 3;
        let my = my << 3;
        // Align y (with sticky); cap the shift at 63 (y then only sticks).
        let sh = (ex - ey) as u32;
        let big = core::hint::black_box(0u32.wrapping_sub(((63i32 - sh as i32) >> 31) as u32 & 1));
        let sh = sh ^ ((sh ^ 63) & big);
        let lost = my & ((1u64 << sh) - 1);
        let my = (my >> sh) | (nz64(lost) & 1);
        // Add or subtract the magnitudes.
        let diff = core::hint::black_box(0u64.wrapping_sub(sx ^ sy));
        let m = mx.wrapping_add((my ^ diff).wrapping_sub(diff));
        // m < 2^57. Normalise to [2^55, 2^56): at most one right shift
        // (with sticky), or left shifts after a cancellation (exact).
        let over = m >> 56; // 0 or 1
        let m = (m >> over) | (m & over);
        let e = ex - 1078 + over as i32;
        let lz = m.leading_zeros() as i32; // 8 when normalised, 64 for 0
        let left = (lz - 8).clamp_branchless();
        let m = m << left;
        let e = e - left as i32;
        // To [2^54, 2^55) with sticky.
        let m = (m >> 1) | (m & 1);
        // Exact zero: +0 unless both inputs were -0.
        let zero = !nz64(m);
        let s = (sx & !zero) | (sx & sy & zero);
        make(s & 1, e + 1, m)
    }

    fn mul_bits(x: u64, y: u64) -> u64 {
        let (sx, ex, mx) = unpack(x);
        let (sy, ey, my) = unpack(y);
        let p = mx as u128 * my as u128; // [2^104, 2^106) for normal inputs
        let t = (p >> 105) as u32;
        let sh = 50 + t;
        let m = shr_sticky128(p, sh);
        let e = ex + ey - 2 * 1075 + sh as i32;
        make(sx ^ sy, e, m & nz64(mx) & nz64(my))
    }

    fn div_bits(x: u64, y: u64) -> u64 {
        let (sx, ex, mx) = unpack(x);
        let (sy, ey, my) = unpack(y);
        // q = floor(mx * 2^55 / my) in (2^54, 2^56), by restoring division.
        let mut r = mx as u128;
        let d = my as u128;
        let mut q = 0u64;
        for _ in 0..56 {
            // r < 2^55, d < 2^53: the borrow of r - d is its top bit.
            let ge = 1 - ((r.wrapping_sub(d) >> 127) as u64);
            let mask = core::hint::black_box(0u128.wrapping_sub(ge as u128));
            r -= d & mask;
            q = (q << 1) | ge;
            r <<= 1;
        }
        // The loop produced floor(mx * 2^55 / my) (the last shift is unused).
        let q = q | (((r | r.wrapping_neg()) >> 127) as u64);
        let t = (q >> 55) as u32;
        let m = (q >> t) | (q & t as u64);
        let e = ex - ey - 55 + t as i32;
        make(sx ^ sy, e, m & nz64(mx))
    }

    /// Correctly rounded square root of a non-negative (zero or normal)
    /// value: a fixed-length bit-by-bit integer square root.
    pub(crate) fn sqrt_bits(x: u64) -> u64 {
        let (_, e, m) = unpack(x);
        // x = m * 2^(e - 1075); make the exponent even by doubling m.
        let ex = e - 1075;
        let odd = (ex & 1) as u32;
        let m = m << odd; // [2^52, 2^54) (or 0)
        let ex = ex - odd as i32;
        // r = floor(sqrt(m * 2^54)) in [2^53, 2^54): 54 result bits, two
        // radicand bits per step.
        let big = (m as u128) << 54;
        let mut rem = 0u128;
        let mut root = 0u128;
        for i in (0..54).rev() {
            rem = (rem << 2) | ((big >> (2 * i)) & 3);
            let trial = (root << 2) | 1;
            // rem < 2^56 and trial < 2^56: the borrow of rem - trial is its
            // top bit.
            let ge = 1 - ((rem.wrapping_sub(trial) >> 127) as u64);
            let mask = core::hint::black_box(0u128.wrapping_sub(ge as u128));
            rem -= trial & mask;
            root = (root << 1) | ge as u128;
        }
        // One more (round) bit position and the sticky bit: sqrt(x) =
        // (2 root + sticky) * 2^((ex - 54) / 2 - 1).
        let sticky = ((rem | rem.wrapping_neg()) >> 127) as u64;
        let mo = ((root as u64) << 1) | sticky;
        make(0, (ex - 54) / 2 - 1, mo)
    }

    fn from_i64_bits(v: i64) -> u64 {
        let s = (v as u64) >> 63;
        let a = v.unsigned_abs();
        let lz = a.leading_zeros();
        // Bring the top bit to position 63 (a != 0), then to [2^54, 2^55).
        let n = a << (lz & 63);
        let m = (n >> 9) | nz64(n & 0x1FF) & 1;
        let e = 63 - lz as i32 - 54;
        make(s, e, m & nz64(a))
    }
}

trait ClampBranchless {
    fn clamp_branchless(self) -> u32;
}

impl ClampBranchless for i32 {
    /// `min(max(self, 0), 63)` as u32 without jumps.
    #[inline(always)]
    fn clamp_branchless(self) -> u32 {
        let v = self & !core::hint::black_box(self >> 31); // max(v, 0)
        let over = core::hint::black_box((63 - v) >> 31); // all ones if v > 63
        (v ^ ((v ^ 63) & over)) as u32
    }
}

impl Float for Emu {
    #[inline(always)]
    fn of(c: f64) -> Self {
        Emu(c.to_bits())
    }
    #[inline(always)]
    fn from_i64(v: i64) -> Self {
        Emu(Emu::from_i64_bits(v))
    }
    #[inline(always)]
    fn to_bits(self) -> u64 {
        self.0
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        Emu(Emu::add_bits(self.0, o.0))
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        Emu(Emu::add_bits(self.0, o.0 ^ (1u64 << 63)))
    }
    #[inline(always)]
    fn mul(self, o: Self) -> Self {
        Emu(Emu::mul_bits(self.0, o.0))
    }
    #[inline(always)]
    fn div(self, o: Self) -> Self {
        Emu(Emu::div_bits(self.0, o.0))
    }
    #[inline(always)]
    fn neg(self) -> Self {
        Emu(self.0 ^ (1u64 << 63))
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        Emu(Emu::sqrt_bits(self.0))
    }
    #[inline(always)]
    fn lt(self, o: Self) -> u64 {
        // Map the sign-magnitude bits to an order-preserving integer.
        let key = |b: u64| -> i128 {
            let m = ((b as i64) >> 63) as u64; // all ones if negative
            ((b & !(1u64 << 63)) ^ m).wrapping_sub(m) as i64 as i128
        };
        ((key(self.0) - key(o.0)) >> 127) as u64 & 1
    }
    #[inline(always)]
    fn max0(self) -> Self {
        Emu(self.0 & !core::hint::black_box(((self.0 as i64) >> 63) as u64))
    }
    #[inline(always)]
    fn from_bits(b: u64) -> Self {
        Emu(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values() -> std::vec::Vec<f64> {
        let mut v = std::vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            3.0,
            1e-10,
            -7.25,
            12289.0,
            1.0 / 3.0,
            2f64.powi(52),
            6755399441055744.0
        ];
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..3000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            // Exponents in a moderate range, random mantissas and signs.
            let e = 1023 - 40 + (s % 80);
            let bits = ((s >> 63) << 63) | (e << 52) | ((s >> 11) & ((1 << 52) - 1));
            v.push(f64::from_bits(bits));
        }
        v
    }

    #[test]
    fn emulation_is_bit_identical_to_native() {
        let v = values();
        for (i, &a) in v.iter().enumerate() {
            // Pair each value with a few others, including close ones
            // (cancellation) and itself.
            for &b in [
                v[(i * 7 + 3) % v.len()],
                v[(i * 13 + 1) % v.len()],
                a,
                -a,
                a * (1.0 + 1e-15),
                a * 0.5,
            ]
            .iter()
            {
                let (ea, eb) = (Emu::of(a), Emu::of(b));
                assert_eq!(ea.add(eb).0, (a + b).to_bits(), "{a:e} + {b:e}");
                assert_eq!(ea.sub(eb).0, (a - b).to_bits(), "{a:e} - {b:e}");
                assert_eq!(ea.mul(eb).0, (a * b).to_bits(), "{a:e} * {b:e}");
                if b != 0.0 {
                    assert_eq!(ea.div(eb).0, (a / b).to_bits(), "{a:e} / {b:e}");
                }
                assert_eq!(ea.lt(eb), (a < b) as u64, "{a:e} < {b:e}");
            }
            assert_eq!(Emu::of(a).max0().0, Float::max0(a).to_bits());
            let p = a.abs();
            assert_eq!(Emu::of(p).sqrt().0, p.sqrt().to_bits(), "sqrt {p:e}");
            assert_eq!(Float::sqrt(p).to_bits(), p.sqrt().to_bits(), "sqrt {p:e}");
        }
        // Close exponents (cancellation, carries) and exact ties.
        let mut t = 0x1234_5678_9ABC_DEF1u64;
        for _ in 0..20000 {
            t ^= t << 13;
            t ^= t >> 7;
            t ^= t << 17;
            let ea = 1000 + (t % 40);
            let a = f64::from_bits(((t >> 62) << 63) | (ea << 52) | ((t >> 5) & ((1 << 52) - 1)));
            let eb = ea - ((t >> 20) % 4);
            let b = f64::from_bits(
                ((t >> 61 & 1) << 63) | (eb << 52) | ((t >> 8).rotate_left(17) & ((1 << 52) - 1)),
            );
            let (x, y) = (Emu::of(a), Emu::of(b));
            assert_eq!(x.add(y).0, (a + b).to_bits(), "{a:e} + {b:e}");
            assert_eq!(x.sub(y).0, (a - b).to_bits(), "{a:e} - {b:e}");
            assert_eq!(x.mul(y).0, (a * b).to_bits(), "{a:e} * {b:e}");
            assert_eq!(x.div(y).0, (a / b).to_bits(), "{a:e} / {b:e}");
        }
        let tie = f64::from_bits(0x3CA0_0000_0000_0000); // 2^-53
        for a in [1.0, 1.0 + 2.0 * tie, -1.0, 3.0] {
            for b in [tie, -tie, 3.0 * tie, tie * 0.5] {
                assert_eq!(
                    Emu::of(a).add(Emu::of(b)).0,
                    (a + b).to_bits(),
                    "{a:e} + {b:e}"
                );
            }
        }
        for x in [
            0i64,
            1,
            -1,
            12289,
            -6144,
            1 << 40,
            -(1 << 52),
            123456789012345,
            i64::from(i32::MAX),
            (1 << 53) + 1,
        ] {
            assert_eq!(Emu::from_i64(x).0, (x as f64).to_bits(), "{x}");
        }
    }
}
