// The Java side of pqkit's TLS interop: Bouncy Castle's JSSE provider
// (BCJSSE) and its ML-DSA / ML-KEM code, run in source-file mode:
//
//   java -cp 'jars/*' TlsPeer.java pki DIR                -> DIR/root.pem, chain.pem, key.pem
//   java -cp 'jars/*' TlsPeer.java server CHAIN KEY GROUP  (prints "listening: ADDR" first)
//   java -cp 'jars/*' TlsPeer.java client HOST:PORT ROOT GROUP
//
// The PKI is an ML-DSA-87 root and an ML-DSA-65 leaf for localhost, made
// and signed by Bouncy Castle. Each side offers or accepts exactly the one
// key exchange group GROUP and only ML-DSA signature schemes, so a
// completed handshake used them. Any failure exits 2.

import java.io.*;
import java.math.BigInteger;
import java.net.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.security.*;
import java.security.cert.*;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.*;
import javax.net.ssl.*;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.*;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.jsse.provider.BouncyCastleJsseProvider;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

public class TlsPeer {
    static final String SCHEMES = "mldsa44,mldsa65,mldsa87";

    public static void main(String[] a) {
        try {
            Security.insertProviderAt(new BouncyCastleProvider(), 1);
            Security.insertProviderAt(new BouncyCastleJsseProvider(), 2);
            if (a.length == 2 && a[0].equals("pki")) {
                pki(Paths.get(a[1]));
            } else if (a.length == 4 && a[0].equals("server")) {
                restrict(a[3]);
                server(a[1], a[2]);
            } else if (a.length == 4 && a[0].equals("client")) {
                restrict(a[3]);
                client(a[1], a[2]);
            } else {
                throw new IllegalArgumentException("bad arguments " + Arrays.toString(a));
            }
        } catch (Exception e) {
            System.err.println("tlspeer: " + e);
            System.exit(2);
        }
    }

    /** One group, ML-DSA schemes only (BCJSSE reads the JDK's properties). */
    static void restrict(String group) {
        System.setProperty("jdk.tls.namedGroups", group);
        System.setProperty("jdk.tls.client.SignatureSchemes", SCHEMES);
        System.setProperty("jdk.tls.server.SignatureSchemes", SCHEMES);
    }

    static X509Certificate issue(String alg, PrivateKey signer, X500Name issuer, X500Name subject,
                                 PublicKey key, boolean ca, long serial) throws Exception {
        long now = System.currentTimeMillis();
        var b = new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(serial),
                new Date(now - 3_600_000L), new Date(now + 86_400_000L), subject, key);
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
        if (ca) {
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        } else {
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
            b.addExtension(Extension.subjectAlternativeName, false,
                    new GeneralNames(new GeneralName(GeneralName.dNSName, "localhost")));
            b.addExtension(Extension.extendedKeyUsage, false,
                    new ExtendedKeyUsage(new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
        }
        var holder = b.build(new JcaContentSignerBuilder(alg).setProvider("BC").build(signer));
        return new JcaX509CertificateConverter().setProvider("BC").getCertificate(holder);
    }

    static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + label + "-----\n";
    }

    static void pki(Path dir) throws Exception {
        KeyPair root = KeyPairGenerator.getInstance("ML-DSA-87", "BC").generateKeyPair();
        KeyPair leaf = KeyPairGenerator.getInstance("ML-DSA-65", "BC").generateKeyPair();
        var rootName = new X500Name("CN=Bouncy Castle ML-DSA-87 root,O=pqkit interop");
        var leafName = new X500Name("CN=localhost,O=pqkit interop");
        var rootCert = issue("ML-DSA-87", root.getPrivate(), rootName, rootName, root.getPublic(), true, 1);
        var leafCert = issue("ML-DSA-87", root.getPrivate(), rootName, leafName, leaf.getPublic(), false, 2);
        Files.writeString(dir.resolve("root.pem"), pem("CERTIFICATE", rootCert.getEncoded()));
        Files.writeString(dir.resolve("chain.pem"),
                pem("CERTIFICATE", leafCert.getEncoded()) + pem("CERTIFICATE", rootCert.getEncoded()));
        Files.writeString(dir.resolve("key.pem"), pem("PRIVATE KEY", leaf.getPrivate().getEncoded()));
    }

    static byte[] pemBody(String text, String label) {
        int s = text.indexOf("-----BEGIN " + label + "-----");
        int e = text.indexOf("-----END " + label + "-----", s);
        if (s < 0 || e < 0) {
            throw new IllegalArgumentException("no " + label + " PEM block");
        }
        String body = text.substring(text.indexOf('\n', s) + 1, e);
        return Base64.getMimeDecoder().decode(body);
    }

    static List<X509Certificate> certs(String path) throws Exception {
        var cf = CertificateFactory.getInstance("X.509", "BC");
        var out = new ArrayList<X509Certificate>();
        for (var c : cf.generateCertificates(new FileInputStream(path))) {
            out.add((X509Certificate) c);
        }
        return out;
    }

    static SSLContext context(KeyManager[] km, TrustManager[] tm) throws Exception {
        SSLContext ctx = SSLContext.getInstance("TLSv1.3", "BCJSSE");
        ctx.init(km, tm, new SecureRandom());
        return ctx;
    }

    static void server(String chainPath, String keyPath) throws Exception {
        var chain = certs(chainPath);
        byte[] pkcs8 = pemBody(Files.readString(Paths.get(keyPath)), "PRIVATE KEY");
        PrivateKey key = KeyFactory.getInstance("ML-DSA", "BC").generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
        KeyStore ks = KeyStore.getInstance("PKCS12", "BC");
        ks.load(null, null);
        ks.setKeyEntry("leaf", key, "pw".toCharArray(), chain.toArray(new X509Certificate[0]));
        var kmf = KeyManagerFactory.getInstance("PKIX", "BCJSSE");
        kmf.init(ks, "pw".toCharArray());
        var ctx = context(kmf.getKeyManagers(), null);
        try (var listener = (SSLServerSocket) ctx.getServerSocketFactory()
                .createServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            listener.setEnabledProtocols(new String[] {"TLSv1.3"});
            System.out.println("listening: 127.0.0.1:" + listener.getLocalPort());
            System.out.flush();
            try (var s = (SSLSocket) listener.accept()) {
                s.setSoTimeout(20_000);
                s.startHandshake();
                var in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                in.readLine();
                String info = "group: " + System.getProperty("jdk.tls.namedGroups") + "\n"
                        + "cipher suite: " + s.getSession().getCipherSuite() + "\n";
                System.out.print(info);
                var out = s.getOutputStream();
                out.write(("HTTP/1.0 200 OK\r\ncontent-length: " + info.length() + "\r\n\r\n" + info)
                        .getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        }
    }

    static void client(String addr, String rootPath) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12", "BC");
        trust.load(null, null);
        int i = 0;
        for (var c : certs(rootPath)) {
            trust.setCertificateEntry("root" + i++, c);
        }
        var tmf = TrustManagerFactory.getInstance("PKIX", "BCJSSE");
        tmf.init(trust);
        var ctx = context(null, tmf.getTrustManagers());
        int colon = addr.lastIndexOf(':');
        String host = addr.substring(0, colon);
        int port = Integer.parseInt(addr.substring(colon + 1));
        try (var s = (SSLSocket) ctx.getSocketFactory().createSocket(host, port)) {
            s.setSoTimeout(20_000);
            s.setEnabledProtocols(new String[] {"TLSv1.3"});
            var params = s.getSSLParameters();
            params.setEndpointIdentificationAlgorithm("HTTPS");
            s.setSSLParameters(params);
            s.startHandshake();
            var out = s.getOutputStream();
            out.write("ping\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            var in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            String first = in.readLine();
            var peer = (X509Certificate) s.getSession().getPeerCertificates()[0];
            System.out.println("group: " + System.getProperty("jdk.tls.namedGroups"));
            System.out.println("peer certificate algorithm: " + peer.getSigAlgName());
            System.out.println("peer public key algorithm: " + peer.getPublicKey().getAlgorithm());
            System.out.println("response: " + first);
        }
    }
}
