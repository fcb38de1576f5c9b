package io.kraft.broker.network;

import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.schema.Struct;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Serves one API whose answer may come later than the call: {@link #handle} runs on the handler pool and
 * returns at once with a future, so a long poll or a wait for replication never holds a handler thread.
 * The server still sends the connection's responses in request order. Must be thread-safe.
 *
 * <p>BYTES and RECORDS values of the request body are views of the connection's network buffer, valid until
 * {@link #handle} returns: copy what the answer needs later.
 */
public interface LegacyAsyncRequestHandler {

    ApiKey apiKey();

    /** The answer to {@code request}; the future may complete on any thread. */
    CompletableFuture<HandlerResponse> handle(RequestContext context, ParsedRequest request);

    /** As {@link LegacyRequestHandler#errorResponse}: the all-failed response, if the API has one. */
    default Optional<Struct> errorResponse(ParsedRequest request, short errorCode) {
        return Optional.empty();
    }

    /** A synchronous handler seen as an asynchronous one (answered when {@code handle} returns). */
    static LegacyAsyncRequestHandler of(LegacyRequestHandler handler) {
        return new LegacyAsyncRequestHandler() {
            @Override
            public ApiKey apiKey() {
                return handler.apiKey();
            }

            @Override
            public CompletableFuture<HandlerResponse> handle(RequestContext context, ParsedRequest request) {
                return CompletableFuture.completedFuture(HandlerResponse.of(handler.handle(context, request)));
            }

            @Override
            public Optional<Struct> errorResponse(ParsedRequest request, short errorCode) {
                return handler.errorResponse(request, errorCode);
            }

            @Override
            public String toString() {
                return handler.getClass().getName();
            }
        };
    }
}
