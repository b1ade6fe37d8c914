// SLH-DSA (FIPS 205; RFC 9909's OIDs 2.16.840.1.101.3.4.3.20 to .31)
// through Bouncy Castle's JCA provider, for the interop suite. Keys are
// PKCS#8 / SPKI PEM files, messages and signatures raw files, a context
// (optional) hex; SET is a parameter set by pqkit's name
// (slh-dsa-sha2-128s, ..., slh-dsa-shake-256f), which is also BC's.
//
//   java SlhDsaPeer keygen SET KEY.pem PUB.pem    -> a fresh key pair
//   java SlhDsaPeer sign [FLAGS] KEY.pem MSG SIG [CTX]  -> a signature
//   java SlhDsaPeer verify [--prehash] PUB.pem MSG SIG [CTX]
//        -> prints valid (exit 0) or invalid (exit 1)
//   java SlhDsaPeer cert SIGNER.pem PUB.pem CERT.pem SUBJECT [CA.pem]
//        -> a certificate for PUB.pem signed by SIGNER.pem: a self-signed CA
//           (PUB.pem is SIGNER.pem's public key) when no CA is given, else an
//           end-entity certificate issued under CA.pem (SIGNER.pem's)
//   java SlhDsaPeer verifycert CERT.pem CA.pem    -> prints valid (exit 0) or
//        invalid: REASON (exit 1): the signature under CA.pem's key, the
//        issuer name and the validity period
//
// FLAGS: --deterministic signs with opt_rand = PK.seed (BC does when it is
// given no SecureRandom), else hedged; --prehash signs HashSLH-DSA
// ("HASH-SLH-DSA") with the pre-hash BC pairs with the set: SHA-256 for
// SHA2-128s/f, SHA-512 for the other SHA2 sets, SHAKE128 for SHAKE-128s/f,
// SHAKE256 for the other SHAKE sets (RFC 9909's HashSLH-DSA pairs).
//
// Any other failure is an exception (exit 1 with a stack trace) or exit 2.
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Security;
import java.security.Signature;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import org.bouncycastle.jcajce.spec.ContextParameterSpec;
import org.bouncycastle.jcajce.spec.SLHDSAParameterSpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;

public class SlhDsaPeer {
    static final String BC = PeerPki.BC;

    static void setContext(Signature s, List<String> args, int at) throws Exception {
        if (args.size() > at) {
            s.setParameter(new ContextParameterSpec(HexFormat.of().parseHex(args.get(at))));
        }
    }

    public static void main(String[] argv) throws Exception {
        Security.addProvider(new BouncyCastleProvider());
        // Leading flags (--deterministic, --prehash), then the positional arguments.
        List<String> args = new ArrayList<>(Arrays.asList(argv));
        String cmd = args.remove(0);
        boolean deterministic = false, prehash = false;
        while (!args.isEmpty() && args.get(0).startsWith("--")) {
            switch (args.remove(0)) {
                case "--deterministic" -> deterministic = true;
                case "--prehash" -> prehash = true;
                default -> {
                    System.err.println("unknown flag");
                    System.exit(2);
                }
            }
        }
        String sigAlg = prehash ? "HASH-SLH-DSA" : "SLH-DSA";
        switch (cmd) {
            case "keygen" -> {
                KeyPairGenerator g = KeyPairGenerator.getInstance("SLH-DSA", BC);
                g.initialize(SLHDSAParameterSpec.fromName(args.get(0)), new SecureRandom());
                KeyPair kp = g.generateKeyPair();
                PeerPki.writePem(args.get(1), "PRIVATE KEY", kp.getPrivate().getEncoded());
                PeerPki.writePem(args.get(2), "PUBLIC KEY", kp.getPublic().getEncoded());
            }
            case "sign" -> {
                PrivateKey sk = PeerPki.privateKey(args.get(0));
                Signature s = Signature.getInstance(sigAlg, BC);
                if (deterministic) {
                    s.initSign(sk);
                } else {
                    s.initSign(sk, new SecureRandom());
                }
                setContext(s, args, 3);
                s.update(Files.readAllBytes(Path.of(args.get(1))));
                Files.write(Path.of(args.get(2)), s.sign());
            }
            case "verify" -> {
                PublicKey pk = PeerPki.publicKey(args.get(0));
                Signature s = Signature.getInstance(sigAlg, BC);
                s.initVerify(pk);
                setContext(s, args, 3);
                s.update(Files.readAllBytes(Path.of(args.get(1))));
                PeerPki.printVerdict(s, Files.readAllBytes(Path.of(args.get(2))));
            }
            // Certificates are signed with pure SLH-DSA (RFC 9909).
            case "cert" -> PeerPki.cert(args.get(0), args.get(1), args.get(2), args.get(3),
                    args.size() > 4 ? args.get(4) : null, "SLH-DSA");
            case "verifycert" -> PeerPki.verifyCert(args.get(0), args.get(1));
            default -> {
                System.err.println("usage: keygen | sign | verify | cert | verifycert");
                System.exit(2);
            }
        }
    }
}
