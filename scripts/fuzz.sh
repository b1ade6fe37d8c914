#!/usr/bin/env bash
# Coverage-guided fuzzing of every target in fuzz/fuzzers (cargo-fuzz,
# libFuzzer, AddressSanitizer), SECONDS each (default 60), one after the
# other, each starting from its corpus in fuzz/corpus/<target> (new inputs
# are added there). Installs the nightly toolchain and cargo-fuzz if
# missing.
#
#   bash scripts/fuzz.sh [SECONDS] [TARGET...]
#
# A crash (a panic: a broken property; or a sanitizer report) stops the
# run with status 1; its input is copied to fuzz/regressions/<target>/,
# where `cargo test -p pqkit-fuzz` replays it on stable: commit it with
# the fix. Per target the last line of libFuzzer's statistics is printed
# (executions, coverage, corpus size).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  targets=(keys verify decaps kernels cli)
fi

if ! rustup toolchain list | grep -q '^nightly'; then
  rustup toolchain install nightly --profile minimal
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi

cargo +nightly fuzz build --fuzz-dir fuzz/fuzzers

status=0
for t in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$t"
  log=$(mktemp)
  set +e
  cargo +nightly fuzz run --fuzz-dir fuzz/fuzzers "$t" "fuzz/corpus/$t" -- \
    -max_total_time="$secs" -print_final_stats=1 -timeout=30 >"$log" 2>&1
  rc=$?
  set -e
  execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo '?')
  cov=$(grep -E '^#[0-9]+' "$log" | grep -oE 'cov: [0-9]+' | tail -1 || true)
  corp=$(find "fuzz/corpus/$t" -type f | wc -l)
  if [[ $rc -eq 0 ]]; then
    echo "fuzz $t: ok, ${secs}s, $execs executions, ${cov:-cov: ?}, corpus $corp"
  else
    echo "fuzz $t: FAILED (status $rc)"
    grep -E "panicked|ERROR|SUMMARY|Test unit written" "$log" | head -20
    mkdir -p "fuzz/regressions/$t"
    for a in fuzz/fuzzers/artifacts/"$t"/*; do
      [[ -f $a ]] && cp "$a" "fuzz/regressions/$t/" && echo "  kept $a in fuzz/regressions/$t/"
    done
    status=1
  fi
  rm -f "$log"
done
exit $status
