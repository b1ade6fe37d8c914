//! `pqkit bench`: a quick ops/s table for a person at a terminal. The real
//! benchmarks (beside peer crates, with statistics) are in the `benches`
//! crate.

use crate::demo::tours;
use crate::{CliError, Result};

/// Run the quick benchmark for the named algorithms (all when empty).
pub fn run(algs: &[String]) -> Result<()> {
    for a in algs {
        if !tours().iter().any(|(n, _)| n == a) {
            return Err(CliError::new(format!("bench: unknown algorithm '{a}'")));
        }
    }
    println!("Tour (with PEM round trips and tamper checks), then ops/s, 500 ms per operation:");
    let mut table = Vec::new();
    for (name, tour) in tours() {
        if algs.is_empty() || algs.iter().any(|a| a == name) {
            table.push((name, tour(500)?));
        }
    }
    println!();
    println!(
        "{:<15} {:>22} {:>22} {:>22}",
        "algorithm", "op 1", "op 2", "op 3"
    );
    for (name, timings) in table {
        let cells: Vec<String> = timings
            .iter()
            .map(|(op, us)| format!("{op} {:>10.0} ops/s", 1e6 / us))
            .collect();
        println!(
            "{name:<15} {:>22} {:>22} {:>22}",
            cells[0], cells[1], cells[2]
        );
    }
    Ok(())
}
