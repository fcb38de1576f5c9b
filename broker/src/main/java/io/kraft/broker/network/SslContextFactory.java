package io.kraft.broker.network;

import io.kraft.config.ConfigException;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.OpenSslContext;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.ReferenceCountUtil;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

/**
 * Builds the TLS contexts of a listener from its {@link SslSettings} with the JDK's TLS provider: Netty's for the
 * listener's connections, and the JDK's {@link SSLContext} for this broker's own connections to other brokers'
 * listeners (followers). Key material is loaded and an engine created at once, so a wrong path, password,
 * protocol or cipher suite is a one-line {@link ConfigException} naming its key at startup, not a failed handshake
 * later.
 */
public final class SslContextFactory {
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
        TlsKeyMaterial material = TlsKeyMaterial.load(settings);
        SslContextBuilder builder = material.withKey(SslContextBuilder::forServer, SslContextBuilder::forServer,
                () -> {
                    throw new ConfigException("Listener " + settings.listenerName() + " is SSL but "
                            + settings.describe(SslSettings.KEYSTORE_LOCATION) + " is not set");
                });
        material.trustManagers().ifPresent(builder::trustManager);
        builder.clientAuth(switch (settings.clientAuth()) {
            case SslSettings.CLIENT_AUTH_REQUIRED -> ClientAuth.REQUIRE;
            case SslSettings.CLIENT_AUTH_REQUESTED -> ClientAuth.OPTIONAL;
            default -> ClientAuth.NONE;
        });
        SslContext context = build(settings, builder, serverProvider(settings));
        TlsKeyMaterial.checkEngine(settings, () -> context.newEngine(ByteBufAllocator.DEFAULT),
                ReferenceCountUtil::release);
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
        TlsKeyMaterial material = TlsKeyMaterial.load(settings);
        SslContextBuilder builder = SslContextBuilder.forClient();
        material.withKey(builder::keyManager, builder::keyManager, () -> builder);
        material.trustManagers().ifPresent(builder::trustManager);
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
            throw TlsKeyMaterial.invalid(settings, SslSettings.ENABLED_PROTOCOLS + " or " + SslSettings.CIPHER_SUITES,
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
            throw TlsKeyMaterial.invalid(settings, SslSettings.KEYSTORE_LOCATION, "cannot build a TLS context", e);
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

    /**
     * Which TLS implementation {@code context} runs on, for the listener's log line: an operator sees whether the
     * native library loaded (a JDK fallback costs the broker more CPU per TLS byte).
     */
    static String providerName(SslContext context) {
        return context instanceof OpenSslContext ? "OpenSSL (" + OpenSsl.versionString() + ")" : "the JDK";
    }

}
