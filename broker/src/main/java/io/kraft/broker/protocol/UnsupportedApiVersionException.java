package io.kraft.broker.protocol;

import io.kraft.broker.protocol.Versions;

/**
 * The API is known but the version is not accepted. For ApiVersions the server answers with an
 * ApiVersions v0 response carrying UNSUPPORTED_VERSION and the supported ranges, so the client can
 * retry at a version both sides know (KIP-511); for other APIs it answers or closes.
 */
public final class UnsupportedApiVersionException extends RequestParseException {
    private static final long serialVersionUID = 1L;

    private final transient ApiKey api;

    UnsupportedApiVersionException(ApiKey api, short apiVersion, int correlationId, String clientId) {
        super(api.apiName() + " version " + apiVersion + " is not supported (accepted "
                        + api.acceptedVersions() + ") from client " + LogText.of(clientId),
                api.id(), apiVersion, correlationId, clientId);
        this.api = api;
    }

    public ApiKey api() {
        return api;
    }

    public Versions acceptedVersions() {
        return api.acceptedVersions();
    }

    public Versions advertisedVersions() {
        return api.advertisedVersions();
    }

    /** Whether this is the ApiVersions case that must be answered with a v0 response. */
    public boolean isApiVersionsRequest() {
        return api == ApiKey.API_VERSIONS;
    }
}
