//! FIPS 203 written once over the backend kernels. Comments name the
//! algorithm and line of FIPS 203 each step implements.
//!
//! Montgomery bookkeeping: NTT outputs are in the normal domain;
//! `basemul_mont` multiplies by `2^-16`; `inv_ntt_tomont` by `2^16`; so
//! `NTT^-1(a o b)` comes out plain, and `A o s` is brought back with one
//! multiplication by `2^32 mod q` ([`R2`]).

use pqkit_common::Backend;
use pqkit_common::keccak::{Feed, Rider, SHAKE128_RATE, SHAKE256_RATE, stream_x4};
use pqkit_common::q3329::{MOD, N, Poly};
use pqkit_common::wipe::WipedBytes;
use zeroize::Zeroizing;

use crate::{Error, ParameterSet};

/// Largest module rank.
pub(crate) const MAX_K: usize = 4;
/// `2^32 mod q`: `fqmul(x, R2) = x 2^16`.
const R2: i16 = 1353;
/// At most this many SHAKE128 blocks per matrix entry. 64 blocks carry 7168
/// candidates, of which about 5825 are accepted on average; falling short
/// of 256 has probability below 10^-1000, so the bound is never reached in
/// practice. It exists so that the loop is bounded without an error path
/// (the `kem` traits are infallible): if it were ever reached, the missing
/// coefficients would be taken as the next 12-bit values reduced mod q (a
/// documented, unobservable deviation from FIPS 203 Alg. 7).
const MAX_A_BLOCKS: usize = 64;

/// A vector of up to four polynomials (only the first k are used).
pub(crate) type PolyVec = [Poly; MAX_K];

pub(crate) fn polyvec() -> PolyVec {
    core::array::from_fn(|_| Poly::default())
}

/// Secret polynomials, wiped on drop (only the entries the parameter set
/// uses).
type Secret<const M: usize> = pqkit_common::wipe::Wiped<Poly, M>;

/// The encapsulation key in the form K-PKE.Encrypt uses, computed once per
/// key: `t-hat` (canonical coefficients, as ByteDecode_12 gives them) and
/// the transposed matrix `A-hat^T` (`at[i][j] = SampleNTT(rho || i || j)`).
/// Public data.
#[derive(Clone)]
pub(crate) struct EkParts {
    pub t: PolyVec,
    pub at: [PolyVec; MAX_K],
}

impl Default for EkParts {
    fn default() -> Self {
        Self {
            t: polyvec(),
            at: core::array::from_fn(|_| polyvec()),
        }
    }
}

/// Decode `t-hat` and generate `A-hat^T` from an encoded encapsulation key
/// (EK_LEN bytes), and `hash = H(ek)` beside the matrix; returns the FIPS
/// 203 §7.2 modulus check.
pub(crate) fn expand_ek<B: Backend, P: ParameterSet>(
    b: B,
    ek: &[u8],
    out: &mut EkParts,
    hash: &mut [u8; 32],
) -> subtle::Choice {
    let k = P::K;
    let mut ok = subtle::Choice::from(1);
    for (i, p) in out.t.iter_mut().take(k).enumerate() {
        ok &= decode12(b, &ek[384 * i..384 * (i + 1)], p);
    }
    let mut rho = [0u8; 32];
    rho.copy_from_slice(&ek[384 * k..384 * k + 32]);
    gen_matrix::<B, P>(
        b,
        &rho,
        true,
        &mut out.at,
        Some(Rider::sha3_256(&[ek], hash)),
        |_, _, _| {},
    );
    ok
}

/// G = SHA3-512, split in two 32-byte halves.
use pqkit_common::keccak::sha3_512 as g;

/// The matrix (FIPS 203 Alg. 13 lines 3-7): `a[i][j] = SampleNTT(rho || j || i)`,
/// or its transpose (`rho || i || j`), on the 4-way SHAKE128 with each lane
/// refilled as soon as its entry is full; `rider` (the `H(ek)` of a key
/// being imported or made) runs alongside in the same permutations. `row_done(i,
/// row, feed)` is called for the rows in order, each as soon as it and the
/// ones before it are complete, with the rider's feed (key generation
/// writes `ek` there row by row).
pub(crate) fn gen_matrix<B: Backend, P: ParameterSet>(
    b: B,
    rho: &[u8; 32],
    transposed: bool,
    a: &mut [PolyVec; MAX_K],
    rider: Option<Rider<'_>>,
    mut row_done: impl FnMut(usize, &PolyVec, Option<&mut Feed<'_>>),
) {
    let k = P::K;
    let mut filled = [0usize; MAX_K * MAX_K];
    let mut complete = [0usize; MAX_K];
    let mut next_row = 0;
    stream_x4::<B, SHAKE128_RATE, 34>(
        b,
        k * k,
        |e| {
            let (i, jj) = (e / k, e % k);
            let (x, y) = if transposed { (i, jj) } else { (jj, i) };
            let mut seed = [0u8; 34];
            seed[..32].copy_from_slice(rho);
            seed[32] = x as u8;
            seed[33] = y as u8;
            seed
        },
        |e, _, block, buf, mut feed| {
            let p = &mut a[e / k][e % k];
            filled[e] = if block < MAX_A_BLOCKS {
                b.rej_uniform_q3329(p, filled[e], buf)
            } else {
                fill_mod_q(p, filled[e], buf)
            };
            if filled[e] < N {
                return false;
            }
            complete[e / k] += 1;
            while next_row < k && complete[next_row] == k {
                row_done(next_row, &a[next_row], feed.as_deref_mut());
                next_row += 1;
            }
            true
        },
        rider,
    );
}

/// The bounded loop's end (see [`MAX_A_BLOCKS`]): 12-bit values mod q.
fn fill_mod_q(p: &mut Poly, filled: usize, buf: &[u8; SHAKE128_RATE]) -> usize {
    let mut n = filled;
    for (dst, t) in p.coeffs[filled..].iter_mut().zip(buf.chunks_exact(2)) {
        *dst = MOD.canonical((u16::from_le_bytes([t[0], t[1]]) & 0xfff) as i16);
        n += 1;
    }
    n
}

/// `out[e] = CBD_eta(e)(PRF_eta(e)(seed, e))` for every polynomial of
/// `out` (FIPS 203 Alg. 13 lines 9-16: s and e; Alg. 14 lines 9-17: y, e1
/// and e2), on [`stream_x4`]: each entry takes a fixed one or two blocks,
/// so the schedule does not depend on the secrets. `rider`, in
/// decapsulation, is `J(z || c)`, computed in a lane of its own meanwhile.
fn sample_noise<B: Backend>(
    b: B,
    seed: &[u8; 32],
    eta: impl Fn(usize) -> usize,
    out: &mut [Poly],
    rider: Option<Rider<'_>>,
) {
    // Per lane, the first of the two blocks an eta = 3 entry needs.
    let mut first = WipedBytes([[0u8; SHAKE256_RATE]; 4]);
    let mut two = WipedBytes([0u8; 2 * SHAKE256_RATE]);
    stream_x4::<B, SHAKE256_RATE, 33>(
        b,
        out.len(),
        |e| {
            let mut s = [0u8; 33];
            s[..32].copy_from_slice(seed);
            s[32] = e as u8;
            s
        },
        |e, lane, i, block, _| {
            // 64 eta bytes: one block for eta = 2 (128 <= 136), two for 3.
            let len = 64 * eta(e);
            if len <= SHAKE256_RATE {
                b.cbd_q3329(eta(e), &block[..len], &mut out[e]);
                return true;
            }
            let f = &mut first[lane & 3];
            if i == 0 {
                *f = *block;
                return false;
            }
            two[..SHAKE256_RATE].copy_from_slice(f);
            two[SHAKE256_RATE..].copy_from_slice(block);
            b.cbd_q3329(eta(e), &two[..len], &mut out[e]);
            true
        },
        rider,
    );
}

/// FIPS 203 Alg. 5 ByteEncode_12 into `out` (384 bytes; the callers'
/// slices are).
fn encode12<B: Backend>(b: B, p: &Poly, out: &mut [u8]) {
    if let Ok(out) = <&mut [u8; 384]>::try_from(out) {
        b.encode12_q3329(p, out);
    }
}

/// FIPS 203 Alg. 6 ByteDecode_12 of 384 bytes; returns whether every value
/// is below q (the §7.2 modulus check), without branching on the values.
pub(crate) fn decode12<B: Backend>(b: B, bytes: &[u8], p: &mut Poly) -> subtle::Choice {
    match <&[u8; 384]>::try_from(bytes) {
        Ok(bytes) => b.decode12_q3329(bytes, p),
        Err(_) => subtle::Choice::from(0),
    }
}

/// Compress_d (FIPS 203 (4.7), multiply-shift, no division: KyberSlash)
/// and ByteEncode_d a polynomial into `out` (32 d bytes).
fn compress_encode<B: Backend>(b: B, p: &Poly, d: u32, out: &mut [u8]) {
    let ok = b.compress_encode_q3329(p, d, out);
    debug_assert!(ok, "compress_encode output is 32 d bytes");
}

/// ByteDecode_d and Decompress_d (FIPS 203 (4.8): `round(q y / 2^d)`).
fn decode_decompress<B: Backend>(b: B, bytes: &[u8], d: u32, p: &mut Poly) {
    let ok = b.decompress_q3329(d, bytes, p);
    debug_assert!(ok, "decode_decompress input is 32 d bytes");
}

/// `r = sum_j a[j] o s[j]` (times 2^-16), Barrett-reduced, over the first
/// `k` entries.
fn dot<B: Backend>(b: B, k: usize, a: &[Poly], s: &[Poly], r: &mut Poly) {
    b.dot_mont_q3329(&a[..k], &s[..k], r);
}

/// FIPS 203 Alg. 13 K-PKE.KeyGen(d): writes `ek` (EK_LEN), `dk_pke`
/// (384 k bytes) and `H(ek)` (computed beside the matrix, `ek` handed to it
/// row by row as the rows of t-hat are made).
fn kpke_keygen<B: Backend, P: ParameterSet>(
    b: B,
    d: &[u8; 32],
    ek: &mut [u8],
    dk_pke: &mut [u8],
    ek_hash: &mut [u8; 32],
    parts: &mut EkParts,
) {
    let k = P::K;
    // Line 1: (rho, sigma) = G(d || k).
    let rs = g(&[d, &[k as u8]]);
    let mut rho = [0u8; 32];
    rho.copy_from_slice(&rs[..32]);
    // rho is public (the last 32 bytes of ek).
    let rho = pqkit_common::ct::declassify(rho);
    let mut sigma = Zeroizing::new([0u8; 32]);
    sigma.copy_from_slice(&rs[32..]);
    // Lines 8-15: s (nonces 0..k) and e (k..2k) from CBD_eta1: se[..k] is s,
    // se[k..2k] is e; then s-hat, e-hat.
    let mut se = Secret::<{ 2 * MAX_K }>::new(2 * k);
    sample_noise(b, &sigma, |_| P::ETA1, &mut se[..2 * k], None);
    for p in se[..2 * k].iter_mut() {
        b.ntt_q3329(p);
    }
    let (s, e) = se.split_at(k);
    // Line 20: dk_pke = ByteEncode_12(s-hat).
    for (i, p) in s.iter().enumerate() {
        encode12(b, p, &mut dk_pke[384 * i..384 * (i + 1)]);
    }
    // Lines 3-7 and 16-19: A-hat, generated into the key's matrix slot
    // (transposed in place afterwards); as each row i is complete, t-hat_i
    // = A-hat_i o s-hat + e-hat_i and its encoding, the next 384 bytes of
    // ek = ByteEncode_12(t-hat) || rho, which H hashes meanwhile.
    let mut t = Poly::default();
    let t_parts = &mut parts.t;
    let rider = Rider {
        feed: Some(Feed::new(ek)),
        ..Rider::sha3_256(&[], ek_hash)
    };
    gen_matrix::<B, P>(
        b,
        &rho,
        false,
        &mut parts.at,
        Some(rider),
        |i, row, feed| {
            let Some(feed) = feed else {
                debug_assert!(false, "key generation's rider has a feed");
                return;
            };
            dot(b, k, row, s, &mut t);
            b.fqmul_add_q3329(&mut t, R2, &e[i]);
            let ek_i = &mut feed.unread()[..384];
            encode12(b, &t, ek_i);
            // What ByteDecode_12 of that encoding gives, for encryption.
            let _ = decode12(b, ek_i, &mut t_parts[i]);
            feed.release(384);
            if i + 1 == k {
                feed.unread()[..32].copy_from_slice(&rho);
                feed.release(32);
                feed.close();
            }
        },
    );
    // A-hat^T for encryption.
    for i in 0..k {
        for jj in i + 1..k {
            let (lo, hi) = parts.at.split_at_mut(jj);
            core::mem::swap(&mut lo[i][jj], &mut hi[0][i]);
        }
    }
}

/// Where K-PKE.Encrypt puts the ciphertext, one compressed polynomial at a
/// time (at most 352 bytes): written out (encapsulation), or compared with
/// a received ciphertext without materializing the re-encryption
/// (decapsulation: the differences are OR-ed together, no early exit).
enum CtSink<'a> {
    Write(&'a mut [u8]),
    Compare { ct: &'a [u8], diff: u8 },
}

impl CtSink<'_> {
    fn put(&mut self, off: usize, bytes: &[u8]) {
        match self {
            CtSink::Write(out) => {
                if let Some(dst) = out.get_mut(off..off + bytes.len()) {
                    dst.copy_from_slice(bytes);
                }
            }
            CtSink::Compare { ct, diff } => match ct.get(off..off + bytes.len()) {
                Some(theirs) => {
                    for (x, y) in theirs.iter().zip(bytes) {
                        *diff |= x ^ y;
                    }
                }
                None => *diff = 0xff,
            },
        }
    }
}

/// FIPS 203 Alg. 14 K-PKE.Encrypt(ek, m, r) into `ct` (CT_LEN bytes).
#[inline(never)] // its own frame: keeps the stack peak down
fn kpke_encrypt<B: Backend, P: ParameterSet>(
    b: B,
    ek: &EkParts,
    m: &[u8; 32],
    r: &[u8; 32],
    ct: &mut CtSink<'_>,
    rider: Option<Rider<'_>>,
) {
    let k = P::K;
    // One compressed polynomial (32 d bytes, d <= 11); wiped (c2 encodes
    // the message until the ciphertext is out).
    let mut enc = WipedBytes([0u8; 352]);
    // Lines 2-8: t-hat and A-hat^T, decoded and generated when the key was
    // made or imported (with the modulus check).
    let (t, a) = (&ek.t, &ek.at);
    // Lines 9-17: y (eta1, nonces 0..k), then e1 (eta2, k..2k) and e2
    // (eta2, 2k): noise[..k] is y, noise[k..2k] is e1, noise[2k] is e2.
    let mut noise = Secret::<{ 2 * MAX_K + 1 }>::new(2 * k + 1);
    let eta = |e: usize| if e < k { P::ETA1 } else { P::ETA2 };
    sample_noise(b, r, eta, &mut noise[..2 * k + 1], rider);
    let (y, rest) = noise.split_at_mut(k);
    let (e1, e2) = rest.split_at(k);
    let e2 = &e2[0];
    // Line 18: y-hat.
    for p in y.iter_mut() {
        b.ntt_q3329(p);
    }
    // Line 19: u = NTT^-1(A^T o y-hat) + e1; compress into c1.
    // u, v and mu carry e1, e2 and the message until compressed: wiped.
    let mut uvm = Secret::<3>::new(3);
    let [u, v, mu] = &mut *uvm;
    let du = P::DU;
    for i in 0..k {
        dot(b, k, &a[i], y, u);
        b.inv_ntt_tomont_q3329(u);
        for (x, e) in u.coeffs.iter_mut().zip(&e1[i].coeffs) {
            *x += e;
        }
        b.reduce_q3329(u);
        let len = 32 * du as usize;
        compress_encode(b, u, du, &mut enc[..len]);
        ct.put(len * i, &enc[..len]);
    }
    // Lines 20-21: mu = Decompress_1(m); v = NTT^-1(t-hat o y-hat) + e2 + mu.
    dot(b, k, t, y, v);
    b.inv_ntt_tomont_q3329(v);
    decode_decompress(b, m, 1, mu);
    for ((x, e), w) in v.coeffs.iter_mut().zip(&e2.coeffs).zip(&mu.coeffs) {
        *x = *x + e + w;
    }
    b.reduce_q3329(v);
    // Line 23: c2.
    let off = 32 * du as usize * k;
    let len = 32 * P::DV as usize;
    compress_encode(b, v, P::DV, &mut enc[..len]);
    ct.put(off, &enc[..len]);
}

/// FIPS 203 Alg. 15 K-PKE.Decrypt(dk_pke, c).
#[inline(never)] // its own frame: keeps the stack peak down
fn kpke_decrypt<B: Backend, P: ParameterSet>(
    b: B,
    dk_pke: &[u8],
    ct: &[u8],
) -> Zeroizing<[u8; 32]> {
    let k = P::K;
    let du = P::DU;
    // Lines 3-4: u', v'.
    let mut u = polyvec();
    for (i, p) in u.iter_mut().take(k).enumerate() {
        let len = 32 * du as usize;
        decode_decompress(b, &ct[len * i..len * (i + 1)], du, p);
        b.ntt_q3329(p);
    }
    let mut v = Poly::default();
    decode_decompress(b, &ct[32 * du as usize * k..], P::DV, &mut v);
    // Line 5: s-hat (secret: wiped), and w (secret).
    let mut sw = Secret::<{ MAX_K + 1 }>::new(MAX_K + 1);
    let (s, w) = sw.split_at_mut(MAX_K);
    let w = &mut w[0];
    for (i, p) in s.iter_mut().take(k).enumerate() {
        let _ = decode12(b, &dk_pke[384 * i..384 * (i + 1)], p);
    }
    // Line 6: w = v' - NTT^-1(s-hat o NTT(u')).
    dot(b, k, s, &u, w);
    b.inv_ntt_tomont_q3329(w);
    for (x, y) in w.coeffs.iter_mut().zip(&v.coeffs) {
        *x = y - *x;
    }
    b.reduce_q3329(w);
    // Line 7: m = ByteEncode_1(Compress_1(w)).
    let mut m = Zeroizing::new([0u8; 32]);
    compress_encode(b, w, 1, &mut m[..]);
    m
}

/// FIPS 203 Alg. 16 ML-KEM.KeyGen_internal(d, z): `ek` (EK_LEN) and `dk`
/// (DK_LEN).
pub(crate) fn keygen<B: Backend, P: ParameterSet>(
    b: B,
    d: &[u8; 32],
    z: &[u8; 32],
    ek: &mut [u8],
    dk: &mut [u8],
    parts: &mut EkParts,
) -> Result<(), Error> {
    let k = P::K;
    if ek.len() != P::EK_LEN || dk.len() != P::DK_LEN {
        return Err(Error::InvalidLength);
    }
    let mut ek_hash = [0u8; 32];
    kpke_keygen::<B, P>(b, d, ek, &mut dk[..384 * k], &mut ek_hash, parts);
    // dk = dk_pke || ek || H(ek) || z.
    dk[384 * k..768 * k + 32].copy_from_slice(ek);
    dk[768 * k + 32..768 * k + 64].copy_from_slice(&ek_hash);
    dk[768 * k + 64..].copy_from_slice(z);
    Ok(())
}

/// FIPS 203 Alg. 17 ML-KEM.Encaps_internal(ek, m): `(K, c)`; `ek_hash` is
/// H(ek).
pub(crate) fn encaps<B: Backend, P: ParameterSet>(
    b: B,
    ek: &EkParts,
    ek_hash: &[u8; 32],
    m: &[u8; 32],
    ct: &mut [u8],
) -> Result<Zeroizing<[u8; 32]>, Error> {
    if ct.len() != P::CT_LEN {
        return Err(Error::InvalidLength);
    }
    // Line 1: (K, r) = G(m || H(ek)).
    let kr = g(&[m, ek_hash]);
    let mut key = Zeroizing::new([0u8; 32]);
    key.copy_from_slice(&kr[..32]);
    let mut r = Zeroizing::new([0u8; 32]);
    r.copy_from_slice(&kr[32..]);
    // Line 2: c = K-PKE.Encrypt(ek, m, r).
    kpke_encrypt::<B, P>(b, ek, m, &r, &mut CtSink::Write(ct), None);
    Ok(key)
}

/// FIPS 203 Alg. 18 ML-KEM.Decaps_internal(dk, c) with implicit rejection
/// (constant-time compare and select).
pub(crate) fn decaps<B: Backend, P: ParameterSet>(
    b: B,
    dk: &[u8],
    ek: &EkParts,
    ct: &[u8],
) -> Result<Zeroizing<[u8; 32]>, Error> {
    let k = P::K;
    if dk.len() != P::DK_LEN || ct.len() != P::CT_LEN {
        return Err(Error::InvalidLength);
    }
    // Lines 1-4: dk_pke, ek_pke (as `ek`, expanded with the key), h, z.
    let dk_pke = &dk[..384 * k];
    let mut hh = [0u8; 32];
    hh.copy_from_slice(&dk[768 * k + 32..768 * k + 64]);
    let z = &dk[768 * k + 64..];
    // Line 5: m' = K-PKE.Decrypt(dk_pke, c).
    let m = kpke_decrypt::<B, P>(b, dk_pke, ct);
    // Line 6: (K', r') = G(m' || h).
    let kr = g(&[&m[..], &hh]);
    let mut r = Zeroizing::new([0u8; 32]);
    r.copy_from_slice(&kr[32..]);
    // Line 8: c' = K-PKE.Encrypt(ek_pke, m', r'), with line 7's
    // K-bar = J(z || c) computed beside its noise.
    let mut kbar = Zeroizing::new([0u8; 32]);
    let j_input = [z, ct];
    let j = Rider::shake256(&j_input, &mut kbar[..]);
    let mut sink = CtSink::Compare { ct, diff: 0 };
    kpke_encrypt::<B, P>(b, ek, &m, &r, &mut sink, Some(j));
    // Lines 9-11: K' if c == c', else K-bar, selected in constant time.
    let diff = match sink {
        CtSink::Compare { diff, .. } => diff,
        CtSink::Write(_) => 0xff,
    };
    let equal = subtle::Choice::from(
        1 ^ (((u32::from(diff) | u32::from(diff).wrapping_neg()) >> 31) as u8),
    );
    let mut key = kbar;
    pqkit_common::ct::ct_select_into(&mut key[..], &kr[..32], equal);
    Ok(key)
}
