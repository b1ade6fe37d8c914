#!/usr/bin/env bash
# `cargo package` for every publishable crate of the workspace, with
# cargo's verification build (each .crate unpacked and built on its own,
# the crates it depends on resolved from the other packages of this run).
# The list is every member whose manifest does not say `publish = false`.
set -euo pipefail
cd "$(dirname "$0")/.."
args=()
while read -r name; do args+=(-p "$name"); done < <(
  cargo metadata --no-deps --format-version 1 |
    python3 -c 'import json, sys
for p in json.load(sys.stdin)["packages"]:
    if p["publish"] is None:
        print(p["name"])'
)
echo "cargo package: ${args[*]}"
cargo package --locked "${args[@]}" "$@"
ls -l "${CARGO_TARGET_DIR:-target}"/package/*.crate
