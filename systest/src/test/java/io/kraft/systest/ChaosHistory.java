package io.kraft.systest;

import java.util.ArrayList;
import java.util.List;

/**
 * What the workload of a fault-injection run saw, recorded from many threads: acknowledged sends, records the
 * group's consumers read, offsets the group committed, and committed offsets read back when partitions were
 * assigned. Values are {@code <producer>-<sequence>}, unique per run.
 */
final class ChaosHistory {
    /** An acknowledged send: where the leader said it put the value, and when the acknowledgement came. */
    record Ack(String value, int partition, long offset, long atNanos) {
    }

    /** A record in the log, as a consumer read it. */
    record Read(String value, int partition, long offset) {
    }

    /**
     * A committed offset: {@code commit} is a commit the coordinator acknowledged; otherwise it was read back from
     * the coordinator, and {@code committedBefore} is the highest commit of the partition acknowledged before the
     * read began (-1 if none), which it must not be below.
     */
    record Commit(int partition, long offset, boolean commit, long committedBefore) {
    }

    private final List<Ack> acks = new ArrayList<>();
    private final List<Read> reads = new ArrayList<>();
    private final List<Commit> commits = new ArrayList<>();
    private final java.util.Map<Integer, Long> highestCommit = new java.util.HashMap<>();
    private int failedSends;

    synchronized void acked(String value, int partition, long offset) {
        acks.add(new Ack(value, partition, offset, System.nanoTime()));
    }

    synchronized void sendFailed() {
        failedSends++;
    }

    synchronized void read(String value, int partition, long offset) {
        reads.add(new Read(value, partition, offset));
    }

    /** Records a commit the coordinator acknowledged, in the order acknowledgements arrive. */
    synchronized void committed(int partition, long offset) {
        commits.add(new Commit(partition, offset, true, -1));
        highestCommit.merge(partition, offset, Math::max);
    }

    /** The highest acknowledged commit of the partition so far, -1 if none: take it before reading one back. */
    synchronized long highestCommit(int partition) {
        return highestCommit.getOrDefault(partition, -1L);
    }

    /** Records a committed offset read back (-1 for none), with what {@link #highestCommit} said before the read. */
    synchronized void committedReadBack(int partition, long offset, long committedBefore) {
        commits.add(new Commit(partition, offset, false, committedBefore));
    }

    synchronized List<Ack> acks() {
        return List.copyOf(acks);
    }

    synchronized List<Read> reads() {
        return List.copyOf(reads);
    }

    synchronized List<Commit> commits() {
        return List.copyOf(commits);
    }

    synchronized int failedSends() {
        return failedSends;
    }
}
