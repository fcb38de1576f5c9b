package io.kraft.metadata.controller;

import io.kraft.metadata.image.Endpoint;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/** A broker process asking to join the cluster (sent at every start with a fresh incarnation id). */
public record BrokerRegistrationRequest(String clusterId, int brokerId, UUID incarnationId, List<Endpoint> listeners,
                                        Optional<String> rack) {
    public BrokerRegistrationRequest {
        Objects.requireNonNull(clusterId, "clusterId");
        Objects.requireNonNull(incarnationId, "incarnationId");
        listeners = List.copyOf(listeners);
        Objects.requireNonNull(rack, "rack");
    }
}
