package io.kraft.storage.log;

import static io.kraft.storage.log.TestBatches.batch;
import static io.kraft.storage.log.TestBatches.concat;
import static io.kraft.storage.log.TestBatches.followerBatch;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kraft.storage.record.RecordBatch;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class AppendOffsetsTest {
    private static final Path DIR = Path.of("/data/topic-0");

    @Test
    void aLeaderStampsConsecutiveOffsetsItsEpochAndTheAppendTimeWithAValidCrc() {
        ByteBuffer batches = concat(batch(3, 500), batch(2, 400));
        AppendOffsets offsets = new AppendOffsets().assign(batches, 100, 7, 9_000);
        RecordBatch first = new RecordBatch(batches, 0);
        RecordBatch second = new RecordBatch(batches, first.sizeInBytes());
        assertEquals(100, first.baseOffset());
        assertEquals(103, second.baseOffset());
        assertEquals(7, second.partitionLeaderEpoch());
        assertEquals(9_000, second.maxTimestamp());
        second.validate();
        assertEquals(new AppendInfo(100, 104, 9_000, 100, 9_000, 10, 2, false),
                offsets.toAppendInfo(9_000, 10, 2), "the first batch carrying the max timestamp is named");
        assertEquals(5, offsets.recordCount());
    }

    @Test
    void withCreateTimeTheBatchKeepingTheLargestTimestampIsNamed() {
        ByteBuffer batches = concat(batch(3, 500), batch(2, 900), batch(1, 100));
        AppendOffsets offsets = new AppendOffsets().assign(batches, 0, 0, RecordBatch.NO_TIMESTAMP);
        AppendInfo info = offsets.toAppendInfo(RecordBatch.NO_TIMESTAMP, batches.remaining(), 3);
        assertEquals(901, info.maxTimestampMs());
        assertEquals(3, info.offsetOfMaxTimestamp());
        assertEquals(5, info.lastOffset());
    }

    @Test
    void aReusedPassForgetsTheAppendBeforeIt() {
        AppendOffsets offsets = new AppendOffsets();
        offsets.assign(batch(3, 5_000), 0, 0, RecordBatch.NO_TIMESTAMP);
        offsets.checkFollower(followerBatch(50, 2, 100, 1), 3, DIR);
        assertEquals(new AppendInfo(50, 51, 100, 50, -1, 0, 1, false),
                offsets.toAppendInfo(RecordBatch.NO_TIMESTAMP, 0, 1));
        assertEquals(2, offsets.recordCount());
    }

    @Test
    void followerOffsetsMayJumpForwardButNeverBack() {
        ByteBuffer gaps = concat(followerBatch(10, 2, 0, 1), followerBatch(20, 2, 0, 1));
        AppendOffsets offsets = new AppendOffsets().checkFollower(gaps, 10, DIR);
        assertEquals(10, offsets.firstOffset());
        assertEquals(21, offsets.lastOffset());
        assertThrows(UnexpectedAppendOffsetException.class,
                () -> new AppendOffsets().checkFollower(followerBatch(9, 2, 0, 1), 10, DIR), "below the log end");
        ByteBuffer overlapping = concat(followerBatch(10, 5, 0, 1), followerBatch(12, 2, 0, 1));
        assertThrows(UnexpectedAppendOffsetException.class, () -> new AppendOffsets().checkFollower(overlapping, 10, DIR));
    }
}
