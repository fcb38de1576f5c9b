package io.kraft.broker.fetch.follower;

import io.kraft.broker.protocol.message.FetchRequest;
import io.kraft.broker.protocol.message.FetchResponse;
import io.kraft.broker.quota.QuotaWindows;
import io.kraft.broker.quota.ReplicationQuota;
import io.kraft.broker.replica.LocalReads;
import io.kraft.broker.replica.Partition;
import io.kraft.broker.replica.ReplicaException;
import io.kraft.broker.replica.ReplicationConfig;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.EpochEndOffset;
import io.kraft.storage.log.Log;
import io.kraft.storage.log.LogStorageException;
import io.kraft.storage.log.TopicPartition;
import io.kraft.storage.log.UnexpectedAppendOffsetException;
import io.kraft.storage.log.UnexpectedLeaderEpochException;
import io.kraft.storage.record.RecordBatch;
import java.io.IOException;
import io.kraft.broker.network.BlockingWireClient;
import io.kraft.broker.network.InterBrokerSecurity;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One fetcher thread for a set of partitions led by one source broker: sends a Fetch (v17, replica state =
 * this broker's id and epoch) for every partition not backing off, in an incremental fetch session (KIP-227,
 * {@link FollowerFetchSession}: once open, a request names only partitions whose fetch state changed and the
 * answer only partitions with news), waits for the answer,
 * and applies it per partition: appends records, takes the leader's high watermark and log start, truncates
 * on a diverging epoch or an offset out of the leader's range, backs off on errors until the metadata moves
 * the partition. Partitions are added and removed by the metadata thread; a removal waits for an answer being
 * applied, so afterwards the fetcher no longer writes that partition's log.
 */
final class ReplicaFetcherThread extends Thread {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaFetcherThread.class);
    static final short FETCH_VERSION = 17;
    /** Response frames beyond the records limit carry headers and offsets of every partition. */
    private static final int RESPONSE_OVERHEAD_BYTES = 1024 * 1024;
    private static final int NO_EPOCH = -1;
    /** How long a fetcher whose every partition is throttled waits before it looks at the rate again. */
    private static final long THROTTLED_PAUSE_MS = 100;
    /**
     * The pause after a leader answered that it does not lead this epoch yet: the metadata reached this follower
     * before the leader, which will lead within moments, so waiting {@code replica.fetch.backoff.ms} (1 s) would hold
     * the new leader's high watermark, and its acks=all answers, for that long.
     */
    static final long LEADER_CATCHING_UP_BACKOFF_MS = 20;

    private final int sourceBrokerId;
    private final int localBrokerId;
    private final ReplicationConfig config;
    private final IntFunction<Optional<InetSocketAddress>> endpoints;
    private final LongSupplier brokerEpoch;
    private final LongSupplier clockMs;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<TopicPartition, FollowerPartition> partitions = new LinkedHashMap<>();
    private volatile boolean running = true;
    private volatile BlockingWireClient client;
    private final InterBrokerSecurity security;
    private final FollowerFetchSession session = new FollowerFetchSession();
    private final FollowerFetchStats stats;
    private final ReplicationQuota quota;
    /** A request's partitions were taken and its answer is not read yet (a partition added meanwhile is not in it). */
    private volatile boolean fetching;
    /** A partition was added, or its leader epoch changed, while a fetch was out: that fetch is abandoned. */
    private volatile boolean superseded;

    ReplicaFetcherThread(String name, int sourceBrokerId, int localBrokerId, ReplicationConfig config,
                         IntFunction<Optional<InetSocketAddress>> endpoints, LongSupplier brokerEpoch,
                         LongSupplier clockMs) {
        this(name, sourceBrokerId, localBrokerId, config, endpoints, InterBrokerSecurity.PLAINTEXT, brokerEpoch,
                clockMs, new FollowerFetchStats(), new ReplicationQuota(QuotaWindows.DEFAULT, clockMs));
    }

    /** @param security how to reach leaders: TLS and a SASL login as the inter-broker listener needs */
    ReplicaFetcherThread(String name, int sourceBrokerId, int localBrokerId, ReplicationConfig config,
                         IntFunction<Optional<InetSocketAddress>> endpoints,
                         InterBrokerSecurity security, LongSupplier brokerEpoch, LongSupplier clockMs,
                         FollowerFetchStats stats, ReplicationQuota quota) {
        super(name);
        this.stats = stats;
        this.quota = quota;
        this.security = security;
        setDaemon(true);
        this.sourceBrokerId = sourceBrokerId;
        this.localBrokerId = localBrokerId;
        this.config = config;
        this.endpoints = endpoints;
        this.brokerEpoch = brokerEpoch;
        this.clockMs = clockMs;
    }

    /**
     * Fetches {@code partition} in {@code leaderEpoch} from the next round on. A fetch already out for other
     * partitions may sit in the leader's purgatory for {@code replica.fetch.wait.max.ms}; a partition new to this
     * fetcher (a leader change) or in a new epoch should not wait that out, so that fetch is abandoned (its connection
     * closed) and the next one, naming the partition, goes at once.
     */
    void addPartition(Partition partition, int leaderEpoch) {
        lock.lock();
        try {
            FollowerPartition previous = partitions.put(partition.topicPartition(),
                    new FollowerPartition(partition, leaderEpoch, 0L));
            if (fetching && (previous == null || previous.leaderEpoch() != leaderEpoch)) {
                supersedeFetch();
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Abandons the fetch in flight. The leader may or may not have taken its session epoch, so the next request is a
     * full one naming the old session id with epoch 0, which frees the leader's slot (KIP-227); nothing of the
     * abandoned answer is applied, as it never arrives.
     */
    private void supersedeFetch() {
        superseded = true;
        BlockingWireClient current = client;
        if (current != null) {
            current.abort();
        }
    }

    /** Stops fetching the partitions; returns once no answer for them is being applied. */
    void removePartitions(Collection<TopicPartition> removed) {
        lock.lock();
        try {
            partitions.keySet().removeAll(removed);
        } finally {
            lock.unlock();
        }
    }

    int partitionCount() {
        lock.lock();
        try {
            return partitions.size();
        } finally {
            lock.unlock();
        }
    }

    /** Stops the thread and waits for it (bounded). */
    void shutdown() {
        running = false;
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        BlockingWireClient current = client;
        if (current != null) {
            current.close(); // unblocks a fetch waiting on the leader
        }
        try {
            join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void run() {
        while (running) {
            try {
                Map<TopicPartition, FollowerPartition> batch = unthrottled(readyPartitions());
                if (batch.isEmpty()) {
                    fetching = false;
                    continue;
                }
                Map<TopicPartition, FollowerFetchSession.PartitionFetch> wanted = new LinkedHashMap<>();
                batch.forEach((tp, follower) -> wanted.put(tp, fetchState(follower)));
                FollowerFetchSession.Request request = session.next(wanted);
                FetchResponse response;
                try {
                    response = fetch(request);
                } catch (IOException e) {
                    session.reset();
                    if (superseded) {
                        LOG.debug("Broker {} abandoned its fetch from broker {} for a partition added meanwhile",
                                localBrokerId, sourceBrokerId);
                        closeClient();
                        stats.recordSuperseded();
                    } else if (running) {
                        LOG.info("Broker {} could not fetch from broker {}: {}", localBrokerId, sourceBrokerId,
                                e.getMessage());
                        closeClient();
                        backOff(batch);
                    }
                    continue;
                } finally {
                    fetching = false;
                }
                Map<TopicPartition, Long> fetchOffsets = new HashMap<>();
                wanted.forEach((tp, fetch) -> fetchOffsets.put(tp, fetch.fetchOffset()));
                apply(batch, fetchOffsets, request.isFull(), response);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (RuntimeException e) {
                LOG.error("Fetcher {} failed a round; backing off", getName(), e);
                pause(config.fetchBackoffMs());
            }
        }
        closeClient();
    }

    /**
     * The partitions without the throttled replicas outside the ISR while the follower's throttled rate is over its
     * bound (KIP-73); if that leaves none, waits a little so the rate can fall.
     */
    private Map<TopicPartition, FollowerPartition> unthrottled(Map<TopicPartition, FollowerPartition> ready) {
        if (ready.isEmpty() || !quota.isExceeded()) {
            return ready;
        }
        Map<TopicPartition, FollowerPartition> allowed = new LinkedHashMap<>();
        ready.forEach((tp, follower) -> {
            if (quota.isThrottled(tp) && !LocalReads.inIsr(follower.partition(), localBrokerId)) {
                quota.recordHeldBack();
            } else {
                allowed.put(tp, follower);
            }
        });
        if (allowed.isEmpty()) {
            pause(THROTTLED_PAUSE_MS);
        }
        return allowed;
    }

    /** The partitions to fetch now; waits while there are none (bounded, so shutdown is noticed). */
    private Map<TopicPartition, FollowerPartition> readyPartitions() throws InterruptedException {
        lock.lock();
        try {
            long nowMs = clockMs.getAsLong();
            Map<TopicPartition, FollowerPartition> ready = new LinkedHashMap<>();
            long nextReadyMs = Long.MAX_VALUE;
            for (Map.Entry<TopicPartition, FollowerPartition> entry : partitions.entrySet()) {
                if (entry.getValue().isReady(nowMs)) {
                    ready.put(entry.getKey(), entry.getValue());
                } else {
                    nextReadyMs = Math.min(nextReadyMs, entry.getValue().backoffUntilMs());
                }
            }
            if (!ready.isEmpty()) {
                // Under the lock, so an addition either is in this round or sees the round out and supersedes it.
                fetching = true;
                superseded = false;
            }
            if (ready.isEmpty() && running) {
                long waitMs = nextReadyMs == Long.MAX_VALUE ? 1_000 : Math.max(1, nextReadyMs - nowMs);
                changed.await(Math.min(waitMs, 1_000), TimeUnit.MILLISECONDS);
            }
            return ready;
        } finally {
            lock.unlock();
        }
    }

    private FetchResponse fetch(FollowerFetchSession.Request request) throws IOException {
        throwIfSuperseded();
        if (client == null || client.isClosed()) {
            InetSocketAddress address = endpoints.apply(sourceBrokerId).orElseThrow(() -> new IOException(
                    "broker " + sourceBrokerId + " has no registered endpoint"));
            client = BlockingWireClient.connect(address, security, config.socketTimeoutMs(),
                    "broker-" + localBrokerId + "-fetcher", config.fetchResponseMaxBytes() + RESPONSE_OVERHEAD_BYTES);
        }
        // After publishing the client: an addition either sees it (and aborts it) or is seen here.
        throwIfSuperseded();
        stats.recordRequest(request.isFull(), request.toSend().size());
        return client.send(request(request), FETCH_VERSION);
    }

    private void throwIfSuperseded() throws IOException {
        if (superseded) {
            throw new IOException("a partition was added while the fetch was prepared");
        }
    }

    /** What this round asks for a partition: the log's end, its last epoch and start, as the leader must know them. */
    private FollowerFetchSession.PartitionFetch fetchState(FollowerPartition follower) {
        Partition partition = follower.partition();
        Log log = partition.log();
        return new FollowerFetchSession.PartitionFetch(partition.topicId(), partition.topicPartition().partition(),
                follower.leaderEpoch(), partition.logEndOffset(),
                log.leaderEpochCache().latestEntry().isPresent() ? log.leaderEpochCache().latestEpoch() : NO_EPOCH,
                log.logStartOffset(), config.fetchMaxBytes());
    }

    private FetchRequest request(FollowerFetchSession.Request session) {
        FetchRequest request = new FetchRequest()
                .setReplicaState(new FetchRequest.ReplicaState()
                        .setReplicaId(localBrokerId)
                        .setReplicaEpoch(brokerEpoch.getAsLong()))
                .setMaxWaitMs(config.fetchWaitMaxMs())
                .setMinBytes(config.fetchMinBytes())
                .setMaxBytes(config.fetchResponseMaxBytes())
                .setIsolationLevel((byte) 0)
                .setSessionId(session.sessionId())
                .setSessionEpoch(session.epoch())
                .setRackId("");
        Map<UUID, FetchRequest.FetchTopic> topics = new HashMap<>();
        for (FollowerFetchSession.PartitionFetch fetch : session.toSend().values()) {
            FetchRequest.FetchTopic topic = topics.computeIfAbsent(fetch.topicId(), id -> {
                FetchRequest.FetchTopic added = new FetchRequest.FetchTopic().setTopicId(id);
                request.topics().add(added);
                return added;
            });
            topic.partitions().add(new FetchRequest.FetchPartition()
                    .setPartition(fetch.partition())
                    .setCurrentLeaderEpoch(fetch.currentLeaderEpoch())
                    .setFetchOffset(fetch.fetchOffset())
                    .setLastFetchedEpoch(fetch.lastFetchedEpoch())
                    .setLogStartOffset(fetch.logStartOffset())
                    .setPartitionMaxBytes(fetch.maxBytes()));
        }
        Map<UUID, FetchRequest.ForgottenTopic> forgotten = new HashMap<>();
        for (FollowerFetchSession.PartitionFetch fetch : session.toForget()) {
            forgotten.computeIfAbsent(fetch.topicId(), id -> {
                FetchRequest.ForgottenTopic added = new FetchRequest.ForgottenTopic().setTopicId(id);
                request.forgottenTopicsData().add(added);
                return added;
            }).partitions().add(fetch.partition());
        }
        return request;
    }

    private void apply(Map<TopicPartition, FollowerPartition> batch, Map<TopicPartition, Long> fetchOffsets,
                       boolean full, FetchResponse response) {
        short topError = response.errorCode();
        if (!session.onResponse(topError, response.sessionId())) {
            Errors error = Errors.forCode(topError);
            if (error == Errors.FETCH_SESSION_ID_NOT_FOUND || error == Errors.INVALID_FETCH_SESSION_EPOCH) {
                // The leader lost or moved past the session (a restart, an eviction): the next fetch is a full one.
                LOG.info("Broker {} starts a new fetch session with broker {} after {}", localBrokerId, sourceBrokerId,
                        error);
                return;
            }
            LOG.info("Broker {} fetch from broker {} failed with error code {}", localBrokerId, sourceBrokerId,
                    topError);
            backOff(batch);
            return;
        }
        Map<UUID, Map<Integer, FetchResponse.PartitionData>> answers = new HashMap<>();
        for (FetchResponse.FetchableTopicResponse topic : response.responses()) {
            Map<Integer, FetchResponse.PartitionData> byPartition = answers.computeIfAbsent(topic.topicId(),
                    id -> new HashMap<>());
            for (FetchResponse.PartitionData partition : topic.partitions()) {
                byPartition.put(partition.partitionIndex(), partition);
            }
        }
        Map<TopicPartition, FollowerPartition> failed = new LinkedHashMap<>();
        Map<TopicPartition, FollowerPartition> leaderCatchingUp = new LinkedHashMap<>();
        lock.lock();
        try {
            for (Map.Entry<TopicPartition, FollowerPartition> entry : batch.entrySet()) {
                FollowerPartition follower = entry.getValue();
                if (partitions.get(entry.getKey()) != follower) {
                    continue; // removed or re-added in a newer epoch while the fetch was out
                }
                FetchResponse.PartitionData answer = answers.getOrDefault(follower.partition().topicId(), Map.of())
                        .get(entry.getKey().partition());
                if (answer == null) {
                    if (full) {
                        failed.put(entry.getKey(), follower);
                    } // an incremental answer leaves out partitions with nothing new
                } else if (!applyPartition(follower, fetchOffsets.get(entry.getKey()), answer)) {
                    (leaderCatchingUp(answer.errorCode()) ? leaderCatchingUp : failed).put(entry.getKey(), follower);
                }
            }
        } finally {
            lock.unlock();
        }
        backOff(failed, config.fetchBackoffMs());
        backOff(leaderCatchingUp, Math.min(config.fetchBackoffMs(), LEADER_CATCHING_UP_BACKOFF_MS));
    }

    /** The leader has not applied the leadership this follower fetches in (it says it is no leader, or an older one). */
    static boolean leaderCatchingUp(short errorCode) {
        return errorCode == Errors.NOT_LEADER_OR_FOLLOWER.code() || errorCode == Errors.UNKNOWN_LEADER_EPOCH.code();
    }

    /**
     * Applies the leader's answer to a fetch sent at {@code fetchOffset}. Records that do not continue the log (they
     * start elsewhere than its end, leave a gap, or carry an older leader epoch) are refused by the log and nothing of
     * them is written; the follower then truncates to its high watermark, below which its data is the leader's, and
     * fetches again, so that the leader's diverging epoch check (KIP-320) finds where the logs part.
     *
     * @return false if the partition should back off
     */
    boolean applyPartition(FollowerPartition follower, long fetchOffset, FetchResponse.PartitionData answer) {
        Partition partition = follower.partition();
        int epoch = follower.leaderEpoch();
        Errors error = Errors.forCode(answer.errorCode());
        if (partition.logEndOffset() != fetchOffset) {
            // The log moved since the fetch was sent (only this thread writes it, so it was truncated or re-added):
            // the answer is about another log end, and records from it would land past the truncation point.
            LOG.info("Broker {} dropped the answer for {} fetched at offset {} from broker {}: the log now ends at {}",
                    localBrokerId, partition.topicPartition(), fetchOffset, sourceBrokerId, partition.logEndOffset());
            return true;
        }
        try {
            switch (error) {
                case NONE -> {
                    FetchResponse.EpochEndOffset diverging = answer.divergingEpoch();
                    if (diverging.endOffset() >= 0) {
                        return truncateDiverged(partition, epoch,
                                new EpochEndOffset(diverging.epoch(), diverging.endOffset()));
                    }
                    // A slice of the response's read buffer: appended without another copy.
                    ByteBuffer records = wholeBatches(answer.records());
                    if (records.hasRemaining()) {
                        int bytes = records.remaining();
                        try {
                            partition.appendAsFollower(records, epoch, clockMs.getAsLong());
                            if (quota.isThrottled(partition.topicPartition())) {
                                quota.record(bytes);
                            }
                        } catch (UnexpectedAppendOffsetException | UnexpectedLeaderEpochException e) {
                            return refused(partition, epoch, fetchOffset, e.getMessage());
                        }
                    }
                    partition.updateFollowerOffsets(answer.highWatermark(), answer.logStartOffset(), epoch);
                    return true;
                }
                case OFFSET_OUT_OF_RANGE -> {
                    return handleOutOfRange(partition, epoch, fetchOffset, answer.logStartOffset(),
                            answer.highWatermark());
                }
                default -> {
                    LOG.debug("Broker {} fetch of {} from broker {} failed with {}", localBrokerId,
                            partition.topicPartition(), sourceBrokerId, error);
                    return false;
                }
            }
        } catch (ReplicaException e) {
            // The partition changed role or epoch under the fetch: the metadata thread re-assigns it.
            LOG.debug("Broker {} dropped an answer for {}: {}", localBrokerId, partition.topicPartition(), e.getMessage());
            return false;
        } catch (LogStorageException e) {
            // A failed disk: the log directory goes offline and takes this partition off the fetcher.
            LOG.warn("Broker {} could not apply the fetched data of {} at offset {}: {}", localBrokerId,
                    partition.topicPartition(), fetchOffset, e.getMessage());
            return false;
        } catch (RuntimeException e) {
            LOG.error("Broker {} could not apply the fetched data of {} at offset {}", localBrokerId,
                    partition.topicPartition(), fetchOffset, e);
            return false;
        }
    }

    /** The log refused fetched records: truncate to the high watermark and fetch again, or back off there. */
    private boolean refused(Partition partition, int epoch, long fetchOffset, String reason) {
        long highWatermark = partition.highWatermark();
        long logEnd = partition.logEndOffset();
        if (logEnd > highWatermark) {
            LOG.warn("Broker {} refused the records of {} fetched at offset {} from broker {} in epoch {}: {}; it truncates"
                    + " from {} to its high watermark {} and fetches again", localBrokerId, partition.topicPartition(),
                    fetchOffset, sourceBrokerId, epoch, reason, logEnd, highWatermark);
            partition.truncateTo(highWatermark, epoch);
            return true;
        }
        LOG.warn("Broker {} refused the records of {} fetched at offset {} from broker {} in epoch {}: {}; it backs off"
                + " (its log ends at its high watermark {})", localBrokerId, partition.topicPartition(), fetchOffset,
                sourceBrokerId, epoch, reason, highWatermark);
        return false;
    }

    /** @return false (back off) if the truncation changed nothing, so the next fetch would get the same answer */
    private boolean truncateDiverged(Partition partition, int epoch, EpochEndOffset diverging) {
        Log log = partition.log();
        long logEnd = log.logEndOffset();
        int lastEpoch = log.leaderEpochCache().latestEpoch();
        long target = Truncation.offsetFor(diverging, e -> log.leaderEpochCache().endOffsetFor(e, log.logEndOffset()),
                logEnd, partition.highWatermark());
        partition.truncateTo(target, epoch);
        if (log.logEndOffset() == logEnd && log.leaderEpochCache().latestEpoch() == lastEpoch) {
            LOG.warn("Broker {} found nothing to truncate in {} at {} for the leader's epoch {} ending at {}; it backs"
                    + " off", localBrokerId, partition.topicPartition(), logEnd, diverging.epoch(),
                    diverging.endOffset());
            return false;
        }
        LOG.info("Broker {} truncates {} from {} to {}: the leader's epoch {} ends at {}", localBrokerId,
                partition.topicPartition(), logEnd, target, diverging.epoch(), diverging.endOffset());
        return true;
    }

    private boolean handleOutOfRange(Partition partition, int epoch, long fetchOffset, long leaderLogStart,
                                     long leaderHighWatermark) {
        if (leaderLogStart >= 0 && fetchOffset < leaderLogStart) {
            LOG.info("Broker {} restarts {} at the leader's log start {} (it was at {})", localBrokerId,
                    partition.topicPartition(), leaderLogStart, fetchOffset);
            partition.truncateFullyAndStartAt(leaderLogStart, epoch);
            return true;
        }
        if (leaderHighWatermark >= 0 && fetchOffset > leaderHighWatermark) {
            // Past the leader's end: everything above its (committed) watermark is in doubt.
            LOG.info("Broker {} truncates {} from {} to the leader's high watermark {}", localBrokerId,
                    partition.topicPartition(), fetchOffset, leaderHighWatermark);
            partition.truncateTo(leaderHighWatermark, epoch);
            return true;
        }
        return false;
    }

    /** The record bytes without a trailing partial batch (a leader may cut the last one at the byte limit). */
    static ByteBuffer wholeBatches(ByteBuffer records) {
        if (records == null) {
            return ByteBuffer.allocate(0);
        }
        int end = records.position();
        while (records.limit() - end >= RecordBatch.HEADER_SIZE) {
            int batchBytes = 12 + records.getInt(end + 8); // base offset (8) + length (4) + length bytes
            if (batchBytes <= 12 || end + batchBytes > records.limit()) {
                break;
            }
            end += batchBytes;
        }
        return records.slice(records.position(), end - records.position());
    }

    /** Backs the partitions off, unless they were re-added (a newer state) meanwhile. */
    private void backOff(Map<TopicPartition, FollowerPartition> failed) {
        backOff(failed, config.fetchBackoffMs());
    }

    private void backOff(Map<TopicPartition, FollowerPartition> failed, long backoffMs) {
        if (failed.isEmpty()) {
            return;
        }
        long untilMs = clockMs.getAsLong() + backoffMs;
        lock.lock();
        try {
            for (Map.Entry<TopicPartition, FollowerPartition> entry : failed.entrySet()) {
                if (partitions.get(entry.getKey()) == entry.getValue()) {
                    partitions.put(entry.getKey(), entry.getValue().backedOffUntil(untilMs));
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private void pause(long ms) {
        lock.lock();
        try {
            changed.await(ms, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        } finally {
            lock.unlock();
        }
    }

    private void closeClient() {
        if (client != null) {
            client.close();
            client = null;
        }
    }
}
