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
import io.kraft.raft.grpc.ControlPlanePeer;
import io.kraft.raft.grpc.PeerIdentifier;
import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.OptionalInt;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

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
     * The client side: this node's certificate, the trust store, the host name check of
     * {@code ssl.endpoint.identification.algorithm} (none when it is empty), and, when the caller knows which node it
     * calls, that the server's certificate names that node.
     *
     * @param peers        names the node of the server's certificate; null when nothing is expected of it
     * @param expectedNode the node the client calls, if it knows
     * @throws ConfigException naming the key at fault
     */
    static ChannelCredentials client(SslSettings settings, TlsKeyMaterial material, PeerIdentifier peers,
                                     OptionalInt expectedNode) {
        SslContextBuilder builder = SslContextBuilder.forClient();
        material.withKey(builder::keyManager, builder::keyManager, () -> builder);
        builder.trustManager(new ServerCheck(x509(settings, material.trustManagers().orElseThrow()),
                !settings.endpointIdentificationAlgorithm().isEmpty(), peers, expectedNode));
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

    private static X509ExtendedTrustManager x509(SslSettings settings, TrustManagerFactory factory) {
        return Arrays.stream(factory.getTrustManagers()).filter(X509ExtendedTrustManager.class::isInstance)
                .map(X509ExtendedTrustManager.class::cast).findFirst()
                .orElseThrow(() -> TlsKeyMaterial.invalid(settings, SslSettings.TRUSTSTORE_LOCATION,
                        "it gives no X.509 trust manager", null));
    }

    /**
     * Verifies the server's chain; its host name unless {@code ssl.endpoint.identification.algorithm} is empty (gRPC
     * asks the engine for the HTTPS check, which the JDK's trust manager performs only when handed the engine); and
     * that its certificate names the node the client calls, when it knows which: a certificate of the cluster issued
     * to another node (a broker's, say) cannot pose as a controller.
     */
    private static final class ServerCheck extends X509ExtendedTrustManager {
        private final X509ExtendedTrustManager delegate;
        private final boolean checkHostName;
        private final PeerIdentifier peers;
        private final OptionalInt expectedNode;

        ServerCheck(X509ExtendedTrustManager delegate, boolean checkHostName, PeerIdentifier peers,
                    OptionalInt expectedNode) {
            this.delegate = delegate;
            this.checkHostName = checkHostName;
            this.peers = peers;
            this.expectedNode = expectedNode;
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            if (checkHostName) {
                delegate.checkServerTrusted(chain, authType, engine);
            } else {
                delegate.checkServerTrusted(chain, authType);
            }
            checkNode(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            if (checkHostName) {
                delegate.checkServerTrusted(chain, authType, socket);
            } else {
                delegate.checkServerTrusted(chain, authType);
            }
            checkNode(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            delegate.checkServerTrusted(chain, authType);
            checkNode(chain);
        }

        private void checkNode(X509Certificate[] chain) throws CertificateException {
            if (peers == null || expectedNode.isEmpty()) {
                return;
            }
            ControlPlanePeer server = peers.identify(chain[0].getSubjectX500Principal().getName());
            if (!server.is(expectedNode.getAsInt())) {
                throw new CertificateException("the server's certificate stands for " + server + ", not node "
                        + expectedNode.getAsInt());
            }
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            delegate.checkClientTrusted(chain, authType, engine);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            delegate.checkClientTrusted(chain, authType, socket);
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
