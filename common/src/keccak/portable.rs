//! Portable Keccak-f\[1600\]: the executable specification (FIPS 202 §3).

use super::StateX4;

pub(super) const RC: [u64; 24] = [
    0x0000_0000_0000_0001,
    0x0000_0000_0000_8082,
    0x8000_0000_0000_808A,
    0x8000_0000_8000_8000,
    0x0000_0000_0000_808B,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8009,
    0x0000_0000_0000_008A,
    0x0000_0000_0000_0088,
    0x0000_0000_8000_8009,
    0x0000_0000_8000_000A,
    0x0000_0000_8000_808B,
    0x8000_0000_0000_008B,
    0x8000_0000_0000_8089,
    0x8000_0000_0000_8003,
    0x8000_0000_0000_8002,
    0x8000_0000_0000_0080,
    0x0000_0000_0000_800A,
    0x8000_0000_8000_000A,
    0x8000_0000_8000_8081,
    0x8000_0000_0000_8080,
    0x0000_0000_8000_0001,
    0x8000_0000_8000_8008,
];

/// Rotation offsets r\[x + 5y\] (FIPS 202 Table 2), for the AVX2
/// permutation (unused on other targets).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) const RHO: [u32; 25] = [
    0, 1, 62, 28, 27, //
    36, 44, 6, 55, 20, //
    3, 10, 43, 25, 39, //
    41, 45, 15, 21, 8, //
    18, 2, 61, 56, 14,
];

/// Keccak-f\[1600\] on one state (lanes indexed `x + 5y`, FIPS 202 §3.2),
/// every lane a local (so the compiler keeps them in registers and has
/// nothing to vectorise; the other backends' kernels are checked against
/// it).
pub fn keccak_f1600(s: &mut [u64; 25]) {
    keccak_f1600_inline(s);
}

/// [`keccak_f1600`]'s body, inlined into its callers (the x86-64 backend
/// compiles it a second time with BMI1/BMI2 enabled).
#[inline(always)]
pub(super) fn keccak_f1600_inline(s: &mut [u64; 25]) {
    permute(s);
}

/// A Keccak lane: one `u64`, or the lanes of several instances side by
/// side in a vector (the WebAssembly SIMD backend's two-way permutation).
pub(super) trait Lane:
    Copy
    + core::ops::BitXor<Output = Self>
    + core::ops::BitAnd<Output = Self>
    + core::ops::Not<Output = Self>
{
    /// Rotate every instance's lane left by `n` (1..=63) bits.
    fn rotate_left(self, n: u32) -> Self;
    /// The round constant `c` in every instance.
    fn splat(c: u64) -> Self;
}

impl Lane for u64 {
    #[inline(always)]
    fn rotate_left(self, n: u32) -> Self {
        u64::rotate_left(self, n)
    }
    #[inline(always)]
    fn splat(c: u64) -> Self {
        c
    }
}

/// Keccak-f\[1600\] on the 25 lanes of `s` (every instance of a vector
/// lane type at once).
#[inline(always)]
#[allow(clippy::too_many_lines)]
pub(super) fn permute<L: Lane>(s: &mut [L; 25]) {
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
    // A static, not the const: iterating over a const array copies it to
    // the stack on every call (192 bytes through memcpy).
    static RC_TABLE: [u64; 24] = RC;
    for &rc in &RC_TABLE {
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
        a00 = b00 ^ (!b10 & b20) ^ L::splat(rc);
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

/// Keccak-f\[1600\] on the four interleaved instances of `state`.
pub fn keccak_f1600_x4(state: &mut StateX4) {
    for k in 0..4 {
        let mut a = state.instance(k);
        keccak_f1600(&mut a);
        state.set_instance(k, &a);
    }
}
