package io.kraft.storage.log;

/** An OffsetForLeaderEpoch answer: the epoch found and the end offset of that epoch, or both UNDEFINED. */
public record EpochEndOffset(int epoch, long endOffset) {
    public static final int UNDEFINED_EPOCH = -1;
    public static final long UNDEFINED_OFFSET = -1L;
    public static final EpochEndOffset UNDEFINED = new EpochEndOffset(UNDEFINED_EPOCH, UNDEFINED_OFFSET);
}
