//! The `cli` target: see `pqkit_fuzz::cli`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pqkit_fuzz::cli(data));
