#!/usr/bin/env bash
# pqkit on WebAssembly (issue 40):
#   1. every algorithm crate builds for wasm32-unknown-unknown (the browser
#      target) with its default features;
#   2. their tests and pqkit-common's (unit, vector, KAT, property and
#      differential tests with Rust peers) run on wasm32-wasip1 under Node.js's WASI
#      (scripts/wasi-run.mjs), with CI=true so that missing vectors fail,
#      built with the simd128 target feature: the Simd128 backend runs,
#      and pqkit-common's tests compare its kernels with portable's (the
#      plain, portable-only build is step 1's).
#   3. the pqkit-wasm package (wasm/): built for wasm32-unknown-unknown with
#      simd128 and bound by wasm-bindgen (--target web) into target/wasm-pkg; its
#      JavaScript tests in Node (wasm/js/test.mjs, against noble-post-quantum
#      too) and its page in headless Chromium (wasm/js/browser.mjs).
# Not on wasm: the differential tests against C peers (PQClean's Saber,
# ring), which cannot build for it, and the parts of tests that need
# threads (wasm32-wasip1 has none); the native run covers both.
#
#   bash scripts/wasm.sh            # all three
#   bash scripts/wasm.sh --build    # 1 only
#   bash scripts/wasm.sh --bench    # 3's package only, then the benches
#                                   # beside noble-post-quantum in Node and
#                                   # Chromium instead of its tests, in Node
#                                   # a plain build (no SIMD) too, and
#                                   # common's kernels on both backends
#
# The SIMD builds use their own target directory (target/wasm-simd128), so
# that switching between the two flag sets rebuilds nothing.
#
# Needs wasm-bindgen-cli 0.2.130 (the version of the wasm-bindgen crate in
# Cargo.lock), npm and /usr/bin/chromium: scripts/install-deps.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

crates=(pqkit-ml-kem pqkit-ml-dsa pqkit-fn-dsa pqkit-saber pqkit-ed25519 pqkit-x25519 pqkit-hybrid)
mode=${1:-}

if [[ $mode != --bench ]]; then
  # 1. The browser target.
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
  [[ $mode == --build ]] && exit 0

  # 2. The tests on wasm32-wasip1, built with SIMD: every kernel test runs
  #    the portable backend beside Simd128 (the plain build is step 1's).
  export CARGO_TARGET_WASM32_WASIP1_RUNNER="node --no-warnings $PWD/scripts/wasi-run.mjs"
  packages=(-p pqkit-common)
  for c in "${crates[@]}"; do packages+=(-p "$c"); done
  CARGO_TARGET_WASM32_WASIP1_RUSTFLAGS="-C target-feature=+simd128" CI=true \
    cargo test --target wasm32-wasip1 --target-dir target/wasm-simd128 \
    --profile test-release --lib --tests "${packages[@]}"
fi

# 3. The package: the release profile (thin LTO, one codegen unit) with
# SIMD (every current browser runs it), then the JavaScript bindings, then
# its tests (or its benches).
# package TARGET_DIR OUT_DIR [RUSTFLAGS]
package() {
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="${3:-}" \
    cargo build -q --release -p pqkit-wasm --target wasm32-unknown-unknown --target-dir "$1"
  rm -rf "$2"
  wasm-bindgen --target web --out-dir "$2" "$1/wasm32-unknown-unknown/release/pqkit_wasm.wasm"
  echo "pqkit-wasm ($2): $(wc -c < "$2/pqkit_wasm_bg.wasm") bytes of wasm"
}
package target/wasm-simd128 target/wasm-pkg "-C target-feature=+simd128"
(cd wasm/js && npm ci --no-audit --no-fund --silent)

if [[ $mode == --bench ]]; then
  echo "Kernels: portable beside Simd128 in one run (wasm32-wasip1 with simd128, Node $(node --version)):"
  CARGO_TARGET_WASM32_WASIP1_RUNNER="node --no-warnings $PWD/scripts/wasi-run.mjs" \
    CARGO_TARGET_WASM32_WASIP1_RUSTFLAGS="-C target-feature=+simd128" \
    cargo run -q --release -p pqkit-common --example kernels --target wasm32-wasip1 \
    --target-dir target/wasm-simd128
  echo
  echo "Node $(node --version), simd128:"
  (cd wasm/js && node bench-node.mjs)
  package target target/wasm-pkg-plain
  echo
  echo "Node $(node --version), plain build (portable backend only):"
  (cd wasm/js && PQKIT_WASM_PKG="$PWD/../../target/wasm-pkg-plain" node bench-node.mjs)
  echo
  echo "Chromium ($(/usr/bin/chromium --version 2>/dev/null | head -1)):"
  (cd wasm/js && node browser.mjs --bench | sed -n '/^| operation/,$p')
else
  (cd wasm/js && node --test test.mjs)
  (cd wasm/js && node browser.mjs)
fi
