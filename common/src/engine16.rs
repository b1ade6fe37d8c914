//! The parts of the 8-lane i16 engines (`simd128_i16`, `neon_i16`) that
//! are the same on every target: reduction and products over slices, and
//! the Cooley-Tukey / Gentleman-Sande transform drivers. Each engine
//! module supplies its vector type and the same small vocabulary (`load`,
//! `store`, `add`, `sub`, `splat`, `Consts` with `new` and `twist`,
//! `fqmul`, `fqmul_pre`, `barrett`, `small_zetas`, `small_layer`), then
//! invokes [`i16_engine_drivers`] once.

/// Define `reduce`, `pointwise_mont`, `forward` and `inverse` over the
/// calling engine module's vector type `$v` and vocabulary.
macro_rules! i16_engine_drivers {
    ($v:ty) => {
        /// Barrett-reduce every lane of `a` (any length; a tail of fewer than eight
        /// is reduced lane by lane with `m`).
        #[inline(always)]
        pub(crate) fn reduce(a: &mut [i16], m: Mod16) {
            let c = Consts::new(m);
            let (chunks, rest) = a.as_chunks_mut::<8>();
            for x in chunks {
                store(x, barrett(load(x), &c));
            }
            for x in rest {
                *x = m.barrett_reduce(*x);
            }
        }

        /// `r = fqmul(a, b)` lane by lane; equal lengths, a multiple of eight.
        #[inline(always)]
        pub(crate) fn pointwise_mont(a: &[i16], b: &[i16], r: &mut [i16], m: Mod16) {
            let c = Consts::new(m);
            let (a, _) = a.as_chunks::<8>();
            let (b, _) = b.as_chunks::<8>();
            let (r, _) = r.as_chunks_mut::<8>();
            for ((r, a), b) in r.iter_mut().zip(a).zip(b) {
                store(r, fqmul(load(a), load(b), &c));
            }
        }

        /// One transform layer of distance `len`: block `i` with the zeta
        /// `zetas[start + i]` (or `zetas[start - i]` when `rev`, the inverse
        /// order), each pair of lanes through `butterfly(x, y, z, z qinv)`;
        /// below eight lanes, chunks of sixteen regrouped by `small_layer`
        /// with their zetas from `small_zetas`.
        #[inline(always)]
        fn transform_layer(
            a: &mut [i16],
            c: &Consts,
            zetas: &[i16],
            len: usize,
            start: usize,
            rev: bool,
            butterfly: impl Fn($v, $v, $v, $v) -> ($v, $v),
        ) {
            let at = |i: usize| if rev { start - i } else { start + i };
            if len >= 8 {
                let (chunks, _) = a.as_chunks_mut::<8>();
                let half = len / 8;
                for (i, block) in chunks.chunks_exact_mut(2 * half).enumerate() {
                    let z = splat(zetas[at(i)]);
                    let zq = c.twist(z);
                    let (lo, hi) = block.split_at_mut(half);
                    for (x, y) in lo.iter_mut().zip(hi) {
                        let (s, d) = butterfly(load(x), load(y), z, zq);
                        store(x, s);
                        store(y, d);
                    }
                }
            } else {
                let per_chunk = 16 / (2 * len);
                let (chunks, _) = a.as_chunks_mut::<16>();
                for (k, chunk) in chunks.iter_mut().enumerate() {
                    let z = small_zetas(zetas, len, at(k * per_chunk), rev);
                    let zq = c.twist(z);
                    small_layer(chunk, len, |l, h| butterfly(l, h, z, zq));
                }
            }
        }

        /// The forward transform of `a` (length `n`, a power of two from 16 on):
        /// Cooley-Tukey layers of distance `n/2` down to `last`, the layer with `B`
        /// blocks using `zetas[B + i]` for block `i`; a layer Barrett-reduces its
        /// outputs where bit `layer` of `mask` is set, and the last layer always
        /// does. The portable kernels of q = 3329 (`last = 2`, no mask, reduced at
        /// the end: the last layer writes every coefficient once) and q = 12289
        /// (`last = 1`) compute exactly this.
        #[inline(always)]
        pub(crate) fn forward(a: &mut [i16], zetas: &[i16], m: Mod16, mask: u32, last: usize) {
            let c = Consts::new(m);
            let n = a.len();
            let mut len = n / 2;
            let mut layer = 0;
            while len >= last {
                let blocks = n / (2 * len);
                let reduce = (mask >> layer) & 1 == 1 || len == last;
                let butterfly = |x: $v, y: $v, z: $v, zq: $v| {
                    let t = fqmul_pre(y, z, zq, &c);
                    let (s, d) = (add(x, t), sub(x, t));
                    if reduce {
                        (barrett(s, &c), barrett(d, &c))
                    } else {
                        (s, d)
                    }
                };
                transform_layer(a, &c, zetas, len, blocks, false, butterfly);
                len >>= 1;
                layer += 1;
            }
        }

        /// The inverse transform of `a` (length `n`, a power of two from 16 on):
        /// Gentleman-Sande layers of distance `first` up to `n/2`, the layer with
        /// `B` blocks using `zetas[2B - 1 - i]` for block `i`
        /// (`a_j = barrett(a_j + a_{j+len})`, `a_{j+len} = fqmul(zeta, a_{j+len} - a_j)`),
        /// then every coefficient times `f` (Montgomery), as the portable kernels.
        #[inline(always)]
        pub(crate) fn inverse(a: &mut [i16], zetas: &[i16], m: Mod16, first: usize, f: i16) {
            let c = Consts::new(m);
            let n = a.len();
            let mut len = first;
            while len < n {
                let blocks = n / (2 * len);
                let butterfly = |x: $v, y: $v, z: $v, zq: $v| {
                    let s = barrett(add(x, y), &c);
                    (s, fqmul_pre(sub(y, x), z, zq, &c))
                };
                transform_layer(a, &c, zetas, len, 2 * blocks - 1, true, butterfly);
                len <<= 1;
            }
            let fv = splat(f);
            let fq = c.twist(fv);
            for x in a.as_chunks_mut::<8>().0 {
                store(x, fqmul_pre(load(x), fv, fq, &c));
            }
        }
    };
}
pub(crate) use i16_engine_drivers;
