package io.kraft.storage.record;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Reads the records of one batch in order, decompressing as it goes, and checks the batch's record
 * structure on the way: each record fits its length, offset deltas strictly increase up to the last
 * offset delta, and the payload holds exactly the declared number of records. Close it (or read it
 * to the end) to release codec state.
 */
public final class RecordIterator implements Iterator<Record>, AutoCloseable {
    private final RecordPayload payload;
    private final RecordCursor cursor = new RecordCursor();
    private final long baseOffset;
    private final long baseTimestamp;
    private final long logAppendTimeMs;
    private final int baseSequence;
    private final int declaredCount;
    private final int lastOffsetDelta;
    private int index;
    private int previousOffsetDelta = -1;
    private boolean closed;

    RecordIterator(RecordBatch batch, boolean stableRecords) {
        batch.validateFraming();
        this.baseOffset = batch.baseOffset();
        this.baseTimestamp = batch.baseTimestamp();
        this.logAppendTimeMs = batch.isLogAppendTime() ? batch.maxTimestamp() : RecordBatch.NO_TIMESTAMP;
        this.baseSequence = batch.baseSequence();
        this.declaredCount = batch.recordCount();
        this.lastOffsetDelta = batch.lastOffsetDelta();
        this.payload = RecordPayload.open(batch, stableRecords);
    }

    /**
     * True while declared records remain. Once they are read, checks that nothing follows them.
     *
     * @throws CorruptRecordException when the payload holds bytes past the declared records
     */
    @Override
    public boolean hasNext() {
        if (closed) {
            return false;
        }
        if (index < declaredCount) {
            return true;
        }
        finish();
        return false;
    }

    /** @throws CorruptRecordException when the next record is malformed or missing */
    @Override
    public Record next() {
        if (!hasNext()) {
            throw new NoSuchElementException("all " + declaredCount + " records of batch at offset " + baseOffset
                    + " were read");
        }
        advance();
        return cursor.toRecord(baseOffset, baseTimestamp, logAppendTimeMs, baseSequence);
    }

    /** Parses the next declared record into the cursor without building it; false after the last. */
    boolean advance() {
        if (closed) {
            throw new IllegalStateException("record iterator of batch at offset " + baseOffset + " is closed");
        }
        if (index >= declaredCount) {
            finish();
            return false;
        }
        try {
            var body = payload.nextRecord(index);
            if (body == null) {
                throw new CorruptRecordException("batch at offset " + baseOffset + " declares " + declaredCount
                        + " records but its payload ends after " + index);
            }
            cursor.parse(body, payload.lengthPrefixBytes(), index, baseOffset);
            int delta = cursor.offsetDelta();
            if (delta <= previousOffsetDelta) {
                throw new CorruptRecordException("record " + index + " of batch at offset " + baseOffset
                        + " has offset delta " + delta + ", not above the previous record's " + previousOffsetDelta);
            }
            if (delta > lastOffsetDelta) {
                throw new CorruptRecordException("record " + index + " of batch at offset " + baseOffset
                        + " has offset delta " + delta + ", past the batch's last offset delta " + lastOffsetDelta);
            }
            previousOffsetDelta = delta;
            index++;
            return true;
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** The record {@link #advance} parsed last, in place. */
    RecordCursor cursor() {
        return cursor;
    }

    private void finish() {
        try {
            if (payload.hasMoreBytes()) {
                throw new CorruptRecordException("batch at offset " + baseOffset + " declares " + declaredCount
                        + " records but its payload holds more bytes after them");
            }
        } finally {
            close();
        }
    }

    /** Releases codec state; afterwards {@link #hasNext} is false. Safe to call twice. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            payload.close();
        }
    }
}
