package io.kraft.storage.record;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/** An uncompressed records section: bodies are views of the batch's own memory, nothing is copied. */
final class PlainPayload extends RecordPayload {
    private final ByteBuffer records;
    private final ByteBuffer body;

    PlainPayload(ByteBuffer records, long batchBaseOffset) {
        super(batchBaseOffset);
        this.records = records;
        this.body = records.duplicate();
    }

    @Override
    ByteBuffer nextRecord(int index) {
        if (!records.hasRemaining()) {
            return null;
        }
        int prefixStart = records.position();
        int length;
        try {
            length = Varint.readVarint(records);
        } catch (BufferUnderflowException e) {
            throw new CorruptRecordException("record " + index + " of batch at offset " + batchBaseOffset
                    + " has a length prefix cut off by the end of the batch");
        } catch (IllegalArgumentException e) {
            throw new CorruptRecordException("record " + index + " of batch at offset " + batchBaseOffset
                    + " has a malformed length: " + e.getMessage());
        }
        lengthPrefixBytes(records.position() - prefixStart);
        checkLength(index, length, records.remaining(), "the batch");
        int start = records.position();
        records.position(start + length);
        // Bodies of plain batches are handed to records as slices, so one reused view is stable enough.
        body.clear().limit(start + length).position(start);
        return body;
    }

    @Override
    boolean hasMoreBytes() {
        return records.hasRemaining();
    }

    @Override
    public void close() {
        // Nothing held: the batch's buffer belongs to the caller.
    }
}
