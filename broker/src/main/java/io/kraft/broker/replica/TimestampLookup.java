package io.kraft.broker.replica;

import io.kraft.storage.log.EpochEntry;
import io.kraft.storage.log.Log;
import io.kraft.storage.log.OffsetOutOfRangeException;
import io.kraft.storage.log.TimestampOffset;
import io.kraft.storage.record.Record;
import io.kraft.storage.record.RecordBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;

/** ListOffsets' lookups on one log: a timestamp or one of the special values to an offset and its leader epoch. */
final class TimestampLookup {
    private TimestampLookup() {
    }

    /**
     * The offset for {@code timestamp} (-1 latest, -2 earliest, -3 max timestamp, -4 earliest local, -5 latest
     * tiered), answering only offsets below {@code lastFetchable}; {@code leaderEpoch} is the latest offset's.
     */
    static TimestampAndOffset find(Log log, long timestamp, long lastFetchable, int leaderEpoch) {
        if (timestamp == Partition.EARLIEST_TIMESTAMP || timestamp == Partition.EARLIEST_LOCAL_TIMESTAMP) {
            long start = log.logStartOffset();
            return new TimestampAndOffset(-1L, start, epochForOffset(log, start));
        }
        if (timestamp == Partition.LATEST_TIMESTAMP) {
            return new TimestampAndOffset(-1L, lastFetchable, leaderEpoch);
        }
        if (timestamp == Partition.LATEST_TIERED_TIMESTAMP) {
            return TimestampAndOffset.NOT_FOUND; // no tiered storage: nothing is tiered
        }
        if (timestamp == Partition.MAX_TIMESTAMP) {
            Optional<TimestampOffset> max = log.maxTimestampOffset();
            if (max.isEmpty()) {
                return TimestampAndOffset.NOT_FOUND;
            }
            // The log knows the batch; KIP-734 answers the offset of the record carrying the largest timestamp.
            TimestampAndOffset exact = firstRecordAtOrAfter(log, max.get(), max.get().timestampMs());
            return exact.offset() < lastFetchable ? exact : TimestampAndOffset.NOT_FOUND;
        }
        if (timestamp < 0) {
            return TimestampAndOffset.NOT_FOUND;
        }
        Optional<TimestampOffset> batchHit = log.offsetForTimestamp(timestamp);
        if (batchHit.isEmpty()) {
            return TimestampAndOffset.NOT_FOUND;
        }
        TimestampAndOffset exact = firstRecordAtOrAfter(log, batchHit.get(), timestamp);
        return exact.offset() < lastFetchable ? exact : TimestampAndOffset.NOT_FOUND;
    }

    /**
     * The log's time lookup works per batch; the answer must name the first record whose timestamp reaches
     * the target, so the batch found is read and its records scanned.
     */
    private static TimestampAndOffset firstRecordAtOrAfter(Log log, TimestampOffset batchHit, long timestamp) {
        long start = log.logStartOffset();
        try {
            ByteBuffer bytes = log.read(Math.max(batchHit.offset(), start), 1, true).records().readFully();
            if (bytes.remaining() >= RecordBatch.HEADER_SIZE) {
                RecordBatch batch = new RecordBatch(bytes, 0);
                for (Record record : batch.records()) {
                    long recordTimestamp = batch.isLogAppendTime() ? batch.maxTimestamp() : record.timestamp();
                    if (record.offset() >= start && recordTimestamp >= timestamp) {
                        return new TimestampAndOffset(recordTimestamp, record.offset(), batch.partitionLeaderEpoch());
                    }
                }
            }
        } catch (IOException | OffsetOutOfRangeException e) {
            // The batch went away under the lookup (retention); its own answer is still a valid bound.
        }
        return new TimestampAndOffset(batchHit.timestampMs(), batchHit.offset(), epochForOffset(log, batchHit.offset()));
    }

    /** The leader epoch that wrote {@code offset}, from the leader epoch cache; -1 when unknown. */
    private static int epochForOffset(Log log, long offset) {
        int epoch = Partition.NO_EPOCH;
        for (EpochEntry entry : log.leaderEpochCache().entries()) {
            if (entry.startOffset() <= offset) {
                epoch = entry.epoch();
            } else {
                break;
            }
        }
        return epoch;
    }
}
