package io.kraft.broker.replica;

/** A ListOffsets answer: the record timestamp (-1 if none), its offset (-1 if none) and that offset's leader epoch. */
public record TimestampAndOffset(long timestampMs, long offset, int leaderEpoch) {
    public static final TimestampAndOffset NOT_FOUND = new TimestampAndOffset(-1L, -1L, -1);
}
