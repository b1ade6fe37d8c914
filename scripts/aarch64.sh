#!/usr/bin/env bash
# pqkit on aarch64 (issue 41), under qemu user-mode emulation:
#   1. the no_std build of every algorithm crate for aarch64-unknown-none;
#   2. the tests of pqkit-common and of the crates given (default: the
#      lattice crates, whose kernels the NEON backend accelerates) for
#      aarch64-unknown-linux-gnu, run by qemu-aarch64: once with the best
#      backend (NEON; pqkit-common's tests compare each NEON kernel with
#      the portable one bit for bit) and once with PQKIT_BACKEND=portable.
# Emulated timings mean nothing: nothing here measures speed.
#
#   bash scripts/aarch64.sh                       # the default crates
#   bash scripts/aarch64.sh pqkit-common          # only these crates
#
# Needs the aarch64 Rust targets (added here with rustup), qemu-user and an
# aarch64 linker: on Debian, `apt-get install qemu-user
# gcc-aarch64-linux-gnu libc6-dev-arm64-cross`. Not yet part of
# scripts/test.sh (CI's time budget); run it by hand.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

for t in aarch64-unknown-linux-gnu aarch64-unknown-none; do
  rustup target list --installed | grep -qx "$t" || rustup target add "$t"
done
for tool in qemu-aarch64 aarch64-linux-gnu-gcc; do
  command -v "$tool" >/dev/null || {
    echo "aarch64.sh: $tool is missing (bash scripts/install-deps.sh)" >&2
    exit 2
  }
done

export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu"

step "no_std build (aarch64-unknown-none)"
for p in pqkit-common pqkit-ml-kem pqkit-ml-dsa pqkit-fn-dsa pqkit-saber pqkit-ed25519 pqkit-x25519; do
  cargo build -q -p "$p" --no-default-features --target aarch64-unknown-none
done

crates=("$@")
((${#crates[@]})) || crates=(pqkit-common pqkit-ml-kem pqkit-saber)
args=()
for c in "${crates[@]}"; do args+=(-p "$c"); done

step "tests on aarch64 under qemu (best backend: NEON): ${crates[*]}"
cargo test -q "${args[@]}" --all-features --profile test-release --target aarch64-unknown-linux-gnu

step "tests on aarch64 under qemu (PQKIT_BACKEND=portable): ${crates[*]}"
PQKIT_BACKEND=portable cargo test -q "${args[@]}" --all-features --profile test-release \
  --target aarch64-unknown-linux-gnu
