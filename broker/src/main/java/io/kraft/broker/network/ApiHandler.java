package io.kraft.broker.network;

import io.kraft.broker.protocol.ApiKey;

/**
 * What every request handler is, synchronous ({@link RequestHandler}) or not ({@link AsyncRequestHandler}): the
 * server of one API. A {@link RequestHandlerRegistry} holds one per API.
 */
public sealed interface ApiHandler permits RequestHandler, AsyncRequestHandler {

    ApiKey apiKey();
}
