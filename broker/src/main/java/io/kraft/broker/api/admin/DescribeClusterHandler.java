package io.kraft.broker.api.admin;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.RequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.DescribeClusterRequest;
import io.kraft.broker.protocol.message.DescribeClusterResponse;
import io.kraft.broker.protocol.message.DescribeClusterResponse.DescribeClusterBroker;
import io.kraft.metadata.image.BrokerRegistration;
import io.kraft.metadata.image.Endpoint;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.authorizer.StandardAcl;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Answers DescribeCluster (v0-2, KIP-700) from the metadata image: the unfenced brokers' endpoints on the
 * request's listener (fenced ones too, flagged, when v2 asks for them), the cluster id and a controller id.
 * Only broker endpoints are served here: asking for controllers (endpoint type 2) is UNSUPPORTED_ENDPOINT_TYPE.
 */
public final class DescribeClusterHandler implements RequestHandler<DescribeClusterRequest, DescribeClusterResponse> {
    /** Kafka's endpoint type for brokers (KIP-919); 2 is controllers. */
    static final byte ENDPOINT_TYPE_BROKERS = 1;

    private final Supplier<MetadataImage> images;
    private final String clusterId;

    public DescribeClusterHandler(Supplier<MetadataImage> images, String clusterId) {
        this.images = Objects.requireNonNull(images, "images");
        this.clusterId = Objects.requireNonNull(clusterId, "clusterId");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.DESCRIBE_CLUSTER;
    }

    @Override
    public DescribeClusterResponse handle(RequestContext context, ApiRequest<DescribeClusterRequest> request) {
        DescribeClusterRequest body = request.body();
        byte endpointType = request.version() >= 1 ? body.endpointType() : ENDPOINT_TYPE_BROKERS;
        boolean includeFenced = request.version() >= 2 && body.includeFencedBrokers();
        DescribeClusterResponse response = new DescribeClusterResponse()
                .setEndpointType(endpointType)
                .setClusterId(clusterId)
                .setClusterAuthorizedOperations(body.includeClusterAuthorizedOperations()
                        ? context.authorizedOperations(ResourceType.CLUSTER, StandardAcl.CLUSTER_NAME)
                        : Integer.MIN_VALUE);
        if (endpointType != ENDPOINT_TYPE_BROKERS) {
            return response.setErrorCode(Errors.UNSUPPORTED_ENDPOINT_TYPE.code())
                    .setErrorMessage("Endpoint type " + endpointType
                            + " is not served on a broker listener; only brokers (1) are described here")
                    .setControllerId(-1);
        }
        response.setErrorCode(Errors.NONE.code()).setErrorMessage(null);
        MetadataImage image = images.get();
        List<BrokerRegistration> brokers = image.cluster().brokers().values().stream()
                .sorted(Comparator.comparingInt(BrokerRegistration::id))
                .toList();
        int controllerId = -1;
        for (BrokerRegistration broker : brokers) {
            Optional<Endpoint> endpoint = broker.listeners().stream()
                    .filter(e -> e.name().equals(context.listenerName())).findFirst();
            if (endpoint.isEmpty() || (broker.fenced() && !includeFenced)) {
                continue;
            }
            response.brokers().add(new DescribeClusterBroker()
                    .setBrokerId(broker.id())
                    .setHost(endpoint.get().host())
                    .setPort(endpoint.get().port())
                    .setRack(broker.rack().orElse(null))
                    .setIsFenced(broker.fenced()));
            // KRaft brokers do not expose the quorum to clients: like Metadata, name a live broker instead.
            if (controllerId == -1 && !broker.fenced()) {
                controllerId = broker.id();
            }
        }
        return response.setControllerId(controllerId);
    }
}
