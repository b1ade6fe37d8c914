//! Times the ring, sampler and Keccak kernels on every backend this build
//! and machine have, in one run, and prints a markdown table with each
//! backend's time per call and portable's time over it. Natively that is
//! portable beside AVX2; on WebAssembly, built with `simd128` and run
//! under Node (`scripts/wasm.sh --bench`), portable beside Simd128.
//!
//! ```text
//! cargo run --release -p pqkit-common --example kernels
//! ```
//!
//! `kernels --count KERNEL BACKEND REPS` runs one kernel REPS times on one
//! backend and prints nothing: `scripts/aarch64.sh --count` runs it under
//! qemu, counts the instructions executed, and takes the difference of two
//! REPS as the count per call.

use pqkit_common::curve25519::Scalar;
use pqkit_common::keccak::StateX4;
use pqkit_common::mp31::Mod31;
use pqkit_common::q8380417::{Eta, Gamma2};
use pqkit_common::{Backend, BackendKind, Kernel, pow2, q3329, q8380417, run_on};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The inputs every kernel reads, filled from a small generator.
struct Inputs {
    p16: q3329::Poly,
    p16b: q3329::Poly,
    p32: q8380417::Poly,
    p32b: q8380417::Poly,
    p32std: q8380417::Poly,
    hints: q8380417::Poly,
    f512: [i16; 512],
    keccak: StateX4,
    bytes168: [u8; 168],
    bytes136: [u8; 136],
    bytes128: [u8; 128],
    bytes320: [u8; 320],
    bytes416: [u8; 416],
    // FN-DSA's RNS: a modulus, 512 residues and 512 table entries (any
    // values below p: the kernels' work does not depend on them).
    mod31: Mod31,
    r512: [u32; 512],
    roots512: [u32; 512],
    // FN-DSA's 32.32 fixed-point FFT: 512 complex values.
    fx_re: [u64; 512],
    fx_im: [u64; 512],
}

impl Inputs {
    fn new() -> Self {
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let mut inputs = Inputs {
            p16: q3329::Poly::default(),
            p16b: q3329::Poly::default(),
            p32: q8380417::Poly::default(),
            p32b: q8380417::Poly::default(),
            p32std: q8380417::Poly::default(),
            hints: q8380417::Poly::default(),
            f512: [0; 512],
            keccak: StateX4::default(),
            bytes168: [0; 168],
            bytes136: [0; 136],
            bytes128: [0; 128],
            bytes320: [0; 320],
            bytes416: [0; 416],
            mod31: Mod31::new(2_147_473_409).unwrap_or_else(|| std::process::exit(2)),
            r512: [0; 512],
            roots512: [0; 512],
            fx_re: [0; 512],
            fx_im: [0; 512],
        };
        for x in inputs.fx_re.iter_mut().chain(&mut inputs.fx_im) {
            *x = next();
        }
        for x in inputs.r512.iter_mut().chain(&mut inputs.roots512) {
            *x = (next() % 2_147_473_409) as u32;
        }
        for x in inputs.p16.coeffs.iter_mut().chain(&mut inputs.p16b.coeffs) {
            *x = (next() % 3329) as i16 - 1664;
        }
        for x in inputs.p32.coeffs.iter_mut().chain(&mut inputs.p32b.coeffs) {
            *x = (next() % 8_380_417) as i32 - 4_190_208;
        }
        for (x, h) in inputs
            .p32std
            .coeffs
            .iter_mut()
            .zip(&mut inputs.hints.coeffs)
        {
            *x = (next() % 8_380_417) as i32;
            *h = (next() % 2) as i32;
        }
        for x in &mut inputs.f512 {
            *x = (next() % 12289) as i16 - 6144;
        }
        for x in inputs.keccak.lanes.as_flattened_mut() {
            *x = next();
        }
        for x in inputs
            .bytes168
            .iter_mut()
            .chain(&mut inputs.bytes136)
            .chain(&mut inputs.bytes128)
            .chain(&mut inputs.bytes320)
            .chain(&mut inputs.bytes416)
        {
            *x = next() as u8;
        }
        inputs
    }
}

/// `reps` calls of kernel `which` on backend `B`.
struct Run<'a>(&'a str, &'a mut Inputs, u32);

impl Kernel for Run<'_> {
    type Output = Duration;
    fn run<B: Backend>(self, b: B) -> Duration {
        let Run(which, i, reps) = self;
        let start = Instant::now();
        for _ in 0..reps {
            match which {
                "q3329 ntt + inverse" => {
                    let mut p = i.p16.clone();
                    b.ntt_q3329(black_box(&mut p));
                    b.inv_ntt_tomont_q3329(black_box(&mut p));
                }
                "q3329 base multiplication" => {
                    let mut r = q3329::Poly::default();
                    b.basemul_mont_q3329(black_box(&i.p16), black_box(&i.p16b), &mut r);
                    black_box(&r);
                }
                "q3329 rejection sampling (168 B)" => {
                    let mut r = q3329::Poly::default();
                    black_box(b.rej_uniform_q3329(&mut r, 0, black_box(&i.bytes168)));
                }
                "q3329 CBD eta = 2" => {
                    let mut r = q3329::Poly::default();
                    b.cbd_q3329(2, black_box(&i.bytes128), &mut r);
                    black_box(&r);
                }
                "q8380417 ntt + inverse" => {
                    let mut p = i.p32.clone();
                    b.ntt_q8380417(black_box(&mut p));
                    b.inv_ntt_tomont_q8380417(black_box(&mut p));
                }
                "q8380417 pointwise product" => {
                    let mut r = q8380417::Poly::default();
                    b.pointwise_mont_q8380417(black_box(&i.p32), black_box(&i.p32b), &mut r);
                    black_box(&r);
                }
                "q8380417 rejection sampling (168 B)" => {
                    let mut r = q8380417::Poly::default();
                    black_box(b.rej_uniform_q8380417(&mut r, 0, black_box(&i.bytes168)));
                }
                "q8380417 eta = 2 sampling (136 B)" => {
                    let mut r = q8380417::Poly::default();
                    black_box(b.rej_eta_q8380417(Eta::Two, &mut r, 0, black_box(&i.bytes136)));
                }
                "q3329 compress + encode, d = 10" => {
                    let mut out = [0u8; 320];
                    black_box(b.compress_encode_q3329(black_box(&i.p16), 10, &mut out));
                    black_box(&out);
                }
                "q3329 decode + decompress, d = 10" => {
                    let mut r = q3329::Poly::default();
                    black_box(b.decompress_q3329(10, black_box(&i.bytes320), &mut r));
                    black_box(&r);
                }
                "q3329 compress + encode, d = 4" => {
                    let mut out = [0u8; 128];
                    black_box(b.compress_encode_q3329(black_box(&i.p16), 4, &mut out));
                    black_box(&out);
                }
                "q3329 decode + decompress, d = 4" => {
                    let mut r = q3329::Poly::default();
                    black_box(b.decompress_q3329(4, black_box(&i.bytes128), &mut r));
                    black_box(&r);
                }
                "q8380417 decompose, gamma2 = (q - 1) / 32" => {
                    let (mut a1, mut a0) = (q8380417::Poly::default(), q8380417::Poly::default());
                    b.decompose_q8380417(Gamma2::Q32, black_box(&i.p32std), &mut a1, &mut a0);
                    black_box((&a1, &a0));
                }
                "q8380417 make hint" => {
                    let mut h = q8380417::Poly::default();
                    let n = b.make_hint_q8380417(Gamma2::Q32, black_box(&i.p32), &i.p32b, &mut h);
                    black_box((n, &h));
                }
                "q8380417 use hint" => {
                    let mut r = q8380417::Poly::default();
                    b.use_hint_q8380417(Gamma2::Q32, black_box(&i.p32std), &i.hints, &mut r);
                    black_box(&r);
                }
                "q8380417 power2round" => {
                    let (mut a1, mut a0) = (q8380417::Poly::default(), q8380417::Poly::default());
                    b.power2round_q8380417(black_box(&i.p32std), &mut a1, &mut a0);
                    black_box((&a1, &a0));
                }
                "q8380417 norm check" => {
                    black_box(b.exceeds_norm_q8380417(black_box(&i.p32), 1 << 19));
                }
                "mp31 ntt + inverse, n = 512" => {
                    let m = &i.mod31;
                    let mut a = i.r512;
                    b.ntt_mp31(m, black_box(&mut a), &i.roots512);
                    b.intt_mp31(m, black_box(&mut a), &i.roots512);
                    black_box(&a);
                }
                "mp31 Montgomery multiply-accumulate, n = 512" => {
                    let mut acc = i.r512;
                    b.mul_acc_mont_mp31(&i.mod31, black_box(&mut acc), &i.r512, &i.roots512);
                    black_box(&acc);
                }
                "mp31 fixed-point FFT group + inverse, 256 butterflies" => {
                    let (re, im) = (&mut i.fx_re, &mut i.fx_im);
                    let (sr, si) = (0x0000_0000_b504_f334, 0xffff_ffff_4afb_0ccc);
                    b.fx_fft_group(black_box(re), black_box(im), sr, si);
                    b.fx_ifft_group(black_box(re), black_box(im), sr, si.wrapping_neg());
                }
                "mp31 fixed-point complex product, n = 256" => {
                    let (ar, br) = i.fx_re.split_at_mut(256);
                    let (ai, bi) = i.fx_im.split_at_mut(256);
                    b.fx_cmul_mp31(black_box(ar), black_box(ai), br, bi);
                }
                "X25519 ladder" => {
                    let k = i.bytes128[..32].try_into().unwrap_or([9; 32]);
                    let u = i.bytes128[32..64].try_into().unwrap_or([9; 32]);
                    black_box(b.ladder_curve25519(black_box(&k), black_box(&u)));
                }
                "Ed25519 base multiplication" => {
                    let k = i.bytes128[..32].try_into().unwrap_or([9; 32]);
                    let s = Scalar::from_bytes_mod_order(k);
                    black_box(b.ed25519_mul_base(black_box(&s)));
                }
                "Keccak-f[1600] one state" => {
                    let mut one: [u64; 25] = std::array::from_fn(|j| i.keccak.lanes[j][0]);
                    b.keccak_f1600_one(black_box(&mut one));
                    black_box(&one);
                }
                "Saber unpack, 13 bits" => {
                    let mut r = pow2::Poly::default();
                    black_box(b.unpack_pow2(13, black_box(&i.bytes416), &mut r));
                    black_box(&r);
                }
                "q12289 ntt + inverse, n = 512" => {
                    let mut p = i.f512;
                    let _ = b.ntt_q12289(black_box(&mut p));
                    let _ = b.inv_ntt_tomont_q12289(black_box(&mut p));
                }
                _ => {
                    b.keccak_f1600_x4(black_box(&mut i.keccak));
                }
            }
        }
        start.elapsed()
    }
}

const KERNELS: [&str; 27] = [
    "q3329 ntt + inverse",
    "q3329 base multiplication",
    "q3329 rejection sampling (168 B)",
    "q3329 CBD eta = 2",
    "q3329 compress + encode, d = 10",
    "q3329 decode + decompress, d = 10",
    "q3329 compress + encode, d = 4",
    "q3329 decode + decompress, d = 4",
    "q8380417 ntt + inverse",
    "q8380417 pointwise product",
    "q8380417 rejection sampling (168 B)",
    "q8380417 eta = 2 sampling (136 B)",
    "q8380417 decompose, gamma2 = (q - 1) / 32",
    "q8380417 make hint",
    "q8380417 use hint",
    "q8380417 power2round",
    "q8380417 norm check",
    "q12289 ntt + inverse, n = 512",
    "mp31 ntt + inverse, n = 512",
    "mp31 Montgomery multiply-accumulate, n = 512",
    "mp31 fixed-point FFT group + inverse, 256 butterflies",
    "mp31 fixed-point complex product, n = 256",
    "Saber unpack, 13 bits",
    "X25519 ladder",
    "Ed25519 base multiplication",
    "Keccak-f[1600] x4",
    "Keccak-f[1600] one state",
];

fn main() {
    let backends: Vec<BackendKind> = BackendKind::available().collect();
    let mut inputs = Inputs::new();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, which, backend, reps] = &args[..]
        && flag == "--count"
    {
        let fail = |msg: String| -> ! {
            eprintln!("kernels --count: {msg}");
            std::process::exit(2)
        };
        let Some(which) = KERNELS.into_iter().find(|k| k == which) else {
            fail(format!("no kernel {which:?}; the kernels: {KERNELS:?}"))
        };
        let Some(kind) = backends.iter().find(|k| k.name() == backend) else {
            fail(format!("no backend {backend:?} in this build and machine"))
        };
        let Ok(reps) = reps.parse::<u32>() else {
            fail(format!("REPS {reps:?} is not a number"))
        };
        run_on(*kind, Run(which, &mut inputs, reps));
        return;
    }
    if args.first().is_some_and(|a| a == "--list") {
        for k in KERNELS {
            println!("{k}");
        }
        return;
    }
    print!("| kernel |");
    for k in &backends {
        print!(" {} (ns) |", k.name());
    }
    for k in &backends[1..] {
        print!(" portable / {} |", k.name());
    }
    println!();
    println!("|---|{}", "---|".repeat(2 * backends.len() - 1));
    for which in KERNELS {
        // Calibrate on portable to about 20 ms, then the best of 5 rounds.
        let mut reps = 16u32;
        while run_on(BackendKind::Portable, Run(which, &mut inputs, reps)).unwrap_or_default()
            < Duration::from_millis(20)
        {
            reps *= 2;
        }
        let mut best = vec![Duration::MAX; backends.len()];
        for _ in 0..5 {
            for (k, b) in backends.iter().zip(&mut best) {
                let t = run_on(*k, Run(which, &mut inputs, reps)).unwrap_or_default();
                *b = (*b).min(t);
            }
        }
        let ns: Vec<f64> = best
            .iter()
            .map(|t| t.as_nanos() as f64 / f64::from(reps))
            .collect();
        print!("| {which} |");
        for t in &ns {
            print!(" {t:.0} |");
        }
        for t in &ns[1..] {
            print!(" {:.2}x |", ns[0] / t);
        }
        println!();
    }
}
