package io.kraft.broker.replica;

import io.kraft.broker.fetch.FetchIsolation;
import io.kraft.broker.fetch.FetchReadiness;
import io.kraft.broker.fetch.PartitionRead;
import io.kraft.metadata.image.PartitionRegistration;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.AbortedTxn;
import io.kraft.storage.log.AppendInfo;
import io.kraft.storage.log.CommittedRead;
import io.kraft.storage.log.EpochEndOffset;
import io.kraft.storage.log.FileSlice;
import io.kraft.storage.log.Log;
import io.kraft.storage.log.OffsetOutOfRangeException;
import io.kraft.storage.log.TopicPartition;
import io.kraft.storage.record.EndTransactionMarker;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.UnaryOperator;

/**
 * One partition this broker hosts: its log, its role (leader or follower) and leader epoch from the
 * metadata, and its high watermark. As leader the high watermark is the smallest log end offset over the
 * in-sync replicas (followers report theirs through Fetch requests), so with a single-replica ISR it
 * follows every append. Consumers read only below it. Appends and reads hold the read side of the
 * role lock; role changes hold the write side, so no append lands with a stale epoch.
 *
 * <p>As leader it also decides ISR changes (it proposes them; the controller commits them): a follower
 * outside the ISR joins once its log end reaches the high watermark and the start of this leader's epoch,
 * an ISR member leaves once it has not caught up to the leader's log end for {@code replica.lag.time.max.ms}.
 * One change is in flight at a time, and while it is the high watermark counts the members of both the
 * current and the proposed ISR, so a replica joining is never behind a watermark committed without it.
 * As follower its log is written only by the replica fetcher ({@link #appendAsFollower}, truncations).
 *
 * <p>Transactions (KIP-98): the leader appends the coordinator's markers ({@link #appendTxnMarker}); the last
 * stable offset, below which read_committed consumers read, is the log's for the current high watermark.
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
    /** Replaced only when a move to another log directory completes (under the role lock's write side). */
    private volatile Log log;
    private final ReentrantReadWriteLock roleLock = new ReentrantReadWriteLock();
    /** Followers' fetch positions and catch-up times; absent = not fetched since this term began. */
    private final Map<Integer, FollowerState> followers = new ConcurrentHashMap<>();
    private final Object highWatermarkLock = new Object();
    private final UUID topicId;
    private volatile PartitionRegistration registration;
    private volatile boolean leader;
    private volatile long highWatermark;
    private volatile long lastLeaderHighWatermark = -1;
    private volatile MinIsr minIsr = MinIsr.DEFAULT;
    /** When this broker became leader (followers count as caught up then). */
    private volatile long leaderSinceMs;
    /** The log end offset at which this leader's epoch began: joining the ISR needs at least this. */
    private volatile long leaderEpochStartOffset;
    /** The ISR change sent to the controller and not answered yet, or null. */
    private volatile IsrChange pendingIsrChange;
    /** After a refused ISR change no other is proposed before this time (the metadata may be catching up). */
    private volatile long isrChangeRetryAfterMs;
    static final long ISR_CHANGE_RETRY_BACKOFF_MS = 100;

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

    /**
     * Swaps this partition's log for the one {@code swap} returns from the current one (a move between log
     * directories completing, KIP-113), with appends, truncations and role changes held off meanwhile.
     */
    void replaceLog(UnaryOperator<Log> swap) {
        Lock lock = roleLock.writeLock();
        lock.lock();
        try {
            log = swap.apply(log);
        } finally {
            lock.unlock();
        }
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

    /**
     * The last stable offset (KIP-98): the first offset of the oldest transaction open or with its marker not yet
     * below the high watermark, else the high watermark.
     */
    public long lastStableOffset() {
        return log.lastStableOffset(highWatermark);
    }

    public long logStartOffset() {
        return log.logStartOffset();
    }

    public long logEndOffset() {
        return log.logEndOffset();
    }

    /** On a follower, the leader's high watermark as last fetched (-1 before the first fetch): its lag's base. */
    public long lastLeaderHighWatermark() {
        return lastLeaderHighWatermark;
    }

    /** The topic's min.insync.replicas as this partition applies it. */
    public int minInsyncReplicas() {
        return minIsr.minInsyncReplicas();
    }

    void setMinIsr(MinIsr minIsr) {
        this.minIsr = minIsr;
    }

    /**
     * Becomes leader for the registration's epoch: the epoch starts at the log end offset in the leader
     * epoch cache, followers' positions are forgotten until they fetch again.
     *
     * @return true if the high watermark moved
     */
    boolean makeLeader(PartitionRegistration newRegistration, long nowMs) {
        Lock lock = roleLock.writeLock();
        lock.lock();
        try {
            registration = newRegistration;
            leader = true;
            followers.clear();
            pendingIsrChange = null;
            leaderSinceMs = nowMs;
            leaderEpochStartOffset = log.logEndOffset();
            log.leaderEpochCache().assign(newRegistration.leaderEpoch(), log.logEndOffset());
            return maybeIncrementHighWatermark();
        } finally {
            lock.unlock();
        }
    }

    /** Becomes a follower of the registration's leader (the replica fetcher then fetches from it). */
    void makeFollower(PartitionRegistration newRegistration) {
        Lock lock = roleLock.writeLock();
        lock.lock();
        try {
            if (registration == null || registration.leader() != newRegistration.leader()) {
                lastLeaderHighWatermark = -1; // another leader's watermark says nothing of the lag behind this one
            }
            registration = newRegistration;
            leader = false;
            followers.clear();
            pendingIsrChange = null;
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
            PartitionRegistration current = registration;
            if (current != null && current.leaderEpoch() == newRegistration.leaderEpoch()
                    && current.partitionEpoch() > newRegistration.partitionEpoch()) {
                return false; // an older state than one already applied (a controller answer may overtake the log)
            }
            registration = newRegistration;
            followers.keySet().retainAll(newRegistration.replicas());
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
            requireMinIsr(requiredAcks, current);
            AppendInfo info = log.append(records, current.leaderEpoch(), nowMs);
            return new LogAppendResult(info, maybeIncrementHighWatermark());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Appends a transaction marker as leader for the coordinator (KIP-98), which waits for it as for acks=all.
     *
     * @throws ReplicaException NOT_LEADER_OR_FOLLOWER, or NOT_ENOUGH_REPLICAS with an ISR smaller than
     *                          min.insync.replicas; the log's producer epoch errors pass through
     */
    public LogAppendResult appendTxnMarker(long producerId, short producerEpoch, EndTransactionMarker marker,
                                           long nowMs) {
        Lock lock = roleLock.readLock();
        lock.lock();
        try {
            PartitionRegistration current = requireLeader();
            requireMinIsr((short) -1, current);
            AppendInfo info = log.appendTransactionMarker(producerId, producerEpoch, marker, current.leaderEpoch(),
                    nowMs);
            return new LogAppendResult(info, maybeIncrementHighWatermark());
        } finally {
            lock.unlock();
        }
    }

    private void requireMinIsr(short requiredAcks, PartitionRegistration current) {
        if (requiredAcks == -1 && minIsr.under(current)) {
            throw new ReplicaException(Errors.NOT_ENOUGH_REPLICAS, "partition " + topicPartition + " has "
                    + current.isr().size() + " in-sync replicas, fewer than min.insync.replicas "
                    + minIsr.minInsyncReplicas());
        }
    }

    /**
     * Records a follower's fetch position as its log end offset, and when it last caught up: now if it asks
     * for the leader's log end, else the time of its previous fetch if it has reached the log end that fetch saw.
     * An offset past this log's end is ignored. The caller passes only fetches answered without an error or a
     * diverging epoch.
     *
     * @return true if the high watermark moved
     * @throws ReplicaException NOT_LEADER_OR_FOLLOWER if this broker does not lead, or the fetcher is no replica
     */
    boolean updateFollowerFetchState(int replicaId, long fetchOffset, long nowMs) {
        return updateFollowerFetchState(replicaId, fetchOffset, -1L, nowMs);
    }

    /** As {@link #updateFollowerFetchState(int, long, long)}, remembering the broker epoch the fetch named. */
    boolean updateFollowerFetchState(int replicaId, long fetchOffset, long brokerEpoch, long nowMs) {
        Lock lock = roleLock.readLock();
        lock.lock();
        try {
            PartitionRegistration current = requireLeader();
            if (!current.replicas().contains(replicaId) || replicaId == localBrokerId) {
                throw new ReplicaException(Errors.NOT_LEADER_OR_FOLLOWER, "broker " + replicaId
                        + " is not a follower of partition " + topicPartition + " (replicas " + current.replicas() + ")");
            }
            long leaderEnd = log.logEndOffset();
            if (fetchOffset > leaderEnd) {
                // Past this log's end: not a position here (the read answered a divergence or out of range).
                return false;
            }
            followers.compute(replicaId, (id, before) -> {
                long caughtUpMs = before == null ? leaderSinceMs : before.lastCaughtUpTimeMs();
                if (fetchOffset >= leaderEnd) {
                    caughtUpMs = nowMs;
                } else if (before != null && fetchOffset >= before.leaderEndOffsetAtLastFetch()) {
                    caughtUpMs = Math.max(caughtUpMs, before.lastFetchTimeMs());
                }
                return new FollowerState(fetchOffset, caughtUpMs, leaderEnd, nowMs, brokerEpoch);
            });
            return maybeIncrementHighWatermark();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The ISR expansion to propose after {@code replicaId} fetched: when it is a replica outside the ISR whose
     * log end reached the high watermark and the start of this leader's epoch, and {@code eligible} (its broker
     * is unfenced, and the incarnation that fetched is the registered one, KIP-903). Empty while another change is
     * in flight or shortly after one was refused. The returned change is then in flight.
     */
    Optional<IsrChange> maybeExpandIsr(int replicaId, ReplicaEligibility eligible, long nowMs) {
        Lock lock = roleLock.readLock();
        lock.lock();
        try {
            PartitionRegistration current = registration;
            FollowerState state = followers.get(replicaId);
            if (!leader || current == null || pendingIsrChange != null || nowMs < isrChangeRetryAfterMs || state == null
                    || current.isr().contains(replicaId) || !current.replicas().contains(replicaId)
                    || state.logEndOffset() < highWatermark || state.logEndOffset() < leaderEpochStartOffset
                    || !eligible.test(replicaId, state.brokerEpoch())) {
                return Optional.empty();
            }
            List<Integer> newIsr = new ArrayList<>(current.isr());
            newIsr.add(replicaId);
            return Optional.of(propose(current, newIsr));
        } finally {
            lock.unlock();
        }
    }

    /**
     * The ISR shrink to propose at {@code nowMs}: without the members (never this leader) that have not caught up
     * to the leader's log end for longer than {@code lagTimeMaxMs}. Empty if none lag or a change is in flight.
     */
    Optional<IsrChange> maybeShrinkIsr(long nowMs, long lagTimeMaxMs) {
        Lock lock = roleLock.readLock();
        lock.lock();
        try {
            PartitionRegistration current = registration;
            if (!leader || current == null || pendingIsrChange != null || nowMs < isrChangeRetryAfterMs) {
                return Optional.empty();
            }
            long leaderEnd = log.logEndOffset();
            List<Integer> newIsr = new ArrayList<>();
            for (int member : current.isr()) {
                if (member == localBrokerId || !isLagging(member, nowMs, lagTimeMaxMs, leaderEnd)) {
                    newIsr.add(member);
                }
            }
            if (newIsr.size() == current.isr().size()) {
                return Optional.empty();
            }
            return Optional.of(propose(current, newIsr));
        } finally {
            lock.unlock();
        }
    }

    private boolean isLagging(int member, long nowMs, long lagTimeMaxMs, long leaderEnd) {
        FollowerState state = followers.get(member);
        if (state != null && state.logEndOffset() >= leaderEnd) {
            return false; // caught up now, even if it has not fetched lately (nothing new to fetch)
        }
        long caughtUpMs = state == null ? leaderSinceMs : state.lastCaughtUpTimeMs();
        return nowMs - caughtUpMs > lagTimeMaxMs;
    }

    /** Whether a replica may join the ISR, given the broker epoch its fetches named (-1 if none). */
    @FunctionalInterface
    interface ReplicaEligibility {
        boolean test(int replicaId, long fetchBrokerEpoch);
    }

    private IsrChange propose(PartitionRegistration current, List<Integer> newIsr) {
        List<Long> brokerEpochs = new ArrayList<>();
        for (int member : newIsr) {
            FollowerState state = member == localBrokerId ? null : followers.get(member);
            brokerEpochs.add(state == null ? -1L : state.brokerEpoch());
        }
        IsrChange change = new IsrChange(topicPartition, topicId, current.leaderEpoch(), current.partitionEpoch(),
                List.copyOf(newIsr), brokerEpochs);
        pendingIsrChange = change;
        return change;
    }

    /**
     * The controller answered {@code change}: it is no longer in flight, and the answer (the partition as the
     * controller now has it, if it succeeded) is applied when it is newer than what this broker has.
     *
     * @return true if the high watermark moved
     */
    boolean completeIsrChange(IsrChange change, Optional<PartitionRegistration> answer, long nowMs) {
        if (pendingIsrChange == change) {
            pendingIsrChange = null;
            if (answer.isEmpty()) {
                isrChangeRetryAfterMs = nowMs + ISR_CHANGE_RETRY_BACKOFF_MS;
            }
        }
        PartitionRegistration current = registration;
        if (answer.isPresent() && current != null && answer.get().leaderEpoch() == current.leaderEpoch()
                && answer.get().partitionEpoch() > current.partitionEpoch()) {
            return updateRegistration(answer.get());
        }
        // A refused change held the watermark on the union of both ISRs: it may move now.
        return leader && maybeIncrementHighWatermark();
    }

    /** The ISR change in flight, if any. */
    Optional<IsrChange> pendingIsrChange() {
        return Optional.ofNullable(pendingIsrChange);
    }

    /** Whether {@code requiredOffset} is below the high watermark, i.e. replicated to the whole ISR. */
    boolean isReplicatedTo(long requiredOffset) {
        return highWatermark >= requiredOffset;
    }

    /** The ISR is smaller than min.insync.replicas (acks=all answers NOT_ENOUGH_REPLICAS_AFTER_APPEND). */
    boolean isUnderMinIsr() {
        PartitionRegistration current = registration;
        return current != null && minIsr.under(current);
    }

    private boolean maybeIncrementHighWatermark() {
        PartitionRegistration current = registration;
        if (!leader || current == null || minIsr.holdsHighWatermark(current)) {
            return false; // KIP-966: under min ISR with ELR on, what an ELR member lacks must not become visible
        }
        synchronized (highWatermarkLock) {
            long candidate = log.logEndOffset();
            for (int replica : maximalIsr(current)) {
                if (replica == localBrokerId) {
                    continue;
                }
                FollowerState follower = followers.get(replica);
                if (follower == null) {
                    return false; // a member whose position is unknown holds the watermark where it is
                }
                candidate = Math.min(candidate, follower.logEndOffset());
            }
            if (candidate > highWatermark) {
                highWatermark = candidate;
                return true;
            }
            return false;
        }
    }

    /** The ISR and the members of a change in flight: the watermark waits for all of them. */
    private Set<Integer> maximalIsr(PartitionRegistration current) {
        IsrChange pending = pendingIsrChange;
        if (pending == null) {
            return Set.copyOf(current.isr());
        }
        Set<Integer> union = new LinkedHashSet<>(current.isr());
        union.addAll(pending.newIsr());
        return union;
    }

    // ---- follower ----------------------------------------------------------------------------------

    /**
     * Appends batches fetched from the leader of {@code leaderEpoch}, keeping their offsets and epochs.
     *
     * @throws ReplicaException NOT_LEADER_OR_FOLLOWER / FENCED_LEADER_EPOCH if this replica is no longer a follower
     *                          in that epoch (the fetcher's state is stale)
     */
    public AppendInfo appendAsFollower(ByteBuffer records, int leaderEpoch, long nowMs) {
        Lock lock = roleLock.readLock();
        lock.lock();
        try {
            requireFollower(leaderEpoch);
            return log.appendAsFollower(records, nowMs);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Truncates a follower's log to {@code offset} (it diverged from the leader), and its high watermark with it.
     *
     * @throws ReplicaException if this replica is no longer a follower in {@code leaderEpoch}
     */
    public void truncateTo(long offset, int leaderEpoch) {
        Lock lock = roleLock.readLock();
        lock.lock();
        try {
            requireFollower(leaderEpoch);
            log.truncateTo(offset);
            lowerHighWatermarkToLogEnd();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Empties a follower's log and restarts it at {@code offset} (the leader's log start is past its end).
     *
     * @throws ReplicaException if this replica is no longer a follower in {@code leaderEpoch}
     */
    public void truncateFullyAndStartAt(long offset, int leaderEpoch) {
        Lock lock = roleLock.readLock();
        lock.lock();
        try {
            requireFollower(leaderEpoch);
            log.truncateFullyAndStartAt(offset);
            synchronized (highWatermarkLock) {
                highWatermark = offset;
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * A follower learned the leader's high watermark and log start: its own watermark becomes the leader's
     * bounded by its log end, and its log start follows the leader's (DeleteRecords, retention).
     */
    public void updateFollowerOffsets(long leaderHighWatermark, long leaderLogStartOffset, int leaderEpoch) {
        Lock lock = roleLock.readLock();
        lock.lock();
        try {
            requireFollower(leaderEpoch);
            long logEnd = log.logEndOffset();
            if (leaderLogStartOffset > log.logStartOffset()) {
                log.deleteRecordsBefore(Math.min(leaderLogStartOffset, logEnd));
            }
            lastLeaderHighWatermark = leaderHighWatermark;
            synchronized (highWatermarkLock) {
                highWatermark = Math.max(log.logStartOffset(), Math.min(leaderHighWatermark, logEnd));
            }
        } finally {
            lock.unlock();
        }
    }

    private void lowerHighWatermarkToLogEnd() {
        synchronized (highWatermarkLock) {
            highWatermark = Math.max(log.logStartOffset(), Math.min(highWatermark, log.logEndOffset()));
        }
    }

    private void requireFollower(int leaderEpoch) {
        PartitionRegistration current = registration;
        if (leader || current == null) {
            throw new ReplicaException(Errors.NOT_LEADER_OR_FOLLOWER, "broker " + localBrokerId
                    + " is not a follower of partition " + topicPartition);
        }
        if (current.leaderEpoch() != leaderEpoch) {
            throw new ReplicaException(Errors.FENCED_LEADER_EPOCH, "partition " + topicPartition + " on broker "
                    + localBrokerId + " follows leader epoch " + current.leaderEpoch() + ", not " + leaderEpoch);
        }
    }

    private PartitionRegistration requireLeader() {
        PartitionRegistration current = registration;
        if (!leader || current == null) {
            throw new ReplicaException(Errors.NOT_LEADER_OR_FOLLOWER, "broker " + localBrokerId
                    + " does not lead partition " + topicPartition
                    + (current == null ? "" : " (leader " + current.leader() + ", epoch " + current.leaderEpoch() + ")"));
        }
        return current;
    }

    /** NONE, or FENCED_LEADER_EPOCH / UNKNOWN_LEADER_EPOCH when the request's epoch is older / newer than ours. */
    private Errors checkLeaderEpoch(int currentLeaderEpoch, PartitionRegistration current) {
        if (currentLeaderEpoch == NO_EPOCH || current == null) {
            return Errors.NONE;
        }
        if (currentLeaderEpoch < current.leaderEpoch()) {
            return Errors.FENCED_LEADER_EPOCH;
        }
        if (currentLeaderEpoch > current.leaderEpoch()) {
            return Errors.UNKNOWN_LEADER_EPOCH;
        }
        return Errors.NONE;
    }

    /** Checks role and epoch for a request; throws the matching error. */
    private PartitionRegistration checkRequest(int currentLeaderEpoch, boolean requireLeader) {
        PartitionRegistration current = registration;
        if (requireLeader) {
            current = requireLeader();
        } else if (current == null) {
            throw new ReplicaException(Errors.NOT_LEADER_OR_FOLLOWER, "partition " + topicPartition
                    + " has no role on broker " + localBrokerId + " yet");
        }
        Errors epochError = checkLeaderEpoch(currentLeaderEpoch, current);
        if (epochError != Errors.NONE) {
            throw new ReplicaException(epochError, "request for partition " + topicPartition + " names leader epoch "
                    + currentLeaderEpoch + ", the partition's is " + current.leaderEpoch());
        }
        return current;
    }

    /**
     * Reads from {@code fetchOffset}: at most {@code maxBytes} (a whole first batch when {@code minOneBatch}),
     * never past the high watermark for read_uncommitted consumers, the last stable offset for read_committed ones
     * (with the aborted transactions they read) or the log end for followers. Returns errors as values.
     *
     * @param lastFetchedEpoch a follower's epoch of its last fetched batch (v12+), or -1
     */
    public PartitionRead read(long fetchOffset, int currentLeaderEpoch, int lastFetchedEpoch, int maxBytes,
                              boolean minOneBatch, FetchIsolation isolation, boolean fetchOnlyFromLeader) {
        PartitionRegistration current;
        try {
            current = checkFetch(currentLeaderEpoch, fetchOnlyFromLeader);
        } catch (ReplicaException e) {
            return PartitionRead.failed(e.error(), leaderId(), leaderEpoch());
        }
        Log log = this.log; // one log throughout, even if a log directory move swaps it meanwhile
        // The watermark first: the data read below it is then certainly committed.
        long hw = highWatermark;
        long lso = log.lastStableOffset(hw);
        long logStart = log.logStartOffset();
        long logEnd = log.logEndOffset();
        Optional<EpochEndOffset> divergence = divergence(log, lastFetchedEpoch, fetchOffset, logEnd);
        if (divergence.isPresent()) {
            return new PartitionRead(Errors.NONE, FileSlice.empty(), hw, lso, logStart, logEnd,
                    divergence, current.leader(), current.leaderEpoch());
        }
        if (fetchOffset < logStart || fetchOffset > logEnd) {
            // The offsets tell a follower where to restart (log start) or truncate to (high watermark).
            return new PartitionRead(Errors.OFFSET_OUT_OF_RANGE, FileSlice.empty(), hw, lso, logStart, logEnd,
                    Optional.empty(), current.leader(), current.leaderEpoch());
        }
        boolean committed = isolation == FetchIsolation.TXN_COMMITTED;
        long maxOffset = isolation == FetchIsolation.LOG_END ? logEnd : committed ? lso : hw;
        FileSlice records = FileSlice.empty();
        List<AbortedTxn> aborted = committed ? List.of() : null;
        if (fetchOffset < maxOffset && maxBytes > 0) {
            try {
                if (committed) {
                    CommittedRead read = log.readCommitted(fetchOffset, maxBytes, maxOffset, minOneBatch);
                    records = read.result().records();
                    aborted = read.abortedTransactions();
                } else {
                    records = log.read(fetchOffset, maxBytes, maxOffset, minOneBatch).records();
                }
            } catch (OffsetOutOfRangeException e) {
                // Retention or DeleteRecords moved the log start past the offset since it was checked.
                return PartitionRead.failed(Errors.OFFSET_OUT_OF_RANGE, current.leader(), current.leaderEpoch());
            }
        }
        return new PartitionRead(Errors.NONE, records, hw, lso, logStart, logEnd, Optional.empty(),
                current.leader(), current.leaderEpoch(), aborted);
    }

    /**
     * What {@link #read} from {@code fetchOffset} would answer now, judged from offsets alone: a waiting fetch
     * re-checks its partitions on every append and watermark move, and most of those checks find nothing new, so
     * they must not cost a read of the log.
     */
    public FetchReadiness readiness(long fetchOffset, int currentLeaderEpoch, int lastFetchedEpoch, int maxBytes,
                                    FetchIsolation isolation, boolean fetchOnlyFromLeader) {
        try {
            checkFetch(currentLeaderEpoch, fetchOnlyFromLeader);
        } catch (ReplicaException e) {
            return FetchReadiness.ANSWER_NOW;
        }
        Log log = this.log;
        long hw = highWatermark;
        long logEnd = log.logEndOffset();
        if (divergence(log, lastFetchedEpoch, fetchOffset, logEnd).isPresent()
                || fetchOffset < log.logStartOffset() || fetchOffset > logEnd) {
            return FetchReadiness.ANSWER_NOW;
        }
        long maxOffset = switch (isolation) {
            case LOG_END -> logEnd;
            case HIGH_WATERMARK -> hw;
            case TXN_COMMITTED -> log.lastStableOffset(hw);
        };
        // The watermarks and the log end only ever sit on batch boundaries, so an offset below them is readable.
        return fetchOffset < maxOffset && maxBytes > 0 ? FetchReadiness.DATA : FetchReadiness.NOTHING_NEW;
    }

    /** The role and epoch checks of a fetch, under the role lock. */
    private PartitionRegistration checkFetch(int currentLeaderEpoch, boolean fetchOnlyFromLeader) {
        Lock lock = roleLock.readLock();
        lock.lock();
        try {
            return checkRequest(currentLeaderEpoch, fetchOnlyFromLeader);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Where a follower whose last fetched batch has {@code lastFetchedEpoch} diverges from this log (KIP-595's
     * diverging epoch, v12+): that epoch's end offset here, when it ends before the fetch offset or is unknown.
     */
    private static Optional<EpochEndOffset> divergence(Log log, int lastFetchedEpoch, long fetchOffset, long logEnd) {
        if (lastFetchedEpoch < 0 || log.leaderEpochCache().latestEntry().isEmpty()) {
            return Optional.empty();
        }
        EpochEndOffset epochEnd = log.leaderEpochCache().endOffsetFor(lastFetchedEpoch, logEnd);
        return epochEnd.epoch() < lastFetchedEpoch || epochEnd.endOffset() < fetchOffset
                ? Optional.of(epochEnd) : Optional.empty();
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
        long lastFetchable = switch (isolation) {
            case LOG_END -> log.logEndOffset();
            case TXN_COMMITTED -> lastStableOffset();
            case HIGH_WATERMARK -> highWatermark;
        };
        return TimestampLookup.find(log, timestamp, lastFetchable, current.leaderEpoch());
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
                throw new ReplicaException(Errors.POLICY_VIOLATION, "records of partition " + topicPartition
                        + " cannot be deleted: its cleanup.policy does not include delete");
            }
            long hw = highWatermark;
            long target = offset == -1L ? hw : offset;
            if (target < 0 || target > hw) {
                throw new ReplicaException(Errors.OFFSET_OUT_OF_RANGE, "cannot delete records of partition "
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
