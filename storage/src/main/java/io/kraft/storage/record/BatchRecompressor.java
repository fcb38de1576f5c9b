package io.kraft.storage.record;

import java.nio.ByteBuffer;

/**
 * Re-writes a record batch with another codec (a topic's {@code compression.type} that differs from
 * the producer's): the same records, offsets deltas, timestamps, headers, producer id, epoch, base
 * sequence, flags and leader epoch, with a new CRC. This is the one append path that builds
 * per-record objects, and only for batches that need it.
 */
public final class BatchRecompressor {
    /** Headroom for decompressed data when the target is uncompressed; the builder grows past it anyway. */
    private static final int INFLATION_ESTIMATE = 4;

    private BatchRecompressor() {
    }

    /** Whether appending {@code batch} to a topic storing {@code target} needs a re-write. */
    public static boolean needsRecompression(RecordBatch batch, CompressionType target) {
        return !batch.isControl() && batch.compressionId() != target.id();
    }

    /**
     * The batch re-written with {@code target}; its base offset is kept.
     *
     * @throws CorruptRecordException when a record of the batch is malformed
     */
    public static ByteBuffer recompress(RecordBatch batch, CompressionType target) {
        int estimate = target == CompressionType.NONE ? batch.sizeInBytes() * INFLATION_ESTIMATE : batch.sizeInBytes();
        long baseOffset = Math.max(0, batch.baseOffset());
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBuffer.allocate(estimate), target, baseOffset)
                .partitionLeaderEpoch(batch.partitionLeaderEpoch())
                .producer(batch.producerId(), batch.producerEpoch(), batch.baseSequence())
                .transactional(batch.isTransactional())
                .lastOffsetDelta(batch.lastOffsetDelta());
        if (batch.isLogAppendTime()) {
            builder.logAppendTime(batch.maxTimestamp());
        }
        if (batch.hasDeleteHorizon()) {
            builder.deleteHorizonMs(batch.deleteHorizonMs());
        }
        long shift = baseOffset - batch.baseOffset();
        try (RecordIterator records = batch.recordIterator()) {
            while (records.hasNext()) {
                Record record = records.next();
                builder.appendWithOffset(record.offset() + shift, record.timestamp(), record.key(), record.value(),
                        record.headerArray());
            }
        }
        return builder.build();
    }
}
