//! Valgrind memcheck client requests for the constant-time check (the
//! TIMECOP method, feature `ct-check`).
//!
//! [`poison`] marks a secret's bytes *undefined*. Memcheck then reports every
//! conditional branch and every memory address computed from them ("depends
//! on uninitialised value"), which is exactly a secret-dependent branch or
//! table look-up. [`unpoison`] marks bytes defined again: used on outputs
//! before they are compared, and on values a scheme makes public
//! ([`crate::ct::declassify`]).
//!
//! Outside valgrind the client request is a no-op instruction sequence. On
//! targets other than x86_64 the functions do nothing.

/// Mark the bytes of `value` as undefined (secret) for memcheck.
///
/// Takes `&mut` so the compiler must assume the bytes changed and re-read
/// them from memory afterwards, instead of reusing copies it already holds
/// in registers (which memcheck would still consider defined).
#[inline(never)]
pub fn poison<T: ?Sized>(value: &mut T) {
    request(MAKE_MEM_UNDEFINED, value);
}

/// Mark the bytes of `value` as defined (public) for memcheck. `&mut` for
/// the same reason as [`poison`]: later uses re-read memory.
#[inline(never)]
pub fn unpoison<T: ?Sized>(value: &mut T) {
    request(MAKE_MEM_DEFINED, value);
}

/// Set by [`assume_bmi2_adx`]: the curve25519 backends then take the
/// BMI2/ADX path whatever CPUID says.
#[cfg(feature = "curve25519")]
pub(crate) static ASSUME_BMI2_ADX: core::sync::atomic::AtomicBool =
    core::sync::atomic::AtomicBool::new(false);

/// Take the curve25519 field's BMI2/ADX code (MULX/ADCX/ADOX) without
/// asking CPUID. Valgrind executes these instructions but hides ADX from
/// the CPUID it reports, so without this the constant-time check would
/// only ever see the portable field. Call it only after the CPU was seen
/// to have both extensions outside valgrind (`scripts/ct-check.sh` asks
/// `pqkit-ctcheck cpu-has-adx` natively first).
#[cfg(feature = "curve25519")]
pub fn assume_bmi2_adx() {
    ASSUME_BMI2_ADX.store(true, core::sync::atomic::Ordering::Relaxed);
}

/// Whether the program runs under valgrind.
pub fn running_on_valgrind() -> bool {
    client_request(RUNNING_ON_VALGRIND, [0; 5]) != 0
}

const fn tool_base(a: u8, b: u8) -> usize {
    ((a as usize) << 24) | ((b as usize) << 16)
}
const RUNNING_ON_VALGRIND: usize = 0x1001;
const MAKE_MEM_UNDEFINED: usize = tool_base(b'M', b'C') + 1;
const MAKE_MEM_DEFINED: usize = tool_base(b'M', b'C') + 2;

fn request<T: ?Sized>(code: usize, value: &mut T) {
    let len = size_of_val(value);
    let ptr: *mut T = value;
    let addr = ptr.cast::<u8>() as usize;
    client_request(code, [addr, len, 0, 0, 0]);
}

#[cfg(target_arch = "x86_64")]
fn client_request(code: usize, args: [usize; 5]) -> usize {
    let block: [usize; 6] = [code, args[0], args[1], args[2], args[3], args[4]];
    let mut result: usize = 0;
    // SAFETY: this is valgrind's "special instruction preamble": four
    // rotations of rdi by 3+13+61+51 = 128 bits (a no-op on the value, and rdi
    // is declared clobbered) followed by `xchg rbx, rbx` (a no-op). Natively it
    // changes nothing; under valgrind it reads the 6-word request block through
    // rax, which points to `block`, alive for the whole statement, and writes
    // the result to rdx. Memcheck's MAKE_MEM_* requests change only its shadow
    // state, never program memory.
    #[allow(unsafe_code)]
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            inout("rdx") result,
            in("rax") block.as_ptr(),
            out("rdi") _,
            options(nostack, preserves_flags),
        );
    }
    result
}

#[cfg(not(target_arch = "x86_64"))]
fn client_request(_code: usize, _args: [usize; 5]) -> usize {
    0
}
