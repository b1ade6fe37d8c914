//! PKCS#8 (RFC 5958) and SPKI (RFC 5280) for Saber, with **provisional**
//! OIDs: there are no standard ones. Open Quantum Safe assigned Saber only
//! TLS group code points, never OIDs; Bouncy Castle, the one widely used
//! tool with Saber keys in PKCS#8/X.509, uses its own arc
//! `1.3.6.1.4.1.22554.5.3`, whose round-3 variants with the 256-bit shared
//! key (the NIST submission's) are `.7` (LightSaber), `.8` (Saber) and `.9`
//! (FireSaber). Those are used here. Parameters are absent; the SPKI key is
//! the encoded public key and the PKCS#8 `privateKey` holds the reference
//! `sk` encoding (validated on import, and a v2 `[1] publicKey` must
//! match). Saber has been withdrawn from standardisation: treat these
//! encodings as provisional.

use pkcs8::PrivateKeyInfoRef;
use pqkit_pkix::{self as pkix, AlgorithmOid, AssociatedOid};

use crate::{DecapsulationKey, EncapsulationKey, FireSaber, LightSaber, ParameterSet, Saber};

pqkit_pkix::impl_algorithm_oids!(
    LightSaber => "1.3.6.1.4.1.22554.5.3.7",
    Saber => "1.3.6.1.4.1.22554.5.3.8",
    FireSaber => "1.3.6.1.4.1.22554.5.3.9",
);

/// The parameter sets with their OIDs (a bound for the generic impls).
pub trait ParameterSetOid: ParameterSet + AlgorithmOid {}
impl<P: ParameterSet + AlgorithmOid> ParameterSetOid for P {}

pqkit_pkix::impl_public_key!(impl<P: ParameterSetOid> EncapsulationKey<P>, oid = P::OID);

impl<P: ParameterSetOid> TryFrom<PrivateKeyInfoRef<'_>> for DecapsulationKey<P> {
    type Error = pkcs8::Error;
    fn try_from(info: PrivateKeyInfoRef<'_>) -> pkcs8::Result<Self> {
        let raw = pkix::private_key_bytes(&info, <P as AssociatedOid>::OID)?;
        let dk = Self::from_bytes_checked(raw).map_err(|_| pkix::invalid_key())?;
        pkix::check_public_key(&info, dk.encapsulation_key().as_bytes())?;
        Ok(dk)
    }
}

#[cfg(feature = "alloc")]
impl<P: ParameterSetOid> pkcs8::EncodePrivateKey for DecapsulationKey<P> {
    fn to_pkcs8_der(&self) -> pkcs8::Result<pkcs8::SecretDocument> {
        pkix::pkcs8_der(<P as AssociatedOid>::OID, self.as_bytes(), None)
    }
}
