package io.kraft.storage.log;

/** Where one batch sits in a segment file, with the header fields the log needs to navigate. */
public record BatchLocation(long baseOffset, long lastOffset, int position, int sizeBytes, long maxTimestampMs,
                            int partitionLeaderEpoch) {
    public long nextOffset() {
        return lastOffset + 1;
    }
}
