"""pqkit against OpenSSL (pyca/cryptography), Go (its standard library and
Cloudflare CIRCL) and Bouncy Castle, through files and loopback TLS.

Every implementation is driven as a command, the way a user would: keys go
through PKCS#8 / SPKI PEM files, messages, signatures, ciphertexts and shared
secrets through raw files. Tests are generated for each algorithm that pqkit
implements (`pqkit algorithms`) and that the peer supports; the peer-vs-peer
tests check the harness itself.
"""

import base64
import os
import subprocess

import pytest
from cryptography.hazmat.primitives import serialization as ser
from cryptography.hazmat.primitives.asymmetric import mldsa

PQKIT = [os.environ["PQKIT_BIN"]]
OPENSSL = [os.environ["PEER_PYTHON"], os.environ["OPENSSL_PEER"]]
GOPEER = os.environ["GOPEER_BIN"]

IMPLS = {"pqkit": PQKIT, "openssl": OPENSSL}


def run(argv, expect=0):
    p = subprocess.run(argv, capture_output=True, timeout=120)
    assert p.returncode == expect, (
        f"{argv} exited {p.returncode}, expected {expect}\n"
        f"stdout: {p.stdout.decode(errors='replace')}\nstderr: {p.stderr.decode(errors='replace')}"
    )
    return p


def algorithms(impl):
    return set(run(IMPLS[impl] + ["algorithms"]).stdout.decode().split())


PQKIT_ALGS = algorithms("pqkit")
OPENSSL_ALGS = algorithms("openssl")
KEM_ALGS = [a for a in ("ml-kem-768", "ml-kem-1024") if a in PQKIT_ALGS]
SIG_ALGS = [a for a in ("ml-dsa-44", "ml-dsa-65", "ml-dsa-87", "ed25519") if a in PQKIT_ALGS]
MLDSA_ALGS = [a for a in SIG_ALGS if a.startswith("ml-dsa")]
PAIRS = [("pqkit", "openssl"), ("openssl", "pqkit")]
SEED_LEN = {"ml-kem-768": 64, "ml-kem-1024": 64, "ml-dsa-44": 32, "ml-dsa-65": 32,
            "ml-dsa-87": 32, "ed25519": 32}


def generated_only_if(cases):
    """Parametrize over `cases`; an empty list defines no test at all
    (instead of a skipped one) for algorithms pqkit does not have yet."""
    def wrap(f):
        return f if cases else None
    return wrap


def seed_hex(alg, tag):
    return bytes((i * 7 + tag) % 256 for i in range(SEED_LEN[alg])).hex()


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def raw_public(pub_pem_path):
    """The raw public key bytes inside an SPKI PEM, as OpenSSL reads it."""
    key = ser.load_pem_public_key(read(pub_pem_path))
    return key.public_bytes_raw()


def keypair(impl, alg, d, tag, seeded=True):
    key, pub = os.path.join(d, f"{impl}-{tag}.key"), os.path.join(d, f"{impl}-{tag}.pub")
    argv = IMPLS[impl] + ["keygen", alg, "-o", key]
    if seeded:
        argv += ["--seed", seed_hex(alg, tag)]
    run(argv)
    run(IMPLS[impl] + ["pubkey", "-i", key, "-o", pub])
    return key, pub


# ---------------------------------------------------------------- the harness


@pytest.mark.parametrize("alg", ["ml-kem-768", "ml-kem-1024"])
def test_harness_openssl_and_go_agree_on_mlkem(alg, tmp_path):
    d = str(tmp_path)
    key, pub = keypair("openssl", alg, d, 1)
    go_ek = run([GOPEER, "mlkem-ek", alg, seed_hex(alg, 1)]).stdout.decode().strip()
    assert raw_public(pub).hex() == go_ek
    ek = os.path.join(d, "ek.bin")
    write(ek, bytes.fromhex(go_ek))
    ct, ss = os.path.join(d, "ct"), os.path.join(d, "ss")
    run([GOPEER, "mlkem-encap", alg, ek, ct, ss])
    ss2 = os.path.join(d, "ss2")
    run(OPENSSL + ["decap", "-k", key, "-i", ct, "-o", ss2])
    assert read(ss) == read(ss2) and len(read(ss)) == 32


# ---------------------------------------------------------------------- KEMs


@generated_only_if(KEM_ALGS)
@pytest.mark.parametrize("alg", KEM_ALGS)
def test_kem_same_seed_same_public_key(alg, tmp_path):
    d = str(tmp_path)
    _, pq_pub = keypair("pqkit", alg, d, 3)
    _, os_pub = keypair("openssl", alg, d, 3)
    assert read(pq_pub) == read(os_pub), "SPKI PEM differs from OpenSSL's"
    go_ek = run([GOPEER, "mlkem-ek", alg, seed_hex(alg, 3)]).stdout.decode().strip()
    assert raw_public(pq_pub).hex() == go_ek


@generated_only_if(KEM_ALGS)
@pytest.mark.parametrize("owner,other", PAIRS)
@pytest.mark.parametrize("alg", KEM_ALGS)
@pytest.mark.parametrize("seeded", [True, False])
def test_kem_cross_encap_decap(alg, owner, other, seeded, tmp_path):
    d = str(tmp_path)
    key, pub = keypair(owner, alg, d, 5, seeded)
    ct, ss = os.path.join(d, "ct"), os.path.join(d, "ss")
    run(IMPLS[other] + ["encap", "-p", pub, "-o", ct, "--secret-out", ss])
    for decapper in (owner, other):  # the other side also loads the owner's PKCS#8
        out = os.path.join(d, f"ss-{decapper}")
        run(IMPLS[decapper] + ["decap", "-k", key, "-i", ct, "-o", out])
        assert read(out) == read(ss)
    # a modified ciphertext gives the same implicit-rejection secret on both sides
    bad = bytearray(read(ct))
    bad[7] ^= 0x10
    write(ct, bytes(bad))
    outs = []
    for decapper in (owner, other):
        out = os.path.join(d, f"rej-{decapper}")
        run(IMPLS[decapper] + ["decap", "-k", key, "-i", ct, "-o", out])
        outs.append(read(out))
    assert outs[0] == outs[1] != read(ss)


@generated_only_if(KEM_ALGS)
@pytest.mark.parametrize("alg", KEM_ALGS)
def test_kem_with_go(alg, tmp_path):
    d = str(tmp_path)
    key, pub = keypair("pqkit", alg, d, 7)
    ek = os.path.join(d, "ek.bin")
    write(ek, raw_public(pub))
    ct, ss, ss2 = (os.path.join(d, n) for n in ("ct", "ss", "ss2"))
    run([GOPEER, "mlkem-encap", alg, ek, ct, ss])
    run(PQKIT + ["decap", "-k", key, "-i", ct, "-o", ss2])
    assert read(ss) == read(ss2)
    run(PQKIT + ["encap", "-p", pub, "-o", ct, "--secret-out", ss])
    run([GOPEER, "mlkem-decap", alg, seed_hex(alg, 7), ct, ss2])
    assert read(ss) == read(ss2)


# ---------------------------------------------------------------- signatures


# OpenSSL's Python binding has no Ed25519ctx: contexts only for ML-DSA.
SIG_CASES = [(alg, ctx) for alg in SIG_ALGS
             for ctx in ([None, "00", "636f6e74657874" * 3] if alg != "ed25519" else [None])]



@generated_only_if(SIG_CASES)
@pytest.mark.parametrize("signer,verifier", PAIRS)
@pytest.mark.parametrize("alg,context", SIG_CASES)
def test_signatures_cross_verify(alg, signer, verifier, context, tmp_path):
    d = str(tmp_path)
    key, pub = keypair(signer, alg, d, 9)
    msg, sig = os.path.join(d, "msg"), os.path.join(d, "sig")
    write(msg, b"interop message \x00\xff" * 5)
    ctx = ["--context", context] if context else []
    run(IMPLS[signer] + ["sign", "-k", key, "-i", msg, "-o", sig] + ctx)
    assert run(IMPLS[verifier] + ["verify", "-p", pub, "-i", msg, "-s", sig] + ctx).stdout.strip() == b"valid"
    # the verifier derives the same public key from the signer's PKCS#8
    pub2 = os.path.join(d, "pub2")
    run(IMPLS[verifier] + ["pubkey", "-i", key, "-o", pub2])
    assert raw_public(pub2) == raw_public(pub)
    # tampered message: invalid, exit 1
    write(msg, b"interop message \x00\xfe" * 5)
    assert run(IMPLS[verifier] + ["verify", "-p", pub, "-i", msg, "-s", sig] + ctx, expect=1).stdout.strip() == b"invalid"


@generated_only_if(MLDSA_ALGS)
@pytest.mark.parametrize("signer,verifier", PAIRS)
@pytest.mark.parametrize("alg", MLDSA_ALGS)
def test_mldsa_external_mu(alg, signer, verifier, tmp_path):
    d = str(tmp_path)
    key, pub = keypair(signer, alg, d, 11)
    hasher = mldsa.MLDSAMuHasher(ser.load_pem_public_key(read(pub)), b"ctx")
    hasher.update(b"a message hashed to mu")
    mu, sig = os.path.join(d, "mu"), os.path.join(d, "sig")
    write(mu, hasher.finalize())
    run(IMPLS[signer] + ["sign", "-k", key, "-i", mu, "-o", sig, "--mu"])
    run(IMPLS[verifier] + ["verify", "-p", pub, "-i", mu, "-s", sig, "--mu"])
    # the same signature verifies as an ordinary signature with that context
    msg = os.path.join(d, "msg")
    write(msg, b"a message hashed to mu")
    run(IMPLS[verifier] + ["verify", "-p", pub, "-i", msg, "-s", sig, "--context", b"ctx".hex()])


@generated_only_if([a for a in SIG_ALGS if a == "ed25519"])
@pytest.mark.parametrize("alg", [a for a in SIG_ALGS if a == "ed25519"])
def test_ed25519_with_go(alg, tmp_path):
    d = str(tmp_path)
    gkey, gpub = os.path.join(d, "g.key"), os.path.join(d, "g.pub")
    run([GOPEER, "ed25519-keygen", seed_hex(alg, 13), gkey, gpub])
    pkey, ppub = keypair("pqkit", alg, d, 13)
    assert raw_public(gpub) == raw_public(ppub)
    msg, sig = os.path.join(d, "msg"), os.path.join(d, "sig")
    write(msg, b"go and pqkit")
    run(PQKIT + ["sign", "-k", gkey, "-i", msg, "-o", sig])
    run([GOPEER, "ed25519-verify", ppub, msg, sig])
    run([GOPEER, "ed25519-sign", pkey, msg, sig])
    run(PQKIT + ["verify", "-p", gpub, "-i", msg, "-s", sig])


# ----------------------------------------------------------------------- TLS
# pqkit's `tls-server` / `tls-client` (pqkit-rustls) against Go's crypto/tls
# on loopback, each side reporting the group from its own connection state.
# Certificates: an Ed25519 chain made by Go (Go's x509 has no ML-DSA).

TLS_GROUPS = ["X25519MLKEM768", "SecP256r1MLKEM768", "SecP384r1MLKEM1024"]


def start_server(argv):
    """Start a one-connection server; return it and the port it printed."""
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    line = p.stdout.readline().decode()
    assert line.startswith("listening: "), f"{argv}: {line!r} {p.stderr.read()!r}"
    return p, line.strip().rsplit(":", 1)[1]


def finish(p):
    out, err = p.communicate(timeout=60)
    assert p.returncode == 0, f"server exited {p.returncode}: {err.decode(errors='replace')}"
    return fields(out.decode())


def fields(text):
    return dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)


def go_pki(d):
    run([GOPEER, "tls-pki", d])
    return (os.path.join(d, n) for n in ("root.pem", "chain.pem", "key.pem"))


@pytest.mark.parametrize("group", TLS_GROUPS)
def test_tls_go_client_pqkit_server(group, tmp_path):
    root, chain, key = go_pki(str(tmp_path))
    srv, port = start_server(PQKIT + ["tls-server", "--once", "--port", "0",
                                      "--cert", chain, "--key", key])
    go = fields(run([GOPEER, "tls-client", f"localhost:{port}", root, group]).stdout.decode())
    served = finish(srv)
    assert go["group"] == group
    assert go["response"] == "HTTP/1.0 200 OK"
    assert served["group"] == group
    assert served["signature scheme"] == "ed25519"


@pytest.mark.parametrize("group", TLS_GROUPS)
def test_tls_pqkit_client_go_server(group, tmp_path):
    """pqkit offers its default list (an X25519MLKEM768 share and an X25519
    share); a Go server held to another group makes it retry."""
    root, chain, key = go_pki(str(tmp_path))
    srv, port = start_server([GOPEER, "tls-server", chain, key, group])
    ours = fields(run(PQKIT + ["tls-client", f"localhost:{port}", "--ca", root]).stdout.decode())
    go = finish(srv)
    assert go["group"] == group
    assert ours["group"] == group
    assert ours["protocol"] == "TLSv1_3"
    assert ours["signature scheme"] == "ed25519"
    assert "CN=localhost" in ours["peer certificate subject"]
    assert ours["response"] == "HTTP/1.0 200 OK"


def openssl_mldsa_pki(d):
    """An ML-DSA-87 root and an ML-DSA-65 leaf for localhost, made and
    signed by OpenSSL (pyca/cryptography), the leaf key as OpenSSL writes
    it (PKCS#8, seed form)."""
    import datetime
    from cryptography import x509
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = datetime.datetime.now(datetime.timezone.utc)
    day = datetime.timedelta(days=1)

    def name(cn):
        return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "OpenSSL interop"),
                          x509.NameAttribute(NameOID.COMMON_NAME, cn)])

    def builder(subject, issuer, key):
        return (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer)
                .public_key(key.public_key()).serial_number(x509.random_serial_number())
                .not_valid_before(now - day).not_valid_after(now + day))

    root_key, leaf_key = mldsa.MLDSA87PrivateKey.generate(), mldsa.MLDSA65PrivateKey.generate()
    ku = dict(content_commitment=False, key_encipherment=False, data_encipherment=False,
              key_agreement=False, encipher_only=False, decipher_only=False)
    root = (builder(name("OpenSSL ML-DSA-87 root"), name("OpenSSL ML-DSA-87 root"), root_key)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=False, key_cert_sign=True,
                                         crl_sign=True, **ku), critical=True)
            .sign(root_key, None))
    leaf = (builder(name("localhost"), root.subject, leaf_key)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=False,
                                         crl_sign=False, **ku), critical=True)
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .sign(root_key, None))
    paths = [os.path.join(d, n) for n in ("root.pem", "chain.pem", "key.pem")]
    write(paths[0], root.public_bytes(ser.Encoding.PEM))
    write(paths[1], leaf.public_bytes(ser.Encoding.PEM) + root.public_bytes(ser.Encoding.PEM))
    write(paths[2], leaf_key.private_bytes(ser.Encoding.PEM, ser.PrivateFormat.PKCS8,
                                           ser.NoEncryption()))
    return paths


def test_tls_pqkit_with_an_openssl_ml_dsa_chain(tmp_path):
    """rustls-webpki on pqkit verifies OpenSSL's ML-DSA-87 -> ML-DSA-65
    chain, and pqkit's key provider loads OpenSSL's ML-DSA key."""
    root, chain, key = openssl_mldsa_pki(str(tmp_path))
    srv, port = start_server(PQKIT + ["tls-server", "--once", "--port", "0",
                                      "--cert", chain, "--key", key])
    ours = fields(run(PQKIT + ["tls-client", f"localhost:{port}", "--ca", root]).stdout.decode())
    served = finish(srv)
    assert ours["group"] == served["group"] == "X25519MLKEM768"
    assert ours["signature scheme"] == served["signature scheme"] == "mldsa65"
    assert ours["peer certificate subject"] == "CN=localhost,O=OpenSSL interop"


# Bouncy Castle's JSSE provider (BCJSSE 1.84): ML-DSA certificates and
# every ML-KEM group. The Java side offers or accepts only the one group
# and only ML-DSA signature schemes, so a completed handshake used them.

JAVA = ["java", "-cp", os.environ["JAVA_PEER_CP"], "TlsPeer"]
BC_GROUPS = TLS_GROUPS + ["MLKEM768", "MLKEM1024"]


def bc_pki(d):
    run(JAVA + ["pki", d])
    return (os.path.join(d, n) for n in ("root.pem", "chain.pem", "key.pem"))


@pytest.mark.parametrize("group", BC_GROUPS)
def test_tls_bc_client_pqkit_server(group, tmp_path):
    """BCJSSE verifies pqkit's ML-DSA-65 CertificateVerify (and a chain
    Bouncy Castle made); pqkit loads Bouncy Castle's PKCS#8 ML-DSA key."""
    root, chain, key = bc_pki(str(tmp_path))
    srv, port = start_server(PQKIT + ["tls-server", "--once", "--port", "0",
                                      "--cert", chain, "--key", key])
    bc = fields(run(JAVA + ["client", f"localhost:{port}", root, group]).stdout.decode())
    served = finish(srv)
    assert served["group"] == group
    assert served["signature scheme"] == "mldsa65"
    assert bc["peer public key algorithm"] == "ML-DSA-65"
    assert bc["response"] == "HTTP/1.0 200 OK"


@pytest.mark.parametrize("group", BC_GROUPS)
def test_tls_pqkit_client_bc_server(group, tmp_path):
    """pqkit verifies BCJSSE's ML-DSA-65 CertificateVerify and Bouncy
    Castle's ML-DSA-87 -> ML-DSA-65 chain."""
    root, chain, key = bc_pki(str(tmp_path))
    srv, port = start_server(JAVA + ["server", chain, key, group])
    ours = fields(run(PQKIT + ["tls-client", f"localhost:{port}", "--ca", root]).stdout.decode())
    bc = finish(srv)
    assert bc["group"] == group
    assert ours["group"] == group
    assert ours["signature scheme"] == "mldsa65"
    assert ours["peer certificate subject"] == "O=pqkit interop,CN=localhost"
    assert ours["response"] == "HTTP/1.0 200 OK"


# HPKE against Go 1.26's crypto/hpke, both directions, for every KEM both
# have (Go has no ML-KEM-512): the same public key from the same private
# key bytes, and `enc || ciphertext` opened by the other side, with the
# two-stage (HKDF) and one-stage (SHAKE) key schedules; a modified
# ciphertext is refused by both (exit 1).

HPKE_KEMS = [("x-wing", 0x647a, 32, 1216), ("ml-kem-768", 0x0041, 64, 1184),
             ("ml-kem-1024", 0x0042, 64, 1568), ("x25519", 0x0020, 32, 32)]
HPKE_SUITES = [("hkdf-sha256", 0x0001, "aes-128-gcm", 0x0001),
               ("shake256", 0x0011, "chacha20-poly1305", 0x0003),
               ("hkdf-sha512", 0x0003, "aes-256-gcm", 0x0002)]


@pytest.mark.parametrize("kdf,kdf_id,aead,aead_id", HPKE_SUITES)
@pytest.mark.parametrize("alg,kem_id,sk_len,pk_len",
                         [k for k in HPKE_KEMS if k[0] in PQKIT_ALGS])
def test_hpke_with_go(alg, kem_id, sk_len, pk_len, kdf, kdf_id, aead, aead_id, tmp_path):
    d = str(tmp_path)
    f = {n: os.path.join(d, n) for n in ("k.pem", "p.pem", "pk", "pt", "sealed", "out")}
    sk = bytes((i * 11 + kem_id) % 256 for i in range(sk_len)).hex()
    run(PQKIT + ["keygen", alg, "--seed", sk, "-o", f["k.pem"]])
    run(PQKIT + ["pubkey", "-i", f["k.pem"], "-o", f["p.pem"]])
    body = "".join(l for l in read(f["p.pem"]).decode().splitlines() if not l.startswith("-----"))
    pk = base64.b64decode(body)[-pk_len:]
    write(f["pk"], pk)
    ids = [hex(kem_id), hex(kdf_id), hex(aead_id)]
    assert run([GOPEER, "hpke-pub", ids[0], sk]).stdout.decode().strip() == pk.hex()
    flags = ["--kdf", kdf, "--aead", aead, "--info", "696e666f", "--aad", "00ff"]
    hpke_both_ways(f, ids, sk, f["k.pem"], f["p.pem"], flags, bytes(range(200)))


def hpke_both_ways(f, ids, sk, key, pub, flags, pt):
    """Go seals to f["pk"] and pqkit opens with `key`; pqkit seals to `pub`
    and Go opens with the private key `sk` (hex); a modified ciphertext
    (last byte: the tag) fails on both sides (exit 1)."""
    write(f["pt"], pt)
    run([GOPEER, "hpke-seal", *ids, f["pk"], "696e666f", "00ff", f["pt"], f["sealed"]])
    run(PQKIT + ["hpke", "open", "-k", key, "-i", f["sealed"], "-o", f["out"], *flags])
    assert read(f["out"]) == pt
    run(PQKIT + ["hpke", "seal", "-p", pub, "-i", f["pt"], "-o", f["sealed"], *flags])
    run([GOPEER, "hpke-open", *ids, sk, "696e666f", "00ff", f["sealed"], f["out"]])
    assert read(f["out"]) == pt
    bad = bytearray(read(f["sealed"]))
    bad[-1] ^= 0x80
    write(f["sealed"], bytes(bad))
    run(PQKIT + ["hpke", "open", "-k", key, "-i", f["sealed"], "-o", f["out"], *flags], expect=1)
    run([GOPEER, "hpke-open", *ids, sk, "696e666f", "00ff", f["sealed"], f["out"]], expect=1)


# The raw-key form of `pqkit hpke` (`--kem`) against Go, for every KEM both
# have, including the P-curve ones that have no PEM form: `hpke keygen
# --ikm` equals Go's DeriveKeyPair, Go's public key of pqkit's private key
# equals pqkit's, and `enc || ciphertext` opens on the other side (one
# suite per KEM, the three suites in turn); a modified ciphertext is
# refused by both.

HPKE_RAW_KEMS = [("p256", 0x0010), ("p384", 0x0011), ("x25519", 0x0020),
                 ("ml-kem-768", 0x0041), ("ml-kem-1024", 0x0042),
                 ("mlkem768-p256", 0x0050), ("mlkem1024-p384", 0x0051), ("x-wing", 0x647a)]


@pytest.mark.parametrize("kem,kem_id", HPKE_RAW_KEMS)
def test_hpke_raw_keys_with_go(kem, kem_id, tmp_path):
    kdf, kdf_id, aead, aead_id = HPKE_SUITES[HPKE_RAW_KEMS.index((kem, kem_id)) % 3]
    d = str(tmp_path)
    f = {n: os.path.join(d, n) for n in ("sk", "pk", "pt", "sealed", "out")}
    ikm = bytes((i * 7 + kem_id) % 256 for i in range(64)).hex()
    run(PQKIT + ["hpke", "keygen", "--kem", kem, "--ikm", ikm, "-k", f["sk"], "-p", f["pk"]])
    sk, pk = read(f["sk"]).hex(), read(f["pk"]).hex()
    ids = [hex(kem_id), hex(kdf_id), hex(aead_id)]
    go_sk, go_pk = run([GOPEER, "hpke-derive", ids[0], ikm]).stdout.decode().split()
    if kem == "x25519":
        # Go's Bytes() clamps an X25519 private key (RFC 9180 §7.1.2); pqkit
        # writes it as derived, as the RFC's test vectors give skRm. Both
        # load as the same key (deserialization clamps).
        clamp = lambda h: (bytes([int(h[:2], 16) & 0xf8]) + bytes.fromhex(h[2:62])
                           + bytes([(int(h[62:], 16) & 0x7f) | 0x40])).hex()
        sk_cmp = clamp(sk)
    else:
        sk_cmp = sk
    assert [go_sk, go_pk] == [sk_cmp, pk]
    assert run([GOPEER, "hpke-pub", ids[0], sk]).stdout.decode().strip() == pk
    flags = ["--kem", kem, "--kdf", kdf, "--aead", aead, "--info", "696e666f", "--aad", "00ff"]
    hpke_both_ways(f, ids, sk, f["sk"], f["pk"], flags, bytes(range(256)) * 3)


# X-Wing against Bouncy Castle's low-level X-Wing (1.84): the same public
# key from the same seed, and encapsulation and decapsulation both ways,
# including a modified ciphertext (both sides derive the same rejection
# secret from ML-KEM's implicit rejection).

XWING = ["java", "-cp", os.environ["JAVA_PEER_CP"], "XWingPeer"]


@generated_only_if(["x-wing"] if "x-wing" in PQKIT_ALGS else [])
@pytest.mark.parametrize("tag", [1, 2])
def test_xwing_with_bouncy_castle(tag, tmp_path):
    d = str(tmp_path)
    seed = bytes((i * 13 + tag) % 256 for i in range(32)).hex()
    key, pub = os.path.join(d, "k.pem"), os.path.join(d, "p.pem")
    run(PQKIT + ["keygen", "x-wing", "--seed", seed, "-o", key])
    run(PQKIT + ["pubkey", "-i", key, "-o", pub])
    # pyca/cryptography has no X-Wing: the raw key is the SPKI's last 1216 bytes.
    body = "".join(l for l in read(pub).decode().splitlines() if not l.startswith("-----"))
    raw = base64.b64decode(body)[-1216:]
    assert run(XWING + ["pub", seed]).stdout.decode().strip() == raw.hex()
    pk, ct, ss, ss2 = (os.path.join(d, n) for n in ("pk.bin", "ct", "ss", "ss2"))
    write(pk, raw)
    # pqkit encapsulates, Bouncy Castle decapsulates
    run(PQKIT + ["encap", "-p", pub, "-o", ct, "--secret-out", ss])
    assert run(XWING + ["decap", seed, ct]).stdout.decode().strip() == read(ss).hex()
    # Bouncy Castle encapsulates, pqkit decapsulates
    theirs = run(XWING + ["encap", pk, ct]).stdout.decode().strip()
    run(PQKIT + ["decap", "-k", key, "-i", ct, "-o", ss2])
    assert read(ss2).hex() == theirs
    # a modified ciphertext: the same (rejection) secret on both sides
    bad = bytearray(read(ct))
    bad[5] ^= 0x01
    write(ct, bytes(bad))
    run(PQKIT + ["decap", "-k", key, "-i", ct, "-o", ss2])
    assert run(XWING + ["decap", seed, ct]).stdout.decode().strip() == read(ss2).hex() != theirs


# ----------------------------------------------------------- composite ML-DSA
# Composite ML-DSA (draft-ietf-lamps-pq-composite-sigs) against Bouncy
# Castle 1.84's JCA provider (CompositePeer.java). Which draft BC 1.84
# speaks was read from its classes (javap), not assumed: its composite
# SignatureSpi is keyed by org.bouncycastle.internal.asn1.iana.
# IANAObjectIdentifiers, the OIDs 1.3.6.1.5.5.7.6.37 to .54 (the same 18
# combinations as pqkit), and builds M' with the prefix
# "CompositeAlgorithmSignatures2025" and the labels "COMPSIG-MLDSA65-
# Ed25519-SHA512", ..., "COMPSIG-MLDSA65-ECDSA-BP256-SHA512" (pqkit's), with
# ML-DSA's context set to the label: the -19-era draft that pqkit
# implements. (MiscObjectIdentifiers still names the earlier prototype
# OIDs, 2.16.840.1.114027.80.8.1.x and .80.9.1.x, which its composite
# signatures no longer use.) BC 1.84 also verifies the draft's vectors and
# re-encodes their PKCS#8 keys byte for byte, so no newer BC is needed.
#
# For every combination both have: BC's keys and signatures (with and
# without a context) verify in pqkit, and BC's certificates (a self-signed
# CA and a leaf) in pqkit's verify-cert; for the nine pqkit signs with,
# pqkit's signatures and certificates (the leaf from a CSR) verify in BC,
# and each side loads the other's PKCS#8 private keys. The RSA and Ed448
# combinations are verify-only in pqkit: BC signs, pqkit verifies.

COMPOSITE_OIDS = {
    "mldsa44-rsa2048-pss": "1.3.6.1.5.5.7.6.37",
    "mldsa44-rsa2048-pkcs15": "1.3.6.1.5.5.7.6.38",
    "mldsa44-ed25519": "1.3.6.1.5.5.7.6.39",
    "mldsa44-ecdsa-p256": "1.3.6.1.5.5.7.6.40",
    "mldsa65-rsa3072-pss": "1.3.6.1.5.5.7.6.41",
    "mldsa65-rsa3072-pkcs15": "1.3.6.1.5.5.7.6.42",
    "mldsa65-rsa4096-pss": "1.3.6.1.5.5.7.6.43",
    "mldsa65-rsa4096-pkcs15": "1.3.6.1.5.5.7.6.44",
    "mldsa65-ecdsa-p256": "1.3.6.1.5.5.7.6.45",
    "mldsa65-ecdsa-p384": "1.3.6.1.5.5.7.6.46",
    "mldsa65-ecdsa-brainpoolp256r1": "1.3.6.1.5.5.7.6.47",
    "mldsa65-ed25519": "1.3.6.1.5.5.7.6.48",
    "mldsa87-ecdsa-p384": "1.3.6.1.5.5.7.6.49",
    "mldsa87-ecdsa-brainpoolp384r1": "1.3.6.1.5.5.7.6.50",
    "mldsa87-ed448": "1.3.6.1.5.5.7.6.51",
    "mldsa87-rsa3072-pss": "1.3.6.1.5.5.7.6.52",
    "mldsa87-rsa4096-pss": "1.3.6.1.5.5.7.6.53",
    "mldsa87-ecdsa-p521": "1.3.6.1.5.5.7.6.54",
}
COMPOSITE_ALGS = [a for a in COMPOSITE_OIDS if a in PQKIT_ALGS]
COMPOSITE_VERIFY_ONLY = {a for a in COMPOSITE_ALGS if "-rsa" in a or a.endswith("-ed448")}
COMPOSITE_SIGNABLE = [a for a in COMPOSITE_ALGS if a not in COMPOSITE_VERIFY_ONLY]
COMPOSITE_PEER = ["java", "-cp", os.environ["JAVA_PEER_CP"], "CompositePeer"]
CTX = "636f6d706f73697465"  # "composite"


def pem_file(path, label, der):
    body = base64.b64encode(der).decode()
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    write(path, (f"-----BEGIN {label}-----\n" + "\n".join(lines) +
                 f"\n-----END {label}-----\n").encode())


def pem_der(path):
    return base64.b64decode("".join(l for l in read(path).decode().splitlines()
                                    if not l.startswith("-----")))


def tampered_cert(src, dst):
    """A copy of a PEM certificate with the last byte of its signature flipped."""
    der = bytearray(pem_der(src))
    der[-1] ^= 0x01
    pem_file(dst, "CERTIFICATE", bytes(der))


def test_composite_algorithms_listed():
    """pqkit lists all 18 combinations (the suite below covers each)."""
    assert sorted(COMPOSITE_ALGS) == sorted(COMPOSITE_OIDS)


@generated_only_if(COMPOSITE_ALGS)
@pytest.mark.parametrize("alg", COMPOSITE_ALGS)
def test_composite_bouncy_castle_signs_pqkit_verifies(alg, tmp_path):
    d = str(tmp_path)
    f = {n: os.path.join(d, n) for n in ("k.pem", "p.pem", "p2.pem", "m", "s", "sc")}
    run(COMPOSITE_PEER + ["keygen", COMPOSITE_OIDS[alg], f["k.pem"], f["p.pem"]])
    shown = run(PQKIT + ["show", "-i", f["p.pem"]]).stdout.decode()
    assert f"algorithm: {alg}\n" in shown
    if alg in COMPOSITE_VERIFY_ONLY:
        # pqkit does not load these private keys (exit 2, saying why).
        p = run(PQKIT + ["pubkey", "-i", f["k.pem"], "-o", f["p2.pem"]], expect=2)
        assert b"verify-only" in p.stderr
    else:
        # pqkit loads BC's PKCS#8 and derives BC's SPKI.
        run(PQKIT + ["pubkey", "-i", f["k.pem"], "-o", f["p2.pem"]])
        assert read(f["p2.pem"]) == read(f["p.pem"])
    write(f["m"], b"composite interop \x00\xff" * 40)
    run(COMPOSITE_PEER + ["sign", f["k.pem"], f["m"], f["s"]])
    run(COMPOSITE_PEER + ["sign", f["k.pem"], f["m"], f["sc"], CTX])
    verify = PQKIT + ["verify", "-p", f["p.pem"], "-i", f["m"], "-s"]
    assert run(verify + [f["s"]]).stdout.strip() == b"valid"
    assert run(verify + [f["sc"], "--context", CTX]).stdout.strip() == b"valid"
    assert run(verify + [f["s"], "--context", CTX], expect=1).stdout.strip() == b"invalid"
    assert run(verify + [f["sc"]], expect=1).stdout.strip() == b"invalid"
    write(f["m"], b"composite interop \x00\xfe" * 40)
    assert run(verify + [f["s"]], expect=1).stdout.strip() == b"invalid"


@generated_only_if(COMPOSITE_SIGNABLE)
@pytest.mark.parametrize("alg", COMPOSITE_SIGNABLE)
def test_composite_pqkit_signs_bouncy_castle_verifies(alg, tmp_path):
    d = str(tmp_path)
    f = {n: os.path.join(d, n) for n in ("k.pem", "p.pem", "m", "s", "sd", "sc", "bs")}
    run(PQKIT + ["keygen", alg, "-o", f["k.pem"]])
    run(PQKIT + ["pubkey", "-i", f["k.pem"], "-o", f["p.pem"]])
    write(f["m"], b"composite interop \x00\xff" * 40)
    run(PQKIT + ["sign", "-k", f["k.pem"], "-i", f["m"], "-o", f["s"]])
    run(PQKIT + ["sign", "-k", f["k.pem"], "-i", f["m"], "-o", f["sd"], "--deterministic"])
    run(PQKIT + ["sign", "-k", f["k.pem"], "-i", f["m"], "-o", f["sc"], "--context", CTX])
    verify = COMPOSITE_PEER + ["verify", f["p.pem"], f["m"]]
    for sig in ("s", "sd"):
        assert run(verify + [f[sig]]).stdout.strip() == b"valid"
        assert run(verify + [f[sig], CTX], expect=1).stdout.strip() == b"invalid"
    assert run(verify + [f["sc"], CTX]).stdout.strip() == b"valid"
    assert run(verify + [f["sc"]], expect=1).stdout.strip() == b"invalid"
    bad = bytearray(read(f["s"]))
    bad[-2] ^= 0x01  # the traditional half
    write(f["s"], bytes(bad))
    assert run(verify + [f["s"]], expect=1).stdout.strip() == b"invalid"
    # BC loads pqkit's PKCS#8 and signs; pqkit verifies.
    run(COMPOSITE_PEER + ["sign", f["k.pem"], f["m"], f["bs"], CTX])
    run(PQKIT + ["verify", "-p", f["p.pem"], "-i", f["m"], "-s", f["bs"], "--context", CTX])


def bc_chain_validates_in_pqkit(peer, keygen_arg, alg, ca_subject, d, both_algs=False):
    """A BC JCA peer's self-signed CA (`peer cert`) and a leaf it issues
    validate in pqkit's verify-cert (rustls-webpki's rules and the chain
    alone), for both purposes; the leaf with a flipped signature bit does
    not. `both_algs`: `pqkit show` must also name the leaf key's
    algorithm."""
    f = {n: os.path.join(d, n) for n in ("ca.key", "ca.pub", "ca.pem", "leaf.key", "leaf.pub",
                                         "leaf.pem", "bad.pem")}
    run(peer + ["keygen", keygen_arg, f["ca.key"], f["ca.pub"]])
    run(peer + ["cert", f["ca.key"], f["ca.pub"], f["ca.pem"], ca_subject])
    run(peer + ["keygen", keygen_arg, f["leaf.key"], f["leaf.pub"]])
    run(peer + ["cert", f["ca.key"], f["leaf.pub"], f["leaf.pem"], "CN=localhost", f["ca.pem"]])
    shown = run(PQKIT + ["show", "-i", f["leaf.pem"]]).stdout.decode()
    assert f"signature algorithm: {alg}\n" in shown
    if both_algs:
        assert f"public key algorithm: {alg}\n" in shown
    tampered_cert(f["leaf.pem"], f["bad.pem"])
    for purpose in ("server", "any"):
        vc = PQKIT + ["verify-cert", "--purpose", purpose, "--ca", f["ca.pem"]]
        assert run(vc + [f["leaf.pem"]]).stdout.strip() == b"valid"
        assert run(vc + [f["bad.pem"]], expect=1).stdout.startswith(b"invalid: ")
    any_ca = PQKIT + ["verify-cert", "--purpose", "any", "--ca", f["ca.pem"], f["ca.pem"]]
    assert run(any_ca).stdout.strip() == b"valid"


def pqkit_chain_validates_in_bc(peer, alg, ca_subject, d):
    """pqkit's self-signed CA and a leaf issued from a CSR verify in a BC
    JCA peer (`peer verifycert`: the signature under the CA's key, names,
    validity); the leaf with a flipped signature bit does not."""
    f = {n: os.path.join(d, n) for n in ("ca.key", "ca.pem", "leaf.key", "leaf.csr", "leaf.pem",
                                         "bad.pem")}
    run(PQKIT + ["keygen", alg, "-o", f["ca.key"]])
    run(PQKIT + ["cert", "-k", f["ca.key"], "--self-signed", "--subject", ca_subject,
                 "--ca", "-o", f["ca.pem"]])
    run(PQKIT + ["keygen", alg, "-o", f["leaf.key"]])
    run(PQKIT + ["req", "-k", f["leaf.key"], "--subject", "CN=localhost", "--san", "DNS:localhost",
                 "-o", f["leaf.csr"]])
    run(PQKIT + ["cert", "-k", f["ca.key"], "--ca-cert", f["ca.pem"], "--csr", f["leaf.csr"],
                 "-o", f["leaf.pem"]])
    check = peer + ["verifycert"]
    assert run(check + [f["ca.pem"], f["ca.pem"]]).stdout.strip() == b"valid"
    assert run(check + [f["leaf.pem"], f["ca.pem"]]).stdout.strip() == b"valid"
    tampered_cert(f["leaf.pem"], f["bad.pem"])
    assert run(check + [f["bad.pem"], f["ca.pem"]], expect=1).stdout.startswith(b"invalid: ")


@generated_only_if(COMPOSITE_ALGS)
@pytest.mark.parametrize("alg", COMPOSITE_ALGS)
def test_composite_certificates_bouncy_castle_to_pqkit(alg, tmp_path):
    """BC's composite CA and leaf validate in pqkit's verify-cert."""
    bc_chain_validates_in_pqkit(COMPOSITE_PEER, COMPOSITE_OIDS[alg], alg,
                                "CN=BC composite CA,O=BC", str(tmp_path))


@generated_only_if(COMPOSITE_SIGNABLE)
@pytest.mark.parametrize("alg", COMPOSITE_SIGNABLE)
def test_composite_certificates_pqkit_to_bouncy_castle(alg, tmp_path):
    """pqkit's composite CA and CSR-issued leaf verify in BC."""
    pqkit_chain_validates_in_bc(COMPOSITE_PEER, alg, "CN=pqkit composite CA", str(tmp_path))


# ------------------------------------------------------------------- SLH-DSA
# SLH-DSA (FIPS 205) against Bouncy Castle 1.84's JCA provider
# (SlhDsaPeer.java) and Cloudflare CIRCL 1.6.5's sign/slhdsa (gopeer), for
# every parameter set pqkit lists. OpenSSL is no peer here: this suite's
# pyca/cryptography 50 has no SLH-DSA API, and the openssl command on the
# machines is 3.0 (SLH-DSA came with OpenSSL 3.5).
#
# Bouncy Castle: keys cross both ways as RFC 9909 PKCS#8 / SPKI (the
# privateKey OCTET STRING is the raw 4n-byte key, the subjectPublicKey the
# raw 2n bytes, parameters absent); signatures cross both ways, with and
# without a context, and BC's deterministic signing (a Signature given no
# SecureRandom: opt_rand = PK.seed) equals pqkit's --deterministic byte for
# byte; HashSLH-DSA ("HASH-SLH-DSA", with the pre-hash BC pairs with each
# set) both ways; certificates both ways for three f sets. CIRCL: the same
# seed gives the same raw keys, deterministic signatures are byte for byte
# equal (pure, with a context, and HashSLH-DSA under each of the twelve
# pre-hashes), hedged ones verify across. The s sets sign slowly in BC
# (seconds, in a fresh JVM each time), so BC signs with them once per set.
#
# Not covered: keys under the HashSLH-DSA OIDs (.35 to .46), which BC's
# "SLH-DSA-...-WITH-..." key pair generators write; pqkit's keys are the
# pure OIDs (.20 to .31) and --prehash signs HashSLH-DSA with them.

SLH_SETS = [f"slh-dsa-{h}-{bits}{v}" for h in ("sha2", "shake") for bits in (128, 192, 256)
            for v in "sf"]
SLH_ALGS = [a for a in SLH_SETS if a in PQKIT_ALGS]
# A fresh JVM per operation: the serial collector and the C1 compiler alone
# halve its start (about 0.45 s instead of 0.9 s here), which the suite pays
# some 90 times; BC signs with an s set about as fast.
SLH_PEER = ["java", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", os.environ["JAVA_PEER_CP"],
            "SlhDsaPeer"]
SLH_CTX = b"slh-dsa interop".hex()
SLH_MSG = b"SLH-DSA interop \x00\xff" * 30
# The pre-hash BC's HASH-SLH-DSA uses with each set (RFC 9909's
# HashSLH-DSA pairs), one case per pairing.
SLH_BC_PREHASH = [(a, h) for a, h in (("slh-dsa-sha2-128f", "sha2-256"),
                                      ("slh-dsa-sha2-192f", "sha2-512"),
                                      ("slh-dsa-shake-128f", "shake-128"),
                                      ("slh-dsa-shake-256f", "shake-256")) if a in PQKIT_ALGS]
SLH_CERT_ALGS = [a for a in ("slh-dsa-sha2-128f", "slh-dsa-shake-192f", "slh-dsa-sha2-256f")
                 if a in PQKIT_ALGS]
PREHASHES = ["sha2-224", "sha2-256", "sha2-384", "sha2-512", "sha2-512/224", "sha2-512/256",
             "sha3-224", "sha3-256", "sha3-384", "sha3-512", "shake-128", "shake-256"]
SLH_FAST = [a for a in SLH_ALGS if a.endswith("f")]
# Each pre-hash on an f set, the six in turn.
SLH_CIRCL_PREHASH = [(SLH_FAST[i % len(SLH_FAST)], h) for i, h in enumerate(PREHASHES)] if SLH_FAST else []


def slh_seed(alg, tag):
    """SK.seed || SK.prf || PK.seed: 3n bytes, n = 16, 24 or 32."""
    n = int(alg[-4:-1]) // 8
    return bytes((i * 7 + tag) % 256 for i in range(3 * n)).hex()


def der_fields(der):
    """The (tag, contents) of each element of a DER SEQUENCE."""
    def tlv(buf, i):
        tag, length = buf[i], buf[i + 1]
        i += 2
        if length & 0x80:
            k = length & 0x7f
            length = int.from_bytes(buf[i:i + k], "big")
            i += k
        return tag, buf[i:i + length], i + length
    tag, body, end = tlv(der, 0)
    assert tag == 0x30 and end == len(der), "not one DER SEQUENCE"
    out, i = [], 0
    while i < len(body):
        tag, contents, i = tlv(body, i)
        out.append((tag, contents))
    return out


def pkcs8_raw_key(path):
    """The privateKey OCTET STRING of a v1 PKCS#8 with no attributes."""
    (t0, version), (t1, _), (t2, key) = der_fields(pem_der(path))
    assert (t0, version, t1, t2) == (0x02, b"\x00", 0x30, 0x04)
    return key


def spki_raw_key(path):
    (t0, _), (t1, bits) = der_fields(pem_der(path))
    assert (t0, t1, bits[0]) == (0x30, 0x03, 0)
    return bits[1:]


@generated_only_if(SLH_ALGS)
def test_slh_dsa_algorithms_listed():
    """pqkit lists all twelve sets once it lists one (the suite covers each)."""
    assert SLH_ALGS == SLH_SETS


@generated_only_if(SLH_ALGS)
@pytest.mark.parametrize("alg", SLH_ALGS)
def test_slh_dsa_bouncy_castle_signs_pqkit_verifies(alg, tmp_path):
    """pqkit loads BC's PKCS#8 and derives BC's SPKI byte for byte; BC's
    hedged signatures verify in pqkit only with their own context and
    message."""
    d = str(tmp_path)
    f = {n: os.path.join(d, n) for n in ("k.pem", "p.pem", "p2.pem", "m", "s", "sc")}
    run(SLH_PEER + ["keygen", alg, f["k.pem"], f["p.pem"]])
    assert f"algorithm: {alg}\n" in run(PQKIT + ["show", "-i", f["p.pem"]]).stdout.decode()
    run(PQKIT + ["pubkey", "-i", f["k.pem"], "-o", f["p2.pem"]])
    assert read(f["p2.pem"]) == read(f["p.pem"])
    write(f["m"], SLH_MSG)
    run(SLH_PEER + ["sign", f["k.pem"], f["m"], f["sc"], SLH_CTX])
    sigs = ["sc"]
    if alg.endswith("f"):  # an s set signs once in BC (seconds)
        run(SLH_PEER + ["sign", f["k.pem"], f["m"], f["s"]])
        sigs.append("s")
    verify = PQKIT + ["verify", "-p", f["p.pem"], "-i", f["m"], "-s"]
    assert run(verify + [f["sc"], "--context", SLH_CTX]).stdout.strip() == b"valid"
    assert run(verify + [f["sc"]], expect=1).stdout.strip() == b"invalid"
    assert run(verify + [f["sc"], "--context", SLH_CTX[:-2]], expect=1).stdout.strip() == b"invalid"
    if "s" in sigs:
        assert run(verify + [f["s"]]).stdout.strip() == b"valid"
        assert run(verify + [f["s"], "--context", SLH_CTX], expect=1).stdout.strip() == b"invalid"
    write(f["m"], SLH_MSG[:-1] + b"\xfe")
    assert run(verify + [f["sc"], "--context", SLH_CTX], expect=1).stdout.strip() == b"invalid"
    if "s" in sigs:
        assert run(verify + [f["s"]], expect=1).stdout.strip() == b"invalid"


@generated_only_if(SLH_ALGS)
@pytest.mark.parametrize("alg", SLH_ALGS)
def test_slh_dsa_pqkit_signs_bouncy_castle_verifies(alg, tmp_path):
    """BC loads pqkit's SPKI and verifies its hedged, deterministic and
    context signatures (and refuses one without its context); BC loads
    pqkit's PKCS#8 and its deterministic signature is pqkit's, byte for
    byte."""
    d = str(tmp_path)
    f = {n: os.path.join(d, n) for n in ("k.pem", "p.pem", "m", "s", "sd", "sdc", "bs")}
    run(PQKIT + ["keygen", alg, "--seed", slh_seed(alg, 1), "-o", f["k.pem"]])
    run(PQKIT + ["pubkey", "-i", f["k.pem"], "-o", f["p.pem"]])
    write(f["m"], SLH_MSG)
    sign = PQKIT + ["sign", "-k", f["k.pem"], "-i", f["m"], "-o"]
    run(sign + [f["s"]])
    run(sign + [f["sd"], "--deterministic"])
    run(sign + [f["sdc"], "--deterministic", "--context", SLH_CTX])
    assert read(f["s"]) != read(f["sd"]), "hedged signing gave the deterministic signature"
    verify = SLH_PEER + ["verify", f["p.pem"], f["m"]]
    assert run(verify + [f["s"]]).stdout.strip() == b"valid"
    assert run(verify + [f["sd"]]).stdout.strip() == b"valid"
    assert run(verify + [f["sdc"], SLH_CTX]).stdout.strip() == b"valid"
    assert run(verify + [f["sdc"]], expect=1).stdout.strip() == b"invalid"
    run(SLH_PEER + ["sign", "--deterministic", f["k.pem"], f["m"], f["bs"], SLH_CTX])
    assert read(f["bs"]) == read(f["sdc"]), "BC's deterministic signature differs from pqkit's"
    run(PQKIT + ["verify", "-p", f["p.pem"], "-i", f["m"], "-s", f["bs"], "--context", SLH_CTX])


@generated_only_if(SLH_BC_PREHASH)
@pytest.mark.parametrize("alg,prehash", SLH_BC_PREHASH)
def test_slh_dsa_prehash_with_bouncy_castle(alg, prehash, tmp_path):
    """HashSLH-DSA: BC's HASH-SLH-DSA verifies pqkit's hedged --prehash
    signature (and refuses it as a pure one); BC's deterministic one with a
    context is pqkit's byte for byte, and verifies in pqkit only under that
    pre-hash."""
    d = str(tmp_path)
    f = {n: os.path.join(d, n) for n in ("k.pem", "p.pem", "m", "s", "sdc", "bs")}
    run(PQKIT + ["keygen", alg, "--seed", slh_seed(alg, 2), "-o", f["k.pem"]])
    run(PQKIT + ["pubkey", "-i", f["k.pem"], "-o", f["p.pem"]])
    write(f["m"], SLH_MSG * 50)
    sign = PQKIT + ["sign", "-k", f["k.pem"], "-i", f["m"], "--prehash", prehash, "-o"]
    run(sign + [f["s"]])
    run(sign + [f["sdc"], "--deterministic", "--context", SLH_CTX])
    assert run(SLH_PEER + ["verify", "--prehash", f["p.pem"], f["m"], f["s"]]).stdout.strip() == b"valid"
    assert run(SLH_PEER + ["verify", f["p.pem"], f["m"], f["s"]], expect=1).stdout.strip() == b"invalid"
    run(SLH_PEER + ["sign", "--prehash", "--deterministic", f["k.pem"], f["m"], f["bs"], SLH_CTX])
    assert read(f["bs"]) == read(f["sdc"]), "BC's deterministic HashSLH-DSA signature differs from pqkit's"
    verify = PQKIT + ["verify", "-p", f["p.pem"], "-i", f["m"], "-s", f["bs"], "--context", SLH_CTX]
    assert run(verify + ["--prehash", prehash]).stdout.strip() == b"valid"
    assert run(verify, expect=1).stdout.strip() == b"invalid"
    other = "sha3-256" if prehash != "sha3-256" else "sha2-256"
    assert run(verify + ["--prehash", other], expect=1).stdout.strip() == b"invalid"


@generated_only_if(SLH_CERT_ALGS)
@pytest.mark.parametrize("alg", SLH_CERT_ALGS)
def test_slh_dsa_certificates_bouncy_castle_to_pqkit(alg, tmp_path):
    """BC's SLH-DSA CA and leaf validate in pqkit's verify-cert."""
    bc_chain_validates_in_pqkit(SLH_PEER, alg, alg, "CN=BC SLH-DSA CA,O=BC", str(tmp_path),
                                both_algs=True)


@generated_only_if(SLH_CERT_ALGS)
@pytest.mark.parametrize("alg", SLH_CERT_ALGS)
def test_slh_dsa_certificates_pqkit_to_bouncy_castle(alg, tmp_path):
    """pqkit's SLH-DSA CA and CSR-issued leaf verify in BC."""
    pqkit_chain_validates_in_bc(SLH_PEER, alg, "CN=pqkit SLH-DSA CA", str(tmp_path))


def circl_key_pair(alg, tag, d):
    """The file names of a CIRCL test in `d`, with one key pair from the
    seed `slh_seed(alg, tag)` made by both: pqkit's PKCS#8 and SPKI
    (`k.pem`, `p.pem`) and CIRCL's raw keys (`sk`, `pk`)."""
    f = {n: os.path.join(d, n) for n in ("k.pem", "p.pem", "sk", "pk", "m", "pd", "gd", "ph", "gh")}
    seed = slh_seed(alg, tag)
    run(PQKIT + ["keygen", alg, "--seed", seed, "-o", f["k.pem"]])
    run(PQKIT + ["pubkey", "-i", f["k.pem"], "-o", f["p.pem"]])
    run([GOPEER, "slhdsa-keygen", alg, seed, f["sk"], f["pk"]])
    return f


@generated_only_if(SLH_ALGS)
@pytest.mark.parametrize("alg", SLH_ALGS)
def test_slh_dsa_with_circl(alg, tmp_path):
    """CIRCL: the same seed gives the same raw private and public keys;
    deterministic signatures, with and without a context, are byte for
    byte equal; hedged ones verify across, and neither side takes them
    for a changed message or without their context."""
    f = circl_key_pair(alg, 3, str(tmp_path))
    assert spki_raw_key(f["p.pem"]) == read(f["pk"])
    assert pkcs8_raw_key(f["k.pem"]) == read(f["sk"])
    write(f["m"], SLH_MSG)
    pq_sign = PQKIT + ["sign", "-k", f["k.pem"], "-i", f["m"], "-o"]
    go_sign = [GOPEER, "slhdsa-sign"]
    go_args = [alg, f["sk"], f["m"]]
    for ctx in (None, SLH_CTX):
        run(pq_sign + [f["pd"], "--deterministic"] + (["--context", ctx] if ctx else []))
        run(go_sign + ["-deterministic"] + (["-context", ctx] if ctx else []) + go_args + [f["gd"]])
        assert read(f["pd"]) == read(f["gd"]), f"deterministic signatures differ (context {ctx})"
    # pqkit's hedged signature with a context in CIRCL, CIRCL's hedged one in pqkit
    run(pq_sign + [f["ph"], "--context", SLH_CTX])
    go_verify = [GOPEER, "slhdsa-verify", "-context", SLH_CTX, alg, f["pk"], f["m"], f["ph"]]
    assert run(go_verify).stdout.strip() == b"valid"
    assert run([GOPEER, "slhdsa-verify", alg, f["pk"], f["m"], f["ph"]], expect=1).stdout.strip() == b"invalid"
    run(go_sign + go_args + [f["gh"]])
    assert read(f["gh"]) != read(f["gd"]), "CIRCL's hedged signing gave the deterministic signature"
    pq_verify = PQKIT + ["verify", "-p", f["p.pem"], "-i", f["m"], "-s", f["gh"]]
    assert run(pq_verify).stdout.strip() == b"valid"
    assert run(pq_verify + ["--context", SLH_CTX], expect=1).stdout.strip() == b"invalid"
    write(f["m"], b"\x01" + SLH_MSG[1:])
    assert run(go_verify, expect=1).stdout.strip() == b"invalid"
    assert run(pq_verify, expect=1).stdout.strip() == b"invalid"


@generated_only_if(SLH_CIRCL_PREHASH)
@pytest.mark.parametrize("alg,prehash", SLH_CIRCL_PREHASH)
def test_slh_dsa_prehash_with_circl(alg, prehash, tmp_path):
    """HashSLH-DSA under each pre-hash both have: deterministic signatures
    with a context are byte for byte equal; hedged ones verify across, and
    only under their own pre-hash."""
    f = circl_key_pair(alg, 4, str(tmp_path))
    write(f["m"], SLH_MSG * 50)
    pq_sign = PQKIT + ["sign", "-k", f["k.pem"], "-i", f["m"], "--prehash", prehash, "-o"]
    go_sign = [GOPEER, "slhdsa-sign", "-prehash", prehash]
    go_args = [alg, f["sk"], f["m"]]
    run(pq_sign + [f["pd"], "--deterministic", "--context", SLH_CTX])
    run(go_sign + ["-deterministic", "-context", SLH_CTX] + go_args + [f["gd"]])
    assert read(f["pd"]) == read(f["gd"])
    other = "sha3-256" if prehash != "sha3-256" else "sha2-256"
    run(pq_sign + [f["ph"]])
    go_verify = [GOPEER, "slhdsa-verify", "-prehash"]
    assert run(go_verify + [prehash, alg, f["pk"], f["m"], f["ph"]]).stdout.strip() == b"valid"
    assert run(go_verify + [other, alg, f["pk"], f["m"], f["ph"]], expect=1).stdout.strip() == b"invalid"
    run(go_sign + go_args + [f["gh"]])
    pq_verify = PQKIT + ["verify", "-p", f["p.pem"], "-i", f["m"], "-s", f["gh"]]
    assert run(pq_verify + ["--prehash", prehash]).stdout.strip() == b"valid"
    assert run(pq_verify, expect=1).stdout.strip() == b"invalid"
    assert run(pq_verify + ["--prehash", other], expect=1).stdout.strip() == b"invalid"


# -------------------------------------------------------------- certificates
# pqkit's req/cert/verify-cert against OpenSSL 4 (pyca/cryptography 50).

import datetime  # noqa: E402

from cryptography import x509  # noqa: E402
import shutil  # noqa: E402

from cryptography.hazmat.primitives import hashes  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ed25519 as ed  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import mlkem  # noqa: E402
from cryptography.x509.oid import NameOID  # noqa: E402
from cryptography.x509.verification import PolicyBuilder, Store  # noqa: E402

CERT_ALGS = [a for a in ("ml-dsa-44", "ml-dsa-65", "ml-dsa-87", "ed25519") if a in PQKIT_ALGS]


def pqkit_chain(d, alg):
    """root -> intermediate -> leaf (localhost), every key of `alg`, made by
    pqkit's commands; returns the file names."""
    f = {n: os.path.join(d, n) for n in ("root.key", "root.pem", "int.key", "int.csr", "int.pem",
                                         "leaf.key", "leaf.csr", "leaf.pem")}
    run(PQKIT + ["keygen", alg, "-o", f["root.key"]])
    run(PQKIT + ["cert", "-k", f["root.key"], "--self-signed", "--subject", "CN=Root,O=pqkit",
                 "--ca", "-o", f["root.pem"]])
    run(PQKIT + ["keygen", alg, "-o", f["int.key"]])
    run(PQKIT + ["req", "-k", f["int.key"], "--subject", "CN=Intermediate,O=pqkit", "-o", f["int.csr"]])
    run(PQKIT + ["cert", "-k", f["root.key"], "--ca-cert", f["root.pem"], "--csr", f["int.csr"],
                 "--ca", "--path-len", "0", "-o", f["int.pem"]])
    run(PQKIT + ["keygen", alg, "-o", f["leaf.key"]])
    run(PQKIT + ["req", "-k", f["leaf.key"], "--subject", "CN=localhost", "--san", "DNS:localhost",
                 "-o", f["leaf.csr"]])
    run(PQKIT + ["cert", "-k", f["int.key"], "--ca-cert", f["int.pem"], "--csr", f["leaf.csr"],
                 "-o", f["leaf.pem"]])
    return f


@generated_only_if(CERT_ALGS)
@pytest.mark.parametrize("alg", CERT_ALGS)
def test_openssl_reads_and_verifies_pqkit_certificates(alg, tmp_path):
    f = pqkit_chain(str(tmp_path), alg)
    root, inter, leaf = (x509.load_pem_x509_certificate(read(f[n])) for n in ("root.pem", "int.pem", "leaf.pem"))
    root.verify_directly_issued_by(root)
    inter.verify_directly_issued_by(root)
    leaf.verify_directly_issued_by(inter)
    for csr in ("int.csr", "leaf.csr"):
        assert x509.load_pem_x509_csr(read(f[csr])).is_signature_valid
    assert inter.extensions.get_extension_for_class(x509.BasicConstraints).value.path_length == 0
    assert leaf.extensions.get_extension_for_class(x509.SubjectAlternativeName).value.get_values_for_type(
        x509.DNSName) == ["localhost"]
    # The whole chain through cryptography's path validator (its web PKI
    # policy forbids Ed25519 keys, so ML-DSA only).
    if alg.startswith("ml-dsa"):
        verifier = PolicyBuilder().store(Store([root])).build_server_verifier(x509.DNSName("localhost"))
        assert len(verifier.verify(leaf, [inter])) == 3


def _name(cn):
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "OpenSSL interop"),
                      x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def _ku(**kw):
    base = dict(digital_signature=False, content_commitment=False, key_encipherment=False,
                data_encipherment=False, key_agreement=False, key_cert_sign=False, crl_sign=False,
                encipher_only=False, decipher_only=False)
    base.update(kw)
    return x509.KeyUsage(**base)


def _issue(subject_key_pub, subject, issuer_key, issuer, ca=False, path_len=None, sans=None,
           days=(-1, 30), name_constraints=None, kem=False):
    now = datetime.datetime.now(datetime.timezone.utc)
    b = (x509.CertificateBuilder().subject_name(_name(subject)).issuer_name(_name(issuer))
         .public_key(subject_key_pub).serial_number(x509.random_serial_number())
         .not_valid_before(now + datetime.timedelta(days=days[0]))
         .not_valid_after(now + datetime.timedelta(days=days[1]))
         .add_extension(x509.BasicConstraints(ca=ca, path_length=path_len), critical=True))
    if ca:
        b = b.add_extension(_ku(key_cert_sign=True, crl_sign=True), critical=True)
    elif kem:
        b = b.add_extension(_ku(key_encipherment=True), critical=True)
    else:
        b = b.add_extension(_ku(digital_signature=True), critical=True)
    if sans:
        b = b.add_extension(x509.SubjectAlternativeName([x509.DNSName(s) for s in sans]), critical=False)
    if name_constraints:
        b = b.add_extension(x509.NameConstraints(
            permitted_subtrees=[x509.DNSName(n) for n in name_constraints], excluded_subtrees=None),
            critical=True)
    # ECDSA names its hash; Ed25519 and ML-DSA take none.
    digest = hashes.SHA256() if isinstance(issuer_key, ec.EllipticCurvePrivateKey) else None
    return b.sign(issuer_key, digest)


def _keys(kind):
    if kind == "ml-dsa":
        return (mldsa.MLDSA87PrivateKey.generate(), mldsa.MLDSA65PrivateKey.generate(),
                mldsa.MLDSA44PrivateKey.generate())
    if kind == "p256":
        return tuple(ec.generate_private_key(ec.SECP256R1()) for _ in range(3))
    return ed.Ed25519PrivateKey.generate(), ed.Ed25519PrivateKey.generate(), ed.Ed25519PrivateKey.generate()


def _pem_files(d, certs):
    paths = []
    for name, cert in certs.items():
        p = os.path.join(d, name)
        write(p, cert.public_bytes(ser.Encoding.PEM))
        paths.append(p)
    return paths


def _verify_cert(args, expect):
    p = run(PQKIT + ["verify-cert"] + args, expect=expect)
    return p.stdout.decode().strip()


@pytest.mark.parametrize("kind", ["ml-dsa", "ed25519"])
def test_pqkit_validates_openssl_chains(kind, tmp_path):
    """OpenSSL's root -> intermediate -> leaf chains validate in pqkit's
    verify-cert (rustls-webpki with pqkit's algorithms); each kind of bad
    chain is rejected with its reason."""
    d = str(tmp_path)
    rk, ik, lk = _keys(kind)
    root = _issue(rk.public_key(), "Root", rk, "Root", ca=True)
    inter = _issue(ik.public_key(), "Intermediate", rk, "Root", ca=True, path_len=0)
    leaf = _issue(lk.public_key(), "localhost", ik, "Intermediate", sans=["localhost"])
    root_p, int_p, leaf_p = _pem_files(d, {"root.pem": root, "int.pem": inter, "leaf.pem": leaf})
    assert _verify_cert(["--ca", root_p, "--untrusted", int_p, leaf_p], 0) == "valid"
    # An ML-KEM end-entity certificate under the CA (ML-DSA chains only).
    if kind == "ml-dsa":
        kem = _issue(mlkem.MLKEM768PrivateKey.generate().public_key(), "kem", ik, "Intermediate", kem=True)
        (kem_p,) = _pem_files(d, {"kem.pem": kem})
        assert _verify_cert(["--ca", root_p, "--untrusted", int_p, kem_p], 0) == "valid"
    # Wrong root: another key under the same name.
    rk2 = _keys(kind)[0]
    (root2_p,) = _pem_files(d, {"root2.pem": _issue(rk2.public_key(), "Root", rk2, "Root", ca=True)})
    assert _verify_cert(["--ca", root2_p, "--untrusted", int_p, leaf_p], 1).startswith("invalid:")
    # Tampered signature (last byte of the leaf).
    der = bytearray(leaf.public_bytes(ser.Encoding.DER))
    der[-1] ^= 1
    bad_p = os.path.join(d, "bad.der")
    write(bad_p, bytes(der))
    assert _verify_cert(["--ca", root_p, "--untrusted", int_p, bad_p], 1) == \
        "invalid: InvalidSignatureForPublicKey"
    # Expired leaf.
    old = _issue(lk.public_key(), "localhost", ik, "Intermediate", sans=["localhost"], days=(-30, -1))
    (old_p,) = _pem_files(d, {"old.pem": old})
    assert _verify_cert(["--ca", root_p, "--untrusted", int_p, old_p], 1).startswith("invalid: CertExpired")
    # A leaf used as a CA.
    vk = _keys(kind)[2]
    victim = _issue(vk.public_key(), "victim", lk, "localhost", sans=["victim.example"])
    both_p = os.path.join(d, "both.pem")
    write(both_p, inter.public_bytes(ser.Encoding.PEM) + leaf.public_bytes(ser.Encoding.PEM))
    (victim_p,) = _pem_files(d, {"victim.pem": victim})
    assert _verify_cert(["--ca", root_p, "--untrusted", both_p, victim_p], 1).startswith("invalid:")
    # Name constraints: an intermediate limited to example.com, a leaf for evil.org.
    nc_int = _issue(ik.public_key(), "Intermediate", rk, "Root", ca=True, path_len=0,
                    name_constraints=["example.com"])
    evil = _issue(lk.public_key(), "evil", ik, "Intermediate", sans=["evil.org"])
    nc_p, evil_p = _pem_files(d, {"nc.pem": nc_int, "evil.pem": evil})
    assert _verify_cert(["--ca", root_p, "--untrusted", nc_p, evil_p], 1) == \
        "invalid: NameConstraintViolation"


def _openssl_verify(root_p, int_p, cert_p, attime=None):
    """`openssl verify` (the command) without -purpose: its exit status."""
    openssl = shutil.which("openssl")
    assert openssl, "the openssl command is needed for this test"
    argv = [openssl, "verify", "-CAfile", root_p, "-untrusted", int_p]
    if attime is not None:
        argv += ["-attime", str(attime)]
    return subprocess.run(argv + [cert_p], capture_output=True, timeout=60).returncode


@pytest.mark.parametrize("kind", ["p256", "ed25519"])
def test_purpose_any_agrees_with_openssl_verify(kind, tmp_path):
    """OpenSSL-made chains (ECDSA P-256 and Ed25519, which the openssl
    command verifies): `pqkit verify-cert --purpose any` and `openssl verify`
    without -purpose accept and reject the same certificates; pqkit's
    reason names the failure."""
    d = str(tmp_path)
    rk, ik, lk = _keys(kind)
    ck, k2, dk = _keys(kind)
    rk2 = _keys(kind)[0]
    root = _issue(rk.public_key(), "Root", rk, "Root", ca=True)
    inter = _issue(ik.public_key(), "Intermediate", rk, "Root", ca=True, path_len=0)
    certs = {
        "root.pem": root,
        "int.pem": inter,
        "root2.pem": _issue(rk2.public_key(), "Root", rk2, "Root", ca=True),
        "leaf.pem": _issue(lk.public_key(), "localhost", ik, "Intermediate", sans=["localhost"]),
        "caleaf.pem": _issue(ck.public_key(), "CA leaf", ik, "Intermediate", ca=True),
        "int2.pem": _issue(k2.public_key(), "Int2", ik, "Intermediate", ca=True),
        "deep.pem": _issue(dk.public_key(), "deep", k2, "Int2"),
        # Issued by the leaf's key: an issuer without CA:TRUE.
        "victim.pem": _issue(dk.public_key(), "victim", lk, "localhost"),
    }
    _pem_files(d, certs)
    p = {n: os.path.join(d, n) for n in certs}
    ints = os.path.join(d, "ints.pem")
    write(ints, b"".join(certs[n].public_bytes(ser.Encoding.PEM)
                         for n in ("int.pem", "int2.pem", "leaf.pem")))
    der = bytearray(certs["leaf.pem"].public_bytes(ser.Encoding.DER))
    der[-3] ^= 1
    p["bad.pem"] = os.path.join(d, "bad.pem")
    write(p["bad.pem"], x509.load_der_x509_certificate(bytes(der)).public_bytes(ser.Encoding.PEM))
    later = int(datetime.datetime.now(datetime.timezone.utc).timestamp()) + 365 * 86400
    cases = [
        ("root.pem", "root.pem", None, "valid"),
        ("root.pem", "int.pem", None, "valid"),
        ("root.pem", "leaf.pem", None, "valid"),
        ("root.pem", "caleaf.pem", None, "valid"),
        ("root2.pem", "leaf.pem", None, "invalid: InvalidSignatureForPublicKey"),
        ("root.pem", "leaf.pem", later, "invalid: CertExpired"),
        ("root.pem", "deep.pem", None, "invalid: PathLenConstraintViolated"),
        ("root.pem", "victim.pem", None, "invalid: EndEntityUsedAsCa"),
        ("root.pem", "bad.pem", None, "invalid: InvalidSignatureForPublicKey"),
    ]
    for ca, cert, at, want in cases:
        args = ["--purpose", "any", "--ca", p[ca], "--untrusted", ints]
        if at is not None:
            args += ["--time", datetime.datetime.fromtimestamp(at, datetime.timezone.utc)
                     .strftime("%Y-%m-%dT%H:%M:%SZ")]
        got = _verify_cert(args + [p[cert]], 0 if want == "valid" else 1)
        assert got.startswith(want), (ca, cert, got)
        ossl = _openssl_verify(p[ca], ints, p[cert], at)
        assert (ossl == 0) == (want == "valid"), (ca, cert, ossl)
    # webpki's server rules (the default purpose) still refuse a CA.
    assert _verify_cert(["--ca", p["root.pem"], p["root.pem"]], 1) == "invalid: CaUsedAsEndEntity"
