package io.kraft.server.handler;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.WireClient;
import io.kraft.server.TestNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsRequestData.CreatePartitionsAssignment;
import org.apache.kafka.common.message.CreatePartitionsRequestData.CreatePartitionsTopic;
import org.apache.kafka.common.message.CreatePartitionsResponseData.CreatePartitionsTopicResult;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopic;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopicCollection;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopicConfig;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopicConfigCollection;
import org.apache.kafka.common.message.CreateTopicsResponseData.CreatableTopicResult;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.message.DescribeConfigsRequestData.DescribeConfigsResource;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResourceResult;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResult;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterConfigsResource;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterableConfig;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterableConfigCollection;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataRequestData.MetadataRequestTopic;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopic;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AlterConfigsRequest;
import org.apache.kafka.common.requests.AlterConfigsResponse;
import org.apache.kafka.common.requests.CreatePartitionsRequest;
import org.apache.kafka.common.requests.CreatePartitionsResponse;
import org.apache.kafka.common.requests.CreateTopicsRequest;
import org.apache.kafka.common.requests.CreateTopicsResponse;
import org.apache.kafka.common.requests.DescribeClusterRequest;
import org.apache.kafka.common.requests.DescribeClusterResponse;
import org.apache.kafka.common.requests.DescribeConfigsRequest;
import org.apache.kafka.common.requests.DescribeConfigsResponse;
import org.apache.kafka.common.requests.IncrementalAlterConfigsRequest;
import org.apache.kafka.common.requests.IncrementalAlterConfigsResponse;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The admin APIs over a raw socket at the lowest and highest version each advertises, requests written and
 * responses read by kafka-clients, against one combined node.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AdminApisWireTest {
    private TestNode node;
    private WireClient client;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        node = new TestNode(dir, Map.of()).start();
        client = new WireClient(node.port());
    }

    @AfterAll
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        if (node != null) {
            node.close();
        }
    }

    private void createTopic(String name, int partitions) throws Exception {
        CreatableTopicCollection topics = new CreatableTopicCollection();
        topics.add(new CreatableTopic().setName(name).setNumPartitions(partitions).setReplicationFactor((short) 1));
        CreateTopicsResponse response = client.send(new CreateTopicsRequest.Builder(new CreateTopicsRequestData()
                .setTopics(topics).setTimeoutMs(10_000)).build((short) 7));
        assertEquals(Errors.NONE.code(), response.data().topics().find(name).errorCode());
    }

    private Map<String, String> overrides(String topic) throws Exception {
        DescribeConfigsResponse response = client.send(new DescribeConfigsRequest.Builder(new DescribeConfigsRequestData()
                .setResources(List.of(new DescribeConfigsResource().setResourceType(ConfigResource.Type.TOPIC.id())
                        .setResourceName(topic)))).build((short) 4));
        return response.data().results().get(0).configs().stream()
                .filter(c -> c.configSource() == DescribeConfigsResponse.ConfigSource.TOPIC_CONFIG.id())
                .collect(Collectors.toMap(DescribeConfigsResourceResult::name, DescribeConfigsResourceResult::value));
    }

    private int partitionCount(String topic) throws Exception {
        MetadataResponse response = client.send(new MetadataRequest.Builder(List.of(topic), false).build((short) 12));
        return response.data().topics().find(topic).partitions().size();
    }

    @ParameterizedTest
    @ValueSource(shorts = {0, 2})
    void describeClusterAtItsLowestAndHighestVersion(short version) throws Exception {
        DescribeClusterResponse response = client.send(new DescribeClusterRequest.Builder(
                new DescribeClusterRequestData().setIncludeFencedBrokers(version >= 2)).build(version));
        DescribeClusterResponseData data = response.data();
        assertEquals(Errors.NONE.code(), data.errorCode());
        assertEquals(TestNode.CLUSTER_ID, data.clusterId());
        assertEquals(1, data.controllerId());
        assertEquals(1, data.brokers().size());
        assertEquals(node.port(), data.brokers().find(1).port());
        assertFalse(data.brokers().find(1).isFenced());
    }

    @Test
    void describeClusterRefusesTheControllerEndpointType() throws Exception {
        DescribeClusterResponse response = client.send(new DescribeClusterRequest.Builder(
                new DescribeClusterRequestData().setEndpointType((byte) 2)).build((short) 1));
        assertEquals(Errors.UNSUPPORTED_ENDPOINT_TYPE.code(), response.data().errorCode());
        assertTrue(response.data().brokers().isEmpty());
    }

    @ParameterizedTest
    @ValueSource(shorts = {1, 4})
    void describeConfigsAtItsLowestAndHighestVersion(short version) throws Exception {
        String topic = "described-v" + version;
        createTopic(topic, 1);
        DescribeConfigsResponse response = client.send(new DescribeConfigsRequest.Builder(new DescribeConfigsRequestData()
                .setIncludeSynonyms(true).setIncludeDocumentation(version >= 3)
                .setResources(List.of(
                        new DescribeConfigsResource().setResourceType(ConfigResource.Type.TOPIC.id())
                                .setResourceName(topic).setConfigurationKeys(List.of("cleanup.policy", "no.such.key")),
                        new DescribeConfigsResource().setResourceType(ConfigResource.Type.TOPIC.id())
                                .setResourceName("missing-v" + version),
                        new DescribeConfigsResource().setResourceType(ConfigResource.Type.BROKER.id())
                                .setResourceName("1"),
                        new DescribeConfigsResource().setResourceType(ConfigResource.Type.BROKER.id())
                                .setResourceName("2"),
                        new DescribeConfigsResource().setResourceType((byte) 8).setResourceName("1"))))
                .build(version));
        List<DescribeConfigsResult> results = response.data().results();
        assertEquals(Errors.NONE.code(), results.get(0).errorCode());
        assertEquals(1, results.get(0).configs().size(), "unknown keys are simply absent");
        DescribeConfigsResourceResult policy = results.get(0).configs().get(0);
        assertEquals("delete", policy.value());
        assertEquals(DescribeConfigsResponse.ConfigSource.DEFAULT_CONFIG.id(), policy.configSource());
        assertEquals(List.of("log.cleanup.policy"), policy.synonyms().stream().map(s -> s.name()).toList());
        if (version >= 3) {
            assertEquals(DescribeConfigsResponse.ConfigType.LIST.id(), policy.configType());
            assertNotNull(policy.documentation());
        }
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), results.get(1).errorCode());
        assertEquals(Errors.NONE.code(), results.get(2).errorCode());
        assertTrue(results.get(2).configs().stream().anyMatch(c -> c.name().equals("log.segment.bytes")));
        assertEquals(Errors.INVALID_REQUEST.code(), results.get(3).errorCode(), "another broker's configs");
        assertEquals(Errors.INVALID_REQUEST.code(), results.get(4).errorCode(), "broker logger configs");
        assertNotNull(results.get(4).errorMessage());
    }

    @ParameterizedTest
    @ValueSource(shorts = {0, 2})
    void alterConfigsReplacesTheWholeSetAtItsLowestAndHighestVersion(short version) throws Exception {
        String topic = "replaced-v" + version;
        createTopic(topic, 1);
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        AlterConfigsResponse first = client.send(new AlterConfigsRequest.Builder(Map.of(resource,
                new AlterConfigsRequest.Config(List.of(new AlterConfigsRequest.ConfigEntry("retention.ms", "1000"),
                        new AlterConfigsRequest.ConfigEntry("cleanup.policy", "compact")))), false).build(version));
        assertEquals(Map.of(resource, org.apache.kafka.common.requests.ApiError.NONE), first.errors());
        assertEquals(Map.of("retention.ms", "1000", "cleanup.policy", "compact"), overrides(topic));

        AlterConfigsResponse dryRun = client.send(new AlterConfigsRequest.Builder(Map.of(resource,
                new AlterConfigsRequest.Config(List.of())), true).build(version));
        assertEquals(Errors.NONE, dryRun.errors().get(resource).error());
        assertEquals(2, overrides(topic).size(), "validate_only changed nothing");

        AlterConfigsResponse second = client.send(new AlterConfigsRequest.Builder(Map.of(resource,
                new AlterConfigsRequest.Config(List.of(new AlterConfigsRequest.ConfigEntry("segment.ms", "60000")))),
                false).build(version));
        assertEquals(Errors.NONE, second.errors().get(resource).error());
        assertEquals(Map.of("segment.ms", "60000"), overrides(topic), "keys left out were deleted");

        AlterConfigsResponse invalid = client.send(new AlterConfigsRequest.Builder(Map.of(resource,
                new AlterConfigsRequest.Config(List.of(new AlterConfigsRequest.ConfigEntry("segment.ms", "0")))),
                false).build(version));
        assertEquals(Errors.INVALID_CONFIG, invalid.errors().get(resource).error());
        assertTrue(invalid.errors().get(resource).message().contains("segment.ms"));
        assertEquals(Map.of("segment.ms", "60000"), overrides(topic));
    }

    @ParameterizedTest
    @ValueSource(shorts = {0, 1})
    void incrementalAlterConfigsAtItsLowestAndHighestVersion(short version) throws Exception {
        String topic = "incremental-v" + version;
        createTopic(topic, 1);
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        IncrementalAlterConfigsResponse set = client.send(new IncrementalAlterConfigsRequest.Builder(Map.of(resource,
                List.of(new AlterConfigOp(new ConfigEntry("cleanup.policy", "compact"), AlterConfigOp.OpType.APPEND),
                        new AlterConfigOp(new ConfigEntry("max.message.bytes", "2048"), AlterConfigOp.OpType.SET))),
                false).build(version));
        assertEquals(Errors.NONE.code(), set.data().responses().get(0).errorCode());
        assertEquals(Map.of("cleanup.policy", "delete,compact", "max.message.bytes", "2048"), overrides(topic));

        AlterableConfigCollection twice = new AlterableConfigCollection();
        twice.add(new AlterableConfig().setName("retention.ms").setConfigOperation((byte) 0).setValue("1"));
        twice.add(new AlterableConfig().setName("retention.ms").setConfigOperation((byte) 1));
        AlterableConfigCollection unknownOperation = new AlterableConfigCollection();
        unknownOperation.add(new AlterableConfig().setName("retention.ms").setConfigOperation((byte) 9).setValue("1"));
        List<AlterConfigsResource> resources = new ArrayList<>();
        resources.add(new AlterConfigsResource().setResourceType(ConfigResource.Type.TOPIC.id())
                .setResourceName(topic).setConfigs(twice));
        resources.add(new AlterConfigsResource().setResourceType(ConfigResource.Type.BROKER.id())
                .setResourceName("").setConfigs(unknownOperation));
        IncrementalAlterConfigsRequestData.AlterConfigsResourceCollection collection =
                new IncrementalAlterConfigsRequestData.AlterConfigsResourceCollection();
        resources.forEach(collection::add);
        IncrementalAlterConfigsResponse refused = client.send(new IncrementalAlterConfigsRequest.Builder(
                new IncrementalAlterConfigsRequestData().setResources(collection)).build(version));
        assertEquals(Errors.INVALID_REQUEST.code(), refused.data().responses().get(0).errorCode());
        assertTrue(refused.data().responses().get(0).errorMessage().contains("retention.ms"));
        assertEquals(Errors.INVALID_REQUEST.code(), refused.data().responses().get(1).errorCode());
        assertEquals(2, overrides(topic).size());
    }

    @ParameterizedTest
    @ValueSource(shorts = {0, 3})
    void createPartitionsAtItsLowestAndHighestVersion(short version) throws Exception {
        String topic = "grown-v" + version;
        createTopic(topic, 1);
        CreatePartitionsRequestData.CreatePartitionsTopicCollection topics =
                new CreatePartitionsRequestData.CreatePartitionsTopicCollection();
        topics.add(new CreatePartitionsTopic().setName(topic).setCount(3)
                .setAssignments(List.of(new CreatePartitionsAssignment().setBrokerIds(List.of(1)),
                        new CreatePartitionsAssignment().setBrokerIds(List.of(1)))));
        topics.add(new CreatePartitionsTopic().setName("missing-v" + version).setCount(2).setAssignments(null));
        CreatePartitionsResponse dryRun = client.send(new CreatePartitionsRequest.Builder(new CreatePartitionsRequestData()
                .setTopics(topics).setTimeoutMs(10_000).setValidateOnly(true)).build(version));
        assertEquals(List.of(Errors.NONE.code(), Errors.UNKNOWN_TOPIC_OR_PARTITION.code()),
                dryRun.data().results().stream().map(CreatePartitionsTopicResult::errorCode).toList());
        assertEquals(1, partitionCount(topic));
        CreatePartitionsResponse grown = client.send(new CreatePartitionsRequest.Builder(new CreatePartitionsRequestData()
                .setTopics(topics).setTimeoutMs(10_000)).build(version));
        assertEquals(Errors.NONE.code(), grown.data().results().get(0).errorCode());
        assertEquals(3, partitionCount(topic));
    }

    @Test
    void createPartitionsRefusesATopicNamedTwice() throws Exception {
        createTopic("twice", 1);
        // kafka-clients' request collection drops duplicates, so this request is written by our typed messages.
        io.kraft.broker.protocol.message.CreatePartitionsRequest request =
                new io.kraft.broker.protocol.message.CreatePartitionsRequest().setTimeoutMs(10_000);
        for (int count : new int[] {2, 3}) {
            request.topics().add(new io.kraft.broker.protocol.message.CreatePartitionsRequest.CreatePartitionsTopic()
                    .setName("twice").setCount(count).setAssignments(null));
        }
        io.kraft.broker.protocol.message.CreatePartitionsResponse response = client.send(request, (short) 0);
        assertEquals(List.of(Errors.INVALID_REQUEST.code(), Errors.INVALID_REQUEST.code()),
                response.results().stream().map(r -> r.errorCode()).toList());
        assertEquals(1, partitionCount("twice"));
    }

    @ParameterizedTest
    @ValueSource(shorts = {2, 7})
    void createTopicsValidateOnlyAtItsLowestAndHighestVersion(short version) throws Exception {
        String topic = "validated-v" + version;
        CreatableTopicConfigCollection configs = new CreatableTopicConfigCollection();
        configs.add(new CreatableTopicConfig().setName("cleanup.policy").setValue("compact"));
        CreatableTopicCollection topics = new CreatableTopicCollection();
        topics.add(new CreatableTopic().setName(topic).setNumPartitions(3).setReplicationFactor((short) 1)
                .setConfigs(configs));
        topics.add(new CreatableTopic().setName("bad name").setNumPartitions(1).setReplicationFactor((short) 1));
        CreateTopicsResponse response = client.send(new CreateTopicsRequest.Builder(new CreateTopicsRequestData()
                .setTopics(topics).setTimeoutMs(10_000).setValidateOnly(true)).build(version));
        CreatableTopicResult valid = response.data().topics().find(topic);
        assertEquals(Errors.NONE.code(), valid.errorCode());
        assertEquals(Errors.INVALID_TOPIC_EXCEPTION.code(), response.data().topics().find("bad name").errorCode());
        if (version >= 5) {
            assertEquals(3, valid.numPartitions());
            assertEquals("compact", valid.configs().stream().filter(c -> c.name().equals("cleanup.policy"))
                    .findFirst().orElseThrow().value());
        }
        if (version >= 7) {
            assertNotEquals(Uuid.ZERO_UUID, valid.topicId());
        }
        MetadataResponse metadata = client.send(new MetadataRequest.Builder(List.of(topic), false).build((short) 12));
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), metadata.data().topics().find(topic).errorCode(),
                "validate_only created nothing");
    }

    @ParameterizedTest
    @ValueSource(shorts = {2, 7})
    void createTopicsRefusesATopicNamedTwiceInOneRequest(short version) throws Exception {
        String topic = "named-twice-v" + version;
        CreatableTopicCollection topics = new CreatableTopicCollection();
        topics.add(new CreatableTopic().setName(topic).setNumPartitions(1).setReplicationFactor((short) 1));
        topics.add(new CreatableTopic().setName(topic).setNumPartitions(2).setReplicationFactor((short) 1));
        CreateTopicsResponse response = client.send(new CreateTopicsRequest.Builder(new CreateTopicsRequestData()
                .setTopics(topics).setTimeoutMs(10_000)).build(version));
        assertEquals(List.of(Errors.INVALID_REQUEST.code(), Errors.INVALID_REQUEST.code()),
                response.data().topics().stream().map(CreatableTopicResult::errorCode).toList());
        MetadataResponse metadata = client.send(new MetadataRequest.Builder(List.of(topic), false).build((short) 12));
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), metadata.data().topics().find(topic).errorCode());
    }

    @ParameterizedTest
    @ValueSource(shorts = {1, 13})
    void metadataAutoCreatesUnknownTopicsWhenAllowed(short version) throws Exception {
        String topic = "auto-v" + version;
        MetadataResponseTopic first = metadataTopic(topic, version, true);
        assertEquals(Errors.LEADER_NOT_AVAILABLE.code(), first.errorCode());
        MetadataResponseTopic created = await("the auto-created topic").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> metadataTopic(topic, version, true), t -> t.errorCode() == Errors.NONE.code());
        assertEquals(1, created.partitions().size(), "num.partitions defaults to 1");
        assertEquals(Errors.INVALID_TOPIC_EXCEPTION.code(), metadataTopic("bad/name", version, true).errorCode());
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION.code(),
                metadataTopic("__transaction_state", version, true).errorCode(), "internal topics are not auto-created");
    }

    @Test
    void metadataLeavesUnknownTopicsAloneWhenTheClientSaysSo() throws Exception {
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION.code(), metadataTopic("not-auto", (short) 4, false).errorCode());
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(10)).until(() ->
                metadataTopic("not-auto", (short) 13, false).errorCode() == Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        assertNull(node.admin().listTopics().names().get(10, TimeUnit.SECONDS).stream()
                .filter(Set.of("not-auto")::contains).findFirst().orElse(null));
    }

    private MetadataResponseTopic metadataTopic(String topic, short version, boolean allowAutoCreation)
            throws Exception {
        MetadataRequestData data = new MetadataRequestData()
                .setTopics(List.of(new MetadataRequestTopic().setName(topic)))
                .setAllowAutoTopicCreation(allowAutoCreation);
        MetadataResponse response = client.send(new MetadataRequest.Builder(data).build(version));
        return response.data().topics().find(topic);
    }

    @ParameterizedTest
    @ValueSource(shorts = {3, 5})
    void initProducerIdBumpsTheEpochOfAKnownProducerAndGivesANewIdWhenItIsUsedUp(short version) throws Exception {
        long producerId = ProducerIdEndToEndTest.newProducer(client, version).producerId();
        InitProducerIdResponseData bumped = initProducerId(version, null, producerId, (short) 0);
        assertEquals(Errors.NONE.code(), bumped.errorCode());
        assertEquals(producerId, bumped.producerId());
        assertEquals(1, bumped.producerEpoch());

        InitProducerIdResponseData exhausted = initProducerId(version, null, producerId, (short) (Short.MAX_VALUE - 1));
        assertEquals(Errors.NONE.code(), exhausted.errorCode());
        assertNotEquals(producerId, exhausted.producerId());
        assertEquals(0, exhausted.producerEpoch());

        assertEquals(Errors.INVALID_PRODUCER_ID_MAPPING.code(),
                initProducerId(version, null, 1L << 40, (short) 3).errorCode(), "an id this cluster never gave");
        assertEquals(Errors.INVALID_REQUEST.code(), initProducerId(version, null, producerId, (short) -1).errorCode());
    }

    @ParameterizedTest
    @ValueSource(shorts = {0, 5})
    void initProducerIdForATransactionalIdGivesItAProducerIdAndBumpsItsEpochOnTheNextInit(short version)
            throws Exception {
        String transactionalId = "payments-tx-v" + version;
        InitProducerIdResponseData first = initProducerId(version, transactionalId, -1, (short) -1);
        assertEquals(Errors.NONE.code(), first.errorCode());
        assertTrue(first.producerId() >= 0);
        assertEquals(0, first.producerEpoch());
        InitProducerIdResponseData second = initProducerId(version, transactionalId, -1, (short) -1);
        assertEquals(Errors.NONE.code(), second.errorCode());
        assertEquals(first.producerId(), second.producerId());
        assertEquals(1, second.producerEpoch());
        assertEquals(0, ProducerIdEndToEndTest.newProducer(client, version).producerEpoch());
    }

    private InitProducerIdResponseData initProducerId(short version, String transactionalId, long producerId,
                                                      short epoch) throws Exception {
        return ProducerIdEndToEndTest.init(client, version, transactionalId, producerId, epoch);
    }
}
