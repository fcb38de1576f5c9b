package io.kraft.storage.record;

import java.nio.ByteBuffer;

/**
 * A transaction commit or abort marker (KIP-98): the value of a control record, version int16 (0)
 * then the coordinator epoch int32, written alone in a transactional control batch.
 *
 * @param type whether the transaction committed or aborted
 * @param coordinatorEpoch epoch of the transaction coordinator that wrote the marker (fences stale coordinators)
 */
public record EndTransactionMarker(ControlRecordType type, int coordinatorEpoch) {
    public static final short CURRENT_VALUE_VERSION = 0;
    /** Size of a version 0 value. */
    public static final int VALUE_SIZE = 6;
    /** Room for the one marker record: a version 0 key and value plus at most 16 bytes of varints. */
    private static final int MARKER_RECORD_MAX_BYTES = ControlRecordType.KEY_SIZE + VALUE_SIZE + 16;

    public EndTransactionMarker {
        if (type == null) {
            throw new IllegalArgumentException("end transaction marker needs a control record type");
        }
    }

    /** A fresh version 0 value. */
    public ByteBuffer value() {
        ByteBuffer value = ByteBuffer.allocate(VALUE_SIZE);
        value.putShort(CURRENT_VALUE_VERSION).putInt(coordinatorEpoch).flip();
        return value;
    }

    /**
     * Reads the marker from a control record.
     *
     * @throws CorruptRecordException when the key or value is not a marker's
     */
    public static EndTransactionMarker fromRecord(Record record) {
        ControlRecordType type = ControlRecordType.fromKey(record.key());
        ByteBuffer value = record.value();
        if (value == null) {
            throw new CorruptRecordException("end transaction marker at offset " + record.offset() + " has no value");
        }
        return parseValue(type, value, value.position(), value.remaining());
    }

    /**
     * Reads the marker carried by a control batch (its single record).
     *
     * @throws CorruptRecordException when the batch is not a marker batch
     */
    public static EndTransactionMarker fromBatch(RecordBatch batch) {
        if (!batch.isControl()) {
            throw new CorruptRecordException("batch at offset " + batch.baseOffset() + " is not a control batch");
        }
        if (batch.recordCount() != 1) {
            throw new CorruptRecordException("control batch at offset " + batch.baseOffset() + " holds "
                    + batch.recordCount() + " records, a marker batch holds 1");
        }
        try (RecordIterator records = batch.recordIterator()) {
            return fromRecord(records.next());
        }
    }

    static EndTransactionMarker parseValue(ControlRecordType type, ByteBuffer buffer, int position, int length) {
        if (length < VALUE_SIZE) {
            throw new CorruptRecordException(type + " marker value has " + length + " bytes, needs at least " + VALUE_SIZE);
        }
        short version = buffer.getShort(position);
        if (version < 0) {
            throw new CorruptRecordException(type + " marker value version " + version + " is negative");
        }
        return new EndTransactionMarker(type, buffer.getInt(position + 2));
    }

    /**
     * Builds the marker batch a partition leader appends: control, transactional, uncompressed, one
     * record, no sequence (markers are not deduplicated by sequence).
     */
    public ByteBuffer toBatch(long baseOffset, int partitionLeaderEpoch, long producerId, short producerEpoch,
            long timestampMs) {
        return new RecordBatchBuilder(ByteBuffer.allocate(RecordBatch.HEADER_SIZE + MARKER_RECORD_MAX_BYTES),
                CompressionType.NONE, baseOffset)
                .partitionLeaderEpoch(partitionLeaderEpoch)
                .producer(producerId, producerEpoch, RecordBatch.NO_SEQUENCE)
                .transactional(true)
                .control(true)
                .append(timestampMs, type.key(), value())
                .build();
    }
}
