#!/usr/bin/env bash
# Constant-time check (TIMECOP method): run every case of pqkit-ctcheck under
# valgrind memcheck with secrets marked undefined. A case passes when memcheck
# reports nothing; the `leaky-*` negative controls must be reported.
# Exit status 0 only if every real case is clean and every control is caught.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "ct-check: valgrind not installed" >&2; exit 2; }
cargo build -q --profile release -p pqkit-ctcheck
bin=target/release/pqkit-ctcheck
# Valgrind runs MULX/ADCX/ADOX but hides ADX from CPUID: where the CPU has
# it, tell the cases to take the curve25519 BMI2/ADX field anyway, so that
# the code users get is the code checked.
if "$bin" cpu-has-adx 2>/dev/null; then
  export PQKIT_CT_ASSUME_ADX=1
  echo "ct-check: BMI2/ADX present: curve25519 cases run the Fe64 field"
fi
pass=0; fail=0
for case in $("$bin" list); do
  log=$(mktemp)
  set +e
  valgrind -q --error-exitcode=99 --track-origins=yes --exit-on-first-error=no \
    "$bin" "$case" >"$log" 2>&1
  rc=$?
  set -e
  errors=$(grep -c "depends on uninitialised\|Use of uninitialised" "$log" || true)
  if [[ $case == leaky-* ]]; then
    if [[ $rc -eq 99 && $errors -gt 0 ]]; then
      echo "ok    $case (negative control flagged: $errors reports)"; pass=$((pass+1))
    else
      echo "FAIL  $case: negative control NOT flagged (rc=$rc)"; cat "$log"; fail=$((fail+1))
    fi
  else
    if [[ $rc -eq 0 ]]; then
      echo "ok    $case"; pass=$((pass+1))
    else
      echo "FAIL  $case (rc=$rc, $errors reports):"; head -60 "$log"; fail=$((fail+1))
    fi
  fi
  rm -f "$log"
done
echo "ct-check: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
