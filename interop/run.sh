#!/usr/bin/env bash
# The cross-implementation suite: pqkit's CLI against OpenSSL (through
# pyca/cryptography) and Go's standard library, through files.
# Installs its own peers: a Python venv in interop/.venv and the Go peer.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
venv="$here/.venv"
if [[ ! -x "$venv/bin/python" ]]; then
  python3 -m venv "$venv"
fi
"$venv/bin/pip" install -q --disable-pip-version-check -r "$here/requirements.txt"
(cd "$root" && cargo build -q --release -p pqkit)
mkdir -p "$here/work"
(cd "$here/go" && go build -o "$here/work/gopeer" .)
export PQKIT_BIN="$root/target/release/pqkit"
export GOPEER_BIN="$here/work/gopeer"
export OPENSSL_PEER="$here/openssl_peer.py"
export PEER_PYTHON="$venv/bin/python"
cd "$here"
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider "$@" test_interop.py
