package io.kraft.server;

import static io.kraft.broker.TestWaits.freePort;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.BootstrapMetadata;
import io.kraft.metadata.controller.ClusterFeatures;
import io.kraft.raft.Voter;
import io.kraft.raft.VoterSet;
import io.kraft.raft.file.BootstrapVotersFile;
import io.kraft.storage.MetaProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.FeatureUpdate;
import org.apache.kafka.clients.admin.UpdateFeaturesOptions;
import org.apache.kafka.clients.admin.QuorumInfo;
import org.apache.kafka.clients.admin.RaftVoterEndpoint;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.DuplicateVoterException;
import org.apache.kafka.common.errors.InvalidUpdateVersionException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.errors.VoterNotFoundException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * KIP-853 through Apache Kafka's admin client: a combined node formatted standalone is the only voter; a second
 * controller formatted without a voter set follows the log as an observer until {@code Admin.addRaftVoter} adds it,
 * after which DescribeQuorum shows both voters with their directory ids; restarted on another port it updates its
 * endpoint in the set itself; {@code Admin.removeRaftVoter} removes it.
 */
class RaftVoterAdminTest {
    private static final String CLUSTER_ID = MetaProperties.randomUuid();
    private static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    private final TestFaultHandler faults = new TestFaultHandler();
    private CombinedNode first;
    private ControllerNode second;
    private Admin admin;

    @AfterEach
    void stop() {
        if (admin != null) {
            admin.close();
        }
        if (second != null) {
            second.close();
        }
        if (first != null) {
            first.close();
        }
        faults.assertNone();
    }

    @Test
    void aStaticQuorumNeitherAdvertisesNorServesVoterChanges() throws Exception {
        try (TestNode node = new TestNode(dir.resolve("static"), Map.of()).start()) {
            ExecutionException refused = assertThrows(ExecutionException.class, () -> node.admin().addRaftVoter(2,
                    Uuid.randomUuid(), Set.of(new RaftVoterEndpoint("CONTROLLER", "localhost", 9093))).all()
                    .get(30, TimeUnit.SECONDS));
            assertInstanceOf(UnsupportedVersionException.class, refused.getCause(), "not in ApiVersions");
            assertEquals(Set.of(1), node.admin().describeMetadataQuorum().quorumInfo().get(30, TimeUnit.SECONDS)
                    .voters().stream().map(QuorumInfo.ReplicaState::replicaId).collect(Collectors.toSet()));
        }
    }

    /** Formats {@code metadata} as {@code kraft-cli format} does for a dynamic quorum; returns its directory id. */
    private static UUID format(Path metadata, int nodeId, VoterSet voters) throws Exception {
        Files.createDirectories(metadata);
        MetaProperties meta = MetaProperties.forNewDirectory(CLUSTER_ID, nodeId);
        meta.write(metadata);
        VoterSet withDirectory = voters.voter(nodeId)
                .map(v -> VoterSet.of(List.of(new Voter(nodeId, meta.directoryUuid(), v.endpoint())))).orElse(voters);
        BootstrapVotersFile.write(metadata, withDirectory);
        Map<String, Integer> features = new TreeMap<>(ClusterFeatures.FORMAT_DEFAULTS);
        features.put(ClusterFeatures.KRAFT_VERSION, 1);
        BootstrapMetadata.write(metadata, ClusterFeatures.levelRecords(features));
        return meta.directoryUuid();
    }

    private static Map<String, String> quorumProperties(String voters) {
        Map<String, String> properties = new HashMap<>();
        properties.put("controller.quorum.voters", voters);
        properties.put("controller.quorum.election.timeout.ms", "500");
        properties.put("controller.quorum.fetch.timeout.ms", "1000");
        return properties;
    }

    private Set<Integer> voterIds() throws Exception {
        return admin.describeMetadataQuorum().quorumInfo().get(30, TimeUnit.SECONDS).voters().stream()
                .map(QuorumInfo.ReplicaState::replicaId).collect(Collectors.toSet());
    }

    @Test
    void aControllerIsAddedAndRemovedThroughTheAdminClient() throws Exception {
        int firstPort = freePort();
        int secondPort = freePort();
        UUID firstDirectory = format(dir.resolve("first/metadata"), 1,
                VoterSet.of(List.of(new Voter(1, Voter.UNKNOWN_DIRECTORY, "localhost:" + firstPort))));
        UUID secondDirectory = format(dir.resolve("second/metadata"), 2, VoterSet.empty());
        TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
                LogConfigs.definition().parse(Map.of(), ConfigSource.STATIC_BROKER_CONFIG)));

        Map<String, String> firstProperties = quorumProperties("1@localhost:" + firstPort);
        firstProperties.put("log.dirs", dir.resolve("first/logs").toString());
        int clientPort = freePort();
        first = CombinedNode.start(1, CLUSTER_ID, dir.resolve("first/metadata"), "PLAINTEXT://localhost:" + clientPort,
                firstProperties, topicConfigs, faults);
        first.ready().get(60, TimeUnit.SECONDS);
        second = ControllerNode.start(2, CLUSTER_ID, dir.resolve("second/metadata"),
                quorumProperties("1@localhost:" + firstPort + ",2@localhost:" + secondPort), topicConfigs, faults);
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + clientPort,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"));
        assertEquals(Set.of(1), voterIds());
        // kraft.version is finalized at 1 by format and cannot be changed.
        assertEquals(1, admin.describeFeatures().featureMetadata().get(30, TimeUnit.SECONDS).finalizedFeatures()
                .get("kraft.version").maxVersionLevel());
        ExecutionException fixed = assertThrows(ExecutionException.class, () -> admin.updateFeatures(
                Map.of("kraft.version", new FeatureUpdate((short) 0, FeatureUpdate.UpgradeType.SAFE_DOWNGRADE)),
                new UpdateFeaturesOptions()).all().get(30, TimeUnit.SECONDS));
        assertInstanceOf(InvalidUpdateVersionException.class, fixed.getCause());

        Uuid second2 = new Uuid(secondDirectory.getMostSignificantBits(), secondDirectory.getLeastSignificantBits());
        Set<RaftVoterEndpoint> endpoints = Set.of(new RaftVoterEndpoint("CONTROLLER", "localhost", secondPort));
        // The leader refuses (REQUEST_TIMED_OUT) until the observer has caught up.
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> {
            admin.addRaftVoter(2, second2, endpoints).all().get(30, TimeUnit.SECONDS);
            return true;
        });
        await().atMost(WAIT).ignoreExceptions().until(() -> voterIds().equals(Set.of(1, 2)));
        QuorumInfo quorum = admin.describeMetadataQuorum().quorumInfo().get(30, TimeUnit.SECONDS);
        Map<Integer, Uuid> directories = new TreeMap<>();
        quorum.voters().forEach(v -> directories.put(v.replicaId(), v.replicaDirectoryId()));
        assertEquals(Map.of(1, new Uuid(firstDirectory.getMostSignificantBits(),
                firstDirectory.getLeastSignificantBits()), 2, second2), directories);

        // Restarted on another CONTROLLER port, the voter has the leader record its new endpoint (UpdateRaftVoter).
        second.close();
        int movedPort = freePort();
        second = ControllerNode.start(2, CLUSTER_ID, dir.resolve("second/metadata"),
                quorumProperties("1@localhost:" + firstPort + ",2@localhost:" + movedPort), topicConfigs, faults);
        await().atMost(WAIT).until(() -> second.voters().get(10, TimeUnit.SECONDS).voter(2).orElseThrow().endpoint()
                .equals("localhost:" + movedPort));

        ExecutionException duplicate = assertThrows(ExecutionException.class,
                () -> admin.addRaftVoter(2, second2, endpoints).all().get(30, TimeUnit.SECONDS));
        assertInstanceOf(DuplicateVoterException.class, duplicate.getCause());

        admin.removeRaftVoter(2, second2).all().get(60, TimeUnit.SECONDS);
        await().atMost(WAIT).ignoreExceptions().until(() -> voterIds().equals(Set.of(1)));
        ExecutionException missing = assertThrows(ExecutionException.class,
                () -> admin.removeRaftVoter(2, second2).all().get(30, TimeUnit.SECONDS));
        assertInstanceOf(VoterNotFoundException.class, missing.getCause());
    }
}
