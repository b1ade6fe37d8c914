//! Constant-time helpers.
//!
//! Comparisons and selections on secret data go through [`subtle`]. The
//! helpers here cover the slice-level operations the schemes need. Lengths
//! are always public; contents never steer a branch or an address.

pub use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};

/// `a == b` in constant time over the contents. Slices of different
/// lengths compare unequal (lengths are public).
///
/// The differences are OR-ed together eight bytes at a time with no early
/// exit, and only the final word becomes a [`Choice`] (subtle's slice
/// `ct_eq` passes every byte through its optimisation barrier, a cost
/// that shows on a ciphertext-sized input).
#[inline]
pub fn ct_eq(a: &[u8], b: &[u8]) -> Choice {
    if a.len() != b.len() {
        return Choice::from(0);
    }
    let (ac, ar) = a.as_chunks::<8>();
    let (bc, br) = b.as_chunks::<8>();
    let mut acc = 0u64;
    for (x, y) in ac.iter().zip(bc) {
        acc |= u64::from_le_bytes(*x) ^ u64::from_le_bytes(*y);
    }
    for (x, y) in ar.iter().zip(br) {
        acc |= u64::from(x ^ y);
    }
    // 1 iff acc == 0, without a branch.
    let nonzero = ((acc | acc.wrapping_neg()) >> 63) as u8;
    Choice::from(1 ^ nonzero)
}

/// `dst = if cond { src } else { dst }`, byte by byte, in constant time
/// (one mask for the whole slice). Only the common prefix is touched when
/// the lengths differ.
#[inline]
pub fn ct_select_into(dst: &mut [u8], src: &[u8], cond: Choice) {
    let mask = 0u8.wrapping_sub(cond.unwrap_u8());
    for (d, s) in dst.iter_mut().zip(src) {
        *d ^= mask & (*d ^ *s);
    }
}

/// All ones if `x != 0`, else zero, without a branch.
#[inline]
pub fn nonzero_mask_u32(x: u32) -> u32 {
    // (x | -x) has its top bit set iff x != 0.
    let t = x | x.wrapping_neg();
    0u32.wrapping_sub(t >> 31)
}

/// All ones if `x < 0`, else zero, without a branch.
#[inline]
pub fn negative_mask_i32(x: i32) -> i32 {
    x >> 31
}

/// All ones if `a < b` (unsigned), else zero, without a branch.
#[inline]
pub fn lt_mask_u32(a: u32, b: u32) -> u32 {
    let d = (a as u64).wrapping_sub(b as u64);
    0u32.wrapping_sub((d >> 63) as u32)
}

/// Mark `value` as public: under the `ct-check` feature this tells valgrind
/// that its bytes no longer carry secret taint; otherwise it is the identity.
///
/// Every call site must say why the value is public (for example: FIPS 204
/// publishes the rejection decision through the signing time).
#[inline]
pub fn declassify<T: Copy>(value: T) -> T {
    #[cfg(feature = "ct-check")]
    {
        let mut v = value;
        crate::ctgrind::unpoison(&mut v);
        v
    }
    #[cfg(not(feature = "ct-check"))]
    {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(nonzero_mask_u32(0), 0);
        assert_eq!(nonzero_mask_u32(1), u32::MAX);
        assert_eq!(nonzero_mask_u32(u32::MAX), u32::MAX);
        assert_eq!(negative_mask_i32(-5), -1);
        assert_eq!(negative_mask_i32(5), 0);
        assert_eq!(lt_mask_u32(3, 4), u32::MAX);
        assert_eq!(lt_mask_u32(4, 4), 0);
        assert_eq!(lt_mask_u32(0, u32::MAX), u32::MAX);
        assert_eq!(lt_mask_u32(u32::MAX, 0), 0);
    }

    #[test]
    fn eq_and_select() {
        assert!(bool::from(ct_eq(b"abc", b"abc")));
        assert!(!bool::from(ct_eq(b"abc", b"abd")));
        assert!(!bool::from(ct_eq(b"abc", b"ab")));
        // Every single-bit difference, at every position of a long slice.
        let a: [u8; 37] = core::array::from_fn(|i| i as u8);
        assert!(bool::from(ct_eq(&a, &a)));
        for i in 0..a.len() {
            for bit in 0..8 {
                let mut b = a;
                b[i] ^= 1 << bit;
                assert!(!bool::from(ct_eq(&a, &b)), "{i} {bit}");
            }
        }
        let mut d = [1u8, 2, 3];
        ct_select_into(&mut d, &[7, 8, 9], Choice::from(0));
        assert_eq!(d, [1, 2, 3]);
        ct_select_into(&mut d, &[7, 8, 9], Choice::from(1));
        assert_eq!(d, [7, 8, 9]);
        let mut d = *b"xxxx";
        ct_select_into(&mut d, b"abcd", Choice::from(0));
        assert_eq!(&d, b"xxxx");
        ct_select_into(&mut d, b"abcd", Choice::from(1));
        assert_eq!(&d, b"abcd");
    }
}
