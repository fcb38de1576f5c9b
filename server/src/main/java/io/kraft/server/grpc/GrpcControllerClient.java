package io.kraft.server.grpc;

import static io.kraft.server.grpc.ControllerAttempt.decode;

import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.kraft.raft.VoterSet;
import io.kraft.raft.grpc.TransportSecurity;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.controller.AlterPartitionRequest;
import io.kraft.metadata.controller.AssignReplicasToDirsRequest;
import io.kraft.metadata.controller.BrokerHeartbeatReply;
import io.kraft.metadata.controller.BrokerHeartbeatRequest;
import io.kraft.metadata.controller.OfflineLogDir;
import io.kraft.metadata.controller.BrokerRegistrationRequest;
import io.kraft.metadata.authorizer.AclFilter;
import io.kraft.metadata.authorizer.StandardAcl;
import io.kraft.metadata.controller.AclDeleteResult;
import io.kraft.metadata.controller.ApiError;
import io.kraft.metadata.controller.FeatureControlManager;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.controller.ElectionType;
import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.controller.CreateTopicRequest;
import io.kraft.metadata.controller.CreateTopicResult;
import io.kraft.metadata.controller.ProducerIdBlock;
import io.kraft.metadata.controller.ScramAlteration;
import io.kraft.metadata.controller.TransactionMarkersWritten;
import io.kraft.metadata.controller.TransactionalProducer;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.proto.controller.AddOffsetsToTransactionRequest;
import io.kraft.proto.controller.AddPartitionsToTransactionRequest;
import io.kraft.proto.controller.AddPartitionsToTransactionResponse;
import io.kraft.proto.controller.AllocateProducerIdsRequest;
import io.kraft.proto.controller.AlterUserScramCredentialsRequest;
import io.kraft.proto.controller.AlterUserScramCredentialsResponse;
import io.kraft.proto.controller.AllocateProducerIdsResponse;
import io.kraft.proto.controller.AlterConfigsResource;
import io.kraft.proto.controller.AlterConfigsResourceResult;
import io.kraft.proto.controller.AlterPartitionResponse;
import io.kraft.proto.controller.AssignReplicasToDirsResponse;
import io.kraft.proto.controller.AlterableConfig;
import io.kraft.proto.controller.ControllerServiceGrpc;
import io.kraft.proto.controller.CreatableTopic;
import io.kraft.proto.controller.CreatableTopicResult;
import io.kraft.proto.controller.CreatePartitionsRequest;
import io.kraft.proto.controller.CreatePartitionsResponse;
import io.kraft.proto.controller.CreatePartitionsTopic;
import io.kraft.proto.controller.CreatePartitionsTopicResult;
import io.kraft.proto.controller.CreateTopicsRequest;
import io.kraft.proto.controller.CreateTopicsResponse;
import io.kraft.proto.controller.DeletableTopicResult;
import io.kraft.proto.controller.DeleteTopicsRequest;
import io.kraft.proto.controller.DeleteTopicsResponse;
import io.kraft.proto.controller.EndTransactionRequest;
import io.kraft.proto.controller.EndTransactionResponse;
import io.kraft.proto.controller.IncrementalAlterConfigsRequest;
import io.kraft.proto.controller.IncrementalAlterConfigsResponse;
import io.kraft.proto.controller.PartitionId;
import io.kraft.proto.controller.PartitionOperationResponse;
import io.kraft.proto.controller.InitTransactionalProducerRequest;
import io.kraft.proto.controller.InitTransactionalProducerResponse;
import io.kraft.proto.controller.RegisterBrokerRequest;
import io.kraft.proto.controller.RegisterBrokerResponse;
import io.kraft.proto.controller.TransactionMarkersWrittenRequest;
import io.kraft.proto.controller.TransactionResponse;
import io.kraft.proto.controller.TransactionTopic;
import io.kraft.proto.metadata.BrokerIdList;
import io.kraft.proto.metadata.TopicPartitions;
import io.kraft.server.grpc.ControllerAttempt.Answered;
import io.kraft.server.grpc.ControllerAttempt.Redirect;
import io.kraft.server.grpc.ControllerAttempt.Refused;
import io.kraft.storage.errors.Errors;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link Controller} over the gRPC control plane, for nodes whose broker does not run next to the active
 * controller. It sends each request to the controller it believes active; a NOT_CONTROLLER answer names the one
 * the answering voter believes active, and the request goes there, otherwise (no hint, or an unreachable voter)
 * to the next voter after a growing backoff, until the request's deadline. Answers and failures are the same
 * values and {@link ControllerException}s (with the same {@link Errors}) the in-process controller gives; a
 * request no active controller answered in time fails with {@link Errors#NOT_CONTROLLER}, which callers treat as
 * retriable.
 *
 * <p>Heartbeats travel on one long-lived bidirectional stream to the active controller, so the controller sees the
 * broker's death the moment its connection closes. A stream that breaks after it had worked is re-opened at once
 * with the last heartbeat, so a controller failover does not leave the broker without a stream for a whole
 * heartbeat interval.
 */
public final class GrpcControllerClient implements Controller, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GrpcControllerClient.class);
    /** How long a request is retried against the voters before it fails with NOT_CONTROLLER. */
    public static final long DEFAULT_REQUEST_DEADLINE_MS = 30_000;

    private final VoterAddressBook voters;
    private final long requestDeadlineMs;
    private final long heartbeatDeadlineMs;
    private final Supplier<OptionalInt> leaderHint;
    private final Map<Integer, ManagedChannel> channels = new ConcurrentHashMap<>();
    private final TransportSecurity security;
    private final ScheduledExecutorService retryTimer;
    /** The controller requests go to first: the last one that answered, or the last one named active. */
    private volatile int target;
    private final Object heartbeatLock = new Object();
    private ControllerHeartbeatStream heartbeatStream;
    private volatile BrokerHeartbeatRequest lastHeartbeat;
    private volatile boolean closed;

    /**
     * @param voters              the controllers ({@code controller.quorum.voters})
     * @param requestDeadlineMs   how long a request is retried against the voters before it fails
     * @param heartbeatDeadlineMs the same for a heartbeat (a later heartbeat supersedes it anyway)
     * @param leaderHint          this node's own view of the Raft leader (e.g. its metadata follower's), asked when
     *                            a voter gives no hint; may answer empty
     */
    public GrpcControllerClient(Map<Integer, InetSocketAddress> voters, long requestDeadlineMs, long heartbeatDeadlineMs,
                                Supplier<OptionalInt> leaderHint) {
        this(voters, requestDeadlineMs, heartbeatDeadlineMs, leaderHint, TransportSecurity.plaintext());
    }

    /** As above, connecting with {@code security} (the node's control-plane TLS and certificate). */
    public GrpcControllerClient(Map<Integer, InetSocketAddress> voters, long requestDeadlineMs, long heartbeatDeadlineMs,
                                Supplier<OptionalInt> leaderHint, TransportSecurity security) {
        this.security = security;
        if (voters.isEmpty()) {
            throw new IllegalArgumentException("a controller client needs at least one voter");
        }
        if (requestDeadlineMs <= 0 || heartbeatDeadlineMs <= 0) {
            throw new IllegalArgumentException("deadlines must be positive: request " + requestDeadlineMs
                    + " ms, heartbeat " + heartbeatDeadlineMs + " ms");
        }
        this.voters = new VoterAddressBook(voters);
        this.requestDeadlineMs = requestDeadlineMs;
        this.heartbeatDeadlineMs = heartbeatDeadlineMs;
        this.leaderHint = leaderHint;
        this.target = leaderHint.get().stream().filter(voters::containsKey).findFirst()
                .orElse(this.voters.ids().get(0));
        this.retryTimer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "controller-client-retries");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** A client with the default request deadline, heartbeats retried for 2 s, and no leader hint of its own. */
    public GrpcControllerClient(Map<Integer, InetSocketAddress> voters) {
        this(voters, DEFAULT_REQUEST_DEADLINE_MS, 2_000, OptionalInt::empty);
    }

    /** The controller the next request goes to first (for logs and tests). */
    public int currentTarget() {
        return target;
    }

    // ---- requests -------------------------------------------------------------------------------------------

    @Override
    public CompletableFuture<Long> registerBroker(BrokerRegistrationRequest request) {
        RegisterBrokerRequest.Builder proto = RegisterBrokerRequest.newBuilder().setClusterId(request.clusterId())
                .setBrokerId(request.brokerId()).setIncarnationId(Uuids.toProto(request.incarnationId()));
        request.listeners().forEach(endpoint -> proto.addListeners(endpoint.toProto()));
        request.rack().ifPresent(proto::setRack);
        request.logDirs().forEach(dir -> proto.addLogDirs(Uuids.toProto(dir)));
        if (request.previousBrokerEpoch() != BrokerRegistrationRequest.PREVIOUS_EPOCH_UNKNOWN) {
            proto.setPreviousBrokerEpoch(request.previousBrokerEpoch());
        }
        RegisterBrokerRequest message = proto.build();
        return withRetries("RegisterBroker", requestDeadlineMs, (stub, observer) -> stub.registerBroker(message, observer),
                (RegisterBrokerResponse response) -> decode(response.getErrorCode(), response.getErrorMessage(),
                        response.hasActiveControllerId(), response.getActiveControllerId(), response::getBrokerEpoch));
    }

    @Override
    public CompletableFuture<BrokerHeartbeatReply> heartbeat(BrokerHeartbeatRequest request) {
        lastHeartbeat = request;
        io.kraft.proto.controller.BrokerHeartbeatRequest.Builder proto = io.kraft.proto.controller.BrokerHeartbeatRequest
                .newBuilder().setBrokerId(request.brokerId()).setBrokerEpoch(request.brokerEpoch())
                .setCurrentMetadataOffset(request.currentMetadataOffset()).setWantFence(request.wantFence())
                .setWantShutDown(request.wantShutDown());
        for (OfflineLogDir dir : request.offlineLogDirs()) {
            io.kraft.proto.controller.OfflineLogDir.Builder offline = io.kraft.proto.controller.OfflineLogDir
                    .newBuilder().setDirectoryId(Uuids.toProto(dir.directoryId()));
            dir.partitions().forEach(p -> offline.addPartitions(PartitionId.newBuilder()
                    .setTopicId(Uuids.toProto(p.topicId())).setPartitionId(p.partition())));
            proto.addOfflineLogDirs(offline);
        }
        io.kraft.proto.controller.BrokerHeartbeatRequest message = proto.build();
        CompletableFuture<BrokerHeartbeatReply> result = new CompletableFuture<>();
        attempt("BrokerHeartbeat", deadlineNanos(heartbeatDeadlineMs), target, 0, RetryPace.INITIAL_BACKOFF_MS, "", result,
                (controllerId, deadline) -> heartbeatStreamTo(controllerId).send(message)
                        .orTimeout(remainingMs(deadline), TimeUnit.MILLISECONDS)
                        .thenApply(response -> decode(response.getErrorCode(), response.getErrorMessage(),
                                response.hasActiveControllerId(), response.getActiveControllerId(),
                                () -> new BrokerHeartbeatReply(response.getIsCaughtUp(), response.getIsFenced(),
                                        response.getShouldShutDown()))));
        return result;
    }

    @Override
    public CompletableFuture<CreateTopicResult> createTopic(CreateTopicRequest request) {
        return createTopic(request, false);
    }

    @Override
    public CompletableFuture<CreateTopicResult> validateCreateTopic(CreateTopicRequest request) {
        return createTopic(request, true);
    }

    private CompletableFuture<CreateTopicResult> createTopic(CreateTopicRequest request, boolean validateOnly) {
        CreatableTopic.Builder topic = CreatableTopic.newBuilder().setName(request.name())
                .setNumPartitions(request.numPartitions()).setReplicationFactor(request.replicationFactor())
                .putAllConfigs(request.configs());
        request.assignments().forEach((partition, replicas) ->
                topic.putAssignments(partition, BrokerIdList.newBuilder().addAllBrokerIds(replicas).build()));
        CreateTopicsRequest message = CreateTopicsRequest.newBuilder().addTopics(topic).setValidateOnly(validateOnly)
                .build();
        return withRetries("CreateTopics", requestDeadlineMs, (stub, observer) -> stub.createTopics(message, observer),
                (CreateTopicsResponse response) -> {
                    CreatableTopicResult result = single(response.getTopicsList(), "CreateTopics");
                    return decode(result.getErrorCode(), result.getErrorMessage(), response.hasActiveControllerId(),
                            response.getActiveControllerId(), () -> new CreateTopicResult(
                                    Uuids.fromProto(result.getTopicId()), result.getNumPartitions(),
                                    result.getReplicationFactor()));
                });
    }

    @Override
    public CompletableFuture<UUID> deleteTopic(String topicName) {
        DeleteTopicsRequest message = DeleteTopicsRequest.newBuilder().addNames(topicName).build();
        return withRetries("DeleteTopics", requestDeadlineMs, (stub, observer) -> stub.deleteTopics(message, observer),
                (DeleteTopicsResponse response) -> {
                    DeletableTopicResult result = single(response.getTopicsList(), "DeleteTopics");
                    return decode(result.getErrorCode(), result.getErrorMessage(), response.hasActiveControllerId(),
                            response.getActiveControllerId(), () -> Uuids.fromProto(result.getTopicId()));
                });
    }

    @Override
    public CompletableFuture<Void> createPartitions(String topicName, int totalCount, List<List<Integer>> newAssignments) {
        return createPartitions(topicName, totalCount, newAssignments, false);
    }

    @Override
    public CompletableFuture<Void> validateCreatePartitions(String topicName, int totalCount,
                                                            List<List<Integer>> newAssignments) {
        return createPartitions(topicName, totalCount, newAssignments, true);
    }

    private CompletableFuture<Void> createPartitions(String topicName, int totalCount, List<List<Integer>> newAssignments,
                                                     boolean validateOnly) {
        CreatePartitionsTopic.Builder topic = CreatePartitionsTopic.newBuilder().setName(topicName)
                .setTotalCount(totalCount);
        newAssignments.forEach(replicas -> topic.addNewAssignments(BrokerIdList.newBuilder().addAllBrokerIds(replicas)));
        CreatePartitionsRequest message = CreatePartitionsRequest.newBuilder().addTopics(topic)
                .setValidateOnly(validateOnly).build();
        return withRetries("CreatePartitions", requestDeadlineMs,
                (stub, observer) -> stub.createPartitions(message, observer),
                (CreatePartitionsResponse response) -> {
                    CreatePartitionsTopicResult result = single(response.getTopicsList(), "CreatePartitions");
                    return decode(result.getErrorCode(), result.getErrorMessage(), response.hasActiveControllerId(),
                            response.getActiveControllerId(), () -> null);
                });
    }

    @Override
    public CompletableFuture<PartitionRegistration> alterPartition(AlterPartitionRequest request) {
        io.kraft.proto.controller.AlterPartitionRequest message = io.kraft.proto.controller.AlterPartitionRequest
                .newBuilder().setBrokerId(request.brokerId()).setBrokerEpoch(request.brokerEpoch())
                .setTopicId(Uuids.toProto(request.topicId())).setPartitionId(request.partitionId())
                .setLeaderEpoch(request.leaderEpoch()).addAllNewIsr(request.newIsr())
                .addAllNewIsrBrokerEpochs(request.newIsrBrokerEpochs())
                .setPartitionEpoch(request.partitionEpoch()).build();
        return withRetries("AlterPartition", requestDeadlineMs, (stub, observer) -> stub.alterPartition(message, observer),
                (AlterPartitionResponse response) -> decode(response.getErrorCode(), response.getErrorMessage(),
                        response.hasActiveControllerId(), response.getActiveControllerId(),
                        () -> new PartitionRegistration(response.getReplicasList(), response.getIsrList(),
                                response.getLeader(), response.getLeaderEpoch(), response.getPartitionEpoch())));
    }

    @Override
    public CompletableFuture<Map<TopicIdPartition, Errors>> assignReplicasToDirs(AssignReplicasToDirsRequest request) {
        io.kraft.proto.controller.AssignReplicasToDirsRequest message = DirectoryAssignmentMessages.request(request);
        return withRetries("AssignReplicasToDirs", requestDeadlineMs,
                (stub, observer) -> stub.assignReplicasToDirs(message, observer),
                (AssignReplicasToDirsResponse response) -> decode(response.getErrorCode(), response.getErrorMessage(),
                        response.hasActiveControllerId(), response.getActiveControllerId(),
                        () -> DirectoryAssignmentMessages.results(response)));
    }

    @Override
    public CompletableFuture<Map<String, Map<Integer, ApiError>>> electLeaders(
            ElectionType type, Optional<Map<String, Set<Integer>>> partitions) {
        io.kraft.proto.controller.ElectLeadersRequest message = PartitionOperations.electLeaders(type, partitions);
        return withRetries("ElectLeaders", requestDeadlineMs, (stub, observer) -> stub.electLeaders(message, observer),
                this::decodePartitions);
    }

    @Override
    public CompletableFuture<Map<String, Map<Integer, ApiError>>> alterPartitionReassignments(
            Map<String, Map<Integer, Optional<List<Integer>>>> targets, boolean allowReplicationFactorChange) {
        io.kraft.proto.controller.AlterPartitionReassignmentsRequest message =
                PartitionOperations.alterReassignments(targets, allowReplicationFactorChange);
        return withRetries("AlterPartitionReassignments", requestDeadlineMs,
                (stub, observer) -> stub.alterPartitionReassignments(message, observer), this::decodePartitions);
    }

    private ControllerAttempt<Map<String, Map<Integer, ApiError>>> decodePartitions(
            PartitionOperationResponse response) {
        return decode(response.getErrorCode(), response.getErrorMessage(), response.hasActiveControllerId(),
                response.getActiveControllerId(), () -> PartitionOperations.results(response));
    }

    @Override
    public CompletableFuture<Void> incrementalAlterConfigs(ConfigResource resource, Map<String, Optional<String>> changes) {
        AlterConfigsResource.Builder proto = AlterConfigsResource.newBuilder()
                .setResourceType(resource.type().toProto()).setResourceName(resource.name());
        changes.forEach((key, value) -> {
            AlterableConfig.Builder config = AlterableConfig.newBuilder().setName(key);
            value.ifPresent(config::setValue);
            proto.addConfigs(config);
        });
        IncrementalAlterConfigsRequest message = IncrementalAlterConfigsRequest.newBuilder().addResources(proto).build();
        return withRetries("IncrementalAlterConfigs", requestDeadlineMs,
                (stub, observer) -> stub.incrementalAlterConfigs(message, observer),
                (IncrementalAlterConfigsResponse response) -> {
                    AlterConfigsResourceResult result = single(response.getResourcesList(), "IncrementalAlterConfigs");
                    return decode(result.getErrorCode(), result.getErrorMessage(), response.hasActiveControllerId(),
                            response.getActiveControllerId(), () -> null);
                });
    }

    @Override
    public CompletableFuture<List<ApiError>> createAcls(List<StandardAcl> acls) {
        var message = io.kraft.proto.controller.CreateAclsRequest.newBuilder()
                .addAllAcls(acls.stream().map(AclMessages::acl).toList()).build();
        return withRetries("CreateAcls", requestDeadlineMs, (stub, observer) -> stub.createAcls(message, observer),
                (io.kraft.proto.controller.CreateAclsResponse response) -> decode(response.getErrorCode(),
                        response.getErrorMessage(), response.hasActiveControllerId(), response.getActiveControllerId(),
                        () -> response.getResultsList().stream().map(AclMessages::result).toList()));
    }

    @Override
    public CompletableFuture<List<ApiError>> alterClientQuotas(
            List<io.kraft.metadata.quota.ClientQuotaAlteration> entries, boolean validateOnly) {
        var message = io.kraft.proto.controller.AlterClientQuotasRequest.newBuilder()
                .addAllEntries(entries.stream().map(ClientQuotaMessages::entry).toList())
                .setValidateOnly(validateOnly).build();
        return withRetries("AlterClientQuotas", requestDeadlineMs,
                (stub, observer) -> stub.alterClientQuotas(message, observer),
                (io.kraft.proto.controller.AlterClientQuotasResponse response) -> decode(response.getErrorCode(),
                        response.getErrorMessage(), response.hasActiveControllerId(), response.getActiveControllerId(),
                        () -> response.getResultsList().stream().map(ClientQuotaMessages::result).toList()));
    }

    @Override
    public CompletableFuture<Map<String, ApiError>> updateFeatures(
            Map<String, FeatureControlManager.FeatureUpdate> updates, boolean validateOnly) {
        var message = io.kraft.proto.controller.UpdateFeaturesRequest.newBuilder().setValidateOnly(validateOnly);
        updates.forEach((name, update) -> message.addUpdates(io.kraft.proto.controller.FeatureUpdate.newBuilder()
                .setFeature(name).setLevel(update.level()).setAllowDowngrade(update.allowDowngrade())));
        var request = message.build();
        return withRetries("UpdateFeatures", requestDeadlineMs, (stub, observer) -> stub.updateFeatures(request,
                        observer),
                (io.kraft.proto.controller.UpdateFeaturesResponse response) -> decode(response.getErrorCode(),
                        response.getErrorMessage(), response.hasActiveControllerId(), response.getActiveControllerId(),
                        () -> {
                            Map<String, ApiError> results = new LinkedHashMap<>();
                            response.getResultsList().forEach(r -> results.put(r.getFeature(), r.getErrorCode() == 0
                                    ? ApiError.NONE : ApiError.of(errorFor(r.getErrorCode()), r.getErrorMessage())));
                            return results;
                        }));
    }

    @Override
    public CompletableFuture<List<AclDeleteResult>> deleteAcls(List<AclFilter> filters) {
        var message = io.kraft.proto.controller.DeleteAclsRequest.newBuilder()
                .addAllFilters(filters.stream().map(AclMessages::filter).toList()).build();
        return withRetries("DeleteAcls", requestDeadlineMs, (stub, observer) -> stub.deleteAcls(message, observer),
                (io.kraft.proto.controller.DeleteAclsResponse response) -> decode(response.getErrorCode(),
                        response.getErrorMessage(), response.hasActiveControllerId(), response.getActiveControllerId(),
                        () -> response.getResultsList().stream().map(AclMessages::deleteResult).toList()));
    }

    @Override
    public CompletableFuture<Map<String, ApiError>> alterUserScramCredentials(List<ScramAlteration> alterations) {
        AlterUserScramCredentialsRequest request = ScramMessages.request(alterations);
        return withRetries("AlterUserScramCredentials", requestDeadlineMs,
                (stub, observer) -> stub.alterUserScramCredentials(request, observer),
                (AlterUserScramCredentialsResponse response) -> ScramMessages.notController(response)
                        .<ControllerAttempt<Map<String, ApiError>>>map(message -> decode(
                                Errors.NOT_CONTROLLER.code(), message, response.hasActiveControllerId(),
                                response.getActiveControllerId(), () -> null))
                        .orElseGet(() -> new Answered<>(ScramMessages.outcomes(response))));
    }

    @Override
    public CompletableFuture<Void> unregisterBroker(int brokerId) {
        var message = io.kraft.proto.controller.UnregisterBrokerRequest.newBuilder().setBrokerId(brokerId).build();
        return withRetries("UnregisterBroker", requestDeadlineMs,
                (stub, observer) -> stub.unregisterBroker(message, observer),
                (io.kraft.proto.controller.UnregisterBrokerResponse response) -> decode(response.getErrorCode(),
                        response.getErrorMessage(), response.hasActiveControllerId(), response.getActiveControllerId(),
                        () -> null));
    }

    @Override
    public CompletableFuture<ProducerIdBlock> allocateProducerIds(int brokerId, long brokerEpoch) {
        AllocateProducerIdsRequest message = AllocateProducerIdsRequest.newBuilder().setBrokerId(brokerId)
                .setBrokerEpoch(brokerEpoch).build();
        return withRetries("AllocateProducerIds", requestDeadlineMs,
                (stub, observer) -> stub.allocateProducerIds(message, observer),
                (AllocateProducerIdsResponse response) -> decode(response.getErrorCode(), response.getErrorMessage(),
                        response.hasActiveControllerId(), response.getActiveControllerId(),
                        () -> new ProducerIdBlock(brokerId, response.getFirstProducerId(), response.getSize())));
    }

    @Override
    public CompletableFuture<TransactionalProducer> initTransactionalProducer(String transactionalId, int timeoutMs,
                                                                             long producerId, short producerEpoch) {
        InitTransactionalProducerRequest message = InitTransactionalProducerRequest.newBuilder()
                .setTransactionalId(transactionalId).setTimeoutMs(timeoutMs).setProducerId(producerId)
                .setProducerEpoch(producerEpoch).build();
        return withRetries("InitTransactionalProducer", requestDeadlineMs,
                (stub, observer) -> stub.initTransactionalProducer(message, observer),
                (InitTransactionalProducerResponse response) -> decode(response.getErrorCode(),
                        response.getErrorMessage(), response.hasActiveControllerId(), response.getActiveControllerId(),
                        () -> TransactionalProducer.of(response.getProducerId(), (short) response.getProducerEpoch())));
    }

    @Override
    public CompletableFuture<Map<String, Map<Integer, Errors>>> addPartitionsToTransaction(
            String transactionalId, long producerId, short producerEpoch, Map<String, List<Integer>> partitions,
            int transactionVersion) {
        AddPartitionsToTransactionRequest.Builder message = AddPartitionsToTransactionRequest.newBuilder()
                .setTransactionalId(transactionalId).setProducerId(producerId).setProducerEpoch(producerEpoch)
                .setTransactionVersion(transactionVersion);
        partitions.forEach((topic, ids) -> message.addTopics(TransactionTopic.newBuilder().setName(topic)
                .addAllPartitions(ids)));
        AddPartitionsToTransactionRequest request = message.build();
        return withRetries("AddPartitionsToTransaction", requestDeadlineMs,
                (stub, observer) -> stub.addPartitionsToTransaction(request, observer),
                (AddPartitionsToTransactionResponse response) -> decode(response.getErrorCode(),
                        response.getErrorMessage(), response.hasActiveControllerId(), response.getActiveControllerId(),
                        () -> {
                            Map<String, Map<Integer, Errors>> results = new LinkedHashMap<>();
                            response.getResultsList().forEach(r -> results.computeIfAbsent(r.getTopic(),
                                    t -> new LinkedHashMap<>()).put(r.getPartition(),
                                    errorFor(r.getErrorCode())));
                            return results;
                        }));
    }

    @Override
    public CompletableFuture<Void> addOffsetsToTransaction(String transactionalId, long producerId,
                                                           short producerEpoch, String groupId, String offsetsTopic,
                                                           int offsetsPartition, int transactionVersion) {
        AddOffsetsToTransactionRequest message = AddOffsetsToTransactionRequest.newBuilder()
                .setTransactionalId(transactionalId).setProducerId(producerId).setProducerEpoch(producerEpoch)
                .setGroupId(groupId).setOffsetsTopic(offsetsTopic).setOffsetsPartition(offsetsPartition)
                .setTransactionVersion(transactionVersion).build();
        return withRetries("AddOffsetsToTransaction", requestDeadlineMs,
                (stub, observer) -> stub.addOffsetsToTransaction(message, observer), GrpcControllerClient::decodeVoid);
    }

    @Override
    public CompletableFuture<TransactionalProducer> endTransaction(String transactionalId, long producerId,
                                                                   short producerEpoch, boolean commit,
                                                                   boolean bumpEpoch) {
        EndTransactionRequest message = EndTransactionRequest.newBuilder().setTransactionalId(transactionalId)
                .setProducerId(producerId).setProducerEpoch(producerEpoch).setCommit(commit).setBumpEpoch(bumpEpoch)
                .build();
        return withRetries("EndTransaction", requestDeadlineMs,
                (stub, observer) -> stub.endTransaction(message, observer),
                (EndTransactionResponse response) -> decode(response.getErrorCode(), response.getErrorMessage(),
                        response.hasActiveControllerId(), response.getActiveControllerId(),
                        () -> TransactionalProducer.of(response.getProducerId(), (short) response.getProducerEpoch())));
    }

    @Override
    public CompletableFuture<Void> transactionMarkersWritten(TransactionMarkersWritten report) {
        TransactionMarkersWrittenRequest.Builder message = TransactionMarkersWrittenRequest.newBuilder()
                .setBrokerId(report.brokerId()).setBrokerEpoch(report.brokerEpoch())
                .setTransactionalId(report.transactionalId()).setProducerId(report.producerId())
                .setProducerEpoch(report.producerEpoch()).setCommit(report.commit());
        report.partitions().forEach(p -> message.addPartitions(TopicPartitions.newBuilder()
                .setTopicId(Uuids.toProto(p.topicId())).addPartitions(p.partition())));
        TransactionMarkersWrittenRequest request = message.build();
        return withRetries("TransactionMarkersWritten", requestDeadlineMs,
                (stub, observer) -> stub.transactionMarkersWritten(request, observer), GrpcControllerClient::decodeVoid);
    }

    private static ControllerAttempt<Void> decodeVoid(TransactionResponse response) {
        return decode(response.getErrorCode(), response.getErrorMessage(), response.hasActiveControllerId(),
                response.getActiveControllerId(), () -> null);
    }

    // ---- retries --------------------------------------------------------------------------------------------

    /** One attempt at the given controller, given the request's deadline (System.nanoTime based). */
    @FunctionalInterface
    private interface AttemptAt<T> {
        CompletableFuture<ControllerAttempt<T>> at(int controllerId, long deadlineNanos);
    }

    /** A unary RPC retried as described in the class comment. */
    private <R, T> CompletableFuture<T> withRetries(String rpc, long deadlineMs,
                                                    BiConsumer<ControllerServiceGrpc.ControllerServiceStub, StreamObserver<R>> call,
                                                    Function<R, ControllerAttempt<T>> decoder) {
        CompletableFuture<T> result = new CompletableFuture<>();
        attempt(rpc, deadlineNanos(deadlineMs), target, 0, RetryPace.INITIAL_BACKOFF_MS, "", result, (controllerId, deadline) -> {
            CompletableFuture<R> response = new CompletableFuture<>();
            call.accept(ControllerServiceGrpc.newStub(channel(controllerId))
                    .withDeadlineAfter(remainingMs(deadline), TimeUnit.MILLISECONDS), new UnaryAnswer<>(response));
            return response.thenApply(decoder);
        });
        return result;
    }

    private <T> void attempt(String rpc, long deadlineNanos, int controllerId, int hops, long backoffMs, String lastReason,
                             CompletableFuture<T> result, AttemptAt<T> attempt) {
        if (closed) {
            result.completeExceptionally(new ControllerException(Errors.NOT_CONTROLLER,
                    rpc + " not sent: the controller client is closed"));
            return;
        }
        if (remainingMs(deadlineNanos) <= 0) {
            result.completeExceptionally(new ControllerException(Errors.NOT_CONTROLLER, "No active controller among "
                    + voters.ids() + " answered " + rpc + " in time" + (lastReason.isEmpty() ? "" : ": " + lastReason)));
            return;
        }
        CompletableFuture<ControllerAttempt<T>> answer;
        try {
            answer = attempt.at(controllerId, deadlineNanos);
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        answer.whenComplete((outcome, failure) -> {
            ControllerAttempt<T> settled = failure == null ? outcome : transportFailure(controllerId, failure);
            if (settled instanceof Answered<T> answered) {
                target = controllerId;
                result.complete(answered.value());
            } else if (settled instanceof Refused<T> refused) {
                target = controllerId;
                result.completeExceptionally(refused.error());
            } else if (settled instanceof Redirect<T> redirect) {
                retryElsewhere(rpc, deadlineNanos, controllerId, hops, backoffMs, redirect, result, attempt);
            }
        });
    }

    private <T> void retryElsewhere(String rpc, long deadlineNanos, int controllerId, int hops, long backoffMs,
                                    Redirect<T> redirect, CompletableFuture<T> result, AttemptAt<T> attempt) {
        OptionalInt hint = redirect.hint().isPresent() ? redirect.hint() : leaderHint.get();
        boolean hinted = hint.isPresent() && hint.getAsInt() != controllerId && voters.contains(hint.getAsInt());
        int next;
        // Elected but not yet serving (it is catching up or rebuilding its state from the image): it will be
        // active shortly, so it is asked again at a short fixed pace rather than after a growing backoff that
        // would overshoot the moment it starts serving by up to a second.
        boolean claiming = !hinted && hint.isPresent() && hint.getAsInt() == controllerId;
        if (hinted) {
            next = hint.getAsInt();
        } else if (claiming) {
            next = controllerId;
        } else {
            List<Integer> voterIds = voters.ids();
            next = voterIds.get((voterIds.indexOf(controllerId) + 1) % voterIds.size());
        }
        target = next;
        RetryPace pace = RetryPace.after(hinted, claiming, hops, backoffMs);
        long delayMs = pace.delayMs();
        long nextBackoffMs = pace.nextBackoffMs();
        String reason = "controller " + controllerId + ": " + redirect.reason();
        LOG.debug("{} goes from controller {} to {} in {} ms ({})", rpc, controllerId, next, delayMs, reason);
        Runnable retry = () -> attempt(rpc, deadlineNanos, next, hops + 1, nextBackoffMs, reason, result, attempt);
        if (delayMs == 0) {
            retry.run();
            return;
        }
        try {
            retryTimer.schedule(retry, Math.min(delayMs, Math.max(1, remainingMs(deadlineNanos))), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(new ControllerException(Errors.NOT_CONTROLLER,
                    rpc + " abandoned: the controller client is closed"));
        }
    }

    /** A failed call: an unreachable or vanished controller means "try elsewhere"; running out of time is final. */
    private <T> ControllerAttempt<T> transportFailure(int controllerId, Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof ControllerException e) {
            return new Refused<>(e);
        }
        if (cause instanceof TimeoutException) {
            return new Redirect<>(OptionalInt.empty(), "no answer in time");
        }
        Status status = Status.fromThrowable(cause);
        if (status.getCode() == Status.Code.PERMISSION_DENIED || status.getCode() == Status.Code.UNAUTHENTICATED) {
            // The control plane refused this node's certificate: every controller will, so retrying cannot help.
            return new Refused<>(new ControllerException(Errors.CLUSTER_AUTHORIZATION_FAILED, "controller "
                    + controllerId + " refused this node: " + status.getDescription()));
        }
        if (status.getCode() == Status.Code.DEADLINE_EXCEEDED) {
            return new Redirect<>(OptionalInt.empty(), "no answer in time");
        }
        if (status.getCode() == Status.Code.UNAVAILABLE) {
            // Let the next attempt at this controller connect at once instead of after gRPC's own (long) backoff.
            ManagedChannel channel = channels.get(controllerId);
            if (channel != null && channel.getState(false) == ConnectivityState.TRANSIENT_FAILURE) {
                channel.resetConnectBackoff();
            }
        }
        return new Redirect<>(OptionalInt.empty(), status.getCode() + " " + String.valueOf(status.getDescription()));
    }

    /** The {@link Errors} value of a Kafka error code; a code this build does not know is an unknown server error. */
    static Errors errorFor(int code) {
        for (Errors error : Errors.values()) {
            if (error.code() == code) {
                return error;
            }
        }
        return Errors.UNKNOWN_SERVER_ERROR;
    }

    private static <E> E single(List<E> results, String rpc) {
        if (results.size() != 1) {
            throw new ControllerException(Errors.UNKNOWN_SERVER_ERROR, rpc + " answered " + results.size()
                    + " results to a request for one");
        }
        return results.get(0);
    }

    private static long deadlineNanos(long deadlineMs) {
        return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(deadlineMs);
    }

    private static long remainingMs(long deadlineNanos) {
        return TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
    }

    /**
     * Takes in the voter set's endpoints (KIP-853): a controller added later is asked once it is named active, and
     * one that moved is called at its new address.
     */
    public void votersChanged(VoterSet set) {
        for (int moved : voters.update(set)) {
            ManagedChannel stale = channels.remove(moved);
            if (stale != null) {
                stale.shutdown();
            }
        }
    }

    private ManagedChannel channel(int controllerId) {
        InetSocketAddress address = voters.get(controllerId);
        return channels.computeIfAbsent(controllerId, id -> security.channelBuilder(controllerId, address).build());
    }

    // ---- the heartbeat stream -------------------------------------------------------------------------------

    /** The open heartbeat stream to {@code controllerId}, opening one (and closing any other) if needed. */
    private ControllerHeartbeatStream heartbeatStreamTo(int controllerId) {
        ControllerHeartbeatStream replaced = null;
        ControllerHeartbeatStream current;
        synchronized (heartbeatLock) {
            if (heartbeatStream == null || heartbeatStream.ended() || heartbeatStream.controllerId() != controllerId) {
                replaced = heartbeatStream;
                heartbeatStream = new ControllerHeartbeatStream(controllerId, channel(controllerId),
                        this::heartbeatStreamBroke);
            }
            current = heartbeatStream;
        }
        if (replaced != null) {
            replaced.close();
        }
        return current;
    }

    /** A stream that had worked broke: re-open one at once with the last heartbeat rather than at the next interval. */
    private void heartbeatStreamBroke(ControllerHeartbeatStream stream) {
        BrokerHeartbeatRequest last = lastHeartbeat;
        synchronized (heartbeatLock) {
            if (closed || last == null || heartbeatStream != stream) {
                return;
            }
        }
        try {
            retryTimer.execute(() -> heartbeat(last));
        } catch (RejectedExecutionException e) {
            // closing
        }
    }

    /** Ends the heartbeat stream (the controller then sees this broker's connection close) and the channels. */
    @Override
    public void close() {
        ControllerHeartbeatStream stream;
        synchronized (heartbeatLock) {
            if (closed) {
                return;
            }
            closed = true;
            stream = heartbeatStream;
            heartbeatStream = null;
        }
        if (stream != null) {
            stream.close();
        }
        retryTimer.shutdownNow();
        for (ManagedChannel channel : channels.values()) {
            channel.shutdownNow();
        }
        for (ManagedChannel channel : channels.values()) {
            try {
                channel.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
