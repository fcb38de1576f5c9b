package io.kraft.broker.protocol;

import io.kraft.storage.record.CompressionType;
import io.kraft.storage.record.RecordBatchBuilder;
import java.nio.ByteBuffer;
import java.util.Random;

/**
 * Record batches for fuzzing produce requests: valid v2 batches in every codec, then broken the ways a hostile or
 * buggy producer breaks them (bad CRC, a batch length or record count that lies, corrupted record varints, a wrong
 * magic, a compression bomb that inflates 64-fold, truncation, trailing garbage).
 */
public final class FuzzBatches {
    private static final CompressionType[] CODECS = CompressionType.values();
    /** Offsets in a v2 batch header (KIP-98 layout). */
    private static final int LENGTH = 8;
    private static final int MAGIC = 16;
    private static final int CRC = 17;
    private static final int RECORD_COUNT = 57;
    private static final int RECORDS = 61;

    private FuzzBatches() {
    }

    public static ByteBuffer next(Random random) {
        if (random.nextInt(50) == 0) {
            return bomb(random);
        }
        ByteBuffer batch = valid(random);
        if (random.nextInt(4) == 0) {
            return batch; // some valid ones, so the append path past validation is fuzzed too
        }
        byte[] bytes = new byte[batch.remaining()];
        batch.get(bytes);
        ByteBuffer b = ByteBuffer.wrap(bytes);
        switch (random.nextInt(7)) {
            case 0 -> b.putInt(CRC, b.getInt(CRC) ^ (1 + random.nextInt(Integer.MAX_VALUE)));
            case 1 -> b.putInt(LENGTH, new int[] {-1, 0, Integer.MAX_VALUE, bytes.length, bytes.length * 2}
                    [random.nextInt(5)]);
            case 2 -> b.putInt(RECORD_COUNT, new int[] {-1, 0, Integer.MAX_VALUE, 1 << 24}[random.nextInt(4)]);
            case 3 -> b.put(MAGIC, (byte) random.nextInt(256));
            case 4 -> { // record varints overwritten (lengths, deltas) inside the records section
                for (int i = 0; i < 4 && bytes.length > RECORDS; i++) {
                    bytes[RECORDS + random.nextInt(bytes.length - RECORDS)] = (byte) (0x80 | random.nextInt(128));
                }
            }
            case 5 -> {
                return ByteBuffer.wrap(bytes, 0, Math.max(1, random.nextInt(bytes.length))).slice();
            }
            default -> {
                byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + 1 + random.nextInt(32));
                return ByteBuffer.wrap(longer);
            }
        }
        return b;
    }

    private static ByteBuffer valid(Random random) {
        CompressionType codec = CODECS[random.nextInt(CODECS.length)];
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBuffer.allocate(64 << 10), codec, 0);
        for (int i = 0, n = 1 + random.nextInt(8); i < n; i++) {
            byte[] key = random.nextBoolean() ? null : ("k" + random.nextInt(100)).getBytes();
            byte[] value = new byte[random.nextInt(200)];
            random.nextBytes(value);
            builder.append(System.currentTimeMillis(), key, value);
        }
        return builder.build();
    }

    /** 256 records of 16 KiB of zeros in gzip or zstd: about 4 MiB inflating from a few KiB. */
    private static ByteBuffer bomb(Random random) {
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBuffer.allocate(256 << 10),
                random.nextBoolean() ? CompressionType.GZIP : CompressionType.ZSTD, 0);
        byte[] zeros = new byte[16 << 10];
        for (int i = 0; i < 256; i++) {
            builder.append(System.currentTimeMillis(), ("k" + i).getBytes(), zeros);
        }
        return builder.build();
    }
}
