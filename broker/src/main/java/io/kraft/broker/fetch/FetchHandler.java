package io.kraft.broker.fetch;

import io.kraft.broker.api.LeaderEndpoints;
import io.kraft.broker.api.TopicPartitions;
import io.kraft.broker.fetch.FetchContext;
import io.kraft.broker.fetch.FetchPartitionKey;
import io.kraft.broker.fetch.FetchSessionCache;
import io.kraft.broker.network.LegacyAsyncRequestHandler;
import io.kraft.broker.network.FileSliceRecords;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ParsedRequest;
import io.kraft.broker.protocol.messages.FetchMessages;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.broker.fetch.FetchParams;
import io.kraft.broker.fetch.FetchPartitionRequest;
import io.kraft.broker.fetch.PartitionRead;
import io.kraft.broker.replica.ReplicaManager;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicImage;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.TopicPartition;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * Answers Fetch (v4-17) through the {@link ReplicaManager}: long-polls for {@code min_bytes} up to
 * {@code max_wait_ms} without holding a handler thread, honours {@code max_bytes} and
 * {@code partition_max_bytes} (the first batch is always whole, KIP-74), keeps incremental fetch sessions
 * (KIP-227), names topics by id from v13, and sends record data as file regions (zero copy). Consumers read
 * up to the high watermark, which is also the last stable offset (no transactions yet); followers
 * (replica id >= 0) read to the log end, report their position, and learn of a diverging epoch (v12+).
 */
public final class FetchHandler implements LegacyAsyncRequestHandler {
    private static final ByteBuffer NO_RECORDS = ByteBuffer.allocate(0);
    private static final byte READ_COMMITTED = 1;

    private final ReplicaManager replicaManager;
    private final FetchSessionCache sessions;

    public FetchHandler(ReplicaManager replicaManager, FetchSessionCache sessions) {
        this.replicaManager = Objects.requireNonNull(replicaManager, "replicaManager");
        this.sessions = Objects.requireNonNull(sessions, "sessions");
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.FETCH;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ParsedRequest request) {
        Struct body = request.body();
        short version = request.version();
        boolean usesTopicIds = version >= 13;
        int replicaId = version >= 15 ? replicaStateId(body) : body.getInt("replica_id");
        boolean readCommitted = body.getByte("isolation_level") == READ_COMMITTED;
        MetadataImage image = replicaManager.image();

        LinkedHashMap<FetchPartitionKey, FetchPartitionRequest> requested = new LinkedHashMap<>();
        for (Struct topic : body.getStructs("topics")) {
            for (Struct partition : topic.getStructs("partitions")) {
                requested.put(key(topic, partition.getInt("partition"), usesTopicIds),
                        new FetchPartitionRequest(partition.getLong("fetch_offset"),
                                partition.getInt("current_leader_epoch"), partition.getInt("last_fetched_epoch"),
                                partition.getInt("partition_max_bytes")));
            }
        }
        List<FetchPartitionKey> forgotten = new ArrayList<>();
        if (version >= 7) {
            for (Struct topic : body.getStructs("forgotten_topics_data")) {
                for (Object partition : topic.getList("partitions")) {
                    forgotten.add(key(topic, (Integer) partition, usesTopicIds));
                }
            }
        }
        FetchContext fetchContext = sessions.newContext(version >= 7, version >= 7 ? body.getInt("session_id") : 0,
                version >= 7 ? body.getInt("session_epoch") : FetchSessionCache.FINAL_EPOCH, usesTopicIds,
                replicaId >= 0, requested, forgotten);
        if (fetchContext.error().isPresent()) {
            Struct response = FetchMessages.RESPONSE.newStruct();
            response.set("error_code", fetchContext.error().get().code());
            response.set("session_id", 0);
            return CompletableFuture.completedFuture(HandlerResponse.of(response));
        }

        LinkedHashMap<TopicPartition, FetchPartitionRequest> reads = new LinkedHashMap<>();
        Map<FetchPartitionKey, TopicPartition> resolved = new LinkedHashMap<>();
        for (Map.Entry<FetchPartitionKey, FetchPartitionRequest> entry : fetchContext.partitionsToRead().entrySet()) {
            Optional<TopicPartition> tp = resolve(image, entry.getKey());
            if (tp.isPresent()) {
                resolved.put(entry.getKey(), tp.get());
                reads.putIfAbsent(tp.get(), entry.getValue());
            }
        }
        FetchParams params = new FetchParams(replicaId, body.getInt("max_wait_ms"), body.getInt("min_bytes"),
                body.getInt("max_bytes"));
        return replicaManager.fetchMessages(params, reads).thenApply(results -> {
            LinkedHashMap<FetchPartitionKey, PartitionRead> byKey = new LinkedHashMap<>();
            for (FetchPartitionKey key : fetchContext.partitionsToRead().keySet()) {
                TopicPartition tp = resolved.get(key);
                byKey.put(key, tp != null ? results.get(tp) : PartitionRead.failed(key.usesTopicId()
                        ? Errors.UNKNOWN_TOPIC_ID : Errors.UNKNOWN_TOPIC_OR_PARTITION));
            }
            return HandlerResponse.of(response(fetchContext.responseSessionId(), fetchContext.select(byKey),
                    readCommitted, image, context.listenerName()));
        });
    }

    private static int replicaStateId(Struct body) {
        Struct state = body.getStruct("replica_state");
        return state == null ? FetchParams.CONSUMER_REPLICA_ID : state.getInt("replica_id");
    }

    private static FetchPartitionKey key(Struct topic, int partition, boolean usesTopicIds) {
        return usesTopicIds ? FetchPartitionKey.byId(topic.getUuid("topic_id"), partition)
                : FetchPartitionKey.byName(topic.getString("topic"), partition);
    }

    private static Optional<TopicPartition> resolve(MetadataImage image, FetchPartitionKey key) {
        String name = key.topic();
        if (key.usesTopicId()) {
            TopicImage topic = image.topics().topic(key.topicId());
            if (topic == null) {
                return Optional.empty();
            }
            name = topic.name();
        }
        return TopicPartitions.of(name, key.partition());
    }

    private static Struct response(int sessionId, LinkedHashMap<FetchPartitionKey, PartitionRead> carried,
                                   boolean readCommitted, MetadataImage image, String listenerName) {
        Struct response = FetchMessages.RESPONSE.newStruct();
        response.set("error_code", Errors.NONE.code());
        response.set("session_id", sessionId);
        Map<Object, Struct> topics = new LinkedHashMap<>();
        Set<Integer> leaders = new TreeSet<>();
        carried.forEach((key, read) -> {
            Object topicKey = key.usesTopicId() ? key.topicId() : key.topic();
            Struct topic = topics.computeIfAbsent(topicKey, k -> {
                Struct added = response.addStruct("responses");
                if (key.usesTopicId()) {
                    added.set("topic_id", key.topicId());
                    TopicImage known = image.topics().topic(key.topicId());
                    added.set("topic", known == null ? "" : known.name());
                } else {
                    added.set("topic", key.topic());
                }
                return added;
            });
            String name = key.usesTopicId() ? nameOf(image, key) : key.topic();
            addPartition(topic.addStruct("partitions"), key.partition(), withLeader(read, image, name, key.partition()),
                    readCommitted, leaders);
        });
        LeaderEndpoints.addNodeEndpoints(response, image, leaders, listenerName);
        return response;
    }

    private static String nameOf(MetadataImage image, FetchPartitionKey key) {
        TopicImage topic = image.topics().topic(key.topicId());
        return topic == null ? null : topic.name();
    }

    /** A not-leader answer from a broker that does not host the partition still names the leader it knows. */
    private static PartitionRead withLeader(PartitionRead read, MetadataImage image, String topic, int partition) {
        if (read.error() != Errors.NOT_LEADER_OR_FOLLOWER || read.leaderId() >= 0) {
            return read;
        }
        PartitionRegistration registration = LeaderEndpoints.registration(image, topic, partition);
        return registration == null || !registration.hasLeader() ? read
                : PartitionRead.failed(read.error(), registration.leader(), registration.leaderEpoch());
    }

    private static void addPartition(Struct out, int partition, PartitionRead read, boolean readCommitted,
                                     Set<Integer> leaders) {
        out.set("partition_index", partition);
        out.set("error_code", read.error().code());
        out.set("high_watermark", read.highWatermark());
        out.set("last_stable_offset", read.lastStableOffset());
        out.set("log_start_offset", read.logStartOffset());
        read.divergingEpoch().ifPresent(diverging -> {
            Struct epoch = out.getStruct("diverging_epoch");
            epoch.set("epoch", diverging.epoch());
            epoch.set("end_offset", diverging.endOffset());
        });
        if ((read.error() == Errors.NOT_LEADER_OR_FOLLOWER || read.error() == Errors.FENCED_LEADER_EPOCH)
                && read.leaderId() >= 0) {
            Struct leader = out.getStruct("current_leader");
            leader.set("leader_id", read.leaderId());
            leader.set("leader_epoch", read.leaderEpoch());
            leaders.add(read.leaderId());
        }
        // Without transactions nothing is aborted; read_committed clients still expect a (empty) list.
        out.set("aborted_transactions", readCommitted ? new ArrayList<Struct>() : null);
        out.set("preferred_read_replica", -1);
        out.set("records", read.records().isEmpty() ? NO_RECORDS : new FileSliceRecords(read.records()));
    }

    @Override
    public Optional<Struct> errorResponse(ParsedRequest request, short errorCode) {
        Struct response = FetchMessages.RESPONSE.newStruct();
        response.set("error_code", errorCode);
        response.set("session_id", 0);
        return Optional.of(response);
    }
}
