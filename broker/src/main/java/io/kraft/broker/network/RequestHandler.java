package io.kraft.broker.network;

import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.schema.Struct;

/**
 * Serves one API: turns a parsed request into the response body at the request's version. Runs on the
 * handler pool, possibly concurrently for several connections, so implementations must be thread-safe.
 */
public interface RequestHandler {

    ApiKey apiKey();

    /** The response body for {@code request}, written by the server at {@code request.version()}. */
    Struct handle(RequestContext context, ParsedRequest request);
}
