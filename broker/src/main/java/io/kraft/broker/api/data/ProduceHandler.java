package io.kraft.broker.api.data;

import io.kraft.broker.api.LeaderEndpoints;
import io.kraft.broker.api.TopicPartitions;
import io.kraft.broker.metrics.BrokerTopicMetrics;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.ProduceRequest;
import io.kraft.broker.protocol.message.ProduceRequest.PartitionProduceData;
import io.kraft.broker.protocol.message.ProduceRequest.TopicProduceData;
import io.kraft.broker.protocol.message.ProduceResponse;
import io.kraft.broker.protocol.message.ProduceResponse.BatchIndexAndErrorMessage;
import io.kraft.broker.protocol.message.ProduceResponse.NodeEndpoint;
import io.kraft.broker.protocol.message.ProduceResponse.PartitionProduceResponse;
import io.kraft.broker.protocol.message.ProduceResponse.TopicProduceResponse;
import io.kraft.broker.replica.PartitionProduceResult;
import io.kraft.broker.replica.ReplicaManager;
import io.kraft.broker.txn.ImplicitTransactionAdds;
import io.kraft.broker.txn.TransactionVerifier;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.RecordError;
import io.kraft.storage.log.TopicPartition;
import io.kraft.storage.record.RecordBatch;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * Answers Produce (v3-12) through the {@link ReplicaManager}: each partition's batches are appended as
 * leader and answered with their base offset, log-append time and log start offset, or an error. acks=0
 * answers nothing (a failed acks=0 request closes the connection, the only signal such a client gets),
 * acks=1 answers once written, acks=all once replicated to the in-sync replicas. Clients may not write to
 * internal topics. Partitions not led here carry the known leader (v10+) so the client can move at once.
 * Record batches go to the log as slices of the request's network buffer (no copy).
 *
 * <p>With a {@link TransactionVerifier}, a transactional batch is appended only to a partition in its producer's
 * open transaction (KIP-890 part 1: a late or stray batch cannot open a transaction nobody will end); one the
 * broker's image does not show yet waits for it, with its bytes copied out of the network buffer, and is refused
 * with INVALID_TXN_STATE if it does not come. The producer's later requests append after it
 * ({@link TransactionalAppendOrder}). A v12+ transactional Produce is a transaction protocol version 2 producer's
 * (KIP-890 part 2), which adds no partitions itself: a partition not in its open transaction is added by this leader
 * ({@link ImplicitTransactionAdds}) before the batch appends.
 */
public final class ProduceHandler implements AsyncRequestHandler<ProduceRequest, ProduceResponse> {
    private static final ByteBuffer NO_RECORDS = ByteBuffer.allocate(0);
    private static final CompletableFuture<Errors> VERIFIED = CompletableFuture.completedFuture(Errors.NONE);
    /** From this version a transactional Produce comes from a version 2 producer (KIP-890 part 2). */
    static final int IMPLICIT_ADD_SINCE = 12;
    /**
     * The longest an acks=all produce waits for replication, whatever its timeout_ms says (producers send their
     * request.timeout.ms, 30 s by default); beyond it the answer is REQUEST_TIMED_OUT and the producer retries.
     * Bounds how long a hostile client holds purgatory entries. Kafka has no such cap.
     */
    static final int TIMEOUT_CAP_MS = 300_000;

    private final ReplicaManager replicaManager;
    /** Null where no transaction coordinator exists (transactional batches are then not checked). */
    private final TransactionVerifier verifier;
    /** Null where no transaction coordinator exists. */
    private final ImplicitTransactionAdds implicitAdds;
    private final BrokerTopicMetrics topicMetrics;
    private final TransactionalAppendOrder appendOrder = new TransactionalAppendOrder();

    public ProduceHandler(ReplicaManager replicaManager) {
        this(replicaManager, null);
    }

    public ProduceHandler(ReplicaManager replicaManager, TransactionVerifier verifier) {
        this(replicaManager, verifier, null);
    }

    /** @param topicMetrics where appended messages and bytes are counted; null counts nothing */
    public ProduceHandler(ReplicaManager replicaManager, TransactionVerifier verifier,
                          BrokerTopicMetrics topicMetrics) {
        this(replicaManager, verifier, null, topicMetrics);
    }

    /** @param implicitAdds adds a version 2 producer's partitions to its transaction; null refuses them instead */
    public ProduceHandler(ReplicaManager replicaManager, TransactionVerifier verifier,
                          ImplicitTransactionAdds implicitAdds, BrokerTopicMetrics topicMetrics) {
        this.replicaManager = Objects.requireNonNull(replicaManager, "replicaManager");
        this.verifier = verifier;
        this.implicitAdds = implicitAdds;
        this.topicMetrics = topicMetrics;
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.PRODUCE;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<ProduceRequest> request) {
        ProduceRequest body = request.body();
        short acks = body.acks();
        if (body.transactionalId() != null
                && !context.authorize(AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, body.transactionalId())) {
            return CompletableFuture.completedFuture(HandlerResponse.of(allFailed(request,
                    Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, "not authorized to write with this transactional id")));
        }
        Map<TopicPartition, ByteBuffer> entries = new LinkedHashMap<>();
        Map<RequestedPartition, PartitionProduceResult> early = new HashMap<>();
        List<RequestedPartition> order = new ArrayList<>();
        for (TopicProduceData topic : body.topicData()) {
            String name = topic.name();
            // Idempotent or not, a producer needs WRITE on the topic (Kafka 3.0+, KIP-679).
            boolean authorized = name == null || context.authorize(AclOperation.WRITE, ResourceType.TOPIC, name);
            for (PartitionProduceData partition : topic.partitionData()) {
                RequestedPartition requested = new RequestedPartition(name, partition.index());
                order.add(requested);
                Optional<TopicPartition> tp = requested.toTopicPartition();
                ByteBuffer records = partition.records();
                if (!authorized) {
                    early.put(requested, PartitionProduceResult.failed(Errors.TOPIC_AUTHORIZATION_FAILED,
                            "not authorized to write to topic " + name));
                } else if (tp.isEmpty()) {
                    early.put(requested, PartitionProduceResult.failed(Errors.UNKNOWN_TOPIC_OR_PARTITION,
                            "no topic partition " + name + "-" + requested.partition()));
                } else if (entries.containsKey(tp.get())) {
                    early.put(requested, PartitionProduceResult.failed(Errors.INVALID_REQUEST,
                            "partition " + tp.get() + " appears twice in the request"));
                } else {
                    entries.put(tp.get(), records == null ? NO_RECORDS : records);
                }
            }
        }
        // Counted now: the records are views of the request's buffer, which is gone once handle returns.
        Map<TopicPartition, BatchSizes> sizes = topicMetrics == null ? Map.of() : BatchSizes.of(entries);
        long timeoutMs = cappedTimeoutMs(body.timeoutMs());
        CompletableFuture<Map<TopicPartition, PartitionProduceResult>> appended =
                verifier != null && body.transactionalId() != null
                        ? appendVerified(body.transactionalId(), timeoutMs, acks, entries,
                        implicitAdds != null && request.version() >= IMPLICIT_ADD_SINCE)
                        : replicaManager.appendRecords(timeoutMs, acks, false, entries);
        return appended.thenApply(results -> {
            if (topicMetrics != null) {
                count(early, results, sizes);
            }
            if (acks == 0) {
                boolean failed = !early.isEmpty() || results.values().stream().anyMatch(r -> r.error() != Errors.NONE);
                return failed ? HandlerResponse.closeConnection("an acks=0 produce failed") : HandlerResponse.none();
            }
            Map<RequestedPartition, PartitionProduceResult> all = new LinkedHashMap<>();
            for (RequestedPartition requested : order) {
                PartitionProduceResult result = early.get(requested);
                if (result == null) {
                    result = results.get(requested.toTopicPartition().orElseThrow());
                }
                all.put(requested, result);
            }
            return HandlerResponse.of(response(all, context.listenerName()));
        });
    }

    private CompletableFuture<Map<TopicPartition, PartitionProduceResult>> appendVerified(
            String transactionalId, long timeoutMs, short acks, Map<TopicPartition, ByteBuffer> entries,
            boolean implicitAdd) {
        // An earlier request of this producer still waiting: everything here waits for it too, or it would overtake.
        CompletableFuture<Void> before = appendOrder.waitingFor(transactionalId);
        Map<TopicPartition, ByteBuffer> now = new LinkedHashMap<>();
        Map<TopicPartition, ByteBuffer> later = new LinkedHashMap<>();
        Map<TopicPartition, CompletableFuture<Errors>> checks = new LinkedHashMap<>();
        Map<TopicPartition, BatchProducer> toAdd = new LinkedHashMap<>();
        entries.forEach((tp, records) -> {
            RecordBatch first = records.remaining() >= RecordBatch.HEADER_SIZE
                    ? new RecordBatch(records, records.position()) : null;
            CompletableFuture<Errors> check;
            if (first == null || !first.isTransactional() || first.isControl()) {
                check = VERIFIED;
            } else if (implicitAdd && !verifier.isInTransaction(transactionalId, first.producerId(),
                    first.producerEpoch(), tp.topic(), tp.partition())) {
                // Read now: the batch is a view of the request's buffer, which is gone once handle returns.
                toAdd.put(tp, new BatchProducer(first.producerId(), first.producerEpoch()));
                check = new CompletableFuture<>();
            } else {
                check = verified(transactionalId, new BatchProducer(first.producerId(), first.producerEpoch()), tp);
            }
            if (before == null && check.isDone() && check.join() == Errors.NONE) {
                now.put(tp, records);
            } else {
                // The request's buffer is only valid until handle returns.
                ByteBuffer copy = ByteBuffer.allocate(records.remaining());
                copy.put(records.duplicate()).flip();
                later.put(tp, copy);
                checks.put(tp, check);
            }
        });
        if (!toAdd.isEmpty()) {
            addImplicitly(transactionalId, toAdd, checks);
        }
        if (later.isEmpty()) {
            return replicaManager.appendRecords(timeoutMs, acks, false, now);
        }
        CompletableFuture<Void> handedOver = new CompletableFuture<>();
        appendOrder.waits(transactionalId, handedOver);
        List<CompletableFuture<?>> gates = new ArrayList<>(checks.values());
        if (before != null) {
            gates.add(before);
        }
        CompletableFuture<Map<TopicPartition, PartitionProduceResult>> first = now.isEmpty()
                ? CompletableFuture.completedFuture(Map.of()) : replicaManager.appendRecords(timeoutMs, acks, false, now);
        CompletableFuture<Map<TopicPartition, PartitionProduceResult>> second =
                CompletableFuture.allOf(gates.toArray(CompletableFuture[]::new)).thenCompose(ignored -> {
                    try {
                        return appendChecked(transactionalId, timeoutMs, acks, later, checks);
                    } finally {
                        // The records are in the log (or refused): the producer's next request may append.
                        handedOver.complete(null);
                    }
                });
        second.whenComplete((results, error) -> handedOver.complete(null));
        return first.thenCombine(second, (a, b) -> {
            Map<TopicPartition, PartitionProduceResult> all = new LinkedHashMap<>(a);
            all.putAll(b);
            return all;
        });
    }

    /** The producer id and epoch of a partition's first batch. */
    private record BatchProducer(long producerId, short producerEpoch) {
    }

    /** The image check of a partition the producer added itself (or that is already in its transaction). */
    private CompletableFuture<Errors> verified(String transactionalId, BatchProducer producer, TopicPartition tp) {
        return verifier.verify(transactionalId, producer.producerId(), producer.producerEpoch(), tp.topic(),
                tp.partition()).thenApply(ok -> ok ? Errors.NONE : Errors.INVALID_TXN_STATE);
    }

    /**
     * Version 2: one add of every partition of the request not in the producer's open transaction yet; each check
     * completes once the image shows its partition added, or with the add's error as a Produce answers it.
     */
    private void addImplicitly(String transactionalId, Map<TopicPartition, BatchProducer> toAdd,
                               Map<TopicPartition, CompletableFuture<Errors>> checks) {
        BatchProducer any = toAdd.values().iterator().next();
        Map<String, List<Integer>> partitions = new LinkedHashMap<>();
        toAdd.keySet().forEach(tp -> partitions.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(tp.partition()));
        implicitAdds.addPartitions(transactionalId, any.producerId(), any.producerEpoch(), partitions)
                .whenComplete((errors, failure) -> toAdd.forEach((tp, producer) -> {
                    CompletableFuture<Errors> check = checks.get(tp);
                    Errors error = failure != null ? Errors.UNKNOWN_SERVER_ERROR
                            : errors.getOrDefault(tp.topic(), Map.of()).getOrDefault(tp.partition(),
                            Errors.UNKNOWN_SERVER_ERROR);
                    if (error == Errors.NONE) {
                        verifier.verifyAdded(transactionalId, producer.producerId(), producer.producerEpoch(),
                                tp.topic(), tp.partition()).whenComplete((ok, f) -> check.complete(
                                f != null ? Errors.UNKNOWN_SERVER_ERROR : ok ? Errors.NONE : Errors.INVALID_TXN_STATE));
                    } else {
                        check.complete(forProduce(error));
                    }
                }));
    }

    /**
     * A failed add as a Produce answers it: a fenced producer gets INVALID_PRODUCER_EPOCH (what every Produce version
     * knows), a coordinator that is busy or out of reach NOT_ENOUGH_REPLICAS, which every client retries.
     */
    static Errors forProduce(Errors error) {
        return switch (error) {
            case PRODUCER_FENCED, INVALID_PRODUCER_EPOCH -> Errors.INVALID_PRODUCER_EPOCH;
            case CONCURRENT_TRANSACTIONS, COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR,
                 NOT_CONTROLLER, REQUEST_TIMED_OUT, OPERATION_NOT_ATTEMPTED, UNKNOWN_SERVER_ERROR ->
                    Errors.NOT_ENOUGH_REPLICAS;
            default -> error;
        };
    }

    /** Appends the partitions whose checks passed; the others are refused with their check's error. */
    private CompletableFuture<Map<TopicPartition, PartitionProduceResult>> appendChecked(
            String transactionalId, long timeoutMs, short acks, Map<TopicPartition, ByteBuffer> entries,
            Map<TopicPartition, CompletableFuture<Errors>> checks) {
        Map<TopicPartition, ByteBuffer> verified = new LinkedHashMap<>();
        Map<TopicPartition, PartitionProduceResult> refused = new LinkedHashMap<>();
        entries.forEach((tp, records) -> {
            Errors error = checks.get(tp).join();
            if (error == Errors.NONE) {
                verified.put(tp, records);
            } else {
                refused.put(tp, PartitionProduceResult.failed(error, error == Errors.INVALID_TXN_STATE
                        ? "partition " + tp + " is not in the open transaction of transactional id " + transactionalId
                        : "partition " + tp + " could not join the transaction of transactional id "
                        + transactionalId));
            }
        });
        if (verified.isEmpty()) {
            return CompletableFuture.completedFuture(refused);
        }
        return replicaManager.appendRecords(timeoutMs, acks, false, verified).thenApply(results -> {
            Map<TopicPartition, PartitionProduceResult> all = new LinkedHashMap<>(results);
            all.putAll(refused);
            return all;
        });
    }

    @Override
    public Optional<ProduceResponse> errorResponse(ApiRequest<ProduceRequest> request, Errors error) {
        return Optional.of(allFailed(request, error, "the broker failed to handle the produce request"));
    }

    private ProduceResponse allFailed(ApiRequest<ProduceRequest> request, Errors error, String message) {
        Map<RequestedPartition, PartitionProduceResult> all = new LinkedHashMap<>();
        for (TopicProduceData topic : request.body().topicData()) {
            for (PartitionProduceData partition : topic.partitionData()) {
                all.put(new RequestedPartition(topic.name(), partition.index()),
                        PartitionProduceResult.failed(error, message));
            }
        }
        return response(all, null);
    }

    private ProduceResponse response(Map<RequestedPartition, PartitionProduceResult> results, String listenerName) {
        MetadataImage image = replicaManager.image();
        ProduceResponse response = new ProduceResponse();
        Map<String, TopicProduceResponse> topics = new HashMap<>();
        TreeSet<Integer> leadersToDescribe = new TreeSet<>();
        results.forEach((requested, result) -> {
            TopicProduceResponse topic = topics.computeIfAbsent(requested.topic(), name -> {
                TopicProduceResponse added = new TopicProduceResponse().setName(name);
                response.responses().add(added);
                return added;
            });
            PartitionProduceResponse out = new PartitionProduceResponse()
                    .setIndex(requested.partition())
                    .setErrorCode(result.error().code())
                    .setBaseOffset(result.baseOffset())
                    .setLogAppendTimeMs(result.logAppendTimeMs())
                    .setLogStartOffset(result.logStartOffset());
            topic.partitionResponses().add(out);
            if (result.error() != Errors.NONE) {
                out.setErrorMessage(result.errorMessage());
                for (RecordError recordError : result.recordErrors()) {
                    out.recordErrors().add(new BatchIndexAndErrorMessage()
                            .setBatchIndex(recordError.batchIndex())
                            .setBatchIndexErrorMessage(recordError.message()));
                }
            }
            if (result.error() == Errors.NOT_LEADER_OR_FOLLOWER) {
                PartitionRegistration registration = LeaderEndpoints.registration(image, requested.topic(),
                        requested.partition());
                if (registration != null && registration.hasLeader()) {
                    out.currentLeader()
                            .setLeaderId(registration.leader())
                            .setLeaderEpoch(registration.leaderEpoch());
                    leadersToDescribe.add(registration.leader());
                }
            }
        });
        LeaderEndpoints.addNodeEndpoints(response.nodeEndpoints(), image, leadersToDescribe, listenerName,
                (nodeId, host, port, rack) -> new NodeEndpoint().setNodeId(nodeId).setHost(host).setPort(port)
                        .setRack(rack));
        return response;
    }

    private void count(Map<RequestedPartition, PartitionProduceResult> early,
                       Map<TopicPartition, PartitionProduceResult> results, Map<TopicPartition, BatchSizes> sizes) {
        early.keySet().forEach(requested -> topicMetrics.produceRequest(requested.topic(), true));
        results.forEach((tp, result) -> {
            boolean failed = result.error() != Errors.NONE;
            topicMetrics.produceRequest(tp.topic(), failed);
            BatchSizes size = sizes.get(tp);
            if (!failed && size != null) {
                topicMetrics.produced(tp.topic(), size.records(), size.bytes());
            }
        });
    }

    /** The records and bytes of one partition's batches in a produce request. */
    private record BatchSizes(long records, long bytes) {
        static Map<TopicPartition, BatchSizes> of(Map<TopicPartition, ByteBuffer> entries) {
            Map<TopicPartition, BatchSizes> sizes = new HashMap<>(entries.size() * 2);
            entries.forEach((tp, records) -> {
                long count = 0;
                int position = records.position();
                while (records.limit() - position >= RecordBatch.HEADER_SIZE) {
                    RecordBatch batch = new RecordBatch(records, position);
                    int size = batch.sizeInBytes();
                    if (size <= 0 || size > records.limit() - position) {
                        break;
                    }
                    count += batch.recordCount();
                    position += size;
                }
                sizes.put(tp, new BatchSizes(count, records.remaining()));
            });
            return sizes;
        }
    }

    /** A partition as the request names it (possibly not a valid topic partition). */
    private record RequestedPartition(String topic, int partition) {
        Optional<TopicPartition> toTopicPartition() {
            return TopicPartitions.of(topic, partition);
        }
    }

    /** The request's timeout_ms clamped to [0, {@link #TIMEOUT_CAP_MS}]. */
    static long cappedTimeoutMs(int requestedTimeoutMs) {
        return Math.max(0, Math.min(requestedTimeoutMs, TIMEOUT_CAP_MS));
    }
}
