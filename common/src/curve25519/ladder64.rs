//! The X25519 Montgomery ladder on four 64-bit limbs (BMI2 and ADX), each
//! ladder step one inline-assembly block over a workspace in memory.
//!
//! The same function as `ladder::x25519` (RFC 7748 §5), computed in fewer
//! instructions:
//!
//! - The state is the pair {sum, double} rather than (R0, R1): every step
//!   computes the differential sum `M + N` into `M` and doubles the point
//!   the scalar bit picks into `N`. Which one to double is a `cmov` of the
//!   two precomputed `x - z` and `x + z` (the bit equals the previous one:
//!   double `N`, else `M`), so the step needs no conditional swap.
//! - Bit 254 (always set by clamping) starts the ladder from `M = P`,
//!   `N = 2P`; bits 2, 1 and 0 (always clear) are three plain doublings.
//!   251 full steps remain.
//! - The two products of the differential addition keep five limbs (the
//!   first reduction stage only); their sum and difference reduce once.
//! - Values stay below `2^256`, congruent modulo p (products below
//!   `2^255 + 2^15`); additions and subtractions correct by `2p = 2^256 - 38`
//!   once. The bound of every operation is stated at its macro.
//!
//! Every block is straight-line code: the scalar bits select through
//! `cmov` and no branch, index or early exit depends on a secret.

// The arithmetic is inline assembly; every block states its safety.
#![allow(unsafe_code)]

use super::fe64::{Fe64, fe64_available};
use super::fieldops::Field;

// Workspace layout: byte offsets of the field elements (four limbs each,
// five for the two unreduced products).
macro_rules! X1 {
    () => {
        "0"
    };
}
macro_rules! XM {
    () => {
        "32"
    };
}
macro_rules! ZM {
    () => {
        "64"
    };
}
macro_rules! XN {
    () => {
        "96"
    };
}
macro_rules! ZN {
    () => {
        "128"
    };
}
macro_rules! DM {
    () => {
        "160"
    };
}
macro_rules! SM {
    () => {
        "192"
    };
}
macro_rules! DN {
    () => {
        "224"
    };
}
macro_rules! SN {
    () => {
        "256"
    };
}
macro_rules! D {
    () => {
        "288"
    };
}
macro_rules! S {
    () => {
        "320"
    };
}
macro_rules! P {
    () => {
        "352"
    };
}
macro_rules! E {
    () => {
        "384"
    };
}
macro_rules! DPRO {
    () => {
        "416"
    };
}
macro_rules! SPRO {
    () => {
        "448"
    };
}
macro_rules! DMSN {
    () => {
        "480"
    };
}
macro_rules! DNSM {
    () => {
        "520"
    };
}

/// Workspace length in `u64` words (560 bytes).
const WORDS: usize = 70;

/// `[rsi + off + k]`, a limb of the workspace.
macro_rules! at {
    ($off:expr, $k:literal) => {
        concat!("qword ptr [rsi + ", $off, " + ", $k, "]")
    };
}

/// The 4 x 4 schoolbook product of `[a]` and `[b]` into r15..r8 (eight
/// limbs), then `low + 38 high` into r12..r8 (below `39 * 2^256`).
/// Clobbers rax, rcx, rdx, rdi, r8-r15.
macro_rules! mul_first_stage {
    ($a:expr, $b:expr) => {
        concat!(
            "mov rdx, ",
            at!($b, 0),
            "\n",
            "mulx r9, r8, ",
            at!($a, 0),
            "\n",
            "mulx r10, rax, ",
            at!($a, 8),
            "\n",
            "add r9, rax\n",
            "mulx r11, rax, ",
            at!($a, 16),
            "\n",
            "adc r10, rax\n",
            "mulx r12, rax, ",
            at!($a, 24),
            "\n",
            "adc r11, rax\n",
            "adc r12, 0\n",
            "mov rdx, ",
            at!($b, 8),
            "\n",
            "xor ecx, ecx\n",
            "mulx rdi, rax, ",
            at!($a, 0),
            "\n",
            "adcx r9, rax\n",
            "adox r10, rdi\n",
            "mulx rdi, rax, ",
            at!($a, 8),
            "\n",
            "adcx r10, rax\n",
            "adox r11, rdi\n",
            "mulx rdi, rax, ",
            at!($a, 16),
            "\n",
            "adcx r11, rax\n",
            "adox r12, rdi\n",
            "mulx r13, rax, ",
            at!($a, 24),
            "\n",
            "adcx r12, rax\n",
            "adox r13, rcx\n",
            "adcx r13, rcx\n",
            "mov rdx, ",
            at!($b, 16),
            "\n",
            "xor ecx, ecx\n",
            "mulx rdi, rax, ",
            at!($a, 0),
            "\n",
            "adcx r10, rax\n",
            "adox r11, rdi\n",
            "mulx rdi, rax, ",
            at!($a, 8),
            "\n",
            "adcx r11, rax\n",
            "adox r12, rdi\n",
            "mulx rdi, rax, ",
            at!($a, 16),
            "\n",
            "adcx r12, rax\n",
            "adox r13, rdi\n",
            "mulx r14, rax, ",
            at!($a, 24),
            "\n",
            "adcx r13, rax\n",
            "adox r14, rcx\n",
            "adcx r14, rcx\n",
            "mov rdx, ",
            at!($b, 24),
            "\n",
            "xor ecx, ecx\n",
            "mulx rdi, rax, ",
            at!($a, 0),
            "\n",
            "adcx r11, rax\n",
            "adox r12, rdi\n",
            "mulx rdi, rax, ",
            at!($a, 8),
            "\n",
            "adcx r12, rax\n",
            "adox r13, rdi\n",
            "mulx rdi, rax, ",
            at!($a, 16),
            "\n",
            "adcx r13, rax\n",
            "adox r14, rdi\n",
            "mulx r15, rax, ",
            at!($a, 24),
            "\n",
            "adcx r14, rax\n",
            "adox r15, rcx\n",
            "adcx r15, rcx\n",
            reduce_38!(),
        )
    };
}

/// The square of `[a]`: the six cross products once, doubled on CF while
/// the four squares go on OF, into r15..r8; then `low + 38 high` into
/// r12..r8 (below `39 * 2^256`). Clobbers rax, rcx, rdx, rdi, r8-r15.
macro_rules! sqr_first_stage {
    ($a:expr) => {
        concat!(
            "mov rdx, ",
            at!($a, 0),
            "\n",
            "mulx r10, r9, ",
            at!($a, 8),
            "\n",
            "mulx r12, r11, ",
            at!($a, 24),
            "\n",
            "mulx rdi, rax, ",
            at!($a, 16),
            "\n",
            "add r10, rax\n",
            "adc r11, rdi\n",
            "mov rdx, ",
            at!($a, 24),
            "\n",
            "mulx r14, r13, ",
            at!($a, 16),
            "\n",
            "mulx rdi, rax, ",
            at!($a, 8),
            "\n",
            "adc r12, rax\n",
            "adc r13, rdi\n",
            "adc r14, 0\n",
            "mov rdx, ",
            at!($a, 8),
            "\n",
            "mulx rdi, rax, ",
            at!($a, 16),
            "\n",
            "add r11, rax\n",
            "adc r12, rdi\n",
            "adc r13, 0\n",
            "adc r14, 0\n",
            "mov rdx, ",
            at!($a, 0),
            "\n",
            "mulx rdi, r8, rdx\n",
            "xor ecx, ecx\n",
            "adcx r9, r9\n",
            "adox r9, rdi\n",
            "mov rdx, ",
            at!($a, 8),
            "\n",
            "mulx rdi, rax, rdx\n",
            "adcx r10, r10\n",
            "adox r10, rax\n",
            "adcx r11, r11\n",
            "adox r11, rdi\n",
            "mov rdx, ",
            at!($a, 16),
            "\n",
            "mulx rdi, rax, rdx\n",
            "adcx r12, r12\n",
            "adox r12, rax\n",
            "adcx r13, r13\n",
            "adox r13, rdi\n",
            "mov rdx, ",
            at!($a, 24),
            "\n",
            "mulx r15, rax, rdx\n",
            "adcx r14, r14\n",
            "adox r14, rax\n",
            "adcx r15, rcx\n",
            "adox r15, rcx\n",
            reduce_38!(),
        )
    };
}

/// r12..r8 = r11..r8 + 38 * r15..r12 (a 512-bit value below 2^512 into
/// five limbs below `39 * 2^256`, so r12 <= 38).
macro_rules! reduce_38 {
    () => {
        concat!(
            "mov edx, 38\n",
            "xor ecx, ecx\n",
            "mulx rdi, rax, r12\n",
            "adcx r8, rax\n",
            "adox r9, rdi\n",
            "mulx rdi, rax, r13\n",
            "adcx r9, rax\n",
            "adox r10, rdi\n",
            "mulx rdi, rax, r14\n",
            "adcx r10, rax\n",
            "adox r11, rdi\n",
            "mulx r12, rax, r15\n",
            "adcx r11, rax\n",
            "adox r12, rcx\n",
            "adcx r12, rcx\n",
        )
    };
}

/// r11..r8 = r12..r8 mod p, folding the bits from 255 up (q = value >> 255,
/// below 2^11 for r12 < 2^10) times 19: the result is below
/// `2^255 + 19 q`, and with bit 255 cleared first the addition cannot
/// carry out.
macro_rules! fold_255 {
    () => {
        concat!(
            "shld r12, r11, 1\n",
            "btr r11, 63\n",
            "imul r12, r12, 19\n",
            "add r8, r12\n",
            "adc r9, 0\n",
            "adc r10, 0\n",
            "adc r11, 0\n",
        )
    };
}

/// Store r11..r8 to `[d]`.
macro_rules! store4 {
    ($d:expr) => {
        concat!(
            "mov ",
            at!($d, 0),
            ", r8\n",
            "mov ",
            at!($d, 8),
            ", r9\n",
            "mov ",
            at!($d, 16),
            ", r10\n",
            "mov ",
            at!($d, 24),
            ", r11\n",
        )
    };
}

/// `[d] = [a] * [b]`, below `2^255 + 2^11`, for any inputs below `2^256`.
macro_rules! mul4 {
    ($d:expr, $a:expr, $b:expr) => {
        concat!(mul_first_stage!($a, $b), fold_255!(), store4!($d))
    };
}

/// `[d] = [a]^2`, below `2^255 + 2^11`, for any input below `2^256`.
macro_rules! sqr4 {
    ($d:expr, $a:expr) => {
        concat!(sqr_first_stage!($a), fold_255!(), store4!($d))
    };
}

/// `[d] = [a] * [b]` in five limbs, below `39 * 2^256` (first stage only).
macro_rules! mul5 {
    ($d:expr, $a:expr, $b:expr) => {
        concat!(
            mul_first_stage!($a, $b),
            store4!($d),
            "mov ",
            at!($d, 32),
            ", r12\n",
        )
    };
}

/// Four limbs of `[a]` into r11..r8.
macro_rules! load4 {
    ($a:expr) => {
        concat!(
            "mov r8, ",
            at!($a, 0),
            "\n",
            "mov r9, ",
            at!($a, 8),
            "\n",
            "mov r10, ",
            at!($a, 16),
            "\n",
            "mov r11, ",
            at!($a, 24),
            "\n",
        )
    };
}

/// Five limbs of `[a]` into r12..r8.
macro_rules! load5 {
    ($a:expr) => {
        concat!(load4!($a), "mov r12, ", at!($a, 32), "\n")
    };
}

/// r11..r8 `op` the four limbs of `[b]`: `$op` on limb 0 (`add`, `sub`),
/// `$opc` with the carry on the others (`adc`, `sbb`).
macro_rules! chain4 {
    ($op:literal, $opc:literal, $b:expr) => {
        concat!(
            $op,
            " r8, ",
            at!($b, 0),
            "\n",
            $opc,
            " r9, ",
            at!($b, 8),
            "\n",
            $opc,
            " r10, ",
            at!($b, 16),
            "\n",
            $opc,
            " r11, ",
            at!($b, 24),
            "\n",
        )
    };
}

/// `[d] = [a] + [b]` for two five-limb values below `39 * 2^256`: the sum
/// is below `78 * 2^256`, q below 2^8, the result below `2^255 + 2^13`.
macro_rules! add5_4 {
    ($d:expr, $a:expr, $b:expr) => {
        concat!(
            load5!($a),
            chain4!("add", "adc", $b),
            "adc r12, ",
            at!($b, 32),
            "\n",
            fold_255!(),
            store4!($d),
        )
    };
}

/// `[d] = [a] - [b] + 1000 p` for two five-limb values below `39 * 2^256`:
/// `1000 p = 500 * 2^256 - 19000` exceeds `[b]`, so the value is positive
/// and below `539 * 2^256`; q is below 2^11, the result below
/// `2^255 + 2^16`.
macro_rules! sub5_4 {
    ($d:expr, $a:expr, $b:expr) => {
        concat!(
            load5!($a),
            chain4!("sub", "sbb", $b),
            "sbb r12, ",
            at!($b, 32),
            "\n",
            "sub r8, 19000\n",
            "sbb r9, 0\n",
            "sbb r10, 0\n",
            "sbb r11, 0\n",
            "sbb r12, 0\n",
            "add r12, 500\n",
            fold_255!(),
            store4!($d),
        )
    };
}

/// `[d] = [a] op [b]` modulo `2p = 2^256 - 38` for `add4`/`sub4`: the
/// four-limb `$op`/`$opc` chain, then, when it carries (borrows) out of
/// 256 bits, the same chain once more with 38 (`2^256 = 38 + 2p`).
macro_rules! addsub4 {
    ($d:expr, $a:expr, $b:expr, $op:literal, $opc:literal) => {
        concat!(
            "xor ecx, ecx\n",
            load4!($a),
            chain4!($op, $opc, $b),
            "mov eax, 38\n",
            "cmovnc rax, rcx\n",
            $op,
            " r8, rax\n",
            $opc,
            " r9, rcx\n",
            $opc,
            " r10, rcx\n",
            $opc,
            " r11, rcx\n",
            store4!($d),
        )
    };
}

/// `[d] = [a] + [b]`, adding `38 = 2^256 - 2p` when the sum carries out of
/// 256 bits. Below `2^256` when `[a] + [b] < 2^257 - 38`, which holds when
/// one input is below `2^256 - 38` (every product is).
macro_rules! add4 {
    ($d:expr, $a:expr, $b:expr) => {
        addsub4!($d, $a, $b, "add", "adc")
    };
}

/// `[d] = [a] - [b]`, subtracting 38 (adding `2p = 2^256 - 38`) when the
/// difference borrows. In `[0, 2^256)` when `[b] < 2^256 - 38` (every
/// product is).
macro_rules! sub4 {
    ($d:expr, $a:expr, $b:expr) => {
        addsub4!($d, $a, $b, "sub", "sbb")
    };
}

/// `[d] = 121666 [p] + [e]` (RFC 7748's `a24 + 1`): below
/// `121667 * 2^256`, q below 2^18, the result below `2^255 + 2^23`.
macro_rules! cmadd4 {
    ($d:expr, $p:expr, $e:expr) => {
        concat!(
            load4!($e),
            "mov edx, 121666\n",
            "xor ecx, ecx\n",
            "mulx rdi, rax, ",
            at!($p, 0),
            "\n",
            "adcx r8, rax\n",
            "adox r9, rdi\n",
            "mulx rdi, rax, ",
            at!($p, 8),
            "\n",
            "adcx r9, rax\n",
            "adox r10, rdi\n",
            "mulx rdi, rax, ",
            at!($p, 16),
            "\n",
            "adcx r10, rax\n",
            "adox r11, rdi\n",
            "mulx r12, rax, ",
            at!($p, 24),
            "\n",
            "adcx r11, rax\n",
            "adox r12, rcx\n",
            "adcx r12, rcx\n",
            fold_255!(),
            store4!($d),
        )
    };
}

/// `[d] = ZF ? [y] : [x]` (the flags of a preceding `test`; `mov` keeps
/// them). Clobbers rax and rdi.
macro_rules! mux4 {
    ($d:expr, $x:expr, $y:expr) => {
        concat!(
            "mov rax, ",
            at!($x, 0),
            "\n",
            "mov rdi, ",
            at!($y, 0),
            "\n",
            "cmovz rax, rdi\n",
            "mov ",
            at!($d, 0),
            ", rax\n",
            "mov rax, ",
            at!($x, 8),
            "\n",
            "mov rdi, ",
            at!($y, 8),
            "\n",
            "cmovz rax, rdi\n",
            "mov ",
            at!($d, 8),
            ", rax\n",
            "mov rax, ",
            at!($x, 16),
            "\n",
            "mov rdi, ",
            at!($y, 16),
            "\n",
            "cmovz rax, rdi\n",
            "mov ",
            at!($d, 16),
            ", rax\n",
            "mov rax, ",
            at!($x, 24),
            "\n",
            "mov rdi, ",
            at!($y, 24),
            "\n",
            "cmovz rax, rdi\n",
            "mov ",
            at!($d, 24),
            ", rax\n",
        )
    };
}

/// `(XN : ZN) <- 2 (XN : ZN)`: `s = (x + z)^2`, `d = (x - z)^2`,
/// `p = s - d = 4xz`, `x' = s d`, `z' = p (d + 121666 p)`.
macro_rules! double {
    () => {
        concat!(
            sub4!(D!(), XN!(), ZN!()),
            add4!(S!(), XN!(), ZN!()),
            sqr4!(D!(), D!()),
            sqr4!(S!(), S!()),
            sub4!(P!(), S!(), D!()),
            cmadd4!(E!(), P!(), D!()),
            mul4!(XN!(), S!(), D!()),
            mul4!(ZN!(), P!(), E!()),
        )
    };
}

/// One doubling of `(XN : ZN)` in the workspace at `w`.
#[inline(always)]
fn double(w: &mut [u64; WORDS]) {
    // SAFETY: the block reads and writes only the workspace `w` (560
    // bytes, rsi; every offset used is below 560 - 8), writes only the
    // registers declared below, and uses no stack. BMI2 and ADX are present
    // by the invariant of `fe64` (the only caller, `x25519`, runs after
    // `fe64_available()`).
    unsafe {
        core::arch::asm!(
            double!(),
            in("rsi") w.as_mut_ptr(),
            out("rax") _, out("rcx") _, out("rdx") _, out("rdi") _,
            out("r8") _, out("r9") _, out("r10") _, out("r11") _,
            out("r12") _, out("r13") _, out("r14") _, out("r15") _,
            options(nostack),
        );
    }
}

/// One full ladder step: `M <- M + N` (difference `X1`) and `N <- 2 N`
/// when `differ` is 0, `N <- 2 M` when it is 1.
///
/// The operations are ordered for the out-of-order core, not by formula:
/// the addition's longer chain (two products, their sum and difference,
/// two squares, the product by `X1`) is issued early and the doubling's
/// independent work fills its latency, and `ZM` comes before `ZN` so the
/// next step's `M - N` and `M + N` can start sooner. Other orders of the
/// same operations measured slower (`benches`' interleaved
/// `X25519/agree` row).
#[inline(always)]
fn step(w: &mut [u64; WORDS], differ: u64) {
    // SAFETY: as in `double`: only the workspace (rsi) and the declared
    // registers are touched, no stack; BMI2 and ADX by the `fe64`
    // invariant. `differ` (rdx) is consumed by the `test` before the first
    // `mulx` overwrites rdx.
    unsafe {
        core::arch::asm!(
            sub4!(DM!(), XM!(), ZM!()),
            add4!(SM!(), XM!(), ZM!()),
            sub4!(DN!(), XN!(), ZN!()),
            add4!(SN!(), XN!(), ZN!()),
            "test rdx, rdx",
            mux4!(D!(), DM!(), DN!()),
            mux4!(S!(), SM!(), SN!()),
            mul5!(DNSM!(), SM!(), DN!()),
            mul5!(DMSN!(), SN!(), DM!()),
            sqr4!(D!(), D!()),
            sub5_4!(DPRO!(), DMSN!(), DNSM!()),
            add5_4!(SPRO!(), DMSN!(), DNSM!()),
            sqr4!(S!(), S!()),
            sqr4!(DPRO!(), DPRO!()),
            sub4!(P!(), S!(), D!()),
            sqr4!(XM!(), SPRO!()),
            cmadd4!(E!(), P!(), D!()),
            mul4!(XN!(), S!(), D!()),
            mul4!(ZM!(), DPRO!(), X1!()),
            mul4!(ZN!(), P!(), E!()),
            in("rsi") w.as_mut_ptr(),
            inout("rdx") differ => _,
            out("rax") _, out("rcx") _, out("rdi") _,
            out("r8") _, out("r9") _, out("r10") _, out("r11") _,
            out("r12") _, out("r13") _, out("r14") _, out("r15") _,
            options(nostack),
        );
    }
}

/// The four limbs at word offset `at` of the workspace.
#[inline(always)]
fn get(w: &[u64; WORDS], at: usize) -> [u64; 4] {
    [w[at], w[at + 1], w[at + 2], w[at + 3]]
}

/// Word offsets of the elements the Rust code touches.
const W_X1: usize = 0;
const W_XM: usize = 4;
const W_ZM: usize = 8;
const W_XN: usize = 12;
const W_ZN: usize = 16;

/// X25519(scalar, u) (RFC 7748 §5) on four 64-bit limbs: the kernel a
/// backend with BMI2 and ADX runs, equal to `ladder::x25519` on every
/// input (tested on random and edge inputs beside it).
///
/// Callers check [`fe64_available`] first (the `fe64` invariant); the
/// target features make the call `unsafe` outside code that has them.
#[target_feature(enable = "bmi2,adx")]
pub(crate) fn x25519_ladder64(scalar: &[u8; 32], u: &[u8; 32]) -> [u8; 32] {
    use zeroize::Zeroize;
    debug_assert!(fe64_available());
    let mut k = super::ladder::clamp(scalar);
    let mut w = [0u64; WORDS];
    let x1 = Fe64::from_bytes(u).0;
    w[W_X1..W_X1 + 4].copy_from_slice(&x1);
    // Bit 254 is set: M = P = (x1 : 1), N = 2P; the previous bit is 1.
    w[W_XM..W_XM + 4].copy_from_slice(&x1);
    w[W_ZM] = 1;
    w[W_XN..W_XN + 4].copy_from_slice(&x1);
    w[W_ZN] = 1;
    double(&mut w);
    let mut prev = 1u64;
    for t in (3..254).rev() {
        let bit = ((k[t >> 3] >> (t & 7)) & 1) as u64;
        step(&mut w, bit ^ prev);
        prev = bit;
    }
    // R0 is M when the last bit was set, else N: into N, by mask.
    let mask = 0u64.wrapping_sub(prev);
    for i in 0..8 {
        let (m, n) = (w[W_XM + i], w[W_XN + i]);
        w[W_XN + i] = n ^ (mask & (m ^ n));
    }
    for _ in 0..3 {
        double(&mut w);
    }
    let (xn, zn) = (Fe64(get(&w, W_XN)), Fe64(get(&w, W_ZN)));
    let out = xn.mul(&zn.invert()).to_bytes();
    k.zeroize();
    w.zeroize();
    prev.zeroize();
    out
}

/// [`x25519_ladder64`] when this CPU has BMI2 and ADX, else `None`.
#[inline]
pub(crate) fn x25519_checked(scalar: &[u8; 32], u: &[u8; 32]) -> Option<[u8; 32]> {
    if fe64_available() {
        // SAFETY: BMI2 and ADX, the target features of `x25519_ladder64`,
        // were detected on this CPU just above.
        Some(unsafe { x25519_ladder64(scalar, u) })
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    //! Every workspace operation of the ladder on its own, against the
    //! portable field, on edge and random inputs meeting the operation's
    //! stated precondition, with the stated output bound checked; the whole
    //! ladder is tested against `ladder::x25519` in `fe64`'s tests.
    use super::*;
    use crate::curve25519::FieldElement;
    use crate::testutil::rng;
    use std::vec::Vec;

    /// The value of little-endian limbs modulo p.
    fn fe(limbs: &[u64]) -> FieldElement {
        let mut two64 = [0u8; 32];
        two64[8] = 1;
        let two64 = FieldElement::from_bytes(&two64);
        limbs.iter().rev().fold(FieldElement::ZERO, |acc, &l| {
            let mut b = [0u8; 32];
            b[..8].copy_from_slice(&l.to_le_bytes());
            acc.mul(&two64).add(&FieldElement::from_bytes(&b))
        })
    }

    /// Whether four limbs are below `2^255 + 2^k`.
    fn below(x: &[u64], k: u32) -> bool {
        x[3] < 1 << 63 || (x[3] == 1 << 63 && x[2] == 0 && x[1] == 0 && x[0] < 1 << k)
    }

    /// Runs one operation: inputs at `DM` and `SM` (five limbs at `DMSN`,
    /// `DNSM` for the five-limb ones), output at `XM` (`DMSN` for `mul5`).
    fn run(op: &str, a: &[u64], b: &[u64], zf: bool) -> Vec<u64> {
        let mut w = [0u64; WORDS];
        let five = matches!(op, "add5_4" | "sub5_4");
        let (ia, ib) = if five { (60, 65) } else { (20, 24) };
        w[ia..ia + a.len()].copy_from_slice(a);
        w[ib..ib + b.len()].copy_from_slice(b);
        let flag = u64::from(!zf);
        let p = w.as_mut_ptr();
        macro_rules! go {
            ($($t:tt)*) => {
                // SAFETY: the block touches only the workspace (rsi) and the
                // declared registers; BMI2 and ADX were checked by the
                // caller (`have()`).
                unsafe {
                    core::arch::asm!(
                        $($t)*,
                        in("rsi") p,
                        inout("rdx") flag => _,
                        out("rax") _, out("rcx") _, out("rdi") _,
                        out("r8") _, out("r9") _, out("r10") _, out("r11") _,
                        out("r12") _, out("r13") _, out("r14") _, out("r15") _,
                        options(nostack),
                    )
                }
            };
        }
        match op {
            "mul4" => go!(mul4!(XM!(), DM!(), SM!())),
            "sqr4" => go!(sqr4!(XM!(), DM!())),
            "mul5" => go!(mul5!(DMSN!(), DM!(), SM!())),
            "add5_4" => go!(add5_4!(XM!(), DMSN!(), DNSM!())),
            "sub5_4" => go!(sub5_4!(XM!(), DMSN!(), DNSM!())),
            "add4" => go!(add4!(XM!(), DM!(), SM!())),
            "sub4" => go!(sub4!(XM!(), DM!(), SM!())),
            "cmadd4" => go!(cmadd4!(XM!(), DM!(), SM!())),
            "mux4" => go!("test rdx, rdx", mux4!(XM!(), DM!(), SM!())),
            _ => unreachable!(),
        }
        if op == "mul5" {
            w[60..65].to_vec()
        } else {
            w[4..8].to_vec()
        }
    }

    fn have() -> bool {
        std::is_x86_feature_detected!("bmi2") && std::is_x86_feature_detected!("adx")
    }

    /// Edge values below `2^256` and random ones.
    fn values() -> Vec<[u64; 4]> {
        let m = u64::MAX;
        let mut v = std::vec![
            [0, 0, 0, 0],
            [1, 0, 0, 0],
            [m - 19, m, m, m >> 1],         // p - 1
            [m - 18, m, m, m >> 1],         // p
            [m - 17, m, m, m >> 1],         // p + 1
            [m, m, m, m >> 1],              // 2^255 - 1
            [(1 << 23) - 1, 0, 0, 1 << 63], // 2^255 + 2^23 - 1
            [m - 38, m, m, m],              // 2^256 - 39
            [m - 37, m, m, m],              // 2p
            [m, m, m, m],                   // 2^256 - 1
            [0, 0, 0, 1 << 63],
        ];
        let mut next = rng(0x1ad_d364);
        for _ in 0..300 {
            v.push([next(), next(), next(), next()]);
        }
        v
    }

    #[test]
    fn operations_match_portable() {
        if !have() {
            return;
        }
        let vals = values();
        // Five-limb inputs: products of mul5 (below 39 * 2^256), including
        // the largest.
        let mut fives: Vec<Vec<u64>> =
            std::vec![std::vec![u64::MAX, u64::MAX, u64::MAX, u64::MAX, 38]];
        for (i, a) in vals.iter().enumerate().step_by(7) {
            let b = &vals[(i * 13 + 5) % vals.len()];
            let t = run("mul5", a, b, false);
            assert!(t[4] <= 38);
            assert_eq!(fe(&t), fe(a).mul(&fe(b)), "mul5 {a:x?} {b:x?}");
            fives.push(t);
        }
        for a in &vals {
            let (pa, tight_a) = (fe(a), below(a, 23));
            let r = run("sqr4", a, &[], false);
            assert_eq!(fe(&r), pa.square(), "sqr4 {a:x?}");
            assert!(below(&r, 11));
            for b in &vals {
                let (pb, tight_b) = (fe(b), below(b, 23));
                let r = run("mul4", a, b, false);
                assert_eq!(fe(&r), pa.mul(&pb), "mul4 {a:x?} {b:x?}");
                assert!(below(&r, 11));
                let r = run("cmadd4", a, b, false);
                assert_eq!(
                    fe(&r),
                    pa.mul_small(121666).add(&pb),
                    "cmadd4 {a:x?} {b:x?}"
                );
                assert!(below(&r, 23));
                // add4: one input below 2^256 - 38 (products are).
                if tight_a || tight_b {
                    let r = run("add4", a, b, false);
                    assert_eq!(fe(&r), pa.add(&pb), "add4 {a:x?} {b:x?}");
                }
                // sub4: the subtrahend below 2^256 - 38.
                if tight_b {
                    let r = run("sub4", a, b, false);
                    assert_eq!(fe(&r), pa.sub(&pb), "sub4 {a:x?} {b:x?}");
                }
                assert_eq!(run("mux4", a, b, true), b.to_vec());
                assert_eq!(run("mux4", a, b, false), a.to_vec());
            }
        }
        for a in &fives {
            for b in &fives {
                let r = run("add5_4", a, b, false);
                assert_eq!(fe(&r), fe(a).add(&fe(b)), "add5_4 {a:x?} {b:x?}");
                assert!(below(&r, 13));
                let r = run("sub5_4", a, b, false);
                assert_eq!(fe(&r), fe(a).sub(&fe(b)), "sub5_4 {a:x?} {b:x?}");
                assert!(below(&r, 16));
            }
        }
    }
}
