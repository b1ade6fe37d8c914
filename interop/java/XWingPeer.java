// X-Wing (draft-connolly-cfrg-xwing-kem) through Bouncy Castle's low-level
// API (org.bouncycastle.pqc.crypto.xwing; 1.84 has no PKCS#8 form for it),
// for the interop suite:
//
//   java XWingPeer pub SEEDHEX            -> the public key (hex) of a seed
//   java XWingPeer decap SEEDHEX CT       -> the shared secret (hex)
//   java XWingPeer encap PK CT            -> writes CT, prints the secret (hex)
//
// PK and CT are files of raw bytes.
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;

import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.SecretWithEncapsulation;
import org.bouncycastle.pqc.crypto.xwing.XWingKEMExtractor;
import org.bouncycastle.pqc.crypto.xwing.XWingKEMGenerator;
import org.bouncycastle.pqc.crypto.xwing.XWingKeyGenerationParameters;
import org.bouncycastle.pqc.crypto.xwing.XWingKeyPairGenerator;
import org.bouncycastle.pqc.crypto.xwing.XWingPrivateKeyParameters;
import org.bouncycastle.pqc.crypto.xwing.XWingPublicKeyParameters;
import org.bouncycastle.util.test.FixedSecureRandom;

public class XWingPeer {
    public static void main(String[] args) throws Exception {
        HexFormat hex = HexFormat.of();
        switch (args[0]) {
            case "pub" -> {
                // The generator draws the 32-byte seed from its random source.
                XWingKeyPairGenerator g = new XWingKeyPairGenerator();
                g.init(new XWingKeyGenerationParameters(new FixedSecureRandom(hex.parseHex(args[1]))));
                AsymmetricCipherKeyPair kp = g.generateKeyPair();
                System.out.println(hex.formatHex(((XWingPublicKeyParameters) kp.getPublic()).getEncoded()));
            }
            case "decap" -> {
                XWingPrivateKeyParameters sk = new XWingPrivateKeyParameters(hex.parseHex(args[1]));
                byte[] ss = new XWingKEMExtractor(sk).extractSecret(Files.readAllBytes(Path.of(args[2])));
                System.out.println(hex.formatHex(ss));
            }
            case "encap" -> {
                XWingPublicKeyParameters pk = new XWingPublicKeyParameters(Files.readAllBytes(Path.of(args[1])));
                SecretWithEncapsulation e = new XWingKEMGenerator(new SecureRandom()).generateEncapsulated(pk);
                Files.write(Path.of(args[2]), e.getEncapsulation());
                System.out.println(hex.formatHex(e.getSecret()));
            }
            default -> throw new IllegalArgumentException("usage: pub | decap | encap");
        }
    }
}
