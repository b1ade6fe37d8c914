//! The `keys` target: see `pqkit_fuzz::keys`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pqkit_fuzz::keys::run(data));
