package io.kraft.broker.network;

import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.ApiMessage;
import io.kraft.storage.errors.Errors;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Serves one API whose answer may come later than the call: {@link #handle} runs on the handler pool and
 * returns at once with a future, so a long poll, a wait for replication or for the controller never holds a
 * handler thread. The server still sends the connection's responses in request order. Must be thread-safe.
 *
 * <p>Bytes and records of the request body are views of the connection's network buffer, valid until
 * {@link #handle} returns: copy what the answer needs later.
 *
 * @param <Q> the API's request class
 * @param <R> the API's response class
 */
public non-sealed interface AsyncRequestHandler<Q extends ApiMessage, R extends ApiMessage> extends ApiHandler {

    /** The answer to {@code request} (a {@link HandlerResponse} holding an {@code R}); may complete on any thread. */
    CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<Q> request);

    /** As {@link RequestHandler#errorResponse}: the all-failed response, if the API has one. */
    default Optional<R> errorResponse(ApiRequest<Q> request, Errors error) {
        return Optional.empty();
    }

    /** A synchronous handler seen as an asynchronous one (answered when {@code handle} returns). */
    static <Q extends ApiMessage, R extends ApiMessage> AsyncRequestHandler<Q, R> of(RequestHandler<Q, R> handler) {
        return new AsyncRequestHandler<>() {
            @Override
            public ApiKey apiKey() {
                return handler.apiKey();
            }

            @Override
            public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<Q> request) {
                return CompletableFuture.completedFuture(HandlerResponse.of(handler.handle(context, request)));
            }

            @Override
            public Optional<R> errorResponse(ApiRequest<Q> request, Errors error) {
                return handler.errorResponse(request, error);
            }

            @Override
            public String toString() {
                return handler.getClass().getName();
            }
        };
    }
}
