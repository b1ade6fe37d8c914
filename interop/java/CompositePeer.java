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
import java.util.Base64;
import java.util.Date;
import java.util.HexFormat;

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
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.operator.ContentSigner;

public class CompositePeer {
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

    static void setContext(Signature s, String[] args, int at) throws Exception {
        if (args.length > at) {
            s.setParameter(new ContextParameterSpec(HexFormat.of().parseHex(args[at])));
        }
    }

    /** A ContentSigner over the JCA composite signature: the combination's
     * OID with absent parameters, as the draft's X.509 profile fixes. */
    static ContentSigner signer(PrivateKey key) throws Exception {
        String oid = oidOf(key);
        Signature s = Signature.getInstance(oid, BC);
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

    public static void main(String[] args) throws Exception {
        Security.addProvider(new BouncyCastleProvider());
        switch (args[0]) {
            case "keygen" -> {
                KeyPair kp = KeyPairGenerator.getInstance(args[1], BC).generateKeyPair();
                writePem(args[2], "PRIVATE KEY", kp.getPrivate().getEncoded());
                writePem(args[3], "PUBLIC KEY", kp.getPublic().getEncoded());
            }
            case "sign" -> {
                PrivateKey sk = privateKey(args[1]);
                Signature s = Signature.getInstance(oidOf(sk), BC);
                s.initSign(sk, new SecureRandom());
                setContext(s, args, 4);
                s.update(Files.readAllBytes(Path.of(args[2])));
                Files.write(Path.of(args[3]), s.sign());
            }
            case "verify" -> {
                PublicKey pk = publicKey(args[1]);
                String oid = SubjectPublicKeyInfo.getInstance(pk.getEncoded()).getAlgorithm().getAlgorithm().getId();
                Signature s = Signature.getInstance(oid, BC);
                s.initVerify(pk);
                setContext(s, args, 4);
                s.update(Files.readAllBytes(Path.of(args[2])));
                boolean ok;
                try {
                    ok = s.verify(Files.readAllBytes(Path.of(args[3])));
                } catch (java.security.SignatureException e) {
                    ok = false; // a malformed signature
                }
                System.out.println(ok ? "valid" : "invalid");
                System.exit(ok ? 0 : 1);
            }
            case "cert" -> {
                PrivateKey signing = privateKey(args[1]);
                SubjectPublicKeyInfo subjectKey = SubjectPublicKeyInfo.getInstance(readPem(args[2], "PUBLIC KEY"));
                X500Name subject = new X500Name(args[4]);
                X500Name issuer = subject;
                boolean ca = args.length <= 5;
                if (!ca) {
                    issuer = new X509CertificateHolder(readPem(args[5], "CERTIFICATE")).getSubject();
                }
                long now = System.currentTimeMillis();
                X509v3CertificateBuilder b = new X509v3CertificateBuilder(issuer,
                        new BigInteger(64, new SecureRandom()).setBit(62),
                        new Date(now - 3600_000L), new Date(now + 30 * 86400_000L), subject, subjectKey);
                b.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
                b.addExtension(Extension.keyUsage, true, new KeyUsage(
                        ca ? KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature
                           : KeyUsage.digitalSignature));
                writePem(args[3], "CERTIFICATE", b.build(signer(signing)).getEncoded());
            }
            case "verifycert" -> {
                CertificateFactory cf = CertificateFactory.getInstance("X.509", BC);
                X509Certificate cert = (X509Certificate) cf.generateCertificate(
                        new java.io.ByteArrayInputStream(readPem(args[1], "CERTIFICATE")));
                X509Certificate ca = (X509Certificate) cf.generateCertificate(
                        new java.io.ByteArrayInputStream(readPem(args[2], "CERTIFICATE")));
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
