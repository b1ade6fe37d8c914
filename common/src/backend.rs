//! Backends and run-time dispatch.
//!
//! A backend is a zero-sized *capability token* implementing [`Backend`],
//! which bundles one kernel trait per ring ([`crate::q3329::Ops`],
//! [`crate::q8380417::Ops`], [`crate::q12289::Ops`]), the RNS kernels of
//! FN-DSA key generation ([`crate::mp31::Ops`]), Saber's unpacking
//! ([`crate::pow2::Ops`]), the 4-way Keccak ([`crate::keccak::X4Ops`]) and
//! the X25519 ladder ([`crate::curve25519::Ops`]), each compiled in by its
//! feature (`q3329`, `q8380417`, `q12289`, `pow2`, `keccak`, `curve25519`;
//! all on by default). Kernels work on whole polynomials held in plain
//! arrays (`[i16; 256]`, `[i32; 256]`, ...): the AVX2 kernels load and store
//! 256-bit lanes themselves. This keeps the trait narrow, the portable kernels
//! a readable executable specification, and the algorithm code free of any
//! vector type.
//!
//! * [`Portable`] is always compiled and can be created by anyone.
//! * `Avx2` (x86_64) can only be obtained from this module after run-time
//!   detection (`cpufeatures`) confirmed AVX2; its kernels are
//!   `#[target_feature(enable = "avx2")]` functions in each ring's `avx2`
//!   module, so intrinsics inline in a default (non `target-cpu=native`) build.
//! * AVX-512 is a detected *level* of the AVX2 backend: on CPUs (and OSes)
//!   with AVX-512F and AVX-512VL the `Avx2` token reports it (`has_avx512`),
//!   and the kernels that have an AVX-512 form (today the 4-way Keccak) use it;
//!   [`selected`] then reports [`BackendKind::Avx512`]. Everything else runs
//!   the AVX2 kernels.
//! * `Simd128` (WebAssembly) exists in builds with the `simd128` target
//!   feature (`-C target-feature=+simd128`): a WebAssembly engine
//!   validates the whole module before it runs, so a module with SIMD
//!   instructions runs only where they are supported, and no run-time
//!   detection is needed (nor possible). Its kernels (`simd128` modules of
//!   the rings and of Keccak) use `core::arch::wasm32`.
//! * `Neon` (aarch64) exists in builds for aarch64 with the `neon` target
//!   feature (every aarch64 Linux, macOS and Windows target has it): NEON
//!   is part of the baseline, so the token needs no detection. Its kernels
//!   (`neon` modules of the rings and of Keccak) use
//!   `core::arch::aarch64`; the optional FEAT_SHA3 instructions (EOR3,
//!   RAX1, XAR, BCAX) are detected at run time (`Neon::has_sha3`).
//!
//! ## Adding a ring or a backend
//!
//! Every kernel method of every ring trait has a default: the portable
//! kernel. A new backend implements each ring trait with an empty `impl`
//! and overrides only the kernels it accelerates; a new ring's trait can
//! start with one kernel and grow. Kernel names carry the ring
//! (`ntt_q3329`, `ntt_q8380417`, `ntt_q12289`, `ntt_mp31`), so the traits
//! combine in [`Backend`] without clashes; each backend's impls live in
//! that backend's file of the ring (`q3329/avx2.rs`, ...).
//!
//! [`dispatch`] selects once, caches, and enters the AVX2 path through a
//! single `#[target_feature(enable = "avx2")]` entry point.
//!
//! Forcing a backend: `PQKIT_BACKEND=portable` (or `avx2`, which keeps
//! AVX-512 kernels off) in the environment (read once, needs the `std`
//! feature), or `--cfg pqkit_portable` at build time.
//!
//! [`vectorized`] is the explicit entry for code that has no kernels of
//! its own but should be *compiled* with the best instruction set (FN-DSA's
//! floating-point FFT and ffLDL loops, which LLVM vectorises).

/// A supertrait of [`Backend`] for one family of kernels: the family's
/// kernel trait when its feature is on, an empty trait otherwise (so that
/// a crate that needs one ring compiles no other).
macro_rules! family {
    ($feature:literal, $name:ident, $kernels:path) => {
        #[doc = concat!("The `", stringify!($kernels), "` kernels when the `", $feature, "` feature is on; nothing otherwise.")]
        #[cfg(feature = $feature)]
        pub trait $name: $kernels {}
        #[cfg(feature = $feature)]
        impl<T: $kernels> $name for T {}
        #[doc = concat!("The `", stringify!($kernels), "` kernels when the `", $feature, "` feature is on; nothing otherwise.")]
        #[cfg(not(feature = $feature))]
        pub trait $name {}
        #[cfg(not(feature = $feature))]
        impl<T> $name for T {}
    };
}

family!("q3329", Q3329Ops, crate::q3329::Ops);
family!("q8380417", Q8380417Ops, crate::q8380417::Ops);
family!("q12289", Q12289Ops, crate::q12289::Ops);
family!("q12289", Mp31Ops, crate::mp31::Ops);
family!("pow2", Pow2Ops, crate::pow2::Ops);
family!("keccak", KeccakOps, crate::keccak::X4Ops);
family!("curve25519", Curve25519Ops, crate::curve25519::Ops);

mod sealed {
    pub trait Sealed {}
}

/// A backend: one implementation of every kernel trait, as a capability token.
///
/// Sealed: the implementations are [`Portable`], on x86_64 `Avx2`, on
/// aarch64 `Neon`, and on WebAssembly with the `simd128` target feature
/// `Simd128`.
pub trait Backend:
    Copy
    + core::fmt::Debug
    + Send
    + Sync
    + 'static
    + sealed::Sealed
    + Q3329Ops
    + Q8380417Ops
    + Q12289Ops
    + Mp31Ops
    + Pow2Ops
    + KeccakOps
    + Curve25519Ops
{
    /// Which backend (and level) this token runs.
    fn kind(self) -> BackendKind;
    /// Short lower-case name (`"portable"`, `"avx2"`, `"avx512"`).
    fn name(self) -> &'static str {
        self.kind().name()
    }
}

/// The portable backend: plain Rust, the executable specification.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Portable;

impl sealed::Sealed for Portable {}
impl Backend for Portable {
    #[inline]
    fn kind(self) -> BackendKind {
        BackendKind::Portable
    }
}

/// Make the calling function's stack frame 64-byte aligned.
///
/// A SIMD function whose 256-bit values outnumber the 16 vector registers
/// spills some to its frame. Without a realigned frame the compiler gives
/// those 32-byte slots 16-byte alignment and moves them with unaligned
/// loads and stores, and half of them straddle a cache line, which slows
/// the AVX2 Keccak permutation. A local with 64-byte
/// alignment whose address escapes makes the compiler realign the frame,
/// and the spill slots then get their natural alignment. It costs one
/// store on entry.
#[cfg(all(target_arch = "x86_64", feature = "keccak"))]
macro_rules! align_frame {
    () => {
        #[repr(align(64))]
        #[allow(dead_code)]
        struct Align64(u8);
        let mut align64 = Align64(0);
        core::hint::black_box(&mut align64);
    };
}
#[cfg(all(target_arch = "x86_64", feature = "keccak"))]
pub(crate) use align_frame;

/// The AVX2 backend token. Only [`Avx2::detect`] creates one, and only
/// when the CPU supports AVX2. It is zero-sized (so it costs nothing to
/// pass down the kernels); its AVX-512 level is process-wide
/// ([`Avx2::has_avx512`]).
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx2 {
    _detected: (),
}

#[cfg(target_arch = "x86_64")]
cpufeatures::new!(cpuid_avx2, "avx2");
#[cfg(target_arch = "x86_64")]
cpufeatures::new!(cpuid_avx512vl, "avx2", "avx512f", "avx512vl");

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// The token, if this CPU supports AVX2 (detection is cached).
    #[inline]
    pub fn detect() -> Option<Self> {
        cpuid_avx2::get().then_some(Self { _detected: () })
    }

    /// Whether the AVX-512F/VL kernels run: the CPU has them, the OS saves
    /// their state, and `PQKIT_BACKEND=avx2` does not keep them off
    /// (detected once, cached).
    #[inline]
    pub fn has_avx512(self) -> bool {
        cpuid_avx512vl::get() && limit() != NO_AVX512
    }
}

#[cfg(target_arch = "x86_64")]
impl sealed::Sealed for Avx2 {}
#[cfg(target_arch = "x86_64")]
impl Backend for Avx2 {
    #[inline]
    fn kind(self) -> BackendKind {
        if self.has_avx512() {
            BackendKind::Avx512
        } else {
            BackendKind::Avx2
        }
    }
}

/// The WebAssembly SIMD backend token, in builds with the `simd128` target
/// feature (see the module docs): [`Simd128::detect`] always returns it
/// there, since the engine that runs such a module has SIMD.
#[cfg(all(target_family = "wasm", target_feature = "simd128"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Simd128 {
    _compiled: (),
}

#[cfg(all(target_family = "wasm", target_feature = "simd128"))]
impl Simd128 {
    /// The token (a build with `simd128` only runs where SIMD is).
    #[inline]
    pub fn detect() -> Option<Self> {
        Some(Self { _compiled: () })
    }
}

#[cfg(all(target_family = "wasm", target_feature = "simd128"))]
impl sealed::Sealed for Simd128 {}
#[cfg(all(target_family = "wasm", target_feature = "simd128"))]
impl Backend for Simd128 {
    #[inline]
    fn kind(self) -> BackendKind {
        BackendKind::Simd128
    }
}

/// The aarch64 NEON backend token, in builds with the `neon` target
/// feature (see the module docs): [`Neon::detect`] always returns it
/// there.
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Neon {
    _compiled: (),
}

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
cpufeatures::new!(cpuid_sha3, "sha3");

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
impl Neon {
    /// The token (NEON is part of the build's baseline).
    #[inline]
    pub fn detect() -> Option<Self> {
        Some(Self { _compiled: () })
    }

    /// Whether the CPU has FEAT_SHA3 (EOR3, RAX1, XAR, BCAX), for the
    /// Keccak kernel (detected once, cached).
    #[inline]
    pub fn has_sha3(self) -> bool {
        cpuid_sha3::get()
    }
}

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
impl sealed::Sealed for Neon {}
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
impl Backend for Neon {
    #[inline]
    fn kind(self) -> BackendKind {
        BackendKind::Neon
    }
}

/// The backends pqkit knows about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BackendKind {
    /// Plain Rust; always available.
    Portable,
    /// x86_64 AVX2, detected at run time.
    Avx2,
    /// x86_64 AVX2 with the AVX-512F/VL kernels where the backend has them
    /// (the 4-way Keccak), detected at run time.
    Avx512,
    /// aarch64 NEON, in builds with the `neon` target feature.
    Neon,
    /// WebAssembly SIMD (128-bit), in builds with the `simd128` target
    /// feature.
    Simd128,
}

impl BackendKind {
    /// Every backend compiled into this build and supported by this CPU,
    /// portable first. The AVX2 backend is listed at the one level it runs
    /// at in this process (`Avx512` where those kernels are on, else
    /// `Avx2`).
    pub fn available() -> impl Iterator<Item = BackendKind> {
        [
            BackendKind::Portable,
            BackendKind::Avx2,
            BackendKind::Avx512,
            BackendKind::Neon,
            BackendKind::Simd128,
        ]
        .into_iter()
        .filter(|k| k.is_available())
    }

    /// Whether this backend (at this level) can run here.
    pub fn is_available(self) -> bool {
        match self {
            BackendKind::Portable => true,
            #[cfg(target_arch = "x86_64")]
            BackendKind::Avx2 | BackendKind::Avx512 => {
                Avx2::detect().is_some_and(|t| t.kind() == self)
            }
            #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
            BackendKind::Neon => true,
            #[cfg(all(target_family = "wasm", target_feature = "simd128"))]
            BackendKind::Simd128 => true,
            _ => false,
        }
    }

    /// Short lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Portable => "portable",
            BackendKind::Avx2 => "avx2",
            BackendKind::Avx512 => "avx512",
            BackendKind::Neon => "neon",
            BackendKind::Simd128 => "simd128",
        }
    }
}

/// An operation written once over [`Backend`], run by [`dispatch`] or
/// [`run_on`].
pub trait Kernel {
    /// What the operation returns.
    type Output;
    /// Run with the given backend token.
    fn run<B: Backend>(self, backend: B) -> Self::Output;
}

/// [`limit`]: no limit.
const NO_LIMIT: u8 = 0;
/// [`limit`]: the portable backend only.
#[cfg_attr(
    not(any(
        target_arch = "x86_64",
        target_feature = "simd128",
        all(target_arch = "aarch64", target_feature = "neon")
    )),
    allow(dead_code)
)]
const PORTABLE_ONLY: u8 = 1;
/// [`limit`]: the AVX2 kernels, none of AVX-512.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
const NO_AVX512: u8 = 2;

/// The most `PQKIT_BACKEND` (or `--cfg pqkit_portable`) allows:
/// [`NO_LIMIT`], [`PORTABLE_ONLY`] or [`NO_AVX512`]. Read once, cached.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn limit() -> u8 {
    #[cfg(pqkit_portable)]
    {
        PORTABLE_ONLY
    }
    #[cfg(all(not(pqkit_portable), feature = "std"))]
    {
        use core::sync::atomic::{AtomicU8, Ordering};
        static LIMIT: AtomicU8 = AtomicU8::new(u8::MAX);
        match LIMIT.load(Ordering::Relaxed) {
            u8::MAX => {
                let v = std::env::var_os("PQKIT_BACKEND");
                let limit = match v.as_ref().and_then(|v| v.to_str()) {
                    Some("portable") => PORTABLE_ONLY,
                    Some("avx2") => NO_AVX512,
                    _ => NO_LIMIT,
                };
                LIMIT.store(limit, Ordering::Relaxed);
                limit
            }
            limit => limit,
        }
    }
    #[cfg(all(not(pqkit_portable), not(feature = "std")))]
    {
        NO_LIMIT
    }
}

/// The AVX2 token [`dispatch`] uses, if any: detected, within the limit.
#[cfg(target_arch = "x86_64")]
#[inline]
fn best_avx2() -> Option<Avx2> {
    match limit() {
        PORTABLE_ONLY => None,
        _ => Avx2::detect(),
    }
}

#[cfg(target_arch = "x86_64")]
cpufeatures::new!(cpuid_sha, "sha", "sse2", "ssse3", "sse4.1");

/// Whether the SHA-256 kernel on the x86 SHA extensions runs: the CPU has
/// them (with SSSE3 and SSE4.1) and `PQKIT_BACKEND=portable` does not keep
/// them off (detected once, cached).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn has_sha_ni() -> bool {
    limit() != PORTABLE_ONLY && cpuid_sha::get()
}

/// Whether the one-state Keccak permutation runs on NEON with FEAT_SHA3:
/// the CPU has it and `PQKIT_BACKEND=portable` does not keep it off
/// (detected once, cached).
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
#[inline]
pub(crate) fn has_neon_sha3() -> bool {
    limit() != PORTABLE_ONLY && cpuid_sha3::get()
}

/// Whether x86 kernels outside the backend trait (SHA-2) may use
/// AVX-512F and AVX-512VL: the CPU has them and `PQKIT_BACKEND` is not
/// `portable` or `avx2` (detected once, cached).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn has_avx512vl_x86() -> bool {
    limit() == NO_LIMIT && cpuid_avx512vl::get()
}

#[cfg(target_arch = "x86_64")]
cpufeatures::new!(cpuid_avx2_bmi2, "avx2", "bmi1", "bmi2");

/// Whether the SHA-512 kernel on AVX2 (message schedule two blocks at a
/// time) with BMI2 (`RORX` in the rounds) runs: the CPU has them and
/// `PQKIT_BACKEND=portable` does not keep them off (detected once, cached).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn has_avx2_bmi2() -> bool {
    limit() != PORTABLE_ONLY && cpuid_avx2_bmi2::get()
}

/// The backend [`dispatch`] uses on this machine (detected once, cached).
pub fn selected() -> BackendKind {
    #[cfg(target_arch = "x86_64")]
    if let Some(token) = best_avx2() {
        return token.kind();
    }
    #[cfg(all(target_family = "wasm", target_feature = "simd128"))]
    if limit() != PORTABLE_ONLY {
        return BackendKind::Simd128;
    }
    #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
    if limit() != PORTABLE_ONLY {
        return BackendKind::Neon;
    }
    BackendKind::Portable
}

/// Run `kernel` on the best backend of this CPU (see [`selected`]).
#[inline]
pub fn dispatch<K: Kernel>(kernel: K) -> K::Output {
    #[cfg(target_arch = "x86_64")]
    if let Some(token) = best_avx2() {
        return run_avx2(kernel, token);
    }
    #[cfg(all(target_family = "wasm", target_feature = "simd128"))]
    if let Some(token) = Simd128::detect().filter(|_| limit() != PORTABLE_ONLY) {
        return kernel.run(token);
    }
    #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
    if let Some(token) = Neon::detect().filter(|_| limit() != PORTABLE_ONLY) {
        return kernel.run(token);
    }
    run_portable(kernel)
}

/// The portable branch of [`dispatch`], kept out of line: inlined, its
/// locals would be reserved in the caller's frame even when the AVX2
/// branch runs (the low-memory ML-DSA counts every such byte).
#[inline(never)]
fn run_portable<K: Kernel>(kernel: K) -> K::Output {
    kernel.run(Portable)
}

/// Run code that has no kernels of its own compiled for the best
/// instruction set of this CPU (AVX2 enabled where detected): the explicit
/// entry for loops that LLVM vectorises, such as FN-DSA's floating-point
/// FFT and ffLDL. `f` gets no backend token; it computes the same on
/// every backend.
///
/// ```
/// let mut v = [1.0f64, 2.0, 3.0, 4.0];
/// pqkit_common::vectorized(|| v.iter_mut().for_each(|x| *x *= 2.0));
/// assert_eq!(v, [2.0, 4.0, 6.0, 8.0]);
/// ```
#[inline]
pub fn vectorized<R>(f: impl FnOnce() -> R) -> R {
    struct Run<F>(F);
    impl<R, F: FnOnce() -> R> Kernel for Run<F> {
        type Output = R;
        #[inline(always)]
        fn run<B: Backend>(self, _: B) -> R {
            (self.0)()
        }
    }
    dispatch(Run(f))
}

/// Run `kernel` on a chosen backend; `None` if that backend (at that
/// level) is not available here. Tests use it to compare every backend with portable.
pub fn run_on<K: Kernel>(kind: BackendKind, kernel: K) -> Option<K::Output> {
    match kind {
        BackendKind::Portable => Some(kernel.run(Portable)),
        #[cfg(target_arch = "x86_64")]
        BackendKind::Avx2 | BackendKind::Avx512 => Avx2::detect()
            .filter(|t| t.kind() == kind)
            .map(|token| run_avx2(kernel, token)),
        #[cfg(all(target_family = "wasm", target_feature = "simd128"))]
        BackendKind::Simd128 => Simd128::detect().map(|token| kernel.run(token)),
        #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
        BackendKind::Neon => Neon::detect().map(|token| kernel.run(token)),
        _ => None,
    }
}

#[cfg(target_arch = "x86_64")]
#[inline]
fn run_avx2<K: Kernel>(kernel: K, token: Avx2) -> K::Output {
    #[target_feature(enable = "avx2")]
    fn entry<K: Kernel>(kernel: K, token: Avx2) -> K::Output {
        kernel.run(token)
    }
    // SAFETY: `token` is an `Avx2` value, which only `Avx2::detect` creates,
    // after the CPU reported AVX2 support; so the target feature is present.
    #[allow(unsafe_code)]
    unsafe {
        entry(kernel, token)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Name;
    impl Kernel for Name {
        type Output = BackendKind;
        fn run<B: Backend>(self, b: B) -> BackendKind {
            b.kind()
        }
    }

    #[test]
    fn run_on_every_available_backend() {
        for kind in BackendKind::available() {
            assert_eq!(run_on(kind, Name), Some(kind));
        }
        #[cfg(not(all(target_arch = "aarch64", target_feature = "neon")))]
        assert_eq!(run_on(BackendKind::Neon, Name), None);
        assert_eq!(dispatch(Name), selected());
        assert_eq!(vectorized(|| 6 * 7), 42);
    }
}
