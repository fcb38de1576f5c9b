package io.kraft.raft;

import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/**
 * Settings of one Raft node in logical ticks. The driver chooses how long a tick is and converts Kafka's
 * millisecond settings with {@link #fromMillis}.
 */
public record RaftConfig(int nodeId, Set<Integer> voterIds, int electionTimeoutTicks, int fetchTimeoutTicks,
                         int electionBackoffMaxTicks, int requestTimeoutTicks, int fetchMaxWaitTicks,
                         int fetchMaxEntries, int snapshotChunkBytes) {

    /** Snapshot chunks of 256 KiB unless said otherwise. */
    public static final int DEFAULT_SNAPSHOT_CHUNK_BYTES = 256 * 1024;
    /** The most snapshot bytes one FetchSnapshot request asks for (and is answered with, as a stream of chunks). */
    public static final int MAX_SNAPSHOT_FETCH_BYTES = 8 * 1024 * 1024;
    /**
     * The most record bytes one append (one batch) may carry, as Kafka's Raft client allows. Batches travel whole in
     * one fetch response, so this bounds a response and must stay below {@link #MAX_RPC_BYTES}.
     */
    public static final int MAX_BATCH_BYTES = 8 * 1024 * 1024;
    /** Record bytes a fetch response carries beyond its first batch, which is sent whole whatever its size. */
    public static final int MAX_FETCH_RESPONSE_BYTES = 8 * 1024 * 1024;
    /**
     * The largest message the gRPC transport takes (its inbound limit, raised from gRPC's 4 MiB): a fetch response
     * of one batch of {@link #MAX_BATCH_BYTES} plus per-entry framing, or a snapshot chunk, fits with room to spare.
     */
    public static final int MAX_RPC_BYTES = 16 * 1024 * 1024;
    /**
     * How far ahead of this node's epoch a message's epoch may be and still be believed. Elections move the epoch one
     * at a time, so a member that missed even thousands of them is far below this; a message claiming more (a Vote
     * at Integer.MAX_VALUE) would otherwise push every voter to an epoch with no successor and wedge the quorum.
     */
    public static final int MAX_EPOCH_JUMP = 1 << 20;
    /**
     * Observers whose progress a leader tracks; a fetch from one more evicts the one silent longest, so node ids
     * made up by a hostile client cannot grow the leader's memory (brokers of a real cluster are far fewer).
     */
    public static final int MAX_TRACKED_OBSERVERS = 10_000;

    public RaftConfig(int nodeId, Set<Integer> voterIds, int electionTimeoutTicks, int fetchTimeoutTicks,
                      int electionBackoffMaxTicks, int requestTimeoutTicks, int fetchMaxWaitTicks,
                      int fetchMaxEntries) {
        this(nodeId, voterIds, electionTimeoutTicks, fetchTimeoutTicks, electionBackoffMaxTicks, requestTimeoutTicks,
                fetchMaxWaitTicks, fetchMaxEntries, DEFAULT_SNAPSHOT_CHUNK_BYTES);
    }

    public RaftConfig {
        // Sorted and immutable: Set.copyOf would iterate in a per-JVM random order and break replayability.
        voterIds = Collections.unmodifiableSortedSet(new TreeSet<>(voterIds));
        if (voterIds.isEmpty()) {
            throw new IllegalArgumentException("the voter set must not be empty");
        }
        requirePositive("electionTimeoutTicks", electionTimeoutTicks);
        requirePositive("fetchTimeoutTicks", fetchTimeoutTicks);
        requirePositive("electionBackoffMaxTicks", electionBackoffMaxTicks);
        requirePositive("requestTimeoutTicks", requestTimeoutTicks);
        requirePositive("fetchMaxWaitTicks", fetchMaxWaitTicks);
        requirePositive("fetchMaxEntries", fetchMaxEntries);
        requirePositive("snapshotChunkBytes", snapshotChunkBytes);
        if (fetchMaxWaitTicks >= requestTimeoutTicks) {
            throw new IllegalArgumentException("fetchMaxWaitTicks (" + fetchMaxWaitTicks
                    + ") must be below requestTimeoutTicks (" + requestTimeoutTicks + ") or held fetches would be "
                    + "retried as lost");
        }
        if (fetchMaxWaitTicks >= fetchTimeoutTicks) {
            throw new IllegalArgumentException("fetchMaxWaitTicks (" + fetchMaxWaitTicks
                    + ") must be below fetchTimeoutTicks (" + fetchTimeoutTicks + ") or followers would time out "
                    + "while the leader holds their fetch");
        }
    }

    /**
     * Converts Kafka's millisecond settings ({@code controller.quorum.election.timeout.ms} and friends) to ticks of
     * {@code tickMs}; the leader holds an idle fetch for half the request timeout.
     */
    public static RaftConfig fromMillis(int nodeId, Set<Integer> voterIds, long tickMs, long electionTimeoutMs,
                                        long fetchTimeoutMs, long electionBackoffMaxMs, long requestTimeoutMs,
                                        int fetchMaxEntries) {
        return new RaftConfig(nodeId, voterIds, ticks(electionTimeoutMs, tickMs), ticks(fetchTimeoutMs, tickMs),
                ticks(electionBackoffMaxMs, tickMs), ticks(requestTimeoutMs, tickMs),
                Math.max(1, ticks(Math.min(requestTimeoutMs, fetchTimeoutMs) / 2, tickMs)), fetchMaxEntries);
    }

    public boolean isVoter() {
        return voterIds.contains(nodeId);
    }

    /** Votes (or fetch acknowledgements) needed for a decision: a strict majority of voters. */
    public int majority() {
        return voterIds.size() / 2 + 1;
    }

    private static int ticks(long ms, long tickMs) {
        return (int) Math.max(1, (ms + tickMs - 1) / tickMs);
    }

    private static void requirePositive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive but was " + value);
        }
    }
}
