package io.kraft.broker.api.data;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.ApiVersionsRequest;
import io.kraft.broker.protocol.message.ApiVersionsResponse;
import io.kraft.metadata.image.FeaturesImage;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.storage.errors.Errors;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Answers ApiVersions (v0-5) with the listener's served APIs and their advertised ranges, and from v3 the features
 * this broker supports (each with the levels it can run) and the cluster's finalized levels of them, from the metadata
 * image (its offset is the finalized features' epoch, which only grows). The v3+ client software name and version are
 * accepted as sent. From v5 a client names the cluster it believes it reached; a connection that reached another
 * cluster is answered REBOOTSTRAP_REQUIRED, so the client fetches its metadata afresh.
 */
public final class ApiVersionsHandler implements RequestHandler<ApiVersionsRequest, ApiVersionsResponse> {
    /** A feature this broker can run, from level {@code minLevel} to {@code maxLevel}. */
    public record SupportedFeature(String name, short minLevel, short maxLevel) {
    }

    /**
     * The transaction protocol versions the transaction coordinator implements: 1 (Kafka's level 0 behaves the
     * same) and 2 (KIP-890 part 2), which Java 4.x clients use once the cluster finalizes it.
     */
    public static final SupportedFeature TRANSACTION_VERSION =
            new SupportedFeature("transaction.version", (short) 0, (short) 2);

    /** The consumer group protocol (KIP-848): level 1 serves ConsumerGroupHeartbeat and ConsumerGroupDescribe. */
    public static final SupportedFeature GROUP_VERSION = new SupportedFeature("group.version", (short) 0, (short) 1);

    /** Eligible leader replicas (KIP-966): level 1 keeps an ELR per partition and holds the high watermark under min ISR. */
    public static final SupportedFeature ELIGIBLE_LEADER_REPLICAS_VERSION =
            new SupportedFeature("eligible.leader.replicas.version", (short) 0, (short) 1);

    /**
     * The metadata quorum's voters: 1 is a dynamic quorum (KIP-853), where AddRaftVoter and RemoveRaftVoter are
     * served; format finalizes it and it never changes afterwards.
     */
    public static final SupportedFeature KRAFT_VERSION =
            new SupportedFeature(FeaturesImage.KRAFT_VERSION, (short) 0, (short) 1);

    /** APIs advertised only while kraft.version is 1: a static quorum refuses them (KIP-853). */
    private static final Set<Short> DYNAMIC_QUORUM_APIS = Set.of(ApiKey.ADD_RAFT_VOTER.id(),
            ApiKey.REMOVE_RAFT_VOTER.id());

    private final List<SupportedFeature> features;
    private final Supplier<MetadataImage> images;
    private final String clusterId;

    /** Advertises no feature and checks no v5 client's idea of the cluster. */
    public ApiVersionsHandler() {
        this(List.of(), () -> MetadataImage.EMPTY, null);
    }

    /**
     * @param images    the current metadata image, whose finalized levels of {@code features} are answered
     * @param clusterId this broker's cluster, or null to accept any a v5 client names
     */
    public ApiVersionsHandler(List<SupportedFeature> features, Supplier<MetadataImage> images, String clusterId) {
        this.features = List.copyOf(features);
        this.images = images;
        this.clusterId = clusterId;
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.API_VERSIONS;
    }

    @Override
    public ApiVersionsResponse handle(RequestContext context, ApiRequest<ApiVersionsRequest> request) {
        if (misrouted(request.body())) {
            return new ApiVersionsResponse().setErrorCode(Errors.REBOOTSTRAP_REQUIRED.code());
        }
        ApiVersionsResponse response = context.apiVersions().toApiVersionsResponse(Errors.NONE);
        if (images.get().features().level(FeaturesImage.KRAFT_VERSION) < 1) {
            response.apiKeys().removeIf(api -> DYNAMIC_QUORUM_APIS.contains(api.apiKey()));
        }
        for (SupportedFeature feature : features) {
            response.supportedFeatures().add(new ApiVersionsResponse.SupportedFeatureKey().setName(feature.name())
                    .setMinVersion(feature.minLevel()).setMaxVersion(feature.maxLevel()));
        }
        if (!features.isEmpty()) {
            MetadataImage image = images.get();
            Map<String, Integer> finalized = new TreeMap<>();
            for (SupportedFeature feature : features) {
                int level = image.features().level(feature.name());
                if (level > 0) {
                    finalized.put(feature.name(), level);
                }
            }
            finalized.forEach((name, level) -> response.finalizedFeatures().add(
                    new ApiVersionsResponse.FinalizedFeatureKey().setName(name)
                            .setMinVersionLevel(level.shortValue()).setMaxVersionLevel(level.shortValue())));
            response.setFinalizedFeaturesEpoch(image.offset());
        }
        return response;
    }

    /**
     * A v5 client that names a cluster other than ours reached the wrong broker (an address reused by another
     * cluster); a client that does not know sends null (bootstrap). The node id it sends is not checked: for a group
     * coordinator's connection the Java client names a node id of its own making ({@code Integer.MAX_VALUE - id}).
     */
    private boolean misrouted(ApiVersionsRequest body) {
        return clusterId != null && body.clusterId() != null && !clusterId.equals(body.clusterId());
    }
}
