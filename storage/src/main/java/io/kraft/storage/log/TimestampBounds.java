package io.kraft.storage.log;

import io.kraft.storage.record.RecordBatch;

/**
 * KIP-937: with CreateTime, a leader refuses a record stamped earlier than now - message.timestamp.before.max.ms or
 * later than now + message.timestamp.after.max.ms. Records without a timestamp (-1) pass, as in Kafka. The bounds
 * saturate instead of overflowing, and the default before.max.ms (Long.MAX_VALUE) means no lower bound at all.
 */
final class TimestampBounds {
    private TimestampBounds() {
    }

    /** The earliest timestamp allowed at {@code nowMs}; Long.MIN_VALUE when there is no lower bound. */
    static long lowerMs(LogConfig config, long nowMs) {
        long beforeMaxMs = config.messageTimestampBeforeMaxMs();
        return beforeMaxMs == Long.MAX_VALUE ? Long.MIN_VALUE : saturatedSubtract(nowMs, beforeMaxMs);
    }

    /** The latest timestamp allowed at {@code nowMs}. */
    static long upperMs(LogConfig config, long nowMs) {
        return saturatedAdd(nowMs, config.messageTimestampAfterMaxMs());
    }

    static boolean allows(long timestampMs, long lowerMs, long upperMs) {
        return timestampMs == RecordBatch.NO_TIMESTAMP || (timestampMs >= lowerMs && timestampMs <= upperMs);
    }

    /** Why {@code timestampMs} is refused, naming the bound it breaks and the setting behind it. */
    static String refusal(long timestampMs, long lowerMs, long upperMs, long nowMs, LogConfig config, Object log) {
        if (timestampMs > upperMs) {
            return "record timestamp " + timestampMs + " appended to log " + log + " is after the bound " + upperMs
                    + " (now " + nowMs + " + message.timestamp.after.max.ms " + config.messageTimestampAfterMaxMs()
                    + ")";
        }
        return "record timestamp " + timestampMs + " appended to log " + log + " is before the bound " + lowerMs
                + " (now " + nowMs + " - message.timestamp.before.max.ms " + config.messageTimestampBeforeMaxMs() + ")";
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
