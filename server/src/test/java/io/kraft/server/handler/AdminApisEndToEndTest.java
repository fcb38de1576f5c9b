package io.kraft.server.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.server.TestNode;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.AlterConfigsOptions;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreatePartitionsOptions;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.InvalidReplicaAssignmentException;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java Admin client against one combined node: topics, partitions, configs of topics and brokers with their
 * sources, the cluster, auto-creation, and the errors each API answers. The node's properties set a static
 * log.retention.hours and num.partitions, so static sources and the controller's defaults are visible.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AdminApisEndToEndTest {
    private static final long WAIT_MS = TestNode.WAIT_MS;
    private static final long STATIC_RETENTION_MS = 72L * 3_600_000L;

    private TestNode node;
    private Admin admin;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        node = new TestNode(dir, Map.of("log.retention.hours", "72", "num.partitions", "2")).start();
        admin = node.admin();
    }

    @AfterAll
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    private static <T> T get(KafkaFuture<T> future) throws Exception {
        return future.get(WAIT_MS, TimeUnit.MILLISECONDS);
    }

    private static Throwable failure(KafkaFuture<?> future) {
        ExecutionException e = assertThrows(ExecutionException.class, () -> future.get(WAIT_MS, TimeUnit.MILLISECONDS));
        return e.getCause();
    }

    private Config topicConfig(String topic) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        return get(admin.describeConfigs(List.of(resource), new DescribeConfigsOptions().includeSynonyms(true)
                .includeDocumentation(true)).all()).get(resource);
    }

    private static ConfigResource topic(String name) {
        return new ConfigResource(ConfigResource.Type.TOPIC, name);
    }

    @Test
    void createsListsAndDescribesTopicsOfOneThreeAndTwelvePartitions() throws Exception {
        CreateTopicsResult created = admin.createTopics(List.of(
                new NewTopic("one", 1, (short) 1),
                new NewTopic("three", 3, (short) 1).configs(Map.of("cleanup.policy", "compact")),
                new NewTopic("twelve", 12, (short) 1).configs(Map.of("retention.ms", "60000", "segment.bytes", "1048576"))));
        get(created.all());
        assertEquals(12, get(created.numPartitions("twelve")));
        assertEquals(1, get(created.replicationFactor("twelve")));
        // CreateTopics v5+ answers the new topic's configs with their sources.
        Config createdConfig = get(created.config("three"));
        assertEquals("compact", createdConfig.get("cleanup.policy").value());
        assertEquals(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG, createdConfig.get("cleanup.policy").source());

        assertTrue(get(admin.listTopics().names()).containsAll(Set.of("one", "three", "twelve")));
        Map<String, TopicDescription> described = get(admin.describeTopics(List.of("one", "three", "twelve"))
                .allTopicNames());
        assertEquals(Map.of("one", 1, "three", 3, "twelve", 12), Map.of(
                "one", described.get("one").partitions().size(),
                "three", described.get("three").partitions().size(),
                "twelve", described.get("twelve").partitions().size()));
        for (TopicDescription topic : described.values()) {
            assertNotEquals(org.apache.kafka.common.Uuid.ZERO_UUID, topic.topicId());
            assertEquals(get(created.topicId(topic.name())), topic.topicId());
            for (TopicPartitionInfo partition : topic.partitions()) {
                assertEquals(1, partition.leader().id());
                assertEquals(List.of(1), partition.replicas().stream().map(n -> n.id()).toList());
                assertEquals(List.of(1), partition.isr().stream().map(n -> n.id()).toList());
            }
        }

        Config twelve = topicConfig("twelve");
        assertEquals("60000", twelve.get("retention.ms").value());
        assertEquals(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG, twelve.get("retention.ms").source());
        assertEquals("1048576", twelve.get("segment.bytes").value());
        assertEquals(ConfigEntry.ConfigType.INT, twelve.get("segment.bytes").type());
        assertNotNull(twelve.get("segment.bytes").documentation());
        // An override's synonyms go down to the broker's static setting and the built-in default.
        List<ConfigEntry.ConfigSynonym> synonyms = twelve.get("retention.ms").synonyms();
        assertEquals(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG, synonyms.get(0).source());
        assertTrue(synonyms.stream().anyMatch(s -> s.name().equals("log.retention.hours") && s.value().equals("72")
                && s.source() == ConfigEntry.ConfigSource.STATIC_BROKER_CONFIG), synonyms.toString());
        assertTrue(synonyms.stream().anyMatch(s -> s.name().equals("log.retention.hours") && s.value().equals("168")
                && s.source() == ConfigEntry.ConfigSource.DEFAULT_CONFIG), synonyms.toString());

        Config one = topicConfig("one");
        assertEquals(Long.toString(STATIC_RETENTION_MS), one.get("retention.ms").value());
        assertEquals(ConfigEntry.ConfigSource.STATIC_BROKER_CONFIG, one.get("retention.ms").source());
        assertEquals("delete", one.get("cleanup.policy").value());
        assertEquals(ConfigEntry.ConfigSource.DEFAULT_CONFIG, one.get("cleanup.policy").source());
        assertFalse(one.get("cleanup.policy").isReadOnly());
        assertFalse(one.get("cleanup.policy").isSensitive());
    }

    @Test
    void createTopicsRefusesBadRequestsWithTheMatchingErrors() throws Exception {
        get(admin.createTopics(List.of(new NewTopic("taken", 1, (short) 1))).all());
        assertInstanceOf(TopicExistsException.class, failure(admin.createTopics(
                List.of(new NewTopic("taken", 1, (short) 1))).all()));
        assertInstanceOf(InvalidTopicException.class, failure(admin.createTopics(
                List.of(new NewTopic("bad/name", 1, (short) 1))).all()));
        assertInstanceOf(InvalidTopicException.class, failure(admin.createTopics(
                List.of(new NewTopic("x".repeat(250), 1, (short) 1))).all()));
        assertInstanceOf(InvalidTopicException.class, failure(admin.createTopics(
                List.of(new NewTopic("taken_", 1, (short) 1), new NewTopic("taken.", 1, (short) 1))).values()
                .get("taken.")));
        assertInstanceOf(InvalidPartitionsException.class, failure(admin.createTopics(
                List.of(new NewTopic("no-partitions", 0, (short) 1))).all()));
        assertInstanceOf(InvalidReplicationFactorException.class, failure(admin.createTopics(
                List.of(new NewTopic("three-replicas", 1, (short) 3))).all()));
        assertInstanceOf(InvalidReplicationFactorException.class, failure(admin.createTopics(
                List.of(new NewTopic("zero-replicas", 1, (short) 0))).all()));
        Throwable badValue = failure(admin.createTopics(List.of(new NewTopic("bad-config", 1, (short) 1)
                .configs(Map.of("retention.ms", "soon")))).all());
        assertInstanceOf(InvalidConfigurationException.class, badValue);
        assertTrue(badValue.getMessage().contains("retention.ms"), badValue.getMessage());
        Throwable unknownKey = failure(admin.createTopics(List.of(new NewTopic("bad-key", 1, (short) 1)
                .configs(Map.of("retention.minutes", "5")))).all());
        assertInstanceOf(InvalidConfigurationException.class, unknownKey);
        assertTrue(unknownKey.getMessage().contains("retention.minutes"), unknownKey.getMessage());
        Set<String> names = get(admin.listTopics().names());
        for (String absent : List.of("no-partitions", "three-replicas", "bad-config", "bad-key", "taken.")) {
            assertFalse(names.contains(absent), absent);
        }
    }

    @Test
    void validateOnlyCreatesNothingButReportsWhatItWouldCreate() throws Exception {
        CreateTopicsResult dryRun = admin.createTopics(List.of(new NewTopic("dry", 4, (short) 1),
                        new NewTopic("dry-defaults", Optional.empty(), Optional.empty())),
                new CreateTopicsOptions().validateOnly(true));
        get(dryRun.all());
        assertEquals(4, get(dryRun.numPartitions("dry")));
        assertEquals(2, get(dryRun.numPartitions("dry-defaults")), "num.partitions=2 from the node's properties");
        assertInstanceOf(InvalidReplicationFactorException.class, failure(admin.createTopics(
                List.of(new NewTopic("dry-wide", 1, (short) 2)), new CreateTopicsOptions().validateOnly(true)).all()));
        get(admin.createTopics(List.of(new NewTopic("dry-existing", 1, (short) 1))).all());
        assertInstanceOf(TopicExistsException.class, failure(admin.createTopics(
                List.of(new NewTopic("dry-existing", 1, (short) 1)), new CreateTopicsOptions().validateOnly(true)).all()));
        Set<String> names = get(admin.listTopics().names());
        assertFalse(names.contains("dry"));
        assertFalse(names.contains("dry-defaults"));
    }

    @Test
    void createPartitionsGrowsTopicsAndRefusesShrinking() throws Exception {
        get(admin.createTopics(List.of(new NewTopic("grow", 3, (short) 1))).all());
        get(admin.createPartitions(Map.of("grow", NewPartitions.increaseTo(5)),
                new CreatePartitionsOptions().validateOnly(true)).all());
        assertEquals(3, partitionCount("grow"));
        get(admin.createPartitions(Map.of("grow", NewPartitions.increaseTo(5))).all());
        assertEquals(5, partitionCount("grow"));
        get(admin.createPartitions(Map.of("grow", NewPartitions.increaseTo(6, List.of(List.of(1))))).all());
        assertEquals(6, partitionCount("grow"));

        assertInstanceOf(InvalidPartitionsException.class, failure(admin.createPartitions(
                Map.of("grow", NewPartitions.increaseTo(6))).all()));
        assertInstanceOf(InvalidPartitionsException.class, failure(admin.createPartitions(
                Map.of("grow", NewPartitions.increaseTo(2))).all()));
        assertInstanceOf(InvalidReplicaAssignmentException.class, failure(admin.createPartitions(
                Map.of("grow", NewPartitions.increaseTo(7, List.of(List.of(9))))).all()));
        assertInstanceOf(UnknownTopicOrPartitionException.class, failure(admin.createPartitions(
                Map.of("no-such-topic", NewPartitions.increaseTo(4))).all()));
        assertEquals(6, partitionCount("grow"));
    }

    private int partitionCount(String topic) throws Exception {
        return get(admin.describeTopics(List.of(topic)).allTopicNames()).get(topic).partitions().size();
    }

    @Test
    void incrementalAlterConfigsSetsDeletesAppendsAndSubtracts() throws Exception {
        get(admin.createTopics(List.of(new NewTopic("tuned", 1, (short) 1))).all());
        alter(topic("tuned"), List.of(
                new AlterConfigOp(new ConfigEntry("retention.ms", "1000"), AlterConfigOp.OpType.SET),
                new AlterConfigOp(new ConfigEntry("cleanup.policy", "compact"), AlterConfigOp.OpType.APPEND)));
        Config tuned = topicConfig("tuned");
        assertEquals("1000", tuned.get("retention.ms").value());
        assertEquals("delete,compact", tuned.get("cleanup.policy").value());
        assertEquals(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG, tuned.get("cleanup.policy").source());

        alter(topic("tuned"), List.of(
                new AlterConfigOp(new ConfigEntry("retention.ms", null), AlterConfigOp.OpType.DELETE),
                new AlterConfigOp(new ConfigEntry("cleanup.policy", "delete"), AlterConfigOp.OpType.SUBTRACT)));
        tuned = topicConfig("tuned");
        assertEquals(Long.toString(STATIC_RETENTION_MS), tuned.get("retention.ms").value());
        assertEquals(ConfigEntry.ConfigSource.STATIC_BROKER_CONFIG, tuned.get("retention.ms").source());
        assertEquals("compact", tuned.get("cleanup.policy").value());

        // validate_only checks but changes nothing.
        get(admin.incrementalAlterConfigs(Map.of(topic("tuned"), List.of(new AlterConfigOp(
                new ConfigEntry("segment.bytes", "2097152"), AlterConfigOp.OpType.SET))),
                new AlterConfigsOptions().validateOnly(true)).all());
        assertEquals(ConfigEntry.ConfigSource.DEFAULT_CONFIG, topicConfig("tuned").get("segment.bytes").source());

        Throwable badValue = failure(admin.incrementalAlterConfigs(Map.of(topic("tuned"), List.of(new AlterConfigOp(
                new ConfigEntry("segment.bytes", "tiny"), AlterConfigOp.OpType.SET)))).all());
        assertInstanceOf(InvalidConfigurationException.class, badValue);
        assertTrue(badValue.getMessage().contains("segment.bytes"), badValue.getMessage());
        Throwable unknownKey = failure(admin.incrementalAlterConfigs(Map.of(topic("tuned"), List.of(new AlterConfigOp(
                new ConfigEntry("no.such.key", "1"), AlterConfigOp.OpType.SET)))).all());
        assertInstanceOf(InvalidConfigurationException.class, unknownKey);
        assertTrue(unknownKey.getMessage().contains("no.such.key"), unknownKey.getMessage());
        Throwable notAList = failure(admin.incrementalAlterConfigs(Map.of(topic("tuned"), List.of(new AlterConfigOp(
                new ConfigEntry("retention.ms", "5"), AlterConfigOp.OpType.APPEND)))).all());
        assertInstanceOf(InvalidConfigurationException.class, notAList);
        Throwable emptyPolicy = failure(admin.incrementalAlterConfigs(Map.of(topic("tuned"), List.of(new AlterConfigOp(
                new ConfigEntry("cleanup.policy", "compact"), AlterConfigOp.OpType.SUBTRACT)))).all());
        assertInstanceOf(InvalidConfigurationException.class, emptyPolicy);
        assertInstanceOf(UnknownTopicOrPartitionException.class, failure(admin.incrementalAlterConfigs(Map.of(
                topic("no-such-topic"), List.of(new AlterConfigOp(new ConfigEntry("retention.ms", "5"),
                        AlterConfigOp.OpType.SET)))).all()));
        assertEquals("compact", topicConfig("tuned").get("cleanup.policy").value());
    }

    private void alter(ConfigResource resource, Collection<AlterConfigOp> ops) throws Exception {
        get(admin.incrementalAlterConfigs(Map.of(resource, ops)).all());
    }

    @Test
    void brokerConfigsHaveStaticAndDynamicSourcesAndTopicsInheritThem() throws Exception {
        ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "1");
        ConfigResource clusterDefault = new ConfigResource(ConfigResource.Type.BROKER, "");
        Config described = get(admin.describeConfigs(List.of(broker)).all()).get(broker);
        assertEquals("72", described.get("log.retention.hours").value());
        assertEquals(ConfigEntry.ConfigSource.STATIC_BROKER_CONFIG, described.get("log.retention.hours").source());
        assertEquals(ConfigEntry.ConfigSource.DEFAULT_CONFIG, described.get("log.segment.bytes").source());
        assertTrue(described.get("log.dirs").isReadOnly());
        assertFalse(described.get("log.retention.ms").isReadOnly());
        assertEquals("true", described.get("auto.create.topics.enable").value());

        get(admin.createTopics(List.of(new NewTopic("inherits", 1, (short) 1))).all());
        alter(clusterDefault, List.of(new AlterConfigOp(new ConfigEntry("log.segment.bytes", "2097152"),
                AlterConfigOp.OpType.SET)));
        Config defaults = get(admin.describeConfigs(List.of(clusterDefault)).all()).get(clusterDefault);
        assertEquals(1, defaults.entries().size());
        assertEquals(ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG, defaults.get("log.segment.bytes").source());
        ConfigEntry inherited = topicConfig("inherits").get("segment.bytes");
        assertEquals("2097152", inherited.value());
        assertEquals(ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG, inherited.source());

        alter(broker, List.of(new AlterConfigOp(new ConfigEntry("log.segment.bytes", "4194304"),
                AlterConfigOp.OpType.SET)));
        inherited = topicConfig("inherits").get("segment.bytes");
        assertEquals("4194304", inherited.value());
        assertEquals(ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG, inherited.source());
        assertEquals(List.of(ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG,
                        ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG, ConfigEntry.ConfigSource.DEFAULT_CONFIG),
                inherited.synonyms().stream().map(ConfigEntry.ConfigSynonym::source).toList());

        alter(broker, List.of(new AlterConfigOp(new ConfigEntry("log.segment.bytes", null), AlterConfigOp.OpType.DELETE)));
        alter(clusterDefault, List.of(new AlterConfigOp(new ConfigEntry("log.segment.bytes", null),
                AlterConfigOp.OpType.DELETE)));
        assertEquals(ConfigEntry.ConfigSource.DEFAULT_CONFIG, topicConfig("inherits").get("segment.bytes").source());
        assertTrue(get(admin.describeConfigs(List.of(clusterDefault)).all()).get(clusterDefault).entries().isEmpty());

        Throwable readOnly = failure(admin.incrementalAlterConfigs(Map.of(broker, List.of(new AlterConfigOp(
                new ConfigEntry("log.dirs", "/elsewhere"), AlterConfigOp.OpType.SET)))).all());
        assertInstanceOf(InvalidRequestException.class, readOnly);
        assertTrue(readOnly.getMessage().contains("log.dirs"), readOnly.getMessage());
        Throwable unknown = failure(admin.incrementalAlterConfigs(Map.of(clusterDefault, List.of(new AlterConfigOp(
                new ConfigEntry("no.such.broker.key", "1"), AlterConfigOp.OpType.SET)))).all());
        assertInstanceOf(InvalidConfigurationException.class, unknown);
        Throwable badValue = failure(admin.incrementalAlterConfigs(Map.of(clusterDefault, List.of(new AlterConfigOp(
                new ConfigEntry("log.retention.ms", "0"), AlterConfigOp.OpType.SET)))).all());
        assertInstanceOf(InvalidConfigurationException.class, badValue);
        assertTrue(badValue.getMessage().contains("log.retention.ms"), badValue.getMessage());
    }

    @Test
    void describeConfigsReportsUnknownTopicsAndFiltersKeys() throws Exception {
        assertInstanceOf(UnknownTopicOrPartitionException.class,
                failure(admin.describeConfigs(List.of(topic("never-created"))).all()));
        get(admin.createTopics(List.of(new NewTopic("filtered", 1, (short) 1))).all());
        Config config = topicConfig("filtered");
        assertEquals(25, config.entries().size()); // with the two throttled replica lists
        assertNull(config.get("no.such.key"));
    }

    @Test
    void deletesTopics() throws Exception {
        get(admin.createTopics(List.of(new NewTopic("doomed", 2, (short) 1)
                .configs(Map.of("cleanup.policy", "compact")))).all());
        get(admin.deleteTopics(List.of("doomed")).all());
        assertFalse(get(admin.listTopics().names()).contains("doomed"));
        assertInstanceOf(UnknownTopicOrPartitionException.class,
                failure(admin.describeConfigs(List.of(topic("doomed"))).all()));
        // Its configs went with it: a new topic of the same name starts from the defaults.
        get(admin.createTopics(List.of(new NewTopic("doomed", 1, (short) 1))).all());
        assertEquals(ConfigEntry.ConfigSource.DEFAULT_CONFIG, topicConfig("doomed").get("cleanup.policy").source());
    }

    @Test
    void describeClusterNamesTheBrokerAndTheCluster() throws Exception {
        DescribeClusterResult cluster = admin.describeCluster(new DescribeClusterOptions().includeFencedBrokers(true));
        assertEquals(TestNode.CLUSTER_ID, get(cluster.clusterId()));
        assertEquals(1, get(cluster.controller()).id());
        assertEquals(List.of(1), get(cluster.nodes()).stream().map(n -> n.id()).toList());
        assertEquals(node.port(), get(cluster.nodes()).iterator().next().port());
        assertFalse(get(cluster.nodes()).iterator().next().isFenced());
    }

    @Test
    void metadataCreatesUnknownTopicsWithTheConfiguredDefaults() throws Exception {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                "bootstrap.servers", node.bootstrap(),
                "key.deserializer", ByteArrayDeserializer.class.getName(),
                "value.deserializer", ByteArrayDeserializer.class.getName()))) {
            List<PartitionInfo> partitions = consumer.partitionsFor("auto-created",
                    java.time.Duration.ofMillis(WAIT_MS));
            assertEquals(2, partitions.size(), "num.partitions=2 from the node's properties");
        }
        assertTrue(get(admin.listTopics().names()).contains("auto-created"));
    }
}
