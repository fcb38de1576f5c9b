package io.kraft.storage.log;

/**
 * One aborted transaction of a partition, as its {@code .txnindex} entry records it (KIP-98): the producer, the
 * first offset it wrote in the transaction, the offset of its ABORT marker, and the last stable offset once the
 * marker was written (the first offset of the oldest transaction still open then, else the marker's offset + 1).
 * A read_committed fetch returns {@code (producerId, firstOffset)} of those overlapping what it read.
 */
public record AbortedTxn(long producerId, long firstOffset, long lastOffset, long lastStableOffset) {
    public AbortedTxn {
        if (firstOffset > lastOffset) {
            throw new IllegalArgumentException("aborted transaction of producer " + producerId + " starts at "
                    + firstOffset + " after its marker at " + lastOffset);
        }
    }
}
