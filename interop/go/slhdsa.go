package main

// SLH-DSA (FIPS 205) through Cloudflare CIRCL's sign/slhdsa, all twelve
// parameter sets. Keys are raw files: the private key SK.seed || SK.prf ||
// PK.seed || PK.root (4n bytes), the public key PK.seed || PK.root (2n
// bytes), as in FIPS 205 and inside RFC 9909's PKCS#8 and SPKI.
//
//	gopeer slhdsa-keygen ALG SEEDHEX SKFILE PKFILE
//	    SEEDHEX is SK.seed || SK.prf || PK.seed (3n bytes), the inputs of
//	    slh_keygen_internal (pqkit keygen --seed takes the same)
//	gopeer slhdsa-sign [-deterministic] [-context HEX] [-prehash HASH] ALG SKFILE MSGFILE SIGFILE
//	    hedged (fresh opt_rand) unless -deterministic (opt_rand = PK.seed)
//	gopeer slhdsa-verify [-context HEX] [-prehash HASH] ALG PKFILE MSGFILE SIGFILE
//	    -> prints valid (exit 0) or invalid (exit 1)
//
// ALG is pqkit's name (slh-dsa-sha2-128s, ..., slh-dsa-shake-256f); HASH
// one of pqkit's --prehash names (sha2-256, ..., shake-256), which makes
// the signature HashSLH-DSA.

import (
	"bytes"
	"crypto"
	_ "crypto/sha256" // crypto.Hash.New for the pre-hashes
	_ "crypto/sha3"
	_ "crypto/sha512"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/cloudflare/circl/sign/slhdsa"
	"github.com/cloudflare/circl/xof"
)

func slhID(alg string) slhdsa.ID {
	id, err := slhdsa.IDByName(alg)
	if err != nil {
		fail("unsupported algorithm %q: %v", alg, err)
	}
	return id
}

// slhMessage is the message as CIRCL signs it: pure, or pre-hashed with
// the named function (FIPS 205's HashSLH-DSA).
func slhMessage(msg []byte, prehash string) *slhdsa.Message {
	if prehash == "" {
		return slhdsa.NewMessage(msg)
	}
	hashes := map[string]crypto.Hash{
		"sha2-224": crypto.SHA224, "sha2-256": crypto.SHA256, "sha2-384": crypto.SHA384,
		"sha2-512": crypto.SHA512, "sha2-512/224": crypto.SHA512_224,
		"sha2-512/256": crypto.SHA512_256, "sha3-224": crypto.SHA3_224,
		"sha3-256": crypto.SHA3_256, "sha3-384": crypto.SHA3_384, "sha3-512": crypto.SHA3_512,
	}
	xofs := map[string]xof.ID{"shake-128": xof.SHAKE128, "shake-256": xof.SHAKE256}
	var ph *slhdsa.PreHash
	var err error
	if h, ok := hashes[prehash]; ok {
		ph, err = slhdsa.NewPreHashWithHash(h)
	} else if x, ok := xofs[prehash]; ok {
		ph, err = slhdsa.NewPreHashWithXof(x)
	} else {
		fail("unsupported pre-hash %q", prehash)
	}
	if err != nil {
		fail("%v", err)
	}
	if _, err := io.Copy(ph, bytes.NewReader(msg)); err != nil {
		fail("%v", err)
	}
	m, err := ph.BuildMessage()
	if err != nil {
		fail("%v", err)
	}
	return m
}

func slhMain(a []string) {
	fs := flag.NewFlagSet(a[0], flag.ExitOnError)
	deterministic := fs.Bool("deterministic", false, "opt_rand = PK.seed (slhdsa-sign)")
	context := fs.String("context", "", "the context string, hex")
	prehash := fs.String("prehash", "", "HashSLH-DSA with this pre-hash")
	if err := fs.Parse(a[1:]); err != nil {
		fail("%v", err)
	}
	args := fs.Args()
	ctx := mustHex(*context)
	switch {
	case a[0] == "slhdsa-keygen" && len(args) == 4 && *context == "" && *prehash == "":
		// GenerateKey reads SK.seed, SK.prf and PK.seed, in that order,
		// from its source of randomness: FIPS 205's slh_keygen_internal.
		seed := mustHex(args[1])
		pub, priv, err := slhdsa.GenerateKey(bytes.NewReader(seed), slhID(args[0]))
		if err != nil {
			fail("%v", err)
		}
		sk, err := priv.MarshalBinary()
		if err != nil {
			fail("%v", err)
		}
		pk, err := pub.MarshalBinary()
		if err != nil {
			fail("%v", err)
		}
		if len(seed) != len(sk)/4*3 {
			fail("the seed must be %d bytes, not %d", len(sk)/4*3, len(seed))
		}
		mustWrite(args[2], sk)
		mustWrite(args[3], pk)
	case a[0] == "slhdsa-sign" && len(args) == 4:
		priv := slhdsa.PrivateKey{ID: slhID(args[0])}
		if err := priv.UnmarshalBinary(mustRead(args[1])); err != nil {
			fail("%s: %v", args[1], err)
		}
		msg := slhMessage(mustRead(args[2]), *prehash)
		var sig []byte
		var err error
		if *deterministic {
			sig, err = slhdsa.SignDeterministic(&priv, msg, ctx)
		} else {
			sig, err = slhdsa.SignRandomized(&priv, nil, msg, ctx)
		}
		if err != nil {
			fail("%v", err)
		}
		mustWrite(args[3], sig)
	case a[0] == "slhdsa-verify" && len(args) == 4 && !*deterministic:
		pub := slhdsa.PublicKey{ID: slhID(args[0])}
		if err := pub.UnmarshalBinary(mustRead(args[1])); err != nil {
			fail("%s: %v", args[1], err)
		}
		if slhdsa.Verify(&pub, slhMessage(mustRead(args[2]), *prehash), mustRead(args[3]), ctx) {
			fmt.Println("valid")
			return
		}
		fmt.Println("invalid")
		os.Exit(1)
	default:
		fail("bad arguments %q", a)
	}
}
