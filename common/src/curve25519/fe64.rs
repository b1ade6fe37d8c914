//! GF(2^255 - 19) in four 64-bit limbs for x86-64 with BMI2 and ADX: the
//! products are 4 x 4 schoolbook rows of `mulx` on two independent carry
//! chains (`adcx` on CF, `adox` on OF), with the reduction by
//! `2^256 = 38 (mod p)` in the same inline-assembly block.
//!
//! An [`Fe64`] holds `l0 + l1 2^64 + l2 2^128 + l3 2^192`, any value in
//! `[0, 2^256)`: every operation accepts any four limbs and returns four
//! limbs (the value is only partially reduced); only [`Field::to_bytes`]
//! computes the canonical value in `[0, p)`.
//!
//! # Crate-internal invariant
//!
//! `mulx`, `adcx` and `adox` need BMI2 and ADX. Fe64 arithmetic is only
//! ever executed after [`fe64_available`] returned `true`: the kernel entry
//! [`super::ladder64::x25519_ladder64`] is a `#[target_feature(enable = "bmi2,adx")]` function,
//! so its callers (backend kernels) must check the detection and say so in
//! their `unsafe` call; the tests skip without the features. Nothing else
//! in the crate may use [`Fe64`].
//!
//! Everything here is constant-time: no branch, index or early exit
//! depends on a value; carries and corrections go through `sbb`/`and`
//! masks and the carry flags.

// The arithmetic is inline assembly; every block states its safety.
#![allow(unsafe_code)]

use super::fieldops::Field;
use subtle::{Choice, ConditionallySelectable};

cpufeatures::new!(cpuid_bmi2_adx, "bmi2", "adx");

/// Whether this CPU has BMI2 and ADX, which [`Fe64`] arithmetic needs
/// (detected once, cached).
#[inline]
pub(crate) fn fe64_available() -> bool {
    #[cfg(feature = "ct-check")]
    if crate::ctgrind::ASSUME_BMI2_ADX.load(core::sync::atomic::Ordering::Relaxed) {
        return true;
    }
    cpuid_bmi2_adx::get()
}

/// `2^63 - 1`: the low 255 bits of the top limb.
const MASK63: u64 = (1 << 63) - 1;

/// An element of GF(2^255 - 19) as four little-endian 64-bit limbs, any
/// value below `2^256` (see the module docs, and the invariant there: only
/// used after [`fe64_available`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Fe64(pub(crate) [u64; 4]);

impl zeroize::DefaultIsZeroes for Fe64 {}

impl ConditionallySelectable for Fe64 {
    #[inline]
    fn conditional_select(a: &Self, b: &Self, choice: Choice) -> Self {
        let mask = 0u64.wrapping_sub(choice.unwrap_u8() as u64);
        Fe64(core::array::from_fn(|i| {
            a.0[i] ^ (mask & (a.0[i] ^ b.0[i]))
        }))
    }

    #[inline]
    fn conditional_swap(a: &mut Self, b: &mut Self, choice: Choice) {
        let mask = 0u64.wrapping_sub(choice.unwrap_u8() as u64);
        for (x, y) in a.0.iter_mut().zip(b.0.iter_mut()) {
            let t = mask & (*x ^ *y);
            *x ^= t;
            *y ^= t;
        }
    }
}

/// `a + b + c` as (sum, carry), `c <= 1`.
#[inline(always)]
fn adc(a: u64, b: u64, c: u64) -> (u64, u64) {
    let s = a as u128 + b as u128 + c as u128;
    (s as u64, (s >> 64) as u64)
}

/// `a * b mod p`, output below `2^256` (in fact below `2^255 + 2^11`).
///
/// Four schoolbook rows `b_i * a` into eight limbs, each row on the two
/// carry chains, then the high half times 38 added to the low half, and
/// the bits from 255 up folded back times 19.
#[inline(always)]
fn mul_asm(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: the block reads the 32 bytes of `a` (rsi) and of `b` (rcx),
    // both valid `[u64; 4]` borrowed for the call, writes only the
    // registers declared below (outputs and clobbers), and uses no stack.
    // `mulx`, `adcx` and `adox` need BMI2 and ADX, which the module
    // invariant guarantees (only run after `fe64_available()`).
    unsafe {
        core::arch::asm!(
            // Row 0: [r12 r11 r10 r9 r8] = b0 * a, one ordinary carry chain.
            "mov rdx, qword ptr [rcx]",
            "mulx r9, r8, qword ptr [rsi]",
            "mulx r10, rax, qword ptr [rsi + 8]",
            "add r9, rax",
            "mulx r11, rax, qword ptr [rsi + 16]",
            "adc r10, rax",
            "mulx r12, rax, qword ptr [rsi + 24]",
            "adc r11, rax",
            "adc r12, 0",
            // Row 1: + b1 * a 2^64; the low halves on CF, the high on OF.
            // `xor` clears both flags; `mov` (unlike `xor`) keeps them, so
            // it makes the zero that lands the two final carries.
            "mov rdx, qword ptr [rcx + 8]",
            "xor eax, eax",
            "mulx rdi, rax, qword ptr [rsi]",
            "adcx r9, rax",
            "adox r10, rdi",
            "mulx rdi, rax, qword ptr [rsi + 8]",
            "adcx r10, rax",
            "adox r11, rdi",
            "mulx rdi, rax, qword ptr [rsi + 16]",
            "adcx r11, rax",
            "adox r12, rdi",
            "mulx r13, rax, qword ptr [rsi + 24]",
            "adcx r12, rax",
            "mov eax, 0",
            "adox r13, rax",
            "adcx r13, rax",
            // Row 2: + b2 * a 2^128.
            "mov rdx, qword ptr [rcx + 16]",
            "xor eax, eax",
            "mulx rdi, rax, qword ptr [rsi]",
            "adcx r10, rax",
            "adox r11, rdi",
            "mulx rdi, rax, qword ptr [rsi + 8]",
            "adcx r11, rax",
            "adox r12, rdi",
            "mulx rdi, rax, qword ptr [rsi + 16]",
            "adcx r12, rax",
            "adox r13, rdi",
            "mulx r14, rax, qword ptr [rsi + 24]",
            "adcx r13, rax",
            "mov eax, 0",
            "adox r14, rax",
            "adcx r14, rax",
            // Row 3: + b3 * a 2^192. The product is [r15 .. r8].
            "mov rdx, qword ptr [rcx + 24]",
            "xor eax, eax",
            "mulx rdi, rax, qword ptr [rsi]",
            "adcx r11, rax",
            "adox r12, rdi",
            "mulx rdi, rax, qword ptr [rsi + 8]",
            "adcx r12, rax",
            "adox r13, rdi",
            "mulx rdi, rax, qword ptr [rsi + 16]",
            "adcx r13, rax",
            "adox r14, rdi",
            "mulx r15, rax, qword ptr [rsi + 24]",
            "adcx r14, rax",
            "mov eax, 0",
            "adox r15, rax",
            "adcx r15, rax",
            // Reduce: low + 38 high = [r12 r11 r10 r9 r8], r12 <= 38.
            "mov edx, 38",
            "xor eax, eax",
            "mulx rdi, rax, r12",
            "adcx r8, rax",
            "adox r9, rdi",
            "mulx rdi, rax, r13",
            "adcx r9, rax",
            "adox r10, rdi",
            "mulx rdi, rax, r14",
            "adcx r10, rax",
            "adox r11, rdi",
            "mulx r12, rax, r15",
            "adcx r11, rax",
            "mov eax, 0",
            "adox r12, rax",
            "adcx r12, rax",
            // q = value >> 255 (below 2^7); value - q 2^255 + 19 q. With
            // bit 255 cleared the last addition cannot carry out.
            "shld r12, r11, 1",
            "btr r11, 63",
            "imul r12, r12, 19",
            "add r8, r12",
            "adc r9, 0",
            "adc r10, 0",
            "adc r11, 0",
            in("rsi") a.as_ptr(),
            in("rcx") b.as_ptr(),
            out("r8") r0,
            out("r9") r1,
            out("r10") r2,
            out("r11") r3,
            out("rax") _,
            out("rdx") _,
            out("rdi") _,
            out("r12") _,
            out("r13") _,
            out("r14") _,
            out("r15") _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// `a^2 mod p`, output below `2^256` (in fact below `2^255 + 2^11`).
///
/// The six cross products once, doubled on the CF chain while the four
/// squares are added on the OF chain, then the reduction of [`mul_asm`].
#[inline(always)]
fn sqr_asm(a: &[u64; 4]) -> [u64; 4] {
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: the block reads the 32 bytes of `a` (rsi), a valid `[u64; 4]`
    // borrowed for the call, writes only the registers declared below, and
    // uses no stack. BMI2 and ADX are present by the module invariant
    // (only run after `fe64_available()`).
    unsafe {
        core::arch::asm!(
            // Cross products a_i a_j (i < j) into [r14 .. r9] (weights
            // 2^64 .. 2^384).
            "mov rdx, qword ptr [rsi]",
            "mulx r10, r9, qword ptr [rsi + 8]",
            "mulx r12, r11, qword ptr [rsi + 24]",
            "mulx rdi, rax, qword ptr [rsi + 16]",
            "add r10, rax",
            "adc r11, rdi",
            "mov rdx, qword ptr [rsi + 24]",
            "mulx r14, r13, qword ptr [rsi + 16]",
            "mulx rdi, rax, qword ptr [rsi + 8]",
            "adc r12, rax",
            "adc r13, rdi",
            "adc r14, 0",
            "mov rdx, qword ptr [rsi + 8]",
            "mulx rdi, rax, qword ptr [rsi + 16]",
            "add r11, rax",
            "adc r12, rdi",
            "adc r13, 0",
            "adc r14, 0",
            // 2 * cross (CF) + squares a_i^2 at 2^(128 i) (OF).
            "mov rdx, qword ptr [rsi]",
            "mulx rdi, r8, rdx",
            "xor ecx, ecx",
            "adcx r9, r9",
            "adox r9, rdi",
            "mov rdx, qword ptr [rsi + 8]",
            "mulx rdi, rax, rdx",
            "adcx r10, r10",
            "adox r10, rax",
            "adcx r11, r11",
            "adox r11, rdi",
            "mov rdx, qword ptr [rsi + 16]",
            "mulx rdi, rax, rdx",
            "adcx r12, r12",
            "adox r12, rax",
            "adcx r13, r13",
            "adox r13, rdi",
            "mov rdx, qword ptr [rsi + 24]",
            "mulx r15, rax, rdx",
            "adcx r14, r14",
            "adox r14, rax",
            "adcx r15, rcx",
            "adox r15, rcx",
            // Reduce as in `mul_asm` (rcx is zero).
            "mov edx, 38",
            "xor ecx, ecx",
            "mulx rdi, rax, r12",
            "adcx r8, rax",
            "adox r9, rdi",
            "mulx rdi, rax, r13",
            "adcx r9, rax",
            "adox r10, rdi",
            "mulx rdi, rax, r14",
            "adcx r10, rax",
            "adox r11, rdi",
            "mulx r12, rax, r15",
            "adcx r11, rax",
            "adox r12, rcx",
            "adcx r12, rcx",
            "shld r12, r11, 1",
            "btr r11, 63",
            "imul r12, r12, 19",
            "add r8, r12",
            "adc r9, 0",
            "adc r10, 0",
            "adc r11, 0",
            in("rsi") a.as_ptr(),
            out("r8") r0,
            out("r9") r1,
            out("r10") r2,
            out("r11") r3,
            out("rax") _,
            out("rcx") _,
            out("rdx") _,
            out("rdi") _,
            out("r12") _,
            out("r13") _,
            out("r14") _,
            out("r15") _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// `a * c mod p` for `c < 2^32`, output below `2^255 + 2^38`.
#[inline(always)]
fn mul_small_asm(a: &[u64; 4], c: u32) -> [u64; 4] {
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: the block reads the 32 bytes of `a`, a valid `[u64; 4]`
    // borrowed for the call, writes only its declared registers, and uses
    // no stack. BMI2 (`mulx`) is present by the module invariant.
    unsafe {
        core::arch::asm!(
            "mulx {r1}, {r0}, qword ptr [{a}]",
            "mulx {r2}, {t}, qword ptr [{a} + 8]",
            "add {r1}, {t}",
            "mulx {r3}, {t}, qword ptr [{a} + 16]",
            "adc {r2}, {t}",
            "mulx {top}, {t}, qword ptr [{a} + 24]",
            "adc {r3}, {t}",
            "adc {top}, 0",
            // Fold bits 255 and up (below 2^33) back times 19.
            "shld {top}, {r3}, 1",
            "btr {r3}, 63",
            "imul {top}, {top}, 19",
            "add {r0}, {top}",
            "adc {r1}, 0",
            "adc {r2}, 0",
            "adc {r3}, 0",
            a = in(reg) a.as_ptr(),
            in("rdx") c as u64,
            r0 = out(reg) r0,
            r1 = out(reg) r1,
            r2 = out(reg) r2,
            r3 = out(reg) r3,
            top = out(reg) _,
            t = out(reg) _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// `a + b mod p` below `2^256`: a carry out of bit 256 is worth 38; adding
/// it can carry once more, and then the value is below 38 and the second
/// 38 fits.
#[inline(always)]
fn add_asm(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let [mut r0, mut r1, mut r2, mut r3] = *a;
    // SAFETY: register-only arithmetic (no memory, no stack); `add`, `adc`,
    // `sbb` and `and` are baseline x86-64.
    unsafe {
        core::arch::asm!(
            "add {r0}, {b0}",
            "adc {r1}, {b1}",
            "adc {r2}, {b2}",
            "adc {r3}, {b3}",
            "sbb {t}, {t}",
            "and {t}, 38",
            "add {r0}, {t}",
            "adc {r1}, 0",
            "adc {r2}, 0",
            "adc {r3}, 0",
            "sbb {t}, {t}",
            "and {t}, 38",
            "add {r0}, {t}",
            r0 = inout(reg) r0,
            r1 = inout(reg) r1,
            r2 = inout(reg) r2,
            r3 = inout(reg) r3,
            b0 = in(reg) b[0],
            b1 = in(reg) b[1],
            b2 = in(reg) b[2],
            b3 = in(reg) b[3],
            t = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// `a - b mod p` below `2^256`: a borrow out of bit 256 is worth -38;
/// subtracting it can borrow once more, and then the value is at least
/// `2^256 - 38` and the second 38 comes off limb 0 without a borrow.
#[inline(always)]
fn sub_asm(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let [mut r0, mut r1, mut r2, mut r3] = *a;
    // SAFETY: register-only arithmetic (no memory, no stack); `sub`, `sbb`
    // and `and` are baseline x86-64.
    unsafe {
        core::arch::asm!(
            "sub {r0}, {b0}",
            "sbb {r1}, {b1}",
            "sbb {r2}, {b2}",
            "sbb {r3}, {b3}",
            "sbb {t}, {t}",
            "and {t}, 38",
            "sub {r0}, {t}",
            "sbb {r1}, 0",
            "sbb {r2}, 0",
            "sbb {r3}, 0",
            "sbb {t}, {t}",
            "and {t}, 38",
            "sub {r0}, {t}",
            r0 = inout(reg) r0,
            r1 = inout(reg) r1,
            r2 = inout(reg) r2,
            r3 = inout(reg) r3,
            b0 = in(reg) b[0],
            b1 = in(reg) b[1],
            b2 = in(reg) b[2],
            b3 = in(reg) b[3],
            t = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    [r0, r1, r2, r3]
}

impl Field for Fe64 {
    const ZERO: Self = Fe64([0; 4]);
    const ONE: Self = Fe64([1, 0, 0, 0]);

    #[inline]
    fn from_bytes(bytes: &[u8; 32]) -> Self {
        let mut w = [0u64; 4];
        for (w, c) in w.iter_mut().zip(bytes.chunks_exact(8)) {
            let mut b = [0u8; 8];
            b.copy_from_slice(c);
            *w = u64::from_le_bytes(b);
        }
        w[3] &= MASK63;
        Fe64(w)
    }

    #[inline]
    fn to_bytes(&self) -> [u8; 32] {
        let [x0, x1, x2, x3] = self.0;
        // Fold bit 255 (2^255 = 19): h below 2^255 + 19.
        let q = x3 >> 63;
        let (x0, c) = adc(x0, 19 * q, 0);
        let (x1, c) = adc(x1, 0, c);
        let (x2, c) = adc(x2, 0, c);
        let x3 = (x3 & MASK63) + c;
        // h >= p exactly when h + 19 reaches 2^255; then h - p is
        // h + 19 with bit 255 cleared.
        let (_, c) = adc(x0, 19, 0);
        let (_, c) = adc(x1, 0, c);
        let (_, c) = adc(x2, 0, c);
        let q = (x3 + c) >> 63;
        let (x0, c) = adc(x0, 19 * q, 0);
        let (x1, c) = adc(x1, 0, c);
        let (x2, c) = adc(x2, 0, c);
        let x3 = (x3 + c) & MASK63;
        let mut out = [0u8; 32];
        for (o, w) in out.chunks_exact_mut(8).zip([x0, x1, x2, x3]) {
            o.copy_from_slice(&w.to_le_bytes());
        }
        out
    }

    #[inline]
    fn from_words(w: &[u64; 4]) -> Self {
        Fe64(*w)
    }

    #[inline]
    fn add(&self, other: &Self) -> Self {
        Fe64(add_asm(&self.0, &other.0))
    }

    #[inline]
    fn sub(&self, other: &Self) -> Self {
        Fe64(sub_asm(&self.0, &other.0))
    }

    #[inline]
    fn neg(&self) -> Self {
        Fe64(sub_asm(&[0; 4], &self.0))
    }

    #[inline]
    fn mul(&self, other: &Self) -> Self {
        Fe64(mul_asm(&self.0, &other.0))
    }

    #[inline]
    fn square(&self) -> Self {
        Fe64(sqr_asm(&self.0))
    }

    #[inline]
    fn mul_small(&self, c: u32) -> Self {
        Fe64(mul_small_asm(&self.0, c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve25519::field::FieldElement;
    use crate::curve25519::ladder;
    use crate::testutil::rng;
    use std::time::Instant;
    use std::vec::Vec;
    use std::{println, vec};

    /// p = 2^255 - 19 in limbs.
    const P: [u64; 4] = [0xffff_ffff_ffff_ffed, !0, !0, MASK63];

    /// Whether the tests can run here; prints why not.
    fn have_features() -> bool {
        let ok = fe64_available();
        if !ok {
            println!("skipping: this CPU lacks BMI2/ADX");
        }
        ok
    }

    /// The portable element of the same value: the low 255 bits through
    /// `from_bytes`, plus 19 for bit 255.
    fn portable(x: &Fe64) -> FieldElement {
        let mut b = [0u8; 32];
        for (c, w) in b.chunks_exact_mut(8).zip(x.0) {
            c.copy_from_slice(&w.to_le_bytes());
        }
        let top = FieldElement([19 * (x.0[3] >> 63), 0, 0, 0, 0]);
        FieldElement::from_bytes(&b).add(&top)
    }

    /// `x + k` modulo 2^256.
    fn plus(x: [u64; 4], k: u64) -> [u64; 4] {
        let (r0, c) = adc(x[0], k, 0);
        let (r1, c) = adc(x[1], 0, c);
        let (r2, c) = adc(x[2], 0, c);
        [r0, r1, r2, x[3].wrapping_add(c)]
    }

    /// `x - k` modulo 2^256.
    fn minus(x: [u64; 4], k: u64) -> [u64; 4] {
        plus(x.map(|w| !w), k).map(|w| !w)
    }

    /// 0, 1, p - 1, p, p + 1, 2^255 - 1, 2^255 .. 2^255 + 19, 2p - 1 ..
    /// 2p + 1, just below 2^256, 2^256 - 1, and limb patterns (all-ones
    /// limbs, single limbs, the top bit), all as raw limbs.
    fn edge_values() -> Vec<Fe64> {
        let two_p = plus([P[0] << 1, !0, !0, !0], 0); // 2^256 - 38
        let mut v: Vec<[u64; 4]> = vec![
            [0; 4],
            [1, 0, 0, 0],
            [2, 0, 0, 0],
            [19, 0, 0, 0],
            [37, 0, 0, 0],
            [38, 0, 0, 0],
            [121665, 0, 0, 0],
            minus(P, 1),
            P,
            plus(P, 1),
            plus(P, 18),     // 2^255 - 1
            plus(P, 19),     // 2^255
            plus(P, 20),     // 2^255 + 1
            plus(P, 38),     // 2^255 + 19
            minus(two_p, 1), // 2p - 1
            two_p,           // 2p = 2^256 - 38
            plus(two_p, 1),  // 2p + 1
            plus(two_p, 18), // 2^256 - 20
            plus(two_p, 19), // 2^256 - 19
            plus(two_p, 36), // 2^256 - 2
            [!0; 4],         // 2^256 - 1
            [!0, 0, 0, 0],
            [0, !0, 0, 0],
            [0, 0, !0, 0],
            [0, 0, 0, !0],
            [!0, !0, 0, 0],
            [0, !0, 0, !0],
            [!0, 0, !0, 0],
            [!0, !0, !0, 0],
            [0, 0, 0, 1 << 63],
            [(1 << 38) - 1, 0, 0, 1 << 63], // the largest tight value
            [0, 0, 0, MASK63],
            [!0, !0, !0, MASK63 - 1],
            [1 << 63, 1 << 63, 1 << 63, 1 << 63],
            [0, 0, 1, 0],
            [0, 1, 0, 0],
        ];
        for k in 1..8 {
            v.push(minus([0; 4], k)); // 2^256 - k
            v.push(minus([0; 4], 19 + k));
            v.push(minus([0; 4], 38 + k));
        }
        v.into_iter().map(Fe64).collect()
    }

    /// A random element: uniform 256-bit limbs, uniform below 2^255, a
    /// value near p, 2p or 2^256, or limbs drawn from edge patterns.
    fn random_fe(next: &mut impl FnMut() -> u64) -> Fe64 {
        let limb = |next: &mut dyn FnMut() -> u64| match next() % 6 {
            0 => 0,
            1 => !0,
            2 => 1 << 63,
            3 => MASK63,
            _ => next(),
        };
        Fe64(match next() % 5 {
            0 => core::array::from_fn(|_| next()),
            1 => {
                let mut w: [u64; 4] = core::array::from_fn(|_| next());
                w[3] &= MASK63;
                w
            }
            2 => {
                let base = [P, plus(P, 19), minus([0; 4], 38), [0; 4]][(next() % 4) as usize];
                let k = next() % 64;
                if next() & 1 == 0 {
                    plus(base, k)
                } else {
                    minus(base, k)
                }
            }
            _ => core::array::from_fn(|_| limb(next)),
        })
    }

    /// `f(x)` for Fe64 and portable agree (canonical bytes).
    fn same(x: &Fe64, f: &FieldElement, what: &str, a: &Fe64, b: &Fe64) {
        assert_eq!(
            x.to_bytes(),
            f.to_bytes(),
            "{what}: a = {:x?}, b = {:x?}",
            a.0,
            b.0
        );
    }

    /// Every operation on `(a, b)` against the portable field.
    fn check_pair(a: &Fe64, b: &Fe64, c: u32) {
        let (pa, pb) = (portable(a), portable(b));
        same(a, &pa, "to_bytes", a, b);
        same(&a.add(b), &pa.add(&pb), "add", a, b);
        same(&a.sub(b), &pa.sub(&pb), "sub", a, b);
        same(&a.neg(), &pa.neg(), "neg", a, b);
        same(&a.mul(b), &pa.mul(&pb), "mul", a, b);
        same(&a.square(), &pa.square(), "square", a, b);
        same(
            &a.square2(),
            &pa.square().add(&pa.square()),
            "square2",
            a,
            b,
        );
        same(
            &a.mul_small(121666),
            &pa.mul_small(121666),
            "mul_small",
            a,
            b,
        );
        same(&a.mul_small(c), &pa.mul_small(c), "mul_small c", a, b);
        same(
            &a.add(b).mul(&a.sub(b)),
            &pa.add(&pb).mul(&pa.sub(&pb)),
            "(a+b)(a-b)",
            a,
            b,
        );
        same(&a.sub(b).square(), &pa.sub(&pb).square(), "(a-b)^2", a, b);
        // Sign, zero and equality of the values.
        assert_eq!(a.is_negative().unwrap_u8(), pa.to_bytes()[0] & 1);
        assert_eq!(bool::from(a.is_zero()), pa.to_bytes() == [0; 32]);
        let eq = pa.to_bytes() == pb.to_bytes();
        assert_eq!(bool::from(a.ct_eq_value(b)), eq);
        assert!(bool::from(a.sub(b).add(b).ct_eq_value(a)));
        // The u128 variant (kept for the timing comparison) agrees too.
        // SAFETY: the callers checked `have_features()` (BMI2 and ADX).
        let (m, s) = unsafe { (u128v::mul(&a.0, &b.0), u128v::sqr(&a.0)) };
        same(&Fe64(m), &pa.mul(&pb), "mul u128", a, b);
        same(&Fe64(s), &pa.square(), "square u128", a, b);
    }

    /// Below `2^255 + 2^38`.
    fn is_tight(x: &[u64; 4]) -> bool {
        x[3] < 1 << 63 || (x[3] == 1 << 63 && x[2] == 0 && x[1] == 0 && x[0] < 1 << 38)
    }

    /// The bound every product meets: below `2^255 + 2^38`.
    fn check_tight(a: &Fe64, b: &Fe64, c: u32) {
        for (what, x) in [
            ("mul", a.mul(b)),
            ("square", a.square()),
            ("mul_small", a.mul_small(c)),
        ] {
            assert!(is_tight(&x.0), "{what} of {:x?}: {:x?}", a.0, x.0);
        }
    }

    #[test]
    fn fe64_matches_portable_on_edge_values() {
        if !have_features() {
            return;
        }
        let edges = edge_values();
        for a in &edges {
            for b in &edges {
                check_pair(a, b, u32::MAX);
                check_pair(a, b, 0);
                check_tight(a, b, u32::MAX);
                check_tight(a, b, 121665);
            }
        }
        // The canonical encodings of the named values.
        let enc = |w: [u64; 4]| Fe64(w).to_bytes();
        assert_eq!(enc(P), [0; 32]);
        assert_eq!(enc(plus(P, 1)), enc([1, 0, 0, 0]));
        assert_eq!(enc(plus(P, 18)), enc([18, 0, 0, 0]), "2^255 - 1");
        assert_eq!(enc(minus(P, 1)), {
            let mut b = [0xff; 32];
            b[0] = 0xec;
            b[31] = 0x7f;
            b
        });
        assert_eq!(enc([!0; 4]), enc([37, 0, 0, 0]), "2^256 - 1 = 2p + 37");
        assert_eq!(enc(minus([0; 4], 38)), [0; 32], "2p");
    }

    #[test]
    fn fe64_matches_portable_on_random_values() {
        if !have_features() {
            return;
        }
        let mut next = rng(25519);
        let edges = edge_values();
        for i in 0..1_000_000 {
            let a = random_fe(&mut next);
            let b = if i % 8 == 0 {
                edges[(next() % edges.len() as u64) as usize]
            } else {
                random_fe(&mut next)
            };
            let c = next() as u32;
            check_pair(&a, &b, c);
            check_tight(&a, &b, c);
        }
    }

    #[test]
    fn fe64_bytes_and_words() {
        if !have_features() {
            return;
        }
        let mut next = rng(64);
        for _ in 0..1_000_000 {
            let mut b = [0u8; 32];
            for c in b.chunks_exact_mut(8) {
                c.copy_from_slice(&next().to_le_bytes());
            }
            let x = Fe64::from_bytes(&b);
            assert_eq!(x.to_bytes(), FieldElement::from_bytes(&b).to_bytes());
            assert_eq!(x.0[3] >> 63, 0, "bit 255 is ignored");
            // Canonical bytes round-trip, and from_words takes their words.
            let canon = x.to_bytes();
            assert_eq!(Fe64::from_bytes(&canon).to_bytes(), canon);
            let w = core::array::from_fn(|i| {
                u64::from_le_bytes(canon[8 * i..8 * i + 8].try_into().unwrap_or_default())
            });
            assert_eq!(Fe64::from_words(&w).0, w);
            assert_eq!(Fe64::from_words(&w).to_bytes(), canon);
        }
    }

    /// Long chains of operations on random seeds, never reduced in
    /// between: the non-canonical intermediates stay in step with portable.
    #[test]
    fn fe64_chained_operations_match_portable() {
        if !have_features() {
            return;
        }
        let mut next = rng(1000);
        for _ in 0..1000 {
            let mut x: [Fe64; 3] = core::array::from_fn(|_| random_fe(&mut next));
            let mut p = x.map(|v| portable(&v));
            for step in 0..1000 {
                x = [
                    x[0].mul(&x[1]).sub(&x[2]),
                    x[1].square().add(&x[0]).neg(),
                    x[2].mul_small(121666).add(&x[2]).sub(&x[1]).mul(&x[0]),
                ];
                p = [
                    p[0].mul(&p[1]).sub(&p[2]),
                    p[1].square().add(&p[0]).neg(),
                    p[2].mul_small(121666).add(&p[2]).sub(&p[1]).mul(&p[0]),
                ];
                if step % 100 == 99 {
                    for (a, b) in x.iter().zip(&p) {
                        assert_eq!(a.to_bytes(), b.to_bytes());
                    }
                }
            }
            for (a, b) in x.iter().zip(&p) {
                assert_eq!(a.to_bytes(), b.to_bytes());
            }
        }
    }

    #[test]
    fn fe64_exponent_chains_match_portable() {
        if !have_features() {
            return;
        }
        let mut next = rng(3);
        let randoms: Vec<Fe64> = (0..2000).map(|_| random_fe(&mut next)).collect();
        for a in edge_values().iter().chain(&randoms) {
            let pa = portable(a);
            assert_eq!(a.invert().to_bytes(), pa.invert().to_bytes());
            assert_eq!(a.pow_p58().to_bytes(), pa.pow_p58().to_bytes());
            assert_eq!(a.pow2k(7).to_bytes(), pa.pow2k(7).to_bytes());
        }
    }

    #[test]
    fn fe64_select_and_swap() {
        let (a, b) = (Fe64([1, 2, 3, 4]), Fe64([!0, 6, 1 << 63, 8]));
        assert_eq!(Fe64::conditional_select(&a, &b, 0.into()).0, a.0);
        assert_eq!(Fe64::conditional_select(&a, &b, 1.into()).0, b.0);
        let (mut x, mut y) = (a, b);
        Fe64::conditional_swap(&mut x, &mut y, 0.into());
        assert_eq!((x.0, y.0), (a.0, b.0));
        Fe64::conditional_swap(&mut x, &mut y, 1.into());
        assert_eq!((x.0, y.0), (b.0, a.0));
    }

    fn hex32(s: &str) -> [u8; 32] {
        let v = hex::decode(s).unwrap_or_default();
        v.try_into().unwrap_or_default()
    }

    /// The kernel entry, after the detection the tests made.
    fn x25519(k: &[u8; 32], u: &[u8; 32]) -> [u8; 32] {
        // SAFETY: every caller checked `have_features()`: BMI2 and ADX
        // are present.
        unsafe { super::super::ladder64::x25519_ladder64(k, u) }
    }

    /// RFC 7748 §5.2 and §6.1.
    #[test]
    fn x25519_ladder64_rfc7748() {
        if !have_features() {
            return;
        }
        let cases = [
            (
                "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
                "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
                "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552",
            ),
            (
                "4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
                "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
                "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957",
            ),
            (
                "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a",
                "0900000000000000000000000000000000000000000000000000000000000000",
                "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a",
            ),
            (
                "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb",
                "0900000000000000000000000000000000000000000000000000000000000000",
                "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f",
            ),
            (
                "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a",
                "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f",
                "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742",
            ),
        ];
        for (k, u, want) in cases {
            let (k, u, want) = (hex32(k), hex32(u), hex32(want));
            assert_eq!(x25519(&k, &u), want);
            let mut u2 = u;
            u2[31] ^= 0x80;
            assert_eq!(x25519(&k, &u2), want, "bit 255 is ignored");
        }
        // The iterated vector after 1 and 1,000 iterations.
        let (mut k, mut u) = (super::super::BASEPOINT_U, super::super::BASEPOINT_U);
        for i in 1..=1000 {
            let r = x25519(&k, &u);
            u = k;
            k = r;
            if i == 1 {
                assert_eq!(
                    k,
                    hex32("422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079")
                );
            }
        }
        assert_eq!(
            k,
            hex32("684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51")
        );
    }

    #[test]
    fn x25519_ladder64_matches_portable() {
        if !have_features() {
            return;
        }
        let mut next = rng(7748);
        let mut bytes = || {
            let mut b = [0u8; 32];
            for c in b.chunks_exact_mut(8) {
                c.copy_from_slice(&next().to_le_bytes());
            }
            b
        };
        // Low-order and non-canonical u: 0, 1, p, p + 1, 2^255 - 1, 2^256 - 1.
        let mut specials = vec![[0u8; 32], [0xff; 32]];
        for w in [[1, 0, 0, 0], P, plus(P, 1), plus(P, 18)] {
            specials.push(
                Fe64(w)
                    .0
                    .map(u64::to_le_bytes)
                    .concat()
                    .try_into()
                    .unwrap_or_default(),
            );
        }
        for u in &specials {
            let k = bytes();
            assert_eq!(x25519(&k, u), ladder::x25519::<FieldElement>(&k, u));
        }
        for _ in 0..10_000 {
            let (k, u) = (bytes(), bytes());
            assert_eq!(x25519(&k, &u), ladder::x25519::<FieldElement>(&k, &u));
        }
    }

    /// The same 4 x 64 algorithm in plain Rust `u128` arithmetic compiled
    /// with BMI2 and ADX, measured against the assembly (`fe64_timing`)
    /// and kept here for that comparison: LLVM emits `mulx` but one
    /// `add`/`adc` chain, not the two `adcx`/`adox` chains.
    mod u128v {
        use super::super::{Fe64, Field, MASK63};
        use subtle::{Choice, ConditionallySelectable};

        /// `lo + hi 2^256 -> lo + 38 hi`, then bits 255 and up times 19.
        #[inline(always)]
        fn reduce(t: [u64; 8]) -> [u64; 4] {
            let mut r = [0u64; 4];
            let mut c = 0u64;
            for i in 0..4 {
                let x = t[i + 4] as u128 * 38 + t[i] as u128 + c as u128;
                r[i] = x as u64;
                c = (x >> 64) as u64;
            }
            let q = (c << 1) | (r[3] >> 63);
            r[3] &= MASK63;
            let mut c = q * 19;
            for w in &mut r {
                let x = *w as u128 + c as u128;
                *w = x as u64;
                c = (x >> 64) as u64;
            }
            r
        }

        /// Schoolbook rows, as `mul_asm`.
        #[inline]
        #[target_feature(enable = "bmi2,adx")]
        pub(super) fn mul(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
            let mut t = [0u64; 8];
            for i in 0..4 {
                let mut c = 0u64;
                for j in 0..4 {
                    let x = a[j] as u128 * b[i] as u128 + t[i + j] as u128 + c as u128;
                    t[i + j] = x as u64;
                    c = (x >> 64) as u64;
                }
                t[i + 4] = c;
            }
            reduce(t)
        }

        /// Cross products once, doubled, plus the squares, as `sqr_asm`.
        #[inline]
        #[target_feature(enable = "bmi2,adx")]
        pub(super) fn sqr(a: &[u64; 4]) -> [u64; 4] {
            let mut t = [0u64; 8];
            for i in 0..3 {
                let mut c = 0u64;
                for j in i + 1..4 {
                    let x = a[i] as u128 * a[j] as u128 + t[i + j] as u128 + c as u128;
                    t[i + j] = x as u64;
                    c = (x >> 64) as u64;
                }
                t[i + 4] = c;
            }
            let mut c = 0u64;
            for i in 0..4 {
                let s = a[i] as u128 * a[i] as u128;
                let lo = ((t[2 * i] as u128) << 1) + (s as u64) as u128 + c as u128;
                let hi = ((t[2 * i + 1] as u128) << 1) + (s >> 64) + (lo >> 64);
                t[2 * i] = lo as u64;
                t[2 * i + 1] = hi as u64;
                c = (hi >> 64) as u64;
            }
            reduce(t)
        }

        /// [`Fe64`] with the `u128` products.
        #[derive(Clone, Copy, Debug, Default)]
        pub(super) struct FeU(pub(super) Fe64);

        impl zeroize::DefaultIsZeroes for FeU {}

        impl ConditionallySelectable for FeU {
            fn conditional_select(a: &Self, b: &Self, c: Choice) -> Self {
                FeU(Fe64::conditional_select(&a.0, &b.0, c))
            }
        }

        impl Field for FeU {
            const ZERO: Self = FeU(Fe64::ZERO);
            const ONE: Self = FeU(Fe64::ONE);
            fn from_bytes(b: &[u8; 32]) -> Self {
                FeU(Fe64::from_bytes(b))
            }
            fn to_bytes(&self) -> [u8; 32] {
                self.0.to_bytes()
            }
            fn from_words(w: &[u64; 4]) -> Self {
                FeU(Fe64(*w))
            }
            #[inline(always)]
            fn add(&self, o: &Self) -> Self {
                FeU(self.0.add(&o.0))
            }
            #[inline(always)]
            fn sub(&self, o: &Self) -> Self {
                FeU(self.0.sub(&o.0))
            }
            #[inline(always)]
            fn neg(&self) -> Self {
                FeU(self.0.neg())
            }
            #[inline(always)]
            fn mul(&self, o: &Self) -> Self {
                // SAFETY: only run by `x25519`, whose callers checked BMI2
                // and ADX.
                FeU(Fe64(unsafe { mul(&self.0.0, &o.0.0) }))
            }
            #[inline(always)]
            fn square(&self) -> Self {
                // SAFETY: as in `mul`.
                FeU(Fe64(unsafe { sqr(&self.0.0) }))
            }
            #[inline(always)]
            fn mul_small(&self, c: u32) -> Self {
                FeU(self.0.mul_small(c))
            }
        }

        /// The generic ladder on [`FeU`].
        #[target_feature(enable = "bmi2,adx")]
        pub(super) fn x25519(k: &[u8; 32], u: &[u8; 32]) -> [u8; 32] {
            crate::curve25519::ladder::x25519::<FeU>(k, u)
        }
    }

    /// Nanoseconds per call of `f`, the best of five runs of `n` calls.
    fn time(n: u32, mut f: impl FnMut()) -> f64 {
        (0..5)
            .map(|_| {
                let t = Instant::now();
                for _ in 0..n {
                    f();
                }
                t.elapsed().as_nanos() as f64 / n as f64
            })
            .fold(f64::INFINITY, f64::min)
    }

    /// `mul` and `square` on `F`, timed as dependent chains (latency).
    fn time_field<F: Field>() -> (f64, f64) {
        let mut x = F::from_bytes(&[0x5a; 32]);
        let y = F::from_bytes(&[0xa5; 32]);
        let m = time(1_000_000, || x = core::hint::black_box(x.mul(&y)));
        let s = time(1_000_000, || x = core::hint::black_box(x.square()));
        (m, s)
    }

    /// `mul` on `F`, four independent chains (throughput), ns per mul.
    fn time_mul_throughput<F: Field>() -> f64 {
        let mut x: [F; 4] = core::array::from_fn(|i| F::from_bytes(&[0x5a + i as u8; 32]));
        let y = F::from_bytes(&[0xa5; 32]);
        time(250_000, || {
            for v in &mut x {
                *v = v.mul(&y);
            }
            x = core::hint::black_box(x);
        }) / 4.0
    }

    /// `cargo test --release -p pqkit-common fe64_timing -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn fe64_timing() {
        if !have_features() {
            return;
        }
        let (pm, ps) = time_field::<FieldElement>();
        let (fm, fs) = time_field::<Fe64>();
        let (um, us) = time_field::<u128v::FeU>();
        let mut k = [0x42u8; 32];
        let u = super::super::BASEPOINT_U;
        let n = 2000;
        let px = time(n, || {
            k = core::hint::black_box(ladder::x25519::<FieldElement>(&k, &u));
        });
        let fx = time(n, || k = core::hint::black_box(x25519(&k, &u)));
        let gx = time(n, || {
            k = core::hint::black_box(ladder::x25519::<Fe64>(&k, &u));
        });
        let ux = time(n, || {
            // SAFETY: `have_features()` checked BMI2 and ADX.
            k = core::hint::black_box(unsafe { u128v::x25519(&k, &u) })
        });
        println!(
            "mul throughput: portable {:.2} ns, Fe64 asm {:.2} ns, Fe64 u128 {:.2} ns",
            time_mul_throughput::<FieldElement>(),
            time_mul_throughput::<Fe64>(),
            time_mul_throughput::<u128v::FeU>(),
        );
        println!("(latency)        ns/mul  ns/sqr  us/X25519");
        println!("portable 5x51  {pm:8.2} {ps:7.2} {:9.2}", px / 1e3);
        println!("Fe64 asm       {fm:8.2} {fs:7.2} {:9.2}", fx / 1e3);
        println!("  (generic ladder on Fe64)        {:9.2}", gx / 1e3);
        let mut z = Fe64::from_bytes(&[0x33; 32]);
        let inv = time(20_000, || z = core::hint::black_box(z.invert()));
        println!("invert           {:.2} us", inv / 1e3);
        println!("Fe64 u128      {um:8.2} {us:7.2} {:9.2}", ux / 1e3);
    }
}
