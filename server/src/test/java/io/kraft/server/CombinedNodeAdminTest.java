package io.kraft.server;

import static io.kraft.broker.TestWaits.awaitTrue;
import static io.kraft.broker.TestWaits.freePort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.config.BrokerLogSettings;
import io.kraft.config.ConfigSource;
import io.kraft.config.LogConfigs;
import io.kraft.config.TopicConfigResolver;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicCollection;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real Java Admin client against a combined node: create, describe, delete, and recovery after restart. */
class CombinedNodeAdminTest {
    private static final String CLUSTER_ID = "MkU3OEVBNTcwNTJENDM2Qg";
    private static final long WAIT_MS = 30_000;

    @TempDir
    Path dir;

    private CombinedNode node;
    private final TestFaultHandler faults = new TestFaultHandler();
    private Admin admin;
    private int clientPort;
    private int controllerPort;

    @AfterEach
    void stop() {
        if (admin != null) {
            admin.close();
        }
        if (node != null) {
            node.close();
        }
        faults.assertNone();
    }

    private void startNode() throws Exception {
        // Partition logs under the test's directory, not Kafka's default /tmp/kafka-logs.
        Map<String, String> properties = Map.of("controller.quorum.voters", "1@localhost:" + controllerPort,
                "log.dirs", dir.resolve("logs").toString());
        TopicConfigResolver topicConfigs = new TopicConfigResolver(BrokerLogSettings.from(
                LogConfigs.definition().parse(Map.of(), ConfigSource.STATIC_BROKER_CONFIG)));
        node = CombinedNode.start(1, CLUSTER_ID, dir.resolve("metadata"), "PLAINTEXT://localhost:" + clientPort,
                properties, topicConfigs, faults);
        awaitTrue(node::isBrokerUnfenced, "the broker to be unfenced");
        admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + node.clientPort(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000",
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "20000"));
    }

    private void restartNode() throws Exception {
        admin.close();
        admin = null;
        node.close();
        node = null;
        startNode();
    }

    @Test
    void createsDescribesDeletesAndRecoversTopics() throws Exception {
        clientPort = freePort();
        controllerPort = freePort();
        startNode();

        admin.createTopics(List.of(new NewTopic("orders", 3, (short) 1), new NewTopic("payments", 3, (short) 1)))
                .all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        assertEquals(Set.of("orders", "payments"), admin.listTopics().names().get(WAIT_MS, TimeUnit.MILLISECONDS));
        Map<String, TopicDescription> described = admin.describeTopics(List.of("orders", "payments"))
                .allTopicNames().get(WAIT_MS, TimeUnit.MILLISECONDS);
        for (TopicDescription topic : described.values()) {
            assertEquals(3, topic.partitions().size());
            for (TopicPartitionInfo partition : topic.partitions()) {
                assertEquals(1, partition.leader().id());
            }
        }

        ExecutionException duplicate = assertThrows(ExecutionException.class, () -> admin.createTopics(
                List.of(new NewTopic("orders", 1, (short) 1))).all().get(WAIT_MS, TimeUnit.MILLISECONDS));
        assertInstanceOf(TopicExistsException.class, duplicate.getCause());

        admin.deleteTopics(List.of("payments")).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        assertEquals(Set.of("orders"), admin.listTopics().names().get(WAIT_MS, TimeUnit.MILLISECONDS));
        ExecutionException unknown = assertThrows(ExecutionException.class, () -> admin.deleteTopics(
                List.of("payments")).all().get(WAIT_MS, TimeUnit.MILLISECONDS));
        assertInstanceOf(UnknownTopicOrPartitionException.class, unknown.getCause());

        // Defaults for partitions and replication factor (-1 on the wire), a config override, deletion by id.
        Uuid defaultsId = admin.createTopics(List.of(new NewTopic("defaults", Optional.empty(), Optional.empty())
                .configs(Map.of("cleanup.policy", "compact")))).topicId("defaults").get(WAIT_MS, TimeUnit.MILLISECONDS);
        assertEquals(1, admin.describeTopics(List.of("defaults")).allTopicNames().get(WAIT_MS, TimeUnit.MILLISECONDS)
                .get("defaults").partitions().size());
        admin.deleteTopics(TopicCollection.ofTopicIds(List.of(defaultsId))).all().get(WAIT_MS, TimeUnit.MILLISECONDS);
        assertEquals(Set.of("orders"), admin.listTopics().names().get(WAIT_MS, TimeUnit.MILLISECONDS));
        ExecutionException badConfig = assertThrows(ExecutionException.class, () -> admin.createTopics(List.of(
                new NewTopic("bad", 1, (short) 1).configs(Map.of("cleanup.policy", "sometimes"))))
                .all().get(WAIT_MS, TimeUnit.MILLISECONDS));
        assertInstanceOf(InvalidConfigurationException.class, badConfig.getCause());
        ExecutionException tooManyReplicas = assertThrows(ExecutionException.class, () -> admin.createTopics(
                List.of(new NewTopic("wide", 1, (short) 3))).all().get(WAIT_MS, TimeUnit.MILLISECONDS));
        assertInstanceOf(InvalidReplicationFactorException.class, tooManyReplicas.getCause());

        restartNode();
        awaitTrue(() -> {
            try {
                return admin.listTopics().names().get(WAIT_MS, TimeUnit.MILLISECONDS).equals(Set.of("orders"));
            } catch (Exception e) {
                return false;
            }
        }, "the orders topic to be recovered from the metadata log");
        TopicDescription orders = admin.describeTopics(List.of("orders")).allTopicNames()
                .get(WAIT_MS, TimeUnit.MILLISECONDS).get("orders");
        assertEquals(3, orders.partitions().size());
        assertFalse(orders.topicId().toString().isEmpty());
        assertTrue(admin.describeCluster().nodes().get(WAIT_MS, TimeUnit.MILLISECONDS).stream()
                .anyMatch(n -> n.id() == 1 && n.port() == clientPort));
    }
}
