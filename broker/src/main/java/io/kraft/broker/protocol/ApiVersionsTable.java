package io.kraft.broker.protocol;

import io.kraft.broker.protocol.message.ApiMessageFactory;
import io.kraft.broker.protocol.message.ApiVersionsResponse;
import io.kraft.storage.errors.Errors;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The APIs a listener serves: which keys it knows, which versions it parses, and what it
 * advertises in ApiVersions. Only APIs whose request and response schemas are declared can be in it.
 */
public final class ApiVersionsTable {
    private final Set<ApiKey> apis;
    private final ApiKey[] byId = new ApiKey[128];

    private ApiVersionsTable(Set<ApiKey> apis) {
        for (ApiKey api : apis) {
            if (!ApiMessageFactory.isKnown(api.id())) {
                throw new IllegalArgumentException(api.apiName() + " has no declared schemas");
            }
            byId[api.id()] = api;
        }
        this.apis = Collections.unmodifiableSet(EnumSet.copyOf(apis));
    }

    /** Every API whose schemas are declared. */
    public static ApiVersionsTable allDeclared() {
        EnumSet<ApiKey> set = EnumSet.noneOf(ApiKey.class);
        for (ApiKey api : ApiKey.values()) {
            if (ApiMessageFactory.isKnown(api.id())) {
                set.add(api);
            }
        }
        return new ApiVersionsTable(set);
    }

    /** Exactly these APIs (each must have declared schemas). */
    public static ApiVersionsTable of(Collection<ApiKey> apis) {
        return new ApiVersionsTable(apis.isEmpty() ? EnumSet.noneOf(ApiKey.class) : EnumSet.copyOf(apis));
    }

    /** The served API with this id, or null. */
    public ApiKey lookup(short apiKey) {
        return apiKey >= 0 && apiKey < byId.length ? byId[apiKey] : null;
    }

    public boolean accepts(ApiKey api, short version) {
        return apis.contains(api) && api.acceptedVersions().contains(version);
    }

    /** Served APIs in api-key order. */
    public Set<ApiKey> apis() {
        return apis;
    }

    /**
     * An ApiVersions response body listing every served API with its advertised range. Valid at any
     * ApiVersions version; with UNSUPPORTED_VERSION it is the v0 fallback answer.
     */
    public ApiVersionsResponse toApiVersionsResponse(Errors error) {
        ApiVersionsResponse body = new ApiVersionsResponse().setErrorCode(error.code());
        for (ApiKey api : apis) {
            body.apiKeys().add(new ApiVersionsResponse.ApiVersion().setApiKey(api.id())
                    .setMinVersion(api.advertisedVersions().lowest())
                    .setMaxVersion(api.advertisedVersions().highest()));
        }
        return body;
    }
}
