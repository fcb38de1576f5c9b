package io.kraft.broker.api.group;

import io.kraft.broker.group.GroupApi.PartitionCommit;
import io.kraft.broker.group.GroupApi.TxnCommitRequest;
import io.kraft.broker.group.GroupCoordinator;
import io.kraft.broker.group.GroupCoordinatorService;
import io.kraft.broker.group.OffsetKey;
import io.kraft.broker.group.OffsetsTopic;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.LogText;
import io.kraft.broker.protocol.message.TxnOffsetCommitRequest;
import io.kraft.broker.protocol.message.TxnOffsetCommitRequest.TxnOffsetCommitRequestPartition;
import io.kraft.broker.protocol.message.TxnOffsetCommitRequest.TxnOffsetCommitRequestTopic;
import io.kraft.broker.protocol.message.TxnOffsetCommitResponse;
import io.kraft.broker.protocol.message.TxnOffsetCommitResponse.TxnOffsetCommitResponsePartition;
import io.kraft.broker.protocol.message.TxnOffsetCommitResponse.TxnOffsetCommitResponseTopic;
import io.kraft.broker.txn.ImplicitTransactionAdds;
import io.kraft.broker.txn.TransactionVerifier;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.TopicImage;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers TxnOffsetCommit (v0-5): a transactional producer's {@code sendOffsetsToTransaction}. The group's
 * {@code __consumer_offsets} partition must be in the producer's open transaction at its producer id and epoch
 * (AddOffsetsToTxn put it there; checked against this broker's image as a transactional Produce is), then the group
 * coordinator checks the consumer's group metadata (v3+, KIP-447) and writes the offsets as the producer's
 * transactional records; they become the group's committed offsets when the transaction commits. A producer whose
 * epoch is stale gets INVALID_PRODUCER_EPOCH (every version knows it; clients treat it as fenced). v5+ comes from a
 * transaction protocol version 2 producer (KIP-890 part 2), which sends no AddOffsetsToTxn: the group joins its
 * transaction here ({@link ImplicitTransactionAdds}).
 */
public final class TxnOffsetCommitHandler
        implements AsyncRequestHandler<TxnOffsetCommitRequest, TxnOffsetCommitResponse> {
    private static final Logger LOG = LoggerFactory.getLogger(TxnOffsetCommitHandler.class);

    private final GroupCoordinatorService coordinator;
    private final TransactionVerifier verifier;
    private final Supplier<MetadataImage> images;
    /** Null: a v5+ commit's group must have been added as in v4 (no coordinator to add it). */
    private final ImplicitTransactionAdds implicitAdds;
    /** From this version the producer runs transaction protocol version 2 (KIP-890 part 2). */
    static final int IMPLICIT_ADD_SINCE = 5;

    public TxnOffsetCommitHandler(GroupCoordinatorService coordinator, TransactionVerifier verifier,
                                  Supplier<MetadataImage> images) {
        this(coordinator, verifier, images, null);
    }

    public TxnOffsetCommitHandler(GroupCoordinatorService coordinator, TransactionVerifier verifier,
                                  Supplier<MetadataImage> images, ImplicitTransactionAdds implicitAdds) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
        this.verifier = Objects.requireNonNull(verifier, "verifier");
        this.images = Objects.requireNonNull(images, "images");
        this.implicitAdds = implicitAdds;
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.TXN_OFFSET_COMMIT;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context,
                                                     ApiRequest<TxnOffsetCommitRequest> request) {
        TxnOffsetCommitRequest body = request.body();
        short version = request.version();
        List<PartitionCommit> partitions = new ArrayList<>();
        for (TxnOffsetCommitRequestTopic topic : body.topics()) {
            for (TxnOffsetCommitRequestPartition partition : topic.partitions()) {
                partitions.add(new PartitionCommit(new OffsetKey(topic.name(), partition.partitionIndex()),
                        partition.committedOffset(), version >= 2 ? partition.committedLeaderEpoch() : -1,
                        partition.committedMetadata()));
            }
        }
        TxnCommitRequest commit = new TxnCommitRequest(body.transactionalId(), body.groupId(), body.producerId(),
                body.producerEpoch(), version >= 3 ? body.generationIdOrMemberEpoch() : -1,
                version >= 3 ? body.memberId() : "", version >= 3 ? body.groupInstanceId() : null, partitions);
        if (commit.transactionalId() == null || commit.groupId() == null || commit.groupId().isEmpty()) {
            return answer(body, all(partitions, commit.groupId() == null || commit.groupId().isEmpty()
                    ? Errors.INVALID_GROUP_ID : Errors.INVALID_REQUEST));
        }
        if (context.authorizationEnabled()) {
            Map<OffsetKey, Errors> denied = denied(context, commit, partitions);
            if (denied != null) {
                return answer(body, denied);
            }
        }
        TopicImage offsets = images.get().topics().topic(OffsetsTopic.NAME);
        if (offsets == null || offsets.partitions().isEmpty()) {
            return answer(body, all(partitions, Errors.COORDINATOR_NOT_AVAILABLE));
        }
        int offsetsPartition = GroupCoordinator.partitionFor(commit.groupId(), offsets.partitions().size());
        if (verifier.isFenced(commit.transactionalId(), commit.producerId(), commit.producerEpoch())) {
            return answer(body, all(partitions, Errors.INVALID_PRODUCER_EPOCH));
        }
        CompletableFuture<Errors> addition = CompletableFuture.completedFuture(Errors.NONE);
        boolean adding = false;
        if (implicitAdds != null && version >= IMPLICIT_ADD_SINCE && !verifier.isInTransaction(
                commit.transactionalId(), commit.producerId(), commit.producerEpoch(), OffsetsTopic.NAME,
                offsetsPartition)) {
            adding = true;
            addition = implicitAdds.addGroup(commit.transactionalId(), commit.producerId(), commit.producerEpoch(),
                    commit.groupId(), OffsetsTopic.NAME, offsetsPartition);
        }
        boolean added = adding;
        CompletableFuture<Map<OffsetKey, Errors>> results = addition.thenCompose(error -> error == Errors.NONE
                ? verifiedCommit(commit, partitions, offsetsPartition, added)
                : CompletableFuture.completedFuture(all(partitions, forTxnOffsetCommit(error))));
        return results.thenApply(errors -> HandlerResponse.of(toResponse(body, errors)));
    }

    /**
     * A failed implicit add as TxnOffsetCommit answers it: fenced is INVALID_PRODUCER_EPOCH (as the image check
     * answers), a coordinator busy or out of reach COORDINATOR_LOAD_IN_PROGRESS, which clients retry.
     */
    private static Errors forTxnOffsetCommit(Errors error) {
        return switch (error) {
            case PRODUCER_FENCED -> Errors.INVALID_PRODUCER_EPOCH;
            case CONCURRENT_TRANSACTIONS, NOT_CONTROLLER, REQUEST_TIMED_OUT, UNKNOWN_SERVER_ERROR ->
                    Errors.COORDINATOR_LOAD_IN_PROGRESS;
            default -> error;
        };
    }

    private CompletableFuture<Map<OffsetKey, Errors>> verifiedCommit(TxnCommitRequest commit,
                                                                     List<PartitionCommit> partitions,
                                                                     int offsetsPartition, boolean added) {
        CompletableFuture<Boolean> verified = added
                ? verifier.verifyAdded(commit.transactionalId(), commit.producerId(), commit.producerEpoch(),
                        OffsetsTopic.NAME, offsetsPartition)
                : verifier.verify(commit.transactionalId(), commit.producerId(), commit.producerEpoch(),
                        OffsetsTopic.NAME, offsetsPartition);
        return verified.thenCompose(ok -> {
                    if (ok) {
                        return coordinator.commitTransactionalOffsets(commit);
                    }
                    Errors refusal = verifier.refusal(commit.transactionalId(), commit.producerId(),
                            commit.producerEpoch());
                    LOG.info("TxnOffsetCommit of transactional id {} (producer {} epoch {}) to group {} refused: "
                                    + "{}-{} is not in its open transaction ({})",
                            LogText.of(commit.transactionalId()), commit.producerId(), commit.producerEpoch(),
                            LogText.of(commit.groupId()), OffsetsTopic.NAME, offsetsPartition, refusal);
                    return CompletableFuture.completedFuture(all(partitions, refusal));
                });
    }

    /**
     * Null when the principal may write with the transactional id, read the group and read every topic; otherwise
     * the answer: the failed check's error for every partition, or for a topic check TOPIC_AUTHORIZATION_FAILED on
     * that topic's partitions and OPERATION_NOT_ATTEMPTED on the others (nothing is committed).
     */
    private static Map<OffsetKey, Errors> denied(RequestContext context, TxnCommitRequest commit,
                                                 List<PartitionCommit> partitions) {
        if (!context.authorize(AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, commit.transactionalId())) {
            return all(partitions, Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        }
        if (!context.authorize(AclOperation.READ, ResourceType.GROUP, commit.groupId())) {
            return all(partitions, Errors.GROUP_AUTHORIZATION_FAILED);
        }
        Map<String, Boolean> readable = new java.util.HashMap<>();
        for (PartitionCommit partition : partitions) {
            readable.computeIfAbsent(partition.partition().topic(),
                    topic -> context.authorize(AclOperation.READ, ResourceType.TOPIC, topic));
        }
        if (!readable.containsValue(false)) {
            return null;
        }
        Map<OffsetKey, Errors> errors = new LinkedHashMap<>();
        partitions.forEach(p -> errors.put(p.partition(), readable.get(p.partition().topic())
                ? Errors.OPERATION_NOT_ATTEMPTED : Errors.TOPIC_AUTHORIZATION_FAILED));
        return errors;
    }

    private static Map<OffsetKey, Errors> all(List<PartitionCommit> partitions, Errors error) {
        Map<OffsetKey, Errors> errors = new LinkedHashMap<>();
        partitions.forEach(p -> errors.put(p.partition(), error));
        return errors;
    }

    private static CompletableFuture<HandlerResponse> answer(TxnOffsetCommitRequest body, Map<OffsetKey, Errors> errors) {
        return CompletableFuture.completedFuture(HandlerResponse.of(toResponse(body, errors)));
    }

    private static TxnOffsetCommitResponse toResponse(TxnOffsetCommitRequest body, Map<OffsetKey, Errors> errors) {
        TxnOffsetCommitResponse response = new TxnOffsetCommitResponse();
        for (TxnOffsetCommitRequestTopic topic : body.topics()) {
            TxnOffsetCommitResponseTopic outTopic = new TxnOffsetCommitResponseTopic().setName(topic.name());
            response.topics().add(outTopic);
            for (TxnOffsetCommitRequestPartition partition : topic.partitions()) {
                Errors error = errors.getOrDefault(new OffsetKey(topic.name(), partition.partitionIndex()),
                        Errors.UNKNOWN_SERVER_ERROR);
                outTopic.partitions().add(new TxnOffsetCommitResponsePartition()
                        .setPartitionIndex(partition.partitionIndex())
                        .setErrorCode(error.code()));
            }
        }
        return response;
    }

    @Override
    public Optional<TxnOffsetCommitResponse> errorResponse(ApiRequest<TxnOffsetCommitRequest> request, Errors error) {
        Map<OffsetKey, Errors> errors = new LinkedHashMap<>();
        for (TxnOffsetCommitRequestTopic topic : request.body().topics()) {
            for (TxnOffsetCommitRequestPartition partition : topic.partitions()) {
                errors.put(new OffsetKey(topic.name(), partition.partitionIndex()), error);
            }
        }
        return Optional.of(toResponse(request.body(), errors));
    }
}
