#!/usr/bin/env bash
# pqkit on aarch64 (issue 41), under qemu user-mode emulation:
#   1. the no_std build of every algorithm crate for aarch64-unknown-none;
#   2. the tests of the crates given (default: pqkit-common, the lattice
#      and curve crates, whose kernels the NEON backend accelerates, and
#      pqkit-slh-dsa, whose SHAKE sets take the NEON Keccak) for
#      aarch64-unknown-linux-gnu, run by qemu-aarch64: once with the best
#      backend (NEON; pqkit-common's tests compare each NEON kernel with
#      the portable one bit for bit) and once with PQKIT_BACKEND=portable.
# Emulated timings mean nothing: nothing here measures speed.
#
#   bash scripts/aarch64.sh                       # the default crates
#   bash scripts/aarch64.sh pqkit-common          # only these crates
#   bash scripts/aarch64.sh --count               # instructions per kernel
#
# --count builds common/examples/kernels.rs (--release) and, for every
# kernel on the portable and the NEON backend, counts the instructions
# qemu executes (one per translated block with -singlestep, each block
# logged with -d exec,nochain) for 1 and for 11 calls: the difference over
# 10 is the count per call, printed as a markdown table (BENCHMARKS.md's
# aarch64 section, scripts/benchmarks.sh --aarch64). A count is not a
# time: it ignores latencies, dual issue and memory, but shows what a
# kernel saves until someone measures on hardware.
#
# Needs the aarch64 Rust targets (added here with rustup), qemu-user and an
# aarch64 linker: on Debian, `apt-get install qemu-user
# gcc-aarch64-linux-gnu libc6-dev-arm64-cross` (scripts/install-deps.sh
# installs them). scripts/test.sh runs it with the default crates.
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

# The technique of each kernel's NEON form (common/src/neon_i16.rs,
# common/src/q*/neon.rs, common/src/keccak/neon.rs).
declare -A technique=(
  ["q3329 ntt + inverse"]="i16 lanes: Montgomery products by constants as SQDMULH, SQDMULH, SHSUB with b qinv precomputed; Barrett as SQDMULH, shift, SRSHR, MLS; ZIP/UZP for the small layers"
  ["q3329 base multiplication"]="products of two unknowns from the widening SMULL/SMULL2, Montgomery reduction of the 32-bit lanes, pairs regrouped by UZP"
  ["q3329 rejection sampling (168 B)"]="TBL gathers eight 12-bit candidates, a compare gives an 8-bit mask, TBL with the mask's row of a compaction table packs the accepted lanes"
  ["q3329 CBD eta = 2"]="bit-pair sums by masks and shifts in byte lanes, differences, fixed ZIP permutations back to coefficient order"
  ["q3329 compress + encode, d = 10"]="Barrett to canonical, f32 multiply by 1/2q (exact on this range) and FCVTZU, packing by SLI in 32- and 64-bit lanes"
  ["q3329 decode + decompress, d = 10"]="TBL gathers each value's bytes into a 32-bit lane, USHL and a mask extract it, UZP1 narrows, SQRDMULH by q rounds"
  ["q3329 compress + encode, d = 4"]="Barrett to canonical, SQDMULH by C/2 for the rounded quotient, packing by SLI"
  ["q3329 decode + decompress, d = 4"]="as for d = 10"
  ["q8380417 ntt + inverse"]="i32 lanes: Montgomery products by constants as SQDMULH, SQDMULH, SHSUB (the i16 technique on i32), ZIP/UZP for the small layers"
  ["q8380417 pointwise product"]="widening SMULL/SMULL2 to 64-bit lanes, Montgomery reduction, UZP back"
  ["q8380417 rejection sampling (168 B)"]="TBL gathers eight 23-bit candidates into 32-bit lanes, a compare gives a mask, a 16-entry compaction table packs the accepted lanes"
  ["q8380417 eta = 2 sampling (136 B)"]="nibbles to 16-bit lanes by ZIP, a compare, t mod 5 by multiply-shift, TBL with the shared 8-lane compaction table"
  ["q8380417 decompose, gamma2 = (q - 1) / 32"]="none needed: LLVM vectorises the portable loop (four i32 lanes, the multiply-shift reciprocal)"
  ["q8380417 make hint"]="none needed: LLVM vectorises the portable loop (compares and masks)"
  ["q8380417 use hint"]="none needed: LLVM vectorises the portable loop (decompose, then selects)"
  ["q8380417 power2round"]="none needed: LLVM vectorises the portable loop"
  ["q8380417 norm check"]="none needed: LLVM vectorises the portable loop (absolute values OR-ed, no early exit)"
  ["q12289 ntt + inverse, n = 512"]="the q3329 i16 engine with q = 12289"
  ["mp31 ntt + inverse, n = 512"]="u32 lanes holding values below 2^31: signed Montgomery products SQDMULH, SQDMULH, SHSUB with b p^-1 per root, corrections by unsigned minimum, ZIP/UZP for the last layers"
  ["mp31 Montgomery multiply-accumulate, n = 512"]="the same Montgomery product, then an addition corrected by unsigned minimum"
  ["mp31 fixed-point FFT group + inverse, 256 butterflies"]="none: scalar MUL, SMULH, EXTR is the 32.32 product; a two-lane NEON form (commit 9c30ea6: UMULL/UMLAL/USRA on 32-bit halves, sign correction by MLA) counted 15611 instructions against the scalar 14007, so NEON runs the portable one"
  ["mp31 fixed-point complex product, n = 256"]="none: as for the FFT group, the two-lane NEON form counted 7564 against 5996"
  ["Saber unpack, 13 bits"]="none: a NEON gather (TBL, USHL, mask, UZP1, as for decompression) counted more instructions than the portable unpacker (626 against 610), so NEON runs the portable one"
  ["X25519 ladder"]="no vector lanes: the 4 x 64-bit field (common/src/curve25519/fe4.rs), 16 MUL/UMULH pairs per product and ADDS/ADCS carries, against portable's 5 x 51-bit limbs (25 pairs); as the AVX2 backend's MULX/ADX field on x86-64"
  ["Ed25519 base multiplication"]="as for the X25519 ladder: the 4 x 64-bit field under the same fixed-base table"
  ["Keccak-f[1600] one state"]="with FEAT_SHA3: the two-way permutation of the x4 kernel with the state in one half and a copy in the other; without it the scalar permutation (BIC, EOR with a rotated operand)"
  ["Keccak-f[1600] x4"]="two two-way permutations on uint64x2_t, compiled with FEAT_SHA3 (EOR3, BCAX, XAR, RAX1) where the CPU has it (qemu's default CPU does)"
)

if [[ ${1:-} == --count ]]; then
  cargo build -q --release -p pqkit-common --example kernels --target aarch64-unknown-linux-gnu
  exe=target/aarch64-unknown-linux-gnu/release/examples/kernels
  log=$(mktemp)
  trap 'rm -f "$log"' EXIT
  # Instructions executed by the whole process for REPS calls.
  count() {
    # The portable column runs with PQKIT_BACKEND=portable: the one-state
    # Keccak picks its permutation by CPU, not by backend.
    local limit=""
    [[ $2 == portable ]] && limit=portable
    PQKIT_BACKEND=$limit qemu-aarch64 -L /usr/aarch64-linux-gnu -singlestep -d exec,nochain \
      -D "$log" "$exe" --count "$1" "$2" "$3"
    grep -c '^Trace' "$log"
  }
  echo "| kernel | portable (instructions per call) | NEON | portable / NEON | NEON technique |"
  echo "|---|---|---|---|---|"
  while IFS= read -r k; do
    declare -A per=()
    for b in portable neon; do
      one=$(count "$k" "$b" 1)
      eleven=$(count "$k" "$b" 11)
      per[$b]=$(((eleven - one) / 10))
    done
    ratio=$(awk -v p="${per[portable]}" -v n="${per[neon]}" 'BEGIN { printf "%.2fx", p / n }')
    echo "| $k | ${per[portable]} | ${per[neon]} | $ratio | ${technique[$k]:-} |"
  done < <(qemu-aarch64 -L /usr/aarch64-linux-gnu "$exe" --list)
  exit 0
fi

step "no_std build (aarch64-unknown-none)"
for p in pqkit-common pqkit-ml-kem pqkit-ml-dsa pqkit-slh-dsa pqkit-fn-dsa pqkit-saber pqkit-ed25519 pqkit-x25519; do
  cargo build -q -p "$p" --no-default-features --target aarch64-unknown-none
done

crates=("$@")
((${#crates[@]})) || crates=(pqkit-common pqkit-ml-kem pqkit-ml-dsa pqkit-slh-dsa pqkit-fn-dsa pqkit-saber pqkit-ed25519 pqkit-x25519)
args=()
for c in "${crates[@]}"; do args+=(-p "$c"); done

# Left out under emulation, each for a reason (said in the log):
#   - in both runs, FN-DSA's measured_rejections: the signing algorithm's
#     rejection statistics over 10^5 signatures (143 s under qemu). It
#     tests no kernel, and runs natively in scripts/test.sh (ignored on
#     wasm for the same reason).
#   - with the portable backend, the brute-force tests whose code is the
#     same portable code the x86 portable run checks in full:
#     single_bit_flips_fail_* (every bit of an ML-DSA signature flipped,
#     150 s) and field_operations_exhaustive (30 s).
#   - SLH-DSA's sigGen prompts and differential runs against the peer
#     crates (minutes of portable SHA-2 under qemu; they run natively),
#     and in the portable run its ACVP keyGen (slh_acvp_keygen, 92 s; the NEON run keeps
#     it, and aarch64 has no SHA-2 kernel of its own, so SHA2 sets take
#     the same portable code in both runs).
skip_both=(--skip algo::sign::tests::measured_rejections --skip slh_acvp_siggen --skip slh_differential_)
skip_portable=(--skip single_bit_flips_fail --skip field_operations_exhaustive --skip slh_acvp_keygen)

step "tests on aarch64: build (${crates[*]})"
# One build; its test binaries run twice, each in its package's folder as
# cargo runs it (the doctests are not cross-run; they run natively).
bins=$(cargo test -q "${args[@]}" --all-features --profile test-release \
  --target aarch64-unknown-linux-gnu --no-run --message-format=json 2>/dev/null |
  python3 scripts/test-binaries.py "${crates[@]}")
# run_all LABEL LIMIT ARGS...: every test binary with PQKIT_BACKEND=LIMIT
# (empty: the best backend).
run_all() {
  local label=$1 limit=$2
  shift 2
  while IFS=$'\t' read -r dir exe; do
    echo "$label: ${exe#"$PWD"/}"
    (cd "$dir" && PQKIT_BACKEND=$limit qemu-aarch64 -L /usr/aarch64-linux-gnu "$exe" -q "$@")
  done <<< "$bins"
}

step "tests on aarch64 under qemu (best backend: NEON)"
echo "left out under emulation: ${skip_both[*]}"
run_all neon "" "${skip_both[@]}"

step "tests on aarch64 under qemu (PQKIT_BACKEND=portable)"
echo "left out under emulation: ${skip_both[*]} ${skip_portable[*]}"
run_all portable portable "${skip_both[@]}" "${skip_portable[@]}"
