package io.kraft.storage.log;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;

/** Record batches built by the real kafka-clients library, and helpers to read them back with it. */
final class TestBatches {
    private TestBatches() {
    }

    /** One uncompressed producer batch (base offset 0) of {@code count} records at {@code timestampMs}. */
    static ByteBuffer batch(int count, long timestampMs) {
        return batch(count, timestampMs, 8, Compression.NONE, new Random(count * 31L + timestampMs));
    }

    /** One producer batch with {@code valueBytes}-byte random values. */
    static ByteBuffer batch(int count, long timestampMs, int valueBytes, Compression compression, Random random) {
        SimpleRecord[] records = new SimpleRecord[count];
        for (int i = 0; i < count; i++) {
            byte[] value = new byte[valueBytes];
            random.nextBytes(value);
            records[i] = new SimpleRecord(timestampMs + i, ("k" + i).getBytes(StandardCharsets.UTF_8), value);
        }
        return copy(MemoryRecords.withRecords(compression, records).buffer());
    }

    /** One uncompressed idempotent producer batch (KIP-98) of {@code count} records from {@code baseSequence}. */
    static ByteBuffer idempotent(long producerId, short epoch, int baseSequence, int count, long timestampMs) {
        return idempotent(producerId, epoch, baseSequence, count, timestampMs, Compression.NONE);
    }

    /** One idempotent producer batch; values name the producer and sequence, so retries carry equal bytes. */
    static ByteBuffer idempotent(long producerId, short epoch, int baseSequence, int count, long timestampMs,
                                 Compression compression) {
        SimpleRecord[] records = new SimpleRecord[count];
        for (int i = 0; i < count; i++) {
            records[i] = new SimpleRecord(timestampMs, ("k" + i).getBytes(StandardCharsets.UTF_8),
                    ("p" + producerId + "-e" + epoch + "-s" + (baseSequence + i)).getBytes(StandardCharsets.UTF_8));
        }
        return copy(MemoryRecords.withIdempotentRecords(compression, producerId, epoch, baseSequence, records).buffer());
    }

    /** A batch as a follower receives it: offsets and leader epoch already set. */
    static ByteBuffer followerBatch(long baseOffset, int count, long timestampMs, int leaderEpoch) {
        SimpleRecord[] records = new SimpleRecord[count];
        for (int i = 0; i < count; i++) {
            records[i] = new SimpleRecord(timestampMs, ("v" + (baseOffset + i)).getBytes(StandardCharsets.UTF_8));
        }
        return copy(MemoryRecords.withRecords(RecordBatch.CURRENT_MAGIC_VALUE, baseOffset, Compression.NONE,
                TimestampType.CREATE_TIME, RecordBatch.NO_PRODUCER_ID, RecordBatch.NO_PRODUCER_EPOCH,
                RecordBatch.NO_SEQUENCE, leaderEpoch, false, records).buffer());
    }

    static ByteBuffer concat(ByteBuffer... buffers) {
        int total = 0;
        for (ByteBuffer b : buffers) {
            total += b.remaining();
        }
        ByteBuffer out = ByteBuffer.allocate(total);
        for (ByteBuffer b : buffers) {
            out.put(b.duplicate());
        }
        return out.flip();
    }

    static ByteBuffer copy(ByteBuffer buffer) {
        ByteBuffer out = ByteBuffer.allocate(buffer.remaining());
        out.put(buffer.duplicate());
        return out.flip();
    }

    static byte[] bytes(ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }

    /** Parses complete batches with kafka-clients (a trailing partial batch is ignored, as clients do). */
    static List<MutableRecordBatch> parse(ByteBuffer buffer) {
        List<MutableRecordBatch> batches = new ArrayList<>();
        for (MutableRecordBatch batch : MemoryRecords.readableRecords(buffer.duplicate()).batches()) {
            batches.add(batch);
        }
        return batches;
    }

    /** Every record offset in the buffer, in order, checking each batch's CRC with kafka-clients. */
    static List<Long> offsets(ByteBuffer buffer) {
        List<Long> offsets = new ArrayList<>();
        for (MutableRecordBatch batch : parse(buffer)) {
            batch.ensureValid();
            for (Record record : batch) {
                offsets.add(record.offset());
            }
        }
        return offsets;
    }

    /** Reads everything from the log start to the end, segment by segment, as one buffer. */
    static ByteBuffer readAll(Log log) throws Exception {
        List<ByteBuffer> parts = new ArrayList<>();
        long offset = log.logStartOffset();
        while (offset < log.logEndOffset()) {
            LogReadResult result = log.read(offset, Integer.MAX_VALUE, true);
            if (result.records().isEmpty()) {
                break;
            }
            ByteBuffer bytes = result.records().readFully();
            parts.add(bytes);
            List<MutableRecordBatch> batches = parse(bytes);
            offset = batches.get(batches.size() - 1).nextOffset();
        }
        return concat(parts.toArray(new ByteBuffer[0]));
    }
}
