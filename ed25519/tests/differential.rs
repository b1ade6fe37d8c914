//! Byte-identical signatures and identical accept/reject decisions of
//! `verify` and `verify_strict` against ed25519-dalek 3.0, on random valid,
//! malleated (S + L), small-order and non-canonical inputs; and every
//! single-bit flip of a signature, message or key fails without a panic.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use curve25519_dalek::constants::EIGHT_TORSION;
use ed25519_dalek::Verifier as _;
use pqkit_ed25519::{Signature, SigningKey, VerifyingKey};
use signature::Signer as _;

fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

fn bytes<const N: usize>(s: &mut u64) -> [u8; N] {
    core::array::from_fn(|_| xorshift(s) as u8)
}

/// `(verify, verify_strict)` accepted, or `None` if the key does not decode.
type Decision = Option<(bool, bool)>;

/// Both libraries' (verify, verify_strict) decisions for raw inputs; `None`
/// where the key does not decode (both must agree on that too).
fn decisions(pk: &[u8; 32], msg: &[u8], sig: &[u8; 64]) -> (Decision, Decision) {
    let ours = VerifyingKey::from_bytes(pk).ok().map(|vk| {
        let s = Signature::from_bytes(sig);
        (
            vk.verify_bytes(msg, &s).is_ok(),
            vk.verify_strict(msg, &s).is_ok(),
        )
    });
    let theirs = ed25519_dalek::VerifyingKey::from_bytes(pk).ok().map(|vk| {
        // ed25519-dalek and pqkit share the `ed25519` crate's Signature type.
        let s = Signature::from_bytes(sig);
        (
            vk.verify(msg, &s).is_ok(),
            vk.verify_strict(msg, &s).is_ok(),
        )
    });
    (ours, theirs)
}

/// L, little-endian.
const L: [u8; 32] = [
    0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
];

fn add_l(s: &[u8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    let mut carry = 0u16;
    for i in 0..32 {
        let v = u16::from(s[i]) + u16::from(L[i]) + carry;
        out[i] = v as u8;
        carry = v >> 8;
    }
    out
}

#[test]
fn identical_signatures_and_decisions() {
    let mut st = 0x5eed_1234_u64;
    for i in 0..300 {
        let secret: [u8; 32] = bytes(&mut st);
        let msg: Vec<u8> = (0..(i % 70)).map(|_| xorshift(&mut st) as u8).collect();
        let ours = SigningKey::from_bytes(&secret);
        let theirs = ed25519_dalek::SigningKey::from_bytes(&secret);
        let sig = ours.sign(&msg).to_bytes();
        assert_eq!(sig, theirs.sign(&msg).to_bytes());
        let pk = ours.verifying_key().to_bytes();
        let (a, b) = decisions(&pk, &msg, &sig);
        assert_eq!(a, b);
        assert_eq!(a, Some((true, true)));
        // malleated S + L: both reject in both modes
        let mut mal = sig;
        mal[32..].copy_from_slice(&add_l(&sig[32..]));
        let (a, b) = decisions(&pk, &msg, &mal);
        assert_eq!(a, b);
        assert_eq!(a, Some((false, false)));
    }
}

#[test]
fn small_order_and_non_canonical_inputs_decide_alike() {
    let mut encodings: Vec<[u8; 32]> = EIGHT_TORSION
        .iter()
        .map(|p| p.compress().to_bytes())
        .collect();
    // non-canonical encodings: y + p for small y, and a flipped sign bit on x = 0
    for y in [0u8, 1, 2, 5, 17] {
        let mut e = [0xffu8; 32];
        e[0] = 0xed + y; // p = 2^255 - 19: low byte 0xed
        e[31] = 0x7f;
        encodings.push(e);
    }
    let mut one = [0u8; 32];
    one[0] = 1;
    one[31] = 0x80;
    encodings.push(one);
    let mut st = 99u64;
    let mut agreed = 0;
    for a in &encodings {
        for r in &encodings {
            for s_kind in 0..3 {
                let mut sig = [0u8; 64];
                sig[..32].copy_from_slice(r);
                if s_kind == 1 {
                    sig[32] = 1;
                } else if s_kind == 2 {
                    let s: [u8; 32] = bytes(&mut st);
                    sig[32..].copy_from_slice(&s);
                    sig[63] &= 0x0f;
                }
                for msg in [&b""[..], b"abc"] {
                    let (x, y) = decisions(a, msg, &sig);
                    assert_eq!(
                        x,
                        y,
                        "A {} R {} S kind {s_kind}",
                        hex::encode(a),
                        hex::encode(r)
                    );
                    agreed += 1;
                }
            }
        }
    }
    assert!(agreed > 500);
}

#[test]
fn every_bit_flip_fails_without_panic() {
    let sk = SigningKey::from_bytes(&[42u8; 32]);
    let msg = b"bit flips".to_vec();
    let sig = sk.sign(&msg).to_bytes();
    let pk = sk.verifying_key().to_bytes();
    for bit in 0..512 {
        let mut s = sig;
        s[bit / 8] ^= 1 << (bit % 8);
        assert!(
            sk.verifying_key()
                .verify_bytes(&msg, &Signature::from_bytes(&s))
                .is_err()
        );
    }
    for bit in 0..msg.len() * 8 {
        let mut m = msg.clone();
        m[bit / 8] ^= 1 << (bit % 8);
        assert!(
            sk.verifying_key()
                .verify_bytes(&m, &Signature::from_bytes(&sig))
                .is_err()
        );
    }
    for bit in 0..256 {
        let mut p = pk;
        p[bit / 8] ^= 1 << (bit % 8);
        if let Ok(vk) = VerifyingKey::from_bytes(&p) {
            assert!(vk.verify_bytes(&msg, &Signature::from_bytes(&sig)).is_err());
        }
    }
}

/// `to_keypair_bytes` / `from_keypair_bytes` and the length constants
/// agree with ed25519-dalek; a mismatched pair is an error in both.
#[test]
fn keypair_bytes_as_dalek() {
    assert_eq!(pqkit_ed25519::KEYPAIR_LENGTH, ed25519_dalek::KEYPAIR_LENGTH);
    assert_eq!(
        pqkit_ed25519::SECRET_KEY_LENGTH,
        ed25519_dalek::SECRET_KEY_LENGTH
    );
    assert_eq!(
        pqkit_ed25519::PUBLIC_KEY_LENGTH,
        ed25519_dalek::PUBLIC_KEY_LENGTH
    );
    assert_eq!(
        pqkit_ed25519::SIGNATURE_LENGTH,
        ed25519_dalek::SIGNATURE_LENGTH
    );
    for seed in 0u8..20 {
        let secret = [seed.wrapping_mul(37).wrapping_add(1); 32];
        let ours = SigningKey::from_bytes(&secret);
        let theirs = ed25519_dalek::SigningKey::from_bytes(&secret);
        let kp = ours.to_keypair_bytes();
        assert_eq!(kp, theirs.to_keypair_bytes());
        let back = SigningKey::from_keypair_bytes(&kp).expect("consistent pair");
        assert_eq!(back.to_bytes(), secret);
        let mut bad = kp;
        bad[40] ^= 1;
        assert!(SigningKey::from_keypair_bytes(&bad).is_err());
        assert!(ed25519_dalek::SigningKey::from_keypair_bytes(&bad).is_err());
    }
}

/// Keys and nonces with torsion components, signed so that the equation
/// holds up to torsion: `A = [a]B + T_A`, `R = [r]B + T_R`,
/// `S = r + k a`, so `[S]B - [k]A - R = -[k]T_A - T_R`. For every `T_R`
/// the cofactorless decisions (`verify`, `verify_strict`) equal
/// ed25519-dalek's, `verify` accepts exactly when `[k]T_A + T_R` is the
/// neutral element, and ZIP 215 accepts all eight and rejects `S + 1`. This
/// is where a verifier reducing `k` modulo `l` instead of `8 l` would go
/// wrong.
#[test]
fn torsion_components_decide_alike() {
    use curve25519_dalek::{
        constants::ED25519_BASEPOINT_POINT as B, scalar::Scalar, traits::IsIdentity,
    };
    use sha2::{Digest, Sha512};
    let mut st = 0x7075_u64;
    let mut accepted = 0;
    for i in 0..64 {
        let a = Scalar::from_bytes_mod_order(bytes(&mut st));
        let r = Scalar::from_bytes_mod_order(bytes(&mut st));
        let pk = (B * a + EIGHT_TORSION[i % 8]).compress().to_bytes();
        let msg: [u8; 16] = bytes(&mut st);
        for t_r in EIGHT_TORSION {
            let r_enc = (B * r + t_r).compress().to_bytes();
            let k = Scalar::from_hash(
                Sha512::new()
                    .chain_update(r_enc)
                    .chain_update(pk)
                    .chain_update(msg),
            );
            let s = r + k * a;
            let mut sig = [0u8; 64];
            sig[..32].copy_from_slice(&r_enc);
            sig[32..].copy_from_slice(&s.to_bytes());
            let (ours, theirs) = decisions(&pk, &msg, &sig);
            assert_eq!(ours, theirs, "case {i}");
            let holds = (EIGHT_TORSION[i % 8] * k + t_r).is_identity();
            assert_eq!(ours.unwrap().0, holds, "case {i}");
            accepted += usize::from(holds);
            let vk = VerifyingKey::from_bytes(&pk).unwrap();
            assert!(vk.verify_zip215(&msg, &Signature::from_bytes(&sig)).is_ok());
            sig[32..].copy_from_slice(&(s + Scalar::ONE).to_bytes());
            assert!(
                vk.verify_zip215(&msg, &Signature::from_bytes(&sig))
                    .is_err()
            );
        }
    }
    // Some but not all: both branches were taken.
    assert!(accepted > 16 && accepted < 64 * 8, "{accepted}");
}
