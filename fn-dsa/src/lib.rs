//! # pqkit-fn-dsa
//!
//! FN-DSA (Falcon) for degrees 512 and 1024. Not implemented yet: this crate is a placeholder in the workspace.
#![no_std]
#![forbid(unsafe_code)]
