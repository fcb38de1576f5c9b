package io.kraft.metadata.controller;

import io.kraft.metadata.image.Endpoint;
import java.util.List;

/**
 * Checks, outside the controller's loop, whether anything still listens at a broker's advertised endpoints: a
 * killed process's listening sockets are closed by its kernel, so connecting is refused at once, while a silent
 * network partition only times out (and waits for broker.session.timeout.ms as before).
 */
@FunctionalInterface
public interface BrokerProbe {
    /** Probes nothing: brokers are fenced by their sessions and connection-loss grace only. */
    BrokerProbe NONE = (brokerId, endpoints, onRefused) -> { };

    /** Tries each endpoint; runs {@code onRefused} (on any thread) if every one refused the connection. */
    void probe(int brokerId, List<Endpoint> endpoints, Runnable onRefused);
}
