package io.kraft.raft.bench;

import io.kraft.raft.CommittedBatch;
import io.kraft.raft.LeaderAndEpoch;
import io.kraft.raft.LogRetentionPolicy;
import io.kraft.raft.QuorumConfig;
import io.kraft.raft.RaftDriver;
import io.kraft.raft.RaftListener;
import io.kraft.raft.SnapshotId;
import io.kraft.raft.file.FileQuorumStateStore;
import io.kraft.raft.file.FileRaftLog;
import io.kraft.raft.file.FileSnapshotStore;
import io.kraft.raft.grpc.GrpcRaftTransport;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A 3-voter quorum on loopback gRPC with file-backed logs and Kafka's default timeouts: commit throughput with
 * 1 KiB records, commit latency, and failover time after a clean resignation and after a kill. Not a test; run from
 * the repository's root: {@code mvn -B -q -pl raft -am -Pquorum-bench test-compile exec:exec} (optional
 * {@code -Dbench.records=N -Dbench.batch=N}).
 */
public final class LoopbackQuorumBenchmark {
    private static final String CLUSTER_ID = "bench";
    private static final long TICK_MS = 5;
    private static final int RECORD_BYTES = 1024;

    private final Map<Integer, RaftDriver> drivers = new TreeMap<>();
    private final Map<Integer, FileRaftLog> logs = new TreeMap<>();

    public static void main(String[] args) throws Exception {
        int records = Integer.getInteger("bench.records", 200_000);
        int batchRecords = Integer.getInteger("bench.batch", 100);
        new LoopbackQuorumBenchmark().run(records, batchRecords);
        System.exit(0);
    }

    private void run(int records, int batchRecords) throws Exception {
        Path dir = Files.createTempDirectory("kraft-raft-bench");
        String voters = "1@localhost:" + freePort() + ",2@localhost:" + freePort() + ",3@localhost:" + freePort();
        QuorumConfig quorum = QuorumConfig.from(Map.of(QuorumConfig.VOTERS, voters));
        for (int id = 1; id <= 3; id++) {
            start(id, quorum, dir);
        }
        int leader = awaitLeader(0);
        int leaderEpoch = drivers.get(leader).describe().get().epoch();

        byte[] payload = new byte[RECORD_BYTES];
        Arrays.fill(payload, (byte) 'x');
        List<byte[]> batch = new ArrayList<>();
        for (int i = 0; i < batchRecords; i++) {
            batch.add(payload);
        }
        // Throughput: keep up to 64 batches in flight.
        Semaphore inFlight = new Semaphore(64);
        long start = System.nanoTime();
        List<CompletableFuture<Long>> futures = new ArrayList<>();
        for (int sent = 0; sent < records; sent += batchRecords) {
            inFlight.acquire();
            CompletableFuture<Long> f = drivers.get(leader).append(leaderEpoch, batch);
            f.whenComplete((o, e) -> inFlight.release());
            futures.add(f);
        }
        for (CompletableFuture<Long> f : futures) {
            f.get(60, TimeUnit.SECONDS);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("throughput: %d records of %d B in batches of %d: %.0f records/s, %.1f MB/s%n",
                records, RECORD_BYTES, batchRecords, records / seconds, records * (double) RECORD_BYTES / seconds / 1e6);

        // Latency: one batch of 10 records at a time.
        long[] latenciesUs = new long[1000];
        for (int i = 0; i < latenciesUs.length; i++) {
            long t = System.nanoTime();
            drivers.get(leader).append(leaderEpoch, batch.subList(0, 10)).get(10, TimeUnit.SECONDS);
            latenciesUs[i] = (System.nanoTime() - t) / 1000;
        }
        Arrays.sort(latenciesUs);
        System.out.printf("commit latency (10 x 1 KiB, one at a time): p50 %.2f ms, p99 %.2f ms%n",
                latenciesUs[latenciesUs.length / 2] / 1000.0, latenciesUs[latenciesUs.length * 99 / 100] / 1000.0);

        long resignAt = System.nanoTime();
        int resignedEpoch = drivers.get(leader).describe().get().epoch();
        drivers.get(leader).resign(resignedEpoch).get();
        int next = awaitLeader(resignedEpoch);
        commitOne(next, payload);
        System.out.printf("failover after clean resignation: %.0f ms to the first new commit%n",
                (System.nanoTime() - resignAt) / 1e6);

        long killAt = System.nanoTime();
        drivers.remove(next).close();
        logs.remove(next).close();
        int third = awaitLeader(0);
        commitOne(third, payload);
        System.out.printf("failover after killing the leader: %.0f ms to the first new commit (followers see its"
                + " connections fail; only a silent leader waits out controller.quorum.fetch.timeout.ms = %d)%n",
                (System.nanoTime() - killAt) / 1e6, quorum.fetchTimeoutMs());
        for (RaftDriver driver : drivers.values()) {
            driver.close();
        }
    }

    private void commitOne(int leader, byte[] payload) throws Exception {
        while (true) {
            try {
                drivers.get(leader).append(drivers.get(leader).describe().get().epoch(), List.of(payload)).get(10, TimeUnit.SECONDS);
                return;
            } catch (java.util.concurrent.ExecutionException e) {
                leader = awaitLeader(0);
            }
        }
    }

    /** The node leading an epoch above {@code afterEpoch}, once there is one. */
    private int awaitLeader(int afterEpoch) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            for (Map.Entry<Integer, RaftDriver> e : drivers.entrySet()) {
                var d = e.getValue().describe().get(5, TimeUnit.SECONDS);
                if (d.epoch() > afterEpoch && d.leaderId().isPresent() && d.leaderId().getAsInt() == e.getKey()) {
                    return e.getKey();
                }
            }
            Thread.sleep(1);
        }
        StringBuilder states = new StringBuilder();
        for (Map.Entry<Integer, RaftDriver> e : drivers.entrySet()) {
            states.append(' ').append(e.getKey()).append(": ").append(e.getValue().describe().get(5, TimeUnit.SECONDS));
        }
        throw new IllegalStateException("no new leader within 30 s;" + states);
    }

    private void start(int nodeId, QuorumConfig quorum, Path dir) {
        Path nodeDir = dir.resolve("node-" + nodeId);
        FileRaftLog log = FileRaftLog.open(nodeDir, 64L * 1024 * 1024);
        GrpcRaftTransport transport = new GrpcRaftTransport(nodeId, CLUSTER_ID, quorum.voters(),
                quorum.voters().get(nodeId).getPort(), quorum.requestTimeoutMs());
        RaftDriver driver = new RaftDriver(quorum.raftConfig(nodeId, TICK_MS, 2000), TICK_MS, log,
                FileSnapshotStore.open(nodeDir), LogRetentionPolicy.KEEP_LOG, new FileQuorumStateStore(nodeDir),
                transport, new RaftListener() {
                    @Override
                    public void handleCommit(CommittedBatch batch) {
                    }

                    @Override
                    public void handleLeaderChange(LeaderAndEpoch leaderAndEpoch) {
                    }

                    @Override
                    public void handleLoadSnapshot(SnapshotId snapshotId) {
                        // the benchmark keeps no state, so a snapshot has nothing to restore
                    }
                }, nodeId);
        driver.start();
        drivers.put(nodeId, driver);
        logs.put(nodeId, log);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
