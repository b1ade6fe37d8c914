//! The 32-byte hash address ADRS (FIPS 205 §4.2) and its 22-byte
//! compressed form for the SHA2 family (FIPS 205 §11.2).

/// Address types (FIPS 205 §4.2).
pub(crate) const WOTS_HASH: u32 = 0;
pub(crate) const WOTS_PK: u32 = 1;
pub(crate) const TREE: u32 = 2;
pub(crate) const FORS_TREE: u32 = 3;
pub(crate) const FORS_ROOTS: u32 = 4;
pub(crate) const WOTS_PRF: u32 = 5;
pub(crate) const FORS_PRF: u32 = 6;

/// ADRS: layer (4 bytes), tree address (12), type (4), three words of 4
/// bytes whose meaning depends on the type; all big-endian.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Adrs(pub(crate) [u8; 32]);

impl Adrs {
    fn put(&mut self, at: usize, v: u32) {
        self.0[at..at + 4].copy_from_slice(&v.to_be_bytes());
    }
    fn get(&self, at: usize) -> u32 {
        u32::from_be_bytes([self.0[at], self.0[at + 1], self.0[at + 2], self.0[at + 3]])
    }
    /// `setLayerAddress`.
    pub(crate) fn set_layer(&mut self, layer: u32) {
        self.put(0, layer);
    }
    /// `setTreeAddress`: the tree index fits 64 bits for every set
    /// (`h - h' <= 64`), so the top 4 of the 12 bytes stay zero.
    pub(crate) fn set_tree(&mut self, tree: u64) {
        self.0[4..8].fill(0);
        self.0[8..16].copy_from_slice(&tree.to_be_bytes());
    }
    /// `setTypeAndClear`.
    pub(crate) fn set_type_and_clear(&mut self, ty: u32) {
        self.put(16, ty);
        self.0[20..32].fill(0);
    }
    /// `setKeyPairAddress`.
    pub(crate) fn set_key_pair(&mut self, i: u32) {
        self.put(20, i);
    }
    /// `getKeyPairAddress`.
    pub(crate) fn key_pair(&self) -> u32 {
        self.get(20)
    }
    /// `setChainAddress` (the same word as `setTreeHeight`).
    pub(crate) fn set_chain(&mut self, i: u32) {
        self.put(24, i);
    }
    /// `setTreeHeight`.
    pub(crate) fn set_tree_height(&mut self, z: u32) {
        self.put(24, z);
    }
    /// `setHashAddress` (the same word as `setTreeIndex`).
    pub(crate) fn set_hash(&mut self, i: u32) {
        self.put(28, i);
    }
    /// `setTreeIndex`.
    pub(crate) fn set_tree_index(&mut self, i: u32) {
        self.put(28, i);
    }
    /// `getTreeIndex`.
    pub(crate) fn tree_index(&self) -> u32 {
        self.get(28)
    }
    /// ADRS^c: the layer's low byte, the tree address's low 8 bytes, the
    /// type's low byte and the last 12 bytes (FIPS 205 §11.2).
    pub(crate) fn compressed(&self) -> [u8; 22] {
        let mut c = [0u8; 22];
        c[0] = self.0[3];
        c[1..9].copy_from_slice(&self.0[8..16]);
        c[9] = self.0[19];
        c[10..22].copy_from_slice(&self.0[20..32]);
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout() {
        let mut a = Adrs::default();
        a.set_layer(0x0102_0304);
        a.set_tree(0x1112_1314_1516_1718);
        a.set_type_and_clear(FORS_TREE);
        a.set_key_pair(0x2122_2324);
        a.set_tree_height(0x3132_3334);
        a.set_tree_index(0x4142_4344);
        let want: [u8; 32] = [
            1, 2, 3, 4, 0, 0, 0, 0, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0, 0, 0, 3,
            0x21, 0x22, 0x23, 0x24, 0x31, 0x32, 0x33, 0x34, 0x41, 0x42, 0x43, 0x44,
        ];
        assert_eq!(a.0, want);
        assert_eq!(a.key_pair(), 0x2122_2324);
        assert_eq!(a.tree_index(), 0x4142_4344);
        let c = a.compressed();
        assert_eq!(c[0], 4);
        assert_eq!(&c[1..9], &want[8..16]);
        assert_eq!(c[9], 3);
        assert_eq!(&c[10..], &want[20..]);
        // setTypeAndClear clears the three words, nothing else.
        a.set_type_and_clear(WOTS_PK);
        assert_eq!(&a.0[..16], &want[..16]);
        assert_eq!(
            &a.0[16..],
            &[0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        );
        let _ = (WOTS_HASH, TREE, FORS_ROOTS, WOTS_PRF, FORS_PRF);
    }
}
