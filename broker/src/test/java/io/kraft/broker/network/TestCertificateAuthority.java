package io.kraft.broker.network;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.HashMap;
import java.util.Map;

/**
 * A certificate authority for TLS tests: issues certificates for any subject, each in a PKCS12 key store of its own
 * with its chain (the certificate, then the authority's), valid for localhost and 127.0.0.1; its trust store trusts
 * the authority alone. One {@code keytool} run per certificate (about a second); EC keys keep it fast.
 */
public final class TestCertificateAuthority {
    public static final String PASSWORD = TestCertificates.PASSWORD;
    private static final String AUTHORITY = "authority";

    private final Path dir;
    private final Path store;

    private TestCertificateAuthority(Path dir) {
        this.dir = dir;
        this.store = dir.resolve("authority.p12");
    }

    /** A new authority named {@code subject} (e.g. {@code CN=test-ca}), its files in {@code dir}. */
    public static TestCertificateAuthority create(Path dir, String subject) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        TestCertificateAuthority authority = new TestCertificateAuthority(dir);
        TestCertificates.keytool("-genkeypair", "-alias", AUTHORITY, "-keyalg", "EC", "-groupname", "secp256r1",
                "-validity", "2", "-dname", subject, "-ext", "bc:c", "-storetype", "PKCS12",
                "-keystore", authority.store.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD);
        return authority;
    }

    /**
     * Issues a certificate for {@code subject} (e.g. {@code CN=kraft-node-2}), once: asked again, the same one.
     *
     * @return a PKCS12 key store (password {@link #PASSWORD}) holding its key and chain
     */
    public Path issue(String subject) throws IOException, InterruptedException, GeneralSecurityException {
        String alias = "cert-" + Integer.toHexString(subject.hashCode());
        Path file = dir.resolve(alias + ".p12");
        if (Files.exists(file)) {
            return file; // issued before: the same key and certificate
        }
        TestCertificates.keytool("-genkeypair", "-alias", alias, "-keyalg", "EC", "-groupname", "secp256r1",
                "-validity", "2", "-dname", subject, "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-signer", AUTHORITY,
                "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD);
        KeyStore authority = load(store);
        KeyStore issued = KeyStore.getInstance("PKCS12");
        issued.load(null, null);
        Key key = authority.getKey(alias, PASSWORD.toCharArray());
        issued.setKeyEntry("node", key, PASSWORD.toCharArray(), authority.getCertificateChain(alias));
        return save(issued, file);
    }

    /** A PKCS12 trust store (password {@link #PASSWORD}) trusting this authority. */
    public Path trustStore() throws IOException, GeneralSecurityException {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry(AUTHORITY, load(store).getCertificate(AUTHORITY));
        return save(trust, dir.resolve("truststore.p12"));
    }

    /**
     * A node's properties for a control plane on TLS: the CONTROLLER listener mapped to SSL, {@code keyStore} as its
     * certificate and this authority's trust store (PKCS12 both). A mutable map, for more keys.
     */
    public Map<String, String> controlPlaneProperties(Path keyStore) throws IOException, GeneralSecurityException {
        Map<String, String> props = new HashMap<>();
        props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:SSL");
        props.put("ssl.keystore.type", "PKCS12");
        props.put("ssl.keystore.location", keyStore.toString());
        props.put("ssl.keystore.password", PASSWORD);
        props.put("ssl.truststore.type", "PKCS12");
        props.put("ssl.truststore.location", trustStore().toString());
        props.put("ssl.truststore.password", PASSWORD);
        return props;
    }

    private static KeyStore load(Path file) throws IOException, GeneralSecurityException {
        KeyStore loaded = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            loaded.load(in, PASSWORD.toCharArray());
        }
        return loaded;
    }

    private static Path save(KeyStore keyStore, Path file) throws IOException, GeneralSecurityException {
        try (OutputStream out = Files.newOutputStream(file)) {
            keyStore.store(out, PASSWORD.toCharArray());
        }
        return file;
    }
}
