//! Holding secrets: a fixed-capacity vector wiped on drop, and the store
//! the algorithm crates keep large key parts in.

use core::ops::{Deref, DerefMut};
use zeroize::Zeroize;

/// Wipe `values` with ordinary (vectorised) stores of zero, then hand
/// them to [`core::hint::black_box`], which the optimiser must assume
/// reads them, so the stores cannot be removed as dead. The `zeroize`
/// crate writes one volatile store per element instead: for a 256-entry
/// polynomial that is 256 scalar stores against 16 vector stores, a
/// visible share of an ML-KEM decapsulation. The polynomial types' and
/// the Keccak state's `Zeroize` implementations use this.
///
/// ```
/// let mut secret = [7i16; 256];
/// pqkit_common::wipe::wipe(&mut secret);
/// assert!(secret.iter().all(|&x| x == 0));
/// ```
#[inline]
pub fn wipe<T: zeroize::DefaultIsZeroes>(values: &mut [T]) {
    values.fill(T::default());
    core::hint::black_box(values);
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
}

/// Byte containers [`WipedBytes`] can hold: byte arrays, arrays of byte
/// blocks (per-lane SHAKE output) and `hybrid_array` byte arrays.
pub trait ByteBuffer {
    /// All the bytes, mutably.
    fn bytes_mut(&mut self) -> &mut [u8];
}

impl<const N: usize> ByteBuffer for [u8; N] {
    fn bytes_mut(&mut self) -> &mut [u8] {
        self
    }
}

impl<const N: usize, const L: usize> ByteBuffer for [[u8; N]; L] {
    fn bytes_mut(&mut self) -> &mut [u8] {
        self.as_flattened_mut()
    }
}

#[cfg(feature = "hybrid-array")]
impl<S: hybrid_array::ArraySize> ByteBuffer for hybrid_array::Array<u8, S> {
    fn bytes_mut(&mut self) -> &mut [u8] {
        self.as_mut_slice()
    }
}

/// Bytes wiped on drop with [`wipe`]: `zeroize::Zeroizing` for large
/// byte buffers (expanded keys, SHAKE output), without a volatile store
/// per byte.
///
/// ```
/// use pqkit_common::wipe::WipedBytes;
/// let mut key = WipedBytes([0u8; 2400]);
/// key[0] = 1;
/// assert_eq!(key.len(), 2400);
/// let mut blocks = WipedBytes([[0u8; 136]; 4]);
/// blocks[3][135] = 1;
/// // Dropping `key` and `blocks` wipes all their bytes.
/// ```
#[derive(Clone, Default)]
pub struct WipedBytes<T: ByteBuffer>(pub T);

impl<T: ByteBuffer> Deref for WipedBytes<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: ByteBuffer> DerefMut for WipedBytes<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

impl<T: ByteBuffer> Zeroize for WipedBytes<T> {
    fn zeroize(&mut self) {
        wipe(self.0.bytes_mut());
    }
}

impl<T: ByteBuffer> Drop for WipedBytes<T> {
    fn drop(&mut self) {
        self.zeroize();
    }
}

impl<T: ByteBuffer> zeroize::ZeroizeOnDrop for WipedBytes<T> {}

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

/// A default `T` in its [`Store`], made in place where the allocator
/// allows it (`Box::default` writes into the new allocation, where
/// `store(T::default())` may build the value on the stack first and copy
/// it: 23 KB for ML-DSA's secret parts).
///
/// ```
/// let s: pqkit_common::wipe::Store<pqkit_common::q3329::Poly> = pqkit_common::wipe::store_default();
/// assert_eq!(s.coeffs[255], 0);
/// ```
#[cfg(feature = "alloc")]
pub fn store_default<T: Default>() -> Store<T> {
    alloc::boxed::Box::default()
}

/// A default `T` in its [`Store`].
#[cfg(not(feature = "alloc"))]
pub fn store_default<T: Default>() -> Store<T> {
    T::default()
}

/// A large key part made from the key's encoding when it is first needed
/// (with `alloc`), or when the key is made (without): the NTT-domain forms
/// of a freshly generated key that may never sign or verify (written to a
/// file, sent in a certificate request).
///
/// With `std` the part lives in a [`std::sync::OnceLock`] (no `unsafe`
/// here): the first reader fills it, readers that race with it wait for
/// that fill. Without `std` it is kept in its [`Store`] and filled at
/// once, so [`later`](Self::later) costs what [`now`](Self::now) does.
///
/// ```
/// use pqkit_common::wipe::OnDemand;
/// let encoding = [1u8, 2, 3, 4];
/// // How the part is made from the encoding (given where the part is
/// // made and where it is read: the same fill).
/// let fill = |p: &mut [u32; 4]| {
///     for (x, b) in p.iter_mut().zip(encoding) {
///         *x = b.into();
///     }
/// };
/// let part = OnDemand::later(fill);
/// assert_eq!(part.get(fill), &[1, 2, 3, 4]);
/// // Made once: a later read does not fill again.
/// assert_eq!(part.get(|_| unreachable!()), &[1, 2, 3, 4]);
/// ```
#[derive(Clone)]
pub struct OnDemand<T> {
    #[cfg(feature = "std")]
    cell: std::sync::OnceLock<Store<T>>,
    #[cfg(not(feature = "std"))]
    value: Store<T>,
}

impl<T> OnDemand<T> {
    /// Whether parts are made on first use ([`later`](Self::later) leaves
    /// the part empty): with `std`. Without, every part is made at once.
    pub const LAZY: bool = cfg!(feature = "std");

    /// Keep `value` as the part unless it is made already (by a caller
    /// that made it alongside other work); the part either way (`value`
    /// is dropped if another was there first, which must be equal).
    /// Without `std` the part is always made, and `value` is dropped.
    ///
    /// ```
    /// use pqkit_common::wipe::{OnDemand, store};
    /// let fill = |p: &mut [u8; 2]| *p = [7, 9];
    /// let part = OnDemand::later(fill);
    /// // Made by a caller alongside its own work, then kept.
    /// assert_eq!(part.insert(store([7, 9])), &[7, 9]);
    /// assert_eq!(part.peek(), Some(&[7, 9]));
    /// ```
    #[inline]
    pub fn insert(&self, value: Store<T>) -> &T {
        #[cfg(feature = "std")]
        return self.cell.get_or_init(|| value);
        #[cfg(not(feature = "std"))]
        {
            drop(value);
            &self.value
        }
    }

    /// The part if it is made already (always, without `std`).
    #[inline]
    pub fn peek(&self) -> Option<&T> {
        #[cfg(feature = "std")]
        return self.cell.get().map(|v| &**v);
        #[cfg(not(feature = "std"))]
        Some(&self.value)
    }
}

impl<T: Default> OnDemand<T> {
    /// A part filled now: `T::default()` (made in its [`Store`]), then
    /// `fill`.
    pub fn now(fill: impl FnOnce(&mut T)) -> Self {
        let mut value: Store<T> = store_default();
        fill(&mut value);
        Self::filled(value)
    }

    /// A part already made.
    pub fn filled(value: Store<T>) -> Self {
        #[cfg(feature = "std")]
        return Self {
            cell: std::sync::OnceLock::from(value),
        };
        #[cfg(not(feature = "std"))]
        return Self { value };
    }

    /// A part filled on first use by the `fill` given to [`get`](Self::get)
    /// (which must compute the same value as this `fill`); without `std`,
    /// filled now by this `fill`.
    pub fn later(fill: impl FnOnce(&mut T)) -> Self {
        #[cfg(feature = "std")]
        {
            let _ = fill;
            Self {
                cell: std::sync::OnceLock::new(),
            }
        }
        #[cfg(not(feature = "std"))]
        Self::now(fill)
    }

    /// The part, filled by `fill` (from `T::default()`) if this is its
    /// first use.
    #[inline]
    pub fn get(&self, fill: impl FnOnce(&mut T)) -> &T {
        #[cfg(feature = "std")]
        return self.cell.get_or_init(|| {
            let mut value: Store<T> = store_default();
            fill(&mut value);
            value
        });
        #[cfg(not(feature = "std"))]
        {
            let _ = fill;
            &self.value
        }
    }
}

impl<T: Zeroize + zeroize::ZeroizeOnDrop> Zeroize for OnDemand<T> {
    /// Wipe the part: with `std`, drop it (`T` wipes itself on drop; the
    /// next [`get`](OnDemand::get) fills it again).
    fn zeroize(&mut self) {
        #[cfg(feature = "std")]
        {
            self.cell = std::sync::OnceLock::new();
        }
        #[cfg(not(feature = "std"))]
        {
            let value: &mut T = &mut self.value;
            value.zeroize();
        }
    }
}
