package io.kraft.metadata.controller;

/**
 * The controller's answer to a heartbeat, as it will be once the heartbeat's records commit.
 *
 * @param isCaughtUp     the broker has applied the metadata log up to its own registration
 * @param isFenced       the broker is fenced
 * @param shouldShutDown the broker's controlled shutdown is complete and it may stop
 */
public record BrokerHeartbeatReply(boolean isCaughtUp, boolean isFenced, boolean shouldShutDown) {
}
