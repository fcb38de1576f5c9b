package io.kraft.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.TestWaits;
import io.kraft.raft.CommittedBatch;
import io.kraft.raft.LeaderAndEpoch;
import io.kraft.raft.QuorumConfig;
import io.kraft.raft.QuorumDescription;
import io.kraft.raft.RaftDriver;
import io.kraft.raft.RaftListener;
import io.kraft.raft.SnapshotId;
import io.kraft.raft.file.FileQuorumStateStore;
import io.kraft.raft.file.FileRaftLog;
import io.kraft.raft.file.FileSnapshotStore;
import io.kraft.raft.file.MetadataLogRetention;
import io.kraft.broker.network.TestCertificateAuthority;
import io.kraft.raft.grpc.GrpcRaftTransport;
import io.kraft.raft.grpc.TransportSecurity;
import io.kraft.server.grpc.ControlPlaneSecurity;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kraft-cli quorum describe} against a live quorum of three voters and an observer over gRPC. */
class QuorumCommandTest {
    private static final String CLUSTER_ID = "MkU3OEVBNTcwNTJENDM2Qg";
    private static final long TICK_MS = 10;
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private final Map<Integer, RaftDriver> drivers = new TreeMap<>();
    private final List<FileRaftLog> logs = new ArrayList<>();
    private Map<Integer, InetSocketAddress> voters;

    @AfterEach
    void stopAll() {
        drivers.values().forEach(RaftDriver::close);
        logs.forEach(FileRaftLog::close);
    }

    /** A raft member with a state machine that ignores what commits: describe-quorum needs nothing more. */
    private void start(int nodeId, QuorumConfig quorum) {
        start(nodeId, quorum, TransportSecurity.plaintext());
    }

    private void start(int nodeId, QuorumConfig quorum, TransportSecurity security) {
        Path nodeDir = dir.resolve("node-" + nodeId);
        FileRaftLog log = FileRaftLog.open(nodeDir, 1024 * 1024);
        logs.add(log);
        boolean voter = voters.containsKey(nodeId);
        GrpcRaftTransport transport = new GrpcRaftTransport(nodeId, CLUSTER_ID, voters,
                voter ? voters.get(nodeId).getPort() : -1, quorum.requestTimeoutMs(), List.of(), security);
        RaftDriver driver = new RaftDriver(quorum.raftConfig(nodeId, TICK_MS, 500), TICK_MS, log,
                FileSnapshotStore.open(nodeDir), new MetadataLogRetention(log, -1, -1, System::currentTimeMillis),
                new FileQuorumStateStore(nodeDir), transport, new IgnoringListener(), nodeId);
        driver.start();
        drivers.put(nodeId, driver);
    }

    private static final class IgnoringListener implements RaftListener {
        @Override
        public void handleCommit(CommittedBatch batch) {
        }

        @Override
        public void handleLoadSnapshot(SnapshotId snapshotId) {
        }

        @Override
        public void handleLeaderChange(LeaderAndEpoch leaderAndEpoch) {
        }
    }

    private Optional<Integer> leader() throws Exception {
        for (Map.Entry<Integer, RaftDriver> member : drivers.entrySet()) {
            QuorumDescription description = member.getValue().describe().get(5, TimeUnit.SECONDS);
            if (description.leaderId().isPresent() && description.leaderId().getAsInt() == member.getKey()
                    && description.members().size() == 4) {
                return Optional.of(member.getKey());
            }
        }
        return Optional.empty();
    }

    @Test
    void describesStatusAndReplicationEvenWhenAskingAFollower() throws Exception {
        String votersText = "1@localhost:" + freePort() + ",2@localhost:" + freePort() + ",3@localhost:" + freePort();
        QuorumConfig quorum = QuorumConfig.from(Map.of(QuorumConfig.VOTERS, votersText,
                QuorumConfig.ELECTION_TIMEOUT_MS, "500", QuorumConfig.FETCH_TIMEOUT_MS, "1000",
                QuorumConfig.ELECTION_BACKOFF_MAX_MS, "300", QuorumConfig.REQUEST_TIMEOUT_MS, "800"));
        voters = quorum.voters();
        for (int nodeId = 1; nodeId <= 4; nodeId++) {
            start(nodeId, quorum); // 4 is an observer
        }
        await().atMost(WAIT).until(() -> leader().isPresent());
        int leaderId = leader().orElseThrow();
        int leaderEpoch = drivers.get(leaderId).describe().get(10, TimeUnit.SECONDS).epoch();
        long committed = drivers.get(leaderId).append(leaderEpoch, List.of("a".getBytes(StandardCharsets.UTF_8)))
                .get(10, TimeUnit.SECONDS);
        int followerId = leaderId == 1 ? 2 : 1;
        String follower = "localhost:" + voters.get(followerId).getPort();

        CliRun status = CliRun.of("quorum", "--bootstrap-controller", follower, "describe", "--status");
        assertEquals(0, status.exitCode(), status.err());
        List<String> lines = status.out().lines().toList();
        assertEquals(8, lines.size(), status.out());
        assertEquals("ClusterId:              " + CLUSTER_ID, lines.get(0));
        assertEquals("LeaderId:               " + leaderId, lines.get(1));
        assertTrue(lines.get(2).matches("LeaderEpoch: +\\d+"), lines.get(2));
        long highWatermark = Long.parseLong(lines.get(3).substring(lines.get(3).lastIndexOf(' ') + 1));
        assertTrue(highWatermark > committed, lines.get(3));
        assertTrue(lines.get(4).matches("MaxFollowerLag: +\\d+"), lines.get(4));
        assertTrue(lines.get(5).matches("MaxFollowerLagTimeMs: +-?\\d+"), lines.get(5));
        assertEquals("CurrentVoters:          [1,2,3]", lines.get(6));
        assertEquals("CurrentObservers:       [4]", lines.get(7));

        // Every member fetches and catches up within a few fetches: the table then shows it.
        await().atMost(WAIT).untilAsserted(() -> {
            CliRun replication = CliRun.of("quorum", "--bootstrap-controller", "localhost:1," + follower,
                    "describe", "--replication");
            assertEquals(0, replication.exitCode(), replication.err());
            List<String> rows = replication.out().lines().toList();
            assertEquals(5, rows.size(), replication.out());
            assertTrue(rows.get(0).matches("NodeId +DirectoryId +LogEndOffset +Lag +LastFetchTimestamp"
                    + " +LastCaughtUpTimestamp +Status"), rows.get(0));
            // Static voters: the directory ids are Kafka's zero uuid.
            assertTrue(rows.get(1).matches(leaderId + " +A{22} +\\d+ +0 +\\d{13} +\\d{13} +Leader"), rows.get(1));
            for (int row = 2; row <= 3; row++) {
                assertTrue(rows.get(row).matches("\\d +A{22} +\\d+ +\\d+ +\\d{13} +\\d{13} +Follower"), rows.get(row));
            }
            assertTrue(rows.get(4).matches("4 +A{22} +\\d+ +\\d+ +\\d{13} +\\d{13} +Observer"), rows.get(4));
        });
    }

    @Test
    void describesAnSslQuorumWithASuperUsersCertificateOnly() throws Exception {
        TestCertificateAuthority authority = TestCertificateAuthority.create(dir.resolve("ca"), "CN=test-ca");
        Path trustStore = authority.trustStore();
        int port = freePort();
        Map<String, String> props = authority.controlPlaneProperties(authority.issue("CN=kraft-node-1"));
        props.put(QuorumConfig.VOTERS, "1@localhost:" + port);
        props.put("super.users", "User:CN=ops");
        QuorumConfig quorum = QuorumConfig.from(props);
        voters = quorum.voters();
        start(1, quorum, ControlPlaneSecurity.from(props));
        await().atMost(WAIT).until(() -> drivers.get(1).describe().get(5, TimeUnit.SECONDS).leaderId().isPresent());

        Path admin = clientConfig("admin.properties", authority.issue("CN=ops"), trustStore);
        CliRun status = CliRun.of("quorum", "--bootstrap-controller", "localhost:" + port, "--command-config",
                admin.toString(), "describe", "--status");
        assertEquals(0, status.exitCode(), status.err());
        assertTrue(status.out().contains("LeaderId:               1"), status.out());

        // Without a certificate the handshake fails; with one that is no super user's the call is refused.
        CliRun plaintext = CliRun.of("quorum", "--bootstrap-controller", "localhost:" + port, "describe", "--status");
        assertEquals(KraftCli.EXIT_FAILURE, plaintext.exitCode());
        Path stranger = clientConfig("stranger.properties", authority.issue("CN=stranger"), trustStore);
        CliRun refused = CliRun.of("quorum", "--bootstrap-controller", "localhost:" + port, "--command-config",
                stranger.toString(), "describe", "--status");
        assertEquals(KraftCli.EXIT_FAILURE, refused.exitCode());
        assertTrue(refused.err().contains("PERMISSION_DENIED"), refused.err());
        Path noKey = clientConfig("nokey.properties", null, trustStore);
        CliRun misconfigured = CliRun.of("quorum", "--bootstrap-controller", "localhost:" + port, "--command-config",
                noKey.toString(), "describe", "--status");
        assertEquals(KraftCli.EXIT_FAILURE, misconfigured.exitCode());
        assertEquals(1, misconfigured.err().lines().count(), misconfigured.err());
        assertTrue(misconfigured.err().contains("ssl.keystore.location"), misconfigured.err());
    }

    private Path clientConfig(String name, Path keyStore, Path trustStore) throws IOException {
        StringBuilder text = new StringBuilder("security.protocol=SSL\nssl.truststore.type=PKCS12\n")
                .append("ssl.truststore.location=").append(trustStore).append("\nssl.truststore.password=")
                .append(TestCertificateAuthority.PASSWORD).append("\n");
        if (keyStore != null) {
            text.append("ssl.keystore.type=PKCS12\nssl.keystore.location=").append(keyStore)
                    .append("\nssl.keystore.password=").append(TestCertificateAuthority.PASSWORD).append("\n");
        }
        return java.nio.file.Files.writeString(dir.resolve(name), text);
    }

    @Test
    void anUnreachableControllerIsOneErrorLine() throws IOException {
        int port = freePort();
        CliRun run = CliRun.of("quorum", "--bootstrap-controller", "127.0.0.1:" + port, "describe", "--status");
        assertEquals(KraftCli.EXIT_FAILURE, run.exitCode());
        assertEquals("", run.out());
        assertEquals(1, run.err().lines().count(), run.err());
        assertTrue(run.err().startsWith("Error: cannot reach controller at 127.0.0.1:" + port + " (UNAVAILABLE: "),
                run.err());
        assertTrue(run.err().strip().endsWith("Connection refused)"), "says what went wrong: " + run.err());
    }

    @Test
    void badUsageIsAUsageError() {
        CliRun neither = CliRun.of("quorum", "--bootstrap-controller", "localhost:9093", "describe");
        assertEquals(KraftCli.EXIT_USAGE, neither.exitCode());
        assertTrue(neither.err().contains("--status") && neither.err().contains("--replication"), neither.err());
        CliRun both = CliRun.of("quorum", "--bootstrap-controller", "localhost:9093", "describe", "--status",
                "--replication");
        assertEquals(KraftCli.EXIT_USAGE, both.exitCode());
        CliRun badAddress = CliRun.of("quorum", "--bootstrap-controller", "nohost", "describe", "--status");
        assertEquals(KraftCli.EXIT_USAGE, badAddress.exitCode());
        assertTrue(badAddress.err().startsWith("Invalid --bootstrap-controller: 'nohost' is not of the form HOST:PORT"),
                badAddress.err());
        CliRun noController = CliRun.of("quorum", "describe", "--status");
        assertEquals(KraftCli.EXIT_USAGE, noController.exitCode());
        assertTrue(noController.err().contains("--bootstrap-controller"), noController.err());
    }

    /** A port no other part of this test JVM was given, below the kernel's ephemeral range. */
    private static int freePort() throws IOException {
        return TestWaits.freePort();
    }
}
