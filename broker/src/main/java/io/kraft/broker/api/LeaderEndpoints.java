package io.kraft.broker.api;

import io.kraft.metadata.image.BrokerRegistration;
import io.kraft.metadata.image.Endpoint;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicImage;
import java.util.List;
import java.util.Set;

/**
 * KIP-951: a Produce or Fetch answer telling a client that this broker does not lead a partition names the
 * current leader and, in {@code node_endpoints}, how to reach it, so the client moves without a metadata refresh.
 */
public final class LeaderEndpoints {
    private LeaderEndpoints() {
    }

    /** Builds one {@code node_endpoints} entry of an API's response (each API has its own generated class). */
    @FunctionalInterface
    public interface NodeEndpointFactory<E> {
        /** @param rack null when the broker has none */
        E endpoint(int nodeId, String host, int port, String rack);
    }

    /** The partition's registration in the image, or null when the topic or partition is unknown. */
    public static PartitionRegistration registration(MetadataImage image, String topic, int partition) {
        TopicImage known = topic == null ? null : image.topics().topic(topic);
        return known == null ? null : known.partition(partition);
    }

    /**
     * Adds a {@code node_endpoints} entry per leader (unfenced, with an endpoint on the request's listener) to
     * {@code nodeEndpoints}, in the order of {@code brokerIds}; nothing without a listener name.
     */
    public static <E> void addNodeEndpoints(List<E> nodeEndpoints, MetadataImage image, Set<Integer> brokerIds,
                                            String listenerName, NodeEndpointFactory<E> factory) {
        if (listenerName == null) {
            return;
        }
        for (int brokerId : brokerIds) {
            BrokerRegistration broker = image.cluster().broker(brokerId);
            if (broker == null || broker.fenced()) {
                continue;
            }
            for (Endpoint endpoint : broker.listeners()) {
                if (endpoint.name().equals(listenerName)) {
                    nodeEndpoints.add(factory.endpoint(brokerId, endpoint.host(), endpoint.port(),
                            broker.rack().orElse(null)));
                    break;
                }
            }
        }
    }
}
