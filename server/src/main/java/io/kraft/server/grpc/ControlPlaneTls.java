package io.kraft.server.grpc;

import io.grpc.ChannelCredentials;
import io.grpc.ServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettySslContextChannelCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettySslContextServerCredentials;
import io.grpc.netty.shaded.io.netty.buffer.ByteBufAllocator;
import io.grpc.netty.shaded.io.netty.handler.ssl.ClientAuth;
import io.grpc.netty.shaded.io.netty.handler.ssl.OpenSsl;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslProvider;
import io.grpc.netty.shaded.io.netty.util.ReferenceCountUtil;
import io.kraft.broker.network.SslSettings;
import io.kraft.broker.network.TlsKeyMaterial;
import io.kraft.config.ConfigException;
import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * The control plane's TLS for gRPC, from the controller listener's {@link SslSettings} ({@code
 * listener.name.controller.ssl.*}, else {@code ssl.*}) and the key material {@link TlsKeyMaterial} reads, the same
 * as the Kafka listeners': the server side requires a client certificate its trust store verifies whatever
 * {@code ssl.client.auth} says (the peer's certificate is its identity), the client side presents this node's
 * certificate. gRPC brings its own copy of Netty, so the contexts are built with that copy's builder: OpenSSL
 * (BoringSSL, bundled with it) unless cipher suites are configured, as on the Kafka listeners.
 */
final class ControlPlaneTls {
    private ControlPlaneTls() {
    }

    /**
     * The server side.
     *
     * @throws ConfigException naming the key at fault
     */
    static ServerCredentials server(SslSettings settings, TlsKeyMaterial material) {
        SslContextBuilder builder = material.withKey(SslContextBuilder::forServer, SslContextBuilder::forServer,
                () -> {
                    throw new IllegalStateException("no key for listener " + settings.listenerName());
                });
        builder.trustManager(material.trustManagers().orElseThrow()).clientAuth(ClientAuth.REQUIRE);
        return NettySslContextServerCredentials.create(build(settings, builder));
    }

    /**
     * The client side: this node's certificate, the trust store, and the host name check of
     * {@code ssl.endpoint.identification.algorithm} (gRPC checks the name unless it is empty).
     *
     * @throws ConfigException naming the key at fault
     */
    static ChannelCredentials client(SslSettings settings, TlsKeyMaterial material) {
        SslContextBuilder builder = SslContextBuilder.forClient();
        material.withKey(builder::keyManager, builder::keyManager, () -> builder);
        TrustManagerFactory trust = material.trustManagers().orElseThrow();
        if (settings.endpointIdentificationAlgorithm().isEmpty()) {
            builder.trustManager(new NoHostNameCheck(x509(settings, trust)));
        } else {
            builder.trustManager(trust);
        }
        return NettySslContextChannelCredentials.create(build(settings, builder));
    }

    private static SslContext build(SslSettings settings, SslContextBuilder builder) {
        SslProvider provider = settings.cipherSuites().isEmpty() && OpenSsl.isAvailable() ? SslProvider.OPENSSL
                : SslProvider.JDK;
        // ALPN "h2" and HTTP/2's cipher suites, as gRPC needs them; then the configured versions and suites.
        GrpcSslContexts.configure(builder, provider);
        if (!settings.enabledProtocols().isEmpty()) {
            builder.protocols(settings.enabledProtocols());
        }
        if (!settings.cipherSuites().isEmpty()) {
            builder.ciphers(settings.cipherSuites());
        }
        SslContext context;
        try {
            context = builder.build();
        } catch (SSLException | RuntimeException e) {
            throw TlsKeyMaterial.invalid(settings, SslSettings.KEYSTORE_LOCATION, "cannot build a TLS context", e);
        }
        TlsKeyMaterial.checkEngine(settings, () -> context.newEngine(ByteBufAllocator.DEFAULT),
                ReferenceCountUtil::release);
        return context;
    }

    private static X509TrustManager x509(SslSettings settings, TrustManagerFactory factory) {
        return Arrays.stream(factory.getTrustManagers()).filter(X509TrustManager.class::isInstance)
                .map(X509TrustManager.class::cast).findFirst()
                .orElseThrow(() -> TlsKeyMaterial.invalid(settings, SslSettings.TRUSTSTORE_LOCATION,
                        "it gives no X.509 trust manager", null));
    }

    /**
     * Verifies the server's chain but not its host name ({@code ssl.endpoint.identification.algorithm} empty):
     * gRPC asks the engine for the HTTPS check, which the JDK's trust manager performs only when handed the engine.
     */
    private static final class NoHostNameCheck extends X509ExtendedTrustManager {
        private final X509TrustManager delegate;

        NoHostNameCheck(X509TrustManager delegate) {
            this.delegate = delegate;
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            delegate.checkServerTrusted(chain, authType);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            delegate.checkServerTrusted(chain, authType);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            delegate.checkServerTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            delegate.checkClientTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            delegate.checkClientTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            delegate.checkClientTrusted(chain, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return delegate.getAcceptedIssuers();
        }
    }
}
