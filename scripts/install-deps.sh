#!/usr/bin/env bash
# Install what scripts/test.sh needs and this machine lacks: valgrind (the
# constant-time check), GNU time (the CLI's constant-memory test), the
# thumbv7em-none-eabi target (the no_std build), the wasm32 targets,
# Node.js with npm, wasm-bindgen-cli and Chromium (the wasm build and
# tests, scripts/wasm.sh),
# Go (the Go interop peer; go.mod asks for 1.26, which an older Go fetches
# from the Go proxy by itself), a JDK and Maven (the Bouncy Castle TLS peer,
# whose jars interop/run.sh fetches from Maven Central) and Python's venv
# (the OpenSSL peer, whose packages interop/run.sh installs from PyPI) and
# the openssl command (`openssl verify`, compared with verify-cert --purpose any),
# and for the aarch64 suite (scripts/aarch64.sh) the aarch64 targets,
# qemu-user and an aarch64 cross linker with its libc.
# Debian/Ubuntu packages through apt-get (as root, or through sudo).
set -euo pipefail
cd "$(dirname "$0")/.."
need_apt=()
command -v valgrind >/dev/null || need_apt+=(valgrind)
[[ -x /usr/bin/time ]] || need_apt+=(time)
command -v go >/dev/null || need_apt+=(golang-go)
command -v javac >/dev/null || need_apt+=(default-jdk-headless)
command -v mvn >/dev/null || need_apt+=(maven)
python3 -c 'import venv, ensurepip' 2>/dev/null || need_apt+=(python3-venv)
command -v openssl >/dev/null || need_apt+=(openssl)
command -v node >/dev/null || need_apt+=(nodejs)
command -v npm >/dev/null || need_apt+=(npm)
[[ -x /usr/bin/chromium ]] || need_apt+=(chromium)
command -v qemu-aarch64 >/dev/null || need_apt+=(qemu-user)
command -v aarch64-linux-gnu-gcc >/dev/null || need_apt+=(gcc-aarch64-linux-gnu)
[[ -d /usr/aarch64-linux-gnu/lib ]] || need_apt+=(libc6-dev-arm64-cross)
if ((${#need_apt[@]})); then
  sudo=()
  [[ $(id -u) -eq 0 ]] || sudo=(sudo)
  "${sudo[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q "${need_apt[@]}"
fi
for target in thumbv7em-none-eabi wasm32-unknown-unknown wasm32-wasip1 \
  aarch64-unknown-linux-gnu aarch64-unknown-none; do
  rustup target list --installed | grep -qx "$target" || rustup target add "$target"
done
# wasm-bindgen's command must be the version of the crate in Cargo.lock.
wbg=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p')
if [[ $(wasm-bindgen --version 2>/dev/null) != "wasm-bindgen $wbg" ]]; then
  cargo install -q wasm-bindgen-cli --version "$wbg"
fi
