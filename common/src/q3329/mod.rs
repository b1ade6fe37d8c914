//! Arithmetic modulo q = 3329, the ring of ML-KEM (FIPS 203).

/// The kernels a backend provides for this ring.
pub trait Ops: Copy {}

impl Ops for crate::Portable {}

#[cfg(target_arch = "x86_64")]
impl Ops for crate::backend::Avx2 {}
