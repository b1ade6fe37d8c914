#!/usr/bin/env bash
# The interleaved speed tables in one command (scripts/benchmarks.sh
# runs it to write BENCHMARKS.md): the `interleaved`
# example (pqkit and its peers in turn, round by round, in one process)
# built as a downstream user builds pqkit (`--profile downstream`: no LTO,
# 16 codegen units) and again with `-C target-cpu=native` (its own target
# directory), RUNS runs of each; on a CPU with AVX-512, also the
# downstream build with pqkit's AVX-512 kernels switched off
# (`PQKIT_BACKEND=avx2`, what an AVX2-only CPU runs). Raw outputs go to
# OUT (default target/interleaved); the last step prints the Markdown
# table (one column per run: pqkit / best peer µs, then the ratio of the
# fastest batches and the median over rounds of the per-round ratios).
#
#   bash scripts/bench-interleaved.sh [FILTER] [ROUNDS] [RUNS]
#
# FILTER and ROUNDS are the example's (all rows, 60 rounds by default);
# RUNS defaults to 2.
set -euo pipefail
cd "$(dirname "$0")/.."
filter=${1:-}
rounds=${2:-60}
runs=${3:-2}
out=${OUT:-target/interleaved}
# Where cargo puts the binaries: CARGO_TARGET_DIR when set (the native
# build in its native/ subfolder), as cargo itself does.
target=${CARGO_TARGET_DIR:-target}
mkdir -p "$out"
grep -m1 'model name' /proc/cpuinfo
cargo build -q --profile downstream -p pqkit-benches --example interleaved
RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR="$target/native" \
  cargo build -q --profile downstream -p pqkit-benches --example interleaved
builds=(downstream native)
if grep -q -m1 avx512f /proc/cpuinfo; then builds+=(avx512-off); fi
files=()
for b in "${builds[@]}"; do
  for r in $(seq "$runs"); do
    f="$out/$b-$r.txt"
    case $b in
      downstream) "$target"/downstream/examples/interleaved "$filter" "$rounds" > "$f" ;;
      native) "$target"/native/downstream/examples/interleaved "$filter" "$rounds" > "$f" ;;
      avx512-off) PQKIT_BACKEND=avx2 "$target"/downstream/examples/interleaved "$filter" "$rounds" > "$f" ;;
    esac
    echo "$b run $r: $f" >&2
    files+=("$f")
  done
done
python3 scripts/interleaved-table.py "${files[@]}"
