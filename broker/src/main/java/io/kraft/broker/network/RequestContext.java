package io.kraft.broker.network;

import io.kraft.broker.protocol.ApiVersionsTable;
import io.kraft.broker.security.KafkaPrincipal;
import io.kraft.broker.security.RequestAuthorizer;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.metadata.authorizer.StandardAcl;
import java.net.SocketAddress;

/**
 * What a handler may know about where a request came from: the listener, the client, the advertised APIs, the
 * connection's security state (who it authenticated as), and the broker's authorizer (null when none is configured:
 * then every check below is true at the cost of one null test).
 */
public record RequestContext(String listenerName, SocketAddress clientAddress, ApiVersionsTable apiVersions,
                             ConnectionSession session, RequestAuthorizer authorizer) {

    /** A context of a connection that has not authenticated, on a plaintext listener. */
    public RequestContext(String listenerName, SocketAddress clientAddress, ApiVersionsTable apiVersions) {
        this(listenerName, clientAddress, apiVersions, new ConnectionSession(SecurityProtocol.PLAINTEXT));
    }

    /** A context on a broker without an authorizer. */
    public RequestContext(String listenerName, SocketAddress clientAddress, ApiVersionsTable apiVersions,
                          ConnectionSession session) {
        this(listenerName, clientAddress, apiVersions, session, null);
    }

    /** Who the connection acts as now. */
    public KafkaPrincipal principal() {
        return session.principal();
    }

    /** Whether the broker checks ACLs. */
    public boolean authorizationEnabled() {
        return authorizer != null;
    }

    /** Whether the connection may do {@code operation} on the resource (always, without an authorizer). */
    public boolean authorize(AclOperation operation, ResourceType type, String name) {
        return authorizer == null || authorizer.authorize(session.principal(), clientAddress, operation, type, name);
    }

    /** As {@link #authorize}, without logging a denial (for lists that leave out what may not be seen). */
    public boolean authorizeQuietly(AclOperation operation, ResourceType type, String name) {
        return authorizer == null
                || authorizer.authorizeQuietly(session.principal(), clientAddress, operation, type, name);
    }

    /** Whether the connection may do {@code operation} on some resource of {@code type} (KIP-679). */
    public boolean authorizeAnyResource(AclOperation operation, ResourceType type) {
        return authorizer == null || authorizer.authorizeAny(session.principal(), clientAddress, operation, type);
    }

    /** Whether the connection may do {@code operation} on the cluster. */
    public boolean authorizeCluster(AclOperation operation) {
        return authorize(operation, ResourceType.CLUSTER, StandardAcl.CLUSTER_NAME);
    }

    /** Kafka's authorized-operations bit field for one resource (every supported operation without an authorizer). */
    public int authorizedOperations(ResourceType type, String name) {
        return authorizer == null ? RequestAuthorizer.allOperations(type)
                : authorizer.authorizedOperations(session.principal(), clientAddress, type, name);
    }
}
