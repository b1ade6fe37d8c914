#!/usr/bin/env bash
# The whole test suite (the README's test command):
#   1. unit, vector, differential and CLI tests, release-optimised, with the
#      best backend of this CPU (AVX2 here);
#   2. the same for the crates on common's dispatched kernels (lattice,
#      X25519 and Ed25519) with the portable backend forced;
#   3. the no_std build check (thumbv7em-none-eabi), the default
#      dependency trees against their limits (scripts/lean-build.sh), and
#      WebAssembly: the browser build and the tests under Node's WASI
#      (scripts/wasm.sh);
#   4. aarch64 under qemu-aarch64: the no_std build, and the tests of
#      pqkit-common and the lattice crates with the NEON backend and with
#      the portable one (scripts/aarch64.sh);
#   5. the constant-time check under valgrind;
#   6. the interop suite against OpenSSL, Go (with CIRCL for SLH-DSA) and
#      Bouncy Castle (TLS, composite ML-DSA, SLH-DSA).
# It first installs what the machine lacks (scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's start time (UTC), so that a log shows where CI's time goes.
step() { printf '\n=== %s [%s]\n' "$*" "$(date -u +%T)"; }

step "tools (scripts/install-deps.sh)"
bash scripts/install-deps.sh

step "cargo test (dispatch: best backend)"
cargo test --workspace --all-features --profile test-release

step "cargo test (PQKIT_BACKEND=portable)"
# The test binaries of the step above, run again with the portable backend
# forced, for the crates on common's dispatched kernels: the same build
# (a `cargo test -p ...` of these crates alone would resolve features
# differently and compile much of the workspace again), each binary run in
# its package's folder as cargo runs it. The doctests ran above.
cargo test --workspace --all-features --profile test-release --no-run --message-format=json 2>/dev/null |
  python3 scripts/test-binaries.py pqkit-common pqkit-ml-kem pqkit-ml-dsa pqkit-slh-dsa pqkit-fn-dsa pqkit-saber pqkit-x25519 pqkit-ed25519 |
  while IFS=$'\t' read -r dir exe; do
    echo "portable: ${exe#"$PWD"/}"
    (cd "$dir" && PQKIT_BACKEND=portable "$exe" -q)
  done

step "cargo test pqkit-common (PQKIT_BACKEND=avx2: AVX-512 kernels off)"
PQKIT_BACKEND=avx2 cargo test -p pqkit-common --all-features --profile test-release

step "no_std build (thumbv7em-none-eabi)"
for p in pqkit-common pqkit-pkix pqkit-ml-kem pqkit-ml-dsa pqkit-slh-dsa pqkit-fn-dsa pqkit-saber pqkit-ed25519 pqkit-x25519 pqkit-hybrid; do
  cargo build -q -p "$p" --no-default-features --target thumbv7em-none-eabi
done
# HPKE and composite ML-DSA need only `alloc`.
cargo build -q -p pqkit-hybrid --no-default-features --features hpke --target thumbv7em-none-eabi
cargo build -q -p pqkit-hybrid --no-default-features --features composite --target thumbv7em-none-eabi
echo "no_std: 10 crates build (and pqkit-hybrid's HPKE and composite ML-DSA with alloc)"

step "default dependency trees (scripts/lean-build.sh --check)"
bash scripts/lean-build.sh --check

step "WebAssembly (scripts/wasm.sh)"
bash scripts/wasm.sh

step "aarch64 under qemu (scripts/aarch64.sh)"
bash scripts/aarch64.sh

step "constant-time check (valgrind)"
bash scripts/ct-check.sh

step "interop (OpenSSL via pyca/cryptography, Go and CIRCL, Bouncy Castle)"
bash interop/run.sh
