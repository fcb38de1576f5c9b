package io.kraft.metadata.loader;

import com.google.protobuf.InvalidProtocolBufferException;
import io.kraft.metadata.InvalidMetadataRecordException;
import io.kraft.metadata.controller.SnapshotPolicy;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataProvenance;
import io.kraft.metadata.image.MetadataPublisher;
import io.kraft.metadata.store.MetadataStateStore;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.raft.CommittedBatch;
import io.kraft.raft.SnapshotId;
import io.kraft.raft.file.FileSnapshotStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's committed metadata, the part a controller and a broker's Raft observer share: applies committed
 * batches to the {@link MetadataImage} and the RocksDB {@link MetadataStateStore}, replaces both from a snapshot
 * (a RocksDB checkpoint in the Raft {@link FileSnapshotStore}), saves a checkpoint as a new snapshot when the
 * {@link SnapshotPolicy} says so, and publishes each new image with its delta.
 *
 * <p>The store only mirrors snapshot + log, which Raft replays at every start, so the state directory is wiped when
 * the loader opens. Not thread-safe: its owner's single thread calls every method except {@link #image()}.
 */
public final class MetadataLoader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MetadataLoader.class);

    /** Records a committed batch added to the image, starting at {@code firstOffset}. */
    public record AppliedBatch(List<MetadataRecord> records, long firstOffset, MetadataDelta delta) {
    }

    private final String owner;
    private final Path stateDirectory;
    private final FileSnapshotStore snapshots;
    private final SnapshotPolicy snapshotPolicy;
    private final List<MetadataPublisher> publishers = new CopyOnWriteArrayList<>();
    private MetadataStateStore stateStore;
    private volatile MetadataImage image = MetadataImage.EMPTY;
    private long recordBytesSinceSnapshot;
    private long lastSnapshotMs;

    /**
     * @param owner          names the node in log lines, e.g. "Controller 1"
     * @param stateDirectory where the RocksDB state store lives (wiped and rebuilt at every start)
     * @param snapshots      the Raft driver's snapshot store: snapshots are loaded from and saved into it
     */
    public MetadataLoader(String owner, Path stateDirectory, FileSnapshotStore snapshots, SnapshotPolicy snapshotPolicy) {
        this.owner = Objects.requireNonNull(owner, "owner");
        this.stateDirectory = Objects.requireNonNull(stateDirectory, "stateDirectory");
        this.snapshots = Objects.requireNonNull(snapshots, "snapshots");
        this.snapshotPolicy = Objects.requireNonNull(snapshotPolicy, "snapshotPolicy");
        deleteRecursively(stateDirectory);
        this.stateStore = MetadataStateStore.open(stateDirectory);
        this.lastSnapshotMs = System.currentTimeMillis();
    }

    /** The last committed image (readable from any thread). */
    public MetadataImage image() {
        return image;
    }

    /** Adds a publisher; it receives every image applied from now on, on the owner's thread. */
    public void register(MetadataPublisher publisher) {
        publishers.add(Objects.requireNonNull(publisher, "publisher"));
    }

    /**
     * Applies the part of a committed batch the image does not hold yet, then publishes the new image.
     *
     * @return what was applied, or empty if a loaded snapshot already covered the whole batch
     * @throws InvalidMetadataRecordException if a committed record is not a metadata record
     */
    public Optional<AppliedBatch> applyCommitted(CommittedBatch batch) {
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
        MetadataDelta delta = new MetadataDelta(image);
        delta.replayBatch(records, firstOffset, batch.epoch());
        MetadataImage next = delta.apply();
        stateStore.apply(delta);
        image = next;
        recordBytesSinceSnapshot += bytes;
        publish(delta, next);
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
        stateStore.close();
        deleteRecursively(stateDirectory);
        copyRecursively(snapshots.directory(snapshotId), stateDirectory);
        stateStore = MetadataStateStore.open(stateDirectory);
        // One replay gives both the image and the delta the publishers get (everything in it is new to them).
        MetadataProvenance position = stateStore.appliedPosition();
        MetadataDelta delta = MetadataDelta.fromSnapshot(stateStore.snapshotRecords(), Math.max(1, position.epoch()));
        MetadataImage loaded = delta.apply(position);
        image = loaded;
        recordBytesSinceSnapshot = 0;
        lastSnapshotMs = System.currentTimeMillis();
        LOG.info("{} loaded metadata snapshot {}", owner, snapshotId);
        publish(delta, loaded);
        return true;
    }

    /**
     * Saves a checkpoint of the state as a snapshot if the policy says one is due; report a returned snapshot to
     * Raft ({@code RaftDriver.snapshotCreated}) so it can delete the log prefix.
     *
     * @return the saved snapshot, or empty if none was due (or it already exists)
     */
    public Optional<SnapshotId> maybeSnapshot(long nowMs) {
        if (image.offset() < 0 || !snapshotPolicy.isDue(recordBytesSinceSnapshot, nowMs - lastSnapshotMs)) {
            return Optional.empty();
        }
        SnapshotId id = new SnapshotId(image.offset() + 1, image.epoch());
        if (snapshots.contains(id)) {
            return Optional.empty();
        }
        snapshots.save(id, stateStore::checkpoint);
        recordBytesSinceSnapshot = 0;
        lastSnapshotMs = nowMs;
        LOG.info("{} saved metadata snapshot {}", owner, id);
        return Optional.of(id);
    }

    /** How often the owner should call {@link #maybeSnapshot} for the time limit to be honoured. */
    public long snapshotCheckIntervalMs() {
        return Math.min(snapshotPolicy.maxSnapshotIntervalMs(), 60_000);
    }

    private void publish(MetadataDelta delta, MetadataImage next) {
        for (MetadataPublisher publisher : publishers) {
            try {
                publisher.publish(delta, next);
            } catch (RuntimeException e) {
                LOG.error("{}: metadata publisher {} failed at offset {}", owner, publisher, next.offset(), e);
            }
        }
    }

    /** Closes the state store. */
    @Override
    public void close() {
        stateStore.close();
    }

    private static void deleteRecursively(Path path) {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + path, e);
        }
    }

    private static void copyRecursively(Path source, Path target) {
        try (Stream<Path> walk = Files.walk(source)) {
            for (Path p : walk.toList()) {
                Path destination = target.resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(destination);
                } else {
                    Files.copy(p, destination);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot copy snapshot " + source + " to " + target, e);
        }
    }
}
