package io.kraft.metadata.controller;

import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataProvenance;
import io.kraft.metadata.loader.MetadataStorage;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.raft.SnapshotId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Storage that counts the committed deltas written to it and the snapshots saved, and holds one snapshot to load. */
public final class CountingStorage implements MetadataStorage {
    private final List<MetadataRecord> snapshotRecords;
    private final MetadataProvenance snapshotPosition;
    final List<SnapshotId> saved = new ArrayList<>();
    int applies;

    public CountingStorage() {
        this(List.of(), null);
    }

    CountingStorage(List<MetadataRecord> snapshotRecords, MetadataProvenance snapshotPosition) {
        this.snapshotRecords = snapshotRecords;
        this.snapshotPosition = snapshotPosition;
    }

    @Override
    public void apply(MetadataDelta delta) {
        applies++;
    }

    @Override
    public boolean containsSnapshot(SnapshotId id) {
        return saved.contains(id);
    }

    @Override
    public CompletableFuture<Void> saveSnapshot(SnapshotId id) {
        saved.add(id);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public LoadedSnapshot loadSnapshot(SnapshotId id) {
        return new LoadedSnapshot(snapshotRecords, snapshotPosition);
    }

    @Override
    public void close() {
    }
}
