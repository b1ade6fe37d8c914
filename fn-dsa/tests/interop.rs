//! Differential tests with fn-dsa 0.3.0: signatures of each verify with the
//! other (raw, contexted, pre-hashed, original Falcon), and both reject the
//! same mutated signatures.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::type_complexity
)]

mod common;

use common::TestRng;
use fn_dsa::{
    DomainContext, HashIdentifier, SigningKey as _, SigningKeyStandard, VerifyingKey as _,
    VerifyingKeyStandard,
};
use pqkit_fn_dsa::Generate;
use pqkit_fn_dsa::{HashAlg, Message, SigFormat};

/// fn-dsa's own identifier of each pre-hash it names (its constants, not
/// our OID table, so the OIDs are checked independently).
fn their_id(h: HashAlg) -> Option<HashIdentifier<'static>> {
    Some(match h {
        HashAlg::Sha2_256 => fn_dsa::HASH_ID_SHA256,
        HashAlg::Sha2_384 => fn_dsa::HASH_ID_SHA384,
        HashAlg::Sha2_512 => fn_dsa::HASH_ID_SHA512,
        HashAlg::Sha2_512_256 => fn_dsa::HASH_ID_SHA512_256,
        HashAlg::Sha3_256 => fn_dsa::HASH_ID_SHA3_256,
        HashAlg::Sha3_384 => fn_dsa::HASH_ID_SHA3_384,
        HashAlg::Sha3_512 => fn_dsa::HASH_ID_SHA3_512,
        HashAlg::Shake128 => fn_dsa::HASH_ID_SHAKE128,
        HashAlg::Shake256 => fn_dsa::HASH_ID_SHAKE256,
        _ => return None,
    })
}

/// Every message mode, as (ours, their ctx, their id, their data).
fn modes(
    msg: &[u8],
    ctx: &[u8],
    digests: &[(HashAlg, Vec<u8>)],
) -> Vec<(
    String,
    Message<'static>,
    Vec<u8>,
    HashIdentifier<'static>,
    Vec<u8>,
)> {
    // Leak small test buffers to get 'static borrows for a compact table.
    let msg: &'static [u8] = Box::leak(msg.to_vec().into_boxed_slice());
    let ctx: &'static [u8] = Box::leak(ctx.to_vec().into_boxed_slice());
    let mut v = vec![
        (
            "raw".to_string(),
            Message::raw(msg),
            vec![],
            fn_dsa::HASH_ID_RAW,
            msg.to_vec(),
        ),
        (
            "raw+ctx".to_string(),
            Message::Raw { ctx, msg },
            ctx.to_vec(),
            fn_dsa::HASH_ID_RAW,
            msg.to_vec(),
        ),
        (
            "original".to_string(),
            Message::OriginalFalcon { msg },
            vec![],
            fn_dsa::HASH_ID_ORIGINAL_FALCON,
            msg.to_vec(),
        ),
    ];
    for (h, d) in digests {
        let d: &'static [u8] = Box::leak(d.clone().into_boxed_slice());
        v.push((
            format!("{h:?}+ctx"),
            Message::PreHashed {
                ctx,
                hash: *h,
                digest: d,
            },
            ctx.to_vec(),
            their_id(*h).expect("a hash fn-dsa names"),
            d.to_vec(),
        ));
    }
    v
}

macro_rules! interop {
    ($name:ident, $module:ident, $file:literal) => {
        #[test]
        fn $name() {
            use pqkit_fn_dsa::$module::{Signature, SigningKey};
            let Some(keys) = common::kat_signing_keys($file, 3) else {
                return;
            };
            let mut rng = TestRng::new(concat!("interop ", stringify!($name)).as_bytes());
            for (k, skb) in keys.iter().enumerate() {
                let ours = SigningKey::from_bytes(skb).unwrap();
                let vk = ours.verifying_key();
                let mut theirs = SigningKeyStandard::decode(skb).unwrap();
                let mut their_vk_bytes = vec![0u8; vk.as_bytes().len()];
                theirs.to_verifying_key(&mut their_vk_bytes);
                assert_eq!(their_vk_bytes, vk.as_bytes());
                let their_vk = VerifyingKeyStandard::decode(vk.as_bytes()).unwrap();

                let msg = format!("message number {k} for the differential test").into_bytes();
                let digests: Vec<(HashAlg, Vec<u8>)> = HashAlg::ALL
                    .iter()
                    .filter(|&&h| their_id(h).is_some())
                    .map(|&h| (h, h.digest(&msg).as_ref().to_vec()))
                    .collect();
                for (label, m, their_ctx, their_hid, data) in modes(&msg, b"some context", &digests)
                {
                    let dctx = DomainContext(&their_ctx);
                    // Ours -> theirs.
                    let sig = ours.sign_message_randomized(&m, &mut rng).unwrap();
                    assert!(
                        their_vk.verify(sig.as_bytes(), &dctx, &their_hid, &data),
                        "{label}: fn-dsa rejects ours"
                    );
                    vk.verify_message(&m, &sig).unwrap();
                    // Theirs -> ours.
                    let mut their_sig = vec![0u8; pqkit_fn_dsa::$module::SIGNATURE_SIZE];
                    theirs.sign(&mut rng, &dctx, &their_hid, &data, &mut their_sig);
                    let parsed = Signature::from_bytes(&their_sig).unwrap();
                    vk.verify_message(&m, &parsed)
                        .unwrap_or_else(|e| panic!("{label}: we reject fn-dsa's: {e}"));
                    // Same decision on mutations.
                    for pos in [
                        0usize,
                        1,
                        39,
                        41,
                        42,
                        100,
                        their_sig.len() / 2,
                        their_sig.len() - 1,
                    ] {
                        for bit in [0x01u8, 0x80] {
                            let mut bad = their_sig.clone();
                            bad[pos] ^= bit;
                            let t = their_vk.verify(&bad, &dctx, &their_hid, &data);
                            let o = vk.verify_bytes(&m, &bad, SigFormat::Padded).is_ok();
                            assert_eq!(t, o, "{label}: pos {pos} bit {bit:#x}");
                            assert!(!o || bad == their_sig);
                        }
                    }
                    // Wrong context / wrong message.
                    if let Message::Raw { ctx, msg } = m {
                        if !ctx.is_empty() {
                            assert!(vk.verify_with_context(msg, b"other", &sig).is_err());
                        }
                    }
                }
            }
        }
    };
}

interop!(interop_512, fn_dsa_512, "falcon512-KAT.rsp");
interop!(interop_1024, fn_dsa_1024, "falcon1024-KAT.rsp");

/// Same accept/reject decisions as fn-dsa 0.3.0 on mutated encoded keys
/// (its signing-key decoder in the portable build: see Cargo.toml).
#[test]
fn mutated_keys_same_decisions() {
    use fn_dsa::{SigningKey as _, VerifyingKey as _};
    let mut rng = TestRng::new(b"mutated keys");
    for logn in [9u32, 10] {
        let (skb, vkb) = if logn == 9 {
            let k = pqkit_fn_dsa::fn_dsa_512::SigningKey::try_generate_from_rng(&mut rng).unwrap();
            (k.to_bytes().to_vec(), k.verifying_key().as_bytes().to_vec())
        } else {
            let k = pqkit_fn_dsa::fn_dsa_1024::SigningKey::try_generate_from_rng(&mut rng).unwrap();
            (k.to_bytes().to_vec(), k.verifying_key().as_bytes().to_vec())
        };
        let ours_vk = |b: &[u8]| {
            if logn == 9 {
                pqkit_fn_dsa::fn_dsa_512::VerifyingKey::from_bytes(b).is_ok()
            } else {
                pqkit_fn_dsa::fn_dsa_1024::VerifyingKey::from_bytes(b).is_ok()
            }
        };
        let ours_sk = |b: &[u8]| {
            if logn == 9 {
                pqkit_fn_dsa::fn_dsa_512::SigningKey::from_bytes(b).is_ok()
            } else {
                pqkit_fn_dsa::fn_dsa_1024::SigningKey::from_bytes(b).is_ok()
            }
        };
        let mut accepted = [0usize; 2];
        let mut rejected = [0usize; 2];
        for i in 0..400usize {
            let mut v = vkb.clone();
            let pos = (i * 7919) % v.len();
            v[pos] ^= 1 << (i % 8);
            let t = VerifyingKeyStandard::decode(&v).is_some();
            assert_eq!(ours_vk(&v), t, "vk logn {logn} pos {pos}");
            if t {
                accepted[0] += 1
            } else {
                rejected[0] += 1
            }
            let mut s = skb.clone();
            let pos = (i * 104729) % s.len();
            s[pos] ^= 1 << (i % 8);
            let t = SigningKeyStandard::decode(&s).is_some();
            assert_eq!(ours_sk(&s), t, "sk logn {logn} pos {pos}");
            if t {
                accepted[1] += 1
            } else {
                rejected[1] += 1
            }
        }
        // Both outcomes occur (the test exercises both paths).
        assert!(
            accepted[0] > 0 && rejected[0] > 0,
            "{accepted:?} {rejected:?}"
        );
        // Nearly every signing-key mutation breaks the range of the
        // recomputed G; the unmutated key is accepted by both.
        assert!(rejected[1] > 0, "{accepted:?} {rejected:?}");
        assert!(ours_sk(&skb) && SigningKeyStandard::decode(&skb).is_some());
        // Truncated and extended encodings.
        for cut in [0usize, 1, vkb.len() - 1] {
            assert_eq!(
                ours_vk(&vkb[..cut]),
                VerifyingKeyStandard::decode(&vkb[..cut]).is_some()
            );
        }
        let mut longer = vkb.clone();
        longer.push(0);
        assert!(!ours_vk(&longer) && VerifyingKeyStandard::decode(&longer).is_none());
    }
}
