//! # pqkit-ml-kem
//!
//! ML-KEM (FIPS 203): ML-KEM-512, ML-KEM-768 and ML-KEM-1024. Not implemented yet: this crate is a placeholder in the workspace.
#![no_std]
#![forbid(unsafe_code)]
