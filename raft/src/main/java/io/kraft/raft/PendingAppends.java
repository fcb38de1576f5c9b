package io.kraft.raft;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/** The leader's outstanding {@code append} futures, keyed by the offset of each batch's last record. */
final class PendingAppends {
    private final TreeMap<Long, CompletableFuture<Long>> byLastOffset = new TreeMap<>();

    void add(long lastOffset, CompletableFuture<Long> future) {
        byLastOffset.put(lastOffset, future);
    }

    /** Completes every append whose last record lies below the high watermark with that record's offset. */
    void completeBelow(long highWatermark) {
        Map<Long, CompletableFuture<Long>> done = byLastOffset.headMap(highWatermark, false);
        var it = done.entrySet().iterator();
        while (it.hasNext()) {
            var entry = it.next();
            it.remove();
            entry.getValue().complete(entry.getKey());
        }
    }

    void failAll(RuntimeException cause) {
        var futures = byLastOffset.values().toArray(new CompletableFuture<?>[0]);
        byLastOffset.clear();
        for (CompletableFuture<?> future : futures) {
            future.completeExceptionally(cause);
        }
    }

    int size() {
        return byLastOffset.size();
    }
}
