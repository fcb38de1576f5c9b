package io.kraft.metadata.loader;

import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataProvenance;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.raft.SnapshotId;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Where a {@link MetadataLoader} keeps the committed state besides its image, and the snapshots of it: RocksDB and
 * Raft's snapshot directories on a node, memory in a simulation. Called on the loader owner's thread only.
 */
public interface MetadataStorage extends AutoCloseable {

    /** The state a snapshot holds: the records that rebuild it and the log position it reflects. */
    record LoadedSnapshot(List<MetadataRecord> records, MetadataProvenance position) {
    }

    /** Persists what a committed batch changed; the delta is over exactly the state stored so far. */
    void apply(MetadataDelta delta);

    /** Whether snapshot {@code id} is stored already. */
    boolean containsSnapshot(SnapshotId id);

    /**
     * Stores the state after every delta applied before this call as snapshot {@code id} (which must describe exactly
     * that state's position), durably, possibly in the background so that the caller's loop does not wait for the
     * disk: the future completes once the snapshot is stored.
     */
    CompletableFuture<Void> saveSnapshot(SnapshotId id);

    /** Replaces the state with stored snapshot {@code id} and describes what it holds. */
    LoadedSnapshot loadSnapshot(SnapshotId id);

    /**
     * Replaces the state with stored snapshot {@code id} and gives the delta from the empty image to it, to apply at
     * the {@code position} it returns. Storage that can build the image in bulk overrides
     * this; the default replays {@link #loadSnapshot}'s records.
     */
    default LoadedDelta loadSnapshotDelta(SnapshotId id) {
        LoadedSnapshot loaded = loadSnapshot(id);
        return new LoadedDelta(MetadataDelta.fromSnapshot(loaded.records(), Math.max(1, loaded.position().epoch())),
                loaded.position());
    }

    /**
     * A loaded snapshot as the delta from the empty image to its state, and the log position it reflects; {@code
     * replaceNanos} of the load went to putting the snapshot's files in place of the state (0 where not measured).
     */
    record LoadedDelta(MetadataDelta delta, MetadataProvenance position, long replaceNanos) {
        public LoadedDelta(MetadataDelta delta, MetadataProvenance position) {
            this(delta, position, 0);
        }
    }

    @Override
    void close();
}
