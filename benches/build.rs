//! Static inputs for the stack probes of verification and of operations
//! from key bytes: for each ML-DSA parameter set, the public key of a fixed
//! seed and its deterministic signature of "stack probe" (and for ML-DSA-65
//! the expanded signing key); for ML-KEM-768 the expanded decapsulation key
//! of a fixed seed and a ciphertext to it. Written to `OUT_DIR` and included
//! with `include_bytes!`, so such a probe is "a one-operation binary on
//! static inputs": no key generation or signing runs in its process, and
//! its whole-process peak is the operation's.
use std::error::Error;
use std::path::Path;

use pqkit_ml_dsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey};

fn write<P: ParameterSet>(dir: &Path, name: &str) -> Result<(), Box<dyn Error>> {
    let sk = SigningKey::<P>::from_seed(&[5u8; 32].into());
    let sig = sk.sign_deterministic(b"stack probe", b"")?;
    std::fs::write(
        dir.join(format!("{name}.pk")),
        sk.verifying_key().as_bytes(),
    )?;
    std::fs::write(dir.join(format!("{name}.sig")), sig.as_bytes())?;
    std::fs::write(dir.join(format!("{name}.sk")), sk.expanded_bytes())?;
    Ok(())
}

fn write_kem(dir: &Path) -> Result<(), Box<dyn Error>> {
    use pqkit_ml_kem::{DecapsulationKey, MlKem768};
    let dk = DecapsulationKey::<MlKem768>::from_seed([5u8; 64].into());
    let (ct, _) = pqkit_ml_kem::hazmat::encaps_internal(dk.encapsulation_key(), &[7u8; 32]);
    std::fs::write(dir.join("ml-kem-768.dk"), dk.expanded_bytes())?;
    std::fs::write(dir.join("ml-kem-768.ct"), &ct[..])?;
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    let out = std::env::var_os("OUT_DIR").ok_or("OUT_DIR is not set")?;
    let dir = Path::new(&out);
    write::<MlDsa44>(dir, "ml-dsa-44")?;
    write::<MlDsa65>(dir, "ml-dsa-65")?;
    write::<MlDsa87>(dir, "ml-dsa-87")?;
    write_kem(dir)?;
    println!("cargo::rerun-if-changed=build.rs");
    Ok(())
}
