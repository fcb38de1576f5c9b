package io.kraft.storage.log;

import io.kraft.storage.record.CorruptRecordException;
import io.kraft.storage.record.RecordBatch;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Checks an append before the log takes its lock, so nothing is written when one batch is bad: every batch's
 * framing and CRC, the append against segment.bytes, and for a producer's append each batch against
 * max.message.bytes, its record count against the offsets it spans, and the record-level rules
 * ({@link RecordRules}). Batch-level work only, except where a record rule needs the records.
 */
final class AppendValidator {
    private final Path dir;

    AppendValidator(Path dir) {
        this.dir = dir;
    }

    /**
     * Validates a producer's append to the leader.
     *
     * @return the number of batches
     * @throws CorruptRecordException    a batch fails validation, or its record count disagrees with its offsets
     * @throws RecordTooLargeException   a batch exceeds max.message.bytes or the append exceeds segment.bytes
     * @throws InvalidTimestampException a CreateTime record is outside the topic's timestamp bounds
     * @throws InvalidRecordException    a record of a compacted topic has no key, a batch is a control batch (only
     *                                   the coordinator writes markers, through their own path), or a transactional
     *                                   batch has no producer id
     */
    int validateLeaderAppend(ByteBuffer records, LogConfig config, long nowMs) {
        int batchCount = validateBatches(records, config, true);
        RecordRules.check(records, config, nowMs, dir);
        return batchCount;
    }

    /**
     * Validates batches fetched from the leader; their offsets are checked against the log end under the lock.
     *
     * @return the number of batches
     * @throws CorruptRecordException  a batch fails validation
     * @throws RecordTooLargeException the append exceeds segment.bytes
     */
    int validateFollowerAppend(ByteBuffer records, LogConfig config) {
        return validateBatches(records, config, false);
    }

    /**
     * Size limits of batches re-written with the topic's codec ({@link TopicCompression}), which may have grown.
     *
     * @throws RecordTooLargeException a batch now exceeds max.message.bytes or the append segment.bytes
     */
    void validateConverted(ByteBuffer records, LogConfig config) {
        if (records.remaining() > config.segmentBytes()) {
            throw new RecordTooLargeException("append of " + records.remaining() + " bytes to log " + dir
                    + " after conversion to compression.type " + config.compressionType() + " exceeds segment.bytes "
                    + config.segmentBytes());
        }
        for (int p = records.position(); p < records.limit(); ) {
            RecordBatch batch = new RecordBatch(records, p);
            if (batch.sizeInBytes() > config.maxMessageBytes()) {
                throw new RecordTooLargeException("record batch of " + batch.sizeInBytes() + " bytes after conversion "
                        + "to compression.type " + config.compressionType() + " exceeds max.message.bytes "
                        + config.maxMessageBytes() + " of log " + dir);
            }
            p += batch.sizeInBytes();
        }
    }

    private int validateBatches(ByteBuffer records, LogConfig config, boolean fromProducer) {
        if (!records.hasRemaining()) {
            throw new CorruptRecordException("append to log " + dir + " holds no record batch");
        }
        if (records.remaining() > config.segmentBytes()) {
            throw new RecordTooLargeException("append of " + records.remaining() + " bytes to log " + dir
                    + " exceeds segment.bytes " + config.segmentBytes());
        }
        int count = 0;
        for (int p = records.position(); p < records.limit(); ) {
            RecordBatch batch = new RecordBatch(records, p);
            batch.validate();
            if (fromProducer) {
                if (batch.sizeInBytes() > config.maxMessageBytes()) {
                    throw new RecordTooLargeException("record batch of " + batch.sizeInBytes() + " bytes exceeds "
                            + "max.message.bytes " + config.maxMessageBytes() + " of log " + dir);
                }
                if (batch.isControl()) {
                    throw new InvalidRecordException("a producer may not write control batches (transaction markers "
                            + "come from the transaction coordinator) to log " + dir);
                }
                if (batch.isTransactional() && batch.producerId() < 0) {
                    throw new InvalidRecordException("transactional record batch without a producer id for log " + dir);
                }
                // A producer batch is never compacted, so its records fill every offset it spans.
                if ((long) batch.recordCount() != (long) batch.lastOffsetDelta() + 1) {
                    throw new CorruptRecordException("producer record batch claims " + batch.recordCount()
                            + " records but spans " + ((long) batch.lastOffsetDelta() + 1) + " offsets");
                }
            }
            p += batch.sizeInBytes();
            count++;
        }
        return count;
    }
}
