package io.kraft.metadata.loader;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a starting node's time goes until its image first holds everything Raft has handed over: the snapshot load,
 * the wait for a leader and for the first commit, and the replay of the log after the snapshot (batches, records,
 * deltas, and the time spent applying them and following them with the indexes), and for a new member when Raft
 * handed the snapshot over (fetched from the leader and installed). Logged as one line at debug level once caught up,
 * that is once the owner first holds every batch Raft has committed to it and Raft knows of no later commit (a
 * broker's Raft has fetched up to the high watermark its leader last sent); a controller's standby indexes,
 * built off its loop from the caught-up image, log a second line when they are in place. Called on the owner's loop
 * only.
 */
public final class CatchUpTimeline {
    private static final Logger LOG = LoggerFactory.getLogger(CatchUpTimeline.class);

    private final String owner;
    private final long startNanos = System.nanoTime();
    private long snapshotAtMs = -1;
    private long snapshotLoadMs;
    private long snapshotOffset = -1;
    private long snapshotHandedAtMs = -1;
    private long leaderAtMs = -1;
    private long firstCommitAtMs = -1;
    private long batches;
    private long records;
    private long deltas;
    private long applyNanos;
    private long storeNanos;
    private long followNanos;
    private boolean done;
    private long caughtUpOffset = -1;

    /** @param owner names the node in the line, e.g. "Controller 1" */
    public CatchUpTimeline(String owner) {
        this.owner = Objects.requireNonNull(owner, "owner");
    }

    private long sinceStartMs() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    /** A snapshot ending at {@code offset} was loaded in {@code nanos}. */
    public void snapshotLoaded(long offset, long nanos) {
        if (!done) {
            snapshotAtMs = sinceStartMs();
            snapshotLoadMs += TimeUnit.NANOSECONDS.toMillis(nanos);
            snapshotOffset = offset;
        }
    }

    /** Raft handed a snapshot over at {@code nanoTime} (for a new member: once fetched and installed). */
    public void snapshotHandedOver(long nanoTime) {
        if (!done && snapshotHandedAtMs < 0) {
            snapshotHandedAtMs = TimeUnit.NANOSECONDS.toMillis(nanoTime - startNanos);
        }
    }

    /** A leader became known. */
    public void leaderKnown() {
        if (!done && leaderAtMs < 0) {
            leaderAtMs = sinceStartMs();
        }
    }

    /**
     * {@code batchCount} committed batches holding {@code recordCount} records became one delta in {@code nanos}, of
     * which {@code storeNanos} handing it to the state store (waiting only when that is behind).
     */
    public void applied(int batchCount, int recordCount, long nanos, long storeNanos) {
        if (done) {
            return;
        }
        if (firstCommitAtMs < 0) {
            firstCommitAtMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos - startNanos);
        }
        batches += batchCount;
        records += recordCount;
        deltas++;
        applyNanos += nanos;
        this.storeNanos += storeNanos;
    }

    /** Indexes followed an applied delta in {@code nanos}. */
    public void followed(long nanos) {
        if (!done) {
            followNanos += nanos;
        }
    }

    /**
     * The standby indexes built off the loop are in place, at {@code offset}: logs their own line, since the one of
     * {@link #caughtUp} is written before they end. {@code buildNanos} building them on their thread, {@code waitNanos}
     * waiting for that thread and then for the loop, {@code replayNanos} replaying on the loop the {@code changes}
     * applied meanwhile.
     */
    public void indexesBuiltOffLoop(long buildNanos, long waitNanos, long replayNanos, int changes, long offset) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("{} standby indexes ready at offset {}, {} ms after start: built in {} ms off the loop, {} ms "
                            + "waiting for the builder and the loop, {} changes applied meanwhile replayed in {} ms",
                    owner, offset, sinceStartMs(), TimeUnit.NANOSECONDS.toMillis(buildNanos),
                    TimeUnit.NANOSECONDS.toMillis(waitNanos), changes, TimeUnit.NANOSECONDS.toMillis(replayNanos));
        }
    }

    /** The offset the owner first caught up to, or -1 until then. */
    long caughtUpOffset() {
        return caughtUpOffset;
    }

    /** The image holds everything handed over so far, up to {@code offset}: logs the line, once. */
    public void caughtUp(long offset) {
        if (done || firstCommitAtMs < 0) {
            return;
        }
        done = true;
        caughtUpOffset = offset;
        if (LOG.isDebugEnabled()) {
            LOG.debug("{} caught up to offset {} in {} ms: leader known at {} ms, snapshot {} handed over by Raft at {}"
                            + " ms, loaded at {} ms (took {} ms), first commit at {} ms, then {} batches ({} records)"
                            + " as {} deltas applied in {} ms ({} ms of it waiting for the state store) and followed by the"
                            + " indexes in {} ms", owner, offset, sinceStartMs(), leaderAtMs, snapshotOffset,
                    snapshotHandedAtMs, snapshotAtMs, snapshotLoadMs, firstCommitAtMs, batches, records, deltas,
                    TimeUnit.NANOSECONDS.toMillis(applyNanos), TimeUnit.NANOSECONDS.toMillis(storeNanos),
                    TimeUnit.NANOSECONDS.toMillis(followNanos));
        }
    }
}
