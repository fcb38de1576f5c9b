package io.kraft.storage.log;

import io.kraft.storage.log.producer.DuplicateSequenceException;
import io.kraft.storage.log.producer.InvalidProducerEpochException;
import io.kraft.storage.log.producer.OutOfOrderSequenceException;
import io.kraft.storage.log.producer.ProducerStateEntry;
import io.kraft.storage.log.producer.UnknownProducerIdException;
import io.kraft.storage.log.producer.InvalidTxnStateException;
import io.kraft.storage.log.producer.TransactionCoordinatorFencedException;
import io.kraft.storage.record.CorruptRecordException;
import io.kraft.storage.record.EndTransactionMarker;
import io.kraft.storage.record.RecordBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log of one partition: a directory of segments, appended to by the leader (assigning offsets) or
 * a follower (keeping them), read with zero copy, truncated, and trimmed by retention.
 *
 * <p>A façade over the parts that do the work: {@link AppendValidator} checks appends before the lock,
 * {@link AppendOffsets} stamps or checks their offsets, {@link LogSegments} holds the segment map and changes it,
 * {@link LogProducerState} keeps the idempotent producers, {@link LogReader} reads, {@link LogTruncation} cuts the
 * log back, {@link LogRetention} moves its start forward, and {@link LogFlusher} decides when data becomes durable.
 * The log owns the lock and the order of the steps of each operation.
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
 *
 * <p>Transactions (KIP-98): transactional batches open a transaction for their producer, a marker appended for the
 * coordinator ({@link #appendTransactionMarker}) ends it, and an ABORT marker adds the transaction to the
 * {@code .txnindex} of its segment. The owner's high watermark gives the last stable offset
 * ({@link #lastStableOffset}); read_committed reads ({@link #readCommitted}) stop there and name the aborted
 * transactions they overlap.
 *
 * <p>An I/O error on the log's files (a {@link LogStorageException} caused by an {@link IOException}: a full disk, a
 * failed write or fsync) is reported to the listener given at open before it is thrown, so the owner of the log
 * directory can take the directory offline (KIP-112); the caller still sees KAFKA_STORAGE_ERROR.
 */
public final class Log implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Log.class);

    private final Path dir;
    private final ReentrantLock lock = new ReentrantLock();
    private final LogSegments segments;
    private final AppendValidator validator;
    /** The offsets pass of the append holding the lock. */
    private final AppendOffsets appendOffsets = new AppendOffsets();
    private final LogReader reader;
    private final LogFlusher flusher;
    private final LeaderEpochCache epochCache;
    private final LogProducerState producerState;
    private final LogTruncation truncation;
    private final LogRetention retention;
    private final LogBounds bounds;
    private final Consumer<LogStorageException> ioErrors;
    private volatile LogConfig config;
    private volatile boolean closed;
    /** Closed by {@link #closeHandlers()}: its directory failed, so a caller gets KAFKA_STORAGE_ERROR, not a bug. */
    private volatile boolean closedAfterFailure;

    private Log(Path dir, LogConfig config, LogLoader.Loaded loaded, Executor rollFlushExecutor,
                Consumer<LogStorageException> ioErrors) {
        this.dir = dir;
        this.config = config;
        this.ioErrors = ioErrors;
        this.segments = new LogSegments(dir, loaded.segments());
        this.validator = new AppendValidator(dir);
        this.reader = new LogReader(dir, segments);
        this.flusher = new LogFlusher(dir, lock, segments, loaded.recoveryPoint(), rollFlushExecutor, () -> closed,
                this::ioFailed);
        LogSegment active = segments.active();
        this.bounds = new LogBounds(new LogEnd(loaded.nextOffset(), active.baseOffset(), active.sizeBytes()),
                loaded.logStartOffset());
        this.producerState = new LogProducerState(dir);
        try {
            this.epochCache = LogLoader.loadEpochCache(dir, segments.inOrder());
            producerState.rebuild(segments, loaded.nextOffset(), loaded.txnIndexRebuildFrom());
        } catch (RuntimeException e) {
            for (LogSegment segment : segments.inOrder()) {
                segment.close();
            }
            throw e;
        }
        epochCache.truncateFromEnd(loaded.nextOffset());
        epochCache.truncateFromStart(loaded.logStartOffset());
        this.truncation = new LogTruncation(segments, bounds, flusher, epochCache, producerState);
        this.retention = new LogRetention(segments, bounds, epochCache, producerState, this::rollLocked);
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
        return open(dir, config, recoveryPoint, logStartOffset, hadCleanShutdown, rollFlushExecutor, e -> { });
    }

    /**
     * As {@link #open(Path, LogConfig, long, long, boolean, Executor)}, with the listener that hears each I/O error
     * on the log's files before it is thrown (it must not block: the log's lock may be held).
     */
    public static Log open(Path dir, LogConfig config, long recoveryPoint, long logStartOffset,
                           boolean hadCleanShutdown, Executor rollFlushExecutor, Consumer<LogStorageException> ioErrors) {
        LogLoader.Loaded loaded = new LogLoader(dir, config).load(recoveryPoint, logStartOffset, hadCleanShutdown);
        return new Log(dir, config, loaded, rollFlushExecutor, ioErrors);
    }

    /** Reports a device failure (not a size limit or a racing close) to the listener; returns it to be thrown. */
    private LogStorageException ioFailed(LogStorageException e) {
        if (e.isDeviceFailure()) {
            ioErrors.accept(e);
        }
        return e;
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
        return bounds.startOffset();
    }

    /** The offset the next appended record gets. */
    public long logEndOffset() {
        return bounds.endOffset();
    }

    /** Offsets below this are fsynced. */
    public long recoveryPoint() {
        return flusher.recoveryPoint();
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
        } catch (LogStorageException e) {
            throw ioFailed(e);
        } finally {
            lock.unlock();
        }
    }

    /** The segments in offset order, the active one last (a snapshot). */
    public List<LogSegment> segments() {
        return segments.copy();
    }

    public LogSegment activeSegment() {
        return segments.active();
    }

    public int numberOfSegments() {
        return segments.count();
    }

    public long sizeInBytes() {
        return segments.sizeInBytes();
    }

    /**
     * Appends producer batches as the leader: validates every batch (nothing is written if one is bad:
     * CRC and sizes, record timestamps (KIP-937), keys in a compacted topic, then the idempotent producer
     * state), re-compresses batches whose codec differs from the topic's compression.type, then assigns
     * consecutive offsets, the leader epoch and, if configured, the log-append time in place, rolls if
     * needed and writes. Batches that need no conversion are written as received.
     *
     * <p>An append repeating batches an idempotent producer already wrote (a retry, KIP-98) writes
     * nothing and returns the original batches' offsets with {@link AppendInfo#duplicate()} set.
     *
     * @throws CorruptRecordException        a batch fails validation, or its record count disagrees with its offsets
     * @throws RecordTooLargeException       a batch exceeds max.message.bytes or the append exceeds segment.bytes
     * @throws InvalidTimestampException     a CreateTime record is outside the topic's timestamp bounds; names
     *                                       the records (KIP-467)
     * @throws InvalidRecordException        a record of a compacted topic has no key; names the records
     * @throws OutOfOrderSequenceException   a producer batch's sequence does not follow its producer's last
     * @throws InvalidProducerEpochException a producer batch carries a fenced (older) epoch
     * @throws UnknownProducerIdException    a producer without state does not start at sequence 0
     * @throws DuplicateSequenceException    the append mixes retried batches with new ones
     * @throws InvalidTxnStateException      a non-transactional batch from a producer with an open transaction
     */
    public AppendInfo append(ByteBuffer records, int leaderEpoch, long nowMs) {
        LogConfig cfg = config;
        int batchCount = validator.validateLeaderAppend(records, cfg, nowMs);
        // The batches as they will be stored (one for one): the caller's buffer itself unless the topic's
        // codec differs.
        ByteBuffer batches = TopicCompression.apply(records, cfg);
        if (batches != records) {
            validator.validateConverted(batches, cfg);
        }
        AppendInfo info;
        lock.lock();
        try {
            ensureOpen();
            AppendInfo duplicate = producerState.findDuplicate(batches, cfg);
            if (duplicate != null) {
                return duplicate;
            }
            long logAppendTimeMs = cfg.logAppendTime() ? nowMs : RecordBatch.NO_TIMESTAMP;
            AppendOffsets offsets = appendOffsets.assign(batches, bounds.endOffset(), leaderEpoch, logAppendTimeMs);
            appendToActive(batches, offsets, nowMs, cfg);
            epochCache.assign(leaderEpoch, offsets.firstOffset());
            producerState.update(batches, segments.active());
            info = offsets.toAppendInfo(logAppendTimeMs, batches.remaining(), batchCount);
        } catch (LogStorageException e) {
            throw ioFailed(e);
        } finally {
            lock.unlock();
        }
        flusher.scheduleRollFlush();
        return info;
    }

    /**
     * Appends a transaction marker as the leader, for the transaction coordinator (KIP-98): one control batch
     * (COMMIT or ABORT, the coordinator's epoch in its value) that ends the producer's open transaction in this
     * partition; an ABORT also enters the transaction in the segment's {@code .txnindex}.
     *
     * @throws InvalidProducerEpochException          the producer has written with a newer epoch
     * @throws TransactionCoordinatorFencedException  the producer's last marker came from a newer coordinator
     */
    public AppendInfo appendTransactionMarker(long producerId, short producerEpoch, EndTransactionMarker marker,
                                              int leaderEpoch, long nowMs) {
        if (producerId < 0 || producerEpoch < 0) {
            throw new IllegalArgumentException("a transaction marker needs a producer id and epoch, got "
                    + producerId + "/" + producerEpoch);
        }
        LogConfig cfg = config;
        ByteBuffer batch = marker.toBatch(0, leaderEpoch, producerId, producerEpoch, nowMs);
        AppendInfo info;
        lock.lock();
        try {
            ensureOpen();
            producerState.findDuplicate(batch, cfg); // the epoch checks; a marker is never a duplicate
            long logAppendTimeMs = cfg.logAppendTime() ? nowMs : RecordBatch.NO_TIMESTAMP;
            AppendOffsets offsets = appendOffsets.assign(batch, bounds.endOffset(), leaderEpoch, logAppendTimeMs);
            appendToActive(batch, offsets, nowMs, cfg);
            epochCache.assign(leaderEpoch, offsets.firstOffset());
            producerState.update(batch, segments.active());
            info = offsets.toAppendInfo(logAppendTimeMs, batch.remaining(), 1);
        } finally {
            lock.unlock();
        }
        LOG.debug("log {} wrote {} marker for producer {} epoch {} at offset {}", dir, marker.type(), producerId,
                producerEpoch, info.firstOffset());
        flusher.scheduleRollFlush();
        return info;
    }

    /**
     * The last stable offset (KIP-98) when the owner's high watermark is {@code highWatermark}: the first offset
     * of the oldest transaction still open, or completed with its marker not yet below the watermark (a new
     * leader could still lose the marker), raised to the log start; the high watermark when there is none. Takes
     * no lock; without transactions it costs one volatile read.
     */
    public long lastStableOffset(long highWatermark) {
        return producerState.lastStableOffset(highWatermark, bounds.startOffset());
    }

    /** The first offset of the oldest open or unreplicated transaction, or {@code Long.MAX_VALUE}. */
    public long firstUnstableOffset() {
        return producerState.firstUnstableOffset();
    }

    /**
     * Appends batches fetched from the leader, keeping their offsets and epochs.
     *
     * @throws CorruptRecordException            a batch fails validation (nothing written)
     * @throws UnexpectedAppendOffsetException   offsets start below the log end offset, do not increase, or leave a
     *                                           gap in a log that is not compacted (nothing written)
     * @throws UnexpectedLeaderEpochException    a batch's leader epoch is older than the log's newest or than the
     *                                           batch before it (nothing written)
     */
    public AppendInfo appendAsFollower(ByteBuffer records, long nowMs) {
        LogConfig cfg = config;
        int batchCount = validator.validateFollowerAppend(records, cfg);
        AppendInfo info;
        lock.lock();
        try {
            ensureOpen();
            AppendOffsets offsets = appendOffsets.checkFollower(records, bounds.endOffset(), epochCache.latestEpoch(),
                    cfg.compact(), dir);
            appendToActive(records, offsets, nowMs, cfg);
            for (int p = records.position(); p < records.limit(); ) {
                RecordBatch batch = new RecordBatch(records, p);
                epochCache.assign(batch.partitionLeaderEpoch(), batch.baseOffset());
                p += batch.sizeInBytes();
            }
            producerState.update(records, segments.active());
            info = offsets.toAppendInfo(RecordBatch.NO_TIMESTAMP, records.remaining(), batchCount);
        } catch (LogStorageException e) {
            throw ioFailed(e);
        } finally {
            lock.unlock();
        }
        flusher.scheduleRollFlush();
        return info;
    }

    private void appendToActive(ByteBuffer batches, AppendOffsets offsets, long nowMs, LogConfig cfg) {
        LogSegment active = segments.active();
        if (active.shouldRoll(batches.remaining(), offsets.lastOffset(), nowMs, cfg)) {
            active = rollLocked(offsets.firstOffset());
        }
        active.append(batches, nowMs);
        long nextOffset = offsets.lastOffset() + 1;
        bounds.setEnd(new LogEnd(nextOffset, active.baseOffset(), active.sizeBytes()));
        flusher.onAppendLocked(offsets.recordCount(), nowMs, cfg, nextOffset);
    }

    /** Starts a new active segment at the log end offset (no-op if the active segment is empty). */
    public LogSegment roll() {
        LogSegment active;
        lock.lock();
        try {
            ensureOpen();
            active = rollLocked(bounds.endOffset());
        } catch (LogStorageException e) {
            throw ioFailed(e);
        } finally {
            lock.unlock();
        }
        flushRolledSegments();
        return active;
    }

    private void flushRolledSegments() {
        try {
            flusher.flushRolledSegments();
        } catch (LogStorageException e) {
            throw ioFailed(e);
        }
    }

    private LogSegment rollLocked(long newBaseOffset) {
        LogSegment active = segments.active();
        long base = Math.max(newBaseOffset, bounds.endOffset());
        if (active.sizeBytes() == 0 && active.baseOffset() == base) {
            return active;
        }
        // The state as of the new segment's base: a reopen replays at most the segments after it. Not
        // fsynced here; a torn or lost snapshot fails its checksum and an older one is used.
        producerState.writeSnapshot(base, false);
        boolean rolledData = active.sizeBytes() > 0;
        LogSegment next = segments.roll(base, config);
        if (rolledData) {
            // The rolled segment is immutable now; once durable the recovery point moves past it. The
            // fsync (possibly a whole segment of dirty pages) runs after the lock is released.
            flusher.onRollLocked(base);
        }
        bounds.setEnd(new LogEnd(bounds.endOffset(), base, 0));
        return next;
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
        LogEnd end = bounds.end();
        try {
            return reader.read(end, bounds.startOffset(), offset, maxBytes, maxOffsetExclusive, minOneBatch);
        } catch (LogStorageException e) {
            throw ioFailed(e);
        }
    }

    /**
     * A read_committed read (KIP-98): as {@link #read(long, int, long, boolean)} bounded by
     * {@code lastStableOffset}, with the aborted transactions that overlap the bytes returned, collected from the
     * transaction indexes. The bytes stay a zero-copy file slice.
     *
     * @throws OffsetOutOfRangeException offset below the log start or above the log end
     */
    public CommittedRead readCommitted(long offset, int maxBytes, long lastStableOffset, boolean minOneBatch) {
        ensureOpen();
        LogEnd end = bounds.end();
        try {
            return reader.readCommitted(end, bounds.startOffset(), offset, maxBytes, lastStableOffset, minOneBatch);
        } catch (LogStorageException e) {
            throw ioFailed(e);
        }
    }

    /**
     * The aborted transactions that overlap [{@code fetchOffset}, {@code upperBoundOffset}), as their index entries
     * say (see {@link TransactionIndex#collect}).
     */
    public List<AbortedTxn> collectAbortedTransactions(long fetchOffset, long upperBoundOffset) {
        ensureOpen();
        try {
            return reader.collectAbortedTransactions(fetchOffset, upperBoundOffset);
        } catch (LogStorageException e) {
            throw ioFailed(e);
        }
    }

    /**
     * ListOffsets by timestamp, at batch granularity: the first batch whose max timestamp is at least
     * {@code timestampMs}, as (its max timestamp, its base offset raised to the log start).
     */
    public Optional<TimestampOffset> offsetForTimestamp(long timestampMs) {
        ensureOpen();
        try {
            return reader.offsetForTimestamp(timestampMs, bounds.startOffset());
        } catch (LogStorageException e) {
            throw ioFailed(e);
        }
    }

    /**
     * ListOffsets MAX_TIMESTAMP (KIP-734), at batch granularity: the largest timestamp and the base
     * offset of the first batch carrying it; empty when no batch has a timestamp.
     */
    public Optional<TimestampOffset> maxTimestampOffset() {
        ensureOpen();
        try {
            return reader.maxTimestampOffset(bounds.startOffset());
        } catch (LogStorageException e) {
            throw ioFailed(e);
        }
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
            if (offset > bounds.endOffset() || offset < 0) {
                throw new OffsetOutOfRangeException("cannot delete records before " + offset + " in log " + dir
                        + ": log end offset is " + bounds.endOffset());
            }
            return retention.deleteRecordsBefore(offset, config);
        } catch (LogStorageException e) {
            throw ioFailed(e);
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
            return truncation.truncateTo(offset, config);
        } catch (LogStorageException e) {
            throw ioFailed(e);
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
            truncation.restartAt(offset, config);
        } catch (LogStorageException e) {
            throw ioFailed(e);
        } finally {
            lock.unlock();
        }
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
            LogConfig cfg = config;
            segments.deleteRetiredDue(nowMs, cfg.fileDeleteDelayMs());
            producerState.removeExpired(nowMs, cfg.producerIdExpirationMs());
            deleted = retention.deleteExpired(cfg, nowMs, highWatermark);
            segments.deleteRetiredDue(nowMs, cfg.fileDeleteDelayMs());
        } catch (LogStorageException e) {
            throw ioFailed(e);
        } finally {
            lock.unlock();
        }
        flushRolledSegments();
        return deleted;
    }

    /**
     * Swap-in point for the cleaner: {@code replacements} ({@code .cleaned} segments) take the place of
     * {@code replaced}, crash-safely; see {@link LogSegments#replace}.
     *
     * @throws IllegalArgumentException when one of {@code replaced} is not an inactive segment of this log
     */
    public void replaceSegments(List<LogSegment> replacements, List<LogSegment> replaced) {
        lock.lock();
        try {
            ensureOpen();
            segments.requireInactive(replaced);
            flusher.onSegmentsReplacedLocked();
            segments.replace(replacements, replaced, config.fileDeleteDelayMs());
            // Snapshots named by segments merged away would otherwise pile up on a compacted log; a
            // reopen only needs the newest one.
            for (LogSegment segment : replaced) {
                if (!segments.contains(segment.baseOffset())) {
                    producerState.deleteSnapshot(segment.baseOffset());
                }
            }
        } catch (LogStorageException e) {
            throw ioFailed(e);
        } finally {
            lock.unlock();
        }
    }

    /** fsyncs everything up to the log end and moves the recovery point there. */
    public void flush() {
        lock.lock();
        try {
            ensureOpen();
            flusher.flushUpToLocked(bounds.endOffset(), bounds.endOffset());
        } catch (LogStorageException e) {
            throw ioFailed(e);
        } finally {
            lock.unlock();
        }
    }

    /** Flushes if flush.messages or flush.ms says so; for a scheduler to call. */
    public void maybeFlush(long nowMs) {
        lock.lock();
        try {
            ensureOpen();
            flusher.maybeFlushLocked(nowMs, config, bounds.endOffset());
        } catch (LogStorageException e) {
            throw ioFailed(e);
        } finally {
            lock.unlock();
        }
    }

    private void ensureOpen() {
        if (closed) {
            if (closedAfterFailure) {
                // No IOException cause: this is the directory's failure already reported, not a new one.
                throw new LogStorageException("log " + dir + " is offline: its log directory failed");
            }
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
            flusher.flushUpToLocked(bounds.endOffset(), bounds.endOffset());
            producerState.writeSnapshot(bounds.endOffset(), true);
            segments.close();
            closed = true;
            LOG.debug("closed log {} at offsets [{}, {})", dir, bounds.startOffset(), bounds.endOffset());
        } catch (LogStorageException e) {
            throw ioFailed(e);
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
            closedAfterFailure = true;
            closed = true;
            segments.closeHandlers();
        } catch (LogStorageException e) {
            throw ioFailed(e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "Log(" + dir + ", start=" + bounds.startOffset() + ", end=" + bounds.endOffset() + ", segments="
                + segments.count() + ")";
    }
}
