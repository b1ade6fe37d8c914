#!/usr/bin/env bash
# Peak stack of single operations, measured with valgrind massif
# (--stacks=yes) on the one-operation binary `stack_probe`: the operation
# alone (its measured phase minus the `noop` baseline) and the whole
# process (every snapshot, dynamic loader and start-up included).
# Usage: scripts/stack-probe.sh [OPERATION...] (default: all).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --profile release -p pqkit-benches --bin stack_probe
bin=${CARGO_TARGET_DIR:-target}/release/stack_probe
peak() {
  local out; out=$(mktemp)
  # SLH-DSA operations take milliseconds (seconds under massif): a few
  # runs each instead of 300.
  local repeat=300
  [[ $1 == *slh-dsa* ]] && repeat=3
  STACK_PROBE_REPEAT=$repeat valgrind -q --tool=massif --stacks=yes --depth=1 --threshold=100 \
    --max-snapshots=1000 --massif-out-file="$out" "$bin" "$1" >/dev/null
  # the highest stack among snapshots taken while the 1 MiB marker block
  # is allocated, i.e. while the operation loop runs
  # (and, second, the highest stack of the whole process: loader and
  # start-up included, the way Bouncy Castle reports its figures)
  awk -F= '/^mem_heap_B=/{h=$2} /^mem_stacks_B=/{ if ($2 > w) w = $2; if (h >= 1048576 && $2 > m) m = $2 } END { print m + 0, w + 0 }' "$out"
  rm -f "$out"
}
read -r base _ < <(peak noop)
ops=("$@"); ((${#ops[@]})) || mapfile -t ops < <("$bin" list | grep -v '^noop$')
printf '%-32s %14s %16s\n' operation "peak stack (B)" "whole process (B)"
for op in "${ops[@]}"; do
  read -r p w < <(peak "$op")
  printf '%-32s %14d %16d\n' "$op" $((p - base)) "$w"
done
