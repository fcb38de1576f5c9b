package io.kraft.broker.api.data;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.ApiVersionsRequest;
import io.kraft.broker.protocol.message.ApiVersionsResponse;
import io.kraft.storage.errors.Errors;

/**
 * Answers ApiVersions (v0-4) with the listener's served APIs and their advertised ranges. The v3+ client
 * software name and version are accepted as sent; no features are advertised until one is implemented.
 */
public final class ApiVersionsHandler implements RequestHandler<ApiVersionsRequest, ApiVersionsResponse> {

    @Override
    public ApiKey apiKey() {
        return ApiKey.API_VERSIONS;
    }

    @Override
    public ApiVersionsResponse handle(RequestContext context, ApiRequest<ApiVersionsRequest> request) {
        return context.apiVersions().toApiVersionsResponse(Errors.NONE);
    }
}
