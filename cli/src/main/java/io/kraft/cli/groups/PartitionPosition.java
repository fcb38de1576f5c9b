package io.kraft.cli.groups;

import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;

/**
 * What a reset needs to know of one partition: its log start and end offsets (the end is the high watermark, the
 * next offset a consumer would read), the group's committed offset if any, and for {@code --to-datetime} the
 * first offset whose timestamp is at or after the requested time (empty when no record is that new).
 */
public record PartitionPosition(TopicPartition partition, long earliestOffset, long latestOffset,
                                OptionalLong committedOffset, OptionalLong offsetForTimestamp) {
    public PartitionPosition {
        if (earliestOffset < 0 || latestOffset < earliestOffset) {
            throw new IllegalArgumentException(partition + ": log offsets " + earliestOffset + ".." + latestOffset
                    + " are not a range");
        }
    }

    /** The offset nearest to {@code offset} that a consumer could start at: within earliest..latest. */
    public long clamp(long offset) {
        return Math.max(earliestOffset, Math.min(latestOffset, offset));
    }
}
