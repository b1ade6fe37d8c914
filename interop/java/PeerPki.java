// What the interop suite's Bouncy Castle JCA peers (CompositePeer,
// SlhDsaPeer) share: PEM files, keys by their OID, a ContentSigner over a
// JCA signature, and the `cert` and `verifycert` commands.
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.Date;

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
import org.bouncycastle.operator.ContentSigner;

final class PeerPki {
    static final String BC = "BC";

    private PeerPki() {}

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

    /** A PKCS#8 PEM private key, through the key factory of its OID. */
    static PrivateKey privateKey(String path) throws Exception {
        byte[] der = readPem(path, "PRIVATE KEY");
        String oid = PrivateKeyInfo.getInstance(der).getPrivateKeyAlgorithm().getAlgorithm().getId();
        return KeyFactory.getInstance(oid, BC).generatePrivate(new PKCS8EncodedKeySpec(der));
    }

    /** An SPKI PEM public key, through the key factory of its OID. */
    static PublicKey publicKey(String path) throws Exception {
        byte[] der = readPem(path, "PUBLIC KEY");
        String oid = SubjectPublicKeyInfo.getInstance(der).getAlgorithm().getAlgorithm().getId();
        return KeyFactory.getInstance(oid, BC).generatePublic(new X509EncodedKeySpec(der));
    }

    static String oidOf(PrivateKey key) {
        return PrivateKeyInfo.getInstance(key.getEncoded()).getPrivateKeyAlgorithm().getAlgorithm().getId();
    }

    static String oidOf(PublicKey key) {
        return SubjectPublicKeyInfo.getInstance(key.getEncoded()).getAlgorithm().getAlgorithm().getId();
    }

    /** A ContentSigner over the JCA signature `alg` (hedged): the key's
     * OID with absent parameters, as the composite draft's and RFC 9909's
     * X.509 profiles fix. */
    static ContentSigner signer(PrivateKey key, String alg) throws Exception {
        String oid = oidOf(key);
        Signature s = Signature.getInstance(alg, BC);
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

    /** `cert SIGNER.pem PUB.pem CERT.pem SUBJECT [CA.pem]`: a certificate
     * for PUB.pem signed by SIGNER.pem through the JCA signature `alg`: a
     * self-signed CA when `caPath` is null, else an end-entity certificate
     * issued under it. */
    static void cert(String signerPath, String pubPath, String certPath, String subjectName,
            String caPath, String alg) throws Exception {
        PrivateKey signing = privateKey(signerPath);
        SubjectPublicKeyInfo subjectKey = SubjectPublicKeyInfo.getInstance(readPem(pubPath, "PUBLIC KEY"));
        X500Name subject = new X500Name(subjectName);
        X500Name issuer = subject;
        boolean ca = caPath == null;
        if (!ca) {
            issuer = new X509CertificateHolder(readPem(caPath, "CERTIFICATE")).getSubject();
        }
        long now = System.currentTimeMillis();
        X509v3CertificateBuilder b = new X509v3CertificateBuilder(issuer,
                new BigInteger(64, new SecureRandom()).setBit(62),
                new Date(now - 3600_000L), new Date(now + 30 * 86400_000L), subject, subjectKey);
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
        b.addExtension(Extension.keyUsage, true, new KeyUsage(
                ca ? KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature
                   : KeyUsage.digitalSignature));
        writePem(certPath, "CERTIFICATE", b.build(signer(signing, alg)).getEncoded());
    }

    /** `verifycert CERT.pem CA.pem`: prints valid (exit 0) or invalid:
     * REASON (exit 1): the signature under CA.pem's key, the issuer name
     * and the validity period. */
    static void verifyCert(String certPath, String caPath) throws Exception {
        CertificateFactory cf = CertificateFactory.getInstance("X.509", BC);
        X509Certificate cert = (X509Certificate) cf.generateCertificate(
                new ByteArrayInputStream(readPem(certPath, "CERTIFICATE")));
        X509Certificate ca = (X509Certificate) cf.generateCertificate(
                new ByteArrayInputStream(readPem(caPath, "CERTIFICATE")));
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

    /** Verifies with `s` (initialised, message fed): prints valid (exit 0)
     * or invalid (exit 1; a malformed signature is invalid). */
    static void printVerdict(Signature s, byte[] sig) {
        boolean ok;
        try {
            ok = s.verify(sig);
        } catch (java.security.SignatureException e) {
            ok = false;
        }
        System.out.println(ok ? "valid" : "invalid");
        System.exit(ok ? 0 : 1);
    }
}
