package io.kraft.raft;

import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * How long a voter waits, once its leader refuses connections, before it stands for election: the voters after the
 * leader in id order (wrapping round) go one after another, a fifth of the election timeout apart, so the first
 * stands almost at once and the others do not split its vote. A first whose log is behind loses the vote to the
 * next, which then stands in its turn. Times are in ticks; no I/O.
 */
final class SuccessorOrder {
    private SuccessorOrder() {
    }

    /** This voter's place among the others after {@code leaderId}: 0 for the first to stand. */
    static int rank(Set<Integer> voterIds, int leaderId, int nodeId) {
        int rank = 0;
        for (int voter : voterIds) {
            if (voter != leaderId && voter != nodeId && after(leaderId, voter) < after(leaderId, nodeId)) {
                rank++;
            }
        }
        return rank;
    }

    /** The grace of the voter at {@code rank}: a twentieth of the election timeout, a fifth more per rank, a jitter. */
    static long graceTicks(int rank, int electionTimeoutTicks, RandomGenerator random) {
        int step = Math.max(1, electionTimeoutTicks / 20);
        return step + (long) rank * Math.max(1, electionTimeoutTicks / 5) + random.nextInt(step);
    }

    /** How far {@code voter} comes after {@code leaderId} going round the ids upwards. */
    private static long after(int leaderId, int voter) {
        return voter > leaderId ? (long) voter - leaderId : (long) voter - leaderId + (1L << 32);
    }
}
