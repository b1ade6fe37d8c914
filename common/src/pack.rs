//! Little-endian bit packing of fixed-width coefficients.
//!
//! `pack_bits(d, coeffs, out)` writes the low `d` bits of each coefficient,
//! least significant bit first, one after another (FIPS 203 `ByteEncode_d`,
//! FIPS 204 `SimpleBitPack`, Saber's `POLT2BS`). Both functions stop at the
//! shorter of the two buffers and report how many coefficients they handled,
//! so no input length can make them panic.

/// Pack the low `d` bits (1..=32) of each coefficient into `out`. Returns
/// the number of coefficients fully written.
#[inline]
pub fn pack_bits(d: u32, coeffs: &[u32], out: &mut [u8]) -> usize {
    let d = d.clamp(1, 32);
    let mask = u64::MAX >> (64 - d);
    let mut acc: u64 = 0;
    let mut bits = 0u32;
    let mut out_iter = out.iter_mut();
    let mut written = 0usize;
    'outer: for &c in coeffs {
        acc |= (c as u64 & mask) << bits;
        bits += d;
        while bits >= 8 {
            match out_iter.next() {
                Some(o) => *o = acc as u8,
                None => break 'outer,
            }
            written += 1;
            acc >>= 8;
            bits -= 8;
        }
    }
    if bits > 0
        && written * 8 < coeffs.len() * d as usize
        && let Some(o) = out_iter.next()
    {
        *o = acc as u8;
        written += 1;
    }
    (written * 8 / d as usize).min(coeffs.len())
}

/// Unpack `d`-bit (1..=32) coefficients from `bytes` into `out`. Returns the
/// number of coefficients fully read.
#[inline]
pub fn unpack_bits(d: u32, bytes: &[u8], out: &mut [u32]) -> usize {
    let d = d.clamp(1, 32);
    let mask = u64::MAX >> (64 - d);
    let mut acc: u64 = 0;
    let mut bits = 0u32;
    let mut in_iter = bytes.iter();
    let mut done = 0;
    for o in out.iter_mut() {
        while bits < d {
            match in_iter.next() {
                Some(&b) => acc |= (b as u64) << bits,
                None => return done,
            }
            bits += 8;
        }
        *o = (acc & mask) as u32;
        acc >>= d;
        bits -= d;
        done += 1;
    }
    done
}

/// ByteEncode_d of 256 values into `32 d` bytes, for `d` in 1..=13: eight
/// values fill exactly `d` bytes, packed through one 128-bit word (no
/// per-byte loop). Values are masked to `d` bits. Returns `false` (and
/// writes nothing) if `d` is out of range or `out` is not `32 d` bytes.
#[inline]
pub fn pack256(d: u32, vals: &[u32; 256], out: &mut [u8]) -> bool {
    match d {
        1 => pack_groups::<1>(vals, out),
        3 => pack_groups::<3>(vals, out),
        4 => pack_groups::<4>(vals, out),
        5 => pack_groups::<5>(vals, out),
        10 => pack_groups::<10>(vals, out),
        11 => pack_groups::<11>(vals, out),
        6 => pack_groups::<6>(vals, out),
        12 => pack_groups::<12>(vals, out),
        13 => pack_groups::<13>(vals, out),
        2..=13 => out.len() == 32 * d as usize && pack_bits(d, vals, out) == 256,
        _ => false,
    }
}

/// ByteDecode_d of `32 d` bytes into 256 values, for `d` in 1..=13 (the
/// inverse of [`pack256`]). Returns `false` (and writes nothing) if `d` is
/// out of range or `bytes` is not `32 d` bytes.
#[inline]
pub fn unpack256(d: u32, bytes: &[u8], out: &mut [u32; 256]) -> bool {
    match d {
        1 => unpack_groups::<1>(bytes, out),
        3 => unpack_groups::<3>(bytes, out),
        4 => unpack_groups::<4>(bytes, out),
        5 => unpack_groups::<5>(bytes, out),
        10 => unpack_groups::<10>(bytes, out),
        11 => unpack_groups::<11>(bytes, out),
        6 => unpack_groups::<6>(bytes, out),
        12 => unpack_groups::<12>(bytes, out),
        13 => unpack_groups::<13>(bytes, out),
        2..=13 => bytes.len() == 32 * d as usize && unpack_bits(d, bytes, out) == 256,
        _ => false,
    }
}

/// Pack 8 values of `B` bits (low bits of each) into `B` bytes,
/// little-endian (`1 <= B <= 16`): ByteEncode's unit for every width that
/// fills whole bytes per 8 values. In 64-bit words, as
/// [`unpack_whole_group`] reads them: from `B > 8` on, the first eight
/// bytes and the last eight (which overlap them, with the same bits) are
/// each assembled in one register, with no 128-bit shift and no
/// byte-by-byte copy.
#[inline(always)]
/// The SIMD unpackers' gather of a group of eight `d`-bit values (`d`
/// bytes, value `i` at bits `d i .. d i + d`, as [`unpack_bits`] reads
/// them): 32-bit lane `i` takes the four bytes from byte `d i / 8`
/// (`PSHUFB`/`TBL` indices) and shifts right by `d i mod 8`; the bits
/// above the value are masked off afterwards. Four bytes hold every value
/// for `d <= 25`, and the indices stay below 16 for `d <= 13`.
// Only the AVX2 and NEON unpackers call it, and a build compiles them only
// with some of the families.
#[allow(dead_code)]
pub(crate) const fn gather8(d: usize) -> ([u8; 32], [u32; 8]) {
    let mut idx = [0u8; 32];
    let mut shift = [0u32; 8];
    let mut i = 0;
    while i < 8 {
        let bit = d * i;
        let mut k = 0;
        while k < 4 {
            idx[4 * i + k] = (bit / 8 + k) as u8;
            k += 1;
        }
        shift[i] = (bit % 8) as u32;
        i += 1;
    }
    (idx, shift)
}

pub(crate) fn pack_group<const B: usize>(vals: [u32; 8], out: &mut [u8; B]) {
    const { assert!(B >= 1 && B <= 16) };
    let mask = (1u64 << B) - 1;
    if B <= 8 {
        let w = vals
            .iter()
            .enumerate()
            .fold(0u64, |w, (i, &v)| w | (u64::from(v) & mask) << (B * i));
        out.copy_from_slice(&w.to_le_bytes()[..B]);
        return;
    }
    // `hi` holds bits 8 (B - 8) .. 8 B of the group; bits of `lo` past 64
    // (shifted out) are in `hi`.
    let base = 8 * (B - 8);
    let (mut lo, mut hi) = (0u64, 0u64);
    for (i, &v) in vals.iter().enumerate() {
        let (v, at) = (u64::from(v) & mask, B * i);
        if at < 64 {
            lo |= v << at;
        }
        if at + B > base {
            hi |= if at >= base {
                v << (at - base)
            } else {
                v >> (base - at)
            };
        }
    }
    out[B - 8..].copy_from_slice(&hi.to_le_bytes());
    out[..8].copy_from_slice(&lo.to_le_bytes());
}

/// Inverse of [`pack_group`] (bytes past `B`, or missing, read as zero).
#[inline(always)]
pub(crate) fn unpack_group<const B: usize>(bytes: &[u8]) -> [u32; 8] {
    if let Some(group) = bytes.first_chunk::<B>() {
        return unpack_whole_group(group);
    }
    unpack_group_u128::<B>(bytes)
}

/// [`unpack_group`] of a whole group in 64-bit words (`3 <= B <= 16`):
/// from `B >= 8` on, the values that cross bit 64 of the first eight bytes
/// come from the last eight (which overlap them), so no 128-bit shift
/// and no byte-by-byte copy is needed.
#[inline(always)]
fn unpack_whole_group<const B: usize>(group: &[u8; B]) -> [u32; 8] {
    let mask = (1u64 << B) - 1;
    if B < 8 {
        let mut buf = [0u8; 8];
        buf[..B].copy_from_slice(group);
        let w = u64::from_le_bytes(buf);
        return core::array::from_fn(|i| ((w >> (B * i)) & mask) as u32);
    }
    let word = |at: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&group[at..at + 8]);
        u64::from_le_bytes(b)
    };
    let (lo, hi) = (word(0), word(B - 8));
    // `hi` holds bits 8 (B - 8) .. 8 B of the group.
    let base = 8 * (B - 8);
    core::array::from_fn(|i| {
        let at = B * i;
        let v = if at + B <= 64 {
            lo >> at
        } else {
            hi >> (at - base)
        };
        (v & mask) as u32
    })
}

/// [`unpack_group`] through one 128-bit word (any `bytes`).
#[inline(always)]
fn unpack_group_u128<const B: usize>(bytes: &[u8]) -> [u32; 8] {
    let mut buf = [0u8; 16];
    for (d, s) in buf.iter_mut().zip(bytes.iter().take(B)) {
        *d = *s;
    }
    let acc = u128::from_le_bytes(buf);
    let mask = (1u128 << B) - 1;
    core::array::from_fn(|i| ((acc >> (B * i)) & mask) as u32)
}

#[inline]
fn pack_groups<const D: usize>(vals: &[u32; 256], out: &mut [u8]) -> bool {
    if out.len() != 32 * D {
        return false;
    }
    let (chunks, _) = out.as_chunks_mut::<D>();
    for (group, chunk) in vals.as_chunks::<8>().0.iter().zip(chunks) {
        pack_group::<D>(*group, chunk);
    }
    true
}

#[inline]
fn unpack_groups<const D: usize>(bytes: &[u8], out: &mut [u32; 256]) -> bool {
    if bytes.len() != 32 * D {
        return false;
    }
    let (chunks, _) = bytes.as_chunks::<D>();
    for (chunk, group) in chunks.iter().zip(out.as_chunks_mut::<8>().0.iter_mut()) {
        *group = unpack_group::<D>(chunk);
    }
    true
}

#[cfg(test)]
mod tests {
    /// Whole groups in 64-bit words, every width from 1 to 16 bits, on
    /// random values with bits above the width set: packing equals the
    /// generic bit packer (the extra bits masked off), and from 3 bits on
    /// (the widths it serves) unpacking those bytes equals the 128-bit
    /// path and gives the masked values back.
    #[test]
    fn whole_groups_match_the_generic_paths() {
        fn check<const B: usize>(x: &mut u64) {
            for _ in 0..200 {
                let vals: [u32; 8] = core::array::from_fn(|_| {
                    *x ^= *x << 13;
                    *x ^= *x >> 7;
                    *x ^= *x << 17;
                    *x as u32
                });
                let mut got = [0u8; B];
                pack_group::<B>(vals, &mut got);
                let masked = vals.map(|v| v & ((1 << B) - 1));
                let mut want = [0u8; B];
                assert_eq!(pack_bits(B as u32, &masked, &mut want), 8);
                assert_eq!(got, want, "pack, B = {B}");
                if B >= 3 {
                    assert_eq!(unpack_whole_group::<B>(&got), masked, "unpack, B = {B}");
                    assert_eq!(unpack_group_u128::<B>(&got), masked, "u128, B = {B}");
                }
            }
        }
        let mut x = 0x0123_4567_89ab_cdef_u64;
        check::<1>(&mut x);
        check::<2>(&mut x);
        check::<3>(&mut x);
        check::<4>(&mut x);
        check::<5>(&mut x);
        check::<6>(&mut x);
        check::<7>(&mut x);
        check::<8>(&mut x);
        check::<9>(&mut x);
        check::<10>(&mut x);
        check::<11>(&mut x);
        check::<12>(&mut x);
        check::<13>(&mut x);
        check::<14>(&mut x);
        check::<15>(&mut x);
        check::<16>(&mut x);
    }

    #[test]
    fn pack256_matches_the_generic_packer() {
        let mut x = 0x1234_5678_u32;
        for d in 1..=13u32 {
            let vals: [u32; 256] = core::array::from_fn(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                x & ((1 << d) - 1)
            });
            let mut a = [0u8; 417];
            let mut b = [0u8; 416];
            let len = 32 * d as usize;
            assert!(pack256(d, &vals, &mut a[..len]));
            assert_eq!(pack_bits(d, &vals, &mut b[..len]), 256);
            assert_eq!(a[..len], b[..len], "d = {d}");
            let mut back = [0u32; 256];
            assert!(unpack256(d, &a[..len], &mut back));
            assert_eq!(back, vals, "d = {d}");
            assert!(!pack256(d, &vals, &mut a[..len - 1]));
            assert!(!unpack256(d, &a[..len + 1], &mut back));
        }
        assert!(!pack256(0, &[0; 256], &mut []));
        assert!(!pack256(14, &[0; 256], &mut [0; 448]));
    }

    use super::*;

    #[test]
    fn round_trip_all_widths() {
        for d in 1..=32u32 {
            let mask = if d == 32 { u32::MAX } else { (1u32 << d) - 1 };
            let coeffs: [u32; 256] = core::array::from_fn(|i| {
                (i as u32).wrapping_mul(0x9E37_79B9).rotate_left(d) & mask
            });
            let mut buf = [0u8; 32 * 32];
            let len = (256 * d as usize) / 8;
            assert_eq!(pack_bits(d, &coeffs, &mut buf[..len]), 256);
            let mut back = [0u32; 256];
            assert_eq!(unpack_bits(d, &buf[..len], &mut back), 256);
            assert_eq!(back, coeffs, "d = {d}");
        }
    }

    #[test]
    fn known_layout_and_short_buffers() {
        // 4-bit nibbles, low nibble first (FIPS 203 ByteEncode_4).
        let mut out = [0u8; 2];
        assert_eq!(pack_bits(4, &[1, 2, 3, 4], &mut out), 4);
        assert_eq!(out, [0x21, 0x43]);
        // 12-bit: 0xabc, 0x123 -> bc 3a 12
        let mut out = [0u8; 3];
        pack_bits(12, &[0xabc, 0x123], &mut out);
        assert_eq!(out, [0xbc, 0x3a, 0x12]);
        // Too short an output: stops, reports.
        let mut out = [0u8; 1];
        assert_eq!(pack_bits(12, &[0xabc, 0x123], &mut out), 0);
        let mut back = [0u32; 4];
        assert_eq!(unpack_bits(12, &[0xbc, 0x3a, 0x12], &mut back), 2);
        assert_eq!(&back[..2], &[0xabc, 0x123]);
    }
}
