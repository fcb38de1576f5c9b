package io.kraft.raft;

/**
 * Names a snapshot of the state machine: it holds the effect of every record below {@code endOffset}, and the
 * record just before that offset has epoch {@code epoch}. Its directory name is {@code <endOffset>-<epoch>}.
 */
public record SnapshotId(long endOffset, int epoch) implements Comparable<SnapshotId> {

    public SnapshotId {
        if (endOffset < 1) {
            throw new IllegalArgumentException("a snapshot end offset must be >= 1 but was " + endOffset);
        }
        if (epoch < 1) {
            throw new IllegalArgumentException("a snapshot epoch must be >= 1 but was " + epoch);
        }
    }

    /** Parses the {@code <endOffset>-<epoch>} form of {@link #toString()}. */
    public static SnapshotId parse(String name) {
        int dash = name.indexOf('-');
        if (dash <= 0) {
            throw new IllegalArgumentException("'" + name + "' is not a snapshot name of the form <endOffset>-<epoch>");
        }
        try {
            return new SnapshotId(Long.parseLong(name.substring(0, dash)), Integer.parseInt(name.substring(dash + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + name + "' is not a snapshot name of the form <endOffset>-<epoch>");
        }
    }

    @Override
    public int compareTo(SnapshotId other) {
        int byOffset = Long.compare(endOffset, other.endOffset);
        return byOffset != 0 ? byOffset : Integer.compare(epoch, other.epoch);
    }

    @Override
    public String toString() {
        return String.format("%020d-%d", endOffset, epoch);
    }
}
