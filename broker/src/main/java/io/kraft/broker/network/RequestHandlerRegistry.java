package io.kraft.broker.network;

import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiVersionsTable;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The handlers a listener serves, one per API; what is registered is exactly what ApiVersions advertises. */
public final class RequestHandlerRegistry {
    private final Map<ApiKey, AsyncRequestHandler<?, ?>> handlers;
    private final ApiVersionsTable apiVersions;

    private RequestHandlerRegistry(Map<ApiKey, AsyncRequestHandler<?, ?>> handlers) {
        this.handlers = handlers;
        this.apiVersions = ApiVersionsTable.of(handlers.keySet());
    }

    public static RequestHandlerRegistry of(ApiHandler... handlers) {
        return of(List.of(handlers));
    }

    /** Synchronous and asynchronous handlers together; each API may be served by one handler only. */
    public static RequestHandlerRegistry of(Collection<? extends ApiHandler> handlers) {
        Map<ApiKey, AsyncRequestHandler<?, ?>> byApi = new EnumMap<>(ApiKey.class);
        for (ApiHandler handler : handlers) {
            AsyncRequestHandler<?, ?> async = handler instanceof RequestHandler<?, ?> sync
                    ? AsyncRequestHandler.of(sync) : (AsyncRequestHandler<?, ?>) handler;
            AsyncRequestHandler<?, ?> previous = byApi.putIfAbsent(handler.apiKey(), async);
            if (previous != null) {
                throw new IllegalArgumentException("Two handlers registered for " + handler.apiKey().apiName()
                        + ": " + previous + " and " + handler);
            }
        }
        return new RequestHandlerRegistry(byApi);
    }

    /** The handler for {@code api}, or null when the API is not served. */
    public AsyncRequestHandler<?, ?> handler(ApiKey api) {
        return handlers.get(api);
    }

    /** The APIs served, with the versions advertised for each. */
    public ApiVersionsTable apiVersions() {
        return apiVersions;
    }
}
