package io.kraft.cli.groups;

import java.util.OptionalLong;

/**
 * Where {@code groups --reset-offsets} moves a group's offset on one partition. Targets outside the log are
 * clamped to its start or end, as Kafka's tool does, so the group never points at data that is not there.
 */
public sealed interface OffsetResetStrategy {
    /** The new committed offset for the partition. */
    long newOffset(PartitionPosition position);

    /** The time whose first offsets {@link #newOffset} needs looked up, if any ({@code --to-datetime}). */
    default OptionalLong lookupTimestampMs() {
        return OptionalLong.empty();
    }

    /** {@code --to-earliest}: the log start offset. */
    record ToEarliest() implements OffsetResetStrategy {
        @Override
        public long newOffset(PartitionPosition position) {
            return position.earliestOffset();
        }
    }

    /** {@code --to-latest}: the log end offset, so the group skips everything written so far. */
    record ToLatest() implements OffsetResetStrategy {
        @Override
        public long newOffset(PartitionPosition position) {
            return position.latestOffset();
        }
    }

    /** {@code --to-offset N}. */
    record ToOffset(long offset) implements OffsetResetStrategy {
        @Override
        public long newOffset(PartitionPosition position) {
            return position.clamp(offset);
        }
    }

    /** {@code --shift-by N}: the committed offset moved by N (negative moves back). */
    record ShiftBy(long delta) implements OffsetResetStrategy {
        /** @throws GroupCommandException if the group has no committed offset on the partition */
        @Override
        public long newOffset(PartitionPosition position) {
            if (position.committedOffset().isEmpty()) {
                throw new GroupCommandException("Cannot shift the offset of " + position.partition()
                        + ": the group has no committed offset there (use --to-earliest, --to-latest or --to-offset)");
            }
            long committed = position.committedOffset().getAsLong();
            long shifted;
            try {
                shifted = Math.addExact(committed, delta);
            } catch (ArithmeticException e) {
                shifted = delta < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
            }
            return position.clamp(shifted);
        }
    }

    /** {@code --to-datetime}: the first record at or after the time, or the log end when none is that new. */
    record ToDatetime(long timestampMs) implements OffsetResetStrategy {
        @Override
        public long newOffset(PartitionPosition position) {
            return position.clamp(position.offsetForTimestamp().orElse(position.latestOffset()));
        }

        @Override
        public OptionalLong lookupTimestampMs() {
            return OptionalLong.of(timestampMs);
        }
    }
}
