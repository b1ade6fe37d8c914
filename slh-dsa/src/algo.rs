//! FIPS 205 §5–§9: WOTS+, XMSS, the hypertree, FORS and the internal
//! key generation, signing and verification (Algorithms 1–20).
//!
//! Sizes are the parameter set's at run time, in buffers of the largest
//! set. Every index used here (tree and leaf indices, message digits) is
//! public: derived from the message digest or the loop counters. The
//! secret seed enters only `PRF`.

use pqkit_common::ct::declassify;
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

use crate::address::{Adrs, FORS_PRF, FORS_ROOTS, FORS_TREE, TREE, WOTS_HASH, WOTS_PK, WOTS_PRF};
use crate::hash::{Hasher, Node, TH_LEAVES, WOTS_BATCH, WotsScratch, WotsSign};
use crate::params::{MAX_A, MAX_HP, MAX_K, MAX_LEN, MAX_M, MAX_N, ParameterSet, TOP_HEIGHT};

/// Mark bytes that the signature (or public key) makes public as public
/// for the constant-time check (valgrind; a no-op unless built with
/// `ct-check`): everything SLH-DSA derives from `SK.seed` and `SK.prf`
/// is either published (R, revealed chain values and FORS secrets,
/// authentication paths, tree roots) or stays inside the hashes, and
/// the only branches and indices are on public values.
fn public(bytes: &mut [u8]) {
    #[cfg(feature = "ct-check")]
    pqkit_common::ctgrind::unpoison(bytes);
    #[cfg(not(feature = "ct-check"))]
    let _ = bytes;
}

/// `w - 1` for `lg w = 4`.
const W1: u8 = 15;

/// FIPS 205 Alg. 4 `base_2b(X, b, out_len)`: `out.len()` integers of `b`
/// bits each, read big-endian from `x`.
pub(crate) fn base_2b(x: &[u8], b: u32, out: &mut [u32]) {
    let mut bits = 0u32;
    let mut total = 0u64;
    let mut i = 0;
    let mask = (1u64 << b) - 1;
    for o in out.iter_mut() {
        while bits < b {
            total = (total << 8) | u64::from(x[i]);
            i += 1;
            bits += 8;
        }
        bits -= b;
        *o = ((total >> bits) & mask) as u32;
        total &= (1u64 << bits) - 1;
    }
}

/// The WOTS+ digits of an n-byte message: `len1 = 2n` base-16 digits and
/// the `len2 = 3` digits of the checksum (FIPS 205 Alg. 7/8 lines 1–7).
fn wots_digits(n: usize, msg: &[u8], out: &mut [u8; MAX_LEN]) {
    let len1 = 2 * n;
    let mut csum = 0u32;
    for (i, b) in msg[..n].iter().enumerate() {
        out[2 * i] = b >> 4;
        out[2 * i + 1] = b & 15;
        csum += u32::from(W1 - (b >> 4)) + u32::from(W1 - (b & 15));
    }
    // csum << ((8 - (len2 lg_w) mod 8) mod 8) = csum << 4, as two bytes;
    // its three leading base-16 digits are the csum's three nibbles.
    out[len1] = ((csum >> 8) & 15) as u8;
    out[len1 + 1] = ((csum >> 4) & 15) as u8;
    out[len1 + 2] = (csum & 15) as u8;
}

/// FIPS 205 Alg. 5 `chain` for the chains of one WOTS+ key at once
/// ([`Hasher::chains`]).
fn chains(hs: &Hasher, adrs: &Adrs, x: &mut [Node], start: &[u8], steps: &[u8]) {
    hs.chains(adrs, x, start, steps);
}

/// The WOTS+ secret values `PRF(PK.seed, SK.seed, skADRS)` of the key
/// pair at `adrs` into `x`, in one [`Hasher::prf_many`] call.
fn wots_secrets(hs: &Hasher, sk_seed: &[u8], adrs: &Adrs, x: &mut [Node]) {
    let mut sk_adrs = *adrs;
    sk_adrs.set_type_and_clear(WOTS_PRF);
    sk_adrs.set_key_pair(adrs.key_pair());
    let mut lane_adrs = [sk_adrs; MAX_LEN];
    for (i, a) in lane_adrs.iter_mut().enumerate() {
        a.set_chain(i as u32);
    }
    hs.prf_many(&lane_adrs[..x.len()], sk_seed, x);
}

/// The WOTS+ public key `T_len` of the chain ends in `x`.
fn wots_compress(hs: &Hasher, adrs: &Adrs, x: &[Node]) -> Node {
    let mut pk_adrs = *adrs;
    pk_adrs.set_type_and_clear(WOTS_PK);
    pk_adrs.set_key_pair(adrs.key_pair());
    hs.t(&pk_adrs, x)
}

/// FIPS 205 Alg. 6 `wots_pkGen`.
pub(crate) fn wots_pkgen(hs: &Hasher, sk_seed: &[u8], adrs: &Adrs) -> Node {
    let len = 2 * hs.n() + 3;
    let mut x = [[0u8; MAX_N]; MAX_LEN];
    wots_secrets(hs, sk_seed, adrs, &mut x[..len]);
    chains(hs, adrs, &mut x[..len], &[0; MAX_LEN], &[W1; MAX_LEN]);
    wots_compress(hs, adrs, &x[..len])
}

/// FIPS 205 Alg. 7 `wots_sign`: the `len` n-byte values into `sig`.
#[cfg(test)]
pub(crate) fn wots_sign(hs: &Hasher, msg: &[u8], sk_seed: &[u8], adrs: &Adrs, sig: &mut [u8]) {
    let mut digits = [0u8; MAX_LEN];
    wots_digits(hs.n(), msg, &mut digits);
    wots_sign_digits(hs, &digits, sk_seed, adrs, sig);
}

/// [`wots_sign`] for the message's digits (`len` of `digits` used).
fn wots_sign_digits(hs: &Hasher, digits: &[u8], sk_seed: &[u8], adrs: &Adrs, sig: &mut [u8]) {
    let n = hs.n();
    let len = 2 * n + 3;
    let mut x = [[0u8; MAX_N]; MAX_LEN];
    wots_secrets(hs, sk_seed, adrs, &mut x[..len]);
    chains(hs, adrs, &mut x[..len], &[0; MAX_LEN], digits);
    for (out, v) in sig.chunks_exact_mut(n).zip(&x[..len]) {
        out.copy_from_slice(&v[..n]);
    }
    x.zeroize();
}

/// FIPS 205 Alg. 8 `wots_pkFromSig`.
pub(crate) fn wots_pk_from_sig(hs: &Hasher, sig: &[u8], msg: &[u8], adrs: &Adrs) -> Node {
    let n = hs.n();
    let len = 2 * n + 3;
    let mut digits = [0u8; MAX_LEN];
    wots_digits(n, msg, &mut digits);
    let mut steps = [0u8; MAX_LEN];
    let mut x = [[0u8; MAX_N]; MAX_LEN];
    for i in 0..len {
        steps[i] = W1 - digits[i];
        x[i][..n].copy_from_slice(&sig[i * n..(i + 1) * n]);
    }
    chains(hs, adrs, &mut x[..len], &digits, &steps);
    wots_compress(hs, adrs, &x[..len])
}

/// Leaves per batch of [`treehash`] at most (FORS; XMSS takes
/// [`WOTS_BATCH`]).
const TH_BATCH: usize = TH_LEAVES;

/// Nodes a level of [`treehash`] gathers before they are reduced: eight
/// pairs, a call that fills the eight SHA-512 lanes of
/// `compress512_many` (and eight interleaved SHA-NI compressions).
const TH_GROUP: usize = 16;

/// The authentication path being collected by [`treehash`]: leaf
/// `target`'s ancestors' siblings, `height` n-byte values into `out`.
struct AuthPath<'a> {
    n: usize,
    height: usize,
    target: u32,
    out: &'a mut [u8],
}

impl AuthPath<'_> {
    /// Takes the sibling of `target`'s ancestor at `level` when it is
    /// among the nodes from index `base` in `row`.
    fn take(&mut self, level: usize, base: u32, row: &[Node]) {
        let n = self.n;
        let sib = (self.target >> level) ^ 1;
        if level < self.height && sib >= base && ((sib - base) as usize) < row.len() {
            self.out[level * n..(level + 1) * n].copy_from_slice(&row[(sib - base) as usize][..n]);
        }
    }
}

/// The nodes waiting at each level of [`treehash`]: level `l` holds
/// `count[l]` nodes from index `start[l]`.
struct Levels {
    pending: [[Node; TH_GROUP]; MAX_A + 1],
    count: [usize; MAX_A + 1],
    start: [u32; MAX_A + 1],
}

impl Levels {
    /// Appends `row` (nodes at `level` from index `base`; at most a
    /// group, and a power of two) to its level, reducing each full group
    /// into the level above, and so on up. With `flush`, a partial group
    /// is reduced too (the top of the tree).
    fn push(
        &mut self,
        level: usize,
        base: u32,
        row: &[Node],
        flush: bool,
        nodes: &mut impl FnMut(usize, u32, &[Node], &mut [Node]),
        auth: &mut AuthPath<'_>,
    ) {
        let (mut level, mut base) = (level, base);
        let mut carry = [[0u8; MAX_N]; TH_GROUP];
        let mut len = row.len();
        carry[..len].copy_from_slice(row);
        while len > 0 && level < auth.height {
            let c = self.count[level];
            if c == 0 {
                self.start[level] = base;
            }
            self.pending[level][c..c + len].copy_from_slice(&carry[..len]);
            let c = c + len;
            if c < TH_GROUP && !flush {
                self.count[level] = c;
                return;
            }
            // Pairs into the level above.
            let first = self.start[level] >> 1;
            nodes(
                level + 1,
                first,
                &self.pending[level][..c],
                &mut carry[..c / 2],
            );
            auth.take(level + 1, first, &carry[..c / 2]);
            self.count[level] = 0;
            level += 1;
            base = first;
            len = c / 2;
        }
        if len > 0 {
            // The root.
            self.pending[level][0] = carry[0];
        }
    }
}

/// The root of a Merkle tree of height `height` and the authentication
/// path of leaf `target` (`auth`, `height` n-byte values).
///
/// Leaves come `batch` at a time (a power of two, at most [`TH_BATCH`]):
/// `leaves(first, out)` computes leaves `first..first + out.len()`.
/// Nodes are reduced a level at a time through `nodes(level, first,
/// children, out)` (`out[j]` is the node at `level` and index `first +
/// j`, from `children[2j]` and `children[2j + 1]`), never fewer than
/// [`TH_GROUP`] children at once below the top four levels, so that the
/// multi-way hashes always get several pairs: a batch is reduced while it
/// is wider than a group, and what remains waits at its level until
/// other batches fill the group.
fn treehash(
    n: usize,
    height: usize,
    target: u32,
    batch: usize,
    mut leaves: impl FnMut(u32, &mut [Node]),
    mut nodes: impl FnMut(usize, u32, &[Node], &mut [Node]),
    auth: &mut [u8],
) -> Node {
    let total = 1usize << height;
    let batch = batch.min(total).min(TH_BATCH);
    debug_assert!(batch.is_power_of_two());
    let mut auth = AuthPath {
        n,
        height,
        target,
        out: auth,
    };
    let mut levels = Levels {
        pending: [[[0u8; MAX_N]; TH_GROUP]; MAX_A + 1],
        count: [0; MAX_A + 1],
        start: [0; MAX_A + 1],
    };
    let mut buf = [[0u8; MAX_N]; TH_BATCH];
    let mut half = [[0u8; MAX_N]; TH_BATCH / 2];
    let mut first = 0u32;
    while (first as usize) < total {
        leaves(first, &mut buf[..batch]);
        let (mut level, mut base, mut width) = (0, first, batch);
        auth.take(0, base, &buf[..width]);
        while width > TH_GROUP {
            level += 1;
            base >>= 1;
            width /= 2;
            nodes(level, base, &buf[..2 * width], &mut half[..width]);
            buf[..width].copy_from_slice(&half[..width]);
            auth.take(level, base, &buf[..width]);
        }
        levels.push(level, base, &buf[..width], false, &mut nodes, &mut auth);
        first += batch as u32;
    }
    // The top: each level's remainder (fewer than a group, a power of
    // two) into the level above, up to the root.
    for level in 0..height {
        if levels.count[level] > 0 {
            let c = levels.count[level];
            levels.count[level] = 0;
            let row = levels.pending[level];
            levels.push(
                level,
                levels.start[level],
                &row[..c],
                true,
                &mut nodes,
                &mut auth,
            );
        }
    }
    // Nothing here is wiped: leaves and nodes are public (each may be
    // published in an authentication path); the secrets behind FORS
    // leaves never leave `Hasher::fors_leaves`, which wipes them.
    levels.pending[height][0]
}

/// FIPS 205 Alg. 9–10 `xmss_node`/`xmss_sign` in one pass: the root of
/// the XMSS tree at `adrs` (layer and tree set) and the authentication
/// path of leaf `idx` into `auth` (`h'` n-byte values); with `sign`,
/// also the WOTS+ signature of `sign.leaf` (`idx`), taken from the chains
/// as its leaf is computed (SHA2, [`Hasher::wots_pks`]) or computed
/// beside it (SHAKE).
///
/// With `top` (the top layer's tree, whose nodes at [`TOP_HEIGHT`] a
/// signing key keeps), only the eight leaves under `idx`'s node there
/// are computed, and the path above comes from `top` ([`top_path`]:
/// `2^(h' - 3) - 1` calls of `H` against the `2^h'` WOTS+ keys of the
/// whole tree). One call of [`xmss_subtree`] either way, so that its
/// frame is on the stack once.
#[allow(clippy::too_many_arguments)]
fn xmss_sign<P: ParameterSet>(
    hs: &Hasher,
    sk_seed: &[u8],
    adrs: &Adrs,
    idx: u32,
    auth: &mut [u8],
    scratch: &mut WotsScratch,
    sign: Option<WotsSign<'_>>,
    top: Option<&[u8]>,
) -> Node {
    let tree = match top {
        Some(_) => Subtree {
            first: idx >> TOP_HEIGHT << TOP_HEIGHT,
            height: TOP_HEIGHT,
        },
        None => Subtree {
            first: 0,
            height: P::HP,
        },
    };
    let (auth_low, auth_high) = auth.split_at_mut(tree.height * P::N);
    let node = xmss_subtree(hs, sk_seed, adrs, tree, idx, auth_low, scratch, sign, None);
    match top {
        Some(top) => top_path::<P>(hs, adrs, idx, node, auth_high, top),
        None => node,
    }
}

/// The leaves `first..first + 2^height` of an XMSS tree and the nodes
/// above them up to their common ancestor (`first` a multiple of
/// `2^height`).
#[derive(Clone, Copy)]
struct Subtree {
    first: u32,
    height: usize,
}

/// [`xmss_sign`] for a subtree: its root, and the first
/// `tree.height` values of leaf `idx`'s authentication path (`idx` in
/// the subtree). With `keep`, the nodes computed at [`TOP_HEIGHT`] are
/// also copied out, node `i` at `keep[i n..]` (a signing key's top
/// nodes, [`ParameterSet::TopNodesBytes`]).
#[allow(clippy::too_many_arguments)]
fn xmss_subtree(
    hs: &Hasher,
    sk_seed: &[u8],
    adrs: &Adrs,
    tree: Subtree,
    idx: u32,
    auth: &mut [u8],
    scratch: &mut WotsScratch,
    mut sign: Option<WotsSign<'_>>,
    mut keep: Option<&mut [u8]>,
) -> Node {
    let n = hs.n();
    let base = tree.first;
    treehash(
        n,
        tree.height,
        idx - base,
        WOTS_BATCH,
        |first, out| {
            let first = base + first;
            if hs.wots_pks(sk_seed, adrs, first, out, scratch, sign.as_mut()) {
                return;
            }
            for (j, o) in out.iter_mut().enumerate() {
                let mut a = *adrs;
                a.set_type_and_clear(WOTS_HASH);
                a.set_key_pair(first + j as u32);
                *o = wots_pkgen(hs, sk_seed, &a);
                if let Some(s) = sign.as_mut().filter(|s| s.leaf == first + j as u32) {
                    wots_sign_digits(hs, s.digits, sk_seed, &a, s.sig);
                }
            }
        },
        |level, first, children, out| {
            let first = (base >> level) + first;
            xmss_nodes(hs, adrs, level, first, children, out);
            if let Some(keep) = keep.as_deref_mut().filter(|_| level == TOP_HEIGHT) {
                let at = first as usize * n;
                for (k, o) in keep[at..].chunks_exact_mut(n).zip(out.iter()) {
                    k.copy_from_slice(&o[..n]);
                }
            }
        },
        auth,
    )
}

/// `out[j]`: the XMSS node at `level` and index `first + j` of the tree
/// at `adrs`, from `children[2j]` and `children[2j + 1]`.
fn xmss_nodes(
    hs: &Hasher,
    adrs: &Adrs,
    level: usize,
    first: u32,
    children: &[Node],
    out: &mut [Node],
) {
    let mut a = *adrs;
    a.set_type_and_clear(TREE);
    a.set_tree_height(level as u32);
    // A group's addresses at a time (treehash asks for at most a group).
    let mut lane_adrs = [a; TH_GROUP / 2];
    let count = out.len().min(children.len() / 2);
    for (k, (out, children)) in out[..count]
        .chunks_mut(TH_GROUP / 2)
        .zip(children.chunks(TH_GROUP))
        .enumerate()
    {
        let base = first + (k * TH_GROUP / 2) as u32;
        for (j, la) in lane_adrs.iter_mut().enumerate().take(out.len()) {
            la.set_tree_index(base + j as u32);
        }
        hs.h_many(&lane_adrs[..out.len()], children, out);
    }
}

/// The top of [`xmss_sign`] with kept nodes: the path of `idx` above
/// [`TOP_HEIGHT`] into `auth`, and the root, by [`treehash`] over the
/// kept `top` nodes as leaves, `own` (the node just computed) in place
/// of its kept copy (equal; no comparison, which would branch on values
/// derived from SK.seed). Apart, so that its buffers are not on the
/// stack while the subtree is computed.
#[inline(never)]
fn top_path<P: ParameterSet>(
    hs: &Hasher,
    adrs: &Adrs,
    idx: u32,
    own: Node,
    auth: &mut [u8],
    top: &[u8],
) -> Node {
    let n = P::N;
    let pos = idx >> TOP_HEIGHT;
    treehash(
        n,
        P::HP - TOP_HEIGHT,
        pos,
        TH_BATCH,
        |first, out| {
            let kept = top[first as usize * n..].chunks_exact(n);
            for ((o, t), i) in out.iter_mut().zip(kept).zip(first..) {
                *o = [0; MAX_N];
                o[..n].copy_from_slice(t);
                if i == pos {
                    *o = own;
                }
            }
        },
        |level, first, children, out| {
            xmss_nodes(hs, adrs, level + TOP_HEIGHT, first, children, out);
        },
        auth,
    )
}

/// FIPS 205 Alg. 11 `xmss_pkFromSig`.
fn xmss_pk_from_sig(hs: &Hasher, hp: usize, idx: u32, sig: &[u8], msg: &[u8], adrs: &Adrs) -> Node {
    let n = hs.n();
    let len = 2 * n + 3;
    let mut a = *adrs;
    a.set_type_and_clear(WOTS_HASH);
    a.set_key_pair(idx);
    let mut node = wots_pk_from_sig(hs, &sig[..len * n], msg, &a);
    let auth = &sig[len * n..];
    a.set_type_and_clear(TREE);
    a.set_tree_index(idx);
    for k in 0..hp {
        a.set_tree_height(k as u32 + 1);
        let sibling = &auth[k * n..(k + 1) * n];
        if (idx >> k) & 1 == 0 {
            a.set_tree_index(a.tree_index() / 2);
            node = hs.h(&a, &node, sibling);
        } else {
            a.set_tree_index((a.tree_index() - 1) / 2);
            node = hs.h(&a, sibling, &node);
        }
    }
    node
}

/// `2^bits - 1` for `bits <= 64`.
fn mask64(bits: usize) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// FIPS 205 Alg. 12 `ht_sign`: the hypertree signature of `msg` into
/// `sig` (`d` XMSS signatures), the top layer's from the key's `top`
/// nodes.
fn ht_sign<P: ParameterSet>(
    hs: &Hasher,
    msg: &Node,
    sk_seed: &[u8],
    mut idx_tree: u64,
    mut idx_leaf: u32,
    sig: &mut [u8],
    top: &[u8],
) {
    let n = P::N;
    let wots_len = P::LEN * n;
    let xmss_len = (P::LEN + P::HP) * n;
    let mut root = *msg;
    let mut scratch = WotsScratch::new();
    for (j, part) in sig.chunks_exact_mut(xmss_len).enumerate().take(P::D) {
        if j > 0 {
            idx_leaf = (idx_tree & mask64(P::HP)) as u32;
            idx_tree >>= P::HP;
        }
        let mut adrs = Adrs::default();
        adrs.set_layer(j as u32);
        adrs.set_tree(idx_tree);
        let (wots_sig, auth) = part.split_at_mut(wots_len);
        let mut digits = [0u8; MAX_LEN];
        wots_digits(n, &root, &mut digits);
        let sign = WotsSign {
            leaf: idx_leaf,
            digits: &digits[..P::LEN],
            sig: wots_sig,
        };
        // The tree's root is the next layer's message (the top one's is
        // PK.root).
        let top = (j + 1 == P::D).then_some(top);
        root = xmss_sign::<P>(
            hs,
            sk_seed,
            &adrs,
            idx_leaf,
            auth,
            &mut scratch,
            Some(sign),
            top,
        );
        root = declassify(root);
        public(wots_sig);
        public(auth);
    }
}

/// FIPS 205 Alg. 13 `ht_verify`.
fn ht_verify<P: ParameterSet>(
    hs: &Hasher,
    msg: &Node,
    sig: &[u8],
    mut idx_tree: u64,
    mut idx_leaf: u32,
    pk_root: &[u8],
) -> bool {
    let n = P::N;
    let xmss_len = (P::LEN + P::HP) * n;
    let mut node = *msg;
    for (j, part) in sig.chunks_exact(xmss_len).enumerate().take(P::D) {
        if j > 0 {
            idx_leaf = (idx_tree & mask64(P::HP)) as u32;
            idx_tree >>= P::HP;
        }
        let mut adrs = Adrs::default();
        adrs.set_layer(j as u32);
        adrs.set_tree(idx_tree);
        node = xmss_pk_from_sig(hs, P::HP, idx_leaf, part, &node, &adrs);
    }
    bool::from(node[..n].ct_eq(&pk_root[..n]))
}

/// FIPS 205 Alg. 14–16 `fors_sign` with the roots of `fors_node`: the FORS
/// signature of `md` into `sig`, and the FORS public key (Alg. 17's
/// result, from the same roots).
fn fors_sign<P: ParameterSet>(
    hs: &Hasher,
    md: &[u8],
    sk_seed: &[u8],
    adrs: &Adrs,
    sig: &mut [u8],
) -> Node {
    let n = P::N;
    let a = P::A;
    let mut indices = [0u32; MAX_K];
    base_2b(md, a as u32, &mut indices[..P::K]);
    let mut roots = [[0u8; MAX_N]; MAX_K];
    let mut sk_adrs = *adrs;
    sk_adrs.set_type_and_clear(FORS_PRF);
    sk_adrs.set_key_pair(adrs.key_pair());
    for (i, part) in sig.chunks_exact_mut((a + 1) * n).enumerate().take(P::K) {
        let base = (i as u32) << a;
        let (sk_out, auth) = part.split_at_mut(n);
        // fors_skGen
        let mut s = sk_adrs;
        s.set_tree_index(base + indices[i]);
        let mut sk = hs.prf(&s, sk_seed);
        sk_out.copy_from_slice(&sk[..n]);
        sk.zeroize();
        roots[i] = treehash(
            n,
            a,
            indices[i],
            TH_BATCH,
            |first, out| {
                let mut leaf_adrs = [*adrs; TH_BATCH];
                let mut prf_adrs = [sk_adrs; TH_BATCH];
                for (j, (la, pa)) in leaf_adrs.iter_mut().zip(prf_adrs.iter_mut()).enumerate() {
                    pa.set_tree_index(base + first + j as u32);
                    la.set_tree_height(0);
                    la.set_tree_index(base + first + j as u32);
                }
                let k = out.len();
                hs.fors_leaves(&prf_adrs[..k], &leaf_adrs[..k], sk_seed, out);
            },
            |level, first, children, out| {
                let mut t = *adrs;
                t.set_tree_height(level as u32);
                let mut lane_adrs = [t; TH_BATCH / 2];
                for (j, la) in lane_adrs.iter_mut().enumerate().take(out.len()) {
                    la.set_tree_index((base >> level) + first + j as u32);
                }
                hs.h_many(&lane_adrs[..out.len()], children, out);
            },
            auth,
        );
    }
    fors_pk(hs, adrs, &roots[..P::K])
}

/// `T_k` of the FORS roots (FIPS 205 Alg. 17 lines 20–24).
fn fors_pk(hs: &Hasher, adrs: &Adrs, roots: &[Node]) -> Node {
    let mut pk_adrs = *adrs;
    pk_adrs.set_type_and_clear(FORS_ROOTS);
    pk_adrs.set_key_pair(adrs.key_pair());
    hs.t(&pk_adrs, roots)
}

/// FIPS 205 Alg. 17 `fors_pkFromSig`.
fn fors_pk_from_sig<P: ParameterSet>(hs: &Hasher, sig: &[u8], md: &[u8], adrs: &Adrs) -> Node {
    let n = P::N;
    let a = P::A;
    let k = P::K;
    let mut indices = [0u32; MAX_K];
    base_2b(md, a as u32, &mut indices[..k]);
    // The k trees' paths climb together: their leaves in one `f_many`,
    // then each level's k nodes in one `h_many` (the tree index of tree
    // `i` at height `j` is `(i 2^a + idx_i) >> j`).
    let mut node_adrs = [*adrs; MAX_K];
    let mut nodes = [[0u8; MAX_N]; MAX_K];
    let parts = sig.chunks_exact((a + 1) * n);
    for (i, (part, (na, node))) in parts
        .zip(node_adrs.iter_mut().zip(&mut nodes))
        .enumerate()
        .take(k)
    {
        na.set_tree_height(0);
        na.set_tree_index(((i as u32) << a) + indices[i]);
        node[..n].copy_from_slice(&part[..n]);
    }
    hs.f_many(&node_adrs[..k], &mut nodes[..k]);
    let mut children = [[0u8; MAX_N]; 2 * MAX_K];
    for j in 0..a {
        for (i, (part, na)) in sig
            .chunks_exact((a + 1) * n)
            .zip(&mut node_adrs)
            .enumerate()
            .take(k)
        {
            let sibling = &part[n + j * n..n + (j + 1) * n];
            let (l, r) = children[2 * i..2 * i + 2].split_at_mut(1);
            // The digits of the message digest are public: the branch
            // only orders public values.
            if (indices[i] >> j) & 1 == 0 {
                l[0] = nodes[i];
                r[0][..n].copy_from_slice(sibling);
            } else {
                l[0][..n].copy_from_slice(sibling);
                r[0] = nodes[i];
            }
            na.set_tree_height(j as u32 + 1);
            na.set_tree_index((((i as u32) << a) + indices[i]) >> (j + 1));
        }
        hs.h_many(&node_adrs[..k], &children[..2 * k], &mut nodes[..k]);
    }
    fors_pk(hs, adrs, &nodes[..k])
}

/// FIPS 205 Alg. 18 `slh_keygen_internal`: `PK.root`, and the top
/// tree's nodes at [`TOP_HEIGHT`] into `top` (a signing key's
/// [`ParameterSet::TopNodesBytes`]; public, as every tree node is).
pub(crate) fn pk_root<P: ParameterSet>(sk_seed: &[u8], pk_seed: &[u8], top: &mut [u8]) -> Node {
    let hs = Hasher::new::<P>(pk_seed);
    let mut adrs = Adrs::default();
    adrs.set_layer(P::D as u32 - 1);
    let mut auth = [0u8; MAX_HP * MAX_N];
    let mut scratch = WotsScratch::new();
    let tree = Subtree {
        first: 0,
        height: P::HP,
    };
    let root = xmss_subtree(
        &hs,
        sk_seed,
        &adrs,
        tree,
        0,
        &mut auth,
        &mut scratch,
        None,
        Some(&mut *top),
    );
    public(top);
    declassify(root)
}

/// The message digest split (FIPS 205 Alg. 19 lines 6–10): `md`'s length
/// in `digest`, `idx_tree`, `idx_leaf`.
fn split_digest<P: ParameterSet>(digest: &[u8; MAX_M]) -> (usize, u64, u32) {
    let md_len = (P::K * P::A).div_ceil(8);
    let tree_len = (P::H - P::HP).div_ceil(8);
    let leaf_len = P::HP.div_ceil(8);
    let mut idx_tree = 0u64;
    for &b in &digest[md_len..md_len + tree_len] {
        idx_tree = (idx_tree << 8) | u64::from(b);
    }
    let mut idx_leaf = 0u32;
    for &b in &digest[md_len + tree_len..md_len + tree_len + leaf_len] {
        idx_leaf = (idx_leaf << 8) | u32::from(b);
    }
    (
        md_len,
        idx_tree & mask64(P::H - P::HP),
        idx_leaf & (mask64(P::HP) as u32),
    )
}

/// FIPS 205 Alg. 19 `slh_sign_internal` into `sig` (`P::SIG_LEN`
/// bytes). `sk` is `SK.seed || SK.prf || PK.seed || PK.root`;
/// `opt_rand` is `addrnd` or `PK.seed`.
pub(crate) fn sign_internal<P: ParameterSet>(
    sk: &[u8],
    top: &[u8],
    msg: &[&[u8]],
    opt_rand: &[u8],
    sig: &mut [u8],
) {
    let n = P::N;
    let (sk_seed, rest) = sk.split_at(n);
    let (sk_prf, pk) = rest.split_at(n);
    let (pk_seed, pk_root) = pk.split_at(n);
    let hs = Hasher::new::<P>(pk_seed);
    // R is the signature's first part.
    let r = declassify(hs.prf_msg(sk_prf, opt_rand, msg));
    let (r_out, rest) = sig.split_at_mut(n);
    r_out.copy_from_slice(&r[..n]);
    let digest = hs.h_msg(P::M, &r, pk_root, msg);
    let (md_len, idx_tree, idx_leaf) = split_digest::<P>(&digest);
    let mut adrs = Adrs::default();
    adrs.set_tree(idx_tree);
    adrs.set_type_and_clear(FORS_TREE);
    adrs.set_key_pair(idx_leaf);
    let (fors_sig, ht_sig) = rest.split_at_mut(P::K * (P::A + 1) * n);
    let pk_fors = declassify(fors_sign::<P>(
        &hs,
        &digest[..md_len],
        sk_seed,
        &adrs,
        fors_sig,
    ));
    public(fors_sig);
    ht_sign::<P>(&hs, &pk_fors, sk_seed, idx_tree, idx_leaf, ht_sig, top);
}

/// FIPS 205 Alg. 20 `slh_verify_internal`. `pk` is `PK.seed || PK.root`;
/// a signature of the wrong length is rejected.
pub(crate) fn verify_internal<P: ParameterSet>(pk: &[u8], msg: &[&[u8]], sig: &[u8]) -> bool {
    let n = P::N;
    if sig.len() != P::SIG_LEN || pk.len() != P::PK_LEN {
        return false;
    }
    let (pk_seed, pk_root) = pk.split_at(n);
    let hs = Hasher::new::<P>(pk_seed);
    let (r, rest) = sig.split_at(n);
    let digest = hs.h_msg(P::M, r, pk_root, msg);
    let (md_len, idx_tree, idx_leaf) = split_digest::<P>(&digest);
    let mut adrs = Adrs::default();
    adrs.set_tree(idx_tree);
    adrs.set_type_and_clear(FORS_TREE);
    adrs.set_key_pair(idx_leaf);
    let (fors_sig, ht_sig) = rest.split_at(P::K * (P::A + 1) * n);
    let pk_fors = fors_pk_from_sig::<P>(&hs, fors_sig, &digest[..md_len], &adrs);
    ht_verify::<P>(&hs, &pk_fors, ht_sig, idx_tree, idx_leaf, pk_root)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{Sha2_128f, Shake128f};

    #[test]
    fn base_2b_reads_big_endian_bits() {
        let x = [0b1010_1100, 0b0101_0011, 0xff];
        let mut out = [0u32; 4];
        base_2b(&x, 6, &mut out);
        assert_eq!(out, [0b101011, 0b000101, 0b001111, 0b111111]);
        let mut out = [0u32; 6];
        base_2b(&x, 4, &mut out);
        assert_eq!(out, [0xa, 0xc, 0x5, 0x3, 0xf, 0xf]);
        let mut out = [0u32; 1];
        base_2b(&x, 14, &mut out);
        assert_eq!(out, [0b10_1011_0001_0100]);
        // b = 12 as FORS at 128s: 16 bits per ... spans bytes.
        let mut out = [0u32; 2];
        base_2b(&x, 12, &mut out);
        assert_eq!(out, [0xac5, 0x3ff]);
    }

    #[test]
    fn wots_digits_checksum() {
        let n = 16;
        let msg = [0u8; 16];
        let mut d = [0u8; MAX_LEN];
        wots_digits(n, &msg, &mut d);
        // csum = 32 * 15 = 480 = 0x1e0.
        assert_eq!(&d[32..35], &[1, 0xe, 0]);
        let msg = [0xffu8; 16];
        wots_digits(n, &msg, &mut d);
        assert_eq!(&d[32..35], &[0, 0, 0]);
        assert!(d[..32].iter().all(|&v| v == 15));
    }

    /// A chain of `a + b` steps is a chain of `a` steps then `b` more, and
    /// signing then recovering gives the public key.
    fn chain_consistency<P: ParameterSet>() {
        let hs = Hasher::new::<P>(&[9u8; 32]);
        let mut adrs = Adrs::default();
        adrs.set_layer(1);
        adrs.set_tree(77);
        adrs.set_key_pair(3);
        let len = P::LEN;
        let mut x = [[0u8; MAX_N]; MAX_LEN];
        for (i, v) in x.iter_mut().enumerate() {
            v.fill(i as u8);
        }
        let mut full = x;
        chains(&hs, &adrs, &mut full[..len], &[0; MAX_LEN], &[W1; MAX_LEN]);
        let mut split = x;
        let mut a = [0u8; MAX_LEN];
        let mut b = [0u8; MAX_LEN];
        for i in 0..len {
            a[i] = (i % 16) as u8;
            b[i] = W1 - a[i];
        }
        chains(&hs, &adrs, &mut split[..len], &[0; MAX_LEN], &a);
        chains(&hs, &adrs, &mut split[..len], &a, &b);
        assert_eq!(full[..len], split[..len]);
        // One chain by hand with F.
        let mut one = x[5];
        let mut ca = adrs;
        ca.set_chain(5);
        for j in 0..15 {
            ca.set_hash(j);
            one = hs.f(&ca, &one);
        }
        assert_eq!(one, full[5]);

        let sk_seed = [4u8; 32];
        let pk = wots_pkgen(&hs, &sk_seed, &adrs);
        let msg = [0x3cu8; MAX_N];
        let mut sig = [0u8; MAX_LEN * MAX_N];
        wots_sign(&hs, &msg, &sk_seed, &adrs, &mut sig[..len * P::N]);
        assert_eq!(wots_pk_from_sig(&hs, &sig[..len * P::N], &msg, &adrs), pk);
        sig[0] ^= 1;
        assert_ne!(wots_pk_from_sig(&hs, &sig[..len * P::N], &msg, &adrs), pk);
    }

    /// [`Hasher::wots_pks`] (SHA2) against one leaf at a time: the same
    /// public keys for a full and a short batch, and the WOTS+ signature
    /// it captures equal to [`wots_sign`]'s, for the signed leaf at each
    /// position of the batch; a leaf outside the batch leaves `sig`
    /// untouched.
    fn batched_leaves<P: ParameterSet>() {
        let hs = Hasher::new::<P>(&[5u8; 32]);
        let sk_seed = [0xa7u8; 32];
        let mut adrs = Adrs::default();
        adrs.set_layer(2);
        adrs.set_tree(0x0123_4567);
        let (n, len) = (P::N, P::LEN);
        let mut scratch = WotsScratch::new();
        let msg = [0xe1u8; MAX_N];
        let mut digits = [0u8; MAX_LEN];
        wots_digits(n, &msg, &mut digits);
        for count in [WOTS_BATCH, 3] {
            for target in 8..8 + count as u32 + 1 {
                let mut out = [[0u8; MAX_N]; WOTS_BATCH];
                let mut sig = [0x55u8; MAX_LEN * MAX_N];
                let sign = WotsSign {
                    leaf: target,
                    digits: &digits[..len],
                    sig: &mut sig[..len * n],
                };
                assert!(hs.wots_pks(
                    &sk_seed,
                    &adrs,
                    8,
                    &mut out[..count],
                    &mut scratch,
                    Some(&mut { sign })
                ));
                for (j, o) in out[..count].iter().enumerate() {
                    let mut a = adrs;
                    a.set_type_and_clear(WOTS_HASH);
                    a.set_key_pair(8 + j as u32);
                    assert_eq!(*o, wots_pkgen(&hs, &sk_seed, &a), "leaf {j} of {count}");
                }
                if target < 8 + count as u32 {
                    let mut a = adrs;
                    a.set_type_and_clear(WOTS_HASH);
                    a.set_key_pair(target);
                    let mut want = [0u8; MAX_LEN * MAX_N];
                    wots_sign(&hs, &msg, &sk_seed, &a, &mut want[..len * n]);
                    assert_eq!(sig[..len * n], want[..len * n], "signed leaf {target}");
                } else {
                    assert!(sig.iter().all(|&b| b == 0x55));
                }
            }
        }
    }

    #[test]
    fn wots_batch_matches_single_leaves() {
        batched_leaves::<Sha2_128f>();
        batched_leaves::<crate::params::Sha2_192s>();
        batched_leaves::<crate::params::Sha2_256f>();
    }

    /// The top layer's tree from a key's top nodes against the whole
    /// tree ([`xmss_sign`] with and without them): the same root,
    /// authentication path and WOTS+ signature for leaves at the edges of
    /// the eight-leaf groups; the top nodes are those of the tree
    /// ([`pk_root`]).
    fn top_tree<P: ParameterSet>() {
        use crate::params::MAX_TOP;
        let (sk_seed, pk_seed) = ([0x3bu8; 32], [0x91u8; 32]);
        let n = P::N;
        let mut top = [0u8; MAX_TOP * MAX_N];
        let top = &mut top[..(1 << (P::HP - TOP_HEIGHT)) * n];
        let root = pk_root::<P>(&sk_seed, &pk_seed, top);
        let hs = Hasher::new::<P>(&pk_seed);
        let mut adrs = Adrs::default();
        adrs.set_layer(P::D as u32 - 1);
        let mut scratch = WotsScratch::new();
        let msg = [0x6du8; MAX_N];
        let mut digits = [0u8; MAX_LEN];
        wots_digits(n, &msg, &mut digits);
        let last = (1u32 << P::HP) - 1;
        let leaves = [
            0,
            1,
            7,
            8,
            13,
            last / 2,
            last / 2 + 1,
            last.saturating_sub(8),
            last,
        ];
        for idx in leaves.into_iter().filter(|&i| i <= last) {
            let mut paths = [[0u8; (MAX_LEN + MAX_HP) * MAX_N]; 2];
            let mut roots = [[0u8; MAX_N]; 2];
            for (which, (path, r)) in paths.iter_mut().zip(&mut roots).enumerate() {
                let (wots, auth) = path.split_at_mut(P::LEN * n);
                let sign = WotsSign {
                    leaf: idx,
                    digits: &digits[..P::LEN],
                    sig: &mut wots[..P::LEN * n],
                };
                let auth = &mut auth[..P::HP * n];
                let kept = (which == 1).then_some(&*top);
                *r = xmss_sign::<P>(
                    &hs,
                    &sk_seed,
                    &adrs,
                    idx,
                    auth,
                    &mut scratch,
                    Some(sign),
                    kept,
                );
            }
            assert_eq!(roots[0], root, "{} leaf {idx}", P::NAME);
            assert_eq!(roots[1], root, "{} leaf {idx}", P::NAME);
            assert_eq!(paths[0], paths[1], "{} leaf {idx}", P::NAME);
            assert!(paths[1][..P::LEN * n].iter().any(|&b| b != 0));
        }
    }

    #[test]
    fn top_nodes_give_the_top_tree() {
        top_tree::<crate::params::Sha2_128s>();
        top_tree::<crate::params::Sha2_192s>();
        top_tree::<crate::params::Sha2_256s>();
        top_tree::<crate::params::Sha2_256f>();
        top_tree::<crate::params::Shake256f>();
        top_tree::<Sha2_128f>();
    }

    #[test]
    fn wots_chains() {
        chain_consistency::<Sha2_128f>();
        chain_consistency::<Shake128f>();
        chain_consistency::<crate::params::Sha2_256f>();
    }

    #[test]
    fn mask() {
        assert_eq!(mask64(64), u64::MAX);
        assert_eq!(mask64(3), 7);
    }
}
