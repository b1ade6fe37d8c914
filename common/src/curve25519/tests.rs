//! The field against fiat-crypto's formally verified `curve25519_64`
//! (byte for byte after `to_bytes`), the exponent chains against plain
//! square-and-multiply, square roots by their defining equations, and the
//! ladder against RFC 7748's vectors on every backend.

use super::*;
use crate::testutil::rng;
use crate::{BackendKind, run_on};
use fiat_crypto::curve25519_64 as fiat;
use subtle::{ConditionallySelectable, ConstantTimeEq};

use fiat::{fiat_25519_loose_field_element as Loose, fiat_25519_tight_field_element as Tight};

const MASK51: u64 = (1 << 51) - 1;

fn hex32(s: &str) -> [u8; 32] {
    let v = hex::decode(s).unwrap();
    v.try_into().unwrap()
}

/// fiat's element of our limbs (any limbs below fiat's loose bound,
/// about 2^52.7), carried to tight form.
fn fiat_of(a: &FieldElement) -> Tight {
    let mut t = Tight([0; 5]);
    fiat::fiat_25519_carry(&mut t, &Loose(a.0));
    t
}

fn fiat_bytes(t: &Tight) -> [u8; 32] {
    let mut out = [0u8; 32];
    fiat::fiat_25519_to_bytes(&mut out, t);
    out
}

fn relax(t: &Tight) -> Loose {
    let mut l = Loose([0; 5]);
    fiat::fiat_25519_relax(&mut l, t);
    l
}

fn fmul(a: &Tight, b: &Tight) -> Tight {
    let mut t = Tight([0; 5]);
    fiat::fiat_25519_carry_mul(&mut t, &relax(a), &relax(b));
    t
}

/// `a^e` by square-and-multiply over fiat's multiplication (`e` little-endian).
fn fpow(a: &Tight, e: &[u8; 32]) -> Tight {
    let mut r = Tight([1, 0, 0, 0, 0]);
    for i in (0..256).rev() {
        r = fmul(&r, &r);
        if (e[i / 8] >> (i % 8)) & 1 == 1 {
            r = fmul(&r, a);
        }
    }
    r
}

/// A random element: canonical or not, with the top bit set or not, or
/// (one time in four) raw limbs up to 2^52, as the lazy operations
/// produce them.
fn random_fe(next: &mut impl FnMut() -> u64) -> FieldElement {
    match next() % 4 {
        0 => FieldElement(core::array::from_fn(|_| next() & ((1 << 52) - 1))),
        _ => {
            let mut b = [0u8; 32];
            for c in b.chunks_exact_mut(8) {
                c.copy_from_slice(&next().to_le_bytes());
            }
            FieldElement::from_bytes(&b)
        }
    }
}

/// 0, 1, p - 1, p, p + 1, ..., 2^255 - 1 as bytes (non-canonical included),
/// with and without bit 255, and limb patterns at the bounds.
fn edge_values() -> [FieldElement; 48] {
    let p_plus = |k: u8| {
        // p + k - 19 = 2^255 - 19 + k - 19 for k in 0..=37 (below 2^255).
        let mut b = [0xffu8; 32];
        b[31] = 0x7f;
        b[0] = 0xed_u8.wrapping_add(k).wrapping_sub(19);
        b
    };
    let mut out = [FieldElement::ZERO; 48];
    let mut n = 0;
    let mut push = |f: FieldElement| {
        out[n] = f;
        n += 1;
    };
    let mut b = [0u8; 32];
    push(FieldElement::from_bytes(&b));
    b[0] = 1;
    push(FieldElement::from_bytes(&b));
    b[31] = 0x80; // 1 with bit 255 set
    push(FieldElement::from_bytes(&b));
    for k in 0..=37u8 {
        // p - 19 + k: p - 1 (k = 18), p (k = 19), p + 1, ..., 2^255 - 1 (k = 37).
        push(FieldElement::from_bytes(&p_plus(k)));
    }
    push(FieldElement::from_bytes(&[0xff; 32]));
    push(FieldElement([MASK51; 5]));
    push(FieldElement([(1 << 52) - 1; 5]));
    push(FieldElement([1 << 51, 0, 0, 0, 0]));
    push(FieldElement([0, 0, 0, 0, 1 << 51]));
    push(FieldElement([MASK51 - 18, MASK51, MASK51, MASK51, MASK51])); // p in limbs
    push(FieldElement::SQRT_M1);
    assert_eq!(n, 48);
    out
}

fn check_pair(a: &FieldElement, b: &FieldElement) {
    let (fa, fb) = (fiat_of(a), fiat_of(b));
    assert_eq!(a.to_bytes(), fiat_bytes(&fa), "to_bytes {:?}", a.0);
    let mut t = Tight([0; 5]);
    let mut l = Loose([0; 5]);

    fiat::fiat_25519_add(&mut l, &fa, &fb);
    fiat::fiat_25519_carry(&mut t, &l);
    assert_eq!(a.add(b).to_bytes(), fiat_bytes(&t), "add");
    let fsum = l;

    fiat::fiat_25519_sub(&mut l, &fa, &fb);
    fiat::fiat_25519_carry(&mut t, &l);
    assert_eq!(a.sub(b).to_bytes(), fiat_bytes(&t), "sub");
    let fdiff = l;

    fiat::fiat_25519_opp(&mut l, &fa);
    fiat::fiat_25519_carry(&mut t, &l);
    assert_eq!(a.neg().to_bytes(), fiat_bytes(&t), "neg");

    assert_eq!(a.mul(b).to_bytes(), fiat_bytes(&fmul(&fa, &fb)), "mul");
    fiat::fiat_25519_carry_square(&mut t, &relax(&fa));
    assert_eq!(a.square().to_bytes(), fiat_bytes(&t), "square");
    fiat::fiat_25519_carry_scmul_121666(&mut t, &relax(&fa));
    assert_eq!(a.mul_small(121666).to_bytes(), fiat_bytes(&t), "mul_small");

    // The ladder's shape: products of unreduced sums and differences.
    fiat::fiat_25519_carry_mul(&mut t, &fsum, &fdiff);
    assert_eq!(
        a.add(b).mul(&a.sub(b)).to_bytes(),
        fiat_bytes(&t),
        "(a+b)(a-b)"
    );
    fiat::fiat_25519_carry_square(&mut t, &fsum);
    assert_eq!(a.add(b).square().to_bytes(), fiat_bytes(&t), "(a+b)^2");

    // Equality, zero and sign agree with the canonical bytes.
    let eq = a.to_bytes() == b.to_bytes();
    assert_eq!(bool::from(a.ct_eq(b)), eq);
    assert_eq!(a == b, eq);
    assert_eq!(bool::from(a.is_zero()), a.to_bytes() == [0; 32]);
    assert_eq!(a.is_negative().unwrap_u8(), a.to_bytes()[0] & 1);
    assert_eq!(a.sub(a).to_bytes(), [0; 32]);
}

#[test]
fn field_matches_fiat_on_edge_values() {
    let edges = edge_values();
    for a in &edges {
        for b in &edges {
            check_pair(a, b);
        }
    }
    // p, p + 1 and 2^255 - 1 encode as 0, 1 and 18.
    let e = |k: usize| edges[k].to_bytes();
    assert_eq!(e(3 + 19), [0; 32]);
    assert_eq!(e(3 + 20)[0], 1);
    assert_eq!(e(3 + 37)[0], 18);
    assert_eq!(e(2), e(1), "bit 255 is ignored");
    let mut p_minus_1 = [0xff; 32];
    p_minus_1[0] = 0xec;
    p_minus_1[31] = 0x7f;
    assert_eq!(e(3 + 18), p_minus_1);
}

#[test]
fn field_matches_fiat_on_random_values() {
    let mut next = rng(25519);
    for _ in 0..1_000_000 {
        let a = random_fe(&mut next);
        let b = random_fe(&mut next);
        check_pair(&a, &b);
    }
}

#[test]
fn from_bytes_to_bytes_matches_fiat() {
    let mut next = rng(7748);
    for _ in 0..100_000 {
        let mut b = [0u8; 32];
        for c in b.chunks_exact_mut(8) {
            c.copy_from_slice(&next().to_le_bytes());
        }
        let mut masked = b;
        masked[31] &= 0x7f;
        let mut t = Tight([0; 5]);
        fiat::fiat_25519_from_bytes(&mut t, &masked);
        let ours = FieldElement::from_bytes(&b);
        assert_eq!(ours.to_bytes(), fiat_bytes(&t));
        assert_eq!(ours.0, t.0, "the limbs of a masked input are its bits");
    }
}

const P_MINUS_2: [u8; 32] = {
    let mut e = [0xff; 32];
    e[0] = 0xeb;
    e[31] = 0x7f;
    e
};
const P_MINUS_5_OVER_8: [u8; 32] = {
    let mut e = [0xff; 32];
    e[0] = 0xfd;
    e[31] = 0x0f;
    e
};
const P_MINUS_1_OVER_2: [u8; 32] = {
    let mut e = [0xff; 32];
    e[0] = 0xf6;
    e[31] = 0x3f;
    e
};

#[test]
fn exponent_chains_match_square_and_multiply() {
    let mut next = rng(3);
    let edges = edge_values();
    let randoms: [FieldElement; 2000] = core::array::from_fn(|_| random_fe(&mut next));
    for a in edges.iter().chain(&randoms) {
        let fa = fiat_of(a);
        let inv = a.invert();
        assert_eq!(inv.to_bytes(), fiat_bytes(&fpow(&fa, &P_MINUS_2)), "invert");
        assert_eq!(
            a.pow_p58().to_bytes(),
            fiat_bytes(&fpow(&fa, &P_MINUS_5_OVER_8))
        );
        let want = if bool::from(a.is_zero()) {
            FieldElement::ZERO
        } else {
            FieldElement::ONE
        };
        assert_eq!(a.mul(&inv).to_bytes(), want.to_bytes(), "a * 1/a");
        assert_eq!(a.pow2k(0), *a);
        assert_eq!(a.pow2k(3), a.square().square().square());
    }
}

#[test]
fn constants() {
    assert_eq!(FieldElement::SQRT_M1.square(), FieldElement::ONE.neg());
    assert_eq!(FieldElement::SQRT_M1.is_negative().unwrap_u8(), 0);
    // 2^((p-1)/4) by square-and-multiply.
    let two = Tight([2, 0, 0, 0, 0]);
    let mut e = [0xff; 32];
    e[0] = 0xfb;
    e[31] = 0x1f;
    assert_eq!(
        FieldElement::SQRT_M1.to_bytes(),
        fiat_bytes(&fpow(&two, &e))
    );
}

#[test]
fn square_roots() {
    let mut next = rng(4);
    let edges = edge_values();
    let randoms: [FieldElement; 3000] = core::array::from_fn(|_| random_fe(&mut next));
    let (mut squares, mut non_squares) = (0, 0);
    for a in edges.iter().chain(&randoms) {
        // Euler's criterion, independently: a^((p-1)/2) is 0, 1 or -1.
        let euler = fiat_bytes(&fpow(&fiat_of(a), &P_MINUS_1_OVER_2));
        let is_square = euler != FieldElement::ONE.neg().to_bytes();
        let (ok, r) = a.sqrt();
        assert_eq!(bool::from(ok), is_square, "{:?}", a.0);
        assert_eq!(r.is_negative().unwrap_u8(), 0, "the root is non-negative");
        if is_square {
            squares += 1;
            assert_eq!(r.square(), *a);
        } else {
            non_squares += 1;
            assert_eq!(r.square(), a.mul(&FieldElement::SQRT_M1));
        }
        // A square's root is the non-negative one of +-b.
        let (ok, r) = a.square().sqrt();
        assert!(bool::from(ok));
        assert_eq!(r, a.abs());
        // u / v for a random v.
        let v = random_fe(&mut next);
        let (ok, r) = FieldElement::sqrt_ratio_i(a, &v);
        if bool::from(v.is_zero()) {
            assert_eq!(bool::from(ok), bool::from(a.is_zero()));
            assert_eq!(r, FieldElement::ZERO);
        } else if bool::from(ok) {
            assert_eq!(v.mul(&r.square()), *a);
        } else {
            assert_eq!(v.mul(&r.square()), a.mul(&FieldElement::SQRT_M1));
        }
    }
    assert!(
        squares > 1000 && non_squares > 1000,
        "{squares} {non_squares}"
    );
    let (ok, r) = FieldElement::sqrt_ratio_i(&FieldElement::ONE, &FieldElement::ZERO);
    assert!(!bool::from(ok));
    assert_eq!(r, FieldElement::ZERO);
}

#[test]
fn select_and_swap() {
    let a = FieldElement([1, 2, 3, 4, 5]);
    let b = FieldElement([6, 7, 8, 9, MASK51]);
    assert_eq!(FieldElement::conditional_select(&a, &b, 0.into()).0, a.0);
    assert_eq!(FieldElement::conditional_select(&a, &b, 1.into()).0, b.0);
    let (mut x, mut y) = (a, b);
    FieldElement::conditional_swap(&mut x, &mut y, 0.into());
    assert_eq!((x.0, y.0), (a.0, b.0));
    FieldElement::conditional_swap(&mut x, &mut y, 1.into());
    assert_eq!((x.0, y.0), (b.0, a.0));
}

/// RFC 7748 §5.2, the two single vectors.
#[test]
fn rfc7748_vectors() {
    let cases = [
        (
            "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
            "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
            "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552",
        ),
        (
            "4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
            "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
            "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957",
        ),
    ];
    for (k, u, want) in cases {
        let (k, u, want) = (hex32(k), hex32(u), hex32(want));
        for kind in BackendKind::available() {
            assert_eq!(
                run_on(kind, Ladder { scalar: &k, u: &u }),
                Some(want),
                "{kind:?}"
            );
        }
        assert_eq!(x25519(&k, &u), want);
        // The second vector's u has bit 255 set: it is ignored.
        let mut u2 = u;
        u2[31] ^= 0x80;
        assert_eq!(x25519(&k, &u2), want);
    }
}

/// RFC 7748 §6.1: both public keys and the shared secret.
#[test]
fn rfc7748_diffie_hellman() {
    let a = hex32("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
    let b = hex32("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb");
    let pa = hex32("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a");
    let pb = hex32("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f");
    let k = hex32("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742");
    assert_eq!(x25519_base(&a), pa);
    assert_eq!(x25519_base(&b), pb);
    assert_eq!(x25519(&a, &pb), k);
    assert_eq!(x25519(&b, &pa), k);
}

fn iterate(n: u32) -> [u8; 32] {
    let (mut k, mut u) = (BASEPOINT_U, BASEPOINT_U);
    for _ in 0..n {
        let r = x25519(&k, &u);
        u = k;
        k = r;
    }
    k
}

/// RFC 7748 §5.2, the iterated vector after 1 and 1,000 iterations.
#[test]
fn rfc7748_iterated() {
    assert_eq!(
        iterate(1),
        hex32("422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079")
    );
    assert_eq!(
        iterate(1000),
        hex32("684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51")
    );
}

/// RFC 7748 §5.2 after 1,000,000 iterations: slow (about a minute
/// optimised), run with `--ignored`.
#[test]
#[ignore]
fn rfc7748_iterated_million() {
    assert_eq!(
        iterate(1_000_000),
        hex32("7c3911e0ab2586fd864497297e575e6f3bc601c0883c30df5f4dd2d24f665424")
    );
}

#[test]
fn low_order_points_give_zero() {
    let k = [0x5a; 32];
    // 0 and 1, and p and p + 1 (the same points, non-canonical).
    let mut p = [0xff; 32];
    p[0] = 0xed;
    p[31] = 0x7f;
    let mut p1 = p;
    p1[0] = 0xee;
    let mut one = [0u8; 32];
    one[0] = 1;
    for u in [[0u8; 32], one, p, p1] {
        assert_eq!(x25519(&k, &u), [0; 32]);
    }
    // A generic point does not.
    assert_ne!(x25519(&k, &BASEPOINT_U), [0; 32]);
}

#[test]
fn clamping() {
    let k = hex32("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4");
    let u = hex32("e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c");
    let c = clamp(&k);
    assert_eq!(c[0] & 7, 0);
    assert_eq!(c[31] & 0xc0, 0x40);
    assert_eq!(x25519(&c, &u), x25519(&k, &u));
    // The bits clamping overrides do not change the result.
    let mut k2 = k;
    k2[0] ^= 7;
    k2[31] ^= 0xc0;
    assert_eq!(x25519(&k2, &u), x25519(&k, &u));
}
