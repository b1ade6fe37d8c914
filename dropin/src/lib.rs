//! The drop-in proof: the documentation examples of RustCrypto `ml-dsa`
//! 0.1.2, `slh-dsa` 0.2.0-rc.5, `ml-kem` 0.3.4, `ed25519-dalek` 3.0.0,
//! `x25519-dalek` 3.0.0 and `x-wing` 0.1.1, compiled and run as doctests
//! against `pqkit-ml-dsa`, `pqkit-slh-dsa`, `pqkit-ml-kem`,
//! `pqkit-ed25519`, `pqkit-x25519` and `pqkit-hybrid`'s `xwing` module
//! with only the crate name changed.
//!
//! `build.rs` reads each peer's published sources (`README.md` and every
//! `src/**/*.rs`) from the local cargo registry, where cargo put them because
//! the peers are dev-dependencies of this crate, extracts every Rust code
//! block of their documentation (resolving `cfg_attr(feature = ..., doc =
//! "```")` fences as with all features on), renames the crate
//! (`ml_dsa` → `pqkit_ml_dsa`, `slh_dsa` → `pqkit_slh_dsa`, `ml_kem` → `pqkit_ml_kem`, `ed25519_dalek` →
//! `pqkit_ed25519`, `x25519_dalek` → `pqkit_x25519`, `x_wing` → `pqkit_hybrid::xwing`) and writes them into the modules below, so that
//! `cargo test -p pqkit-dropin --doc` runs them exactly as rustdoc runs them
//! for the peers. Nothing of the peers' code is committed to this repository.
//! The number of examples found is checked against the expected count, so an
//! extraction that silently finds nothing fails.
//!
//! `tests/clients.rs` goes one step further: it builds published crates
//! that depend on the peers (`x-wing` 0.1.1 on `ml-kem`, `ssh-key`
//! 0.7.0-rc.12 on `ed25519-dalek`) on pqkit, with only their dependency
//! entry changed, and runs their own test suites (see that file).
#![no_std]

/// The examples of RustCrypto `ml-dsa` 0.1.2.
#[doc = include_str!(concat!(env!("OUT_DIR"), "/ml_dsa.md"))]
pub mod ml_dsa {}

/// The examples of RustCrypto `slh-dsa` 0.2.0-rc.5.
#[doc = include_str!(concat!(env!("OUT_DIR"), "/slh_dsa.md"))]
pub mod slh_dsa {}

/// The examples of RustCrypto `ml-kem` 0.3.4.
#[doc = include_str!(concat!(env!("OUT_DIR"), "/ml_kem.md"))]
pub mod ml_kem {}

/// The examples of `ed25519-dalek` 3.0.0.
#[doc = include_str!(concat!(env!("OUT_DIR"), "/ed25519_dalek.md"))]
pub mod ed25519_dalek {}

/// The examples of `x25519-dalek` 3.0.0.
#[doc = include_str!(concat!(env!("OUT_DIR"), "/x25519_dalek.md"))]
pub mod x25519_dalek {}

/// The examples of `x-wing` 0.1.1 (against `pqkit_hybrid::xwing`).
#[doc = include_str!(concat!(env!("OUT_DIR"), "/x_wing.md"))]
pub mod x_wing {}

/// pqkit's own README: its Rust examples run as doctests here, so the
/// front page cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub mod readme {}

include!(concat!(env!("OUT_DIR"), "/counts.rs"));

#[cfg(test)]
mod tests {
    /// Every example of the peers' docs that is Rust was found (the counts
    /// were read off the sources by hand; see the module docs).
    #[test]
    fn all_examples_extracted() {
        assert_eq!(
            super::EXAMPLES,
            [
                ("ml-dsa", 1),
                ("slh-dsa", 1),
                ("ml-kem", 1),
                ("ed25519-dalek", 18),
                ("x25519-dalek", 6),
                ("x-wing", 1)
            ]
        );
    }
}
