//! Holding secrets: a fixed-capacity vector wiped on drop, and the store
//! the algorithm crates keep large key parts in.

use core::ops::{Deref, DerefMut};
use zeroize::Zeroize;

/// Up to `M` values (polynomials, typically) holding secrets, wiped on
/// drop. The schemes size such vectors for their largest parameter set;
/// only the first `used` entries (those a parameter set touches) are ever
/// written, so only those are wiped.
///
/// ```
/// use pqkit_common::{q3329::Poly, wipe::Wiped};
/// // Room for four polynomials, of which this parameter set uses three.
/// let mut s = Wiped::<Poly, 4>::new(3);
/// s[0].coeffs[0] = 42;
/// assert_eq!(s.len(), 4);
/// // Dropping `s` wipes s[0], s[1] and s[2].
/// ```
pub struct Wiped<T: Zeroize, const M: usize> {
    v: [T; M],
    used: usize,
}

impl<T: Zeroize + Default, const M: usize> Wiped<T, M> {
    /// `M` default (zero) values, of which the first `used` (at most `M`)
    /// are wiped on drop.
    pub fn new(used: usize) -> Self {
        Self {
            v: core::array::from_fn(|_| T::default()),
            used: used.min(M),
        }
    }
}

impl<T: Zeroize, const M: usize> Deref for Wiped<T, M> {
    type Target = [T; M];
    fn deref(&self) -> &[T; M] {
        &self.v
    }
}

impl<T: Zeroize, const M: usize> DerefMut for Wiped<T, M> {
    fn deref_mut(&mut self) -> &mut [T; M] {
        &mut self.v
    }
}

impl<T: Zeroize, const M: usize> Drop for Wiped<T, M> {
    fn drop(&mut self) {
        for x in self.v.iter_mut().take(self.used) {
            x.zeroize();
        }
    }
}

impl<T: Zeroize, const M: usize> zeroize::ZeroizeOnDrop for Wiped<T, M> {}

/// Where key objects keep their large parts: on the heap with `alloc`
/// (small, cheap-to-move key objects), inline otherwise.
#[cfg(feature = "alloc")]
pub type Store<T> = alloc::boxed::Box<T>;
/// Where key objects keep their large parts: on the heap with `alloc`
/// (small, cheap-to-move key objects), inline otherwise.
#[cfg(not(feature = "alloc"))]
pub type Store<T> = T;

/// Put `t` in its [`Store`].
///
/// ```
/// let s: pqkit_common::wipe::Store<[u8; 4]> = pqkit_common::wipe::store([1, 2, 3, 4]);
/// assert_eq!(s[2], 3);
/// ```
#[cfg(feature = "alloc")]
pub fn store<T>(t: T) -> Store<T> {
    alloc::boxed::Box::new(t)
}

/// Put `t` in its [`Store`].
#[cfg(not(feature = "alloc"))]
pub fn store<T>(t: T) -> Store<T> {
    t
}
