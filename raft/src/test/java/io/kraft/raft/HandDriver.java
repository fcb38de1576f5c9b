package io.kraft.raft;

/**
 * What a synchronous driver does with a node's {@link Ready} before a hand-driven test looks at it: write and install
 * snapshot chunks (reporting the outcome) and apply the log writes. Flushing stays with the test, which reports it
 * with {@link RaftNode#handleLogFlushed} when its claim needs it.
 */
final class HandDriver {
    private HandDriver() {
    }

    /** Takes the node's next Ready and carries out its writes on {@code log} and {@code snapshots}. */
    static Ready ready(RaftNode node, RaftLog log, SnapshotStore snapshots) {
        Ready ready = node.ready();
        ready.snapshotWrites().applyTo(snapshots, node);
        ready.logWrites().applyTo(log);
        return ready;
    }
}
