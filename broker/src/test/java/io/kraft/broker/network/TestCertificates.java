package io.kraft.broker.network;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Key material for TLS tests, made with the running JDK's {@code keytool}: a broker key store whose certificate
 * names localhost and 127.0.0.1, a client key store, and a trust store trusting both (self-signed) certificates.
 * EC keys keep generation fast.
 */
public final class TestCertificates {
    public static final String PASSWORD = "test-secret";

    private final Path brokerKeyStore;
    private final Path clientKeyStore;
    private final Path trustStore;

    private TestCertificates(Path dir) {
        this.brokerKeyStore = dir.resolve("broker.p12");
        this.clientKeyStore = dir.resolve("client.p12");
        this.trustStore = dir.resolve("truststore.p12");
    }

    /** Generates the key stores (PKCS12) in {@code dir}. */
    public static TestCertificates create(Path dir) throws IOException, InterruptedException {
        return create(dir, List.of());
    }

    /**
     * As {@link #create(Path)}, plus one more client key store per name ({@code <name>.p12}, subject {@code CN=<name>},
     * so the principal {@code User:CN=<name>}), trusted like the first: for tests with several principals.
     */
    public static TestCertificates create(Path dir, List<String> clientNames) throws IOException, InterruptedException {
        TestCertificates certs = new TestCertificates(dir);
        for (String name : clientNames) {
            keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                    "-dname", "CN=" + name, "-storetype", "PKCS12", "-keystore", dir.resolve(name + ".p12").toString(),
                    "-storepass", PASSWORD, "-keypass", PASSWORD);
            Path cert = dir.resolve(name + ".crt");
            keytool("-exportcert", "-alias", name, "-keystore", dir.resolve(name + ".p12").toString(),
                    "-storepass", PASSWORD, "-rfc", "-file", cert.toString());
            keytool("-importcert", "-noprompt", "-alias", name, "-file", cert.toString(), "-storetype", "PKCS12",
                    "-keystore", certs.trustStore.toString(), "-storepass", PASSWORD);
        }
        keytool("-genkeypair", "-alias", "broker", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12",
                "-keystore", certs.brokerKeyStore.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD);
        keytool("-genkeypair", "-alias", "client", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                "-dname", "CN=test-client", "-storetype", "PKCS12",
                "-keystore", certs.clientKeyStore.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD);
        for (String alias : List.of("broker", "client")) {
            Path cert = dir.resolve(alias + ".crt");
            keytool("-exportcert", "-alias", alias, "-keystore", dir.resolve(alias + ".p12").toString(),
                    "-storepass", PASSWORD, "-rfc", "-file", cert.toString());
            keytool("-importcert", "-noprompt", "-alias", alias, "-file", cert.toString(), "-storetype", "PKCS12",
                    "-keystore", certs.trustStore.toString(), "-storepass", PASSWORD);
        }
        return certs;
    }

    public Path brokerKeyStore() {
        return brokerKeyStore;
    }

    public Path clientKeyStore() {
        return clientKeyStore;
    }

    /** The key store of a client named at {@link #create(Path, List)}. */
    public Path clientKeyStore(String name) {
        return brokerKeyStore.resolveSibling(name + ".p12");
    }

    /** A broker's {@code ssl.*} settings for these stores: its PKCS12 key store, and the trust store of the CA. */
    public Map<String, String> brokerSslSettings() {
        return Map.of("ssl.keystore.type", "PKCS12", "ssl.keystore.location", brokerKeyStore().toString(),
                "ssl.keystore.password", PASSWORD, "ssl.truststore.type", "PKCS12",
                "ssl.truststore.location", trustStore().toString(), "ssl.truststore.password", PASSWORD);
    }

    public Path trustStore() {
        return trustStore;
    }

    /** The broker's key and certificate as one PEM file (an unencrypted PKCS#8 key, then the certificate). */
    public Path brokerPem(Path file) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(brokerKeyStore)) {
            store.load(in, PASSWORD.toCharArray());
        }
        PrivateKey key = (PrivateKey) store.getKey("broker", PASSWORD.toCharArray());
        StringBuilder pem = new StringBuilder(pem("PRIVATE KEY", key.getEncoded()));
        for (Certificate certificate : store.getCertificateChain("broker")) {
            pem.append(pem("CERTIFICATE", certificate.getEncoded()));
        }
        Files.writeString(file, pem.toString(), StandardCharsets.US_ASCII);
        return file;
    }

    /** The trusted certificates as one PEM file. */
    public Path trustPem(Path file) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(trustStore)) {
            store.load(in, PASSWORD.toCharArray());
        }
        StringBuilder pem = new StringBuilder();
        for (String alias : java.util.Collections.list(store.aliases())) {
            pem.append(pem("CERTIFICATE", store.getCertificate(alias).getEncoded()));
        }
        Files.writeString(file, pem.toString(), StandardCharsets.US_ASCII);
        return file;
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    static void keytool(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException("keytool " + String.join(" ", args) + " failed: " + output);
        }
    }
}
