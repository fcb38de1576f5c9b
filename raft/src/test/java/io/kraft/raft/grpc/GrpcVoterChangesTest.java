package io.kraft.raft.grpc;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kraft.raft.CommittedBatch;
import io.kraft.raft.LeaderAndEpoch;
import io.kraft.raft.RaftConfig;
import io.kraft.raft.RaftDriver;
import io.kraft.raft.RaftListener;
import io.kraft.raft.SnapshotId;
import io.kraft.raft.Voter;
import io.kraft.raft.VoterBootstrap;
import io.kraft.raft.VoterSet;
import io.kraft.raft.file.FileQuorumStateStore;
import io.kraft.raft.file.FileRaftLog;
import io.kraft.raft.file.FileSnapshotStore;
import io.kraft.raft.file.MetadataLogRetention;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * KIP-853 over gRPC: a standalone voter grows to three (the new controllers formatted without a set, caught up as
 * observers first, reached at the endpoints the set names), then the leader removes itself and the other two
 * elect a successor.
 */
class GrpcVoterChangesTest {
    private static final String CLUSTER_ID = "grpc-voter-changes";
    private static final long TICK_MS = 10;
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private final Map<Integer, RaftDriver> drivers = new TreeMap<>();
    private final Map<Integer, FileRaftLog> logs = new TreeMap<>();
    private final Map<Integer, Integer> ports = new TreeMap<>();

    @AfterEach
    void stopAll() {
        drivers.values().forEach(RaftDriver::close);
        logs.values().forEach(FileRaftLog::close);
    }

    private static UUID directory(int id) {
        return new UUID(853, id);
    }

    private Voter voter(int id) {
        return new Voter(id, directory(id), "localhost:" + ports.get(id));
    }

    private void start(int id, VoterSet bootstrap) {
        Path nodeDir = dir.resolve("node-" + id);
        FileSnapshotStore snapshots = FileSnapshotStore.open(nodeDir);
        FileRaftLog log = FileRaftLog.open(nodeDir, 64 * 1024);
        // Only node 1 is in everybody's static address book: the others are reached through the voter set.
        GrpcRaftTransport transport = new GrpcRaftTransport(id, CLUSTER_ID,
                Map.of(1, InetSocketAddress.createUnresolved("localhost", ports.get(1))), ports.get(id), 800);
        RaftConfig config = RaftConfig.fromMillis(id, Set.of(1), TICK_MS, 500, 1000, 300, 800, 500);
        RaftDriver driver = new RaftDriver(config, TICK_MS, log, snapshots,
                new MetadataLogRetention(log, -1, -1, System::currentTimeMillis), new FileQuorumStateStore(nodeDir),
                transport, new IgnoringListener(), id, (message, cause) -> { },
                VoterBootstrap.dynamic(bootstrap, directory(id)));
        driver.start();
        drivers.put(id, driver);
        logs.put(id, log);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private int leader() throws Exception {
        for (Map.Entry<Integer, RaftDriver> e : drivers.entrySet()) {
            var d = e.getValue().describe().get(5, TimeUnit.SECONDS);
            if (d.leaderId().isPresent() && d.leaderId().getAsInt() == e.getKey()) {
                return e.getKey();
            }
        }
        return -1;
    }

    /** Asks until the leader takes the change (the new voter must catch up first); true once it committed. */
    private boolean tryChange(java.util.function.Function<RaftDriver, java.util.concurrent.CompletableFuture<Long>> change)
            throws Exception {
        int leader = leader();
        if (leader < 0) {
            return false;
        }
        try {
            change.apply(drivers.get(leader)).get(10, TimeUnit.SECONDS);
            return true;
        } catch (java.util.concurrent.ExecutionException refusedForNow) {
            return false;
        }
    }

    private VoterSet votersOf(int id) throws Exception {
        return drivers.get(id).voters().get(5, TimeUnit.SECONDS);
    }

    @Test
    void aStandaloneVoterGrowsToThreeAndTheLeaderRemovesItself() throws Exception {
        for (int id = 1; id <= 3; id++) {
            ports.put(id, freePort());
        }
        start(1, VoterSet.of(List.of(voter(1))));
        start(2, VoterSet.empty());
        start(3, VoterSet.empty());
        await().atMost(WAIT).until(() -> leader() == 1);

        await().atMost(WAIT).until(() -> tryChange(d -> d.addVoter(voter(2))));
        await().atMost(WAIT).until(() -> tryChange(d -> d.addVoter(voter(3))));
        VoterSet three = VoterSet.of(List.of(voter(1), voter(2), voter(3)));
        for (int id = 1; id <= 3; id++) {
            int node = id;
            await().atMost(WAIT).until(() -> votersOf(node).equals(three));
        }

        // describe-quorum names each voter's directory, as DescribeQuorum v2 does.
        await().atMost(WAIT).until(() -> drivers.get(1).describe().get(5, TimeUnit.SECONDS).members().stream()
                .filter(m -> m.voter()).map(m -> m.directoryId()).toList()
                .equals(List.of(directory(1), directory(2), directory(3))));

        await().atMost(WAIT).until(() -> tryChange(d -> d.removeVoter(1, directory(1))));
        await().atMost(WAIT).until(() -> leader() == 2 || leader() == 3);
        int successor = leader();
        long offset = drivers.get(successor).append(drivers.get(successor).describe().get().epoch(),
                List.of(new byte[] {1})).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertEquals(VoterSet.of(List.of(voter(2), voter(3))), votersOf(successor));
        await().atMost(WAIT).until(() -> votersOf(1).equals(votersOf(successor)));
        assertEquals(true, offset > 0);
    }

    /** The records do not matter here, only the voter set. */
    private static final class IgnoringListener implements RaftListener {
        @Override
        public void handleCommit(CommittedBatch batch) {
        }

        @Override
        public void handleLeaderChange(LeaderAndEpoch leaderAndEpoch) {
        }

        @Override
        public void handleLoadSnapshot(SnapshotId snapshotId) {
        }
    }
}
