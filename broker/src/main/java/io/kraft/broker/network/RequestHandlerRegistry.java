package io.kraft.broker.network;

import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiVersionsTable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The handlers a listener serves, one per API; what is registered is exactly what ApiVersions advertises. */
public final class RequestHandlerRegistry {
    /** Values are {@link AsyncRequestHandler}s or (not yet on typed messages) {@link LegacyAsyncRequestHandler}s. */
    private final Map<ApiKey, Object> handlers;
    private final ApiVersionsTable apiVersions;

    private RequestHandlerRegistry(Map<ApiKey, Object> handlers) {
        this.handlers = handlers;
        this.apiVersions = ApiVersionsTable.of(handlers.keySet());
    }

    public static RequestHandlerRegistry of(Object... handlers) {
        return of(List.of(handlers));
    }

    /**
     * Handlers of any kind together ({@link RequestHandler}, {@link AsyncRequestHandler} and their legacy
     * forms); each API may be served by one handler only.
     */
    public static RequestHandlerRegistry of(Collection<?> handlers) {
        Map<ApiKey, Object> byApi = new EnumMap<>(ApiKey.class);
        for (Object handler : handlers) {
            if (handler instanceof RequestHandler<?, ?> typed) {
                add(byApi, typed.apiKey(), AsyncRequestHandler.of(typed));
            } else if (handler instanceof AsyncRequestHandler<?, ?> typed) {
                add(byApi, typed.apiKey(), typed);
            } else if (handler instanceof LegacyRequestHandler legacy) {
                add(byApi, legacy.apiKey(), LegacyAsyncRequestHandler.of(legacy));
            } else if (handler instanceof LegacyAsyncRequestHandler legacy) {
                add(byApi, legacy.apiKey(), legacy);
            } else {
                throw new IllegalArgumentException("Not a request handler: " + handler);
            }
        }
        return new RequestHandlerRegistry(byApi);
    }

    /** Synchronous and asynchronous handlers together; each API may be served by one handler only. */
    public static RequestHandlerRegistry of(Collection<?> handlers, Collection<?> asyncHandlers) {
        List<Object> all = new ArrayList<>(handlers);
        all.addAll(asyncHandlers);
        return of(all);
    }

    private static void add(Map<ApiKey, Object> byApi, ApiKey api, Object handler) {
        Object previous = byApi.putIfAbsent(api, handler);
        if (previous != null) {
            throw new IllegalArgumentException("Two handlers registered for " + api.apiName()
                    + ": " + previous + " and " + handler);
        }
    }

    /** The typed handler for {@code api}, or null when the API is not served or served by a legacy handler. */
    public AsyncRequestHandler<?, ?> handler(ApiKey api) {
        return handlers.get(api) instanceof AsyncRequestHandler<?, ?> typed ? typed : null;
    }

    /** The legacy handler for {@code api}, or null when the API is not served or served by a typed handler. */
    public LegacyAsyncRequestHandler legacyHandler(ApiKey api) {
        return handlers.get(api) instanceof LegacyAsyncRequestHandler legacy ? legacy : null;
    }

    /** The APIs served, with the versions advertised for each. */
    public ApiVersionsTable apiVersions() {
        return apiVersions;
    }
}
