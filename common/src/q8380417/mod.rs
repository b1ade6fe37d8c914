//! Arithmetic modulo q = 8380417, the ring of ML-DSA (FIPS 204).

/// The kernels a backend provides for this ring.
pub trait Ops: Copy {}

impl Ops for crate::Portable {}

#[cfg(target_arch = "x86_64")]
impl Ops for crate::backend::Avx2 {}
