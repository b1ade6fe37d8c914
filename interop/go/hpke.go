package main

// HPKE through Go 1.26's crypto/hpke, for the interop suite:
//
//	gopeer hpke-pub KEM SKHEX                              -> pk hex
//	gopeer hpke-derive KEM IKMHEX                          -> sk hex, pk hex
//	gopeer hpke-seal KEM KDF AEAD PKFILE INFOHEX AADHEX PTFILE OUTFILE
//	gopeer hpke-open KEM KDF AEAD SKHEX INFOHEX AADHEX INFILE OUTFILE
//
// KEM, KDF and AEAD are registry identifiers in hex (0x0041, ...). Sealed
// files are enc || ciphertext. hpke-open exits 1 when the ciphertext does
// not authenticate.

import (
	"crypto/hpke"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
)

func hpkeID(s string) uint16 {
	v, err := strconv.ParseUint(s, 0, 16)
	if err != nil {
		fail("bad identifier %q", s)
	}
	return uint16(v)
}

func hpkeSuite(kemID, kdfID, aeadID string) (hpke.KEM, hpke.KDF, hpke.AEAD) {
	kem, err := hpke.NewKEM(hpkeID(kemID))
	if err != nil {
		fail("%v", err)
	}
	kdf, err := hpke.NewKDF(hpkeID(kdfID))
	if err != nil {
		fail("%v", err)
	}
	aead, err := hpke.NewAEAD(hpkeID(aeadID))
	if err != nil {
		fail("%v", err)
	}
	return kem, kdf, aead
}

// encLen is Nenc of the KEMs the suite exercises (crypto/hpke keeps it
// unexported).
var encLen = map[uint16]int{
	0x0010: 65, 0x0011: 97, 0x0020: 32, 0x0041: 1088, 0x0042: 1568,
	0x0050: 1088 + 65, 0x0051: 1568 + 97, 0x647a: 1120,
}

func hpkeMain(a []string) {
	switch {
	case a[0] == "hpke-pub" && len(a) == 3:
		kem, err := hpke.NewKEM(hpkeID(a[1]))
		if err != nil {
			fail("%v", err)
		}
		sk, err := kem.NewPrivateKey(mustHex(a[2]))
		if err != nil {
			fail("%v", err)
		}
		fmt.Println(hex.EncodeToString(sk.PublicKey().Bytes()))
	case a[0] == "hpke-derive" && len(a) == 3:
		kem, err := hpke.NewKEM(hpkeID(a[1]))
		if err != nil {
			fail("%v", err)
		}
		sk, err := kem.DeriveKeyPair(mustHex(a[2]))
		if err != nil {
			fail("%v", err)
		}
		skb, err := sk.Bytes()
		if err != nil {
			fail("%v", err)
		}
		fmt.Println(hex.EncodeToString(skb))
		fmt.Println(hex.EncodeToString(sk.PublicKey().Bytes()))
	case a[0] == "hpke-seal" && len(a) == 9:
		kem, kdf, aead := hpkeSuite(a[1], a[2], a[3])
		pk, err := kem.NewPublicKey(mustRead(a[4]))
		if err != nil {
			fail("%v", err)
		}
		enc, s, err := hpke.NewSender(pk, kdf, aead, mustHex(a[5]))
		if err != nil {
			fail("%v", err)
		}
		ct, err := s.Seal(mustHex(a[6]), mustRead(a[7]))
		if err != nil {
			fail("%v", err)
		}
		mustWrite(a[8], append(enc, ct...))
	case a[0] == "hpke-open" && len(a) == 9:
		kem, kdf, aead := hpkeSuite(a[1], a[2], a[3])
		sk, err := kem.NewPrivateKey(mustHex(a[4]))
		if err != nil {
			fail("%v", err)
		}
		sealed := mustRead(a[7])
		n, ok := encLen[hpkeID(a[1])]
		if !ok || len(sealed) < n {
			fail("sealed input too short for KEM %s", a[1])
		}
		r, err := hpke.NewRecipient(sealed[:n], sk, kdf, aead, mustHex(a[5]))
		if err != nil {
			fail("%v", err)
		}
		pt, err := r.Open(mustHex(a[6]), sealed[n:])
		if err != nil {
			fmt.Fprintln(os.Stderr, "gopeer: open:", err)
			os.Exit(1)
		}
		mustWrite(a[8], pt)
	default:
		fail("bad arguments %q", a)
	}
	os.Exit(0)
}
