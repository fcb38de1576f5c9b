package io.kraft.broker.group;

import java.util.EnumMap;
import java.util.Map;

/**
 * How many groups this coordinator holds in each state and how many committed offsets they have: a snapshot taken
 * on the coordinator's thread for its metrics.
 */
public record GroupCounts(Map<GroupState, Integer> byState, int offsets) {
    public static final GroupCounts NONE = new GroupCounts(new EnumMap<>(GroupState.class), 0);

    public GroupCounts {
        EnumMap<GroupState, Integer> copy = new EnumMap<>(GroupState.class);
        copy.putAll(byState);
        byState = copy;
    }

    /** Groups in {@code state}. */
    public int inState(GroupState state) {
        return byState.getOrDefault(state, 0);
    }

    /** Groups in every state but Dead (a dead group is on its way out and no longer listed). */
    public int live() {
        return byState.entrySet().stream().filter(e -> e.getKey() != GroupState.DEAD)
                .mapToInt(Map.Entry::getValue).sum();
    }
}
