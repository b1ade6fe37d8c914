//! The lattice private-key CHOICE shared by ML-KEM (RFC 9935) and ML-DSA
//! (RFC 9881), inside PKCS#8's `privateKey` OCTET STRING:
//!
//! ```asn1
//! PrivateKey ::= CHOICE {
//!   seed        [0] IMPLICIT OCTET STRING,   -- 80 LL ...
//!   expandedKey     OCTET STRING,            -- 04 LL ...
//!   both            SEQUENCE { seed OCTET STRING, expandedKey OCTET STRING } }
//! ```
//!
//! Only the encoding lives here; each scheme checks lengths and consistency.
//!
//! ```
//! use pqkit_pkix::keychoice::{KeyChoice, decode, encode};
//! let der = encode(KeyChoice::Both { seed: &[1; 32], expanded: &[2; 300] });
//! assert_eq!(decode(&der), Ok(KeyChoice::Both { seed: &[1; 32], expanded: &[2; 300] }));
//! assert_eq!(decode(&[0x80, 2, 9, 9]), Ok(KeyChoice::Seed(&[9, 9])));
//! assert!(decode(&[0x05, 0]).is_err());
//! ```

use der::asn1::{AnyRef, OctetStringRef};
use der::{Decode, Reader, SliceReader, Tag, TagNumber, Tagged};

/// Which arm to export.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KeyFormat {
    /// `seed [0]` (the default: the seed is the canonical private key).
    #[default]
    Seed,
    /// `expandedKey`.
    Expanded,
    /// `both`.
    Both,
}

/// One arm of the CHOICE, borrowing from the encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyChoice<'a> {
    /// `seed [0]`.
    Seed(&'a [u8]),
    /// `expandedKey`.
    Expanded(&'a [u8]),
    /// `both`.
    Both {
        /// The seed.
        seed: &'a [u8],
        /// The expanded key.
        expanded: &'a [u8],
    },
}

/// Parse the CHOICE (exactly one DER value, nothing after it).
pub fn decode(private_key: &[u8]) -> der::Result<KeyChoice<'_>> {
    let any = AnyRef::from_der(private_key)?;
    match any.tag() {
        Tag::ContextSpecific {
            constructed: false,
            number: TagNumber(0),
        } => Ok(KeyChoice::Seed(any.value())),
        Tag::OctetString => Ok(KeyChoice::Expanded(any.value())),
        Tag::Sequence => {
            let mut r = SliceReader::new(any.value())?;
            let seed = <&OctetStringRef>::decode(&mut r)?;
            let expanded = <&OctetStringRef>::decode(&mut r)?;
            r.finish()?;
            Ok(KeyChoice::Both {
                seed: seed.as_bytes(),
                expanded: expanded.as_bytes(),
            })
        }
        tag => Err(tag.unexpected_error(None).into()),
    }
}

#[cfg(feature = "alloc")]
fn tlv(out: &mut alloc::vec::Vec<u8>, tag: u8, value: &[u8]) {
    out.push(tag);
    let len = value.len();
    if len < 0x80 {
        out.push(len as u8);
    } else if len < 0x100 {
        out.extend_from_slice(&[0x81, len as u8]);
    } else {
        out.extend_from_slice(&[0x82, (len >> 8) as u8, len as u8]);
    }
    out.extend_from_slice(value);
}

/// DER of the CHOICE (values below 64 KiB), wiped on drop.
#[cfg(feature = "alloc")]
pub fn encode(choice: KeyChoice<'_>) -> zeroize::Zeroizing<alloc::vec::Vec<u8>> {
    let mut out = zeroize::Zeroizing::new(alloc::vec::Vec::new());
    match choice {
        KeyChoice::Seed(seed) => tlv(&mut out, 0x80, seed),
        KeyChoice::Expanded(expanded) => tlv(&mut out, 0x04, expanded),
        KeyChoice::Both { seed, expanded } => {
            let mut inner = zeroize::Zeroizing::new(alloc::vec::Vec::new());
            tlv(&mut inner, 0x04, seed);
            tlv(&mut inner, 0x04, expanded);
            tlv(&mut out, 0x30, &inner);
        }
    }
    out
}
