package io.kraft.broker.replica;

import io.kraft.storage.log.LogConfig;
import io.kraft.storage.record.Record;
import io.kraft.storage.record.RecordBatch;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Names the records of a refused append that broke a rule, so the producer learns which were at fault (KIP-467
 * record errors): CreateTime timestamps outside the topic's bounds ({@code message.timestamp.before.max.ms} /
 * {@code after.max.ms}, KIP-937), or records without a key in a compacted topic. Only the failure path reads
 * records.
 */
final class RecordErrors {
    private RecordErrors() {
    }

    /** A rule one record breaks: the message naming it, or null if the record is fine. */
    private interface Rule {
        String check(Record record, int index);
    }

    static List<RecordError> timestamps(ByteBuffer records, LogConfig config, long nowMs) {
        if (config.logAppendTime()) {
            return List.of();
        }
        long earliest = config.messageTimestampBeforeMaxMs() >= nowMs ? Long.MIN_VALUE
                : nowMs - config.messageTimestampBeforeMaxMs();
        long latest = config.messageTimestampAfterMaxMs() > Long.MAX_VALUE - nowMs ? Long.MAX_VALUE
                : nowMs + config.messageTimestampAfterMaxMs();
        return find(records, (record, index) -> record.timestamp() < earliest || record.timestamp() > latest
                ? "timestamp " + record.timestamp() + " of record " + index + " is outside [" + earliest + ", "
                        + latest + "]"
                : null);
    }

    static List<RecordError> missingKeys(ByteBuffer records) {
        return find(records, (record, index) -> record.hasKey() ? null
                : "record " + index + " has no key, which a compacted topic requires");
    }

    private static List<RecordError> find(ByteBuffer records, Rule rule) {
        List<RecordError> errors = new ArrayList<>();
        try {
            for (int position = records.position(); position + RecordBatch.HEADER_SIZE <= records.limit(); ) {
                RecordBatch batch = new RecordBatch(records, position);
                int index = 0;
                for (Record record : batch.records()) {
                    String message = rule.check(record, index);
                    if (message != null) {
                        errors.add(new RecordError(index, message));
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
