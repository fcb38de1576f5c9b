package io.kraft.broker.group;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * One group's offsets written in transactions not decided yet (TxnOffsetCommit, KIP-98), by producer id: they are
 * in {@code __consumer_offsets} but become the group's committed offsets only when the producer's COMMIT marker is
 * written there, and are dropped on ABORT. Each remembers its write position in the group's records, so a plain
 * commit written after it wins when the marker lands, and a tombstone written after it deletes it, as the log's
 * order says. Owned by the coordinator thread.
 */
final class TransactionalOffsets {
    /** A transactional offset and the group-wide position of its write. */
    record Pending(OffsetAndMetadata offset, long writePosition) {
    }

    private final Map<Long, Map<OffsetKey, Pending>> byProducer = new HashMap<>();
    private final Map<OffsetKey, Integer> producersByPartition = new HashMap<>();

    void add(long producerId, OffsetKey partition, Pending pending) {
        Pending previous = byProducer.computeIfAbsent(producerId, id -> new LinkedHashMap<>()).put(partition, pending);
        if (previous == null) {
            producersByPartition.merge(partition, 1, Integer::sum);
        }
    }

    /** Forgets {@code pending} if it still is the producer's offset for the partition (its write failed). */
    void removeIf(long producerId, OffsetKey partition, Pending pending) {
        Map<OffsetKey, Pending> offsets = byProducer.get(producerId);
        if (offsets != null && offsets.get(partition) == pending) {
            offsets.remove(partition);
            release(partition);
            if (offsets.isEmpty()) {
                byProducer.remove(producerId);
            }
        }
    }

    /** A tombstone for the partition was written after them: every producer's offset for it is dropped. */
    void removePartition(OffsetKey partition) {
        byProducer.values().removeIf(offsets -> {
            if (offsets.remove(partition) != null) {
                release(partition);
            }
            return offsets.isEmpty();
        });
    }

    /** The partitions with an undecided offset. */
    Set<OffsetKey> partitions() {
        return Set.copyOf(producersByPartition.keySet());
    }

    /** Ends the producer's transaction: its offsets, to apply if it committed; empty when it had none. */
    Map<OffsetKey, Pending> complete(long producerId) {
        Map<OffsetKey, Pending> offsets = byProducer.remove(producerId);
        if (offsets == null) {
            return Map.of();
        }
        offsets.keySet().forEach(this::release);
        return offsets;
    }

    private void release(OffsetKey partition) {
        producersByPartition.computeIfPresent(partition, (key, count) -> count == 1 ? null : count - 1);
    }

    /** Whether an undecided transaction wrote an offset for the partition (OffsetFetch's require_stable, KIP-447). */
    boolean hasPending(OffsetKey partition) {
        return producersByPartition.containsKey(partition);
    }

    boolean isEmpty() {
        return byProducer.isEmpty();
    }

    /** The producers with undecided offsets in this group. */
    int producerCount() {
        return byProducer.size();
    }
}
