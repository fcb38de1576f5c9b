package io.kraft.broker.api.data;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.ApiVersionsRequest;
import io.kraft.broker.protocol.message.ApiVersionsResponse;
import io.kraft.storage.errors.Errors;
import java.util.List;

/**
 * Answers ApiVersions (v0-4) with the listener's served APIs and their advertised ranges, and from v3 the features
 * this broker supports (each with the levels it can run). The v3+ client software name and version are accepted as
 * sent.
 */
public final class ApiVersionsHandler implements RequestHandler<ApiVersionsRequest, ApiVersionsResponse> {
    /** A feature this broker can run, from level {@code minLevel} to {@code maxLevel}. */
    public record SupportedFeature(String name, short minLevel, short maxLevel) {
    }

    /**
     * The transaction protocol versions the transaction coordinator implements: 1 (Kafka's level 0 behaves the
     * same), not yet 2 (KIP-890 part 2), so clients that would use version 2 once it is finalized do not.
     */
    public static final SupportedFeature TRANSACTION_VERSION =
            new SupportedFeature("transaction.version", (short) 0, (short) 1);

    /** Eligible leader replicas (KIP-966): level 1 keeps an ELR per partition and holds the high watermark under min ISR. */
    public static final SupportedFeature ELIGIBLE_LEADER_REPLICAS_VERSION =
            new SupportedFeature("eligible.leader.replicas.version", (short) 0, (short) 1);

    private final List<SupportedFeature> features;

    /** Advertises no feature. */
    public ApiVersionsHandler() {
        this(List.of());
    }

    public ApiVersionsHandler(List<SupportedFeature> features) {
        this.features = List.copyOf(features);
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.API_VERSIONS;
    }

    @Override
    public ApiVersionsResponse handle(RequestContext context, ApiRequest<ApiVersionsRequest> request) {
        ApiVersionsResponse response = context.apiVersions().toApiVersionsResponse(Errors.NONE);
        for (SupportedFeature feature : features) {
            response.supportedFeatures().add(new ApiVersionsResponse.SupportedFeatureKey().setName(feature.name())
                    .setMinVersion(feature.minLevel()).setMaxVersion(feature.maxLevel()));
        }
        return response;
    }
}
