package io.kraft.metadata.controller;

import io.kraft.metadata.image.TopicIdPartition;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The partitions each broker is a member of (of an ISR, of an ELR), kept per broker as one bit set of partition ids
 * per topic rather than one set entry per partition. At a million partitions of RF 3 in a controller's heap that is a
 * tenth of the entries, and hash tables an eighth of the size: a young collection scans whatever of those long-lived
 * tables the creations since the last one dirtied, so it costs what the tables hold, not what changed.
 */
final class PartitionsByBroker {
    private final Map<Integer, Map<UUID, BitSet>> byBroker = new HashMap<>();

    void add(int brokerId, TopicIdPartition id) {
        byBroker.computeIfAbsent(brokerId, b -> new HashMap<>())
                .computeIfAbsent(id.topicId(), t -> new BitSet()).set(id.partition());
    }

    void remove(int brokerId, TopicIdPartition id) {
        Map<UUID, BitSet> topics = byBroker.get(brokerId);
        BitSet partitions = topics == null ? null : topics.get(id.topicId());
        if (partitions == null) {
            return;
        }
        partitions.clear(id.partition());
        if (partitions.isEmpty()) {
            topics.remove(id.topicId());
        }
    }

    /** Hands each partition {@code brokerId} is a member of to {@code action} (topics in no particular order). */
    void forEach(int brokerId, Consumer<TopicIdPartition> action) {
        byBroker.getOrDefault(brokerId, Map.of()).forEach((topicId, partitions) -> {
            for (int p = partitions.nextSetBit(0); p >= 0; p = partitions.nextSetBit(p + 1)) {
                action.accept(new TopicIdPartition(topicId, p));
            }
        });
    }

    /** Every broker that is a member of something, with its partitions (a copy, for comparisons in tests). */
    Map<Integer, Set<TopicIdPartition>> toMap() {
        Map<Integer, Set<TopicIdPartition>> copy = new TreeMap<>();
        for (int brokerId : byBroker.keySet()) {
            Set<TopicIdPartition> partitions = new HashSet<>();
            forEach(brokerId, partitions::add);
            if (!partitions.isEmpty()) {
                copy.put(brokerId, Set.copyOf(partitions));
            }
        }
        return copy;
    }
}
