//! serde for [`PublicKey`] and [`StaticSecret`] in x25519-dalek's data
//! model: `PublicKey` is a newtype around curve25519-dalek's
//! `MontgomeryPoint` newtype around 32 bytes (a tuple), `StaticSecret` a
//! newtype around the 32 bytes. Self-describing formats see the same
//! names, compact ones (postcard, bincode) the same 32 bytes.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use zeroize::Zeroize;

use crate::{PublicKey, StaticSecret};

#[derive(Serialize, Deserialize)]
#[serde(rename = "MontgomeryPoint")]
struct MontgomeryPoint([u8; 32]);

#[derive(Serialize, Deserialize)]
#[serde(rename = "PublicKey")]
struct PublicKeyRepr(MontgomeryPoint);

#[derive(Serialize, Deserialize)]
#[serde(rename = "StaticSecret")]
struct StaticSecretRepr([u8; 32]);

impl Serialize for PublicKey {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        PublicKeyRepr(MontgomeryPoint(self.0)).serialize(s)
    }
}

impl<'de> Deserialize<'de> for PublicKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let PublicKeyRepr(MontgomeryPoint(bytes)) = PublicKeyRepr::deserialize(d)?;
        Ok(PublicKey(bytes))
    }
}

impl Serialize for StaticSecret {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut repr = StaticSecretRepr(self.0);
        let out = repr.serialize(s);
        repr.0.zeroize();
        out
    }
}

impl<'de> Deserialize<'de> for StaticSecret {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut repr = StaticSecretRepr::deserialize(d)?;
        let secret = StaticSecret(repr.0);
        repr.0.zeroize();
        Ok(secret)
    }
}
