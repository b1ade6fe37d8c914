//! The `decaps` target: see `pqkit_fuzz::decaps`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pqkit_fuzz::decaps::run(data));
