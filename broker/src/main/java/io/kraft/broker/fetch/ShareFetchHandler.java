package io.kraft.broker.fetch;

import io.kraft.broker.group.share.ShareFetchService;
import io.kraft.broker.group.share.ShareFetchService.AckBatch;
import io.kraft.broker.group.share.ShareFetchService.PartitionFetch;
import io.kraft.broker.group.share.SharePartitionKey;
import io.kraft.broker.group.share.ShareSessions;
import io.kraft.broker.network.AsyncRequestHandler;
import io.kraft.broker.network.FileSliceRecords;
import io.kraft.broker.network.HandlerResponse;
import io.kraft.broker.network.RequestContext;
import io.kraft.broker.protocol.ApiKey;
import io.kraft.broker.protocol.ApiRequest;
import io.kraft.broker.protocol.message.ShareFetchRequest;
import io.kraft.broker.protocol.message.ShareFetchResponse;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Answers ShareFetch (v1, KIP-932): the share session step, the acknowledgements piggybacked on the request, then
 * acquisition of records from each partition of the session; with nothing to give, it polls again every
 * {@link #RETRY_MS} until {@code max_wait_ms} (capped as Fetch's is) passes.
 */
public final class ShareFetchHandler implements AsyncRequestHandler<ShareFetchRequest, ShareFetchResponse> {
    /** How often a waiting share fetch looks again for records to acquire. */
    static final long RETRY_MS = 50;
    /** Records per request when a v1 request leaves max_records at 0. */
    private static final int DEFAULT_MAX_RECORDS = 500;
    private static final java.nio.ByteBuffer NO_RECORDS = java.nio.ByteBuffer.allocate(0);

    private final ShareFetchService service;
    private final ShareSessions sessions;
    private final ScheduledExecutorService waiter;
    private final LongSupplier clock;

    public ShareFetchHandler(ShareFetchService service, ShareSessions sessions, ScheduledExecutorService waiter,
                             LongSupplier clock) {
        this.service = service;
        this.sessions = sessions;
        this.waiter = waiter;
        this.clock = clock;
    }

    @Override
    public ApiKey apiKey() {
        return ApiKey.SHARE_FETCH;
    }

    @Override
    public CompletableFuture<HandlerResponse> handle(RequestContext context, ApiRequest<ShareFetchRequest> request) {
        ShareFetchRequest body = request.body();
        if (isEmpty(body.groupId()) || isEmpty(body.memberId())) {
            return answer(error(Errors.INVALID_REQUEST, "group id and member id are required"));
        }
        if (context.authorizationEnabled() && !context.authorize(AclOperation.READ, ResourceType.GROUP,
                body.groupId())) {
            return answer(error(Errors.GROUP_AUTHORIZATION_FAILED, null));
        }
        long now = clock.getAsLong();
        Set<SharePartitionKey> listed = new LinkedHashSet<>();
        Map<SharePartitionKey, List<AckBatch>> acks = new LinkedHashMap<>();
        for (ShareFetchRequest.FetchTopic topic : body.topics()) {
            for (ShareFetchRequest.FetchPartition p : topic.partitions()) {
                SharePartitionKey key = new SharePartitionKey(body.groupId(), topic.topicId(), p.partitionIndex());
                listed.add(key);
                if (!p.acknowledgementBatches().isEmpty()) {
                    acks.put(key, p.acknowledgementBatches().stream().map(b -> new AckBatch(b.firstOffset(),
                            b.lastOffset(), List.copyOf(b.acknowledgeTypes()))).toList());
                }
            }
        }
        Set<SharePartitionKey> forgotten = new LinkedHashSet<>();
        body.forgottenTopicsData().forEach(t -> t.partitions().forEach(
                p -> forgotten.add(new SharePartitionKey(body.groupId(), t.topicId(), p))));
        ShareSessions.Key sessionKey = new ShareSessions.Key(body.groupId(), body.memberId());
        int epoch = body.shareSessionEpoch();
        ShareSessions.Step step;
        if (epoch == 0) {
            if (!acks.isEmpty()) {
                return answer(error(Errors.INVALID_REQUEST, "a share session's first request cannot acknowledge"));
            }
            step = sessions.open(sessionKey, listed, now);
        } else if (epoch == -1) {
            step = sessions.close(sessionKey);
        } else {
            step = sessions.next(sessionKey, epoch, listed, forgotten, now);
        }
        if (step.error() != Errors.NONE) {
            return answer(error(step.error(), null));
        }
        // Acknowledgements are answered only once durable; the fetch starts after them, as its records may be
        // those just released.
        Map<SharePartitionKey, CompletableFuture<Errors>> ackWrites = new LinkedHashMap<>();
        acks.forEach((key, batches) -> ackWrites.put(key, mayRead(context, key)
                ? service.acknowledge(key, body.memberId(), batches)
                : CompletableFuture.completedFuture(Errors.TOPIC_AUTHORIZATION_FAILED)));
        String memberId = body.memberId();
        String groupId = body.groupId();
        int maxBytes = body.maxBytes();
        int maxRecords = body.maxRecords() > 0 ? body.maxRecords() : DEFAULT_MAX_RECORDS;
        long deadline = now + Math.max(0, Math.min(body.maxWaitMs(), FetchParams.MAX_WAIT_CAP_MS));
        ShareSessions.Session session = step.session();
        // On the waiter's thread: the writes complete on the share coordinator's, which must not read logs.
        return CompletableFuture.allOf(ackWrites.values().toArray(CompletableFuture[]::new)).thenComposeAsync(done -> {
            Map<SharePartitionKey, Errors> ackErrors = new LinkedHashMap<>();
            ackWrites.forEach((key, write) -> ackErrors.put(key, write.join()));
            if (epoch == -1) {
                service.releaseMember(groupId, memberId);
                return answer(response(ackErrors, Map.of()));
            }
            CompletableFuture<HandlerResponse> result = new CompletableFuture<>();
            attempt(context, memberId, session, maxBytes, maxRecords, deadline, ackErrors, result);
            return result;
        }, waiter);
    }

    private void attempt(RequestContext context, String memberId, ShareSessions.Session session, int maxBytes,
                         int maxRecords, long deadline, Map<SharePartitionKey, Errors> ackErrors,
                         CompletableFuture<HandlerResponse> result) {
        try {
            Map<SharePartitionKey, PartitionFetch> fetched = new LinkedHashMap<>();
            int bytesLeft = maxBytes;
            int recordsLeft = maxRecords;
            boolean answerNow = false;
            for (SharePartitionKey key : session.partitions()) {
                PartitionFetch fetch;
                if (!mayRead(context, key)) {
                    fetch = new PartitionFetch(Errors.TOPIC_AUTHORIZATION_FAILED,
                            io.kraft.storage.log.FileSlice.empty(), List.of(), -1, -1);
                } else {
                    fetch = service.fetch(key, memberId, Math.max(bytesLeft, 1), recordsLeft);
                }
                if (fetch.error() != Errors.NONE || fetch.hasRecords()) {
                    fetched.put(key, fetch);
                    answerNow = true;
                    bytesLeft -= fetch.records().sizeBytes();
                    for (var range : fetch.acquired()) {
                        recordsLeft -= (int) (range.lastOffset() - range.firstOffset() + 1);
                    }
                    if (bytesLeft <= 0 || recordsLeft <= 0) {
                        break;
                    }
                }
            }
            long now = clock.getAsLong();
            if (answerNow || now >= deadline) {
                result.complete(HandlerResponse.of(response(ackErrors, fetched)));
                return;
            }
            waiter.schedule(() -> attempt(context, memberId, session, maxBytes, maxRecords, deadline, ackErrors,
                    result), Math.min(RETRY_MS, deadline - now), TimeUnit.MILLISECONDS);
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
        }
    }

    private ShareFetchResponse response(Map<SharePartitionKey, Errors> ackErrors,
                                        Map<SharePartitionKey, PartitionFetch> fetched) {
        ShareFetchResponse response = new ShareFetchResponse()
                .setAcquisitionLockTimeoutMs(service.config().recordLockDurationMs());
        Map<UUID, ShareFetchResponse.ShareFetchableTopicResponse> topics = new LinkedHashMap<>();
        Set<SharePartitionKey> keys = new LinkedHashSet<>(ackErrors.keySet());
        keys.addAll(fetched.keySet());
        for (SharePartitionKey key : keys) {
            ShareFetchResponse.PartitionData data = new ShareFetchResponse.PartitionData()
                    .setPartitionIndex(key.partition());
            Errors ackError = ackErrors.get(key);
            if (ackError != null) {
                data.setAcknowledgeErrorCode(ackError.code());
            }
            PartitionFetch fetch = fetched.get(key);
            ShareFetchResponse.LeaderIdAndEpoch leader = new ShareFetchResponse.LeaderIdAndEpoch()
                    .setLeaderId(-1).setLeaderEpoch(-1);
            if (fetch == null) {
                data.setRecords(NO_RECORDS);
            } else {
                data.setErrorCode(fetch.error().code());
                leader.setLeaderId(fetch.leaderId()).setLeaderEpoch(fetch.leaderEpoch());
                if (!fetch.hasRecords()) {
                    data.setRecords(NO_RECORDS);
                } else {
                    data.setExternalRecords(new FileSliceRecords(fetch.records()));
                    fetch.acquired().forEach(r -> data.acquiredRecords().add(new ShareFetchResponse.AcquiredRecords()
                            .setFirstOffset(r.firstOffset()).setLastOffset(r.lastOffset())
                            .setDeliveryCount((short) r.deliveryCount())));
                }
            }
            data.setCurrentLeader(leader);
            topics.computeIfAbsent(key.topicId(), id -> {
                ShareFetchResponse.ShareFetchableTopicResponse t = new ShareFetchResponse.ShareFetchableTopicResponse()
                        .setTopicId(id);
                response.responses().add(t);
                return t;
            }).partitions().add(data);
        }
        return response;
    }

    /** READ on the topic, as a consumer's Fetch needs (KIP-932 asks the same of share consumers). */
    private boolean mayRead(RequestContext context, SharePartitionKey key) {
        if (!context.authorizationEnabled()) {
            return true;
        }
        String topic = service.topicName(key.topicId());
        return topic != null && context.authorize(AclOperation.READ, ResourceType.TOPIC, topic);
    }

    private static ShareFetchResponse error(Errors error, String message) {
        return new ShareFetchResponse().setErrorCode(error.code()).setErrorMessage(message);
    }

    private static CompletableFuture<HandlerResponse> answer(ShareFetchResponse response) {
        return CompletableFuture.completedFuture(HandlerResponse.of(response));
    }

    private static boolean isEmpty(String s) {
        return s == null || s.isEmpty();
    }

    @Override
    public Optional<ShareFetchResponse> errorResponse(ApiRequest<ShareFetchRequest> request, Errors error) {
        return Optional.of(error(error, null));
    }
}
