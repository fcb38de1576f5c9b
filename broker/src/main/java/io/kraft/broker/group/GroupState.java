package io.kraft.broker.group;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The states of a classic-protocol group and, in one place, which state each may be entered from.
 * {@link #wireName()} is the name DescribeGroups and ListGroups report.
 */
public enum GroupState {
    /** No members; offsets may still be held. */
    EMPTY("Empty"),
    /** Members are (re)joining; JoinGroup calls are held until all known members joined or the rebalance times out. */
    PREPARING_REBALANCE("PreparingRebalance"),
    /** The join phase completed; waiting for the leader's assignment in SyncGroup. */
    COMPLETING_REBALANCE("CompletingRebalance"),
    /** Every member has its assignment for the current generation. */
    STABLE("Stable"),
    /** Deleted or expired, or moved away with its coordinator partition; no longer usable. */
    DEAD("Dead");

    private final String wireName;

    GroupState(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** The states this one may be entered from. */
    public Set<GroupState> validPrevious() {
        return switch (this) {
            case EMPTY -> EnumSet.of(PREPARING_REBALANCE);
            case PREPARING_REBALANCE -> EnumSet.of(STABLE, COMPLETING_REBALANCE, EMPTY);
            case COMPLETING_REBALANCE -> EnumSet.of(PREPARING_REBALANCE);
            case STABLE -> EnumSet.of(COMPLETING_REBALANCE);
            case DEAD -> EnumSet.of(STABLE, PREPARING_REBALANCE, COMPLETING_REBALANCE, EMPTY, DEAD);
        };
    }

    /** The state with this wire name, ignoring case (ListGroups filters are matched that way). */
    public static Optional<GroupState> fromWireName(String name) {
        String wanted = name.toLowerCase(Locale.ROOT);
        for (GroupState state : values()) {
            if (state.wireName.toLowerCase(Locale.ROOT).equals(wanted)) {
                return Optional.of(state);
            }
        }
        return Optional.empty();
    }
}
