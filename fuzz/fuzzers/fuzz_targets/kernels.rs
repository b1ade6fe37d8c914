//! The `kernels` target: see `pqkit_fuzz::kernels`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| pqkit_fuzz::kernels::run(data));
