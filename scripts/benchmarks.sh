#!/usr/bin/env bash
# BENCHMARKS.md in one command, from one run: the speed tables of
# scripts/bench-interleaved.sh (pqkit beside the best peer, downstream and
# native builds, and with AVX-512 off where the CPU has it) and the peak
# stack table of scripts/stack-probe.sh (needs valgrind), each stamped with
# CPU, commit, date and build by scripts/benchmarks-md.py.
#
#   bash scripts/benchmarks.sh [FILTER] [ROUNDS] [RUNS]
#   bash scripts/benchmarks.sh --from DIR
#   bash scripts/benchmarks.sh --lean
#   bash scripts/benchmarks.sh --wasm
#   bash scripts/benchmarks.sh --aarch64
#   bash scripts/benchmarks.sh --slh-dsa
#
# FILTER, ROUNDS and RUNS are passed to bench-interleaved.sh (all rows, 60
# rounds, 2 runs of each build by default). The build-cost table comes from
# scripts/lean-build.sh (crates in each default tree, cold build times);
# `--lean` measures only that table again, into the saved raw outputs, and
# re-renders; tables it has no raw outputs for are kept as they are. The WebAssembly table is pqkit-wasm beside noble-post-quantum
# in Node and headless Chromium (scripts/wasm.sh --bench); `--wasm`
# re-measures only that one. The raw outputs are kept in
# BENCHMARKS_RAW (default target/benchmarks; emptied first), so that
# `--from DIR` re-renders BENCHMARKS.md from them without measuring again.
# The whole run takes a long time and wants a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ ${1:-} == --from ]]; then
  raw=${2:?usage: bash scripts/benchmarks.sh --from DIR}
  python3 scripts/benchmarks-md.py "$raw" > BENCHMARKS.md.tmp
  mv BENCHMARKS.md.tmp BENCHMARKS.md
  echo "BENCHMARKS.md re-rendered from $raw" >&2
  exit 0
fi

now() { date -u '+%Y-%m-%d %H:%M UTC'; }
# The commit measured; "-dirty" if tracked files differ from it (a
# BENCHMARKS.md left by an earlier run does not count).
commit=$(git rev-parse --short HEAD)
if [[ -n $(git status --porcelain --untracked-files=no -- . ':(exclude)BENCHMARKS.md') ]]; then
  commit+=-dirty
fi
# The build-cost table into $1, with its date and commit in $1/meta.txt.
lean_table() {
  local raw=$1
  sed -i '/^lean_date:/d; /^lean_commit:/d' "$raw/meta.txt" 2>/dev/null || true
  { echo "lean_date: $(now)"; echo "lean_commit: $commit"; } >> "$raw/meta.txt"
  bash scripts/lean-build.sh > "$raw/lean-build.md"
}

# The WebAssembly table into $1, with its date and commit in $1/meta.txt.
wasm_table() {
  local raw=$1
  sed -i '/^wasm_date:/d; /^wasm_commit:/d' "$raw/meta.txt" 2>/dev/null || true
  { echo "wasm_date: $(now)"; echo "wasm_commit: $commit"; } >> "$raw/meta.txt"
  bash scripts/wasm.sh --bench > "$raw/wasm-bench.md"
}

# The aarch64 instruction counts into $1 (scripts/aarch64.sh --count:
# qemu, not a timing), with their date and commit in $1/meta.txt.
aarch64_table() {
  local raw=$1
  sed -i '/^aarch64_date:/d; /^aarch64_commit:/d' "$raw/meta.txt" 2>/dev/null || true
  { echo "aarch64_date: $(now)"; echo "aarch64_commit: $commit"; } >> "$raw/meta.txt"
  bash scripts/aarch64.sh --count > "$raw/aarch64-count.md"
}

# The SLH-DSA tables into $1 (pqkit-slh-dsa's peers example, and the
# SLH-DSA rows of the stack probe), with their date and commit in
# $1/meta.txt: what a downstream `--release` build gets, the same with
# AVX-512 kept off (PQKIT_BACKEND=avx2: the kernels of an AVX2-only CPU
# with the SHA extensions), and `-C target-cpu=native`.
slh_dsa_table() {
  local raw=$1 out=$1/slh-dsa-peers.md
  sed -i '/^slh_dsa_date:/d; /^slh_dsa_commit:/d' "$raw/meta.txt" 2>/dev/null || true
  { echo "slh_dsa_date: $(now)"; echo "slh_dsa_commit: $commit"; } >> "$raw/meta.txt"
  cargo build -q --profile downstream -p pqkit-slh-dsa --example peers
  local bin=${CARGO_TARGET_DIR:-target}/downstream/examples/peers
  {
    echo "Downstream build (\`--profile downstream\`: no LTO, 16 codegen units):"
    "$bin"
    echo "Downstream build, AVX-512 off (\`PQKIT_BACKEND=avx2\`):"
    PQKIT_BACKEND=avx2 "$bin"
  } > "$out"
  CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target}/native RUSTFLAGS="-C target-cpu=native" \
    cargo build -q --profile downstream -p pqkit-slh-dsa --example peers
  {
    echo "Downstream build with \`-C target-cpu=native\`:"
    "${CARGO_TARGET_DIR:-target}/native/downstream/examples/peers"
    cargo build -q --profile release -p pqkit-benches --bin stack_probe
    echo "Beside PQClean's SPHINCS+ 3.1, AVX2 (a timing peer: same parameters and trees, not FIPS 205's outputs; \`benches/examples/slh_dsa_pqclean.rs\`), downstream build:"
    cargo run -q --profile downstream -p pqkit-benches --example slh_dsa_pqclean
    echo "Peak stack in bytes (\`scripts/stack-probe.sh\`, massif; the peers' rows decode the key bytes first):"
    echo "| operation | peak stack (B) | whole process (B) |"
    echo "|---|---|---|"
    bash scripts/stack-probe.sh $("${CARGO_TARGET_DIR:-target}/release/stack_probe" list | grep slh-dsa) |
      awk 'NR > 1 { printf "| %s | %s | %s |\n", $1, $2, $3 }'
  } >> "$out"
}

# --lean / --wasm / --aarch64 / --slh-dsa: measure that one table again into the saved
# raw outputs and re-render.
case ${1:-} in
  --lean | --wasm | --aarch64 | --slh-dsa)
    raw=${BENCHMARKS_RAW:-target/benchmarks}
    mkdir -p "$raw"
    # The machine's facts, where no full run left them.
    grep -q '^cpu:' "$raw/meta.txt" 2>/dev/null || {
      echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
      echo "avx512: $(grep -q -m1 avx512f /proc/cpuinfo && echo yes || echo no)"
      echo "rustc: $(rustc --version)"
    } >> "$raw/meta.txt"
    table=${1#--}
    "${table//-/_}_table" "$raw"
    # Tables whose raw outputs are not in $raw stay as BENCHMARKS.md has them.
    python3 scripts/benchmarks-md.py "$raw" --keep BENCHMARKS.md > BENCHMARKS.md.tmp
    mv BENCHMARKS.md.tmp BENCHMARKS.md
    echo "BENCHMARKS.md re-rendered with a new ${1#--} table" >&2
    exit 0
    ;;
esac

command -v valgrind >/dev/null || {
  echo "benchmarks.sh: valgrind is needed for the stack table (bash scripts/install-deps.sh)" >&2
  exit 2
}

raw=${BENCHMARKS_RAW:-target/benchmarks}
rm -rf "$raw"
mkdir -p "$raw/interleaved"

avx512=no
grep -q -m1 avx512f /proc/cpuinfo && avx512=yes
args=""
if (($#)); then args=$(printf ' %q' "$@"); fi
{
  echo "command: bash scripts/benchmarks.sh$args"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "avx512: $avx512"
  echo "commit: $commit"
  echo "rustc: $(rustc --version)"
  echo "interleaved_date: $(now)"
} > "$raw/meta.txt"

OUT="$raw/interleaved" bash scripts/bench-interleaved.sh "$@" > "$raw/interleaved-table.md"

echo "stack_date: $(now)" >> "$raw/meta.txt"
bash scripts/stack-probe.sh > "$raw/stack-probe.txt"

lean_table "$raw"
wasm_table "$raw"
aarch64_table "$raw"
slh_dsa_table "$raw"

python3 scripts/benchmarks-md.py "$raw" > BENCHMARKS.md.tmp
mv BENCHMARKS.md.tmp BENCHMARKS.md
echo "BENCHMARKS.md written (raw outputs in $raw)" >&2
