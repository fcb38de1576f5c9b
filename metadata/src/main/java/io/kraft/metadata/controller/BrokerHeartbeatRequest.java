package io.kraft.metadata.controller;

import java.util.List;

/**
 * A broker's periodic heartbeat.
 *
 * @param currentMetadataOffset the offset of the last metadata record the broker has applied
 * @param wantFence             the broker is not ready to serve (e.g. still recovering its logs)
 * @param wantShutDown          the broker asks for a controlled shutdown
 * @param offlineLogDirs        the broker's log directories that failed, with partitions not yet known to be there
 */
public record BrokerHeartbeatRequest(int brokerId, long brokerEpoch, long currentMetadataOffset, boolean wantFence,
                                     boolean wantShutDown, List<OfflineLogDir> offlineLogDirs) {
    public BrokerHeartbeatRequest {
        offlineLogDirs = List.copyOf(offlineLogDirs);
    }

    /** A heartbeat of a broker whose log directories are all online. */
    public BrokerHeartbeatRequest(int brokerId, long brokerEpoch, long currentMetadataOffset, boolean wantFence,
                                  boolean wantShutDown) {
        this(brokerId, brokerEpoch, currentMetadataOffset, wantFence, wantShutDown, List.of());
    }
}
