//! FIPS 204 bit packing of single polynomials (SimpleBitPack / BitPack,
//! Alg. 16-19). Each function handles exactly one polynomial; the byte
//! slices must have the stated length (shorter slices are filled or read
//! only partially, never a panic). The unpacking functions of
//! secret-key parts also report whether every coefficient was in range.

use super::{Eta, Gamma2, N, Poly};
use crate::pack::{pack_group, unpack_group};

/// Bytes of a packed t1 polynomial (10 bits per coefficient).
pub const T1_BYTES: usize = 320;
/// Bytes of a packed t0 polynomial (13 bits per coefficient).
pub const T0_BYTES: usize = 416;

/// Bytes of a packed eta polynomial: 96 (eta = 2) or 128 (eta = 4).
pub const fn eta_bytes(eta: Eta) -> usize {
    match eta {
        Eta::Two => 96,
        Eta::Four => 128,
    }
}

/// Bytes of a packed z polynomial: 576 (gamma1 = 2^17) or 640 (2^19).
pub const fn z_bytes(gamma1_bits: u32) -> usize {
    32 * (gamma1_bits as usize + 1)
}

/// Bytes of a packed w1 polynomial: 192 (gamma2 = (q-1)/88) or 128.
pub const fn w1_bytes(gamma2: Gamma2) -> usize {
    match gamma2 {
        Gamma2::Q88 => 192,
        Gamma2::Q32 => 128,
    }
}

/// Pack 8 coefficients of `bits` bits (values already in `0..2^bits`).
#[inline(always)]
fn pack8(vals: &[u32], bits: u32, out: &mut [u8]) {
    let mut acc: u64 = 0;
    let mut nbits = 0;
    let mut o = 0;
    for &v in vals {
        acc |= (v as u64) << nbits;
        nbits += bits;
        while nbits >= 8 {
            if let Some(b) = out.get_mut(o) {
                *b = acc as u8;
            }
            o += 1;
            acc >>= 8;
            nbits -= 8;
        }
    }
}

/// Unpack 8 coefficients of `bits` bits.
#[inline(always)]
fn unpack8(bytes: &[u8], bits: u32) -> [u32; 8] {
    let mut acc: u64 = 0;
    let mut nbits = 0;
    let mut out = [0u32; 8];
    let mut it = bytes.iter();
    let mask = (1u64 << bits) - 1;
    for o in out.iter_mut() {
        while nbits < bits {
            acc |= (*it.next().unwrap_or(&0) as u64) << nbits;
            nbits += 8;
        }
        *o = (acc & mask) as u32;
        acc >>= bits;
        nbits -= bits;
    }
    out
}

/// `f` of each of eight coefficients (a plain loop: `array::from_fn`
/// costs every instantiation its own copy of the core machinery, which
/// showed in common's build time).
#[inline(always)]
fn map8(cs: &[i32; 8], f: &impl Fn(i32) -> u32) -> [u32; 8] {
    let mut v = [0u32; 8];
    for (x, &c) in v.iter_mut().zip(cs) {
        *x = f(c);
    }
    v
}

#[inline(always)]
fn pack_const<const B: usize>(a: &Poly, out: &mut [u8], f: impl Fn(i32) -> u32) {
    let (full, rest) = out.as_chunks_mut::<B>();
    let groups = a.coeffs.as_chunks::<8>().0;
    for (cs, o) in groups.iter().zip(full.iter_mut()) {
        pack_group::<B>(map8(cs, &f), o);
    }
    // A short `out` (never from this crate's callers): its partial group.
    if let Some(cs) = groups.get(full.len())
        && !rest.is_empty()
    {
        let mut last = [0u8; B];
        pack_group::<B>(map8(cs, &f), &mut last);
        for (o, b) in rest.iter_mut().zip(&last) {
            *o = *b;
        }
    }
}

#[inline(always)]
fn unpack_const<const B: usize>(bytes: &[u8], a: &mut Poly, f: impl Fn(u32) -> i32) {
    let (full, rest) = bytes.as_chunks::<B>();
    let groups = a.coeffs.as_chunks_mut::<8>().0;
    let n = full.len();
    for (cs, b) in groups.iter_mut().zip(full) {
        for (c, x) in cs.iter_mut().zip(unpack_group::<B>(b)) {
            *c = f(x);
        }
    }
    // A short input (never from this crate's callers): its partial group.
    if let Some(cs) = groups.get_mut(n)
        && !rest.is_empty()
    {
        for (c, x) in cs.iter_mut().zip(unpack_group::<B>(rest)) {
            *c = f(x);
        }
    }
}

/// Generic: coefficient `c` is encoded as `f(c)` on `bits` bits (the
/// widths FIPS 204 uses up to 13 bits go through [`pack_group`]).
#[inline(always)]
fn pack_with(a: &Poly, bits: u32, out: &mut [u8], f: impl Fn(i32) -> u32) {
    match bits {
        3 => pack_const::<3>(a, out, f),
        4 => pack_const::<4>(a, out, f),
        6 => pack_const::<6>(a, out, f),
        10 => pack_const::<10>(a, out, f),
        13 => pack_const::<13>(a, out, f),
        _ => {
            for (cs, o) in a
                .coeffs
                .as_chunks::<8>()
                .0
                .iter()
                .zip(out.chunks_mut(bits as usize))
            {
                pack8(&map8(cs, &f), bits, o);
            }
        }
    }
}

#[inline(always)]
fn unpack_with(bytes: &[u8], bits: u32, a: &mut Poly, f: impl Fn(u32) -> i32) {
    match bits {
        10 => unpack_const::<10>(bytes, a, f),
        13 => unpack_const::<13>(bytes, a, f),
        _ => {
            for (cs, b) in a
                .coeffs
                .chunks_exact_mut(8)
                .zip(bytes.chunks(bits as usize))
            {
                let v = unpack8(b, bits);
                for (c, x) in cs.iter_mut().zip(v) {
                    *c = f(x);
                }
            }
        }
    }
}

/// SimpleBitPack(t1, 2^10 - 1): coefficients in `0..1024`.
pub fn pack_t1(a: &Poly, out: &mut [u8]) {
    pack_with(a, 10, out, |c| c as u32 & 0x3ff);
}

/// Inverse of [`pack_t1`] (every 10-bit value is valid).
pub fn unpack_t1(bytes: &[u8], a: &mut Poly) {
    unpack_with(bytes, 10, a, |x| x as i32);
}

/// BitPack(t0, 2^12 - 1, 2^12): coefficients in `(-2^12, 2^12]`.
pub fn pack_t0(a: &Poly, out: &mut [u8]) {
    pack_with(a, 13, out, |c| ((1 << 12) - c) as u32 & 0x1fff);
}

/// Inverse of [`pack_t0`]: coefficients in `[-2^12 + 1, 2^12]`; every
/// 13-bit code is valid.
#[inline]
pub fn unpack_t0(bytes: &[u8], a: &mut Poly) {
    unpack_with(bytes, 13, a, |x| (1 << 12) - x as i32);
}

/// BitPack(s, eta, eta): coefficients in `[-eta, eta]`.
pub fn pack_eta(eta: Eta, a: &Poly, out: &mut [u8]) {
    let e = eta.value();
    let bits = match eta {
        Eta::Two => 3,
        Eta::Four => 4,
    };
    pack_with(a, bits, out, |c| (e - c) as u32 & ((1 << bits) - 1));
}

/// Inverse of [`pack_eta`]. Returns `false` if a coefficient lies outside
/// `[-eta, eta]` (a code above `2 eta`).
///
/// A whole encoding goes through one loop per width, free of branches,
/// which the compiler vectorises: two 4-bit codes per byte (eta = 4), or
/// eight 3-bit codes per three bytes (eta = 2). The group-at-a-time form
/// (still used for a short input) is several times slower per polynomial,
/// and a key's first signature and signing from key bytes unpack `k` or
/// `k + l` of them.
#[inline]
pub fn unpack_eta(eta: Eta, bytes: &[u8], a: &mut Poly) -> bool {
    let e = eta.value();
    let mut bad = 0u32;
    match eta {
        Eta::Four if bytes.len() >= eta_bytes(eta) => {
            for (pair, &b) in a.coeffs.as_chunks_mut::<2>().0.iter_mut().zip(bytes) {
                let (lo, hi) = (u32::from(b & 15), u32::from(b >> 4));
                // A code above 8 = 2 eta wraps the subtraction.
                bad |= (8u32.wrapping_sub(lo) | 8u32.wrapping_sub(hi)) >> 31;
                *pair = [e - lo as i32, e - hi as i32];
            }
        }
        Eta::Two if bytes.len() >= eta_bytes(eta) => {
            let groups = a.coeffs.as_chunks_mut::<8>().0;
            for (cs, b) in groups.iter_mut().zip(bytes.as_chunks::<3>().0) {
                let w = u32::from(b[0]) | (u32::from(b[1]) << 8) | (u32::from(b[2]) << 16);
                for (i, c) in cs.iter_mut().enumerate() {
                    let x = (w >> (3 * i)) & 7;
                    bad |= 4u32.wrapping_sub(x) >> 31;
                    *c = e - x as i32;
                }
            }
        }
        // A short input (never from this crate's callers).
        _ => {
            let bits = match eta {
                Eta::Two => 3,
                Eta::Four => 4,
            };
            for (cs, b) in a
                .coeffs
                .chunks_exact_mut(8)
                .zip(bytes.chunks(bits as usize))
            {
                let vals = match eta {
                    Eta::Two => unpack_group::<3>(b),
                    Eta::Four => unpack_group::<4>(b),
                };
                for (c, x) in cs.iter_mut().zip(vals) {
                    bad |= (((2 * e) as u32).wrapping_sub(x) >> 31) & 1;
                    *c = e - x as i32;
                }
            }
        }
    }
    bad == 0
}

/// BitPack(z, gamma1 - 1, gamma1) with `gamma1 = 2^gamma1_bits` (17 or 19).
///
/// The two widths go four (18 bits) or two (20 bits) coefficients per
/// 64-bit word, as [`unpack_z`] reads them; a generic packer moves one
/// byte at a time, a visible share of signing from key bytes.
pub fn pack_z(gamma1_bits: u32, a: &Poly, out: &mut [u8]) {
    let g = 1i32 << gamma1_bits;
    let bits = gamma1_bits + 1;
    let code = |c: i32| u64::from((g - c) as u32 & ((1 << bits) - 1));
    let whole = out.len() >= z_bytes(gamma1_bits);
    match gamma1_bits {
        17 if whole => {
            for (cs, o) in a
                .coeffs
                .as_chunks::<4>()
                .0
                .iter()
                .zip(out.as_chunks_mut::<9>().0)
            {
                let c3 = code(cs[3]);
                let lo = code(cs[0]) | code(cs[1]) << 18 | code(cs[2]) << 36 | c3 << 54;
                o[..8].copy_from_slice(&lo.to_le_bytes());
                o[8] = (c3 >> 10) as u8;
            }
        }
        19 if whole => {
            for (cs, o) in a
                .coeffs
                .as_chunks::<2>()
                .0
                .iter()
                .zip(out.as_chunks_mut::<5>().0)
            {
                let v = code(cs[0]) | code(cs[1]) << 20;
                o.copy_from_slice(&v.to_le_bytes()[..5]);
            }
        }
        _ => pack_with(a, bits, out, |c| code(c) as u32),
    }
}

/// Inverse of [`pack_z`] (also ExpandMask's BitUnpack): coefficients in
/// `(-gamma1, gamma1]`; every code is valid.
pub fn unpack_z(gamma1_bits: u32, bytes: &[u8], a: &mut Poly) {
    let g = 1i32 << gamma1_bits;
    match gamma1_bits {
        // 18 bits: 4 coefficients per 9 bytes.
        17 => {
            for (cs, b) in a
                .coeffs
                .as_chunks_mut::<4>()
                .0
                .iter_mut()
                .zip(bytes.as_chunks::<9>().0)
            {
                let lo = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
                let hi = b[8] as u64;
                let m = (1u64 << 18) - 1;
                cs[0] = g - (lo & m) as i32;
                cs[1] = g - ((lo >> 18) & m) as i32;
                cs[2] = g - ((lo >> 36) & m) as i32;
                cs[3] = g - (((lo >> 54) | (hi << 10)) & m) as i32;
            }
        }
        // 20 bits: 2 coefficients per 5 bytes.
        19 => {
            for (cs, b) in a
                .coeffs
                .as_chunks_mut::<2>()
                .0
                .iter_mut()
                .zip(bytes.as_chunks::<5>().0)
            {
                let v = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], 0, 0, 0]);
                cs[0] = g - (v & 0xf_ffff) as i32;
                cs[1] = g - (v >> 20) as i32;
            }
        }
        _ => unpack_with(bytes, gamma1_bits + 1, a, |x| g - x as i32),
    }
}

/// SimpleBitPack(w1, (q-1)/(2 gamma2) - 1): 6 bits (gamma2 = (q-1)/88) or
/// 4 bits per coefficient.
pub fn pack_w1(gamma2: Gamma2, a: &Poly, out: &mut [u8]) {
    let bits = match gamma2 {
        Gamma2::Q88 => 6,
        Gamma2::Q32 => 4,
    };
    pack_with(a, bits, out, |c| c as u32 & ((1 << bits) - 1));
}

/// Number of coefficients of a polynomial (for callers sizing buffers).
pub const COEFFS: usize = N;
