package io.kraft.broker.network;

import io.kraft.broker.security.KafkaPrincipal;
import io.netty.handler.ssl.SslHandler;
import java.util.Optional;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * The principal a TLS client certificate stands for, as Kafka's default {@code ssl.principal.mapping.rules}
 * names it: {@code User:} followed by the certificate's subject in RFC 2253 form (e.g. {@code User:CN=alice,O=acme}).
 */
final class TlsPrincipals {
    private TlsPrincipals() {
    }

    /** The principal of the peer's verified certificate; empty when the client sent none. */
    static Optional<KafkaPrincipal> ofPeer(SslHandler tls) {
        if (tls == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(KafkaPrincipal.user(tls.engine().getSession().getPeerPrincipal().getName()));
        } catch (SSLPeerUnverifiedException e) {
            return Optional.empty();
        }
    }
}
