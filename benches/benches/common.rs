//! common: NTTs of the three rings and the 4-way Keccak, each on every
//! backend of this CPU (AVX2 beside portable in the same run), plus four
//! sequential SHAKE128 runs of the RustCrypto `shake` crate for reference.
//! Prints the portable / AVX2 time ratios at the end.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use pqkit_common::keccak::{SHAKE128_RATE, Shake128, Shake128X4, StateX4};
use pqkit_common::{Backend, BackendKind, Kernel, q3329, q8380417, run_on};

/// A benchmarkable operation, generic over the backend.
trait Op: Copy {
    const NAME: &'static str;
    fn once<B: Backend>(self, b: B);
}

struct Loop<O>(O, u64);
impl<O: Op> Kernel for Loop<O> {
    type Output = Duration;
    fn run<B: Backend>(self, b: B) -> Duration {
        let start = Instant::now();
        for _ in 0..self.1 {
            self.0.once(b);
        }
        start.elapsed()
    }
}

#[derive(Clone, Copy)]
struct Ntt3329;
impl Op for Ntt3329 {
    const NAME: &'static str = "ntt q3329 n256";
    fn once<B: Backend>(self, b: B) {
        let mut p = q3329::Poly::default();
        p.coeffs
            .iter_mut()
            .enumerate()
            .for_each(|(i, c)| *c = (i as i16) * 13 - 1600);
        b.ntt_q3329(black_box(&mut p));
        b.inv_ntt_tomont_q3329(black_box(&mut p));
    }
}

#[derive(Clone, Copy)]
struct Ntt8380417;
impl Op for Ntt8380417 {
    const NAME: &'static str = "ntt q8380417 n256";
    fn once<B: Backend>(self, b: B) {
        let mut p = q8380417::Poly::default();
        p.coeffs
            .iter_mut()
            .enumerate()
            .for_each(|(i, c)| *c = (i as i32) * 32_749 - 4_000_000);
        b.ntt_q8380417(black_box(&mut p));
        b.reduce32_q8380417(&mut p);
        b.inv_ntt_tomont_q8380417(black_box(&mut p));
    }
}

#[derive(Clone, Copy)]
struct Ntt12289<const N: usize>;
impl<const N: usize> Op for Ntt12289<N> {
    const NAME: &'static str = if N == 512 {
        "ntt q12289 n512"
    } else {
        "ntt q12289 n1024"
    };
    fn once<B: Backend>(self, b: B) {
        let mut p = [0i16; N];
        p.iter_mut()
            .enumerate()
            .for_each(|(i, c)| *c = (i as i16) * 7 - 3000);
        let _ = b.ntt_q12289(black_box(&mut p));
        let _ = b.inv_ntt_tomont_q12289(black_box(&mut p));
    }
}

#[derive(Clone, Copy)]
struct KeccakX4;
impl Op for KeccakX4 {
    const NAME: &'static str = "keccak-f1600 x4";
    fn once<B: Backend>(self, b: B) {
        let mut s = StateX4::default();
        b.keccak_f1600_x4(black_box(&mut s));
    }
}

#[derive(Clone, Copy)]
struct ShakeX4;
impl Op for ShakeX4 {
    const NAME: &'static str = "shake128 x4 (34 B in, 5 blocks out)";
    fn once<B: Backend>(self, b: B) {
        let mut x = Shake128X4::absorb(b, black_box(&[[3u8; 34]; 4]));
        let mut out = [[0u8; SHAKE128_RATE]; 4];
        for _ in 0..5 {
            x.squeeze_block(&mut out);
        }
        black_box(out);
    }
}

fn bench_op<O: Op>(c: &mut Criterion, op: O, ratios: &mut Vec<(String, f64)>) {
    let mut g = c.benchmark_group(O::NAME);
    let mut per_iter = Vec::new();
    for kind in BackendKind::available() {
        g.bench_function(kind.name(), |bch| {
            bch.iter_custom(|iters| run_on(kind, Loop(op, iters)).unwrap_or_default())
        });
        // A direct measurement for the ratio table.
        let iters = 20_000;
        let t = run_on(kind, Loop(op, iters)).unwrap_or_default();
        per_iter.push((kind, t.as_secs_f64() / iters as f64));
    }
    g.finish();
    if let [(_, portable), .., (_, best)] = per_iter.as_slice() {
        ratios.push((O::NAME.to_string(), portable / best));
    }
}

fn shake_reference(c: &mut Criterion) {
    c.bench_function("shake128 x4 (34 B in, 5 blocks out)/4x shake crate", |b| {
        b.iter(|| {
            let mut out = [[0u8; 5 * SHAKE128_RATE]; 4];
            for o in out.iter_mut() {
                let mut h = Shake128::default();
                h.update(black_box(&[3u8; 34]));
                h.finalize_xof().read(o);
            }
            black_box(out)
        })
    });
}

fn all(c: &mut Criterion) {
    let mut ratios = Vec::new();
    bench_op(c, Ntt3329, &mut ratios);
    bench_op(c, Ntt8380417, &mut ratios);
    bench_op(c, Ntt12289::<512>, &mut ratios);
    bench_op(c, Ntt12289::<1024>, &mut ratios);
    bench_op(c, KeccakX4, &mut ratios);
    bench_op(c, ShakeX4, &mut ratios);
    shake_reference(c);
    println!("\nportable time / best-backend time (higher = faster SIMD):");
    for (name, r) in ratios {
        println!("  {name:<40} {r:>6.2}x");
    }
}

criterion_group!(benches, all);
criterion_main!(benches);
