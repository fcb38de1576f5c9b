package io.kraft.storage.record;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * A zero-copy view of one record batch, magic v2, at a position of a buffer: header accessors,
 * validation (header and CRC, or deep down to every record), record reading, and the in-place
 * rewrites the append path makes (base offset, log-append time).
 *
 * <p>Layout (all big-endian): baseOffset int64, batchLength int32, partitionLeaderEpoch int32,
 * magic int8, crc uint32 (CRC32C over attributes..end), attributes int16, lastOffsetDelta int32,
 * baseTimestamp int64, maxTimestamp int64, producerId int64, producerEpoch int16, baseSequence int32,
 * recordCount int32, then the records (compressed as a whole when attributes say so).
 */
public final class RecordBatch {
    public static final int BASE_OFFSET_OFFSET = 0;
    public static final int LENGTH_OFFSET = 8;
    public static final int PARTITION_LEADER_EPOCH_OFFSET = 12;
    public static final int MAGIC_OFFSET = 16;
    public static final int CRC_OFFSET = 17;
    public static final int ATTRIBUTES_OFFSET = 21;
    public static final int LAST_OFFSET_DELTA_OFFSET = 23;
    public static final int BASE_TIMESTAMP_OFFSET = 27;
    public static final int MAX_TIMESTAMP_OFFSET = 35;
    public static final int PRODUCER_ID_OFFSET = 43;
    public static final int PRODUCER_EPOCH_OFFSET = 51;
    public static final int BASE_SEQUENCE_OFFSET = 53;
    public static final int RECORDS_COUNT_OFFSET = 57;
    /** Size of the header before the first record. */
    public static final int HEADER_SIZE = 61;
    /** baseOffset + batchLength: the bytes not counted by batchLength. */
    public static final int LOG_OVERHEAD = 12;
    public static final byte MAGIC = 2;

    public static final int COMPRESSION_CODEC_MASK = 0x07;
    public static final int TIMESTAMP_TYPE_MASK = 0x08;
    public static final int TRANSACTIONAL_FLAG_MASK = 0x10;
    public static final int CONTROL_FLAG_MASK = 0x20;
    /** KIP-534: baseTimestamp holds the delete horizon of a compacted batch. */
    public static final int DELETE_HORIZON_FLAG_MASK = 0x40;

    public static final long NO_PRODUCER_ID = -1L;
    public static final short NO_PRODUCER_EPOCH = -1;
    public static final int NO_SEQUENCE = -1;
    public static final int NO_PARTITION_LEADER_EPOCH = -1;
    public static final long NO_TIMESTAMP = -1L;
    /** Upper bound on the list capacity {@link #records} reserves from an unverified count. */
    private static final int MAX_PRESIZED_RECORDS = 4096;

    /** What a reader that sets no limit lets a batch decode to: only the largest array Java can hold. */
    public static final long UNLIMITED_DECOMPRESSED_BYTES = Integer.MAX_VALUE - 8;

    private final ByteBuffer buffer;
    private final int position;
    private long maxDecompressedBytes = UNLIMITED_DECOMPRESSED_BYTES;

    /** Views the batch starting at {@code position}; nothing is checked until {@link #validate}. */
    public RecordBatch(ByteBuffer buffer, int position) {
        this.buffer = buffer;
        this.position = position;
    }

    /**
     * Caps the bytes a compressed batch may decode to when its records are read through this view; past it the
     * read throws {@link DecompressionLimitException}, whatever the batch's compressed size suggested.
     */
    public RecordBatch limitDecompressedBytes(long maxBytes) {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("Decompression limit must be positive, got " + maxBytes);
        }
        this.maxDecompressedBytes = maxBytes;
        return this;
    }

    long maxDecompressedBytes() {
        return maxDecompressedBytes;
    }

    /** Views the batch at the buffer's current position. */
    public static RecordBatch at(ByteBuffer buffer) {
        return new RecordBatch(buffer, buffer.position());
    }

    public ByteBuffer buffer() {
        return buffer;
    }

    public int position() {
        return position;
    }

    public long baseOffset() {
        return buffer.getLong(position + BASE_OFFSET_OFFSET);
    }

    public int batchLength() {
        return buffer.getInt(position + LENGTH_OFFSET);
    }

    /** Bytes of the whole batch including the log overhead. */
    public int sizeInBytes() {
        return LOG_OVERHEAD + batchLength();
    }

    public int partitionLeaderEpoch() {
        return buffer.getInt(position + PARTITION_LEADER_EPOCH_OFFSET);
    }

    public byte magic() {
        return buffer.get(position + MAGIC_OFFSET);
    }

    public long checksum() {
        return Integer.toUnsignedLong(buffer.getInt(position + CRC_OFFSET));
    }

    public short attributes() {
        return buffer.getShort(position + ATTRIBUTES_OFFSET);
    }

    public int compressionId() {
        return attributes() & COMPRESSION_CODEC_MASK;
    }

    /** @throws CorruptRecordException when the attributes name a codec that does not exist */
    public CompressionType compressionType() {
        try {
            return CompressionType.forId(compressionId());
        } catch (IllegalArgumentException e) {
            throw new CorruptRecordException("record batch at offset " + baseOffset() + " uses unknown compression codec "
                    + compressionId(), e);
        }
    }

    public TimestampType timestampType() {
        return isLogAppendTime() ? TimestampType.LOG_APPEND_TIME : TimestampType.CREATE_TIME;
    }

    public boolean isLogAppendTime() {
        return (attributes() & TIMESTAMP_TYPE_MASK) != 0;
    }

    public boolean isTransactional() {
        return (attributes() & TRANSACTIONAL_FLAG_MASK) != 0;
    }

    public boolean isControl() {
        return (attributes() & CONTROL_FLAG_MASK) != 0;
    }

    public boolean hasDeleteHorizon() {
        return (attributes() & DELETE_HORIZON_FLAG_MASK) != 0;
    }

    /** KIP-534: when the cleaner may drop this batch's tombstones and markers, else {@link #NO_TIMESTAMP}. */
    public long deleteHorizonMs() {
        return hasDeleteHorizon() ? baseTimestamp() : NO_TIMESTAMP;
    }

    public int lastOffsetDelta() {
        return buffer.getInt(position + LAST_OFFSET_DELTA_OFFSET);
    }

    public long lastOffset() {
        return baseOffset() + lastOffsetDelta();
    }

    /** The offset after this batch. */
    public long nextOffset() {
        return lastOffset() + 1;
    }

    public long baseTimestamp() {
        return buffer.getLong(position + BASE_TIMESTAMP_OFFSET);
    }

    public long maxTimestamp() {
        return buffer.getLong(position + MAX_TIMESTAMP_OFFSET);
    }

    public long producerId() {
        return buffer.getLong(position + PRODUCER_ID_OFFSET);
    }

    public short producerEpoch() {
        return buffer.getShort(position + PRODUCER_EPOCH_OFFSET);
    }

    public int baseSequence() {
        return buffer.getInt(position + BASE_SEQUENCE_OFFSET);
    }

    public int recordCount() {
        return buffer.getInt(position + RECORDS_COUNT_OFFSET);
    }

    /** Sequence of the batch's last offset, or {@link #NO_SEQUENCE} for a batch without one. */
    public int lastSequence() {
        return sequenceAfter(baseSequence(), lastOffsetDelta());
    }

    /** Sequences wrap from Integer.MAX_VALUE to 0, as producers number them. */
    static int sequenceAfter(int baseSequence, int delta) {
        if (baseSequence == NO_SEQUENCE) {
            return NO_SEQUENCE;
        }
        long sequence = (long) baseSequence + delta;
        return (int) (sequence > Integer.MAX_VALUE ? sequence - Integer.MAX_VALUE - 1 : sequence);
    }

    /** Computes CRC32C over attributes..end of batch, as stored in the crc field. */
    public long computeChecksum() {
        CRC32C crc = new CRC32C();
        ByteBuffer dup = buffer.duplicate();
        dup.limit(position + sizeInBytes()).position(position + ATTRIBUTES_OFFSET);
        crc.update(dup);
        return crc.getValue();
    }

    public boolean isValid() {
        return checksum() == computeChecksum();
    }

    /**
     * Checks what can be checked without reading records: the bytes are present, the length is sane,
     * magic is 2, counts agree and the CRC matches.
     *
     * @throws CorruptRecordException naming the first problem found
     */
    public void validate() {
        validateFraming();
        long stored = checksum();
        long computed = computeChecksum();
        if (stored != computed) {
            throw new CorruptRecordException("record batch at offset " + baseOffset() + " has CRC " + stored
                    + " but its bytes give " + computed);
        }
    }

    /**
     * Checks everything {@link #validate} does, then reads every record: each fits its length, the
     * payload holds exactly {@link #recordCount()} records (decompressed when needed), offset deltas
     * strictly increase and stay within {@link #lastOffsetDelta()}, and in a control batch every key
     * is a control key of a known type whose value parses (KIP-98). Allocates nothing per record.
     *
     * @throws CorruptRecordException naming the first problem found
     */
    public void validateRecords() {
        validate();
        boolean control = isControl();
        try (RecordIterator records = new RecordIterator(this, false)) {
            while (records.advance()) {
                if (control) {
                    validateControlRecord(records.cursor());
                }
            }
        }
    }

    /** What record-level checks read of one record, handed over without building a record object. */
    @FunctionalInterface
    public interface RecordFieldsVisitor {
        /**
         * @param index       the record's position in its batch, from 0 (KIP-467's batch index)
         * @param timestampMs the record's timestamp (the log-append time for every record of a stamped batch)
         * @param hasKey      false when the record's key is null
         */
        void visit(int index, long timestampMs, boolean hasKey);
    }

    /**
     * Calls {@code visitor} with each record's index, timestamp and key presence in order, decompressing as needed
     * but building no record objects.
     *
     * @throws CorruptRecordException when a record is malformed
     */
    public void forEachRecordFields(RecordFieldsVisitor visitor) {
        long base = baseTimestamp();
        boolean logAppendTime = isLogAppendTime();
        long appendTime = maxTimestamp();
        try (RecordIterator records = new RecordIterator(this, false)) {
            int index = 0;
            while (records.advance()) {
                RecordCursor record = records.cursor();
                visitor.visit(index++, logAppendTime ? appendTime : base + record.timestampDelta(),
                        record.keyLength() >= 0);
            }
        }
    }

    private void validateControlRecord(RecordCursor record) {
        if (record.keyLength() < 0) {
            throw new CorruptRecordException("control batch at offset " + baseOffset() + " has a record without a key");
        }
        ControlRecordType type = ControlRecordType.parseKey(record.body(), record.keyPosition(), record.keyLength());
        if (record.valueLength() < 0) {
            throw new CorruptRecordException("control batch at offset " + baseOffset() + " has a " + type
                    + " record without a value");
        }
        EndTransactionMarker.parseValue(type, record.body(), record.valuePosition(), record.valueLength());
    }

    /** Header checks short of the CRC, so reading records from a verified batch does not hash it again. */
    void validateFraming() {
        int available = buffer.limit() - position;
        if (available < HEADER_SIZE) {
            throw new CorruptRecordException("record batch at position " + position + " is truncated: "
                    + available + " bytes, header needs " + HEADER_SIZE);
        }
        int length = batchLength();
        if (length < HEADER_SIZE - LOG_OVERHEAD) {
            throw new CorruptRecordException("record batch length " + length + " is smaller than the v2 header ("
                    + (HEADER_SIZE - LOG_OVERHEAD) + ")");
        }
        if (length > available - LOG_OVERHEAD) {
            throw new CorruptRecordException("record batch length " + length + " exceeds the "
                    + (available - LOG_OVERHEAD) + " bytes available");
        }
        if (magic() != MAGIC) {
            throw new CorruptRecordException("record batch magic " + magic() + " is not supported (only 2)");
        }
        int count = recordCount();
        int lastDelta = lastOffsetDelta();
        if (count < 0 || lastDelta < 0) {
            throw new CorruptRecordException("record batch has negative record count " + count
                    + " or last offset delta " + lastDelta);
        }
        // Compaction may remove records, so count <= lastOffsetDelta + 1, never more.
        if ((long) count > (long) lastDelta + 1) {
            throw new CorruptRecordException("record batch claims " + count + " records but its last offset delta is "
                    + lastDelta);
        }
    }

    /**
     * Iterates the records, decompressing as it goes and checking structure as {@link #validateRecords}
     * does (but not the CRC: call {@link #validate} first on untrusted bytes). Close the iterator.
     *
     * @throws CorruptRecordException when the header is unusable
     */
    public RecordIterator recordIterator() {
        return new RecordIterator(this, true);
    }

    /**
     * All records of the batch, read as {@link #recordIterator} reads them.
     *
     * @throws CorruptRecordException when a record is malformed or the payload is
     */
    public List<Record> records() {
        List<Record> records = new ArrayList<>(Math.max(0, Math.min(recordCount(), MAX_PRESIZED_RECORDS)));
        try (RecordIterator iterator = recordIterator()) {
            while (iterator.hasNext()) {
                records.add(iterator.next());
            }
        }
        return records;
    }

    /** The records section: from after the header to the end of the batch. */
    ByteBuffer payload() {
        return buffer.duplicate().limit(position + sizeInBytes()).position(position + HEADER_SIZE);
    }

    public void setBaseOffset(long offset) {
        buffer.putLong(position + BASE_OFFSET_OFFSET, offset);
    }

    public void setPartitionLeaderEpoch(int epoch) {
        buffer.putInt(position + PARTITION_LEADER_EPOCH_OFFSET, epoch);
    }

    /**
     * Marks the batch log-append-time with the given max timestamp and refreshes the CRC, which covers
     * attributes and timestamps (base offset and leader epoch are outside it).
     */
    public void setLogAppendTime(long timestampMs) {
        short attributes = (short) (attributes() | TIMESTAMP_TYPE_MASK);
        buffer.putShort(position + ATTRIBUTES_OFFSET, attributes);
        buffer.putLong(position + MAX_TIMESTAMP_OFFSET, timestampMs);
        writeChecksum();
    }

    /** Recomputes and stores the CRC after a change to covered bytes. */
    public void writeChecksum() {
        buffer.putInt(position + CRC_OFFSET, (int) computeChecksum());
    }

    @Override
    public String toString() {
        return "RecordBatch(baseOffset=" + baseOffset() + ", lastOffset=" + lastOffset() + ", size=" + sizeInBytes()
                + ", count=" + recordCount() + ", compression=" + compressionId() + ", epoch=" + partitionLeaderEpoch()
                + ", producerId=" + producerId() + ")";
    }
}
