package io.kraft.storage.log;

import io.kraft.storage.record.BatchRecompressor;
import io.kraft.storage.record.CompressionType;
import io.kraft.storage.record.RecordBatch;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * Applies a topic's {@code compression.type} to a leader append: batches whose codec differs from the
 * topic's are re-written with it; with {@code producer}, or when every codec already matches, the
 * very same buffer comes back and its bytes reach the disk untouched.
 */
final class TopicCompression {
    private TopicCompression() {
    }

    /** The batches to write: {@code records} itself, or a new buffer holding the converted batches. */
    static ByteBuffer apply(ByteBuffer records, LogConfig config) {
        Optional<CompressionType> target = config.targetCompression();
        if (target.isEmpty() || !anyNeedsConversion(records, target.get())) {
            return records;
        }
        ByteBuffer[] parts = new ByteBuffer[countBatches(records)];
        int total = 0;
        int i = 0;
        for (int p = records.position(); p < records.limit(); i++) {
            RecordBatch batch = new RecordBatch(records, p).limitDecompressedBytes(config.maxDecompressedBytes());
            int size = batch.sizeInBytes();
            parts[i] = BatchRecompressor.needsRecompression(batch, target.get())
                    ? BatchRecompressor.recompress(batch, target.get())
                    : records.duplicate().limit(p + size).position(p);
            total += parts[i].remaining();
            p += size;
        }
        ByteBuffer converted = ByteBuffer.allocate(total);
        for (ByteBuffer part : parts) {
            converted.put(part);
        }
        return converted.flip();
    }

    private static boolean anyNeedsConversion(ByteBuffer records, CompressionType target) {
        for (int p = records.position(); p < records.limit(); ) {
            RecordBatch batch = new RecordBatch(records, p);
            if (BatchRecompressor.needsRecompression(batch, target)) {
                return true;
            }
            p += batch.sizeInBytes();
        }
        return false;
    }

    private static int countBatches(ByteBuffer records) {
        int count = 0;
        for (int p = records.position(); p < records.limit(); count++) {
            p += new RecordBatch(records, p).sizeInBytes();
        }
        return count;
    }
}
