package io.kraft.storage.record;

import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Walks a buffer of concatenated record batches (a produce request's or a fetch response's records)
 * and yields a view of each, checking only framing: every batch's declared length must be
 * non-negative, cover at least a v2 header, stay within a maximum and end inside the buffer. Batch
 * contents are not checked; call {@link RecordBatch#validate} or {@link RecordBatch#validateRecords}.
 */
public final class BatchIterator implements Iterator<RecordBatch> {
    private final ByteBuffer buffer;
    private final int maxBatchBytes;
    private int position;

    /**
     * Iterates from {@code buffer}'s position to its limit (the buffer's own position is not moved).
     *
     * @param maxBatchBytes largest batch accepted, log overhead included
     */
    public BatchIterator(ByteBuffer buffer, int maxBatchBytes) {
        if (maxBatchBytes < RecordBatch.HEADER_SIZE) {
            throw new IllegalArgumentException("max batch size " + maxBatchBytes + " is below the v2 header size "
                    + RecordBatch.HEADER_SIZE);
        }
        this.buffer = buffer;
        this.maxBatchBytes = maxBatchBytes;
        this.position = buffer.position();
    }

    /** An {@link Iterable} for for-each loops; each iteration starts again at the buffer's position. */
    public static Iterable<RecordBatch> batches(ByteBuffer buffer, int maxBatchBytes) {
        return () -> new BatchIterator(buffer, maxBatchBytes);
    }

    @Override
    public boolean hasNext() {
        return position < buffer.limit();
    }

    /** @throws CorruptRecordException when the next batch's framing is broken */
    @Override
    public RecordBatch next() {
        if (!hasNext()) {
            throw new NoSuchElementException("no record batch after position " + position);
        }
        int remaining = buffer.limit() - position;
        if (remaining < RecordBatch.LOG_OVERHEAD) {
            throw new CorruptRecordException("record batch at position " + position + " is truncated: " + remaining
                    + " bytes left, offset and length need " + RecordBatch.LOG_OVERHEAD);
        }
        int length = buffer.getInt(position + RecordBatch.LENGTH_OFFSET);
        if (length < 0) {
            throw new CorruptRecordException("record batch at position " + position + " has negative length " + length);
        }
        int minLength = RecordBatch.HEADER_SIZE - RecordBatch.LOG_OVERHEAD;
        if (length < minLength) {
            throw new CorruptRecordException("record batch at position " + position + " has length " + length
                    + ", smaller than the v2 header (" + minLength + ")");
        }
        long size = (long) length + RecordBatch.LOG_OVERHEAD;
        if (size > maxBatchBytes) {
            throw new CorruptRecordException("record batch at position " + position + " has size " + size
                    + ", over the maximum of " + maxBatchBytes + " bytes");
        }
        if (size > remaining) {
            throw new CorruptRecordException("record batch at position " + position + " has size " + size + " but only "
                    + remaining + " bytes remain");
        }
        RecordBatch batch = new RecordBatch(buffer, position);
        position += (int) size;
        return batch;
    }

    /** Position of the next batch, or the limit once all were read. */
    public int position() {
        return position;
    }
}
