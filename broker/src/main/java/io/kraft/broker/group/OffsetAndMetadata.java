package io.kraft.broker.group;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * One committed offset as stored: the offset, the leader epoch the consumer saw (-1 if unknown), its metadata
 * string, when it was committed, and an explicit expiry from OffsetCommit v2-4's retention_time_ms, if any.
 */
public record OffsetAndMetadata(long offset, int leaderEpoch, String metadata, long commitTimestampMs,
                                OptionalLong expireTimestampMs) {
    /** The leader epoch of an offset committed without one. */
    public static final int NO_LEADER_EPOCH = -1;

    public OffsetAndMetadata {
        Objects.requireNonNull(metadata, "metadata");
        Objects.requireNonNull(expireTimestampMs, "expireTimestampMs");
    }

    public static OffsetAndMetadata of(long offset, int leaderEpoch, String metadata, long commitTimestampMs) {
        return new OffsetAndMetadata(offset, leaderEpoch, metadata, commitTimestampMs, OptionalLong.empty());
    }
}
