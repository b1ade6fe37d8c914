//! The compaction table of the SIMD rejection samplers: for each 8-bit
//! acceptance mask over eight 16-bit lanes, the byte shuffle that moves
//! the accepted lanes of 16 bytes to the front, in order; the other
//! indices are 0xff, which `pshufb` (bit 7 set), WebAssembly's
//! `i8x16.swizzle` and NEON's `TBL` (index above 15) turn into zero
//! bytes. Computed at compile time; the 16-bit samplers of every SIMD
//! backend share it.

/// See the module docs.
pub(crate) const fn compact16() -> [[u8; 16]; 256] {
    let mut t = [[0xffu8; 16]; 256];
    let mut m = 0;
    while m < 256 {
        let mut out = 0;
        let mut lane = 0;
        while lane < 8 {
            if (m >> lane) & 1 == 1 {
                t[m][2 * out] = 2 * lane as u8;
                t[m][2 * out + 1] = 2 * lane as u8 + 1;
                out += 1;
            }
            lane += 1;
        }
        m += 1;
    }
    t
}
