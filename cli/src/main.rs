//! The `pqkit` command.
fn main() {}
