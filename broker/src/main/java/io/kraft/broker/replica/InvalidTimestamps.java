package io.kraft.broker.replica;

import io.kraft.storage.log.LogConfig;
import io.kraft.storage.record.Record;
import io.kraft.storage.record.RecordBatch;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Names the records of a refused append whose CreateTime timestamps lie outside the topic's bounds
 * ({@code message.timestamp.before.max.ms} / {@code after.max.ms}, KIP-937), so the producer learns which
 * records were at fault (KIP-467 record errors). Only the failure path reads records.
 */
final class InvalidTimestamps {
    private InvalidTimestamps() {
    }

    static List<RecordError> find(ByteBuffer records, LogConfig config, long nowMs) {
        List<RecordError> errors = new ArrayList<>();
        if (config.logAppendTime()) {
            return errors;
        }
        long earliest = config.messageTimestampBeforeMaxMs() >= nowMs ? Long.MIN_VALUE
                : nowMs - config.messageTimestampBeforeMaxMs();
        long latest = config.messageTimestampAfterMaxMs() > Long.MAX_VALUE - nowMs ? Long.MAX_VALUE
                : nowMs + config.messageTimestampAfterMaxMs();
        try {
            for (int position = records.position(); position + RecordBatch.HEADER_SIZE <= records.limit(); ) {
                RecordBatch batch = new RecordBatch(records, position);
                int index = 0;
                for (Record record : batch.records()) {
                    if (record.timestamp() < earliest || record.timestamp() > latest) {
                        errors.add(new RecordError(index, "timestamp " + record.timestamp() + " of record " + index
                                + " is outside [" + earliest + ", " + latest + "]"));
                    }
                    index++;
                }
                position += batch.sizeInBytes();
            }
        } catch (RuntimeException e) {
            // The records were refused anyway; naming them is best effort.
        }
        return errors;
    }
}
