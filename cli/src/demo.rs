//! `pqkit demo`: an end-to-end tour of every algorithm through the generic
//! RustCrypto traits.

use crate::Result;

/// Run the demo.
pub fn run() -> Result<()> {
    println!("pqkit {} demo", env!("CARGO_PKG_VERSION"));
    println!("backend: {}", pqkit_common::backend::selected().name());
    Ok(())
}
