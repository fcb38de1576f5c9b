package io.kraft.metadata.loader;

import com.google.protobuf.InvalidProtocolBufferException;
import io.kraft.metadata.InvalidMetadataRecordException;
import io.kraft.metadata.controller.SnapshotPolicy;
import io.kraft.metadata.image.MetadataChangeListener;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataPublisher;
import io.kraft.metadata.loop.Time;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.raft.CommittedBatch;
import io.kraft.raft.RaftClient;
import io.kraft.raft.SnapshotId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's committed metadata, the part a controller and a broker's Raft observer share: applies committed batches
 * to the {@link MetadataImage} with one {@link MetadataDelta} each and persists what the delta changed in its
 * {@link MetadataStorage}, replaces both from a snapshot, saves a snapshot when the {@link SnapshotPolicy} says so,
 * and hands each new image with its delta to the {@link PublisherQueue}, which publishes on its own loop.
 *
 * <p>Not thread-safe: its owner's single event loop calls every method except {@link #image()} and
 * {@link #register}.
 */
public final class MetadataLoader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MetadataLoader.class);

    /** The records of one committed batch that were added to the image, from {@code firstOffset} in {@code epoch}. */
    public record ReplayedBatch(List<MetadataRecord> records, long firstOffset, int epoch) {
    }

    private final String owner;
    private final MetadataStorage storage;
    private final SnapshotPolicy snapshotPolicy;
    private final Time time;
    private final PublisherQueue publishers;
    private volatile MetadataImage image = MetadataImage.EMPTY;
    private long recordBytesSinceSnapshot;
    private long lastSnapshotMs;
    private long deltasApplied;
    private final CatchUpTimeline catchUp;
    /** The snapshot being written out, if one was started. */
    private CompletableFuture<SnapshotId> saving;

    /**
     * @param owner      names the node in log lines, e.g. "Controller 1"
     * @param storage    where committed state and snapshots are kept
     * @param time       the owner's clock (the snapshot interval is measured on its monotonic time)
     * @param publishers where new images go
     */
    public MetadataLoader(String owner, MetadataStorage storage, SnapshotPolicy snapshotPolicy, Time time,
                          PublisherQueue publishers) {
        this.owner = Objects.requireNonNull(owner, "owner");
        this.storage = Objects.requireNonNull(storage, "storage");
        this.snapshotPolicy = Objects.requireNonNull(snapshotPolicy, "snapshotPolicy");
        this.time = Objects.requireNonNull(time, "time");
        this.publishers = Objects.requireNonNull(publishers, "publishers");
        this.lastSnapshotMs = time.monotonicMs();
        this.catchUp = new CatchUpTimeline(owner);
    }

    /** The last committed image (readable from any thread). */
    public MetadataImage image() {
        return image;
    }

    /** Adds a publisher; it receives every image applied from now on, on the publishers' loop. */
    public void register(MetadataPublisher publisher) {
        publishers.register(publisher);
    }

    /** The last image every publisher has taken in (readable from any thread). */
    public MetadataImage publishedImage() {
        return publishers.published();
    }

    /**
     * Applies the part of a committed batch the image does not hold yet, then hands the new image to the publishers.
     *
     * @return whether anything was applied (false if a loaded snapshot already covered the whole batch)
     * @throws InvalidMetadataRecordException if a committed record is not a metadata record or does not apply
     */
    public boolean applyCommitted(CommittedBatch batch) {
        return applyCommitted(List.of(batch), MetadataChangeListener.NONE);
    }

    /**
     * Applies the parts of consecutive committed batches the image does not hold yet as one delta (one new image,
     * one store write, one publication), reporting each entity change to {@code listener} as the batches are
     * replayed (a standby controller keeps its managers' indexes in step with the log this way).
     *
     * @return whether anything was applied (false if a loaded snapshot already covered every batch)
     * @throws InvalidMetadataRecordException if a committed record is not a metadata record or does not apply
     */
    public boolean applyCommitted(List<CommittedBatch> batches, MetadataChangeListener listener) {
        long started = System.nanoTime();
        MetadataDelta delta = null;
        List<ReplayedBatch> replayed = new ArrayList<>(batches.size());
        int recordCount = 0;
        for (CommittedBatch batch : batches) {
            ReplayedBatch records = parseNew(batch, delta == null ? image.offset() : delta.offset());
            if (records == null) {
                continue;
            }
            if (delta == null) {
                delta = new MetadataDelta(image, listener);
            }
            delta.replayBatch(records.records(), records.firstOffset(), records.epoch());
            replayed.add(records);
            recordCount += records.records().size();
        }
        if (delta == null) {
            return false;
        }
        MetadataImage next = delta.apply();
        long storing = System.nanoTime();
        storage.apply(delta);
        long stored = System.nanoTime();
        image = next;
        deltasApplied++;
        publishers.publishBatches(delta, next, replayed);
        catchUp.applied(replayed.size(), recordCount, stored - started, stored - storing);
        return true;
    }

    /** The records of {@code batch} after {@code appliedOffset}, parsed, or null if there are none. */
    private ReplayedBatch parseNew(CommittedBatch batch, long appliedOffset) {
        List<byte[]> raw = batch.records();
        int skip = (int) Math.max(0, Math.min(raw.size(), appliedOffset + 1 - batch.baseOffset()));
        if (skip == raw.size()) {
            return null;
        }
        List<MetadataRecord> records = new ArrayList<>(raw.size() - skip);
        for (int i = skip; i < raw.size(); i++) {
            try {
                records.add(MetadataRecord.parseFrom(raw.get(i)));
            } catch (InvalidProtocolBufferException e) {
                throw new InvalidMetadataRecordException("Committed record at offset " + (batch.baseOffset() + i)
                        + " is not a metadata record: " + e.getMessage());
            }
            recordBytesSinceSnapshot += raw.get(i).length;
        }
        return new ReplayedBatch(records, batch.baseOffset() + skip, batch.epoch());
    }

    /** How many deltas committed batches were applied as since this loader was made (a run of batches is one). */
    public long deltasApplied() {
        return deltasApplied;
    }

    /** Where this node's time went until it first caught up (the owner reports leaders and its indexes to it). */
    public CatchUpTimeline catchUp() {
        return catchUp;
    }

    /**
     * Replaces the state with a stored snapshot, unless the image already covers it, and publishes the loaded image
     * with a delta from the empty image.
     *
     * @return whether the snapshot was loaded
     */
    public boolean loadSnapshot(SnapshotId snapshotId) {
        if (snapshotId.endOffset() - 1 <= image.offset()) {
            return false;
        }
        long started = System.nanoTime();
        MetadataStorage.LoadedDelta loaded = storage.loadSnapshotDelta(snapshotId);
        long read = System.nanoTime();
        // One delta gives both the image and what the publishers get (everything in it is new to them).
        MetadataDelta delta = loaded.delta();
        MetadataImage next = delta.apply(loaded.position());
        image = next;
        recordBytesSinceSnapshot = 0;
        lastSnapshotMs = time.monotonicMs();
        long done = System.nanoTime();
        long tookNanos = done - started;
        catchUp.snapshotLoaded(next.offset(), tookNanos);
        LOG.info("{} loaded metadata snapshot {} in {} ms (state replaced in {} ms, read in {} ms, image built in {} "
                + "ms)", owner, snapshotId, tookNanos / 1_000_000, loaded.replaceNanos() / 1_000_000,
                (read - started - loaded.replaceNanos()) / 1_000_000, (done - read) / 1_000_000);
        publishers.publishSnapshot(delta, next);
        return true;
    }

    /**
     * Starts saving the state as a snapshot if the policy says one is due and no save is still running: the state is
     * captured now, and written out in the background (see {@link MetadataStorage#saveSnapshot}), so a large image
     * does not stall the owner's loop. Report the snapshot to Raft ({@code RaftClient.snapshotCreated}) when the
     * returned future completes, so it can delete the log prefix.
     *
     * @return the save under way, completing with the stored snapshot's id; empty if none was due (or it exists)
     */
    public Optional<CompletableFuture<SnapshotId>> maybeSnapshot() {
        long nowMs = time.monotonicMs();
        if (image.offset() < 0 || (saving != null && !saving.isDone())
                || !snapshotPolicy.isDue(recordBytesSinceSnapshot, nowMs - lastSnapshotMs)) {
            return Optional.empty();
        }
        SnapshotId id = new SnapshotId(image.offset() + 1, image.epoch());
        if (storage.containsSnapshot(id)) {
            return Optional.empty();
        }
        long startedNanos = System.nanoTime();
        CompletableFuture<Void> stored = storage.saveSnapshot(id);
        long capturedMs = (System.nanoTime() - startedNanos) / 1_000_000;
        recordBytesSinceSnapshot = 0;
        lastSnapshotMs = nowMs;
        saving = stored.thenApply(done -> {
            LOG.info("{} saved metadata snapshot {} in {} ms (its loop waited {} ms)", owner, id,
                    (System.nanoTime() - startedNanos) / 1_000_000, capturedMs);
            return id;
        });
        return Optional.of(saving);
    }

    /**
     * {@link #maybeSnapshot()}, telling {@code raft} of the stored snapshot so it can delete the log prefix. A
     * snapshot that cannot be saved is logged: the log is still there to replay from, and the next check tries again.
     */
    public void snapshotIfDue(RaftClient raft) {
        try {
            maybeSnapshot().ifPresent(saving -> saving.whenComplete((id, error) -> {
                if (error == null) {
                    raft.snapshotCreated(id);
                } else {
                    LOG.warn("{} could not save a metadata snapshot: {}", owner, error.toString());
                }
            }));
        } catch (RuntimeException e) {
            LOG.warn("{} could not save a metadata snapshot: {}", owner, e.toString());
        }
    }

    /** How often the owner should call {@link #maybeSnapshot} for the time limit to be honoured. */
    public long snapshotCheckIntervalMs() {
        return Math.min(snapshotPolicy.maxSnapshotIntervalMs(), 60_000);
    }

    /** Closes the storage. */
    @Override
    public void close() {
        storage.close();
    }
}
