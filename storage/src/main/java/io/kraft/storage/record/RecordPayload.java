package io.kraft.storage.record;

import java.nio.ByteBuffer;

/**
 * The records section of a batch as a sequence of record bodies, hiding whether it is stored plain
 * or compressed. Each call hands out the next record's bytes after its length prefix.
 */
abstract class RecordPayload implements AutoCloseable {
    protected final long batchBaseOffset;
    private int lengthPrefixBytes;

    RecordPayload(long batchBaseOffset) {
        this.batchBaseOffset = batchBaseOffset;
    }

    /**
     * Opens the payload of a batch whose framing was checked. With {@code stableBodies} every body
     * handed out stays valid after later calls (records may keep slices of it); without, a body is
     * only valid until the next call, which lets compressed payloads reuse one window.
     */
    static RecordPayload open(RecordBatch batch, boolean stableBodies) {
        ByteBuffer payload = batch.payload();
        // An empty payload means no records whatever the codec: builders write no codec framing then.
        if (batch.compressionType() == CompressionType.NONE || !payload.hasRemaining()) {
            return new PlainPayload(payload, batch.baseOffset());
        }
        return new DecompressingPayload(payload, batch.compressionType(), batch.baseOffset(), stableBodies,
                batch.maxDecompressedBytes());
    }

    /**
     * The next record's body (position..limit), or {@code null} when the payload holds no more bytes.
     *
     * @throws CorruptRecordException when the length prefix is malformed or runs past the payload
     */
    abstract ByteBuffer nextRecord(int index);

    /** Whether bytes remain after the records read so far. */
    abstract boolean hasMoreBytes();

    /** Bytes the last record's length prefix took. */
    final int lengthPrefixBytes() {
        return lengthPrefixBytes;
    }

    final void lengthPrefixBytes(int bytes) {
        this.lengthPrefixBytes = bytes;
    }

    /** Checks a decoded record length against what is left, naming the record on failure. */
    final void checkLength(int index, int length, long available, String where) {
        if (length < 0) {
            throw new CorruptRecordException("record " + index + " of batch at offset " + batchBaseOffset
                    + " has negative length " + length);
        }
        if (length > available) {
            throw new CorruptRecordException("record " + index + " of batch at offset " + batchBaseOffset
                    + " has length " + length + " but only " + available + " bytes remain in " + where);
        }
    }

    @Override
    public abstract void close();
}
