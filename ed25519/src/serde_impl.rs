//! serde for the keys (feature `serde`): a key is its 32 bytes, written with
//! `serialize_bytes` and read from bytes or a sequence of 32 `u8` (the
//! format of ed25519-dalek, so the two read each other's output). A
//! deserialized verifying key is decoded like [`VerifyingKey::from_bytes`];
//! a bad encoding is a deserialization error.

use core::fmt;

use serde::de::{Error as _, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use zeroize::Zeroizing;

use crate::{SigningKey, VerifyingKey};

impl Serialize for VerifyingKey {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.as_bytes())
    }
}

impl Serialize for SigningKey {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self.as_bytes())
    }
}

/// Reads 32 bytes (from bytes or a sequence) into a wiped buffer.
struct Bytes32(&'static str);

impl<'de> Visitor<'de> for Bytes32 {
    type Value = Zeroizing<[u8; 32]>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an Ed25519 {} (32 bytes)", self.0)
    }

    fn visit_bytes<E: serde::de::Error>(self, bytes: &[u8]) -> Result<Self::Value, E> {
        let mut out = Zeroizing::new([0u8; 32]);
        if bytes.len() != 32 {
            return Err(E::invalid_length(bytes.len(), &self));
        }
        out.copy_from_slice(bytes);
        Ok(out)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Zeroizing::new([0u8; 32]);
        for (i, b) in out.iter_mut().enumerate() {
            *b = seq
                .next_element()?
                .ok_or_else(|| A::Error::invalid_length(i, &self))?;
        }
        if seq.next_element::<u8>()?.is_some() {
            return Err(A::Error::invalid_length(33, &self));
        }
        Ok(out)
    }
}

impl<'de> Deserialize<'de> for VerifyingKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let bytes = deserializer.deserialize_bytes(Bytes32("verifying key"))?;
        VerifyingKey::from_bytes(&bytes).map_err(D::Error::custom)
    }
}

impl<'de> Deserialize<'de> for SigningKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let bytes = deserializer.deserialize_bytes(Bytes32("signing key"))?;
        Ok(SigningKey::from_bytes(&bytes))
    }
}
