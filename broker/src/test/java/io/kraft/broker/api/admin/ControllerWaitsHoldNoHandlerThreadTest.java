package io.kraft.broker.api.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.WireClient;
import io.kraft.broker.api.data.ApiVersionsHandler;
import io.kraft.broker.network.ApiHandler;
import io.kraft.broker.network.KafkaServer;
import io.kraft.broker.network.RequestHandlerRegistry;
import io.kraft.broker.network.SocketServerConfig;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.message.AlterConfigsRequest;
import io.kraft.broker.protocol.message.AlterConfigsResponse;
import io.kraft.broker.protocol.message.ApiMessage;
import io.kraft.broker.protocol.message.ApiVersionsRequest;
import io.kraft.broker.protocol.message.ApiVersionsResponse;
import io.kraft.broker.protocol.message.AlterPartitionReassignmentsRequest;
import io.kraft.broker.protocol.message.AlterPartitionReassignmentsResponse;
import io.kraft.broker.protocol.message.CreatePartitionsRequest;
import io.kraft.broker.protocol.message.ElectLeadersRequest;
import io.kraft.broker.protocol.message.ElectLeadersResponse;
import io.kraft.broker.protocol.message.CreatePartitionsResponse;
import io.kraft.broker.protocol.message.CreateTopicsRequest;
import io.kraft.broker.protocol.message.CreateTopicsResponse;
import io.kraft.broker.protocol.message.DeleteTopicsRequest;
import io.kraft.broker.protocol.message.DeleteTopicsResponse;
import io.kraft.broker.protocol.message.IncrementalAlterConfigsRequest;
import io.kraft.broker.protocol.message.IncrementalAlterConfigsResponse;
import io.kraft.broker.protocol.message.MetadataRequest;
import io.kraft.broker.protocol.message.MetadataResponse;
import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.controller.AlterPartitionRequest;
import io.kraft.metadata.controller.BrokerHeartbeatReply;
import io.kraft.metadata.controller.BrokerHeartbeatRequest;
import io.kraft.metadata.controller.BrokerRegistrationRequest;
import io.kraft.metadata.controller.ApiError;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.controller.ElectionType;
import io.kraft.metadata.controller.CreateTopicRequest;
import io.kraft.metadata.controller.CreateTopicResult;
import io.kraft.metadata.controller.ProducerIdBlock;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.MetadataPublisher;
import io.kraft.metadata.image.MetadataSource;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.proto.metadata.BrokerEndpoint;
import io.kraft.proto.metadata.PartitionRecord;
import io.kraft.proto.metadata.RegisterBrokerRecord;
import io.kraft.proto.metadata.TopicRecord;
import io.kraft.storage.errors.Errors;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The admin APIs that go to the controller hold no request-handler thread while it answers. The broker runs with
 * {@code num.io.threads=1} and a controller double whose answers the test gives by hand: a request that waited on
 * its handler thread would leave no thread for anyone else, so ApiVersions and Metadata on another connection
 * could not be answered until the controller spoke.
 *
 * <p>A double rather than a slow real controller: the test decides exactly when (or whether) each answer comes, so
 * "still waiting" is a fact rather than a race against a delay, and "never answers" exercises the request's
 * timeout without a sleep.
 */
class ControllerWaitsHoldNoHandlerThreadTest {
    private static final String CLUSTER_ID = "aDmInAsYnCcLuStErId00w";
    private static final String ORDERS = "orders";
    private static final UUID ORDERS_ID = UUID.fromString("0e2c6f1a-3b7d-4c8e-9f10-2a3b4c5d6e7f");
    private static final Duration ANSWER_WITHIN = Duration.ofSeconds(10);

    private final ManualController controller = new ManualController();
    private final AtomicReference<MetadataImage> image = new AtomicReference<>(MetadataImage.EMPTY);
    private KafkaServer server;
    private WireClient admin;
    private WireClient other;

    @BeforeEach
    void start() throws Exception {
        SocketServerConfig config = SocketServerConfig.fromProperties(Map.of(
                SocketServerConfig.LISTENERS, "PLAINTEXT://127.0.0.1:0",
                SocketServerConfig.NUM_IO_THREADS, "1"));
        List<ApiHandler> handlers = new ArrayList<>();
        handlers.add(new ApiVersionsHandler());
        MetadataSource metadata = new MetadataSource() {
            @Override
            public MetadataImage image() {
                return image.get();
            }

            @Override
            public void register(MetadataPublisher publisher) {
                // the test replaces whole images; nothing here follows deltas
            }
        };
        handlers.addAll(AdminHandlers.create(1, CLUSTER_ID, controller, metadata, Map.of(), () -> 1L));
        handlers.add(new DeleteTopicsHandler(controller, image::get));
        server = new KafkaServer(config, RequestHandlerRegistry.of(handlers));
        server.start();
        image.set(oneBrokerWithOrders(server.boundPort()));
        admin = new WireClient(server.boundPort());
        other = new WireClient(server.boundPort());
    }

    @AfterEach
    void stop() throws Exception {
        if (admin != null) {
            admin.close();
        }
        if (other != null) {
            other.close();
        }
        if (server != null) {
            server.close();
        }
    }

    /** One admin API that waits for the controller: its request, the call it makes, and how it answers. */
    enum PendingApi {
        CREATE_TOPICS(new CreateTopicsRequest().setTimeoutMs(30_000).setTopics(new ArrayList<>(List.of(
                new CreateTopicsRequest.CreatableTopic().setName("fresh").setNumPartitions(1)
                        .setReplicationFactor((short) 1)))), (short) 7, "createTopic",
                new CreateTopicResult(UUID.randomUUID(), 1, 1),
                r -> ((CreateTopicsResponse) r).topics().get(0).errorCode()),
        DELETE_TOPICS(new DeleteTopicsRequest().setTimeoutMs(30_000).setTopics(new ArrayList<>(List.of(
                new DeleteTopicsRequest.DeleteTopicState().setName(ORDERS)))), (short) 6, "deleteTopic", ORDERS_ID,
                r -> ((DeleteTopicsResponse) r).responses().get(0).errorCode()),
        CREATE_PARTITIONS(new CreatePartitionsRequest().setTimeoutMs(30_000).setTopics(new ArrayList<>(List.of(
                new CreatePartitionsRequest.CreatePartitionsTopic().setName(ORDERS).setCount(2)
                        .setAssignments(null)))), (short) 3, "createPartitions", null,
                r -> ((CreatePartitionsResponse) r).results().get(0).errorCode()),
        ALTER_CONFIGS(new AlterConfigsRequest().setResources(new ArrayList<>(List.of(
                new AlterConfigsRequest.AlterConfigsResource().setResourceType((byte) 2).setResourceName(ORDERS)
                        .setConfigs(new ArrayList<>(List.of(new AlterConfigsRequest.AlterableConfig()
                                .setName("retention.ms").setValue("1000"))))))), (short) 2,
                "incrementalAlterConfigs", null, r -> ((AlterConfigsResponse) r).responses().get(0).errorCode()),
        INCREMENTAL_ALTER_CONFIGS(new IncrementalAlterConfigsRequest().setResources(new ArrayList<>(List.of(
                new IncrementalAlterConfigsRequest.AlterConfigsResource().setResourceType((byte) 2)
                        .setResourceName(ORDERS).setConfigs(new ArrayList<>(List.of(
                                new IncrementalAlterConfigsRequest.AlterableConfig().setName("retention.ms")
                                        .setConfigOperation((byte) 0).setValue("1000"))))))), (short) 1,
                "incrementalAlterConfigs", null,
                r -> ((IncrementalAlterConfigsResponse) r).responses().get(0).errorCode()),
        ELECT_LEADERS(new ElectLeadersRequest().setTimeoutMs(30_000).setTopicPartitions(new ArrayList<>(List.of(
                new ElectLeadersRequest.TopicPartitions().setTopic(ORDERS).setPartitions(new ArrayList<>(List.of(0)))))),
                (short) 2, "electLeaders", Map.of(ORDERS, Map.of(0, ApiError.NONE)),
                r -> ((ElectLeadersResponse) r).replicaElectionResults().get(0).partitionResult().get(0).errorCode()),
        ALTER_PARTITION_REASSIGNMENTS(new AlterPartitionReassignmentsRequest().setTimeoutMs(30_000)
                .setTopics(new ArrayList<>(List.of(new AlterPartitionReassignmentsRequest.ReassignableTopic()
                        .setName(ORDERS).setPartitions(new ArrayList<>(List.of(
                                new AlterPartitionReassignmentsRequest.ReassignablePartition().setPartitionIndex(0)
                                        .setReplicas(new ArrayList<>(List.of(1))))))))), (short) 1,
                "alterPartitionReassignments", Map.of(ORDERS, Map.of(0, ApiError.NONE)),
                r -> ((AlterPartitionReassignmentsResponse) r).responses().get(0).partitions().get(0).errorCode());

        final ApiMessage request;
        final short version;
        final String controllerCall;
        final Object controllerAnswer;
        final Function<ApiMessage, Short> firstErrorCode;

        PendingApi(ApiMessage request, short version, String controllerCall, Object controllerAnswer,
                   Function<ApiMessage, Short> firstErrorCode) {
            this.request = request;
            this.version = version;
            this.controllerCall = controllerCall;
            this.controllerAnswer = controllerAnswer;
            this.firstErrorCode = firstErrorCode;
        }
    }

    @ParameterizedTest
    @EnumSource(PendingApi.class)
    void otherClientsAreAnsweredWhileTheControllerHasNotAnswered(PendingApi api) throws Exception {
        int correlationId = admin.sendRequest(api.request, api.version);
        ManualController.Call call = controller.nextCall();
        assertEquals(api.controllerCall, call.operation());

        // The only handler thread is free: another connection's requests are served meanwhile.
        assertTimeoutPreemptively(ANSWER_WITHIN, () -> {
            ApiVersionsResponse versions = other.send(new ApiVersionsRequest(), (short) 3);
            assertEquals(Errors.NONE.code(), versions.errorCode());
            MetadataResponse metadata = other.send(new MetadataRequest().setTopics(new ArrayList<>(List.of(
                    new MetadataRequest.MetadataRequestTopic().setName(ORDERS)))), (short) 12);
            assertEquals(Errors.NONE.code(), metadata.topics().get(0).errorCode());
        });
        assertFalse(call.answer().isDone(), "the controller has still not answered");

        call.answer().complete(api.controllerAnswer);
        ApiMessage response = admin.receiveResponse(ApiKey.forId(api.request.apiKey()), api.version, correlationId);
        assertEquals(Errors.NONE.code(), api.firstErrorCode.apply(response));
    }

    @Test
    void aTopicTheControllerDoesNotAnswerInTimeTimesOutAloneWithTheWaitItWasGiven() throws Exception {
        CreateTopicsRequest request = new CreateTopicsRequest().setTimeoutMs(300).setTopics(new ArrayList<>(List.of(
                new CreateTopicsRequest.CreatableTopic().setName("answered").setNumPartitions(1)
                        .setReplicationFactor((short) 1),
                new CreateTopicsRequest.CreatableTopic().setName("unanswered").setNumPartitions(1)
                        .setReplicationFactor((short) 1))));
        int correlationId = admin.sendRequest(request, (short) 7);
        ManualController.Call answered = controller.nextCall();
        ManualController.Call unanswered = controller.nextCall();
        UUID topicId = UUID.randomUUID();
        answered.answer().complete(new CreateTopicResult(topicId, 1, 1));

        CreateTopicsResponse response = admin.receiveResponse(ApiKey.CREATE_TOPICS, (short) 7, correlationId);
        CreateTopicsResponse.CreatableTopicResult ok = response.topics().get(0);
        assertEquals("answered", ok.name());
        assertEquals(Errors.NONE.code(), ok.errorCode());
        assertEquals(topicId, ok.topicId());
        assertTrue(ok.configs().stream().anyMatch(c -> c.name().equals("retention.ms")), "v5+ carries the configs");
        CreateTopicsResponse.CreatableTopicResult late = response.topics().get(1);
        assertEquals("unanswered", late.name());
        assertEquals(Errors.REQUEST_TIMED_OUT.code(), late.errorCode());
        assertEquals("the controller did not answer within 300 ms", late.errorMessage());
        assertEquals(new UUID(0L, 0L), late.topicId());
        assertFalse(unanswered.answer().isDone(), "the broker's timeout is its own, not the controller's");
    }

    @Test
    void deleteTopicsAndCreatePartitionsTimeOutWithTheRequestsWait() throws Exception {
        DeleteTopicsResponse deleted = admin.send(new DeleteTopicsRequest().setTimeoutMs(200).setTopics(
                new ArrayList<>(List.of(new DeleteTopicsRequest.DeleteTopicState().setName(ORDERS)))), (short) 6);
        assertEquals(Errors.REQUEST_TIMED_OUT.code(), deleted.responses().get(0).errorCode());
        assertEquals("the controller did not answer within 200 ms", deleted.responses().get(0).errorMessage());
        assertEquals(new UUID(0L, 0L), deleted.responses().get(0).topicId());

        CreatePartitionsResponse grown = admin.send(new CreatePartitionsRequest().setTimeoutMs(0).setTopics(
                new ArrayList<>(List.of(new CreatePartitionsRequest.CreatePartitionsTopic().setName(ORDERS)
                        .setCount(2).setAssignments(null)))), (short) 3);
        assertEquals(Errors.REQUEST_TIMED_OUT.code(), grown.results().get(0).errorCode());
        assertEquals("the controller did not answer within 0 ms", grown.results().get(0).errorMessage());
        assertEquals(List.of("deleteTopic", "createPartitions"),
                List.of(controller.nextCall().operation(), controller.nextCall().operation()));
    }

    @Test
    void validateOnlyConfigChangesNeverReachTheController() throws Exception {
        IncrementalAlterConfigsResponse response = admin.send(new IncrementalAlterConfigsRequest().setValidateOnly(true)
                .setResources(new ArrayList<>(List.of(new IncrementalAlterConfigsRequest.AlterConfigsResource()
                        .setResourceType((byte) 2).setResourceName(ORDERS).setConfigs(new ArrayList<>(List.of(
                                new IncrementalAlterConfigsRequest.AlterableConfig().setName("retention.ms")
                                        .setConfigOperation((byte) 0).setValue("1000"))))))), (short) 1);
        assertEquals(Errors.NONE.code(), response.responses().get(0).errorCode());
        assertNull(response.responses().get(0).errorMessage());
        assertNull(controller.calls.poll(), "nothing was sent to the controller");
    }

    @Test
    void aControllerFailureKeepsItsErrorAndMessage() throws Exception {
        int correlationId = admin.sendRequest(new CreateTopicsRequest().setTimeoutMs(30_000).setTopics(
                new ArrayList<>(List.of(new CreateTopicsRequest.CreatableTopic().setName(ORDERS).setNumPartitions(1)
                        .setReplicationFactor((short) 1)))), (short) 7);
        controller.nextCall().answer().completeExceptionally(new io.kraft.metadata.controller.ControllerException(
                Errors.TOPIC_ALREADY_EXISTS, "Topic orders already exists"));
        CreateTopicsResponse response = admin.receiveResponse(ApiKey.CREATE_TOPICS, (short) 7, correlationId);
        assertEquals(Errors.TOPIC_ALREADY_EXISTS.code(), response.topics().get(0).errorCode());
        assertEquals("Topic orders already exists", response.topics().get(0).errorMessage());
        assertEquals(-1, response.topics().get(0).numPartitions());
    }

    /** Broker 1 unfenced on PLAINTEXT at 127.0.0.1:{@code port}, leading the one partition of "orders". */
    private static MetadataImage oneBrokerWithOrders(int port) {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        delta.replay(MetadataRecords.of(RegisterBrokerRecord.newBuilder().setBrokerId(1)
                .setIncarnationId(Uuids.toProto(new UUID(0L, 1L))).setBrokerEpoch(1)
                .addListeners(BrokerEndpoint.newBuilder().setName("PLAINTEXT").setHost("127.0.0.1").setPort(port)
                        .setSecurityProtocol("PLAINTEXT"))
                .setFenced(false).build()), 0, 1);
        delta.replay(MetadataRecords.of(TopicRecord.newBuilder().setName(ORDERS).setTopicId(Uuids.toProto(ORDERS_ID))
                .build()), 1, 1);
        delta.replay(MetadataRecords.of(PartitionRecord.newBuilder().setTopicId(Uuids.toProto(ORDERS_ID))
                .setPartitionId(0).addReplicas(1).addIsr(1).setLeader(1).setLeaderEpoch(0).setPartitionEpoch(0)
                .build()), 2, 1);
        return delta.apply();
    }

    /** A controller that answers nothing by itself: each admin call waits in {@link #calls} for the test. */
    private static final class ManualController implements Controller {
        /** One call the broker made, with the answer the test completes (or never does). */
        record Call(String operation, CompletableFuture<Object> answer) {
        }

        final BlockingQueue<Call> calls = new LinkedBlockingQueue<>();

        /** The broker's next call, waiting for it to be made. */
        Call nextCall() throws InterruptedException {
            Call call = calls.poll(ANSWER_WITHIN.toMillis(), TimeUnit.MILLISECONDS);
            if (call == null) {
                throw new AssertionError("the broker made no controller call within " + ANSWER_WITHIN);
            }
            return call;
        }

        @SuppressWarnings("unchecked")
        private <T> CompletableFuture<T> pending(String operation) {
            CompletableFuture<Object> answer = new CompletableFuture<>();
            calls.add(new Call(operation, answer));
            return (CompletableFuture<T>) answer;
        }

        @Override
        public CompletableFuture<CreateTopicResult> createTopic(CreateTopicRequest request) {
            return pending("createTopic");
        }

        @Override
        public CompletableFuture<CreateTopicResult> validateCreateTopic(CreateTopicRequest request) {
            return pending("validateCreateTopic");
        }

        @Override
        public CompletableFuture<UUID> deleteTopic(String topicName) {
            return pending("deleteTopic");
        }

        @Override
        public CompletableFuture<Void> unregisterBroker(int brokerId) {
            return pending("unregisterBroker");
        }

        @Override
        public CompletableFuture<Void> createPartitions(String topicName, int totalCount,
                                                        List<List<Integer>> newAssignments) {
            return pending("createPartitions");
        }

        @Override
        public CompletableFuture<Void> validateCreatePartitions(String topicName, int totalCount,
                                                                List<List<Integer>> newAssignments) {
            return pending("validateCreatePartitions");
        }

        @Override
        public CompletableFuture<Void> incrementalAlterConfigs(ConfigResource resource,
                                                               Map<String, Optional<String>> changes) {
            return pending("incrementalAlterConfigs");
        }

        @Override
        public CompletableFuture<Map<String, Map<Integer, ApiError>>> electLeaders(
                ElectionType type, Optional<Map<String, Set<Integer>>> partitions) {
            return pending("electLeaders");
        }

        @Override
        public CompletableFuture<Map<String, Map<Integer, ApiError>>> alterPartitionReassignments(
                Map<String, Map<Integer, Optional<List<Integer>>>> targets, boolean allowReplicationFactorChange) {
            return pending("alterPartitionReassignments");
        }

        @Override
        public CompletableFuture<Long> registerBroker(BrokerRegistrationRequest request) {
            throw new UnsupportedOperationException("not a broker lifecycle test");
        }

        @Override
        public CompletableFuture<BrokerHeartbeatReply> heartbeat(BrokerHeartbeatRequest request) {
            throw new UnsupportedOperationException("not a broker lifecycle test");
        }

        @Override
        public CompletableFuture<PartitionRegistration> alterPartition(AlterPartitionRequest request) {
            throw new UnsupportedOperationException("not a replication test");
        }

        @Override
        public CompletableFuture<Map<io.kraft.metadata.image.TopicIdPartition, Errors>> assignReplicasToDirs(
                io.kraft.metadata.controller.AssignReplicasToDirsRequest request) {
            throw new UnsupportedOperationException("not a replication test");
        }

        @Override
        public CompletableFuture<ProducerIdBlock> allocateProducerIds(int brokerId, long brokerEpoch) {
            throw new UnsupportedOperationException("not a producer id test");
        }

        @Override
        public CompletableFuture<List<io.kraft.metadata.controller.ApiError>> createAcls(
                List<io.kraft.metadata.authorizer.StandardAcl> acls) {
            throw new UnsupportedOperationException("not an ACL test");
        }

        @Override
        public CompletableFuture<List<io.kraft.metadata.controller.ApiError>> alterClientQuotas(
                List<io.kraft.metadata.quota.ClientQuotaAlteration> entries, boolean validateOnly) {
            throw new UnsupportedOperationException("not a quota test");
        }

        @Override
        public CompletableFuture<List<io.kraft.metadata.controller.AclDeleteResult>> deleteAcls(
                List<io.kraft.metadata.authorizer.AclFilter> filters) {
            throw new UnsupportedOperationException("not an ACL test");
        }

        @Override
        public CompletableFuture<Map<String, io.kraft.metadata.controller.ApiError>> alterUserScramCredentials(
                List<io.kraft.metadata.controller.ScramAlteration> alterations) {
            throw new UnsupportedOperationException("not a SCRAM test");
        }

        @Override
        public CompletableFuture<io.kraft.metadata.controller.TransactionalProducer> initTransactionalProducer(
                String transactionalId, int timeoutMs, long producerId, short producerEpoch) {
            throw new UnsupportedOperationException("not a transaction test");
        }

        @Override
        public CompletableFuture<Map<String, io.kraft.metadata.controller.ApiError>> updateFeatures(
                Map<String, io.kraft.metadata.controller.FeatureControlManager.FeatureUpdate> updates,
                boolean validateOnly) {
            throw new UnsupportedOperationException("not a feature test");
        }

        @Override
        public CompletableFuture<Map<String, Map<Integer, io.kraft.storage.errors.Errors>>> addPartitionsToTransaction(
                String transactionalId, long producerId, short producerEpoch, Map<String, List<Integer>> partitions,
                int transactionVersion) {
            throw new UnsupportedOperationException("not a transaction test");
        }

        @Override
        public CompletableFuture<Void> addOffsetsToTransaction(String transactionalId, long producerId,
                                                               short producerEpoch, String groupId,
                                                               String offsetsTopic, int offsetsPartition,
                                                               int transactionVersion) {
            throw new UnsupportedOperationException("not a transaction test");
        }

        @Override
        public CompletableFuture<io.kraft.metadata.controller.TransactionalProducer> endTransaction(
                String transactionalId, long producerId, short producerEpoch, boolean commit, boolean bumpEpoch) {
            throw new UnsupportedOperationException("not a transaction test");
        }

        @Override
        public CompletableFuture<Void> transactionMarkersWritten(
                io.kraft.metadata.controller.TransactionMarkersWritten report) {
            throw new UnsupportedOperationException("not a transaction test");
        }
    }
}
