#!/usr/bin/env bash
# `cargo package` for every publishable crate of the workspace, with
# cargo's verification build (each .crate unpacked and built on its own,
# the crates it depends on resolved from the other packages of this run).
# The list is every member whose manifest does not say `publish = false`.
set -euo pipefail
cd "$(dirname "$0")/.."
args=() names=()
while read -r name; do args+=(-p "$name"); names+=("$name"); done < <(
  cargo metadata --no-deps --format-version 1 |
    python3 -c 'import json, sys
for p in json.load(sys.stdin)["packages"]:
    if p["publish"] is None:
        print(p["name"])'
)
# The verification build sees our crates as registry packages (of cargo's
# temporary local registry), and cargo takes a registry package of a given
# name and version to be immutable: it reuses an earlier unpacked copy
# under $CARGO_HOME/registry/src/-<hash of the registry's path>/ and the
# artifacts an earlier build left in the target folder. A second run would
# verify against the first run's sources. So the unpacked copies are
# removed before and after, and the packages are built in a target folder
# of their own, emptied first.
clear_unpacked() {
  local name
  for name in "${names[@]}"; do
    rm -rf "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/"$name"-[0-9]*
  done
}
trap clear_unpacked EXIT
clear_unpacked
target=${CARGO_TARGET_DIR:-target}/package-verify
rm -rf "$target"
echo "cargo package: ${args[*]}"
CARGO_TARGET_DIR=$target cargo package --locked "${args[@]}" "$@"
ls -l "$target"/package/*.crate
