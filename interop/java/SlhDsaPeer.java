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
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Security;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;

import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.jcajce.spec.ContextParameterSpec;
import org.bouncycastle.jcajce.spec.SLHDSAParameterSpec;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.operator.ContentSigner;

public class SlhDsaPeer {
    static final String BC = "BC";

    static byte[] readPem(String path, String label) throws Exception {
        String text = Files.readString(Path.of(path), StandardCharsets.US_ASCII);
        String begin = "-----BEGIN " + label + "-----", end = "-----END " + label + "-----";
        int b = text.indexOf(begin), e = text.indexOf(end);
        if (b < 0 || e < b) {
            throw new IllegalArgumentException(path + ": no " + label + " PEM block");
        }
        return Base64.getMimeDecoder().decode(text.substring(b + begin.length(), e));
    }

    static void writePem(String path, String label, byte[] der) throws Exception {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        Files.writeString(Path.of(path),
                "-----BEGIN " + label + "-----\n" + body + "\n-----END " + label + "-----\n",
                StandardCharsets.US_ASCII);
    }

    /** The key by its own OID: BC's key factory for that parameter set. */
    static PrivateKey privateKey(String path) throws Exception {
        byte[] der = readPem(path, "PRIVATE KEY");
        String oid = PrivateKeyInfo.getInstance(der).getPrivateKeyAlgorithm().getAlgorithm().getId();
        return KeyFactory.getInstance(oid, BC).generatePrivate(new PKCS8EncodedKeySpec(der));
    }

    static PublicKey publicKey(String path) throws Exception {
        byte[] der = readPem(path, "PUBLIC KEY");
        String oid = SubjectPublicKeyInfo.getInstance(der).getAlgorithm().getAlgorithm().getId();
        return KeyFactory.getInstance(oid, BC).generatePublic(new X509EncodedKeySpec(der));
    }

    static String oidOf(PrivateKey key) {
        return PrivateKeyInfo.getInstance(key.getEncoded()).getPrivateKeyAlgorithm().getAlgorithm().getId();
    }

    static void setContext(Signature s, List<String> args, int at) throws Exception {
        if (args.size() > at) {
            s.setParameter(new ContextParameterSpec(HexFormat.of().parseHex(args.get(at))));
        }
    }

    /** A ContentSigner over pure SLH-DSA: the key's OID with absent
     * parameters (RFC 9909, section 3), hedged. */
    static ContentSigner signer(PrivateKey key) throws Exception {
        String oid = oidOf(key);
        Signature s = Signature.getInstance("SLH-DSA", BC);
        s.initSign(key, new SecureRandom());
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        return new ContentSigner() {
            public AlgorithmIdentifier getAlgorithmIdentifier() {
                return new AlgorithmIdentifier(new ASN1ObjectIdentifier(oid));
            }

            public OutputStream getOutputStream() {
                return buf;
            }

            public byte[] getSignature() {
                try {
                    s.update(buf.toByteArray());
                    return s.sign();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        };
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
                writePem(args.get(1), "PRIVATE KEY", kp.getPrivate().getEncoded());
                writePem(args.get(2), "PUBLIC KEY", kp.getPublic().getEncoded());
            }
            case "sign" -> {
                PrivateKey sk = privateKey(args.get(0));
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
                PublicKey pk = publicKey(args.get(0));
                Signature s = Signature.getInstance(sigAlg, BC);
                s.initVerify(pk);
                setContext(s, args, 3);
                s.update(Files.readAllBytes(Path.of(args.get(1))));
                boolean ok;
                try {
                    ok = s.verify(Files.readAllBytes(Path.of(args.get(2))));
                } catch (java.security.SignatureException e) {
                    ok = false; // a malformed signature
                }
                System.out.println(ok ? "valid" : "invalid");
                System.exit(ok ? 0 : 1);
            }
            case "cert" -> {
                PrivateKey signing = privateKey(args.get(0));
                SubjectPublicKeyInfo subjectKey = SubjectPublicKeyInfo.getInstance(readPem(args.get(1), "PUBLIC KEY"));
                X500Name subject = new X500Name(args.get(3));
                X500Name issuer = subject;
                boolean ca = args.size() <= 4;
                if (!ca) {
                    issuer = new X509CertificateHolder(readPem(args.get(4), "CERTIFICATE")).getSubject();
                }
                long now = System.currentTimeMillis();
                X509v3CertificateBuilder b = new X509v3CertificateBuilder(issuer,
                        new BigInteger(64, new SecureRandom()).setBit(62),
                        new Date(now - 3600_000L), new Date(now + 30 * 86400_000L), subject, subjectKey);
                b.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
                b.addExtension(Extension.keyUsage, true, new KeyUsage(
                        ca ? KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature
                           : KeyUsage.digitalSignature));
                writePem(args.get(2), "CERTIFICATE", b.build(signer(signing)).getEncoded());
            }
            case "verifycert" -> {
                CertificateFactory cf = CertificateFactory.getInstance("X.509", BC);
                X509Certificate cert = (X509Certificate) cf.generateCertificate(
                        new java.io.ByteArrayInputStream(readPem(args.get(0), "CERTIFICATE")));
                X509Certificate ca = (X509Certificate) cf.generateCertificate(
                        new java.io.ByteArrayInputStream(readPem(args.get(1), "CERTIFICATE")));
                String reason = null;
                try {
                    cert.checkValidity();
                    if (!cert.getIssuerX500Principal().equals(ca.getSubjectX500Principal())) {
                        reason = "issuer name";
                    } else {
                        cert.verify(ca.getPublicKey(), BC);
                    }
                } catch (Exception e) {
                    reason = e.toString();
                }
                System.out.println(reason == null ? "valid" : "invalid: " + reason);
                System.exit(reason == null ? 0 : 1);
            }
            default -> {
                System.err.println("usage: keygen | sign | verify | cert | verifycert");
                System.exit(2);
            }
        }
    }
}
