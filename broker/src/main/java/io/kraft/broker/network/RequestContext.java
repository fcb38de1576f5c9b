package io.kraft.broker.network;

import io.kraft.broker.protocol.ApiVersionsTable;
import io.kraft.broker.security.KafkaPrincipal;
import java.net.SocketAddress;

/**
 * What a handler may know about where a request came from: the listener, the client, the advertised APIs, and the
 * connection's security state (who it authenticated as).
 */
public record RequestContext(String listenerName, SocketAddress clientAddress, ApiVersionsTable apiVersions,
                             ConnectionSession session) {

    /** A context of a connection that has not authenticated, on a plaintext listener. */
    public RequestContext(String listenerName, SocketAddress clientAddress, ApiVersionsTable apiVersions) {
        this(listenerName, clientAddress, apiVersions, new ConnectionSession(SecurityProtocol.PLAINTEXT));
    }

    /** Who the connection acts as now. */
    public KafkaPrincipal principal() {
        return session.principal();
    }
}
