package io.kraft.storage.log;

import io.kraft.storage.record.Record;
import io.kraft.storage.record.RecordBatch;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * A compacted topic keeps the latest record of each key, so a record without a key has nothing to be compacted by
 * and a leader refuses it, as Kafka does. Only compacted topics pay for reading the records (and decompressing them).
 */
final class CompactedKeys {
    private CompactedKeys() {
    }

    /** @throws InvalidRecordException naming the first record without a key */
    static void check(ByteBuffer records, LogConfig config, Path dir) {
        if (!config.compact()) {
            return;
        }
        for (int p = records.position(); p < records.limit(); ) {
            RecordBatch batch = new RecordBatch(records, p);
            if (!batch.isControl()) {
                int index = 0;
                for (Record record : batch.records()) {
                    if (!record.hasKey()) {
                        throw new InvalidRecordException("record " + index + " of the batch at position " + p
                                + " has no key, but the compacted log " + dir.getFileName()
                                + " only takes keyed records");
                    }
                    index++;
                }
            }
            p += batch.sizeInBytes();
        }
    }
}
