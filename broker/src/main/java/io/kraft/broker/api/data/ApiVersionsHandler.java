package io.kraft.broker.api.data;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.storage.errors.Errors;

/**
 * Answers ApiVersions (v0-4) with the listener's served APIs and their advertised ranges. The v3+ client
 * software name and version are accepted as sent; no features are advertised until one is implemented.
 */
public final class ApiVersionsHandler implements RequestHandler {

    @Override
    public ApiKey apiKey() {
        return ApiKey.API_VERSIONS;
    }

    @Override
    public Struct handle(RequestContext context, ParsedRequest request) {
        return context.apiVersions().toApiVersionsResponse(Errors.NONE.code());
    }
}
