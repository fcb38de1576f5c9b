package io.kraft.storage.log;

import io.kraft.storage.io.DurableFiles;
import io.kraft.storage.log.producer.BatchMetadata;
import io.kraft.storage.log.producer.DuplicateSequenceException;
import io.kraft.storage.log.producer.InvalidProducerEpochException;
import io.kraft.storage.log.producer.OutOfOrderSequenceException;
import io.kraft.storage.log.producer.ProducerAppendValidator;
import io.kraft.storage.log.producer.ProducerStateEntry;
import io.kraft.storage.log.producer.ProducerStateManager;
import io.kraft.storage.log.producer.UnknownProducerIdException;
import io.kraft.storage.record.CorruptRecordException;
import io.kraft.storage.record.RecordBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log of one partition: a directory of segments, appended to by the leader (assigning offsets) or
 * a follower (keeping them), read with zero copy, truncated, and trimmed by retention.
 *
 * <p>Mutations are serialized by one lock. Reads take no lock: they capture the log end (offset,
 * segment, byte position) published after each append and never look past it. Segments removed
 * from the log are renamed {@code .deleted} and stay readable for {@link LogConfig#fileDeleteDelayMs()}
 * before {@link #deleteExpiredSegments} (or close) deletes their files.
 *
 * <p>The log keeps the state of idempotent producers (KIP-98): leader appends are checked against it
 * (duplicates answered with their original offsets, gaps and fenced epochs refused), followers and
 * reloads replay it from batch headers, and it is snapshotted on roll and close ({@code .snapshot}
 * files) so a reopen replays at most the batches after the newest snapshot.
 */
public final class Log implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Log.class);

    /** Where the log ends: the next offset and the byte position in the segment holding it. */
    private record LogEnd(long nextOffset, long segmentBaseOffset, int segmentPosition) {
    }

    private final Path dir;
    private final ConcurrentSkipListMap<Long, LogSegment> segments = new ConcurrentSkipListMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final LeaderEpochCache epochCache;
    private final ProducerStateManager producerState;
    private final RetiredSegments retired = new RetiredSegments();
    private volatile LogConfig config;
    private volatile LogEnd end;
    private volatile long logStartOffset;
    private volatile long recoveryPoint;
    private long unflushedRecords;
    private long lastFlushMs = -1;
    /** Offset up to which rolled segments await their fsync, done outside the lock; -1 if none. */
    private long pendingRollFlushOffset = -1;
    /** Runs the fsync of segments rolled by appends: inline by default, a background thread in a broker. */
    private final Executor rollFlushExecutor;
    /** Bumped whenever data may be removed, so an fsync started before it cannot move the recovery point. */
    private volatile long truncationGeneration;
    /** A segment file was created or renamed since the directory was last fsynced. */
    private boolean directoryDirty;
    private volatile boolean closed;

    private Log(Path dir, LogConfig config, LogLoader.Loaded loaded, Executor rollFlushExecutor) {
        this.dir = dir;
        this.rollFlushExecutor = rollFlushExecutor;
        this.config = config;
        this.segments.putAll(loaded.segments());
        LogSegment active = segments.lastEntry().getValue();
        this.end = new LogEnd(loaded.nextOffset(), active.baseOffset(), active.sizeBytes());
        this.logStartOffset = loaded.logStartOffset();
        this.recoveryPoint = loaded.recoveryPoint();
        this.producerState = new ProducerStateManager(dir);
        try {
            this.epochCache = loadEpochCache();
            rebuildProducerState(loaded.nextOffset());
        } catch (RuntimeException e) {
            for (LogSegment segment : segments.values()) {
                segment.close();
            }
            throw e;
        }
        epochCache.truncateFromEnd(loaded.nextOffset());
        epochCache.truncateFromStart(loaded.logStartOffset());
    }

    /**
     * Loads the newest usable producer snapshot at or below {@code endOffset} (dropping newer ones)
     * and replays the batch headers from it up to {@code endOffset}; with no snapshot, from the first
     * segment. Caller holds the lock (or is the constructor).
     */
    private void rebuildProducerState(long endOffset) {
        OptionalLong snapshot = producerState.loadSnapshot(endOffset);
        long from = snapshot.orElse(0);
        for (LogSegment segment : segments.values()) {
            if (segment.baseOffset() >= endOffset) {
                break;
            }
            Long nextBase = segments.higherKey(segment.baseOffset());
            if (nextBase != null && nextBase <= from) {
                continue;
            }
            segment.forEachBatchHeaderFrom(from, batch -> {
                if (batch.baseOffset() < endOffset) {
                    producerState.update(batch);
                }
            });
        }
    }

    /**
     * Loads the leader epoch cache; a corrupt file is rebuilt from the epochs stored in every batch
     * header, which the cache only summarises.
     */
    private LeaderEpochCache loadEpochCache() {
        try {
            return new LeaderEpochCache(dir);
        } catch (CorruptCheckpointException e) {
            LOG.warn("rebuilding the leader epoch cache of {} from its batches: {}", dir, e.getMessage());
            try {
                Files.deleteIfExists(dir.resolve(LeaderEpochCache.FILE_NAME));
            } catch (IOException io) {
                throw new LogStorageException("cannot delete corrupt leader epoch checkpoint in " + dir, io);
            }
            LeaderEpochCache rebuilt = new LeaderEpochCache(dir);
            for (LogSegment segment : segments.values()) {
                segment.forEachBatch(batch -> rebuilt.assign(batch.partitionLeaderEpoch(), batch.baseOffset()));
            }
            return rebuilt;
        }
    }

    /** Opens (or creates) a log that has no checkpoint: every segment is re-validated. */
    public static Log open(Path dir, LogConfig config) {
        return open(dir, config, 0, 0, false);
    }

    /**
     * Opens (or creates) the log in {@code dir}.
     *
     * @param recoveryPoint     offset below which data is known flushed (from the recovery checkpoint)
     * @param logStartOffset    checkpointed log start; raised to the first segment's base if lower
     * @param hadCleanShutdown  true when the clean-shutdown marker was present: only corrupt or
     *                          missing indexes are rebuilt
     */
    public static Log open(Path dir, LogConfig config, long recoveryPoint, long logStartOffset,
                           boolean hadCleanShutdown) {
        return open(dir, config, recoveryPoint, logStartOffset, hadCleanShutdown, Runnable::run);
    }

    /**
     * As {@link #open(Path, LogConfig, long, long, boolean)}, with the executor that fsyncs segments
     * rolled by appends. A broker passes a background thread, as Kafka flushes a rolled segment off the
     * produce path; the appender then never waits for the disk. {@link #roll()} itself always flushes
     * before it returns.
     */
    public static Log open(Path dir, LogConfig config, long recoveryPoint, long logStartOffset,
                           boolean hadCleanShutdown, Executor rollFlushExecutor) {
        LogLoader.Loaded loaded = new LogLoader(dir, config).load(recoveryPoint, logStartOffset, hadCleanShutdown);
        return new Log(dir, config, loaded, rollFlushExecutor);
    }

    public Path dir() {
        return dir;
    }

    public LogConfig config() {
        return config;
    }

    /** Applies changed settings (topic config updates); they take effect from the next operation. */
    public void updateConfig(LogConfig newConfig) {
        this.config = newConfig;
    }

    public long logStartOffset() {
        return logStartOffset;
    }

    /** The offset the next appended record gets. */
    public long logEndOffset() {
        return end.nextOffset();
    }

    /** Offsets below this are fsynced. */
    public long recoveryPoint() {
        return recoveryPoint;
    }

    public LeaderEpochCache leaderEpochCache() {
        return epochCache;
    }

    /**
     * The idempotent producers this partition tracks, by producer id (an immutable copy: epoch, last
     * sequence, last timestamp and the cached batches of each), e.g. for DescribeProducers.
     */
    public Map<Long, ProducerStateEntry> producerState() {
        return producerState.producers();
    }

    /** One producer's state, if this partition tracks it. */
    public Optional<ProducerStateEntry> producerState(long producerId) {
        return producerState.producer(producerId);
    }

    /**
     * Forgets producers idle for producer.id.expiration.ms (also done by {@link #deleteExpiredSegments}).
     *
     * @return the number of producers removed
     */
    public int removeExpiredProducers(long nowMs) {
        lock.lock();
        try {
            ensureOpen();
            return producerState.removeExpired(nowMs, config.producerIdExpirationMs());
        } finally {
            lock.unlock();
        }
    }

    /** The segments in offset order, the active one last (a snapshot). */
    public List<LogSegment> segments() {
        return List.copyOf(segments.values());
    }

    public LogSegment activeSegment() {
        return segments.lastEntry().getValue();
    }

    public int numberOfSegments() {
        return segments.size();
    }

    public long sizeInBytes() {
        long total = 0;
        for (LogSegment segment : segments.values()) {
            total += segment.sizeBytes();
        }
        return total;
    }

    /**
     * Appends producer batches as the leader: validates every batch (nothing is written if one is bad:
     * CRC and sizes, record timestamps (KIP-937), keys in a compacted topic, then the idempotent producer
     * state), re-compresses batches whose codec differs from the topic's compression.type, then assigns
     * consecutive offsets,
     * the leader epoch and, if configured, the log-append time in place, rolls if needed and writes.
     * Batches that need no conversion are written as received.
     *
     * <p>An append repeating batches an idempotent producer already wrote (a retry, KIP-98) writes
     * nothing and returns the original batches' offsets with {@link AppendInfo#duplicate()} set.
     *
     * @throws CorruptRecordException        a batch fails validation, or its record count disagrees with its offsets
     * @throws RecordTooLargeException       a batch exceeds max.message.bytes or the append exceeds segment.bytes
     * @throws InvalidTimestampException     a CreateTime record is outside the topic's timestamp bounds
     * @throws InvalidRecordException        a record of a compacted topic has no key
     * @throws OutOfOrderSequenceException   a producer batch's sequence does not follow its producer's last
     * @throws InvalidProducerEpochException a producer batch carries a fenced (older) epoch
     * @throws UnknownProducerIdException    a producer without state does not start at sequence 0
     * @throws DuplicateSequenceException    the append mixes retried batches with new ones
     */
    public AppendInfo append(ByteBuffer records, int leaderEpoch, long nowMs) {
        LogConfig cfg = config;
        int batchCount = validate(records, cfg, true);
        RecordRules.check(records, cfg, nowMs, dir);
        // The batches as they will be stored (one for one): the caller's buffer itself unless the topic's
        // codec differs.
        ByteBuffer batches = TopicCompression.apply(records, cfg);
        if (batches != records) {
            checkSizes(batches, cfg);
        }
        AppendInfo info;
        lock.lock();
        try {
            ensureOpen();
            AppendInfo duplicate = findDuplicate(batches, cfg);
            if (duplicate != null) {
                return duplicate;
            }
            long firstOffset = end.nextOffset();
            long next = firstOffset;
            long maxTimestamp = RecordBatch.NO_TIMESTAMP;
            long offsetOfMax = -1;
            long recordCount = 0;
            for (int p = batches.position(); p < batches.limit(); ) {
                RecordBatch batch = new RecordBatch(batches, p);
                batch.setBaseOffset(next);
                batch.setPartitionLeaderEpoch(leaderEpoch);
                if (cfg.logAppendTime()) {
                    batch.setLogAppendTime(nowMs);
                }
                if (batch.maxTimestamp() > maxTimestamp) {
                    maxTimestamp = batch.maxTimestamp();
                    offsetOfMax = next;
                }
                recordCount += batch.recordCount();
                next = batch.nextOffset();
                p += batch.sizeInBytes();
            }
            appendToActive(batches, firstOffset, next - 1, recordCount, nowMs, cfg);
            epochCache.assign(leaderEpoch, firstOffset);
            updateProducerState(batches);
            info = new AppendInfo(firstOffset, next - 1, maxTimestamp, offsetOfMax,
                    cfg.logAppendTime() ? nowMs : RecordBatch.NO_TIMESTAMP, batches.remaining(), batchCount, false);
        } finally {
            lock.unlock();
        }
        scheduleRollFlush();
        return info;
    }

    /**
     * Appends batches fetched from the leader, keeping their offsets and epochs.
     *
     * @throws CorruptRecordException            a batch fails validation (nothing written)
     * @throws UnexpectedAppendOffsetException   offsets start below the log end offset or do not increase
     */
    public AppendInfo appendAsFollower(ByteBuffer records, long nowMs) {
        LogConfig cfg = config;
        int batchCount = validate(records, cfg, false);
        AppendInfo info;
        lock.lock();
        try {
            ensureOpen();
            long expected = end.nextOffset();
            long firstOffset = -1;
            long maxTimestamp = RecordBatch.NO_TIMESTAMP;
            long offsetOfMax = -1;
            long recordCount = 0;
            for (int p = records.position(); p < records.limit(); ) {
                RecordBatch batch = new RecordBatch(records, p);
                if (batch.baseOffset() < expected) {
                    throw new UnexpectedAppendOffsetException("follower append of batch at offset " + batch.baseOffset()
                            + " to log " + dir + " expects offset " + expected + " or above");
                }
                if (firstOffset < 0) {
                    firstOffset = batch.baseOffset();
                }
                if (batch.maxTimestamp() > maxTimestamp) {
                    maxTimestamp = batch.maxTimestamp();
                    offsetOfMax = batch.baseOffset();
                }
                recordCount += batch.recordCount();
                expected = batch.nextOffset();
                p += batch.sizeInBytes();
            }
            appendToActive(records, firstOffset, expected - 1, recordCount, nowMs, cfg);
            for (int p = records.position(); p < records.limit(); ) {
                RecordBatch batch = new RecordBatch(records, p);
                epochCache.assign(batch.partitionLeaderEpoch(), batch.baseOffset());
                p += batch.sizeInBytes();
            }
            updateProducerState(records);
            info = new AppendInfo(firstOffset, expected - 1, maxTimestamp, offsetOfMax, RecordBatch.NO_TIMESTAMP,
                    records.remaining(), batchCount, false);
        } finally {
            lock.unlock();
        }
        scheduleRollFlush();
        return info;
    }

    /**
     * Checks every producer batch against the producer state (KIP-98) before anything is written.
     *
     * @return the answer for an append that only repeats batches already written, else null
     */
    private AppendInfo findDuplicate(ByteBuffer records, LogConfig cfg) {
        ProducerAppendValidator validator = null;
        BatchMetadata first = null;
        BatchMetadata last = null;
        BatchMetadata newest = null;
        int batches = 0;
        int duplicates = 0;
        long duplicateProducer = -1;
        for (int p = records.position(); p < records.limit(); ) {
            RecordBatch batch = new RecordBatch(records, p);
            p += batch.sizeInBytes();
            batches++;
            if (batch.producerId() < 0) {
                continue;
            }
            if (validator == null) {
                validator = producerState.validator();
            }
            BatchMetadata duplicate = validator.validate(batch);
            if (duplicate != null) {
                duplicates++;
                duplicateProducer = batch.producerId();
                first = first == null || duplicate.firstOffset() < first.firstOffset() ? duplicate : first;
                last = last == null || duplicate.lastOffset() > last.lastOffset() ? duplicate : last;
                newest = newest == null || duplicate.timestampMs() > newest.timestampMs() ? duplicate : newest;
            }
        }
        if (duplicates == 0) {
            return null;
        }
        if (duplicates < batches) {
            throw new DuplicateSequenceException(duplicateProducer, "append to log " + dir + " mixes " + duplicates
                    + " batches already written (producer " + duplicateProducer + ") with " + (batches - duplicates)
                    + " new ones");
        }
        return new AppendInfo(first.firstOffset(), last.lastOffset(), newest.timestampMs(), newest.firstOffset(),
                cfg.logAppendTime() ? newest.timestampMs() : RecordBatch.NO_TIMESTAMP, 0, 0, true);
    }

    /** Applies written batches (offsets assigned) to the producer state. */
    private void updateProducerState(ByteBuffer records) {
        for (int p = records.position(); p < records.limit(); ) {
            RecordBatch batch = new RecordBatch(records, p);
            if (batch.producerId() >= 0) {
                producerState.update(batch);
            }
            p += batch.sizeInBytes();
        }
    }

    /** Size limits of batches re-written with the topic's codec, which may have grown. */
    private void checkSizes(ByteBuffer records, LogConfig cfg) {
        if (records.remaining() > cfg.segmentBytes()) {
            throw new RecordTooLargeException("append of " + records.remaining() + " bytes to log " + dir
                    + " after conversion to compression.type " + cfg.compressionType() + " exceeds segment.bytes "
                    + cfg.segmentBytes());
        }
        for (int p = records.position(); p < records.limit(); ) {
            RecordBatch batch = new RecordBatch(records, p);
            if (batch.sizeInBytes() > cfg.maxMessageBytes()) {
                throw new RecordTooLargeException("record batch of " + batch.sizeInBytes() + " bytes after conversion "
                        + "to compression.type " + cfg.compressionType() + " exceeds max.message.bytes "
                        + cfg.maxMessageBytes() + " of log " + dir);
            }
            p += batch.sizeInBytes();
        }
    }

    /** Checks every batch before anything is written; returns the batch count. */
    private int validate(ByteBuffer records, LogConfig cfg, boolean fromProducer) {
        if (!records.hasRemaining()) {
            throw new CorruptRecordException("append to log " + dir + " holds no record batch");
        }
        if (records.remaining() > cfg.segmentBytes()) {
            throw new RecordTooLargeException("append of " + records.remaining() + " bytes to log " + dir
                    + " exceeds segment.bytes " + cfg.segmentBytes());
        }
        int count = 0;
        for (int p = records.position(); p < records.limit(); ) {
            RecordBatch batch = new RecordBatch(records, p);
            batch.validate();
            if (fromProducer) {
                if (batch.sizeInBytes() > cfg.maxMessageBytes()) {
                    throw new RecordTooLargeException("record batch of " + batch.sizeInBytes() + " bytes exceeds "
                            + "max.message.bytes " + cfg.maxMessageBytes() + " of log " + dir);
                }
                // A producer batch is never compacted, so its records fill every offset it spans.
                if ((long) batch.recordCount() != (long) batch.lastOffsetDelta() + 1) {
                    throw new CorruptRecordException("producer record batch claims " + batch.recordCount()
                            + " records but spans " + ((long) batch.lastOffsetDelta() + 1) + " offsets");
                }
            }
            p += batch.sizeInBytes();
            count++;
        }
        return count;
    }

    private void appendToActive(ByteBuffer records, long firstOffset, long lastOffset, long recordCount, long nowMs,
                                LogConfig cfg) {
        LogSegment active = activeSegment();
        if (active.shouldRoll(records.remaining(), lastOffset, nowMs, cfg)) {
            active = rollLocked(firstOffset);
        }
        active.append(records, nowMs);
        end = new LogEnd(lastOffset + 1, active.baseOffset(), active.sizeBytes());
        unflushedRecords += recordCount;
        maybeFlushLocked(nowMs, cfg);
    }

    /** Starts a new active segment at the log end offset (no-op if the active segment is empty). */
    public LogSegment roll() {
        LogSegment active;
        lock.lock();
        try {
            ensureOpen();
            active = rollLocked(end.nextOffset());
        } finally {
            lock.unlock();
        }
        flushRolledSegments();
        return active;
    }

    private LogSegment rollLocked(long newBaseOffset) {
        LogSegment active = activeSegment();
        long base = Math.max(newBaseOffset, end.nextOffset());
        if (active.sizeBytes() == 0 && active.baseOffset() == base) {
            return active;
        }
        // The state as of the new segment's base: a reopen replays at most the segments after it. Not
        // fsynced here; a torn or lost snapshot fails its checksum and an older one is used.
        producerState.writeSnapshot(base, false);
        if (active.sizeBytes() > 0) {
            active.onBecomeInactive();
        }
        // The new segment goes in before anything leaves, so readers always find an active segment.
        LogSegment next = LogSegment.create(dir, base, config, "");
        segments.put(base, next);
        directoryDirty = true;
        if (active.sizeBytes() == 0) {
            retire(List.of(active)); // an empty active segment cannot hold offsets this far
        } else {
            // The rolled segment is immutable now; once durable the recovery point moves past it. The
            // fsync (possibly a whole segment of dirty pages) runs after the lock is released.
            pendingRollFlushOffset = Math.max(pendingRollFlushOffset, base);
        }
        end = new LogEnd(end.nextOffset(), base, 0);
        return next;
    }

    /**
     * Makes segments rolled since the last flush durable and advances the recovery point, without
     * holding the log lock during the fsync, so appends to the new segment go on meanwhile. Runs on
     * the thread whose call rolled.
     */
    /** Hands the fsync of segments an append just rolled to the roll-flush executor, if there are any. */
    private void scheduleRollFlush() {
        boolean pending;
        lock.lock();
        try {
            pending = !closed && pendingRollFlushOffset > recoveryPoint;
        } finally {
            lock.unlock();
        }
        if (pending) {
            rollFlushExecutor.execute(this::flushRolledSegmentsQuietly);
        }
    }

    private void flushRolledSegmentsQuietly() {
        try {
            flushRolledSegments();
        } catch (RuntimeException e) {
            // The recovery point stays where it was, so a crash re-validates these segments; the next
            // roll or flush tries again.
            LOG.error("log {} could not fsync its rolled segments: {}", dir, e.toString());
        }
    }

    private void flushRolledSegments() {
        List<LogSegment> toFlush = new ArrayList<>();
        long target;
        long generation;
        lock.lock();
        try {
            if (closed || pendingRollFlushOffset <= recoveryPoint) {
                pendingRollFlushOffset = -1;
                return;
            }
            target = pendingRollFlushOffset;
            pendingRollFlushOffset = -1;
            generation = truncationGeneration;
            toFlush.addAll(segmentsBetween(recoveryPoint, target));
            directoryDirty = false;
        } finally {
            lock.unlock();
        }
        for (LogSegment segment : toFlush) {
            try {
                segment.flush();
            } catch (RuntimeException e) {
                if (closed || truncationGeneration != generation) {
                    return; // closed or truncated under the flush: nothing to advance
                }
                if (segments.get(segment.baseOffset()) != segment) {
                    continue; // deleted meanwhile (retention, DeleteRecords): no longer needs to be durable
                }
                throw e;
            }
        }
        fsyncDirectory();
        lock.lock();
        try {
            if (!closed && truncationGeneration == generation && recoveryPoint < target) {
                recoveryPoint = target;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Segments holding any offset in [fromOffset, toOffset). */
    private List<LogSegment> segmentsBetween(long fromOffset, long toOffset) {
        List<LogSegment> result = new ArrayList<>();
        for (Map.Entry<Long, LogSegment> entry : segments.entrySet()) {
            if (entry.getKey() >= toOffset) {
                break;
            }
            Long nextBase = segments.higherKey(entry.getKey());
            if (nextBase != null && nextBase <= fromOffset) {
                continue;
            }
            result.add(entry.getValue());
        }
        return result;
    }

    /**
     * Reads from the batch holding {@code offset}, at most {@code maxBytes} (but a whole first batch if
     * {@code minOneBatch}), from one segment, never past the log end captured at the call.
     *
     * @throws OffsetOutOfRangeException offset below the log start or above the log end
     */
    public LogReadResult read(long offset, int maxBytes, boolean minOneBatch) {
        return read(offset, maxBytes, Long.MAX_VALUE, minOneBatch);
    }

    /**
     * As {@link #read(long, int, boolean)}, returning only batches whose last offset is below
     * {@code maxOffsetExclusive}: a consumer passes the high watermark and never sees past it. Empty
     * when the batch holding {@code offset} reaches the bound.
     *
     * @throws OffsetOutOfRangeException offset below the log start or above the log end
     */
    public LogReadResult read(long offset, int maxBytes, long maxOffsetExclusive, boolean minOneBatch) {
        ensureOpen();
        LogEnd endNow = end;
        long start = logStartOffset;
        if (offset < start || offset > endNow.nextOffset()) {
            throw new OffsetOutOfRangeException("offset " + offset + " is outside log " + dir + " range [" + start
                    + ", " + endNow.nextOffset() + "]");
        }
        if (offset == endNow.nextOffset() || offset >= maxOffsetExclusive) {
            return new LogReadResult(offset, FileSlice.empty(), start, endNow.nextOffset());
        }
        // A bound at or past the captured end cuts nothing; skip the lookup it would cost.
        long bound = maxOffsetExclusive >= endNow.nextOffset() ? Long.MAX_VALUE : maxOffsetExclusive;
        Map.Entry<Long, LogSegment> entry = segments.floorEntry(offset);
        if (entry == null) {
            entry = segments.firstEntry();
        }
        while (entry != null && entry.getKey() <= endNow.segmentBaseOffset()) {
            LogSegment segment = entry.getValue();
            int maxPosition = segment.baseOffset() == endNow.segmentBaseOffset() ? endNow.segmentPosition()
                    : segment.sizeBytes();
            FileSlice slice = segment.read(offset, maxBytes, maxPosition, minOneBatch, bound);
            if (slice != null) {
                return new LogReadResult(offset, slice, start, endNow.nextOffset());
            }
            entry = segments.higherEntry(entry.getKey());
        }
        return new LogReadResult(offset, FileSlice.empty(), start, endNow.nextOffset());
    }

    /**
     * ListOffsets by timestamp, at batch granularity: the first batch whose max timestamp is at least
     * {@code timestampMs}, as (its max timestamp, its base offset raised to the log start).
     */
    public Optional<TimestampOffset> offsetForTimestamp(long timestampMs) {
        ensureOpen();
        long start = logStartOffset;
        for (LogSegment segment : segments.values()) {
            if (segment.maxTimestampMs() >= timestampMs) {
                Optional<TimestampOffset> found = segment.findOffsetByTimestamp(timestampMs, start);
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return Optional.empty();
    }

    /**
     * ListOffsets MAX_TIMESTAMP (KIP-734), at batch granularity: the largest timestamp and the base
     * offset of the first batch carrying it; empty when no batch has a timestamp.
     */
    public Optional<TimestampOffset> maxTimestampOffset() {
        ensureOpen();
        LogSegment best = null;
        for (LogSegment segment : segments.values()) {
            if (segment.maxTimestampMs() >= 0 && (best == null || segment.maxTimestampMs() > best.maxTimestampMs())) {
                best = segment;
            }
        }
        if (best == null) {
            return Optional.empty();
        }
        long maxTimestamp = best.maxTimestampMs();
        long batchLastOffset = best.maxTimestampBatchLastOffset();
        BatchLocation batch = best.firstBatchAtOrAfter(batchLastOffset, best.sizeBytes());
        long offset = batch != null ? batch.baseOffset() : batchLastOffset;
        return Optional.of(new TimestampOffset(maxTimestamp, Math.max(offset, logStartOffset)));
    }

    /**
     * DeleteRecords: moves the log start up to {@code offset} and removes segments wholly below it
     * (never the active segment).
     *
     * @return the log start offset afterwards
     * @throws OffsetOutOfRangeException offset above the log end
     */
    public long deleteRecordsBefore(long offset) {
        lock.lock();
        try {
            ensureOpen();
            if (offset > end.nextOffset() || offset < 0) {
                throw new OffsetOutOfRangeException("cannot delete records before " + offset + " in log " + dir
                        + ": log end offset is " + end.nextOffset());
            }
            if (offset > logStartOffset) {
                logStartOffset = offset;
                epochCache.truncateFromStart(offset);
            }
            long start = logStartOffset;
            List<LogSegment> below = new ArrayList<>();
            for (Map.Entry<Long, LogSegment> entry : segments.entrySet()) {
                Long nextBase = segments.higherKey(entry.getKey());
                if (nextBase == null || nextBase > start) {
                    break;
                }
                below.add(entry.getValue());
            }
            if (!below.isEmpty()) {
                retire(below);
                // Producer state stays (KIP-360); only the snapshots of removed segments go.
                producerState.deleteSnapshotsBelow(segments.firstKey());
            }
            return start;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Removes everything from {@code offset} on (a follower diverged from its leader). A batch that
     * straddles the offset goes as a whole; the log end becomes the offset after the last batch kept
     * (or the segment's base offset, or the log start, whichever is higher), which is at most
     * {@code offset}.
     *
     * @return true if anything was removed
     */
    public boolean truncateTo(long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("cannot truncate log " + dir + " to negative offset " + offset);
        }
        lock.lock();
        try {
            ensureOpen();
            if (offset >= end.nextOffset()) {
                return false;
            }
            if (offset < logStartOffset) {
                truncateFullyAndStartAtLocked(offset);
                return true;
            }
            LogConfig cfg = config;
            truncationGeneration++;
            pendingRollFlushOffset = -1;
            Map.Entry<Long, LogSegment> floor = segments.floorEntry(offset);
            LogSegment target = floor != null ? floor.getValue() : segments.firstEntry().getValue();
            retire(new ArrayList<>(segments.tailMap(target.baseOffset(), false).values()));
            target.truncateTo(offset, cfg.maxIndexBytes());
            // The end follows the data (as a reopen would find it), never below the log start.
            long newEnd = Math.max(target.readNextOffset(), logStartOffset);
            end = new LogEnd(newEnd, target.baseOffset(), target.sizeBytes());
            recoveryPoint = Math.min(recoveryPoint, newEnd);
            epochCache.truncateFromEnd(newEnd);
            rebuildProducerState(newEnd);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Drops every segment and restarts the log, empty, at {@code offset} (a follower far behind). */
    public void truncateFullyAndStartAt(long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("cannot restart log " + dir + " at negative offset " + offset);
        }
        lock.lock();
        try {
            ensureOpen();
            truncateFullyAndStartAtLocked(offset);
        } finally {
            lock.unlock();
        }
    }

    private void truncateFullyAndStartAtLocked(long offset) {
        truncationGeneration++;
        pendingRollFlushOffset = -1;
        List<LogSegment> old = new ArrayList<>(segments.values());
        // Readers must always find a segment: the fresh one replaces any at the same base in one step.
        LogSegment sameBase = segments.get(offset);
        if (sameBase != null) {
            sameBase.changeFileSuffixes("", LogFileNames.DELETED_SUFFIX);
            old.remove(sameBase);
        }
        LogSegment fresh = LogSegment.create(dir, offset, config, "");
        segments.put(offset, fresh);
        retire(old);
        if (sameBase != null) {
            dispose(sameBase);
        }
        fsyncDirectory();
        directoryDirty = false;
        end = new LogEnd(offset, offset, 0);
        logStartOffset = offset;
        recoveryPoint = offset;
        unflushedRecords = 0;
        epochCache.clear();
        producerState.clear();
        producerState.deleteAllSnapshots();
    }

    /** Retention with no high watermark bound (every segment may go). */
    public int deleteExpiredSegments(long nowMs) {
        return deleteExpiredSegments(nowMs, Long.MAX_VALUE);
    }

    /**
     * The retention pass the broker schedules: deletes the oldest segments whose newest timestamp is
     * older than retention.ms, then the oldest while the log exceeds retention.bytes (both only with
     * the delete policy), then any wholly below the log start; all only below {@code highWatermark}.
     * An expired, non-empty active segment is rolled first so it can go. Also
     * deletes the files of segments retired at least fileDeleteDelayMs ago.
     *
     * @return the number of segments removed from the log
     */
    public int deleteExpiredSegments(long nowMs, long highWatermark) {
        int deleted;
        lock.lock();
        try {
            ensureOpen();
            retired.deleteDue(nowMs, config.fileDeleteDelayMs());
            LogConfig cfg = config;
            producerState.removeExpired(nowMs, cfg.producerIdExpirationMs());
            deleted = 0;
            if (cfg.delete() && cfg.retentionMs() >= 0) {
                deleted += deleteOldestWhile(s -> nowMs - s.largestTimestampMs() > cfg.retentionMs(), highWatermark);
            }
            if (cfg.delete() && cfg.retentionBytes() >= 0) {
                long[] excess = {sizeInBytes() - cfg.retentionBytes()};
                deleted += deleteOldestWhile(s -> {
                    if (excess[0] - s.sizeBytes() >= 0) {
                        excess[0] -= s.sizeBytes();
                        return true;
                    }
                    return false;
                }, highWatermark);
            }
            // Whatever the policy: segments a roll left wholly below the log start (after DeleteRecords).
            long start = logStartOffset;
            LogSegment active = activeSegment();
            deleted += deleteOldestWhile(s -> s != active && segments.higherKey(s.baseOffset()) <= start,
                    highWatermark);
            retired.deleteDue(nowMs, config.fileDeleteDelayMs());
        } finally {
            lock.unlock();
        }
        flushRolledSegments();
        return deleted;
    }

    private int deleteOldestWhile(Predicate<LogSegment> expired, long upperBoundOffset) {
        List<LogSegment> deletable = new ArrayList<>();
        Iterator<LogSegment> it = segments.values().iterator();
        LogSegment active = activeSegment();
        while (it.hasNext()) {
            LogSegment segment = it.next();
            if (segment == active) {
                if (segment.sizeBytes() == 0 || end.nextOffset() > upperBoundOffset) {
                    break;
                }
            } else {
                Long nextBase = segments.higherKey(segment.baseOffset());
                if (nextBase == null || nextBase > upperBoundOffset) {
                    break;
                }
            }
            if (!expired.test(segment)) {
                break;
            }
            deletable.add(segment);
        }
        if (deletable.isEmpty()) {
            return 0;
        }
        if (deletable.contains(active)) {
            rollLocked(end.nextOffset());
        }
        retire(deletable);
        producerState.deleteSnapshotsBelow(segments.firstKey());
        long newStart = Math.max(logStartOffset, segments.firstKey());
        if (newStart > logStartOffset) {
            logStartOffset = newStart;
            epochCache.truncateFromStart(newStart);
        }
        return deletable.size();
    }

    /** Takes segments out of the log; their files are renamed .deleted and deleted after the delay. */
    private void retire(List<LogSegment> doomed) {
        if (doomed.isEmpty()) {
            return;
        }
        for (LogSegment segment : doomed) {
            segments.remove(segment.baseOffset(), segment);
            segment.changeFileSuffixes("", LogFileNames.DELETED_SUFFIX);
            dispose(segment);
        }
    }

    /** Deletes a renamed-out segment now, or after the delete delay. */
    private void dispose(LogSegment segment) {
        retired.add(segment, config.fileDeleteDelayMs());
    }

    /**
     * Swap-in point for the cleaner. {@code replacements} are complete segments with the
     * {@code .cleaned} suffix covering exactly the offsets of {@code replaced}. Protocol, each step safe
     * to crash after: replacements are flushed and renamed {@code .swap}; the log map switches over;
     * replaced segments are renamed {@code .deleted}; {@code .swap} suffixes are removed. On open,
     * {@code .cleaned} files are discarded and {@code .swap} files complete the swap.
     */
    public void replaceSegments(List<LogSegment> replacements, List<LogSegment> replaced) {
        lock.lock();
        try {
            ensureOpen();
            for (LogSegment segment : replaced) {
                if (segments.get(segment.baseOffset()) != segment || segment == activeSegment()) {
                    throw new IllegalArgumentException("segment " + segment + " is not an inactive segment of " + dir);
                }
            }
            truncationGeneration++;
            for (LogSegment segment : replacements) {
                segment.onBecomeInactive();
                segment.flush();
                segment.changeFileSuffixes(LogFileNames.CLEANED_SUFFIX, LogFileNames.SWAP_SUFFIX);
            }
            fsyncDirectory();
            // Replacements go in first so a concurrent read never finds a hole in the offsets.
            for (LogSegment segment : replacements) {
                segments.put(segment.baseOffset(), segment);
            }
            retire(new ArrayList<>(replaced));
            for (LogSegment segment : replacements) {
                segment.changeFileSuffixes(LogFileNames.SWAP_SUFFIX, "");
            }
            fsyncDirectory();
            // Snapshots named by segments merged away would otherwise pile up on a compacted log; a
            // reopen only needs the newest one.
            for (LogSegment segment : replaced) {
                if (!segments.containsKey(segment.baseOffset())) {
                    producerState.deleteSnapshot(segment.baseOffset());
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** fsyncs everything up to the log end and moves the recovery point there. */
    public void flush() {
        lock.lock();
        try {
            ensureOpen();
            flushUpToLocked(end.nextOffset());
        } finally {
            lock.unlock();
        }
    }

    /** Flushes if flush.messages or flush.ms says so; for a scheduler to call. */
    public void maybeFlush(long nowMs) {
        lock.lock();
        try {
            ensureOpen();
            maybeFlushLocked(nowMs, config);
        } finally {
            lock.unlock();
        }
    }

    private void maybeFlushLocked(long nowMs, LogConfig cfg) {
        if (lastFlushMs < 0) {
            lastFlushMs = nowMs;
        }
        if (unflushedRecords >= cfg.flushMessages() || nowMs - lastFlushMs >= cfg.flushMs()) {
            flushUpToLocked(end.nextOffset());
            lastFlushMs = nowMs;
        }
    }

    private void flushUpToLocked(long offset) {
        if (offset <= recoveryPoint) {
            return;
        }
        for (LogSegment segment : segmentsBetween(recoveryPoint, offset)) {
            segment.flush();
        }
        if (directoryDirty) {
            fsyncDirectory();
            directoryDirty = false;
        }
        recoveryPoint = offset;
        if (offset >= end.nextOffset()) {
            unflushedRecords = 0;
        }
    }

    /** Makes segment files created, renamed or deleted in the log directory durable. */
    private void fsyncDirectory() {
        try {
            DurableFiles.fsyncDirectory(dir);
        } catch (IOException e) {
            throw new LogStorageException("cannot fsync log directory " + dir, e);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("log " + dir + " is closed");
        }
    }

    public boolean isClosed() {
        return closed;
    }

    /**
     * Flushes, writes the producer state snapshot at the log end, closes every segment (trimming the
     * indexes) and deletes retired files.
     */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            flushUpToLocked(end.nextOffset());
            producerState.writeSnapshot(end.nextOffset(), true);
            retired.deleteAll();
            for (LogSegment segment : segments.values()) {
                segment.close();
            }
            closed = true;
            LOG.debug("closed log {} at offsets [{}, {})", dir, logStartOffset, end.nextOffset());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Closes every file handle without flushing or trimming (the log directory failed); the files stay
     * as a crash would leave them, and the next open recovers past the recovery point.
     */
    public void closeHandlers() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            for (LogSegment segment : segments.values()) {
                segment.closeHandlers();
            }
            retired.closeHandlers();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "Log(" + dir + ", start=" + logStartOffset + ", end=" + end.nextOffset() + ", segments="
                + segments.size() + ")";
    }
}
