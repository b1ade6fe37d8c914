//! The `verify` target: see `pqkit_fuzz::verify`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pqkit_fuzz::verify::run(data));
