package io.kraft.metadata.loader;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.controller.CountingStorage;
import io.kraft.metadata.controller.SnapshotPolicy;
import io.kraft.metadata.fault.RecordingFaultHandler;
import io.kraft.metadata.loop.SingleThreadEventLoop;
import io.kraft.metadata.loop.Time;
import io.kraft.proto.metadata.FeatureLevelRecord;
import io.kraft.raft.CommittedBatch;
import io.kraft.raft.QuorumDescription;
import io.kraft.raft.RaftClient;
import io.kraft.raft.SnapshotId;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A broker's follower reports itself caught up only once Raft has fetched everything its leader said is committed,
 * not at the first moment its loop runs dry between two fetches.
 */
class MetadataFollowerCatchUpTest {

    @Test
    void isNotCaughtUpWhileTheLeaderReportedCommitsNotFetchedYet() {
        RecordingFaultHandler faults = new RecordingFaultHandler();
        BehindLeader raft = new BehindLeader();
        MetadataFollower follower = new MetadataFollower(7, new CountingStorage(), SnapshotPolicy.from(java.util.Map.of()),
                Time.SYSTEM, new SingleThreadEventLoop("follower-test", faults),
                new SingleThreadEventLoop("follower-test-publisher", faults), faults);
        try {
            follower.start(raft);
            raft.handedOverAll = false;
            follower.handleCommit(batch(0, 1));
            await().atMost(Duration.ofSeconds(10)).until(() -> follower.image().offset() == 0);
            assertEquals(-1, follower.catchUp().caughtUpOffset(), "the leader reported more committed records");

            raft.handedOverAll = true;
            follower.handleCommit(batch(1, 2));
            await().atMost(Duration.ofSeconds(10)).until(() -> follower.catchUp().caughtUpOffset() == 1);
        } finally {
            follower.close();
        }
    }

    private static CommittedBatch batch(long offset, int level) {
        return new CommittedBatch(offset, 1, List.of(MetadataRecords.of(FeatureLevelRecord.newBuilder()
                .setName("metadata.version").setLevel(level).build()).toByteArray()));
    }

    /** A Raft client whose node has or has not fetched up to its leader's high watermark. */
    private static final class BehindLeader implements RaftClient {
        volatile boolean handedOverAll = true;

        @Override
        public int nodeId() {
            return 7;
        }

        @Override
        public CompletableFuture<Long> append(int epoch, List<byte[]> records) {
            return CompletableFuture.failedFuture(new UnsupportedOperationException("an observer does not append"));
        }

        @Override
        public CompletableFuture<Void> resign(int epoch) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<Void> snapshotCreated(SnapshotId id) {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<QuorumDescription> describe() {
            return new CompletableFuture<>();
        }

        @Override
        public boolean handedOverAllCommitted() {
            return handedOverAll;
        }
    }
}
