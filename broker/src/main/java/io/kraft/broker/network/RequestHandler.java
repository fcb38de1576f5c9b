package io.kraft.broker.network;

import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.ApiMessage;
import io.kraft.storage.errors.Errors;
import java.util.Optional;

/**
 * Serves one API: turns a typed request into the typed response the server writes at the request's version.
 * Runs on the handler pool, possibly concurrently for several connections, so implementations must be
 * thread-safe. An API whose answer may wait (a long poll, a replication wait, a controller round trip)
 * implements {@link AsyncRequestHandler}. Bytes and records of the request body are views of the network
 * buffer, valid during the call only.
 *
 * @param <Q> the API's request class
 * @param <R> the API's response class
 */
public non-sealed interface RequestHandler<Q extends ApiMessage, R extends ApiMessage> extends ApiHandler {

    /** The response to {@code request}. */
    R handle(RequestContext context, ApiRequest<Q> request);

    /**
     * The API's response to {@code request} with every entry failed with {@code error}, sent when the handler
     * throws; empty when the API has no such form (the connection is then closed).
     */
    default Optional<R> errorResponse(ApiRequest<Q> request, Errors error) {
        return Optional.empty();
    }
}
