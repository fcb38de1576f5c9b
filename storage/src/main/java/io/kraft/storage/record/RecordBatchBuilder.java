package io.kraft.storage.record;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * Builds one v2 record batch into a buffer: records are encoded as they are appended (through the
 * codec when compressed) and the header, counts, max timestamp and CRC32C are filled in by
 * {@link #build}. Appending allocates nothing per record.
 *
 * <p>Offsets are consecutive from the base offset by default; {@link #appendWithOffset} places a
 * record at an explicit, strictly higher offset, and {@link #lastOffsetDelta(int)} keeps a batch's
 * original offset range, which is how the log cleaner rebuilds batches around removed records.
 * Header fields may be set any time before {@link #build}; the delete horizon must be set before the
 * first record, because timestamp deltas are relative to it.
 */
public final class RecordBatchBuilder {
    private static final int UNSET = -1;
    private static final int INITIAL_SCRATCH_BYTES = 512;
    private static final Header[] NO_HEADERS = new Header[0];

    private final ByteBufferOutputStream out;
    private final int batchStart;
    private final CompressionType compression;
    private final long baseOffset;

    private OutputStream codec;
    private ByteBuffer scratch;

    private int partitionLeaderEpoch = RecordBatch.NO_PARTITION_LEADER_EPOCH;
    private long logAppendTimeMs = RecordBatch.NO_TIMESTAMP;
    private boolean transactional;
    private boolean control;
    private long producerId = RecordBatch.NO_PRODUCER_ID;
    private short producerEpoch = RecordBatch.NO_PRODUCER_EPOCH;
    private int baseSequence = RecordBatch.NO_SEQUENCE;
    private long deleteHorizonMs = RecordBatch.NO_TIMESTAMP;
    private int explicitLastOffsetDelta = UNSET;

    private int recordCount;
    private long lastOffset;
    private long baseTimestamp = RecordBatch.NO_TIMESTAMP;
    private long maxTimestamp = RecordBatch.NO_TIMESTAMP;
    private long uncompressedRecordBytes;
    private boolean built;

    /**
     * Starts a batch at {@code buffer}'s position. The batch is written into {@code buffer} while it
     * fits and into a larger heap buffer from then on; {@link #build} returns wherever it ended up.
     */
    public RecordBatchBuilder(ByteBuffer buffer, CompressionType compression, long baseOffset) {
        if (compression == null) {
            throw new IllegalArgumentException("compression type is required (NONE for uncompressed)");
        }
        if (baseOffset < 0) {
            throw new IllegalArgumentException("base offset " + baseOffset + " is negative");
        }
        this.out = new ByteBufferOutputStream(buffer);
        this.batchStart = buffer.position();
        this.compression = compression;
        this.baseOffset = baseOffset;
        this.lastOffset = baseOffset - 1;
        out.position(batchStart + RecordBatch.HEADER_SIZE);
    }

    public RecordBatchBuilder partitionLeaderEpoch(int epoch) {
        ensureOpen();
        this.partitionLeaderEpoch = epoch;
        return this;
    }

    /** Stamps the batch with the broker's time: readers see it as every record's timestamp. */
    public RecordBatchBuilder logAppendTime(long timestampMs) {
        ensureOpen();
        if (timestampMs < 0) {
            throw new IllegalArgumentException("log append time " + timestampMs + " is negative");
        }
        this.logAppendTimeMs = timestampMs;
        return this;
    }

    /** Producer identity for idempotence (KIP-98); the base sequence numbers the first offset. */
    public RecordBatchBuilder producer(long producerId, short producerEpoch, int baseSequence) {
        ensureOpen();
        this.producerId = producerId;
        this.producerEpoch = producerEpoch;
        this.baseSequence = baseSequence;
        return this;
    }

    public RecordBatchBuilder transactional(boolean transactional) {
        ensureOpen();
        this.transactional = transactional;
        return this;
    }

    public RecordBatchBuilder control(boolean control) {
        ensureOpen();
        this.control = control;
        return this;
    }

    /**
     * KIP-534: records the time after which the cleaner may drop this batch's tombstones and markers.
     * It becomes the base timestamp, so it must be set before the first record.
     */
    public RecordBatchBuilder deleteHorizonMs(long deleteHorizonMs) {
        ensureOpen();
        if (recordCount > 0) {
            throw new IllegalStateException("delete horizon must be set before the first record is appended");
        }
        if (deleteHorizonMs < 0) {
            throw new IllegalArgumentException("delete horizon " + deleteHorizonMs + " is negative");
        }
        this.deleteHorizonMs = deleteHorizonMs;
        return this;
    }

    /**
     * Declares the batch's last offset as base offset + {@code lastOffsetDelta} even when the last
     * record sits lower (or there are no records), preserving an original batch's offset range.
     */
    public RecordBatchBuilder lastOffsetDelta(int lastOffsetDelta) {
        ensureOpen();
        if (lastOffsetDelta < 0) {
            throw new IllegalArgumentException("last offset delta " + lastOffsetDelta + " is negative");
        }
        this.explicitLastOffsetDelta = lastOffsetDelta;
        return this;
    }

    /** Appends a record at the offset after the last one (the base offset for the first). */
    public RecordBatchBuilder append(long timestampMs, ByteBuffer key, ByteBuffer value, Header... headers) {
        return appendWithOffset(lastOffset + 1, timestampMs, key, value, headers);
    }

    public RecordBatchBuilder append(long timestampMs, byte[] key, byte[] value, Header... headers) {
        return append(timestampMs, key == null ? null : ByteBuffer.wrap(key), value == null ? null : ByteBuffer.wrap(value),
                headers);
    }

    /** Copies a record read elsewhere, keeping its offset, timestamp, key, value and headers. */
    public RecordBatchBuilder appendRecord(Record record) {
        return appendWithOffset(record.offset(), record.timestamp(), record.key(), record.value(), record.headerArray());
    }

    /**
     * Appends a record at {@code offset}, which must be above every offset appended so far and
     * within 2^31 - 1 of the base offset. Key and value are copied from their remaining bytes
     * (positions untouched); null means absent.
     */
    public RecordBatchBuilder appendWithOffset(long offset, long timestampMs, ByteBuffer key, ByteBuffer value,
            Header... headers) {
        ensureOpen();
        if (offset <= lastOffset) {
            throw new IllegalArgumentException("offset " + offset + " is not above "
                    + (recordCount == 0 ? "the base offset - 1 (" : "the last appended offset (") + lastOffset + ")");
        }
        long offsetDelta = offset - baseOffset;
        if (offsetDelta > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("offset " + offset + " is more than 2^31 - 1 past base offset " + baseOffset);
        }
        if (recordCount == 0) {
            baseTimestamp = deleteHorizonMs != RecordBatch.NO_TIMESTAMP ? deleteHorizonMs : timestampMs;
        }
        Header[] recordHeaders = headers == null ? NO_HEADERS : headers;
        int bodyBytes = bodySize(timestampMs - baseTimestamp, (int) offsetDelta, key, value, recordHeaders);
        int recordBytes = Varint.sizeOfVarint(bodyBytes) + bodyBytes;
        if (compression == CompressionType.NONE) {
            out.ensureRemaining(recordBytes);
            writeRecord(out.buffer(), bodyBytes, timestampMs - baseTimestamp, (int) offsetDelta, key, value, recordHeaders);
        } else {
            ByteBuffer encoded = scratchFor(recordBytes);
            writeRecord(encoded, bodyBytes, timestampMs - baseTimestamp, (int) offsetDelta, key, value, recordHeaders);
            writeCompressed(encoded.array(), recordBytes);
        }
        recordCount++;
        lastOffset = offset;
        maxTimestamp = Math.max(maxTimestamp, timestampMs);
        uncompressedRecordBytes += recordBytes;
        return this;
    }

    private static int bodySize(long timestampDelta, int offsetDelta, ByteBuffer key, ByteBuffer value,
            Header[] headers) {
        int size = 1 + Varint.sizeOfVarlong(timestampDelta) + Varint.sizeOfVarint(offsetDelta)
                + nullableSize(key) + nullableSize(value) + Varint.sizeOfVarint(headers.length);
        for (Header header : headers) {
            size += header.sizeInBytes();
        }
        return size;
    }

    private static int nullableSize(ByteBuffer bytes) {
        return bytes == null ? Varint.sizeOfVarint(-1) : Varint.sizeOfVarint(bytes.remaining()) + bytes.remaining();
    }

    private static void writeRecord(ByteBuffer target, int bodyBytes, long timestampDelta, int offsetDelta,
            ByteBuffer key, ByteBuffer value, Header[] headers) {
        Varint.writeVarint(bodyBytes, target);
        target.put((byte) 0);
        Varint.writeVarlong(timestampDelta, target);
        Varint.writeVarint(offsetDelta, target);
        writeNullable(target, key);
        writeNullable(target, value);
        Varint.writeVarint(headers.length, target);
        for (Header header : headers) {
            byte[] headerKey = header.keyUtf8();
            Varint.writeVarint(headerKey.length, target);
            target.put(headerKey);
            byte[] headerValue = header.valueArray();
            if (headerValue == null) {
                Varint.writeVarint(-1, target);
            } else {
                Varint.writeVarint(headerValue.length, target);
                target.put(headerValue);
            }
        }
    }

    private static void writeNullable(ByteBuffer target, ByteBuffer bytes) {
        if (bytes == null) {
            Varint.writeVarint(-1, target);
            return;
        }
        int length = bytes.remaining();
        Varint.writeVarint(length, target);
        target.put(target.position(), bytes, bytes.position(), length);
        target.position(target.position() + length);
    }

    private ByteBuffer scratchFor(int bytes) {
        if (scratch == null || scratch.capacity() < bytes) {
            scratch = ByteBuffer.allocate(Math.max(bytes, INITIAL_SCRATCH_BYTES));
        }
        return scratch.clear();
    }

    private void writeCompressed(byte[] bytes, int length) {
        try {
            if (codec == null) {
                codec = compression.wrapForOutput(out);
            }
            codec.write(bytes, 0, length);
        } catch (IOException e) {
            throw new UncheckedIOException("compressing a record into an in-memory batch failed", e);
        }
    }

    public int recordCount() {
        return recordCount;
    }

    /** Bytes of the records before compression, for sizing decisions. */
    public long uncompressedRecordBytes() {
        return uncompressedRecordBytes;
    }

    /**
     * Finishes the codec, writes the header and CRC, and returns the batch: a buffer whose position
     * is 0 and limit the batch size. The builder cannot be used afterwards.
     *
     * @throws IllegalStateException for an empty batch without an explicit last offset delta, or an
     *     explicit last offset delta below the last record's
     */
    public ByteBuffer build() {
        ensureOpen();
        int lastOffsetDelta = resolveLastOffsetDelta();
        built = true;
        if (codec != null) {
            try {
                codec.close();
            } catch (IOException e) {
                throw new UncheckedIOException("finishing the " + compression.configName() + " stream failed", e);
            }
        }
        ByteBuffer buffer = out.buffer();
        int end = buffer.position();
        buffer.putLong(batchStart + RecordBatch.BASE_OFFSET_OFFSET, baseOffset);
        buffer.putInt(batchStart + RecordBatch.LENGTH_OFFSET, end - batchStart - RecordBatch.LOG_OVERHEAD);
        buffer.putInt(batchStart + RecordBatch.PARTITION_LEADER_EPOCH_OFFSET, partitionLeaderEpoch);
        buffer.put(batchStart + RecordBatch.MAGIC_OFFSET, RecordBatch.MAGIC);
        buffer.putShort(batchStart + RecordBatch.ATTRIBUTES_OFFSET, attributes());
        buffer.putInt(batchStart + RecordBatch.LAST_OFFSET_DELTA_OFFSET, lastOffsetDelta);
        long firstTimestamp = recordCount == 0 && deleteHorizonMs != RecordBatch.NO_TIMESTAMP ? deleteHorizonMs
                : baseTimestamp;
        buffer.putLong(batchStart + RecordBatch.BASE_TIMESTAMP_OFFSET, firstTimestamp);
        buffer.putLong(batchStart + RecordBatch.MAX_TIMESTAMP_OFFSET,
                logAppendTimeMs != RecordBatch.NO_TIMESTAMP ? logAppendTimeMs : maxTimestamp);
        buffer.putLong(batchStart + RecordBatch.PRODUCER_ID_OFFSET, producerId);
        buffer.putShort(batchStart + RecordBatch.PRODUCER_EPOCH_OFFSET, producerEpoch);
        buffer.putInt(batchStart + RecordBatch.BASE_SEQUENCE_OFFSET, baseSequence);
        buffer.putInt(batchStart + RecordBatch.RECORDS_COUNT_OFFSET, recordCount);
        new RecordBatch(buffer, batchStart).writeChecksum();
        return buffer.slice(batchStart, end - batchStart);
    }

    private int resolveLastOffsetDelta() {
        if (explicitLastOffsetDelta == UNSET) {
            if (recordCount == 0) {
                throw new IllegalStateException("an empty batch needs an explicit last offset delta");
            }
            return (int) (lastOffset - baseOffset);
        }
        if (explicitLastOffsetDelta < lastOffset - baseOffset) {
            throw new IllegalStateException("last offset delta " + explicitLastOffsetDelta + " is below the last record's "
                    + (lastOffset - baseOffset));
        }
        return explicitLastOffsetDelta;
    }

    private short attributes() {
        int attributes = compression.id();
        if (logAppendTimeMs != RecordBatch.NO_TIMESTAMP) {
            attributes |= RecordBatch.TIMESTAMP_TYPE_MASK;
        }
        if (transactional) {
            attributes |= RecordBatch.TRANSACTIONAL_FLAG_MASK;
        }
        if (control) {
            attributes |= RecordBatch.CONTROL_FLAG_MASK;
        }
        if (deleteHorizonMs != RecordBatch.NO_TIMESTAMP) {
            attributes |= RecordBatch.DELETE_HORIZON_FLAG_MASK;
        }
        return (short) attributes;
    }

    private void ensureOpen() {
        if (built) {
            throw new IllegalStateException("record batch builder was already built");
        }
    }
}
