//! pqkit benchmarks and stack probes (see `benches/` and `src/bin/`).
