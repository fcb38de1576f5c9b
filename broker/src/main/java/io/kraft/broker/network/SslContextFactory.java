package io.kraft.broker.network;

import io.kraft.config.ConfigException;
import io.kraft.config.Password;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.ReferenceCountUtil;
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
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;

/**
 * Builds the TLS contexts of a listener from its {@link SslSettings} with the JDK's TLS provider: Netty's for the
 * listener's connections, and the JDK's {@link SSLContext} for this broker's own connections to other brokers'
 * listeners (followers). Key material is loaded and an engine created at once, so a wrong path, password,
 * protocol or cipher suite is a one-line {@link ConfigException} naming its key at startup, not a failed handshake
 * later.
 */
public final class SslContextFactory {
    /** One block of a PEM text: its label and its base64 body. */
    private static final Pattern PEM_BLOCK = Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----(.*?)-----END \\1-----",
            Pattern.DOTALL);

    private SslContextFactory() {
    }

    /** A TLS client's context and the parameters each of its connections gets. */
    public record ClientTls(SSLContext context, SSLParameters parameters) {
    }

    /**
     * Loads the key material of every SSL broker listener of {@code listeners}, and of the inter-broker listener's
     * client side, so a node refuses to start on bad material before anything runs.
     *
     * @throws ConfigException naming the key at fault
     */
    public static void check(Listeners listeners, Map<String, String> props) {
        for (Listeners.Listener listener : listeners.brokerListeners()) {
            if (listener.protocol().tls()) {
                server(SslSettings.forListener(listener.name(), props));
            }
        }
        listeners.interBrokerListener().filter(l -> l.protocol().tls())
                .ifPresent(l -> client(SslSettings.forListener(l.name(), props)));
    }

    /**
     * The server side of an SSL listener.
     *
     * @throws ConfigException naming the key at fault
     */
    public static SslContext server(SslSettings settings) {
        SslContextBuilder builder;
        Optional<PemKey> pem = pemKey(settings);
        if (pem.isPresent()) {
            try {
                builder = SslContextBuilder.forServer(pem.get().chain(), pem.get().key(),
                        settings.keyPassword().map(Password::value).orElse(null));
            } catch (RuntimeException e) {
                throw invalid(settings, pem.get().keys(), "cannot read a private key and certificate chain from "
                        + pem.get().source(), e);
            }
        } else {
            String location = settings.keystoreLocation().orElseThrow(() -> new ConfigException("Listener "
                    + settings.listenerName() + " is SSL but " + settings.describe(SslSettings.KEYSTORE_LOCATION)
                    + " is not set"));
            builder = SslContextBuilder.forServer(keyManagers(settings, location));
        }
        trustManagers(settings).ifPresent(builder::trustManager);
        builder.clientAuth(switch (settings.clientAuth()) {
            case SslSettings.CLIENT_AUTH_REQUIRED -> ClientAuth.REQUIRE;
            case SslSettings.CLIENT_AUTH_REQUESTED -> ClientAuth.OPTIONAL;
            default -> ClientAuth.NONE;
        });
        SslContext context = build(settings, builder, serverProvider(settings));
        // An engine applies the protocols and cipher suites: one now finds the unsupported ones.
        SSLEngine engine = null;
        try {
            engine = context.newEngine(ByteBufAllocator.DEFAULT);
            engine.closeOutbound();
        } catch (RuntimeException e) {
            throw invalid(settings, SslSettings.ENABLED_PROTOCOLS + " or " + SslSettings.CIPHER_SUITES,
                    "the TLS provider refuses them", e);
        } finally {
            // An OpenSSL engine holds native memory until released.
            ReferenceCountUtil.release(engine);
        }
        return context;
    }

    /**
     * The client side for this broker's connections to an SSL listener of other brokers: its key store (if any) for
     * their {@code ssl.client.auth}, its trust store to verify them, and the host name check of
     * {@code ssl.endpoint.identification.algorithm}.
     *
     * @throws ConfigException naming the key at fault
     */
    public static ClientTls client(SslSettings settings) {
        SslContextBuilder builder = SslContextBuilder.forClient();
        Optional<PemKey> pem = pemKey(settings);
        if (pem.isPresent()) {
            try {
                builder.keyManager(pem.get().chain(), pem.get().key(),
                        settings.keyPassword().map(Password::value).orElse(null));
            } catch (RuntimeException e) {
                throw invalid(settings, pem.get().keys(), "cannot read a private key and certificate chain from "
                        + pem.get().source(), e);
            }
        } else if (settings.keystoreLocation().isPresent()) {
            builder.keyManager(keyManagers(settings, settings.keystoreLocation().get()));
        }
        trustManagers(settings).ifPresent(builder::trustManager);
        // The JDK's, whatever the listeners use: the follower's blocking socket needs a JDK SSLContext.
        SslContext netty = build(settings, builder, SslProvider.JDK);
        SSLContext context = ((JdkSslContext) netty).context();
        SSLParameters parameters = context.getDefaultSSLParameters();
        try {
            if (!settings.enabledProtocols().isEmpty()) {
                parameters.setProtocols(settings.enabledProtocols().toArray(String[]::new));
            }
            if (!settings.cipherSuites().isEmpty()) {
                parameters.setCipherSuites(settings.cipherSuites().toArray(String[]::new));
            }
            if (!settings.endpointIdentificationAlgorithm().isEmpty()) {
                parameters.setEndpointIdentificationAlgorithm(settings.endpointIdentificationAlgorithm().toUpperCase(
                        Locale.ROOT));
            }
            // Fails on protocols or suites the JDK does not know, as the server side does.
            context.createSSLEngine().setSSLParameters(parameters);
        } catch (RuntimeException e) {
            throw invalid(settings, SslSettings.ENABLED_PROTOCOLS + " or " + SslSettings.CIPHER_SUITES,
                    "the JDK refuses them", e);
        }
        return new ClientTls(context, parameters);
    }

    private static SslContext build(SslSettings settings, SslContextBuilder builder, SslProvider provider) {
        builder.sslProvider(provider);
        if (!settings.enabledProtocols().isEmpty()) {
            builder.protocols(settings.enabledProtocols());
        }
        if (!settings.cipherSuites().isEmpty()) {
            builder.ciphers(settings.cipherSuites());
        }
        try {
            return builder.build();
        } catch (SSLException | RuntimeException e) {
            throw invalid(settings, SslSettings.KEYSTORE_LOCATION, "cannot build a TLS context", e);
        }
    }

    /**
     * OpenSSL (BoringSSL through netty-tcnative) when its native library loads here and no cipher suites are
     * configured, else the JDK's. OpenSSL cost the broker about a quarter less CPU per TLS megabyte on the TLS
     * benchmark (README, Benchmarks); but BoringSSL always enables every TLSv1.3 suite, and given only TLSv1.3 suites
     * it enabled all suites, so {@code ssl.cipher.suites} is honoured exactly only by the JDK.
     */
    static SslProvider serverProvider(SslSettings settings) {
        return settings.cipherSuites().isEmpty() && OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
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
    private record PemKey(byte[] chainBytes, byte[] keyBytes, String keys, String source) {
        ByteArrayInputStream chain() {
            return new ByteArrayInputStream(chainBytes);
        }

        ByteArrayInputStream key() {
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

    private static ConfigException invalid(SslSettings settings, String key, String problem, Throwable cause) {
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
