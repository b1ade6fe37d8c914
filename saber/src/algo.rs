//! Saber.PKE and the round-3 KEM (the FO transform with implicit rejection
//! by `z`), written once over the backend: the ring products are
//! `pqkit_common::pow2`'s, everything else is packing, rounding and
//! hashing.

use pqkit_common::Backend;
use pqkit_common::ct;
use pqkit_common::keccak::{
    Feed, Parked, Rider, SHAKE128_RATE, SHAKE256_RATE, Shake128, Start, Step, stream_x4_parked,
    stream_x4_riders,
};
use pqkit_common::pow2::{self, N, Poly, PolyHat, SecretHat};
use pqkit_common::wipe::{OnDemand, Store, WipedBytes};
use zeroize::{Zeroize, Zeroizing};

use crate::Error;
use crate::params::{MAX_L, ParameterSet};

/// A vector of polynomials holding secrets: only the `l` a parameter set
/// uses are written, and those are wiped on drop.
type Secret = pqkit_common::wipe::Wiped<Poly, MAX_L>;

/// `log2 q`.
const EQ: u32 = 13;
/// `log2 p`.
const EP: u32 = 10;
/// The rounding constant `h1 = 2^(eq - ep - 1)`.
const H1: u16 = 1 << (EQ - EP - 1);
/// Bytes of a polynomial modulo q.
pub(crate) const POLY_Q_BYTES: usize = 13 * N / 8;
/// Bytes of a polynomial modulo p.
pub(crate) const POLY_P_BYTES: usize = 10 * N / 8;

/// `h2 = 2^(ep - 2) - 2^(ep - eT - 1) + 2^(eq - ep - 1)`.
const fn h2<P: ParameterSet>() -> u16 {
    (1 << (EP - 2)) - (1 << (EP - P::ET - 1)) + (1 << (EQ - EP - 1))
}

pub(crate) use pqkit_common::keccak::{sha3_256, sha3_512};

/// Pack the low `d` bits of each coefficient into `out` (`32 d` bytes, as
/// every caller's slice is).
fn pack(d: u32, p: &Poly, out: &mut [u8]) {
    let packed = p.pack(d, out);
    debug_assert!(packed);
}

/// Unpack `d`-bit coefficients from `bytes` (`32 d` bytes).
fn unpack<B: Backend>(b: B, d: u32, bytes: &[u8], p: &mut Poly) {
    let unpacked = b.unpack_pow2(d, bytes, p);
    debug_assert!(unpacked);
}

/// Bytes GenSecret reads at most (Saber's and FireSaber's 768), in whole
/// blocks.
const SECRET_BUF: usize = 768usize.div_ceil(SHAKE128_RATE) * SHAKE128_RATE;

/// Bytes of GenSecret's stream for `P`: `l` polynomials of `mu / 2` bytes
/// per four coefficients.
const fn secret_bytes<P: ParameterSet>() -> usize {
    P::L * (P::MU / 2) as usize * N / 4
}

/// GenMatrix as its SHAKE128 stream comes out: each polynomial (entry
/// `(i, j)` at index `i l + j`, row by row) is unpacked and transformed as
/// soon as its 416 bytes are in, so that only one polynomial's bytes are
/// held.
struct MatrixSink<'a> {
    a_hat: &'a mut [PolyHat],
    bytes: [u8; POLY_Q_BYTES],
    fill: usize,
    next: usize,
    entry: Poly,
}

impl<'a> MatrixSink<'a> {
    fn new(a_hat: &'a mut [PolyHat]) -> Self {
        Self {
            a_hat,
            bytes: [0; POLY_Q_BYTES],
            fill: 0,
            next: 0,
            entry: Poly::default(),
        }
    }

    /// Take the next bytes of the stream.
    fn push<B: Backend>(&mut self, b: B, mut block: &[u8]) {
        while !block.is_empty() && self.next < self.a_hat.len() {
            let take = (POLY_Q_BYTES - self.fill).min(block.len());
            self.bytes[self.fill..self.fill + take].copy_from_slice(&block[..take]);
            self.fill += take;
            block = &block[take..];
            if self.fill == POLY_Q_BYTES {
                unpack(b, EQ, &self.bytes, &mut self.entry);
                if let Some(hat) = self.a_hat.get_mut(self.next) {
                    pow2::forward(b, &self.entry, EQ, hat);
                }
                self.next += 1;
                self.fill = 0;
            }
        }
    }
}

/// Blocks of GenMatrix's stream for `P`.
const fn matrix_blocks<P: ParameterSet>() -> usize {
    (P::L * P::L * POLY_Q_BYTES).div_ceil(SHAKE128_RATE)
}

/// The most blocks of GenMatrix a key import squeezes ([`start_pk`]): as
/// many as `H(pk)` of the largest public key takes (FireSaber's 1312
/// bytes and the padding, at 136 bytes a block: 10).
const START_BLOCKS: usize = (MAX_L * POLY_P_BYTES + 32) / SHAKE256_RATE + 1;

/// GenMatrix's first blocks, squeezed by a decapsulation key's import
/// beside `H(pk)` ([`start_pk`]), and its stream parked there; the first
/// decapsulation (or encapsulation) finishes the matrix ([`finish_pk`]).
#[derive(Clone)]
pub(crate) struct MatrixStart {
    bytes: [u8; START_BLOCKS * SHAKE128_RATE],
    stream: Parked,
}

impl Default for MatrixStart {
    fn default() -> Self {
        Self {
            bytes: [0; START_BLOCKS * SHAKE128_RATE],
            stream: Parked::default(),
        }
    }
}

/// Where GenMatrix's stream starts: `seed_A`, or the blocks a key import
/// squeezed.
#[derive(Clone, Copy)]
enum MatrixFrom<'a> {
    Seed(&'a [u8; 32]),
    Started(&'a MatrixStart),
}

/// The SHAKE128 streams of one operation, squeezed together on the 4-way
/// permutation: GenMatrix's (if `matrix` is given: from `seed_A`, or on
/// from where a key import stopped it; the `l * l` entries transformed
/// into `a_hat`), GenSecret's from a seed (if `secret` is given: its
/// bytes into the buffer; the seed may be a rider's digest), and up to
/// three hashes riding in lanes of their own (`riders`). Each stream is
/// what its own sponge would give; running two to four at once costs one
/// 4-way permutation where they overlap instead of two to four single
/// ones.
fn squeeze<B: Backend, P: ParameterSet, const R: usize>(
    b: B,
    matrix: Option<(MatrixFrom<'_>, &mut [PolyHat])>,
    secret: Option<(Start<'_, 32>, &mut WipedBytes<[u8; SECRET_BUF]>)>,
    riders: [Option<Rider<'_>>; R],
) {
    let m_blocks = matrix_blocks::<P>();
    let s_blocks = secret_bytes::<P>().div_ceil(SHAKE128_RATE);
    let (m_from, mut sink) = match matrix {
        Some((from, a_hat)) => {
            let mut sink = MatrixSink::new(a_hat);
            if let MatrixFrom::Started(start) = from {
                let have = (start.stream.blocks() * SHAKE128_RATE).min(start.bytes.len());
                sink.push(b, &start.bytes[..have]);
            }
            (Some(from), Some(sink))
        }
        None => (None, None),
    };
    let (s_seed, mut s_buf) = match secret {
        Some((seed, buf)) => (Some(seed), Some(buf)),
        None => (None, None),
    };
    // Entry 0 is the matrix if there is one, then the secret.
    let first_is_matrix = m_from.is_some();
    let entries = usize::from(m_from.is_some()) + usize::from(s_seed.is_some());
    let is_matrix = |e: usize| e == 0 && first_is_matrix;
    let done = |last: bool| if last { Step::Done } else { Step::More };
    stream_x4_parked::<B, SHAKE128_RATE, 32, R>(
        b,
        entries,
        |e| match (is_matrix(e), m_from) {
            (true, Some(MatrixFrom::Started(start))) => Start::Resume(&start.stream),
            (true, Some(MatrixFrom::Seed(seed))) => Start::Seed(*seed),
            _ => s_seed.unwrap_or(Start::Seed([0; 32])),
        },
        |e, _lane, i, block, _feed| {
            if is_matrix(e) {
                if let Some(m) = sink.as_mut() {
                    m.push(b, block);
                }
                done(i + 1 >= m_blocks)
            } else {
                let dst = s_buf
                    .as_deref_mut()
                    .and_then(|x| x.0.get_mut(i * SHAKE128_RATE..(i + 1) * SHAKE128_RATE));
                if let Some(dst) = dst {
                    dst.copy_from_slice(block);
                }
                done(i + 1 >= s_blocks)
            }
        },
        |_, _| {},
        riders,
    );
}

/// GenSecret from its squeezed stream `bytes`: `l` polynomials from the
/// centred binomial distribution with parameter `mu`. Coefficient `i` is
/// the `mu`-bit field at bit `mu * i` (little-endian): the weight of its
/// low `h = mu / 2` bits minus the weight of its high `h` bits
/// ([`centred`]).
///
/// For Saber (`mu = 8`, a byte per coefficient) the weights come straight
/// from the bytes; LightSaber's 10-bit and FireSaber's 6-bit fields are
/// unpacked first by the backend (AVX2: one gather and shift per eight
/// fields), and the weights then come from one loop over the
/// coefficients, free of branches and table look-ups, which the compiler
/// vectorises (a 64-bit-word form does not, and shows in a LightSaber
/// decapsulation's profile).
fn secret_from<B: Backend, P: ParameterSet>(b: B, bytes: &[u8], s: &mut [Poly; MAX_L]) {
    let h = P::MU / 2;
    let per_poly = P::MU as usize * N / 8;
    for (poly, buf) in s.iter_mut().take(P::L).zip(bytes.chunks_exact(per_poly)) {
        if P::MU == 8 {
            for (c, &b) in poly.coeffs.iter_mut().zip(buf) {
                *c = centred(u16::from(b), h);
            }
        } else {
            unpack(b, P::MU, buf, poly);
            for c in poly.coeffs.iter_mut() {
                *c = centred(*c, h);
            }
        }
    }
}

/// The weight of the low `h` bits of `v` minus the weight of the next
/// `h` bits (modulo `2^16`).
#[inline(always)]
fn centred(v: u16, h: u32) -> u16 {
    let (mut x, mut y) = (0u16, 0u16);
    for j in 0..h {
        x += v >> j & 1;
        y += v >> (h + j) & 1;
    }
    x.wrapping_sub(y)
}

/// A public key's parts in the NTT domain, computed once when the key is
/// made or imported: the matrix A (row-major, `l * l` entries) and then
/// the vector b (as the inner product reads it, modulo p). With `alloc`
/// the entries are a vector of the set's size, `l (l + 1)` (6 / 12 / 20
/// KB for LightSaber / Saber / FireSaber), made by [`PkParts::sized`];
/// the default is empty. Without `alloc`, room for the largest set.
#[derive(Clone, Default)]
pub(crate) struct PkParts {
    hats: Hats,
}

#[cfg(feature = "alloc")]
type Hats = alloc::vec::Vec<PolyHat>;
#[cfg(not(feature = "alloc"))]
type Hats = [PolyHat; MAX_L * (MAX_L + 1)];

impl PkParts {
    /// The entries of set `P`: A's `l * l` and b's `l`, to be written.
    /// With `alloc`, sizes the vector first (zeroed; only on a fresh or
    /// differently sized value).
    pub(crate) fn sized<P: ParameterSet>(&mut self) -> (&mut [PolyHat], &mut [PolyHat]) {
        let (aa, n) = (P::L * P::L, P::L * (P::L + 1));
        #[cfg(feature = "alloc")]
        if self.hats.len() != n {
            self.hats.clear();
            self.hats.resize(n, PolyHat::ZERO);
        }
        self.hats[..n].split_at_mut(aa)
    }

    /// A's entries (row-major).
    fn a_hat<P: ParameterSet>(&self) -> &[PolyHat] {
        &self.hats[..P::L * P::L]
    }

    /// b's entries.
    fn b_hat<P: ParameterSet>(&self) -> &[PolyHat] {
        &self.hats[P::L * P::L..P::L * (P::L + 1)]
    }
}

/// The parts of the encoded public key `pk`: GenMatrix from its `seed_A`
/// and the transforms; `H(pk)` into `hash` (computed alongside GenMatrix).
pub(crate) fn expand_pk<B: Backend, P: ParameterSet>(
    b: B,
    pk: &[u8],
    parts: &mut PkParts,
    hash: &mut [u8; 32],
) {
    let seed_a = seed_a_of::<P>(pk);
    let (a_hat, b_hat) = parts.sized::<P>();
    let matrix = Some((MatrixFrom::Seed(&seed_a), a_hat));
    squeeze::<B, P, 1>(b, matrix, None, [Some(Rider::sha3_256(&[pk], hash))]);
    b_hat_from_pk::<B, P>(b, pk, b_hat);
}

/// `seed_A`, the last 32 bytes of the encoded public key `pk`.
fn seed_a_of<P: ParameterSet>(pk: &[u8]) -> [u8; 32] {
    let mut seed_a = [0u8; 32];
    seed_a.copy_from_slice(&pk[P::L * POLY_P_BYTES..P::L * POLY_P_BYTES + 32]);
    seed_a
}

/// A decapsulation key's import: `H(pk)` into `hash`, and beside it (in
/// the same 4-way permutations, which cost little more than single ones)
/// GenMatrix's first blocks, as many as the hash takes, into `start`,
/// whose stream is parked there. The first decapsulation finishes GenMatrix
/// with GenSecret and `H(c)` beside it ([`kem_decaps_first`]), where an
/// import that made the whole matrix left those two a pass of their own.
/// The key's work is the same either way; it is only spread so that no
/// lane runs alone while another stream waits.
pub(crate) fn start_pk<B: Backend, P: ParameterSet>(
    b: B,
    pk: &[u8],
    hash: &mut [u8; 32],
    start: &mut MatrixStart,
) {
    let seed_a = seed_a_of::<P>(pk);
    // H(pk)'s blocks (the message and its padding), at most the buffer.
    let stop = (P::PK_LEN / SHAKE256_RATE + 1)
        .min(START_BLOCKS)
        .min(matrix_blocks::<P>());
    let MatrixStart { bytes, stream } = start;
    stream_x4_parked::<B, SHAKE128_RATE, 32, 1>(
        b,
        1,
        |_| Start::Seed(seed_a),
        |_, _, i, block, _| {
            if let Some(dst) = bytes.get_mut(i * SHAKE128_RATE..(i + 1) * SHAKE128_RATE) {
                dst.copy_from_slice(block);
            }
            if i + 1 >= stop {
                Step::Park
            } else {
                Step::More
            }
        },
        |_, parked| *stream = parked,
        [Some(Rider::sha3_256(&[pk], hash))],
    );
}

/// The parts of the encoded public key `pk` whose GenMatrix a key import
/// started (`start`; from `seed_A` if `None`), into `parts`; GenSecret
/// from `secret`'s seed and the `riders` beside it.
#[inline(never)]
pub(crate) fn finish_pk<B: Backend, P: ParameterSet, const R: usize>(
    b: B,
    pk: &[u8],
    start: Option<&MatrixStart>,
    parts: &mut PkParts,
    secret: Option<(Start<'_, 32>, &mut WipedBytes<[u8; SECRET_BUF]>)>,
    riders: [Option<Rider<'_>>; R],
) {
    let seed_a = seed_a_of::<P>(pk);
    let from = start.map_or(MatrixFrom::Seed(&seed_a), MatrixFrom::Started);
    let (a_hat, b_hat) = parts.sized::<P>();
    squeeze::<B, P, R>(b, Some((from, a_hat)), secret, riders);
    b_hat_from_pk::<B, P>(b, pk, b_hat);
}

/// The vector `b` packed in `pk`, transformed into `b_hat`.
fn b_hat_from_pk<B: Backend, P: ParameterSet>(b: B, pk: &[u8], b_hat: &mut [PolyHat]) {
    let mut bv = [Poly::default(); MAX_L];
    for (i, poly) in bv.iter_mut().take(P::L).enumerate() {
        unpack(b, EP, &pk[i * POLY_P_BYTES..(i + 1) * POLY_P_BYTES], poly);
    }
    pow2::forward_all(b, &bv[..P::L], EP, b_hat);
}

/// The packed secret `s` (13-bit values, small signed numbers), unpacked
/// and sign-extended to 16 bits.
fn unpack_secret<B: Backend, P: ParameterSet>(b: B, sk_s: &[u8], s: &mut [Poly; MAX_L]) {
    for (i, poly) in s.iter_mut().take(P::L).enumerate() {
        unpack(b, EQ, &sk_s[i * POLY_Q_BYTES..(i + 1) * POLY_Q_BYTES], poly);
        for c in poly.coeffs.iter_mut() {
            *c = (((*c << 3) as i16) >> 3) as u16;
        }
    }
}

/// The packed secret `s` into `s_hat` in the NTT domain, if (and `true`
/// if) every coefficient is in
/// `[-mu/2, mu/2]` (a decapsulation key that loads must be one that key
/// generation can make). `s` is unpacked once for both; the range check
/// is constant time in the coefficients, only the verdict is public.
pub(crate) fn secret_hat_checked<B: Backend, P: ParameterSet>(
    b: B,
    sk_s: &[u8],
    s_hat: &mut SecretHat,
) -> bool {
    let mut s = Secret::new(P::L);
    unpack_secret::<B, P>(b, sk_s, &mut s);
    let bound = (P::MU / 2) as i16;
    let mut bad = 0u16;
    for poly in s.iter().take(P::L) {
        for &c in poly.coeffs.iter() {
            // |v| <= bound <=> v + bound >= 0 and bound - v >= 0 (no
            // overflow: v is a sign-extended 13-bit value).
            let v = c as i16;
            bad |= ((v + bound) | (bound - v)) as u16;
        }
    }
    if ct::declassify(u32::from(bad >> 15)) != 0 {
        return false;
    }
    // `s` is wiped when it drops, after the transform.
    s_hat.set(b, &s[..P::L]);
    true
}

/// Saber.PKE.KeyGen: from `seed_A` (already hashed) and `seed_s`, the
/// public `b` (packed modulo p, followed by `seed_A`) into `pk`, `s`
/// (packed modulo q) into `sk_s`, the NTT-domain forms of both keys into
/// `parts` and `s_hat`; returns `H(pk)` (SHA3-256). GenMatrix,
/// GenSecret and the hash in one pass of the 4-way Keccak.
///
/// GenSecret's stream ends after a few blocks, long before GenMatrix's,
/// and then `s` is transformed. Row `i` of `b = A^T s` needs column `i` of
/// A, whose last entry is in the matrix's last row, so `b_0` is ready at
/// the first entry of that row and the others follow one entry apart.
/// Each row of `b` is rounded, packed into `pk` and handed to the `H(pk)`
/// rider as soon as it is ready; its blocks then share permutations with
/// the end of GenMatrix instead of all following it (counted: four of
/// Saber's eight blocks, six of FireSaber's ten, two of LightSaber's
/// five).
pub(crate) fn pke_keygen<B: Backend, P: ParameterSet>(
    b: B,
    seed_a: &[u8; 32],
    seed_s: &[u8; 32],
    pk: &mut [u8],
    sk_s: &mut [u8],
    parts: &mut PkParts,
    s_hat: &mut SecretHat,
) -> [u8; 32] {
    let l = P::L;
    let mut hpk = [0u8; 32];
    let m_blocks = (l * l * POLY_Q_BYTES).div_ceil(SHAKE128_RATE);
    let s_len = secret_bytes::<P>();
    let s_blocks = s_len.div_ceil(SHAKE128_RATE);
    let mut secret = WipedBytes([0u8; SECRET_BUF]);
    let mut s = Secret::new(l);
    let mut bv = Secret::new(l);
    let (a_hat, b_hat) = parts.sized::<P>();
    let mut sink = MatrixSink::new(a_hat);
    let mut s_ready = false;
    let mut rows = 0;
    let pk_len = pk.len().min(P::PK_LEN);
    let rider = Rider {
        feed: Some(Feed::new(&mut pk[..pk_len])),
        ..Rider::sha3_256(&[], &mut hpk[..])
    };
    // Entry 0 is GenMatrix, entry 1 GenSecret.
    stream_x4_riders::<B, SHAKE128_RATE, 32, 1>(
        b,
        2,
        |e| if e == 0 { *seed_a } else { *seed_s },
        |e, _lane, i, block, mut feed| {
            if e == 0 {
                sink.push(b, block);
            } else {
                if let Some(dst) = secret.0.get_mut(i * SHAKE128_RATE..(i + 1) * SHAKE128_RATE) {
                    dst.copy_from_slice(block);
                }
                if i + 1 < s_blocks {
                    return false;
                }
                secret_from::<B, P>(b, &secret[..s_len], &mut s);
                s_hat.set(b, &s[..l]);
                s_ready = true;
            }
            // Every row of b whose column of A is complete.
            while s_ready && rows < l && sink.next > (l - 1) * l + rows {
                let row = &mut bv[rows];
                pow2::matrix_vector_row(b, sink.a_hat, s_hat, true, rows, row);
                round_b(row);
                if let Some(f) = feed.as_deref_mut() {
                    pack(EP, row, &mut f.unread()[..POLY_P_BYTES]);
                    f.release(POLY_P_BYTES);
                    rows += 1;
                    if rows == l {
                        f.unread()[..32].copy_from_slice(seed_a);
                        f.release(32);
                        f.close();
                    }
                } else {
                    debug_assert!(false, "the H(pk) rider has a feed");
                    rows += 1;
                }
            }
            e != 0 || i + 1 >= m_blocks
        },
        [Some(rider)],
    );
    for (i, poly) in s.iter().take(l).enumerate() {
        pack(
            EQ,
            poly,
            &mut sk_s[i * POLY_Q_BYTES..(i + 1) * POLY_Q_BYTES],
        );
    }
    pow2::forward_all(b, &bv[..l], EP, b_hat);
    hpk
}

/// Round a row of `A^T s` to `b`: `((x + h1) mod q) >> (eq - ep)`.
fn round_b(row: &mut Poly) {
    for c in row.coeffs.iter_mut() {
        *c = (c.wrapping_add(H1) & 0x1fff) >> (EQ - EP);
    }
}

/// The public `b = ((A^T s + h1) mod q) >> (eq - ep)` of the secret
/// `s_hat` under the matrix of `parts`, into `bv` (plain domain, mod p).
fn public_b<B: Backend, P: ParameterSet>(
    b: B,
    parts: &PkParts,
    s_hat: &SecretHat,
    bv: &mut [Poly; MAX_L],
) {
    pow2::matrix_vector_mul(b, parts.a_hat::<P>(), s_hat, true, &mut bv[..P::L]);
    for poly in bv.iter_mut().take(P::L) {
        round_b(poly);
    }
}

/// Whether the public `b` packed in `pk` is the one `s` gives
/// ([`public_b`], as key generation computes it), compared without an
/// early exit. The outcome (is the key consistent) is public.
pub(crate) fn b_matches_secret<B: Backend, P: ParameterSet>(
    b: B,
    parts: &PkParts,
    s_hat: &SecretHat,
    pk: &[u8],
) -> bool {
    let mut bv = Secret::new(P::L);
    public_b::<B, P>(b, parts, s_hat, &mut bv);
    let mut same = subtle::Choice::from(1u8);
    let mut packed = [0u8; POLY_P_BYTES];
    for (i, poly) in bv.iter().take(P::L).enumerate() {
        pack(EP, poly, &mut packed);
        same &= ct::ct_eq(&packed, &pk[i * POLY_P_BYTES..(i + 1) * POLY_P_BYTES]);
    }
    packed.zeroize();
    ct::declassify(same.unwrap_u8()) == 1
}

/// GenSecret from `seed` (with `riders` alongside), transformed into
/// `out`. Not inlined: the secret stream lives in this frame only, not in
/// the caller's for the rest of the encryption.
#[inline(never)]
fn secret_hat_from_seed<B: Backend, P: ParameterSet, const R: usize>(
    b: B,
    seed: Start<'_, 32>,
    riders: [Option<Rider<'_>>; R],
    out: &mut SecretHat,
) {
    let mut buf = WipedBytes([0u8; SECRET_BUF]);
    squeeze::<B, P, R>(b, None, Some((seed, &mut buf)), riders);
    secret_hat_from_stream::<B, P>(b, &buf[..], out);
}

/// GenSecret's seed in a decapsulation: the second half of `G(m ||
/// H(pk))`, computed by the rider [`g_rider`] (index `rider`) in the same
/// pass, beside `H(c)`'s first block.
const fn seed_after_g(rider: usize) -> Start<'static, 32> {
    Start::AfterRider { rider, at: 32 }
}

/// `G(m || H(pk))` (SHA3-512) into `kr`, as a rider; `input` is `[m,
/// H(pk)]`.
fn g_rider<'a>(input: &'a [&'a [u8]; 2], kr: &'a mut [u8; 64]) -> Rider<'a> {
    Rider::sha3_512(input, kr)
}

/// GenSecret's polynomials from its squeezed stream, transformed into
/// `out`. Not inlined: the plain secret lives in this frame only.
#[inline(never)]
fn secret_hat_from_stream<B: Backend, P: ParameterSet>(b: B, stream: &[u8], out: &mut SecretHat) {
    let mut s = Secret::new(P::L);
    secret_from::<B, P>(b, &stream[..secret_bytes::<P>()], &mut s);
    out.set(b, &s[..P::L]);
}

/// Saber.PKE.Enc of the 32-byte `m` with the coins `seed_sp` under the
/// public key's parts; `rider`, a hash of public data, is computed
/// alongside GenSecret.
pub(crate) fn pke_enc<B: Backend, P: ParameterSet>(
    b: B,
    m: &[u8; 32],
    seed_sp: &[u8; 32],
    parts: &PkParts,
    ct: &mut [u8],
    rider: Option<Rider<'_>>,
) {
    // s' is transformed once, for A s' and for b^T s'.
    let mut sp_hat = SecretHat::default();
    secret_hat_from_seed::<B, P, 1>(b, Start::Seed(*seed_sp), [rider], &mut sp_hat);
    pke_enc_hat::<B, P>(b, m, &sp_hat, parts, ct);
}

/// Saber.PKE.Enc of `m` with the transformed `s'`: `b' = A s'` and
/// `v' = b^T s'` rounded and packed into `ct`.
fn pke_enc_hat<B: Backend, P: ParameterSet>(
    b: B,
    m: &[u8; 32],
    sp_hat: &SecretHat,
    parts: &PkParts,
    ct: &mut [u8],
) {
    // b' = A s', row by row into the ciphertext.
    let mut row = Poly::default();
    for i in 0..P::L {
        pow2::matrix_vector_row(b, parts.a_hat::<P>(), sp_hat, false, i, &mut row);
        for c in row.coeffs.iter_mut() {
            *c = (c.wrapping_add(H1) & 0x1fff) >> (EQ - EP);
        }
        pack(EP, &row, &mut ct[i * POLY_P_BYTES..(i + 1) * POLY_P_BYTES]);
    }
    row.zeroize();
    // v' = b^T s' (mod p), with b from the public key.
    let mut vp = Poly::default();
    pow2::inner_product_hat(b, parts.b_hat::<P>(), sp_hat, &mut vp);
    for (k, c) in vp.coeffs.iter_mut().enumerate() {
        let bit = ((m[k / 8] >> (k % 8)) & 1) as u16;
        *c = (c.wrapping_sub(bit << (EP - 1)).wrapping_add(H1) & 0x3ff) >> (EP - P::ET);
    }
    let off = P::L * POLY_P_BYTES;
    pack(P::ET, &vp, &mut ct[off..off + 32 * P::ET as usize]);
    vp.zeroize();
}

/// Saber.PKE.Dec of `ct` with the transformed secret, into `m`.
pub(crate) fn pke_dec<B: Backend, P: ParameterSet>(
    b: B,
    s_hat: &SecretHat,
    ct: &[u8],
    m: &mut [u8; 32],
) {
    let mut bp = [Poly::default(); MAX_L];
    for (i, poly) in bp.iter_mut().take(P::L).enumerate() {
        unpack(b, EP, &ct[i * POLY_P_BYTES..(i + 1) * POLY_P_BYTES], poly);
    }
    let mut v = Poly::default();
    pow2::inner_product(b, &bp[..P::L], EP, s_hat, &mut v);
    let off = P::L * POLY_P_BYTES;
    let mut cm = Poly::default();
    unpack(b, P::ET, &ct[off..off + 32 * P::ET as usize], &mut cm);
    m.fill(0);
    for (k, (c, t)) in v.coeffs.iter().zip(cm.coeffs.iter()).enumerate() {
        let x = (c.wrapping_add(h2::<P>()).wrapping_sub(t << (EP - P::ET)) & 0x3ff) >> (EP - 1);
        m[k / 8] |= (x as u8 & 1) << (k % 8);
    }
    v.zeroize();
}

/// KEM key generation from its 96 random bytes in the reference's order:
/// `seed_A` (hashed with SHAKE128 before use), `seed_s`, `z`; the
/// NTT-domain parts into `parts` and `s_hat`.
pub(crate) fn kem_keygen<B: Backend, P: ParameterSet>(
    b: B,
    coins: &[u8; 96],
    pk: &mut [u8],
    sk: &mut [u8],
    parts: &mut PkParts,
    s_hat: &mut SecretHat,
) {
    let mut seed_a = [0u8; 32];
    let mut xof = Shake128::default();
    xof.update(&coins[..32]);
    xof.finalize_xof().read(&mut seed_a);
    let mut seed_s = Zeroizing::new([0u8; 32]);
    seed_s.copy_from_slice(&coins[32..64]);
    let s_len = P::L * POLY_Q_BYTES;
    let hpk = pke_keygen::<B, P>(b, &seed_a, &seed_s, pk, &mut sk[..s_len], parts, s_hat);
    sk[s_len..s_len + P::PK_LEN].copy_from_slice(pk);
    sk[s_len + P::PK_LEN..s_len + P::PK_LEN + 32].copy_from_slice(&hpk);
    sk[s_len + P::PK_LEN + 32..].copy_from_slice(&coins[64..]);
}

/// KEM encapsulation with the 32 random bytes `coins` (hashed into the
/// message as the reference does): ciphertext into `ct`, shared key out.
pub(crate) fn kem_encaps<B: Backend, P: ParameterSet>(
    b: B,
    coins: &[u8; 32],
    parts: &PkParts,
    hpk: &[u8; 32],
    ct: &mut [u8],
) -> Zeroizing<[u8; 32]> {
    let m = Zeroizing::new(sha3_256(&[coins]));
    let mut kr = sha3_512(&[&*m, hpk]);
    let mut r = Zeroizing::new([0u8; 32]);
    r.copy_from_slice(&kr[32..]);
    pke_enc::<B, P>(b, &m, &r, parts, ct, None);
    let hc = sha3_256(&[ct]);
    kr[32..].copy_from_slice(&hc);
    Zeroizing::new(sha3_256(&[&kr[..]]))
}

/// KEM decapsulation (ciphertext length checked by the caller): the shared
/// key, or the pseudo-random key from `z` if the re-encryption differs.
pub(crate) fn kem_decaps<B: Backend, P: ParameterSet>(
    b: B,
    s_hat: &SecretHat,
    parts: &PkParts,
    sk: &[u8],
    ct: &[u8],
    ct_buf: &mut [u8],
) -> Zeroizing<[u8; 32]> {
    let s_len = P::L * POLY_Q_BYTES;
    let hpk = &sk[s_len + P::PK_LEN..s_len + P::PK_LEN + 32];
    let mut m = Zeroizing::new([0u8; 32]);
    pke_dec::<B, P>(b, s_hat, ct, &mut m);
    // One pass: H(c) of the received ciphertext, G(m || H(pk)) beside its
    // first block, then GenSecret from G's second half.
    let mut kr = Zeroizing::new([0u8; 64]);
    let mut hc = [0u8; 32];
    let mut sp_hat = SecretHat::default();
    let g_in: [&[u8]; 2] = [&m[..], hpk];
    secret_hat_from_seed::<B, P, 2>(
        b,
        seed_after_g(1),
        [
            Some(Rider::sha3_256(&[ct], &mut hc)),
            Some(g_rider(&g_in, &mut kr)),
        ],
        &mut sp_hat,
    );
    pke_enc_hat::<B, P>(b, &m, &sp_hat, parts, ct_buf);
    decaps_key::<P>(&mut kr, sk, ct, ct_buf, &hc)
}

/// [`kem_decaps`] with a key whose public parts are not made yet (a key
/// import made only GenMatrix's first blocks, [`start_pk`]): GenMatrix is
/// finished with GenSecret and `H(c)` beside it into `fresh` (a default
/// box from the caller), and kept in `parts` for the next calls (if
/// another thread kept its own first, the two are equal and this call's
/// are dropped).
#[allow(clippy::too_many_arguments)]
pub(crate) fn kem_decaps_first<B: Backend, P: ParameterSet>(
    b: B,
    s_hat: &SecretHat,
    parts: &OnDemand<PkParts>,
    mut fresh: Store<PkParts>,
    start: Option<&MatrixStart>,
    sk: &[u8],
    ct: &[u8],
    ct_buf: &mut [u8],
) -> Zeroizing<[u8; 32]> {
    let s_len = P::L * POLY_Q_BYTES;
    let pk = &sk[s_len..s_len + P::PK_LEN];
    let hpk = &sk[s_len + P::PK_LEN..s_len + P::PK_LEN + 32];
    let mut m = Zeroizing::new([0u8; 32]);
    pke_dec::<B, P>(b, s_hat, ct, &mut m);
    let mut kr = Zeroizing::new([0u8; 64]);
    let g_in: [&[u8]; 2] = [&m[..], hpk];
    let mut secret = WipedBytes([0u8; SECRET_BUF]);
    let mut hc = [0u8; 32];
    finish_pk::<B, P, 2>(
        b,
        pk,
        start,
        &mut fresh,
        Some((seed_after_g(1), &mut secret)),
        [
            Some(Rider::sha3_256(&[ct], &mut hc)),
            Some(g_rider(&g_in, &mut kr)),
        ],
    );
    let parts = parts.insert(fresh);
    let mut sp_hat = SecretHat::default();
    secret_hat_from_stream::<B, P>(b, &secret[..], &mut sp_hat);
    pke_enc_hat::<B, P>(b, &m, &sp_hat, parts, ct_buf);
    decaps_key::<P>(&mut kr, sk, ct, ct_buf, &hc)
}

/// The end of decapsulation: `K = H(K^ || H(c))`, with `K^` (the first
/// half of `kr`) replaced by `z` where the re-encryption `ct_buf` differs
/// from `ct` (constant time).
fn decaps_key<P: ParameterSet>(
    kr: &mut [u8; 64],
    sk: &[u8],
    ct: &[u8],
    ct_buf: &[u8],
    hc: &[u8; 32],
) -> Zeroizing<[u8; 32]> {
    let z = &sk[P::L * POLY_Q_BYTES + P::PK_LEN + 32..];
    let differ = !ct::ct_eq(ct, ct_buf);
    kr[32..].copy_from_slice(hc);
    ct::ct_select_into(&mut kr[..32], z, differ);
    Zeroizing::new(sha3_256(&[&kr[..]]))
}

/// KEM decapsulation straight from the reference `sk` encoding (both
/// lengths checked by the caller), with the checks of a key import (the
/// range of `s`, then the embedded `H(pk)` against the embedded `pk`; a
/// wrong `H(pk)` is the error when both fail, as import reports it) and
/// the same key as importing and decapsulating. One pass of the 4-way
/// permutation runs all five streams: GenMatrix (into `parts`, which is
/// scratch here), `H(pk)`, `H(c)`, `G(m || H(pk))` and then GenSecret
/// from G's second half (the coins `r'`) in the lane G leaves.
pub(crate) fn kem_decaps_from_bytes<B: Backend, P: ParameterSet>(
    b: B,
    sk: &[u8],
    ct: &[u8],
    parts: &mut PkParts,
    ct_buf: &mut [u8],
) -> Result<Zeroizing<[u8; 32]>, Error> {
    let s_len = P::L * POLY_Q_BYTES;
    let pk = &sk[s_len..s_len + P::PK_LEN];
    let hpk = &sk[s_len + P::PK_LEN..s_len + P::PK_LEN + 32];
    let mut m = Zeroizing::new([0u8; 32]);
    {
        let mut s_hat = SecretHat::default();
        if !secret_hat_checked::<B, P>(b, &sk[..s_len], &mut s_hat) {
            return Err(if sha3_256(&[pk])[..] == *hpk {
                Error::InvalidPrivateKey
            } else {
                Error::InconsistentKey
            });
        }
        pke_dec::<B, P>(b, &s_hat, ct, &mut m);
    }
    let mut kr = Zeroizing::new([0u8; 64]);
    let g_in: [&[u8]; 2] = [&m[..], hpk];
    let mut secret = WipedBytes([0u8; SECRET_BUF]);
    let (mut hpk_now, mut hc) = ([0u8; 32], [0u8; 32]);
    finish_pk::<B, P, 3>(
        b,
        pk,
        None,
        parts,
        Some((seed_after_g(2), &mut secret)),
        [
            Some(Rider::sha3_256(&[pk], &mut hpk_now)),
            Some(Rider::sha3_256(&[ct], &mut hc)),
            Some(g_rider(&g_in, &mut kr)),
        ],
    );
    // Public data (is the key well formed); the secrets so far are wiped
    // as they drop.
    if hpk_now[..] != *hpk {
        return Err(Error::InconsistentKey);
    }
    let mut sp_hat = SecretHat::default();
    secret_hat_from_stream::<B, P>(b, &secret[..], &mut sp_hat);
    pke_enc_hat::<B, P>(b, &m, &sp_hat, parts, ct_buf);
    Ok(decaps_key::<P>(&mut kr, sk, ct, ct_buf, &hc))
}
