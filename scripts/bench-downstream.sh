#!/usr/bin/env bash
# The benches as a downstream user builds pqkit: the `downstream` profile
# (plain release: no LTO, 16 codegen units), once with the default target
# and once with `-C target-cpu=native` (its own target directory), each in
# one process beside the peer crates; then the default build again with
# pqkit's AVX-512 kernels switched off (`PQKIT_BACKEND=avx2`: what an
# AVX2-only CPU runs; the peers use no AVX-512 kernels here, and aws-lc
# runs the same with its AVX-512 CPUID bits masked). Prints criterion's
# lines for the rows named by FILTER (a regex; default: the rows of issue
# 18).
#
#   bash scripts/bench-downstream.sh [BENCH FILTER]...
#
# e.g. `bash scripts/bench-downstream.sh fn_dsa verify-64`. With no
# arguments: ML-KEM decapsulation and encapsulation from bytes and keygen,
# ML-DSA keygen / sign from bytes / verify from bytes, FN-DSA verification
# (one signature repeated, 64 distinct signatures, from public-key bytes),
# Saber keygen and decapsulation (decoded key and from sk bytes).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -eq 0 ]]; then
  set -- ml_kem 'keygen|from-bytes' ml_dsa 'keygen|sign-from-bytes|sign-hedged-from-bytes|verify-from-bytes|verify-64' \
    fn_dsa 'verify' saber 'keygen|decaps'
fi
grep -m1 'model name' /proc/cpuinfo
run() { # label, extra env...
  local label=$1; shift
  local args=("$@")
  local i=0
  while [[ $i -lt ${#ARGS[@]} ]]; do
    local bench=${ARGS[$i]} filter=${ARGS[$((i+1))]}
    echo "== $label: $bench /$filter/"
    env "${args[@]}" cargo bench -q --profile downstream -p pqkit-benches --bench "$bench" -- \
      --warm-up-time 1 --measurement-time 2 --noplot "$filter" 2>/dev/null |
      awk '/^Benchmarking/ { next }
           /time:/ { if ($0 ~ /^[^ ]/) { n = $0; sub(/ +time:.*/, "", n); name = n }
                     match($0, /\[[^]]*\]/); split(substr($0, RSTART + 1, RLENGTH - 2), a, " ")
                     print "  " name ": " a[3] " " a[4]; next }
           /^[^ ]/ { name = $0 }' || true
    i=$((i+2))
  done
}
ARGS=("$@")
run "downstream (no LTO, 16 CGU)" CARGO_TARGET_DIR=target
run "downstream, target-cpu=native" RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR=target/native
run "downstream, AVX-512 off (PQKIT_BACKEND=avx2)" CARGO_TARGET_DIR=target PQKIT_BACKEND=avx2
