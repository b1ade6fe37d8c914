//! Many short SHAKE streams (matrix entries) through the 4-way
//! permutation, each lane refilled with the next stream as soon as its
//! consumer is satisfied, and optionally one long hash riding in a lane of
//! its own.
//!
//! [`ShakeX4`](super::ShakeX4) runs four streams in lock step: a batch
//! lasts as long as its slowest entry, and a last batch of one entry (the
//! ninth of ML-KEM-768's matrix) leaves three lanes idle. Here an entry
//! that finishes hands its lane to the next one, and a hash of public data
//! that would otherwise run on the single-lane permutation (ML-KEM's
//! `H(ek)`, ML-DSA's `tr = H(pk)`) fills the lane-rounds the entries leave
//! over: ML-KEM-768's key import then costs about ten 4-way permutations
//! instead of eleven plus nine single ones.
//!
//! The schedule depends only on how many blocks each entry takes: with
//! secret seeds (noise), the consumers' block counts must not depend on the
//! output (a fixed count per entry), as they do not for ML-KEM's PRF; for
//! rejection sampling the outputs must be public (a public seed's matrix).
//! Seeds, squeezed blocks and the state are wiped before returning.

use super::{StateX4, X4Ops, read_lane, xor_lane};

/// A hash computed alongside [`stream_x4`]'s entries, in a lane of its
/// own (its message may be secret: only its length sets the schedule, and
/// the gathered blocks and the states are wiped): `out = Keccak[rate](input || fed || pad ...)`, the first
/// `out.len()` bytes (at most `rate`), where `input` is the concatenation
/// of the parts and `fed` what the entries' consumer writes into `feed`
/// while the stream runs. `pad` is the domain byte: `0x06` for SHA-3,
/// `0x1f` for SHAKE.
#[derive(Debug)]
pub struct Rider<'a> {
    /// The start of the message, as consecutive parts.
    pub input: &'a [&'a [u8]],
    /// The rest of the message, made by the consumer (see [`Feed`]), if any.
    pub feed: Option<Feed<'a>>,
    /// Rate in bytes (136 for SHA3-256 and SHAKE256, 168 for SHAKE128).
    pub rate: usize,
    /// Domain padding byte.
    pub pad: u8,
    /// Where the digest goes (at most `rate` bytes).
    pub out: &'a mut [u8],
}

impl<'a> Rider<'a> {
    /// SHA3-256 (FIPS 202 `H`) of the concatenation of `input`, into
    /// `out` (32 bytes); a [`Feed`] can be added with struct-update syntax
    /// (`Rider { feed: Some(feed), ..Rider::sha3_256(&[], out) }`). See
    /// [`stream_x4_riders`] for an example.
    #[inline]
    pub fn sha3_256(input: &'a [&'a [u8]], out: &'a mut [u8]) -> Self {
        Rider {
            input,
            feed: None,
            rate: super::SHAKE256_RATE,
            pad: 0x06,
            out,
        }
    }

    /// SHA3-512 (FIPS 202 `G`) of the concatenation of `input`, into
    /// `out` (64 bytes; rate 72).
    #[inline]
    pub fn sha3_512(input: &'a [&'a [u8]], out: &'a mut [u8]) -> Self {
        Rider {
            rate: 72,
            ..Self::sha3_256(input, out)
        }
    }

    /// SHAKE256 of the concatenation of `input`: its first `out.len()`
    /// bytes (at most the rate, 136).
    ///
    /// ```
    /// use pqkit_common::{Portable, keccak::{stream_x4, Rider, Shake256}};
    ///
    ///
    /// let mut out = [0u8; 100];
    /// stream_x4::<_, 168, 1>(Portable, 0, |_| [0], |_, _, _, _, _| true,
    ///     Some(Rider::shake256(&[b"ab", b"c"], &mut out)));
    /// let mut want = [0u8; 100];
    /// let mut h = Shake256::default();
    /// h.update(b"abc");
    /// h.finalize_xof().read(&mut want);
    /// assert_eq!(out, want);
    /// ```
    #[inline]
    pub fn shake256(input: &'a [&'a [u8]], out: &'a mut [u8]) -> Self {
        Rider {
            pad: 0x1f,
            ..Self::sha3_256(input, out)
        }
    }
}

/// The part of a [`Rider`]'s message that [`stream_x4`]'s consumer writes
/// as the entries come out (a key's encoding whose rows depend on the
/// matrix rows being sampled): the consumer writes the next bytes into
/// [`Feed::unread`] and hands them over with [`Feed::release`]; the rider
/// absorbs every whole block handed over, waiting for the rest (its state
/// parked, its lane free for entries), and pads after [`Feed::close`]. If the entries are done and the
/// feed is not closed, the message ends with the bytes handed over.
///
/// ```
/// use pqkit_common::{Portable, keccak::{stream_x4, Feed, Rider, sha3_256}};
///
/// // Three entries of one block each; as each finishes, 100 bytes derived
/// // from its output are appended to the hashed message.
/// let mut msg = [0u8; 300];
/// let mut digest = [0u8; 32];
/// stream_x4::<_, 168, 1>(
///     Portable,
///     3,
///     |e| [e as u8],
///     |_e, _lane, _i, block, feed| {
///         if let Some(f) = feed {
///             f.unread()[..100].copy_from_slice(&block[..100]);
///             f.release(100);
///             if f.ready() == 300 {
///                 f.close();
///             }
///         }
///         true
///     },
///     Some(Rider {
///         input: &[b"prefix"],
///         feed: Some(Feed::new(&mut msg)),
///         rate: 136,
///         pad: 0x06,
///         out: &mut digest,
///     }),
/// );
/// assert_eq!(digest, sha3_256(&[b"prefix", &msg]));
/// ```
#[derive(Debug)]
pub struct Feed<'a> {
    buf: &'a mut [u8],
    ready: usize,
    closed: bool,
}

impl<'a> Feed<'a> {
    /// A feed writing into `buf` (the message's fed part is a prefix of
    /// it).
    pub fn new(buf: &'a mut [u8]) -> Self {
        Feed {
            buf,
            ready: 0,
            closed: false,
        }
    }

    /// The bytes not yet handed over (the buffer from [`Feed::ready`] on).
    pub fn unread(&mut self) -> &mut [u8] {
        let ready = self.ready.min(self.buf.len());
        &mut self.buf[ready..]
    }

    /// How many bytes have been handed over.
    pub fn ready(&self) -> usize {
        self.ready
    }

    /// Hand over the next `n` bytes of [`Feed::unread`] (at most what is
    /// left of the buffer): from now on the rider may absorb them.
    pub fn release(&mut self, n: usize) {
        self.ready = (self.ready + n).min(self.buf.len());
    }

    /// The message ends with the bytes handed over.
    pub fn close(&mut self) {
        self.closed = true;
    }

    fn handed(&self) -> &[u8] {
        &self.buf[..self.ready.min(self.buf.len())]
    }
}

#[derive(Clone, Copy)]
enum Lane {
    Idle,
    /// Entry `e`, whose block `block` the next permutation squeezes.
    Entry {
        e: usize,
        block: usize,
    },
    /// Rider `j`; `last` once the padded final block is in the state.
    Rider {
        j: usize,
        last: bool,
    },
}

/// Squeeze SHAKE (`RATE` 168 or 136) streams for `entries` entries: entry
/// `e` absorbs `seed(e)` (shorter than `RATE`), then `consume(e, lane, i,
/// block, feed)` gets its blocks `i = 0, 1, ...` until it returns `true`;
/// `lane` (0..4) is the lane the entry runs in, so a consumer can keep one
/// work buffer per lane (no two entries in flight share a lane, while two
/// with the same `e % 4` may be in flight together). Entries start in
/// order of `e`. With `rider`, its hash takes a lane whenever it has a
/// whole block to absorb (lane 0 from the first permutation on if its
/// message is given up front; while it waits for its feed, its state is
/// parked and the lane runs entries), and `feed` is the rider's [`Feed`]
/// if it has one.
///
/// ```
/// use pqkit_common::{Portable, keccak::{stream_x4, Rider, Shake128, sha3_256}};
///
///
/// // Six entries wanting 1..=6 blocks, and SHA3-256 of 1000 bytes.
/// let msg = [7u8; 1000];
/// let mut digest = [0u8; 32];
/// let mut got = vec![Vec::new(); 6];
/// stream_x4::<_, 168, 2>(
///     Portable,
///     6,
///     |e| [e as u8, 9],
///     |e, _lane, i, block, _feed| {
///         got[e].extend_from_slice(block);
///         i == e
///     },
///     Some(Rider {
///         input: &[&msg[..10], &msg[10..]],
///         feed: None,
///         rate: 136,
///         pad: 0x06,
///         out: &mut digest,
///     }),
/// );
/// for (e, g) in got.iter().enumerate() {
///     let mut want = vec![0u8; 168 * (e + 1)];
///     let mut h = Shake128::default();
///     h.update(&[e as u8, 9]);
///     h.finalize_xof().read(&mut want);
///     assert_eq!(*g, want);
/// }
/// assert_eq!(digest, sha3_256(&[&msg]));
/// ```
pub fn stream_x4<B: X4Ops, const RATE: usize, const SEED: usize>(
    backend: B,
    entries: usize,
    seed: impl FnMut(usize) -> [u8; SEED],
    consume: impl FnMut(usize, usize, usize, &[u8; RATE], Option<&mut Feed<'_>>) -> bool,
    rider: Option<Rider<'_>>,
) {
    stream_x4_riders::<B, RATE, SEED, 1>(backend, entries, seed, consume, [rider]);
}

/// [`stream_x4`] with up to `R` riders (`R` at most 3), each a hash of its
/// own in a lane of its own, every rider taking a lane before the entries
/// do (rider `j` in lane `j` when all start together). The consumer's
/// `feed` is the first rider's [`Feed`] (riders after the first must not
/// have one: theirs would never be written).
///
/// ```
/// use pqkit_common::{Portable, keccak::{stream_x4_riders, Rider, Shake128, sha3_256}};
///
///
/// // Two entries of three blocks, and SHA3-256 of two messages.
/// let (m1, m2) = ([1u8; 500], [2u8; 1000]);
/// let (mut d1, mut d2) = ([0u8; 32], [0u8; 32]);
/// let mut got = vec![Vec::new(); 2];
/// stream_x4_riders::<_, 168, 1, 2>(
///     Portable,
///     2,
///     |e| [e as u8],
///     |e, _lane, i, block, _feed| {
///         got[e].extend_from_slice(block);
///         i == 2
///     },
///     [
///         Some(Rider::sha3_256(&[&m1], &mut d1)),
///         Some(Rider::sha3_256(&[&m2], &mut d2)),
///     ],
/// );
/// for (e, g) in got.iter().enumerate() {
///     let mut want = [0u8; 3 * 168];
///     let mut h = Shake128::default();
///     h.update(&[e as u8]);
///     h.finalize_xof().read(&mut want);
///     assert_eq!(g[..], want[..]);
/// }
/// assert_eq!((d1, d2), (sha3_256(&[&m1]), sha3_256(&[&m2])));
/// ```
#[inline]
pub fn stream_x4_riders<B: X4Ops, const RATE: usize, const SEED: usize, const R: usize>(
    backend: B,
    entries: usize,
    mut seed: impl FnMut(usize) -> [u8; SEED],
    mut consume: impl FnMut(usize, usize, usize, &[u8; RATE], Option<&mut Feed<'_>>) -> bool,
    riders: [Option<Rider<'_>>; R],
) {
    stream_x4_parked::<B, RATE, SEED, R>(
        backend,
        entries,
        |e| Start::Seed(seed(e)),
        |e, lane, i, block, feed| {
            if consume(e, lane, i, block, feed) {
                Step::Done
            } else {
                Step::More
            }
        },
        |_, _| {},
        riders,
    );
}

/// A SHAKE stream of [`stream_x4_parked`] stopped between two blocks, to
/// go on in a later call ([`Start::Resume`]): its sponge state after the
/// last block squeezed, and how many blocks that was. Wiped on drop (the
/// state of a secret seed's stream is secret).
#[derive(Clone, Default)]
pub struct Parked {
    state: [u64; 25],
    blocks: usize,
}

impl Parked {
    /// How many blocks were squeezed before the stream stopped: the
    /// resumed stream's first block is block number `blocks()`.
    pub fn blocks(&self) -> usize {
        self.blocks
    }
}

impl Drop for Parked {
    fn drop(&mut self) {
        crate::wipe::wipe(&mut self.state);
    }
}

impl core::fmt::Debug for Parked {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Parked {{ blocks: {}, .. }}", self.blocks)
    }
}

/// Where an entry of [`stream_x4_parked`] starts.
#[derive(Clone, Copy, Debug)]
pub enum Start<'a, const SEED: usize> {
    /// A fresh stream: absorb the seed, squeeze from block 0.
    Seed([u8; SEED]),
    /// A stream parked by an earlier call (with the same rate), going on
    /// from its next block.
    Resume(&'a Parked),
    /// A fresh stream whose seed is bytes `at..at + SEED` of rider
    /// `rider`'s digest: it starts (and the entries after it with it) once
    /// that rider is done, in a lane the rider leaves; it never starts if
    /// there is no such rider or its digest is shorter. (Saber's
    /// decapsulation: GenSecret's seed is the second half of `G(m ||
    /// H(pk))`, whose one permutation runs beside `H(c)`'s first.)
    AfterRider {
        /// The rider, by its index in `riders`.
        rider: usize,
        /// Where the seed starts in its digest.
        at: usize,
    },
}

/// What [`stream_x4_parked`]'s consumer wants after a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The next block of this entry.
    More,
    /// Nothing more: the entry's lane goes to the next entry.
    Done,
    /// Nothing more now: the entry's stream is handed to `park` (to be
    /// resumed by a later call), and its lane goes to the next entry.
    Park,
}

/// [`stream_x4_riders`] whose entries can stop and go on in a later call:
/// entry `e` starts from `start(e)` (a seed, or a stream an earlier call
/// parked, whose blocks then go on counting from [`Parked::blocks`]), and
/// when `consume` answers [`Step::Park`] after a block, the entry's stream
/// is handed to `park(e, parked)`. Splitting a long stream this way lets
/// its first blocks share permutations with the hashes of one call and
/// the rest with those of another (Saber: a key import's `H(pk)` beside
/// GenMatrix's first blocks, the first decapsulation's GenSecret and
/// `H(c)` beside the others).
///
/// ```
/// use pqkit_common::{Portable, keccak::{stream_x4_parked, Parked, Shake128, Start, Step}};
///
///
/// // Two blocks of a stream, then three more in a second call.
/// let mut got = Vec::new();
/// let mut parked = None;
/// stream_x4_parked::<_, 168, 1, 0>(
///     Portable,
///     1,
///     |_| Start::Seed([9]),
///     |_, _, i, block, _| {
///         got.extend_from_slice(block);
///         if i == 1 { Step::Park } else { Step::More }
///     },
///     |_, p| parked = Some(p),
///     [],
/// );
/// let parked: Parked = parked.unwrap();
/// assert_eq!(parked.blocks(), 2);
/// stream_x4_parked::<_, 168, 1, 0>(
///     Portable,
///     1,
///     |_| Start::Resume(&parked),
///     |_, _, i, block, _| {
///         got.extend_from_slice(block);
///         if i == 4 { Step::Done } else { Step::More }
///     },
///     |_, _| unreachable!(),
///     [],
/// );
/// let mut want = [0u8; 5 * 168];
/// let mut h = Shake128::default();
/// h.update(&[9]);
/// h.finalize_xof().read(&mut want);
/// assert_eq!(got[..], want[..]);
/// ```
pub fn stream_x4_parked<'p, B: X4Ops, const RATE: usize, const SEED: usize, const R: usize>(
    backend: B,
    entries: usize,
    mut start: impl FnMut(usize) -> Start<'p, SEED>,
    mut consume: impl FnMut(usize, usize, usize, &[u8; RATE], Option<&mut Feed<'_>>) -> Step,
    mut park: impl FnMut(usize, Parked),
    mut riders: [Option<Rider<'_>>; R],
) {
    const { assert!(SEED < RATE && RATE <= 200 && RATE.is_multiple_of(8) && R <= 3) };
    let mut state = StateX4::default();
    let mut lanes = [Lane::Idle; 4];
    // Each rider's sponge state while it has no lane (waiting for its
    // feed, or for a lane), how much of its message is absorbed, the lane
    // it is in.
    let mut slots = [RiderSlot::default(); R];
    let mut next = 0;
    let mut block = [0u8; RATE];
    let mut chunk = [0u8; MAX_RIDER_RATE];
    // The digests of the riders done so far, for entries seeded by them.
    let mut digests: [Option<&mut [u8]>; R] = core::array::from_fn(|_| None);
    loop {
        // The riders first: each one's next block into its lane (taking a
        // free lane if it has none); if its feed has no whole block yet,
        // it leaves its lane to the entries meanwhile.
        for (j, (rider, slot)) in riders.iter().zip(slots.iter_mut()).enumerate() {
            let Some(r) = rider.as_ref() else { continue };
            let rate = r.rate.min(MAX_RIDER_RATE);
            let fed = r.feed.as_ref().map_or(&[][..], Feed::handed);
            let complete = r.feed.as_ref().is_none_or(|f| f.closed);
            let n = gather(r.input, fed, slot.absorbed, &mut chunk[..rate]);
            if n == rate || complete {
                if slot.lane.is_none()
                    && let Some(k) = lanes.iter().position(|l| matches!(l, Lane::Idle))
                {
                    state.set_instance(k, &slot.parked);
                    slot.lane = Some(k);
                }
                if let Some(k) = slot.lane {
                    xor_lane(&mut state, k, 0, &chunk[..n]);
                    slot.absorbed += n;
                    let last = n < rate;
                    if last {
                        xor_lane(&mut state, k, n, &[r.pad]);
                        xor_lane(&mut state, k, rate - 1, &[0x80]);
                    }
                    lanes[k] = Lane::Rider { j, last };
                }
            } else if let Some(k) = slot.lane.take() {
                slot.parked = state.instance(k);
                lanes[k] = Lane::Idle;
            }
        }
        // A fresh entry into every idle lane.
        let mut busy = 0;
        let mut last_busy = 0;
        let mut waiting = false;
        for (k, lane) in lanes.iter_mut().enumerate() {
            if matches!(lane, Lane::Idle) && next < entries && !waiting {
                // A fresh stream absorbs its seed; `None`: not yet (an
                // entry waiting for its rider, and the ones after it).
                let mut fresh = |mut s: [u8; SEED]| {
                    state.set_instance(k, &[0; 25]);
                    xor_lane(&mut state, k, 0, &s);
                    crate::wipe::wipe(&mut s);
                    xor_lane(&mut state, k, SEED, &[0x1f]);
                    xor_lane(&mut state, k, RATE - 1, &[0x80]);
                    Some(0)
                };
                let first = match start(next) {
                    Start::Seed(s) => fresh(s),
                    Start::Resume(p) => {
                        state.set_instance(k, &p.state);
                        Some(p.blocks)
                    }
                    Start::AfterRider { rider, at } => {
                        let digest = digests.get(rider).and_then(|d| d.as_deref());
                        match digest.and_then(|d| d.get(at..at.saturating_add(SEED))) {
                            Some(d) => {
                                let mut s = [0u8; SEED];
                                s.copy_from_slice(d);
                                fresh(s)
                            }
                            None => None,
                        }
                    }
                };
                match first {
                    Some(first) => {
                        *lane = Lane::Entry {
                            e: next,
                            block: first,
                        };
                        next += 1;
                    }
                    None => waiting = true,
                }
            }
            if !matches!(lane, Lane::Idle) {
                busy += 1;
                last_busy = k;
            }
        }
        // One entry left, alone (no entry to start; no rider, or only the
        // first one waiting for its feed): it runs on a state of its own,
        // without the 4-way bookkeeping, to its end or until the rider
        // has a whole block (GenMatrix's tail in Saber's decapsulations,
        // 6-30 blocks; the middle of its key generation, before the rows
        // of b reach H(pk)).
        if busy == 1
            && next >= entries
            && riders.iter().skip(1).all(Option::is_none)
            && let Lane::Entry { e, block: i } = lanes[last_busy]
        {
            let no_rider = riders.first().is_none_or(Option::is_none);
            // The feed length at which the first rider has a whole block.
            let (feed, need) = match riders.first_mut().and_then(Option::as_mut) {
                Some(r) => {
                    let input: usize = r.input.iter().map(|p| p.len()).sum();
                    let absorbed = slots.first().map_or(0, |s| s.absorbed);
                    let rate = r.rate.min(MAX_RIDER_RATE);
                    (r.feed.as_mut(), (absorbed + rate).saturating_sub(input))
                }
                None => (None, 0),
            };
            // A rider with no feed, or a closed one, is not waiting.
            let rider_waits = feed.as_ref().is_some_and(|f| !f.closed && f.ready() < need);
            if no_rider || rider_waits {
                let feed = if rider_waits { feed } else { None };
                lanes[last_busy] = match lone(
                    backend,
                    &mut state,
                    last_busy,
                    e,
                    i,
                    &mut consume,
                    &mut park,
                    feed.map(|f| (f, need)),
                ) {
                    Some(block) => Lane::Entry { e, block },
                    None => Lane::Idle,
                };
                continue;
            }
        }
        match busy {
            // Nothing left but riders waiting for a feed nobody will
            // write: each message ends with what was handed over.
            0 if riders
                .iter()
                .flatten()
                .any(|r| r.feed.as_ref().is_some_and(|f| !f.closed)) =>
            {
                for f in riders.iter_mut().flatten().filter_map(|r| r.feed.as_mut()) {
                    f.close();
                }
                continue;
            }
            0 => break,
            // The tail of a matrix whose entry count is not a multiple of
            // four (ML-KEM-768's ninth entry), or a long rider.
            1 => backend.keccak_f1600_lane(&mut state, last_busy),
            _ => backend.keccak_f1600_x4(&mut state),
        }
        // Unload: squeezed blocks to their consumers, the riders' digests.
        for (k, lane) in lanes.iter_mut().enumerate() {
            match *lane {
                Lane::Entry { e, block: i } => {
                    read_lane(&state, k, &mut block);
                    let feed = riders
                        .first_mut()
                        .and_then(|r| r.as_mut())
                        .and_then(|r| r.feed.as_mut());
                    match consume(e, k, i, &block, feed) {
                        Step::More => *lane = Lane::Entry { e, block: i + 1 },
                        Step::Done => *lane = Lane::Idle,
                        Step::Park => {
                            park(
                                e,
                                Parked {
                                    state: state.instance(k),
                                    blocks: i + 1,
                                },
                            );
                            *lane = Lane::Idle;
                        }
                    }
                }
                Lane::Rider { j, last: true } => {
                    if let Some(r) = riders.get_mut(j).and_then(Option::take) {
                        let n = r.out.len().min(r.rate.min(MAX_RIDER_RATE));
                        read_lane(&state, k, &mut r.out[..n]);
                        if let Some(d) = digests.get_mut(j) {
                            *d = Some(r.out);
                        }
                    }
                    if let Some(slot) = slots.get_mut(j) {
                        slot.lane = None;
                    }
                    *lane = Lane::Idle;
                }
                Lane::Rider { .. } | Lane::Idle => {}
            }
        }
    }
    crate::wipe::wipe(state.lanes.as_flattened_mut());
    for slot in slots.iter_mut() {
        crate::wipe::wipe(&mut slot.parked);
    }
    crate::wipe::wipe(&mut block);
    crate::wipe::wipe(&mut chunk);
}

/// [`stream_x4_parked`]'s consumer, as [`lone`] takes it (by reference:
/// the main loop keeps its own inlined copy).
type Consumer<'c, const RATE: usize> =
    dyn FnMut(usize, usize, usize, &[u8; RATE], Option<&mut Feed<'_>>) -> Step + 'c;

/// The last entry of [`stream_x4_parked`], `e` in lane `k` of `state`
/// with block `i` next, run on its own state with the backend's single
/// permutation: to its end (`None`; parked if the consumer says so), or,
/// with a waiting rider's `(feed, need)`, until the consumer has handed
/// over `need` bytes or closed the feed (`Some(next block)`, the state
/// back in lane `k`). Never inlined: inlined, its frame (and
/// the consumer's, inlined a second time through it) joined
/// `stream_x4_parked`'s for the whole stream.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn lone<B: X4Ops, const RATE: usize>(
    backend: B,
    state: &mut StateX4,
    k: usize,
    e: usize,
    mut i: usize,
    consume: &mut Consumer<'_, RATE>,
    park: &mut dyn FnMut(usize, Parked),
    mut waiting: Option<(&mut Feed<'_>, usize)>,
) -> Option<usize> {
    let mut one = state.instance(k);
    let mut block = [0u8; RATE];
    let next = loop {
        backend.keccak_f1600_one(&mut one);
        for (chunk, v) in block.chunks_exact_mut(8).zip(one.iter()) {
            chunk.copy_from_slice(&v.to_le_bytes());
        }
        let feed = waiting.as_mut().map(|(f, _)| &mut **f);
        match consume(e, k, i, &block, feed) {
            Step::More => i += 1,
            Step::Done => break None,
            Step::Park => {
                park(
                    e,
                    Parked {
                        state: one,
                        blocks: i + 1,
                    },
                );
                break None;
            }
        }
        if let Some((f, need)) = waiting.as_ref()
            && (f.closed || f.ready() >= *need)
        {
            state.set_instance(k, &one);
            break Some(i);
        }
    };
    crate::wipe::wipe(&mut one);
    crate::wipe::wipe(&mut block);
    next
}

/// A rider's place in [`stream_x4_riders`]: its parked sponge state, the
/// bytes of its message absorbed, its lane.
#[derive(Clone, Copy, Default)]
struct RiderSlot {
    parked: [u64; 25],
    absorbed: usize,
    lane: Option<usize>,
}

/// The largest rate a rider may have (SHAKE128's); larger ones are taken
/// as this.
const MAX_RIDER_RATE: usize = 168;

/// Copy the bytes of the concatenation of `parts` and `tail` from offset
/// `off` into `out`, as many as there are (at most `out.len()`); returns
/// how many.
fn gather(parts: &[&[u8]], tail: &[u8], off: usize, out: &mut [u8]) -> usize {
    let mut skip = off;
    let mut n = 0;
    for p in parts.iter().copied().chain(core::iter::once(tail)) {
        if skip >= p.len() {
            skip -= p.len();
            continue;
        }
        let take = (p.len() - skip).min(out.len() - n);
        out[n..n + take].copy_from_slice(&p[skip..skip + take]);
        n += take;
        skip = 0;
        if n == out.len() {
            break;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::vec::Vec;

    use super::*;
    use crate::keccak::{Shake128, Shake256};
    use crate::{Backend, BackendKind, Kernel, run_on};

    /// Every entry count from 0 to 9, block demands from 1 to 7, riders of
    /// every length class (empty, below, at and above the rate), SHAKE128
    /// and SHAKE256 entries: each output equals the single-stream sponge's.
    struct Check;
    impl Kernel for Check {
        type Output = ();
        fn run<B: Backend>(self, b: B) {
            for entries in 0..10 {
                for rider_len in [
                    None,
                    Some(0),
                    Some(1),
                    Some(135),
                    Some(136),
                    Some(137),
                    Some(1184),
                ] {
                    let msg: Vec<u8> = (0..rider_len.unwrap_or(0))
                        .map(|i| (i * 13) as u8)
                        .collect();
                    let want_blocks = |e: usize| (e * 5 + entries) % 7;
                    let mut got = std::vec![Vec::new(); entries];
                    let mut digest = [0u8; 64];
                    let parts: [&[u8]; 3] = [&msg[..msg.len() / 3], &[], &msg[msg.len() / 3..]];
                    stream_x4::<B, 168, 34>(
                        b,
                        entries,
                        |e| core::array::from_fn(|i| (i + e * 3) as u8),
                        |e, lane, i, blk, feed| {
                            assert!(feed.is_none());
                            assert_eq!(i, got[e].len() / 168);
                            assert!(lane < 4);
                            got[e].extend_from_slice(blk);
                            i >= want_blocks(e)
                        },
                        rider_len.map(|_| Rider {
                            input: &parts,
                            feed: None,
                            rate: 136,
                            pad: 0x1f,
                            out: &mut digest,
                        }),
                    );
                    for (e, g) in got.iter().enumerate() {
                        let seed: [u8; 34] = core::array::from_fn(|i| (i + e * 3) as u8);
                        let mut want = std::vec![0u8; 168 * (want_blocks(e) + 1)];
                        let mut h = Shake128::default();
                        h.update(&seed);
                        h.finalize_xof().read(&mut want);
                        assert_eq!(*g, want, "entries {entries} entry {e}");
                    }
                    if rider_len.is_some() {
                        let mut want = [0u8; 64];
                        let mut h = Shake256::default();
                        h.update(&msg);
                        h.finalize_xof().read(&mut want);
                        assert_eq!(digest, want, "rider {rider_len:?}");
                    }
                }
            }
            // SHAKE256 entries (rate 136), 66-byte seeds.
            let mut got = std::vec![Vec::new(); 5];
            stream_x4::<B, 136, 66>(
                b,
                5,
                |e| [e as u8; 66],
                |e, _, _, blk, _| {
                    got[e].extend_from_slice(blk);
                    got[e].len() >= 136 * 2
                },
                None,
            );
            for (e, g) in got.iter().enumerate() {
                let mut want = [0u8; 272];
                let mut h = Shake256::default();
                h.update(&[e as u8; 66]);
                h.finalize_xof().read(&mut want);
                assert_eq!(g[..], want[..]);
            }
        }
    }

    /// A rider whose message is a prefix plus bytes the consumer writes as
    /// entries finish (pieces below, at and above the rate, or none; the
    /// feed closed with the last entry, or never): the digest equals
    /// SHA3-256 of the whole message, and the entries' outputs are
    /// untouched by the waiting.
    struct Fed;
    impl Kernel for Fed {
        type Output = ();
        fn run<B: Backend>(self, b: B) {
            for entries in [0usize, 1, 3, 4, 5, 9, 16] {
                for (prefix_len, piece, close) in [
                    (0usize, 384usize, true),
                    (32, 384, true),
                    (5, 100, true),
                    (0, 136, false),
                    (7, 1000, true),
                    (0, 0, true),
                ] {
                    let prefix: Vec<u8> = (0..prefix_len).map(|i| i as u8 ^ 0x5a).collect();
                    let total = piece * entries;
                    let mut fed = std::vec![0u8; total + 16];
                    let mut digest = [0u8; 32];
                    let mut got = std::vec![Vec::new(); entries];
                    let mut done = 0usize;
                    stream_x4::<B, 168, 34>(
                        b,
                        entries,
                        |e| [e as u8; 34],
                        |e, _, i, blk, feed| {
                            got[e].extend_from_slice(blk);
                            if i < e % 4 {
                                return false;
                            }
                            // Entry done: hand over the next piece.
                            done += 1;
                            if let Some(f) = feed {
                                let n = piece.min(f.unread().len());
                                for (j, x) in f.unread()[..n].iter_mut().enumerate() {
                                    *x = (done * 31 + j) as u8;
                                }
                                f.release(n);
                                if close && done == entries {
                                    f.close();
                                }
                            }
                            true
                        },
                        Some(Rider {
                            input: &[&prefix],
                            feed: Some(Feed::new(&mut fed[..total])),
                            rate: 136,
                            pad: 0x06,
                            out: &mut digest,
                        }),
                    );
                    let mut msg = prefix.clone();
                    msg.extend_from_slice(&fed[..total]);
                    assert_eq!(
                        digest,
                        crate::keccak::sha3_256(&[&msg]),
                        "entries {entries} piece {piece}"
                    );
                    for (e, g) in got.iter().enumerate() {
                        let mut want = std::vec![0u8; 168 * (e % 4 + 1)];
                        let mut h = Shake128::default();
                        h.update(&[e as u8; 34]);
                        h.finalize_xof().read(&mut want);
                        assert_eq!(*g, want);
                    }
                }
            }
        }
    }

    /// Two and three riders of different lengths (one of them empty, one
    /// longer than every entry) beside 0 to 9 entries of 1 to 7 blocks:
    /// every digest and every entry's output equals its own sponge's.
    struct Riders;
    impl Riders {
        fn check<B: Backend, const R: usize>(b: B, lens: [usize; R], entries: usize) {
            let msgs: Vec<Vec<u8>> = lens
                .iter()
                .enumerate()
                .map(|(j, &n)| (0..n).map(|i| (i * 7 + j * 101) as u8).collect())
                .collect();
            let mut digests = std::vec![[0u8; 32]; R];
            let want_blocks = |e: usize| (e * 3 + entries) % 7;
            let mut got = std::vec![Vec::new(); entries];
            {
                let mut outs = digests.iter_mut();
                let parts: Vec<[&[u8]; 1]> = msgs.iter().map(|m| [&m[..]]).collect();
                let riders: [Option<Rider<'_>>; R] = core::array::from_fn(|j| {
                    outs.next().map(|out| Rider {
                        input: &parts[j],
                        feed: None,
                        rate: 136,
                        pad: 0x06,
                        out,
                    })
                });
                stream_x4_riders::<B, 168, 34, R>(
                    b,
                    entries,
                    |e| [e as u8; 34],
                    |e, lane, i, blk, feed| {
                        assert!(feed.is_none() && lane < 4);
                        assert_eq!(i, got[e].len() / 168);
                        got[e].extend_from_slice(blk);
                        i >= want_blocks(e)
                    },
                    riders,
                );
            }
            for (m, d) in msgs.iter().zip(&digests) {
                assert_eq!(
                    *d,
                    crate::keccak::sha3_256(&[m]),
                    "lens {lens:?} entries {entries}"
                );
            }
            for (e, g) in got.iter().enumerate() {
                let mut want = std::vec![0u8; 168 * (want_blocks(e) + 1)];
                let mut h = Shake128::default();
                h.update(&[e as u8; 34]);
                h.finalize_xof().read(&mut want);
                assert_eq!(*g, want, "lens {lens:?} entries {entries} entry {e}");
            }
        }
    }
    impl Kernel for Riders {
        type Output = ();
        fn run<B: Backend>(self, b: B) {
            for entries in 0..10 {
                Self::check(b, [992, 1088], entries);
                Self::check(b, [0, 2000], entries);
                Self::check(b, [135, 136, 1500], entries);
                Self::check(b, [1088, 0, 137], entries);
            }
        }
    }

    /// Entries parked after 1 to 4 blocks in a first call (beside a rider,
    /// some finishing there instead), resumed in a second call beside two
    /// riders and fresh entries: every entry's blocks, across both calls,
    /// equal its own sponge's, and every digest SHA3-256's.
    struct ParkResume;
    impl Kernel for ParkResume {
        type Output = ();
        fn run<B: Backend>(self, b: B) {
            for entries in 1..8usize {
                let total = |e: usize| 3 + (e * 5 + entries) % 6;
                let stop = |e: usize| 1 + (e + entries) % 4;
                let msg: Vec<u8> = (0..700).map(|i| (i * 3) as u8).collect();
                let mut d0 = [0u8; 32];
                let mut got = std::vec![Vec::new(); entries];
                let mut parked: Vec<Option<Parked>> = std::vec![None; entries];
                stream_x4_parked::<B, 168, 34, 1>(
                    b,
                    entries,
                    |e| Start::Seed([e as u8; 34]),
                    |e, _, i, blk, _| {
                        assert_eq!(i, got[e].len() / 168);
                        got[e].extend_from_slice(blk);
                        if i + 1 == total(e) {
                            Step::Done
                        } else if i + 1 == stop(e) {
                            Step::Park
                        } else {
                            Step::More
                        }
                    },
                    |e, p| {
                        assert_eq!(p.blocks(), stop(e));
                        parked[e] = Some(p);
                    },
                    [Some(Rider::sha3_256(&[&msg[..300]], &mut d0))],
                );
                // The parked ones go on, then as many fresh entries.
                let resumed: Vec<usize> = (0..entries).filter(|&e| parked[e].is_some()).collect();
                let n = resumed.len();
                let (mut d1, mut d2) = ([0u8; 32], [0u8; 32]);
                let mut fresh = std::vec![Vec::new(); n];
                stream_x4_parked::<B, 168, 34, 2>(
                    b,
                    2 * n,
                    |k| match k.checked_sub(n) {
                        None => Start::Resume(parked[resumed[k]].as_ref().unwrap()),
                        Some(f) => Start::Seed([0x80 | f as u8; 34]),
                    },
                    |k, _, i, blk, _| match k.checked_sub(n) {
                        None => {
                            let e = resumed[k];
                            assert_eq!(i, got[e].len() / 168);
                            got[e].extend_from_slice(blk);
                            if i + 1 == total(e) {
                                Step::Done
                            } else {
                                Step::More
                            }
                        }
                        Some(f) => {
                            fresh[f].extend_from_slice(blk);
                            if i == f % 3 { Step::Done } else { Step::More }
                        }
                    },
                    |_, _| unreachable!("nothing parks in the second call"),
                    [
                        Some(Rider::sha3_256(&[&msg[300..]], &mut d1)),
                        Some(Rider::sha3_256(&[&msg[..5]], &mut d2)),
                    ],
                );
                let shake = |seed: &[u8], blocks: usize| {
                    let mut want = std::vec![0u8; 168 * blocks];
                    let mut h = Shake128::default();
                    h.update(seed);
                    h.finalize_xof().read(&mut want);
                    want
                };
                for (e, g) in got.iter().enumerate() {
                    assert_eq!(
                        *g,
                        shake(&[e as u8; 34], total(e)),
                        "entry {e} of {entries}"
                    );
                }
                for (f, g) in fresh.iter().enumerate() {
                    assert_eq!(*g, shake(&[0x80 | f as u8; 34], f % 3 + 1));
                }
                assert_eq!(d0, crate::keccak::sha3_256(&[&msg[..300]]));
                assert_eq!(d1, crate::keccak::sha3_256(&[&msg[300..]]));
                assert_eq!(d2, crate::keccak::sha3_256(&[&msg[..5]]));
            }
        }
    }

    /// Entries seeded by a rider's digest (SHA3-512 of a secret-like
    /// message, beside a long SHA3-256 rider and a fresh entry): each
    /// starts after its rider and equals the sponge of those digest bytes;
    /// an entry whose rider is absent, or whose bytes run past the digest,
    /// never starts (and the call ends).
    struct AfterRiders;
    impl Kernel for AfterRiders {
        type Output = ();
        fn run<B: Backend>(self, b: B) {
            let long: Vec<u8> = (0..1200).map(|i| (i * 7) as u8).collect();
            let short = [0x33u8; 64];
            for first_blocks in [1usize, 3, 9] {
                let (mut h, mut g) = ([0u8; 32], [0u8; 64]);
                let mut got = std::vec![Vec::new(); 3];
                stream_x4_parked::<B, 168, 32, 2>(
                    b,
                    3,
                    |e| match e {
                        0 => Start::Seed([1; 32]),
                        1 => Start::AfterRider { rider: 1, at: 32 },
                        _ => Start::AfterRider { rider: 1, at: 0 },
                    },
                    |e, _, i, blk, _| {
                        got[e].extend_from_slice(blk);
                        let want = if e == 0 { first_blocks } else { 2 + e };
                        if i + 1 == want {
                            Step::Done
                        } else {
                            Step::More
                        }
                    },
                    |_, _| unreachable!(),
                    [
                        Some(Rider::sha3_256(&[&long], &mut h)),
                        Some(Rider::sha3_512(&[&short[..10], &short[10..]], &mut g)),
                    ],
                );
                assert_eq!(g, *crate::keccak::sha3_512(&[&short]));
                assert_eq!(h, crate::keccak::sha3_256(&[&long]));
                let shake = |seed: &[u8], blocks: usize| {
                    let mut want = std::vec![0u8; 168 * blocks];
                    let mut x = Shake128::default();
                    x.update(seed);
                    x.finalize_xof().read(&mut want);
                    want
                };
                assert_eq!(got[0], shake(&[1; 32], first_blocks));
                assert_eq!(got[1], shake(&g[32..], 3));
                assert_eq!(got[2], shake(&g[..32], 4));
            }
            // No rider 1, or a seed past the end of the digest: the entry
            // waits for nothing and never starts.
            for (rider, at) in [(1usize, 0usize), (0, 8)] {
                let mut h = [0u8; 32];
                let mut calls = 0;
                stream_x4_parked::<B, 168, 32, 2>(
                    b,
                    1,
                    |_| Start::AfterRider { rider, at },
                    |_, _, _, _, _| {
                        calls += 1;
                        Step::Done
                    },
                    |_, _| unreachable!(),
                    [Some(Rider::sha3_256(&[&long], &mut h)), None],
                );
                assert_eq!(calls, 0);
                assert_eq!(h, crate::keccak::sha3_256(&[&long]));
            }
        }
    }

    #[test]
    fn entries_seeded_by_riders_on_every_backend() {
        for kind in BackendKind::available() {
            assert_eq!(run_on(kind, AfterRiders), Some(()));
        }
    }

    #[test]
    fn parked_streams_resume_on_every_backend() {
        for kind in BackendKind::available() {
            assert_eq!(run_on(kind, ParkResume), Some(()));
        }
    }

    #[test]
    fn several_riders_equal_sha3_on_every_backend() {
        for kind in BackendKind::available() {
            assert_eq!(run_on(kind, Riders), Some(()));
        }
    }

    #[test]
    fn fed_rider_equals_sha3_on_every_backend() {
        for kind in BackendKind::available() {
            assert_eq!(run_on(kind, Fed), Some(()));
        }
    }

    #[test]
    fn equals_single_streams_on_every_backend() {
        for kind in BackendKind::available() {
            assert_eq!(run_on(kind, Check), Some(()));
        }
    }
}
