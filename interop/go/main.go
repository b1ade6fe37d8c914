// Command gopeer is the Go side of pqkit's interop suite. It uses Go's
// standard library (crypto/mlkem, crypto/hpke, crypto/ed25519, crypto/x509,
// crypto/tls) and, for SLH-DSA, which the standard library does not have,
// Cloudflare CIRCL's sign/slhdsa; it speaks through files and hex on the
// command line:
//
//	gopeer mlkem-ek ALG SEEDHEX                 -> ek hex
//	gopeer mlkem-encap ALG EKFILE CTFILE SSFILE  (raw bytes)
//	gopeer mlkem-decap ALG SEEDHEX CTFILE SSFILE
//	gopeer ed25519-keygen SEEDHEX KEY.pem PUB.pem (PKCS#8 / SPKI PEM)
//	gopeer ed25519-sign KEY.pem MSGFILE SIGFILE
//	gopeer ed25519-verify PUB.pem MSGFILE SIGFILE  -> exit 0 valid, 1 invalid
//	gopeer slhdsa-keygen | slhdsa-sign | slhdsa-verify ... (see slhdsa.go)
//	gopeer hpke-pub | hpke-seal | hpke-open ...     (see hpke.go)
//	gopeer tls-pki | tls-server | tls-client ...   (see tls.go)
//
// ALG is ml-kem-768 or ml-kem-1024. Any other failure exits 2.
package main

import (
	"crypto/ed25519"
	"crypto/mlkem"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"os"
	"strings"
)

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "gopeer: "+format+"\n", args...)
	os.Exit(2)
}

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		fail("bad hex: %v", err)
	}
	return b
}

func mustRead(path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		fail("%v", err)
	}
	return b
}

func mustWrite(path string, b []byte) {
	if err := os.WriteFile(path, b, 0o600); err != nil {
		fail("%v", err)
	}
}

type decapper interface {
	Decapsulate(ct []byte) ([]byte, error)
}

func decapsulationKey(alg string, seed []byte) (decapper, []byte) {
	switch alg {
	case "ml-kem-768":
		dk, err := mlkem.NewDecapsulationKey768(seed)
		if err != nil {
			fail("%v", err)
		}
		return dk, dk.EncapsulationKey().Bytes()
	case "ml-kem-1024":
		dk, err := mlkem.NewDecapsulationKey1024(seed)
		if err != nil {
			fail("%v", err)
		}
		return dk, dk.EncapsulationKey().Bytes()
	}
	fail("unsupported algorithm %q", alg)
	return nil, nil
}

func encapsulate(alg string, ek []byte) (ss, ct []byte) {
	switch alg {
	case "ml-kem-768":
		k, err := mlkem.NewEncapsulationKey768(ek)
		if err != nil {
			fail("%v", err)
		}
		return k.Encapsulate()
	case "ml-kem-1024":
		k, err := mlkem.NewEncapsulationKey1024(ek)
		if err != nil {
			fail("%v", err)
		}
		return k.Encapsulate()
	}
	fail("unsupported algorithm %q", alg)
	return nil, nil
}

func readPEM(path, label string) []byte {
	block, _ := pem.Decode(mustRead(path))
	if block == nil || block.Type != label {
		fail("%s: no %s PEM block", path, label)
	}
	return block.Bytes
}

func main() {
	a := os.Args[1:]
	if len(a) == 0 {
		fail("usage: see the source")
	}
	switch {
	case a[0] == "mlkem-ek" && len(a) == 3:
		_, ek := decapsulationKey(a[1], mustHex(a[2]))
		fmt.Println(hex.EncodeToString(ek))
	case a[0] == "mlkem-encap" && len(a) == 5:
		ss, ct := encapsulate(a[1], mustRead(a[2]))
		mustWrite(a[3], ct)
		mustWrite(a[4], ss)
	case a[0] == "mlkem-decap" && len(a) == 5:
		dk, _ := decapsulationKey(a[1], mustHex(a[2]))
		ss, err := dk.Decapsulate(mustRead(a[3]))
		if err != nil {
			fail("%v", err)
		}
		mustWrite(a[4], ss)
	case a[0] == "ed25519-keygen" && len(a) == 4:
		priv := ed25519.NewKeyFromSeed(mustHex(a[1]))
		der, err := x509.MarshalPKCS8PrivateKey(priv)
		if err != nil {
			fail("%v", err)
		}
		pub, err := x509.MarshalPKIXPublicKey(priv.Public())
		if err != nil {
			fail("%v", err)
		}
		mustWrite(a[2], pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
		mustWrite(a[3], pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}))
	case a[0] == "ed25519-sign" && len(a) == 4:
		k, err := x509.ParsePKCS8PrivateKey(readPEM(a[1], "PRIVATE KEY"))
		if err != nil {
			fail("%v", err)
		}
		priv, ok := k.(ed25519.PrivateKey)
		if !ok {
			fail("not an Ed25519 key")
		}
		mustWrite(a[3], ed25519.Sign(priv, mustRead(a[2])))
	case a[0] == "ed25519-verify" && len(a) == 4:
		k, err := x509.ParsePKIXPublicKey(readPEM(a[1], "PUBLIC KEY"))
		if err != nil {
			fail("%v", err)
		}
		pub, ok := k.(ed25519.PublicKey)
		if !ok {
			fail("not an Ed25519 key")
		}
		if ed25519.Verify(pub, mustRead(a[2]), mustRead(a[3])) {
			fmt.Println("valid")
			return
		}
		fmt.Println("invalid")
		os.Exit(1)
	case strings.HasPrefix(a[0], "slhdsa-"):
		slhMain(a)
	case len(a[0]) > 5 && a[0][:5] == "hpke-":
		hpkeMain(a)
	case a[0] == "tls-pki" && len(a) == 2:
		tlsPKI(a[1])
	case a[0] == "tls-server" && len(a) == 4:
		tlsServer(a[1], a[2], a[3])
	case a[0] == "tls-client" && len(a) == 4:
		tlsClient(a[1], a[2], a[3])
	default:
		fail("bad arguments %q", a)
	}
}
