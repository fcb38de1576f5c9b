package io.kraft.storage.log;

import io.kraft.storage.record.RecordBatch;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * KIP-937: with CreateTime, a leader refuses an append holding a record stamped earlier than
 * now - message.timestamp.before.max.ms or later than now + message.timestamp.after.max.ms. Records
 * without a timestamp (-1) pass, as in Kafka.
 *
 * <p>With no lower bound (the default) only the batch header's max timestamp is compared, so the
 * check costs nothing per record; a finite lower bound needs each record's timestamp, read without
 * building record objects.
 */
final class TimestampBounds {
    private TimestampBounds() {
    }

    /** @throws InvalidTimestampException naming the first record timestamp out of bounds and the bound */
    static void check(ByteBuffer records, LogConfig config, long nowMs, Path dir) {
        if (config.logAppendTime()) {
            return;
        }
        long beforeMaxMs = config.messageTimestampBeforeMaxMs();
        long lower = beforeMaxMs == Long.MAX_VALUE ? Long.MIN_VALUE : saturatedSubtract(nowMs, beforeMaxMs);
        long upper = saturatedAdd(nowMs, config.messageTimestampAfterMaxMs());
        for (int p = records.position(); p < records.limit(); ) {
            RecordBatch batch = new RecordBatch(records, p);
            if (lower == Long.MIN_VALUE) {
                checkOne(batch.maxTimestamp(), lower, upper, nowMs, config, dir);
            } else {
                batch.forEachRecordTimestamp(timestamp -> checkOne(timestamp, lower, upper, nowMs, config, dir));
            }
            p += batch.sizeInBytes();
        }
    }

    private static void checkOne(long timestampMs, long lower, long upper, long nowMs, LogConfig config, Path dir) {
        if (timestampMs == RecordBatch.NO_TIMESTAMP) {
            return;
        }
        if (timestampMs > upper) {
            throw new InvalidTimestampException("record timestamp " + timestampMs + " appended to log " + dir
                    + " is after the bound " + upper + " (now " + nowMs + " + message.timestamp.after.max.ms "
                    + config.messageTimestampAfterMaxMs() + ")");
        }
        if (timestampMs < lower) {
            throw new InvalidTimestampException("record timestamp " + timestampMs + " appended to log " + dir
                    + " is before the bound " + lower + " (now " + nowMs + " - message.timestamp.before.max.ms "
                    + config.messageTimestampBeforeMaxMs() + ")");
        }
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }

    private static long saturatedSubtract(long a, long b) {
        long difference = a - b;
        return ((a ^ b) & (a ^ difference)) < 0 ? Long.MIN_VALUE : difference;
    }
}
