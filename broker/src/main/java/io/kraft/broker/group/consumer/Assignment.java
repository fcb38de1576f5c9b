package io.kraft.broker.group.consumer;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.BiPredicate;

/** An immutable set of partitions by topic id: a member's target, assigned or revoking partitions (KIP-848). */
public record Assignment(Map<UUID, SortedSet<Integer>> partitions) {
    public static final Assignment EMPTY = new Assignment(Map.of());

    public Assignment {
        TreeMap<UUID, SortedSet<Integer>> copy = new TreeMap<>();
        partitions.forEach((topic, ids) -> {
            if (!ids.isEmpty()) {
                copy.put(topic, Collections.unmodifiableSortedSet(new TreeSet<>(ids)));
            }
        });
        partitions = Collections.unmodifiableMap(copy);
    }

    /** A one-topic assignment, handy in tests. */
    public static Assignment of(UUID topic, Integer... ids) {
        return new Assignment(Map.of(topic, new TreeSet<>(Set.of(ids))));
    }

    public boolean isEmpty() {
        return partitions.isEmpty();
    }

    public int size() {
        return partitions.values().stream().mapToInt(Set::size).sum();
    }

    public boolean contains(UUID topic, int partition) {
        SortedSet<Integer> ids = partitions.get(topic);
        return ids != null && ids.contains(partition);
    }

    /** The partitions of this one for which {@code keep} holds. */
    public Assignment filter(BiPredicate<UUID, Integer> keep) {
        Map<UUID, SortedSet<Integer>> out = new TreeMap<>();
        partitions.forEach((topic, ids) -> ids.forEach(id -> {
            if (keep.test(topic, id)) {
                out.computeIfAbsent(topic, t -> new TreeSet<>()).add(id);
            }
        }));
        return new Assignment(out);
    }

    public Assignment minus(Assignment other) {
        return filter((topic, id) -> !other.contains(topic, id));
    }

    public Assignment intersect(Assignment other) {
        return filter(other::contains);
    }

    public Assignment union(Assignment other) {
        Map<UUID, SortedSet<Integer>> out = new TreeMap<>();
        partitions.forEach((topic, ids) -> out.computeIfAbsent(topic, t -> new TreeSet<>()).addAll(ids));
        other.partitions.forEach((topic, ids) -> out.computeIfAbsent(topic, t -> new TreeSet<>()).addAll(ids));
        return new Assignment(out);
    }
}
