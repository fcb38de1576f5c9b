package io.kraft.raft.grpc;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.kraft.proto.raft.DescribeQuorumRequest;
import io.kraft.proto.raft.DescribeQuorumResponse;
import io.kraft.proto.raft.FetchRequest;
import io.kraft.proto.raft.FetchResponse;
import io.kraft.proto.raft.FetchSnapshotRequest;
import io.kraft.proto.raft.FetchSnapshotResponse;
import io.kraft.proto.raft.RaftServiceGrpc;
import io.kraft.proto.raft.VoteRequest;
import io.kraft.proto.raft.VoteResponse;
import io.kraft.raft.CommittedBatch;
import io.kraft.raft.LeaderAndEpoch;
import io.kraft.raft.NotLeaderException;
import io.kraft.raft.QuorumConfig;
import io.kraft.raft.QuorumDescription;
import io.kraft.raft.RaftConfig;
import io.kraft.raft.RaftDriver;
import io.kraft.raft.RaftListener;
import io.kraft.raft.SnapshotId;
import io.kraft.raft.file.FileQuorumStateStore;
import io.kraft.raft.file.FileRaftLog;
import io.kraft.raft.file.FileSnapshotStore;
import io.kraft.raft.file.MetadataLogRetention;
import io.kraft.storage.errors.Errors;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Three voters and an observer in one JVM over gRPC on loopback, with file-backed logs and quorum state. */
class GrpcQuorumTest {
    private static final String CLUSTER_ID = "grpc-quorum-test";
    private static final long TICK_MS = 10;
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private final Map<Integer, Member> members = new TreeMap<>();
    private Map<Integer, InetSocketAddress> voters;
    private QuorumConfig quorum;

    /**
     * A state machine that remembers every committed record in order; its snapshot is a file of those records
     * (one per line) plus the offset after the last one.
     */
    static final class RecordingListener implements RaftListener {
        private final FileSnapshotStore snapshots;
        final List<String> records = new CopyOnWriteArrayList<>();
        volatile int lastEpoch;
        final List<Long> offsets = new CopyOnWriteArrayList<>();
        final List<SnapshotId> loadedSnapshots = new CopyOnWriteArrayList<>();
        volatile LeaderAndEpoch leader = new LeaderAndEpoch(java.util.OptionalInt.empty(), 0);

        RecordingListener(FileSnapshotStore snapshots) {
            this.snapshots = snapshots;
        }

        /** Snapshots what was applied so far; call only while no commits arrive. */
        SnapshotId snapshot() {
            SnapshotId id = new SnapshotId(offsets.get(offsets.size() - 1) + 1, lastEpoch);
            List<String> state = List.copyOf(records);
            snapshots.save(id, directory -> {
                Files.createDirectories(directory);
                Files.write(directory.resolve("records"), state);
            });
            return id;
        }

        @Override
        public void handleCommit(CommittedBatch batch) {
            lastEpoch = batch.epoch();
            for (int i = 0; i < batch.records().size(); i++) {
                records.add(new String(batch.records().get(i), StandardCharsets.UTF_8));
                offsets.add(batch.baseOffset() + i);
            }
        }

        @Override
        public void handleLeaderChange(LeaderAndEpoch leaderAndEpoch) {
            leader = leaderAndEpoch;
        }

        @Override
        public void handleLoadSnapshot(SnapshotId snapshotId) {
            try {
                List<String> state = Files.readAllLines(snapshots.directory(snapshotId).resolve("records"));
                records.clear();
                records.addAll(state);
                offsets.clear();
                offsets.add(snapshotId.endOffset() - 1);
                loadedSnapshots.add(snapshotId);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    record Member(RaftDriver driver, RecordingListener listener, FileRaftLog log) {
    }

    @AfterEach
    void stopAll() {
        for (Member member : members.values()) {
            member.driver().close();
            member.log().close();
        }
    }

    private Member start(int nodeId) {
        Path nodeDir = dir.resolve("node-" + nodeId);
        FileSnapshotStore snapshots = FileSnapshotStore.open(nodeDir);
        RecordingListener listener = new RecordingListener(snapshots);
        FileRaftLog log = FileRaftLog.open(nodeDir, 64 * 1024);
        boolean voter = voters.containsKey(nodeId);
        GrpcRaftTransport transport = new GrpcRaftTransport(nodeId, CLUSTER_ID, voters,
                voter ? voters.get(nodeId).getPort() : -1, quorum.requestTimeoutMs());
        // Retention of 100 KiB: a snapshot of a longer log deletes the prefix it covers.
        RaftConfig base = quorum.raftConfig(nodeId, TICK_MS, 500);
        // 4 KiB snapshot chunks, so a snapshot crosses the wire in many checksummed pieces.
        RaftConfig config = new RaftConfig(base.nodeId(), base.voterIds(), base.electionTimeoutTicks(),
                base.fetchTimeoutTicks(), base.electionBackoffMaxTicks(), base.requestTimeoutTicks(),
                base.fetchMaxWaitTicks(), base.fetchMaxEntries(), 4096);
        RaftDriver driver = new RaftDriver(config, TICK_MS, log, snapshots,
                new MetadataLogRetention(log, 100 * 1024, -1, System::currentTimeMillis),
                new FileQuorumStateStore(nodeDir), transport, listener, nodeId);
        transport.serveDescribeQuorum(driver::describe);
        driver.start();
        Member member = new Member(driver, listener, log);
        members.put(nodeId, member);
        return member;
    }

    private void stop(int nodeId) {
        Member member = members.remove(nodeId);
        member.driver().close();
        member.log().close();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private void startQuorum() throws IOException {
        String votersText = "1@localhost:" + freePort() + ",2@localhost:" + freePort() + ",3@localhost:" + freePort();
        quorum = QuorumConfig.from(Map.of(QuorumConfig.VOTERS, votersText,
                QuorumConfig.ELECTION_TIMEOUT_MS, "500", QuorumConfig.FETCH_TIMEOUT_MS, "1000",
                QuorumConfig.ELECTION_BACKOFF_MAX_MS, "300", QuorumConfig.REQUEST_TIMEOUT_MS, "800"));
        voters = quorum.voters();
        for (int id = 1; id <= 4; id++) {
            start(id);
        }
    }

    private int awaitLeader() throws Exception {
        await().atMost(WAIT).until(() -> currentLeader().isPresent());
        return currentLeader().orElseThrow();
    }

    private Optional<Integer> currentLeader() throws Exception {
        for (Map.Entry<Integer, Member> e : members.entrySet()) {
            QuorumDescription d = e.getValue().driver().describe().get(5, TimeUnit.SECONDS);
            if (d.leaderId().isPresent() && d.leaderId().getAsInt() == e.getKey()) {
                return Optional.of(e.getKey());
            }
        }
        return Optional.empty();
    }

    /** Appends {@code batches} batches of {@code perBatch} records on the leader and waits for all to commit. */
    private long commit(int leaderId, String prefix, int batches, int perBatch) throws Exception {
        List<CompletableFuture<Long>> futures = new ArrayList<>();
        for (int b = 0; b < batches; b++) {
            List<byte[]> records = new ArrayList<>();
            for (int r = 0; r < perBatch; r++) {
                records.add((prefix + "-" + (b * perBatch + r)).getBytes(StandardCharsets.UTF_8));
            }
            RaftDriver leader = members.get(leaderId).driver();
            futures.add(leader.append(leader.describe().get().epoch(), records));
        }
        long last = -1;
        for (CompletableFuture<Long> future : futures) {
            last = Math.max(last, future.get(WAIT.toSeconds(), TimeUnit.SECONDS));
        }
        return last;
    }

    @Test
    void hostileRequestsAreRefusedOrIgnoredAndABatchOverGrpcsDefaultLimitStillTravels() throws Exception {
        startQuorum();
        int leader = awaitLeader();
        int epoch = members.get(leader).driver().describe().get(5, TimeUnit.SECONDS).epoch();
        int other = leader == 1 ? 2 : 1;
        ManagedChannel channel = Grpc.newChannelBuilderForAddress("localhost", voters.get(other).getPort(),
                InsecureChannelCredentials.create()).build();
        try {
            RaftServiceGrpc.RaftServiceBlockingStub stub = RaftServiceGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(2, TimeUnit.SECONDS);
            VoteResponse fromNonVoter = stub.vote(VoteRequest.newBuilder().setClusterId(CLUSTER_ID).setCandidateId(99)
                    .setVoterId(other).setCandidateEpoch(epoch + 1).setLastOffset(1_000_000).build());
            assertEquals(Errors.INVALID_REQUEST.code(), fromNonVoter.getErrorCode());
            FetchResponse negative = RaftServiceGrpc.newBlockingStub(channel).withDeadlineAfter(2, TimeUnit.SECONDS)
                    .fetch(FetchRequest.newBuilder().setClusterId(CLUSTER_ID).setReplicaId(7).setLeaderId(other)
                            .setEpoch(epoch).setFetchOffset(-5).build());
            assertEquals(Errors.INVALID_REQUEST.code(), negative.getErrorCode());
            // From a voter's id, in bounds for the transport: the core does not believe the epoch and never answers.
            try {
                RaftServiceGrpc.newBlockingStub(channel).withDeadlineAfter(500, TimeUnit.MILLISECONDS)
                        .vote(VoteRequest.newBuilder().setClusterId(CLUSTER_ID).setCandidateId(3).setVoterId(other)
                                .setCandidateEpoch(Integer.MAX_VALUE).setLastOffset(Long.MAX_VALUE)
                                .setLastOffsetEpoch(Integer.MAX_VALUE).build());
            } catch (io.grpc.StatusRuntimeException e) {
                assertEquals(io.grpc.Status.Code.DEADLINE_EXCEEDED, e.getStatus().getCode());
            }
        } finally {
            channel.shutdownNow();
        }
        // A batch of 6 MiB: over gRPC's default 4 MiB inbound limit, within one Raft batch; every member gets it.
        List<byte[]> big = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            byte[] record = new byte[1 << 20];
            record[0] = (byte) i;
            big.add(record);
        }
        long offset = appendToTheLeader(big);
        await().atMost(WAIT).until(() -> members.values().stream()
                .allMatch(m -> m.listener().offsets.contains(offset)));
        // An election of its own may follow on a loaded machine (timeouts of half a second), but the hostile vote's
        // epoch was never adopted: that would have moved every member to Integer.MAX_VALUE.
        int epochAfter = members.get(awaitLeader()).driver().describe().get(5, TimeUnit.SECONDS).epoch();
        assertTrue(epochAfter >= epoch && epochAfter < epoch + 100, "epoch " + epoch + " became " + epochAfter);
    }

    /** Appends to whoever leads now, again if leadership moves meanwhile (a loaded machine can miss a heartbeat). */
    private long appendToTheLeader(List<byte[]> records) throws Exception {
        for (int attempt = 1; ; attempt++) {
            RaftDriver leader = members.get(awaitLeader()).driver();
            try {
                return leader.append(leader.describe().get(5, TimeUnit.SECONDS).epoch(), records)
                        .get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof NotLeaderException) || attempt == 5) {
                    throw e;
                }
            }
        }
    }

    @Test
    void electsCommitsFailsOverAndObserverFollows() throws Exception {
        startQuorum();
        int firstLeader = awaitLeader();
        commit(firstLeader, "first", 100, 100); // the scale: 10,000 records

        stop(firstLeader);
        int secondLeader = awaitLeader();
        assertNotEquals(firstLeader, secondLeader);
        commit(secondLeader, "second", 10, 100);

        await().atMost(WAIT).until(() -> members.values().stream().allMatch(m -> m.listener().records.size() == 11_000));
        List<String> expected = members.get(secondLeader).listener().records;
        for (Map.Entry<Integer, Member> e : members.entrySet()) {
            assertEquals(expected, e.getValue().listener().records, "node " + e.getKey() + " applied the same log");
        }
        assertEquals("first-0", expected.get(0));
        assertEquals("second-999", expected.get(expected.size() - 1));
        assertEquals(secondLeader, members.get(4).listener().leader.leaderId().getAsInt(),
                "the observer follows the new leader");

        start(firstLeader);
        await().atMost(WAIT).until(() -> members.get(firstLeader).listener().records.size() == 11_000);
        assertEquals(expected, members.get(firstLeader).listener().records,
                "the restarted voter recovers its durable log and catches up");
    }

    @Test
    void memberDownWhileLeaderSnapshotsCatchesUpThroughTheSnapshot() throws Exception {
        startQuorum();
        int leaderId = awaitLeader();
        commit(leaderId, "before", 10, 100);
        int lagging = leaderId == 1 ? 2 : 1;
        stop(lagging);
        long last = commit(leaderId, "while-down", 40, 100);
        Member leader = members.get(leaderId);
        await().atMost(WAIT).until(() -> leader.listener().offsets.get(leader.listener().offsets.size() - 1) == last);
        SnapshotId snapshot = leader.listener().snapshot();
        leader.driver().snapshotCreated(snapshot).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertEquals(snapshot.endOffset(), leader.log().startOffset(), "the leader deleted the prefix it covers");
        commit(leaderId, "after", 5, 100);

        Member returning = start(lagging);
        await().atMost(WAIT).until(() -> returning.listener().records.size() == 5_500);
        assertEquals(List.of(snapshot), returning.listener().loadedSnapshots, "it caught up through the snapshot");
        assertEquals(snapshot.endOffset(), returning.log().startOffset());
        assertEquals(leader.listener().records, returning.listener().records);
        assertEquals("after-499", returning.listener().records.get(5_499));
    }

    @Test
    void describeQuorumAndBadRequestsOverTheWire() throws Exception {
        startQuorum();
        int leaderId = awaitLeader();
        long last = commit(leaderId, "x", 1, 10);
        InetSocketAddress address = voters.get(leaderId);
        ManagedChannel channel = Grpc.newChannelBuilderForAddress(address.getHostString(), address.getPort(),
                InsecureChannelCredentials.create()).build();
        try {
            RaftServiceGrpc.RaftServiceBlockingStub stub = RaftServiceGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(5, TimeUnit.SECONDS);
            await().atMost(WAIT).until(() -> describe(stub).getVotersCount() == 3
                    && describe(stub).getObserversCount() == 1);
            DescribeQuorumResponse description = describe(stub);
            assertEquals(0, description.getErrorCode());
            assertEquals(leaderId, description.getLeaderId());
            assertTrue(description.getHighWatermark() > last);

            VoteResponse wrongCluster = RaftServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
                    .vote(VoteRequest.newBuilder().setClusterId("other").setCandidateId(2).setVoterId(leaderId)
                            .setCandidateEpoch(99).build());
            assertEquals(Errors.INCONSISTENT_CLUSTER_ID.code(), wrongCluster.getErrorCode());

            VoteResponse unknownVoter = RaftServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
                    .vote(VoteRequest.newBuilder().setClusterId(CLUSTER_ID).setCandidateId(42).setVoterId(leaderId)
                            .setCandidateEpoch(99).setLastOffset(1_000_000).setLastOffsetEpoch(98).build());
            assertEquals(Errors.INVALID_REQUEST.code(), unknownVoter.getErrorCode(),
                    "a vote from outside the voter set is refused by the transport");
            assertTrue(!unknownVoter.getVoteGranted());

            int epoch = description.getLeaderEpoch();
            FetchResponse stale = RaftServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
                    .fetch(FetchRequest.newBuilder().setClusterId(CLUSTER_ID).setReplicaId(77).setLeaderId(leaderId)
                            .setEpoch(epoch - 1).build());
            assertEquals(Errors.FENCED_LEADER_EPOCH.code(), stale.getErrorCode());

            FetchResponse beyondEnd = RaftServiceGrpc.newBlockingStub(channel).withDeadlineAfter(5, TimeUnit.SECONDS)
                    .fetch(FetchRequest.newBuilder().setClusterId(CLUSTER_ID).setReplicaId(77).setLeaderId(leaderId)
                            .setEpoch(epoch).setFetchOffset(1_000_000).setLastFetchedEpoch(epoch).build());
            assertTrue(beyondEnd.hasDivergingEpoch(), "an offset beyond the log end is told where the log ends");
            assertTrue(beyondEnd.getDivergingEpoch().getEndOffset() < 1_000_000);

            FetchSnapshotResponse unknownSnapshot = RaftServiceGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(5, TimeUnit.SECONDS).fetchSnapshot(FetchSnapshotRequest.newBuilder()
                            .setClusterId(CLUSTER_ID).setReplicaId(77).setLeaderId(leaderId).setEpoch(epoch)
                            .setSnapshotId(io.kraft.proto.raft.SnapshotId.newBuilder().setEndOffset(3).setEpoch(1))
                            .setMaxBytes(1024).build()).next();
            assertEquals(Errors.SNAPSHOT_NOT_FOUND.code(), unknownSnapshot.getErrorCode());
            FetchSnapshotResponse malformed = RaftServiceGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(5, TimeUnit.SECONDS).fetchSnapshot(FetchSnapshotRequest.newBuilder()
                            .setClusterId(CLUSTER_ID).setReplicaId(77).setLeaderId(leaderId).setEpoch(epoch).build())
                    .next();
            assertEquals(Errors.SNAPSHOT_NOT_FOUND.code(), malformed.getErrorCode());

            DescribeQuorumResponse after = describe(stub);
            assertEquals(epoch, after.getLeaderEpoch(), "bad requests leave the quorum untouched");
            assertEquals(leaderId, after.getLeaderId());
        } finally {
            channel.shutdownNow();
        }
    }

    private static DescribeQuorumResponse describe(RaftServiceGrpc.RaftServiceBlockingStub stub) {
        return stub.describeQuorum(DescribeQuorumRequest.newBuilder().setClusterId(CLUSTER_ID).build());
    }
}
