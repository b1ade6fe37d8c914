#!/usr/bin/env bash
# The cross-implementation suite: pqkit's CLI against OpenSSL (through
# pyca/cryptography), Go (its standard library, and Cloudflare CIRCL for
# SLH-DSA) and Bouncy Castle (its JCA provider and its JSSE provider),
# through files and loopback TLS. Installs its own peers: a Python venv in
# interop/.venv, the Go peer (its modules from the Go module proxy), and the
# Bouncy Castle jars (Maven Central) for the Java peers. `verify-cert
# --purpose any` is also compared with the openssl command's `openssl
# verify`, which must be on PATH.
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
# Bouncy Castle 1.84: the newest release whose bctls Maven Central serves
# here (ML-KEM groups and ML-DSA signature schemes in TLS 1.3); its
# composite ML-DSA is the draft version pqkit implements, and it has
# SLH-DSA and HashSLH-DSA for all twelve sets (test_interop.py).
bc=1.84
jars="$here/work/jars-$bc"
if [[ ! -f "$jars/bctls-jdk18on-$bc.jar" ]]; then
  mkdir -p "$jars"
  for a in bcprov bcutil bcpkix bctls; do
    mvn -q -B dependency:copy -Dartifact="org.bouncycastle:$a-jdk18on:$bc" -DoutputDirectory="$jars"
  done
fi
mkdir -p "$here/work/java"
javac -nowarn -cp "$jars/*" -d "$here/work/java" "$here/java/TlsPeer.java" "$here/java/XWingPeer.java" \
  "$here/java/CompositePeer.java" "$here/java/SlhDsaPeer.java" "$here/java/PeerPki.java"
export JAVA_PEER_CP="$here/work/java:$jars/*"
export PQKIT_BIN="$root/target/release/pqkit"
export GOPEER_BIN="$here/work/gopeer"
export OPENSSL_PEER="$here/openssl_peer.py"
export PEER_PYTHON="$venv/bin/python"
cd "$here"
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider "$@" test_interop.py
