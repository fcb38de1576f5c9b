package io.kraft.broker.replica;

import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.storage.log.AppendInfo;
import io.kraft.storage.log.EpochEndOffset;
import io.kraft.storage.log.EpochEntry;
import io.kraft.storage.log.FileSlice;
import io.kraft.storage.log.Log;
import io.kraft.storage.log.OffsetOutOfRangeException;
import io.kraft.storage.log.TimestampOffset;
import io.kraft.storage.log.TopicPartition;
import io.kraft.storage.record.Record;
import io.kraft.storage.record.RecordBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * One partition this broker hosts: its log, its role (leader or follower) and leader epoch from the
 * metadata, and its high watermark. As leader the high watermark is the smallest log end offset over the
 * in-sync replicas (followers report theirs through Fetch requests), so with a single-replica ISR it
 * follows every append. Consumers read only below it. Appends and reads hold the read side of the
 * role lock; role changes hold the write side, so no append lands with a stale epoch.
 */
public final class Partition {
    public static final long LATEST_TIMESTAMP = -1L;
    public static final long EARLIEST_TIMESTAMP = -2L;
    public static final long MAX_TIMESTAMP = -3L;
    public static final long EARLIEST_LOCAL_TIMESTAMP = -4L;
    public static final long LATEST_TIERED_TIMESTAMP = -5L;
    /** The current leader epoch a request sends when it does not want it checked. */
    public static final int NO_EPOCH = -1;

    private final TopicPartition topicPartition;
    private final int localBrokerId;
    private final Log log;
    private final ReentrantReadWriteLock roleLock = new ReentrantReadWriteLock();
    /** Followers' log end offsets, as their fetch offsets report them; absent = unknown since this term. */
    private final Map<Integer, Long> followerEndOffsets = new ConcurrentHashMap<>();
    private final Object highWatermarkLock = new Object();
    private final UUID topicId;
    private volatile PartitionRegistration registration;
    private volatile boolean leader;
    private volatile long highWatermark;
    private volatile int minInsyncReplicas = 1;

    Partition(TopicPartition topicPartition, UUID topicId, int localBrokerId, Log log, long checkpointedHighWatermark) {
        this.topicPartition = topicPartition;
        this.topicId = topicId;
        this.localBrokerId = localBrokerId;
        this.log = log;
        this.highWatermark = Math.max(log.logStartOffset(), Math.min(checkpointedHighWatermark, log.logEndOffset()));
    }

    public TopicPartition topicPartition() {
        return topicPartition;
    }

    public UUID topicId() {
        return topicId;
    }

    public Log log() {
        return log;
    }

    public boolean isLeader() {
        return leader;
    }

    /** The partition's current registration (leader, epochs, replicas, ISR), or null before the first role. */
    public PartitionRegistration registration() {
        return registration;
    }

    public int leaderEpoch() {
        PartitionRegistration current = registration;
        return current == null ? NO_EPOCH : current.leaderEpoch();
    }

    public int leaderId() {
        PartitionRegistration current = registration;
        return current == null ? PartitionRegistration.NO_LEADER : current.leader();
    }

    public long highWatermark() {
        return highWatermark;
    }

    public long logStartOffset() {
        return log.logStartOffset();
    }

    public long logEndOffset() {
        return log.logEndOffset();
    }

    void setMinInsyncReplicas(int minInsyncReplicas) {
        this.minInsyncReplicas = minInsyncReplicas;
    }

    /**
     * Becomes leader for the registration's epoch: the epoch starts at the log end offset in the leader
     * epoch cache, followers' positions are forgotten until they fetch again.
     *
     * @return true if the high watermark moved
     */
    boolean makeLeader(PartitionRegistration newRegistration) {
        Lock lock = roleLock.writeLock();
        lock.lock();
        try {
            registration = newRegistration;
            leader = true;
            followerEndOffsets.clear();
            log.leaderEpochCache().assign(newRegistration.leaderEpoch(), log.logEndOffset());
            return maybeIncrementHighWatermark();
        } finally {
            lock.unlock();
        }
    }

    /** Becomes a follower of the registration's leader (fetching from it is not this broker's job yet). */
    void makeFollower(PartitionRegistration newRegistration) {
        Lock lock = roleLock.writeLock();
        lock.lock();
        try {
            registration = newRegistration;
            leader = false;
            followerEndOffsets.clear();
            synchronized (highWatermarkLock) {
                highWatermark = Math.min(highWatermark, log.logEndOffset());
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes a registration whose leader and epoch are unchanged (ISR or replicas changed).
     *
     * @return true if the high watermark moved (an ISR shrink can let it advance)
     */
    boolean updateRegistration(PartitionRegistration newRegistration) {
        Lock lock = roleLock.writeLock();
        lock.lock();
        try {
            registration = newRegistration;
            followerEndOffsets.keySet().retainAll(newRegistration.replicas());
            return leader && maybeIncrementHighWatermark();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Appends a producer's batches as leader, stamping the leader epoch.
     *
     * @throws ReplicaException NOT_LEADER_OR_FOLLOWER, or NOT_ENOUGH_REPLICAS for acks=all with an ISR
     *                          smaller than min.insync.replicas
     */
    public LogAppendResult appendAsLeader(ByteBuffer records, short requiredAcks, long nowMs) {
        Lock lock = roleLock.readLock();
        lock.lock();
        try {
            PartitionRegistration current = requireLeader();
            if (requiredAcks == -1 && current.isr().size() < minInsyncReplicas) {
                throw new ReplicaException(ErrorCode.NOT_ENOUGH_REPLICAS, "partition " + topicPartition + " has "
                        + current.isr().size() + " in-sync replicas, fewer than min.insync.replicas "
                        + minInsyncReplicas);
            }
            AppendInfo info = log.append(records, current.leaderEpoch(), nowMs);
            return new LogAppendResult(info, maybeIncrementHighWatermark());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Records a follower's fetch position as its log end offset.
     *
     * @return true if the high watermark moved
     * @throws ReplicaException NOT_LEADER_OR_FOLLOWER if this broker does not lead, or the fetcher is no replica
     */
    boolean updateFollowerFetchState(int replicaId, long fetchOffset) {
        Lock lock = roleLock.readLock();
        lock.lock();
        try {
            PartitionRegistration current = requireLeader();
            if (!current.replicas().contains(replicaId) || replicaId == localBrokerId) {
                throw new ReplicaException(ErrorCode.NOT_LEADER_OR_FOLLOWER, "broker " + replicaId
                        + " is not a follower of partition " + topicPartition + " (replicas " + current.replicas() + ")");
            }
            followerEndOffsets.put(replicaId, fetchOffset);
            return maybeIncrementHighWatermark();
        } finally {
            lock.unlock();
        }
    }

    /** Whether {@code requiredOffset} is below the high watermark, i.e. replicated to the whole ISR. */
    boolean isReplicatedTo(long requiredOffset) {
        return highWatermark >= requiredOffset;
    }

    /** The ISR is smaller than min.insync.replicas (acks=all answers NOT_ENOUGH_REPLICAS_AFTER_APPEND). */
    boolean isUnderMinIsr() {
        PartitionRegistration current = registration;
        return current != null && current.isr().size() < minInsyncReplicas;
    }

    private boolean maybeIncrementHighWatermark() {
        PartitionRegistration current = registration;
        if (!leader || current == null) {
            return false;
        }
        synchronized (highWatermarkLock) {
            long candidate = log.logEndOffset();
            for (int replica : current.isr()) {
                if (replica == localBrokerId) {
                    continue;
                }
                Long followerEnd = followerEndOffsets.get(replica);
                if (followerEnd == null) {
                    return false; // a member whose position is unknown holds the watermark where it is
                }
                candidate = Math.min(candidate, followerEnd);
            }
            if (candidate > highWatermark) {
                highWatermark = candidate;
                return true;
            }
            return false;
        }
    }

    private PartitionRegistration requireLeader() {
        PartitionRegistration current = registration;
        if (!leader || current == null) {
            throw new ReplicaException(ErrorCode.NOT_LEADER_OR_FOLLOWER, "broker " + localBrokerId
                    + " does not lead partition " + topicPartition
                    + (current == null ? "" : " (leader " + current.leader() + ", epoch " + current.leaderEpoch() + ")"));
        }
        return current;
    }

    /** NONE, or FENCED_LEADER_EPOCH / UNKNOWN_LEADER_EPOCH when the request's epoch is older / newer than ours. */
    private ErrorCode checkLeaderEpoch(int currentLeaderEpoch, PartitionRegistration current) {
        if (currentLeaderEpoch == NO_EPOCH || current == null) {
            return ErrorCode.NONE;
        }
        if (currentLeaderEpoch < current.leaderEpoch()) {
            return ErrorCode.FENCED_LEADER_EPOCH;
        }
        if (currentLeaderEpoch > current.leaderEpoch()) {
            return ErrorCode.UNKNOWN_LEADER_EPOCH;
        }
        return ErrorCode.NONE;
    }

    /** Checks role and epoch for a request; throws the matching error. */
    private PartitionRegistration checkRequest(int currentLeaderEpoch, boolean requireLeader) {
        PartitionRegistration current = registration;
        if (requireLeader) {
            current = requireLeader();
        } else if (current == null) {
            throw new ReplicaException(ErrorCode.NOT_LEADER_OR_FOLLOWER, "partition " + topicPartition
                    + " has no role on broker " + localBrokerId + " yet");
        }
        ErrorCode epochError = checkLeaderEpoch(currentLeaderEpoch, current);
        if (epochError != ErrorCode.NONE) {
            throw new ReplicaException(epochError, "request for partition " + topicPartition + " names leader epoch "
                    + currentLeaderEpoch + ", the partition's is " + current.leaderEpoch());
        }
        return current;
    }

    /**
     * Reads from {@code fetchOffset}: at most {@code maxBytes} (a whole first batch when {@code minOneBatch}),
     * never past the high watermark for consumers or the log end for followers. Returns errors as values.
     *
     * @param lastFetchedEpoch a follower's epoch of its last fetched batch (v12+), or -1
     */
    public PartitionRead read(long fetchOffset, int currentLeaderEpoch, int lastFetchedEpoch, int maxBytes,
                              boolean minOneBatch, FetchIsolation isolation, boolean fetchOnlyFromLeader) {
        PartitionRegistration current;
        Lock lock = roleLock.readLock();
        lock.lock();
        try {
            current = checkRequest(currentLeaderEpoch, fetchOnlyFromLeader);
        } catch (ReplicaException e) {
            return PartitionRead.failed(e.error(), leaderId(), leaderEpoch());
        } finally {
            lock.unlock();
        }
        // The watermark first: the data read below it is then certainly committed.
        long hw = highWatermark;
        long logStart = log.logStartOffset();
        long logEnd = log.logEndOffset();
        if (lastFetchedEpoch >= 0) {
            EpochEndOffset epochEnd = log.leaderEpochCache().endOffsetFor(lastFetchedEpoch, logEnd);
            if (epochEnd.epoch() < lastFetchedEpoch || epochEnd.endOffset() < fetchOffset) {
                return new PartitionRead(ErrorCode.NONE, FileSlice.empty(), hw, hw, logStart, logEnd,
                        Optional.of(epochEnd), current.leader(), current.leaderEpoch());
            }
        }
        if (fetchOffset < logStart || fetchOffset > logEnd) {
            return PartitionRead.failed(ErrorCode.OFFSET_OUT_OF_RANGE, current.leader(), current.leaderEpoch());
        }
        long maxOffset = isolation == FetchIsolation.LOG_END ? logEnd : hw;
        FileSlice records = FileSlice.empty();
        if (fetchOffset < maxOffset && maxBytes > 0) {
            try {
                records = log.read(fetchOffset, maxBytes, maxOffset, minOneBatch).records();
            } catch (OffsetOutOfRangeException e) {
                // Retention or DeleteRecords moved the log start past the offset since it was checked.
                return PartitionRead.failed(ErrorCode.OFFSET_OUT_OF_RANGE, current.leader(), current.leaderEpoch());
            }
        }
        return new PartitionRead(ErrorCode.NONE, records, hw, hw, logStart, logEnd, Optional.empty(),
                current.leader(), current.leaderEpoch());
    }

    /**
     * ListOffsets for one timestamp or special value (-1 latest, -2 earliest, -3 max timestamp, -4 earliest
     * local, -5 latest tiered).
     *
     * @throws ReplicaException on a role or epoch mismatch
     */
    public TimestampAndOffset offsetForTimestamp(long timestamp, int currentLeaderEpoch, FetchIsolation isolation,
                                                 boolean fetchOnlyFromLeader) {
        PartitionRegistration current;
        Lock lock = roleLock.readLock();
        lock.lock();
        try {
            current = checkRequest(currentLeaderEpoch, fetchOnlyFromLeader);
        } finally {
            lock.unlock();
        }
        long lastFetchable = isolation == FetchIsolation.LOG_END ? log.logEndOffset() : highWatermark;
        if (timestamp == EARLIEST_TIMESTAMP || timestamp == EARLIEST_LOCAL_TIMESTAMP) {
            long start = log.logStartOffset();
            return new TimestampAndOffset(-1L, start, epochForOffset(start));
        }
        if (timestamp == LATEST_TIMESTAMP) {
            return new TimestampAndOffset(-1L, lastFetchable, current.leaderEpoch());
        }
        if (timestamp == LATEST_TIERED_TIMESTAMP) {
            return TimestampAndOffset.NOT_FOUND; // no tiered storage: nothing is tiered
        }
        if (timestamp == MAX_TIMESTAMP) {
            Optional<TimestampOffset> max = log.maxTimestampOffset();
            if (max.isEmpty()) {
                return TimestampAndOffset.NOT_FOUND;
            }
            // The log knows the batch; KIP-734 answers the offset of the record carrying the largest timestamp.
            TimestampAndOffset exact = firstRecordAtOrAfter(max.get(), max.get().timestampMs());
            return exact.offset() < lastFetchable ? exact : TimestampAndOffset.NOT_FOUND;
        }
        if (timestamp < 0) {
            return TimestampAndOffset.NOT_FOUND;
        }
        Optional<TimestampOffset> batchHit = log.offsetForTimestamp(timestamp);
        if (batchHit.isEmpty()) {
            return TimestampAndOffset.NOT_FOUND;
        }
        TimestampAndOffset exact = firstRecordAtOrAfter(batchHit.get(), timestamp);
        return exact.offset() < lastFetchable ? exact : TimestampAndOffset.NOT_FOUND;
    }

    /**
     * The log's time lookup works per batch; the answer must name the first record whose timestamp reaches
     * the target, so the batch found is read and its records scanned.
     */
    private TimestampAndOffset firstRecordAtOrAfter(TimestampOffset batchHit, long timestamp) {
        long start = log.logStartOffset();
        try {
            ByteBuffer bytes = log.read(Math.max(batchHit.offset(), start), 1, true).records().readFully();
            if (bytes.remaining() >= RecordBatch.HEADER_SIZE) {
                RecordBatch batch = new RecordBatch(bytes, 0);
                for (Record record : batch.records()) {
                    long recordTimestamp = batch.isLogAppendTime() ? batch.maxTimestamp() : record.timestamp();
                    if (record.offset() >= start && recordTimestamp >= timestamp) {
                        return new TimestampAndOffset(recordTimestamp, record.offset(), batch.partitionLeaderEpoch());
                    }
                }
            }
        } catch (IOException | OffsetOutOfRangeException e) {
            // The batch went away under the lookup (retention); its own answer is still a valid bound.
        }
        return new TimestampAndOffset(batchHit.timestampMs(), batchHit.offset(), epochForOffset(batchHit.offset()));
    }

    /** The leader epoch that wrote {@code offset}, from the leader epoch cache; -1 when unknown. */
    private int epochForOffset(long offset) {
        int epoch = NO_EPOCH;
        for (EpochEntry entry : log.leaderEpochCache().entries()) {
            if (entry.startOffset() <= offset) {
                epoch = entry.epoch();
            } else {
                break;
            }
        }
        return epoch;
    }

    /**
     * OffsetForLeaderEpoch: the end offset of {@code leaderEpoch} (or of the largest epoch below it) on this
     * replica, KIP-101/KIP-279.
     *
     * @throws ReplicaException on a role or epoch mismatch
     */
    public EpochEndOffset endOffsetForEpoch(int currentLeaderEpoch, int leaderEpoch, boolean fetchOnlyFromLeader) {
        Lock lock = roleLock.readLock();
        lock.lock();
        try {
            checkRequest(currentLeaderEpoch, fetchOnlyFromLeader);
            return log.leaderEpochCache().endOffsetFor(leaderEpoch, log.logEndOffset());
        } finally {
            lock.unlock();
        }
    }

    /**
     * DeleteRecords on the leader: moves the log start to {@code offset} (-1 = the high watermark).
     *
     * @return the log start offset afterwards (the partition's low watermark)
     * @throws ReplicaException NOT_LEADER_OR_FOLLOWER, OFFSET_OUT_OF_RANGE above the high watermark, or
     *                          POLICY_VIOLATION for a compacted topic without the delete policy
     */
    public long deleteRecordsBefore(long offset) {
        Lock lock = roleLock.readLock();
        lock.lock();
        try {
            requireLeader();
            if (!log.config().delete()) {
                throw new ReplicaException(ErrorCode.POLICY_VIOLATION, "records of partition " + topicPartition
                        + " cannot be deleted: its cleanup.policy does not include delete");
            }
            long hw = highWatermark;
            long target = offset == -1L ? hw : offset;
            if (target < 0 || target > hw) {
                throw new ReplicaException(ErrorCode.OFFSET_OUT_OF_RANGE, "cannot delete records of partition "
                        + topicPartition + " before offset " + offset + ": the high watermark is " + hw);
            }
            return log.deleteRecordsBefore(target);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "Partition(" + topicPartition + ", " + (leader ? "leader" : "follower") + ", epoch " + leaderEpoch()
                + ", hw " + highWatermark + ", leo " + log.logEndOffset() + ")";
    }
}
