package io.kraft.broker.network;

import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.quota.ClientQuotas;
import io.kraft.broker.protocol.ApiVersionsTable;
import io.kraft.broker.security.RequestAuthorizer;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The handlers a listener serves, one per API; what is registered is exactly what ApiVersions advertises. */
public final class RequestHandlerRegistry {
    private final Map<ApiKey, AsyncRequestHandler<?, ?>> handlers;
    private final ApiVersionsTable apiVersions;
    private final RequestAuthorizer authorizer;
    /** Null: no client quotas are enforced (tests, tools). */
    private volatile ClientQuotas quotas;

    private RequestHandlerRegistry(Map<ApiKey, AsyncRequestHandler<?, ?>> handlers, RequestAuthorizer authorizer) {
        this.handlers = handlers;
        this.apiVersions = ApiVersionsTable.of(handlers.keySet());
        this.authorizer = authorizer;
    }

    public static RequestHandlerRegistry of(ApiHandler... handlers) {
        return of(List.of(handlers));
    }

    /** Synchronous and asynchronous handlers together; each API may be served by one handler only. */
    public static RequestHandlerRegistry of(Collection<? extends ApiHandler> handlers) {
        return of(handlers, null);
    }

    /** As {@link #of(Collection)}, with the authorizer the handlers check requests with (null: none). */
    public static RequestHandlerRegistry of(Collection<? extends ApiHandler> handlers, RequestAuthorizer authorizer) {
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
        return new RequestHandlerRegistry(byApi, authorizer);
    }

    /** The handler for {@code api}, or null when the API is not served. */
    public AsyncRequestHandler<?, ?> handler(ApiKey api) {
        return handlers.get(api);
    }

    /** The authorizer of the broker, or null if it checks nothing. */
    public RequestAuthorizer authorizer() {
        return authorizer;
    }

    /** The client quotas the connections enforce (null: none). */
    public ClientQuotas quotas() {
        return quotas;
    }

    /** Enforces these client quotas on the connections opened from now on. */
    public RequestHandlerRegistry enforce(ClientQuotas clientQuotas) {
        this.quotas = clientQuotas;
        return this;
    }

    /** The APIs served, with the versions advertised for each. */
    public ApiVersionsTable apiVersions() {
        return apiVersions;
    }
}
