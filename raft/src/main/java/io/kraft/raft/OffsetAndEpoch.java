package io.kraft.raft;

/** A log position paired with an epoch: the end offset of an epoch, or the last entry's epoch and log end. */
public record OffsetAndEpoch(long offset, int epoch) implements Comparable<OffsetAndEpoch> {

    /** Orders first by epoch, then by offset: the Raft "more up to date" relation. */
    @Override
    public int compareTo(OffsetAndEpoch other) {
        int byEpoch = Integer.compare(epoch, other.epoch);
        return byEpoch != 0 ? byEpoch : Long.compare(offset, other.offset);
    }
}
