//! Backends and run-time dispatch.
//!
//! A backend is a zero-sized *capability token* implementing [`Backend`],
//! which bundles one kernel trait per ring ([`q3329::Ops`],
//! [`q8380417::Ops`], [`q12289::Ops`]), the RNS kernels of FN-DSA key
//! generation ([`mp31::Ops`]) and the 4-way Keccak ([`keccak::X4Ops`]). Kernels work on whole polynomials held in plain
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
//! * NEON (aarch64) has a slot in [`BackendKind`] but no kernels yet.
//!
//! [`dispatch`] selects once, caches, and enters the AVX2 path through a
//! single `#[target_feature(enable = "avx2")]` entry point.
//!
//! Forcing the portable backend: `PQKIT_BACKEND=portable` in the environment
//! (read once, needs the `std` feature), or `--cfg pqkit_portable` at build
//! time.

use crate::{keccak, mp31, q3329, q12289, q8380417};

mod sealed {
    pub trait Sealed {}
}

/// A backend: one implementation of every kernel trait, as a capability token.
///
/// Sealed: the implementations are [`Portable`] and, on x86_64, `Avx2`.
pub trait Backend:
    Copy
    + core::fmt::Debug
    + Send
    + Sync
    + 'static
    + sealed::Sealed
    + q3329::Ops
    + q8380417::Ops
    + q12289::Ops
    + mp31::Ops
    + keccak::X4Ops
{
    /// Short lower-case name (`"portable"`, `"avx2"`).
    const NAME: &'static str;
    /// Which backend this is.
    const KIND: BackendKind;
}

/// The portable backend: plain Rust, the executable specification.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Portable;

impl sealed::Sealed for Portable {}
impl Backend for Portable {
    const NAME: &'static str = "portable";
    const KIND: BackendKind = BackendKind::Portable;
}

/// The AVX2 backend token. Only [`Avx2::detect`] creates one, and only when
/// the CPU supports AVX2.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Avx2 {
    _detected: (),
}

#[cfg(target_arch = "x86_64")]
cpufeatures::new!(cpuid_avx2, "avx2");

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// The token, if this CPU supports AVX2 (detection is cached).
    #[inline]
    pub fn detect() -> Option<Self> {
        if cpuid_avx2::get() {
            Some(Self { _detected: () })
        } else {
            None
        }
    }
}

#[cfg(target_arch = "x86_64")]
impl sealed::Sealed for Avx2 {}
#[cfg(target_arch = "x86_64")]
impl Backend for Avx2 {
    const NAME: &'static str = "avx2";
    const KIND: BackendKind = BackendKind::Avx2;
}

/// The backends pqkit knows about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BackendKind {
    /// Plain Rust; always available.
    Portable,
    /// x86_64 AVX2, detected at run time.
    Avx2,
    /// aarch64 NEON: reserved, no kernels yet (runs as portable).
    Neon,
}

impl BackendKind {
    /// Every backend compiled into this build and supported by this CPU,
    /// portable first.
    pub fn available() -> impl Iterator<Item = BackendKind> {
        [BackendKind::Portable, BackendKind::Avx2]
            .into_iter()
            .filter(|k| k.is_available())
    }

    /// Whether this backend can run here.
    pub fn is_available(self) -> bool {
        match self {
            BackendKind::Portable => true,
            #[cfg(target_arch = "x86_64")]
            BackendKind::Avx2 => Avx2::detect().is_some(),
            _ => false,
        }
    }

    /// Short lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Portable => "portable",
            BackendKind::Avx2 => "avx2",
            BackendKind::Neon => "neon",
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

/// Whether the portable backend is forced (environment or cfg). Cached.
fn portable_forced() -> bool {
    #[cfg(pqkit_portable)]
    {
        true
    }
    #[cfg(all(not(pqkit_portable), feature = "std"))]
    {
        use core::sync::atomic::{AtomicU8, Ordering};
        static FORCED: AtomicU8 = AtomicU8::new(u8::MAX);
        match FORCED.load(Ordering::Relaxed) {
            0 => false,
            1 => true,
            _ => {
                let forced = std::env::var_os("PQKIT_BACKEND").is_some_and(|v| v == "portable");
                FORCED.store(forced as u8, Ordering::Relaxed);
                forced
            }
        }
    }
    #[cfg(all(not(pqkit_portable), not(feature = "std")))]
    {
        false
    }
}

/// The backend [`dispatch`] uses on this machine (detected once, cached).
pub fn selected() -> BackendKind {
    if portable_forced() {
        return BackendKind::Portable;
    }
    #[cfg(target_arch = "x86_64")]
    if Avx2::detect().is_some() {
        return BackendKind::Avx2;
    }
    BackendKind::Portable
}

/// Run `kernel` on the best backend of this CPU (see [`selected`]).
#[inline]
pub fn dispatch<K: Kernel>(kernel: K) -> K::Output {
    #[cfg(target_arch = "x86_64")]
    if !portable_forced()
        && let Some(token) = Avx2::detect()
    {
        return run_avx2(kernel, token);
    }
    kernel.run(Portable)
}

/// Run `kernel` on a chosen backend; `None` if that backend is not
/// available here. Tests use it to compare every backend with portable.
pub fn run_on<K: Kernel>(kind: BackendKind, kernel: K) -> Option<K::Output> {
    match kind {
        BackendKind::Portable => Some(kernel.run(Portable)),
        #[cfg(target_arch = "x86_64")]
        BackendKind::Avx2 => Avx2::detect().map(|token| run_avx2(kernel, token)),
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
        fn run<B: Backend>(self, _: B) -> BackendKind {
            B::KIND
        }
    }

    #[test]
    fn run_on_every_available_backend() {
        for kind in BackendKind::available() {
            assert_eq!(run_on(kind, Name), Some(kind));
        }
        assert_eq!(run_on(BackendKind::Neon, Name), None);
        assert_eq!(dispatch(Name), selected());
    }
}
