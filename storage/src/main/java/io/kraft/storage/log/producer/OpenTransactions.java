package io.kraft.storage.log.producer;

import java.util.Iterator;
import java.util.TreeMap;

/**
 * The transactions of one partition that keep its last stable offset (LSO) down, KIP-98: the open ones (data
 * written, no marker yet) and the completed ones whose marker is not yet below the high watermark (a new leader
 * without the marker would see them open again, so consumers must not read past them yet). The first offset of
 * the oldest of either is the partition's first unstable offset.
 *
 * <p>Changes come under the log's lock (appends, rebuilds) and from high watermark moves; reads of the first
 * unstable offset take no lock, so a partition without transactions pays one volatile read per fetch.
 */
final class OpenTransactions {
    /** First offset → producer id of each open transaction. */
    private final TreeMap<Long, Long> open = new TreeMap<>();
    /** First offset → completed transaction whose marker may not be replicated yet. */
    private final TreeMap<Long, CompletedTxn> unreplicated = new TreeMap<>();
    /** {@code Long.MAX_VALUE} when nothing is unstable. */
    private volatile long firstUnstableOffset = Long.MAX_VALUE;

    synchronized void begin(long producerId, long firstOffset) {
        open.put(firstOffset, producerId);
        publish();
    }

    /** Ends the open transaction starting at {@code txn.firstOffset()} (if tracked) and keeps it until replicated. */
    synchronized void complete(CompletedTxn txn) {
        open.remove(txn.firstOffset());
        unreplicated.put(txn.firstOffset(), txn);
        publish();
    }

    /** The first offset of the oldest open transaction of another producer than {@code producerId}, or -1. */
    synchronized long firstOpenOffsetExcept(long producerId) {
        for (var entry : open.entrySet()) {
            if (entry.getValue() != producerId) {
                return entry.getKey();
            }
        }
        return -1;
    }

    /** Forgets the completed transactions whose marker is below {@code highWatermark}. */
    synchronized void onHighWatermark(long highWatermark) {
        boolean removed = false;
        for (Iterator<CompletedTxn> it = unreplicated.values().iterator(); it.hasNext(); ) {
            if (it.next().lastOffset() < highWatermark) {
                it.remove();
                removed = true;
            }
        }
        if (removed) {
            publish();
        }
    }

    long firstUnstableOffset() {
        return firstUnstableOffset;
    }

    synchronized int openCount() {
        return open.size();
    }

    synchronized void clear() {
        open.clear();
        unreplicated.clear();
        publish();
    }

    private void publish() {
        long first = Long.MAX_VALUE;
        if (!open.isEmpty()) {
            first = open.firstKey();
        }
        if (!unreplicated.isEmpty()) {
            first = Math.min(first, unreplicated.firstKey());
        }
        firstUnstableOffset = first;
    }
}
