package io.kraft.server.grpc;

import io.grpc.stub.StreamObserver;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.controller.ApiError;
import io.kraft.metadata.controller.FeatureControlManager;
import io.kraft.metadata.controller.ElectionType;
import io.kraft.metadata.controller.BrokerHeartbeatReply;
import io.kraft.metadata.controller.BrokerRegistrationRequest;
import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.controller.CreateTopicRequest;
import io.kraft.metadata.controller.CreateTopicResult;
import io.kraft.metadata.controller.QuorumController;
import io.kraft.metadata.controller.ScramAlteration;
import io.kraft.metadata.controller.TransactionMarkersWritten;
import io.kraft.metadata.image.ConfigResource;
import io.kraft.metadata.image.Endpoint;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.proto.controller.AddOffsetsToTransactionRequest;
import io.kraft.proto.controller.AddPartitionsToTransactionRequest;
import io.kraft.proto.controller.AddPartitionsToTransactionResponse;
import io.kraft.proto.controller.AllocateProducerIdsRequest;
import io.kraft.proto.controller.AllocateProducerIdsResponse;
import io.kraft.proto.controller.AlterConfigsResource;
import io.kraft.proto.controller.AlterConfigsResourceResult;
import io.kraft.proto.controller.AlterPartitionRequest;
import io.kraft.proto.controller.AlterPartitionResponse;
import io.kraft.proto.controller.AssignReplicasToDirsResponse;
import io.kraft.proto.controller.AlterableConfig;
import io.kraft.proto.controller.BrokerHeartbeatRequest;
import io.kraft.proto.controller.BrokerHeartbeatResponse;
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
import io.kraft.proto.controller.AlterUserScramCredentialsRequest;
import io.kraft.proto.controller.AlterUserScramCredentialsResponse;
import io.kraft.proto.controller.IncrementalAlterConfigsRequest;
import io.kraft.proto.controller.IncrementalAlterConfigsResponse;
import io.kraft.proto.controller.InitTransactionalProducerRequest;
import io.kraft.proto.controller.InitTransactionalProducerResponse;
import io.kraft.proto.controller.NamedTopicPartitions;
import io.kraft.proto.controller.PartitionOperationResponse;
import io.kraft.proto.controller.RegisterBrokerRequest;
import io.kraft.proto.controller.RegisterBrokerResponse;
import io.kraft.proto.controller.TransactionMarkersWrittenRequest;
import io.kraft.proto.controller.TransactionPartitionResult;
import io.kraft.proto.controller.TransactionResponse;
import io.kraft.proto.controller.UserScramCredentialsResult;
import io.kraft.proto.metadata.BrokerIdList;
import io.kraft.raft.grpc.ControlPlanePeer;
import io.kraft.raft.grpc.SenderCheck;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.IntConsumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@code ControllerService} from a {@link QuorumController}: converts each request, waits for the
 * controller's answer without blocking a gRPC thread, and reports the end of a broker's heartbeat stream as
 * {@link QuorumController#connectionClosed}. NOT_CONTROLLER answers name the controller this member believes
 * active ({@code active_controller_id}), so callers go there directly. On a TLS control plane a request naming a
 * broker (registration, heartbeat, AlterPartition, AssignReplicasToDirs, producer ids, transaction markers) must
 * come from that broker's certificate ({@link SenderCheck}): else it ends with PERMISSION_DENIED and reaches no
 * controller.
 */
public final class ControllerGrpcService extends ControllerServiceGrpc.ControllerServiceImplBase {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerGrpcService.class);
    private final QuorumController controller;
    /** Each broker's newest heartbeat stream: the end of a stream it already replaced says nothing of its health. */
    private final ConcurrentHashMap<Integer, BrokerHeartbeatStream> latestStreams = new ConcurrentHashMap<>();

    private final SenderCheck senders;

    public ControllerGrpcService(QuorumController controller) {
        this.controller = controller;
        this.senders = new SenderCheck(controller.nodeId());
    }

    @Override
    public void registerBroker(RegisterBrokerRequest request, StreamObserver<RegisterBrokerResponse> observer) {
        if (senders.denied(observer, "RegisterBroker", request.getBrokerId())) {
            return;
        }
        CompletableFuture<Long> answer;
        try {
            ControllerRequestChecks.registerBroker(request);
            List<Endpoint> listeners = request.getListenersList().stream()
                    .map(e -> new Endpoint(e.getName(), e.getHost(), e.getPort(), e.getSecurityProtocol())).toList();
            answer = controller.registerBroker(new BrokerRegistrationRequest(request.getClusterId(),
                    request.getBrokerId(), Uuids.fromProto(request.getIncarnationId()), listeners,
                    request.hasRack() ? Optional.of(request.getRack()) : Optional.empty(),
                    request.getLogDirsList().stream().map(Uuids::fromProto).toList(),
                    request.hasPreviousBrokerEpoch() ? request.getPreviousBrokerEpoch()
                            : BrokerRegistrationRequest.PREVIOUS_EPOCH_UNKNOWN));
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(invalid(e));
        }
        reply(observer, answer, (epoch, error) -> {
            RegisterBrokerResponse.Builder response = RegisterBrokerResponse.newBuilder()
                    .setErrorCode(error.error().code()).setErrorMessage(message(error));
            if (epoch != null) {
                response.setBrokerEpoch(epoch);
            }
            hintIfNotController(error, response::setActiveControllerId);
            return response.build();
        });
    }

    @Override
    public StreamObserver<BrokerHeartbeatRequest> brokerHeartbeat(StreamObserver<BrokerHeartbeatResponse> observer) {
        return BrokerHeartbeatStream.open(observer, ControlPlanePeer.current(), controller, senders, latestStreams,
                this::toResponse);
    }

    private BrokerHeartbeatResponse toResponse(BrokerHeartbeatReply reply, Throwable failure) {
        ApiError error = errorOf(failure);
        BrokerHeartbeatResponse.Builder response = BrokerHeartbeatResponse.newBuilder()
                .setErrorCode(error.error().code()).setErrorMessage(message(error));
        if (reply != null) {
            response.setIsCaughtUp(reply.isCaughtUp()).setIsFenced(reply.isFenced())
                    .setShouldShutDown(reply.shouldShutDown());
        }
        hintIfNotController(error, response::setActiveControllerId);
        return response.build();
    }

    @Override
    public void createTopics(CreateTopicsRequest request, StreamObserver<CreateTopicsResponse> observer) {
        if (tooMany(observer, "topics", request.getTopicsCount())) {
            return;
        }
        List<CompletableFuture<CreatableTopicResult>> results = new ArrayList<>();
        for (CreatableTopic topic : request.getTopicsList()) {
            CompletableFuture<CreateTopicResult> answer;
            try {
                ControllerRequestChecks.creatableTopic(topic);
                Map<Integer, List<Integer>> assignments = new TreeMap<>();
                topic.getAssignmentsMap().forEach((partition, replicas) ->
                        assignments.put(partition, replicas.getBrokerIdsList()));
                CreateTopicRequest create = new CreateTopicRequest(topic.getName(), topic.getNumPartitions(),
                        topic.getReplicationFactor(), assignments, topic.getConfigsMap());
                answer = request.getValidateOnly() ? controller.validateCreateTopic(create)
                        : controller.createTopic(create);
            } catch (RuntimeException e) {
                answer = CompletableFuture.failedFuture(invalid(e));
            }
            results.add(answer.handle((created, failure) -> {
                ApiError error = errorOf(failure);
                CreatableTopicResult.Builder result = CreatableTopicResult.newBuilder().setName(topic.getName())
                        .setErrorCode(error.error().code()).setErrorMessage(message(error));
                if (created != null) {
                    result.setTopicId(Uuids.toProto(created.topicId())).setNumPartitions(created.numPartitions())
                            .setReplicationFactor(created.replicationFactor());
                }
                return result.build();
            }));
        }
        replyAll(observer, results, list -> {
            CreateTopicsResponse.Builder response = CreateTopicsResponse.newBuilder().addAllTopics(list);
            hintIfAnyNotController(list.stream().map(CreatableTopicResult::getErrorCode), response::setActiveControllerId);
            return response.build();
        });
    }

    @Override
    public void deleteTopics(DeleteTopicsRequest request, StreamObserver<DeleteTopicsResponse> observer) {
        if (tooMany(observer, "topic names", request.getNamesCount())) {
            return;
        }
        List<CompletableFuture<DeletableTopicResult>> results = new ArrayList<>();
        for (String name : request.getNamesList()) {
            results.add(controller.deleteTopic(name).handle((topicId, failure) -> {
                ApiError error = errorOf(failure);
                DeletableTopicResult.Builder result = DeletableTopicResult.newBuilder().setName(name)
                        .setErrorCode(error.error().code()).setErrorMessage(message(error));
                if (topicId != null) {
                    result.setTopicId(Uuids.toProto(topicId));
                }
                return result.build();
            }));
        }
        replyAll(observer, results, list -> {
            DeleteTopicsResponse.Builder response = DeleteTopicsResponse.newBuilder().addAllTopics(list);
            hintIfAnyNotController(list.stream().map(DeletableTopicResult::getErrorCode), response::setActiveControllerId);
            return response.build();
        });
    }

    @Override
    public void createPartitions(CreatePartitionsRequest request, StreamObserver<CreatePartitionsResponse> observer) {
        if (tooMany(observer, "topics", request.getTopicsCount())) {
            return;
        }
        List<CompletableFuture<CreatePartitionsTopicResult>> results = new ArrayList<>();
        for (CreatePartitionsTopic topic : request.getTopicsList()) {
            List<List<Integer>> assignments = topic.getNewAssignmentsList().stream()
                    .map(BrokerIdList::getBrokerIdsList).toList();
            CompletableFuture<Void> answer = request.getValidateOnly()
                    ? controller.validateCreatePartitions(topic.getName(), topic.getTotalCount(), assignments)
                    : controller.createPartitions(topic.getName(), topic.getTotalCount(), assignments);
            results.add(answer.handle((ignored, failure) -> {
                ApiError error = errorOf(failure);
                return CreatePartitionsTopicResult.newBuilder().setName(topic.getName())
                        .setErrorCode(error.error().code()).setErrorMessage(message(error)).build();
            }));
        }
        replyAll(observer, results, list -> {
            CreatePartitionsResponse.Builder response = CreatePartitionsResponse.newBuilder().addAllTopics(list);
            hintIfAnyNotController(list.stream().map(CreatePartitionsTopicResult::getErrorCode),
                    response::setActiveControllerId);
            return response.build();
        });
    }

    @Override
    public void alterPartition(AlterPartitionRequest request, StreamObserver<AlterPartitionResponse> observer) {
        if (senders.denied(observer, "AlterPartition", request.getBrokerId())) {
            return;
        }
        CompletableFuture<PartitionRegistration> answer;
        try {
            ControllerRequestChecks.alterPartition(request);
            answer = controller.alterPartition(new io.kraft.metadata.controller.AlterPartitionRequest(
                    request.getBrokerId(), request.getBrokerEpoch(), Uuids.fromProto(request.getTopicId()),
                    request.getPartitionId(), request.getLeaderEpoch(), request.getNewIsrList(),
                    request.getPartitionEpoch(), request.getNewIsrBrokerEpochsList()));
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(invalid(e));
        }
        reply(observer, answer, (partition, error) -> {
            AlterPartitionResponse.Builder response = AlterPartitionResponse.newBuilder()
                    .setErrorCode(error.error().code()).setErrorMessage(message(error));
            if (partition != null) {
                response.setLeader(partition.leader()).setLeaderEpoch(partition.leaderEpoch())
                        .addAllIsr(partition.isr()).setPartitionEpoch(partition.partitionEpoch())
                        .addAllReplicas(partition.replicas());
            }
            hintIfNotController(error, response::setActiveControllerId);
            return response.build();
        });
    }

    @Override
    public void assignReplicasToDirs(io.kraft.proto.controller.AssignReplicasToDirsRequest request,
                                     StreamObserver<AssignReplicasToDirsResponse> observer) {
        if (senders.denied(observer, "AssignReplicasToDirs", request.getBrokerId())) {
            return;
        }
        CompletableFuture<Map<TopicIdPartition, Errors>> answer;
        try {
            answer = controller.assignReplicasToDirs(DirectoryAssignmentMessages.request(request));
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(invalid(e));
        }
        reply(observer, answer, (results, error) -> {
            AssignReplicasToDirsResponse.Builder response = AssignReplicasToDirsResponse.newBuilder()
                    .setErrorCode(error.error().code()).setErrorMessage(message(error));
            if (results != null) {
                DirectoryAssignmentMessages.addResults(response, results);
            }
            hintIfNotController(error, response::setActiveControllerId);
            return response.build();
        });
    }

    @Override
    public void incrementalAlterConfigs(IncrementalAlterConfigsRequest request,
                                        StreamObserver<IncrementalAlterConfigsResponse> observer) {
        if (tooMany(observer, "config resources", request.getResourcesCount())) {
            return;
        }
        List<CompletableFuture<AlterConfigsResourceResult>> results = new ArrayList<>();
        for (AlterConfigsResource resource : request.getResourcesList()) {
            CompletableFuture<Void> answer;
            try {
                if (resource.getConfigsCount() > ControllerRequestChecks.MAX_CONFIGS_PER_ENTRY) {
                    throw new IllegalArgumentException(resource.getConfigsCount() + " configs, over "
                            + ControllerRequestChecks.MAX_CONFIGS_PER_ENTRY);
                }
                ConfigResource target = new ConfigResource(ConfigResource.Type.fromProto(resource.getResourceType()),
                        resource.getResourceName());
                Map<String, Optional<String>> changes = new LinkedHashMap<>();
                for (AlterableConfig config : resource.getConfigsList()) {
                    changes.put(config.getName(), config.hasValue() ? Optional.of(config.getValue()) : Optional.empty());
                }
                answer = controller.incrementalAlterConfigs(target, changes);
            } catch (RuntimeException e) {
                answer = CompletableFuture.failedFuture(invalid(e));
            }
            results.add(answer.handle((ignored, failure) -> {
                ApiError error = errorOf(failure);
                return AlterConfigsResourceResult.newBuilder().setResourceType(resource.getResourceType())
                        .setResourceName(resource.getResourceName()).setErrorCode(error.error().code())
                        .setErrorMessage(message(error)).build();
            }));
        }
        replyAll(observer, results, list -> {
            IncrementalAlterConfigsResponse.Builder response = IncrementalAlterConfigsResponse.newBuilder()
                    .addAllResources(list);
            hintIfAnyNotController(list.stream().map(AlterConfigsResourceResult::getErrorCode),
                    response::setActiveControllerId);
            return response.build();
        });
    }

    @Override
    public void createAcls(io.kraft.proto.controller.CreateAclsRequest request,
                           StreamObserver<io.kraft.proto.controller.CreateAclsResponse> observer) {
        if (tooMany(observer, "ACLs", request.getAclsCount())) {
            return;
        }
        reply(observer, controller.createAcls(request.getAclsList().stream().map(AclMessages::acl).toList()),
                (results, error) -> {
                    var response = io.kraft.proto.controller.CreateAclsResponse.newBuilder()
                            .setErrorCode(error.error().code()).setErrorMessage(message(error));
                    if (results != null) {
                        results.forEach(result -> response.addResults(AclMessages.result(result)));
                    }
                    hintIfNotController(error, response::setActiveControllerId);
                    return response.build();
                });
    }

    @Override
    public void alterClientQuotas(io.kraft.proto.controller.AlterClientQuotasRequest request,
                                  StreamObserver<io.kraft.proto.controller.AlterClientQuotasResponse> observer) {
        if (tooMany(observer, "client quota entries", request.getEntriesCount())) {
            return;
        }
        reply(observer, controller.alterClientQuotas(request.getEntriesList().stream()
                        .map(ClientQuotaMessages::alteration).toList(), request.getValidateOnly()),
                (results, error) -> {
                    var response = io.kraft.proto.controller.AlterClientQuotasResponse.newBuilder()
                            .setErrorCode(error.error().code()).setErrorMessage(message(error));
                    if (results != null) {
                        results.forEach(result -> response.addResults(ClientQuotaMessages.result(result)));
                    }
                    hintIfNotController(error, response::setActiveControllerId);
                    return response.build();
                });
    }

    @Override
    public void updateFeatures(io.kraft.proto.controller.UpdateFeaturesRequest request,
                               StreamObserver<io.kraft.proto.controller.UpdateFeaturesResponse> observer) {
        Map<String, FeatureControlManager.FeatureUpdate> updates = new LinkedHashMap<>();
        request.getUpdatesList().forEach(u -> updates.put(u.getFeature(),
                new FeatureControlManager.FeatureUpdate(u.getLevel(), u.getAllowDowngrade())));
        reply(observer, controller.updateFeatures(updates, request.getValidateOnly()), (results, error) -> {
            var response = io.kraft.proto.controller.UpdateFeaturesResponse.newBuilder()
                    .setErrorCode(error.error().code()).setErrorMessage(message(error));
            if (results != null) {
                results.forEach((name, result) -> response.addResults(io.kraft.proto.controller.FeatureUpdateResult
                        .newBuilder().setFeature(name).setErrorCode(result.error().code())
                        .setErrorMessage(result.message() == null ? "" : result.message())));
            }
            hintIfNotController(error, response::setActiveControllerId);
            return response.build();
        });
    }

    @Override
    public void deleteAcls(io.kraft.proto.controller.DeleteAclsRequest request,
                           StreamObserver<io.kraft.proto.controller.DeleteAclsResponse> observer) {
        if (tooMany(observer, "ACL filters", request.getFiltersCount())) {
            return;
        }
        reply(observer, controller.deleteAcls(request.getFiltersList().stream().map(AclMessages::filter).toList()),
                (results, error) -> {
                    var response = io.kraft.proto.controller.DeleteAclsResponse.newBuilder()
                            .setErrorCode(error.error().code()).setErrorMessage(message(error));
                    if (results != null) {
                        results.forEach(result -> response.addResults(AclMessages.deleteResult(result)));
                    }
                    hintIfNotController(error, response::setActiveControllerId);
                    return response.build();
                });
    }

    @Override
    public void alterUserScramCredentials(AlterUserScramCredentialsRequest request,
                                          StreamObserver<AlterUserScramCredentialsResponse> observer) {
        if (tooMany(observer, "SCRAM credential alterations", request.getAlterationsCount())) {
            return;
        }
        List<ScramAlteration> alterations = request.getAlterationsList().stream().map(a -> new ScramAlteration(
                a.getUser(), a.getMechanism() >= 0 && a.getMechanism() <= Byte.MAX_VALUE ? (byte) a.getMechanism() : 0,
                a.getDeletion(), a.getIterations(), a.getSalt().toByteArray(), a.getSaltedPassword().toByteArray()))
                .toList();
        List<String> users = alterations.stream().map(ScramAlteration::user).distinct().toList();
        reply(observer, controller.alterUserScramCredentials(alterations), (outcomes, error) -> {
            AlterUserScramCredentialsResponse.Builder response = AlterUserScramCredentialsResponse.newBuilder();
            for (String user : users) {
                ApiError outcome = outcomes == null ? error : outcomes.getOrDefault(user, error);
                response.addResults(UserScramCredentialsResult.newBuilder().setUser(user)
                        .setErrorCode(outcome.error().code()).setErrorMessage(message(outcome)));
            }
            hintIfNotController(error, response::setActiveControllerId);
            return response.build();
        });
    }

    @Override
    public void allocateProducerIds(AllocateProducerIdsRequest request,
                                    StreamObserver<AllocateProducerIdsResponse> observer) {
        if (senders.denied(observer, "AllocateProducerIds", request.getBrokerId())) {
            return;
        }
        CompletableFuture<io.kraft.metadata.controller.ProducerIdBlock> answer;
        try {
            ControllerRequestChecks.brokerIdAndEpoch(request.getBrokerId(), request.getBrokerEpoch());
            answer = controller.allocateProducerIds(request.getBrokerId(), request.getBrokerEpoch());
        } catch (IllegalArgumentException e) {
            answer = CompletableFuture.failedFuture(invalid(e));
        }
        reply(observer, answer,
                (block, error) -> {
                    AllocateProducerIdsResponse.Builder response = AllocateProducerIdsResponse.newBuilder()
                            .setErrorCode(error.error().code()).setErrorMessage(message(error));
                    if (block != null) {
                        response.setFirstProducerId(block.firstProducerId()).setSize(block.size());
                    }
                    hintIfNotController(error, response::setActiveControllerId);
                    return response.build();
                });
    }

    @Override
    public void unregisterBroker(io.kraft.proto.controller.UnregisterBrokerRequest request,
                                 StreamObserver<io.kraft.proto.controller.UnregisterBrokerResponse> observer) {
        reply(observer, controller.unregisterBroker(request.getBrokerId()), (ignored, error) -> {
            var response = io.kraft.proto.controller.UnregisterBrokerResponse.newBuilder()
                    .setErrorCode(error.error().code()).setErrorMessage(message(error));
            hintIfNotController(error, response::setActiveControllerId);
            return response.build();
        });
    }

    @Override
    public void electLeaders(io.kraft.proto.controller.ElectLeadersRequest request,
                             StreamObserver<PartitionOperationResponse> observer) {
        if (tooMany(observer, "partitions", request.getPartitionsList().stream()
                .mapToInt(NamedTopicPartitions::getPartitionsCount).sum())) {
            return;
        }
        CompletableFuture<Map<String, Map<Integer, ApiError>>> answer;
        try {
            answer = controller.electLeaders(ElectionType.forValue((byte) request.getElectionType()),
                    PartitionOperations.partitions(request));
        } catch (IllegalArgumentException e) {
            answer = CompletableFuture.failedFuture(invalid(e));
        }
        replyPartitions(observer, answer);
    }

    @Override
    public void alterPartitionReassignments(io.kraft.proto.controller.AlterPartitionReassignmentsRequest request,
                                            StreamObserver<PartitionOperationResponse> observer) {
        if (tooMany(observer, "partitions", request.getTargetsCount())) {
            return;
        }
        replyPartitions(observer, controller.alterPartitionReassignments(PartitionOperations.targets(request),
                request.getAllowReplicationFactorChange()));
    }

    private void replyPartitions(StreamObserver<PartitionOperationResponse> observer,
                                 CompletableFuture<Map<String, Map<Integer, ApiError>>> answer) {
        reply(observer, answer, (results, error) -> {
            PartitionOperationResponse.Builder response = PartitionOperations.response(results, error);
            hintIfNotController(error, response::setActiveControllerId);
            return response.build();
        });
    }

    // ---- transactions ---------------------------------------------------------------------------------------

    @Override
    public void initTransactionalProducer(InitTransactionalProducerRequest request,
                                          StreamObserver<InitTransactionalProducerResponse> observer) {
        reply(observer, controller.initTransactionalProducer(request.getTransactionalId(), request.getTimeoutMs(),
                request.getProducerId(), (short) request.getProducerEpoch()), (producer, error) -> {
                    // An answer that wrote records may still carry an error (CONCURRENT_TRANSACTIONS while fencing).
                    ApiError effective = error.isSuccess() && producer.error() != Errors.NONE
                            ? ApiError.of(producer.error(), null) : error;
                    InitTransactionalProducerResponse.Builder response = InitTransactionalProducerResponse.newBuilder()
                            .setErrorCode(effective.error().code()).setErrorMessage(message(effective));
                    if (effective.isSuccess()) {
                        response.setProducerId(producer.producerId()).setProducerEpoch(producer.producerEpoch());
                    }
                    hintIfNotController(effective, response::setActiveControllerId);
                    return response.build();
                });
    }

    @Override
    public void addPartitionsToTransaction(AddPartitionsToTransactionRequest request,
                                           StreamObserver<AddPartitionsToTransactionResponse> observer) {
        Map<String, List<Integer>> partitions = new LinkedHashMap<>();
        request.getTopicsList().forEach(t -> partitions.computeIfAbsent(t.getName(), n -> new ArrayList<>())
                .addAll(t.getPartitionsList()));
        reply(observer, controller.addPartitionsToTransaction(request.getTransactionalId(), request.getProducerId(),
                (short) request.getProducerEpoch(), partitions, Math.max(1, request.getTransactionVersion())),
                (results, error) -> {
                    AddPartitionsToTransactionResponse.Builder response = AddPartitionsToTransactionResponse.newBuilder()
                            .setErrorCode(error.error().code()).setErrorMessage(message(error));
                    if (results != null) {
                        results.forEach((topic, errors) -> errors.forEach((partition, partitionError) ->
                                response.addResults(TransactionPartitionResult.newBuilder().setTopic(topic)
                                        .setPartition(partition).setErrorCode(partitionError.code()))));
                    }
                    hintIfNotController(error, response::setActiveControllerId);
                    return response.build();
                });
    }

    @Override
    public void addOffsetsToTransaction(AddOffsetsToTransactionRequest request,
                                        StreamObserver<TransactionResponse> observer) {
        replyTransaction(observer, controller.addOffsetsToTransaction(request.getTransactionalId(),
                request.getProducerId(), (short) request.getProducerEpoch(), request.getGroupId(),
                request.getOffsetsTopic(), request.getOffsetsPartition(), Math.max(1, request.getTransactionVersion())));
    }

    @Override
    public void endTransaction(EndTransactionRequest request, StreamObserver<EndTransactionResponse> observer) {
        reply(observer, controller.endTransaction(request.getTransactionalId(), request.getProducerId(),
                (short) request.getProducerEpoch(), request.getCommit(), request.getBumpEpoch()), (producer, error) -> {
                    EndTransactionResponse.Builder response = EndTransactionResponse.newBuilder()
                            .setErrorCode(error.error().code()).setErrorMessage(message(error));
                    if (error.isSuccess()) {
                        response.setProducerId(producer.producerId()).setProducerEpoch(producer.producerEpoch());
                    }
                    hintIfNotController(error, response::setActiveControllerId);
                    return response.build();
                });
    }

    @Override
    public void transactionMarkersWritten(TransactionMarkersWrittenRequest request,
                                          StreamObserver<TransactionResponse> observer) {
        if (senders.denied(observer, "TransactionMarkersWritten", request.getBrokerId())) {
            return;
        }
        List<TopicIdPartition> partitions = new ArrayList<>();
        request.getPartitionsList().forEach(t -> t.getPartitionsList().forEach(p ->
                partitions.add(new TopicIdPartition(Uuids.fromProto(t.getTopicId()), p))));
        replyTransaction(observer, controller.transactionMarkersWritten(new TransactionMarkersWritten(
                request.getBrokerId(), request.getBrokerEpoch(), request.getTransactionalId(), request.getProducerId(),
                (short) request.getProducerEpoch(), request.getCommit(), partitions)));
    }

    private void replyTransaction(StreamObserver<TransactionResponse> observer, CompletableFuture<Void> answer) {
        reply(observer, answer, (ignored, error) -> {
            TransactionResponse.Builder response = TransactionResponse.newBuilder()
                    .setErrorCode(error.error().code()).setErrorMessage(message(error));
            hintIfNotController(error, response::setActiveControllerId);
            return response.build();
        });
    }

    // ---- helpers ------------------------------------------------------------------------------------------

    /** Builds a response from the answer (null on failure) and its error ({@link ApiError#NONE} on success). */
    private interface ResponseBuilder<T, R> {
        R build(T answer, ApiError error);
    }

    private static <T, R> void reply(StreamObserver<R> observer, CompletableFuture<T> answer, ResponseBuilder<T, R> builder) {
        answer.whenComplete((value, failure) -> {
            observer.onNext(builder.build(failure == null ? value : null, errorOf(failure)));
            observer.onCompleted();
        });
    }

    private static <T, R> void replyAll(StreamObserver<R> observer, List<CompletableFuture<T>> results,
                                        Function<List<T>, R> builder) {
        CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).whenComplete((ignored, failure) -> {
            observer.onNext(builder.apply(results.stream().map(CompletableFuture::join).toList()));
            observer.onCompleted();
        });
    }

    /** Names the controller this member believes active when the answer is NOT_CONTROLLER and it knows one. */
    private void hintIfNotController(ApiError error, IntConsumer setHint) {
        if (error.error() == Errors.NOT_CONTROLLER) {
            activeControllerHint().ifPresent(setHint);
        }
    }

    private void hintIfAnyNotController(Stream<Integer> errorCodes, IntConsumer setHint) {
        if (errorCodes.anyMatch(code -> code == Errors.NOT_CONTROLLER.code())) {
            activeControllerHint().ifPresent(setHint);
        }
    }

    /** The Raft leader this member last heard of: the active controller, or about to be once it has caught up. */
    private OptionalInt activeControllerHint() {
        return controller.leader().leaderId();
    }

    /**
     * Refuses a request with more entries than any real one has, before building a result per entry: the call
     * fails with INVALID_ARGUMENT.
     */
    private static boolean tooMany(StreamObserver<?> observer, String what, int count) {
        String problem = ControllerRequestChecks.entries(what, count);
        if (problem == null) {
            return false;
        }
        LOG.warn("Refused a controller request: {}", problem);
        observer.onError(io.grpc.Status.INVALID_ARGUMENT.withDescription(problem).asRuntimeException());
        return true;
    }

    static ControllerException invalid(RuntimeException e) {
        return new ControllerException(Errors.INVALID_REQUEST, e.getMessage());
    }

    private static ApiError errorOf(Throwable failure) {
        if (failure == null) {
            return ApiError.NONE;
        }
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof ControllerException controllerError) {
            return controllerError.apiError();
        }
        return ApiError.of(Errors.UNKNOWN_SERVER_ERROR, String.valueOf(cause.getMessage()));
    }

    private static String message(ApiError error) {
        return error.message() == null ? "" : error.message();
    }
}
