package io.kraft.broker.network;

import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.schema.Struct;
import java.util.Optional;

/**
 * Serves one API: turns a parsed request into the response body at the request's version. Runs on the
 * handler pool, possibly concurrently for several connections, so implementations must be thread-safe.
 * An API whose answer may wait (a long poll, a replication wait) implements {@link LegacyAsyncRequestHandler}.
 * BYTES and RECORDS values of the request body are views of the network buffer, valid during the call only.
 */
public interface LegacyRequestHandler {

    ApiKey apiKey();

    /** The response body for {@code request}, written by the server at {@code request.version()}. */
    Struct handle(RequestContext context, ParsedRequest request);

    /**
     * The API's response to {@code request} with every entry failed with {@code errorCode}, sent when the
     * handler throws; empty when the API has no such form (the connection is then closed).
     */
    default Optional<Struct> errorResponse(ParsedRequest request, short errorCode) {
        return Optional.empty();
    }
}
