package io.kraft.cli.quorum;

import java.util.List;
import java.util.Optional;

/** The quorum as its leader described it: cluster, leader, epoch, high watermark and every member's position. */
public record QuorumInfo(String clusterId, int leaderId, int leaderEpoch, long highWatermark,
                         List<Replica> voters, List<Replica> observers) {

    /**
     * One member's position as the leader sees it; a timestamp of -1 means never. {@code directoryId} is its metadata
     * log directory as the voter set names it (KIP-853), in Kafka's uuid form; all zeros when not known.
     */
    public record Replica(int replicaId, String directoryId, long logEndOffset, long lastFetchTimestampMs,
                          long lastCaughtUpTimestampMs) {
        /** Kafka's zero uuid: a static voter's or an observer's directory. */
        public static final String UNKNOWN_DIRECTORY = "AAAAAAAAAAAAAAAAAAAAAA";

        public Replica(int replicaId, long logEndOffset, long lastFetchTimestampMs, long lastCaughtUpTimestampMs) {
            this(replicaId, UNKNOWN_DIRECTORY, logEndOffset, lastFetchTimestampMs, lastCaughtUpTimestampMs);
        }
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
