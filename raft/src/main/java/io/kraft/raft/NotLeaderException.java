package io.kraft.raft;

import java.util.OptionalInt;

/** Raised when an append reaches a node that is not (or is no longer) the leader. */
public final class NotLeaderException extends RuntimeException {
    private final transient OptionalInt knownLeaderId;
    private final int epoch;

    public NotLeaderException(int nodeId, int epoch, OptionalInt knownLeaderId) {
        super("node " + nodeId + " is not the leader in epoch " + epoch
                + (knownLeaderId.isPresent() ? " (leader is " + knownLeaderId.getAsInt() + ")" : " (leader unknown)"));
        this.knownLeaderId = knownLeaderId;
        this.epoch = epoch;
    }

    public OptionalInt knownLeaderId() {
        return knownLeaderId;
    }

    public int epoch() {
        return epoch;
    }
}
