package io.kraft.storage.log;

import io.kraft.storage.io.DurableFiles;
import io.kraft.storage.io.FaultInjection;
import io.kraft.storage.record.CorruptRecordException;
import io.kraft.storage.record.RecordBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One segment of a partition log: the {@code .log} file of record batches starting at
 * {@link #baseOffset()}, and its offset and time indexes. Appends come from one thread at a time (the
 * log's lock); reads may run concurrently and only look below the size the caller captured.
 */
public final class LogSegment implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LogSegment.class);
    private static final int HEADER_READ_BYTES = RecordBatch.HEADER_SIZE;

    private final long baseOffset;
    private final FileChannel channel;
    private final OffsetIndex offsetIndex;
    private final TimeIndex timeIndex;
    private final TransactionIndex txnIndex;
    private final int indexIntervalBytes;
    private volatile Path logFile;
    private volatile int sizeBytes;
    private int bytesSinceLastIndexEntry;
    private volatile long maxTimestampMs = TimeIndex.NO_TIMESTAMP;
    /** Last offset of the first batch that carried {@link #maxTimestampMs}: what the time index stores. */
    private volatile long maxTimestampBatchLastOffset;
    /** The transaction index was reset by recovery and waits to be rebuilt from the producer state. */
    private boolean txnIndexNeedsRebuild;
    /** Time of the first append, for segment.ms; -1 until known. */
    private long rollStartMs = -1;

    private LogSegment(Path dir, long baseOffset, LogConfig config, String suffix, boolean create) {
        this.baseOffset = baseOffset;
        this.indexIntervalBytes = config.indexIntervalBytes();
        this.logFile = LogFileNames.logFile(dir, baseOffset, suffix);
        this.maxTimestampBatchLastOffset = baseOffset;
        Path indexFile = LogFileNames.offsetIndexFile(dir, baseOffset, suffix);
        Path timeIndexFile = LogFileNames.timeIndexFile(dir, baseOffset, suffix);
        Path txnIndexFile = LogFileNames.txnIndexFile(dir, baseOffset, suffix);
        FileChannel opened = null;
        try {
            if (create) {
                // Stale index files of an earlier life of this base offset must not be reused.
                Files.deleteIfExists(indexFile);
                Files.deleteIfExists(timeIndexFile);
                Files.deleteIfExists(txnIndexFile);
                opened = FileChannel.open(logFile, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                        StandardOpenOption.WRITE);
            } else {
                opened = FileChannel.open(logFile, StandardOpenOption.READ, StandardOpenOption.WRITE);
            }
            long size = opened.size();
            if (size > Integer.MAX_VALUE) {
                throw new LogStorageException("segment " + logFile + " has " + size + " bytes, more than 2 GiB");
            }
            this.channel = opened;
            this.sizeBytes = (int) size;
            this.offsetIndex = new OffsetIndex(indexFile, baseOffset, config.maxIndexBytes());
            try {
                this.timeIndex = new TimeIndex(timeIndexFile, baseOffset, config.maxIndexBytes());
            } catch (RuntimeException e) {
                offsetIndex.closeHandler();
                throw e;
            }
            try {
                this.txnIndex = new TransactionIndex(txnIndexFile);
            } catch (RuntimeException e) {
                offsetIndex.closeHandler();
                timeIndex.closeHandler();
                throw e;
            }
        } catch (IOException e) {
            closeQuietly(opened);
            throw new LogStorageException("cannot open segment " + logFile, e);
        } catch (RuntimeException e) {
            closeQuietly(opened);
            throw e;
        }
    }

    /** Creates a new empty segment; fails if its log file exists. {@code suffix} is "" or e.g. ".cleaned". */
    public static LogSegment create(Path dir, long baseOffset, LogConfig config, String suffix) {
        return new LogSegment(dir, baseOffset, config, suffix, true);
    }

    /**
     * Opens an existing segment. Index state is taken as found: call {@link #sanityCheck()} and, if it
     * fails, {@link #recover(int)} before trusting lookups.
     */
    public static LogSegment open(Path dir, long baseOffset, LogConfig config, String suffix) {
        LogSegment segment = new LogSegment(dir, baseOffset, config, suffix, false);
        segment.loadTailState();
        return segment;
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // already failing; the first error is the one to report
            }
        }
    }

    /** Restores max timestamp and bytes since the last index entry from the indexes. */
    private void loadTailState() {
        TimestampOffset last = timeIndex.entries() > 0 && timeIndex.sizeBytes() > 0 ? safeLastTimeEntry() : null;
        if (last != null && last.timestampMs() >= 0) {
            maxTimestampMs = last.timestampMs();
            maxTimestampBatchLastOffset = last.offset();
        }
        int lastIndexed = offsetIndex.lastEntry().map(OffsetPosition::position).orElse(0);
        bytesSinceLastIndexEntry = Math.max(0, sizeBytes - lastIndexed);
    }

    private TimestampOffset safeLastTimeEntry() {
        try {
            timeIndex.sanityCheck(sizeBytes);
            return timeIndex.lastEntry();
        } catch (CorruptIndexException e) {
            return null; // recover() will rebuild it
        }
    }

    public long baseOffset() {
        return baseOffset;
    }

    public int sizeBytes() {
        return sizeBytes;
    }

    public Path logFile() {
        return logFile;
    }

    public FileChannel channel() {
        return channel;
    }

    public OffsetIndex offsetIndex() {
        return offsetIndex;
    }

    public TimeIndex timeIndex() {
        return timeIndex;
    }

    /** The aborted transactions whose ABORT marker is in this segment. */
    public TransactionIndex txnIndex() {
        return txnIndex;
    }

    /** Empties the transaction index, to be rebuilt by replaying the producer state over this segment. */
    void resetTxnIndexForRebuild() {
        txnIndex.reset();
        txnIndexNeedsRebuild = true;
    }

    boolean txnIndexNeedsRebuild() {
        return txnIndexNeedsRebuild;
    }

    /** The rebuild replayed this segment: its transaction index is whole again. */
    void txnIndexRebuilt() {
        txnIndexNeedsRebuild = false;
    }

    /** Largest batch max timestamp in this segment, or NO_TIMESTAMP. */
    public long maxTimestampMs() {
        return maxTimestampMs;
    }

    /** Last offset of the first batch carrying {@link #maxTimestampMs()}. */
    public long maxTimestampBatchLastOffset() {
        return maxTimestampBatchLastOffset;
    }

    /**
     * The timestamp retention compares: the newest batch timestamp, or the file's modification time
     * when no batch carries one (as Kafka does).
     */
    public long largestTimestampMs() {
        long max = maxTimestampMs;
        if (max >= 0) {
            return max;
        }
        try {
            return Files.getLastModifiedTime(logFile).toMillis();
        } catch (IOException e) {
            throw new LogStorageException("cannot read modification time of " + logFile, e);
        }
    }

    /**
     * The load-time check, cheap enough for thousands of segments: whole-entry index files, ordered
     * last entries, the last offset and time entries matching the batches they name, a tail of
     * complete, increasing batches after the last offset entry, and no tail timestamp above the
     * recorded maximum. Entries further in are verified when a lookup uses them.
     *
     * @throws CorruptIndexException naming the problem
     */
    public void sanityCheck() {
        txnIndex.sanityCheck();
        offsetIndex.sanityCheck(sizeBytes);
        timeIndex.sanityCheck(sizeBytes);
        Optional<OffsetPosition> last = offsetIndex.lastEntry();
        if (last.isPresent()) {
            BatchLocation batch = readBatchAt(last.get().position(), sizeBytes, newHeaderBuffer());
            if (batch == null || batch.lastOffset() != last.get().offset()) {
                throw new CorruptIndexException("offset index " + offsetIndex.file() + " last entry " + last.get()
                        + " does not match the batch at that position in " + logFile);
            }
        }
        int position = last.map(OffsetPosition::position).orElse(0);
        long minOffset = baseOffset;
        long nextOffset = baseOffset;
        long tailMaxTimestamp = TimeIndex.NO_TIMESTAMP;
        ByteBuffer header = newHeaderBuffer();
        while (position < sizeBytes) {
            BatchLocation batch = readBatchAt(position, sizeBytes, header);
            if (batch == null || batch.baseOffset() < minOffset) {
                throw new CorruptIndexException("segment " + logFile + " has a torn or out-of-order batch at position "
                        + position + " of " + sizeBytes);
            }
            minOffset = batch.nextOffset();
            nextOffset = batch.nextOffset();
            tailMaxTimestamp = Math.max(tailMaxTimestamp, batch.maxTimestampMs());
            position += batch.sizeBytes();
        }
        TimestampOffset lastTime = timeIndex.lastEntry();
        if (timeIndex.entries() > 0 && (lastTime.offset() >= nextOffset || !timeEntryMatches(lastTime))) {
            throw new CorruptIndexException("time index " + timeIndex.file() + " last entry " + lastTime
                    + " does not match its batch in " + logFile);
        }
        if (tailMaxTimestamp > Math.max(lastTime.timestampMs(), maxTimestampMs)) {
            // The final entry written when a segment closes is missing: the max timestamp would be wrong.
            throw new CorruptIndexException("time index " + timeIndex.file() + " ends at " + lastTime
                    + " but " + logFile + " holds timestamp " + tailMaxTimestamp);
        }
    }

    /** Rolling checks: size, age since the first append, full index, or an offset too far for an int. */
    public boolean shouldRoll(int nextAppendBytes, long nextLastOffset, long nowMs, LogConfig config) {
        int size = sizeBytes;
        boolean full = size > 0 && (long) size > (long) config.segmentBytes() - nextAppendBytes;
        boolean old = size > 0 && rollStartMs >= 0 && nowMs - rollStartMs > config.segmentMs();
        boolean indexFull = size > 0 && (offsetIndex.isFull() || timeIndex.isFull());
        boolean offsetOverflow = nextLastOffset - baseOffset > Integer.MAX_VALUE;
        return full || old || indexFull || offsetOverflow;
    }

    /**
     * Appends validated, offset-assigned batches (the whole buffer, position to limit) and indexes them.
     * Data is written, then the new size published, then index entries added, so a concurrent reader
     * never sees a size or index entry beyond written bytes.
     */
    public void append(ByteBuffer batches, long nowMs) {
        int position = sizeBytes;
        int bytes = batches.remaining();
        if ((long) position + bytes > Integer.MAX_VALUE) {
            throw new LogStorageException("append of " + bytes + " bytes would grow segment " + logFile
                    + " past 2 GiB");
        }
        for (int p = batches.position(); p < batches.limit(); ) {
            RecordBatch batch = new RecordBatch(batches, p);
            if (batch.baseOffset() < baseOffset || batch.lastOffset() - baseOffset > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("batch offsets " + batch.baseOffset() + ".." + batch.lastOffset()
                        + " do not fit segment " + logFile);
            }
            p += batch.sizeInBytes();
        }
        if (position == 0 || rollStartMs < 0) {
            rollStartMs = nowMs;
        }
        writeFully(batches.duplicate(), position);
        sizeBytes = position + bytes;
        int filePosition = position;
        for (int p = batches.position(); p < batches.limit(); ) {
            RecordBatch batch = new RecordBatch(batches, p);
            int size = batch.sizeInBytes();
            indexBatch(batch.lastOffset(), batch.maxTimestamp(), filePosition, size);
            filePosition += size;
            p += size;
        }
    }

    private void writeFully(ByteBuffer data, long position) {
        try {
            FaultInjection.writeFully(logFile, channel, data, position);
        } catch (IOException e) {
            throw new LogStorageException("cannot write to " + logFile, e);
        }
    }

    /** Same rule on append and on rebuild, so a rebuilt index equals the one appends made. */
    private void indexBatch(long lastOffset, long batchMaxTimestampMs, int position, int size) {
        if (batchMaxTimestampMs > maxTimestampMs) {
            maxTimestampMs = batchMaxTimestampMs;
            maxTimestampBatchLastOffset = lastOffset;
        }
        // A multi-batch append may fill an index midway; the tail then stays unindexed (lookups are
        // floors, so still correct) and the next append rolls.
        if (bytesSinceLastIndexEntry > indexIntervalBytes && !offsetIndex.isFull() && !timeIndex.isFull()) {
            offsetIndex.append(lastOffset, position);
            timeIndex.maybeAppend(maxTimestampMs, maxTimestampBatchLastOffset, false);
            bytesSinceLastIndexEntry = 0;
        }
        bytesSinceLastIndexEntry += size;
    }

    static ByteBuffer newHeaderBuffer() {
        return ByteBuffer.allocate(HEADER_READ_BYTES);
    }

    /**
     * Reads the header of the batch at {@code position}; null if fewer than a header's bytes or the
     * batch's declared length remain before {@code limit}.
     */
    BatchLocation readBatchAt(int position, int limit, ByteBuffer header) {
        if (position < 0 || limit - position < HEADER_READ_BYTES) {
            return null;
        }
        header.clear();
        try {
            while (header.hasRemaining()) {
                int read = channel.read(header, position + header.position());
                if (read < 0) {
                    return null;
                }
            }
        } catch (IOException e) {
            throw new LogStorageException("cannot read " + logFile + " at position " + position, e);
        }
        RecordBatch batch = new RecordBatch(header, 0);
        int length = batch.batchLength();
        if (length < RecordBatch.HEADER_SIZE - RecordBatch.LOG_OVERHEAD
                || (long) position + RecordBatch.LOG_OVERHEAD + length > limit) {
            return null;
        }
        return new BatchLocation(batch.baseOffset(), batch.lastOffset(), position, RecordBatch.LOG_OVERHEAD + length,
                batch.maxTimestamp(), batch.partitionLeaderEpoch());
    }

    /** The first batch below {@code maxPosition} whose last offset is at least {@code offset}, if any. */
    public BatchLocation firstBatchAtOrAfter(long offset, int maxPosition) {
        ByteBuffer header = newHeaderBuffer();
        BatchLocation batch = indexedBatch(offsetIndex.lookup(offset), maxPosition, header);
        while (batch != null && batch.lastOffset() < offset) {
            batch = readBatchAt(batch.position() + batch.sizeBytes(), maxPosition, header);
        }
        return batch;
    }

    /**
     * The batch an offset index entry points at, checked against the entry: an entry damaged on disk
     * (which load-time checks cannot all catch cheaply) must not send a lookup past its batch, so a
     * mismatch falls back to the segment's first batch. The check reuses the read the scan needs
     * anyway, so a lookup costs no extra I/O. Null when no whole batch lies below {@code limit}.
     */
    private BatchLocation indexedBatch(OffsetPosition entry, int limit, ByteBuffer header) {
        if (entry.position() == 0) {
            return readBatchAt(0, limit, header);
        }
        BatchLocation batch = readBatchAt(entry.position(), sizeBytes, header);
        if (batch == null || batch.lastOffset() != entry.offset()) {
            warnCorruptIndex(offsetIndex.file(), entry.toString());
            return readBatchAt(0, limit, header);
        }
        return (long) batch.position() + batch.sizeBytes() <= limit ? batch : null;
    }

    /** Whether a time index entry names the first batch that reached its timestamp. */
    private boolean timeEntryMatches(TimestampOffset entry) {
        BatchLocation batch = firstBatchAtOrAfter(entry.offset(), sizeBytes);
        return batch != null && batch.lastOffset() == entry.offset() && batch.maxTimestampMs() == entry.timestampMs();
    }

    private boolean warnedCorruptIndex;

    private void warnCorruptIndex(Path file, String entry) {
        if (!warnedCorruptIndex) {
            warnedCorruptIndex = true;
            LOG.warn("index {} entry {} does not match {}; such lookups scan the segment from its start "
                    + "(delete the index files to have them rebuilt on the next open)", file, entry, logFile);
        }
    }

    /**
     * Reads from the batch holding {@code startOffset}: at most {@code maxBytes}, never past
     * {@code maxPosition}, but a whole first batch when {@code minOneBatch}. Null when no batch below
     * maxPosition reaches startOffset.
     */
    public FileSlice read(long startOffset, int maxBytes, int maxPosition, boolean minOneBatch) {
        return read(startOffset, maxBytes, maxPosition, minOneBatch, Long.MAX_VALUE);
    }

    /**
     * As {@link #read(long, int, int, boolean)}, and only whole batches whose last offset is below
     * {@code maxOffsetExclusive} (a consumer's high watermark): an empty slice when the batch holding
     * startOffset reaches it.
     */
    public FileSlice read(long startOffset, int maxBytes, int maxPosition, boolean minOneBatch,
                          long maxOffsetExclusive) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must not be negative, got " + maxBytes);
        }
        int end = Math.min(maxPosition, sizeBytes);
        BatchLocation first = firstBatchAtOrAfter(startOffset, end);
        if (first == null) {
            return null;
        }
        if (first.lastOffset() >= maxOffsetExclusive) {
            return FileSlice.empty();
        }
        if (maxOffsetExclusive != Long.MAX_VALUE) {
            BatchLocation cut = firstBatchAtOrAfter(maxOffsetExclusive, end);
            if (cut != null) {
                end = cut.position();
            }
        }
        int limit = minOneBatch ? Math.max(maxBytes, first.sizeBytes()) : maxBytes;
        int length = (int) Math.min((long) end - first.position(), limit);
        return new FileSlice(channel, first.position(), length);
    }

    /**
     * The first batch at or after {@code startingOffset} whose max timestamp is at least
     * {@code timestampMs}: its max timestamp and its base offset (raised to startingOffset).
     */
    public Optional<TimestampOffset> findOffsetByTimestamp(long timestampMs, long startingOffset) {
        TimestampOffset entry = timeIndex.lookup(timestampMs);
        // Starting from the base offset is always safe; any other entry must prove itself.
        if (entry.offset() != baseOffset && !timeEntryMatches(entry)) {
            warnCorruptIndex(timeIndex.file(), entry.toString());
            entry = new TimestampOffset(TimeIndex.NO_TIMESTAMP, baseOffset);
        }
        ByteBuffer header = newHeaderBuffer();
        int limit = sizeBytes;
        BatchLocation batch = indexedBatch(offsetIndex.lookup(Math.max(entry.offset(), startingOffset)), limit, header);
        while (batch != null) {
            if (batch.lastOffset() >= startingOffset && batch.maxTimestampMs() >= timestampMs) {
                return Optional.of(new TimestampOffset(batch.maxTimestampMs(), Math.max(batch.baseOffset(), startingOffset)));
            }
            batch = readBatchAt(batch.position() + batch.sizeBytes(), limit, header);
        }
        return Optional.empty();
    }

    /** Visits every complete batch header in file order (a full scan: for rare rebuilds only). */
    public void forEachBatch(Consumer<BatchLocation> visitor) {
        ByteBuffer header = newHeaderBuffer();
        int limit = sizeBytes;
        int position = 0;
        while (true) {
            BatchLocation batch = readBatchAt(position, limit, header);
            if (batch == null) {
                return;
            }
            visitor.accept(batch);
            position += batch.sizeBytes();
        }
    }

    /**
     * Visits the header of every complete batch whose base offset is at least {@code fromOffset}, in
     * file order, without reading records (rebuilding producer state), except that a control batch (a
     * transaction marker, whose kind is in its record) is read whole. The view holds only the
     * {@link RecordBatch#HEADER_SIZE} header bytes (or the control batch) and is reused: read it inside the call.
     */
    public void forEachBatchHeaderFrom(long fromOffset, Consumer<RecordBatch> visitor) {
        int limit = sizeBytes;
        BatchLocation first = firstBatchAtOrAfter(fromOffset, limit);
        if (first == null) {
            return;
        }
        ByteBuffer header = newHeaderBuffer();
        RecordBatch view = new RecordBatch(header, 0);
        ByteBuffer control = null;
        int position = first.position();
        while (true) {
            BatchLocation batch = readBatchAt(position, limit, header);
            if (batch == null) {
                return;
            }
            if (batch.baseOffset() >= fromOffset) {
                if (view.isControl()) {
                    if (control == null || control.capacity() < batch.sizeBytes()) {
                        control = ByteBuffer.allocate(Math.max(256, batch.sizeBytes()));
                    }
                    control.clear().limit(batch.sizeBytes());
                    readFully(control, position);
                    control.flip();
                    visitor.accept(new RecordBatch(control, 0));
                } else {
                    visitor.accept(view);
                }
            }
            position += batch.sizeBytes();
        }
    }

    /** The offset after the last batch, or the base offset for an empty segment. */
    public long readNextOffset() {
        ByteBuffer header = newHeaderBuffer();
        int limit = sizeBytes;
        int position = offsetIndex.lastEntry().map(OffsetPosition::position).orElse(0);
        long next = baseOffset;
        while (true) {
            BatchLocation batch = readBatchAt(position, limit, header);
            if (batch == null) {
                return next;
            }
            next = batch.nextOffset();
            position += batch.sizeBytes();
        }
    }

    /**
     * Removes the batch holding {@code offset} and everything after it, from the log and both
     * indexes; the segment becomes appendable again (indexes regrow to {@code maxIndexBytes}).
     *
     * @return bytes removed from the log file
     */
    public int truncateTo(long offset, int maxIndexBytes) {
        BatchLocation cut = firstBatchAtOrAfter(offset, sizeBytes);
        offsetIndex.resize(maxIndexBytes);
        timeIndex.resize(maxIndexBytes);
        if (cut == null) {
            return 0;
        }
        offsetIndex.truncateTo(cut.baseOffset());
        timeIndex.truncateTo(cut.baseOffset());
        txnIndex.truncateTo(cut.baseOffset());
        int removed = sizeBytes - cut.position();
        try {
            channel.truncate(cut.position());
        } catch (IOException e) {
            throw new LogStorageException("cannot truncate " + logFile + " to " + cut.position() + " bytes", e);
        }
        sizeBytes = cut.position();
        recomputeTailState();
        if (sizeBytes == 0) {
            rollStartMs = -1;
        }
        return removed;
    }

    /** After truncation: max timestamp from the time index plus the unindexed tail. */
    private void recomputeTailState() {
        TimestampOffset lastTime = timeIndex.lastEntry();
        maxTimestampMs = lastTime.timestampMs();
        maxTimestampBatchLastOffset = lastTime.offset();
        int position = offsetIndex.lastEntry().map(OffsetPosition::position).orElse(0);
        ByteBuffer header = newHeaderBuffer();
        while (true) {
            BatchLocation batch = readBatchAt(position, sizeBytes, header);
            if (batch == null) {
                break;
            }
            if (batch.maxTimestampMs() > maxTimestampMs) {
                maxTimestampMs = batch.maxTimestampMs();
                maxTimestampBatchLastOffset = batch.lastOffset();
            }
            position += batch.sizeBytes();
        }
        int lastIndexed = offsetIndex.lastEntry().map(OffsetPosition::position).orElse(0);
        bytesSinceLastIndexEntry = sizeBytes - lastIndexed;
    }

    /**
     * Re-validates every batch (header, CRC, offsets increasing and inside this segment), rebuilds
     * both indexes and cuts the file at the first invalid or torn byte.
     *
     * @return bytes cut from the end of the log file
     */
    public int recover(int maxIndexBytes) {
        offsetIndex.resize(maxIndexBytes);
        timeIndex.resize(maxIndexBytes);
        offsetIndex.reset();
        timeIndex.reset();
        maxTimestampMs = TimeIndex.NO_TIMESTAMP;
        maxTimestampBatchLastOffset = baseOffset;
        bytesSinceLastIndexEntry = 0;
        long fileSize;
        try {
            fileSize = channel.size();
        } catch (IOException e) {
            throw new LogStorageException("cannot read the size of " + logFile, e);
        }
        int limit = (int) Math.min(fileSize, Integer.MAX_VALUE);
        ByteBuffer header = newHeaderBuffer();
        ByteBuffer batchBuffer = ByteBuffer.allocate(64 * 1024);
        int position = 0;
        long expectedMinOffset = baseOffset;
        while (true) {
            BatchLocation location = readBatchAt(position, limit, header);
            if (location == null) {
                break;
            }
            if (batchBuffer.capacity() < location.sizeBytes()) {
                batchBuffer = ByteBuffer.allocate(location.sizeBytes());
            }
            batchBuffer.clear().limit(location.sizeBytes());
            readFully(batchBuffer, position);
            batchBuffer.flip();
            RecordBatch batch = new RecordBatch(batchBuffer, 0);
            try {
                batch.validate();
            } catch (CorruptRecordException e) {
                break;
            }
            if (batch.baseOffset() < expectedMinOffset || batch.lastOffset() - baseOffset > Integer.MAX_VALUE) {
                break;
            }
            indexBatch(batch.lastOffset(), batch.maxTimestamp(), position, location.sizeBytes());
            expectedMinOffset = batch.nextOffset();
            position += location.sizeBytes();
        }
        int truncated = (int) (fileSize - position);
        if (truncated > 0) {
            try {
                channel.truncate(position);
            } catch (IOException e) {
                throw new LogStorageException("cannot truncate " + logFile + " to " + position + " bytes", e);
            }
        }
        sizeBytes = position;
        rollStartMs = -1;
        return truncated;
    }

    private void readFully(ByteBuffer target, long position) {
        try {
            while (target.hasRemaining()) {
                if (channel.read(target, position + target.position()) < 0) {
                    throw new LogStorageException("unexpected end of " + logFile + " at " + position);
                }
            }
        } catch (IOException e) {
            throw new LogStorageException("cannot read " + logFile + " at position " + position, e);
        }
    }

    /**
     * Sets the segment.ms clock of a loaded segment from its first batch's timestamp, or leaves it to
     * the next append when that batch has none.
     */
    void loadRollStart() {
        BatchLocation first = readBatchAt(0, sizeBytes, newHeaderBuffer());
        rollStartMs = first != null && first.maxTimestampMs() >= 0 ? first.maxTimestampMs() : -1;
    }

    /** Grows the indexes back to their preallocated size when this segment becomes the active one. */
    public void resizeIndexes(int maxIndexBytes) {
        offsetIndex.resize(maxIndexBytes);
        timeIndex.resize(maxIndexBytes);
    }

    /** The segment stops being active: record the final max timestamp and trim the indexes. */
    public void onBecomeInactive() {
        appendFinalTimeEntry();
        offsetIndex.trimToValidSize();
        timeIndex.trimToValidSize();
    }

    /** Records the segment's max timestamp, so a reopen knows it without scanning. */
    private void appendFinalTimeEntry() {
        long max = maxTimestampMs;
        if (max < 0 || max <= timeIndex.lastEntry().timestampMs()) {
            return;
        }
        if (timeIndex.entries() >= timeIndex.maxEntries()) {
            timeIndex.resize((timeIndex.entries() + 1) * TimeIndex.ENTRY_SIZE_BYTES);
        }
        timeIndex.maybeAppend(max, maxTimestampBatchLastOffset, true);
    }

    /** fsyncs the log file (data and size) and both indexes. */
    public void flush() {
        try {
            FaultInjection.beforeFsync(logFile);
            channel.force(true);
        } catch (IOException e) {
            throw new LogStorageException("cannot flush " + logFile, e);
        }
        offsetIndex.flush();
        timeIndex.flush();
        txnIndex.flush();
    }

    /**
     * Renames all three files from {@code oldSuffix} to {@code newSuffix} (e.g. "" to ".deleted", or
     * ".cleaned" to ".swap"); open channels and mappings keep working.
     */
    public void changeFileSuffixes(String oldSuffix, String newSuffix) {
        logFile = renameSuffix(logFile, oldSuffix, newSuffix);
        offsetIndex.renameTo(LogFileNames.withSuffixReplaced(offsetIndex.file(), oldSuffix, newSuffix));
        timeIndex.renameTo(LogFileNames.withSuffixReplaced(timeIndex.file(), oldSuffix, newSuffix));
        txnIndex.renameTo(LogFileNames.withSuffixReplaced(txnIndex.file(), oldSuffix, newSuffix));
    }

    private static Path renameSuffix(Path file, String oldSuffix, String newSuffix) {
        Path target = LogFileNames.withSuffixReplaced(file, oldSuffix, newSuffix);
        try {
            DurableFiles.atomicMove(file, target);
        } catch (IOException e) {
            throw new LogStorageException("cannot rename segment " + file + " to " + target, e);
        }
        return target;
    }

    /** Writes the final time index entry, trims the indexes and closes the files. */
    @Override
    public void close() {
        if (!channel.isOpen()) {
            return;
        }
        appendFinalTimeEntry();
        offsetIndex.close();
        timeIndex.close();
        txnIndex.close();
        try {
            channel.close();
        } catch (IOException e) {
            throw new LogStorageException("cannot close " + logFile, e);
        }
    }

    /**
     * Releases the file handles without writing anything (no final index entry, no trim): for a failed
     * disk, where writing could only make things worse. The files look as after a crash.
     */
    public void closeHandlers() {
        offsetIndex.closeHandler();
        timeIndex.closeHandler();
        txnIndex.close();
        try {
            channel.close();
        } catch (IOException e) {
            throw new LogStorageException("cannot close " + logFile, e);
        }
    }

    /** Closes and deletes all three files. */
    public void deleteFiles() {
        offsetIndex.deleteIfExists();
        timeIndex.deleteIfExists();
        txnIndex.deleteIfExists();
        try {
            channel.close();
            Files.deleteIfExists(logFile);
        } catch (NoSuchFileException ignored) {
            // already gone
        } catch (IOException e) {
            throw new LogStorageException("cannot delete " + logFile, e);
        }
    }

    @Override
    public String toString() {
        return "LogSegment(" + logFile.getFileName() + ", size=" + sizeBytes + ")";
    }
}
