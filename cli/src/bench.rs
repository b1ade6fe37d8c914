//! `pqkit bench`: a quick ops/s table for a person at a terminal. The real
//! benchmarks (beside peer crates) are in the `benches` crate.

use crate::Result;

/// Run the quick benchmark for the named algorithms (all when empty).
pub fn run(_algs: &[String]) -> Result<()> {
    Ok(())
}
