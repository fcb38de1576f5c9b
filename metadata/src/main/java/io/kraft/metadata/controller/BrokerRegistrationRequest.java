package io.kraft.metadata.controller;

import io.kraft.metadata.image.Endpoint;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * A broker process asking to join the cluster (sent at every start with a fresh incarnation id), with the ids of
 * the log directories it has online (KIP-858) and the broker epoch its previous process shut down cleanly with
 * (KIP-966: {@link #NO_CLEAN_SHUTDOWN} after a crash, {@link #PREVIOUS_EPOCH_UNKNOWN} from a broker that does not say).
 */
public record BrokerRegistrationRequest(String clusterId, int brokerId, UUID incarnationId, List<Endpoint> listeners,
                                        Optional<String> rack, List<UUID> logDirs, long previousBrokerEpoch) {
    /** The previous process did not shut down cleanly (Kafka's PreviousBrokerEpoch of -1). */
    public static final long NO_CLEAN_SHUTDOWN = -1L;
    /** The broker does not say how its previous process ended: taken as a clean shutdown, as before KIP-966. */
    public static final long PREVIOUS_EPOCH_UNKNOWN = -2L;

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
        this(clusterId, brokerId, incarnationId, listeners, rack, List.of(), PREVIOUS_EPOCH_UNKNOWN);
    }

    /** A registration that does not say how the previous process ended. */
    public BrokerRegistrationRequest(String clusterId, int brokerId, UUID incarnationId, List<Endpoint> listeners,
                                     Optional<String> rack, List<UUID> logDirs) {
        this(clusterId, brokerId, incarnationId, listeners, rack, logDirs, PREVIOUS_EPOCH_UNKNOWN);
    }

    /** The same request naming {@code onlineLogDirs} as the broker's online log directories. */
    public BrokerRegistrationRequest withLogDirs(List<UUID> onlineLogDirs) {
        return new BrokerRegistrationRequest(clusterId, brokerId, incarnationId, listeners, rack, onlineLogDirs,
                previousBrokerEpoch);
    }

    /** The same request saying the previous process shut down cleanly with {@code epoch}, or -1 if it did not. */
    public BrokerRegistrationRequest withPreviousBrokerEpoch(long epoch) {
        return new BrokerRegistrationRequest(clusterId, brokerId, incarnationId, listeners, rack, logDirs, epoch);
    }

    /**
     * Whether this registration replacing {@code previous} follows an unclean shutdown of it: the broker says it did
     * not shut down cleanly, or names another epoch than the registration it replaces.
     */
    public boolean followsUncleanShutdownOf(long previousEpoch) {
        return previousBrokerEpoch != PREVIOUS_EPOCH_UNKNOWN && previousBrokerEpoch != previousEpoch;
    }
}
