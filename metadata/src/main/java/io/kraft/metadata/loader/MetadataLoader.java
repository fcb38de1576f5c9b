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

    /** Records a committed batch added to the image, starting at {@code firstOffset}. */
    public record AppliedBatch(List<MetadataRecord> records, long firstOffset, MetadataDelta delta) {
    }

    private final String owner;
    private final MetadataStorage storage;
    private final SnapshotPolicy snapshotPolicy;
    private final Time time;
    private final PublisherQueue publishers;
    private volatile MetadataImage image = MetadataImage.EMPTY;
    private long recordBytesSinceSnapshot;
    private long lastSnapshotMs;
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
     * @return what was applied, or empty if a loaded snapshot already covered the whole batch
     * @throws InvalidMetadataRecordException if a committed record is not a metadata record or does not apply
     */
    public Optional<AppliedBatch> applyCommitted(CommittedBatch batch) {
        return applyCommitted(batch, MetadataChangeListener.NONE);
    }

    /**
     * Like {@link #applyCommitted(CommittedBatch)}, reporting each entity change to {@code listener} as the batch is
     * replayed (a standby controller keeps its managers' indexes in step with the log this way).
     */
    public Optional<AppliedBatch> applyCommitted(CommittedBatch batch, MetadataChangeListener listener) {
        List<byte[]> raw = batch.records();
        int skip = (int) Math.max(0, Math.min(raw.size(), image.offset() + 1 - batch.baseOffset()));
        List<MetadataRecord> records = new ArrayList<>(raw.size() - skip);
        long bytes = 0;
        for (int i = skip; i < raw.size(); i++) {
            try {
                records.add(MetadataRecord.parseFrom(raw.get(i)));
            } catch (InvalidProtocolBufferException e) {
                throw new InvalidMetadataRecordException("Committed record at offset " + (batch.baseOffset() + i)
                        + " is not a metadata record: " + e.getMessage());
            }
            bytes += raw.get(i).length;
        }
        if (records.isEmpty()) {
            return Optional.empty();
        }
        long firstOffset = batch.baseOffset() + skip;
        MetadataDelta delta = new MetadataDelta(image, listener);
        delta.replayBatch(records, firstOffset, batch.epoch());
        MetadataImage next = delta.apply();
        storage.apply(delta);
        image = next;
        recordBytesSinceSnapshot += bytes;
        publishers.publishBatch(delta, next, records, firstOffset, batch.epoch());
        return Optional.of(new AppliedBatch(records, firstOffset, delta));
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
        MetadataStorage.LoadedSnapshot loaded = storage.loadSnapshot(snapshotId);
        // One replay gives both the image and the delta the publishers get (everything in it is new to them).
        MetadataDelta delta = MetadataDelta.fromSnapshot(loaded.records(), Math.max(1, loaded.position().epoch()));
        MetadataImage next = delta.apply(loaded.position());
        image = next;
        recordBytesSinceSnapshot = 0;
        lastSnapshotMs = time.monotonicMs();
        LOG.info("{} loaded metadata snapshot {}", owner, snapshotId);
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
            LOG.info("{} saved metadata snapshot {} (captured in {} ms, stored in {} ms)", owner, id, capturedMs,
                    (System.nanoTime() - startedNanos) / 1_000_000);
            return id;
        });
        return Optional.of(saving);
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
