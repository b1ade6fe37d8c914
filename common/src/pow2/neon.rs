//! aarch64 NEON unpacking of Saber's 13- and 10-bit polynomials (and of
//! the 10- and 6-bit fields of GenSecret's stream): eight values per step
//! through the shared gather of the 16-bit engine
//! ([`crate::neon_i16::unpack8`]: `TBL`, `USHL`, mask, `UZP1`).
#![allow(unsafe_code)]

use super::Poly;

/// Unpack 256 `D`-bit values (`D` 6, 10 or 13; `bytes` exactly `32 D`
/// long, which the caller checked) into `out`. The input is copied into a
/// padded buffer (the last groups' 16-byte windows would run past it) and
/// wiped afterwards: GenSecret's stream is secret.
pub(super) fn unpack<const D: usize>(bytes: &[u8], out: &mut Poly) {
    let mut buf = [0u8; 32 * 13 + 16];
    let n = bytes.len().min(32 * D);
    buf[..n].copy_from_slice(&bytes[..n]);
    for (k, dst) in out.coeffs.as_chunks_mut::<8>().0.iter_mut().enumerate() {
        let window = buf[D * k..].first_chunk::<16>().unwrap_or(&[0; 16]);
        let v = crate::neon_i16::unpack8::<D>(window);
        // SAFETY: `dst` is 8 writable u16 (16 bytes); NEON is in the
        // build's baseline.
        unsafe { core::arch::aarch64::vst1q_u16(dst.as_mut_ptr(), v) };
    }
    crate::wipe::wipe(&mut buf);
}
