package io.kraft.metadata.controller;

/**
 * A broker's periodic heartbeat.
 *
 * @param currentMetadataOffset the offset of the last metadata record the broker has applied
 * @param wantFence             the broker is not ready to serve (e.g. still recovering its logs)
 * @param wantShutDown          the broker asks for a controlled shutdown
 */
public record BrokerHeartbeatRequest(int brokerId, long brokerEpoch, long currentMetadataOffset, boolean wantFence,
                                     boolean wantShutDown) {
}
