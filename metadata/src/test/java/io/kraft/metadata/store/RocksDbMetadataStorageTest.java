package io.kraft.metadata.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.proto.metadata.TopicRecord;
import io.kraft.raft.SnapshotId;
import io.kraft.raft.file.FileSnapshotStore;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The RocksDB storage's own thread: deltas written in order, snapshots after them, a failed write never hidden. */
class RocksDbMetadataStorageTest {
    private static final int EPOCH = 3;

    @TempDir
    Path dir;

    /** One topic record at the offset after {@code image}'s, as the delta the loader hands over. */
    private static MetadataDelta topicAfter(MetadataImage image, String name) {
        MetadataDelta delta = new MetadataDelta(image);
        delta.replayBatch(List.of(MetadataRecords.of(TopicRecord.newBuilder().setName(name)
                .setTopicId(Uuids.toProto(UUID.randomUUID())).build())), image.offset() + 1, EPOCH);
        return delta;
    }

    /** Snapshot {@code id} loaded by a fresh storage, as a restarting node does. */
    private MetadataImage loadedImage(FileSnapshotStore snapshots, SnapshotId id) {
        try (RocksDbMetadataStorage reader = new RocksDbMetadataStorage(dir.resolve("other"), snapshots)) {
            var snapshot = reader.loadSnapshotDelta(id);
            return snapshot.delta().apply(snapshot.position());
        }
    }

    @Test
    void aSnapshotSavedRightAfterApplyingHoldsEveryDeltaBeforeIt() throws Exception {
        FileSnapshotStore snapshots = FileSnapshotStore.open(dir.resolve("log"));
        MetadataImage image = MetadataImage.EMPTY;
        SnapshotId id;
        try (RocksDbMetadataStorage storage = new RocksDbMetadataStorage(dir.resolve("state"), snapshots)) {
            for (int i = 0; i < 500; i++) {
                MetadataDelta delta = topicAfter(image, "t" + i);
                image = delta.apply();
                storage.apply(delta);
            }
            // Called at once, with deltas possibly still queued: the checkpoint waits for them.
            id = new SnapshotId(image.offset() + 1, EPOCH);
            storage.saveSnapshot(id).get(1, TimeUnit.MINUTES);
        }
        MetadataImage loaded = loadedImage(snapshots, id);
        assertEquals(500, loaded.topics().size());
        assertEquals(image.offset(), loaded.offset());
    }

    @Test
    void aDeltaChangedAfterItWasHandedOverIsWrittenAsItWasThen() throws Exception {
        FileSnapshotStore snapshots = FileSnapshotStore.open(dir.resolve("log"));
        SnapshotId id;
        try (RocksDbMetadataStorage storage = new RocksDbMetadataStorage(dir.resolve("state"), snapshots)) {
            MetadataDelta first = topicAfter(MetadataImage.EMPTY, "a");
            MetadataImage image = first.apply();
            storage.apply(first);
            // What a publisher queue does with a delta it still holds: folds the next batch into it.
            MetadataDelta second = topicAfter(image, "b");
            first.replayBatch(List.of(MetadataRecords.of(TopicRecord.newBuilder().setName("b")
                    .setTopicId(Uuids.toProto(UUID.randomUUID())).build())), image.offset() + 1, EPOCH);
            image = second.apply();
            storage.apply(second);
            id = new SnapshotId(image.offset() + 1, EPOCH);
            storage.saveSnapshot(id).get(1, TimeUnit.MINUTES);
        }
        assertEquals(2, loadedImage(snapshots, id).topics().size());
    }

    @Test
    void aFailedWriteStopsTheStoreAndTheNextCallSaysSo() throws Exception {
        FileSnapshotStore snapshots = FileSnapshotStore.open(dir.resolve("log"));
        try (RocksDbMetadataStorage storage = new RocksDbMetadataStorage(dir.resolve("state"), snapshots)) {
            MetadataDelta first = topicAfter(MetadataImage.EMPTY, "a");
            MetadataImage image = first.apply();
            storage.apply(first);
            // A delta over the empty image again: not over what the store holds, so RocksDB refuses it.
            storage.apply(topicAfter(MetadataImage.EMPTY, "b"));
            MetadataDelta next = topicAfter(image, "c");
            MetadataStoreException failed = assertThrows(MetadataStoreException.class, () -> {
                storage.awaitApplied();
                storage.apply(next);
            });
            assertTrue(failed.getMessage().contains("failed earlier"), failed.getMessage());
            assertThrows(MetadataStoreException.class, () -> storage.apply(next));
            SnapshotId id = new SnapshotId(image.offset() + 1, EPOCH);
            assertThrows(MetadataStoreException.class, () -> storage.saveSnapshot(id));
            assertFalse(snapshots.contains(id), "no snapshot of a state that missed a write");
        }
    }

    @Test
    void aSnapshotQueuedBeforeTheFailureIsNotStoredEither() throws Exception {
        FileSnapshotStore snapshots = FileSnapshotStore.open(dir.resolve("log"));
        try (RocksDbMetadataStorage storage = new RocksDbMetadataStorage(dir.resolve("state"), snapshots)) {
            MetadataDelta first = topicAfter(MetadataImage.EMPTY, "a");
            MetadataImage image = first.apply();
            storage.apply(first);
            storage.apply(topicAfter(MetadataImage.EMPTY, "b"));
            SnapshotId id = new SnapshotId(image.offset() + 2, EPOCH);
            try {
                storage.saveSnapshot(id).get(1, TimeUnit.MINUTES);
                throw new AssertionError("a snapshot after a failed write was stored");
            } catch (MetadataStoreException | ExecutionException expected) {
                assertFalse(snapshots.contains(id));
            }
        }
    }
}
