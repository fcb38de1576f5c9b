package io.kraft.broker.handler;

import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.ProduceMessages;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.broker.replica.PartitionProduceResult;
import io.kraft.broker.replica.ReplicaManager;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.RecordError;
import io.kraft.storage.log.TopicPartition;
import java.nio.ByteBuffer;
import java.util.ArrayList;
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
 */
public final class ProduceHandler implements AsyncRequestHandler {
    private static final ByteBuffer NO_RECORDS = ByteBuffer.allocate(0);

    private final ReplicaManager replicaManager;

    public ProduceHandler(ReplicaManager replicaManager) {
        this.replicaManager = Objects.requireNonNull(replicaManager, "replicaManager");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.PRODUCE;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ParsedRequest request) {
        Struct body = request.body();
        short acks = body.getShort("acks");
        int timeoutMs = body.getInt("timeout_ms");
        Map<TopicPartition, ByteBuffer> entries = new LinkedHashMap<>();
        Map<RequestedPartition, PartitionProduceResult> early = new LinkedHashMap<>();
        List<RequestedPartition> order = new ArrayList<>();
        for (Struct topic : body.getStructs("topic_data")) {
            String name = topic.getString("name");
            for (Struct partition : topic.getStructs("partition_data")) {
                RequestedPartition requested = new RequestedPartition(name, partition.getInt("index"));
                order.add(requested);
                Optional<TopicPartition> tp = requested.toTopicPartition();
                ByteBuffer records = partition.getRecords(partition.field("records"));
                if (tp.isEmpty()) {
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
        return replicaManager.appendRecords(timeoutMs, acks, false, entries).thenApply(results -> {
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

    @Override
    public Optional<Struct> errorResponse(ParsedRequest request, short errorCode) {
        Map<RequestedPartition, PartitionProduceResult> all = new LinkedHashMap<>();
        Errors error = toErrorCode(errorCode);
        for (Struct topic : request.body().getStructs("topic_data")) {
            for (Struct partition : topic.getStructs("partition_data")) {
                all.put(new RequestedPartition(topic.getString("name"), partition.getInt("index")),
                        PartitionProduceResult.failed(error, "the broker failed to handle the produce request"));
            }
        }
        return Optional.of(response(all, null));
    }

    private static Errors toErrorCode(short code) {
        for (Errors error : Errors.values()) {
            if (error.code() == code) {
                return error;
            }
        }
        return Errors.UNKNOWN_SERVER_ERROR;
    }

    private Struct response(Map<RequestedPartition, PartitionProduceResult> results, String listenerName) {
        MetadataImage image = replicaManager.image();
        Struct response = ProduceMessages.RESPONSE.newStruct();
        Map<String, Struct> topics = new LinkedHashMap<>();
        TreeSet<Integer> leadersToDescribe = new TreeSet<>();
        results.forEach((requested, result) -> {
            Struct topic = topics.computeIfAbsent(requested.topic(), name -> {
                Struct added = response.addStruct("responses");
                added.set("name", name);
                return added;
            });
            Struct out = topic.addStruct("partition_responses");
            out.set("index", requested.partition());
            out.set("error_code", result.error().code());
            out.set("base_offset", result.baseOffset());
            out.set("log_append_time_ms", result.logAppendTimeMs());
            out.set("log_start_offset", result.logStartOffset());
            if (result.error() != Errors.NONE) {
                out.set("error_message", result.errorMessage());
                for (RecordError recordError : result.recordErrors()) {
                    Struct error = out.addStruct("record_errors");
                    error.set("batch_index", recordError.batchIndex());
                    error.set("batch_index_error_message", recordError.message());
                }
            }
            if (result.error() == Errors.NOT_LEADER_OR_FOLLOWER) {
                PartitionRegistration registration = LeaderEndpoints.registration(image, requested.topic(),
                        requested.partition());
                if (registration != null && registration.hasLeader()) {
                    Struct leader = out.getStruct("current_leader");
                    leader.set("leader_id", registration.leader());
                    leader.set("leader_epoch", registration.leaderEpoch());
                    leadersToDescribe.add(registration.leader());
                }
            }
        });
        LeaderEndpoints.addNodeEndpoints(response, image, leadersToDescribe, listenerName);
        return response;
    }

    /** A partition as the request names it (possibly not a valid topic partition). */
    private record RequestedPartition(String topic, int partition) {
        Optional<TopicPartition> toTopicPartition() {
            return TopicPartitions.of(topic, partition);
        }
    }
}
