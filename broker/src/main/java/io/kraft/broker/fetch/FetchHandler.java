package io.kraft.broker.fetch;

import io.kraft.broker.api.LeaderEndpoints;
import io.kraft.broker.api.TopicPartitions;
import io.kraft.broker.metrics.BrokerTopicMetrics;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.FileSliceRecords;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.FetchRequest;
import io.kraft.broker.protocol.message.FetchResponse;
import io.kraft.broker.protocol.message.FetchResponse.FetchableTopicResponse;
import io.kraft.broker.protocol.message.FetchResponse.NodeEndpoint;
import io.kraft.broker.protocol.message.FetchResponse.PartitionData;
import io.kraft.broker.replica.ReplicaManager;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.metadata.image.TopicImage;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.AbortedTxn;
import io.kraft.storage.log.TopicPartition;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Answers Fetch (v4-17) through the {@link ReplicaManager}: long-polls for {@code min_bytes} up to
 * {@code max_wait_ms} without holding a handler thread, honours {@code max_bytes} and
 * {@code partition_max_bytes} (the first batch is always whole, KIP-74), keeps incremental fetch sessions
 * (KIP-227), names topics by id from v13, and sends record data as file regions (zero copy). read_uncommitted
 * consumers read up to the high watermark, read_committed ones up to the last stable offset and get the aborted
 * transactions of what they read (KIP-98); followers (replica id >= 0) read to the log end, report their position,
 * and learn of a diverging epoch (v12+). Every answer carries the real last stable offset.
 */
public final class FetchHandler implements AsyncRequestHandler<FetchRequest, FetchResponse> {
    private static final ByteBuffer NO_RECORDS = ByteBuffer.allocate(0);

    private final ReplicaManager replicaManager;
    private final FetchSessionCache sessions;

    private final BrokerTopicMetrics topicMetrics;

    public FetchHandler(ReplicaManager replicaManager, FetchSessionCache sessions) {
        this(replicaManager, sessions, null);
    }

    /** @param topicMetrics where bytes sent to consumers and followers are counted; null counts nothing */
    public FetchHandler(ReplicaManager replicaManager, FetchSessionCache sessions, BrokerTopicMetrics topicMetrics) {
        this.replicaManager = Objects.requireNonNull(replicaManager, "replicaManager");
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.topicMetrics = topicMetrics;
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.FETCH;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<FetchRequest> request) {
        FetchRequest body = request.body();
        short version = request.version();
        boolean usesTopicIds = version >= 13;
        int replicaId = version >= 15 ? body.replicaState().replicaId() : body.replicaId();
        boolean readCommitted = replicaId < 0 && body.isolationLevel() == FetchIsolation.READ_COMMITTED;
        MetadataImage image = replicaManager.image();

        LinkedHashMap<FetchPartitionKey, FetchPartitionRequest> requested = new LinkedHashMap<>();
        for (FetchRequest.FetchTopic topic : body.topics()) {
            for (FetchRequest.FetchPartition partition : topic.partitions()) {
                requested.put(key(topic.topic(), topic.topicId(), partition.partition(), usesTopicIds),
                        new FetchPartitionRequest(partition.fetchOffset(), partition.currentLeaderEpoch(),
                                partition.lastFetchedEpoch(), partition.partitionMaxBytes()));
            }
        }
        if (replicaId >= 0 && !context.authorizeCluster(AclOperation.CLUSTER_ACTION)) {
            // A fetch that claims to be a follower's moves the high watermark and ISR: only a principal with
            // ClusterAction may make one. It gets no session and reads nothing.
            LinkedHashMap<FetchPartitionKey, PartitionRead> refused = new LinkedHashMap<>();
            requested.keySet().forEach(key -> refused.put(key, PartitionRead.failed(Errors.TOPIC_AUTHORIZATION_FAILED)));
            return CompletableFuture.completedFuture(HandlerResponse.of(response(FetchSessionCache.INVALID_SESSION_ID,
                    refused, Map.of(), false, image, context.listenerName())));
        }
        List<FetchPartitionKey> forgotten = new ArrayList<>();
        if (version >= 7) {
            for (FetchRequest.ForgottenTopic topic : body.forgottenTopicsData()) {
                for (int partition : topic.partitions()) {
                    forgotten.add(key(topic.topic(), topic.topicId(), partition, usesTopicIds));
                }
            }
        }
        FetchContext fetchContext = sessions.newContext(version >= 7, version >= 7 ? body.sessionId() : 0,
                version >= 7 ? body.sessionEpoch() : FetchSessionCache.FINAL_EPOCH, usesTopicIds,
                replicaId >= 0, requested, forgotten);
        if (fetchContext.error().isPresent()) {
            return CompletableFuture.completedFuture(HandlerResponse.of(new FetchResponse()
                    .setErrorCode(fetchContext.error().get().code())
                    .setSessionId(FetchSessionCache.INVALID_SESSION_ID)));
        }

        LinkedHashMap<TopicPartition, FetchPartitionRequest> reads = new LinkedHashMap<>();
        Map<FetchPartitionKey, TopicPartition> resolved = new HashMap<>();
        Map<String, Boolean> readable = context.authorizationEnabled() && replicaId < 0 ? new HashMap<>() : null;
        Set<FetchPartitionKey> denied = readable == null ? Set.of() : new HashSet<>();
        TopicNames names = new TopicNames(image);
        for (Map.Entry<FetchPartitionKey, FetchPartitionRequest> entry : fetchContext.partitionsToRead().entrySet()) {
            Optional<TopicPartition> tp = names.resolve(entry.getKey());
            if (tp.isPresent() && readable != null && !readable.computeIfAbsent(tp.get().topic(),
                    topic -> context.authorize(AclOperation.READ, ResourceType.TOPIC, topic))) {
                denied.add(entry.getKey());
            } else if (tp.isPresent()) {
                resolved.put(entry.getKey(), tp.get());
                reads.putIfAbsent(tp.get(), entry.getValue());
            }
        }
        long replicaEpoch = version >= 15 && replicaId >= 0 ? body.replicaState().replicaEpoch()
                : FetchParams.UNKNOWN_REPLICA_EPOCH;
        FetchParams params = FetchParams.of(replicaId, body.maxWaitMs(), body.minBytes(), body.maxBytes(),
                readCommitted ? FetchIsolation.READ_COMMITTED : 0, replicaEpoch);
        return replicaManager.fetchMessages(params, reads).thenApply(results -> {
            LinkedHashMap<FetchPartitionKey, PartitionRead> byKey = new LinkedHashMap<>();
            for (FetchPartitionKey key : fetchContext.partitionsToRead().keySet()) {
                TopicPartition tp = resolved.get(key);
                if (denied.contains(key)) {
                    byKey.put(key, PartitionRead.failed(Errors.TOPIC_AUTHORIZATION_FAILED));
                    continue;
                }
                byKey.put(key, tp != null ? results.get(tp) : PartitionRead.failed(key.usesTopicId()
                        ? Errors.UNKNOWN_TOPIC_ID : Errors.UNKNOWN_TOPIC_OR_PARTITION));
            }
            if (topicMetrics != null) {
                count(replicaId >= 0, results);
            }
            return HandlerResponse.of(response(fetchContext.responseSessionId(), fetchContext.select(byKey),
                    resolved, readCommitted, image, context.listenerName()));
        });
    }

    private void count(boolean fromFollower, Map<TopicPartition, PartitionRead> results) {
        results.forEach((tp, read) -> {
            int bytes = read.records() == null ? 0 : read.records().sizeBytes();
            if (fromFollower) {
                topicMetrics.replicatedOut(bytes);
            } else {
                topicMetrics.fetched(tp.topic(), bytes, read.error() != Errors.NONE);
            }
        });
    }

    private static FetchPartitionKey key(String topic, UUID topicId, int partition, boolean usesTopicIds) {
        return usesTopicIds ? FetchPartitionKey.byId(topicId, partition) : FetchPartitionKey.byName(topic, partition);
    }

    /**
     * Resolves a request's partitions to names against one image, looking each topic id up once per run of its
     * partitions (a request lists a topic's partitions together), not once per partition: a follower's fetch names
     * thousands of partitions of a few hundred topics, and each image lookup walks a trie of every topic.
     */
    private static final class TopicNames {
        private final MetadataImage image;
        private UUID lastId;
        private String lastName;

        TopicNames(MetadataImage image) {
            this.image = image;
        }

        Optional<TopicPartition> resolve(FetchPartitionKey key) {
            String name = key.topic();
            if (key.usesTopicId()) {
                if (!key.topicId().equals(lastId)) {
                    TopicImage topic = image.topics().topic(key.topicId());
                    lastId = key.topicId();
                    lastName = topic == null ? null : topic.name();
                }
                if (lastName == null) {
                    return Optional.empty();
                }
                name = lastName;
            }
            return TopicPartitions.of(name, key.partition());
        }
    }

    private static FetchResponse response(int sessionId, LinkedHashMap<FetchPartitionKey, PartitionRead> carried,
                                          Map<FetchPartitionKey, TopicPartition> resolved, boolean readCommitted,
                                          MetadataImage image, String listenerName) {
        FetchResponse response = new FetchResponse()
                .setErrorCode(Errors.NONE.code())
                .setSessionId(sessionId);
        // Keyed by topic id from v13 (the name is not on the wire then), by name before.
        Map<Object, FetchableTopicResponse> topics = new HashMap<>();
        Set<Integer> leaders = new TreeSet<>();
        carried.forEach((key, read) -> {
            Object topicKey = key.usesTopicId() ? key.topicId() : key.topic();
            FetchableTopicResponse topic = topics.computeIfAbsent(topicKey, k -> {
                FetchableTopicResponse added = key.usesTopicId()
                        ? new FetchableTopicResponse().setTopicId(key.topicId())
                        : new FetchableTopicResponse().setTopic(key.topic());
                response.responses().add(added);
                return added;
            });
            // the name the read resolved (one image lookup per partition and fetch, not two)
            TopicPartition tp = resolved.get(key);
            String name = key.usesTopicId() ? (tp == null ? null : tp.topic()) : key.topic();
            topic.partitions().add(partition(key.partition(), withLeader(read, image, name, key.partition()),
                    readCommitted, leaders));
        });
        LeaderEndpoints.addNodeEndpoints(response.nodeEndpoints(), image, leaders, listenerName,
                (nodeId, host, port, rack) -> new NodeEndpoint().setNodeId(nodeId).setHost(host).setPort(port)
                        .setRack(rack));
        return response;
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

    private static PartitionData partition(int partition, PartitionRead read, boolean readCommitted,
                                           Set<Integer> leaders) {
        PartitionData out = new PartitionData()
                .setPartitionIndex(partition)
                .setErrorCode(read.error().code())
                .setHighWatermark(read.highWatermark())
                .setLastStableOffset(read.lastStableOffset())
                .setLogStartOffset(read.logStartOffset())
                .setAbortedTransactions(readCommitted ? abortedTransactions(read) : null)
                .setPreferredReadReplica(-1);
        read.divergingEpoch().ifPresent(diverging -> out.divergingEpoch()
                .setEpoch(diverging.epoch())
                .setEndOffset(diverging.endOffset()));
        if ((read.error() == Errors.NOT_LEADER_OR_FOLLOWER || read.error() == Errors.FENCED_LEADER_EPOCH)
                && read.leaderId() >= 0) {
            out.currentLeader()
                    .setLeaderId(read.leaderId())
                    .setLeaderEpoch(read.leaderEpoch());
            leaders.add(read.leaderId());
        }
        // The records stay in the segment file: the server sends them as a file region (zero copy).
        if (read.records().isEmpty()) {
            out.setRecords(NO_RECORDS);
        } else {
            out.setExternalRecords(new FileSliceRecords(read.records()));
        }
        return out;
    }

    /** What a read_committed read overlapped; read_committed clients expect a list, empty or not. */
    private static List<FetchResponse.AbortedTransaction> abortedTransactions(PartitionRead read) {
        if (read.abortedTransactions() == null) {
            return new ArrayList<>(0);
        }
        List<FetchResponse.AbortedTransaction> out = new ArrayList<>(read.abortedTransactions().size());
        for (AbortedTxn txn : read.abortedTransactions()) {
            out.add(new FetchResponse.AbortedTransaction().setProducerId(txn.producerId())
                    .setFirstOffset(txn.firstOffset()));
        }
        return out;
    }

    @Override
    public Optional<FetchResponse> errorResponse(ApiRequest<FetchRequest> request, Errors error) {
        return Optional.of(new FetchResponse()
                .setErrorCode(error.code())
                .setSessionId(FetchSessionCache.INVALID_SESSION_ID));
    }
}
