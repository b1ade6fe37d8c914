//! The generator the fn-dsa peers draw from in the FN-DSA benches
//! (`benches/fn_dsa.rs`, `examples/interleaved.rs`), included by path in
//! both.

/// A fast deterministic generator for the fn-dsa crates (rand_core 0.6
/// traits, the same xorshift as `pqkit_benches::BenchRng`; NOT
/// cryptographic, benchmark randomness only).
pub struct PeerRng(pub u64);

impl fn_dsa_03::RngCore for PeerRng {
    fn next_u32(&mut self) -> u32 {
        self.next_u64() as u32
    }
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        for c in dst.chunks_mut(8) {
            let v = self.next_u64().to_le_bytes();
            c.copy_from_slice(&v[..c.len()]);
        }
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), fn_dsa_03::RngError> {
        self.fill_bytes(dst);
        Ok(())
    }
}
impl fn_dsa_03::CryptoRng for PeerRng {}
