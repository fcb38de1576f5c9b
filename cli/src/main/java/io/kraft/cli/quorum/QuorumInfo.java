package io.kraft.cli.quorum;

import java.util.List;
import java.util.Optional;

/** The quorum as its leader described it: cluster, leader, epoch, high watermark and every member's position. */
public record QuorumInfo(String clusterId, int leaderId, int leaderEpoch, long highWatermark,
                         List<Replica> voters, List<Replica> observers) {

    /** One member's position as the leader sees it; a timestamp of -1 means never. */
    public record Replica(int replicaId, long logEndOffset, long lastFetchTimestampMs, long lastCaughtUpTimestampMs) {
    }

    public QuorumInfo {
        voters = List.copyOf(voters);
        observers = List.copyOf(observers);
    }

    /** The leader's own entry among the voters (the leader always reports itself). */
    public Optional<Replica> leader() {
        return voters.stream().filter(v -> v.replicaId() == leaderId).findFirst();
    }
}
