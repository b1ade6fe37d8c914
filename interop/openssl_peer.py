#!/usr/bin/env python3
"""The OpenSSL side of pqkit's interop suite.

A small command with the same subcommands and flags as the `pqkit` CLI, backed
by pyca/cryptography (which bundles OpenSSL), so the tests can pair any two
implementations file by file:

    openssl_peer.py keygen ALG [--seed HEX] -o KEY.pem
    openssl_peer.py pubkey -i KEY.pem -o PUB.pem
    openssl_peer.py sign -k KEY.pem -i MSG -o SIG [--context HEX] [--mu]
    openssl_peer.py verify -p PUB.pem -i MSG -s SIG [--context HEX] [--mu]
    openssl_peer.py encap -p PUB.pem -o CT --secret-out SS
    openssl_peer.py decap -k KEY.pem -i CT -o SS
    openssl_peer.py algorithms

verify exits 0 (valid) or 1 (invalid); anything else exits 2.
"""

import argparse
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization as ser
from cryptography.hazmat.primitives.asymmetric import ed25519, mldsa, mlkem

PRIVATE = {
    "ml-kem-768": mlkem.MLKEM768PrivateKey,
    "ml-kem-1024": mlkem.MLKEM1024PrivateKey,
    "ml-dsa-44": mldsa.MLDSA44PrivateKey,
    "ml-dsa-65": mldsa.MLDSA65PrivateKey,
    "ml-dsa-87": mldsa.MLDSA87PrivateKey,
    "ed25519": ed25519.Ed25519PrivateKey,
}


def keygen(alg, seed):
    cls = PRIVATE.get(alg)
    if cls is None:
        raise SystemExit(f"openssl_peer: unsupported algorithm {alg}")
    if alg == "ed25519":
        return cls.from_private_bytes(seed) if seed is not None else cls.generate()
    return cls.from_seed_bytes(seed) if seed is not None else cls.generate()


def load_private(path):
    with open(path, "rb") as f:
        data = f.read()
    if data.lstrip().startswith(b"-----"):
        return ser.load_pem_private_key(data, password=None)
    return ser.load_der_private_key(data, password=None)


def load_public(path):
    with open(path, "rb") as f:
        data = f.read()
    if data.lstrip().startswith(b"-----"):
        return ser.load_pem_public_key(data)
    return ser.load_der_public_key(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def main(argv):
    p = argparse.ArgumentParser(prog="openssl_peer")
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("algorithms")
    k = sub.add_parser("keygen")
    k.add_argument("alg")
    k.add_argument("--seed")
    k.add_argument("-o", required=True)
    pk = sub.add_parser("pubkey")
    pk.add_argument("-i", required=True)
    pk.add_argument("-o", required=True)
    s = sub.add_parser("sign")
    s.add_argument("-k", required=True)
    s.add_argument("-i", required=True)
    s.add_argument("-o", required=True)
    s.add_argument("--context")
    s.add_argument("--mu", action="store_true")
    v = sub.add_parser("verify")
    v.add_argument("-p", required=True)
    v.add_argument("-i", required=True)
    v.add_argument("-s", required=True)
    v.add_argument("--context")
    v.add_argument("--mu", action="store_true")
    e = sub.add_parser("encap")
    e.add_argument("-p", required=True)
    e.add_argument("-o", required=True)
    e.add_argument("--secret-out", required=True)
    d = sub.add_parser("decap")
    d.add_argument("-k", required=True)
    d.add_argument("-i", required=True)
    d.add_argument("-o", required=True)
    a = p.parse_args(argv)

    if a.cmd == "algorithms":
        print("\n".join(PRIVATE))
        return 0
    if a.cmd == "keygen":
        seed = bytes.fromhex(a.seed) if a.seed else None
        key = keygen(a.alg, seed)
        write(a.o, key.private_bytes(ser.Encoding.PEM, ser.PrivateFormat.PKCS8, ser.NoEncryption()))
        return 0
    if a.cmd == "pubkey":
        pub = load_private(a.i).public_key()
        write(a.o, pub.public_bytes(ser.Encoding.PEM, ser.PublicFormat.SubjectPublicKeyInfo))
        return 0
    if a.cmd == "sign":
        key = load_private(a.k)
        msg = read(a.i)
        ctx = bytes.fromhex(a.context) if a.context else None
        if isinstance(key, ed25519.Ed25519PrivateKey):
            if ctx or a.mu:
                raise SystemExit("openssl_peer: Ed25519ctx/mu not supported here")
            sig = key.sign(msg)
        elif a.mu:
            sig = key.sign_mu(msg)
        else:
            sig = key.sign(msg, ctx) if ctx else key.sign(msg)
        write(a.o, sig)
        return 0
    if a.cmd == "verify":
        pub = load_public(a.p)
        msg, sig = read(a.i), read(a.s)
        ctx = bytes.fromhex(a.context) if a.context else None
        try:
            if isinstance(pub, ed25519.Ed25519PublicKey):
                pub.verify(sig, msg)
            elif a.mu:
                pub.verify_mu(sig, msg)
            else:
                pub.verify(sig, msg, ctx) if ctx else pub.verify(sig, msg)
        except InvalidSignature:
            print("invalid")
            return 1
        print("valid")
        return 0
    if a.cmd == "encap":
        ss, ct = load_public(a.p).encapsulate()
        write(a.o, ct)
        write(a.secret_out, ss)
        return 0
    if a.cmd == "decap":
        write(a.o, load_private(a.k).decapsulate(read(a.i)))
        return 0
    return 2


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except SystemExit:
        raise
    except Exception as exc:  # one line, exit 2, like pqkit
        print(f"openssl_peer: error: {exc}", file=sys.stderr)
        sys.exit(2)
