//! The Edwards group, the scalars and the fixed-base tables against
//! curve25519-dalek (decoding rules, products, encodings), and the
//! Edwards-based X25519 base-point product against the ladder.

use super::edwards::{Ext, compute_tables};
use super::table::{BASE_ODD, BASE_RADIX32, BASE128_ODD};
use super::*;
use crate::testutil::rng;
use crate::{BackendKind, run_on};
use curve25519_dalek::edwards::{CompressedEdwardsY, EdwardsPoint as DPoint};
use curve25519_dalek::scalar::Scalar as DScalar;
use std::format;
use std::string::String;
use std::vec::Vec;

/// Iterations: many in release builds, fewer in debug.
const N: usize = if cfg!(debug_assertions) { 200 } else { 20_000 };

fn bytes32(next: &mut impl FnMut() -> u64) -> [u8; 32] {
    let mut b = [0u8; 32];
    for c in b.chunks_exact_mut(8) {
        c.copy_from_slice(&next().to_le_bytes());
    }
    b
}

fn bytes64(next: &mut impl FnMut() -> u64) -> [u8; 64] {
    let mut b = [0u8; 64];
    for c in b.chunks_exact_mut(8) {
        c.copy_from_slice(&next().to_le_bytes());
    }
    b
}

fn pair(next: &mut impl FnMut() -> u64) -> (Scalar, DScalar) {
    let w = bytes64(next);
    (
        Scalar::from_bytes_mod_order_wide(&w),
        DScalar::from_bytes_mod_order_wide(&w),
    )
}

/// Writes `table.rs` when `PQKIT_REGENERATE_TABLES` is set; otherwise
/// checks that the checked-in tables are what the group code computes.
#[test]
fn tables_are_current() {
    let (radix, odd, odd128) = compute_tables::<FieldElement>();
    if std::env::var_os("PQKIT_REGENERATE_TABLES").is_some() {
        let mut s = String::new();
        s.push_str("//! Precomputed multiples of the Ed25519 base point B, as affine Niels\n");
        s.push_str("//! points `(y + x, y - x, 2 d x y)` in canonical 64-bit words. Generated\n");
        s.push_str("//! by `PQKIT_REGENERATE_TABLES=1 cargo test -p pqkit-common --lib\n");
        s.push_str("//! tables_are_current` from `edwards::compute_tables`; that test fails\n");
        s.push_str("//! when this file differs from what the group code computes.\n\n");
        s.push_str("use super::edwards::NielsWords;\n\n");
        s.push_str("/// Row `i`, entry `j`: `(j + 1) 32^i B` (the fixed-base table).\n");
        s.push_str("pub(crate) static BASE_RADIX32: [[NielsWords; 16]; 51] = [\n");
        for row in &radix {
            s.push_str("    [\n");
            for e in row {
                s.push_str(&entry(e, 8));
            }
            s.push_str("    ],\n");
        }
        s.push_str("];\n\n");
        s.push_str("/// Entry `j`: `(2 j + 1) B` (the width-8 NAF of verification).\n");
        s.push_str("pub(crate) static BASE_ODD: [NielsWords; 64] = [\n");
        for e in &odd {
            s.push_str(&entry(e, 4));
        }
        s.push_str("];\n\n");
        s.push_str("/// Entry `j`: `(2 j + 1) 2^128 B` (the high half of verification's\n");
        s.push_str("/// `[c1 s]B`).\n");
        s.push_str("pub(crate) static BASE128_ODD: [NielsWords; 64] = [\n");
        for e in &odd128 {
            s.push_str(&entry(e, 4));
        }
        s.push_str("];\n");
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/curve25519/table.rs");
        std::fs::write(path, s).unwrap();
        return;
    }
    assert!(radix == BASE_RADIX32, "table.rs is stale: regenerate it");
    assert!(odd == BASE_ODD, "table.rs is stale: regenerate it");
    assert!(odd128 == BASE128_ODD, "table.rs is stale: regenerate it");
}

fn entry(e: &[[u64; 4]; 3], indent: usize) -> String {
    let pad = " ".repeat(indent);
    let mut s = format!("{pad}[\n");
    for w in e {
        s.push_str(&format!(
            "{pad}    [{:#018x}, {:#018x}, {:#018x}, {:#018x}],\n",
            w[0], w[1], w[2], w[3]
        ));
    }
    s.push_str(&format!("{pad}],\n"));
    s
}

#[test]
fn scalar_arithmetic_matches_dalek() {
    let mut next = rng(1);
    for _ in 0..N {
        let (a, da) = pair(&mut next);
        let (b, db) = pair(&mut next);
        assert_eq!((a + b).to_bytes(), (da + db).to_bytes());
        assert_eq!((a - b).to_bytes(), (da - db).to_bytes());
        assert_eq!((a * b).to_bytes(), (da * db).to_bytes());
        assert_eq!((-a).to_bytes(), (-da).to_bytes());
        let raw = bytes32(&mut next);
        assert_eq!(
            Scalar::from_bytes_mod_order(raw).to_bytes(),
            DScalar::from_bytes_mod_order(raw).to_bytes()
        );
        let ours = Option::<Scalar>::from(Scalar::from_canonical_bytes(raw)).map(|s| s.to_bytes());
        let theirs =
            Option::<DScalar>::from(DScalar::from_canonical_bytes(raw)).map(|s| s.to_bytes());
        assert_eq!(ours, theirs);
    }
    // Edges: l - 1, l, l + 1, 2^256 - 1, zero; wide all-ones.
    let l_minus_1 = (-Scalar::ONE).to_bytes();
    let mut l = l_minus_1;
    l[0] += 1;
    let mut l1 = l;
    l1[0] += 1;
    for raw in [l_minus_1, l, l1, [0xff; 32], [0; 32]] {
        assert_eq!(
            Scalar::from_bytes_mod_order(raw).to_bytes(),
            DScalar::from_bytes_mod_order(raw).to_bytes()
        );
        assert_eq!(
            bool::from(Scalar::from_canonical_bytes(raw).is_some()),
            bool::from(DScalar::from_canonical_bytes(raw).is_some())
        );
    }
    assert_eq!(
        Scalar::from_bytes_mod_order_wide(&[0xff; 64]).to_bytes(),
        DScalar::from_bytes_mod_order_wide(&[0xff; 64]).to_bytes()
    );
}

#[test]
fn digits_recompose() {
    let mut next = rng(2);
    for _ in 0..N {
        let (a, _) = pair(&mut next);
        let radix = Scalar::from_bytes_mod_order({
            let mut b = [0u8; 32];
            b[0] = 32;
            b
        });
        let digit = |d: i8| {
            let s = Scalar::from_bytes_mod_order({
                let mut b = [0u8; 32];
                b[0] = d.unsigned_abs();
                b
            });
            if d < 0 { -s } else { s }
        };
        let e = a.signed_radix32();
        let mut acc = Scalar::ZERO;
        for &d in e.iter().rev() {
            assert!((-16..16).contains(&d));
            acc = acc * radix + digit(d);
        }
        assert!((0..=8).contains(&e[50]), "the top digit absorbs the carry");
        assert_eq!(acc, a);
        for w in [5u32, 8] {
            let naf = a.non_adjacent_form(w);
            let mut acc = Scalar::ZERO;
            let two = Scalar::ONE + Scalar::ONE;
            let mut last = None;
            for (i, &d) in naf.iter().enumerate().rev() {
                acc = acc * two + digit(d);
                if d != 0 {
                    assert!(d % 2 != 0 && i32::from(d).abs() < 1 << (w - 1));
                    if let Some(j) = last {
                        assert!(j - i >= w as usize);
                    }
                    last = Some(i);
                }
            }
            assert_eq!(acc, a);
        }
    }
}

#[test]
fn mul_base_matches_dalek_on_every_backend() {
    for kind in BackendKind::available() {
        let mut next = rng(3);
        for i in 0..N {
            let (a, da) = if i == 0 {
                (Scalar::ZERO, DScalar::ZERO)
            } else if i == 1 {
                (-Scalar::ONE, -DScalar::ONE)
            } else {
                pair(&mut next)
            };
            let want = DPoint::mul_base(&da).compress().to_bytes();
            let (p, enc) = run_on(kind, Probe::MulBase(a)).unwrap().point();
            assert_eq!(enc, want, "{kind:?}");
            assert_eq!(p.compress(), want);
        }
    }
}

#[test]
fn x25519_base_matches_ladder_on_every_backend() {
    for kind in BackendKind::available() {
        let mut next = rng(4);
        for _ in 0..N {
            let k = bytes32(&mut next);
            let want = ladder::x25519::<FieldElement>(&k, &BASEPOINT_U);
            assert_eq!(run_on(kind, Probe::X25519Base(k)).unwrap().bytes(), want);
        }
        // The largest and smallest clamped scalars.
        for k in [[0xff; 32], [0; 32]] {
            let want = ladder::x25519::<FieldElement>(&k, &BASEPOINT_U);
            assert_eq!(run_on(kind, Probe::X25519Base(k)).unwrap().bytes(), want);
        }
    }
}

/// Random encodings (half of them valid points), the small-order points,
/// non-canonical `y` and "negative zero" `x`: accepted exactly when dalek
/// accepts, the same point.
#[test]
fn decompress_matches_dalek() {
    let mut next = rng(5);
    let mut cases: Vec<[u8; 32]> = Vec::new();
    for _ in 0..N {
        cases.push(bytes32(&mut next));
        let (_, da) = pair(&mut next);
        let mut enc = DPoint::mul_base(&da).compress().to_bytes();
        cases.push(enc);
        enc[31] ^= 0x80;
        cases.push(enc);
    }
    // y = 1 (identity), y = -1, y = 0 with both signs; y = p + k for small k.
    let p_plus = |k: u8| {
        let mut b = [0xffu8; 32];
        b[31] = 0x7f;
        b[0] = 0xed;
        let (v, carry) = b[0].overflowing_add(k);
        b[0] = v;
        if carry {
            b[1] = 0;
            b[2] = 0;
        }
        b
    };
    for k in 0..19u8 {
        let mut b = p_plus(k);
        cases.push(b);
        b[31] |= 0x80;
        cases.push(b);
    }
    for y in [0u8, 1] {
        let mut b = [0u8; 32];
        b[0] = y;
        cases.push(b);
        b[31] = 0x80;
        cases.push(b);
    }
    let mut minus_one = p_plus(0);
    minus_one[0] -= 1;
    cases.push(minus_one);
    // Eight at a time on every backend, and the public batch, decide and
    // decode as one at a time (the cases mix refused and accepted ones).
    for kind in BackendKind::available() {
        for group in cases.chunks_exact(8) {
            let g: [[u8; 32]; 8] = core::array::from_fn(|i| group[i]);
            let many = run_on(kind, Probe::Decompress8(g)).unwrap().many();
            for (c, m) in group.iter().zip(many) {
                assert_eq!(
                    m,
                    EdwardsPoint::decompress(c),
                    "{kind:?} {}",
                    hex::encode(c)
                );
            }
        }
    }
    let batch = EdwardsPoint::decompress_batch(&cases);
    assert_eq!(batch.len(), cases.len());
    for (c, b) in cases.iter().zip(&batch) {
        assert_eq!(*b, EdwardsPoint::decompress(c));
    }
    for c in &cases {
        let ours = EdwardsPoint::decompress(c);
        let theirs = CompressedEdwardsY(*c).decompress();
        assert_eq!(ours.is_some(), theirs.is_some(), "{}", hex::encode(c));
        if let (Some(o), Some(t)) = (ours, theirs) {
            assert_eq!(o.compress(), t.compress().to_bytes());
            assert_eq!(EdwardsPoint::is_canonical_encoding(c), o.compress() == *c);
            assert_eq!(o.is_small_order(), t.is_small_order());
            assert_eq!(
                o.is_identity(),
                curve25519_dalek::traits::IsIdentity::is_identity(&t)
            );
            assert_eq!(
                o.mul_by_cofactor().compress(),
                t.mul_by_cofactor().compress().to_bytes()
            );
        }
    }
}

#[test]
fn double_base_matches_dalek_on_every_backend() {
    for kind in BackendKind::available() {
        let mut next = rng(6);
        for i in 0..N / 4 {
            let (a, da) = pair(&mut next);
            let (b, db) = if i == 0 {
                (Scalar::ZERO, DScalar::ZERO)
            } else {
                pair(&mut next)
            };
            let (_, dk) = pair(&mut next);
            let dp = DPoint::mul_base(&dk);
            let p = EdwardsPoint::decompress(&dp.compress().to_bytes()).unwrap();
            let want = DPoint::vartime_double_scalar_mul_basepoint(&da, &dp, &db)
                .compress()
                .to_bytes();
            let got = run_on(kind, Probe::DoubleBase(a, p, b)).unwrap().point().0;
            assert_eq!(got.compress(), want, "{kind:?}");
        }
    }
}

/// The eight points of order dividing 8.
fn torsion() -> Vec<EdwardsPoint> {
    curve25519_dalek::constants::EIGHT_TORSION
        .iter()
        .map(|t| EdwardsPoint::decompress(&t.compress().to_bytes()).unwrap())
        .collect()
}

/// The half-size equation check decides exactly what computing
/// `[s]B - [k]A - R` (times 8 when cofactored) decides: equations made to
/// hold, to hold up to torsion (cofactored only), and not to hold, with
/// torsion in `A` and `R`, on every backend; `k` random and at the edges
/// (0, 1, small, `l - 1`, which takes the full-length fallback).
#[test]
fn verify_equation_matches_the_combination_on_every_backend() {
    let tors = torsion();
    let b = EdwardsPoint::basepoint();
    let naive = |s: &Scalar, k: &Scalar, a: &EdwardsPoint, r: &EdwardsPoint, cof: bool| {
        let p = EdwardsPoint::vartime_double_scalar_mul_basepoint(k, &a.neg(), s).sub(r);
        if cof {
            p.is_small_order()
        } else {
            p.is_identity()
        }
    };
    for kind in BackendKind::available() {
        let mut next = rng(8);
        let (mut held, mut failed) = (0, 0);
        for i in 0..N / 8 {
            let (s, _) = pair(&mut next);
            let k = match i {
                0 => Scalar::ZERO,
                1 => Scalar::ONE,
                2 => -Scalar::ONE,
                3 => Scalar::ONE + Scalar::ONE,
                _ => pair(&mut next).0,
            };
            let ta = &tors[(next() % 8) as usize];
            let tr = &tors[(next() % 8) as usize];
            let a = EdwardsPoint::mul_base(&pair(&mut next).0).0.add(ta);
            let r0 = EdwardsPoint::vartime_double_scalar_mul_basepoint(&k, &a.neg(), &s);
            let random = EdwardsPoint::mul_base(&pair(&mut next).0).0;
            let cases = [
                (r0, Some((true, true))),
                (r0.add(tr), Some((tr.is_identity(), true))),
                (r0.add(&b), Some((false, false))),
                (r0.add(&b).add(tr), Some((false, false))),
                (random, None),
            ];
            for (r, expect) in cases {
                for cof in [false, true] {
                    let want = naive(&s, &k, &a, &r, cof);
                    if let Some((plain, cofactored)) = expect {
                        assert_eq!(want, if cof { cofactored } else { plain });
                    }
                    let got = run_on(kind, Probe::Equation(s, k, a, r, cof))
                        .unwrap()
                        .bytes();
                    assert_eq!(got[0] == 1, want, "{kind:?} case {i}");
                    if want { held += 1 } else { failed += 1 }
                }
            }
        }
        assert!(held > N / 8 && failed > N / 8);
    }
}

#[test]
fn multiscalar_matches_sum() {
    let mut next = rng(7);
    for n in [0usize, 1, 2, 5, 17] {
        let scalars: Vec<Scalar> = (0..n).map(|_| pair(&mut next).0).collect();
        let points: Vec<EdwardsPoint> = (0..n)
            .map(|_| EdwardsPoint::mul_base(&pair(&mut next).0).0)
            .collect();
        let b = pair(&mut next).0;
        let mut want = EdwardsPoint::mul_base(&b).0;
        for (s, p) in scalars.iter().zip(&points) {
            want = want.add(&EdwardsPoint::vartime_double_scalar_mul_basepoint(
                s,
                p,
                &Scalar::ZERO,
            ));
        }
        let got = EdwardsPoint::vartime_multiscalar_mul_basepoint(&scalars, &points, &b);
        assert_eq!(got, want);
    }
}

#[test]
fn group_laws() {
    let b = EdwardsPoint::basepoint();
    let id = EdwardsPoint::identity();
    assert!(id.is_identity() && id.is_small_order());
    assert!(!b.is_small_order());
    assert_eq!(b.add(&id), b);
    assert_eq!(b.sub(&b), id);
    assert_eq!(b.add(&b.neg()), id);
    let e = Ext::<FieldElement>::basepoint();
    assert_eq!(EdwardsPoint(e.double()), b.add(&b));
    // l B = identity: (l - 1) B = -B.
    assert_eq!(EdwardsPoint::mul_base(&(-Scalar::ONE)).0, b.neg());
}

/// One operation run on a given backend through the kernel interface.
#[allow(clippy::enum_variant_names)]
enum Probe {
    MulBase(Scalar),
    X25519Base([u8; 32]),
    DoubleBase(Scalar, EdwardsPoint, Scalar),
    Equation(Scalar, Scalar, EdwardsPoint, EdwardsPoint, bool),
    Decompress8([[u8; 32]; 8]),
}

#[allow(clippy::large_enum_variant)]
enum ProbeOut {
    Point(EdwardsPoint, [u8; 32]),
    Bytes([u8; 32]),
    Many([Option<EdwardsPoint>; 8]),
}

impl ProbeOut {
    fn point(self) -> (EdwardsPoint, [u8; 32]) {
        match self {
            ProbeOut::Point(p, b) => (p, b),
            _ => panic!("wrong probe"),
        }
    }
    fn many(self) -> [Option<EdwardsPoint>; 8] {
        match self {
            ProbeOut::Many(m) => m,
            _ => panic!("wrong probe"),
        }
    }
    fn bytes(self) -> [u8; 32] {
        match self {
            ProbeOut::Bytes(b) => b,
            _ => panic!("wrong probe"),
        }
    }
}

impl crate::Kernel for Probe {
    type Output = ProbeOut;
    fn run<B: crate::Backend>(self, backend: B) -> ProbeOut {
        match self {
            Probe::MulBase(s) => {
                let (p, b) = backend.ed25519_mul_base(&s);
                ProbeOut::Point(p, b)
            }
            Probe::X25519Base(k) => ProbeOut::Bytes(backend.x25519_base(&k)),
            Probe::DoubleBase(a, p, b) => {
                let q = backend.ed25519_double_base(&a, &p, &b);
                ProbeOut::Point(q, [0; 32])
            }
            Probe::Decompress8(b) => ProbeOut::Many(backend.ed25519_decompress8(&b)),
            Probe::Equation(s, k, a, r, cofactored) => {
                let ok = backend.ed25519_verify_equation(&s, &k, &a, &r, cofactored);
                ProbeOut::Bytes([u8::from(ok); 32])
            }
        }
    }
}

/// Timings of verification's parts on the dispatched backend (many
/// distinct inputs): `cargo test --release -p pqkit-common --lib
/// verify_timing -- --ignored --nocapture`.
#[test]
#[ignore = "timing, run by hand"]
fn verify_timing() {
    use core::hint::black_box;
    use std::println;
    use std::time::Instant;
    let mut next = rng(0x7e51);
    let n = 512;
    type Item = (Scalar, Scalar, EdwardsPoint, EdwardsPoint, [u8; 32]);
    let items: Vec<Item> = (0..n)
        .map(|_| {
            let (s, _) = pair(&mut next);
            let (k, _) = pair(&mut next);
            let (a, _) = EdwardsPoint::mul_base(&pair(&mut next).0);
            let r = EdwardsPoint::vartime_double_scalar_mul_basepoint(&k, &a.neg(), &s);
            let enc = r.compress();
            (s, k, a, r, enc)
        })
        .collect();
    let time = |f: &dyn Fn(&Item) -> u8| {
        let mut best = f64::MAX;
        for _ in 0..5 {
            let t = Instant::now();
            let mut acc = 0u8;
            for it in &items {
                acc ^= f(black_box(it));
            }
            black_box(acc);
            best = best.min(t.elapsed().as_nanos() as f64 / n as f64 / 1e3);
        }
        best
    };
    let dec = time(&|it| EdwardsPoint::decompress(&it.4).is_some() as u8);
    let half = time(&|it| halfsize::half_size(&it.1).is_some() as u8);
    let eq =
        time(&|it| EdwardsPoint::vartime_check_equation(&it.0, &it.1, &it.2, &it.3, false) as u8);
    let old = time(&|it| {
        EdwardsPoint::vartime_double_scalar_mul_basepoint(&it.1, &it.2.neg(), &it.0).compress()[0]
    });
    println!(
        "us: decompress {dec:.2}, half_size {half:.2}, equation {eq:.2}, double-base + compress {old:.2}"
    );
}

/// Batched decompression against one at a time, on the Fe64 field:
/// `cargo test --release -p pqkit-common --lib decompress_many_timing --
/// --ignored --nocapture`.
#[cfg(target_arch = "x86_64")]
#[test]
#[ignore = "timing, run by hand"]
fn decompress_many_timing() {
    use super::fe64::{Fe64, fe64_available};
    use core::hint::black_box;
    use std::println;
    use std::time::Instant;
    if !fe64_available() {
        return;
    }
    let mut next = rng(0xdec0);
    let encs: Vec<[u8; 32]> = (0..512)
        .map(|_| EdwardsPoint::mul_base(&pair(&mut next).0).1)
        .collect();
    let mut best = [f64::MAX; 4];
    for _ in 0..5 {
        let t = Instant::now();
        for e in &encs {
            black_box(Ext::<Fe64>::decompress(black_box(e)));
        }
        best[0] = best[0].min(t.elapsed().as_nanos() as f64 / 512e3);
        let t = Instant::now();
        for c in encs.chunks_exact(2) {
            black_box(Ext::<Fe64>::decompress_many::<2>(black_box(&[c[0], c[1]])));
        }
        best[1] = best[1].min(t.elapsed().as_nanos() as f64 / 512e3);
        let t = Instant::now();
        for c in encs.chunks_exact(4) {
            black_box(Ext::<Fe64>::decompress_many::<4>(black_box(&[
                c[0], c[1], c[2], c[3],
            ])));
        }
        best[2] = best[2].min(t.elapsed().as_nanos() as f64 / 512e3);
        let t = Instant::now();
        for c in encs.chunks_exact(8) {
            let a: [[u8; 32]; 8] = core::array::from_fn(|i| c[i]);
            black_box(Ext::<Fe64>::decompress_many::<8>(black_box(&a)));
        }
        best[3] = best[3].min(t.elapsed().as_nanos() as f64 / 512e3);
    }
    for c in encs.chunks_exact(4) {
        let many = Ext::<Fe64>::decompress_many::<4>(&[c[0], c[1], c[2], c[3]]);
        for (e, m) in c.iter().zip(&many) {
            assert_eq!(
                m.map(|p| p.compress()),
                Ext::<Fe64>::decompress(e).map(|p| p.compress())
            );
        }
    }
    println!(
        "us per point: decompress {:.2}, x2 {:.2}, x4 {:.2}, x8 {:.2}",
        best[0], best[1], best[2], best[3]
    );
}

/// The Straus sum of batch verification on the Fe64 field, 128 points:
/// `cargo test --release -p pqkit-common --lib multiscalar_timing --
/// --ignored --nocapture`.
#[cfg(target_arch = "x86_64")]
#[test]
#[ignore = "timing, run by hand"]
fn multiscalar_timing() {
    use super::fe64::{Fe64, fe64_available};
    use core::hint::black_box;
    use std::println;
    use std::time::Instant;
    if !fe64_available() {
        return;
    }
    let mut next = rng(0x5ca1);
    let n = 128;
    let scalars: Vec<Scalar> = (0..n).map(|_| pair(&mut next).0).collect();
    let points: Vec<Ext<Fe64>> = (0..n)
        .map(|_| edwards::convert(&EdwardsPoint::mul_base(&pair(&mut next).0).0.0))
        .collect();
    let b = pair(&mut next).0;
    let mut best = f64::MAX;
    for _ in 0..20 {
        let t = Instant::now();
        black_box(edwards::multiscalar_vartime(
            black_box(&scalars),
            &points,
            &b,
        ));
        best = best.min(t.elapsed().as_nanos() as f64 / 1e3);
    }
    let p = &points[0];
    let t = Instant::now();
    let mut q = *p;
    for _ in 0..100_000 {
        q = black_box(q.add(p));
    }
    let add = t.elapsed().as_nanos() as f64 / 1e5;
    println!("us for 128 points: {best:.1}; ns per Ext add: {add:.1}");
}
