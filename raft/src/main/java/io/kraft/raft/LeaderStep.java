package io.kraft.raft;

import io.kraft.raft.RaftMessage.FetchRequest;
import io.kraft.raft.RaftMessage.FetchSnapshotRequest;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** The elected voter of an epoch: appends, serves fetches and snapshots, and decides the high watermark. */
final class LeaderStep extends RoleStep {
    private final LeaderState leader;

    LeaderStep(NodeParts parts, LeaderState leader) {
        super(parts);
        this.leader = leader;
    }

    @Override
    LeaderState state() {
        return leader;
    }

    @Override
    void tick() {
        parts.leading().tick(leader);
    }

    @Override
    void logFlushed() {
        parts.leading().ownLogFlushed(leader);
    }

    @Override
    boolean hasLiveLeader() {
        return true;
    }

    @Override
    CompletableFuture<Long> append(List<byte[]> records) {
        return parts.leading().append(leader, records);
    }

    @Override
    void resign() {
        parts.leading().resign(leader);
    }

    @Override
    List<ReplicaProgress> replicaProgress() {
        return leader.progress();
    }

    @Override
    public void onFetchRequest(FetchRequest message) {
        parts.leading().serveFetch(leader, message);
    }

    @Override
    public void onFetchSnapshotRequest(FetchSnapshotRequest message) {
        parts.snapshots().serveChunks(leader, message);
    }
}
