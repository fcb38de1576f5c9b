package io.kraft.raft;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The high watermark and what waits on it: the leader's append futures, and the committed records the state machine
 * has not been handed yet. It only moves forward; every part that learns of a commit reports it here.
 */
final class CommitTracker {
    private final NodeContext node;
    private final PendingAppends pendingAppends = new PendingAppends();
    private long highWatermark;
    /** The highest high watermark a leader sent this node (its log may end below it). */
    private long leaderHighWatermark;
    private long nextOffsetToDeliver;

    CommitTracker(NodeContext node) {
        this.node = node;
    }

    /** Offsets below this are committed (and known to be so by this node). */
    long highWatermark() {
        return highWatermark;
    }

    /**
     * Offsets below this are committed as far as this node has heard: its own high watermark, or the higher one a
     * leader sent with records this node has not fetched yet.
     */
    long leaderHighWatermark() {
        return Math.max(highWatermark, leaderHighWatermark);
    }

    /** A leader sent {@code reported} as its high watermark. */
    void leaderReported(long reported) {
        leaderHighWatermark = Math.max(leaderHighWatermark, reported);
    }

    /** The first committed offset the state machine has not been handed yet. */
    long nextOffsetToDeliver() {
        return nextOffsetToDeliver;
    }

    /** After a restart from {@code snapshot}: everything in it is committed and applied once it is loaded. */
    void startFrom(SnapshotId snapshot) {
        highWatermark = snapshot.endOffset();
        nextOffsetToDeliver = snapshot.endOffset();
        node.out.loadSnapshot(snapshot);
    }

    /** A snapshot fetched from the leader replaces the state machine's state; delivery resumes after it. */
    void jumpTo(SnapshotId snapshot) {
        node.out.dropCommitted(); // everything not yet handed out lies below the snapshot's end
        highWatermark = Math.max(highWatermark, snapshot.endOffset());
        nextOffsetToDeliver = snapshot.endOffset();
        node.out.loadSnapshot(snapshot);
        deliverCommitted();
    }

    /**
     * Raises the high watermark, completing the appends and handing out the records it commits. It lies between
     * batches: acknowledgements do (every log holds whole batches), and so does the high watermark a leader sends.
     */
    void advanceTo(long newHighWatermark) {
        if (newHighWatermark <= highWatermark) {
            throw new IllegalStateException("node " + node.nodeId + ": high watermark would move from "
                    + highWatermark + " to " + newHighWatermark);
        }
        node.log.requireBatchBoundary(newHighWatermark, "node " + node.nodeId + ": high watermark");
        highWatermark = newHighWatermark;
        pendingAppends.completeBelow(highWatermark);
        deliverCommitted();
    }

    /** A leader's append whose last record is at {@code lastOffset}; completes when that offset commits. */
    void awaitCommit(long lastOffset, CompletableFuture<Long> future) {
        pendingAppends.add(lastOffset, future);
    }

    /** Leadership is lost: appends not yet committed fail (a later leader may still commit them). */
    void failPendingAppends(NotLeaderException cause) {
        pendingAppends.failAll(cause);
    }

    /**
     * Cuts the newly committed range into runs of consecutive data records of one epoch, each handed out as one
     * {@link CommittedBatch}. The range ends between batches, and an appended batch holds data of one epoch only, so
     * every client append reaches the state machine whole, within one run (a run may hold several appends).
     */
    private void deliverCommitted() {
        while (nextOffsetToDeliver < highWatermark) {
            int max = (int) Math.min(Integer.MAX_VALUE, highWatermark - nextOffsetToDeliver);
            List<LogEntry> entries = node.log.read(nextOffsetToDeliver, max);
            if (entries.isEmpty()) {
                throw new IllegalStateException("node " + node.nodeId + ": committed offset " + nextOffsetToDeliver
                        + " is missing from the log");
            }
            List<byte[]> run = new ArrayList<>();
            long runStart = -1;
            int runEpoch = -1;
            for (LogEntry entry : entries) {
                if (!entry.isData() || entry.epoch() != runEpoch) {
                    if (!run.isEmpty()) {
                        node.out.commit(new CommittedBatch(runStart, runEpoch, run));
                        run = new ArrayList<>();
                    }
                    runEpoch = entry.epoch();
                }
                if (entry.isData()) {
                    if (run.isEmpty()) {
                        runStart = entry.offset();
                    }
                    run.add(entry.payload());
                }
            }
            if (!run.isEmpty()) {
                node.out.commit(new CommittedBatch(runStart, runEpoch, run));
            }
            nextOffsetToDeliver += entries.size();
        }
    }
}
