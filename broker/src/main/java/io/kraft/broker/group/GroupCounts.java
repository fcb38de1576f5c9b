package io.kraft.broker.group;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * How many groups this coordinator holds in each state and the offsets they have committed: a snapshot taken on the
 * coordinator's thread for its metrics.
 *
 * @param committed every group's committed offset per partition
 */
public record GroupCounts(Map<GroupState, Integer> byState, Map<GroupOffset, Long> committed,
                          Map<String, Integer> consumerByState) {
    public static final GroupCounts NONE = new GroupCounts(new EnumMap<>(GroupState.class), Map.of());
    /** The states of consumer-protocol groups (KIP-848), in the lower case of Kafka's metric tags. */
    public static final List<String> CONSUMER_STATES = List.of("empty", "assigning", "reconciling", "stable", "dead");

    /** Classic groups only. */
    public GroupCounts(Map<GroupState, Integer> byState, Map<GroupOffset, Long> committed) {
        this(byState, committed, Map.of());
    }

    /** One group's committed position in one partition. */
    public record GroupOffset(String group, OffsetKey partition) {
    }

    public GroupCounts {
        EnumMap<GroupState, Integer> copy = new EnumMap<>(GroupState.class);
        copy.putAll(byState);
        byState = copy;
        committed = Map.copyOf(committed);
        consumerByState = Map.copyOf(consumerByState);
    }

    /** Consumer-protocol groups in {@code state} (one of {@link #CONSUMER_STATES}). */
    public int consumerInState(String state) {
        return consumerByState.getOrDefault(state, 0);
    }

    /** Consumer-protocol groups. */
    public int consumerGroups() {
        return consumerByState.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** Classic groups in {@code state}. */
    public int inState(GroupState state) {
        return byState.getOrDefault(state, 0);
    }

    /** Classic groups in every state but Dead (a dead group is on its way out and no longer listed). */
    public int live() {
        return byState.entrySet().stream().filter(e -> e.getKey() != GroupState.DEAD)
                .mapToInt(Map.Entry::getValue).sum();
    }

    /** Committed offsets, over all groups and partitions. */
    public int offsets() {
        return committed.size();
    }
}
