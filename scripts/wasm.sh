#!/usr/bin/env bash
# pqkit on WebAssembly (issue 40):
#   1. every algorithm crate builds for wasm32-unknown-unknown (the browser
#      target) with its default features;
#   2. their tests and pqkit-common's (unit, vector, KAT, property and
#      differential tests with Rust peers) run on wasm32-wasip1 under Node.js's WASI
#      (scripts/wasi-run.mjs), with CI=true so that missing vectors fail.
# Not on wasm: the differential tests against C peers (PQClean's Saber,
# ring), which cannot build for it, and the parts of tests that need
# threads (wasm32-wasip1 has none); the native run covers both.
#
#   bash scripts/wasm.sh            # both
#   bash scripts/wasm.sh --build    # 1 only
set -euo pipefail
cd "$(dirname "$0")/.."

crates=(pqkit-ml-kem pqkit-ml-dsa pqkit-fn-dsa pqkit-saber pqkit-ed25519 pqkit-x25519 pqkit-hybrid)

for c in "${crates[@]}"; do
  if [[ $c == pqkit-ml-dsa ]]; then
    # Its defaults include `getrandom`, as RustCrypto ml-dsa's: on
    # wasm32-unknown-unknown the application chooses getrandom's backend
    # (its `wasm_js` feature); a library must not. Everything else builds.
    cargo build -q --release -p "$c" --target wasm32-unknown-unknown --no-default-features --features std,pkcs8,pem
  else
    cargo build -q --release -p "$c" --target wasm32-unknown-unknown
  fi
done
echo "wasm32-unknown-unknown: ${#crates[@]} crates build"
[[ ${1:-} == --build ]] && exit 0

export CARGO_TARGET_WASM32_WASIP1_RUNNER="node --no-warnings $PWD/scripts/wasi-run.mjs"
packages=(-p pqkit-common)
for c in "${crates[@]}"; do packages+=(-p "$c"); done
CI=true cargo test --target wasm32-wasip1 --profile test-release --lib --tests "${packages[@]}"
