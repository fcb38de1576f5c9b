package io.kraft.broker.group.consumer;

import java.util.List;

/**
 * A ConsumerGroupHeartbeat as the coordinator reads it (KIP-848). Null fields were not sent (unchanged since the
 * member's last heartbeat); {@code owned} is null when the member did not report its partitions.
 */
public record ConsumerHeartbeat(String groupId, String memberId, int memberEpoch, String instanceId, String rackId,
                                int rebalanceTimeoutMs, List<String> topicNames, String topicRegex,
                                String serverAssignor, Assignment owned, String clientId, String clientHost) {
    /** The epoch a member sends to leave the group. */
    public static final int LEAVE_EPOCH = -1;
    /** The epoch a static member sends to leave for a while, keeping its assignment for its instance id. */
    public static final int STATIC_LEAVE_EPOCH = -2;

    /** The answer: an error, or the member's id, epoch and assigned partitions. */
    public record Result(short errorCode, String errorMessage, String memberId, int memberEpoch,
                         int heartbeatIntervalMs, Assignment assignment) {
        public static Result failed(io.kraft.storage.errors.Errors error, String message) {
            return new Result(error.code(), message, null, 0, 0, null);
        }
    }
}
