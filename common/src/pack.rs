//! Little-endian bit packing of fixed-width coefficients.
//!
//! `pack_bits(d, coeffs, out)` writes the low `d` bits of each coefficient,
//! least significant bit first, one after another (FIPS 203 `ByteEncode_d`,
//! FIPS 204 `SimpleBitPack`, Saber's `POLT2BS`). Both functions stop at the
//! shorter of the two buffers and report how many coefficients they handled,
//! so no input length can make them panic.

/// Pack the low `d` bits (1..=32) of each coefficient into `out`. Returns
/// the number of coefficients fully written.
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

#[cfg(test)]
mod tests {
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
