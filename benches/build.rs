//! Static inputs for the stack probes of verification: for each ML-DSA
//! parameter set, the public key of a fixed seed and its deterministic
//! signature of "stack probe", written to `OUT_DIR` and included with
//! `include_bytes!`, so a verification probe is "a one-operation binary on
//! static inputs": no key generation or signing runs in its process.
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
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    let out = std::env::var_os("OUT_DIR").ok_or("OUT_DIR is not set")?;
    let dir = Path::new(&out);
    write::<MlDsa44>(dir, "ml-dsa-44")?;
    write::<MlDsa65>(dir, "ml-dsa-65")?;
    write::<MlDsa87>(dir, "ml-dsa-87")?;
    println!("cargo::rerun-if-changed=build.rs");
    Ok(())
}
