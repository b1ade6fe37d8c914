//! The NIST PQC KAT DRBG (AES-256 CTR_DRBG of the round-3 `PQCgenKAT`
//! programs). **Test-only**: deterministic by design, never a real RNG.
