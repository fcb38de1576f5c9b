package io.kraft.broker.network;

import io.kraft.broker.protocol.ApiVersionsTable;
import java.net.SocketAddress;

/** What a handler may know about where a request came from: the listener, the client, and the advertised APIs. */
public record RequestContext(String listenerName, SocketAddress clientAddress, ApiVersionsTable apiVersions) {
}
