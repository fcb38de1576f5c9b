package io.kraft.storage.log;

import io.kraft.storage.record.CorruptRecordException;
import io.kraft.storage.record.RecordBatch;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The record-level rules of a leader append, checked before anything is written: the KIP-937 timestamp bounds of a
 * CreateTime topic ({@link TimestampBounds}), and in a compacted topic a key on every record (a record without one
 * has nothing to be compacted by; control records are exempt).
 *
 * <p>Batch-level work on the usual path: with no lower timestamp bound (the default) a batch header's max timestamp
 * decides for all its records. Records are read only for a finite lower bound or a compacted topic, in one pass over
 * both rules that builds no record objects. A refusal names every offending record by its index in its batch
 * (KIP-467 record errors, at most {@link RecordError#MAX_PER_REFUSAL}); finding them may read every record, but
 * only once the append has failed, and a compressed batch decodes to at most {@link LogConfig#maxDecompressedBytes}.
 */
final class RecordRules implements RecordBatch.RecordFieldsVisitor {
    private final Path dir;
    private final LogConfig config;
    private final long nowMs;
    private final boolean checkTimestamps;
    private final boolean checkKeys;
    private final long lowerMs;
    private final long upperMs;
    /** Byte position of the batch being walked in the append's buffer, for the key refusal's message. */
    private int batchPosition;
    private boolean controlBatch;
    private String timestampRefusal;
    private List<RecordError> timestampErrors;
    private String keyRefusal;
    private List<RecordError> keyErrors;

    private RecordRules(Path dir, LogConfig config, long nowMs, boolean checkTimestamps, boolean checkKeys,
                        long lowerMs, long upperMs) {
        this.dir = dir;
        this.config = config;
        this.nowMs = nowMs;
        this.checkTimestamps = checkTimestamps;
        this.checkKeys = checkKeys;
        this.lowerMs = lowerMs;
        this.upperMs = upperMs;
    }

    /**
     * @throws InvalidTimestampException naming the first timestamp out of bounds and the bound, with every such
     *                                   record as a record error (timestamps are checked before keys)
     * @throws InvalidRecordException    naming the first record of a compacted topic without a key, with every such
     *                                   record as a record error
     * @throws CorruptRecordException    a record read for the rules is malformed and no rule failed before it
     */
    static void check(ByteBuffer records, LogConfig config, long nowMs, Path dir) {
        boolean checkTimestamps = !config.logAppendTime();
        boolean checkKeys = config.compact();
        if (!checkTimestamps && !checkKeys) {
            return;
        }
        long lowerMs = checkTimestamps ? TimestampBounds.lowerMs(config, nowMs) : Long.MIN_VALUE;
        long upperMs = checkTimestamps ? TimestampBounds.upperMs(config, nowMs) : Long.MAX_VALUE;
        // Without a lower bound a batch's max timestamp decides for all its records.
        boolean recordTimestamps = checkTimestamps && lowerMs != Long.MIN_VALUE;
        if (checkTimestamps && !recordTimestamps) {
            String refusal = headerRefusal(records, lowerMs, upperMs, nowMs, config, dir);
            if (refusal != null) {
                // Refused already: read the records only to name those at fault.
                RecordRules rules = new RecordRules(dir, config, nowMs, true, false, lowerMs, upperMs);
                rules.timestampRefusal = refusal;
                rules.timestampErrors = new ArrayList<>();
                rules.walk(records);
                rules.refuse();
            }
        }
        if (recordTimestamps || checkKeys) {
            RecordRules rules = new RecordRules(dir, config, nowMs, recordTimestamps, checkKeys, lowerMs, upperMs);
            rules.walk(records);
            rules.refuse();
        }
    }

    /** The refusal for the first batch whose max timestamp is out of bounds, or null. */
    private static String headerRefusal(ByteBuffer records, long lowerMs, long upperMs, long nowMs, LogConfig config,
                                        Path dir) {
        for (int p = records.position(); p < records.limit(); ) {
            RecordBatch batch = new RecordBatch(records, p);
            long maxTimestampMs = batch.maxTimestamp();
            if (!TimestampBounds.allows(maxTimestampMs, lowerMs, upperMs)) {
                return TimestampBounds.refusal(maxTimestampMs, lowerMs, upperMs, nowMs, config, dir);
            }
            p += batch.sizeInBytes();
        }
        return null;
    }

    /** Reads every record once; after a finding, a malformed record ends the walk instead of failing it. */
    private void walk(ByteBuffer records) {
        try {
            for (int p = records.position(); p < records.limit(); ) {
                RecordBatch batch = new RecordBatch(records, p).limitDecompressedBytes(config.maxDecompressedBytes());
                batchPosition = p;
                controlBatch = batch.isControl();
                // Control records need no key: with no record timestamp to check, their batch is not read.
                if (checkTimestamps || !controlBatch) {
                    batch.forEachRecordFields(this);
                }
                p += batch.sizeInBytes();
            }
        } catch (CorruptRecordException e) {
            if (timestampErrors == null && keyErrors == null) {
                throw e;
            }
            // The append is refused for the rule already broken; naming the rest of its records is best effort.
        }
    }

    @Override
    public void visit(int index, long timestampMs, boolean hasKey) {
        if (checkTimestamps && !TimestampBounds.allows(timestampMs, lowerMs, upperMs)) {
            if (timestampErrors == null) {
                timestampErrors = new ArrayList<>();
            }
            if (timestampRefusal == null) {
                timestampRefusal = TimestampBounds.refusal(timestampMs, lowerMs, upperMs, nowMs, config, dir);
            }
            if (timestampErrors.size() < RecordError.MAX_PER_REFUSAL) {
                timestampErrors.add(new RecordError(index, "timestamp " + timestampMs + " of record " + index
                        + " is outside [" + lowerMs + ", " + upperMs + "]"));
            }
        }
        if (checkKeys && !hasKey && !controlBatch) {
            if (keyErrors == null) {
                keyErrors = new ArrayList<>();
                keyRefusal = "record " + index + " of the batch at position " + batchPosition
                        + " has no key, but the compacted log " + dir.getFileName() + " only takes keyed records";
            }
            if (keyErrors.size() < RecordError.MAX_PER_REFUSAL) {
                keyErrors.add(new RecordError(index, "record " + index + " has no key, which a compacted topic"
                        + " requires"));
            }
        }
    }

    /** Throws for the rule broken, if any; a timestamp refusal wins over a key refusal. */
    private void refuse() {
        if (timestampErrors != null) {
            throw new InvalidTimestampException(timestampRefusal, timestampErrors);
        }
        if (keyErrors != null) {
            throw new InvalidRecordException(keyRefusal, keyErrors);
        }
    }
}
