package io.kraft.broker.network;

import io.kraft.config.ConfigException;
import io.kraft.config.Password;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.UnrecoverableKeyException;
import java.security.cert.CertificateFactory;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManagerFactory;

/**
 * The key and trust material a listener's {@link SslSettings} name (JKS, PKCS12 or PEM, from files or inline), read
 * and opened, for whichever TLS stack serves the listener: Netty's for the Kafka listeners ({@link SslContextFactory}),
 * gRPC's own copy of Netty for the control plane. A missing file or a wrong password is a one-line
 * {@link ConfigException} naming its key.
 *
 * @param pem          the private key and chain of {@code ssl.keystore.type=PEM}, if given
 * @param keyManagers  the key store's keys (JKS or PKCS12), if given
 * @param trustManagers the trust store's certificates, if given (else the JDK's trusted CAs apply)
 */
public record TlsKeyMaterial(SslSettings settings, Optional<PemKey> pem, Optional<KeyManagerFactory> keyManagers,
                             Optional<TrustManagerFactory> trustManagers) {
    /** One block of a PEM text: its label and its base64 body. */
    private static final Pattern PEM_BLOCK = Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----(.*?)-----END \\1-----",
            Pattern.DOTALL);

    /**
     * Reads the key store (if any) and the trust store (if any) of {@code settings}.
     *
     * @throws ConfigException naming the key at fault
     */
    public static TlsKeyMaterial load(SslSettings settings) {
        Optional<PemKey> pem = pemKey(settings);
        Optional<KeyManagerFactory> keys = pem.isPresent() ? Optional.empty()
                : settings.keystoreLocation().map(location -> keyManagers(settings, location));
        return new TlsKeyMaterial(settings, pem, keys, trustManagers(settings));
    }

    /** Whether a private key and certificate were given (a PEM key or a key store). */
    public boolean hasKey() {
        return pem.isPresent() || keyManagers.isPresent();
    }

    /** Builds from a PEM private key and its chain (the key's password is null when it is not encrypted). */
    @FunctionalInterface
    public interface PemKeyUse<B> {
        B use(InputStream chain, InputStream key, String password);
    }

    /**
     * Hands this node's key to a TLS stack's builder: the PEM key and chain, else the key store's keys, else
     * {@code none} (a client without a certificate, or an error).
     *
     * @throws ConfigException naming the key at fault when the stack cannot read the PEM key and chain
     */
    public <B> B withKey(PemKeyUse<B> pemUse, Function<KeyManagerFactory, B> storeUse, Supplier<B> none) {
        if (pem.isPresent()) {
            try {
                return pemUse.use(pem.get().chain(), pem.get().key(),
                        settings.keyPassword().map(Password::value).orElse(null));
            } catch (RuntimeException e) {
                throw invalid(settings, pem.get().keys(), "cannot read a private key and certificate chain from "
                        + pem.get().source(), e);
            }
        }
        return keyManagers.map(storeUse).orElseGet(none);
    }

    /**
     * Makes one engine of a built context and lets it go: an engine applies the protocols and cipher suites, so one
     * the provider refuses fails at startup, not at the first handshake.
     *
     * @param release frees the engine (an OpenSSL engine holds native memory until released)
     * @throws ConfigException naming the protocols and cipher suites
     */
    public static void checkEngine(SslSettings settings, Supplier<SSLEngine> newEngine, Consumer<SSLEngine> release) {
        SSLEngine engine = null;
        try {
            engine = newEngine.get();
            engine.closeOutbound();
        } catch (RuntimeException e) {
            throw invalid(settings, SslSettings.ENABLED_PROTOCOLS + " or " + SslSettings.CIPHER_SUITES,
                    "the TLS provider refuses them", e);
        } finally {
            release.accept(engine);
        }
    }

    /** The error for a PEM key and chain the TLS stack could not read. */
    public ConfigException unreadablePem(RuntimeException cause) {
        PemKey key = pem.orElseThrow();
        return invalid(settings, key.keys(), "cannot read a private key and certificate chain from " + key.source(),
                cause);
    }

    private static KeyManagerFactory keyManagers(SslSettings settings, String location) {
        KeyStore store = load(settings, settings.keystoreType(), SslSettings.KEYSTORE_LOCATION,
                SslSettings.KEYSTORE_PASSWORD, location, settings.keystorePassword());
        char[] keyPassword = settings.keyPassword().or(settings::keystorePassword).map(p -> p.value().toCharArray())
                .orElse(new char[0]);
        try {
            KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            factory.init(store, keyPassword);
            return factory;
        } catch (UnrecoverableKeyException e) {
            throw invalid(settings, settings.keyPassword().isPresent() ? SslSettings.KEY_PASSWORD
                    : SslSettings.KEYSTORE_PASSWORD, "it does not open the private key in " + location, e);
        } catch (GeneralSecurityException e) {
            throw invalid(settings, SslSettings.KEYSTORE_LOCATION, "cannot use the keys in " + location, e);
        }
    }

    /** A PEM private key and its chain, from one file or inline; {@code keys} and {@code source} name them. */
    public record PemKey(byte[] chainBytes, byte[] keyBytes, String keys, String source) {
        public ByteArrayInputStream chain() {
            return new ByteArrayInputStream(chainBytes);
        }

        public ByteArrayInputStream key() {
            return new ByteArrayInputStream(keyBytes);
        }
    }

    /** The PEM key material of {@code ssl.keystore.type=PEM}: inline (key and chain), else the keystore file. */
    private static Optional<PemKey> pemKey(SslSettings settings) {
        boolean inline = settings.keystoreKey().isPresent() || settings.keystoreCertificateChain().isPresent();
        if (!settings.keystoreType().equals("PEM")) {
            if (inline) {
                throw invalid(settings, SslSettings.KEYSTORE_KEY, "it needs " + SslSettings.KEYSTORE_TYPE + "=PEM",
                        null);
            }
            return Optional.empty();
        }
        if (inline) {
            if (settings.keystoreKey().isEmpty() || settings.keystoreCertificateChain().isEmpty()) {
                throw invalid(settings, SslSettings.KEYSTORE_KEY + " and " + SslSettings.KEYSTORE_CERTIFICATE_CHAIN,
                        "set both or neither", null);
            }
            if (settings.keystoreLocation().isPresent()) {
                throw invalid(settings, SslSettings.KEYSTORE_LOCATION, "set either it or " + SslSettings.KEYSTORE_KEY
                        + ", not both", null);
            }
            return Optional.of(new PemKey(ascii(settings.keystoreCertificateChain().get()),
                    ascii(settings.keystoreKey().get()), SslSettings.KEYSTORE_KEY + " or "
                    + SslSettings.KEYSTORE_CERTIFICATE_CHAIN + " or " + SslSettings.KEY_PASSWORD, "them"));
        }
        if (settings.keystoreLocation().isEmpty()) {
            return Optional.empty();
        }
        String location = settings.keystoreLocation().get();
        byte[] pem = read(settings, SslSettings.KEYSTORE_LOCATION, location);
        return Optional.of(new PemKey(pem, pem, SslSettings.KEYSTORE_LOCATION + " or " + SslSettings.KEY_PASSWORD,
                "PEM file " + location));
    }

    /**
     * An inline PEM value with each block rebuilt on lines of its own: a value written over several lines of a
     * properties file (continued with backslashes) arrives with its line breaks gone, which the PEM reader refuses.
     */
    private static byte[] ascii(Password value) {
        Matcher block = PEM_BLOCK.matcher(value.value());
        StringBuilder pem = new StringBuilder();
        while (block.find()) {
            pem.append("-----BEGIN ").append(block.group(1)).append("-----\n")
                    .append(block.group(2).replaceAll("\\s", "")).append("\n-----END ").append(block.group(1))
                    .append("-----\n");
        }
        return (pem.length() == 0 ? value.value() : pem.toString()).getBytes(StandardCharsets.US_ASCII);
    }


    private static Optional<TrustManagerFactory> trustManagers(SslSettings settings) {
        if (settings.truststoreCertificates().isPresent()) {
            if (!settings.truststoreType().equals("PEM") || settings.truststoreLocation().isPresent()) {
                throw invalid(settings, SslSettings.TRUSTSTORE_CERTIFICATES, "it needs " + SslSettings.TRUSTSTORE_TYPE
                        + "=PEM and no " + SslSettings.TRUSTSTORE_LOCATION, null);
            }
            return Optional.of(trustManagers(settings, pemTrustStore(settings, SslSettings.TRUSTSTORE_CERTIFICATES,
                    ascii(settings.truststoreCertificates().get()), "the inline certificates"), "them"));
        }
        if (settings.truststoreLocation().isEmpty()) {
            return Optional.empty();
        }
        String location = settings.truststoreLocation().get();
        KeyStore store;
        if (settings.truststoreType().equals("PEM")) {
            store = pemTrustStore(settings, SslSettings.TRUSTSTORE_LOCATION,
                    read(settings, SslSettings.TRUSTSTORE_LOCATION, location), "PEM file " + location);
        } else {
            store = load(settings, settings.truststoreType(), SslSettings.TRUSTSTORE_LOCATION,
                    SslSettings.TRUSTSTORE_PASSWORD, location, settings.truststorePassword());
        }
        return Optional.of(trustManagers(settings, store, location));
    }

    private static TrustManagerFactory trustManagers(SslSettings settings, KeyStore store, String source) {
        try {
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            return factory;
        } catch (GeneralSecurityException e) {
            throw invalid(settings, SslSettings.TRUSTSTORE_LOCATION, "cannot use the certificates in " + source, e);
        }
    }

    private static KeyStore pemTrustStore(SslSettings settings, String key, byte[] pem, String source) {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            int n = 0;
            for (var certificate : CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem))) {
                store.setCertificateEntry("trusted-" + n++, certificate);
            }
            if (n == 0) {
                throw invalid(settings, key, source + " holds no certificate", null);
            }
            return store;
        } catch (GeneralSecurityException | IOException e) {
            throw invalid(settings, key, "cannot read certificates from " + source, e);
        }
    }

    private static KeyStore load(SslSettings settings, String type, String locationKey, String passwordKey,
                                 String location, Optional<Password> password) {
        byte[] bytes = read(settings, locationKey, location);
        try (InputStream in = new ByteArrayInputStream(bytes)) {
            KeyStore store = KeyStore.getInstance(type);
            store.load(in, password.map(p -> p.value().toCharArray()).orElse(null));
            return store;
        } catch (IOException e) {
            if (e.getCause() instanceof UnrecoverableKeyException) {
                throw invalid(settings, passwordKey, "it does not open " + location, e);
            }
            throw invalid(settings, locationKey, "cannot read " + location + " as a " + type + " store", e);
        } catch (GeneralSecurityException e) {
            throw invalid(settings, locationKey, "cannot read " + location + " as a " + type + " store", e);
        }
    }

    private static byte[] read(SslSettings settings, String key, String location) {
        try {
            return Files.readAllBytes(Path.of(location));
        } catch (NoSuchFileException e) {
            throw invalid(settings, key, "no such file: " + location, null);
        } catch (IOException e) {
            throw invalid(settings, key, "cannot read " + location, e);
        }
    }

    /**
     * The one-line error for {@code key} of a listener: the problem and the root cause's message.
     */
    public static ConfigException invalid(SslSettings settings, String key, String problem, Throwable cause) {
        String reason = cause == null ? "" : ": " + rootMessage(cause);
        return new ConfigException("Invalid " + key + " for listener " + settings.listenerName() + ": " + problem
                + reason, cause);
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }
}
