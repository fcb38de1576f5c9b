package io.kraft.broker.api.txn;

import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.AddPartitionsToTxnRequest;
import io.kraft.broker.protocol.message.AddPartitionsToTxnResponse;
import io.kraft.metadata.controller.Controller;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.TopicIdPartition;
import io.kraft.metadata.image.TopicImage;
import io.kraft.metadata.image.TransactionMetadata;
import io.kraft.metadata.image.TransactionState;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.HashMap;
import java.util.Optional;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Answers AddPartitionsToTxn: v0-3 (one producer's transaction) are forwarded to the transaction coordinator; v4+
 * (KIP-890 part 1, broker to broker, several transactions) are forwarded per transaction too, except
 * {@code verify_only} ones, which are answered from this broker's image: a partition is NONE when it is in the
 * producer's open transaction at that producer id and epoch, INVALID_TXN_STATE otherwise.
 */
public final class AddPartitionsToTxnHandler
        implements AsyncRequestHandler<AddPartitionsToTxnRequest, AddPartitionsToTxnResponse> {
    /** AddPartitionsToTxn knows PRODUCER_FENCED from this version on (KIP-588). */
    static final int PRODUCER_FENCED_SINCE = 2;
    /** From v5 a broker's add (not verify_only) is a leader's for a version 2 Produce (KIP-890 part 2). */
    static final int IMPLICIT_ADD_SINCE = 5;

    private final Controller controller;
    private final Supplier<MetadataImage> images;

    public AddPartitionsToTxnHandler(Controller controller, Supplier<MetadataImage> images) {
        this.controller = Objects.requireNonNull(controller, "controller");
        this.images = Objects.requireNonNull(images, "images");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.ADD_PARTITIONS_TO_TXN;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context,
                                                     ApiRequest<AddPartitionsToTxnRequest> request) {
        AddPartitionsToTxnRequest body = request.body();
        short version = request.version();
        if (version <= 3) {
            Map<String, List<Integer>> partitions = partitions(body.v3AndBelowTopics());
            Optional<List<AddPartitionsToTxnResponse.AddPartitionsToTxnTopicResult>> denied =
                    denied(context, body.v3AndBelowTransactionalId(), partitions);
            if (denied.isPresent()) {
                return CompletableFuture.completedFuture(HandlerResponse.of(new AddPartitionsToTxnResponse()
                        .setResultsByTopicV3AndBelow(denied.get())));
            }
            return add(body.v3AndBelowTransactionalId(), body.v3AndBelowProducerId(), body.v3AndBelowProducerEpoch(),
                    partitions, version, 1).thenApply(results -> HandlerResponse.of(new AddPartitionsToTxnResponse()
                    .setResultsByTopicV3AndBelow(results)));
        }
        // v4+ is the brokers' own form (KIP-890): only a principal with ClusterAction may send it.
        if (!context.authorizeCluster(AclOperation.CLUSTER_ACTION)) {
            return CompletableFuture.completedFuture(HandlerResponse.of(new AddPartitionsToTxnResponse()
                    .setErrorCode(Errors.CLUSTER_AUTHORIZATION_FAILED.code())));
        }
        List<CompletableFuture<AddPartitionsToTxnResponse.AddPartitionsToTxnResult>> answers = new ArrayList<>();
        for (AddPartitionsToTxnRequest.AddPartitionsToTxnTransaction txn : body.transactions()) {
            Map<String, List<Integer>> partitions = partitions(txn.topics());
            CompletableFuture<List<AddPartitionsToTxnResponse.AddPartitionsToTxnTopicResult>> results = txn.verifyOnly()
                    ? CompletableFuture.completedFuture(verify(txn.transactionalId(), txn.producerId(),
                    txn.producerEpoch(), partitions))
                    : add(txn.transactionalId(), txn.producerId(), txn.producerEpoch(), partitions, version,
                    version >= IMPLICIT_ADD_SINCE ? 2 : 1);
            answers.add(results.thenApply(topicResults -> new AddPartitionsToTxnResponse.AddPartitionsToTxnResult()
                    .setTransactionalId(txn.transactionalId()).setTopicResults(topicResults)));
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(ignored ->
                HandlerResponse.of(new AddPartitionsToTxnResponse()
                        .setResultsByTransaction(answers.stream().map(CompletableFuture::join).toList())));
    }

    /**
     * The answer to a client that may not write with the transactional id (every partition
     * TRANSACTIONAL_ID_AUTHORIZATION_FAILED) or to some of the topics (those TOPIC_AUTHORIZATION_FAILED, the others
     * OPERATION_NOT_ATTEMPTED), as Kafka answers; empty when everything is allowed.
     */
    private static Optional<List<AddPartitionsToTxnResponse.AddPartitionsToTxnTopicResult>> denied(
            RequestContext context, String transactionalId, Map<String, List<Integer>> partitions) {
        if (!context.authorizationEnabled()) {
            return Optional.empty();
        }
        if (!context.authorize(AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactionalId)) {
            return Optional.of(results(partitions, (topic, partition) -> Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED));
        }
        Map<String, Boolean> writable = new HashMap<>();
        partitions.keySet().forEach(topic -> writable.put(topic,
                context.authorize(AclOperation.WRITE, ResourceType.TOPIC, topic)));
        if (!writable.containsValue(false)) {
            return Optional.empty();
        }
        return Optional.of(results(partitions, (topic, partition) -> writable.get(topic)
                ? Errors.OPERATION_NOT_ATTEMPTED : Errors.TOPIC_AUTHORIZATION_FAILED));
    }

    private CompletableFuture<List<AddPartitionsToTxnResponse.AddPartitionsToTxnTopicResult>> add(
            String transactionalId, long producerId, short producerEpoch, Map<String, List<Integer>> partitions,
            short version, int transactionVersion) {
        return controller.addPartitionsToTransaction(transactionalId, producerId, producerEpoch, partitions,
                        transactionVersion)
                .handle((errors, failure) -> {
                    if (failure != null) {
                        Errors error = TransactionErrors.forClient(TransactionErrors.of(failure), version,
                                PRODUCER_FENCED_SINCE);
                        return results(partitions, (topic, partition) -> error);
                    }
                    return results(partitions, (topic, partition) ->
                            errors.getOrDefault(topic, Map.of()).getOrDefault(partition, Errors.UNKNOWN_SERVER_ERROR));
                });
    }

    private List<AddPartitionsToTxnResponse.AddPartitionsToTxnTopicResult> verify(
            String transactionalId, long producerId, short producerEpoch, Map<String, List<Integer>> partitions) {
        MetadataImage image = images.get();
        TransactionMetadata txn = image.transactions().transaction(transactionalId);
        boolean open = txn != null && txn.state() == TransactionState.ONGOING && txn.producerId() == producerId
                && txn.producerEpoch() == producerEpoch;
        return results(partitions, (topicName, partition) -> {
            TopicImage topic = image.topics().topic(topicName);
            if (topic == null || topic.partition(partition) == null) {
                return Errors.UNKNOWN_TOPIC_OR_PARTITION;
            }
            return open && txn.partitions().contains(new TopicIdPartition(topic.id(), partition)) ? Errors.NONE
                    : Errors.INVALID_TXN_STATE;
        });
    }

    @FunctionalInterface
    private interface PartitionError {
        Errors of(String topic, int partition);
    }

    private static List<AddPartitionsToTxnResponse.AddPartitionsToTxnTopicResult> results(
            Map<String, List<Integer>> partitions, PartitionError error) {
        List<AddPartitionsToTxnResponse.AddPartitionsToTxnTopicResult> results = new ArrayList<>();
        partitions.forEach((topic, ids) -> {
            AddPartitionsToTxnResponse.AddPartitionsToTxnTopicResult result =
                    new AddPartitionsToTxnResponse.AddPartitionsToTxnTopicResult().setName(topic);
            for (int partition : ids) {
                result.resultsByPartition().add(new AddPartitionsToTxnResponse.AddPartitionsToTxnPartitionResult()
                        .setPartitionIndex(partition).setPartitionErrorCode(error.of(topic, partition).code()));
            }
            results.add(result);
        });
        return results;
    }

    private static Map<String, List<Integer>> partitions(List<AddPartitionsToTxnRequest.AddPartitionsToTxnTopic> topics) {
        Map<String, List<Integer>> partitions = new LinkedHashMap<>();
        for (AddPartitionsToTxnRequest.AddPartitionsToTxnTopic topic : topics) {
            List<Integer> ids = partitions.computeIfAbsent(topic.name(), t -> new ArrayList<>());
            for (int partition : topic.partitions()) {
                if (!ids.contains(partition)) {
                    ids.add(partition);
                }
            }
        }
        return partitions;
    }
}
