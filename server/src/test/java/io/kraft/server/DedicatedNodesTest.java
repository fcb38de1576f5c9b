package io.kraft.server;

import static io.kraft.broker.TestWaits.awaitTrue;
import static io.kraft.broker.TestWaits.freePort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dedicated controller and two dedicated brokers in one JVM: the brokers follow the metadata log as observers and
 * reach the controller over gRPC; the real Admin client creates topics through them; a closed broker hands its
 * leaderships over (controlled shutdown) and, restarted, registers again at once.
 */
class DedicatedNodesTest {
    private static final String CLUSTER_ID = "RGVkaWNhdGVkTm9kZXNUZXN0";
    private static final long WAIT_MS = 30_000;

    @TempDir
    Path dir;

    private final TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
            LogConfigs.definition().parse(Map.of(), ConfigSource.STATIC_BROKER_CONFIG)));
    private final Map<Integer, BrokerNode> brokers = new HashMap<>();
    private final TestFaultHandler faults = new TestFaultHandler();
    private final Map<Integer, Integer> brokerPorts = new HashMap<>();
    private ControllerNode controller;
    private Map<String, String> properties;
    private Admin admin;

    @AfterEach
    void stop() {
        if (admin != null) {
            admin.close();
        }
        brokers.values().forEach(BrokerNode::close);
        if (controller != null) {
            controller.close();
        }
        faults.assertNone();
    }

    private void startController() throws IOException {
        properties = Map.of("controller.quorum.voters", "1@localhost:" + freePort(),
                "controller.quorum.election.timeout.ms", "300", "controller.quorum.fetch.timeout.ms", "600");
        controller = ControllerNode.start(1, CLUSTER_ID, dir.resolve("controller-1"), properties, topicConfigs, faults);
    }

    private BrokerNode startBroker(int nodeId) throws Exception {
        int port = brokerPorts.computeIfAbsent(nodeId, id -> freePortUnchecked());
        Map<String, String> brokerProperties = new HashMap<>(properties);
        brokerProperties.put("log.dirs", dir.resolve("broker-" + nodeId).resolve("logs").toString());
        BrokerNode broker = BrokerNode.start(nodeId, CLUSTER_ID, dir.resolve("broker-" + nodeId).resolve("metadata"),
                "PLAINTEXT://localhost:" + port, brokerProperties, topicConfigs, faults);
        brokers.put(nodeId, broker);
        awaitTrue(broker::isBrokerUnfenced, "broker " + nodeId + " to be unfenced");
        return broker;
    }

    private Admin admin(int brokerId) {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + brokerPorts.get(brokerId),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "20000"));
    }

    private Map<Integer, Integer> leaders(String topic) throws Exception {
        TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
                .get(WAIT_MS, TimeUnit.MILLISECONDS).get(topic);
        return description.partitions().stream().collect(Collectors.toMap(TopicPartitionInfo::partition,
                p -> p.leader() == null ? -1 : p.leader().id()));
    }

    @Test
    void brokersFollowTheControllerAndHandOverLeadershipsWhenTheyStop() throws Exception {
        startController();
        startBroker(2);
        startBroker(3);
        admin = admin(2);
        admin.createTopics(List.of(new NewTopic("orders", 4, (short) 2))).all().get(WAIT_MS, TimeUnit.MILLISECONDS);

        // Both brokers' own images hold the topic, as the controller committed it.
        MetadataImage committed = controller.controller().image();
        awaitTrue(() -> brokers.values().stream().allMatch(b -> b.metadata().image().topics().topic("orders") != null),
                "both brokers to see the topic");
        assertEquals(committed.topics().topic("orders").id(), brokers.get(3).metadata().image().topics()
                .topic("orders").id());
        assertEquals(Set.of(2, 3), Set.copyOf(leaders("orders").values()), "leaders spread over both brokers");

        // Broker 3 stops: its controlled shutdown moves its leaderships to broker 2 before it goes.
        brokers.remove(3).close();
        MetadataImage afterShutdown = controller.controller().image();
        assertTrue(afterShutdown.cluster().broker(3).fenced());
        for (PartitionRegistration partition : afterShutdown.topics().topic("orders").partitions().values()) {
            assertEquals(2, partition.leader(), afterShutdown.topics().topic("orders").toString());
        }
        awaitTrue(() -> Set.copyOf(leadersUnchecked("orders").values()).equals(Set.of(2)),
                "broker 2 to lead every partition");

        // Restarted with a new incarnation, it registers at once and is unfenced again.
        startBroker(3);
        assertNotNull(brokers.get(3).metadata().image().topics().topic("orders"));
        admin.createTopics(List.of(new NewTopic("payments", 2, (short) 2))).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        awaitTrue(() -> brokers.get(3).metadata().image().topics().topic("payments") != null,
                "the restarted broker to follow new topics");
    }

    @Test
    void aBrokerOnlyNodeMustNotBeAVoter() throws Exception {
        startController();
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> BrokerNode.start(1,
                CLUSTER_ID, dir.resolve("broker-1"), "PLAINTEXT://localhost:0", properties, topicConfigs));
        assertTrue(error.getMessage().startsWith("node 1 is among the voters [1]"), error.getMessage());
    }

    private Map<Integer, Integer> leadersUnchecked(String topic) {
        try {
            return leaders(topic);
        } catch (Exception e) {
            return Map.of();
        }
    }

    private static int freePortUnchecked() {
        try {
            return freePort();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
