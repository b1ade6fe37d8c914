//! Falcon round-3 NIST KATs (falcon/ under the vectors root): every record's
//! signing key decodes, the verifying key recomputed from it equals `pk`,
//! and the signature inside `sm` verifies in original Falcon mode;
//! mutated records fail.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqkit_fn_dsa::{Error, Message, SigFormat, fn_dsa_512, fn_dsa_1024};

struct Record {
    count: usize,
    msg: Vec<u8>,
    pk: Vec<u8>,
    sk: Vec<u8>,
    sm: Vec<u8>,
}

/// The signature records of a Falcon KAT file, if present.
fn load(file: &str) -> Option<Vec<Record>> {
    let records = pqkit_testkit::rsp::load(&format!("falcon/{file}"))?;
    Some(
        records
            .iter()
            .filter(|r| r.has("sm"))
            .map(|r| {
                let rec = Record {
                    count: r.number("count"),
                    msg: r.hex("msg"),
                    pk: r.hex("pk"),
                    sk: r.hex("sk"),
                    sm: r.hex("sm"),
                };
                assert_eq!(r.number("mlen"), rec.msg.len());
                assert_eq!(r.number("smlen"), rec.sm.len());
                rec
            })
            .collect(),
    )
}

macro_rules! kat_test {
    ($name:ident, $module:ident, $file:literal, $logn:literal) => {
        #[test]
        fn $name() {
            use $module::{SigningKey, VerifyingKey};
            let Some(records) = load($file) else { return };
            assert_eq!(records.len(), 100);
            for r in &records {
                let sk = SigningKey::from_bytes(&r.sk)
                    .unwrap_or_else(|e| panic!("record {}: {e}", r.count));
                assert_eq!(&sk.to_bytes()[..], &r.sk[..], "record {}", r.count);
                let vk = sk.verifying_key();
                assert_eq!(
                    &vk.to_bytes()[..],
                    &r.pk[..],
                    "record {}: recomputed pk",
                    r.count
                );
                let vk2 = VerifyingKey::from_bytes(&r.pk).unwrap();
                assert!(vk == vk2);
                let opened = vk2
                    .open_round3_sm(&r.sm)
                    .unwrap_or_else(|e| panic!("record {}: {e}", r.count));
                assert_eq!(opened, &r.msg[..]);

                // Detached form: header 0x30 + logn, nonce, compressed s2.
                let body_len = u16::from_be_bytes([r.sm[0], r.sm[1]]) as usize;
                let body = &r.sm[r.sm.len() - body_len..];
                assert_eq!(body[0], 0x20 + $logn);
                let mut sig = vec![0x30 + $logn];
                sig.extend_from_slice(&r.sm[2..42]);
                sig.extend_from_slice(&body[1..]);
                vk2.verify_original_falcon(&r.msg, &sig).unwrap();
                // The FN-DSA hashing of the same bytes does not verify.
                assert!(
                    vk2.verify_bytes(&Message::raw(&r.msg), &sig, SigFormat::Round3)
                        .is_err()
                );
                // Padded to the fixed size, it still verifies (round-3 "padded" layout).
                let fixed = $module::SIGNATURE_SIZE;
                if sig.len() <= fixed {
                    let mut padded = sig.clone();
                    padded.resize(fixed, 0);
                    vk2.verify_original_falcon(&r.msg, &padded).unwrap();
                    // One more byte is no longer canonical.
                    let mut longer = padded.clone();
                    longer.push(0);
                    assert!(vk2.verify_original_falcon(&r.msg, &longer).is_err());
                }
                // Trailing zero byte on the variable-length form: rejected.
                let mut trailing = sig.clone();
                trailing.push(0);
                if trailing.len() != fixed {
                    assert_eq!(
                        vk2.verify_original_falcon(&r.msg, &trailing),
                        Err(Error::NonCanonical)
                    );
                }

                // Mutations: message, nonce, signature body, key, sm header.
                let mut m = r.msg.clone();
                if m.is_empty() {
                    m.push(0);
                } else {
                    m[0] ^= 1;
                }
                assert_eq!(
                    vk2.verify_original_falcon(&m, &sig),
                    Err(Error::InvalidSignature)
                );
                for pos in [1usize, 20, 40, 41, 45, sig.len() / 2, sig.len() - 1] {
                    let mut s = sig.clone();
                    s[pos] ^= 0x04;
                    assert!(
                        vk2.verify_original_falcon(&r.msg, &s).is_err(),
                        "record {} pos {pos}",
                        r.count
                    );
                }
                let mut s = sig.clone();
                s[0] ^= 1;
                assert_eq!(
                    vk2.verify_original_falcon(&r.msg, &s),
                    Err(Error::InvalidHeader)
                );
                let mut sm = r.sm.clone();
                let last = sm.len() - 1;
                sm[last] ^= 0x10;
                assert!(vk2.open_round3_sm(&sm).is_err());
                let mut pk = r.pk.clone();
                pk[5] ^= 1;
                if let Ok(vk3) = VerifyingKey::from_bytes(&pk) {
                    assert!(vk3.verify_original_falcon(&r.msg, &sig).is_err());
                }
                let mut skb = r.sk.clone();
                skb[0] ^= 0x01;
                assert!(SigningKey::from_bytes(&skb).is_err());
                let mut skb = r.sk.clone();
                // Flip a bit of F: G changes, and either goes out of range
                // or gives a different verifying key.
                let idx = skb.len() - 3;
                skb[idx] ^= 0x40;
                match SigningKey::from_bytes(&skb) {
                    Err(_) => {}
                    Ok(k) => assert_ne!(&k.verifying_key().to_bytes()[..], &r.pk[..]),
                }
            }
        }
    };
}

kat_test!(falcon512_kat, fn_dsa_512, "falcon512-KAT.rsp", 9);
kat_test!(falcon1024_kat, fn_dsa_1024, "falcon1024-KAT.rsp", 10);
