//! Encodings and hashing: everything FIPS 206 may change, in one module.
//!
//! This module follows the pre-standard design of the `fn-dsa` 0.3 crate
//! (itself Falcon round 3 with FN-DSA-style domain separation):
//!
//! * verifying key: header `0x00 + logn`, then `h` as 14-bit big-endian
//!   packed values in `[0, q)`;
//! * signing key: header `0x50 + logn`, then `f` and `g` "trimmed" with
//!   5 (logn 10), 6 (logn 8..9), 7 (logn 6..7) or 8 (logn 2..5) bits per
//!   coefficient, then `F` with 8 bits per coefficient (two's complement,
//!   most significant bit first; the value `-2^(bits-1)` is forbidden);
//!   `G` is not stored, it is recomputed as `g*F/f mod q`;
//! * signature: header `0x30 + logn`, 40-byte nonce, then `s2` in the
//!   compressed (Golomb-Rice) format of the Falcon specification
//!   (section 3.11.2), padded with zero bytes to a fixed size
//!   (666 bytes for logn 9, 1280 for logn 10). Original round-3 Falcon
//!   signatures use the same header and layout but are variable-length;
//!   see [`SigFormat`].
//! * hashing to the point (`hash_to_point`): SHAKE256 over
//!   `nonce || hpk || 0x00 || len(ctx) || ctx || message` (raw),
//!   `nonce || hpk || 0x01 || len(ctx) || ctx || OID || digest`
//!   (pre-hashed), or `nonce || message` (original Falcon), where `hpk` is
//!   the 64-byte SHAKE256 of the encoded verifying key.
//!
//! Every decoder accepts only the unique canonical encoding of its value
//! and returns a typed [`Error`] otherwise.

use crate::Error;
pub use crate::message::Message;
pub(crate) use crate::message::{hash_to_point, hash_verifying_key};

/// Smallest degree (log2) accepted by the toy API.
pub const LOGN_MIN: u32 = 2;
/// Largest degree (log2).
pub const LOGN_MAX: u32 = 10;

/// Length of the signature nonce.
pub const NONCE_LEN: usize = 40;

/// Length of `hpk`, the hash of the encoded verifying key.
pub const HPK_LEN: usize = 64;

/// Bits per coefficient of `f` and `g` in an encoded signing key.
pub const fn fg_bits(logn: u32) -> u32 {
    match logn {
        0..=5 => 8,
        6..=7 => 7,
        8..=9 => 6,
        _ => 5,
    }
}

/// Size in bytes of an encoded signing key of degree `2^logn`
/// (`2 <= logn <= 10`): 1281 for logn 9, 2305 for logn 10.
pub const fn signing_key_size(logn: u32) -> usize {
    let n = 1usize << logn;
    1 + 2 * ((n * fg_bits(logn) as usize) / 8) + n
}

/// Size in bytes of an encoded verifying key of degree `2^logn`
/// (`2 <= logn <= 10`): 897 for logn 9, 1793 for logn 10.
pub const fn verifying_key_size(logn: u32) -> usize {
    1 + (14usize << logn) / 8
}

/// Fixed size in bytes of an (FN-DSA, padded) signature of degree `2^logn`
/// (`2 <= logn <= 10`): 666 for logn 9, 1280 for logn 10 (the sizes of
/// the `fn-dsa` 0.3 design; the toy sizes follow the same design).
pub const fn signature_size(logn: u32) -> usize {
    match logn {
        2 => 47,
        3 => 52,
        4 => 63,
        5 => 82,
        6 => 122,
        7 => 200,
        8 => 356,
        9 => 666,
        _ => 1280,
    }
}

/// Largest accepted length of a variable-length (round-3) signature:
/// header, nonce, and at most 24 bits per coefficient.
pub const fn signature_max_size_round3(logn: u32) -> usize {
    1 + NONCE_LEN + (3usize << logn)
}

/// Read the `logn` of a header byte `base + logn`, checking the range.
fn header_logn(head: u8, base: u8, logn_min: u32, logn_max: u32) -> Result<u32, Error> {
    if head & 0xF0 != base {
        return Err(Error::InvalidHeader);
    }
    let logn = (head & 0x0F) as u32;
    if logn < logn_min || logn > logn_max {
        return Err(Error::UnsupportedDegree);
    }
    Ok(logn)
}

// ---------------------------------------------------------------------------
// Verifying key: 14-bit packing of h.

#[cfg(feature = "alloc")]
/// Encode `h` (canonical values, in `[0, q)`, length `2^logn`) as a
/// verifying key. `out` must have length [`verifying_key_size`]`(logn)`.
pub(crate) fn encode_verifying_key(logn: u32, h: &[i16], out: &mut [u8]) {
    out[0] = logn as u8;
    let mut acc = 0u32;
    let mut bits = 0;
    let mut j = 1;
    for &x in h {
        acc = (acc << 14) | (x as u16 & 0x3FFF) as u32;
        bits += 14;
        while bits >= 8 {
            bits -= 8;
            out[j] = (acc >> bits) as u8;
            j += 1;
        }
    }
}

/// Decode a verifying key into `h` (canonical values, in `[0, q)`; length
/// at least `2^logn`); returns logn.
pub(crate) fn decode_verifying_key(
    src: &[u8],
    logn_min: u32,
    logn_max: u32,
    h: &mut [i16],
) -> Result<u32, Error> {
    let head = *src.first().ok_or(Error::InvalidLength)?;
    let logn = header_logn(head, 0x00, logn_min, logn_max)?;
    if src.len() != verifying_key_size(logn) {
        return Err(Error::InvalidLength);
    }
    let n = 1usize << logn;
    let mut acc = 0u32;
    let mut bits = 0;
    let mut i = 0;
    for &b in &src[1..] {
        acc = (acc << 8) | b as u32;
        bits += 8;
        if bits >= 14 {
            bits -= 14;
            let v = (acc >> bits) & 0x3FFF;
            if v >= crate::algo::ring::Q as u32 {
                return Err(Error::NonCanonical);
            }
            h[i] = v as i16;
            i += 1;
        }
    }
    // 14 * n is a multiple of 8 for n >= 4: no spare bits.
    debug_assert!(i == n && bits == 0);
    Ok(logn)
}

// ---------------------------------------------------------------------------
// Signing key: trimmed two's complement of f, g, F.

#[cfg(feature = "alloc")]
fn trim_encode(v: &[i8], nbits: u32, out: &mut [u8]) -> usize {
    let mask = (1u32 << nbits) - 1;
    let mut acc = 0u32;
    let mut bits = 0;
    let mut j = 0;
    for &x in v {
        acc = (acc << nbits) | (x as u8 as u32 & mask);
        bits += nbits;
        while bits >= 8 {
            bits -= 8;
            out[j] = (acc >> bits) as u8;
            j += 1;
        }
    }
    j
}

#[cfg(feature = "alloc")]
/// Decode `out.len()` values of `nbits` bits; returns the bytes read.
/// Constant-time in the (secret) values: the forbidden code is detected
/// with masks and reported once at the end.
fn trim_decode(src: &[u8], nbits: u32, out: &mut [i8]) -> Result<usize, Error> {
    let need = (out.len() * nbits as usize).div_ceil(8);
    let src = src.get(..need).ok_or(Error::InvalidLength)?;
    let mask = (1u32 << nbits) - 1;
    let top = 1u32 << (nbits - 1);
    let mut bad = 0u32;
    let mut acc = 0u32;
    let mut bits = 0;
    let mut vals = out.iter_mut();
    for &b in src {
        acc = (acc << 8) | b as u32;
        bits += 8;
        while bits >= nbits {
            bits -= nbits;
            let w = (acc >> bits) & mask;
            // w == top is -2^(nbits-1): forbidden.
            bad |= ((w ^ top).wrapping_sub(1)) >> 31;
            let s = (w | (w & top).wrapping_neg()) as i32;
            if let Some(slot) = vals.next() {
                *slot = s as i8;
            }
        }
    }
    // For the supported degrees n * nbits is a multiple of 8.
    bad |= acc & ((1u32 << bits) - 1);
    if pqkit_common::ct::declassify(bad) != 0 {
        // Whether a key decodes is public.
        return Err(Error::NonCanonical);
    }
    Ok(need)
}

#[cfg(feature = "alloc")]
/// Encode a signing key (`f`, `g`, `F` of length `2^logn`). `out` must
/// have length [`signing_key_size`]`(logn)`.
pub(crate) fn encode_signing_key(logn: u32, f: &[i8], g: &[i8], cap_f: &[i8], out: &mut [u8]) {
    out[0] = 0x50 + logn as u8;
    let nb = fg_bits(logn);
    let mut j = 1;
    j += trim_encode(f, nb, &mut out[j..]);
    j += trim_encode(g, nb, &mut out[j..]);
    j += trim_encode(cap_f, 8, &mut out[j..]);
    debug_assert_eq!(j, out.len());
}

#[cfg(feature = "alloc")]
/// Decode a signing key into `f`, `g`, `F` (each of length `2^logn`);
/// returns logn. The caller then recomputes `G` and checks it.
pub(crate) fn decode_signing_key(
    src: &[u8],
    logn_min: u32,
    logn_max: u32,
    f: &mut [i8],
    g: &mut [i8],
    cap_f: &mut [i8],
) -> Result<u32, Error> {
    let head = *src.first().ok_or(Error::InvalidLength)?;
    let logn = header_logn(head, 0x50, logn_min, logn_max)?;
    if src.len() != signing_key_size(logn) {
        return Err(Error::InvalidLength);
    }
    let n = 1usize << logn;
    let nb = fg_bits(logn);
    let mut j = 1;
    j += trim_decode(&src[j..], nb, &mut f[..n])?;
    j += trim_decode(&src[j..], nb, &mut g[..n])?;
    j += trim_decode(&src[j..], 8, &mut cap_f[..n])?;
    if j != src.len() {
        return Err(Error::InvalidLength);
    }
    Ok(logn)
}

// ---------------------------------------------------------------------------
// Signature: compressed s2 (Falcon spec section 3.11.2).

#[cfg(feature = "alloc")]
/// Compress `s` into `out`, zero-padding the rest of `out`. Returns the
/// number of bytes actually used, or `None` if some `|s_i| > 2047` or it
/// does not fit. (Runs on the public signature value.)
pub(crate) fn compress(s: &[i16], out: &mut [u8]) -> Option<usize> {
    let mut acc = 0u64;
    let mut bits = 0u32;
    let mut j = 0;
    for &x in s {
        let x = x as i32;
        if !(-2047..=2047).contains(&x) {
            return None;
        }
        let a = x.unsigned_abs();
        // sign, 7 low bits, then (a >> 7) zeros and a one.
        acc = (acc << 8) | (((x < 0) as u64) << 7) | (a & 0x7F) as u64;
        bits += 8;
        let hi = a >> 7;
        acc = (acc << (hi + 1)) | 1;
        bits += hi + 1;
        while bits >= 8 {
            bits -= 8;
            *out.get_mut(j)? = (acc >> bits) as u8;
            j += 1;
        }
    }
    if bits > 0 {
        *out.get_mut(j)? = (acc << (8 - bits)) as u8;
        j += 1;
    }
    out.get_mut(j..)?.fill(0);
    Some(j)
}

/// Decompress `out.len()` values from `src`. Returns the number of bytes
/// holding data; the spare bits of the last of those must be zero. The
/// caller decides what may follow (zero padding or nothing).
pub(crate) fn decompress(src: &[u8], out: &mut [i16]) -> Result<usize, Error> {
    // Each value takes 8 bits (sign, low 7 bits of |v|) and a unary high
    // part: k zeros, then a one. The bits wait in a 64-bit register, most
    // significant first (`acc`, `have` of them valid; the input read as
    // zero-padded), refilled with whole bytes whenever fewer than 25 (the
    // longest code) are left, so a value costs a shift and a leading-zero
    // count on the register instead of a load from its bit position (which
    // makes every value wait for the previous one's load). No loop per bit
    // or per byte: decoding takes the same path whatever the values (no
    // branch history for a repeated signature to reuse).
    let total = src.len() * 8;
    let mut acc = 0u64;
    let mut have = 0u32;
    let mut at = 0usize;
    let mut p = 0usize;
    for slot in out.iter_mut() {
        if have < 25 {
            // OR in the next 64 bits after the valid ones; count only the
            // whole bytes that fit. The bits of a byte counted later are
            // already in place, and OR-ing them again changes nothing.
            acc |= load_be64(src, at) >> have;
            let bytes = (64 - have) / 8;
            at += bytes as usize;
            have += 8 * bytes;
        }
        let byte = (acc >> 56) as u32;
        let neg = byte >> 7;
        // k <= 15 for a value in range; the bit ORed in caps the count at
        // 16, which is an error either way.
        let k = ((acc << 8) | (1 << 47)).leading_zeros();
        let m = (byte & 0x7F) + 128 * k;
        let len = 9 + k;
        acc <<= len;
        have -= len;
        p += len as usize;
        if m > 2047 || (neg == 1 && m == 0) || p > total {
            // Out of range, "-0" (no canonical meaning), or past the end.
            return Err(Error::NonCanonical);
        }
        *slot = ((m ^ neg.wrapping_neg()).wrapping_add(neg)) as i16;
    }
    // Bytes holding data; the spare bits of the last one must be zero.
    let used = p.div_ceil(8);
    let spare = (used * 8 - p) as u32;
    if spare > 0 && peek64(src, p) >> (64 - spare) != 0 {
        return Err(Error::NonCanonical);
    }
    Ok(used)
}

/// The 8 bytes of `src` from byte `at` on, big-endian, zeros past the end.
#[inline(always)]
fn load_be64(src: &[u8], at: usize) -> u64 {
    match src.get(at..at + 8) {
        Some(b) => {
            let mut a = [0u8; 8];
            a.copy_from_slice(b);
            u64::from_be_bytes(a)
        }
        None => {
            let mut a = [0u8; 8];
            for (d, s) in a.iter_mut().zip(src.get(at..).unwrap_or_default()) {
                *d = *s;
            }
            u64::from_be_bytes(a)
        }
    }
}

/// The 64 bits of `src` from bit `p` on (most significant first), zeros
/// past the end.
#[inline(always)]
fn peek64(src: &[u8], p: usize) -> u64 {
    load_be64(src, p / 8) << (p % 8)
}

/// Signature layouts accepted by verification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SigFormat {
    /// FN-DSA (`fn-dsa` 0.3): header `0x30 + logn`, exactly
    /// [`signature_size`] bytes, zero padding after the compressed data.
    Padded,
    /// Original round-3 Falcon detached signature (as produced by the
    /// reference code, PQClean and liboqs): header `0x30 + logn`, nonce,
    /// compressed data ending exactly at the last byte; also accepts the
    /// padded layout of exactly [`signature_size`] bytes.
    Round3,
}

/// Decode a signature into `(nonce, s2)`; returns logn.
pub(crate) fn decode_signature<'a>(
    sig: &'a [u8],
    logn: u32,
    format: SigFormat,
    s2: &mut [i16],
) -> Result<&'a [u8], Error> {
    let head = *sig.first().ok_or(Error::InvalidLength)?;
    if head != 0x30 + logn as u8 {
        return Err(Error::InvalidHeader);
    }
    let fixed = signature_size(logn);
    let len_ok = match format {
        SigFormat::Padded => sig.len() == fixed,
        SigFormat::Round3 => {
            sig.len() > 1 + NONCE_LEN && sig.len() <= signature_max_size_round3(logn).max(fixed)
        }
    };
    if !len_ok {
        return Err(Error::InvalidLength);
    }
    let nonce = &sig[1..1 + NONCE_LEN];
    let body = &sig[1 + NONCE_LEN..];
    let used = decompress(body, &mut s2[..1usize << logn])?;
    let rest = &body[used..];
    let padded = sig.len() == fixed;
    if !rest.is_empty() && (!padded || rest.iter().any(|&b| b != 0)) {
        return Err(Error::NonCanonical);
    }
    Ok(nonce)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(signing_key_size(9), 1281);
        assert_eq!(signing_key_size(10), 2305);
        assert_eq!(verifying_key_size(9), 897);
        assert_eq!(verifying_key_size(10), 1793);
        assert_eq!(signature_size(9), 666);
        assert_eq!(signature_size(10), 1280);
    }

    #[test]
    fn compress_round_trip_and_rejections() {
        let s: std::vec::Vec<i16> = (0..512).map(|i| ((i * 37) % 4095 - 2047) as i16).collect();
        let mut buf = [0u8; 2000];
        let used = compress(&s, &mut buf).expect("fits");
        let mut back = [0i16; 512];
        assert_eq!(decompress(&buf[..used], &mut back), Ok(used));
        assert_eq!(&back[..], &s[..]);
        // Too short.
        assert!(decompress(&buf[..used - 1], &mut back).is_err());
        // Out of range.
        assert!(compress(&[2048], &mut buf).is_none());
        // "-0": sign bit set, low bits zero, stop bit.
        assert_eq!(
            decompress(&[0x80, 0x80], &mut back[..1]),
            Err(Error::NonCanonical)
        );
        // 0 followed by a non-zero spare bit.
        assert_eq!(
            decompress(&[0x00, 0xC0], &mut back[..1]),
            Err(Error::NonCanonical)
        );
        assert_eq!(decompress(&[0x00, 0x80], &mut back[..1]), Ok(2));
        // Sixteen zeros in the unary part: 2048 and more are rejected.
        assert_eq!(
            decompress(&[0x7F, 0x00, 0x00, 0x80], &mut back[..1]),
            Err(Error::NonCanonical)
        );
        assert_eq!(decompress(&[0x7F, 0x00, 0x01], &mut back[..1]), Ok(3));
        assert_eq!(back[0], 2047);
    }

    /// The compressed format read one bit at a time, as written in the
    /// specification (Falcon round 3, Alg. 18), for comparison.
    fn decompress_bitwise(src: &[u8], out: &mut [i16]) -> Result<usize, Error> {
        let bit = |p: usize| src.get(p / 8).map(|b| (b >> (7 - p % 8)) & 1);
        let mut p = 0;
        for slot in out.iter_mut() {
            let mut low = 0u32;
            for _ in 0..8 {
                low = (low << 1) | u32::from(bit(p).ok_or(Error::NonCanonical)?);
                p += 1;
            }
            let neg = low >> 7;
            let mut m = low & 0x7F;
            loop {
                let b = bit(p).ok_or(Error::NonCanonical)?;
                p += 1;
                if b == 1 {
                    break;
                }
                m += 128;
                if m > 2047 {
                    return Err(Error::NonCanonical);
                }
            }
            if neg == 1 && m == 0 {
                return Err(Error::NonCanonical);
            }
            *slot = if neg == 1 { -(m as i16) } else { m as i16 };
        }
        let used = p.div_ceil(8);
        for q in p..used * 8 {
            if bit(q) != Some(0) {
                return Err(Error::NonCanonical);
            }
        }
        Ok(used)
    }

    #[test]
    fn decompress_matches_the_bitwise_definition() {
        // Compressed vectors of random values, then damaged: bit flips,
        // truncation, random bytes; every outcome (values, length used,
        // error) must equal the bit-by-bit decoder's.
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut rnd = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for round in 0..3000 {
            let n = 1 + (rnd() % 64) as usize;
            let spread = [7u64, 200, 900, 2047][round % 4];
            let v: std::vec::Vec<i16> = (0..n)
                .map(|_| ((rnd() % (2 * spread + 1)) as i64 - spread as i64) as i16)
                .collect();
            let mut buf = [0u8; 400];
            let used = compress(&v, &mut buf).expect("fits");
            let mut input = buf[..used + (rnd() % 3) as usize].to_vec();
            match round % 5 {
                0 => {}
                1 => {
                    let b = (rnd() as usize) % (input.len() * 8);
                    input[b / 8] ^= 0x80 >> (b % 8);
                }
                2 => input.truncate((rnd() as usize) % input.len()),
                3 => input.iter_mut().for_each(|b| *b = rnd() as u8),
                _ => {
                    for _ in 0..4 {
                        let b = (rnd() as usize) % (input.len() * 8);
                        input[b / 8] ^= 0x80 >> (b % 8);
                    }
                }
            }
            let (mut a, mut b) = ([0i16; 64], [0i16; 64]);
            let got = decompress(&input, &mut a[..n]);
            let want = decompress_bitwise(&input, &mut b[..n]);
            assert_eq!(got, want, "round {round}: {input:02x?}");
            if got.is_ok() {
                assert_eq!(a[..n], b[..n]);
            }
            if round % 5 == 0 {
                assert_eq!(got, Ok(used));
                assert_eq!(a[..n], v[..]);
            }
        }
    }

    #[test]
    fn trim_round_trip_and_forbidden_code() {
        let v: std::vec::Vec<i8> = (0..64).map(|i| ((i % 31) - 15) as i8).collect();
        let mut buf = [0u8; 64];
        let used = trim_encode(&v, 5, &mut buf);
        assert_eq!(used, 40);
        let mut back = [0i8; 64];
        assert_eq!(trim_decode(&buf[..used], 5, &mut back), Ok(40));
        assert_eq!(&back[..], &v[..]);
        // -16 in 5 bits (0b10000) is forbidden.
        buf[0] = 0b1000_0000;
        assert_eq!(
            trim_decode(&buf[..used], 5, &mut back),
            Err(Error::NonCanonical)
        );
        assert_eq!(
            trim_decode(&buf[..used - 1], 5, &mut back),
            Err(Error::InvalidLength)
        );
    }

    #[test]
    fn verifying_key_rejects_values_above_q() {
        let mut vk = [0u8; 1 + 7];
        vk[0] = 2;
        let mut h = [0i16; 4];
        assert_eq!(decode_verifying_key(&vk, 2, 10, &mut h), Ok(2));
        // First value = 12289.
        let x = 12289u32 << 2;
        vk[1] = (x >> 8) as u8;
        vk[2] = x as u8;
        assert_eq!(
            decode_verifying_key(&vk, 2, 10, &mut h),
            Err(Error::NonCanonical)
        );
        assert_eq!(
            decode_verifying_key(&vk[..7], 2, 10, &mut h),
            Err(Error::InvalidLength)
        );
        vk[0] = 0x12;
        assert_eq!(
            decode_verifying_key(&vk, 2, 10, &mut h),
            Err(Error::InvalidHeader)
        );
        vk[0] = 2;
        assert_eq!(
            decode_verifying_key(&vk, 9, 10, &mut h),
            Err(Error::UnsupportedDegree)
        );
    }
}
