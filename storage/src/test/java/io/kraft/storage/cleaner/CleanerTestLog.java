package io.kraft.storage.cleaner;

import io.kraft.storage.log.FileSlice;
import io.kraft.storage.log.Log;
import io.kraft.storage.log.LogReadResult;
import io.kraft.storage.record.BatchIterator;
import io.kraft.storage.record.CompressionType;
import io.kraft.storage.record.Record;
import io.kraft.storage.record.RecordBatch;
import io.kraft.storage.record.RecordBatchBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Test helpers: keyed appends and a full read of a log as (offset, key, value) rows. */
final class CleanerTestLog {
    private CleanerTestLog() {
    }

    /** One record as read back; value null for a tombstone. */
    record Row(long offset, String key, String value) {
    }

    /** Appends one batch of key/value pairs (value null = tombstone); returns the first offset. */
    static long append(Log log, CompressionType compression, long nowMs, String... keyValues) {
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBuffer.allocate(256), compression, 0);
        for (int i = 0; i < keyValues.length; i += 2) {
            builder.append(nowMs, bytes(keyValues[i]), bytes(keyValues[i + 1]));
        }
        return log.append(builder.build(), 0, nowMs).firstOffset();
    }

    /** Appends an idempotent producer's batch. */
    static long appendIdempotent(Log log, long producerId, int baseSequence, long nowMs, String... keyValues) {
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBuffer.allocate(256), CompressionType.NONE, 0)
                .producer(producerId, (short) 0, baseSequence);
        for (int i = 0; i < keyValues.length; i += 2) {
            builder.append(nowMs, bytes(keyValues[i]), bytes(keyValues[i + 1]));
        }
        return log.append(builder.build(), 0, nowMs).firstOffset();
    }

    static byte[] bytes(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    static String string(ByteBuffer b) {
        return b == null ? null : StandardCharsets.UTF_8.decode(b.duplicate()).toString();
    }

    /** Every batch of the log from its start, read through {@link Log#read} as a consumer would. */
    static List<RecordBatch> batches(Log log) {
        List<RecordBatch> result = new ArrayList<>();
        long offset = log.logStartOffset();
        while (offset < log.logEndOffset()) {
            LogReadResult read = log.read(offset, Integer.MAX_VALUE, true);
            FileSlice slice = read.records();
            if (slice.isEmpty()) {
                break;
            }
            ByteBuffer bytes;
            try {
                bytes = slice.readFully();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            long next = offset;
            for (RecordBatch batch : BatchIterator.batches(bytes, Integer.MAX_VALUE)) {
                batch.validate();
                if (batch.lastOffset() >= offset) {
                    result.add(batch);
                    next = batch.nextOffset();
                }
            }
            if (next == offset) {
                throw new AssertionError("read at " + offset + " made no progress");
            }
            offset = next;
        }
        return result;
    }

    static List<Row> rows(Log log) {
        List<Row> rows = new ArrayList<>();
        for (RecordBatch batch : batches(log)) {
            if (batch.isControl()) {
                continue;
            }
            for (Record r : batch.records()) {
                rows.add(new Row(r.offset(), string(r.key()), string(r.value())));
            }
        }
        return rows;
    }
}
