//! # pqkit-ed25519
//!
//! Ed25519, Ed25519ctx and Ed25519ph (RFC 8032). Not implemented yet: this crate is a placeholder in the workspace.
#![no_std]
#![forbid(unsafe_code)]
