package io.kraft.storage.record;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.junit.jupiter.api.Test;

/**
 * Random batches (codec, offsets with gaps, producer fields, timestamps, nulls, headers) read back
 * identically here and in kafka-clients, and random damage to a batch only ever surfaces as a
 * {@link CorruptRecordException}. Replay a failure with {@code -Dkraft.seed=<seed>}.
 */
class RecordBatchPropertyTest {
    private static final int ROUND_TRIPS = 300;
    private static final int CORRUPTIONS = 600;

    private static long seed() {
        return Long.getLong("kraft.seed", System.nanoTime());
    }

    private record Appended(long offset, SampleRecord sample) {
    }

    @Test
    void randomBatchesReadBackIdenticallyHereAndInKafka() {
        long seed = seed();
        Random random = new Random(seed);
        for (int i = 0; i < ROUND_TRIPS; i++) {
            try {
                roundTrip(random);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("round trip " + i + " failed; replay with -Dkraft.seed=" + seed, e);
            }
        }
    }

    private static void roundTrip(Random random) {
        CompressionType type = CompressionType.values()[random.nextInt(CompressionType.values().length)];
        long baseOffset = random.nextInt(3) == 0 ? 0L : random.nextLong() >>> 2;
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBuffer.allocate(random.nextInt(512)), type, baseOffset);
        boolean idempotent = random.nextBoolean();
        int baseSequence = idempotent ? random.nextInt(Integer.MAX_VALUE) : RecordBatch.NO_SEQUENCE;
        if (idempotent) {
            builder.producer(random.nextLong() >>> 1, (short) random.nextInt(Short.MAX_VALUE), baseSequence)
                    .transactional(random.nextBoolean());
        }
        long logAppendTime = random.nextInt(4) == 0 ? 1_800_000_000_000L : RecordBatch.NO_TIMESTAMP;
        if (logAppendTime != RecordBatch.NO_TIMESTAMP) {
            builder.logAppendTime(logAppendTime);
        }
        List<Appended> appended = new ArrayList<>();
        long offset = baseOffset - 1;
        int count = random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(30);
        for (int r = 0; r < count; r++) {
            offset += random.nextInt(5) == 0 ? 1 + random.nextInt(1000) : 1;
            SampleRecord sample = randomRecord(random);
            builder.appendWithOffset(offset, sample.timestampMs(), wrap(sample.key()), wrap(sample.value()),
                    sample.headers());
            appended.add(new Appended(offset, sample));
        }
        long lastOffset = Math.max(offset, baseOffset) + (count == 0 || random.nextBoolean() ? random.nextInt(50) : 0);
        builder.lastOffsetDelta((int) (lastOffset - baseOffset));
        ByteBuffer built = builder.build();

        RecordBatch batch = RecordBatch.at(built);
        batch.validateRecords();
        assertEquals(lastOffset, batch.lastOffset());
        List<Record> ours = batch.records();
        assertEquals(appended.size(), ours.size());
        for (int r = 0; r < ours.size(); r++) {
            Appended expected = appended.get(r);
            Record actual = ours.get(r);
            assertEquals(expected.offset(), actual.offset());
            long timestamp = logAppendTime != RecordBatch.NO_TIMESTAMP ? logAppendTime : expected.sample().timestampMs();
            assertEquals(timestamp, actual.timestamp());
            expected.sample().assertContent(actual);
        }

        Iterator<MutableRecordBatch> kafkaBatches = MemoryRecords.readableRecords(built.duplicate()).batches().iterator();
        MutableRecordBatch kafka = kafkaBatches.next();
        kafka.ensureValid();
        assertEquals(lastOffset, kafka.lastOffset());
        assertEquals(batch.lastSequence(), kafka.lastSequence());
        int r = 0;
        for (org.apache.kafka.common.record.internal.Record record : kafka) {
            Appended expected = appended.get(r++);
            assertEquals(expected.offset(), record.offset());
            expected.sample().assertContent(record);
            assertEquals(ours.get(r - 1).sequence(), record.sequence());
        }
        assertEquals(appended.size(), r);
    }

    private static SampleRecord randomRecord(Random random) {
        long timestamp = 1_700_000_000_000L + random.nextInt(2_000_000) - 1_000_000;
        Header[] headers = new Header[random.nextInt(4) == 0 ? random.nextInt(4) : 0];
        for (int h = 0; h < headers.length; h++) {
            headers[h] = new Header("h" + random.nextInt(100), randomBytes(random, 20));
        }
        return new SampleRecord(timestamp, randomBytes(random, 64), randomBytes(random, 3000), headers);
    }

    private static byte[] randomBytes(Random random, int maxSize) {
        return switch (random.nextInt(6)) {
            case 0 -> null;
            case 1 -> new byte[0];
            case 2 -> SampleRecord.repeated(random.nextInt(maxSize));
            default -> SampleRecord.random(random, random.nextInt(maxSize));
        };
    }

    private static ByteBuffer wrap(byte[] bytes) {
        return bytes == null ? null : ByteBuffer.wrap(bytes);
    }

    @Test
    void randomDamageOnlyEverRaisesCorruptRecordException() {
        long seed = seed();
        Random random = new Random(seed);
        for (int i = 0; i < CORRUPTIONS; i++) {
            CompressionType type = CompressionType.values()[i % CompressionType.values().length];
            RecordBatchBuilder builder = new RecordBatchBuilder(ByteBuffer.allocate(256), type, 0L);
            for (int r = 0; r < 1 + random.nextInt(8); r++) {
                SampleRecord sample = randomRecord(random);
                builder.append(sample.timestampMs(), sample.key(), sample.value(), sample.headers());
            }
            ByteBuffer batch = builder.build();
            damage(random, batch);
            // Re-sign the damage so the deep checks, not the CRC, have to catch it.
            if (batch.limit() >= RecordBatch.HEADER_SIZE && random.nextInt(4) != 0) {
                new RecordBatch(batch, 0).writeChecksum();
            }
            try {
                RecordBatch.at(batch).validateRecords();
                RecordBatch.at(batch).records();
            } catch (CorruptRecordException expected) {
                // The only acceptable failure.
            } catch (RuntimeException | Error e) {
                throw new AssertionError("damage " + i + " (" + type + ") escaped as " + e
                        + "; replay with -Dkraft.seed=" + seed, e);
            }
        }
    }

    private static void damage(Random random, ByteBuffer batch) {
        switch (random.nextInt(3)) {
            case 0 -> {
                for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                    int at = RecordBatch.ATTRIBUTES_OFFSET + random.nextInt(batch.limit() - RecordBatch.ATTRIBUTES_OFFSET);
                    batch.put(at, (byte) random.nextInt(256));
                }
            }
            case 1 -> {
                int newLimit = RecordBatch.HEADER_SIZE + random.nextInt(batch.limit() - RecordBatch.HEADER_SIZE);
                batch.putInt(RecordBatch.LENGTH_OFFSET, newLimit - RecordBatch.LOG_OVERHEAD);
                batch.limit(newLimit);
            }
            default -> batch.putInt(RecordBatch.RECORDS_COUNT_OFFSET, random.nextInt(10));
        }
    }
}
