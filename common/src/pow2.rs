//! Saber's power-of-two ring Z_{2^13}\[X\]/(X^256 + 1) (and Z_{2^10}).
//!
//! Reserved for the Saber work: fast multiplication there is Toom-Cook /
//! Karatsuba, or an NTT over a large enough prime; nothing in this ring
//! needs modular reduction beyond masking.
