//! Shared test helpers: a deterministic SHAKE256 RNG usable both as a
//! rand_core 0.10 RNG (pqkit) and a rand_core 0.6 RNG (fn-dsa 0.3).
#![allow(dead_code)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqkit_common::keccak::{Shake256, SpongeReader};
use std::convert::Infallible;

/// SHAKE256(seed) as an endless byte stream.
pub struct TestRng(SpongeReader<136>);

impl TestRng {
    pub fn new(seed: &[u8]) -> Self {
        let mut h = Shake256::default();
        h.update(seed);
        Self(h.finalize_xof())
    }
}

impl rand_core::TryRng for TestRng {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        let mut b = [0u8; 4];
        self.0.read(&mut b);
        Ok(u32::from_le_bytes(b))
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let mut b = [0u8; 8];
        self.0.read(&mut b);
        Ok(u64::from_le_bytes(b))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        self.0.read(dst);
        Ok(())
    }
}
impl rand_core::TryCryptoRng for TestRng {}

impl fn_dsa::RngCore for TestRng {
    fn next_u32(&mut self) -> u32 {
        let mut b = [0u8; 4];
        self.0.read(&mut b);
        u32::from_le_bytes(b)
    }
    fn next_u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        self.0.read(&mut b);
        u64::from_le_bytes(b)
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        self.0.read(dst);
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), fn_dsa::RngError> {
        self.0.read(dst);
        Ok(())
    }
}
impl fn_dsa::CryptoRng for TestRng {}

/// The first `count` signing keys of a KAT file, if the vectors exist.
pub fn kat_signing_keys(file: &str, count: usize) -> Option<Vec<Vec<u8>>> {
    let records = pqkit_testkit::rsp::load(&format!("falcon/{file}"))?;
    Some(records.iter().take(count).map(|r| r.hex("sk")).collect())
}
