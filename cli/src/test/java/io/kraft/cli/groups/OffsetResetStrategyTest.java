package io.kraft.cli.groups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The new offset each reset strategy picks, and how targets outside the log are clamped. */
class OffsetResetStrategyTest {
    private static final TopicPartition PARTITION = new TopicPartition("events", 2);

    /** A log holding offsets 100..199 (end 200), the group committed at 150, the timestamp found at 170. */
    private static final PartitionPosition POSITION = new PartitionPosition(PARTITION, 100, 200,
            OptionalLong.of(150), OptionalLong.of(170));

    @Test
    void earliestAndLatestAreTheLogBounds() {
        assertEquals(100, new OffsetResetStrategy.ToEarliest().newOffset(POSITION));
        assertEquals(200, new OffsetResetStrategy.ToLatest().newOffset(POSITION));
    }

    @Test
    void anOffsetOutsideTheLogIsClampedToItsBounds() {
        assertEquals(120, new OffsetResetStrategy.ToOffset(120).newOffset(POSITION));
        assertEquals(100, new OffsetResetStrategy.ToOffset(3).newOffset(POSITION));
        assertEquals(200, new OffsetResetStrategy.ToOffset(5_000).newOffset(POSITION));
    }

    @Test
    void shiftMovesTheCommittedOffsetWithinTheLog() {
        assertEquals(160, new OffsetResetStrategy.ShiftBy(10).newOffset(POSITION));
        assertEquals(145, new OffsetResetStrategy.ShiftBy(-5).newOffset(POSITION));
        assertEquals(100, new OffsetResetStrategy.ShiftBy(-1_000).newOffset(POSITION));
        assertEquals(200, new OffsetResetStrategy.ShiftBy(Long.MAX_VALUE).newOffset(POSITION));
        assertEquals(100, new OffsetResetStrategy.ShiftBy(Long.MIN_VALUE).newOffset(POSITION));
    }

    @Test
    void shiftNeedsACommittedOffset() {
        PartitionPosition uncommitted = new PartitionPosition(PARTITION, 0, 10, OptionalLong.empty(),
                OptionalLong.empty());
        GroupCommandException failure = assertThrows(GroupCommandException.class,
                () -> new OffsetResetStrategy.ShiftBy(1).newOffset(uncommitted));
        assertTrue(failure.getMessage().contains("events-2"), failure.getMessage());
        assertTrue(failure.getMessage().contains("no committed offset"), failure.getMessage());
    }

    @Test
    void datetimeUsesTheFoundOffsetOrTheLogEndWhenNoRecordIsThatNew() {
        OffsetResetStrategy toDatetime = new OffsetResetStrategy.ToDatetime(1_700_000_000_000L);
        assertEquals(OptionalLong.of(1_700_000_000_000L), toDatetime.lookupTimestampMs());
        assertEquals(OptionalLong.empty(), new OffsetResetStrategy.ShiftBy(1).lookupTimestampMs());
        assertEquals(170, toDatetime.newOffset(POSITION));
        PartitionPosition nothingNewer = new PartitionPosition(PARTITION, 100, 200, OptionalLong.of(150),
                OptionalLong.empty());
        assertEquals(200, toDatetime.newOffset(nothingNewer));
    }

    @Test
    void aPositionMustBeARange() {
        assertThrows(IllegalArgumentException.class, () -> new PartitionPosition(PARTITION, 10, 5,
                OptionalLong.empty(), OptionalLong.empty()));
    }
}
