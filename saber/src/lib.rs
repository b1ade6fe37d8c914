//! # pqkit-saber
//!
//! Saber round 3: LightSaber, Saber and FireSaber. Not implemented yet: this crate is a placeholder in the workspace.
#![no_std]
#![forbid(unsafe_code)]
