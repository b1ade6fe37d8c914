//! ExpandA (FIPS 204 Alg. 32, also as the on-demand product A v) and
//! ExpandS (Alg. 33), four entries at a time on the 4-way SHAKE.
#![allow(clippy::needless_range_loop)]

use super::*;
#[cfg(feature = "alloc")]
use pqkit_common::keccak::Shake128X4;

/// RejNTTPoly for four matrix entries `(row, column)` at once
/// (FIPS 204 Alg. 30 via Alg. 32 ExpandA: seed `rho || col || row`),
/// written to `out[0..4]` (lanes beyond `out.len()` are computed and
/// dropped).
#[cfg(feature = "alloc")]
pub(super) fn expand_a_x4<B: Backend, E: Bound>(
    b: B,
    rho: &[u8; 32],
    idx: [(usize, usize); 4],
    out: &mut [Poly],
) -> Result<(), E> {
    let seeds: [[u8; 34]; 4] = core::array::from_fn(|k| {
        let mut s = [0u8; 34];
        s[..32].copy_from_slice(rho);
        s[32] = idx[k].1 as u8;
        s[33] = idx[k].0 as u8;
        s
    });
    let mut x = Shake128X4::absorb(b, &seeds);
    let lanes = out.len().min(4);
    let mut filled = [N; 4];
    filled[..lanes].fill(0);
    let mut blocks = [[0u8; SHAKE128_RATE]; 4];
    for _ in 0..E::MAX_A {
        if filled.iter().all(|&f| f >= N) {
            break;
        }
        x.squeeze_block(&mut blocks);
        for ((p, f), blk) in out.iter_mut().zip(filled.iter_mut()).zip(&blocks) {
            if *f < N {
                *f = b.rej_uniform_q8380417(p, *f, blk);
            }
        }
    }
    if filled.iter().all(|&f| f >= N) {
        Ok(())
    } else {
        E::exceeded()
    }
}

/// `out = A * vhat` (NTT domain, Montgomery factor removed), A generated on
/// demand from rho. Output coefficients below `l q` in magnitude. (Signing
/// without the heap; the others call [`matrix_mul_rows`].)
#[cfg(not(feature = "alloc"))]
pub(crate) fn matrix_mul<B: Backend, P: ParameterSet, E: Bound>(
    b: B,
    rho: &[u8; 32],
    vhat: &VecL,
    out: &mut VecK,
) -> Result<(), E> {
    matrix_mul_rows::<B, P, E>(b, rho, vhat, out, None, |_, _, _| {})
}

/// `out = A * vhat` on [`stream_x4`]: the entries `(i, j)` row by row, each
/// lane refilled as soon as its entry is sampled (one work polynomial per
/// lane) and the entry accumulated into `out[i]` at once; `row_done(i,
/// out_i, feed)` is called for the rows in order, each as soon as it and
/// the ones before it are complete, with `rider` (if any) running
/// alongside and its feed (key generation hands `t1`'s encoding to
/// the `tr` hash row by row). An entry that needs more than `E::MAX_A`
/// blocks ends the product with `E::exceeded()` (its row and the ones
/// after it are not reported).
pub(super) fn matrix_mul_rows<B: Backend, P: ParameterSet, E: Bound>(
    b: B,
    rho: &[u8; 32],
    vhat: &VecL,
    out: &mut VecK,
    rider: Option<Rider<'_>>,
    mut row_done: impl FnMut(usize, &mut Poly, Option<&mut Feed<'_>>),
) -> Result<(), E> {
    let (k, l) = (P::K, P::L);
    for p in out.iter_mut().take(k) {
        *p = Poly::default();
    }
    let mut work: [Poly; 4] = zero_vec();
    let mut filled = [0usize; 4];
    let mut complete = [0usize; MAX_K];
    let mut next_row = 0;
    let mut gave_up = false;
    stream_x4::<B, SHAKE128_RATE, 34>(
        b,
        k * l,
        |e| {
            let (i, j) = entry_at(e, k, l);
            let mut s = [0u8; 34];
            s[..32].copy_from_slice(rho);
            s[32] = j as u8;
            s[33] = i as u8;
            s
        },
        |e, lane, block, buf, mut feed| {
            let (i, j) = entry_at(e, k, l);
            let lane = lane & 3;
            if block == 0 {
                filled[lane] = 0;
            }
            filled[lane] = b.rej_uniform_q8380417(&mut work[lane], filled[lane], buf);
            if filled[lane] < N {
                if block + 1 >= E::MAX_A {
                    gave_up = true;
                    return true;
                }
                return false;
            }
            b.pointwise_acc_mont_q8380417(&work[lane], &vhat[j], &mut out[i]);
            complete[i] += 1;
            while next_row < k && complete[next_row] == l {
                row_done(next_row, &mut out[next_row], feed.as_deref_mut());
                next_row += 1;
            }
            true
        },
        rider,
    );
    if gave_up { E::exceeded() } else { Ok(()) }
}

/// The matrix entry `(row, column)` that [`matrix_mul_rows`] samples
/// `e`-th: row by row, except that the last entry of each row from the
/// second to the last but one trades places with the first entry of the
/// row after it. The order changes only when rows are complete, never
/// the product.
///
/// Why: key generation's `tr = H(pk)` rider absorbs `t1` row by row, and
/// each time it takes a lane for its blocks, the entry that lane would
/// have started starts later. In row order that late entry is the last
/// one of its row, so every row is finished late and the rider's last
/// blocks run alone after the matrix. Starting the next row's first entry
/// there instead lets the late row finish while the rider works. Key
/// generation's permutations (counted in the stream):
///
/// | set | row by row | this order |
/// |---|---|---|
/// | ML-DSA-44 | 20 four-lane, 2 two-lane, 6 single | 20 four-lane, 2 three-lane, 4 single |
/// | ML-DSA-65 | 38 four-lane, 2 three-lane, 2 two-lane, 3 single | 40 four-lane, 5 single |
/// | ML-DSA-87 | 72 four-lane, 2 three-lane, 1 two-lane, 4 single | 72 four-lane, 2 three-lane, 6 single |
///
/// A search over every choice of next entry and of rider lane found no
/// shorter schedule for ML-DSA-44.
fn entry_at(e: usize, k: usize, l: usize) -> (usize, usize) {
    let (i, j) = (e / l, e % l);
    if l >= 2 && i >= 1 && i + 2 <= k && j == l - 1 {
        (i + 1, 0)
    } else if l >= 2 && i >= 2 && j == 0 {
        (i - 1, l - 1)
    } else {
        (i, j)
    }
}

/// The whole matrix A (row-major, `k * l` entries) on the heap.
#[cfg(feature = "alloc")]
pub(crate) fn expand_a<B: Backend, P: ParameterSet>(
    b: B,
    rho: &[u8; 32],
) -> Result<alloc::vec::Vec<Poly>, Error> {
    let total = P::K * P::L;
    let mut a = alloc::vec![Poly::default(); total];
    for (c, chunk) in a.chunks_mut(4).enumerate() {
        let idx: [(usize, usize); 4] = core::array::from_fn(|k| {
            let e = (4 * c + k).min(total - 1);
            (e / P::L, e % P::L)
        });
        expand_a_x4::<B, Error>(b, rho, idx, chunk)?;
    }
    Ok(a)
}

#[cfg(feature = "alloc")]
pub(super) fn expanded_mul<B: Backend, P: ParameterSet>(
    b: B,
    a: &[Poly],
    vhat: &VecL,
    out: &mut VecK,
) {
    for (i, o) in out.iter_mut().enumerate().take(P::K) {
        *o = Poly::default();
        for (e, v) in a.iter().skip(i * P::L).take(P::L).zip(vhat.iter()) {
            b.pointwise_acc_mont_q8380417(e, v, o);
        }
    }
}

/// FIPS 204 Alg. 33 ExpandS: `(s1, s2)`, RejBoundedPoly (Alg. 31) for
/// each index `r` (seed `rho' || IntegerToBytes(r, 2)`) on [`stream_x4`],
/// written in place: a lane takes the next index as soon as its polynomial
/// is full. A polynomial needs one to four blocks or more (how many
/// nibbles are rejected), so fixed groups of four would wait for their
/// slowest member. Counted over 12 seeds: ML-DSA-44's eight polynomials
/// take three or four permutations, the last with fewer lanes (fixed
/// groups take four full ones); ML-DSA-65's eleven take six (fixed groups
/// take seven or eight).
pub(super) fn expand_s<B: Backend, P: ParameterSet, E: Bound>(
    b: B,
    rho_prime: &[u8; 64],
    s1: &mut VecL,
    s2: &mut VecK,
) -> Result<(), E> {
    let l = P::L;
    let mut filled = [0usize; 4];
    let mut gave_up = false;
    stream_x4::<B, SHAKE256_RATE, 66>(
        b,
        l + P::K,
        |r| {
            let mut s = [0u8; 66];
            s[..64].copy_from_slice(rho_prime);
            s[64..].copy_from_slice(&(r as u16).to_le_bytes());
            s
        },
        |r, lane, block, buf, _| {
            let lane = lane & 3;
            if block == 0 {
                filled[lane] = 0;
            }
            let Some(p) = (if r < l {
                s1.get_mut(r)
            } else {
                s2.get_mut(r - l)
            }) else {
                return true;
            };
            // The number of blocks depends on how many nibbles were
            // rejected; FIPS 204 treats this as public (the rejected
            // values are independent of the accepted ones).
            filled[lane] = declassify(b.rej_eta_q8380417(P::ETA, p, filled[lane], buf));
            if filled[lane] < N {
                if block + 1 >= E::MAX_S {
                    gave_up = true;
                    return true;
                }
                return false;
            }
            true
        },
        None,
    );
    if gave_up { E::exceeded() } else { Ok(()) }
}

#[cfg(test)]
mod tests {
    use super::entry_at;

    /// The sampling order visits every entry once, for every parameter
    /// set's shape and small ones.
    #[test]
    fn entry_order_is_a_permutation() {
        for (k, l) in [
            (4, 4),
            (6, 5),
            (8, 7),
            (1, 1),
            (2, 1),
            (2, 2),
            (3, 2),
            (5, 3),
        ] {
            let mut seen = [[false; 8]; 8];
            for e in 0..k * l {
                let (i, j) = entry_at(e, k, l);
                assert!(i < k && j < l, "({k}, {l}): entry {e} -> ({i}, {j})");
                assert!(!seen[i][j], "({k}, {l}): ({i}, {j}) twice");
                seen[i][j] = true;
            }
        }
        // ML-DSA-44: rows 1 and 2 each give their last place to the next
        // row's first entry.
        let order: [usize; 16] = core::array::from_fn(|e| entry_at(e, 4, 4).0);
        assert_eq!(order, [0, 0, 0, 0, 1, 1, 1, 2, 1, 2, 2, 3, 2, 3, 3, 3]);
    }
}
