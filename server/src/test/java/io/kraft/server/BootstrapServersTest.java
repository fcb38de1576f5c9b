package io.kraft.server;

import static io.kraft.broker.TestWaits.awaitTrue;
import static io.kraft.broker.TestWaits.freePort;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.QuorumInfo;
import org.apache.kafka.clients.admin.RaftVoterEndpoint;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code controller.quorum.bootstrap.servers} instead of {@code controller.quorum.voters} (KIP-853): a standalone
 * controller, a broker and a second controller name only the first controller's address; the broker and the new
 * controller learn the voters from it, the broker registers, and the new controller is added through the broker;
 * once the first controller is removed, the broker follows the voter set to the second.
 */
class BootstrapServersTest {
    private static final String CLUSTER_ID = MetaProperties.randomUuid();
    private static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    private final TestFaultHandler faults = new TestFaultHandler();
    private final TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
            LogConfigs.definition().parse(Map.of(), ConfigSource.STATIC_BROKER_CONFIG)));
    private ControllerNode first;
    private ControllerNode second;
    private BrokerNode broker;
    private Admin admin;

    @AfterEach
    void stop() {
        if (admin != null) {
            admin.close();
        }
        if (broker != null) {
            broker.close();
        }
        if (second != null) {
            second.close();
        }
        if (first != null) {
            first.close();
        }
        faults.assertNone();
    }

    private UUID format(Path metadata, int nodeId, VoterSet voters) throws Exception {
        Files.createDirectories(metadata);
        MetaProperties meta = MetaProperties.forNewDirectory(CLUSTER_ID, nodeId);
        meta.write(metadata);
        BootstrapVotersFile.write(metadata, voters.voter(nodeId)
                .map(v -> VoterSet.of(List.of(new Voter(nodeId, meta.directoryUuid(), v.endpoint())))).orElse(voters));
        Map<String, Integer> features = new TreeMap<>(ClusterFeatures.FORMAT_DEFAULTS);
        features.put(ClusterFeatures.KRAFT_VERSION, 1);
        BootstrapMetadata.write(metadata, ClusterFeatures.levelRecords(features));
        return meta.directoryUuid();
    }

    private static Map<String, String> properties(String bootstrapServers, Integer controllerPort) {
        Map<String, String> properties = new HashMap<>();
        properties.put("controller.quorum.bootstrap.servers", bootstrapServers);
        properties.put("controller.quorum.election.timeout.ms", "500");
        properties.put("controller.quorum.fetch.timeout.ms", "1000");
        if (controllerPort != null) {
            properties.put("listeners", "CONTROLLER://localhost:" + controllerPort);
            properties.put("controller.listener.names", "CONTROLLER");
        }
        return properties;
    }

    @Test
    void brokersAndNewControllersLearnTheQuorumFromABootstrapServer() throws Exception {
        int firstPort = freePort();
        int secondPort = freePort();
        String bootstrap = "localhost:" + firstPort;
        format(dir.resolve("first"), 1, VoterSet.of(List.of(new Voter(1, Voter.UNKNOWN_DIRECTORY, bootstrap))));
        UUID secondDirectory = format(dir.resolve("second"), 2, VoterSet.empty());
        first = ControllerNode.start(1, CLUSTER_ID, dir.resolve("first"), properties(bootstrap, firstPort),
                topicConfigs, faults);
        awaitTrue(first::isQuorumLeader, "the standalone controller to lead");

        int clientPort = freePort();
        Map<String, String> brokerProperties = properties(bootstrap, null);
        brokerProperties.put("log.dirs", dir.resolve("broker/logs").toString());
        broker = BrokerNode.start(3, CLUSTER_ID, dir.resolve("broker/metadata"), "PLAINTEXT://localhost:" + clientPort,
                brokerProperties, topicConfigs, faults);
        awaitTrue(broker::isBrokerUnfenced, "the broker to register through the bootstrap server");

        second = ControllerNode.start(2, CLUSTER_ID, dir.resolve("second"), properties(bootstrap, secondPort),
                topicConfigs, faults);
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + clientPort,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000"));
        Uuid directory = new Uuid(secondDirectory.getMostSignificantBits(), secondDirectory.getLeastSignificantBits());
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> {
            admin.addRaftVoter(2, directory, Set.of(new RaftVoterEndpoint("CONTROLLER", "localhost", secondPort)))
                    .all().get(30, TimeUnit.SECONDS);
            return true;
        });
        await().atMost(WAIT).ignoreExceptions().until(() -> admin.describeMetadataQuorum().quorumInfo()
                .get(30, TimeUnit.SECONDS).voters().stream().map(QuorumInfo.ReplicaState::replicaId)
                .collect(Collectors.toSet()).equals(Set.of(1, 2)));

        // The first controller, the only one the broker was told of, leaves: the broker follows the voter set to the
        // second, which now leads, registers its heartbeats there and has its admin requests served there.
        UUID firstDirectory = MetaProperties.read(dir.resolve("first")).orElseThrow().directoryUuid();
        admin.removeRaftVoter(1, new Uuid(firstDirectory.getMostSignificantBits(),
                firstDirectory.getLeastSignificantBits())).all().get(60, TimeUnit.SECONDS);
        awaitTrue(second::isQuorumLeader, "the second controller to lead");
        await().atMost(WAIT).ignoreExceptions().until(() -> {
            admin.createTopics(List.of(new NewTopic("after-the-move", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            return true;
        });
        assertEquals(2, admin.describeMetadataQuorum().quorumInfo().get(30, TimeUnit.SECONDS).leaderId());
        awaitTrue(broker::isBrokerUnfenced, "the broker to stay unfenced");
    }

    @Test
    void bothKeysOrNeitherAreRefused() {
        Map<String, String> both = new HashMap<>(properties("localhost:1", 1));
        both.put("controller.quorum.voters", "1@localhost:1");
        assertEquals("set controller.quorum.voters or controller.quorum.bootstrap.servers, not both",
                assertThrows(IllegalArgumentException.class, () -> ControllerNode.create(1, CLUSTER_ID,
                        dir.resolve("x"), both, topicConfigs, faults)).getMessage());
        assertEquals("Missing required configuration: one of controller.quorum.voters (id@host:port,...) and"
                + " controller.quorum.bootstrap.servers (host:port,...) must be set",
                assertThrows(IllegalArgumentException.class, () -> ControllerNode.create(1, CLUSTER_ID,
                        dir.resolve("y"), Map.of(), topicConfigs, faults)).getMessage());
    }
}
