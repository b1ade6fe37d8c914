//! The properties behind pqkit's fuzz targets, as plain functions over
//! bytes. `fuzzers/` (cargo-fuzz, nightly) wraps each in a libFuzzer
//! target; `tests/replay.rs` (stable) runs each over its corpus and its
//! regression inputs, so every input a fuzzer ever kept is re-checked by
//! `cargo test`.
//!
//! Every function either returns (the input was rejected with a typed
//! error, or accepted and behaved as promised) or panics with the broken
//! promise: libFuzzer reports a panic as a crash.
//!
//! The first byte of an input picks the algorithm and the form (modulo
//! the number of choices); the rest is the attacker's bytes.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

pub mod decaps;
pub mod kernels;
pub mod keys;
pub mod verify;

/// A target's property.
pub type Property = fn(&[u8]);

/// The targets: name (the cargo-fuzz binary and corpus folder) and
/// property.
pub const TARGETS: &[(&str, Property)] = &[
    ("keys", keys::run),
    ("verify", verify::run),
    ("decaps", decaps::run),
    ("kernels", kernels::run),
    ("cli", cli),
];

/// The CLI's file readers on `data` (see
/// [`pqkit_cli::fuzzing::load_file`]).
pub fn cli(data: &[u8]) {
    pqkit_cli::fuzzing::load_file(data);
}

/// The one value of type `T` (a target's fixed keys and signatures for one
/// parameter set), made by `make` on first use and kept for the process.
pub(crate) fn fixture<T: std::any::Any + Send + Sync>(make: fn() -> T) -> &'static T {
    use std::any::{Any, TypeId};
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    type Cache = Mutex<HashMap<TypeId, &'static (dyn Any + Send + Sync)>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let mut cache = CACHE
        .get_or_init(Cache::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let value: &'static (dyn Any + Send + Sync) = *cache
        .entry(TypeId::of::<T>())
        .or_insert_with(|| Box::leak(Box::new(make())));
    value
        .downcast_ref::<T>()
        .expect("stored under its own type")
}

/// Split off the selector byte: `(selector, rest)`; `None` for empty input.
pub(crate) fn select(data: &[u8]) -> Option<(u8, &[u8])> {
    let (&s, rest) = data.split_first()?;
    Some((s, rest))
}
