package main

// The TLS side of the Go peer (crypto/tls, Go 1.26): a throwaway Ed25519
// PKI (Go's crypto/x509 has no ML-DSA), and a one-connection server and a
// client restricted to one key exchange group, each printing the group
// from its own ConnectionState.
//
//	gopeer tls-pki DIR                       -> DIR/root.pem, chain.pem, key.pem
//	gopeer tls-server CHAIN.pem KEY.pem GROUP  (prints "listening: ADDR" first)
//	gopeer tls-client HOST:PORT ROOT.pem GROUP

import (
	"bufio"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"time"
)

var tlsGroups = map[string]tls.CurveID{
	"X25519MLKEM768":     tls.X25519MLKEM768,
	"SecP256r1MLKEM768":  tls.SecP256r1MLKEM768,
	"SecP384r1MLKEM1024": tls.SecP384r1MLKEM1024,
	"X25519":             tls.X25519,
}

func tlsGroup(name string) tls.CurveID {
	g, ok := tlsGroups[name]
	if !ok {
		fail("unknown group %s", name)
	}
	return g
}

func must[T any](v T, err error) T {
	if err != nil {
		fail("%v", err)
	}
	return v
}

func pemFile(path, label string, der []byte) {
	mustWrite(path, pem.EncodeToMemory(&pem.Block{Type: label, Bytes: der}))
}

func tlsPKI(dir string) {
	now := time.Now()
	rootPub, rootPriv := must2(ed25519.GenerateKey(rand.Reader))
	root := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "Go interop root", Organization: []string{"pqkit interop"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign,
	}
	rootDER := must(x509.CreateCertificate(rand.Reader, root, root, rootPub, rootPriv))
	rootCert := must(x509.ParseCertificate(rootDER))
	leafPub, leafPriv := must2(ed25519.GenerateKey(rand.Reader))
	leaf := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "localhost", Organization: []string{"pqkit interop"}},
		DNSNames:     []string{"localhost"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
	}
	leafDER := must(x509.CreateCertificate(rand.Reader, leaf, rootCert, leafPub, rootPriv))
	pemFile(filepath.Join(dir, "root.pem"), "CERTIFICATE", rootDER)
	chain := append(
		pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: leafDER}),
		pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: rootDER})...)
	mustWrite(filepath.Join(dir, "chain.pem"), chain)
	pemFile(filepath.Join(dir, "key.pem"), "PRIVATE KEY", must(x509.MarshalPKCS8PrivateKey(leafPriv)))
}

func must2[A, B any](a A, b B, err error) (A, B) {
	if err != nil {
		fail("%v", err)
	}
	return a, b
}

func tlsServer(chainFile, keyFile, group string) {
	cert := must(tls.LoadX509KeyPair(chainFile, keyFile))
	cfg := &tls.Config{
		Certificates:     []tls.Certificate{cert},
		MinVersion:       tls.VersionTLS13,
		CurvePreferences: []tls.CurveID{tlsGroup(group)},
	}
	ln := must(tls.Listen("tcp", "127.0.0.1:0", cfg))
	fmt.Printf("listening: %s\n", ln.Addr())
	os.Stdout.Sync()
	conn := must(ln.Accept()).(*tls.Conn)
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	if err := conn.Handshake(); err != nil {
		fail("handshake: %v", err)
	}
	must(bufio.NewReader(conn).ReadString('\n'))
	info := fmt.Sprintf("group: %s\n", conn.ConnectionState().CurveID)
	fmt.Print(info)
	fmt.Fprintf(conn, "HTTP/1.0 200 OK\r\ncontent-length: %d\r\n\r\n%s", len(info), info)
	conn.Close()
}

func tlsClient(addr, rootFile, group string) {
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(mustRead(rootFile)) {
		fail("%s: no certificates", rootFile)
	}
	cfg := &tls.Config{
		RootCAs:          pool,
		ServerName:       "localhost",
		MinVersion:       tls.VersionTLS13,
		CurvePreferences: []tls.CurveID{tlsGroup(group)},
	}
	conn := must(tls.Dial("tcp", addr, cfg))
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	fmt.Fprintf(conn, "ping\n")
	resp := string(must(io.ReadAll(conn)))
	state := conn.ConnectionState()
	first, _, _ := strings.Cut(resp, "\r\n")
	fmt.Printf("group: %s\npeer certificate subject: %s\nresponse: %s\n",
		state.CurveID, state.PeerCertificates[0].Subject, first)
}
