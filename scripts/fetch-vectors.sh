#!/usr/bin/env bash
# Fetch the official test vectors listed in scripts/vectors.tsv from their
# origins into vectors/ (git-ignored), checking every file's sha256.
#
#   bash scripts/fetch-vectors.sh            download into vectors/
#   bash scripts/fetch-vectors.sh --check D  only check folder D against the manifest
#
# Options:
#   --dest DIR       where to put the vectors (default: vectors/ in the repository)
#   --manifest FILE  another manifest (default: scripts/vectors.tsv)
#   --check DIR      check that DIR holds every manifest file with its sha256
#
# PQKIT_VECTORS_BASE overrides where origins are read from (default
# https://raw.githubusercontent.com; a file:// URL reads a local mirror laid
# out as BASE/owner/repo/commit/path, which is how the tests exercise this
# script without a network). Rows whose origin is "pqkit" are copied from
# this repository.
#
# All or nothing: the files are fetched into a staging folder next to the
# destination, and the destination is replaced (with a SHA256SUMS of its
# own, which the tests take as the sign of a complete fetch) only when every
# file has arrived with the right sha256. Exit 0 on success, 1 when a file
# is missing or has the wrong sha256, 2 on a usage error.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
manifest=$repo/scripts/vectors.tsv
dest=$repo/vectors
check=
base=${PQKIT_VECTORS_BASE:-https://raw.githubusercontent.com}

usage() { sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while (($#)); do
  case $1 in
    --dest) dest=${2:?--dest needs a folder}; shift 2 ;;
    --manifest) manifest=${2:?--manifest needs a file}; shift 2 ;;
    --check) check=${2:?--check needs a folder}; shift 2 ;;
    -h|--help) usage ;;
    *) echo "fetch-vectors: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ -r $manifest ]] || { echo "fetch-vectors: no manifest at $manifest" >&2; exit 2; }

sha() { sha256sum "$1" | cut -d' ' -f1; }

# The manifest's rows, comments and blank lines left out.
rows() { grep -v -e '^#' -e '^[[:space:]]*$' "$manifest"; }

# Check one file against its expected sha256; print a line when it fails.
verify() { # file expected label
  if [[ ! -f $1 ]]; then
    echo "MISSING  $3"; return 1
  fi
  local got; got=$(sha "$1")
  if [[ $got != "$2" ]]; then
    echo "SHA256   $3: $got, manifest says $2"; return 1
  fi
}

if [[ -n $check ]]; then
  bad=0 n=0
  while IFS=$'\t' read -r file sum _; do
    n=$((n + 1))
    verify "$check/$file" "$sum" "$file" || bad=$((bad + 1))
  done < <(rows)
  echo "fetch-vectors: $((n - bad)) of $n files in $check match the manifest"
  ((bad == 0)) || exit 1
  exit 0
fi

command -v curl >/dev/null || { echo "fetch-vectors: curl is needed" >&2; exit 2; }
mkdir -p "$(dirname "$dest")"
stage=$(mktemp -d "$dest.partial.XXXXXX")
trap 'rm -rf "$stage"' EXIT
bad=0 n=0
while IFS=$'\t' read -r file sum origin commit path transform _licence; do
  n=$((n + 1))
  out=$stage/$file
  mkdir -p "$(dirname "$out")"
  if [[ $origin == pqkit ]]; then
    cp "$repo/$path" "$out" 2>/dev/null || true
  else
    url=$base/$origin/$commit/$path
    if ! curl -fsSL --retry 2 --connect-timeout 15 -o "$out.download" "$url"; then
      # Nothing is kept from an incomplete fetch, so stop at the first file
      # that cannot be had (an unreachable origin would otherwise cost a
      # timeout per file).
      echo "FETCH    $file: $url"
      echo "fetch-vectors: could not download $file; $dest left as it was" >&2
      exit 1
    fi
    case $transform in
      raw) mv "$out.download" "$out" ;;
      gunzip)
        if ! gzip -dc "$out.download" > "$out"; then
          echo "GUNZIP   $file: $url is not gzip data"; rm -f "$out"
        fi
        rm -f "$out.download" ;;
      *) echo "fetch-vectors: $file: unknown transform '$transform'" >&2; exit 2 ;;
    esac
  fi
  verify "$out" "$sum" "$file" || bad=$((bad + 1))
done < <(rows)

if ((bad)); then
  echo "fetch-vectors: $bad of $n files missing or wrong; $dest left as it was" >&2
  exit 1
fi
rows | awk -F'\t' '{ print $2 "  " $1 }' > "$stage/SHA256SUMS"
rm -rf "$dest"
mv "$stage" "$dest"
trap - EXIT
echo "fetch-vectors: $n files in $dest, every sha256 checked"
