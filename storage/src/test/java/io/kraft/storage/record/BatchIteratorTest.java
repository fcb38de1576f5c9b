package io.kraft.storage.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BatchIteratorTest {

    private static ByteBuffer threeBatches() {
        ByteBuffer buffer = ByteBuffer.allocate(4096);
        buffer.position(7);
        for (int i = 0; i < 3; i++) {
            new RecordBatchBuilder(buffer, CompressionType.NONE, i * 10L).append(i, null, new byte[i * 5]).build();
        }
        return buffer.flip().position(7);
    }

    @Test
    void yieldsEachBatchFromTheBufferPositionWithoutMovingIt() {
        ByteBuffer buffer = threeBatches();
        List<Long> baseOffsets = new ArrayList<>();
        BatchIterator batches = new BatchIterator(buffer, 1024);
        while (batches.hasNext()) {
            RecordBatch batch = batches.next();
            batch.validate();
            baseOffsets.add(batch.baseOffset());
        }
        assertEquals(List.of(0L, 10L, 20L), baseOffsets);
        assertEquals(buffer.limit(), batches.position());
        assertEquals(7, buffer.position());
    }

    @Test
    void emptyBufferHasNoBatches() {
        BatchIterator batches = new BatchIterator(ByteBuffer.allocate(0), 1024);
        assertFalse(batches.hasNext());
        assertThrows(java.util.NoSuchElementException.class, batches::next);
    }

    @Test
    void truncatedLastBatchIsCorruptAfterTheGoodOnes() {
        ByteBuffer buffer = threeBatches();
        buffer.limit(buffer.limit() - 1);
        BatchIterator batches = new BatchIterator(buffer, 1024);
        batches.next();
        batches.next();
        CorruptRecordException e = assertThrows(CorruptRecordException.class, batches::next);
        assertTrue(e.getMessage().contains("bytes remain"), e.getMessage());
    }

    @Test
    void lengthSmallerThanTheHeaderIsCorrupt() {
        ByteBuffer buffer = threeBatches();
        buffer.putInt(7 + RecordBatch.LENGTH_OFFSET, 10);
        CorruptRecordException e = assertThrows(CorruptRecordException.class, () -> new BatchIterator(buffer, 1024).next());
        assertTrue(e.getMessage().contains("has length 10, smaller than the v2 header (49)"), e.getMessage());
    }

    @Test
    void rejectsAMaximumBelowTheHeaderSize() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new BatchIterator(ByteBuffer.allocate(0), 10));
        assertTrue(e.getMessage().contains("max batch size 10"), e.getMessage());
    }
}
