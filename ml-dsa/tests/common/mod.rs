//! Shared helpers for the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// The vectors directory (`PQKIT_VECTORS` or `../shared/vectors` next to the
/// workspace), or `None` (loudly) when absent. Under `CI=true`, absence
/// fails the test.
pub fn vectors_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("PQKIT_VECTORS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/vectors"))
        });
    if dir.join("ml-dsa").is_dir() {
        return Some(dir);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("test vectors not found at {} (CI=true)", dir.display());
    }
    eprintln!(
        "\n!!!!! ML-DSA test vectors NOT FOUND at {}: SKIPPING vector tests !!!!!\n",
        dir.display()
    );
    None
}

pub fn load_json(path: &std::path::Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("valid JSON")
}

pub fn hex(v: &serde_json::Value) -> Vec<u8> {
    hex::decode(v.as_str().expect("hex string")).expect("valid hex")
}

/// Deterministic test randomness (xorshift64*), never for real keys.
pub struct TestRng(pub u64);
impl TestRng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn fill(&mut self, out: &mut [u8]) {
        for b in out {
            *b = self.next_u64() as u8;
        }
    }
    pub fn bytes<const N: usize>(&mut self) -> [u8; N] {
        let mut b = [0u8; N];
        self.fill(&mut b);
        b
    }
}

impl rand_core::TryRng for TestRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.next_u64() as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(self.next_u64())
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        self.fill(dst);
        Ok(())
    }
}
impl rand_core::TryCryptoRng for TestRng {}
