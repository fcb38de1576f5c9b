package io.kraft.metadata.controller;

import io.kraft.metadata.image.Endpoint;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * A broker process asking to join the cluster (sent at every start with a fresh incarnation id), with the ids of
 * the log directories it has online (KIP-858).
 */
public record BrokerRegistrationRequest(String clusterId, int brokerId, UUID incarnationId, List<Endpoint> listeners,
                                        Optional<String> rack, List<UUID> logDirs) {
    public BrokerRegistrationRequest {
        Objects.requireNonNull(clusterId, "clusterId");
        Objects.requireNonNull(incarnationId, "incarnationId");
        listeners = List.copyOf(listeners);
        Objects.requireNonNull(rack, "rack");
        logDirs = List.copyOf(logDirs);
    }

    /** A registration that names no log directories. */
    public BrokerRegistrationRequest(String clusterId, int brokerId, UUID incarnationId, List<Endpoint> listeners,
                                     Optional<String> rack) {
        this(clusterId, brokerId, incarnationId, listeners, rack, List.of());
    }

    /** The same request naming {@code onlineLogDirs} as the broker's online log directories. */
    public BrokerRegistrationRequest withLogDirs(List<UUID> onlineLogDirs) {
        return new BrokerRegistrationRequest(clusterId, brokerId, incarnationId, listeners, rack, onlineLogDirs);
    }
}
