package io.kraft.broker.api.admin;

import io.kraft.broker.network.RequestContext;
import io.kraft.broker.network.LegacyRequestHandler;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.DescribeClusterMessages;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.metadata.image.BrokerRegistration;
import io.kraft.metadata.image.Endpoint;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.storage.errors.Errors;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Answers DescribeCluster (v0-2, KIP-700) from the metadata image: the unfenced brokers' endpoints on the
 * request's listener (fenced ones too, flagged, when v2 asks for them), the cluster id and a controller id.
 * Only broker endpoints are served here: asking for controllers (endpoint type 2) is Errors.UNSUPPORTED_ENDPOINT_TYPE.code().
 */
public final class DescribeClusterHandler implements LegacyRequestHandler {
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
    public Struct handle(RequestContext context, ParsedRequest request) {
        Struct body = request.body();
        byte endpointType = request.version() >= 1 ? body.getByte("endpoint_type") : ENDPOINT_TYPE_BROKERS;
        boolean includeFenced = request.version() >= 2 && body.getBoolean("include_fenced_brokers");
        Struct response = DescribeClusterMessages.RESPONSE.newStruct();
        response.setByte(response.field("endpoint_type"), endpointType);
        response.set(response.field("cluster_id"), clusterId);
        response.setInt(response.field("cluster_authorized_operations"), Integer.MIN_VALUE);
        if (endpointType != ENDPOINT_TYPE_BROKERS) {
            response.setShort(response.field("error_code"), Errors.UNSUPPORTED_ENDPOINT_TYPE.code());
            response.set(response.field("error_message"), "Endpoint type " + endpointType
                    + " is not served on a broker listener; only brokers (1) are described here");
            response.setInt(response.field("controller_id"), -1);
            return response;
        }
        response.setShort(response.field("error_code"), Errors.NONE.code());
        response.set(response.field("error_message"), null);
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
            Struct out = response.addStruct("brokers");
            out.setInt(out.field("broker_id"), broker.id());
            out.set(out.field("host"), endpoint.get().host());
            out.setInt(out.field("port"), endpoint.get().port());
            out.set(out.field("rack"), broker.rack().orElse(null));
            out.setBoolean(out.field("is_fenced"), broker.fenced());
            // KRaft brokers do not expose the quorum to clients: like Metadata, name a live broker instead.
            if (controllerId == -1 && !broker.fenced()) {
                controllerId = broker.id();
            }
        }
        response.setInt(response.field("controller_id"), controllerId);
        return response;
    }
}
