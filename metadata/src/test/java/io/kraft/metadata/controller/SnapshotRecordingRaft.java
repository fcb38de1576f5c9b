package io.kraft.metadata.controller;

import io.kraft.raft.QuorumDescription;
import io.kraft.raft.RaftClient;
import io.kraft.raft.SnapshotId;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/** A Raft client for a controller under test that never appends: it only records the snapshots it is told of. */
final class SnapshotRecordingRaft implements RaftClient {
    final List<SnapshotId> reported = new CopyOnWriteArrayList<>();

    @Override
    public int nodeId() {
        return 1;
    }

    @Override
    public CompletableFuture<Long> append(int epoch, List<byte[]> records) {
        return new CompletableFuture<>();
    }

    @Override
    public CompletableFuture<Void> resign(int epoch) {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<Void> snapshotCreated(SnapshotId id) {
        reported.add(id);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<QuorumDescription> describe() {
        return new CompletableFuture<>();
    }
}
