package io.kraft.broker.group.consumer;

/**
 * Where a member is in reaching its target assignment (KIP-848): it has it, it still holds partitions it must give up,
 * or it waits for partitions other members have not released yet. The byte is the stored form.
 */
public enum MemberState {
    STABLE((byte) 0, "stable"),
    UNREVOKED_PARTITIONS((byte) 1, "unrevoked_partitions"),
    UNRELEASED_PARTITIONS((byte) 2, "unreleased_partitions");

    private final byte value;
    private final String label;

    MemberState(byte value, String label) {
        this.value = value;
        this.label = label;
    }

    public byte value() {
        return value;
    }

    public String label() {
        return label;
    }

    /** The state stored as {@code value}; an unknown byte reads as STABLE (the next heartbeat reconciles again). */
    public static MemberState of(byte value) {
        for (MemberState state : values()) {
            if (state.value == value) {
                return state;
            }
        }
        return STABLE;
    }
}
