package io.kraft.broker.network;

import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiVersionsTable;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The handlers a listener serves, one per API; what is registered is exactly what ApiVersions advertises. */
public final class RequestHandlerRegistry {
    private final Map<ApiKey, RequestHandler> handlers;
    private final ApiVersionsTable apiVersions;

    private RequestHandlerRegistry(Map<ApiKey, RequestHandler> handlers) {
        this.handlers = handlers;
        this.apiVersions = ApiVersionsTable.of(handlers.keySet());
    }

    public static RequestHandlerRegistry of(RequestHandler... handlers) {
        return of(List.of(handlers));
    }

    public static RequestHandlerRegistry of(Collection<? extends RequestHandler> handlers) {
        Map<ApiKey, RequestHandler> byApi = new EnumMap<>(ApiKey.class);
        for (RequestHandler handler : handlers) {
            RequestHandler previous = byApi.putIfAbsent(handler.apiKey(), handler);
            if (previous != null) {
                throw new IllegalArgumentException("Two handlers registered for " + handler.apiKey().apiName()
                        + ": " + previous.getClass().getName() + " and " + handler.getClass().getName());
            }
        }
        return new RequestHandlerRegistry(byApi);
    }

    /** The handler for {@code api}, or null when the API is not served. */
    public RequestHandler handler(ApiKey api) {
        return handlers.get(api);
    }

    /** The APIs served, with the versions advertised for each. */
    public ApiVersionsTable apiVersions() {
        return apiVersions;
    }
}
