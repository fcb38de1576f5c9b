package io.kraft.raft;

/** Decides, when the state machine made a snapshot, whether the log prefix it covers may be deleted now. */
@FunctionalInterface
public interface LogRetentionPolicy {

    /** Keeps the whole log: snapshots only speed up restarts. */
    LogRetentionPolicy KEEP_LOG = snapshot -> false;

    boolean deletePrefixUpTo(SnapshotId snapshot);
}
