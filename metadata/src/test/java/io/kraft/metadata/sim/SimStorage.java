package io.kraft.metadata.sim;

import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.loader.MetadataStorage;
import io.kraft.raft.SnapshotId;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * A simulated node's {@link MetadataStorage} in memory: the stored state is the image the persisted deltas give (so
 * an invariant can compare it with the loader's image), and the snapshots live in a map that outlives the process,
 * like files on its disk.
 */
final class SimStorage implements MetadataStorage {
    /** A node's snapshots, kept across its crashes and restarts. */
    static final class SnapshotDisk {
        private final NavigableMap<SnapshotId, LoadedSnapshot> snapshots = new TreeMap<>();

        Optional<SnapshotId> latest() {
            return snapshots.isEmpty() ? Optional.empty() : Optional.of(snapshots.lastKey());
        }

        /** The newest snapshot ending at or after {@code endOffset} and no later than {@code maxEndOffset}. */
        Optional<Map.Entry<SnapshotId, LoadedSnapshot>> covering(long endOffset, long maxEndOffset) {
            return snapshots.descendingMap().entrySet().stream()
                    .filter(e -> e.getKey().endOffset() >= endOffset && e.getKey().endOffset() <= maxEndOffset)
                    .findFirst();
        }

        void put(SnapshotId id, LoadedSnapshot snapshot) {
            snapshots.put(id, snapshot);
        }

        LoadedSnapshot get(SnapshotId id) {
            return snapshots.get(id);
        }

        boolean contains(SnapshotId id) {
            return snapshots.containsKey(id);
        }
    }

    private final SnapshotDisk disk;
    private MetadataImage state = MetadataImage.EMPTY;

    SimStorage(SnapshotDisk disk) {
        this.disk = disk;
    }

    /** What the storage holds now. */
    MetadataImage state() {
        return state;
    }

    @Override
    public void apply(MetadataDelta delta) {
        if (delta.image().offset() != state.offset()) {
            throw new IllegalStateException("a delta over offset " + delta.image().offset()
                    + " applied to stored state at " + state.offset());
        }
        state = delta.apply();
    }

    @Override
    public boolean containsSnapshot(SnapshotId id) {
        return disk.contains(id);
    }

    @Override
    public CompletableFuture<Void> saveSnapshot(SnapshotId id) {
        if (id.endOffset() != state.offset() + 1) {
            throw new IllegalStateException("snapshot " + id + " of stored state at " + state.offset());
        }
        disk.put(id, new LoadedSnapshot(state.toRecords(), state.provenance()));
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public LoadedSnapshot loadSnapshot(SnapshotId id) {
        LoadedSnapshot snapshot = disk.get(id);
        state = MetadataDelta.imageOf(snapshot.records(), snapshot.position());
        return snapshot;
    }

    @Override
    public void close() {
    }
}
