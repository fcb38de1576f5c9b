package io.kraft.metadata.loader;

import io.kraft.raft.CommittedBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Gathers the batches Raft commits back to back into runs that the owner's loop applies as one delta each: a run is
 * scheduled on the loop at its first batch and takes every batch committed until the loop gets to it, so a member
 * far behind the high watermark (a restart, a new member) replays thousands of batches as a few deltas instead of one
 * image, store write and publication per batch, while a member in step still sees one batch per run. Any other
 * listener event (a snapshot load, a leader change) closes the open run first, so runs never jump over it.
 *
 * <p>{@link #add} and {@link #cut} are called on Raft's thread, {@link #take} on the owner's loop.
 */
public final class CommittedRuns {
    /** Consecutive committed batches waiting for the loop. */
    public static final class Run {
        private List<CommittedBatch> batches = new ArrayList<>();

        private synchronized boolean add(CommittedBatch batch) {
            if (batches == null) {
                return false;
            }
            batches.add(batch);
            return true;
        }

        private synchronized List<CommittedBatch> take() {
            List<CommittedBatch> taken = batches;
            batches = null;
            return taken == null ? List.of() : taken;
        }
    }

    private final AtomicInteger waiting = new AtomicInteger();
    private Run open;

    /**
     * Adds a committed batch to the open run if the loop has not taken it yet.
     *
     * @return a new run holding the batch, for the caller to schedule on its loop; null if it joined a scheduled one
     */
    public Run add(CommittedBatch batch) {
        if (open != null && open.add(batch)) {
            return null;
        }
        open = new Run();
        open.add(batch);
        waiting.incrementAndGet();
        return open;
    }

    /** The batches {@code run} gathered, in offset order; it takes no more after this. */
    public List<CommittedBatch> take(Run run) {
        List<CommittedBatch> batches = run.take();
        waiting.decrementAndGet();
        return batches;
    }

    /** Whether every run scheduled so far has been taken: the owner holds all Raft has committed to it. */
    public boolean idle() {
        return waiting.get() == 0;
    }

    /** Another listener event comes next: later batches start a new run. */
    public void cut() {
        open = null;
    }
}
