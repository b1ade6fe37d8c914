//! # pqkit-ml-dsa
//!
//! ML-DSA (FIPS 204): ML-DSA-44, ML-DSA-65 and ML-DSA-87, HashML-DSA and external mu. Not implemented yet: this crate is a placeholder in the workspace.
#![no_std]
#![forbid(unsafe_code)]
