// Composite ML-DSA (draft-ietf-lamps-pq-composite-sigs, OIDs
// 1.3.6.1.5.5.7.6.37 to .54) through Bouncy Castle's JCA provider, for the
// interop suite. Keys are PKCS#8 / SPKI PEM files, messages and signatures
// raw files, a context (optional) hex; OID is the combination's OID.
//
//   java CompositePeer keygen OID KEY.pem PUB.pem    -> a fresh key pair
//   java CompositePeer sign KEY.pem MSG SIG [CTX]    -> a signature
//   java CompositePeer verify PUB.pem MSG SIG [CTX]  -> prints valid (exit 0) or invalid (exit 1)
//   java CompositePeer cert SIGNER.pem PUB.pem CERT.pem SUBJECT [CA.pem]
//        -> a certificate for PUB.pem signed by SIGNER.pem: a self-signed CA
//           (PUB.pem is SIGNER.pem's public key) when no CA is given, else an
//           end-entity certificate issued under CA.pem (SIGNER.pem's)
//   java CompositePeer verifycert CERT.pem CA.pem    -> prints valid (exit 0) or
//        invalid: REASON (exit 1): the signature under CA.pem's key, the
//        issuer name and the validity period
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
import java.util.HexFormat;
import org.bouncycastle.jcajce.spec.ContextParameterSpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;


public class CompositePeer {
    static final String BC = PeerPki.BC;

    static void setContext(Signature s, String[] args, int at) throws Exception {
        if (args.length > at) {
            s.setParameter(new ContextParameterSpec(HexFormat.of().parseHex(args[at])));
        }
    }

    public static void main(String[] args) throws Exception {
        Security.addProvider(new BouncyCastleProvider());
        switch (args[0]) {
            case "keygen" -> {
                KeyPair kp = KeyPairGenerator.getInstance(args[1], BC).generateKeyPair();
                PeerPki.writePem(args[2], "PRIVATE KEY", kp.getPrivate().getEncoded());
                PeerPki.writePem(args[3], "PUBLIC KEY", kp.getPublic().getEncoded());
            }
            case "sign" -> {
                PrivateKey sk = PeerPki.privateKey(args[1]);
                Signature s = Signature.getInstance(PeerPki.oidOf(sk), BC);
                s.initSign(sk, new SecureRandom());
                setContext(s, args, 4);
                s.update(Files.readAllBytes(Path.of(args[2])));
                Files.write(Path.of(args[3]), s.sign());
            }
            case "verify" -> {
                PublicKey pk = PeerPki.publicKey(args[1]);
                Signature s = Signature.getInstance(PeerPki.oidOf(pk), BC);
                s.initVerify(pk);
                setContext(s, args, 4);
                s.update(Files.readAllBytes(Path.of(args[2])));
                PeerPki.printVerdict(s, Files.readAllBytes(Path.of(args[3])));
            }
            // The JCA composite signature is named by the combination's OID.
            case "cert" -> PeerPki.cert(args[1], args[2], args[3], args[4],
                    args.length > 5 ? args[5] : null, PeerPki.oidOf(PeerPki.privateKey(args[1])));
            case "verifycert" -> PeerPki.verifyCert(args[1], args[2]);
            default -> {
                System.err.println("usage: keygen | sign | verify | cert | verifycert");
                System.exit(2);
            }
        }
    }
}
