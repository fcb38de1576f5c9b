package io.kraft.metadata.controller;

import com.google.protobuf.InvalidProtocolBufferException;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.raft.QuorumDescription;
import io.kraft.raft.RaftClient;
import io.kraft.raft.SnapshotId;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A Raft client for a controller under test that never completes an append: it records the records appended and the
 * snapshots it is told of.
 */
final class SnapshotRecordingRaft implements RaftClient {
    final List<SnapshotId> reported = new CopyOnWriteArrayList<>();
    /** Every record appended, in order (the appends never complete). */
    final List<MetadataRecord> appended = new CopyOnWriteArrayList<>();

    @Override
    public int nodeId() {
        return 1;
    }

    @Override
    public CompletableFuture<Long> append(int epoch, List<byte[]> records) {
        for (byte[] record : records) {
            try {
                appended.add(MetadataRecord.parseFrom(record));
            } catch (InvalidProtocolBufferException e) {
                throw new IllegalArgumentException("the controller appended a record that does not parse", e);
            }
        }
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
