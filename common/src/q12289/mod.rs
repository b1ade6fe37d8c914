//! Arithmetic modulo q = 12289, the ring of FN-DSA (Falcon) verification and key generation.

/// The kernels a backend provides for this ring.
pub trait Ops: Copy {}

impl Ops for crate::Portable {}

#[cfg(target_arch = "x86_64")]
impl Ops for crate::backend::Avx2 {}
