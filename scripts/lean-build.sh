#!/usr/bin/env bash
# What a user pays to depend on each pqkit algorithm crate, beside its
# RustCrypto (or reference) peer: for a fresh downstream crate with the
# default features, the number of crates in the dependency tree, whether a
# proc macro is among them, and the cold `cargo build --release` time.
#
#   bash scripts/lean-build.sh            # the markdown table on stdout
#   bash scripts/lean-build.sh --check    # tree sizes only, against
#                                         # scripts/lean-build-limits.txt
#
# --check builds nothing (cargo tree only) and exits 1 when a pqkit crate's
# default tree has more crates than its line in the limits file, so a
# dependency cannot creep into the default build unnoticed. Build times
# want a quiet machine; each crate is built in its own empty target
# directory with CARGO_BUILD_JOBS unset (all cores), alternating with its
# peer, and the fastest of LEAN_ROUNDS (3) builds is reported.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=${LEAN_BUILD_DIR:-$root/target/lean-build}

# ours|peer (a crates.io requirement) pairs.
pairs=(
  "pqkit-ml-kem|ml-kem@0.3.4"
  "pqkit-ml-dsa|ml-dsa@0.1.2"
  "pqkit-slh-dsa|slh-dsa@0.2.0-rc.5"
  "pqkit-fn-dsa|fn-dsa@0.4.0"
  "pqkit-saber|pqcrypto-saber@0.1.11"
  "pqkit-ed25519|ed25519-dalek@3.0.0"
  "pqkit-x25519|x25519-dalek@3.0.0"
  "pqkit-hybrid|x-wing@0.1.1"
)

folder_of() {
  case $1 in
    pqkit-ml-kem) echo ml-kem ;;
    pqkit-ml-dsa) echo ml-dsa ;;
    pqkit-slh-dsa) echo slh-dsa ;;
    pqkit-fn-dsa) echo fn-dsa ;;
    pqkit-saber) echo saber ;;
    pqkit-ed25519) echo ed25519 ;;
    pqkit-x25519) echo x25519 ;;
    pqkit-hybrid) echo hybrid ;;
  esac
}

# A fresh crate depending on $1 (a pqkit crate name or name@version).
make_crate() {
  local dep=$1 dir=$2
  rm -rf "$dir"
  mkdir -p "$dir/src"
  echo 'fn main() {}' > "$dir/src/main.rs"
  local line
  if [[ $dep == *@* ]]; then
    line="${dep%@*} = \"=${dep#*@}\""
  else
    line="$dep = { path = \"$root/$(folder_of "$dep")\" }"
  fi
  # The workspace's lock file: the versions CI and the benches use, so the
  # count changes with pqkit's dependencies, not with upstream releases.
  cp "$root/Cargo.lock" "$dir/Cargo.lock"
  cat > "$dir/Cargo.toml" <<EOF
[package]
name = "downstream"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
$line

[workspace]
EOF
}

# Crates in the normal (not dev, not build-only) default tree, the crate
# itself and the downstream crate excluded; and the proc macros among them.
tree_count() {
  (cd "$1" && cargo tree -q -e normal,build --prefix none 2>/dev/null) |
    sed 's/ (\*)$//; s/ (proc-macro)$/ proc-macro/' | grep -v '^downstream ' | sort -u |
    awk '{n++} / proc-macro$/ {m = m (m ? ", " : "") $1} END {printf "%d %s\n", n - 1, (m ? m : "-")}'
}

# One cold release build of the crate in $1: seconds, to a tenth.
build_seconds() {
  local dir=$1
  rm -rf "$dir/target"
  local start end
  start=$(date +%s.%N)
  # A failed build must not be timed as a fast one.
  if ! (cd "$dir" && CARGO_TARGET_DIR="$dir/target" cargo build -q --release 2>"$dir/build.log"); then
    echo "lean-build: cargo build failed in $dir:" >&2
    tail -20 "$dir/build.log" >&2
    return 1
  fi
  end=$(date +%s.%N)
  echo "$start $end" | awk '{printf "%.1f\n", $2 - $1}'
}

# The smaller of two numbers.
min() { echo "$1 $2" | awk '{print ($1 < $2 ? $1 : $2)}'; }

mkdir -p "$work"
if [[ ${1:-} == --check ]]; then
  limits=scripts/lean-build-limits.txt
  status=0
  while read -r crate max; do
    [[ -z $crate || $crate == \#* ]] && continue
    make_crate "$crate" "$work/$crate"
    read -r n _ < <(tree_count "$work/$crate")
    if ((n > max)); then
      echo "lean-build: $crate's default tree has $n crates, over its limit $max ($limits)" >&2
      status=1
    else
      echo "lean-build: $crate: $n crates (limit $max)"
    fi
  done < "$limits"
  exit $status
fi

echo "| crate | crates in the default tree | proc macros | cold release build (s) | peer | its crates | its proc macros | its build (s) |"
echo "|---|---|---|---|---|---|---|---|"
for pair in "${pairs[@]}"; do
  ours=${pair%%|*} peer=${pair#*|}
  make_crate "$ours" "$work/$ours"
  make_crate "$peer" "$work/peer-${peer%@*}"
  read -r n m < <(tree_count "$work/$ours")
  read -r pn pm < <(tree_count "$work/peer-${peer%@*}")
  # Ours and the peer alternately, LEAN_ROUNDS times (default 3), the
  # fastest of each: on a shared machine single builds vary by seconds.
  t=9999 pt=9999
  for ((r = 0; r < ${LEAN_ROUNDS:-3}; r++)); do
    s=$(build_seconds "$work/$ours")
    t=$(min "$t" "$s")
    s=$(build_seconds "$work/peer-${peer%@*}")
    pt=$(min "$pt" "$s")
  done
  echo "| \`$ours\` | $n | $m | $t | \`${peer%@*}\` ${peer#*@} | $pn | $pm | $pt |"
done
